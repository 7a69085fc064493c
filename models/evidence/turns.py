"""Evidence turn order and phases as the companion sees them (rulebook "Course of a Round", "1. Play a
Rumour", "End of the Game").

:class:`~models.evidence.rules.Table` checks what public facts decide about one event (a rumour in hand, the card
limit, a time-out still available); :class:`~models.evidence.rules.EvidenceState` knows the hidden world and
whose turn it is. A player's companion has neither the hidden world nor a "turn ended" event: a turn is entered
as its rumour (with two players, the unknown rumour revealed first), then any searches, then at most one time-out
or tool, and it ends when the next player starts theirs. :class:`TurnOrder` follows those entries and refuses,
with one line naming the rule, any entry the rules do not allow at that moment:

- turns go clockwise from the start player; each turn starts with its rumour (two players: a reveal, then the
  rumour), once per player and round, for 6 rounds;
- search cards, time-outs and tools belong to the player whose turn it is, after their rumour; searching comes
  before the time-out or tool, and a turn has at most one time-out or tool;
- an evidence is uncovered at its mystery's 5th revealed rumour, at once (nothing else happens before it is
  entered), or at the end of the game; never earlier, and only once.

The knowledge model (:mod:`models.evidence.knowledge`) does not use this class: it reasons about information and
accepts events in any order, which its tests and the bots' rollouts rely on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from models.evidence.data import REVEAL_AT, ROUNDS
from models.evidence.observations import (
    EvidenceShown,
    Look,
    Observation,
    Play,
    Reveal,
    Search,
    TimeOut,
    ToolUsed,
)
from models.evidence.rules import EXTRA, PLAY, SEARCH, UNCOVER, Table, extra_actions
from solver.errors import IllegalActionError

EVIDENCE_STEP = "evidence"  # an evidence just uncovered must be entered before anything else
OVER = "over"

# Where the turn in progress stands: not begun (game start), rumour revealed (two players), rumour played,
# time-out or tool used.
_START, _REVEALED, _PLAYED, _EXTRA = "start", "revealed", "played", "extra"


@dataclass(frozen=True)
class Step:
    """What the table waits for: the round, the seat to act (None when the game is over or an evidence must be
    entered), the phase (``uncover``, ``play``, ``search``, ``extra``, ``evidence`` or ``over``), and for the
    ``evidence`` phase the mystery whose evidence was just uncovered."""

    round: int
    seat: int | None
    phase: str
    colour: str | None = None


@dataclass
class TurnOrder:
    """The turn in progress, built from the public events in the order they are entered (see module docstring).

    ``check(obs, table)`` raises :class:`IllegalActionError` if ``obs`` is not allowed now (``table`` is the public
    table before it); ``record(obs, table)`` follows an accepted event (``table`` is the table after it)."""

    order: list[int]
    two_players: bool
    mover: int = 0
    step: str = _START
    plays: int = 0
    pending: list[str] = field(default_factory=list)
    over: bool = False

    @classmethod
    def of(cls, table: Table) -> TurnOrder:
        order = table.seat_order()
        return cls(order, table.players == 2, order[0])

    # -- where the game stands --------------------------------------------------------------------------------
    @property
    def total_plays(self) -> int:
        return ROUNDS * len(self.order)

    def starter(self) -> int | None:
        """The seat whose turn starts next (None: the game's 6 rounds are played)."""
        if self.step == _START:
            return self.mover
        if self.plays >= self.total_plays or self.over:
            return None
        return self.order[(self.order.index(self.mover) + 1) % len(self.order)]

    def _order_text(self) -> str:
        return f"clockwise from the start player: {', '.join(map(str, self.order))}"

    def _turn_rule(self, what: str, seat: int) -> str:
        return f"'{what}': it is player {seat}'s turn (players take turns {self._order_text()})"

    def now(self, table: Table, me: int) -> Step:
        """What the table waits for. After another player's rumour the companion moves on to the next player
        (they may still search: those entries stay allowed); after mine, to my search, time-out or tool while I
        have one."""
        n = len(self.order)
        if self.pending:
            return Step(max(1, (self.plays - 1) // n + 1), None, EVIDENCE_STEP, self.pending[0])
        if self.step == _REVEALED:
            return Step(self.plays // n + 1, self.mover, PLAY)
        if self.step == _PLAYED and self.mover == me and not self.over:
            phase = SEARCH if table.room(me) and any(table.available(c) for c in table.stacks) else EXTRA
            if phase == SEARCH or extra_actions(table, me):
                return Step((self.plays - 1) // n + 1, me, phase)
        seat = self.starter()
        if seat is None:
            return Step(ROUNDS, None, OVER)
        return Step(self.plays // n + 1, seat, UNCOVER if self.two_players else PLAY)

    # -- the rules ----------------------------------------------------------------------------------------------
    def check(self, obs: Observation, table: Table) -> None:
        """Raise :class:`IllegalActionError` naming the rule if ``obs`` may not be entered now."""
        what = str(obs)
        if self.pending and not (isinstance(obs, EvidenceShown) and obs.colour in self.pending):
            c = self.pending[0]
            raise IllegalActionError(f"'{what}': first enter the {c} evidence, uncovered at once by the "
                                     f"{REVEAL_AT}th revealed {c} rumour ('evidence {c} VALUE')")
        if isinstance(obs, Play | Reveal):
            self._check_start(obs, what)
        elif isinstance(obs, Search | TimeOut | ToolUsed):
            self._check_after_play(obs, what)
        elif isinstance(obs, EvidenceShown):
            self._check_evidence(obs, table, what)
        elif isinstance(obs, Look) and self.over:
            raise IllegalActionError(f"'{what}': the game is over; every evidence is uncovered at its end")

    def _check_start(self, obs: Play | Reveal, what: str) -> None:
        if self.step == _REVEALED:
            if isinstance(obs, Reveal):
                raise IllegalActionError(f"'{what}': player {self.mover} has revealed an unknown rumour this turn; "
                                         f"one a turn, then they play a rumour")
            if obs.seat != self.mover:
                raise IllegalActionError(self._turn_rule(what, self.mover) + "; they play a rumour now")
            return
        seat = self.starter()
        if seat is None:
            raise IllegalActionError(f"'{what}': the game is over: every player has played a rumour in each of "
                                     f"the {ROUNDS} rounds")
        if obs.seat != seat:
            raise IllegalActionError(self._turn_rule(what, seat))
        if self.two_players and isinstance(obs, Play):
            raise IllegalActionError(f"'{what}': with two players a turn begins by revealing one of your unknown "
                                     f"rumours: first 'reveal {seat} COLOUR VALUE'")

    def _check_after_play(self, obs: Search | TimeOut | ToolUsed, what: str) -> None:
        turn = "a turn is: play a rumour, then search, then at most one time-out or tool"
        if self.over:
            raise IllegalActionError(f"'{what}': the game is over (its evidence is being uncovered)")
        if self.step in (_START, _REVEALED):
            raise IllegalActionError(f"'{what}': player {self.mover} has not played this turn's rumour yet ({turn})")
        if obs.seat != self.mover:
            raise IllegalActionError(f"'{what}': it is player {self.mover}'s turn ({turn})")
        if self.step == _EXTRA:
            raise IllegalActionError(f"'{what}': player {obs.seat} has used a time-out or tool, which ends the turn "
                                     f"({turn})")

    def _check_evidence(self, obs: EvidenceShown, table: Table, what: str) -> None:
        shown = table.evidence[obs.colour]
        if shown is not None:
            raise IllegalActionError(f"'{what}': the {obs.colour} evidence is already uncovered ({shown})")
        if obs.colour in self.pending or self.plays >= self.total_plays:
            return
        n = table.revealed_count(obs.colour)
        raise IllegalActionError(f"'{what}': an evidence is uncovered at its mystery's {REVEAL_AT}th revealed "
                                 f"rumour or at the end of the game; {n} {obs.colour} rumour{'s' if n != 1 else ''} "
                                 f"revealed so far")

    def record(self, obs: Observation, table: Table) -> None:
        """Follow an accepted event; ``table`` is the public table after it."""
        if isinstance(obs, Play | Reveal):
            if self.step != _REVEALED:
                self.mover = obs.seat
            if isinstance(obs, Play):
                self.plays += 1
            self.step = _PLAYED if isinstance(obs, Play) else _REVEALED
            if table.revealed_count(obs.colour) == REVEAL_AT and table.evidence[obs.colour] is None:
                self.pending.append(obs.colour)
        elif isinstance(obs, TimeOut | ToolUsed):
            self.step = _EXTRA
        elif isinstance(obs, EvidenceShown):
            if obs.colour in self.pending:
                self.pending.remove(obs.colour)
            else:
                self.over = True
