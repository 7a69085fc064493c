"""A tiny test-only game, registered through the same :class:`solver.registry.Registry` as the real games, so
that every registry test (``tests/test_games.py``) runs on a fifth game too and proves that a game is one
folder plus one registration.

The game ("Toy Cards"): 2 or 3 players; the first ``players + 1`` cards of Ace, King, Queen, Jack are shuffled,
each player is dealt one face down and the last one is the mystery. On a turn a player either asks another
player "do you hold CARD?" (answered aloud: the one observation kind, ``ask ASKER SEAT CARD yes|no``) or guesses
the mystery, which ends the game: a right guess wins, a wrong one ends it with no winner. After 12 turns the
game is a draw. Like the real games' ``__init__.py``, this module is only the registry entry.
"""

from solver.options import Option
from solver.registry import GameEntry, Simulation

ENTRY = GameEntry(
    name="toy",
    title="Toy Cards",
    players=(2, 3),
    about="a test-only game: whose card is which",
    help="Toy Cards companion (a test-only game): type your card and the questions asked at the table; see where "
    "each card can be, with exact probabilities.",
    session="tests.toy_game.session:ToySession",
    observations="tests.toy_game.observations",
    teacher="tests.toy_game.teach:ToyTeacher",
    simulation=Simulation(
        help="Simulate Toy Cards games between random bots that keep knowledge.",
        module="tests.toy_game.simulate",
        options=(
            Option("players", int, 3, "Players at the table.", 2, 3),
            Option("bots", str, "random", "Bots seat by seat, comma-separated, or one for every seat (random)."),
        ),
    ),
    json_help="Print the final state as JSON ('places': card -> place -> probability, 'worlds', 'entries').",
    knowledge="exact",
    bots="random",
    docs="docs/architecture.md",
    examples=("toy-3p.txt",),
    examples_dir="tests/toy_game",
    commands=("why",),
)
