"""The Time Bomb teacher: exercises and narrated replays from seeded games between advisor bots
(:mod:`solver.teaching`), seen from seat 2; its claims are :class:`models.time_bomb.claims.TimeBombClaims`."""

from __future__ import annotations

import functools
from typing import Any

from models.time_bomb import ENTRY
from models.time_bomb.advisor import cut_options
from models.time_bomb.bots import make_bot
from models.time_bomb.claims import TimeBombClaims
from models.time_bomb.session import TimeBombSession
from models.time_bomb.simulate import new_state
from solver.errors import AssistantError
from solver.teaching import Choice, Decision, Teacher, Transcript, normalize, play_transcript


class TimeBombTeacher(Teacher):
    game = ENTRY.name
    title = ENTRY.title
    header = ENTRY.header
    default_players = 5
    players_range = ENTRY.players
    seat = 2
    claim_syntax = TimeBombClaims.syntax
    claim_example = TimeBombClaims.example
    focus_name = TimeBombClaims.focus_name

    def new_session(self) -> TimeBombSession:
        return TimeBombSession()

    def knowledge(self, session: Any) -> Any | None:
        return session.knowledge

    def claims(self, session: Any) -> TimeBombClaims:
        return TimeBombClaims(None if session is None else session.knowledge)

    def transcript(self, seed: int, players: int) -> Transcript:
        return play_transcript(self.game, functools.partial(new_state, players=players), make_bot,
                               ["advisor"] * players, seed, self.seat)

    def decision(self, session: Any) -> Decision | None:
        kn = session.knowledge
        t = kn.table
        if t.over or t.cutter != kn.me or not t.targets():
            return None
        try:
            options = cut_options(kn)
        except AssistantError:
            return None
        if len(options) < 2:
            return None
        choices = tuple(Choice(f"cut {o.seat}", o.score, o.reason) for o in options)
        return Decision(f"You hold the cutter ({kn.role}): whose wire does the advisor rank best to cut?",
                        "'cut SEAT'", choices, tolerance=0.02)

    def own_decision(self, session: Any, line: str) -> bool:
        kn = session.knowledge
        return kn is not None and line.split()[:1] == ["cut"] and kn.table.cutter == kn.me and not kn.table.over

    def action_text(self, line: str) -> str:
        words = line.split()
        return normalize(" ".join(words[:2]))
