"""Mutation testing of one module with mutmut (3.x): which single-line bugs the tests covering it catch.

mutmut changes the module one small way at a time (an operator, a constant, a condition, a returned value,
a dropped argument) and runs the tests that cover the mutated function; a mutant the tests pass is a bug they
would miss. Whole-suite runs per mutant are far too slow on 2 cores, so each module is run with the test files
that cover it (:data:`MODULES`), in a scratch copy of the checkout (``build/mutation/MODULE/``, where mutmut
writes its ``mutants/`` folder), with the repository's ``[tool.mutmut]`` settings (``pyproject.toml``) plus
this module and these tests. Not part of CI. Run from the repository root::

    python bench/mutation.py solver/steps_check.py
    python bench/mutation.py solver/session.py --max-children 2 --show
    python bench/mutation.py solver/session.py --again   # after new tests: only the survivors again

It prints killed, survived and equivalent mutants (:data:`EQUIVALENT`, each with why: a change no behaviour can
show, e.g. a default that every caller passes) and the share of non-equivalent mutants killed; ``--show``
prints the diff of every survivor; ``--json`` the figures as JSON. ``docs/testing.md`` records the figures.
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "build" / "mutation"
COPIED = ("solver", "models", "assistant_cli", "tests", "examples", "pyproject.toml")

#: Each module mutation testing covers, with the test files (or test ids) that cover it.
MODULES: dict[str, tuple[str, ...]] = {
    # the web guards: hosts, origins, the token, phone ids, cut lengths, headers, the body limit (docs/security.md)
    "assistant_cli/web/guard.py": ("tests/assistant_cli/web/test_security.py",),
    # the session tests on the test-only game: every mutant of handle() would otherwise run the four games'
    "solver/session.py": (
        "tests/solver/test_session_journal.py",
        "tests/test_games.py::test_edit_drop_undo_round_trips[toy]",
        "tests/test_games.py::test_journal_and_resume_through_the_cli[toy]",
    ),
    # wording shared by every game: plurals, the off-turn line, percentages that never round a possibility away
    "solver/text.py": ("tests/assistant_cli/test_display.py",),
    "solver/steps_check.py": (
        "tests/solver/test_steps.py",
        "tests/solver/test_steps_check.py",
    ),
    "models/time_bomb/bluff.py": (
        "tests/models/time_bomb/test_bluff.py",
        "tests/models/time_bomb/test_knowledge.py::test_soft_layer_matches_an_independent_brute_force",
        "tests/models/time_bomb/test_knowledge.py::test_role_prior_without_claims",
        "tests/models/time_bomb/test_knowledge.py::test_a_claim_contradicted_by_cuts_is_flagged_and_raises_suspicion",
    ),
    # tiny tables against an independent enumeration of every world (test_knowledge.py's brute force is too slow
    # per mutant)
    "models/time_bomb/counting.py": ("tests/models/time_bomb/test_counting.py",),
    "models/evidence/rules.py": (
        "tests/models/evidence/test_rules_checks.py",
        "tests/models/evidence/test_rules.py",
        "tests/models/evidence/test_session_rules.py",
    ),
    # the state's checks are the simulation's (bots, conformance); the session's entries are checked by knowledge.py
    "models/thirteen_clues/rules.py": (
        "tests/models/thirteen_clues/test_rules.py",
        "tests/models/thirteen_clues/test_rules_checks.py",
    ),
    # the table's checks refuse the session's entries (knowledge.py) and the simulation's moves alike
    "models/time_bomb/rules.py": (
        "tests/models/time_bomb/test_rules.py",
        "tests/models/time_bomb/test_colours.py",
        "tests/models/time_bomb/test_rules_checks.py",
    ),
    "models/beyond_baker_street/rules.py": (
        "tests/models/beyond_baker_street/test_bbs_rules_checks.py",
        "tests/models/beyond_baker_street/test_bbs_rules.py",
        "tests/models/beyond_baker_street/test_bbs_session_rules.py",
        "tests/models/beyond_baker_street/test_bbs_characters.py",
    ),
    # an entry's refusals and what a trusted entry skips (HandKnowledge.add and its checks)
    "models/beyond_baker_street/knowledge.py": (
        "tests/models/beyond_baker_street/test_bbs_refusals.py",
        "tests/models/beyond_baker_street/test_bbs_trusted.py",
        "tests/models/beyond_baker_street/test_bbs_knowledge.py",
        "tests/models/beyond_baker_street/test_bbs_session_rules.py",
        "tests/models/beyond_baker_street/test_bbs_rules_checks.py",
    ),
    # a Moriarty's claims: the reading, the claim table and the pick (the claim functions only, FUNCTIONS)
    "models/time_bomb/advisor.py": (
        "tests/models/time_bomb/test_rollout.py",
        "tests/models/time_bomb/test_advisor.py::test_covers_and_claims",
        "tests/models/time_bomb/test_advisor_moriarty.py",
    ),
    # the bot protocol's trust of the engine's observations (a sampled simulation)
    "solver/bots.py": (
        "tests/models/beyond_baker_street/test_bbs_trusted.py",
        "tests/solver/test_simulate.py",
    ),
}

#: Where only some functions of a module are mutated (a rules engine's checks of entries): mutmut's glob
#: patterns of their mutants' names.
FUNCTIONS: dict[str, tuple[str, ...]] = {
    "models/evidence/rules.py": tuple(f"models.evidence.rules.xǁ{name}__mutmut_*" for name in (
        "Tableǁplay", "Tableǁreveal", "Tableǁshow_evidence", "Tableǁcheck_seat", "Tableǁ_check_value",
        "Tableǁ_take", "Tableǁ_check_swap", "Tableǁ_check_extra", "Tableǁtimeout", "Tableǁuse_tool",
        "EvidenceStateǁcheck")),
    "models/thirteen_clues/rules.py": tuple(f"models.thirteen_clues.rules.xǁThirteenCluesStateǁ{name}__mutmut_*"
                                            for name in ("legal_actions", "_acting_actions", "check", "_check_seat",
                                                         "_check_take", "_check_ask", "_check_consult",
                                                         "_check_accuse")),
    "models/time_bomb/rules.py": (
        *(f"models.time_bomb.rules.xǁTableǁ{name}__mutmut_*" for name in (
            "_seat", "_playing", "check_claim", "check_cut", "_pending_first", "check_cover", "check_uncover",
            "check_draw", "check_redeal", "targets", "coverable")),
        "models.time_bomb.rules.xǁTimeBombStateǁlegal_actions__mutmut_*"),
    "models/beyond_baker_street/rules.py": tuple(
        f"models.beyond_baker_street.rules.xǁBakerStreetStateǁ{name}__mutmut_*" for name in (
            "check", "_event_for", "legal_actions", "character_actions")) + (
        "models.beyond_baker_street.rules.xǁTableRulesǁ__post_init____mutmut_*",
        "models.beyond_baker_street.rules.x_parse_characters__mutmut_*"),
    "models/beyond_baker_street/knowledge.py": tuple(
        f"models.beyond_baker_street.knowledge.xǁHandKnowledgeǁ{name}__mutmut_*" for name in (
            "add", "_told", "_check_my_card", "_check_feasible")),
    "solver/bots.py": ("solver.bots.x_trust__mutmut_*",),
    "models/time_bomb/advisor.py": tuple(f"models.time_bomb.advisor.x_{name}__mutmut_*" for name in (
        "claim_options", "_table_claim", "_table_reason", "choose_claim")),
}

#: Mutants no behaviour can tell from the original, by module: mutant name -> why. Names are mutmut's
#: (``module.function__mutmut_N``); they stay valid while the module's source is unchanged.
NAME = "CP-SAT variable names are labels only: no solve, core or answer reads them"
EQUIVALENT: dict[str, dict[str, str]] = {
    "models/beyond_baker_street/knowledge.py": {
        "models.beyond_baker_street.knowledge.xǁHandKnowledgeǁadd__mutmut_55": "the board copied for every entry, "
        "not only those refused after it took them: the others are refused before it changes, so the copy put "
        "back holds the same values",
        "models.beyond_baker_street.knowledge.xǁHandKnowledgeǁadd__mutmut_56": "the copy shares the Lead states "
        "for every late-checked entry: none of them (an Assist to me, a swap, another's draw) changes a Lead, "
        "the Impossible or the confirmed cards",
        "models.beyond_baker_street.knowledge.xǁHandKnowledgeǁadd__mutmut_57": "the same as mutant 56 with the "
        "Lead states copied instead for draws and Assists: copying what does not change puts back the same values",
        "models.beyond_baker_street.knowledge.xǁHandKnowledgeǁadd__mutmut_62": "the hands copied for every "
        "entry: an entry not in the list is refused before it changes a hand",
        "models.beyond_baker_street.knowledge.xǁHandKnowledgeǁadd__mutmut_80": "no refused entry has closed a "
        "span: a play's and a swap's checks come before their cards move, and the only later check (my hand's "
        "feasibility) cannot fail after a swap whose cards each passed theirs",
        "models.beyond_baker_street.knowledge.xǁHandKnowledgeǁadd__mutmut_81": "the same as mutant 80 (the "
        "closed spans' open index, put back only after such a refusal)",
    },
    "solver/text.py": {
        "solver.text.x_plural__mutmut_21": "'XXaeiouXX' for 'aeiou' in a substring test of at most one lower-case "
        "letter (or ''): the same answer for every noun",
    },
    "solver/steps_check.py": {
        "solver.steps_check.xǁ_Modelǁ__init____mutmut_4": NAME,
        "solver.steps_check.xǁ_Modelǁgate__mutmut_3": NAME,
        "solver.steps_check.xǁ_Modelǁfact__mutmut_3": NAME,
        "solver.steps_check.xǁ_Modelǁinfeasible__mutmut_4": "2 solver workers instead of 1: the same "
        "feasibility answer; a core may differ, but minimal_premises deletion-minimises whatever core it gets",
    },
    "solver/session.py": {
        **{f"solver.session.{name}": "'UTF-8' for 'utf-8': the same codec" for name in (
            "xǁJournalǁis_journal__mutmut_6", "x_read_lines__mutmut_5", "xǁJournalǁsave__mutmut_25")},
        **{f"solver.session.xǁJournalǁsave__mutmut_{n}": "missing_ok of the temporary file's cleanup: the file "
           "exists whenever the cleanup runs (mkstemp made it; only a replace that succeeded moves it)"
           for n in (32, 34, 36, 38)},
        "solver.session.x_read_lines__mutmut_15": "split('#') without a limit: its first part is the same",
        "solver.session.x_read_lines__mutmut_18": "split('#', 2): its first part is the same",
        "solver.session.xǁBaseSessionǁ_conflict_numbers__mutmut_15": "the loop also reads index -1, the last line, "
        "which the loop read first: it matched then (and the loop stopped) or it does not match now",
        "solver.session.xǁBaseSessionǁ_blame__mutmut_13": "one more trial at index -1 replays every entry (the "
        "last one twice), so the line contradicts it as before and nothing more is found",
        "solver.session.xǁBaseSessionǁ_blame__mutmut_17": ">= for > against a monotonic clock: only a reading of "
        "exactly the deadline differs (a budget of 0 never searches)",
        **{f"solver.session.xǁBaseSessionǁ_blame__mutmut_{n}": "show=True/None for False in a trial whose reply "
           "is thrown away: show only decides whether the reply carries views" for n in (26, 28, 29)},
        **{f"solver.session.xǁBaseSessionǁ{name}": "show=True/None for False while replaying: the replies are "
           "thrown away (views are only drawn, more slowly)" for name in (
               "replay__mutmut_2", "replay__mutmut_4", "replay__mutmut_5", "_corrected__mutmut_14",
               "_corrected__mutmut_16", "_corrected__mutmut_17")},
        **{f"solver.session.xǁBaseSessionǁ_corrected__mutmut_{n}": "zip(strict=...) of the journal numbers and the "
           "lines: one number per line by construction" for n in (7, 10, 11)},
        **{f"solver.session.xǁBaseSessionǁhandle__mutmut_{n}": "split('#') with another limit: its first part is "
           "the same" for n in (6, 9)},
        "solver.session.xǁBaseSessionǁ_entry_number__mutmut_25": "lstrip('XX0XX') of a string of digits strips "
        "the same zeros",
        **{f"solver.session.xǁBaseSessionǁ_entry_number__mutmut_{n}": "a number of 9 or 10 significant digits is "
           "out of range either way (no journal has 100 million entries)" for n in (30, 31)},
        "solver.session.xǁBaseSessionǁ_guarded__mutmut_1": "resave by default: after a failed entry, the journal "
        "is also rewritten with the lines it already holds (the old journal, byte for byte)",
        "solver.session.xǁBaseSessionǁ_guarded__mutmut_6": "after a failed entry, the journal is also rewritten "
        "with the lines it already holds (the old journal, byte for byte)",
        "solver.session.xǁBaseSessionǁ_corrected__mutmut_31": "fix=None for fix=False: contradiction_text only "
        "tests it for truth",
        "solver.session.xǁBaseSessionǁ_replayed__mutmut_4": "a trial not marked as one words its errors for the "
        "prompt; every caller of _replayed drops or re-raises nothing from it but its own replay's first error, "
        "which was accepted before (rebuilt, _guarded) or is caught and dropped (_blame)",
    },
    "models/time_bomb/bluff.py": {
        "models.time_bomb.bluff.x_role_assignments__mutmut_34": "every weight counted -1 instead of +1: the "
        "normalised prior is the same (the sign cancels)",
        "models.time_bomb.bluff.x_role_assignments__mutmut_40": "every weight counted +2 instead of +1: the "
        "normalised prior is the same",
        **{f"models.time_bomb.bluff.x_role_assignments__mutmut_{n}": "zip(strict=...) of the other seats and their "
           "roles: both have one entry per other seat by construction" for n in (47, 50, 51)},
        **{f"models.time_bomb.bluff.x_role_assignments__mutmut_{n}": "integer weights instead of floats: divided by "
           "their sum they give the same floats" for n in (54, 56)},
        **{f"models.time_bomb.bluff.xǁBluffModelǁlikelihood__mutmut_{n}": "np.ones without dtype=float: float is "
           "its default" for n in (4, 6)},
    },
    "models/thirteen_clues/rules.py": {
        **{f"models.thirteen_clues.rules.xǁThirteenCluesStateǁ_check_accuse__mutmut_{n}": "zip(strict=...) of an "
           "accusation's cards and the three categories: Accuse.cards is always (person, location, weapon)"
           for n in (4, 7, 8)},
    },
    "models/time_bomb/advisor.py": {
        "models.time_bomb.advisor.x_claim_options__mutmut_67": "the Sherlock likelihood asked for role None: "
        "BluffModel.rate reads every role but Moriarty as Sherlock",
    },
    "models/time_bomb/rules.py": {
        **{f"models.time_bomb.rules.xǁTableǁ_pending_first__mutmut_{n}": "another default (None) for the phase's "
           "sentence: check_cut asks only in COVER, UNCOVER, DRAW or REDEAL (not over, not CUT, not EXTRA), each "
           "in the table, so the default is never read" for n in (2, 4)},
        "models.time_bomb.rules.xǁTableǁtargets__mutmut_3": "[extra_target] even when it is None: the phase is "
        "EXTRA only while extra_target is set (draw sets both; a cut, a turn's end and the game's end clear both)",
    },
    "models/beyond_baker_street/rules.py": {
        **{f"models.beyond_baker_street.rules.xǁBakerStreetStateǁcharacter_actions__mutmut_{n}": "out = for out +=: "
           "a seat has one Character of one kind, so no earlier branch has added anything" for n in (16, 35, 47, 76)},
        "models.beyond_baker_street.rules.xǁBakerStreetStateǁlegal_actions__mutmut_111": "character_actions also "
        "asked without Characters: can_use is False for every kind without one, so it adds nothing",
        "models.beyond_baker_street.rules.xǁBakerStreetStateǁcheck__mutmut_61": "Peeked(bottom=None) for False "
        "in the check: the board reads bottom only to print the event, and None prints 'top' as False does",
        "models.beyond_baker_street.rules.xǁBakerStreetStateǁ_event_for__mutmut_57": "'or' in an assert on the "
        "types DoubleAssist declares: every DoubleAssist made (parse_action, legal_actions, the advisor) holds "
        "two Assists, so both sides are true",
        "models.beyond_baker_street.rules.x_parse_characters__mutmut_12": "'RANDOM' for 'random' in the seats "
        "'random' stands for: each is read with lower(), so it is still a random seat",
    },
    "models/time_bomb/counting.py": {
        **{f"models.time_bomb.counting.{name}": "dtype left to numpy: an array of Python ints is int64 and one "
           "of Python floats float64 on this platform, the dtype that was named" for name in (
               "x__round_shown__mutmut_23", "x__round_shown__mutmut_25", "xǁHardPosteriorǁprobabilities__mutmut_8",
               "xǁHardPosteriorǁprobabilities__mutmut_10", "xǁHardPosteriorǁremoved_distribution__mutmut_12",
               "xǁHardPosteriorǁremoved_distribution__mutmut_14")},
        **{f"models.time_bomb.counting.x_posterior__mutmut_{n}": "zip(strict=...) of a composition's pool row and "
           "unseen row, both one entry per card type by construction" for n in (133, 136, 137)},
        **{f"models.time_bomb.counting.x_posterior__mutmut_{n}": "a negative unseen count read as 0 or 1 (or 0 "
           "kept as 0): that composition's ok is False, so np.where gives it -inf whatever the round's log is"
           for n in (96, 97, 98)},
        "models.time_bomb.counting.x_posterior__mutmut_109": "1.0 for 0.0 added when the known-hand factor is 0: "
        "ok is then False for every composition, so np.where gives -inf whatever was added",
        "models.time_bomb.counting.x_posterior__mutmut_124": "'and' for 'or' in skipping a composition that is "
        "not ok: its factor is still 0 (a known-hand factor of 0, or a negative unseen count indexing a factorial "
        "of 60 and more, which no pool's factorial divides), so its weight is 0 either way",
        "models.time_bomb.counting.x_posterior__mutmut_34": "log_prior.copy() also with no composition: log_prior "
        "is then np.zeros(0), the same empty array",
        "models.time_bomb.counting.x_posterior__mutmut_36": "np.zeros(1) for np.zeros(0) with no composition: the "
        "first round's np.where broadcasts it against the empty ok back to an empty array (there is always a "
        "round)",
        "models.time_bomb.counting.x_posterior__mutmut_53": "unseen = None before the rounds: every layout has a "
        "round, whose unseen replaces it",
        **{f"models.time_bomb.counting.x_posterior__mutmut_{n}": "range(size + 1) / range(1, size + 2) over a "
           "hand's revealed slots: slot 0 and slot size + 1 are never revealed (a seat's cuts are numbered 1, 2, "
           "... and the table refuses a cut of a seat with no card left)" for n in (174, 178)},
        **{f"models.time_bomb.counting.xǁHardPosteriorǁcount__mutmut_{n}": "an extra seat 0 or slot 0 / size + 1 "
           "in the expected counts: those keys are no value of any variable, and the weights read only the "
           "domains' values" for n in (53, 66, 70, 76, 80)},
        **{f"models.time_bomb.counting.xǁHardPosteriorǁcount__mutmut_{n}": "the no-unknown-slot branch of a "
           "share of an unrevealed slot of an unknown hand: that slot is itself an unknown slot, so the count is "
           "at least 1" for n in (103, 106)},
        **{f"models.time_bomb.counting.xǁHardPosteriorǁcount__mutmut_{n}": "the default of expect.get: with any "
           "world every (type, out) and (type, slot) key was added by a composition of positive weight, so it is "
           "never read" for n in (127, 129, 131)},
        "models.time_bomb.counting.xǁLayoutǁcarry__mutmut_15": "domain(round, None) in a carry: a carry's round "
        "is 2 or more, so the instance (read only in round 1) is never looked at",
    },
}


def scratch(module: str) -> Path:
    """A fresh copy of the checkout for ``module``, whose ``[tool.mutmut]`` also names the module and its tests."""
    work = WORK / module.replace("/", ".").removesuffix(".py")
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "mutants")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, work / name, ignore=ignore)
        else:
            shutil.copy2(source, work / name)
    config = (work / "pyproject.toml").read_text(encoding="utf-8")
    if "[tool.mutmut]\n" not in config:
        raise SystemExit("pyproject.toml has no [tool.mutmut] section")
    chosen = (f"[tool.mutmut]\nonly_mutate = {json.dumps([module])}\n"
              f"pytest_add_cli_args_test_selection = {json.dumps(list(MODULES[module]))}\n")
    (work / "pyproject.toml").write_text(config.replace("[tool.mutmut]\n", chosen), encoding="utf-8")
    return work


def mutmut(work: Path, *args: str, capture: bool = False) -> str:
    """Run ``mutmut ARGS`` in ``work`` (the scratch copy first on the import path, so its mutants are imported)."""
    env = {**os.environ, "PYTHONPATH": str(work), "CI": "true", "PYTHONHASHSEED": "0"}
    result = subprocess.run([sys.executable, "-m", "mutmut", *args], cwd=work, env=env, check=False, text=True,
                            stdout=subprocess.PIPE if capture else None)
    if result.returncode not in (0, 1):
        raise SystemExit(f"mutmut {' '.join(args)} failed (exit code {result.returncode})")
    return result.stdout or ""


def statuses(work: Path) -> dict[str, str]:
    """Every mutant of the run and its status (killed, survived, timeout, no tests, ...)."""
    found: dict[str, str] = {}
    for line in mutmut(work, "results", "--all", "true", capture=True).splitlines():
        match = re.fullmatch(r"\s*(\S+__mutmut_\d+): (.+)", line)
        if match:
            found[match.group(1)] = match.group(2).strip()
    return found


def figures(module: str, found: dict[str, str]) -> dict[str, object]:
    """Killed, survived and equivalent counts and the score (killed / non-equivalent mutants)."""
    equivalent = {name for name in EQUIVALENT.get(module, {}) if name in found}
    counts = Counter(status for name, status in found.items() if name not in equivalent)
    killed = counts["killed"] + counts["timeout"]  # a mutant that makes a test hang is caught too
    survived = sorted(name for name, status in found.items() if name not in equivalent and status not in
                      ("killed", "timeout"))
    considered = len(found) - len(equivalent)
    return {"module": module, "mutants": len(found), "killed": killed, "survived": len(survived),
            "equivalent": len(equivalent), "score": round(killed / considered, 3) if considered else None,
            "statuses": dict(counts), "survivors": survived}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", choices=sorted(MODULES), help="the module to mutate")
    parser.add_argument("--max-children", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--show", action="store_true", help="print the diff of every surviving mutant")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--again", action="store_true", help="run only the mutants the last run left alive (after "
                        "new tests), keeping the others' results")
    parser.add_argument("--also", nargs="*", default=[], help="with --again: mutant name patterns to run too (the "
                        "mutants of a function whose source changed since)")
    args = parser.parse_args(argv)
    if importlib.util.find_spec("mutmut") is None:  # else `python -m mutmut` fails and the run finds 0 mutants
        raise SystemExit("mutmut is not installed in this environment: pip install 'mutmut>=3,<4'")
    saved = WORK / (args.module.replace("/", ".").removesuffix(".py") + ".json")
    previous: dict[str, str] = json.loads(saved.read_text()) if args.again and saved.is_file() else {}
    patterns = FUNCTIONS.get(args.module, ())
    if args.again:
        equivalent = EQUIVALENT.get(args.module, {})
        patterns = tuple(name for name, status in previous.items()
                         if status not in ("killed", "timeout") and name not in equivalent) + tuple(args.also)
        changed = tuple(args.also)
        previous = {name: status for name, status in previous.items()
                    if not any(fnmatch.fnmatch(name, p) for p in changed)}
        if not patterns:
            print(f"{args.module}: no mutant left alive by the last run")
    work = scratch(args.module)
    if patterns or not args.again:
        run = mutmut(work, "run", "--max-children", str(args.max_children), *patterns, capture=True)
        speed = re.findall(r"[0-9.]+ mutations/second", run)  # the progress bar is left out
        print(f"mutmut run in {work.relative_to(ROOT)}: {speed[-1] if speed else 'done'}")
    found = statuses(work)
    if patterns:
        found = {name: status for name, status in found.items() if any(fnmatch.fnmatch(name, p) for p in patterns)}
    found = {**previous, **found}
    saved.write_text(json.dumps(found, indent=1, sort_keys=True), encoding="utf-8")
    result = figures(args.module, found)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{args.module}: {result['mutants']} mutants, {result['killed']} killed, {result['survived']} "
              f"survived, {result['equivalent']} equivalent; score {result['score']} (statuses {result['statuses']})")
        for name in result["survivors"]:  # type: ignore[attr-defined]
            print(f"  survived: {name}")
    if args.show:
        for name in result["survivors"]:  # type: ignore[attr-defined]
            print(mutmut(work, "show", name, capture=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
