"""Rich renderables the terminal needs beyond rich's own: a table that never splits a cell on a narrow screen
(:class:`Fit`), phrases that break only between them (:class:`Flow`), and a wide-or-narrow choice
(:class:`Either`). :mod:`assistant_cli.terminal` draws view data with them."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

WHATIF_STYLE = "bold yellow"
PROSE_WIDTH = 24  # a sentence column narrower than this reads badly: below it, a table's rows become blocks


class Flow:
    """Atoms (short phrases such as ``pink 0.4`` or ``track 4``) packed into lines at render time.

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



#: One cell of a help table as drawn: its atoms, each with the text that joins it to the one before (the
#: first's is ''). A command is one atom; a sentence is one atom per word.
Atoms = list[tuple[str, str]]


def cell_atoms(text: str, whole: Sequence[str] = ()) -> Atoms:
    """``text`` cut into atoms: each of ``whole`` (commands, found in this order in ``text``) one atom, every
    other word one atom; each keeps the text between it and the atom before as its joiner (`` / ``, three
    spaces, a space: a lone ``/`` joins the atoms either side of it)."""
    spans: list[tuple[int, int]] = []
    pos = 0
    for command in whole:
        start = text.find(command, pos)
        if start < 0:
            continue
        spans += [(m.start() + pos, m.end() + pos) for m in re.finditer(r"\S+", text[pos:start])]
        spans.append((start, start + len(command)))
        pos = start + len(command)
    spans += [(m.start() + pos, m.end() + pos) for m in re.finditer(r"\S+", text[pos:])]
    spans = [s for i, s in enumerate(spans) if not (0 < i < len(spans) - 1 and text[s[0]:s[1]] == "/")]
    return [(text[spans[i - 1][1]:a] if i else "", text[a:b]) for i, (a, b) in enumerate(spans)]


QUOTED = re.compile(r"(?<![\w'])'[^'\n]*\s[^'\n]*'(?![\w'])")
"""A quoted phrase with a space in it (``'3 Witness'``, ``'cut 2'``): a card or a command the wrap keeps whole."""
WORD = re.compile(rf"(?:{QUOTED.pattern}|\S)+")


def prose(text: str, style: str = "") -> RenderableType:
    """``text`` as rich draws it, except that a quoted phrase is never split over two lines.

    Rich wraps at any space, so ``or '3 Witness'`` can end a line with ``'3``; a paragraph holding such a phrase
    is drawn as a :class:`Flow` of its words, the phrase one atom. Text without one keeps rich's wrap (and its
    spacing)."""
    if not QUOTED.search(text):
        return Text(text, style=style)
    paragraphs: list[RenderableType] = []
    for line in text.split("\n"):
        atoms = [m.group() for m in WORD.finditer(line)]
        margin = line[:len(line) - len(line.lstrip())]
        paragraphs.append(Flow(atoms, sep=" ", style=style, lead=margin, indent=margin) if atoms else Text(""))
    return paragraphs[0] if len(paragraphs) == 1 else Group(*paragraphs)


def pack(atoms: Atoms, width: int, first: str = "", indent: str = "") -> list[str]:
    """Lines of at most ``width`` cells that break only between atoms (a line that breaks at `` / `` keeps its
    ``/``): the first starts with ``first``, the others with ``indent``. An atom wider than a line is broken at
    its spaces (or left whole if it has none)."""
    lines: list[str] = []
    line, empty = first, True
    for joiner, atom in atoms:
        if empty:
            line, empty = line + atom, False
        elif cell_len(line) + cell_len(joiner) + cell_len(atom) <= width:
            line += joiner + atom
        else:
            lines.append(line + joiner.rstrip())
            line = indent + atom
        while cell_len(line) > width:  # a command wider than the screen: broken at a space
            cut = line.rfind(" ", len(indent) + 1, width + 1)
            if cut < 0:
                break
            lines.append(line[:cut])
            line = indent + line[cut + 1:]
    lines.append(line)
    return lines


class CommandTable:
    """The help: a table of (section, syntax, example) rows that never splits a command or a word.

    Where the three columns fit with every command whole, it is a table whose cells break only between commands
    and between the words of a note; on a narrower screen each row reflows: its commands on their own lines, the
    example or description under them, indented."""

    def __init__(self, title: str, headers: Sequence[str], rows: Sequence[Sequence[Atoms]]) -> None:
        self.title, self.headers, self.rows = title, list(headers), [list(r) for r in rows]

    def _widths(self, column: int) -> tuple[int, int]:
        """The narrowest width that splits no atom of ``column``, and the width of its longest one-line cell."""
        atoms = [cell_len(a) for row in self.rows for _, a in row[column]]
        lines = [sum(cell_len(j) + cell_len(a) for j, a in row[column]) for row in self.rows]
        head = cell_len(self.headers[column])
        return max([head, *atoms]), max([head, *lines])

    def table(self, width: int) -> Table | None:
        """The wide layout at ``width`` columns, or None where a command would not fit whole."""
        (low0, _), (low1, high1), (low2, high2) = (self._widths(i) for i in range(3))
        table = Table(title=Text(self.title, style="bold"), box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        for header in self.headers:
            table.add_column(header, no_wrap=True)
        room = width - low0 - sum(table._get_padding_width(i) for i in range(3)) - table._extra_width
        if low1 + low2 > room:
            return None
        syntax = min(high1, room - low2)
        widths = (low0, syntax, min(high2, room - syntax))
        for column, w in zip(table.columns, widths, strict=True):
            column.width = w
        for row in self.rows:
            table.add_row(*(Text("\n".join(pack(cell, w))) for cell, w in zip(row, widths, strict=True)))
        return table

    def narrow(self, width: int) -> RenderableType:
        lines: list[RenderableType] = [Text(self.title, style="bold")]
        for row in self.rows:
            section, syntax, example = row
            if section:
                lines.append(Text(" ".join(a for _, a in section), style="bold"))
            lines += [Text(line) for line in pack(syntax, width, "  ", "  ")]
            if example:
                lines += [Text(line, style="dim") for line in pack(example, width, "    ", "    ")]
        return Group(*lines)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = self.table(options.max_width)
        yield table if table is not None else self.narrow(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(40, options.max_width), options.max_width)
