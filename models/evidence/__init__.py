"""Evidence: each mystery's evidence value with exact probabilities, expected scores and advice (rulebook:
``shared/rules/evidence.txt``).

The whole game is in this folder: data, rules engine, turn order, observations, knowledge per mystery, views,
companion session, advisor (with its compiled kernels), bots, explanations, teacher and simulation. This module
is its registry entry (plain data: importing it imports nothing of the game).
"""

from solver.options import Option
from solver.registry import GameEntry, Simulation

ENTRY = GameEntry(
    name="evidence",
    title="Evidence",
    players=(2, 5),
    about="each mystery's evidence value with exact probabilities, expected scores, advice",
    help="Evidence companion: type what happens at the table, get each mystery's possible evidence values with "
    "exact probabilities, everyone's expected score, 'why' and 'advise'.",
    session="models.evidence.session:EvidenceSession",
    observations="models.evidence.observations",
    teacher="models.evidence.teach:EvidenceTeacher",
    simulation=Simulation(
        help="Simulate Evidence games between bots; every bot's knowledge is checked for soundness after every "
        "event.",
        module="models.evidence.simulate",
        options=(
            Option("players", int, 4, "Players at the table.", 2, 5),
            Option("bots", str, "greedy", "Bots seat by seat (seat 1 first), comma-separated, or one name for every "
                   "seat (random, greedy, advisor)."),
            Option("variant", str, "basic", "basic (time-outs) or pro (professional tools).", choices=("basic", "pro")),
            Option("deep_check", bool, False, "Also check each bot's CP-SAT knowledge model at the end of every game "
                   "(slower)."),
        ),
    ),
    json_help="Print the final state as JSON ('evidence': one map per mystery from value to probability; "
    "'expected_scores').",
    knowledge="exact, per mystery",
    bots="`advise`; random, greedy, advisor",
    docs="docs/evidence.md",
    examples=("evidence-4p.txt",),
)
