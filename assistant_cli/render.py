"""Rich renderables for the companion: the state at a glance, explanations, locations, help and history.

Pure formatting: every function takes plain data from the session and returns something rich can print, so
the same views serve the interactive loop, piped input, ``analyze`` and the demo.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from fractions import Fraction

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from models.thirteen_clues.data import CARD_BY_NAME
from models.thirteen_clues.knowledge import TableSetup, place_label
from solver.knowledge import Count, Explanation

WHATIF_STYLE = "bold yellow"

HELP_ROWS: tuple[tuple[str, str, str], ...] = (
    ("Setup", "players N", "players 4"),
    ("", "me SEAT", "me 1"),
    ("", "private CARD CARD  (left then right)", "private Butcher Park"),
    ("", "screen SEAT PERSON LOCATION WEAPON", "screen 2 Officer Library Knife"),
    ("", "subcategories on|off  (house rule)", "subcategories on"),
    ("Observations", "ask SEAT SUIT|CATEGORY COUNT", "ask 3 Red 2   ask 3 Person 1"),
    ("", "ask SEAT SUBJECT left|right COUNT  (2 players)", "ask 2 Red left 1"),
    ("", "informant LETTER CARD  (I looked)", "informant C Sword"),
    ("", "informant LETTER by SEAT  (someone else looked)", "informant C by 3"),
    ("", "accuse SEAT PERSON LOCATION WEAPON wrong|right", "accuse 2 Butcher Park Sword wrong"),
    ("Session", "show", "the state at a glance"),
    ("", "why CARD [PLACE] [steps]", "why Sword   why Duke 3   why Duke A steps"),
    ("", "locations", "every unseen card's possible places"),
    ("", "whatif ENTRY / whatif clear", "whatif ask 3 Red 2"),
    ("", "undo", "remove the last entry (fact or what-if)"),
    ("", "history", "the entries so far (the journal)"),
    ("", "advise [all] [glasses N]", "ranked actions for your turn (N: glasses you hold)"),
    ("", "help / quit", "aliases: h ?, exit q"),
)


def help_view() -> RenderableType:
    table = Table(title="Thirteen Clues companion", box=box.SIMPLE_HEAD, show_lines=False)
    table.add_column("")
    table.add_column("Syntax")
    table.add_column("Example")
    for row in HELP_ROWS:
        table.add_row(*row)
    note = Text(
        "Card, suit and category names are case-insensitive and unique prefixes work (ask 3 re 2). "
        "Seats are numbered 1..N clockwise. Everything after '#' is a comment."
    )
    return Group(table, note)


def history_view(lines: Sequence[str]) -> RenderableType:
    if not lines:
        return Text("no entries yet")
    table = Table(box=box.SIMPLE_HEAD, title="Entries (the journal)")
    table.add_column("#", justify="right")
    table.add_column("Entry")
    for i, line in enumerate(lines, 1):
        style = WHATIF_STYLE if line.startswith("whatif ") else ""
        table.add_row(str(i), Text(line, style=style))
    return table


def setup_view(setup: TableSetup, summary: str | None) -> RenderableType:
    parts: list[RenderableType] = []
    if summary:
        parts.append(Text(summary, style="bold"))
    missing = setup.missing()
    parts.append(Text(f"setup: still need {', '.join(missing)}" if missing else "setup complete"))
    return Group(*parts)


def worlds_short(count: Count) -> str:
    return f"{int(count.worlds):,}" if count.exact else f"~{count.worlds:,.0f}"


def worlds_text(count: Count) -> Text:
    if count.exact:
        return Text(f"Consistent worlds: {int(count.worlds):,} (exact)")
    return Text(f"Consistent worlds: estimate {count.worlds:,.0f} ± {count.stderr:,.0f} ({count.note})", style="yellow")


def percent_text(p: float, exact: bool) -> str:
    return f"{100 * p:.1f}%" if exact else f"~{100 * p:.1f}%"


def fraction_text(p: float, exact: bool) -> str:
    """The exact probability as a fraction, when the count is exact and the fraction is small enough to read."""
    if not exact:
        return ""
    frac = Fraction(p).limit_denominator(1000)
    return f"{frac.numerator}/{frac.denominator}" if abs(float(frac) - p) < 1e-12 and frac.denominator > 1 else ""


def state_view(
    mystery: Mapping[str, Mapping[str, float]], count: Count, whatifs: Sequence[str], head: str | None
) -> RenderableType:
    """The state at a glance: what changed, one table per category, the world count, what-ifs if any."""
    hypothetical = bool(whatifs)
    parts: list[RenderableType] = []
    if head:
        parts.append(Text(head, style=WHATIF_STYLE if hypothetical else "bold"))
    if hypothetical:
        shown = ", ".join(f"'{w}'" for w in whatifs)
        parts.append(Text(f"WHAT-IF, not a fact: assuming {shown} ('whatif clear' drops it)", style=WHATIF_STYLE))
    tables = []
    for category, cards in mystery.items():
        title = f"{category.capitalize()} ({len(cards)})" + (" what-if" if hypothetical else "")
        table = Table(
            title=title,
            box=box.SIMPLE_HEAD,
            show_edge=False,
            pad_edge=False,
            title_style=WHATIF_STYLE if hypothetical else "bold",
        )
        table.add_column("Card")
        table.add_column("P", justify="right")
        certain = len(cards) == 1
        ordered = sorted(cards.items(), key=lambda kv: (-kv[1], kv[0]))
        fractions = [fraction_text(p, count.exact) for _, p in ordered]
        if not certain and any(fractions):
            table.add_column("exact", justify="right", style="dim")
        for (card, p), frac in zip(ordered, fractions, strict=True):
            if certain:
                table.add_row(Text(f"{card} ✔", style="bold green"), Text("certain", style="bold green"))
            else:
                table.add_row(card, percent_text(p, count.exact), *([frac] if any(fractions) else []))
        tables.append(table)
    parts.append(Columns(tables, padding=(0, 3)))
    parts.append(worlds_text(count))
    solved = {cat: next(iter(cards)) for cat, cards in mystery.items() if len(cards) == 1}
    if len(solved) == len(mystery):
        verb = "would be solved (what-if)" if hypothetical else "SOLVED"
        person, location, weapon = solved.get("person"), solved.get("location"), solved.get("weapon")
        parts.append(Text(f"{verb}: {person} in the {location} with the {weapon}", style="bold green"))
    return Group(*parts)


def explanation_view(
    card: str,
    place: str,
    result: Explanation[object] | str,
    whatifs: Collection[object],
    probability: float | None,
) -> RenderableType:
    """``why``: the status and a minimal set of the user's entries that forces it."""
    if isinstance(result, str):
        return Text(result)
    if result.status == "open":
        prob = f" (probability {100 * probability:.1f}%)" if probability is not None else ""
        lines = [Text(f"{card} is still possible in {place}{prob}: no entry rules it in or out.")]
        if result.example:
            mystery = sorted(c for c, p in result.example.items() if p == "mystery")
            lines.append(Text(f"One consistent world with it: your mystery = {', '.join(mystery)}"))
        return Group(*lines)
    verdict = "is certainly in" if result.status == "certain" else "cannot be in"
    if not result.reasons:
        return Text(f"{card} {verdict} {place}: by the setup alone (the cards you see and how the deal works).")
    lines = [Text(f"{card} {verdict} {place}, because of:")]
    for i, obs in enumerate(result.reasons, 1):
        tag = "  (what-if, not a fact)" if obs in whatifs else ""
        lines.append(Text(f"  {i}. {obs}{tag}", style=WHATIF_STYLE if tag else ""))
    if any(obs in whatifs for obs in result.reasons):
        lines.append(Text("This rests on a what-if: it is not established by the facts.", style=WHATIF_STYLE))
    return Group(*lines)


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


def locations_view(locations: Mapping[str, Sequence[str]], all_places: Sequence[str], hypothetical: bool) -> Table:
    """``locations``: every unseen card and the places (codes) it can still be in."""
    title = "Where each unseen card can be" + (" (what-if, not a fact)" if hypothetical else "")
    table = Table(title=title, box=box.SIMPLE_HEAD, title_style=WHATIF_STYLE if hypothetical else "bold")
    table.add_column("Card")
    table.add_column("Category")
    table.add_column("Possible places")
    order = {"Person": 0, "Location": 1, "Weapon": 2}
    for card in sorted(locations, key=lambda c: (order[CARD_BY_NAME[c].category], c)):
        places = locations[card]
        style = "bold green" if len(places) == 1 else ""
        table.add_row(card, CARD_BY_NAME[card].category, Text(places_text(places, all_places), style=style))
    return table


def advice_view(advice: object, limit: int | None, hypothetical: bool) -> RenderableType:
    """The advisor's ranked actions as a table (items with ``action``, ``score``, ``reason``: the
    :class:`models.thirteen_clues.advisor.Advice` shape); anything else is shown as text."""
    if isinstance(advice, str):
        return Text(advice)
    items = list(advice) if isinstance(advice, Iterable) else [advice]
    if not items:
        return Text("the advisor has no suggestion")
    if not all(hasattr(a, "action") and hasattr(a, "score") for a in items):
        return Group(*(Text(f"{i}. {item}") for i, item in enumerate(items, 1)))
    title = "Advice, best first" + (" (under a what-if, not the facts)" if hypothetical else "")
    table = Table(title=title, box=box.SIMPLE_HEAD, title_style=WHATIF_STYLE if hypothetical else "bold")
    table.add_column("#", justify="right")
    table.add_column("Action")
    table.add_column("Score", justify="right")
    table.add_column("Why")
    shown = items if limit is None else items[:limit]
    for i, item in enumerate(shown, 1):
        table.add_row(str(i), str(item.action), f"{float(item.score):.2f}", str(getattr(item, "reason", "")))
    parts: list[RenderableType] = [table]
    if len(shown) < len(items):
        parts.append(Text(f"{len(items) - len(shown)} more: 'advise all' lists every legal action", style="dim"))
    return Group(*parts)
