"""The Evidence companion's views as view data (:mod:`solver.view`): what the terminal and the web page draw.

Plain values only (no rich): the session (:mod:`models.evidence.session`) builds them from the knowledge, and the
renderers draw them. Every probability shown is a typed cell keyed by its path in the session's ``summary()``
(``evidence.COLOUR.VALUE``), and a value's cell carries the ``why COLOUR VALUE`` line that explains it.
"""

from __future__ import annotations

from models.evidence.advisor import Option
from models.evidence.data import COLOURS
from models.evidence.knowledge import EvidenceKnowledge
from models.evidence.observations import Action, Done, PlayRumour, Take, ToolUsed, Uncover, UseTimeOut, UseTool
from models.evidence.rules import EXTRA, PLAY, SEARCH, UNCOVER
from solver import view as v
from solver.text import plural

HELP_ROWS: tuple[tuple[str, str, str], ...] = (
    ("Setup", "players N / me SEAT / start SEAT", "players 4   me 2   start 1"),
    ("", "variant basic|pro  (pro: professional tools)", "variant pro"),
    ("", "values COLOUR V1..V6  (if a mystery's values differ)", "values blue -1 0 1 2 3 3"),
    ("", "setup COLOUR VALUE ...  (rumours revealed at setup)", "setup white 3 blue 0 yellow 2 ..."),
    ("", "hand COLOUR VALUE x6  (your rumours)", "hand white 2 blue -1 pink 4 ..."),
    ("", "holds SEAT COLOUR N ...  (another player's hand by colour)", "holds 3 white 2 blue 1 brown 3"),
    ("", "unknown SEAT COLOUR N ...  (2 players: unknown rumours)", "unknown 1 yellow 2 green 4"),
    ("Play", "play SEAT COLOUR VALUE", "play 3 blue 2   play me pink 4"),
    ("", "reveal SEAT COLOUR VALUE  (2 players: unknown rumour)", "reveal 2 green 0"),
    ("", "evidence COLOUR VALUE  (an evidence uncovered)", "evidence blue 3"),
    ("", "search SEAT COLOUR ...  (search cards taken)", "search 3 blue blue"),
    ("", "timeout SEAT COLOUR for COLOUR ...", "timeout 3 blue for green yellow"),
    ("", "tool SEAT TOOL [COLOUR] [for ...]  (pro)", "tool 2 fortune blue   tool me telescope"),
    ("", "look COLOUR VALUE  (your Fortune-Teller)", "look blue 3"),
    ("Session", "show / show brief", "mysteries, probabilities, expected scores / one screen of them"),
    ("", "why COLOUR [VALUE] [steps]", "why blue   why blue 3   why blue 3 steps"),
    ("", "advise [all] [extra] [greedy] [samples N]", "ranked options for your turn (greedy: model the others; "
                                                   "N: 1 to 1000, default 96)"),
    ("", "undo / history", "remove the last entry / list the entries, numbered"),
    ("", "edit N ENTRY / drop N  (fix entry N of 'history')", "edit 9 play 3 blue 1   drop 9"),
    ("", "help / quit", "aliases: h ?, exit q"),
)


def help_view() -> v.View:
    """'help': the entry syntax with examples, and how colours and seats are named."""
    table = v.help_table("Evidence companion", HELP_ROWS)  # plain text: "[all]" stays visible
    note = v.Text("Colours: white (Yeti), blue (Sea Monster), yellow (Mummy), pink, green, brown; unique prefixes "
                  "work (bl, br). Seats are 1..N clockwise; 'me' is your seat. Everything after '#' is a comment.")
    return v.Group(table, note)


def _p(p: float) -> str:
    return f"{100 * p:.0f}%" if p < 1 else "certain"


def value_cell(colour: str, value: int, p: float) -> v.Cell:
    """One possible evidence value with its probability (``-1 (50%)``), keyed ``evidence.COLOUR.VALUE`` in
    the summary and explained by ``why COLOUR VALUE``."""
    text, key, why = f"{value} ({_p(p)})", f"evidence.{colour}.{value}", f"why {colour} {value}"
    if p >= 1:
        return v.Cell(text, "certain", float(p), why=why, key=key)
    return v.prob(p, text, why=why, key=key)


def values_cell(colour: str, dist: dict[int, float], per_line: int = 2) -> v.Cell:
    """A mystery's possible values, ``per_line`` to a line (a cell that stays narrow without splitting a value
    from its probability), each one a typed part."""
    parts = tuple(value_cell(colour, value, p) for value, p in sorted(dist.items()))
    lines = ("  ".join(c.text for c in parts[i:i + per_line]) for i in range(0, len(parts), per_line))
    return v.Cell("\n".join(lines), parts=parts)


def mysteries_table(kn: EvidenceKnowledge) -> v.Table:
    """Each mystery: its possible evidence values with exact probabilities, the mean, what is on the table."""
    t = kn.table
    dist = kn.distribution()
    table = v.Table(title="Mysteries: possible evidence values (exact)")
    for col in ("Mystery", "Evidence: value (probability)", "Mean", "Revealed", "Cards left"):
        table.add_column(col)
    for colour in COLOURS:
        d = dist[colour]
        mean = sum(value * p for value, p in d.items())
        shown = " ".join(str(value) for value in t.displays[colour]) or "-"
        stack = t.stacks[colour]
        left = f"{stack.size}" + (" (Hot Lead)" if stack.hot else "")
        name = f"{colour} ({t.data.names[colour]})"
        table.add_row(v.Cell(name, why=f"why {colour}"), values_cell(colour, d),
                      v.Cell(f"{mean:.2f}", "number", mean), shown, v.Cell(left, "number", stack.size))
    return table


def players_table(kn: EvidenceKnowledge) -> v.Group:
    """Every player's search cards, hand counts and expected final score for the cards they hold now."""
    t = kn.table
    estimates = kn.expected_scores()
    table = v.Table(title="Players: expected score of the search cards held now")
    for col in ("Player", "Search cards", "Rumours in hand", "Used", "Expected score", "Range"):
        table.add_column(col)
    for s in t.seats:
        arts = t.articles[s]
        cards = "\n".join(f"{c}{'*' if c in t.hot[s] else ''} x{n}" for c, n in arts.items() if n) or "-"
        if s == kn.me:  # my rumours are values I see; the others' are how many of each colour
            hand = "\n".join(f"{c} {value}" for c, value in kn.hand) or "-"
        else:
            hand = "\n".join(f"{c} x{n}" for c, n in t.hands[s].items() if n) or "-"
        if t.players == 2 and sum(t.unknown[s].values()):
            hand += "\n" + "\n".join(f"unknown {c} x{n}" for c, n in t.unknown[s].items() if n)
        used = "\n".join(u.tool if isinstance(u, ToolUsed) else f"{u.colour} time-out" for u in t.used[s]) or "-"
        e = estimates[s]
        who = f"{s} (you)" if s == kn.me else str(s)
        score = v.Cell(f"{e.mean:.2f} ± {e.sd:.2f}", "number", e.mean, key=f"expected_scores.{s}.mean")
        table.add_row(who, cards, hand, used, score, f"{e.low}..{e.high}")
    note = v.Text("Rumours in hand: yours with their values (blue 3); the others' as a count per colour (blue x2). "
                  "* marks a Hot Lead.", "muted")
    return v.Group(table, note)


def brief_view(kn: EvidenceKnowledge, next_step: str) -> v.Group:
    """One screen: each mystery's possible values, each player's expected score, and what comes next."""
    t = kn.table
    parts: list[v.View] = [v.Text("Evidence values (exact probability)", "strong")]
    for colour, d in kn.distribution().items():
        values = [f"{value} ({_p(p)})" for value, p in sorted(d.items())]
        mean = sum(value * p for value, p in d.items())
        left = f"{plural(t.stacks[colour].size, 'search card')} left"
        parts.append(v.Flow((*values, f"mean {mean:.2f}", left), sep=", ", lead=f"  {colour}: ", indent="    "))
    estimates = kn.expected_scores()
    parts.append(v.Flow(tuple(f"{s}{' (you)' if s == kn.me else ''} {estimates[s].mean:.1f} ± {estimates[s].sd:.1f}"
                              for s in t.seats), lead="Expected scores: player ", sep="; "))
    parts.append(v.Text("Next: " + next_step, "accent"))
    return v.Group(*parts)


def describe_change(before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]) -> str:
    """One line: the evidence values ruled out or now certain."""
    parts = []
    for colour in COLOURS:
        gone = [value for value in before[colour] if value not in after[colour]]
        if len(after[colour]) == 1 and len(before[colour]) > 1:
            parts.append(f"{colour} evidence is {next(iter(after[colour]))}")
        elif gone:
            parts.append(f"{colour} cannot be {', '.join(str(value) for value in gone)}")
    return "; ".join(parts) if parts else "no evidence value ruled out"


def do_line(action: Action, me: int) -> str | None:
    """The entry line of my ``action`` as I would enter it now (an advice row's "do this"): its start where the
    rest is what the move shows (the value of the rumour I uncover); a search card taken is whole but more may
    follow on the same line; ``None`` for stopping, which is no entry."""
    if isinstance(action, PlayRumour):
        return f"play {me} {action.colour} {action.value}"
    if isinstance(action, Uncover):
        return f"reveal {me} {action.colour} "
    if isinstance(action, Take):
        return f"search {me} {action.colour}"
    if isinstance(action, UseTimeOut):
        return f"timeout {me} {action.colour} for {' '.join(action.take)}"
    if isinstance(action, UseTool):
        return f"tool {me} {str(action).removeprefix('tool ')}"
    return None


def advice_table(ranked: list[Option], phase: str, limit: int | None, me: int | None = None) -> v.View:
    """The ranked options of one step of my turn (the first ``limit`` of them, or all)."""
    title = {UNCOVER: "Which unknown rumour to uncover", PLAY: "Which rumour to play",
             SEARCH: "Search: take a card now, or stop", EXTRA: "Time-out / tool, or none"}[phase]
    table = v.Table(title=f"{title} (best first)")
    for col in ("#", "Option", "Win", "My score", "Lead", "Futures", "What it tells the others"):
        table.add_column(col, align="right" if col in ("#", "Win", "My score", "Lead", "Futures") else "left",
                         prose=col == "What it tells the others")
    shown = ranked if limit is None else ranked[:limit]
    numbers = v.ranks([(float(o.samples), o.utility) for o in ranked])  # the advisor's order
    if any("=" in rank for rank in numbers[: len(shown)]):
        table.caption = v.TIED_NOTE
    for rank, o in zip(numbers, shown, strict=False):
        action = "stop" if isinstance(o.action, Done) else str(o.action)
        # Win is the share of the sampled futures won: an estimate, so it has no key in the summary
        move = v.Cell(action, do=do_line(o.action, me) if me is not None else None)
        table.add_row(rank, move, v.prob(o.win, f"{100 * o.win:.0f}%"), v.Cell(f"{o.score:.1f}", "number", o.score),
                      v.Cell(f"{o.lead:+.1f}", "number", o.lead), v.Cell(str(o.samples), "number", o.samples),
                      o.tells or "-")
    if len(shown) < len(ranked):
        return v.Group(table, v.Text(f"{len(ranked) - len(shown)} more: 'advise all'", "muted"))
    return table


# -- the game drawn (issue 19 §1) -----------------------------------------------------------------------------
#: Each mystery's letters on a drawn card, so a colour-blind player tells blue from brown without the colour.
COLOUR_LETTERS: dict[str, str] = {"white": "W", "blue": "Bl", "yellow": "Y", "pink": "P", "green": "G", "brown": "Br"}


def rumour_card(colour: str, value: int | None = None, note: str = "") -> v.Card:
    """A rumour (or, with no value, a search card) drawn in its mystery's colour."""
    label = str(value) if value is not None else colour
    name = f"{colour} {value}" if value is not None else colour
    return v.Card(name, label, colour, COLOUR_LETTERS.get(colour, colour[:1].upper()), "seen", None, note)


def mystery_drawn(kn: EvidenceKnowledge, colour: str) -> v.Group:
    """One mystery: its revealed rumours, its search stack, and its evidence value distribution as bars (each
    keyed ``evidence.COLOUR.VALUE``)."""
    t = kn.table
    stack = t.stacks[colour]
    shown = tuple(rumour_card(colour, value) for value in t.displays[colour])
    note = f"search stack: {plural(stack.size, 'card')}" + (" (Hot Lead)" if stack.hot else "")
    letter = COLOUR_LETTERS.get(colour, "")
    pile = v.Pile(f"{colour} ({t.data.names[colour]}): rumours", shown, note=note, colour=colour, letter=letter)
    bars = v.Bars("evidence value", tuple(value_cell(colour, value, p)
                                          for value, p in sorted(kn.distribution()[colour].items())), colour, letter)
    return v.Group(pile, bars)


def players_drawn(kn: EvidenceKnowledge, turn_seat: int | None) -> list[v.View]:
    """Every player: expected score (keyed ``expected_scores.SEAT.mean``), search cards as cards, rumours in hand
    by colour (mine with their values, as cards)."""
    t = kn.table
    estimates = kn.expected_scores()
    out: list[v.View] = []
    for s in t.seats:
        e = estimates[s]
        score = v.Cell(f"score {e.mean:.2f} ± {e.sd:.2f}", "number", e.mean, key=f"expected_scores.{s}.mean")
        cards = tuple(rumour_card(c, note=f"x{n}" + ("*" if c in t.hot[s] else "")) for c, n in t.articles[s].items()
                      if n)
        if s == kn.me:
            facts: tuple[str, ...] = (f"{plural(len(kn.hand), 'rumour')} in hand",)
        else:
            facts = ("rumours " + (", ".join(f"{c} x{n}" for c, n in t.hands[s].items() if n) or "none"),)
        if t.players == 2 and sum(t.unknown[s].values()):
            facts += ("unknown " + ", ".join(f"{c} x{n}" for c, n in t.unknown[s].items() if n),)
        name = f"player {s} (you)" if s == kn.me else f"player {s}"
        out.append(v.Player(name, s, (score,), facts, cards, s == turn_seat, s == kn.me))
    out.append(v.Hand(f"Your rumours (player {kn.me})", tuple(
        v.Position(str(i), (rumour_card(c, value),)) for i, (c, value) in enumerate(kn.hand, 1)), kn.me))
    return out


def drawn_view(kn: EvidenceKnowledge, turn_seat: int | None, next_step: str) -> v.View:
    """The table drawn: each mystery (revealed rumours, search stack, evidence bars), each player, whose turn."""
    parts: list[v.View] = [mystery_drawn(kn, colour) for colour in COLOURS]
    parts += players_drawn(kn, turn_seat)
    parts.append(v.Text("Next: " + next_step, "accent"))
    parts.append(v.Text("Search cards: xN is how many; * marks a Hot Lead.", "muted"))
    return v.Group(*parts)
