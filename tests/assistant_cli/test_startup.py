"""``assist`` starts without importing any game module, OR-Tools or pandas (what ``bench/startup.py`` times): only
the registry, whose entries are plain data (``models/<game>/__init__.py``).

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

from assistant_cli.main import app
from models import GAMES

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("ortools", "pandas", "numpy", "solver.knowledge", "solver.session")


def heavy(module: str) -> bool:
    """A module start-up must not load: a heavy library, or any game module (``models.<game>.<module>``; the
    packages ``models`` and ``models.<game>`` hold only the registry's data)."""
    if module.startswith("models.") and module.count(".") >= 2:
        return True
    return any(module == h or module.startswith(h + ".") for h in HEAVY)


def loaded_after(code: str) -> list[str]:
    """The heavy modules a fresh interpreter has loaded after running ``code`` (then dumping sys.modules)."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True,
                            timeout=60)
    modules = json.loads(result.stdout.splitlines()[-1])
    return [m for m in modules if heavy(m)]


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


def test_every_registered_game_has_its_commands_in_the_help() -> None:
    """``assist --help`` and ``assist simulate --help`` list every registered game, from the registry alone."""
    for args in (["--help"], ["simulate", "--help"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        assert [name for name in GAMES.names() if name in result.output] == GAMES.names()


def test_a_lazy_command_runs() -> None:
    result = CliRunner().invoke(app, ["simulate", "evidence", "--games", "1", "--players", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 1
