"""The Evidence session answers with view data: no rich objects, and every probability shown is a typed cell
whose key names the same number in ``summary()`` (the ``analyze --json`` output) and whose ``why`` line runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from models.evidence.session import EvidenceSession
from solver import view as v
from solver.session import read_lines

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "evidence-4p.txt"
LINES = [line for _, line in read_lines(EXAMPLE)]
VIEW_TYPES = v.VIEW_TYPES


def replayed(count: int = len(LINES)) -> EvidenceSession:
    session = EvidenceSession()
    session.replay(LINES[:count])
    return session


cells = v.cells  # every typed cell of a view (solver.view)


def at(data: Any, key: str) -> Any:
    """The value at a dotted path (list indices as numbers)."""
    for part in key.split("."):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


def check_keys(session: EvidenceSession) -> list[v.Cell]:
    """The keyed cells of the state view, each checked against the summary as ``analyze --json`` prints it."""
    summary = json.loads(json.dumps(session.summary()))
    keyed = [c for c in cells(session.state_view(None)) if c.key]
    for cell in keyed:
        assert cell.value == at(summary, cell.key), cell
    shown = {c.key for c in keyed if c.key.startswith("evidence.")}
    assert shown == {f"evidence.{c}.{value}" for c, d in summary["evidence"].items() for value in d}
    return keyed


def test_state_view_probabilities_are_keyed_to_the_summary() -> None:
    session = replayed()
    keyed = check_keys(session)
    evidence = [c for c in keyed if c.key.startswith("evidence.")]
    assert len(evidence) == sum(len(d) for d in session.summary()["evidence"].values())  # one cell per value
    assert {c.kind for c in evidence} <= {"prob", "certain"}
    blue = [c for c in evidence if c.key.startswith("evidence.blue.")]
    assert [(c.text, c.kind, c.value, c.why) for c in blue] == [("-1 (certain)", "certain", 1.0, "why blue -1")]
    pink = sorted((c.key, c.value) for c in evidence if c.key.startswith("evidence.pink."))
    assert pink == [("evidence.pink.1", 0.5), ("evidence.pink.4", 0.5)]
    scores = [c for c in keyed if c.key.startswith("expected_scores.")]
    assert [c.key for c in scores] == [f"expected_scores.{s}.mean" for s in (1, 2, 3, 4)]


def test_keys_hold_at_every_step_of_the_example() -> None:
    session = EvidenceSession()
    for i, line in enumerate(LINES):
        session.handle(line, show=False)
        if session.knowledge is not None and i % 5 == 0:
            check_keys(session)


def test_a_compound_cell_shows_every_part_and_each_why_runs() -> None:
    session = replayed(12)
    table = next(item for item in v.walk(session.state_view(None)) if isinstance(item, v.Table))
    assert table.title == "Mysteries: possible evidence values (exact)"
    for row in table.rows:
        values = row[1]
        assert values.parts and all(part.text in values.text for part in values.parts)
        assert values.text.count("\n") == (len(values.parts) - 1) // 2  # two values to a line, as before
        for part in values.parts:
            assert part.why is not None
            _, colour, value = part.why.split()
            answer = v.plain_text(session.handle(part.why).renderables[0])
            assert answer.startswith(f"the {colour} evidence is {value} with probability {part.value:.3f}"), answer


def test_handle_answers_with_view_data_only() -> None:
    session = replayed(15)  # my turn: advise has something to rank
    replies = [session.handle(line) for line in ("show", "show brief", "help", "why blue", "why blue 1",
                                                 "history", "advise samples 4", "advise all extra samples 4")]
    replies.append(replayed(14).handle(LINES[14]))  # an entry: the state view under its one-line summary
    views = [item for reply in replies for view in reply.renderables for item in v.walk(view)]
    assert views and all(isinstance(item, VIEW_TYPES) for item in views), {type(i) for i in views}
    assert not [item for item in views if type(item).__module__.split(".")[0] == "rich"]
    assert any(isinstance(item, v.Table) and "best first" in (item.title or "") for item in views)
    wins = [c for item in views if isinstance(item, v.Table) and "best first" in (item.title or "")
            for c in cells(item) if c.kind == "prob"]
    assert wins and all(c.key is None and 0 <= (c.value or 0) <= 1 for c in wins)  # estimates: not in summary
