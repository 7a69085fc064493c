"""A game narrated entry by entry (``assist replay``), with what each entry made certain or impossible and why.

The lines come from a game file or journal of any registered game (the game is read from the journal header,
else from the verbs of its lines) or from a seeded simulated game. After each entry the narration lists the
claims it decided (:mod:`solver.claims`, through the game's :class:`solver.teaching.Teacher`), with the
step-by-step chain of the first few that concern the seat itself, and, at the seat's own decisions the advisor
can rank, whether the advisor would have chosen otherwise and what it expected to gain.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from solver.claims import Key
from solver.errors import AssistantError
from solver.registry import Registry
from solver.session import read_lines
from solver.teaching import Decision, Teacher, normalize

MANY = 6  # more decided claims than this in one entry are listed in the claim syntax, one line per kind
CLAIMS_EXPLAINED = 3  # claims of one entry explained (by one shared chain)

def detect_game(games: Registry, path: str | Path) -> str:
    """The game of a journal (its header) or a game file (the game whose parser reads its lines: the same test
    as ``analyze``'s, :meth:`solver.registry.Registry.file_game`); a one-line error if unclear."""
    read_lines(path)  # an unreadable file is reported as such
    game = games.file_game(Path(path))
    if game is None:
        raise AssistantError(f"file '{path}': cannot tell which game it is; give --game GAME "
                             f"({', '.join(games.names())})")
    return game


def narrate(t: Teacher, lines: Sequence[str], actions: dict[int, str] | None = None,
            advise: bool = True) -> Iterator[list[str]]:
    """The narration, one block of text lines per entry. ``actions`` (a simulated game's own choices, keyed by
    how many lines came before each) marks the seat's decisions; without it :meth:`Teacher.own_decision` reads
    them from the lines."""
    session = t.new_session()
    before: dict[Key, bool] | None = None
    for i, line in enumerate(lines):
        block: list[str] = []
        decision = None
        taken: str | None = None
        if advise and t.started(session):
            if actions is not None and i in actions:
                taken = actions[i]
            elif actions is None and t.own_decision(session, line):
                taken = t.action_text(line)
            if taken is not None:
                try:
                    decision = t.decision(session)
                except AssistantError:
                    decision = None
        try:
            session.handle(line, show=False)
        except AssistantError as exc:
            raise AssistantError(f"entry {i + 1} '{line}': {exc}") from None
        block.append(f"{i + 1}. {line}")
        if decision is not None and taken is not None:
            block += _advice(decision, taken)
        if not t.started(session):
            yield block
            continue
        after = t.decided(session)
        if before is None:
            block.append(f"   setup complete: {_tally(after)}")
        else:
            new = {k: v for k, v in after.items() if k not in before}
            block += _news(t, session, new)
        before = after
        yield block


def _tally(decided: dict[Key, bool]) -> str:
    certain = sum(1 for v in decided.values() if v)
    return f"{certain} facts certain and {len(decided) - certain} ruled out from what you see"


def _news(t: Teacher, session: object, new: dict[Key, bool]) -> list[str]:
    if not new:
        return ["   nothing new is certain or ruled out"]
    focus = sorted((k for k in new if t.focus(k)), key=lambda k: (not new[k], repr(k)))
    rest = [k for k in new if not t.focus(k)]
    out: list[str] = []
    if len(focus) <= MANY:
        for key in focus:
            out.append(f"   {'now certain' if new[key] else 'ruled out'}: {t.say(key, new[key])}")
    else:
        for value, label in ((True, "now certain"), (False, "ruled out")):
            keys = [k for k in focus if new[k] == value]
            if keys:
                typed = ", ".join(t.claim_text(k) for k in keys)
                out.append(f"   {label} ({len(keys)}, as you would type them): {typed}")
    if focus:
        explained = {k: new[k] for k in focus[:CLAIMS_EXPLAINED]}
        shown = min(len(focus), CLAIMS_EXPLAINED)
        head = "why" if shown == 1 else f"why, for {'these' if len(focus) == shown else 'the first'} {shown}"
        out.append(f"   {head}, step by step:")
        for step in t.explain_all(session, explained).lines:  # type: ignore[arg-type]
            out.append(f"      {step}")
    if rest:
        shown = "; ".join(t.say(k, new[k]) for k in sorted(rest, key=repr)[:3])
        more = f" and {len(rest) - 3} more" if len(rest) > 3 else ""
        out.append(f"   elsewhere: {shown}{more}")
    return out


def _advice(decision: Decision, taken: str) -> list[str]:
    best = decision.ranking[0]
    unit = f" {decision.unit}" if decision.unit else ""
    mine = next((c for c in decision.ranking if normalize(c.text) == normalize(taken)), None)
    if mine is not None and decision.accepts(mine):
        return [f"   your choice '{mine.text}' is the advisor's choice too ({mine.score:.2f}{unit})"]
    if mine is None:  # a choice of a kind this decision does not rank (a Thirteen Clues accusation)
        return []
    return [f"   the advisor would have chosen '{best.text}' ({best.score:.2f}{unit}: {best.reason}) "
            f"rather than '{mine.text}' ({mine.score:.2f}{unit}), expecting {best.score - mine.score:+.2f}{unit}"]


def replay_lines(games: Registry, game: str | None, file: str | Path | None, seed: int | None,
                 players: int | None) -> tuple[Teacher, list[str], dict[int, str] | None, str]:
    """What to narrate: the teacher, the lines, the seat's own actions (simulated games only) and a title."""
    if file is not None:
        name = game or detect_game(games, file)
        t = games[name].new_teacher()
        lines = [line.split("#", 1)[0].strip() for _, line in read_lines(file)]
        return t, lines, None, f"{t.title}: {file}"
    if game is None or seed is None:
        raise AssistantError("replay: give a FILE, or --game GAME --seed N for a simulated game")
    t = games[game].new_teacher()
    n = players or t.default_players
    low, high = t.players_range
    if not low <= n <= high:
        raise AssistantError(f"--players {n}: {t.title} is for {low} to {high} players")
    tr = t.transcript(seed, n)
    title = f"{t.title}: simulated game, seed {seed}, {n} players, seen from seat {tr.seat}"
    return t, list(tr.lines), tr.actions, title


def run_replay(t: Teacher, lines: Sequence[str], actions: dict[int, str] | None, title: str,
               write: Callable[[str], None], wait: Callable[[], None] | None = None) -> int:
    """Write the whole narration; ``wait`` runs between entries (a pause, or Enter). Returns the entries."""
    write(title)
    if actions is None and t.file_actions_note:
        write(t.file_actions_note)
    count = 0
    for block in narrate(t, lines, actions):
        for text in block:
            write(text)
        count += 1
        if wait is not None and count < len(lines):
            wait()
    return count
