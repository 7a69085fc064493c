"""The HTML renderer: draws a session's view data (:mod:`solver.view`) as page fragments.

Like the terminal renderer it holds no game logic. Probabilities become bars (a player would rather look than
read), certain and ruled-out cells get marks, and a cell that carries a ``why`` command becomes a button that
runs it. Everything is escaped; the ``data-*`` attributes carry the exact values for tests and scripts.

Game objects are drawn as cards and boards: every card is an element with ``data-card`` (its name), painted in
its colour and showing its letter (colour-blind players read the letter); a probability on a card or in a grid
keeps ``data-key`` and ``data-value`` like a table cell's; a track is an SVG with ``data-value``.
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
    if isinstance(item, v.Drawn):
        return _drawn(item)
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
    """One value of a cell with several (e.g. each value still possible, with its probability). Built with
    f-strings over escaped values: a drawn table has hundreds of them, and ``Markup.format`` is slow."""
    text = escape(cell.text)
    body = str(text)
    if cell.kind == "prob" and cell.value is not None:
        width = max(0.0, min(1.0, cell.value)) * 100
        body = f'<span class="bar" style="width:{width:.1f}%"></span><span class="num">{text}</span>'
    if cell.why:
        body = f'<button type="button" class="why" data-line="{escape(cell.why)}">{body}</button>'
    if cell.do:  # a move named in a line of phrases (an advised cover or claim): its "do this" too
        body += str(do_button(cell.do))
    kind = escape(cell.kind)
    return Markup(f'<span class="part k-{kind} {TONE_CLASS[cell.tone]}" data-kind="{kind}"'
                  f'{_data(cell.key, cell.value)}>{body}</span>')


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
    if cell.do:
        body += do_button(cell.do)
    data = Markup("")
    if cell.value is not None:
        data += Markup(' data-value="{!r}"').format(cell.value)
    if cell.key:
        data += Markup(' data-key="{}"').format(cell.key)
    if column.header:  # a narrow screen stacks the row and names each cell by its column (app.css)
        data += Markup(' data-label="{}"').format(column.header)
    return Markup('<td class="{}" data-kind="{}"{}>{}</td>').format(classes, cell.kind, data, body)


def do_button(line: str) -> Markup:
    """The "do this" button of a move: a tap fills the entry box with ``line`` (static/choices.js)."""
    return Markup('<button type="button" class="do" data-do="{}" title="{}">do this</button>').format(line, line)


# -- game objects ---------------------------------------------------------------------------------------------
def _data(key: str | None, value: float | int | None) -> Markup:
    out = f' data-value="{value!r}"' if value is not None else ""
    if key:
        out += f' data-key="{escape(key)}"'
    return Markup(out)


def _swatch(colour: str) -> Markup:
    """The inline style painting an element in ``colour`` (a palette word or '#rrggbb'), with readable ink."""
    paint = v.paint(colour)
    return Markup(' style="--c:{};--ink:{}"').format(paint, v.ink(paint)) if paint else Markup("")


def card_html(card: v.Card) -> Markup:
    """One card: its letter and label on its colour, its probability (a keyed part) under them."""
    letter = f'<span class="letter" aria-hidden="true">{escape(card.letter)}</span>' if card.letter else ""
    prob = _part(card.p) if card.p is not None else ""
    note = f'<span class="note">{escape(card.note)}</span>' if card.note else ""
    title = card.name + (f", {card.p.text}" if card.p is not None else "") + (
        ", ruled out" if card.status == "ruled_out" else "")
    status = escape(card.status)
    return Markup(f'<span class="card s-{status}" data-card="{escape(card.name)}" data-status="{status}" '
                  f'title="{escape(title)}"{_swatch(card.colour)}><span class="face">{letter}<span class="label">'
                  f'{escape(card.label or card.name)}</span></span>{prob}{note}</span>')


def _track(track: v.Track) -> Markup:
    """A track as a row of spaces in SVG: the spaces passed filled, the losing space red, the goal outlined."""
    spaces = track.high - track.low + 1
    size, gap = 12, 2
    width = spaces * (size + gap)
    rects = []
    for i in range(spaces):
        space = track.low + i
        cls = "on" if track.low < space <= track.value else "off"
        if space == track.lose:
            cls += " lose"
        if space == track.goal:
            cls += " goal"
        if space == track.value:
            cls += " here"
        rects.append(Markup('<rect class="{}" x="{}" y="2" width="{}" height="{}" rx="2"><title>{}</title></rect>')
                     .format(cls, i * (size + gap), size, size, space))
    svg = Markup('<svg class="track-svg" viewBox="0 0 {} 16" preserveAspectRatio="xMinYMid meet" role="img" '
                 'aria-label="{}">{}</svg>').format(width, v.track_text(track), Markup("").join(rects))
    return Markup('<div class="track" data-track="{}" data-low="{}" data-high="{}"{}>'
                  '<span class="track-label">{} <b>{}</b></span>{}<span class="track-ends">{}</span></div>').format(
        track.label, track.low, track.high, _data(track.key, track.value), track.label, track.value, svg,
        v.track_text(track).split(" (", 1)[1].rstrip(")"))


def _drawn(item: v.Drawn) -> Markup:
    if isinstance(item, v.Card):
        return card_html(item)
    if isinstance(item, v.Hand):
        seat = Markup(' data-seat="{}"').format(item.seat) if item.seat is not None else ""
        positions = []
        for pos in item.positions:
            told = Markup('<span class="told">told: {}</span>').format(pos.told) if pos.told else ""
            more = Markup('<span class="more">+{} more</span>').format(pos.more) if pos.more else ""
            cards = Markup("").join(card_html(c) for c in pos.cards)
            positions.append(Markup('<li class="pos" data-pos="{}"><span class="pos-label">{}</span>{}'
                                    '<div class="cards">{}{}</div></li>').format(pos.label, pos.label, told, cards,
                                                                                 more))
        return Markup('<section class="hand"{}><h3>{}</h3><ol class="positions">{}</ol></section>').format(
            seat, item.title, Markup("").join(positions))
    if isinstance(item, v.Player):
        classes = " ".join(c for c in ("player", "active" if item.active else "", "me" if item.me else "") if c)
        seat = Markup(' data-seat="{}"').format(item.seat) if item.seat is not None else ""
        figures = Markup("").join(_part(f) for f in item.figures)
        facts = Markup("").join(Markup('<span class="fact">{}</span>').format(f) for f in item.facts)
        cards = Markup("").join(card_html(c) for c in item.cards)
        turn = Markup('<span class="turn" title="whose turn">▶</span>') if item.active else ""
        return Markup('<div class="{}"{}><span class="player-name">{}{}</span>{}{}<div class="cards">{}</div>'
                      '</div>').format(classes, seat, turn, item.name, figures, facts, cards)
    if isinstance(item, v.Track):
        return _track(item)
    if isinstance(item, v.Pile):
        limit = Markup(' data-limit="{}"').format(item.limit) if item.limit is not None else ""
        letter = Markup('<span class="letter">{}</span>').format(item.letter) if item.letter else ""
        cards = Markup("").join(card_html(c) for c in item.cards)
        hidden = Markup('<span class="card s-hidden" title="face down">{}</span>').format(
            f"{item.hidden} face down") if item.hidden else ""
        note = Markup('<p class="pile-note">{}</p>').format(item.note) if item.note else ""
        return Markup('<div class="pile" data-pile="{}" data-count="{}"{}><h4{}>{}{}</h4><div class="cards">{}{}'
                      '</div>{}</div>').format(item.title, len(item.cards) + item.hidden, limit, _swatch(item.colour),
                                              letter, v.pile_head(item), cards, hidden, note)
    if isinstance(item, v.Grid):
        head = Markup("").join(Markup('<th scope="col">{}</th>').format(c) for c in item.columns)
        rows = []
        for label, row in zip(item.rows, item.cells, strict=True):
            th = card_html(label) if isinstance(label, v.Card) else escape(label)
            tds = Markup("").join(_grid_cell(cell) for cell in row)
            rows.append(Markup('<tr><th scope="row">{}</th>{}</tr>').format(th, tds))
        caption = Markup('<p class="caption t-muted">{}</p>').format(item.caption) if item.caption else ""
        return Markup('<div class="grid-wrap"><table class="grid"><caption>{}</caption><thead><tr><th></th>{}</tr>'
                      '</thead><tbody>{}</tbody></table>{}</div>').format(item.title, head, Markup("").join(rows),
                                                                       caption)
    letter = Markup('<span class="letter">{}</span>').format(item.letter) if item.letter else ""
    bars = Markup("").join(_bar(cell) for cell in item.items)
    return Markup('<div class="bars"{}><h4>{}{}</h4>{}</div>').format(_swatch(item.colour), letter, item.title, bars)


def _bar(cell: v.Cell) -> Markup:
    width = max(0.0, min(1.0, cell.value or 0.0)) * 100
    body = Markup('<span class="bar-label">{}</span><span class="bar-track"><span class="bar-fill" '
                  'style="width:{:.1f}%"></span></span>').format(cell.text, width)
    if cell.why:
        body = Markup('<button type="button" class="why" data-line="{}">{}</button>').format(cell.why, body)
    return Markup('<div class="bar-row k-{}" data-kind="{}"{}>{}</div>').format(
        cell.kind, cell.kind, _data(cell.key, cell.value), body)


def _grid_cell(cell: v.Cell) -> Markup:
    """A grid cell: a mark for certain / ruled out, else the probability with its bar."""
    if cell.kind == "certain":
        body = '<span class="mark" aria-label="certain">✔</span>'
    elif cell.kind == "ruled_out":
        body = '<span class="mark" aria-label="ruled out">✘</span>'
    elif cell.kind == "prob" and cell.value is not None:
        height = max(0.0, min(1.0, cell.value)) * 100
        body = f'<span class="bar" style="height:{height:.1f}%"></span><span class="num">{escape(cell.text)}</span>'
    else:
        body = str(escape(cell.text))
    if cell.why:
        body = f'<button type="button" class="why" data-line="{escape(cell.why)}">{body}</button>'
    kind = escape(cell.kind)
    return Markup(f'<td class="k-{kind}" data-kind="{kind}"{_data(cell.key, cell.value)}>{body}</td>')
