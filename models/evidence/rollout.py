"""Fast greedy playouts for the advisor: a lean copy of a game position, played to the end by greedy players.

The advisor simulates thousands of futures per decision, so it cannot afford the full rules engine (frozen
action objects, observation queues, checks written for clarity). :class:`Playout` holds one position in plain
lists indexed by seat (0-based) and mystery, applies the same rules for the moves greedy players make (play,
uncover, search with the Hot Lead on top and the card limit, time-outs with their tokens and per-player limits,
every professional tool) and scores with the same tie-breakers. Each greedy decision is the one
:func:`models.evidence.bots.greedy_choice` makes from the same information; the tests replay real games move by
move through both and compare them position by position.
"""

from __future__ import annotations

import random

from models.evidence.data import COLOURS, timeouts_allowed
from models.evidence.observations import Action, Card, Done, PlayRumour, Take, ToolUsed, Uncover, UseTimeOut, UseTool
from models.evidence.rules import EXTRA, PLAY, SEARCH, UNCOVER, Table

C = len(COLOURS)
INDEX = {c: i for i, c in enumerate(COLOURS)}


class Playout:
    """One game position (see module docstring). Seats are 0-based here; ``current`` and the results are not."""

    def __init__(
        self,
        table: Table,
        evidence: dict[str, int],
        hands: dict[int, list[Card]],
        piles: dict[int, list[Card]],
        round_: int,
        current: int,
        phase: str,
        resume: int | None = None,
    ) -> None:
        n = table.players
        self.n = n
        self.pro = table.pro
        self.vals_sum = [sum(table.data.values[c]) for c in COLOURS]
        self.vals_n = [len(table.data.values[c]) for c in COLOURS]
        self.disp_sum = [sum(table.displays[c]) for c in COLOURS]
        self.disp_n = [len(table.displays[c]) for c in COLOURS]
        self.evidence = [evidence[c] for c in COLOURS]
        self.hot = [table.stacks[c].hot for c in COLOURS]
        self.reg = [table.stacks[c].regular for c in COLOURS]
        seats = table.seats
        self.art = [[table.articles[s][c] for c in COLOURS] for s in seats]
        self.hl = [[c in table.hot[s] for c in COLOURS] for s in seats]
        self.hand = [[(INDEX[c], v) for c, v in hands[s]] for s in seats]
        self.hand_sum = [[0] * C for _ in seats]
        self.hand_n = [[0] * C for _ in seats]
        for i, cards in enumerate(self.hand):
            for ci, v in cards:
                self.hand_sum[i][ci] += v
                self.hand_n[i][ci] += 1
        self.pile = [[(INDEX[c], v) for c, v in piles.get(s, [])] for s in seats]
        self.tokens = [c in table.timeouts for c in COLOURS]
        self.tools = set(table.tools)
        self.max_extras = timeouts_allowed(n)
        self.extras = [table.extras_used(s) for s in seats]
        self.tools_of = [list(table.tools_of(s)) for s in seats]
        self.looked = [[False] * C for _ in seats]
        for i, s in enumerate(seats):
            for u in table.used[s]:
                if isinstance(u, ToolUsed) and u.tool == "fortune" and u.colour:
                    self.looked[i][INDEX[u.colour]] = True
        self.limit = [table.limit(s) for s in seats]
        self.order = [s - 1 for s in table.seat_order()]
        self.pos = self.order.index(current - 1)
        self.round = round_
        self.cur = current - 1
        self.phase = phase
        # Off-turn advice: ``current`` (me) moves now, out of turn, then the table goes on from ``resume``, the
        # seat whose turn it really is; a seat whose hand (or pile) is empty at its turn plays no card then.
        self.resume = None if resume is None else resume - 1

    def with_world(
        self, evidence: dict[str, int], hands: dict[int, list[Card]], piles: dict[int, list[Card]]
    ) -> Playout:
        """A copy of this position with another hidden world (cheaper than building from the table again)."""
        other = Playout.__new__(Playout)
        other.__dict__.update(self.__dict__)
        for name in ("disp_sum", "disp_n", "hot", "reg", "tokens", "extras", "limit"):
            setattr(other, name, list(getattr(self, name)))
        other.art = [list(a) for a in self.art]
        other.hl = [list(h) for h in self.hl]
        other.looked = [list(lk) for lk in self.looked]
        other.tools_of = [list(t) for t in self.tools_of]
        other.tools = set(self.tools)
        other.evidence = [evidence[c] for c in COLOURS]
        other.hand = [[(INDEX[c], v) for c, v in hands[s + 1]] for s in range(self.n)]
        other.hand_sum = [[0] * C for _ in range(self.n)]
        other.hand_n = [[0] * C for _ in range(self.n)]
        for i, cards in enumerate(other.hand):
            for ci, v in cards:
                other.hand_sum[i][ci] += v
                other.hand_n[i][ci] += 1
        other.pile = [[(INDEX[c], v) for c, v in piles.get(s + 1, [])] for s in range(self.n)]
        return other

    # -- information ------------------------------------------------------------------------------------------
    def means(self, s: int) -> list[float]:
        """Seat ``s``'s evidence means: every rumour it has not seen equally likely (greedy's information)."""
        hs, hn, looked = self.hand_sum[s], self.hand_n[s], self.looked[s]
        vals_sum, vals_n, disp_sum, disp_n = self.vals_sum, self.vals_n, self.disp_sum, self.disp_n
        evidence = self.evidence
        out = []
        for ci in range(C):
            if disp_n[ci] >= 5 or looked[ci]:
                out.append(float(evidence[ci]))
            else:
                out.append((vals_sum[ci] - disp_sum[ci] - hs[ci]) / (vals_n[ci] - disp_n[ci] - hn[ci]))
        return out

    def room(self, s: int) -> int:
        return self.limit[s] - sum(self.art[s]) - len(self.hand[s])

    def _bonus(self, s: int) -> int:
        return 2 if "telescope" in self.tools_of[s] else 1

    # -- moves ------------------------------------------------------------------------------------------------
    def _reveal(self, ci: int, v: int) -> None:
        self.disp_sum[ci] += v
        self.disp_n[ci] += 1

    def play(self, s: int, k: int) -> None:
        ci, v = self.hand[s].pop(k)
        self.hand_sum[s][ci] -= v
        self.hand_n[s][ci] -= 1
        self._reveal(ci, v)

    def uncover(self, s: int, k: int) -> None:
        ci, v = self.pile[s].pop(k)
        self._reveal(ci, v)

    def take(self, s: int, ci: int) -> None:
        if self.hot[ci]:
            self.hot[ci] = False
            self.hl[s][ci] = True
        else:
            self.reg[ci] -= 1
        self.art[s][ci] += 1

    def swap(self, s: int, ci: int, take: list[int]) -> None:
        n = self.art[s][ci]
        self.art[s][ci] = 0
        if self.hl[s][ci]:
            self.hl[s][ci] = False
            self.hot[ci] = True
            self.reg[ci] += n - 1
        else:
            self.reg[ci] += n
        for cj in take:
            self.take(s, cj)

    def best_takes(self, s: int, n: int, means: list[float], exclude: int = -1) -> tuple[list[int], float]:
        """The ``n`` most valuable available cards (as :func:`models.evidence.bots.best_takes`)."""
        bonus = self._bonus(s)
        hot = list(self.hot)
        size = [self.reg[ci] + (1 if self.hot[ci] else 0) for ci in range(C)]
        taken: list[int] = []
        total = 0.0
        for _ in range(n):
            best, value = -1, -1e9
            for ci in range(C):
                if ci != exclude and size[ci]:
                    val = means[ci] + (bonus if hot[ci] else 0)
                    if val > value:
                        best, value = ci, val
            if best < 0:
                break
            hot[best] = False
            size[best] -= 1
            taken.append(best)
            total += value
        return taken, total

    # -- greedy decisions ---------------------------------------------------------------------------------------
    def greedy_search(self, s: int, means: list[float]) -> None:
        """Take the best available card while it is worth more than nothing (inlined :meth:`best_takes`)."""
        room = self.room(s)
        if room <= 0:
            return
        bonus = self._bonus(s)
        hot, reg = self.hot, self.reg
        while room > 0:
            best, value = -1, 0.0
            for ci in range(C):
                if hot[ci]:
                    val = means[ci] + bonus
                elif reg[ci]:
                    val = means[ci]
                else:
                    continue
                if best < 0 or val > value:
                    best, value = ci, val
            if best < 0 or value <= 0:
                return
            self.take(s, best)
            room -= 1

    def extra_options(self, s: int, means: list[float]) -> list[tuple[float, str, int, list[int]]]:
        """(gain, kind, colour index, cards) for every time-out and tool, as :func:`bots.extra_gains`."""
        if self.extras[s] >= self.max_extras:
            return []
        out: list[tuple[float, str, int, list[int]]] = []
        art = self.art[s]
        bonus = self._bonus(s)
        can_swap = self.pro and "timeout" in self.tools
        swappable = [ci for ci in range(C) if art[ci] and (can_swap or (not self.pro and self.tokens[ci]))]
        if swappable:
            # Every available card by value, best first: the order greedy picks them in (a stack's Hot Lead
            # first, ties to the first mystery), so the n best excluding a mystery are the first n of the others.
            cards: list[tuple[float, int]] = []
            most = max(art)
            for ci in range(C):
                hot, reg = self.hot[ci], self.reg[ci]
                if hot:
                    cards.append((-(means[ci] + bonus), ci))
                cards += [(-means[ci], ci)] * min(reg, most)
            cards.sort()
            for ci in swappable:
                n = art[ci]
                picked = [(v, cj) for v, cj in cards if cj != ci][:n]
                if len(picked) < n:
                    continue
                value = -sum(v for v, _ in picked)
                lose = n * means[ci] + (bonus if self.hl[s][ci] else 0)
                out.append((value - lose, "timeout", ci, [cj for _, cj in picked]))
        if not self.pro:
            return out
        owned = [ci for ci in range(C) if art[ci]]
        for tool in sorted(self.tools):
            if tool == "telescope":
                out.append((float(sum(self.hl[s])), tool, -1, []))
            elif tool == "plane":
                out.append((float(sum(1 for ci in owned if art[ci] >= 2)), tool, -1, []))
            elif tool == "fortune":
                covered = [ci for ci in range(C) if self.disp_n[ci] < 5]
                if covered:
                    out.append((1.0, tool, max(covered, key=lambda ci: art[ci]), []))
            elif tool == "typewriter":
                out.append((max((means[ci] for ci in owned), default=0.0) - 1, tool, -1, []))
            elif tool == "balloon":
                take, value = self.best_takes(s, 1, means)
                if take:
                    out.append((value, tool, take[0], []))
        return out

    def use(self, s: int, kind: str, ci: int, take: list[int]) -> None:
        """Apply a time-out (basic: ``kind`` "timeout" with a token) or a tool."""
        self.extras[s] += 1
        if not self.pro:
            self.tokens[ci] = False
            self.swap(s, ci, take)
            return
        self.tools.discard(kind)
        self.tools_of[s].append(kind)
        if kind == "timeout":
            self.swap(s, ci, take)
        elif kind == "balloon":
            self.limit[s] += 1
            self.take(s, ci)
        elif kind == "fortune":
            self.looked[s][ci] = True

    def greedy_extra(self, s: int, means: list[float]) -> None:
        if self.extras[s] >= self.max_extras:
            return
        best = None
        best_gain = 0.0
        for option in self.extra_options(s, means):
            if option[0] > best_gain + 1e-9:
                best, best_gain = option, option[0]
        if best is not None:
            self.use(s, best[1], best[2], best[3])

    # -- the advisor's move, then greedy to the end ---------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """The current player's ``action`` (legal in the real game), then the phase that follows."""
        s = self.cur
        if isinstance(action, Uncover):
            ci = INDEX[action.colour]
            self.uncover(s, next(k for k, (c, _) in enumerate(self.pile[s]) if c == ci))
            self.phase = PLAY
        elif isinstance(action, PlayRumour):
            self.play(s, self.hand[s].index((INDEX[action.colour], action.value)))
            self.phase = SEARCH
        elif isinstance(action, Take):
            self.take(s, INDEX[action.colour])
        elif isinstance(action, Done):
            self.phase = EXTRA if self.phase == SEARCH else "end"
        elif isinstance(action, UseTimeOut):
            self.use(s, "timeout", INDEX[action.colour], [INDEX[c] for c in action.take])
            self.phase = "end"
        elif isinstance(action, UseTool):
            ci = INDEX[action.colour] if action.colour else -1
            self.use(s, action.tool, ci, [INDEX[c] for c in action.take])
            self.phase = "end"

    def finish_turn(self, rng: random.Random) -> None:
        """Greedy for the current player from the current phase to the end of the turn; then the next turn."""
        s = self.cur
        if self.phase == UNCOVER:
            if self.pile[s]:  # empty only after a move out of turn (see ``resume``)
                self.uncover(s, rng.randrange(len(self.pile[s])))
            self.phase = PLAY
        if self.phase == PLAY:
            if self.hand[s]:
                self.play(s, rng.randrange(len(self.hand[s])))
            self.phase = SEARCH
        if self.phase in (SEARCH, EXTRA):
            means = self.means(s)  # the information does not change during a search or a time-out
            if self.phase == SEARCH:
                self.greedy_search(s, means)
            self.greedy_extra(s, means)
        self.next_turn()

    def next_turn(self) -> None:
        if self.resume is not None:  # after a move out of turn: the seat whose turn it is, in the same round
            self.pos, self.resume = self.order.index(self.resume), None
        else:
            self.pos += 1
            if self.pos == self.n:
                self.pos = 0
                self.round += 1
        self.cur = self.order[self.pos]
        self.phase = UNCOVER if self.n == 2 else PLAY

    def greedy_action(self) -> Action:
        """The greedy search or extra decision of the current player now, as an action (for cross-checks)."""
        s = self.cur
        means = self.means(s)
        if self.phase == SEARCH:
            take, value = self.best_takes(s, 1, means)
            return Take(COLOURS[take[0]]) if self.room(s) > 0 and take and value > 0 else Done()
        best = None
        best_gain = 0.0
        for option in self.extra_options(s, means):
            if option[0] > best_gain + 1e-9:
                best, best_gain = option, option[0]
        if best is None:
            return Done()
        gain, kind, ci, take = best
        cards = tuple(sorted((COLOURS[cj] for cj in take), key=COLOURS.index))
        if not self.pro:
            return UseTimeOut(COLOURS[ci], cards)
        return UseTool(kind, COLOURS[ci] if ci >= 0 else None, cards)

    def run(self, rng: random.Random, rounds: int = 6) -> None:
        while self.round <= rounds:
            self.finish_turn(rng)

    # -- the end ------------------------------------------------------------------------------------------------
    def score(self, s: int) -> int:
        art, ev, tools = self.art[s], self.evidence, self.tools_of[s]
        points = sum(art[ci] * ev[ci] for ci in range(C))
        points += sum(self.hl[s]) * (2 if "telescope" in tools else 1)
        if "plane" in tools:
            points += sum(1 for n in art if n >= 2)
        if "fortune" in tools:
            points += 1
        if "typewriter" in tools:
            points += max((ev[ci] for ci in range(C) if art[ci]), default=0) - 1
        return points

    def results(self) -> tuple[list[int], list[int]]:
        """Every seat's final score, and the winning seats (1-based) after the tie-breakers."""
        scores = [self.score(s) for s in range(self.n)]
        keys = [(scores[s], sum(1 for n in self.art[s] if n), max(self.art[s])) for s in range(self.n)]
        best = max(keys)
        return scores, [s + 1 for s in range(self.n) if keys[s] == best]
