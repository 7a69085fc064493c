"""Step-by-step explanations: a chain of small deductions, each checked by the engine, that ends in a fact.

``why`` gives a minimal set of entries that forces a fact; a learner also wants to see *how* it follows. This
module derives the fact by small steps, each a rule a player applies in their head, citing the entries, the
rules of the deal and the earlier steps it uses:

- **one place** (difficulty 1): a hidden card sits in exactly one place, so once it is placed it is nowhere
  else; **stated** (1): an entry names the fact directly (a count of 0 rules out, a count over one literal
  places it);
- **count full** (2): a count that already has all its members rules out every other candidate;
- **only one left** (2): every other value of a variable is ruled out, so the remaining one holds;
- **all needed** (3): a count needs every candidate that is still possible;
- **not all** (3): a "not all of these together" whose other members hold rules out the last one;
- **counts add up** (3): two counts where one's open candidates are among the other's: the difference has
  the difference of their counts, which may be none or all of them;
- **case analysis** (4): when none of the above reaches the fact, one step checks every arrangement the
  cited premises allow (a minimal set, found by CP-SAT), and says so.

The search prefers the chain whose hardest step is easiest: it propagates with the easy rules to a fixpoint
before it uses a harder one, and stops as soon as the target is derived; then it keeps only the steps the
target depends on (so the chain is short). :func:`verify` checks each step independently of the search: its
cited premises alone, with the target negated, have no world (a fresh CP-SAT model).

Games phrase literals, rules and entries through a :class:`Describer`; the default wording is generic.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from solver.constraints import Constraint, CountEquals, Lit, NotAll, Problem
from solver.proof import KINDS, Chain, Claim, Fact, Goal, Source, Step
from solver.steps_check import minimal_premises


class Describer(Protocol):
    """How a game says a fact, a rule of the deal, an entry and a variable's one-value rule."""

    def fact(self, fact: Fact) -> str: ...

    def source(self, source: Source) -> str: ...


@dataclass
class GenericDescriber:
    """Plain wording: ``var is val`` / ``var is not val``; entries by their text; rules by their terms."""

    problem: Problem
    entries: Sequence[Any] = ()

    def fact(self, fact: Fact) -> str:
        var, val = fact.lit
        return f"{var} is {'' if fact.value else 'not '}{val}"

    def source(self, source: Source) -> str:
        if source.kind == "entry":
            return f"entry '{self.entries[int(source.index)]}'"
        if source.kind == "domain":
            return f"{source.index} has exactly one value"
        c = self.problem.structure[int(source.index)]
        terms = ", ".join(f"{v}={w}" for v, w in c.terms[:4]) + (", ..." if len(c.terms) > 4 else "")
        if isinstance(c, CountEquals):
            return f"the deal: exactly {c.count} of {terms}"
        return f"the deal: not all of {terms}"


@dataclass
class _Derived:
    step: Step
    uses: tuple[Fact, ...]  # the facts the step used (their steps are its dependencies)


@dataclass
class _State:
    facts: dict[Lit, bool] = field(default_factory=dict)
    derived: dict[Lit, _Derived] = field(default_factory=dict)


class Explainer:
    """Derives facts step by step from a problem, its structure and a list of observations' constraints."""

    def __init__(self, problem: Problem, entries: Sequence[Sequence[Constraint]], describer: Describer) -> None:
        self.problem = problem
        self.describer = describer
        self.literals = set(problem.literals())
        self.constraints: list[tuple[Constraint, Source]] = []
        for i, c in enumerate(problem.structure):
            self.constraints.append((c, Source("rule", i)))
        for i, constraints in enumerate(entries):
            for c in constraints:
                self.constraints.append((c, Source("entry", i)))
        self.entries = [tuple(cs) for cs in entries]

    # -- the search -----------------------------------------------------------------------------------------
    def chain(self, target: Fact) -> Chain:
        """The chain of small steps that derives ``target`` (which must follow from everything)."""
        return self.chain_all([target])

    def chain_all(self, targets: Sequence[Fact]) -> Chain:
        """One chain that derives every fact of ``targets`` (e.g. every copy of a rumour ruled out of the
        evidence), sharing the steps they have in common."""
        if not targets:
            raise ValueError("chain_all: no target")
        state = _State()
        for limit in (1, 2, 3):
            self._propagate(state, limit, targets)
            if all(t.lit in state.facts for t in targets):
                break
        for target in targets:
            if state.facts.get(target.lit) != target.value:
                if target.lit in state.facts:  # pragma: no cover - the target contradicts the entries
                    raise ValueError(f"{target} contradicts the entries")
                self._case_analysis(state, target)
        return self._extract(state, targets)

    def _propagate(self, state: _State, limit: int, targets: Sequence[Fact]) -> None:
        """Apply the rules of difficulty at most ``limit``, easiest first, until nothing new or the targets."""
        while not all(t.lit in state.facts for t in targets):
            found = None
            for difficulty in range(1, limit + 1):
                found = self._first(state, difficulty)
                if found:
                    break
            if not found:
                return
            for derived in found:
                if derived.step.fact.lit not in state.facts:
                    state.facts[derived.step.fact.lit] = derived.step.fact.value
                    state.derived[derived.step.fact.lit] = derived

    def _first(self, state: _State, difficulty: int) -> list[_Derived]:
        """Every new fact one rule of exactly ``difficulty`` gives now (one constraint's worth, the first found)."""
        facts = state.facts
        for c, source in self.constraints:
            terms = [t for t in c.terms if t in self.literals]
            unknown = [t for t in terms if t not in facts]
            if not unknown:
                continue
            true = [t for t in terms if facts.get(t) is True]
            false = [t for t in terms if facts.get(t) is False]
            if isinstance(c, CountEquals):
                if len(true) == c.count:
                    kind = "stated" if c.count == 0 and not true else "count full"
                    if KINDS[kind] == difficulty:
                        return [self._derive(facts, Fact(t, False), kind, source, true) for t in unknown]
                elif len(true) + len(unknown) == c.count:
                    kind = "stated" if not true and not false and len(terms) == c.count else "all needed"
                    if KINDS[kind] == difficulty:
                        return [self._derive(facts, Fact(t, True), kind, source, [*true, *false]) for t in unknown]
            elif isinstance(c, NotAll) and len(terms) == len(c.terms) and len(unknown) == 1 and len(true) == len(
                    terms) - 1 and difficulty == KINDS["not all"]:
                return [self._derive(facts, Fact(unknown[0], False), "not all", source, true)]
        if difficulty == KINDS["counts add up"]:
            found = self._counts_add_up(facts)
            if found:
                return found
        for var, dom in self.problem.variables.items():
            known = {val: facts[(var, val)] for val in dom if (var, val) in facts}
            open_values = [val for val in dom if (var, val) not in facts]
            if not open_values:
                continue
            placed = [val for val, v in known.items() if v]
            if placed and difficulty == KINDS["one place"]:
                used = [(var, placed[0])]
                return [self._derive(facts, Fact((var, val), False), "one place", Source("domain", var), used)
                        for val in open_values]
            if not placed and len(open_values) == 1 and difficulty == KINDS["only one left"]:
                used = [(var, val) for val in dom if (var, val) in facts]
                return [self._derive(facts, Fact((var, open_values[0]), True), "only one left", Source("domain", var),
                                     used)]
        return []

    def _counts_add_up(self, facts: dict[Lit, bool]) -> list[_Derived]:
        """Facts from two counts, one's open candidates inside the other's (the counts must add up)."""
        counts = []
        for c, source in self.constraints:
            if isinstance(c, CountEquals):
                terms = [t for t in c.terms if t in self.literals]
                unknown = frozenset(t for t in terms if t not in facts)
                if unknown:
                    true = [t for t in terms if facts.get(t) is True]
                    counts.append((unknown, c.count - len(true), source, true, frozenset(terms)))
        for small, r_small, s_small, true_small, terms_small in counts:
            for big, r_big, s_big, true_big, terms_big in counts:
                if not small < big:
                    continue
                rest, r_rest = big - small, r_big - r_small
                if r_rest not in (0, len(rest)):
                    continue
                value = r_rest > 0
                # Ruled-out literals are premises only where they matter: those of the smaller count outside the
                # bigger one (they make it a part of it); those only in the bigger one when the rest are all
                # needed (they shrink the rest). One counted by both cancels out; if the rest is none, a literal
                # already ruled out stays out.
                outside = terms_small - terms_big if not value else terms_small ^ terms_big
                false = sorted(t for t in outside if facts.get(t) is False)
                used = list(dict.fromkeys([*true_small, *true_big, *false]))
                return [_Derived(Step(Fact(t, value), "counts add up", (s_big, s_small), ()),
                                 tuple(Fact(u, facts[u]) for u in used)) for t in sorted(rest)]
        return []

    @staticmethod
    def _derive(facts: dict[Lit, bool], fact: Fact, kind: str, source: Source, used: Iterable[Lit]) -> _Derived:
        return _Derived(Step(fact, kind, (source,), ()), tuple(Fact(lit, facts[lit]) for lit in used))

    def _case_analysis(self, state: _State, target: Fact) -> None:
        """One 'case analysis' step: a minimal set of entries, rules and derived facts that forces ``target``."""
        sources, facts = minimal_premises(self, target, [Fact(lit, v) for lit, v in state.facts.items()])
        derived = _Derived(Step(target, "case analysis", tuple(sources), ()), tuple(facts))
        state.facts[target.lit] = target.value
        state.derived[target.lit] = derived

    def _extract(self, state: _State, targets: Sequence[Fact]) -> Chain:
        """The steps the targets depend on, in derivation order, numbered, with their sentences."""
        needed: list[Lit] = []
        seen: set[Lit] = set()

        def visit(lit: Lit) -> None:
            if lit in seen:
                return
            seen.add(lit)
            for used in state.derived[lit].uses:
                visit(used.lit)
            needed.append(lit)

        for target in targets:
            visit(target.lit)
        number: dict[Lit, int] = {}
        steps: list[Step] = []
        for lit in needed:
            d = state.derived[lit]
            cited = tuple(sorted(number[u.lit] for u in d.uses))
            step = Step(d.step.fact, d.step.kind, d.step.sources, cited)
            steps.append(Step(step.fact, step.kind, step.sources, cited, self.sentence(step, d.uses)))
            number[lit] = len(steps)
        return Chain(steps[-1].fact, tuple(steps), targets=tuple(targets))  # the last step is always a target

    def conclude(self, chain: Chain | None, goals: Sequence[tuple[Goal, str]],
                 given: Mapping[Goal, str] | None = None) -> Chain:
        """``chain`` (None: no step yet) closed by one step for each goal no step concludes yet, so that the
        chain ends in what was asked. A goal is a :class:`Claim` over several literals ("the blue evidence
        cannot be 2": no copy of the 2 is it) or a fact; its step cites a minimal set of rules, entries and
        earlier steps that forces it (found and checked by CP-SAT). ``goals`` pair each goal with its words;
        ``given`` says, per goal, the setup facts it rests on that no variable holds (cards seen at setup), said
        in its step."""
        steps = list(chain.steps) if chain is not None else []
        words = dict(goals)
        for goal, said in goals:
            if any(step.fact == goal for step in steps):
                continue
            known = [step.fact for step in steps]
            aimed = [f for f in (chain.targets if chain is not None else ()) if f in known]
            # The facts the chain was aiming at first, then any of its steps: what a reader has just followed.
            for facts, rules in ((aimed, False), (known, False), (known, True)):
                try:
                    sources, used = minimal_premises(self, goal, facts, sources=rules)
                    break
                except ValueError:
                    continue
            else:
                raise ValueError(f"conclude: {said} does not follow from the entries")
            cited = tuple(sorted({n for n, step in enumerate(steps, start=1) if step.fact in used}))
            stated = (given or {}).get(goal, "")
            parts = [*([stated] if stated else []), *(self.describer.source(src) for src in sources)]
            for n in cited:
                fact = steps[n - 1].fact
                said_before = words.get(fact) if isinstance(fact, Claim) else self.describer.fact(fact)
                parts.append(f"{said_before} (step {n})")
            premises = "; ".join(parts)
            sentence = f"{_capital(premises)}: so {said}." if premises else f"So {said}."
            steps.append(Step(goal, "so the claim", tuple(sources), cited, sentence))
        if not steps:
            raise ValueError("conclude: no goal")
        targets = tuple(dict.fromkeys([*(chain.targets if chain is not None else ()), *(g for g, _ in goals)]))
        return Chain(steps[-1].fact, tuple(steps), targets=targets)

    # -- words ----------------------------------------------------------------------------------------------
    def sentence(self, step: Step, uses: Sequence[Fact]) -> str:
        """The step as a player would say it."""
        d = self.describer
        conclusion = d.fact(step.fact)
        cites = ", ".join(d.source(s) for s in step.sources)
        known = "; ".join(d.fact(u) for u in uses)
        if step.kind == "stated":
            return f"{_capital(cites)} says so directly: {conclusion}."
        if step.kind == "one place":
            return f"{_capital(known)}, and it is in one place only: so {conclusion}."
        if step.kind == "only one left":
            return f"{_capital(cites)}, and every other place is ruled out ({known}): so {conclusion}."
        if step.kind == "count full":
            return f"{_capital(cites)}, and that count is already full ({known}): so {conclusion}."
        if step.kind == "all needed":
            rest = f" ({known})" if known else ""
            return f"{_capital(cites)}, and that count needs every candidate still possible{rest}: so {conclusion}."
        if step.kind == "counts add up":
            first, second = (d.source(s) for s in step.sources)
            rest = f" ({known})" if known else ""
            if step.fact.value:
                return (f"The counts must add up: {first}, and only {second}{rest}; so the others all hold: "
                        f"{conclusion}.")
            return f"The counts must add up: {second}, and {first}{rest}; so nothing else fits: {conclusion}."
        if step.kind == "not all":
            return f"{_capital(cites)} cannot all hold, and the others do ({known}): so {conclusion}."
        premises = cites + (f"; and {known}" if known else "")
        return f"Trying every arrangement that {premises} allow, none has the opposite: so {conclusion}."


def _capital(text: str) -> str:
    """``text`` starting a sentence (a quoted entry keeps its case)."""
    return text[:1].upper() + text[1:] if text[:1].isalpha() else text
