"""The games: one folder each, registered here once (one line per game).

Every interface (the ``assist`` command, the web page, the tests) reads :data:`GAMES`; a game's parts are
imported only when they are used. Adding a game: ``docs/architecture.md``, "Adding a game".
"""

from solver.registry import Registry

GAMES = Registry.of(
    "models.thirteen_clues",
    "models.beyond_baker_street",
    "models.evidence",
    "models.time_bomb",
)
