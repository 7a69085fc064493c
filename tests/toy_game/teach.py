"""The Toy Cards teacher (:class:`solver.teaching.Teacher`): exercises and replays from seeded random games."""

from __future__ import annotations

import functools
from typing import Any

from solver.teaching import Teacher, Transcript, play_transcript
from tests.toy_game import ENTRY
from tests.toy_game.bots import make_bot
from tests.toy_game.claims import ToyClaims
from tests.toy_game.observations import Players
from tests.toy_game.rules import new_game
from tests.toy_game.session import ToySession


class ToyTeacher(Teacher):
    game = ENTRY.name
    title = ENTRY.title
    header = ENTRY.header
    default_players = 3
    players_range = ENTRY.players
    seat = 1
    claim_syntax = ToyClaims.syntax
    claim_example = ToyClaims.example
    focus_name = ToyClaims.focus_name

    def new_session(self) -> ToySession:
        return ToySession()

    def knowledge(self, session: Any) -> Any | None:
        return session.knowledge

    def claims(self, session: Any) -> ToyClaims:
        if session is None or session.knowledge is None:
            return ToyClaims(None)
        return ToyClaims(session.knowledge, session.numbers())

    def transcript(self, seed: int, players: int) -> Transcript:
        return play_transcript(self.game, functools.partial(new_game, players=players), make_bot,
                               ["random"] * players, seed, self.seat, keep=lambda obs: obs is not None)


__all__ = ["Players", "ToyTeacher"]
