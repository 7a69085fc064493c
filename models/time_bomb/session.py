"""The Time Bomb Evolution companion session (``assist time-bomb``).

It follows the shared pattern (:class:`solver.session.BaseSession`): ``TimeBombSession.handle(line)`` turns a
typed line into a :class:`~solver.session.Reply`, raises :class:`~solver.errors.AssistantError` for a bad line
(nothing changes), and keeps the journal of accepted entries (rewritten atomically by
:class:`~solver.session.Journal`). The terminal loop, piped stdin, file replay and Ctrl-C recovery are the
command line's.

What the user types is what happens at the table (:mod:`models.time_bomb.observations`). After every entry it
shows each player's probability of being Moriarty (with the claims, and the prior from hard facts alone), their
expected holdings, every claim (flagged when the cuts contradict it) and the risk of every possible cut, each
number from hard facts alone and with the claims, so the user sees what rests on claims. The session answers
with view data built in :mod:`models.time_bomb.views` (no rich object), which the terminal and the web page
draw.
"""

from __future__ import annotations

from models.time_bomb import ENTRY, choices, views
from models.time_bomb.advisor import (
    cut_risks,
    risk_policies,
)
from models.time_bomb.bluff import BluffModel
from models.time_bomb.claims import TimeBombClaims
from models.time_bomb.data import DEFAULT_DATA, DEFUSE, GameData
from models.time_bomb.knowledge import TableSetup, TimeBombKnowledge
from models.time_bomb.observations import (
    CARD_NAMES,
    COLOUR_NAMES,
    Colours,
    Entry,
    Hand,
    Me,
    Players,
    Role,
    Start,
    parse,
)
from models.time_bomb.rules import CUT
from solver import view as v
from solver.claims import why_steps
from solver.errors import AssistantError
from solver.parsing import is_whole, parse_fraction, parse_int, shown
from solver.session import BaseSession, Choice, Command, Journal, Reply, SetupQuestion, with_seat

GAME = ENTRY.name
JOURNAL_HEADER = ENTRY.header

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
    "holdings": ("holdings", "hold"),
    "claims": ("claims",),
    "bluff": ("bluff",),
}
COMMAND_OF = {alias: name for name, aliases in COMMANDS.items() for alias in aliases}
SETUP_VERBS = ("players", "me", "role", "start", "hand", "colours")
ENTRY_VERBS = (*SETUP_VERBS, "claim", "cut", "cover", "uncover", "draw", "redeal")
SEAT_VERBS = ("claim", "cut")
SETUP_TYPES = (Players, Me, Role, Start, Hand, Colours)

SHOW_REST = "'show' for every player, the claims and each cut's risk in full; 'claims' for the claims alone"


class Question(SetupQuestion):
    """One step of the setup dialogue; an answer starting with a command or an entry verb passes through."""

    KEYWORDS = frozenset([*COMMAND_OF, *ENTRY_VERBS])


class TimeBombSession(BaseSession):
    """One player's Time Bomb Evolution companion: setup, what happens at the table, the journal."""

    COMMAND_OF = COMMAND_OF
    ENTRY_WORDS = ENTRY_VERBS
    NO_ARGS = BaseSession.NO_ARGS | {"claims"}

    def __init__(
        self,
        journal: Journal | None = None,
        count_budget: float = 2.0,
        data: GameData = DEFAULT_DATA,
        bluff: BluffModel | None = None,
        colours: str | None = None,
    ) -> None:
        super().__init__(journal, count_budget)  # count_budget unused: every count here is exact and fast
        self.data = data
        self.bluff = bluff or BluffModel()
        self.setup = TableSetup(data=data)
        self.knowledge: TimeBombKnowledge | None = None
        if colours:  # the command line's --colours: journalled as the entry a player would type
            self.handle(f"colours {colours}", show=False)

    # -- the loop -------------------------------------------------------------------------------------------
    @staticmethod
    def _no_args(verb: str, args: list[str]) -> None:
        if args:
            raise AssistantError(f"{verb}: expected no argument, got '{' '.join(args)}'")

    def _help_view(self) -> v.View:
        return views.help_view()

    def fresh(self) -> TimeBombSession:
        return TimeBombSession(None, self.count_budget, self.data)

    def _commands(self, show: bool) -> dict[str, Command]:
        return {"why": self._why, "advise": self._advise, "holdings": self._holdings,
                "claims": lambda args: views.claims_table(self._require("claims")),
                "bluff": lambda args: self._set_bluff(args, show)}

    def _entry(self, tokens: list[str], show: bool) -> Reply:
        entry = parse(with_seat(tokens, SEAT_VERBS, self.setup.me))

        def reply() -> Reply:
            summary = f"recorded '{entry}'"
            if self.knowledge is not None and isinstance(entry, SETUP_TYPES):
                summary = f"setup complete; {summary}"
            flagged = self._new_flags()
            if flagged:
                summary += f"; {flagged}"
            note = self.knowledge.soft_note() if self.knowledge is not None else None
            if note and not show:  # the view shows it itself
                summary += f"; {note}"
            if not show:
                return Reply([], True, summary=summary)
            return Reply([self._entry_view(summary)], True, summary=summary)

        return self._accept(str(entry), lambda: self._add(entry), reply)

    def _entry_view(self, summary: str) -> v.View:
        """After an entry: the summary and one screen (the brief view; 40 lines at 100 columns at most), and
        where the rest is: the full state is 50 lines and more, too long to reprint after every cut."""
        kn = self.knowledge
        if kn is None:
            return self.state_view(summary)
        note = kn.soft_note()
        head = f"{summary}; {note}" if note else summary
        return v.Group(v.Text(head, "strong"), views.brief_view(kn), v.Text(SHOW_REST, "muted"))

    def _add(self, entry: Entry) -> None:
        if isinstance(entry, SETUP_TYPES):
            if self.knowledge is not None:
                raise AssistantError(f"'{entry}': the game has started; undo back to the setup to change it")
            setup = TableSetup(**{k: getattr(self.setup, k) for k in ("players", "me", "role", "start", "hand",
                                                                      "colours")}, data=self.data)
            setup.apply(entry)
            if setup.complete():
                self.knowledge = TimeBombKnowledge(setup, self.bluff)
            self.setup = setup
            return
        self._require(f"'{entry}'").add(entry)

    def _new_flags(self) -> str:
        """A note when the last entry made a claim contradicted by the cuts."""
        kn = self.knowledge
        if kn is None or not kn.claims:
            return ""
        flagged = [r for r in kn.claim_reports() if r.contradicted and r.context.seat != kn.me]
        if not flagged or not self.lines or not self.lines[-1].startswith("cut"):
            return ""
        last = flagged[-1]
        return f"claim {last.context.number} ({last}) is contradicted: {last.reason}"

    def _set_bluff(self, args: list[str], show: bool) -> Reply:
        usage = "bluff SHERLOCK_RATE MORIARTY_RATE"
        if len(args) != 2:
            raise AssistantError(f"bluff: expected '{usage}', e.g. 'bluff 0.1 0.5'")
        bluff = BluffModel(parse_fraction(args[0], "bluff: Sherlock's rate"),
                           parse_fraction(args[1], "bluff: Moriarty's rate"))

        def apply() -> None:
            if self.knowledge is not None:
                self.knowledge.set_bluff(bluff)  # rates no role assignment fits fall back to the hard layer
            self.bluff = bluff

        def reply() -> Reply:
            summary = f"bluff rates: Sherlock {bluff.sherlock:g}, Moriarty {bluff.moriarty:g}"
            note = self.knowledge.soft_note() if self.knowledge is not None else None
            if note and not show:  # the view shows it itself
                summary += f"; {note}"
            return Reply([self.state_view(summary)] if show else [], True, summary=summary)

        return self._accept(f"bluff {bluff.sherlock:g} {bluff.moriarty:g}", apply, reply)

    def _require(self, what: str) -> TimeBombKnowledge:
        if self.knowledge is None:
            raise AssistantError(f"{what}: finish the setup first, still need {'; '.join(self.setup.missing())}")
        return self.knowledge

    # -- setup dialogue and completion ----------------------------------------------------------------------
    def missing_setup(self) -> str:
        return "; ".join(self.setup.missing())

    def table_ranges(self) -> dict[str, tuple[int, int]]:
        return {"seat": (1, self.setup.players)} if self.setup.players else {}

    def table_names(self) -> dict[str, tuple[str, ...]]:
        """The bomb colours in play (entered, else the rulebook's for the player count) and defuse, once known."""
        s = self.setup
        colours = s.colours if s.colours is not None else \
            self.setup.game_data.setup(s.players).colours if s.players is not None else None
        return {} if colours is None else {"colour": tuple(colours), "card": (DEFUSE, *colours)}

    def setup_question(self) -> Question | None:
        s = self.setup
        if self.knowledge is not None:
            return None
        if s.players is None:
            return Question("Number of players (4-6): ", "players")
        if s.me is None:
            return Question(f"Your seat (1-{s.players}): ", "me")
        if s.role is None:
            return Question("Your role (sherlock or moriarty): ", "role")
        if s.start is None:
            return Question(f"Who holds the cutter first (seat 1-{s.players})? ", "start")
        return Question("Your 5 cable cards (e.g. 'defuse 2xred blue green'): ", "hand")

    # -- the legal next words (models.time_bomb.choices) ---------------------------------------------------
    def _entry_choices(self, words: list[str]) -> list[Choice]:
        return choices.choices(self, words)

    def _command_args(self, command: str, words: list[str]) -> list[Choice]:
        return choices.command_args(self, command, words)

    # -- views ----------------------------------------------------------------------------------------------
    def _setup_view(self) -> v.View:
        return v.Group(v.Text(f"setup: still need {'; '.join(self.setup.missing())}"), self._colours_note())

    def _colours_note(self) -> v.Text:
        """Which bomb colours are in play: the ones entered, else the rulebook's example for the player count."""
        s = self.setup
        if s.colours is not None:
            return v.Text(f"bomb colours in play: {' '.join(s.colours)} ('{Colours(s.colours)}')", "muted")
        if s.players is None:
            return v.Text("bomb colours in play: the first N of " + " ".join(self.data.colours) + " unless you enter "
                          "'colours ...'", "muted")
        default = self.setup.game_data.setup(s.players).colours
        return v.Text(f"bomb colours in play: {' '.join(default)} (the rulebook's example; 'colours ...' to change "
                      "them)", "muted")

    def state(self, brief: bool = False) -> list[v.View]:
        """The table drawn (:func:`views.drawn_view`) above the state at a glance, once the setup is complete."""
        if brief or self.knowledge is None:
            return super().state(brief)
        return [views.drawn_view(self.knowledge), self.state_view(None)]

    def _show_reply(self) -> Reply:
        return Reply(self.state())

    def state_view(self, head: str | None) -> v.View:
        if self.knowledge is None:
            return v.Group(*([v.Text(head, "strong")] if head else []), self._setup_view())
        return views.state_view(self.knowledge, head)

    def brief_view(self) -> v.View:
        """One screen: who is likely Moriarty, the risk of each cut now, the board and the next step."""
        return self._setup_view() if self.knowledge is None else views.brief_view(self.knowledge)

    def _holdings(self, args: list[str]) -> v.View:
        kn = self._require("holdings")
        if len(args) != 1:
            raise AssistantError("holdings: expected 'holdings SEAT'")
        seat = self._seat(args[0])
        return views.holdings_table(kn, seat)

    def _seat(self, token: str) -> int:
        kn = self._require("seat")
        if token.lower() == "me":
            return kn.me
        if not is_whole(token):
            raise AssistantError(f"seat '{shown(token)}': expected a whole number from 1 to {kn.setup.players} or 'me'")
        return parse_int(token, "seat", 1, kn.setup.players)

    def _why(self, args: list[str]) -> v.View:
        usage = ("why role SEAT | why claim N | why inplay COLOUR K [steps] | why holds SEAT CARD K | "
                 "why cut SEAT")
        kn = self._require("why")
        if not args:
            raise AssistantError(f"why: expected '{usage}'")
        kind, rest = args[0].lower(), args[1:]
        # Each number is read in its widest range here; the why_* functions say why a value is impossible.
        if kind == "inplay" and len(rest) == 3 and rest[2].lower() == "steps":
            claims = TimeBombClaims(kn)
            return v.Text(why_steps(claims, claims.parse(" ".join(rest[:2]))))
        if kind == "role" and len(rest) == 1:
            return views.why_role(kn, self._seat(rest[0]))
        if kind == "claim" and len(rest) == 1:
            return views.why_claim(kn, parse_int(rest[0], "why claim: claim number", 1, max(1, len(kn.claims))))
        if kind == "inplay" and len(rest) == 2:
            colour = COLOUR_NAMES.resolve(rest[0])
            return views.why_in_play(kn, colour, parse_int(rest[1], f"why inplay {colour}: count", 0,
                                                     kn.setup.bombs_per_colour))
        if kind == "holds" and len(rest) == 3:
            seat, card = self._seat(rest[0]), CARD_NAMES.resolve(rest[1])
            return views.why_holds(kn, seat, card, parse_int(rest[2], f"why holds {seat} {card}: count", 0,
                                                        max(kn.setup.hand_sizes)))
        if kind == "cut" and len(rest) == 1:
            return views.why_cut(kn, self._seat(rest[0]))
        raise AssistantError(f"why {' '.join(args)}: expected '{usage}'")

    def _advise(self, args: list[str]) -> v.View:
        kn = self._require("advise")
        if args:
            raise AssistantError("advise: expected no argument")
        return views.advice_view(kn)

    # -- analyze --json -------------------------------------------------------------------------------------
    def summary(self) -> dict[str, object]:
        """The current state as plain data (``analyze --json``)."""
        kn = self._require("analyze")
        t = kn.table
        soft = kn.belief(True)
        policies = risk_policies(kn)
        risk: dict[str, dict[str, float]] = {}
        if t.phase == CUT:  # the same numbers as the risk table and 'advise'
            for r in cut_risks(kn, policies):
                risk[str(r.seat)] = {"defuse": r.p_defuse, "defuse_hard": r.p_defuse_hard}
                for policy in policies:
                    risk[str(r.seat)][f"explode_{policy}"] = r.explode[policy]
                    risk[str(r.seat)][f"explode_{policy}_hard"] = r.explode_hard[policy]
        return {
            "game": GAME,
            "players": kn.setup.players,
            "me": kn.me,
            "role": kn.role,
            "round": t.round,
            "cutter": t.cutter,
            "phase": t.phase,
            "status": t.status(),
            "winner": t.winner,
            "bluff": {"sherlock": kn.bluff.sherlock, "moriarty": kn.bluff.moriarty},
            "soft_note": kn.soft_note(),
            "roles": {str(s): p for s, p in kn.roles(True).items()},
            "roles_hard": {str(s): p for s, p in kn.roles(False).items()},
            "cut_risk": risk,
            "cut_risk_cutter": t.cutter if risk else None,
            "cut_risk_policies": list(policies) if risk else [],
            "expected_holdings": {str(s): soft.expected(s) for s in t.seats},
            "in_play": {c: {str(k): p for k, p in d.items()} for c, d in kn.in_play().items()},
            "claims": [
                {"number": r.context.number, "round": r.context.round, "seat": r.context.seat,
                 "defusers": r.context.claimed, "p_true_hard": r.p_true_hard, "p_true_soft": r.p_true_soft,
                 "contradicted": r.contradicted, "reason": r.reason}
                for r in kn.claim_reports()
            ],
            "entries": list(self.lines),
        }
