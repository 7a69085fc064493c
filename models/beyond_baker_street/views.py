"""What the Beyond Baker Street companion shows, as view data (:mod:`solver.view`) that any interface draws.

Plain values only (no rich): the session (:mod:`models.beyond_baker_street.session`) builds them from the
knowledge, the terminal draws them with rich and the web page as HTML. Every probability of a card shown is a
typed cell keyed by its path in the session's ``summary()`` (``analyze --json``): ``hand.POS.CARD`` for my hand
and ``empathy.SEAT.POS.CARD`` for another player's (POS from 0, CARD the card's name, ``hand.0.1 Clue``); a
card of my hand carries ``why POS CARD`` (POS from 1), the line that explains it.
"""

from __future__ import annotations

from typing import Any

from models.beyond_baker_street.data import ICONS, NUMBERS, Evidence, Lead
from models.beyond_baker_street.knowledge import HandKnowledge
from models.beyond_baker_street.observations import (
    Action,
    Advance,
    Assist,
    Confirm,
    Eliminate,
    Exchange,
    Investigate,
    Peek,
    Pursue,
    ReturnCard,
    SwapCards,
)
from models.beyond_baker_street.table import Board, LeadState
from solver import view as v
from solver.knowledge import Explanation
from solver.text import plural

CARDS_SHOWN = 6  # candidates listed per position before "+N more"
EQUAL_SHOWN = 8  # the same when they are all equally likely

HELP_ROWS: tuple[tuple[str, str, str], ...] = (
    ("Setup", "players N / me SEAT / case N", "players 3   me 2   case 1"),
    ("", "start SEAT  (who plays first; default 1)", "start 1"),
    ("", "hand SEAT CARD ...  (another hand, left to right)", "hand 1 3W 5C 1D 6T"),
    ("", "lead CARD  (each face-up Lead; also later reveals)", "lead 7C   lead 12W"),
    ("Play", "assist GIVER TARGET NUMBER|ICON at POS ...", "assist 1 2 Clue at 1 3   assist 3 me 5 at 2"),
    ("", "investigate SEAT POS CARD SECTION  (or SECTION CARD)", "investigate 1 2 4W suspect"),
    ("", "eliminate SEAT POS CARD", "eliminate me 3 6D"),
    ("", "confirm SEAT SECTION / pursue SEAT SECTION", "confirm 3 motive   pursue 1 opp"),
    ("", "draw SEAT CARD  (another player's draw; yours is automatic)", "draw 3 2T"),
    ("Characters", "character SEAT NAME  (setup; 'none': no Characters)", "character 1 Toby   character 2 irene"),
    ("", "assist GIVER T S at POS ... and T S at POS ...  (Hope)", "assist 1 2 Clue at 1 and 3 4 at 2"),
    ("", "advance SEAT  (Irene Adler: Holmes +1)", "advance 2"),
    ("", "exchange SEAT IMPOSSIBLE-CARD LEAD-CARD  (Baskerville)", "exchange 1 3W 5C"),
    ("", "swap SEAT POS TARGET TPOS GIVEN TAKEN  (Langdale Pike)", "swap 1 2 3 4 5C 2W"),
    ("", "return SEAT CARD  (Mrs Hudson)", "return 2 3W"),
    ("", "peek SEAT [CARD] top|bottom  (Toby; the card if it is you)", "peek 3 bottom   peek me 4D top"),
    ("", "bury SEAT [CARD]  (the card Lady Eva Blackwell does not keep)", "bury 2   bury me 5C"),
    ("Session", "show / show brief", "the table and your hand / the Leads, tracks, next step and your hand"),
    ("", "why POS [CARD] [steps]", "why 2   why 2 3W   why 2 3W steps"),
    ("", "empathy [SEAT]", "what the others can know about their hands"),
    ("", "advise [all] [hat]", "ranked actions for your turn (hat: the table plays the hat convention)"),
    ("", "undo / history", "remove the last entry / list the entries, numbered"),
    ("", "edit N ENTRY / drop N  (fix entry N of 'history')", "edit 5 assist 1 me Clue at 2   drop 5"),
    ("", "help / quit", "aliases: h ?, exit q"),
)




def do_line(action: Action, me: int) -> str | None:
    """The entry line of my ``action`` as I would enter it now (an advice row's "do this"): its start where the
    rest is what the move shows (the card I play or give away, the positions I point to, the card I peek at: the
    choices offer them). A Character's action is entered with its own verb; Lady Hilda Hope's two Assists need
    the positions, which the session's choices give (``BeyondBakerStreetSession._do_line``)."""
    if isinstance(action, Assist):
        return f"assist {me} {action.target} {action.subject} at "
    if isinstance(action, Investigate):
        return f"investigate {me} {action.position} "
    if isinstance(action, Eliminate):
        return f"eliminate {me} {action.position} "
    if isinstance(action, Confirm | Pursue):
        return f"{'confirm' if isinstance(action, Confirm) else 'pursue'} {me} {action.section}"
    if isinstance(action, Advance):
        return f"advance {me}"
    if isinstance(action, Exchange):
        return f"exchange {me} {action.out.code} {action.card.code}"
    if isinstance(action, ReturnCard):
        return f"return {me} {action.card.code}"
    if isinstance(action, SwapCards):  # then my card given (I see it once it is theirs) and theirs taken
        return f"swap {me} {action.position} {action.target} {action.target_position} "
    if isinstance(action, Peek):  # then the card seen and top or bottom
        return f"peek {me} "
    return None

def character_lines(kn: HandKnowledge, short: bool = False) -> list[str]:
    """Each seat's Character (mine first) with its effect, or (``short``) with its uses left."""
    s = kn.setup
    if not s.characters:
        return []
    cards = kn.character_cards()
    order = sorted(cards, key=lambda t: (t != s.me, t))
    out = []
    for t in order:
        ch = cards[t]
        who = "you" if t == s.me else f"player {t}"
        left = kn.board.uses_left(t) if kn.board is not None else None
        uses = "" if ch.uses == 0 or left is None else f", {left} of {ch.uses} use{'s' if ch.uses > 1 else ''} left"
        if short:
            out.append(f"{who} {ch.name} (#{ch.order}{uses})")
        else:
            out.append(f"{who}: {ch.name} (#{ch.order}, {ch.pips} pips, confidence {ch.confidence}{uses}): "
                       f"{ch.effect}")
    return out


def help_view(kn: HandKnowledge | None = None) -> v.View:
    """'help': the entry syntax with examples, then the Characters at this table (if any)."""
    table = v.help_table("Beyond Baker Street companion", HELP_ROWS)  # plain text: "[all]" stays visible
    note = v.Text("Cards are a number and an icon: 3W, 3w or '3 Witness'. Sections and icons take unique prefixes "
                  "(s = Suspect). Seats are numbered 1..N clockwise, positions 1.. from the left; 'me' stands for "
                  "your seat. Everything after '#' is a comment.")
    lines = character_lines(kn) if kn is not None else []
    if not lines:
        return v.Group(table, note)
    return v.Group(v.Group(table, note), v.Text("Characters at this table:", "strong"), *map(v.Text, lines))


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


def board_lines(board: Board) -> list[v.View]:
    """The board's lines, each broken on a narrow screen only between its '; ' parts."""
    return [v.Flow(tuple(line.split("; ")), sep="; ", indent="  ") for line in board.describe()]


def card_key(kn: HandKnowledge, seat: int, pos: int, card: Evidence) -> str:
    """The summary path of the probability that ``card`` is at position ``pos`` (from 1) of ``seat``'s hand."""
    where = "hand" if seat == kn.me else f"empathy.{seat}"
    return f"{where}.{pos - 1}.{card.name}"


def position_atoms(
    kn: HandKnowledge, seat: int, pos: int, dist: dict[Evidence, float]
) -> tuple[v.Cell | str, list[v.Cell | str]]:
    """A position's possible cards: a head ("4 equally likely (25.0% each):") and the cards, each an atom a
    narrow screen never splits ("1C 25.0%,"); a card is a typed cell keyed like the summary, with its ``why``
    line for my own hand."""
    ordered = sorted(dist.items(), key=lambda kv: (-kv[1], kv[0]))

    def cell(card: Evidence, p: float, text: str, tone: v.Tone = "") -> v.Cell:
        why = f"why {pos} {card.code}" if seat == kn.me else None
        kind: v.CellKind = "certain" if p >= 1 else "prob"
        return v.Cell(text, kind, float(p), tone, why, card_key(kn, seat, pos, card))

    if len(ordered) == 1:
        card, p = ordered[0]
        return cell(card, p, f"{card.name} (certain)", "good"), []
    atoms: list[v.Cell | str]
    if ordered[0][1] - ordered[-1][1] < 1e-12:
        atoms = [cell(c, p, c.code) for c, p in ordered[:EQUAL_SHOWN]]
        atoms += [f"+{len(ordered) - EQUAL_SHOWN} more"] if len(ordered) > EQUAL_SHOWN else []
        return f"{len(ordered)} equally likely ({v.percent_text(ordered[0][1], True)} each):", atoms
    atoms = [cell(c, p, f"{c.code} {v.percent_text(p, True)},") for c, p in ordered[:CARDS_SHOWN]]
    if len(ordered) > CARDS_SHOWN:
        atoms.append(f"+{len(ordered) - CARDS_SHOWN} more")
    else:
        last = atoms[-1]
        assert isinstance(last, v.Cell)
        atoms[-1] = v.Cell(last.text.rstrip(","), last.kind, last.value, last.tone, last.why, last.key)
    return f"{len(ordered)}:", atoms


def _text(atom: v.Cell | str) -> str:
    return atom if isinstance(atom, str) else atom.text


def hand_view(kn: HandKnowledge, seat: int, title: str) -> v.Either:
    """One row per position: what the Assists said, and every possible card with its probability.

    Drawn as one pre-aligned text block rather than a table: it is redrawn after every entry, and a terminal
    table's layout costs tens of milliseconds where this costs well under one. When the block is wider than the
    screen (and on the web page), each position gets its own lines instead, broken only between cards, each card
    a typed cell."""
    rows = []
    for pos, dist in enumerate(kn.hand(seat), 1):
        head, atoms = position_atoms(kn, seat, pos, dist)
        slot = kn.hands[seat][pos - 1]
        really = slot.card.code if slot.card else "?"
        rows.append((str(pos), really, told_text(kn, seat, pos), head, atoms, len(dist) == 1))
    show_really = seat != kn.me
    headers = ("Pos", "Really", "Told", "Possible cards (probability)")
    told_width = max([len(headers[2]), *(len(r[2]) for r in rows)])
    wide: list[v.Text] = [v.Text(title + "\n")]

    def line(pos: str, really: str, told: str, cards: str, tone: v.Tone = "") -> None:
        start = f"{pos:>3}  " + (f"{really:<6}  " if show_really else "") + f"{told:<{told_width}}  "
        wide.extend([v.Text(start), v.Text(cards + "\n", tone)])

    line(*headers, tone="strong")
    narrow: list[v.View] = [v.Text(title, "strong")]
    for pos, really, told, head, atoms, certain in rows:
        tone: v.Tone = "good" if certain else ""
        line(pos, really, told, " ".join([_text(head), *map(_text, atoms)]), tone)
        seen = f" (really {really})" if show_really else ""
        narrow.append(v.Text(f"Position {pos}{seen}, told: {told}"))
        lead = head if isinstance(head, v.Cell) else v.Text(head, tone)
        narrow.append(v.Flow((lead, *atoms), sep=" ", lead="  ", indent="  "))
    last = wide[-1]
    wide[-1] = v.Text(last.text.rstrip(), last.tone)
    # the whole block is bold, as the terminal has always drawn it (its base style)
    return v.Either(tuple(wide), v.Group(*narrow), "strong")


def state_view(kn: HandKnowledge, head: str | None) -> v.View:
    """The table (Leads, tracks, Characters, the hands I see), what comes next, and my hand."""
    parts: list[v.View] = [v.Text(head, "strong")] if head else []
    if not kn.started:
        parts.append(v.Text(f"setup: still need {', '.join(kn.missing())}"))
        return v.Group(*parts)
    board = kn.board
    assert board is not None
    parts += board_lines(board)
    if board.characters:
        parts.append(v.Flow(tuple(character_lines(kn, short=True)), sep="; ", lead="Characters: "))
    others = [f"player {s}: {' '.join(c.code for c in kn.visible_hand(s)) or '-'}" for s in kn.hands if s != kn.me]
    parts.append(v.Flow(tuple(others), sep="; ", lead="Hands you see: "))
    if board.over:
        tone: v.Tone = "good" if board.result == "won" else "bad"
        parts.append(v.Text(f"Game over: {board.result} ({board.reason})", tone))
    else:
        waiting = board.expecting()
        turn = "your turn" if board.current == kn.me else f"player {board.current}'s turn"
        parts.append(v.Text(f"Next: {waiting}" if waiting else f"Next: {turn}", "accent"))
    parts.append(hand_view(kn, kn.me, f"Your hand (player {kn.me})"))
    parts.append(v.Text(f"Consistent hands: {kn.worlds():,} (exact; every one equally likely)"))
    return v.Group(*parts)


def brief_view(kn: HandKnowledge) -> v.View:
    """One screen: the Leads, the tracks and the Impossible, what comes next, and your hand."""
    if not kn.started:
        return v.Text(f"setup: still need {', '.join(kn.missing())}")
    board = kn.board
    assert board is not None
    parts: list[v.View] = [*board_lines(board)]
    if board.over:
        parts.append(v.Text(f"Game over: {board.result} ({board.reason})", "strong"))
    else:
        waiting = board.expecting()
        turn = "your turn" if board.current == kn.me else f"player {board.current}'s turn"
        parts.append(v.Text(f"Next: {waiting or turn}", "accent"))
    parts.append(v.Text(f"Your hand (player {kn.me}), {kn.worlds():,} consistent hands:", "strong"))
    for pos, dist in enumerate(kn.hand(), 1):
        head, atoms = position_atoms(kn, kn.me, pos, dist)
        parts.append(v.Flow((head, *atoms), sep=" ", lead=f"  {pos}: ", indent="     "))
    return v.Group(*parts)


def empathy_view(kn: HandKnowledge, seats: list[int]) -> v.View:
    """'empathy': what each of ``seats`` can know about their own hand."""
    parts: list[v.View] = [v.Text(
        "What each player can know about their own hand from their Assists and the cards you both see, now "
        "or since each of their cards came to them (they also see your hand, so they may know a little more).",
        "muted")]
    parts += [hand_view(kn, s, f"Player {s}'s hand as they can know it") for s in seats]
    return v.Group(*parts)


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


def why_position_view(kn: HandKnowledge, pos: int) -> v.View:
    """``why POS``: the Assists to this card, the cards seen elsewhere, what the counting rules out."""
    dist = kn.hand()[pos - 1]
    slot = kn.hands[kn.me][pos - 1]
    lines: list[v.View] = [v.Text(f"Position {pos}: {plural(len(dist), 'possible card')}.", "strong")]
    hints = kn.hints_on(pos)
    if hints:
        lines.append(v.Text("Assists that reached this card:"))
        for assist, named in hints:
            what = f"named it: it is a {assist.subject}" if named else f"skipped it: it is not a {assist.subject}"
            lines.append(v.Text(f"  '{assist}' {what}"))
    else:
        lines.append(v.Text("No Assist has reached this card yet."))
    sightings = kn.sighted_at(pos)  # seen elsewhere now, or since this card came to me
    allowed = [c for c in kn.data.evidence if slot.allows(c)]
    seen = [c for c in allowed if c in sightings]
    if seen:
        lines.append(v.Text(f"Allowed by the Assists but seen elsewhere ({len(seen)}):"))
        lines += [v.Text(f"  {sightings[c]}") for c in seen]
    counted_out = [c for c in allowed if c not in sightings and c not in dist]
    if counted_out:
        lines.append(v.Text("Ruled out because your other positions need them: "
                            + ", ".join(c.code for c in counted_out) + f" ('why {pos} CARD' says which)"))
    ordered = sorted(dist.items(), key=lambda kv: (-kv[1], kv[0]))
    lines.append(v.Text("Possible: " + ", ".join(f"{c.code} {v.percent_text(p, True)}" for c, p in ordered)))
    return v.Group(*lines)


def why_card_view(card: Evidence, pos: int, result: Explanation[Any] | str, prob: float) -> v.View:
    """``why POS CARD``: whether the card is certain, ruled out or open at my position, and the reasons."""
    if isinstance(result, str):
        return v.Text(result)
    if result.status == "open":
        return v.Text(f"{card.name} is possible at your position {pos} (probability {100 * prob:.1f}%): "
                      f"nothing rules it in or out.")
    verdict = "is certainly at" if result.status == "certain" else "cannot be at"
    if not result.reasons:
        return v.Text(f"{card.name} {verdict} your position {pos} by the rules alone.")
    lines: list[v.View] = [v.Text(f"{card.name} {verdict} your position {pos}, because:")]
    lines += [v.Text(f"  {i}. {r}") for i, r in enumerate(result.reasons, 1)]
    return v.Group(*lines)


# -- the game drawn (issue 19 §1) -----------------------------------------------------------------------------
#: Each icon's colour on a drawn card; the card's label ("3W") also carries the icon's letter.
ICON_COLOURS: dict[str, str] = {"Clue": "blue", "Document": "yellow", "Track": "green", "Witness": "red"}


def evidence_card(card: Evidence, status: v.CardStatus = "seen", p: v.Cell | None = None, note: str = "") -> v.Card:
    """An Evidence card drawn in its icon's colour, labelled with its code (``3W``: number and icon letter), which is
    also its name: the word an entry names it by, so a tap on it starts the entries it takes part in."""
    return v.Card(card.code, card.code, ICON_COLOURS.get(card.icon, ""), "", status, p, note)


def lead_card(lead: Lead, note: str = "") -> v.Card:
    return v.Card(lead.name, lead.code, ICON_COLOURS.get(lead.icon, ""), "", "seen", None, note)


def lead_pile(ls: LeadState) -> v.Pile:
    """One Lead section: the face-up Lead, the evidence on it (matching icon) and the cards that raised its
    target, with evidence against target in the note."""
    if ls.lead is None:
        return v.Pile(ls.section, note="no Lead left", hidden=ls.pile)
    cards = (lead_card(ls.lead, "Lead"), *(evidence_card(c) for c in ls.evidence),
             *(evidence_card(c, note="raises") for c in ls.raised))
    state = "confirmed" if ls.confirmed else f"needs {ls.need}" if ls.need >= 0 else "over"
    note = f"evidence {ls.total} / target {ls.target} ({state}); {plural(ls.pile, 'Lead')} below"
    return v.Pile(f"{ls.section} {ls.lead.code}", cards, note=note, colour=ICON_COLOURS.get(ls.lead.icon, ""),
                  letter=ls.lead.icon[0])


def seen_hand(kn: HandKnowledge, seat: int) -> v.Hand:
    """Another player's hand as I see it: each card, and what its holder was told about it."""
    positions = []
    for pos, slot in enumerate(kn.hands[seat], 1):
        card = evidence_card(slot.card) if slot.card is not None else v.Card("unknown", "?", status="candidate")
        positions.append(v.Position(str(pos), (card,), told_text(kn, seat, pos)))
    return v.Hand(f"Player {seat}'s hand", tuple(positions), seat)


def my_hand(kn: HandKnowledge) -> v.Hand:
    """My own positions as candidate cards (best first) with probabilities keyed ``hand.POS.CARD``."""
    positions = []
    for pos, dist in enumerate(kn.hand(), 1):
        ordered = sorted(dist.items(), key=lambda kv: (-kv[1], kv[0]))
        cards = []
        for card, p in ordered[:CARDS_SHOWN]:
            why, key = f"why {pos} {card.code}", card_key(kn, kn.me, pos, card)
            cell = (v.Cell("certain", "certain", float(p), "good", why, key) if len(ordered) == 1
                    else v.prob(p, v.percent_text(p, True), why, key=key))
            cards.append(evidence_card(card, "candidate", cell))
        positions.append(v.Position(str(pos), tuple(cards), told_text(kn, kn.me, pos),
                                    max(0, len(ordered) - CARDS_SHOWN)))
    return v.Hand(f"Your hand (player {kn.me})", tuple(positions), kn.me)


def drawn_view(kn: HandKnowledge) -> v.View:
    """The table drawn: the three Leads, both tracks, the Impossible with its limit, the deck, every hand I see
    with what its holder was told, whose turn it is, and my own positions as candidate cards."""
    board = kn.board
    assert board is not None
    parts: list[v.View] = [lead_pile(ls) for ls in board.leads.values()]
    parts.append(v.Track("Investigation", board.track, 0, board.data.goal, goal=board.data.goal, key="board.track"))
    parts.append(v.Track("Holmes", board.holmes, 0, board.data.holmes_max, lose=0, key="board.holmes"))
    impossible = tuple(evidence_card(c) if isinstance(c, Evidence) else lead_card(c, "dead") for c in board.impossible)
    parts.append(v.Pile("Impossible", impossible, board.limit))
    parts.append(v.Pile("Deck", hidden=board.deck))
    if board.characters:
        parts.append(v.Flow(tuple(character_lines(kn, short=True)), sep="; ", lead="Characters: "))
    for seat in kn.hands:
        if seat != kn.me:
            parts.append(seen_hand(kn, seat))
    if board.over:
        parts.append(v.Text(f"Game over: {board.result} ({board.reason})", "good" if board.result == "won" else "bad"))
    else:
        waiting = board.expecting()
        turn = "your turn" if board.current == kn.me else f"player {board.current}'s turn"
        parts.append(v.Text(f"Next: {waiting}" if waiting else f"Next: {turn}", "accent"))
    parts.append(my_hand(kn))
    parts.append(v.Text(f"Consistent hands: {kn.worlds():,} (exact; every one equally likely)"))
    return v.Group(*parts)
