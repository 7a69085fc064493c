"""Rich renderables for the companion: the state at a glance, explanations, locations, help and history.

Pure formatting: every function takes plain data from the session and returns something rich can print, so
the same views serve the interactive loop, piped input, ``analyze`` and the demo.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from fractions import Fraction

from rich import box
from rich.cells import cell_len
from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from models.thirteen_clues.data import CARD_BY_NAME
from models.thirteen_clues.knowledge import TableSetup, place_label
from solver.knowledge import Count, Explanation

WHATIF_STYLE = "bold yellow"
PROSE_WIDTH = 24  # a sentence column narrower than this reads badly: below it, a table's rows become blocks
BRIEF_LINES = 20  # 'show brief' fits one screen: at most this many lines at 80 columns


class Flow:
    """Atoms (short phrases such as ``pink 0.4`` or ``Holmes 4``) packed into lines at render time.

    Rich wraps text at any space (a non-breaking space counts as one), which splits a colour from its value on
    a narrow screen; a line of a ``Flow`` breaks only between atoms. An atom wider than the screen (a sentence)
    is word-wrapped on its own lines."""

    def __init__(self, atoms: Sequence[str | Text], sep: str = "; ", style: str = "", lead: str | Text = "",
                 end: str = "", indent: str = "") -> None:
        self.atoms = [a if isinstance(a, Text) else Text(a) for a in atoms if str(a)]
        self.sep, self.style, self.end, self.indent = sep, style, end, indent
        self.lead = lead if isinstance(lead, Text) else Text(lead)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        punct = self.sep.rstrip()
        gap = self.sep[len(punct):]
        lines: list[Text] = []
        current = self.lead.copy()
        fresh = True  # no atom on the current line yet
        for i, atom in enumerate(self.atoms):
            piece = atom.copy()
            piece.append(punct if i < len(self.atoms) - 1 else self.end)
            if fresh or current.cell_len + cell_len(gap) + piece.cell_len <= width:
                if not fresh:
                    current.append(gap)
                current.append_text(piece)
            else:
                lines.append(current)
                current = Text(self.indent) + piece
            fresh = False
        lines.append(current)
        for line in lines:
            line.stylize(self.style)
            yield from line.wrap(console, width) if line.cell_len > width else [line]

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        longest = max((a.cell_len + len(self.sep) for a in self.atoms), default=1)
        total = self.lead.cell_len + sum(a.cell_len + len(self.sep) for a in self.atoms)
        return Measurement(min(longest, options.max_width), min(total, options.max_width))


class Either:
    """``wide`` (a pre-aligned text block) when its longest line fits the screen, else ``narrow``."""

    def __init__(self, wide: Text, narrow: RenderableType) -> None:
        self.wide, self.narrow = wide, narrow

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        longest = max((cell_len(line) for line in self.wide.plain.splitlines()), default=0)
        yield self.wide if longest <= options.max_width else self.narrow

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.wide)


class Fit:
    """A table that never splits a cell's line nor cuts a header: it is drawn as is when every column fits whole,
    else as one block per row (``label: header value; header value``), which fits a phone's 50 columns.

    Columns in ``prose`` hold sentences: they may wrap at spaces in the wide layout."""

    def __init__(self, table: Table, prose: Collection[int] = ()) -> None:
        self.table = table
        self.prose = set(prose)
        self.snug: list[int] = []  # per column: the narrowest width that splits no cell line (headers wrap)
        self.roomy: list[int] = []  # per column: that, or the whole header on one line if wider
        for i, column in enumerate(table.columns):
            header = " ".join(str(column.header).split())
            cells = [str(c) for c in column._cells]
            lines = [cell_len(line) for c in cells for line in c.splitlines()]
            longest_word = max((cell_len(w) for w in header.split()), default=0)
            if i in self.prose:
                longest_word = max([longest_word, *(cell_len(w) for c in cells for w in c.split())])
                snug = max(longest_word, min(PROSE_WIDTH, max(lines, default=0)))  # narrower: rows as blocks
            else:
                snug = max([longest_word, *lines])
            self.snug.append(snug)
            self.roomy.append(max(snug, cell_len(header)))

    def _width(self, widths: Sequence[int]) -> int:
        table = self.table
        return sum(w + table._get_padding_width(i) for i, w in enumerate(widths)) + table._extra_width

    def wide_fits(self, console: Console, options: ConsoleOptions) -> bool:
        return self._width(self.snug) <= options.max_width

    def _fix_widths(self, max_width: int) -> None:
        """Give every column but the prose ones a fixed width (rich then shrinks only the prose to fit): whole
        headers when they fit, else headers wrapped at spaces."""
        widths = self.roomy if self._width(self.roomy) <= max_width else self.snug
        for i, (column, width) in enumerate(zip(self.table.columns, widths, strict=True)):
            column.min_width = width
            column.width = None if i in self.prose else width

    def narrow(self) -> RenderableType:
        """One block per row: the first cell as its label, then ``header value`` atoms."""
        table = self.table
        headers = [" ".join(str(c.header).split()) for c in table.columns]
        parts: list[RenderableType] = []
        if table.title:
            parts.append(Text(str(table.title), style="bold"))
        columns = [list(c._cells) for c in table.columns]
        for r in range(table.row_count):
            cells = [columns[i][r] for i in range(len(columns))]
            label = cells[0] if isinstance(cells[0], Text) else Text(str(cells[0]))
            atoms: list[str | Text] = []
            for header, cell in zip(headers[1:], cells[1:], strict=True):
                text = cell if isinstance(cell, Text) else Text(str(cell))
                lines = [line for line in text.split("\n") if line.plain.strip()]
                if not lines:
                    continue
                first = Text(f"{header} " if header else "", style="dim")
                atoms.append(first + lines[0])
                atoms.extend(lines[1:])
            head = Text(headers[0] + " ", style="dim") + label if headers[0] else label
            parts.append(Flow(atoms, sep="; ", lead=head + Text(": "), indent="  "))
        return Group(*parts)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if self.wide_fits(console, options):
            self._fix_widths(options.max_width)
            yield self.table
        else:
            yield self.narrow()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(self._width(self.snug), options.max_width), options.max_width)

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


def help_view() -> RenderableType:
    table = Table(title="Thirteen Clues companion", box=box.SIMPLE_HEAD, show_lines=False)
    table.add_column("")
    table.add_column("Syntax")
    table.add_column("Example")
    for row in HELP_ROWS:
        table.add_row(*(Text(cell) for cell in row))  # Text: no markup, so "[all]" stays visible
    note = Text(
        "Card, suit and category names are case-insensitive and unique prefixes work (ask 3 re 2). "
        "Seats are numbered 1..N clockwise. Everything after '#' is a comment."
    )
    return Group(table, note)


def history_view(lines: Sequence[str]) -> RenderableType:
    if not lines:
        return Text("no entries yet")
    table = Table(box=box.SIMPLE_HEAD, title="Entries (the journal)",
                  caption="fix one: 'edit N NEW ENTRY' or 'drop N'")
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
        exact_column = not certain and all(fractions)  # filled on every row, or not shown at all
        if exact_column:
            table.add_column("exact", justify="right", style="dim")
        for (card, p), frac in zip(ordered, fractions, strict=True):
            if certain:
                table.add_row(Text(f"{card} ✔", style="bold green"), Text("certain", style="bold green"))
            else:
                table.add_row(card, percent_text(p, count.exact), *([frac] if exact_column else []))
        tables.append(table)
    parts.append(Columns(tables, padding=(0, 3)))
    parts.append(worlds_text(count))
    if count.exact and any(not all(fraction_text(p, True) for p in cards.values()) for cards in mystery.values()
                           if len(cards) > 1):
        parts.append(Text("(an 'exact' fraction column is shown where every denominator is at most 1000)",
                          style="dim"))
    solved = {cat: next(iter(cards)) for cat, cards in mystery.items() if len(cards) == 1}
    if len(solved) == len(mystery):
        verb = "would be solved (what-if)" if hypothetical else "SOLVED"
        person, location, weapon = solved.get("person"), solved.get("location"), solved.get("weapon")
        parts.append(Text(f"{verb}: {person} in the {location} with the {weapon}", style="bold green"))
    return Group(*parts)


def brief_view(
    mystery: Mapping[str, Mapping[str, float]], count: Count, whatifs: Sequence[str]
) -> RenderableType:
    """'show brief': one line per category (cards by probability), the world count, and any what-if."""
    parts: list[RenderableType] = []
    if whatifs:
        parts.append(Text(f"WHAT-IF, not a fact: assuming {', '.join(repr(w) for w in whatifs)}", style=WHATIF_STYLE))
    for category, cards in mystery.items():
        ordered = sorted(cards.items(), key=lambda kv: (-kv[1], kv[0]))
        if len(ordered) == 1:
            atoms = [Text(f"{ordered[0][0]} (certain)", style="bold green")]
        else:
            atoms = [Text(f"{card} {percent_text(p, count.exact)}") for card, p in ordered]
        parts.append(Flow(atoms, sep=", ", lead=f"{category.capitalize()}: ", indent="  "))
    parts.append(worlds_text(count))
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


def locations_view(locations: Mapping[str, Sequence[str]], all_places: Sequence[str], hypothetical: bool) -> Fit:
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
    return Fit(table, prose={2})


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
    parts: list[RenderableType] = [Fit(table, prose={3})]
    if len(shown) < len(items):
        parts.append(Text(f"{len(items) - len(shown)} more: 'advise all' lists every legal action", style="dim"))
    return Group(*parts)
