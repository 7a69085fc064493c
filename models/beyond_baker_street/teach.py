"""The Beyond Baker Street teacher: exercises and narrated replays from seeded games between advisor bots
(:mod:`solver.teaching`), seen from seat 2; its claims are
:class:`models.beyond_baker_street.claims.BeyondBakerStreetClaims`. It also asks what another player can tell
of their own cards (empathy)."""

from __future__ import annotations

import functools
from typing import Any

from models.beyond_baker_street import ENTRY
from models.beyond_baker_street.advisor import advise, make_bot
from models.beyond_baker_street.claims import BeyondBakerStreetClaims
from models.beyond_baker_street.observations import Drew, Investigated, parse
from models.beyond_baker_street.rules import TableRules, new_game
from models.beyond_baker_street.session import BeyondBakerStreetSession
from solver.teaching import Choice, Decision, Teacher, Transcript, normalize, play_transcript

OWN_ACTIONS = ("assist", "investigate", "eliminate", "confirm", "pursue")


class BeyondBakerStreetTeacher(Teacher):
    game = ENTRY.name
    title = ENTRY.title
    header = ENTRY.header
    default_players = 3
    players_range = ENTRY.players
    seat = 2
    claim_syntax = BeyondBakerStreetClaims.syntax
    claim_example = BeyondBakerStreetClaims.example
    focus_name = BeyondBakerStreetClaims.focus_name
    empathy_exercises = True

    def new_session(self) -> BeyondBakerStreetSession:
        return BeyondBakerStreetSession()

    def knowledge(self, session: Any) -> Any | None:
        return session.knowledge

    def claims(self, session: Any) -> BeyondBakerStreetClaims:
        return BeyondBakerStreetClaims(None if session is None else session.knowledge)

    def transcript(self, seed: int, players: int) -> Transcript:
        rules = TableRules(players, 1 + seed % 6)
        seat = self.seat if players >= 2 else 1
        return play_transcript(self.game, functools.partial(new_game, rules), make_bot, ["advisor"] * players,
                               seed, seat, keep=lambda obs: not (isinstance(obs, Drew) and obs.seat == seat))

    def decision(self, session: Any) -> Decision | None:
        kn = session.knowledge
        board = kn.board if kn is not None else None
        if board is None or board.over or board.current != kn.me or board.pending:
            return None
        ranked = advise(kn)
        if len(ranked) < 2:
            return None
        choices = tuple(Choice(str(a.action), a.score, a.reason) for a in ranked)
        return Decision("Your turn: which action (an Assist, an investigation, ...) is worth most?",
                        "an action as the advisor prints it: 'assist SEAT SUBJECT', 'investigate POSITION LEAD', "
                        "'eliminate POSITION', 'confirm LEAD' or 'pursue LEAD'", choices, tolerance=0.5)

    def own_decision(self, session: Any, line: str) -> bool:
        words = line.split()
        kn = session.knowledge
        return kn is not None and len(words) >= 2 and words[0] in OWN_ACTIONS and words[1] == str(kn.me)

    def action_text(self, line: str) -> str:
        words = line.split()
        verb = words[0]
        if verb == "assist":  # assist BY TARGET SUBJECT at ...
            return normalize(f"assist {words[2]} {words[3]}")
        if verb in ("investigate", "inv"):  # investigate BY POSITION CARD LEAD (or LEAD CARD; a card may be two words)
            event = parse(line)
            assert isinstance(event, Investigated)
            return normalize(f"investigate {event.position} {event.section}")
        if verb == "eliminate":  # eliminate BY POSITION CARD
            return normalize(f"eliminate {words[2]}")
        return normalize(f"{verb} {' '.join(words[2:])}")

    def empathy(self, session: Any, seat: int) -> list[dict[Any, float]]:
        return session.knowledge.empathy(seat)
