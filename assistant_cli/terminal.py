"""The terminal renderer: draws a session's view data (:mod:`solver.view`) with rich.

It holds no game logic: every game's views are built by its session as plain values, and this module only
maps them to rich tables and styled text, so the terminal and the web page show the same content. Game objects
(cards, hands, players, tracks, piles, grids, bars) are drawn as text: a card is a short token painted in its
colour that also carries its letter (``[R Butcher]``), so a colour-blind player reads the same thing.
"""

from __future__ import annotations

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from assistant_cli.render import CommandTable, Either, Fit, Flow, cell_atoms, prose
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
        return prose(item.text, STYLE[item.tone])
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
    if isinstance(item, v.Drawn):
        return _drawn(item)
    raise TypeError(f"not view data: {type(item).__name__}")


def _table(table: v.Table) -> Fit | Table | CommandTable:
    if any(part.kind == "command" for row in table.rows for cell in row for part in cell.parts):
        rows = [[cell_atoms(c.text, [p.text for p in c.parts if p.kind == "command"]) for c in row]
                for row in table.rows]
        return CommandTable(table.title or "", [c.header for c in table.columns], rows)
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


# -- game objects ---------------------------------------------------------------------------------------------
BAR_WIDTH = 10  # characters of a full probability bar
MARK = {"certain": "✔", "ruled_out": "✘"}


def card_token(card: v.Card) -> Text:
    """A card as one short token: ``[L label]`` in its colour (struck through and dim when ruled out), then its
    probability."""
    colour = v.paint(card.colour)
    face = " ".join(part for part in (card.letter, card.label or card.name) if part)
    style = f"{v.ink(colour)} on {colour}" if colour else "reverse"
    if card.status == "ruled_out":
        style = "dim strike"
    token = Text.assemble(("[", "dim"), (face, style), ("]", "dim"))
    if card.p is not None:
        token.append(f" {card.p.text}", style=STYLE[card.p.tone] or ("bold green" if card.p.kind == "certain" else ""))
    if card.note:
        token.append(f" {card.note}", style="dim")
    return token


def bar(p: float) -> str:
    """A probability as a bar of eighth blocks, ``BAR_WIDTH`` characters at 1."""
    eighths = round(max(0.0, min(1.0, p)) * BAR_WIDTH * 8)
    full, part = divmod(eighths, 8)
    return "█" * full + (" ▏▎▍▌▋▊▉"[part] if part else "")


def _grid_cell(cell: v.Cell) -> Text:
    if cell.kind in MARK:
        return Text(MARK[cell.kind], style="bold green" if cell.kind == "certain" else "dim")
    return Text(cell.text, style=STYLE[cell.tone])


def _drawn(item: v.Drawn) -> RenderableType:
    if isinstance(item, v.Card):
        return card_token(item)
    if isinstance(item, v.Hand):
        lines: list[RenderableType] = [Text(item.title, style="bold")]
        for pos in item.positions:
            lead = Text.assemble((f"  {pos.label} ", "bold"), (f"(told: {pos.told}) " if pos.told else "", "dim"))
            atoms = [card_token(c) for c in pos.cards] + ([Text(f"+{pos.more} more", style="dim")] if pos.more else [])
            lines.append(Flow(atoms, sep=" ", lead=lead, indent="    "))
        return Group(*lines)
    if isinstance(item, v.Player):
        head = Text.assemble((("▶ " if item.active else "  ") + item.name, "bold" if item.active or item.me else ""))
        atoms = [Text(f.text, style=STYLE[f.tone]) for f in item.figures] + [Text(f) for f in item.facts]
        atoms += [card_token(c) for c in item.cards]
        return Flow(atoms, sep="; ", lead=head + Text(": "), indent="    ")
    if isinstance(item, v.Track):
        span = item.high - item.low
        filled = round(BAR_WIDTH * 2 * (item.value - item.low) / span)
        line = Text(f"{item.label} ", style="bold")
        line.append(str(item.low), style="bold red" if item.lose == item.low else "dim")
        line.append(" ▕")
        line.append("█" * filled, style="red" if item.lose is not None else "green")
        line.append("░" * (BAR_WIDTH * 2 - filled), style="dim")
        line.append("▏ ")
        line.append(str(item.high), style="bold red" if item.lose == item.high else "dim")
        line.append(f"  {item.value}", style="bold")
        notes = [f"lost at {item.lose}"] * (item.lose is not None) + [f"goal {item.goal}"] * (item.goal is not None)
        if notes:
            line.append(f" ({', '.join(notes)})", style="dim")
        return line
    if isinstance(item, v.Pile):
        colour = v.paint(item.colour)
        title = Text.assemble((f" {item.letter} ", f"{v.ink(colour)} on {colour}") if colour and item.letter else "",
                              ((" " if colour and item.letter else "") + v.pile_head(item), "bold"))
        atoms = [card_token(c) for c in item.cards] + ([Text(f"{item.hidden} face down", style="dim")]
                                                       if item.hidden else [])
        if item.note:
            atoms.append(Text(item.note, style="dim"))
        return Flow(atoms or [Text("empty", style="dim")], sep=" ", lead=title + Text(": "), indent="  ")
    if isinstance(item, v.Grid):
        table = Table(title=Text(item.title, style="bold"), box=box.SIMPLE_HEAD, pad_edge=False,
                      caption=Text(item.caption, style="table.caption") if item.caption else None)
        table.add_column("")
        for column in item.columns:
            table.add_column(column, justify="right")
        for head, row in zip(item.rows, item.cells, strict=True):
            label = card_token(head) if isinstance(head, v.Card) else Text(head)
            table.add_row(label, *(_grid_cell(c) for c in row))
        return Fit(table)
    colour = v.paint(item.colour)
    head = Text(item.title, style="bold")
    if colour and item.letter:
        head = Text(f" {item.letter} ", style=f"{v.ink(colour)} on {colour}") + Text(" ") + head
    rows: list[RenderableType] = [head]
    width = max((len(c.text) for c in item.items), default=0)
    for cell in item.items:
        rows.append(Text.assemble(f"  {cell.text:<{width}} ", (bar(cell.value or 0.0), colour or "cyan")))
    return Group(*rows)
