"""``assist`` starts without importing any game, OR-Tools or pandas (what ``bench/startup.py`` times).

These are not timing tests: they check which modules a fresh interpreter has loaded, which is what the
start-up time follows and, unlike a time, does not vary with the machine's load.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant_cli.main import SimulateGroup, app

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("ortools", "pandas", "numpy", "models", "solver.knowledge", "assistant_cli.session")


def loaded_after(code: str) -> list[str]:
    """The heavy modules a fresh interpreter has loaded after running ``code`` (then dumping sys.modules)."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True,
                            timeout=60)
    modules = json.loads(result.stdout.splitlines()[-1])
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


def test_importing_the_cli_imports_no_game_and_no_solver() -> None:
    assert loaded_after("import assistant_cli.main") == []


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["evidence", "--help"], ["simulate", "--help"]])
def test_help_and_version_import_no_game(args: list[str]) -> None:
    code = (
        "import sys\nfrom assistant_cli.main import app\n"
        f"try:\n    app({args!r}, prog_name='assist')\nexcept SystemExit:\n    pass"
    )
    assert loaded_after(code) == []


def test_importing_the_solver_does_not_import_ortools() -> None:
    """OR-Tools (and pandas with it) comes in when a model is first built, not with :mod:`solver.knowledge`."""
    assert loaded_after("import solver.knowledge") == ["solver.knowledge"]
    built = loaded_after(
        "from solver.constraints import Problem\nfrom solver.knowledge import Knowledge\n"
        "Knowledge(Problem({'x': ('a', 'b')}, ()), lambda o: ())"
    )
    assert "ortools" in built


def test_each_lazy_simulate_command_has_the_help_its_function_gives() -> None:
    """The help ``assist simulate --help`` lists without importing is the help of the command that runs."""
    for name, entry in SimulateGroup.lazy.items():
        command = entry.load(name)
        assert command.name == name and command.help == entry.help, name
    result = CliRunner().invoke(app, ["simulate", "--help"])
    assert result.exit_code == 0, result.output
    assert all(name in result.output for name in SimulateGroup.lazy)


def test_a_lazy_command_runs() -> None:
    result = CliRunner().invoke(app, ["simulate", "evidence", "--games", "1", "--players", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 1
