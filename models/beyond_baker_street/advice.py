"""The Beyond Baker Street advisor's shared pieces: the heuristic :class:`Weights`, one ranked :class:`Advice`, and
the :class:`Situation` (what one player knows, as bit masks, with the value table of every card on every open Lead
or eliminated), with the exact distributions of a hand.

Every module of the advisor builds on these (the plain advisor, the Character cards, the hat convention), and
this module imports none of them, so their imports never go round in a circle
(:mod:`models.beyond_baker_street.advisor` re-exports these names).

The numbers come from compiled loops (:mod:`models.beyond_baker_street.kernels`, through
:func:`~models.beyond_baker_street.compiled.compiled`) once they are loaded, and from the array code here until
then: both give the same numbers (tests compare them). A value table depends on public facts only (the board, the
cards still in play), so every player of a process shares it (:data:`_TABLES`): the hat convention asks it of each
seat for every play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import astuple, dataclass, field
from functools import lru_cache
from typing import Any, Generic, TypeVar, overload

import numpy as np

from models.beyond_baker_street.compiled import compiled
from models.beyond_baker_street.data import EVIDENCE, ICONS
from models.beyond_baker_street.knowledge import (
    ICON_MASK,
    HandKnowledge,
    card_mask,
    mask_distribution,
)
from models.beyond_baker_street.observations import Action, Eliminate, Investigate
from models.beyond_baker_street.table import Board, LeadState
from solver.injections import PARTITION_LIMIT

_T = TypeVar("_T")


class once(Generic[_T]):  # noqa: N801 - used as a decorator, like the functools one it stands in for
    """:func:`functools.cached_property` without its lock: Python 3.11's takes a lock on every first read, and
    the situations and value tables read a dozen such values per decision (its ``__get__`` was about 3% of a hat
    game's time in a sampled profile). The value is computed on the first read and kept in the instance's
    ``__dict__``, which every later read finds first (this is a non-data descriptor), as with the functools one."""

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> once[_T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> _T: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> once[_T] | _T:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


#: Value tables by every public fact they depend on (:meth:`Situation.table_key`), shared by every player.
_TABLES: dict[tuple[object, ...], ValueTable] = {}
#: The tables kept, the oldest dropped first: a table is asked again only while its board lasts (the player to
#: move, then every seat reading the play; a 200-game hat run builds the same number of tables with 32 kept as
#: with 4096), and thousands of them kept alive (a dozen objects each) made the collector's full passes come
#: more often (one pass fewer in 200 games, about 2% of the CPU time, measured with ``gc.callbacks``).
_TABLES_MAX = 64


@dataclass
class ValueTable:
    """One value table (:attr:`Situation.values`: each card on each open Lead, then eliminated) and what is read
    from it, each computed once: it depends on public facts only, so every player of a process shares it, and
    the hat convention reads its partitions from it for every play of every seat."""

    values: np.ndarray  # (open Leads + 1) x 24, read-only
    live: int  # the cards still in play
    leads: int  # the open Leads (the rows before the last)
    memo: dict[object, object] = field(default_factory=dict)  # what a convention derives from it, by name
    #: whether :attr:`uses` came from the compiled table with each icon's feasibility after it (:attr:`feasible`)
    packed: bool = False

    @once
    def uses(self) -> np.ndarray | None:
        """:func:`models.beyond_baker_street.kernels.table_uses` of this table, once the compiled loops are loaded
        (None before: :attr:`best_uses` and :attr:`positive` then read the rows in plain Python, the same
        answers); the hat convention's partitions are computed from it by compiled loops too."""
        kernels = compiled()
        if kernels is None or self.values.shape[1] != len(EVIDENCE):  # the loop reads a column per card
            return None
        return kernels.table_uses(self.values, self.live, self.leads)  # type: ignore[no-any-return]

    @once
    def _uses(self) -> list[int] | None:
        """:attr:`uses` as a list."""
        uses = self.uses
        return None if uses is None else uses.tolist()

    @once
    def best_uses(self) -> list[tuple[int, int, bool]]:
        """For each card still in play: its index, the first row of highest value, and whether that value is
        positive (by the compiled loop, else plain Python on the table's rows: faster than array calls on a
        table this small)."""
        uses = self._uses
        if uses is not None:
            live = self.live
            n = len(EVIDENCE)  # the layout of table_uses: best row per card, then worth per card, then masks
            return [(i, uses[i], uses[n + i] == 1) for i in range(n) if live >> i & 1]
        rows = self._rows
        best = list(rows[0])
        at = [0] * len(best)
        for r in range(1, len(rows)):  # row by row: a later row wins only if higher (the first of equal values,
            row = rows[r]  # as argmax and ``column.index(max(column))``)
            for i, v in enumerate(row):
                if v > best[i]:
                    best[i] = v
                    at[i] = r
        live = self.live
        return [(i, at[i], best[i] > 0) for i in range(len(best)) if live >> i & 1]

    @once
    def positive(self) -> list[int]:
        """Per open Lead, the cards worth something played to it, as a card mask."""
        uses = self._uses
        if uses is not None:
            return uses[2 * len(EVIDENCE):2 * len(EVIDENCE) + self.leads]
        out = []
        for row in self._rows[:self.leads]:
            mask = 0
            for i, v in enumerate(row):
                if v > 0:
                    mask |= 1 << i
            out.append(mask)
        return out

    @once
    def feasible(self) -> list[int] | None:
        """Per icon (in :data:`~models.beyond_baker_street.data.ICONS` order), 1 if its open Leads can all still
        be completed exactly from the live cards, else 0, when the compiled table gave it (None: ask
        ``Situation.icon_feasible``)."""
        if not self.packed:
            return None
        n = 2 * len(EVIDENCE) + self.leads
        return self._uses[n:n + len(ICONS)]  # type: ignore[index]

    @once
    def _rows(self) -> list[list[float]]:
        """:attr:`values` as Python lists, read once."""
        return self.values.tolist()  # type: ignore[no-any-return]

    @once
    def good(self) -> int:
        """The cards in play worth something played to some open Lead, as a card mask."""
        good = 0
        for mask in self.positive:
            good |= mask
        return good & self.live

NUMBER_OF = [c.number for c in EVIDENCE]
#: each icon's index in :data:`~models.beyond_baker_street.data.ICONS` (the compiled loops' icon order)
ICON_INDEX = {icon: i for i, icon in enumerate(ICONS)}
ICON_OF = [c.icon for c in EVIDENCE]


@dataclass(frozen=True)
class Weights:
    """The heuristic values (see the module docstring); a bot may run with other weights to compare."""

    complete: float = 10.0  # bonus for a play that makes a Lead confirmable
    progress: float = 1.0  # per evidence point moved onto a Lead
    stuck: float = 6.0  # a Lead that can no longer be completed exactly with the cards still in play
    dead: float = 12.0  # a Dead Lead (besides the Impossible card it adds)
    mismatch: float = 1.0  # per point a mismatched icon adds to a Lead's value
    mismatch_base: float = 3.0
    eliminate: float = 1.0  # per point moved on the Investigation track
    finish: float = 8.0  # bonus for reaching exactly the goal
    holmes: float = 3.0  # a Holmes space (an Assist, an Impossible card beyond the limit)
    lead_card: float = 0.6  # per point, eliminating a card a Lead could still use
    confirm: float = 30.0
    hint_discount: float = 0.85  # per player acting between me and the player told
    min_play: float = 0.5  # a play must be worth this much to be preferred to an Assist
    slot: float = 0.0  # using up a free place in the Impossible
    second: float = 0.4  # share of a second play an Assist makes clear, besides the best one
    future: float = 0.0  # per Impossible card the rest of the track will likely need beyond the limit
    card_points: float = 5.0  # what an eliminated card is expected to be worth once players know their cards
    info: float = 0.3  # share of a good play's value per unit of probability an Assist adds to it
    tight: float = 0.0  # an icon's Leads with a single way left to complete them (less for more ways)
    scarce: float = 1.0  # a Holmes space is worth (1 + scarce * (15 - Holmes) / 15) times more as Holmes drops

    def __hash__(self) -> int:
        """The hash of the values, computed once (weights key every shared value table: :data:`_TABLES`)."""
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(astuple(self))
            object.__setattr__(self, "_hash", cached)
        return cached


DEFAULT_WEIGHTS = Weights()


@dataclass(frozen=True)
class Advice:
    """One legal action with its value (higher is better) and a reason in words."""

    action: Action
    score: float
    reason: str

    def __str__(self) -> str:
        return f"{self.action}  ({self.score:+.1f}: {self.reason})"


@lru_cache(maxsize=1 << 16)
def _sums(mask: int) -> int:
    """Bit s is set when some cards of ``mask`` (each used once) add up to exactly s."""
    sums = 1
    while mask:
        low = mask & -mask
        sums |= sums << NUMBER_OF[low.bit_length() - 1]
        mask ^= low
    return sums


@lru_cache(maxsize=1 << 16)
def _points(mask: int) -> int:
    """The numbers of the cards of ``mask`` added up."""
    total = 0
    while mask:
        low = mask & -mask
        total += NUMBER_OF[low.bit_length() - 1]
        mask ^= low
    return total


def reachable(mask: int, target: int) -> bool:
    """Whether some cards of ``mask`` add up to exactly ``target``."""
    return target >= 0 and bool(_sums(mask) >> target & 1)


@lru_cache(maxsize=1 << 16)
def completions(mask: int, needs: tuple[int, ...], cap: int = 8) -> int:
    """In how many ways (up to ``cap``) disjoint sets of the cards of ``mask`` add up to each of ``needs``."""
    if not needs:
        return 1
    first, rest = needs[0], needs[1:]
    if first == 0:
        return completions(mask, rest, cap)
    total = 0
    sub = mask
    while sub:
        if _points(sub) == first:
            total += completions(mask & ~sub, rest, cap)
            if total >= cap:
                return cap
        sub = (sub - 1) & mask
    return total


@lru_cache(maxsize=1 << 16)
def jointly_reachable(mask: int, needs: tuple[int, ...]) -> bool:
    """Whether disjoint sets of the cards of ``mask`` add up to each of ``needs`` exactly (Leads that share
    an icon draw on the same cards). Kept by its arguments: every decision asks it of each open Lead's icon
    (the Pursue values) with the same few masks, and the subset walk is plain Python."""
    if len(needs) <= 1:
        return not needs or reachable(mask, needs[0])
    first, rest = needs[0], needs[1:]
    sub = mask
    while True:
        if _points(sub) == first and jointly_reachable(
            mask & ~sub, rest
        ):
            return True
        if sub == 0:
            return False
        sub = (sub - 1) & mask


@dataclass
class Situation:
    """What one player knows, in the form the evaluation needs (bit masks of card indices)."""

    kn: HandKnowledge
    board: Board
    me: int
    unseen: int  # cards in my hand or the deck
    live: int  # cards that can still be played: unseen by me or in another hand
    hands: dict[int, list[int]] = field(default_factory=dict)  # other seats: card indices, left to right
    weights: Weights = DEFAULT_WEIGHTS
    leads: list[LeadState] = field(default_factory=list)  # the open Leads, in board order
    _table: ValueTable | None = None
    _icon_needs: dict[str, list[tuple[str, int]]] | None = None

    @staticmethod
    def kept(kn: HandKnowledge, weights: Weights = DEFAULT_WEIGHTS) -> Situation:
        """:meth:`of`, built once per knowledge state: it is kept with ``kn``'s answers, which every entry
        forgets (``HandKnowledge._fresh``), so the hat convention's reading of an entry and my own decision before
        it share one situation and its value table. For the bots and the hat convention, whose knowledge changes
        only by entries (a test that edits a board by hand asks :meth:`of`)."""
        key = ("situation", weights)
        cached = kn._cache.get(key)
        if cached is None:
            cached = kn._cache[key] = Situation.of(kn, weights)
        return cached  # type: ignore[return-value]

    @staticmethod
    def of(kn: HandKnowledge, weights: Weights = DEFAULT_WEIGHTS) -> Situation:
        """What ``kn`` knows now, as a new situation."""
        assert kn.board is not None
        unseen = kn.unseen_mask()
        me = kn.me
        hands: dict[int, list[int]] = {}
        live = unseen
        for s, hand in kn.hands.items():
            if s != me:
                cards = hands[s] = []
                for slot in hand:
                    bit = slot.bit
                    if bit:
                        cards.append(bit.bit_length() - 1)
                        live |= bit
        leads = [ls for ls in kn.board.leads.values() if not ls.confirmed and ls.lead is not None]
        return Situation(kn, kn.board, me, unseen, live, hands, weights, leads)

    # -- the Leads ------------------------------------------------------------------------------------------
    def open_leads(self) -> list[LeadState]:
        return self.leads

    def last_lead(self) -> bool:
        return len(self.open_leads()) == 1

    @once
    def facts(self) -> list[tuple[str, str, int, int, int]]:
        """Each open Lead's section, icon, need, evidence total and pile, read once (the board does not change
        while a situation is in use)."""
        out = []
        for ls in self.leads:
            total = ls.total
            out.append((ls.section, ls.icon, ls.target - total, total, ls.pile))  # the need: target less total
        return out

    def icon_feasible(self, icon: str, live: int, needs: dict[str, int] | None = None) -> bool:
        """Whether the open Leads of ``icon`` can all still be completed exactly from the ``live`` cards
        (``needs`` overrides some Leads' needs, by section)."""
        if needs:
            wanted = tuple(sorted(needs.get(section, need) for section, need in self._needs[icon]))
        else:
            wanted = tuple(sorted(need for _section, need in self._needs[icon]))
        return jointly_reachable(live & ICON_MASK[icon], wanted)

    def tightness(self, icon: str, live: int, needs: dict[str, int] | None = None) -> float:
        """How hard the open Leads of ``icon`` are to complete from the ``live`` cards: ``stuck`` when they
        cannot be, less the more ways remain (``tight`` for a single way), 0 from four ways on."""
        w = self.weights
        if not w.tight:
            return 0.0 if self.icon_feasible(icon, live, needs) else w.stuck
        wanted = tuple(sorted((needs or {}).get(section, need) for section, need in self._needs[icon]))
        ways = completions(live & ICON_MASK[icon], wanted)
        if ways == 0:
            return w.stuck
        return w.tight * max(0.0, (4 - ways) / 3)

    def tension(self, icons: set[str], live: int, needs: dict[str, int] | None = None) -> float:
        """How much harder a change (cards left ``live``, new ``needs``) makes the Leads of ``icons``."""
        return sum(self.tightness(ic, live, needs) - self.tightness(ic, self.live) for ic in icons)

    def breaks(self, icons: set[str], live: int, needs: dict[str, int] | None = None) -> bool:
        """Whether a change (cards left ``live``, new ``needs``) makes some icon's Leads impossible that were
        possible before."""
        return any(
            self.icon_feasible(icon, self.live) and not self.icon_feasible(icon, live, needs) for icon in icons
        )

    def play_value(self, card: int, ls: LeadState) -> tuple[float, str]:
        """The value of card index ``card`` played to Lead ``ls``, and what happens, in words."""
        w = self.weights
        n, icon = NUMBER_OF[card], ICON_OF[card]
        need = ls.need
        live = self.live & ~(1 << card)
        if icon == ls.icon:
            if n == need:
                return w.complete + w.progress * n - self.tension({icon}, live, {ls.section: 0}), "completes the Lead"
            if n < need:
                if w.tight:
                    harder = self.tension({icon}, live, {ls.section: need - n})
                    what = "leaves the Lead impossible to complete exactly" if self.breaks(
                        {icon}, live, {ls.section: need - n}) else f"leaves the Lead {need - n} short"
                    return w.progress * n - harder, what
                if not self.breaks({icon}, live, {ls.section: need - n}):
                    return w.progress * n, f"leaves the Lead {need - n} short"
                return w.progress * n - w.stuck, "leaves the Lead impossible to complete exactly"
            if ls.pile == 0:
                return -1000.0, "kills the last Lead of its section, and the game is lost"
            return -w.dead - self.impossible_cost(1) - w.progress * ls.total * 0.5, "makes the Lead a Dead Lead"
        value = -w.mismatch_base - w.mismatch * n
        if w.tight:
            value -= self.tension({icon, ls.icon}, live, {ls.section: need + n})
        elif self.breaks({icon, ls.icon}, live, {ls.section: need + n}):
            value -= w.stuck
        return value, f"is the wrong icon and raises the Lead's target by {n}"

    def holmes_value(self) -> float:
        """What one Holmes space is worth now: more as the marker nears 0."""
        return self._holmes_value

    @once
    def _holmes_value(self) -> float:
        w = self.weights
        top = self.board.data.holmes_max
        return w.holmes * (1 + w.scarce * max(0, top - self.board.holmes) / top)

    @once
    def _limit(self) -> int:
        return self.board.limit

    def impossible_cost(self, cards: int) -> float:
        """Holmes spaces lost by adding ``cards`` to the Impossible, as value."""
        held, limit = len(self.board.impossible), self._limit
        over = max(0, held + cards - limit)
        over -= max(0, held - limit)
        if self.board.holmes - over <= 0:
            return 1000.0
        return self.holmes_value() * over + self.weights.slot * (cards - over)

    def overflow(self, track: int, free: int) -> float:
        """Impossible cards beyond the limit that reaching the goal from ``track`` will likely take."""
        rest = self.board.data.goal - track
        return max(0.0, rest / self.weights.card_points - max(free, 0)) if rest > 0 else max(0.0, -free)

    def eliminate_value(self, card: int) -> tuple[float, str]:
        w = self.weights
        n = NUMBER_OF[card]
        goal, track = self.board.data.goal, self.board.track
        if track + n > goal:
            return -1000.0, f"takes the Investigation track past {goal}: the game is lost"
        value = w.eliminate * n - self.impossible_cost(1)
        if w.future:
            free = self.board.limit - len(self.board.impossible)
            value -= w.future * (self.overflow(track + n, free - 1) - self.overflow(track, free))
        rest = goal - track - n
        if rest == 0:
            value += w.finish
            reason = f"brings the Investigation track to exactly {goal}"
        else:
            if not reachable(self.live & ~(1 << card), rest):
                value -= w.stuck
            reason = f"moves the Investigation track to {track + n}"
        if self.breaks({ICON_OF[card]}, self.live & ~(1 << card)):
            value -= w.stuck
            reason += " (a card a Lead cannot do without)"
        elif w.tight and self.tension({ICON_OF[card]}, self.live & ~(1 << card)) > 0:
            value -= self.tension({ICON_OF[card]}, self.live & ~(1 << card))
            reason += " (fewer ways left to complete a Lead)"
        else:
            for ls in self.open_leads():
                if ICON_OF[card] == ls.icon and n <= ls.need:
                    value -= w.lead_card * n
                    reason += f" (a card the {ls.section} Lead could use)"
                    break
        return value, reason

    # -- value tables and expected values ---------------------------------------------------------------------
    @property
    def sections(self) -> list[str | None]:
        """The rows of :attr:`values`: each open Lead's section, then None (eliminating)."""
        return [ls.section for ls in self.leads] + [None]

    @property
    def values(self) -> np.ndarray:
        """The value of each card index (columns) played to each open Lead or eliminated (rows, as
        :attr:`sections`); computed once for the public facts of :meth:`table_key` (read-only, shared). Cards
        no longer in play (not :attr:`live`) are never drawn on and are left at 0."""
        return self.value_table.values

    @property
    def value_table(self) -> ValueTable:
        """:attr:`values` with what is read from it (:class:`ValueTable`), shared by every situation with the same
        public facts."""
        if self._table is None:
            key = self.table_key()
            table = _TABLES.get(key)
            if table is None:
                table = self._table_new()
                if len(_TABLES) >= _TABLES_MAX:  # the oldest goes (its board is long past)
                    del _TABLES[next(iter(_TABLES))]
                _TABLES[key] = table
            self._table = table
        return self._table

    def table_key(self) -> tuple[object, ...]:
        """Everything :attr:`values` depends on: the weights, the cards in play, each open Lead's icon, need,
        pile and evidence, the track, the goal, the Holmes marker and its top, the Impossible and its limit (each
        Lead's facts as :attr:`facts` reads them, its section included: a finer key, never a wrong table, and no
        tuple to cut per Lead for every seat that reads a play)."""
        board = self.board
        return (self.weights, self.live, *self.facts, board.track, board.data.goal, board.holmes,
                board.data.holmes_max, len(board.impossible), self._limit)

    def _table_new(self) -> ValueTable:
        """A new :class:`ValueTable` of this situation's public facts: with the compiled loops loaded (and the
        weights :meth:`_values_new` gives to them), the table, its :attr:`ValueTable.uses` and each icon's
        feasibility in one call (:func:`models.beyond_baker_street.kernels.table_all`, the same numbers), else
        :meth:`_values_new`."""
        w = self.weights
        kernels = compiled()
        leads = len(self.leads)
        if w.tight or w.future or kernels is None or self.board.data.goal > kernels.SUM_BITS:
            values = self._values_new()
            values.flags.writeable = False
            return ValueTable(values, self.live, leads)
        cost = self.impossible_cost(1)
        facts: list[int] = []
        for _section, icon, need, total, pile in self.facts:
            facts += (ICON_INDEX[icon], need, total, pile)
        values, uses = kernels.table_packed(
            self.live, np.array(facts, dtype=np.int64), self.board.track, self.board.data.goal, float(cost),
            float(w.dead), float(w.complete), float(w.progress), float(w.stuck), float(w.mismatch_base),
            float(w.mismatch), float(w.eliminate), float(w.finish), float(w.lead_card))
        values.setflags(write=False)
        table = ValueTable(values, self.live, leads)
        table.__dict__["uses"] = uses  # what the ``uses`` property computes, from the same table
        table.packed = True
        return table

    def _values_new(self) -> np.ndarray:
        """:attr:`values` computed: by the compiled loop when it is loaded (the same numbers as
        :meth:`_values_fast`), else by :meth:`_values_fast`, or card by card for the weights it leaves out."""
        w = self.weights
        if w.tight or w.future:
            return self._values_by_card()
        kernels = compiled()
        if kernels is None or self.board.data.goal > kernels.SUM_BITS:
            return self._values_fast()
        cost = self.impossible_cost(1)
        icons, needs, dead = _lead_arrays(tuple([fact[1:] for fact in self.facts]), cost, w)
        return kernels.value_table(
            self.live, icons, needs, dead, self.board.track, self.board.data.goal, float(cost), float(w.complete),
            float(w.progress), float(w.stuck), float(w.mismatch_base), float(w.mismatch), float(w.eliminate),
            float(w.finish), float(w.lead_card))

    def _values_by_card(self) -> np.ndarray:
        """:attr:`values` one card at a time through :meth:`play_value` and :meth:`eliminate_value`."""
        rows = [[self.play_value(i, ls)[0] for i in range(len(EVIDENCE))] for ls in self.leads]
        rows.append([self.eliminate_value(i)[0] for i in range(len(EVIDENCE))])
        return np.array(rows, dtype=np.float64)

    def _feasible(self, icon: str, live: int, section: str | None = None, need: int = 0) -> bool:
        """:meth:`icon_feasible` with at most one Lead's need overridden (the only case the tables ask)."""
        needs = self._needs[icon]
        if not needs:
            return True
        if len(needs) == 1:
            target = need if needs[0][0] == section else needs[0][1]
            return target >= 0 and bool(_sums(live & ICON_MASK[icon]) >> target & 1)
        wanted = tuple(sorted(need if sec == section else n for sec, n in needs))
        return jointly_reachable(live & ICON_MASK[icon], wanted)

    @property
    def _needs(self) -> dict[str, list[tuple[str, int]]]:
        """Per icon, the (section, need) of its open Leads (computed once)."""
        if self._icon_needs is None:
            needs: dict[str, list[tuple[str, int]]] = {ic: [] for ic in ICONS}
            for section, icon, need, _total, _pile in self.facts:
                needs[icon].append((section, need))
            self._icon_needs = needs
        return self._icon_needs

    def _values_fast(self) -> np.ndarray:
        """:attr:`values` with the same numbers as :meth:`play_value` and :meth:`eliminate_value` (without the
        ``tight`` and ``future`` terms, which take :meth:`_values_by_card`), each feasibility asked once: a
        card's removal from play is the same question for every row, and a mismatched card raises a Lead by
        its number only, so those answers are shared."""
        w = self.weights
        live = self.live
        cards = [i for i in range(len(EVIDENCE)) if live >> i & 1]
        before = {ic: self._feasible(ic, live) for ic in ICONS}
        kept = {i: self._feasible(ICON_OF[i], live & ~(1 << i)) for i in cards}  # still feasible without i
        out = np.zeros((len(self.leads) + 1, len(EVIDENCE)))
        leads = [(ls.icon, ls.need, ls.section) for ls in self.leads]
        for row, ls in enumerate(self.leads):
            lead_icon, need, section = leads[row]
            dead = -1000.0 if ls.pile == 0 else -w.dead - self.impossible_cost(1) - w.progress * ls.total * 0.5
            raised: dict[int, bool] = {}
            values = out[row]
            for i in cards:
                n, icon = NUMBER_OF[i], ICON_OF[i]
                if icon == lead_icon:
                    if n == need:
                        after = self._feasible(icon, live & ~(1 << i), section, 0)
                        values[i] = w.complete + w.progress * n - (
                            (0.0 if after else w.stuck) - (0.0 if before[icon] else w.stuck))
                    elif n < need:
                        broke = before[icon] and not self._feasible(icon, live & ~(1 << i), section, need - n)
                        values[i] = w.progress * n - w.stuck if broke else w.progress * n
                    else:
                        values[i] = dead
                else:
                    if n not in raised:
                        raised[n] = self._feasible(lead_icon, live, section, need + n)
                    value = -w.mismatch_base - w.mismatch * n
                    if (before[icon] and not kept[i]) or (before[lead_icon] and not raised[n]):
                        value -= w.stuck
                    values[i] = value
        goal, track = self.board.data.goal, self.board.track
        cost = self.impossible_cost(1)
        values = out[-1]
        for i in cards:
            n, icon = NUMBER_OF[i], ICON_OF[i]
            if track + n > goal:
                values[i] = -1000.0
                continue
            value = w.eliminate * n - cost
            rest = goal - track - n
            if rest == 0:
                value += w.finish
            elif not reachable(live & ~(1 << i), rest):
                value -= w.stuck
            if before[icon] and not kept[i]:
                value -= w.stuck
            else:
                for lead_icon, need, _section in leads:
                    if icon == lead_icon and n <= need:
                        value -= w.lead_card * n
                        break
            values[i] = value
        return out

    def table(self, section: str | None) -> np.ndarray:
        """The value of each card index played to the Lead of ``section`` (None: eliminated)."""
        return self.values[self.sections.index(section)]

    def expected(self, dists: np.ndarray) -> np.ndarray:
        """Expected value of each play (positions x :attr:`sections`) for a hand with these distributions
        (positions x cards), summed card by card in index order, as a plain loop would."""
        kernels = compiled()
        if kernels is not None and dists.dtype == np.float64 and dists.flags.writeable and dists.flags.c_contiguous:
            return kernels.expected(dists, self.values)
        return np.cumsum(dists[:, None, :] * self.values[None, :, :], axis=2)[:, :, -1]

    def play(self, position: int, row: int) -> Action:
        """The play at 0-based ``position`` to row ``row`` of :attr:`values`."""
        if row < len(self.leads):
            return Investigate(position + 1, self.leads[row].section)
        return Eliminate(position + 1)


@lru_cache(maxsize=4096)
def _lead_arrays(facts: tuple[tuple[str, int, int, int], ...], cost: float, w: Weights
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The open Leads' rows of the compiled value table, from their (icon, need, evidence total, pile): the icons'
    indices, the needs, and the value of making each a Dead Lead (the Impossible's ``cost`` of one card
    included). Kept by those facts (they change far less often than the cards in play: many tables share them);
    shared arrays, which the compiled loop only reads."""
    dead = [-1000.0 if pile == 0 else -w.dead - cost - w.progress * total * 0.5 for _, _, total, pile in facts]
    return (np.array([ICONS.index(icon) for icon, *_ in facts], dtype=np.int64),
            np.array([need for _, need, *_ in facts], dtype=np.int64), np.array(dead, dtype=np.float64))


def my_distribution(kn: HandKnowledge, seat: int | None = None) -> np.ndarray:
    """Per position of ``seat`` (default me; others: empathy), each card index's probability (positions x 24)."""
    seat = kn.me if seat is None else seat
    unseen = kn.unseen_mask()
    if seat != kn.me:
        unseen |= card_mask(kn.visible_hand(seat))
    masks = [s.mask for s in kn.hands[seat]]
    kernels = compiled()
    if kernels is not None and len(masks) <= PARTITION_LIMIT:
        return kernels.distributions(np.array(masks, dtype=np.int64), unseen)
    return mask_distribution(tuple(masks), unseen)


def my_expected(sit: Situation, known: Sequence[int] | None = None) -> np.ndarray:
    """``sit.expected`` of my hand's distributions (:func:`my_distribution`), first :func:`narrowed` to
    ``known`` if given: a decision's three steps in one compiled call once the loops are loaded
    (:func:`models.beyond_baker_street.kernels.hand_expected`, the same loops in the same order, so the same
    numbers), else step by step."""
    kn = sit.kn
    masks = [s.mask for s in kn.hands[kn.me]]
    kernels = compiled()
    if kernels is not None and len(masks) <= PARTITION_LIMIT and (known is None or len(known) == len(masks)):
        mine = np.array(masks, dtype=np.int64)
        return kernels.hand_expected(mine, kn.unseen_mask(), mine if known is None else np.array(known, dtype=np.int64),
                                     known is not None, sit.values)
    dists = my_distribution(kn)
    if known is not None:
        dists = narrowed(dists, known)
    return sit.expected(dists)


_CARD_BITS = 1 << np.arange(len(EVIDENCE), dtype=np.int64)


def narrowed(dists: np.ndarray, masks: Sequence[int]) -> np.ndarray:
    """``dists`` given that each position's card is one of its mask (a row unchanged if none of its cards is)."""
    kernels = compiled()
    if kernels is not None and dists.dtype == np.float64 and dists.flags.writeable and dists.flags.c_contiguous:
        return kernels.narrowed(dists, np.array(masks, dtype=np.int64))
    out = dists.copy()
    for pos, mask in enumerate(masks):
        kept = np.where(_CARD_BITS & mask, dists[pos], 0.0)
        total = float(np.cumsum(kept)[-1]) if len(kept) else 0.0
        if total:
            out[pos] = kept / total
    return out


def pairs(dist: np.ndarray) -> list[tuple[int, float]]:
    """One position's distribution as (card index, probability) pairs with a non-zero probability."""
    return [(int(i), float(dist[i])) for i in np.flatnonzero(dist)]

