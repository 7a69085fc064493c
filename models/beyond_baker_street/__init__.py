"""Beyond Baker Street: what each card in your unseen hand can be (rulebook:
``shared/rules/beyond-baker-street.txt``).

The whole game is in this folder: data, rules engine (with the 18 Characters), observations, knowledge over card
histories, views, companion session, advisor and hat convention, bots, explanations, teacher and simulation.
This module is its registry entry (plain data: importing it imports nothing of the game).
"""

from solver.options import Option
from solver.registry import GameEntry, Simulation

ENTRY = GameEntry(
    name="beyond-baker-street",
    title="Beyond Baker Street",
    players=(2, 4),
    about="cooperative: what each card in your unseen hand can be",
    help="Beyond Baker Street companion: type what happens at the table, see what each card in your hand can be.",
    session="models.beyond_baker_street.session:BeyondBakerStreetSession",
    observations="models.beyond_baker_street.observations",
    teacher="models.beyond_baker_street.teach:BeyondBakerStreetTeacher",
    simulation=Simulation(
        help="Simulate Beyond Baker Street games (cooperative: the table wins or loses together).",
        module="models.beyond_baker_street.simulate",
        options=(
            Option("players", int, 3, "Players at the table.", 2, 4),
            Option("case", int, 1, "Case File.", 1, 6),
            Option("bots", str, "advisor", "Bots seat by seat, comma-separated, or one name for every seat (random, "
                   "advisor, hat: the advisor with the hat convention, every seat)."),
            Option("characters", str, "", "Character cards: 'random' (drawn per game), or one name per seat, "
                   "comma-separated ('Toby,random,Lestrade'); empty: the base game."),
            Option("soundness", float, 0.1, "Share of the observations after which each bot's knowledge is checked "
                   "for soundness (a sample drawn from the game seed; every bot is also checked as each game ends); "
                   "the games played do not depend on it.", 0.0, 1.0),
            Option("check_every", bool, False, "Check each bot's knowledge after every observation (as the tests "
                   "do; the same as --soundness 1)."),
        ),
    ),
    json_help="Print the final state as JSON ('hand': one map per position from card to probability).",
    knowledge="exact over card histories, per hand position, empathy; the 18 Characters",
    bots="`advise`, `advise hat`; random, advisor, hat",
    docs="docs/beyond-baker-street.md",
    examples=("beyond-baker-street-3p.txt",),
    commands=("why", "advise", "empathy"),
)
