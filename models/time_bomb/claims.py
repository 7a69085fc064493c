"""Time Bomb claims: "exactly K cards of a bomb colour are (not) in play".

Read by the companion session (``why COLOUR K steps``) and by the teacher (:mod:`models.time_bomb.teach`); see
:mod:`solver.claims`. There is no literal-level chain here: the exact count over the hard facts decides a
claim, and a minimal set of entries (a CP-SAT core) forces it, so the explanation is those entries, then the
count.
"""

from __future__ import annotations

from models.time_bomb.counting import InPlay
from models.time_bomb.knowledge import TimeBombKnowledge
from models.time_bomb.observations import COLOUR_NAMES
from solver.claims import Case, Claims, Explained, Key
from solver.errors import AssistantError
from solver.parsing import is_whole
from solver.text import percent


class TimeBombClaims(Claims[TimeBombKnowledge]):
    """The claims over ``knowledge`` (how many cards of each bomb colour are in play)."""

    syntax = "COLOUR COUNT  (how many cards of a bomb colour are in play)"
    example = "red 2"
    focus_name = "the cards in play"

    def decided(self) -> dict[Key, bool]:
        kn = self._knowledge()
        out: dict[Key, bool] = {}
        for colour, dist in kn.in_play().items():
            for k in range(kn.setup.bombs_per_colour + 1):
                p = dist.get(k, 0.0)
                if p == 0.0:
                    out[(colour, k)] = False
                elif p == 1.0:
                    out[(colour, k)] = True
        return out

    def open(self) -> dict[Key, float]:
        return {(c, k): p for c, dist in self._knowledge().in_play().items() for k, p in dist.items()
                if 0.0 < p < 1.0}

    def probability(self, key: Key) -> float:
        colour, k = key  # type: ignore[misc]
        return float(self._knowledge().in_play()[colour].get(k, 0.0))

    def say(self, key: Key, value: bool | None = None) -> str:
        colour, k = key  # type: ignore[misc]
        cards = f"{k} {colour} card{'s' if k != 1 else ''}"
        if value is None:
            return f"exactly {cards} in play"
        if value:
            return f"exactly {cards} {'are' if k != 1 else 'is'} in play"
        return f"there cannot be exactly {cards} in play"

    def text(self, key: Key) -> str:
        colour, k = key  # type: ignore[misc]
        return f"{colour} {k}"

    def parse(self, text: str) -> Key:
        kn = self._knowledge()
        words = text.split()
        if len(words) != 2 or not is_whole(words[1]) or words[1].startswith("-"):
            raise AssistantError(f"'{text}': expected {self.syntax}, e.g. '{self.example}'")
        colour = COLOUR_NAMES.resolve(words[0])
        if colour not in kn.setup.colours:
            raise AssistantError(f"'{text}': {colour} is not a bomb colour of this game")
        k = int(words[1][:9])
        if k > kn.setup.bombs_per_colour:
            raise AssistantError(f"'{text}': there are only {kn.setup.bombs_per_colour} {colour} cards")
        return (colour, k)

    def explain_all(self, claims: dict[Key, bool]) -> Explained:
        key, value = next(iter(claims.items()))
        return self.explain(key, value)

    def explain(self, key: Key, value: bool) -> Explained:
        """The entries that leave no deal with another count (a CP-SAT core each), then the count."""
        kn = self._knowledge()
        colour, k = key  # type: ignore[misc]
        dist = kn.in_play()[colour]
        ruled = [key] if not value else [(colour, j) for j in range(kn.setup.bombs_per_colour + 1)
                                         if j != k and dist.get(j, 0.0) == 0.0]
        lines: list[str] = []
        cases: list[Case] = []
        problem = kn.engine().problem  # the rules of the deal for this layout (built once per layout)
        premises = 0
        for _, j in ruled:  # type: ignore[misc]
            what = InPlay(colour, j)
            found = kn.explain_whatif(what)
            core = found or []  # None (CP-SAT finds a deal the count does not) fails the case's check
            premises = max(premises, len(core))
            facts = "; ".join(f.located() for f in core) if core else "the setup alone (how many cards are removed)"
            cases.append(Case(problem, tuple(kn.fact_constraints[f.index] for f in core),
                              (kn._constraint(kn.layout, what)[0],), what, len(lines)))
            lines.append(f"{len(lines) + 1}. These entries together leave no deal with {j} {colour} in play: "
                         f"{facts}. [case analysis]")
        shown = ", ".join(f"{j}: {percent(p)}" for j, p in sorted(dist.items()))
        note = (f"No short chain of single-card steps: the hard facts' exact count of deals decides it "
                f"({colour} cards in play: {shown}).")
        lines.append(f"{len(lines) + 1}. {note} So {self.say(key, value)}. [counting]")
        return Explained(tuple(lines), note=note, level=2 if premises <= 2 and len(ruled) == 1 else 3,
                         cases=tuple(cases))
