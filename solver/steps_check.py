"""The engine's check of explanation steps: a step holds when its premises alone leave no world without it.

Independent of the search in :mod:`solver.steps`: a fresh CP-SAT model holds each variable's one-value rule
and, gated by one Boolean each, every rule of the deal, every entry and every given fact. :func:`verify` asks
whether a step's cited premises with its conclusion negated are infeasible; :func:`minimal_premises` finds a
minimal set of premises that forces a fact (the 'case analysis' step, and the closing step of a claim over
several literals); :func:`chain_problem` checks a whole chain: every step verified, and the last one the fact
that was asked (a chain that stops short of it fails); :func:`case_problem` checks a case analysis stated without
a chain (Time Bomb's "these entries together leave no deal with ..."): infeasible, and every entry needed.
"""

from __future__ import annotations

from collections.abc import Sequence

from ortools.sat.python import cp_model

from solver.constraints import Constraint, CountEquals, Lit, NotAll, Problem
from solver.proof import Chain, Claim, Fact, Goal, Premises, Source


class _Model:
    def __init__(self, problem: Problem) -> None:
        self.model = cp_model.CpModel()
        self.x = {lit: self.model.new_bool_var(f"{lit[0]}={lit[1]}") for lit in problem.literals()}
        for var, dom in problem.variables.items():
            self.model.add_exactly_one(self.x[(var, val)] for val in dom)

    def gate(self, constraints: Sequence[Constraint]) -> cp_model.IntVar:
        gate = self.model.new_bool_var("")
        for c in constraints:
            present = [self.x[t] for t in c.terms if t in self.x]
            if isinstance(c, CountEquals):
                self.model.add(sum(present) == c.count).only_enforce_if(gate)
            elif isinstance(c, NotAll) and len(present) == len(c.terms):
                self.model.add_bool_or([v.Not() for v in present]).only_enforce_if(gate)
        return gate

    def fact(self, lit: Lit, value: bool) -> cp_model.IntVar:
        gate = self.model.new_bool_var("")
        x = self.x.get(lit)
        if x is None:  # a literal outside the problem never holds
            if value:
                self.model.add_bool_or([gate.Not()])
            return gate
        self.model.add(x == int(value)).only_enforce_if(gate)
        return gate

    def holds(self, goal: Goal, value: bool = True) -> cp_model.IntVar:
        """A gate that, when on, makes ``goal`` hold (``value`` True) or fail (False)."""
        if isinstance(goal, Fact):
            return self.fact(goal.lit, goal.value == value)
        gate = self.model.new_bool_var("")
        present = [self.x[lit] for lit in goal.lits if lit in self.x]
        if goal.value == value:  # some literal holds
            self.model.add_bool_or(present).only_enforce_if(gate)  # an empty or: the gate cannot be on
        else:
            for x in present:
                self.model.add(x == 0).only_enforce_if(gate)
        return gate

    def infeasible(self, assumptions: Sequence[cp_model.IntVar]) -> tuple[bool, list[int]]:
        self.model.clear_assumptions()
        self.model.add_assumptions(assumptions)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        status = solver.solve(self.model)
        if status == cp_model.INFEASIBLE:
            return True, list(solver.sufficient_assumptions_for_infeasibility())
        return False, []


def _source_constraints(explainer: Premises, source: Source) -> list[Constraint]:
    if source.kind == "rule":
        return [explainer.problem.structure[int(source.index)]]
    if source.kind == "entry":
        return list(explainer.entries[int(source.index)])
    return []  # a variable's one-value rule is in every model


def verify(explainer: Premises, chain: Chain, number: int) -> bool:
    """Whether step ``number`` (1-based) of ``chain`` follows from its cited premises alone."""
    step = chain.steps[number - 1]
    m = _Model(explainer.problem)
    assumptions = [m.gate(_source_constraints(explainer, s)) for s in step.sources]
    for n in step.steps:
        if not 1 <= n < number:
            return False  # a step may only use earlier steps
        assumptions.append(m.holds(chain.steps[n - 1].fact))
    assumptions.append(m.holds(step.fact, False))
    return m.infeasible(assumptions)[0]


def chain_problem(explainer: Premises, chain: Chain, goals: Sequence[Goal]) -> str | None:
    """What is wrong with ``chain`` as the explanation of ``goals`` (None: nothing): its last step must conclude
    the last goal, every goal must be concluded by a step, and every step must follow from what it cites."""
    if not chain.steps:
        return "the chain has no step"
    if not goals:
        return "no goal was asked"
    if chain.steps[-1].fact != goals[-1]:
        return f"the chain stops short: its last step concludes {chain.steps[-1].fact}, not {goals[-1]}"
    concluded = {step.fact for step in chain.steps}
    missing = [g for g in goals if g not in concluded]
    if missing:
        return f"no step concludes {missing[0]}"
    for n in range(1, len(chain.steps) + 1):
        if not verify(explainer, chain, n):
            return f"step {n} does not follow from what it cites: {chain.steps[n - 1].sentence}"
    return None


def minimal_premises(explainer: Premises, target: Goal, facts: Sequence[Fact | Claim], sources: bool = True
                     ) -> tuple[list[Source], list[Fact | Claim]]:
    """A minimal set of rules, entries and known ``facts`` that forces ``target`` (deletion-minimised core);
    without ``sources``, of the facts alone (a ValueError if they do not force it)."""
    m = _Model(explainer.problem)
    items: list[Source | Fact | Claim] = []
    if sources:
        items += [Source("rule", i) for i in range(len(explainer.problem.structure))]
        items += [Source("entry", i) for i in range(len(explainer.entries))]
    items += list(facts)
    gates = [m.gate(_source_constraints(explainer, it)) if isinstance(it, Source) else m.holds(it) for it in items]
    negated = m.holds(target, False)
    infeasible, core = m.infeasible([*gates, negated])
    if not infeasible:
        raise ValueError("the target does not follow from the entries")
    core_set = set(core)
    chosen = [i for i, g in enumerate(gates) if g.Index() in core_set] or list(range(len(gates)))
    i = 0
    while i < len(chosen):
        trial = chosen[:i] + chosen[i + 1:]
        if m.infeasible([*(gates[j] for j in trial), negated])[0]:
            chosen = trial
        else:
            i += 1
    sources = [items[i] for i in chosen if isinstance(items[i], Source)]
    used = [items[i] for i in chosen if not isinstance(items[i], Source)]
    return sources, used  # type: ignore[return-value]


def case_problem(problem: Problem, premises: Sequence[Sequence[Constraint]], case: Sequence[Constraint]) -> str | None:
    """What is wrong with "these ``premises`` leave no world where ``case`` holds" (None: nothing), on a fresh
    model of ``problem``: the premises with the case must be infeasible, and without any one premise feasible
    (the entries named are all needed)."""
    m = _Model(problem)
    rules = m.gate(problem.structure)  # the rules of the deal hold in every world
    gates = [m.gate(p) for p in premises]
    probe = m.gate(case)
    if not m.infeasible([rules, *gates, probe])[0]:
        return "the entries it names leave a world where the case holds"
    for i in range(len(gates)):
        if m.infeasible([rules, *gates[:i], *gates[i + 1:], probe])[0]:
            return f"entry {i + 1} of {len(gates)} it names is not needed"
    return None
