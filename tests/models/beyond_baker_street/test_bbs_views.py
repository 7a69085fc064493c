"""The Beyond Baker Street session answers with view data: no rich objects, and every card probability shown is
a typed cell whose key names the same number in ``summary()`` (the ``analyze --json`` output) and whose ``why``
line runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from models.beyond_baker_street.session import BeyondBakerStreetSession
from solver import view as v
from solver.session import read_lines

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "beyond-baker-street-3p.txt"
LINES = [line for _, line in read_lines(EXAMPLE)]
VIEW_TYPES = v.VIEW_TYPES


def replayed(count: int = len(LINES)) -> BeyondBakerStreetSession:
    session = BeyondBakerStreetSession()
    session.replay(LINES[:count])
    return session


cells = v.cells  # every typed cell of a view (solver.view)


def at(data: Any, key: str) -> Any:
    """The value at a dotted path (list indices as numbers; a card name may hold a space, never a dot)."""
    for part in key.split("."):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


def check_keys(session: BeyondBakerStreetSession, view: v.View) -> list[v.Cell]:
    """The keyed cells of ``view``, each checked against the summary as ``analyze --json`` prints it."""
    summary = json.loads(json.dumps(session.summary()))
    keyed = [c for c in cells(view) if c.key]
    for cell in keyed:
        assert cell.value == at(summary, cell.key), cell
        assert cell.kind == ("certain" if cell.value == 1 else "prob"), cell
    return keyed


def test_state_view_card_probabilities_are_keyed_to_the_summary() -> None:
    session = replayed(30)
    summary = session.summary()
    keyed = check_keys(session, session.state_view(None))
    hand = summary["hand"]
    assert isinstance(hand, list)
    # every position shows its cards (at most 8 of them; the rest as "+N more"), each keyed exactly once
    expected = {f"hand.{i}.{name}" for i, d in enumerate(hand) for name in list(d)[:8 if len(set(d.values())) == 1
                                                                                    else 6]}
    assert {c.key for c in keyed} == expected
    assert len(keyed) == len(expected)
    for cell in keyed:
        pos0, name = cell.key.split(".")[1:]
        card = next(c for c in session.knowledge.data.evidence if c.name == name)
        assert cell.why == f"why {int(pos0) + 1} {card.code}"
        assert card.code in cell.text


def test_a_certain_card_is_a_certain_cell_and_each_why_runs() -> None:
    session = replayed(20)  # 'assist 3 2 Document at 3' after '5 at 2 4': position 3 is the 5 Document
    keyed = check_keys(session, session.state_view(None))
    certain = [c for c in keyed if c.kind == "certain"]
    assert [(c.key, c.text, c.tone, c.why) for c in certain] == [
        ("hand.2.5 Document", "5 Document (certain)", "good", "why 3 5D")]
    answer = v.plain_text(session.handle("why 3 5D").renderables[0])
    assert answer.startswith("5 Document is certainly at your position 3"), answer
    probs = [c for c in keyed if c.kind == "prob"]
    assert probs and all(0 < (c.value or 0) < 1 for c in probs)
    for cell in probs[:3]:
        assert cell.why is not None
        answer = v.plain_text(session.handle(cell.why).renderables[0])
        assert f"(probability {100 * (cell.value or 0):.1f}%)" in answer, answer


def test_keys_hold_at_every_step_of_the_example() -> None:
    session = BeyondBakerStreetSession()
    for i, line in enumerate(LINES):
        session.handle(line, show=False)
        if session.knowledge is not None and i % 3 == 0:
            assert check_keys(session, session.state_view(None))
            assert check_keys(session, session.brief_view())


def test_empathy_cells_are_keyed_without_why() -> None:
    session = replayed(30)
    view = session.handle("empathy").renderables[0]
    keyed = check_keys(session, view)
    empathy = session.summary()["empathy"]
    assert isinstance(empathy, dict)
    assert {c.key.split(".")[1] for c in keyed} == set(empathy)
    assert all(c.key.startswith("empathy.") and c.why is None for c in keyed)


def test_handle_answers_with_view_data_only() -> None:
    session = replayed(30)
    replies = [session.handle(line) for line in ("show", "show brief", "help", "why 1", "why 1 1C", "empathy",
                                                 "history", "advise", "advise all")]
    replies.append(replayed(29).handle(LINES[29]))  # an entry: the state view under its one-line summary
    views = [item for reply in replies for view in reply.renderables for item in v.walk(view)]
    assert views and all(isinstance(item, VIEW_TYPES) for item in views), {type(i) for i in views}
    assert not [item for item in views if type(item).__module__.split(".")[0] == "rich"]
    atoms = [a for item in views if isinstance(item, v.Flow) for a in item.atoms]
    assert all(isinstance(a, str | v.Text | v.Cell) for a in atoms)


def test_the_terminal_draws_the_hand_block_as_before() -> None:
    """The wide hand block is bold throughout (its base tone) and a certain row's cards bold green."""
    import io

    from rich.console import Console

    from assistant_cli.terminal import to_rich

    hand = next(item for item in v.walk(replayed(20).state_view(None)) if isinstance(item, v.Either))
    out = io.StringIO()
    Console(file=out, width=200, force_terminal=True, color_system="truecolor").print(to_rich(hand))
    drawn = out.getvalue()
    assert "\x1b[1mYour hand (player 2)" in drawn
    assert "\x1b[1;32m5 Document (certain)\x1b[0m" in drawn
    assert "\nPosition 3, told: 5\n  5 Document (certain)\n" in v.plain_text(hand)  # the narrow form
