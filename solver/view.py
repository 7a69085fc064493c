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

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Tone = Literal["", "strong", "muted", "whatif", "good", "warn", "bad", "accent"]
BRIEF_LINES = 20  # 'show brief' fits one screen: at most this many lines at 80 columns
CellKind = Literal["text", "prob", "certain", "ruled_out", "number", "command"]
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
    renderer that ignores ``parts`` still draws the cell right, and one that knows them can draw each value.
    ``do`` is the entry line of the move the cell names (an advice row's action), as a player would enter it
    now: the whole line, or its start (ending in a space) where the rest is what only the player will know (an
    answer, a revealed card); a page draws it as a "do this" button that fills the entry box, the terminal
    ignores it. A ``command`` part (the help's syntax forms and examples) is a command as typed, which no
    renderer may split over lines."""

    text: str
    kind: CellKind = "text"
    value: float | None = None
    tone: Tone = ""
    why: str | None = None
    key: str | None = None
    parts: tuple[Cell, ...] = ()
    do: str | None = None


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


def help_table(title: str, rows: Iterable[tuple[str, str, str]], syntax: str = "Syntax") -> Table:
    """The help's table: one row per (section, syntax, example), with every command as a ``command`` part, so a
    narrow screen reflows the table instead of splitting a command (``why Duke A steps`` stays on one line).

    ``syntax`` holds command forms separated by `` / `` and may end in a note after two spaces (``  (house
    rule)``); ``example`` holds lines as typed, separated by three spaces, each starting with a word of the row's
    forms (``why Sword   why Duke 3``). Any other example (``the entries so far``) is a description: words that
    may wrap."""
    table = Table(title=title)
    for header in ("", syntax, "Example"):
        table.add_column(header)
    for section, forms, example in rows:
        commands, _, note = forms.partition("  (")
        parts = [Cell(c, "command") for c in commands.split(" / ")]
        if note:
            parts.append(Cell("(" + note))
        firsts = {p.text.split()[0] for p in parts if p.kind == "command"}
        examples = example.split("   ")
        shown = Cell(example, parts=tuple(Cell(e.strip(), "command") for e in examples)) \
            if example and all(e.split() and e.split()[0] in firsts for e in examples) else Cell(example)
        table.add_row(section, Cell(forms, parts=tuple(parts)), shown)
    return table


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


# -- game objects (issue 19 §1): what a page draws as cards and boards, and the terminal as short tokens --------
CardStatus = Literal["seen", "candidate", "ruled_out"]

#: Colour words a game may give a card, as the colour both renderers paint (a game may also give a '#rrggbb').
PALETTE: dict[str, str] = {
    "purple": "#7d4bb0", "pink": "#e86fb0", "red": "#d2322d", "green": "#2e9a48", "yellow": "#f2c83a",
    "blue": "#2f6fd0", "orange": "#f08a24", "white": "#f4f4f0", "brown": "#8a5a33", "gray": "#8c9096",
    "grey": "#8c9096", "black": "#2b2b2b", "teal": "#1d9a9a",
}


def paint(colour: str) -> str:
    """The '#rrggbb' of a colour word of :data:`PALETTE` (or of a '#rrggbb' itself); '' for no colour."""
    if colour.startswith("#") and len(colour) == 7:
        return colour.lower()
    return PALETTE.get(colour.lower(), "")


def ink(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (its relative luminance decides)."""
    hex_colour = paint(colour)
    if not hex_colour:
        return "#000000"
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "#000000" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 else "#ffffff"


@dataclass(frozen=True)
class Card:
    """One card: its ``name`` (what a page's ``data-card`` holds and an entry names), the short ``label`` drawn on
    it (``3W``, ``Duke``), its ``colour`` (a suit or bomb colour: a :data:`PALETTE` word) and the ``letter`` or
    icon that says the colour without it, for colour-blind players. ``status``: ``seen`` (a card someone sees),
    ``candidate`` (one possibility of a hidden card, with its probability ``p``: a keyed cell) or ``ruled_out``.
    ``note`` is a few words under it (``face down``, ``x2``)."""

    name: str
    label: str = ""
    colour: str = ""
    letter: str = ""
    status: CardStatus = "seen"
    p: Cell | None = None
    note: str = ""

    @property
    def text(self) -> str:
        """The card as one short token of plain text: letter, label, probability or mark."""
        head = " ".join(part for part in (self.letter, self.label or self.name) if part)
        tail = {"seen": "", "ruled_out": " ✘"}.get(self.status, "")
        if self.p is not None:
            tail = f" {self.p.text}"
        return head + tail + (f" {self.note}" if self.note else "")


@dataclass(frozen=True)
class Position:
    """One position of a hand: the card there (one ``seen`` card) or its candidates (best first; ``more`` of
    them not drawn), and what its holder was told about it (``told``: the Assists' words, '' for nothing)."""

    label: str
    cards: tuple[Card, ...]
    told: str = ""
    more: int = 0


@dataclass(frozen=True)
class Hand:
    """A hand of positions, left to right, headed by whose it is."""

    title: str
    positions: tuple[Position, ...]
    seat: int | None = None


@dataclass(frozen=True)
class Player:
    """A player at the table: ``name``, ``seat``, the figures drawn beside them (typed cells: a role
    probability keyed like the summary), short ``facts`` (``4 cables``, ``claimed 1``), the cards shown by them
    and whether it is their turn (``active``) or the player using the companion (``me``)."""

    name: str
    seat: int | None = None
    figures: tuple[Cell, ...] = ()
    facts: tuple[str, ...] = ()
    cards: tuple[Card, ...] = ()
    active: bool = False
    me: bool = False


@dataclass(frozen=True)
class Track:
    """A track on the board: ``value`` on the spaces ``low`` .. ``high``; ``lose`` is the space that loses the
    game (Holmes at 0), ``goal`` the one to reach (Investigation at 20); ``key`` names ``value`` in the summary."""

    label: str
    value: int
    low: int
    high: int
    lose: int | None = None
    goal: int | None = None
    key: str | None = None

    def __post_init__(self) -> None:
        if self.low >= self.high:
            raise ValueError(f"track {self.label!r}: range {self.low}..{self.high} is empty")


@dataclass(frozen=True)
class Pile:
    """Cards in a pile, drawn face up (``cards``), with a ``limit`` (the Impossible's, a colour's explosion
    threshold) and ``hidden``, a count of face-down cards not drawn one by one; ``note`` says what is on it."""

    title: str
    cards: tuple[Card, ...] = ()
    limit: int | None = None
    hidden: int = 0
    note: str = ""
    colour: str = ""
    letter: str = ""


@dataclass(frozen=True)
class Grid:
    """Rows x columns of typed cells (``certain``, ``ruled_out`` or ``prob``): a card x holder grid. A row head is
    a card (drawn as one, ``data-card``) or text; ``cells[r][c]`` is row ``r``'s cell in column ``c``."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[Card | str, ...]
    cells: tuple[tuple[Cell, ...], ...]
    caption: str = ""

    def __post_init__(self) -> None:
        if len(self.cells) != len(self.rows) or any(len(row) != len(self.columns) for row in self.cells):
            raise ValueError(f"grid {self.title!r}: {len(self.rows)} rows x {len(self.columns)} columns expected")


@dataclass(frozen=True)
class Bars:
    """A distribution drawn as bars: each item a probability cell (its text the value, e.g. ``-1 (50%)``)."""

    title: str
    items: tuple[Cell, ...]
    colour: str = ""
    letter: str = ""


Drawn = Card | Hand | Player | Track | Pile | Grid | Bars
View = Text | Table | Group | Columns | Flow | Either | Rule | Card | Hand | Player | Track | Pile | Grid | Bars
#: Every view type, for ``isinstance`` checks (a renderer refuses anything else).
VIEW_TYPES: tuple[type, ...] = (Text, Table, Group, Columns, Flow, Either, Rule, Card, Hand, Player, Track, Pile,
                                Grid, Bars)


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
        elif isinstance(item, Drawn):
            yield from drawn_cells(item)


def drawn_cards(view: View) -> Iterator[Card]:
    """Every card drawn in ``view`` (hands' positions, piles, players' cards, grid row heads)."""
    for item in walk(view):
        if isinstance(item, Card):
            yield item
        elif isinstance(item, Hand):
            yield from (card for pos in item.positions for card in pos.cards)
        elif isinstance(item, Pile | Player):
            yield from item.cards
        elif isinstance(item, Grid):
            yield from (row for row in item.rows if isinstance(row, Card))


def drawn_cells(item: Drawn) -> Iterator[Cell]:
    """The typed cells of one game object: its cards' probabilities, a player's figures, a grid's cells."""
    if isinstance(item, Grid):
        for row in item.cells:
            yield from row
    elif isinstance(item, Bars):
        yield from item.items
    elif isinstance(item, Player):
        yield from item.figures
    if not isinstance(item, Track | Bars):
        for card in drawn_cards(item):
            if card.p is not None:
                yield card.p


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
    if isinstance(view, Drawn):
        return drawn_text(view)
    if isinstance(view, Table):
        lines = [view.title] if view.title else []
        lines.append("  ".join(c.header for c in view.columns))
        lines.extend("  ".join(c.text for c in row) for row in view.rows)
        if view.caption:
            lines.append(view.caption)
        return "\n".join(lines)
    return "\n".join(plain_text(item) for item in view.items)


def track_text(track: Track) -> str:
    """``Holmes 13 (0..15, lost at 0)``."""
    ends = [f"{track.low}..{track.high}"]
    if track.lose is not None:
        ends.append(f"lost at {track.lose}")
    if track.goal is not None:
        ends.append(f"goal {track.goal}")
    return f"{track.label} {track.value} ({', '.join(ends)})"


def pile_head(pile: Pile) -> str:
    """``Impossible 3/4`` (its count against its limit), ``Deck (12)`` (a face-down pile: its count) or the
    title alone (the cards drawn say how many)."""
    count = len(pile.cards) + pile.hidden
    if pile.limit is not None:
        return f"{pile.title} {count}/{pile.limit}"
    return f"{pile.title} ({count})" if pile.hidden or not pile.cards else pile.title


def drawn_text(item: Drawn) -> str:
    """A game object as plain lines (the narrowest fallback, logs and tests)."""
    if isinstance(item, Card):
        return item.text
    if isinstance(item, Hand):
        lines = [item.title]
        for pos in item.positions:
            told = f" (told: {pos.told})" if pos.told else ""
            more = f" +{pos.more} more" if pos.more else ""
            lines.append(f"  {pos.label}{told}: " + ", ".join(c.text for c in pos.cards) + more)
        return "\n".join(lines)
    if isinstance(item, Player):
        parts = [*(f.text for f in item.figures), *item.facts, *(c.text for c in item.cards)]
        mark = "> " if item.active else ""
        return f"{mark}{item.name}: " + "; ".join(parts)
    if isinstance(item, Track):
        return track_text(item)
    if isinstance(item, Pile):
        cards = ", ".join(c.text for c in item.cards)
        return pile_head(item) + (f": {cards}" if cards else "") + (f"; {item.note}" if item.note else "")
    if isinstance(item, Grid):
        lines = [item.title, "  ".join(["", *item.columns])]
        for head, row in zip(item.rows, item.cells, strict=True):
            label = head.text if isinstance(head, Card) else head
            lines.append("  ".join([label, *(c.text for c in row)]))
        return "\n".join(lines + ([item.caption] if item.caption else []))
    return item.title + ": " + ", ".join(c.text for c in item.items)


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


def advice_view(advice: object, limit: int | None, hypothetical: bool,
                do: Callable[[Any], str | None] | None = None) -> View:
    """The advisor's ranked actions as a table (items with ``action``, ``score``, ``reason``: the
    :class:`models.thirteen_clues.advisor.Advice` shape); anything else is shown as text. ``do`` gives an
    action's entry line (its :attr:`Cell.do`: the page's "do this"), ``None`` for an action with none."""
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
        action = Cell(str(item.action), do=do(item.action) if do is not None else None)
        table.add_row(rank, action, f"{float(item.score):.2f}", str(getattr(item, "reason", "")))
    if any("=" in rank for rank in numbers[: len(shown)]):
        table.caption = TIED_NOTE
    parts: list[View] = [table]
    if len(shown) < len(items):
        parts.append(Text(f"{len(items) - len(shown)} more: 'advise all' lists every legal action", "muted"))
    return Group(*parts)
