"""Time Bomb Evolution: role and holding probabilities from cuts and claims, cut risks, advice (rulebook:
``shared/rules/time-bomb-evolution.txt``).

The whole game is in this folder: data, rules engine, observations, hard knowledge with its exact counter, the
bluff model for claims, views, companion session, advisor, bots, teacher and simulation. This module is its
registry entry (plain data: importing it imports nothing of the game).
"""

from solver.options import Option
from solver.registry import GameEntry, Simulation

COLOURS = Option("colours", str, None, "Bomb colours in play at setup, comma-separated (default: the rulebook's "
                 "example, the first N of pink, red, blue, green, yellow, orange); journalled as 'colours ...'.")

ENTRY = GameEntry(
    name="time-bomb",
    title="Time Bomb Evolution",
    players=(4, 6),
    about="role and holding probabilities from cuts and claims, cut risks, advice",
    help="Time Bomb Evolution companion: type the claims, cuts and effects at the table; get each player's "
    "probability of being Moriarty, their expected holdings, every claim judged, and the risk of every cut, from "
    "hard facts and with the claims.",
    session="models.time_bomb.session:TimeBombSession",
    session_options=(COLOURS,),
    observations="models.time_bomb.observations",
    teacher="models.time_bomb.teach:TimeBombTeacher",
    simulation=Simulation(
        help="Simulate Time Bomb Evolution games; each knowledge-keeping bot's hard knowledge is checked for "
        "soundness after every observation.",
        module="models.time_bomb.simulate",
        options=(
            Option("players", int, 5, "Players at the table.", 4, 6),
            Option("bots", str, "advisor/bluffing-moriarty", "Bots seat by seat, comma-separated, or one spec for "
                   "every seat. A spec is a bot (random, honest-sherlock, bluffing-moriarty, advisor, "
                   "advisor-moriarty) or SHERLOCK_BOT/MORIARTY_BOT, played by the role each seat is dealt."),
            Option("deep_check", bool, False, "Also check each bot's CP-SAT knowledge model at the end of every game "
                   "(slower)."),
        ),
    ),
    json_help="Print the final state as JSON ('roles': player -> P(Moriarty); 'cut_risk': player -> P(defusing), "
    "P(explosion) per cutter policy in 'cut_risk_policies' (avoid, seek); ...).",
    knowledge="exact hard facts + bluff model for claims",
    bots="`advise`; random, honest-sherlock, bluffing-moriarty, advisor, advisor-moriarty",
    docs="docs/time-bomb.md",
    examples=("time-bomb-5p.txt",),
    commands=("why", "advise", "holdings"),
)
