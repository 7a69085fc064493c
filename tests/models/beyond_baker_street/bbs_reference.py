"""A brute-force reference for one Beyond Baker Street player's hand that replays the game's card flow, and a
generator of games with Dead Leads and Pursues (reshuffles) for the property tests.

The reference knows nothing of sightings or spans: it replays the entries with a variable for every card that
ever entered my hand (dealt or drawn), each allowed only what the process allows at that moment. A dealt card is
none of the other hands; a card I draw comes from the deck then (every card not in another hand, on a Lead, in
the Impossible or confirmed, and not one I hold); a card another player draws was in the deck then (so none of
the cards I hold then is it); a card I play is the card named; an Assist to me names exactly its positions; the
cards I hold at one time are different. Every solution is one history of my hand (every card I played is
shown, so the past positions are pinned), and each has the same probability (every draw has as many equally
likely outcomes as the public deck size, whatever the history), so counting solutions is counting histories.
:func:`history_reference` enumerates them with python-constraint (:func:`solver.reference.count_distinct`).

Character cards that move cards unseen are replayed the same way, with a variable for every card lying at a
known place in the deck (Toby's card on top or at the bottom, the card buried for Lady Eva Blackwell): fixed if I
saw it, else any card of the deck then; it is different from the cards held while it lies there and from every
card drawn above it, and a draw that reaches it takes it. Lady Eva Blackwell's kept and buried cards are two
different cards of the deck (the choice taken as independent of the cards); a swap fixes both cards. Then the
histories count every such variable too, so the reference reports both the histories and the distinct hands
(:attr:`HistoryReference.hands`), and the model's world count must equal the latter while its probabilities equal
the histories' (each hand has as many histories as any other: the count of the hidden deck cards is public).

Figures: ``python tests/models/beyond_baker_street/bbs_reference.py --games 200`` replays that many random
games per player count and prints how many reshuffle states were compared and agreed.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from models.beyond_baker_street.data import DEFAULT_DATA, SECTIONS, Evidence, GameData  # noqa: E402
from models.beyond_baker_street.knowledge import HandKnowledge, hand_worlds  # noqa: E402
from models.beyond_baker_street.observations import (  # noqa: E402
    Action,
    Assisted,
    Buried,
    Case,
    CharacterCard,
    DoubleAssisted,
    Drew,
    Eliminated,
    Entry,
    Hand,
    HandSwapped,
    Investigated,
    LeadRevealed,
    Me,
    Peeked,
    Players,
    Returned,
    Start,
    matches,
)
from models.beyond_baker_street.rules import BakerStreetState, TableRules, new_character_game, new_game  # noqa: E402
from models.beyond_baker_street.table import Board  # noqa: E402
from solver.reference import count_distinct  # noqa: E402


@dataclass(frozen=True)
class HistoryReference:
    """The brute force's answer: how many histories, and per current position card -> histories with it."""

    worlds: int
    positions: list[dict[Evidence, int]]
    hands: int = -1  # distinct current hands (-1: as many as the histories, no deck card was pinned)

    @property
    def hand_count(self) -> int:
        return self.worlds if self.hands < 0 else self.hands

    def probability(self, position: int, card: Evidence) -> float:
        return self.positions[position - 1].get(card, 0) / self.worlds if self.worlds else 0.0


def history_reference(entries: Sequence[Entry], data: GameData = DEFAULT_DATA,
                      limit: int = 2_000_000) -> HistoryReference:
    """Replay one player's ``entries`` (setup lines first) and count the histories of their hand."""
    players = me = case = None
    start = 1
    characters: dict[int, str] = {}
    top: str | None = None  # the variable of the card Toby put back on top
    bottom: list[str] = []  # the variables of the cards at the bottom of the deck, bottom-most first
    pins: list[str] = []  # every pinned variable ever made
    buried: list[str] = []  # Lady Eva Blackwell's card waiting for its 'bury' entry
    others: dict[int, list[Evidence]] = {}
    leads: list[LeadRevealed] = []
    board: Board | None = None
    domains: dict[str, set[Evidence]] = {}
    mine: list[str] = []  # variable names of the cards I hold now, left to right
    distinct: list[list[str]] = []
    everything = set(data.evidence)

    def visible() -> set[Evidence]:
        assert board is not None
        out = {c for h in others.values() for c in h}
        for ls in board.leads.values():
            out |= set(ls.evidence) | set(ls.raised)
        out |= {c for c in board.impossible if isinstance(c, Evidence)}
        return out | set(board.confirmed_cards)

    def new_card(allowed: set[Evidence]) -> None:
        var = f"c{len(domains)}"
        domains[var] = allowed
        mine.append(var)
        distinct.append(list(mine) + live_pins())

    def live_pins() -> list[str]:
        return ([top] if top else []) + list(bottom) + list(buried)

    def new_pin(card: Evidence | None) -> str:
        """A card of the deck at a known place: ``card`` if I saw it, else any card of the deck now."""
        var = f"d{len(domains)}"
        domains[var] = {card} if card is not None else everything - visible()
        pins.append(var)
        distinct.append(list(mine) + live_pins() + [var])
        return var

    def seen_drawn(card: Evidence) -> None:
        for var in mine + live_pins():
            domains[var].discard(card)

    for entry in entries:
        if board is None:
            if isinstance(entry, Players):
                players = entry.count
            elif isinstance(entry, Me):
                me = entry.seat
            elif isinstance(entry, Case):
                case = entry.number
            elif isinstance(entry, Start):
                start = entry.seat
            elif isinstance(entry, Hand):
                others[entry.seat] = list(entry.cards)
            elif isinstance(entry, LeadRevealed):
                leads.append(entry)
            elif isinstance(entry, CharacterCard):
                characters[entry.seat] = data.character(entry.name).name
            if (players and me and case and len(others) == players - 1 and len(leads) == len(SECTIONS)):
                board = Board(players, data.case(case), start, data)
                board.characters = {t: data.characters[n] for t, n in characters.items()}
                for e in sorted(leads, key=lambda e: SECTIONS.index(e.lead.section)):
                    board.apply(e)
                dealt = everything - visible()
                for _ in range(data.hand_size(players)):
                    new_card(set(dealt))
            continue
        if isinstance(entry, Start):
            board.first = board.current = entry.seat
            continue
        parts = [entry] if isinstance(entry, Assisted) else \
            [entry.first, entry.second] if isinstance(entry, DoubleAssisted) else []
        for part in parts:
            if part.target == me:
                for i, var in enumerate(mine, 1):
                    domains[var] = {c for c in domains[var] if matches(c, part.subject) == (i in part.positions)}
        if isinstance(entry, Investigated | Eliminated):
            if entry.seat == me:
                var = mine.pop(entry.position - 1)
                domains[var] &= {entry.card}
            else:
                others[entry.seat].pop(entry.position - 1)
        if isinstance(entry, HandSwapped):
            for seat, pos, gone, got in ((entry.seat, entry.position, entry.given, entry.taken),
                                         (entry.target, entry.target_position, entry.taken, entry.given)):
                if seat == me:
                    domains[mine[pos - 1]] &= {gone}
                    var = f"c{len(domains)}"
                    domains[var] = {got}
                    mine[pos - 1] = var
                    distinct.append(list(mine))
                else:
                    others[seat][pos - 1] = got
        pinned: str | None = None
        two = isinstance(entry, Drew) and board.draws_two(entry.seat)
        if isinstance(entry, Drew):
            if board.top_known:
                assert top is not None and not two, "the reference leaves out Eva drawing Toby's known top card"
                pinned, top = top, None
            elif board.deck == board.bottom:
                pinned = bottom.pop()
        if isinstance(entry, Peeked):
            all_pinned = not board.top_known and board.deck == board.bottom
            if board.top_known:
                assert top is not None
                var, top = top, None
            elif not all_pinned:
                var = new_pin(entry.card)
            else:
                var = bottom.pop()
            if entry.card is not None:
                domains[var] &= {entry.card}
            if entry.bottom:
                bottom.insert(0, var)
            elif all_pinned:
                bottom.append(var)
            else:
                top = var
        if isinstance(entry, Buried):
            var = buried.pop()
            if entry.card is not None:
                domains[var] &= {entry.card}
            bottom.insert(0, var)
        shuffled = board.apply(entry)  # the public consequences: Leads, the Impossible, cards back into the deck
        if shuffled or isinstance(entry, Returned):
            top, bottom = None, []
        if isinstance(entry, Drew):
            if entry.seat == me:
                if pinned is not None:
                    mine.append(pinned)
                    distinct.append(list(mine))
                else:
                    new_card(everything - visible())  # from the deck: neither in sight nor held (distinct)
            else:
                assert entry.card is not None
                if pinned is not None:
                    domains[pinned] &= {entry.card}
                seen_drawn(entry.card)
                others[entry.seat].append(entry.card)
            if two:  # the other card of her two: a different card of the deck, buried next
                buried.append(new_pin(None))
    return _enumerate(domains, distinct, mine, limit, bool(pins))


def _enumerate(domains: dict[str, set[Evidence]], distinct: list[list[str]], mine: list[str], limit: int,
               project: bool) -> HistoryReference:
    """Count the histories (and, with pinned deck cards, the distinct hands they give)."""
    if not project:
        total, weights = count_distinct({v: sorted(d) for v, d in domains.items()}, distinct, limit)
        positions = [{c: w for (v, c), w in weights.items() if v == var} for var in mine]
        return HistoryReference(total, positions)  # type: ignore[arg-type]
    from constraint import AllDifferentConstraint, Problem

    if any(not d for d in domains.values()):
        return HistoryReference(0, [{} for _ in mine], 0)
    pc = Problem()
    for var, dom in domains.items():
        pc.addVariable(var, sorted(dom))
    for group in distinct:
        if len(set(group)) > 1:
            pc.addConstraint(AllDifferentConstraint(), list(dict.fromkeys(group)))
    total = 0
    hands: set[tuple[Evidence, ...]] = set()
    positions: list[dict[Evidence, int]] = [{} for _ in mine]
    for world in pc.getSolutionIter():
        total += 1
        if total > limit:
            raise OverflowError(f"more than {limit} histories")
        hand = tuple(world[v] for v in mine)
        hands.add(hand)
        for row, c in zip(positions, hand, strict=True):
            row[c] = row.get(c, 0) + 1
    return HistoryReference(total, positions, len(hands))


# -- games with reshuffles ------------------------------------------------------------------------------------


def _loses(st: BakerStreetState, action: Action) -> bool:
    trial = st.clone()
    trial.apply(action)
    return trial.board.result == "lost"


def pick(st: BakerStreetState, rng: random.Random) -> Action:
    """A random action that favours Investigating (matching icons too, for Dead Leads) and Pursuing, avoiding
    ones that lose at once when others exist, so games run long and reshuffle often."""
    actions = st.legal_actions()
    kinds: dict[str, list[Action]] = {}
    for a in actions:
        kinds.setdefault(type(a).__name__, []).append(a)
    weights = {"Confirm": 6.0, "Investigate": 4.0, "Pursue": 1.5, "Eliminate": 1.5, "Assist": 2.0}
    for _ in range(12):
        kind = rng.choices(list(kinds), [weights.get(k, 3.0) for k in kinds])[0]
        action = rng.choice(kinds[kind])
        if not _loses(st, action):
            return action
    return rng.choice(actions)


def history_matters(kn: HandKnowledge) -> bool:
    """Whether I hold a card since before some card I saw went back into the deck (a reshuffle state)."""
    unseen = set(kn.unseen())
    filled = min((s.filled for s in kn.hands[kn.me]), default=None)
    return filled is not None and any(
        sp.end is not None and sp.card in unseen and sp.end >= filled for sp in kn.spans
    )


def game_states(players: int, case: int, seed: int, data: GameData = DEFAULT_DATA, max_turns: int = 200,
                characters: tuple[str | None, ...] = (), seat: int | None = None,
                ) -> Iterator[tuple[BakerStreetState, HandKnowledge]]:
    """One random game; after every entry, the table and one seat's knowledge (the seat is drawn at random
    unless given). ``characters``: one name (or None: random) per seat, or none for the base game."""
    rng = random.Random(seed)
    rules = TableRules(players, case, data)
    st = new_character_game(rules, characters, rng) if characters else new_game(rules, rng)
    seat = seat or rng.choice(st.seats)
    kn = HandKnowledge(data)
    for _ in range(max_turns):
        for obs in st.take_observations(seat):
            kn.add(obs)
            if kn.started:
                yield st, kn
        for s in st.seats:
            if s != seat:
                st.take_observations(s)
        if st.is_terminal():
            return
        st.apply(pick(st, rng))


def compare(kn: HandKnowledge, limit: int) -> tuple[bool, bool] | None:
    """Compare ``kn`` with the history reference: (counts and probabilities agree, the old model differs);
    None when the state has more than ``limit`` worlds."""
    if kn.worlds() > limit:
        return None
    try:  # pinned deck cards multiply the histories (each hand the same number of times)
        ref = history_reference(kn.entries, kn.data, limit * 40)
    except OverflowError:
        return None
    agree = ref.hand_count == kn.worlds() and all(
        abs(dist.get(c, 0.0) - ref.probability(pos, c)) < 1e-9
        for pos, dist in enumerate(kn.hand(), 1) for c in kn.data.evidence
    )
    old = hand_worlds([replace(s, seen=0) for s in kn.hands[kn.me]], kn.unseen())[0]
    return agree, old != ref.hand_count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per player count")
    parser.add_argument("--limit", type=int, default=20_000, help="largest world count compared")
    args = parser.parse_args()
    for players in (2, 3, 4):
        compared = agreed = old_wrong = states = 0
        deck_out = 0
        for g in range(args.games):
            for st, kn in game_states(players, g % 6 + 1, 1000 * players + g):
                if not history_matters(kn):
                    continue
                states += 1
                deck_out += st.board.deck == 0
                result = compare(kn, args.limit)
                if result is None:
                    continue
                compared += 1
                agreed += result[0]
                old_wrong += result[1]
        print(f"{players} players, {args.games} games: {states} reshuffle states (deck empty in {deck_out}), "
              f"{compared} compared (<= {args.limit} worlds), {agreed} agree on the world count and every "
              f"probability; the model without histories was wrong in {old_wrong}")


if __name__ == "__main__":
    main()
