"""View data: what a companion session shows, as plain values that any interface can draw.

A session answers a typed line with these values instead of terminal renderables, so that the terminal (rich,
``assistant_cli/terminal.py``) and the web page (``assistant_cli/web``) draw the same content and neither
holds game logic. The shapes are the few the views need: text with a tone, tables of typed cells (a
probability carries its value, so a page can draw a bar; a cell may carry the ``why`` command that explains
it), groups, side-by-side blocks and a rule. Tones are semantic (``strong``, ``muted``, ``whatif``, ``good``,
``warn``, ``bad``, ``accent`` for the next-step line); each renderer maps them to its own styles.

Tables are built like rich's (``add_column``, ``add_row``) so view code reads the same as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

Tone = Literal["", "strong", "muted", "whatif", "good", "warn", "bad", "accent"]
BRIEF_LINES = 20  # 'show brief' fits one screen: at most this many lines at 80 columns
CellKind = Literal["text", "prob", "certain", "ruled_out", "number"]
Align = Literal["left", "right", "center"]


@dataclass(frozen=True)
class Text:
    """A line or paragraph of text."""

    text: str
    tone: Tone = ""


@dataclass(frozen=True)
class Cell:
    """One table cell: its text, what kind of value it shows, and the command that explains it.

    ``value`` is the probability in [0, 1] of a ``prob`` cell (a page draws a bar) or the number of a ``number``
    cell; ``why`` is a session command line (``why Duke``) that a tap on the cell runs; ``key`` names the value
    in the session's ``summary()`` (the ``analyze --json`` output) as a dotted path, e.g. ``mystery.person.Duke``,
    so a test or a script can check the page against it. ``parts`` lists the typed values of a cell that shows
    several (an Evidence mystery's possible values, each with its probability): ``text`` shows them all, so a
    renderer that ignores ``parts`` still draws the cell right, and one that knows them can draw each value."""

    text: str
    kind: CellKind = "text"
    value: float | None = None
    tone: Tone = ""
    why: str | None = None
    key: str | None = None
    parts: tuple[Cell, ...] = ()


def prob(p: float, text: str, why: str | None = None, tone: Tone = "", key: str | None = None) -> Cell:
    """A probability cell showing ``text`` for the value ``p``."""
    return Cell(text, "prob", float(p), tone, why, key)


def as_cell(item: str | Text | Cell) -> Cell:
    """A cell from plain text, toned text or a cell."""
    if isinstance(item, Cell):
        return item
    if isinstance(item, Text):
        return Cell(item.text, tone=item.tone)
    return Cell(str(item))


@dataclass(frozen=True)
class Column:
    """A table column: its header, alignment and the tone of its cells. A ``prose`` column holds sentences,
    which may wrap at spaces; other columns never split a cell's line."""

    header: str
    align: Align = "left"
    tone: Tone = ""
    prose: bool = False


@dataclass
class Table:
    """A table of typed cells. ``compact`` drops the outer padding (tables shown side by side); ``boxed``
    draws a frame in the terminal (summary tables) where the default is a plain underlined header; ``fit``: on a
    screen too narrow for every column whole, each row becomes a block rather than split cells (tables placed
    side by side and the help leave it to their container)."""

    title: str | None = None
    title_tone: Tone = ""
    compact: bool = False
    boxed: bool = False
    fit: bool = True
    caption: str | None = None
    columns: list[Column] = field(default_factory=list)
    rows: list[tuple[Cell, ...]] = field(default_factory=list)

    def add_column(self, header: str, align: Align = "left", tone: Tone = "", prose: bool = False) -> None:
        self.columns.append(Column(header, align, tone, prose))

    def add_row(self, *cells: str | Text | Cell) -> None:
        if len(cells) > len(self.columns):
            raise ValueError(f"row of {len(cells)} cells for a table of {len(self.columns)} columns")
        padded = [as_cell(c) for c in cells] + [Cell("")] * (len(self.columns) - len(cells))
        self.rows.append(tuple(padded))


@dataclass(frozen=True)
class Group:
    """Views shown one under the other."""

    items: tuple[View, ...]

    def __init__(self, *items: View) -> None:
        object.__setattr__(self, "items", tuple(items))


@dataclass(frozen=True)
class Columns:
    """Views shown side by side where the screen is wide enough (they wrap on a narrow one)."""

    items: tuple[View, ...]
    gap: int = 3


@dataclass(frozen=True)
class Flow:
    """Short phrases (``pink 0.4``, ``Holmes 4``) joined by ``sep`` and broken into lines only between them, so
    a narrow screen never splits a colour from its value; ``lead`` starts the first line, ``end`` ends the last.
    An atom may be a typed :class:`Cell` (a probability with its ``key`` and ``why``), drawn as its text."""

    atoms: tuple[str | Text | Cell, ...]
    sep: str = "; "
    lead: str = ""
    end: str = ""
    tone: Tone = ""
    indent: str = ""


@dataclass(frozen=True)
class Either:
    """``wide`` (a pre-aligned block of text) where the screen is wide enough for its longest line, else
    ``narrow``. ``wide`` may be a sequence of toned pieces (a header line, a certain row) drawn one after the
    other; ``tone`` is the whole block's base tone, under the pieces' own."""

    wide: str | tuple[Text, ...]
    narrow: View
    tone: Tone = ""

    @property
    def wide_text(self) -> str:
        """``wide`` as plain text."""
        return self.wide if isinstance(self.wide, str) else "".join(piece.text for piece in self.wide)


@dataclass(frozen=True)
class Rule:
    """A horizontal separator with an optional title."""

    title: str = ""


@dataclass(frozen=True)
class Step:
    """The next step the session expects (a setup question): what to ask, the entry it completes, and the
    words that may come next (drawn from the session's own completion data)."""

    question: str
    prefix: str
    choices: tuple[str, ...] = ()


View = Text | Table | Group | Columns | Flow | Either | Rule


def walk(view: View) -> Iterator[View]:
    """Every view inside ``view``, itself first (depth first)."""
    yield view
    if isinstance(view, Group | Columns):
        for item in view.items:
            yield from walk(item)
    elif isinstance(view, Either):
        yield from walk(view.narrow)


def cells(view: View) -> Iterator[Cell]:
    """Every typed cell in ``view``: table cells (with the parts of a compound cell) and a Flow's cell atoms."""
    for item in walk(view):
        if isinstance(item, Table):
            for row in item.rows:
                for cell in row:
                    yield cell
                    yield from cell.parts
        elif isinstance(item, Flow):
            yield from (atom for atom in item.atoms if isinstance(atom, Cell))


def plain_text(view: View) -> str:
    """The text of a view without layout (for logs, tests and the narrow fallback of a renderer)."""
    if isinstance(view, Text):
        return view.text
    if isinstance(view, Rule):
        return view.title
    if isinstance(view, Flow):
        return view.lead + view.sep.join(a if isinstance(a, str) else a.text for a in view.atoms) + view.end
    if isinstance(view, Either):
        return plain_text(view.narrow)
    if isinstance(view, Table):
        lines = [view.title] if view.title else []
        lines.append("  ".join(c.header for c in view.columns))
        lines.extend("  ".join(c.text for c in row) for row in view.rows)
        if view.caption:
            lines.append(view.caption)
        return "\n".join(lines)
    return "\n".join(plain_text(item) for item in view.items)


# -- views every game shows the same way ---------------------------------------------------------------------
TIE = 1e-9  # scores closer than this are tied: the advisor has no reason to prefer either
TIED_NOTE = "a rank with '=' is shared: those options are equally good by the advisor's measure"


def ranks(scores: Sequence[float | tuple[float, ...]], tolerance: float = TIE) -> list[str]:
    """Competition ranks of ``scores`` (in the order shown, best first; a score may be a tuple when options are
    ranked by several figures): tied scores share a rank marked '=' ('1=', '1=', '3'), so a table never orders
    equal options by name or seat without saying so."""

    def same(a: float | tuple[float, ...], b: float | tuple[float, ...]) -> bool:
        pairs = zip(a, b, strict=True) if isinstance(a, tuple) and isinstance(b, tuple) else [(a, b)]
        return all(abs(float(x) - float(y)) <= tolerance for x, y in pairs)  # type: ignore[arg-type]

    out: list[str] = []
    for i, score in enumerate(scores):
        first = i
        while first > 0 and same(scores[first - 1], score):
            first -= 1
        tied = first < i or (i + 1 < len(scores) and same(scores[i + 1], score))
        out.append(f"{first + 1}{'=' if tied else ''}")
    return out


def percent_text(p: float, exact: bool) -> str:
    return f"{100 * p:.1f}%" if exact else f"~{100 * p:.1f}%"


def advice_view(advice: object, limit: int | None, hypothetical: bool) -> View:
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
    table = Table(title=title, title_tone="whatif" if hypothetical else "strong")
    table.add_column("#", align="right")
    table.add_column("Action")
    table.add_column("Score", align="right")
    table.add_column("Why", prose=True)
    shown = items if limit is None else items[:limit]
    numbers = ranks([float(item.score) for item in items])
    for rank, item in zip(numbers, shown, strict=False):
        table.add_row(rank, str(item.action), f"{float(item.score):.2f}", str(getattr(item, "reason", "")))
    if any("=" in rank for rank in numbers[: len(shown)]):
        table.caption = TIED_NOTE
    parts: list[View] = [table]
    if len(shown) < len(items):
        parts.append(Text(f"{len(items) - len(shown)} more: 'advise all' lists every legal action", "muted"))
    return Group(*parts)
