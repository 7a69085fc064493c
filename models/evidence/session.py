"""The Evidence companion session (``assist evidence``).

It follows the shared pattern (:class:`solver.session.BaseSession`): ``EvidenceSession.handle(line)`` turns a
typed line into a :class:`~solver.session.Reply` of view data (:mod:`solver.view`, built in
:mod:`models.evidence.views`; the terminal and the web page draw it), raises :class:`~solver.errors.AssistantError`
for a bad line (nothing changes), and keeps the journal of accepted entries (rewritten atomically by
:class:`~solver.session.Journal`). The terminal loop, piped stdin, file replay and Ctrl-C recovery are the command
line's.

What the user types is what happens at the table (:mod:`models.evidence.observations`): the setup (players,
my seat, the rumours revealed at setup, my hand, everyone's per-colour hand counts), then every rumour played
or uncovered, every evidence uncovered, search cards taken, time-outs and tools; ``me`` may stand for my seat.
After every entry it shows each mystery's possible evidence values with their exact probabilities and every
player's expected score for the search cards they hold.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from models.evidence import ENTRY, choices, compiled
from models.evidence.advisor import candidates, evaluate
from models.evidence.claims import EvidenceClaims
from models.evidence.data import COLOURS
from models.evidence.inference import GreedyOpponents
from models.evidence.knowledge import EvidenceKnowledge, TableSetup
from models.evidence.observations import (
    SETUP_TYPES,
    VALUE_RANGE,
    Done,
    Entry,
    PlayRumour,
    Take,
    Uncover,
    colour_of,
    parse,
)
from models.evidence.rules import EXTRA, PLAY, SEARCH, UNCOVER, extra_actions
from models.evidence.turns import EVIDENCE_STEP, TurnOrder
from models.evidence.views import (
    advice_table,
    brief_view,
    describe_change,
    drawn_view,
    help_view,
    mysteries_table,
    players_table,
)
from solver import view as v
from solver.claims import why_steps
from solver.errors import AssistantError
from solver.parsing import parse_int
from solver.session import BaseSession, Choice, Command, Journal, Reply, SetupQuestion, with_seat
from solver.text import off_turn

GAME = ENTRY.name
JOURNAL_HEADER = ENTRY.header
ADVICE_SHOWN = 8
ADVICE_SAMPLES = 96
MAX_ADVICE_SAMPLES = 1000  # about 4 s of advice in round 3 of examples/evidence-4p.txt (96: 0.3 s)

COMMANDS: dict[str, tuple[str, ...]] = {
    "help": ("help", "h", "?"),
    "quit": ("quit", "exit", "q"),
    "show": ("show", "state", "s"),
    "undo": ("undo", "u"),
    "why": ("why",),
    "history": ("history", "hist"),
    "edit": ("edit",),
    "drop": ("drop",),
    "advise": ("advise", "advice", "hint"),
}
COMMAND_OF = {alias: name for name, aliases in COMMANDS.items() for alias in aliases}
ENTRY_VERBS = ("players", "me", "variant", "start", "values", "setup", "hand", "holds", "unknown", "play", "reveal",
               "evidence", "look", "search", "timeout", "tool")
SEAT_VERBS = ("holds", "unknown", "play", "reveal", "search", "take", "timeout", "tool")


class Question(SetupQuestion):
    """One step of the setup dialogue; an answer starting with a command or an entry verb passes through."""

    KEYWORDS = frozenset([*COMMAND_OF, *ENTRY_VERBS])


@dataclass(frozen=True)
class Turn:
    """Where the game stands: the round, the seat to move and its step (``over`` once round 6 is done;
    ``evidence``, with its ``colour``, when an evidence just uncovered must be entered first)."""

    round: int
    seat: int | None
    phase: str
    colour: str | None = None

    def describe(self, me: int) -> str:
        if self.phase == EVIDENCE_STEP:
            return f"enter the {self.colour} evidence just uncovered ('evidence {self.colour} VALUE')"
        if self.seat is None:
            return "the game is over: enter the uncovered evidence to see the final scores"
        who = "your turn" if self.seat == me else f"player {self.seat}'s turn"
        step = {UNCOVER: "uncover an unknown rumour", PLAY: "play a rumour", SEARCH: "search (or stop)",
                EXTRA: "time-out / tool (or stop)"}[self.phase]
        return f"round {self.round}, {who}: {step}"


class EvidenceSession(BaseSession):
    """One player's Evidence companion: setup, what happens at the table, the journal."""

    COMMAND_OF = COMMAND_OF
    ENTRY_WORDS = ENTRY_VERBS

    def __init__(self, journal: Journal | None = None, count_budget: float = 2.0, warm_up: bool = True) -> None:
        """``warm_up``: start loading the advisor's compiled loops in the background now, while the player types
        the setup (:mod:`models.evidence.compiled`); the teacher, which advises at once, loads them itself."""
        super().__init__(journal, count_budget)  # count_budget unused: the counts here are always exact and fast
        self.setup = TableSetup()
        self.knowledge: EvidenceKnowledge | None = None
        self.model: GreedyOpponents | None = None  # 'advise greedy': the others modelled as the greedy bot
        self.order: TurnOrder | None = None  # whose turn, which step: every entry is checked against it
        self.warm_up = warm_up
        if warm_up:
            compiled.start()

    # -- the loop -------------------------------------------------------------------------------------------
    def _help_view(self) -> v.View:
        return help_view()

    def fresh(self) -> EvidenceSession:
        return EvidenceSession(None, self.count_budget, self.warm_up)

    def _commands(self, show: bool) -> dict[str, Command]:
        return {"why": self._why, "advise": self._advise}

    def _entry(self, tokens: list[str], show: bool) -> Reply:
        entry = parse(with_seat(tokens, SEAT_VERBS, self.setup.me))
        before = self.knowledge.distribution() if self.knowledge is not None and show else None

        def reply() -> Reply:
            summary = f"recorded '{entry}'"
            if self.knowledge is not None and isinstance(entry, SETUP_TYPES):
                summary = f"setup complete; {summary}"
            if not show:
                return Reply([], True, summary=summary)
            change = describe_change(before, self.knowledge.distribution()) if before and self.knowledge else ""
            head = f"{summary}; {change}" if change else summary
            return Reply([self.state_view(head)], True, summary=head)

        return self._accept(str(entry), lambda: self._add(entry), reply)

    def _add(self, entry: Entry) -> None:
        if isinstance(entry, SETUP_TYPES):
            if self.knowledge is not None:
                raise AssistantError(f"'{entry}': the game has started; undo back to the setup to change it")
            setup = _copy_setup(self.setup)
            setup.apply(entry)
            if setup.complete():
                self.knowledge = EvidenceKnowledge(setup)  # checks the per-colour totals
                self.model = GreedyOpponents(self.knowledge, random.Random(0))
                self.order = TurnOrder.of(self.knowledge.table)
            self.setup = setup
            return
        kn = self._require(f"'{entry}'")
        assert self.order is not None
        self.order.check(entry, kn.table)  # turn and phase first: the rule a player broke, not a consequence
        if self.model is not None:
            self.model.observe(entry, kn)
        else:
            kn.add(entry)
        self.order.record(entry, kn.table)

    def _require(self, what: str) -> EvidenceKnowledge:
        if self.knowledge is None:
            raise AssistantError(f"{what}: finish the setup first, still need {'; '.join(self.setup.missing())}")
        return self.knowledge

    # -- where the game stands ------------------------------------------------------------------------------
    def turn(self) -> Turn:
        """Whose move it is and its step (:meth:`models.evidence.turns.TurnOrder.now`): after my own rumour my
        turn goes on (search, then a time-out or tool) while I have something to do; after another player's, the
        next player is to move."""
        kn = self._require("turn")
        assert self.order is not None
        step = self.order.now(kn.table, kn.me)
        return Turn(step.round, step.seat, step.phase, step.colour)

    # -- setup dialogue -------------------------------------------------------------------------------------
    def table_ranges(self) -> dict[str, tuple[int, int]]:
        return {"seat": (1, self.setup.players)} if self.setup.players else {}

    def missing_setup(self) -> str:
        return "; ".join(self.setup.missing())

    def setup_question(self) -> Question | None:
        s = self.setup
        if self.knowledge is not None:
            return None
        if s.players is None:
            return Question("Number of players (2-5): ", "players")
        if s.me is None:
            return Question(f"Your seat (1-{s.players}): ", "me")
        if not any(line.startswith("variant ") for line in self.lines):  # journalled: a resume knows the rules
            return Question("Variant: basic or pro (the professional rules, with the tools)? ", "variant")
        if not any(line.startswith("start ") for line in self.lines):
            return Question(f"Who starts (seat 1-{s.players})? ", "start")
        k = s.data.setup_revealed[s.players]
        have = Counter(c for c, _ in s.setup_cards)
        if k and any(have[c] < k for c in COLOURS):
            short = [c for c in COLOURS if have[c] < k]
            return Question(f"Rumours revealed at setup ({k} per mystery; still {', '.join(short)}), "
                            f"e.g. 'white 3 blue 0': ", "setup")
        if s.hand is None:
            return Question("Your six rumours (e.g. 'white 2 blue -1 pink 4 ...'): ", "hand")
        for seat in s.others():
            if seat not in s.holds:
                return Question(f"Player {seat}'s rumours by colour (e.g. 'white 2 blue 1 brown 3'): ",
                                f"holds {seat}")
        if s.players == 2:
            for seat in (1, 2):
                if seat not in s.unknown:
                    who = "your" if seat == s.me else f"player {seat}'s"
                    return Question(f"Back colours of {who} unknown rumours (e.g. 'yellow 2 green 4'): ",
                                    f"unknown {seat}")
        return None

    # -- views ----------------------------------------------------------------------------------------------
    def state_view(self, head: str | None) -> v.View:
        parts: list[v.View] = []
        if head:
            parts.append(v.Text(head, "strong"))
        kn = self.knowledge
        if kn is None:
            parts.append(v.Text(f"setup: still need {'; '.join(self.setup.missing())}"))
            return v.Group(*parts)
        parts.append(mysteries_table(kn))
        parts.append(players_table(kn))
        parts.append(v.Text("Next: " + self.turn().describe(kn.me), "accent"))
        return v.Group(*parts)

    def drawn_view(self) -> v.View:
        """The table drawn (:func:`models.evidence.views.drawn_view`)."""
        kn = self._require("show")
        turn = self.turn()
        return drawn_view(kn, turn.seat, turn.describe(kn.me))

    def state(self, brief: bool = False) -> list[v.View]:
        """The table drawn above the state at a glance (its tables carry the means and ranges the drawing
        leaves out), once the setup is complete."""
        if brief or self.knowledge is None:
            return super().state(brief)
        return [self.drawn_view(), self.state_view(None)]

    def _show_reply(self) -> Reply:
        return Reply(self.state())

    def brief_view(self) -> v.View:
        """One screen: each mystery's possible values, each player's expected score, and what comes next."""
        kn = self.knowledge
        if kn is None:
            return v.Text(f"setup: still need {'; '.join(self.setup.missing())}")
        return brief_view(kn, self.turn().describe(kn.me))

    def _why(self, args: list[str]) -> v.View:
        usage = "why COLOUR [VALUE] [steps]"
        kn = self._require("why")
        steps = bool(args) and args[-1].lower() == "steps"
        args = args[:-1] if steps else args
        if not args or len(args) > 2 or (steps and len(args) != 2):
            raise AssistantError(f"why: expected '{usage}'")
        colour = colour_of(args[0])
        if len(args) == 2:
            value = parse_int(args[1], "why: value", *VALUE_RANGE)
            if steps:
                claims = EvidenceClaims(kn)
                return v.Text(why_steps(claims, claims.parse(" ".join(args))))
            return v.Text(str(kn.why(colour, value)))
        lines = [v.Text(str(kn.why(colour, value))) for value in kn.data.distinct_values(colour)]
        return v.Group(v.Text(f"{colour} ({kn.data.names[colour]}):", "strong"), *lines)

    def _advise(self, args: list[str]) -> v.View:
        usage = "advise [all] [extra] [greedy] [samples N]"
        kn = self._require("advise")
        words = [a.lower() for a in args]
        show_all = "all" in words
        extra = "extra" in words
        greedy = "greedy" in words
        words = [w for w in words if w not in ("all", "extra", "greedy")]
        samples = ADVICE_SAMPLES
        if words[:1] == ["samples"] and len(words) == 2:
            samples = parse_int(words[1], "advise samples", 1, MAX_ADVICE_SAMPLES)
        elif words:
            raise AssistantError(f"advise: unexpected '{' '.join(args)}', expected '{usage}'")
        turn = self.turn()
        if turn.phase == EVIDENCE_STEP:
            raise AssistantError(f"advise: first {turn.describe(kn.me)}")
        if turn.seat is None:
            raise AssistantError("advise: the game is over")
        parts: list[v.View] = []
        phase = turn.phase
        mine = turn.seat == kn.me
        if not mine:  # as in every game: what I would do if I moved now
            parts.append(v.Text(off_turn(turn.seat, f"you move now, then play goes on from player {turn.seat}; "
                                                    "whoever has no rumour left at their turn plays none"), "muted"))
            phase = UNCOVER if kn.players == 2 and legal_for(kn, UNCOVER) else PLAY
        phases = [phase] if not extra else [EXTRA]
        if phase == SEARCH and not extra:
            phases.append(EXTRA)
        for phase in phases:
            legal = legal_for(kn, phase)
            options = candidates(kn, phase, legal)
            if len(options) <= 1 and phase == EXTRA and phases[0] != EXTRA:
                continue
            if not options:
                parts.append(v.Text(f"nothing to {phase} now: you have no {'unknown ' * (phase == UNCOVER)}"
                                    "rumour left", "muted"))
                continue
            model = self.model if greedy else None
            # Off-turn: my move now, out of turn, then the table goes on from the seat whose turn it is.
            ranked = evaluate(kn, turn.round, phase, options, samples, random.Random(0), rounds=3, model=model,
                              wait=False, resume=None if mine else turn.seat)
            parts.append(advice_table(ranked, phase, None if show_all else ADVICE_SHOWN, kn.me if mine else None))
        source = ("deals where every other player's searches so far are what a greedy player would have done "
                  "(a model of the others, not a fact)" if greedy else "your exact knowledge")
        parts.append(v.Text(
            f"Each option is played out in the same sampled futures (the hidden rumours dealt from {source}, then "
            "every player greedy from their own information). Win: share of futures you win; lead: your score "
            "minus the best other score.", "muted"))
        return v.Group(*parts)

    def summary(self) -> dict[str, object]:
        """The current state as plain data (``analyze --json``)."""
        kn = self._require("analyze")
        t = kn.table
        dist = kn.distribution()
        turn = self.turn()
        return {
            "game": GAME,
            "players": kn.players,
            "me": kn.me,
            "variant": "pro" if t.pro else "basic",
            "evidence": {c: {str(v): p for v, p in dist[c].items()} for c in COLOURS},
            "evidence_mean": kn.means(),
            "expected_scores": {
                str(s): {"mean": e.mean, "sd": e.sd, "low": e.low, "high": e.high}
                for s, e in kn.expected_scores().items()
            },
            "search_cards": {
                str(s): {"articles": {c: n for c, n in t.articles[s].items() if n}, "hot_leads": sorted(t.hot[s])}
                for s in t.seats
            },
            "hand": [f"{c} {v}" for c, v in kn.hand],
            "turn": {"round": turn.round, "seat": turn.seat, "phase": turn.phase},
            "entries": list(self.lines),
        }

    # -- the legal next words (models.evidence.choices) ----------------------------------------------------
    def _entry_choices(self, words: list[str]) -> list[Choice]:
        return choices.choices(self, words)

    def _command_args(self, command: str, words: list[str]) -> list[Choice]:
        return choices.command_args(self, command, words)


def _copy_setup(setup: TableSetup) -> TableSetup:
    """A copy to apply one entry to (TableSetup.apply may fail half-way)."""
    return TableSetup(
        setup.players, setup.me, setup.pro, setup.start, setup.data, list(setup.setup_cards), setup.hand,
        {s: Counter(c) for s, c in setup.holds.items()}, {s: Counter(c) for s, c in setup.unknown.items()},
    )


def legal_for(kn: EvidenceKnowledge, phase: str) -> list:
    """My legal actions in ``phase``, from the public table and my hand."""
    t, me = kn.table, kn.me
    if phase == UNCOVER:
        return [Uncover(c) for c in COLOURS if t.unknown[me][c]]
    if phase == PLAY:
        return list(dict.fromkeys(PlayRumour(c, v) for c, v in kn.hand))
    if phase == SEARCH:
        takes = [Take(c) for c in COLOURS if t.available(c)] if t.room(me) > 0 else []
        return [*takes, Done()]
    return [*extra_actions(t, me), Done()]
