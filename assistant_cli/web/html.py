"""The HTML renderer: draws a session's view data (:mod:`solver.view`) as page fragments.

Like the terminal renderer it holds no game logic. Probabilities become bars (a player would rather look than
read), certain and ruled-out cells get marks, and a cell that carries a ``why`` command becomes a button that
runs it. Everything is escaped; the ``data-*`` attributes carry the exact values for tests and scripts.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from solver import view as v

TONE_CLASS = {"": "", "strong": "t-strong", "muted": "t-muted", "whatif": "t-whatif", "good": "t-good",
              "warn": "t-warn", "bad": "t-bad", "accent": "t-accent"}


def render(item: Any) -> Markup:
    """The HTML of one view (or of a list of views); anything that is not view data raises ``TypeError``, so a
    repr can never reach a player."""
    if isinstance(item, list | tuple):
        return Markup("").join(render(i) for i in item)
    if isinstance(item, v.Text):
        return Markup('<p class="{}">{}</p>').format(TONE_CLASS[item.tone], item.text)
    if isinstance(item, v.Table):
        return _table(item)
    if isinstance(item, v.Group):
        return Markup('<div class="group">{}</div>').format(render(list(item.items)))
    if isinstance(item, v.Columns):
        return Markup('<div class="columns">{}</div>').format(render(list(item.items)))
    if isinstance(item, v.Flow):
        atoms = Markup(escape(item.sep)).join(_atom(a) for a in item.atoms)
        return Markup('<p class="flow {}">{}{}{}</p>').format(TONE_CLASS[item.tone], item.lead, atoms, item.end)
    if isinstance(item, v.Either):
        return render(item.narrow)  # a phone's page is narrow; the table layout of 'wide' is the terminal's
    if isinstance(item, v.Rule):
        return Markup('<hr title="{0}"><p class="rule">{0}</p>').format(item.title)
    raise TypeError(f"not view data: {type(item).__name__}")


def _table(table: v.Table) -> Markup:
    parts = [Markup('<div class="table-wrap"><table class="view">')]
    if table.title:
        parts.append(Markup('<caption class="{}">{}</caption>').format(TONE_CLASS[table.title_tone], table.title))
    parts.append(Markup("<thead><tr>"))
    for column in table.columns:
        parts.append(Markup('<th class="a-{}">{}</th>').format(column.align, column.header))
    parts.append(Markup("</tr></thead><tbody>"))
    for row in table.rows:
        parts.append(Markup("<tr>"))
        for column, cell in zip(table.columns, row, strict=True):
            parts.append(_cell(cell, column))
        parts.append(Markup("</tr>"))
    parts.append(Markup("</tbody></table>"))
    if table.caption:
        parts.append(Markup('<p class="caption t-muted">{}</p>').format(table.caption))
    parts.append(Markup("</div>"))
    return Markup("").join(parts)


def _part(cell: v.Cell) -> Markup:
    """One value of a cell with several (e.g. each value still possible, with its probability)."""
    data = Markup("")
    if cell.value is not None:
        data += Markup(' data-value="{!r}"').format(cell.value)
    if cell.key:
        data += Markup(' data-key="{}"').format(cell.key)
    body: Markup = escape(cell.text)
    if cell.kind == "prob" and cell.value is not None:
        width = max(0.0, min(1.0, cell.value)) * 100
        body = Markup('<span class="bar" style="width:{:.1f}%"></span><span class="num">{}</span>').format(
            width, cell.text)
    if cell.why:
        body = Markup('<button type="button" class="why" data-line="{}">{}</button>').format(cell.why, body)
    return Markup('<span class="part k-{} {}" data-kind="{}"{}>{}</span>').format(
        cell.kind, TONE_CLASS[cell.tone], cell.kind, data, body)


def _atom(atom: str | v.Text | v.Cell) -> Markup:
    if isinstance(atom, v.Cell):
        return _part(atom)  # a typed value in a line of phrases: its bar, key and why like a cell's part
    if isinstance(atom, v.Text):
        return Markup('<span class="atom {}">{}</span>').format(TONE_CLASS[atom.tone], _whole(atom.text))
    return Markup('<span class="atom">{}</span>').format(_whole(atom))


def _whole(text: str) -> str:
    """A short phrase (``pink 0.4``) kept on one line; a sentence may wrap at its spaces."""
    return text.replace(" ", "\u00a0") if len(text) <= 24 else text


def _cell(cell: v.Cell, column: v.Column) -> Markup:
    classes = " ".join(c for c in (f"a-{column.align}", f"k-{cell.kind}", TONE_CLASS[cell.tone or column.tone],
                                    "prose" if column.prose else "") if c)
    if cell.parts:  # several typed values in one cell: each its own bar and key
        inner = Markup("").join(_part(p) for p in cell.parts)
        label = Markup(' data-label="{}"').format(column.header) if column.header else Markup("")
        return Markup('<td class="{} parts"{}>{}</td>').format(classes, label, inner)
    body: Markup = escape(cell.text)
    if cell.kind == "prob" and cell.value is not None:
        width = max(0.0, min(1.0, cell.value)) * 100
        body = Markup('<span class="bar" style="width:{:.1f}%"></span><span class="num">{}</span>').format(
            width, cell.text)
    elif cell.kind == "certain" and "✔" not in cell.text:
        body = Markup('<span class="mark">✔</span> {}').format(cell.text)
    elif cell.kind == "ruled_out":
        body = Markup('<span class="mark">✘</span> <s>{}</s>').format(cell.text)
    if cell.why:
        body = Markup('<button type="button" class="why" data-line="{}">{}</button>').format(cell.why, body)
    data = Markup("")
    if cell.value is not None:
        data += Markup(' data-value="{!r}"').format(cell.value)
    if cell.key:
        data += Markup(' data-key="{}"').format(cell.key)
    if column.header:  # a narrow screen stacks the row and names each cell by its column (app.css)
        data += Markup(' data-label="{}"').format(column.header)
    return Markup('<td class="{}" data-kind="{}"{}>{}</td>').format(classes, cell.kind, data, body)
