"""The Evidence teacher: exercises and narrated replays from seeded games between greedy bots
(:mod:`solver.teaching`); its claims are :class:`models.evidence.claims.EvidenceClaims`."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from models.evidence import ENTRY
from models.evidence.advisor import candidates, evaluate
from models.evidence.bots import make_bot
from models.evidence.claims import EvidenceClaims
from models.evidence.rules import PLAY, SEARCH, new_game
from models.evidence.session import EvidenceSession, legal_for
from solver.errors import AssistantError
from solver.teaching import Choice, Decision, Teacher, Transcript, normalize, play_transcript


class EvidenceTeacher(Teacher):
    game = ENTRY.name
    title = ENTRY.title
    header = ENTRY.header
    default_players = 4
    players_range = ENTRY.players
    claim_syntax = EvidenceClaims.syntax
    claim_example = EvidenceClaims.example
    focus_name = EvidenceClaims.focus_name

    def new_session(self) -> EvidenceSession:
        """A session that leaves the advisor's compiled loops alone (:meth:`decision` does not need them)."""
        return EvidenceSession(warm_up=False)

    def knowledge(self, session: Any) -> Any | None:
        return session.knowledge

    def claims(self, session: Any) -> EvidenceClaims:
        return EvidenceClaims(None if session is None else session.knowledge)

    def transcript(self, seed: int, players: int) -> Transcript:
        return play_transcript(self.game, functools.partial(new_game, players=players), make_bot,
                               ["greedy"] * players, seed, self.seat)

    def decision(self, session: Any) -> Decision | None:
        rank = self.decision_later(session)
        return None if rank is None else rank()

    def decision_later(self, session: Any) -> Callable[[], Decision] | None:
        """Whether it is my play or search with two choices or more (cheap), and the ranking to make when the
        exercise is shown (:meth:`_ranked`, about half a second of futures)."""
        kn = session.knowledge
        try:
            turn = session.turn()
        except AssistantError:
            return None
        if turn.seat != kn.me or turn.phase not in (PLAY, SEARCH):
            return None
        options = candidates(kn, turn.phase, legal_for(kn, turn.phase))
        if len(options) < 2:
            return None
        return functools.partial(self._ranked, kn, turn.round, turn.phase, options)

    @staticmethod
    def _ranked(kn: Any, round_: int, phase: str, options: list[Any]) -> Decision:
        # Playout ranks these few small decisions (48 futures an option) sooner than Numba would start; the
        # compiled loops, the same numbers, only if something in this process has loaded them already
        ranked = evaluate(kn, round_, phase, options, 48, random.Random(0), rounds=3, wait=False, load=False)
        ranked = sorted(ranked, key=lambda o: -o.utility)
        choices = tuple(Choice(str(o.action), o.utility, o.tells) for o in ranked)
        what = "rumour to play" if phase == PLAY else "search to make"
        return Decision(f"Your turn: which {what} does the advisor rank best?",
                        "the action as the advisor prints it (e.g. 'play brown 2', 'take brown', 'done')",
                        choices, tolerance=0.02)

    def own_decision(self, session: Any, line: str) -> bool:
        words = line.split()
        kn = session.knowledge
        return kn is not None and len(words) >= 3 and words[0] in ("play", "search") and words[1] == str(kn.me)

    def action_text(self, line: str) -> str:
        words = line.split()  # play ME COLOUR VALUE / search ME COLOUR
        return normalize(f"play {words[2]} {words[3]}" if words[0] == "play" else f"take {words[2]}")
