"""The knowledge state: what one player knows, as a CP-SAT model gated by one Boolean per observation.

Each observation compiles to constraints (:mod:`solver.constraints`) enforced only when its own literal is
assumed. So *undo* drops a literal, a *what-if* is an observation flagged hypothetical, *why* is an
infeasibility core over the literals (shrunk to a minimal one), and a *contradiction* is a core that names the
earlier observations the new one cannot live with. Counting worlds is delegated to a :class:`Counter`,
because CP-SAT finds worlds but does not count them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from solver.constraints import Constraint, CountEquals, Lit, NotAll, Problem, World
from solver.errors import ContradictionError

if TYPE_CHECKING:  # imported where a model is built or solved: OR-Tools pulls in pandas (about 0.5 s of CPU)
    from ortools.sat.python import cp_model

Obs = TypeVar("Obs")


@dataclass(frozen=True)
class Count:
    """World count and per-literal world weights (for the literals the counter covers).

    ``exact`` is False when the counter ran out of budget and extrapolated; ``stderr`` is then the standard
    error of ``worlds`` and ``note`` says how the estimate was made.
    """

    worlds: float
    weights: dict[Lit, float]
    exact: bool = True
    stderr: float = 0.0
    note: str = ""

    def probability(self, lit: Lit) -> float:
        return self.weights.get(lit, 0.0) / self.worlds if self.worlds else 0.0


class Counter(Protocol):
    """Counts the worlds of ``problem`` (its structure included) that satisfy ``constraints`` too."""

    def __call__(self, problem: Problem, constraints: Sequence[Constraint], budget: float) -> Count: ...


@dataclass
class Entry(Generic[Obs]):
    observation: Obs
    constraints: tuple[Constraint, ...]
    hypothetical: bool = False


@dataclass(frozen=True)
class Explanation(Generic[Obs]):
    """Why a literal is impossible, certain, or still open; ``reasons`` is a minimal forcing set."""

    lit: Lit
    status: str  # "impossible" | "certain" | "open"
    reasons: tuple[Obs, ...] = ()
    example: World | None = None


def _solver() -> cp_model.CpSolver:
    from ortools.sat.python import cp_model
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.cp_model_presolve = False
    return solver


@dataclass
class _Compiled:
    model: cp_model.CpModel
    x: dict[Lit, cp_model.IntVar]
    gates: list[cp_model.IntVar] = field(default_factory=list)


class Exact(Protocol):
    """What an exact world count tells :class:`Knowledge` about the current state, so that it solves less.

    Both answers must agree with CP-SAT exactly; a count that cannot tell says so (None, False)."""

    def allowed(self) -> set[Lit] | None:
        """Every literal some consistent world of the current state makes true, or None if it cannot tell
        (or no world is left: the cover loop then reports the inconsistency)."""
        ...

    def consistent(self, observed: Sequence[Constraint]) -> bool:
        """True if some world satisfies the structure and ``observed`` (every entry's constraints in order,
        a candidate's last); False if none does or it cannot tell (a solve then decides and finds the core)."""
        ...


class Knowledge(Generic[Obs]):
    """A player's knowledge: a problem plus an ordered list of observations (facts and what-ifs)."""

    def __init__(
        self,
        problem: Problem,
        compile_observation: Callable[[Obs], Sequence[Constraint]],
        counter: Counter | None = None,
        count_budget: float = 2.0,
        ruled_out: Callable[[], Iterable[Lit]] | None = None,
        exact: Exact | None = None,
    ) -> None:
        """``ruled_out``, if given, names literals an exact count has proven impossible in the current state
        (none if it cannot tell): :meth:`possible` then spends no solve proving them (its result is the same).
        ``exact``, if given, answers from an exact count what CP-SAT would otherwise solve for (:class:`Exact`):
        :meth:`possible` and :meth:`add` then need no solve at all when it can tell (their results are the same)."""
        self.problem = problem
        self._ruled_out = ruled_out
        self._exact = exact
        self._compile_observation = compile_observation
        self._counter: Counter = counter or enumerate_count
        self.count_budget = count_budget
        self.entries: list[Entry[Obs]] = []
        self._impossible: set[Lit] = set()  # stays valid while observations are only added
        self._pool: list[dict[str, str]] = []
        self._cache: dict[str, object] = {}
        self._compiled = self._compile()
        self._questions = 0  # inactive question gates in the model since it was last built
        self.last_solve_count = 0

    # -- building -------------------------------------------------------------------------------------------
    def _compile(self) -> _Compiled:
        from ortools.sat.python import cp_model
        model = cp_model.CpModel()
        x = {lit: model.new_bool_var(f"{lit[0]}={lit[1]}") for lit in self.problem.literals()}
        for var, dom in self.problem.variables.items():
            model.add_exactly_one(x[(var, val)] for val in dom)
        compiled = _Compiled(model, x)
        for c in self.problem.structure:
            self._encode(compiled, c, None)
        for entry in self.entries:
            compiled.gates.append(self._gate(compiled, entry.constraints))
        return compiled

    def _gate(self, compiled: _Compiled, constraints: Sequence[Constraint]) -> cp_model.IntVar:
        gate = compiled.model.new_bool_var(f"obs{len(compiled.gates)}")
        for c in constraints:
            self._encode(compiled, c, gate)
        return gate

    @staticmethod
    def _encode(compiled: _Compiled, c: Constraint, gate: cp_model.IntVar | None) -> None:
        present = [compiled.x[t] for t in c.terms if t in compiled.x]
        if isinstance(c, CountEquals):
            ct = compiled.model.add(sum(present) == c.count)
        elif isinstance(c, NotAll):
            if len(present) < len(c.terms):
                return  # some literal can never be true: the constraint always holds
            ct = compiled.model.add_bool_or([v.Not() for v in present])
        else:  # pragma: no cover - the union is closed
            raise TypeError(c)
        if gate is not None:
            ct.only_enforce_if(gate)

    def _invalidate(self, removed: bool) -> None:
        self._cache.clear()
        if removed:
            self._impossible.clear()
            self._compiled = self._compile()

    # -- observations ---------------------------------------------------------------------------------------
    @property
    def facts(self) -> list[Obs]:
        return [e.observation for e in self.entries if not e.hypothetical]

    @property
    def whatifs(self) -> list[Obs]:
        return [e.observation for e in self.entries if e.hypothetical]

    def constraints(self) -> list[Constraint]:
        return list(self.problem.structure) + [c for e in self.entries for c in e.constraints]

    def add(self, observation: Obs, hypothetical: bool = False, check: bool = True) -> None:
        """Add an observation; raise :class:`ContradictionError` (state unchanged) if it conflicts.

        ``check=False`` skips the consistency solve, for callers that know the observation is true (a
        simulation feeding a bot what the rules engine emitted; soundness is checked there separately).
        """
        from ortools.sat.python import cp_model
        constraints = tuple(self._compile_observation(observation))
        gate = self._gate(self._compiled, constraints)
        status = cp_model.FEASIBLE
        if check:
            observed = [c for e in self.entries for c in e.constraints] + list(constraints)
            if self._exact is None or not self._exact.consistent(observed):  # no worlds: the solve finds the core
                status = self._solve(self._compiled.gates + [gate])[0]
        if status == cp_model.INFEASIBLE:
            core = self._minimal_core(list(range(len(self.entries))), [gate])
            self._compiled = self._compile()  # drop the rejected gate
            raise ContradictionError(observation, [self.entries[i].observation for i in core])
        self._compiled.gates.append(gate)
        self.entries.append(Entry(observation, constraints, hypothetical))
        self._invalidate(removed=False)

    def undo(self) -> Obs:
        """Remove the most recent observation (fact or what-if) and return it."""
        if not self.entries:
            raise IndexError("nothing to undo")
        entry = self.entries.pop()
        self._invalidate(removed=True)
        return entry.observation

    def clear_whatifs(self) -> list[Obs]:
        dropped = self.whatifs
        if dropped:
            self.entries = [e for e in self.entries if not e.hypothetical]
            self._invalidate(removed=True)
        return dropped

    # -- solving --------------------------------------------------------------------------------------------
    def _solve(
        self, assumptions: Sequence[cp_model.IntVar], objective: list[cp_model.IntVar] | None = None
    ) -> tuple[int, dict[str, str] | None]:
        from ortools.sat.python import cp_model
        model = self._compiled.model
        model.clear_assumptions()
        model.add_assumptions(assumptions)
        if objective:
            model.maximize(sum(objective))
        solver = _solver()
        status = solver.solve(model)
        self.last_solve_count += 1
        self._last_solver = solver
        if objective:
            model.clear_objective()
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            world = {var: val for (var, val), v in self._compiled.x.items() if solver.boolean_value(v)}
            return status, world
        return status, None

    def _minimal_core(self, candidates: list[int], extra: Sequence[cp_model.IntVar], solved: bool = False) -> list[int]:
        """Indices of a minimal subset of the entries ``candidates`` that, with ``extra``, is infeasible
        (``solved``: the last solve was of exactly these assumptions and found them infeasible)."""
        from ortools.sat.python import cp_model
        gates = self._compiled.gates
        if not solved:
            status, _ = self._solve([gates[i] for i in candidates] + list(extra))
            if status != cp_model.INFEASIBLE:
                raise RuntimeError("asked for the core of a feasible set")
        suff = set(self._last_solver.sufficient_assumptions_for_infeasibility())
        core = [i for i in candidates if gates[i].Index() in suff]
        status, _ = self._solve([gates[i] for i in core] + list(extra))
        if status != cp_model.INFEASIBLE:  # a core is sufficient by contract; be safe if it is not
            core = list(candidates)
        i = 0
        while i < len(core):
            trial = core[:i] + core[i + 1 :]
            if self._solve([gates[j] for j in trial] + list(extra))[0] == cp_model.INFEASIBLE:
                core = trial
            else:
                i += 1
        return core

    def _holds(self, world: World) -> bool:
        return all(c.holds(world) for c in self.constraints())

    # -- queries --------------------------------------------------------------------------------------------
    def possible(self, solve: bool = False) -> dict[str, frozenset[str]]:
        """Every value some consistent world gives each variable: sound and complete (cover loop), or read off the
        exact count (:class:`Exact`) if there is one, unless ``solve`` asks for CP-SAT's own answer (a soundness
        check independent of the count)."""
        from ortools.sat.python import cp_model
        key = "possible-solved" if solve else "possible"
        if key in self._cache:
            return self._cache[key]  # type: ignore[return-value]
        self._pool = [w for w in self._pool if self._holds(w)]
        allowed = self._exact.allowed() if self._exact is not None and not solve else None
        if allowed is not None:  # an exact count knows every literal some world allows: nothing to solve
            result = {var: frozenset(val for val in dom if (var, val) in allowed)
                      for var, dom in self.problem.variables.items()}
            self._cache["possible"] = result
            return result
        if self._ruled_out is not None:
            self._impossible.update(self._ruled_out())
        seen: set[Lit] = {(var, val) for w in self._pool for var, val in w.items()}
        unknown = [lit for lit in self.problem.literals() if lit not in seen and lit not in self._impossible]
        gates = self._compiled.gates
        while unknown:
            status, world = self._solve(gates, [self._compiled.x[lit] for lit in unknown])
            if world is None:
                raise RuntimeError("the knowledge state has no consistent world")
            self._pool.append(world)
            covered = {lit for lit in unknown if world[lit[0]] == lit[1]}
            if not covered:
                if status != cp_model.OPTIMAL:
                    raise RuntimeError("the cover loop could not prove the remaining values impossible")
                self._impossible.update(unknown)
                break
            seen.update(covered)
            unknown = [lit for lit in unknown if lit not in covered]
        result = {
            var: frozenset(val for val in dom if (var, val) in seen) for var, dom in self.problem.variables.items()
        }
        self._cache[key] = result
        self._cache.setdefault("possible", result)
        return result

    def certain(self) -> dict[str, str]:
        return {var: next(iter(vals)) for var, vals in self.possible().items() if len(vals) == 1}

    def is_possible(self, lit: Lit) -> bool:
        return lit[1] in self.possible().get(lit[0], frozenset())

    def find(self, constraints: Sequence[Constraint]) -> dict[str, str] | None:
        """A consistent world that also satisfies ``constraints`` (a question, not an observation), or None.

        Pooled worlds are tried first; otherwise one solve. The question's gate is left unassumed (inactive)
        in the model, which is rebuilt once such gates pile up.
        """
        for world in self._pool:
            if all(c.holds(world) for c in constraints) and self._holds(world):
                return dict(world)
        gate = self._gate(self._compiled, constraints)
        _, world = self._solve(self._compiled.gates + [gate])
        self._questions += 1
        if self._questions > 64:
            self._questions = 0
            self._compiled = self._compile()
        if world is not None:
            self._pool.append(world)
        return world

    def core_against(self, constraints: Sequence[Constraint]) -> list[Obs] | None:
        """A minimal set of observations that ``constraints`` cannot live with, or ``None`` if they can.

        The same answer as adding ``constraints`` as a what-if and undoing it, without rebuilding the model
        (an undo recompiles it): the question's gate is left unassumed, as :meth:`find` leaves its gates.
        """
        from ortools.sat.python import cp_model
        gate = self._gate(self._compiled, constraints)
        everything = list(range(len(self.entries)))
        core = None
        if self._solve(self._compiled.gates + [gate])[0] == cp_model.INFEASIBLE:
            core = [self.entries[i].observation for i in self._minimal_core(everything, [gate], solved=True)]
        self._questions += 1
        if self._questions > 64:
            self._questions = 0
            self._compiled = self._compile()
        return core

    def example(self) -> dict[str, str]:
        self.possible()
        if not self._pool:  # (an exact count answered possible() without finding worlds)
            return self.find([]) or {}
        return dict(self._pool[-1])

    def count(self) -> Count:
        """World count and literal weights under a uniform prior, exact or an estimate within budget."""
        if "count" not in self._cache:
            observed = [c for e in self.entries for c in e.constraints]
            self._cache["count"] = self._counter(self.problem, observed, self.count_budget)
        return self._cache["count"]  # type: ignore[return-value]

    def explain(self, lit: Lit) -> Explanation[Obs]:
        """Why ``lit`` is impossible or certain (a minimal set of observations), or an example if open."""
        var, val = lit
        x = self._compiled.x.get(lit)
        everything = list(range(len(self.entries)))
        if x is None or not self.is_possible(lit):
            if x is None:
                return Explanation(lit, "impossible")
            core = self._minimal_core(everything, [x])
            return Explanation(lit, "impossible", tuple(self.entries[i].observation for i in core))
        if self.possible()[var] == frozenset({val}):
            core = self._minimal_core(everything, [x.Not()])
            return Explanation(lit, "certain", tuple(self.entries[i].observation for i in core))
        _, world = self._solve(self._compiled.gates + [x])
        return Explanation(lit, "open", (), world)


def enumerate_count(problem: Problem, constraints: Sequence[Constraint], budget: float) -> Count:
    """Generic counter: enumerate every world with CP-SAT. Exact when it finishes within ``budget`` seconds;
    otherwise the count is a lower bound and ``exact`` is False (there is no unbiased estimate here)."""
    from ortools.sat.python import cp_model
    everything = Problem(problem.variables, tuple(problem.structure) + tuple(constraints))
    kn: Knowledge[None] = Knowledge(everything, lambda _o: ())
    model, x = kn._compiled.model, kn._compiled.x
    weights: dict[Lit, float] = dict.fromkeys(x, 0.0)
    total = [0]
    start = time.perf_counter()

    class _Cb(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            total[0] += 1
            for lit, v in x.items():
                if self.boolean_value(v):
                    weights[lit] += 1
            if time.perf_counter() - start > budget:
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    status = solver.solve(model, _Cb())
    exact = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    note = "" if exact else f"enumeration stopped after {budget:.1f} s: the count is a lower bound"
    return Count(float(total[0]), weights, exact, 0.0, note)
