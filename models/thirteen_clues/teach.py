"""The Thirteen Clues teacher: exercises and narrated replays from seeded games between logic bots
(:mod:`solver.teaching`); its claims are :class:`models.thirteen_clues.claims.ThirteenCluesClaims`."""

from __future__ import annotations

import functools
from typing import Any

from models.thirteen_clues import ENTRY
from models.thirteen_clues.advisor import advise
from models.thirteen_clues.bots import make_bot
from models.thirteen_clues.claims import ThirteenCluesClaims
from models.thirteen_clues.observations import Ask, Consult
from models.thirteen_clues.rules import TableRules, new_game
from models.thirteen_clues.session import ThirteenCluesSession
from solver.teaching import Choice, Decision, Teacher, Transcript, journal_numbers, normalize, play_transcript


class ThirteenCluesTeacher(Teacher):
    game = ENTRY.name
    title = ENTRY.title
    header = ENTRY.header
    default_players = 4
    players_range = ENTRY.players
    claim_syntax = ThirteenCluesClaims.syntax
    claim_example = ThirteenCluesClaims.example
    focus_name = ThirteenCluesClaims.focus_name
    file_actions_note = ("(a game file does not say who asked each question, so the advisor's view of your choices "
                         "is shown for simulated games only)")

    def new_session(self) -> ThirteenCluesSession:
        return ThirteenCluesSession()

    def knowledge(self, session: Any) -> Any | None:
        return session.knowledge

    def claims(self, session: Any) -> ThirteenCluesClaims:
        if session is None or session.knowledge is None:
            return ThirteenCluesClaims(None)
        kn = session.knowledge
        return ThirteenCluesClaims(kn, journal_numbers(session.lines, len(kn.knowledge.entries)))

    def transcript(self, seed: int, players: int) -> Transcript:
        rules = TableRules(players)
        return play_transcript(self.game, functools.partial(new_game, rules), make_bot, ["logic"] * players,
                               seed, self.seat)

    def decision(self, session: Any) -> Decision | None:
        kn = session.knowledge
        ranked = [a for a in advise(kn) if isinstance(a.action, Ask | Consult)]
        if len(ranked) < 2:
            return None
        choices = tuple(Choice(str(a.action), a.score, a.reason) for a in ranked)
        return Decision("Your turn: which question (or informant card) tells you most?",
                        "'ask SEAT SUBJECT' or 'consult LETTER'", choices, tolerance=0.05, unit="bits")

    def action_text(self, line: str) -> str:
        words = line.split()
        if words and words[0] == "ask":
            return normalize(" ".join(words[:-1]))  # the answer count is the table's, not the choice
        if words and words[0] == "informant" and len(words) == 3 and words[2].lower() != "by":
            return f"consult {words[1].lower()}"
        return normalize(line)
