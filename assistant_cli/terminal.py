"""The terminal renderer: draws a session's view data (:mod:`solver.view`) with rich.

It holds no game logic: every game's views are built by its session as plain values, and this module only
maps them to rich tables and styled text, so the terminal and the web page show the same content.
"""

from __future__ import annotations

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from assistant_cli.render import Either, Fit, Flow
from solver import view as v

STYLE: dict[str, str] = {
    "": "",
    "strong": "bold",
    "muted": "dim",
    "whatif": "bold yellow",
    "good": "bold green",
    "warn": "yellow",
    "bad": "bold red",
    "accent": "cyan",
}


def to_rich(item: v.View) -> RenderableType:
    """The rich renderable drawing ``item``; anything that is not view data raises ``TypeError``, so a repr can
    never reach a player."""
    if isinstance(item, v.Text):
        return Text(item.text, style=STYLE[item.tone])
    if isinstance(item, v.Table):
        return _table(item)
    if isinstance(item, v.Group):
        return Group(*(to_rich(i) for i in item.items))
    if isinstance(item, v.Columns):
        return Columns([to_rich(i) for i in item.items], padding=(0, item.gap))
    if isinstance(item, v.Flow):
        atoms = [Text(a) if isinstance(a, str) else Text(a.text, style=STYLE[a.tone]) for a in item.atoms]
        return Flow(atoms, sep=item.sep, style=STYLE[item.tone], lead=item.lead, end=item.end, indent=item.indent)
    if isinstance(item, v.Either):
        pieces = [item.wide] if isinstance(item.wide, str) else [(t.text, STYLE[t.tone]) for t in item.wide]
        return Either(Text.assemble(*pieces, style=STYLE[item.tone]), to_rich(item.narrow))
    if isinstance(item, v.Rule):
        return Rule(item.title)
    raise TypeError(f"not view data: {type(item).__name__}")


def _table(table: v.Table) -> Fit | Table:
    options: dict[str, object] = {
        "title": Text(table.title, style=STYLE[table.title_tone] or "table.title") if table.title else None,
        "caption": Text(table.caption, style="table.caption") if table.caption else None,
    }
    if not table.boxed:
        options["box"] = box.SIMPLE_HEAD
    if table.compact:
        options.update(show_edge=False, pad_edge=False)
    out = Table(**options)  # type: ignore[arg-type]
    for column in table.columns:
        out.add_column(column.header, justify=column.align, style=STYLE[column.tone] or None)
    for row in table.rows:
        out.add_row(*(Text(cell.text, style=STYLE[cell.tone]) for cell in row))
    if not table.fit:
        return out
    return Fit(out, prose={i for i, column in enumerate(table.columns) if column.prose})
