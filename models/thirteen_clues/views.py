"""The Thirteen Clues companion's views as view data (:mod:`solver.view`): the state at a glance, ``show
brief``, explanations, locations, advice and help.

Pure formatting: every function takes plain data from the session and returns view data, which the terminal
(rich) and the web page (HTML) draw alike. A probability is a typed cell keyed to its place in the session's
``summary()`` (the ``analyze --json`` output) and carries the ``why`` command that explains it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction

from models.thirteen_clues.data import CARD_BY_NAME
from models.thirteen_clues.knowledge import MYSTERY, TableSetup, place_label
from models.thirteen_clues.observations import Accuse, Action, Ask, Consult
from solver import view as v
from solver.knowledge import Count, Explanation
from solver.view import advice_view, percent_text  # noqa: F401  (shared by every game's views)


def do_line(action: Action, me: int) -> str | None:
    """The entry line of my ``action`` as I would enter it now (an advice row's "do this"): its start where the
    rest is the answer I will get (the count, the card under the letter, right or wrong); ``None`` for a move
    with no entry (taking a glass)."""
    if isinstance(action, Ask):
        return f"ask {action.seat} {action.subject}" + (f" {action.side}" if action.side else "") + " "
    if isinstance(action, Consult):
        return f"informant {action.letter} "
    if isinstance(action, Accuse):
        return f"accuse {me} {action.person} {action.location} {action.weapon} "
    return None


HELP_ROWS: tuple[tuple[str, str, str], ...] = (
    ("Setup", "players N", "players 4"),
    ("", "me SEAT", "me 1"),
    ("", "private CARD CARD  (left then right)", "private Butcher Park"),
    ("", "screen SEAT PERSON LOCATION WEAPON", "screen 2 Officer Library Knife"),
    ("", "subcategories on|off  (house rule)", "subcategories on"),
    ("", "seats ID ...  (a BGA deal's seat order, clockwise)", "seats 8423 1234 99 5120"),
    ("Observations", "ask SEAT SUIT|CATEGORY COUNT", "ask 3 Red 2   ask 3 Person 1"),
    ("", "ask SEAT SUBJECT left|right COUNT  (2 players)", "ask 2 Red left 1"),
    ("", "informant LETTER CARD  (I looked)", "informant C Sword"),
    ("", "informant LETTER by SEAT  (someone else looked)", "informant C by 3"),
    ("", "accuse SEAT PERSON LOCATION WEAPON wrong|right", "accuse 2 Butcher Park Sword wrong"),
    ("Session", "show / show brief", "the state at a glance / one line per category"),
    ("", "why CARD [PLACE] [steps]", "why Sword   why Duke 3   why Duke A steps"),
    ("", "locations", "every unseen card's possible places"),
    ("", "whatif ENTRY / whatif clear", "whatif ask 3 Red 2"),
    ("", "undo", "remove the last entry (fact or what-if)"),
    ("", "history", "the entries so far (the journal), numbered"),
    ("", "edit N ENTRY / drop N  (fix entry N of 'history')", "edit 7 ask 3 Red 1   drop 7"),
    ("", "advise [all] [glasses N]", "ranked actions for your turn (N: glasses you hold)"),
    ("", "help / quit", "aliases: h ?, exit q"),
)


def help_view() -> v.View:
    table = v.help_table("Thirteen Clues companion", HELP_ROWS)
    note = v.Text(
        "Card, suit and category names are case-insensitive and unique prefixes work (ask 3 re 2). "
        "Seats are numbered 1..N clockwise. Everything after '#' is a comment."
    )
    return v.Group(table, note)


def setup_view(setup: TableSetup, summary: str | None) -> v.View:
    parts: list[v.View] = []
    if summary:
        parts.append(v.Text(summary, "strong"))
    missing = setup.missing()
    parts.append(v.Text(f"setup: still need {', '.join(missing)}" if missing else "setup complete"))
    return v.Group(*parts)


def worlds_short(count: Count) -> str:
    return f"{int(count.worlds):,}" if count.exact else f"~{count.worlds:,.0f}"


def worlds_text(count: Count) -> v.Text:
    if count.exact:
        return v.Text(f"Consistent worlds: {int(count.worlds):,} (exact)")
    return v.Text(f"Consistent worlds: estimate {count.worlds:,.0f} ± {count.stderr:,.0f} ({count.note})", "warn")


def fraction_text(p: float, exact: bool) -> str:
    """The exact probability as a fraction, when the count is exact and the fraction is small enough to read."""
    if not exact:
        return ""
    frac = Fraction(p).limit_denominator(1000)
    return f"{frac.numerator}/{frac.denominator}" if abs(float(frac) - p) < 1e-12 and frac.denominator > 1 else ""


def state_view(
    mystery: Mapping[str, Mapping[str, float]], count: Count, whatifs: Sequence[str], head: str | None
) -> v.View:
    """The state at a glance: what changed, one table per category, the world count, what-ifs if any.

    Each probability is a typed cell keyed to ``summary()["mystery"][category][card]``; a tap asks ``why``."""
    hypothetical = bool(whatifs)
    parts: list[v.View] = []
    if head:
        parts.append(v.Text(head, "whatif" if hypothetical else "strong"))
    if hypothetical:
        shown = ", ".join(f"'{w}'" for w in whatifs)
        parts.append(v.Text(f"WHAT-IF, not a fact: assuming {shown} ('whatif clear' drops it)", "whatif"))
    tables: list[v.View] = []
    for category, cards in mystery.items():
        title = f"{category.capitalize()} ({len(cards)})" + (" what-if" if hypothetical else "")
        table = v.Table(title=title, title_tone="whatif" if hypothetical else "strong", compact=True, fit=False)
        table.add_column("Card")
        table.add_column("P", align="right")
        certain = len(cards) == 1
        ordered = sorted(cards.items(), key=lambda kv: (-kv[1], kv[0]))
        fractions = [fraction_text(p, count.exact) for _, p in ordered]
        exact_column = not certain and all(fractions)  # filled on every row, or not shown at all
        if exact_column:
            table.add_column("exact", align="right", tone="muted")
        for (card, p), frac in zip(ordered, fractions, strict=True):
            key, why = f"mystery.{category}.{card}", f"why {card}"
            if certain:
                table.add_row(v.Cell(f"{card} ✔", "certain", tone="good", why=why),
                              v.Cell("certain", "certain", 1.0, "good", why, key))
            else:
                table.add_row(v.Cell(card, why=why), v.prob(p, percent_text(p, count.exact), why, key=key),
                              *([frac] if exact_column else []))
        tables.append(table)
    parts.append(v.Columns(tuple(tables), gap=3))
    parts.append(worlds_text(count))
    if count.exact and any(not all(fraction_text(p, True) for p in cards.values()) for cards in mystery.values()
                           if len(cards) > 1):
        parts.append(v.Text("(an 'exact' fraction column is shown where every denominator is at most 1000)",
                            "muted"))
    solved = {cat: next(iter(cards)) for cat, cards in mystery.items() if len(cards) == 1}
    if len(solved) == len(mystery):
        verb = "would be solved (what-if)" if hypothetical else "SOLVED"
        person, location, weapon = solved.get("person"), solved.get("location"), solved.get("weapon")
        parts.append(v.Text(f"{verb}: {person} in the {location} with the {weapon}", "good"))
    return v.Group(*parts)


def brief_view(mystery: Mapping[str, Mapping[str, float]], count: Count, whatifs: Sequence[str]) -> v.View:
    """'show brief': one line per category (cards by probability), the world count, and any what-if."""
    parts: list[v.View] = []
    if whatifs:
        parts.append(v.Text(f"WHAT-IF, not a fact: assuming {', '.join(repr(w) for w in whatifs)}", "whatif"))
    for category, cards in mystery.items():
        ordered = sorted(cards.items(), key=lambda kv: (-kv[1], kv[0]))
        if len(ordered) == 1:
            atoms: tuple[str | v.Text, ...] = (v.Text(f"{ordered[0][0]} (certain)", "good"),)
        else:
            atoms = tuple(f"{card} {percent_text(p, count.exact)}" for card, p in ordered)
        parts.append(v.Flow(atoms, sep=", ", lead=f"{category.capitalize()}: ", indent="  "))
    parts.append(worlds_text(count))
    return v.Group(*parts)


def explanation_view(
    card: str,
    place: str,
    result: Explanation[object] | str,
    whatifs: Collection[object],
    probability: float | None,
) -> v.View:
    """``why``: the status and a minimal set of the user's entries that forces it."""
    if isinstance(result, str):
        return v.Text(result)
    if result.status == "open":
        prob = f" (probability {100 * probability:.1f}%)" if probability is not None else ""
        lines: list[v.View] = [v.Text(f"{card} is still possible in {place}{prob}: no entry rules it in or out.")]
        if result.example:
            mystery = sorted(c for c, p in result.example.items() if p == "mystery")
            lines.append(v.Text(f"One consistent world with it: your mystery = {', '.join(mystery)}"))
        return v.Group(*lines)
    verdict = "is certainly in" if result.status == "certain" else "cannot be in"
    if not result.reasons:
        return v.Text(f"{card} {verdict} {place}: by the setup alone (the cards you see and how the deal works).")
    lines = [v.Text(f"{card} {verdict} {place}, because of:")]
    for i, obs in enumerate(result.reasons, 1):
        tag = "  (what-if, not a fact)" if obs in whatifs else ""
        lines.append(v.Text(f"  {i}. {obs}{tag}", "whatif" if tag else ""))
    if any(obs in whatifs for obs in result.reasons):
        lines.append(v.Text("This rests on a what-if: it is not established by the facts.", "whatif"))
    return v.Group(*lines)


def places_text(places: Sequence[str], all_places: Sequence[str]) -> str:
    """A card's possible places in words; informant letters are grouped, and "anywhere" says it is unlocated."""
    if len(places) == len(all_places) and len(places) > 1:
        return f"anywhere ({len(places)} places)"
    letters = [p for p in places if len(p) == 1 and p.isupper()]
    words = [place_label(p) for p in places if p not in letters]
    if len(letters) == 1:
        words.append(place_label(letters[0]))
    elif letters:
        words.append(f"informants {', '.join(letters)}")
    return ", ".join(words)


def locations_view(locations: Mapping[str, Sequence[str]], all_places: Sequence[str], hypothetical: bool) -> v.View:
    """``locations``: every unseen card and the places (codes) it can still be in."""
    title = "Where each unseen card can be" + (" (what-if, not a fact)" if hypothetical else "")
    table = v.Table(title=title, title_tone="whatif" if hypothetical else "strong")
    table.add_column("Card")
    table.add_column("Category")
    table.add_column("Possible places", prose=True)
    order = {"Person": 0, "Location": 1, "Weapon": 2}
    for card in sorted(locations, key=lambda c: (order[CARD_BY_NAME[c].category], c)):
        places = locations[card]
        tone: v.Tone = "good" if len(places) == 1 else ""
        table.add_row(card, CARD_BY_NAME[card].category, v.Text(places_text(places, all_places), tone))
    return table


# -- the game drawn (issue 19 §1) -----------------------------------------------------------------------------
#: Each suit's letters on a drawn card, so a colour-blind player tells Purple from Pink without the colour.
SUIT_LETTERS: dict[str, str] = {"Purple": "Pu", "Pink": "Pk", "Red": "Rd", "Green": "Gn", "Yellow": "Yw",
                                "Blue": "Bl", "Orange": "Or", "White": "Wh", "Brown": "Br", "Gray": "Gy"}
CATEGORY_ORDER = {"Person": 0, "Location": 1, "Weapon": 2}


def card_view(name: str, status: v.CardStatus = "seen", p: v.Cell | None = None) -> v.Card:
    """A Thirteen Clues card drawn in its suit's colour with the suit's letters."""
    suit = CARD_BY_NAME[name].suit
    return v.Card(name, name, suit.lower(), SUIT_LETTERS.get(suit, suit[:2]), status, p)


def place_column(place: str, me: int) -> str:
    """A grid column's short head: 'you' for my mystery, the seat (with L/R in a two-player game), the letter."""
    if place == MYSTERY:
        return "you"
    if place.startswith("p"):
        return place[1:]
    return place


def place_word(place: str) -> str:
    """How ``why`` names a place: 'mystery', '2', '2left', 'A'."""
    if place == MYSTERY:
        return "mystery"
    if place.startswith("p"):
        side = {"L": "left", "R": "right"}.get(place[-1], "")
        return place[1:].rstrip("LR") + side
    return place


def mystery_hand(mystery: Mapping[str, Mapping[str, float]], exact: bool) -> v.Hand:
    """My mystery as three positions (person, location, weapon), each its candidate cards, best first, each
    with its probability keyed ``mystery.CATEGORY.CARD``."""
    positions = []
    for category, cards in mystery.items():
        ordered = sorted(cards.items(), key=lambda kv: (-kv[1], kv[0]))
        drawn = []
        for card, p in ordered:
            key, why = f"mystery.{category}.{card}", f"why {card}"
            cell = (v.Cell("certain", "certain", 1.0, "good", why, key) if len(ordered) == 1
                    else v.prob(p, percent_text(p, exact), why, key=key))
            drawn.append(card_view(card, "candidate", cell))
        positions.append(v.Position(category.capitalize(), tuple(drawn)))
    return v.Hand("Your mystery", tuple(positions))


def seen_hands(private: Sequence[str], screens: Mapping[int, Sequence[str]], me: int) -> list[v.Hand]:
    """The cards I see: my two private cards, and each other player's screen (their mystery)."""
    hands = [v.Hand(f"Your private cards (player {me})", tuple(
        v.Position(side, (card_view(card),)) for side, card in zip(("left", "right"), private, strict=False)), me)]
    for seat in sorted(screens):
        hands.append(v.Hand(f"Player {seat}'s screen", tuple(
            v.Position(CARD_BY_NAME[c].category, (card_view(c),)) for c in screens[seat]), seat))
    return hands


def grid_view(grid: Mapping[str, Mapping[str, float]], possible: Mapping[str, Collection[str]],
              places: Sequence[str], me: int, exact: bool) -> v.Grid:
    """Every card I cannot see x every place it may be (my mystery, each player's private cards, each
    informant): certain, ruled out, or its probability keyed ``grid.CARD.PLACE``; a tap asks ``why``."""
    ordered = sorted(grid, key=lambda c: (CATEGORY_ORDER[CARD_BY_NAME[c].category], c))
    rows = []
    for card in ordered:
        cells = []
        for place in places:
            p = grid[card].get(place, 0.0)
            key, why = f"grid.{card}.{place}", f"why {card} {place_word(place)}"
            if place not in possible[card]:
                cells.append(v.Cell("✘", "ruled_out", 0.0, "muted", why, key))
            elif len(possible[card]) == 1:
                cells.append(v.Cell("✔", "certain", 1.0, "good", why, key))
            else:
                percent = f"{100 * p:.0f}" if p >= 0.005 else "<1"
                cells.append(v.prob(p, percent if exact else f"~{percent}", why, key=key))
        rows.append(tuple(cells))
    columns = tuple(place_column(p, me) for p in places)
    return v.Grid("Where each card you cannot see is", columns, tuple(card_view(c) for c in ordered), tuple(rows),
                  "you: your mystery; a number: that player's private cards; a letter: a Secret Informant. "
                  "✔ certain, ✘ ruled out, else the probability in percent.")


def drawn_view(
    mystery: Mapping[str, Mapping[str, float]],
    grid: Mapping[str, Mapping[str, float]],
    possible: Mapping[str, Collection[str]],
    places: Sequence[str],
    private: Sequence[str],
    screens: Mapping[int, Sequence[str]],
    me: int,
    exact: bool,
) -> v.View:
    """The table drawn: my mystery's candidates, the cards I see, and the card x holder grid."""
    return v.Group(mystery_hand(mystery, exact), *seen_hands(private, screens, me),
                   grid_view(grid, possible, places, me, exact))
