"""Import a Board Game Arena deal into the Thirteen Clues setup (issue 19 §6).

When the mysteries are assigned, BGA's client receives ``visible_cards_players``: player id -> the cards that
player's screen shows you, each ``{"name": CARD}``. The one entry with two cards is yours (your two private
cards, left then right); every other entry is a screen you see (that player's mystery). This module reads that
JSON (bare, or inside an object under the key ``visible_cards_players``) and turns it into the setup lines a
player would type (``players``, ``me``, ``private``, ``screen``), so the import is journalled like typed entries
and checked by the same rules.

BGA ids say nothing about where players sit, unless they are the seat numbers themselves (1..N): otherwise the
seat order is asked, as the ids clockwise from seat 1. Every error is one line naming the player, the card or
the count at fault.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from dataclasses import dataclass

from models.thirteen_clues.data import CARD_BY_NAME, CATEGORIES
from solver.errors import AssistantError
from solver.text import plural

KEY = "visible_cards_players"
MAX_CHARS = 100_000  # a real deal is well under 2,000 characters: anything far larger is not one
MIN_PLAYERS, MAX_PLAYERS = 2, 6
_BY_FOLDED = {name.lower().replace(" ", "").replace("_", ""): name for name in CARD_BY_NAME}


class BgaDealError(AssistantError):
    """A pasted or given BGA deal that cannot be read: its message names what is wrong, in one line."""


@dataclass(frozen=True)
class BgaDeal:
    """A BGA deal as read: my id and private cards, and each other id's screen (person, location, weapon)."""

    me: str
    private: tuple[str, str]
    screens: dict[str, tuple[str, str, str]]
    ids: tuple[str, ...]  # every player id, in the order the deal lists them

    def seat_order(self) -> list[str] | None:
        """The ids clockwise from seat 1 when the ids are the seat numbers 1..N themselves, else None (ask)."""
        ids = list(self.ids)
        numbers = sorted(ids, key=lambda i: int(i) if i.isdigit() else -1)
        if all(i.isdigit() for i in ids) and [int(i) for i in numbers] == list(range(1, len(ids) + 1)):
            return numbers
        return None

    def to_json(self) -> str:
        """The deal as the JSON :func:`parse_deal` reads back to this same deal (the ids in their order), so a
        deal waiting for its seat order can be kept in a file and read again after a restart."""
        players = {p: [{"name": c} for c in (self.private if p == self.me else self.screens[p])] for p in self.ids}
        return json.dumps({KEY: players}, ensure_ascii=False)

    def lines(self, order: Sequence[str]) -> list[str]:
        """The setup lines for seats in ``order`` (the ids clockwise from seat 1)."""
        seat = {player: i for i, player in enumerate(order, 1)}
        out = [f"players {len(order)}", f"me {seat[self.me]}", f"private {self.private[0]} {self.private[1]}"]
        for player, cards in sorted(self.screens.items(), key=lambda kv: seat[kv[0]]):
            out.append(f"screen {seat[player]} {' '.join(cards)}")
        return out


def _shown(value: object, limit: int = 40) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def card_name(raw: object, where: str) -> str:
    """The card a BGA entry names (case, spaces and underscores ignored), or a one-line error naming it."""
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
        raise BgaDealError(f"BGA deal: {where}: expected {{\"name\": CARD}}, got {_shown(raw)}")
    name = raw["name"]
    found = _BY_FOLDED.get(name.lower().replace(" ", "").replace("_", ""))
    if found is None:
        close = difflib.get_close_matches(name, list(CARD_BY_NAME), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else " (expected a Thirteen Clues card, e.g. 'Knife')"
        raise BgaDealError(f"BGA deal: {where}: unknown card {_shown(name)}{hint}")
    return found


def parse_deal(text: str) -> BgaDeal:
    """Read the ``visible_cards_players`` JSON; raises :class:`BgaDealError` with one line for a bad card, count or
    shape."""
    if len(text) > MAX_CHARS:
        raise BgaDealError(f"BGA deal: {len(text):,} characters; expected a deal of at most {MAX_CHARS:,}")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BgaDealError(f"BGA deal: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise BgaDealError("BGA deal: nested too deeply; expected an object of player id -> list of "
                           "{\"name\": CARD}") from None
    if isinstance(raw, dict) and KEY in raw:
        raw = raw[KEY]
    if not isinstance(raw, dict) or not raw:
        raise BgaDealError(f"BGA deal: expected an object of player id -> list of {{\"name\": CARD}}, got "
                           f"{_shown(raw)}")
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        raise BgaDealError(f"BGA deal: {len(raw)} players; expected {MIN_PLAYERS} to {MAX_PLAYERS}")
    hands: dict[str, list[str]] = {}
    for player, cards in raw.items():
        where = f"player {player}"
        if not isinstance(cards, list):
            raise BgaDealError(f"BGA deal: {where}: expected a list of {{\"name\": CARD}}, got {_shown(cards)}")
        if len(cards) not in (2, 3):
            raise BgaDealError(f"BGA deal: {where} has {plural(len(cards), 'card')}; expected 2 (yours: your private "
                               "cards) or 3 (a screen you see)")
        hands[str(player)] = [card_name(card, f"{where}, card {i}") for i, card in enumerate(cards, 1)]
    mine = [player for player, cards in hands.items() if len(cards) == 2]
    if len(mine) != 1:
        which = f"{len(mine)} players with two cards ({', '.join(mine)})" if mine else "no player with two cards"
        raise BgaDealError(f"BGA deal: {which}; expected exactly one, yours (your two private cards)")
    screens: dict[str, tuple[str, str, str]] = {}
    for player, cards in hands.items():
        if player == mine[0]:
            continue
        categories = sorted(CARD_BY_NAME[c].category for c in cards)
        if categories != sorted(CATEGORIES):
            raise BgaDealError(f"BGA deal: player {player}'s screen {', '.join(cards)}: expected one Person, one "
                               "Location and one Weapon")
        ordered = sorted(cards, key=lambda c: CATEGORIES.index(CARD_BY_NAME[c].category))
        screens[player] = (ordered[0], ordered[1], ordered[2])
    private = hands[mine[0]]
    return BgaDeal(mine[0], (private[0], private[1]), screens, tuple(hands))


def read_deal_file(path: str) -> str:
    """The text of a deal file (``--bga-deal FILE``), or a one-line error naming the file."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read(MAX_CHARS + 1)
    except (OSError, UnicodeDecodeError) as exc:
        raise BgaDealError(f"--bga-deal {path}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    return text


def parse_order(text: str, deal: BgaDeal) -> list[str]:
    """The seat order typed as the ids clockwise from seat 1 (spaces or commas); each id exactly once."""
    order = [word for word in text.replace(",", " ").split() if word]
    ids = list(deal.ids)
    if sorted(order) != sorted(ids):
        raise BgaDealError(f"seats {_shown(' '.join(order), 60)}: expected each of the ids {', '.join(ids)} once, "
                           "clockwise from seat 1")
    return order
