"""``assist beyond-baker-street``: the Beyond Baker Street companion's session, and
``assist simulate beyond-baker-street``.

The ``assist beyond-baker-street`` and ``analyze`` commands are declared in :mod:`assistant_cli.main` (so that
their help needs no game import) and import this module when they run.

The session follows the shared pattern (:mod:`assistant_cli.session`, :mod:`assistant_cli.main`):
``BakerStreetSession.handle(line)`` turns a typed line into a :class:`~assistant_cli.session.Reply` of rich
renderables, raises :class:`~solver.errors.AssistantError` for a bad line (nothing changes), and keeps the
journal of accepted entries (rewritten atomically by :class:`~assistant_cli.session.Journal`). The terminal
loop, piped stdin, file replay and Ctrl-C recovery are the shared ones in ``main.py``.

What the user types is what happens at the table (:mod:`models.beyond_baker_street.observations`): the setup
(players, my seat, the case, the hands I see, the face-up Leads), then every Assist, card played, Confirm,
Pursue, Lead revealed and card another player draws. My own draw is added by the session (I cannot see the
card, and the rules say when it happens); ``me`` may stand for my seat number. After every entry it shows my
hand: for each position, the cards it can be with their exact probabilities.
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from assistant_cli import render
from assistant_cli.companion import (
    ClusterOption,
    GamesOption,
    ReplayOption,
    SeedOption,
    SummaryJsonOption,
    WorkersOption,
    run_simulation,
    seat_bots,
    speed_text,
)
from assistant_cli.companion_app import journal_header
from assistant_cli.session import BaseSession, Command, Journal, Reply, SetupQuestion, no_args
from models.beyond_baker_street.advisor import Advice, advise, make_bot
from models.beyond_baker_street.data import DEFAULT_DATA, ICONS, NUMBERS, SECTIONS, Evidence, GameData
from models.beyond_baker_street.hat import hat_advise, hat_table_of, in_play
from models.beyond_baker_street.knowledge import HandKnowledge, Told
from models.beyond_baker_street.observations import (
    Drew,
    Entry,
    parse,
    take_evidence,
)
from models.beyond_baker_street.rules import LOSS_KINDS, BakerStreetState, TableRules, new_game
from models.beyond_baker_street.table import Board
from solver.errors import AssistantError
from solver.knowledge import Explanation
from solver.simulate import Matchup, play_game
from solver.text import plural

GAME = "beyond-baker-street"
JOURNAL_HEADER = journal_header(GAME)
ADVICE_SHOWN = 8
CARDS_SHOWN = 6  # candidates listed per position before "+N more"
EQUAL_SHOWN = 8  # the same when they are all equally likely

COMMANDS: dict[str, tuple[str, ...]] = {
    "help": ("help", "h", "?"),
    "quit": ("quit", "exit", "q"),
    "show": ("show", "state", "s"),
    "undo": ("undo", "u"),
    "why": ("why",),
    "empathy": ("empathy", "they", "others"),
    "history": ("history", "hist"),
    "edit": ("edit",),
    "drop": ("drop",),
    "advise": ("advise", "advice"),
}
COMMAND_OF = {alias: name for name, aliases in COMMANDS.items() for alias in aliases}
ENTRY_VERBS = ("players", "me", "case", "start", "hand", "lead", "assist", "investigate", "eliminate", "confirm",
               "pursue", "draw")
SEAT_VERBS = ("assist", "hint", "investigate", "inv", "eliminate", "elim", "confirm", "pursue", "draw")

HELP_ROWS: tuple[tuple[str, str, str], ...] = (
    ("Setup", "players N / me SEAT / case N", "players 3   me 2   case 1"),
    ("", "start SEAT  (who plays first; default 1)", "start 1"),
    ("", "hand SEAT CARD ...  (another hand, left to right)", "hand 1 3W 5C 1D 6T"),
    ("", "lead CARD  (each face-up Lead; also later reveals)", "lead 7C   lead 12W"),
    ("Play", "assist GIVER TARGET NUMBER|ICON at POS ...", "assist 1 2 Clue at 1 3   assist 3 me 5 at 2"),
    ("", "investigate SEAT POS CARD SECTION", "investigate 1 2 4W suspect"),
    ("", "eliminate SEAT POS CARD", "eliminate me 3 6D"),
    ("", "confirm SEAT SECTION / pursue SEAT SECTION", "confirm 3 motive   pursue 1 opp"),
    ("", "draw SEAT CARD  (another player's draw; yours is automatic)", "draw 3 2T"),
    ("Session", "show / show brief", "the table and your hand / the Leads, tracks, next step and your hand"),
    ("", "why POS [CARD] [steps]", "why 2   why 2 3W   why 2 3W steps"),
    ("", "empathy [SEAT]", "what the others can know about their hands"),
    ("", "advise [all] [hat]", "ranked actions for your turn (hat: the table plays the hat convention)"),
    ("", "undo / history", "remove the last entry / list the entries, numbered"),
    ("", "edit N ENTRY / drop N  (fix entry N of 'history')", "edit 5 assist 1 me Clue at 2   drop 5"),
    ("", "help / quit", "aliases: h ?, exit q"),
)


class Question(SetupQuestion):
    """One step of the setup dialogue; an answer starting with a command or an entry verb passes through."""

    KEYWORDS = frozenset([*COMMAND_OF, *ENTRY_VERBS])


class BakerStreetSession(BaseSession):
    """One player's Beyond Baker Street companion: setup, what happens at the table, the journal."""

    COMMAND_OF = COMMAND_OF

    def __init__(
        self, journal: Journal | None = None, data: GameData = DEFAULT_DATA, count_budget: float = 2.0
    ) -> None:
        super().__init__(journal, count_budget)  # count_budget unused: the counts here are always exact and fast
        self.data = data
        self.kn = HandKnowledge(data)

    @property
    def knowledge(self) -> HandKnowledge | None:
        return self.kn if self.kn.started else None

    # -- the loop -------------------------------------------------------------------------------------------
    def _help_view(self) -> RenderableType:
        return help_view()

    def fresh(self) -> BakerStreetSession:
        return BakerStreetSession(None, self.data, self.count_budget)

    def _commands(self, show: bool) -> dict[str, Command]:
        return {"why": self._why, "empathy": self._empathy, "advise": self._advise}

    def _entry(self, tokens: list[str], show: bool) -> Reply:
        entry = parse(self._with_seat(tokens))
        before = self._by_card() if self.kn.started else None
        self._add(entry)
        self.lines.append(str(entry))
        self._save()
        summary = f"recorded '{entry}'"
        if not show:
            return Reply([], True, summary=summary)
        change = describe_change(before, self._by_card()) if before is not None and self.kn.started else ""
        head = f"{summary}; {change}" if change else summary
        return Reply([self.state_view(head)], True, summary=head)

    def _conflict_line(self, conflict: object) -> str | None:
        """An Assist named or skipped my card: the Assist's line; a card I see has no single line."""
        return str(conflict.assist) if isinstance(conflict, Told) else None

    def _by_card(self) -> list[tuple[int, dict[Evidence, float]]]:
        """My positions as (card id, distribution): ids follow a card as it moves along the hand."""
        kn = self.kn
        return [(slot.id, dist) for slot, dist in zip(kn.hands[kn.me], kn.hand(), strict=True)]

    def _with_seat(self, tokens: list[str]) -> str:
        """The line with 'me' standing for my seat number where a seat is expected."""
        if tokens[0].lower() not in SEAT_VERBS or not any(t.lower() == "me" for t in tokens[1:]):
            return " ".join(tokens)
        if self.kn.setup.me is None:
            raise AssistantError("'me' stands for your seat: enter 'me SEAT' first")
        return " ".join([tokens[0], *(str(self.kn.setup.me) if t.lower() == "me" else t for t in tokens[1:])])

    def _add(self, entry: Entry) -> None:
        """Add an entry, then my own draw when the rules make me draw (I cannot see the card)."""
        kn = self.kn
        started = kn.started
        kn.add(entry)
        if not started:
            return
        board = kn.board
        assert board is not None
        while board.pending and board.pending[0] == ("draw", kn.me):
            kn.add(Drew(kn.me))

    def _require(self, what: str) -> HandKnowledge:
        if not self.kn.started:
            raise AssistantError(f"{what}: finish the setup first, still need {', '.join(self.kn.missing())}")
        return self.kn

    # -- setup dialogue -------------------------------------------------------------------------------------
    def setup_question(self) -> Question | None:
        s = self.kn.setup
        if self.kn.started:
            return None
        if s.players is None:
            return Question("Number of players (2-4): ", "players")
        if s.me is None:
            return Question(f"Your seat (1-{s.players}): ", "me")
        if s.case is None:
            return Question("Case File (1-6): ", "case")
        if not any(line.startswith("start ") for line in self.lines):
            return Question(f"Who takes the first turn (seat 1-{s.players})? ", "start")
        for seat in range(1, s.players + 1):
            if seat != s.me and seat not in s.hands:
                return Question(f"Player {seat}'s hand, left to right (e.g. 3W 5C 1D 6T): ", f"hand {seat}")
        have = {e.lead.section for e in s.leads}
        examples = {"Opportunity": "7C", "Motive": "10D", "Suspect": "12W"}
        for section in SECTIONS:
            if section not in have:
                return Question(f"The face-up {section} Lead (e.g. {examples[section]}): ", "lead")
        return None

    # -- views ----------------------------------------------------------------------------------------------
    def state_view(self, head: str | None) -> RenderableType:
        parts: list[RenderableType] = []
        if head:
            parts.append(Text(head, style="bold"))
        kn = self.kn
        if not kn.started:
            parts.append(Text(f"setup: still need {', '.join(kn.missing())}"))
            return Group(*parts)
        board = kn.board
        assert board is not None
        parts += board_lines(board)
        others = [f"player {s}: {' '.join(c.code for c in kn.visible_hand(s)) or '-'}" for s in kn.hands if s != kn.me]
        parts.append(render.Flow(others, sep="; ", lead="Hands you see: "))
        if board.over:
            style = "bold green" if board.result == "won" else "bold red"
            parts.append(Text(f"Game over: {board.result} ({board.reason})", style=style))
        else:
            waiting = board.expecting()
            turn = "your turn" if board.current == kn.me else f"player {board.current}'s turn"
            parts.append(Text(f"Next: {waiting}" if waiting else f"Next: {turn}", style="cyan"))
        parts.append(hand_table(kn, kn.me, f"Your hand (player {kn.me})"))
        parts.append(Text(f"Consistent hands: {kn.worlds():,} (exact; every one equally likely)"))
        return Group(*parts)

    def brief_view(self) -> RenderableType:
        """One screen: the Leads, the tracks and the Impossible, what comes next, and your hand."""
        kn = self.kn
        if not kn.started:
            return Text(f"setup: still need {', '.join(kn.missing())}")
        board = kn.board
        assert board is not None
        parts: list[RenderableType] = [*board_lines(board)]
        if board.over:
            parts.append(Text(f"Game over: {board.result} ({board.reason})", style="bold"))
        else:
            waiting = board.expecting()
            turn = "your turn" if board.current == kn.me else f"player {board.current}'s turn"
            parts.append(Text(f"Next: {waiting or turn}", style="cyan"))
        parts.append(Text(f"Your hand (player {kn.me}), {kn.worlds():,} consistent hands:", style="bold"))
        for pos, dist in enumerate(kn.hand(), 1):
            head, atoms = position_atoms(dist)
            parts.append(render.Flow([head, *atoms], sep=" ", lead=f"  {pos}: ", indent="     "))
        return Group(*parts)

    def _why(self, args: list[str]) -> RenderableType:
        usage = "why POSITION [CARD] [steps]"
        kn = self._require("why")
        steps = bool(args) and args[-1].lower() == "steps"
        args = args[:-1] if steps else args
        if not args or not args[0].isdigit():
            raise AssistantError(f"why: expected '{usage}'")
        pos = int(args[0])
        held = len(kn.hands[kn.me])
        if not 1 <= pos <= held:
            raise AssistantError(f"why: position {pos}, but you hold {plural(held, 'card')}")
        if len(args) > 1:
            card, i = take_evidence(args, 1, usage)
            no_args("why", args[i:])
            if steps and card in kn.unseen():
                from assistant_cli.teach_games import BakerStreetTeacher, why_steps

                return Text(why_steps(BakerStreetTeacher(), self, (card.code, pos)))
            result = kn.explain(pos, card)
            prob = kn.hand()[pos - 1].get(card, 0.0)
            return why_card_view(card, pos, result, prob)
        return why_position_view(kn, pos)

    def _empathy(self, args: list[str]) -> RenderableType:
        kn = self._require("empathy")
        seats = [s for s in kn.hands if s != kn.me]
        if args:
            if len(args) != 1 or not args[0].isdigit() or int(args[0]) not in seats:
                among = ", ".join(map(str, seats[:-1])) + f" or {seats[-1]}" if len(seats) > 1 else str(seats[0])
                raise AssistantError(f"empathy {' '.join(args)}: expected 'empathy [SEAT]' with SEAT {among} "
                                     "(another player)")
            seats = [int(args[0])]
        parts: list[RenderableType] = [Text(
            "What each player can know about their own hand from their Assists and the cards you both see, now "
            "or since each of their cards came to them (they also see your hand, so they may know a little more).",
            style="dim")]
        parts += [hand_table(kn, s, f"Player {s}'s hand as they can know it") for s in seats]
        return Group(*parts)

    def _advise(self, args: list[str]) -> RenderableType:
        kn = self._require("advise")
        words = [a.lower() for a in args]
        if not set(words) <= {"all", "hat"} or len(set(words)) != len(words):
            raise AssistantError(f"advise: unexpected '{' '.join(args)}', expected 'advise [all] [hat]'")
        board = kn.board
        assert board is not None
        if board.over:
            raise AssistantError(f"advise: the game is over ({board.result}: {board.reason})")
        note: list[RenderableType] = []
        if board.pending:
            raise AssistantError(f"advise: first enter '{board.expecting()}'")
        if board.current != kn.me:
            note.append(Text(f"(it is player {board.current}'s turn; this is what you would do now)", style="dim"))
        advice = self._hat_advice(kn, note) if "hat" in words else advise(kn)
        return Group(*note, render.advice_view(advice, None if "all" in words else ADVICE_SHOWN, False))

    def _hat_advice(self, kn: HandKnowledge, note: list[RenderableType]) -> list[Advice]:
        """``advise hat``: the table plays the hat convention; what its messages told me, and its advice."""
        if not in_play(kn):
            note.append(Text("(the hat convention is played with 3 or 4 players in Case Files 3 to 6; this is the "
                             "plain advice)", style="dim"))
            return advise(kn)
        hat = hat_table_of(kn)
        told = [f"position {i}: {hat.labels[s.id]}" for i, s in enumerate(kn.hands[kn.me], 1) if s.id in hat.labels]
        note.append(Text("Hat messages told you: " + ("; ".join(told) if told else "nothing yet") +
                         " (true only if every player follows the convention)", style="dim"))
        return hat_advise(kn, hat)

    def summary(self) -> dict[str, object]:
        """The current state as plain data (``analyze --json``): ``hand`` has one map per position."""
        kn = self._require("analyze")
        board = kn.board
        assert board is not None
        return {
            "game": GAME,
            "players": kn.players,
            "me": kn.me,
            "case": board.case.number,
            "hand": [{c.name: p for c, p in sorted(d.items(), key=lambda kv: -kv[1])} for d in kn.hand()],
            "worlds": kn.worlds(),
            "told": [told_text(kn, kn.me, pos) for pos in range(1, len(kn.hands[kn.me]) + 1)],
            "empathy": {
                str(s): [{c.name: p for c, p in sorted(d.items(), key=lambda kv: -kv[1])} for d in kn.hand(s)]
                for s in kn.hands if s != kn.me
            },
            "board": {
                "leads": {
                    s: {
                        "lead": ls.lead.code if ls.lead else None,
                        "evidence": [c.code for c in ls.evidence],
                        "raised": [c.code for c in ls.raised],
                        "target": ls.target if ls.lead else None,
                        "confirmed": ls.confirmed,
                        "below": ls.pile,
                    }
                    for s, ls in board.leads.items()
                },
                "track": board.track,
                "holmes": board.holmes,
                "impossible": [c.code for c in board.impossible],
                "deck": board.deck,
                "next": None if board.over else board.current,
                "result": board.result,
            },
            "entries": list(self.lines),
        }

    # -- completion -----------------------------------------------------------------------------------------
    def _candidates(self, words: list[str]) -> list[str]:
        s = self.kn.setup
        if not words:
            return [*ENTRY_VERBS, *(aliases[0] for aliases in COMMANDS.values())]
        verb, pos = words[0].lower(), len(words)
        seats = [str(i) for i in range(1, (s.players or 4) + 1)] + (["me"] if s.me else [])
        cards = [c.code for c in (self.kn.unseen() if self.kn.started else self.data.evidence)]
        sections = list(SECTIONS)
        subjects = [*map(str, NUMBERS), *ICONS]
        if verb == "players":
            return [str(n) for n in sorted(self.data.hand_sizes)] if pos == 1 else []
        if verb in ("me", "start"):
            return seats[:-1] if pos == 1 and s.me else seats if pos == 1 else []
        if verb == "case":
            return [str(n) for n in sorted(self.data.case_files)] if pos == 1 else []
        if verb == "hand":
            return seats if pos == 1 else cards
        if verb == "lead":
            return [f"{v}{i[0]}" for v in range(7, 14) for i in ICONS] if pos == 1 else []
        if verb in ("assist", "hint"):
            return seats if pos <= 2 else subjects if pos == 3 else ["at"] if pos == 4 else ["1", "2", "3", "4"]
        if verb in ("investigate", "inv"):
            return seats if pos == 1 else ["1", "2", "3", "4", "5", "6"] if pos == 2 else cards if pos == 3 \
                else sections if pos == 4 else []
        if verb in ("eliminate", "elim"):
            return seats if pos == 1 else ["1", "2", "3", "4", "5", "6"] if pos == 2 else cards if pos == 3 else []
        if verb in ("confirm", "pursue"):
            return seats if pos == 1 else sections if pos == 2 else []
        if verb == "draw":
            return seats if pos == 1 else cards if pos == 2 else []
        if COMMAND_OF.get(verb) == "why" and self.kn.started:
            held = [str(i) for i in range(1, len(self.kn.hands[self.kn.me]) + 1)]
            return held if pos == 1 else [c.code for c in self.kn.hand()[int(words[1]) - 1]] \
                if pos == 2 and words[1].isdigit() and words[1] in held else []
        if COMMAND_OF.get(verb) == "advise":
            return ["all", "hat"] if pos in (1, 2) else []
        return []


# -- rendering --------------------------------------------------------------------------------------------------


def help_view() -> RenderableType:
    table = Table(title="Beyond Baker Street companion", box=box.SIMPLE_HEAD)
    table.add_column("")
    table.add_column("Syntax")
    table.add_column("Example")
    for row in HELP_ROWS:
        table.add_row(*(Text(cell) for cell in row))  # Text: no markup, so "[all]" stays visible
    note = Text("Cards are a number and an icon: 3W, 3w or '3 Witness'. Sections and icons take unique prefixes "
                "(s = Suspect). Seats are numbered 1..N clockwise, positions 1.. from the left; 'me' stands for "
                "your seat. Everything after '#' is a comment.")
    return Group(table, note)


def told_text(kn: HandKnowledge, seat: int, pos: int) -> str:
    """What the Assists to this card say, in a few words ("3, Witness", "not 1; not Clue, Track")."""
    slot = kn.hands[seat][pos - 1]
    parts = []
    if len(slot.numbers) == 1:
        parts.append(str(next(iter(slot.numbers))))
    elif len(slot.numbers) < len(NUMBERS):
        parts.append("not " + ", ".join(str(n) for n in NUMBERS if n not in slot.numbers))
    if len(slot.icons) == 1:
        parts.append(next(iter(slot.icons)))
    elif len(slot.icons) < len(ICONS):
        parts.append("not " + ", ".join(i for i in ICONS if i not in slot.icons))
    return "; ".join(parts) or "-"


def board_lines(board: Board) -> list[RenderableType]:
    """The board's lines, each broken on a narrow screen only between its '; ' parts."""
    return [render.Flow(line.split("; "), sep="; ", indent="  ") for line in board.describe()]


def position_atoms(dist: dict[Evidence, float]) -> tuple[str, list[str]]:
    """A position's possible cards in words: a head ("4 equally likely (25.0% each):") and the cards, each an
    atom a narrow screen never splits ("1C 25.0%,")."""
    ordered = sorted(dist.items(), key=lambda kv: (-kv[1], kv[0]))
    if len(ordered) == 1:
        return f"{ordered[0][0].name} (certain)", []
    if ordered[0][1] - ordered[-1][1] < 1e-12:
        atoms = [c.code for c, _ in ordered[:EQUAL_SHOWN]]
        atoms += [f"+{len(ordered) - EQUAL_SHOWN} more"] if len(ordered) > EQUAL_SHOWN else []
        return f"{len(ordered)} equally likely ({render.percent_text(ordered[0][1], True)} each):", atoms
    atoms = [f"{c.code} {render.percent_text(p, True)}," for c, p in ordered[:CARDS_SHOWN]]
    if len(ordered) > CARDS_SHOWN:
        atoms.append(f"+{len(ordered) - CARDS_SHOWN} more")
    else:
        atoms[-1] = atoms[-1].rstrip(",")
    return f"{len(ordered)}:", atoms


def hand_table(kn: HandKnowledge, seat: int, title: str) -> RenderableType:
    """One row per position: what the Assists said, and every possible card with its probability.

    Drawn as one pre-aligned text block rather than a rich ``Table``: it is redrawn after every entry, and
    rich's table layout costs tens of milliseconds where this costs well under one. When the block is wider
    than the screen, each position gets its own lines instead, broken only between cards."""
    rows = []
    for pos, dist in enumerate(kn.hand(seat), 1):
        head, atoms = position_atoms(dist)
        slot = kn.hands[seat][pos - 1]
        really = slot.card.code if slot.card else "?"
        rows.append((str(pos), really, told_text(kn, seat, pos), head, atoms, len(dist) == 1))
    show_really = seat != kn.me
    headers = ("Pos", "Really", "Told", "Possible cards (probability)")
    told_width = max([len(headers[2]), *(len(r[2]) for r in rows)])
    wide = Text(title + "\n", style="bold")

    def line(pos: str, really: str, told: str, cards: str, style: str = "") -> None:
        wide.append(f"{pos:>3}  ")
        if show_really:
            wide.append(f"{really:<6}  ")
        wide.append(f"{told:<{told_width}}  ")
        wide.append(cards + "\n", style=style)

    line(*headers, style="bold")
    narrow: list[RenderableType] = [Text(title, style="bold")]
    for pos, really, told, head, atoms, certain in rows:
        style = "bold green" if certain else ""
        line(pos, really, told, " ".join([head, *atoms]), style)
        seen = f" (really {really})" if show_really else ""
        narrow.append(Text(f"Position {pos}{seen}, told: {told}"))
        narrow.append(render.Flow([Text(head, style=style), *atoms], sep=" ", lead="  ", indent="  "))
    wide.rstrip()
    return render.Either(wide, Group(*narrow))


def describe_change(
    before: list[tuple[int, dict[Evidence, float]]], after: list[tuple[int, dict[Evidence, float]]]
) -> str:
    """What an entry changed in my hand, card by card (a card keeps its id as it moves along the hand)."""
    old = dict(before)
    parts = []
    for pos, (card_id, a) in enumerate(after, 1):
        b = old.get(card_id)
        if b is None:
            parts.append(f"new card at position {pos}")
        elif len(a) == 1 and len(b) > 1:
            parts.append(f"position {pos} is certainly {next(iter(a)).code}")
        elif len(a) != len(b):
            parts.append(f"position {pos}: {len(b)} -> {len(a)} candidates")
    moved = [pos for pos, (card_id, _) in enumerate(after, 1) if card_id in old
             and [i for i, _ in before].index(card_id) + 1 != pos]
    if moved:
        parts.append(f"cards moved left to {', '.join(map(str, moved))}")
    return "; ".join(parts) or "no change to your hand's candidates"


def why_position_view(kn: HandKnowledge, pos: int) -> RenderableType:
    """``why POS``: the Assists to this card, the cards seen elsewhere, what the counting rules out."""
    dist = kn.hand()[pos - 1]
    slot = kn.hands[kn.me][pos - 1]
    lines = [Text(f"Position {pos}: {len(dist)} possible cards.", style="bold")]
    hints = kn.hints_on(pos)
    if hints:
        lines.append(Text("Assists that reached this card:"))
        for assist, named in hints:
            what = f"named it: it is a {assist.subject}" if named else f"skipped it: it is not a {assist.subject}"
            lines.append(Text(f"  '{assist}' {what}"))
    else:
        lines.append(Text("No Assist has reached this card yet."))
    sightings = kn.sighted_at(pos)  # seen elsewhere now, or since this card came to me
    allowed = [c for c in kn.data.evidence if slot.allows(c)]
    seen = [c for c in allowed if c in sightings]
    if seen:
        lines.append(Text(f"Allowed by the Assists but seen elsewhere ({len(seen)}):"))
        lines += [Text(f"  {sightings[c]}") for c in seen]
    counted_out = [c for c in allowed if c not in sightings and c not in dist]
    if counted_out:
        lines.append(Text("Ruled out because your other positions need them: "
                          + ", ".join(c.code for c in counted_out) + f" ('why {pos} CARD' says which)"))
    ordered = sorted(dist.items(), key=lambda kv: (-kv[1], kv[0]))
    lines.append(Text("Possible: " + ", ".join(f"{c.code} {render.percent_text(p, True)}" for c, p in ordered)))
    return Group(*lines)


def why_card_view(card: Evidence, pos: int, result: Explanation[Any] | str, prob: float) -> RenderableType:
    if isinstance(result, str):
        return Text(result)
    if result.status == "open":
        return Text(f"{card.name} is possible at your position {pos} (probability {100 * prob:.1f}%): "
                    f"nothing rules it in or out.")
    verdict = "is certainly at" if result.status == "certain" else "cannot be at"
    if not result.reasons:
        return Text(f"{card.name} {verdict} your position {pos} by the rules alone.")
    lines = [Text(f"{card.name} {verdict} your position {pos}, because:")]
    lines += [Text(f"  {i}. {r}") for i, r in enumerate(result.reasons, 1)]
    return Group(*lines)


# -- the Typer apps ---------------------------------------------------------------------------------------------



# -- simulation ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SimulationSummary:
    """A cooperative run: the table wins or loses together."""

    games: int
    wins: int
    means: dict[str, float]  # per game, summed over the seats
    losses: dict[str, int]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def stderr(self) -> float:
        p = self.win_rate
        return math.sqrt(p * (1 - p) / self.games) if self.games else 0.0


def summarize_records(records: Sequence[Any]) -> SimulationSummary:
    n = len(records)
    wins = sum(1 for r in records if r.stats[0].get("won", 0.0))
    table_keys = {"won", "holmes", "track", *LOSS_KINDS}
    keys = sorted({k for r in records for st in r.stats for k in st} - table_keys)
    means = {k: sum(st.get(k, 0.0) for r in records for st in r.stats) / n for k in keys} if n else {}
    for k in ("holmes", "track"):
        means[f"{k}_at_end"] = sum(r.stats[0].get(k, 0.0) for r in records) / n if n else 0.0
    losses = {k: int(sum(r.stats[0].get(k, 0.0) for r in records)) for k in LOSS_KINDS}
    return SimulationSummary(n, wins, means, losses)


def simulate_command(
    games: GamesOption = 100,
    players: Annotated[int, typer.Option(help="Players at the table (2 to 4).")] = 3,
    case: Annotated[int, typer.Option(help="Case File (1 to 6).")] = 1,
    bots: Annotated[str, typer.Option(help="Bots seat by seat, comma-separated, or one name for every seat "
                                           "(random, advisor, hat: the advisor with the hat convention, "
                                           "every seat).")] = "advisor",
    seed: SeedOption = 0,
    workers: WorkersOption = 1,
    cluster: ClusterOption = None,
    as_json: SummaryJsonOption = False,
    replay: ReplayOption = None,
) -> None:
    """Simulate Beyond Baker Street games (cooperative: the table wins or loses together)."""

    def build() -> Matchup:
        rules = TableRules(players, case)
        names = seat_bots(bots, players, lambda name: make_bot(name, 1, random.Random(0)), counted=False)
        if "hat" in names and set(names) != {"hat"}:
            raise AssistantError(f"--bots '{bots}': hat is a convention the whole table plays; make every seat hat")
        return Matchup(functools.partial(new_game, rules), names, make_bot)

    run = run_simulation(build, games, seed, workers, replay, _replay,
                         f"{GAME} --players {players} --case {case} --bots {bots}", cluster=cluster)
    if run is None:
        return
    names, elapsed = run.matchup.bots, run.elapsed
    summary = summarize_records(run.records)
    if as_json:
        typer.echo(json.dumps({
            "game": GAME, "games": summary.games, "seed": seed, "players": players, "case": case,
            "bots": list(names), "wins": summary.wins, "win_rate": summary.win_rate,
            "win_rate_stderr": summary.stderr, "mean_per_game": summary.means, "losses": summary.losses,
            "seconds": elapsed,
        }, indent=2))
        return
    out = Console()
    table = Table(title=f"Beyond Baker Street, {players} players, Case File {case}, {summary.games} games "
                        f"({', '.join(names)})")
    for col in ("Wins", "Win %", "s.e.", "Turns", "Assist", "Invest", "Wrong", "Elim", "Pursue", "Dead"):
        table.add_column(col, justify="right")
    m = summary.means
    table.add_row(str(summary.wins), f"{100 * summary.win_rate:.1f}", f"{100 * summary.stderr:.1f}",
                  *(f"{m.get(k, 0.0):.1f}" for k in ("turns", "assists", "investigates", "mismatches", "eliminates",
                                                      "pursues", "dead_leads")))
    out.print(table)
    lost = ", ".join(f"{k.removeprefix('lost_').replace('_', ' ')} {v}" for k, v in summary.losses.items())
    out.print(f"Losses: {lost}. Means are per game, all seats together (Wrong: investigated on the wrong "
              f"icon; Dead: Dead Leads). {speed_text(summary.games, elapsed, run.where)}.")


def _replay(matchup: Matchup, seed: int) -> None:
    record, state = play_game(matchup, seed)
    assert isinstance(state, BakerStreetState)
    out = Console()
    out.print(f"Game seed {seed}: bots {', '.join(matchup.bots)}; first player {state.first_player}")
    for s in state.seats:
        out.print(f"  player {s} was dealt {' '.join(c.code for c in state.hand_log[s][0])}", highlight=False)
    for line in state.log:
        out.print(line, highlight=False)
    out.print(f"Result: {state.board.result} ({state.board.reason}) after {record.actions} actions.")
