"""``assist time-bomb``: the Time Bomb Evolution companion's session, and ``assist simulate time-bomb``.

The ``assist time-bomb`` and ``analyze`` commands are declared in :mod:`assistant_cli.main` (so that their help
needs no game import) and import this module when they run.

The session follows the shared pattern (:mod:`assistant_cli.session`, :mod:`assistant_cli.main`):
``TimeBombSession.handle(line)`` turns a typed line into a :class:`~assistant_cli.session.Reply`, raises
:class:`~solver.errors.AssistantError` for a bad line (nothing changes), and keeps the journal of accepted
entries (rewritten atomically by :class:`~assistant_cli.session.Journal`). The terminal loop, piped stdin, file
replay and Ctrl-C recovery are the shared ones in ``main.py``.

What the user types is what happens at the table (:mod:`models.time_bomb.observations`). After every entry it
shows each player's probability of being Moriarty (with the claims, and the prior from hard facts alone), their
expected holdings, every claim (flagged when the cuts contradict it) and the risk of every possible cut, each
number from hard facts alone and with the claims, so the user sees what rests on claims.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from assistant_cli.companion import (
    ClusterOption,
    DeepCheckOption,
    GamesOption,
    ReplayOption,
    SeedOption,
    SummaryJsonOption,
    WorkersOption,
    run_simulation,
    seat_bots,
    speed_text,
)
from assistant_cli.companion_app import journal_header
from assistant_cli.render import Fit, Flow
from assistant_cli.session import BaseSession, Command, Journal, Reply, SetupQuestion, with_seat
from models.time_bomb.advisor import (
    POLICY_LABEL,
    CutOption,
    CutRisk,
    advise,
    choose_claim,
    cut_options,
    cut_risks,
    risk_policies,
)
from models.time_bomb.bluff import BluffModel
from models.time_bomb.bots import BOTS, AdvisorBot, RoleBot, check_spec, make_bot
from models.time_bomb.counting import Holds, InPlay
from models.time_bomb.data import COLOURS, DEFAULT_DATA, DEFUSE, MORIARTY, SHERLOCK, GameData
from models.time_bomb.knowledge import TableSetup, TimeBombKnowledge
from models.time_bomb.observations import CARD_NAMES, COLOUR_NAMES, Entry, Hand, Me, Players, Role, Start, parse
from models.time_bomb.rules import COVER, CUT, REDEAL, UNCOVER, TableRules, TimeBombState, new_game
from solver.errors import AssistantError
from solver.parallel import Backend, run_jobs
from solver.parsing import is_whole, parse_fraction, parse_int, shown
from solver.simulate import Matchup, game_seed, play_game
from solver.text import plural

GAME = "time-bomb"
JOURNAL_HEADER = journal_header(GAME)

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
SETUP_VERBS = ("players", "me", "role", "start", "hand")
ENTRY_VERBS = (*SETUP_VERBS, "claim", "cut", "cover", "uncover", "draw", "redeal")
SEAT_VERBS = ("claim", "cut")
SETUP_TYPES = (Players, Me, Role, Start, Hand)

HELP_ROWS: tuple[tuple[str, str, str], ...] = (
    ("Setup", "players N / me SEAT / role sherlock|moriarty", "players 5   me 2   role sherlock"),
    ("", "start SEAT  (who holds the cutter first)", "start 1"),
    ("", "hand CARD ...  (your 5 cards; 2xred repeats)", "hand defuse 2xred blue green"),
    ("Play", "claim SEAT K  (SEAT says: K defusing cards)", "claim 3 1   claim me 0"),
    ("", "cut SEAT CARD  (the cutter cut SEAT's card: CARD)", "cut 4 defuse   cut me red"),
    ("", "cover COLOUR / uncover COLOUR  (defusing, yellow, blue)", "cover green   uncover pink"),
    ("", "draw K  (red bomb: numbered card K)", "draw 2"),
    ("", "redeal CARD ...  (your new hand, each round)", "redeal defuse red blue green"),
    ("Session", "show / show brief", "every table / one screen of the essentials"),
    ("", "claims / holdings SEAT", "every claim judged; full distributions"),
    ("", "advise", "your decision: cut, cover, uncover, and what to claim"),
    ("", "why role SEAT | claim N | inplay COLOUR K [steps] | holds SEAT CARD K | cut SEAT",
     "why role 3   why claim 2"),
    ("", "bluff SHERLOCK MORIARTY  (bluff rates of the soft model)", "bluff 0.1 0.5"),
    ("", "edit N ENTRY / drop N  (fix entry N of 'history')", "edit 8 cut 4 red   drop 8"),
    ("", "undo / history / help / quit", "aliases: u, hist, h ?, exit q"),
)


def help_view() -> RenderableType:
    table = Table(title="Time Bomb Evolution companion", box=box.SIMPLE_HEAD, show_lines=False)
    for col in ("", "Command", "Example"):
        table.add_column(col)
    for row in HELP_ROWS:
        table.add_row(*(Text(cell) for cell in row))  # Text: no markup, so "[all]" stays visible
    return Group(
        table,
        Text("Hard: from your cards and the cuts only. Soft: also from the claims, through the bluff model "
             "(Sherlock lies rarely, Moriarty often). '!' marks a claim the cuts contradict.", style="dim"),
    )


class Question(SetupQuestion):
    """One step of the setup dialogue; an answer starting with a command or an entry verb passes through."""

    KEYWORDS = frozenset([*COMMAND_OF, *ENTRY_VERBS])


def _p(p: float) -> str:
    return f"{100 * p:.0f}%" if p >= 0.005 or p == 0 else "<1%"


class TimeBombSession(BaseSession):
    """One player's Time Bomb Evolution companion: setup, what happens at the table, the journal."""

    COMMAND_OF = COMMAND_OF
    NO_ARGS = BaseSession.NO_ARGS | {"claims"}

    def __init__(
        self,
        journal: Journal | None = None,
        count_budget: float = 2.0,
        data: GameData = DEFAULT_DATA,
        bluff: BluffModel | None = None,
    ) -> None:
        super().__init__(journal, count_budget)  # count_budget unused: every count here is exact and fast
        self.data = data
        self.bluff = bluff or BluffModel()
        self.setup = TableSetup(data=data)
        self.knowledge: TimeBombKnowledge | None = None

    # -- the loop -------------------------------------------------------------------------------------------
    @staticmethod
    def _no_args(verb: str, args: list[str]) -> None:
        if args:
            raise AssistantError(f"{verb}: expected no argument, got '{' '.join(args)}'")

    def _help_view(self) -> RenderableType:
        return help_view()

    def fresh(self) -> TimeBombSession:
        return TimeBombSession(None, self.count_budget, self.data)

    def _commands(self, show: bool) -> dict[str, Command]:
        return {"why": self._why, "advise": self._advise, "holdings": self._holdings,
                "claims": lambda args: claims_table(self._require("claims")),
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
            return Reply([self.state_view(summary)], True, summary=summary)

        return self._accept(str(entry), lambda: self._add(entry), reply)

    def _add(self, entry: Entry) -> None:
        if isinstance(entry, SETUP_TYPES):
            if self.knowledge is not None:
                raise AssistantError(f"'{entry}': the game has started; undo back to the setup to change it")
            setup = TableSetup(**{k: getattr(self.setup, k) for k in ("players", "me", "role", "start", "hand")},
                               data=self.data)
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

    def _candidates(self, words: list[str]) -> list[str]:
        s = self.setup
        if not words:
            return [*ENTRY_VERBS, *(aliases[0] for aliases in COMMANDS.values())]
        verb, pos = words[0].lower(), len(words)
        seats = [str(i) for i in range(1, (s.players or 6) + 1)] + (["me"] if s.me else [])
        cards = list(CARD_NAMES.names)
        if verb == "players":
            return ["4", "5", "6"] if pos == 1 else []
        if verb in ("me", "start"):
            return seats[:-1] if s.me and pos == 1 else seats if pos == 1 else []
        if verb == "role":
            return [SHERLOCK, MORIARTY] if pos == 1 else []
        if verb in ("hand", "redeal"):
            return cards
        if verb == "claim":
            return seats if pos == 1 else [str(k) for k in range(6)] if pos == 2 else []
        if verb == "cut":
            return seats if pos == 1 else cards if pos == 2 else []
        if verb in ("cover", "uncover"):
            return list(COLOURS) if pos == 1 else []
        if verb == "draw":
            return [str(k) for k in range(s.players or 6)] if pos == 1 else []
        if verb == "why":
            if pos == 1:
                return ["role", "claim", "inplay", "holds", "cut"]
            kind = words[1].lower()
            if kind in ("role", "cut", "holds") and pos == 2:
                return seats
            if kind == "inplay" and pos == 2:
                return list(COLOURS)
            if kind == "holds" and pos == 3:
                return cards
            return []
        if verb in ("holdings", "hold"):
            return seats if pos == 1 else []
        return []

    # -- views ----------------------------------------------------------------------------------------------
    def state_view(self, head: str | None) -> RenderableType:
        parts: list[RenderableType] = []
        if head:
            parts.append(Text(head, style="bold"))
        kn = self.knowledge
        if kn is None:
            parts.append(Text(f"setup: still need {'; '.join(self.setup.missing())}"))
            return Group(*parts)
        note = kn.soft_note()
        if note:
            parts.append(Text(f"Note: {note}.", style="yellow"))
        parts.append(players_table(kn))
        if kn.claims:
            parts.append(claims_table(kn))
        if kn.table.phase == CUT and not kn.table.over:
            parts.append(risk_table(kn))
        parts.append(board_text(kn))
        parts.append(Text("Next: " + next_step(kn), style="cyan"))
        return Group(*parts)

    def brief_view(self) -> RenderableType:
        """One screen: who is likely Moriarty, the risk of each cut now, the board and the next step."""
        kn = self.knowledge
        if kn is None:
            return Text(f"setup: still need {'; '.join(self.setup.missing())}")
        t = kn.table
        soft, hard = kn.belief(True), kn.belief(False)
        roles, prior = soft.roles(), hard.roles()
        parts: list[RenderableType] = [Text(f"Round {t.round}, you are player {kn.me} ({kn.role})", style="bold")]
        others = [s for s in t.seats if s != kn.me]
        priors = {_p(prior[s]) for s in others}
        alone = f" (from the cards alone {priors.pop()} each)" if len(priors) == 1 else ""
        parts.append(Flow([f"{s} {_p(roles[s])}" for s in others], lead="P(Moriarty) with the claims: player ",
                          end=alone))
        flagged = [r.context.number for r in kn.claim_reports() if r.contradicted and r.context.seat != kn.me]
        if flagged:
            parts.append(Text(f"Claims the cuts contradict: {', '.join(map(str, flagged))} ('claims' for all)"))
        if t.phase == CUT and not t.over:
            policies = risk_policies(kn)
            who = "you" if t.cutter == kn.me else f"player {t.cutter}"
            explode = "P(explosion)" if len(policies) == 1 else "P(explosion) avoiding / seeking"
            parts.append(Flow([" / ".join([f"{r.seat} {_p(r.p_defuse)}", *(_p(r.explode[p]) for p in policies)])
                               for r in cut_risks(kn, policies)],
                              lead=f"Cut by {who}, P(defusing) / {explode}: player "))
        parts.append(board_text(kn))
        parts.append(Text("Next: " + next_step(kn), style="cyan"))
        return Group(*parts)

    def _holdings(self, args: list[str]) -> RenderableType:
        kn = self._require("holdings")
        if len(args) != 1:
            raise AssistantError("holdings: expected 'holdings SEAT'")
        seat = self._seat(args[0])
        return holdings_table(kn, seat)

    def _seat(self, token: str) -> int:
        kn = self._require("seat")
        if token.lower() == "me":
            return kn.me
        if not is_whole(token):
            raise AssistantError(f"seat '{shown(token)}': expected a whole number from 1 to {kn.setup.players} or 'me'")
        return parse_int(token, "seat", 1, kn.setup.players)

    def _why(self, args: list[str]) -> RenderableType:
        usage = ("why role SEAT | why claim N | why inplay COLOUR K [steps] | why holds SEAT CARD K | "
                 "why cut SEAT")
        kn = self._require("why")
        if not args:
            raise AssistantError(f"why: expected '{usage}'")
        kind, rest = args[0].lower(), args[1:]
        # Each number is read in its widest range here; the why_* functions say why a value is impossible.
        if kind == "inplay" and len(rest) == 3 and rest[2].lower() == "steps":
            from assistant_cli.teach_games import TimeBombTeacher, why_steps

            return Text(why_steps(TimeBombTeacher(), self, TimeBombTeacher().parse_claim(self, " ".join(rest[:2]))))
        if kind == "role" and len(rest) == 1:
            return why_role(kn, self._seat(rest[0]))
        if kind == "claim" and len(rest) == 1:
            return why_claim(kn, parse_int(rest[0], "why claim: claim number", 1, max(1, len(kn.claims))))
        if kind == "inplay" and len(rest) == 2:
            colour = COLOUR_NAMES.resolve(rest[0])
            return why_in_play(kn, colour, parse_int(rest[1], f"why inplay {colour}: count", 0,
                                                     kn.setup.bombs_per_colour))
        if kind == "holds" and len(rest) == 3:
            seat, card = self._seat(rest[0]), CARD_NAMES.resolve(rest[1])
            return why_holds(kn, seat, card, parse_int(rest[2], f"why holds {seat} {card}: count", 0,
                                                        max(kn.setup.hand_sizes)))
        if kind == "cut" and len(rest) == 1:
            return why_cut(kn, self._seat(rest[0]))
        raise AssistantError(f"why {' '.join(args)}: expected '{usage}'")

    def _advise(self, args: list[str]) -> RenderableType:
        kn = self._require("advise")
        if args:
            raise AssistantError("advise: expected no argument")
        advice = advise(kn)
        parts: list[RenderableType] = []
        note = kn.soft_note()
        if note:
            parts.append(Text(f"Note: {note}.", style="yellow"))
        if advice.kind == "cut" and kn.table.cutter == kn.me:
            parts.append(Text(f"Advice ({kn.role}): {advice.best} ({advice.reason})", style="bold green"))
            parts.append(options_table(kn, advice.options))
        elif advice.kind == "cut":
            parts.append(Text(f"Player {kn.table.cutter} cuts. Ranked for a Sherlock cutter; the explosion risk if "
                              "they avoid one and if they seek one:", style="bold"))
            parts.append(options_table(kn, tuple(cut_options(kn, side=SHERLOCK))))
        elif advice.kind in ("cover", "uncover"):
            parts.append(Text(f"Advice ({kn.role}): {advice.best}: {advice.reason}", style="bold green"))
        else:
            parts.append(Text(advice.reason))
        if not kn.table.over and kn.table.phase != REDEAL:
            k, why = choose_claim(kn)
            parts.append(Text(f"What to claim: {plural(k, 'defusing card')} ({why})"))
        return Group(*parts)

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


# -- tables ---------------------------------------------------------------------------------------------------


def next_step(kn: TimeBombKnowledge) -> str:
    t = kn.table
    if t.over:
        return f"game over: {t.winner} wins ({t.reason})"
    if t.phase == REDEAL:
        return f"the round is over: enter your new hand, 'redeal CARD ...' ({plural(t.next_sizes()[kn.me], 'card')})"
    who = "you" if t.cutter == kn.me else f"player {t.cutter}"
    if t.phase == CUT:
        return f"{t.status()}; {who} cut: 'cut SEAT CARD' (claims any time: 'claim SEAT K')"
    if t.phase == COVER:
        return f"{who} place the {t.pending} card: 'cover COLOUR' ({', '.join(t.coverable())})"
    if t.phase == UNCOVER:
        return f"{who} remove a cover (blue bomb): 'uncover COLOUR' ({', '.join(t.covered)})"
    if t.phase == "draw":
        return f"{who} draw a numbered card (red bomb): 'draw K'"
    return f"{who} cut a card of player {t.extra_target} (red bomb): 'cut {t.extra_target} CARD'"


def players_table(kn: TimeBombKnowledge) -> Fit:
    """Role probability (soft, and the hard prior) and expected holdings of every player."""
    t = kn.table
    soft, hard = kn.belief(True), kn.belief(False)
    roles, prior = soft.roles(), hard.roles()
    table = Table(title=f"Players, round {t.round}; you are player {kn.me}, {kn.role} (soft: with claims; hard: "
                  "cards and cuts only)", box=box.SIMPLE_HEAD)
    for col in ("Player", "Cards", "P(Moriarty) soft", "hard", "Defusing (soft)", "hard", "Bombs expected (soft)"):
        table.add_column(col, justify="left" if col in ("Player", "Bombs expected (soft)") else "right")
    for s in t.seats:
        who = f"{s} (you)" if s == kn.me else str(s)
        if s == kn.me:
            hand = kn.my_hand()
            bombs = "\n".join(f"{c} {n}" for c, n in hand.items() if n and c != DEFUSE) or "-"
            table.add_row(who, str(t.sizes[s]), "-", "-", str(hand[DEFUSE]), str(hand[DEFUSE]), bombs)
            continue
        exp, exp_hard = soft.expected(s), hard.expected(s)
        bombs = "\n".join(f"{c} {v:.1f}" for c, v in sorted(exp.items(), key=lambda kv: -kv[1])
                         if c != DEFUSE and v >= 0.05) or "-"
        table.add_row(who, str(t.sizes[s]), _p(roles[s]), _p(prior[s]), f"{exp.get(DEFUSE, 0.0):.2f}",
                      f"{exp_hard.get(DEFUSE, 0.0):.2f}", bombs)
    return Fit(table)


def claims_table(kn: TimeBombKnowledge) -> Fit:
    table = Table(title="Claims (P true: hard = cards and cuts only; soft = with the bluff model)",
                  box=box.SIMPLE_HEAD)
    for col in ("#", "Round", "Player", "Claimed", "P true hard", "P true soft", "Flag"):
        table.add_column(col, justify="right" if col not in ("Flag",) else "left")
    for r in kn.claim_reports():
        c = r.context
        flag = f"! contradicted: {r.reason}" if r.contradicted else ""
        who = f"{c.seat} (you)" if c.seat == kn.me else str(c.seat)
        table.add_row(str(c.number), str(c.round), who, f"{c.claimed} of {c.size}", _p(r.p_true_hard),
                      _p(r.p_true_soft), flag)
    return Fit(table, prose={6})


def _policy_caption(policies: Sequence[str]) -> str:
    words = {"avoid": "avoiding = Sherlock's play (no explosion when a choice in the cut allows it)",
             "seek": "seeking = Moriarty's play (an explosion when a choice allows it)"}
    return "; ".join(words[p] for p in policies)


def risk_table(kn: TimeBombKnowledge) -> Fit:
    """The risk of every cut now (:func:`~models.time_bomb.advisor.cut_risks`): for my own cut as my role plays
    it, for another player's cut both ways, labelled."""
    t = kn.table
    policies = risk_policies(kn)
    mine = t.cutter == kn.me
    if mine:
        title = f"Risk of each cut by you (as a {kn.role} plays it: you {policies[0]} an explosion when you can)"
        heads = ["Explosion soft", "hard"]
    else:
        title = f"Risk of each cut by player {t.cutter} (role unknown: explosion if avoiding / if seeking)"
        heads = [h for p in policies for h in (f"Explosion {p}ing soft", "hard")]
    table = Table(title=title, box=box.SIMPLE_HEAD, caption=None if mine else _policy_caption(policies))
    for col in ("Cut player", "Defusing soft", "hard", *heads):
        table.add_column(col, justify="right")
    for r in cut_risks(kn, policies):
        booms = [_p(v) for p in policies for v in (r.explode[p], r.explode_hard[p])]
        table.add_row(str(r.seat), _p(r.p_defuse), _p(r.p_defuse_hard), *booms)
    return Fit(table)


def options_table(kn: TimeBombKnowledge, options: Sequence[CutOption]) -> Fit:
    """The ranked cuts of ``advise``; the explosion columns are the risk table's (one per policy shown)."""
    policies = list(options[0].risk.explode) if options else []
    heads = ["Explosion soft/hard"] if len(policies) == 1 else [f"Explosion {p}ing soft/hard" for p in policies]
    table = Table(title="Cuts, best first", box=box.SIMPLE_HEAD,
                  caption=_policy_caption(policies) if len(policies) > 1 else None)
    columns = ("#", "Cut", "Defusing soft/hard", *heads, "Wins now", "If defusing: P(M)", "If bomb: P(M)", "Why")
    for col in columns:
        table.add_column(col)
    for i, o in enumerate(options, 1):
        if_def = f"{_p(o.roles_if_defuse.get(o.seat, 0))}" if o.roles_if_defuse else "-"
        if_bomb = f"{_p(o.roles_if_bomb.get(o.seat, 0))}" if o.roles_if_bomb else "-"
        booms = [f"{_p(o.risk.explode[p])} / {_p(o.risk.explode_hard[p])}" for p in policies]
        table.add_row(str(i), f"player {o.seat}", f"{_p(o.p_defuse)} / {_p(o.p_defuse_hard)}", *booms,
                      _p(o.p_win), if_def, if_bomb, o.reason)
    return Fit(table, prose={len(columns) - 1})


def board_text(kn: TimeBombKnowledge) -> Flow:
    """The board in one paragraph that breaks only between colours (never inside 'red 3/4 cut')."""
    t = kn.table
    parts = []
    for c in t.setup.colours:
        in_play = kn.in_play()[c]
        lo, hi = min(in_play), max(in_play)
        span = f"{lo}" if lo == hi else f"{lo}-{hi}"
        cover = f" covered by {t.covered[c]}" if c in t.covered else ""
        parts.append(f"{c} {t.counts[c]}/{t.setup.thresholds[c]} cut ({span} in play){cover}")
    parts.append(f"defusing cut {t.defusers_cut}/{t.setup.defusers}")
    if t.last_card() == "pink" and "pink" not in t.covered:
        parts.append("last cut was pink: another pink now explodes")
    return Flow(parts, lead="Board: ", end=".")


def holdings_table(kn: TimeBombKnowledge, seat: int) -> Fit:
    soft, hard = kn.belief(True), kn.belief(False)
    table = Table(title=f"Player {seat}: P(holds k) now, soft / hard", box=box.SIMPLE_HEAD)
    n = soft.cards_left(seat)
    table.add_column("Card")
    for k in range(n + 1):
        table.add_column(str(k), justify="right")
    for card in kn.setup.types:
        if card == DEFUSE:
            ds, dh = soft.defuser_distribution(seat), hard.defuser_distribution(seat)
        else:
            ds, dh = soft.colour_distribution(seat, card), hard.colour_distribution(seat, card)
        table.add_row(card, *(f"{_p(ds.get(k, 0.0))} / {_p(dh.get(k, 0.0))}" for k in range(n + 1)))
    return Fit(table)


def why_role(kn: TimeBombKnowledge, seat: int) -> RenderableType:
    if seat == kn.me:
        return Text(f"You are {kn.role}: you saw your role card (a hard fact).")
    prior = kn.roles(False)[seat]
    full = kn.roles(True)[seat]
    lines = [Text(f"P(player {seat} is Moriarty) = {_p(full)} with the claims (soft); {_p(prior)} from the role "
                  "cards alone (hard: cards and cuts say nothing about roles).", style="bold")]
    effects = [e for e in kn.why_role(seat) if e[0].seat != kn.me]  # my own claims say nothing of roles
    if not effects:
        lines.append(Text("No claim yet: the probability is the prior from the role cards."))
    reports = {r.context.number: r for r in kn.claim_reports()}
    for claim, without, with_all in effects:
        r = reports[claim.number]
        note = f" (contradicted: {r.reason})" if r.contradicted else f" (P true from hard facts {_p(r.p_true_hard)})"
        lines.append(Text(f"  claim {claim.number}: player {claim.seat} said {claim.claimed} of {claim.size} in round "
                          f"{claim.round}{note}: without it {_p(without)}, with it {_p(with_all)}"))
    lines.append(Text(f"Bluff model: Sherlock lies {kn.bluff.sherlock:g}, Moriarty {kn.bluff.moriarty:g} of the time "
                      "(change with 'bluff S M').", style="dim"))
    note = kn.soft_note()
    if note:
        lines.append(Text(f"Note: {note}.", style="yellow"))
    return Group(*lines)


def why_claim(kn: TimeBombKnowledge, number: int) -> RenderableType:
    reports = kn.claim_reports()
    if not 1 <= number <= len(reports):
        raise AssistantError(f"why claim {number}: expected 1 to {len(reports)}" if reports else "no claim yet")
    r = reports[number - 1]
    c = r.context
    head = (f"Claim {number}: player {c.seat} said {plural(c.claimed, 'defusing card')} of {c.size} in round "
            f"{c.round}. "
            f"P(true) = {_p(r.p_true_hard)} from hard facts, {_p(r.p_true_soft)} with the bluff model.")
    lines = [Text(head, style="bold")]
    if r.contradicted and c.seat != kn.me:
        layout_size = kn.layout.size(c.round, c.seat)
        core = kn.explain_whatif(Holds(c.round, c.seat, DEFUSE, c.claimed, c.before + 1, layout_size))
        lines.append(Text(f"Contradicted (hard): {r.reason}."))
        if core:
            lines.append(Text("These entries rule it out: " + "; ".join(f.located() for f in core)))
    elif r.contradicted:
        lines.append(Text(f"Your own claim: {r.reason}."))
    return Group(*lines)


def why_in_play(kn: TimeBombKnowledge, colour: str, k: int) -> RenderableType:
    dist = kn.in_play()[colour]
    p = dist.get(k, 0.0)
    if p > 0:
        return Text(f"{plural(k, colour + ' card')} in play: probability {_p(p)} (hard facts only: "
                    f"{', '.join(f'{n}: {_p(q)}' for n, q in dist.items())}).")
    if not 0 <= k <= kn.setup.bombs_per_colour:
        raise AssistantError(f"why inplay {colour} {k}: expected 0 to {kn.setup.bombs_per_colour}")
    core = kn.explain_whatif(InPlay(colour, k))
    reasons = "; ".join(f.located() for f in core) if core else "the setup (how many cards are removed)"
    return Text(f"{plural(k, colour + ' card')} in play is impossible (hard): {reasons}.")


def why_holds(kn: TimeBombKnowledge, seat: int, card: str, k: int) -> RenderableType:
    belief = kn.belief(False)
    dist = belief.defuser_distribution(seat) if card == DEFUSE else belief.colour_distribution(seat, card)
    soft = kn.belief(True)
    dsoft = soft.defuser_distribution(seat) if card == DEFUSE else soft.colour_distribution(seat, card)
    if dist.get(k, 0.0) > 0:
        return Text(f"Player {seat} holds {k} {card} now: {_p(dist[k])} from hard facts, {_p(dsoft.get(k, 0.0))} with "
                    "the claims.")
    t = kn.table
    size = t.sizes[seat]
    if not 0 <= k <= size:
        return Text(f"Player {seat} holds {plural(size, 'card')}: {k} {card} is impossible.")
    first = t.cut_in_round[seat] + 1
    core = kn.explain_whatif(Holds(t.round, seat, card, k, first, kn.layout.size(t.round, seat)))
    reasons = "; ".join(f.located() for f in core) if core else "the setup"
    return Text(f"Player {seat} cannot hold {k} {card} now (hard): {reasons}.")


def why_cut(kn: TimeBombKnowledge, seat: int) -> RenderableType:
    t = kn.table
    if seat not in t.targets():
        raise AssistantError(f"why cut {seat}: player {t.cutter} cannot cut player {seat} now")
    lines = [Text(f"A cut of player {seat} by player {t.cutter}:", style="bold")]
    policies = risk_policies(kn)
    risk: CutRisk = next(r for r in cut_risks(kn, policies) if r.seat == seat)
    for label, belief, booms in (("soft", kn.belief(True), risk.explode), ("hard", kn.belief(False),
                                                                          risk.explode_hard)):
        types = ", ".join(f"{c} {_p(p)}" for c, p in sorted(belief.p_types(seat).items(), key=lambda kv: -kv[1]))
        boom = "; ".join(f"explosion {POLICY_LABEL[p]} {_p(booms[p])}" for p in policies)
        lines.append(Text(f"  {label}: {types}; {boom}"))
    danger = [f"{c} ({t.counts[c]}/{t.setup.thresholds[c]})" for c in t.setup.colours
              if c not in t.covered and t.counts[c] + 1 >= t.setup.thresholds[c]]
    if danger:
        lines.append(Text("  one more card explodes: " + ", ".join(danger)))
    if t.last_card() == "pink" and "pink" not in t.covered:
        lines.append(Text("  the last cut was pink: a pink card now explodes"))
    lines.append(Text("  a red card triggers an extra cut (numbered card), counted in the explosion risk", style="dim"))
    return Group(*lines)


# -- the commands ---------------------------------------------------------------------------------------------



# -- simulation ---------------------------------------------------------------------------------------------------


def _new_state(rng: Any, players: int) -> TimeBombState:
    return new_game(TableRules(players), rng)


@dataclass(frozen=True)
class SimResult:
    """A run's figures: Sherlock's win rate (with its standard error) and how games ended."""

    games: int
    sherlock_wins: int
    explosions: int
    time_outs: int
    mean_rounds: float
    false_claims_moriarty: float
    false_claims_sherlock: float

    @property
    def sherlock_rate(self) -> float:
        return self.sherlock_wins / self.games if self.games else 0.0

    @property
    def stderr(self) -> float:
        p = self.sherlock_rate
        return (p * (1 - p) / self.games) ** 0.5 if self.games else 0.0


def summarize_records(records: Sequence[Any]) -> SimResult:
    n = len(records)
    wins = sum(int(r.stats[0]["sherlock_win"]) for r in records)
    booms = sum(int(r.stats[0]["exploded"]) for r in records)
    rounds = sum(r.stats[0]["rounds"] for r in records) / n if n else 0.0
    false_m = [s["claims_false"] for r in records for s in r.stats if s["moriarty"]]
    false_s = [s["claims_false"] for r in records for s in r.stats if not s["moriarty"]]
    return SimResult(n, wins, booms, n - wins - booms, rounds,
                     sum(false_m) / len(false_m) if false_m else 0.0, sum(false_s) / len(false_s) if false_s else 0.0)


def simulate_command(
    games: GamesOption = 100,
    players: Annotated[int, typer.Option(help="Players at the table.", min=4, max=6)] = 5,
    bots: Annotated[str, typer.Option(help=f"Bots seat by seat, comma-separated, or one spec for every seat. A spec "
                                           f"is a bot ({', '.join(BOTS)}) or SHERLOCK_BOT/MORIARTY_BOT, played by "
                                           f"the role each seat is dealt.")] = "advisor/bluffing-moriarty",
    seed: SeedOption = 0,
    workers: WorkersOption = 1,
    cluster: ClusterOption = None,
    as_json: SummaryJsonOption = False,
    deep_check: DeepCheckOption = False,
    replay: ReplayOption = None,
) -> None:
    """Simulate Time Bomb Evolution games; each knowledge-keeping bot's hard knowledge is checked for
    soundness after every observation."""

    def build() -> Matchup:
        if not 4 <= players <= 6:
            raise AssistantError(f"--players {players}: expected 4 to 6")
        names = seat_bots(bots, players, check_spec, noun="spec")  # each a bot or a SHERLOCK/MORIARTY pair
        return Matchup(functools.partial(_new_state, players=players), names, make_bot, deep_check)

    run = run_simulation(build, games, seed, workers, replay, _replay, f"{GAME} --players {players} --bots {bots}",
                         cluster=cluster)
    if run is None:
        return
    names, elapsed = run.matchup.bots, run.elapsed
    result = summarize_records(run.records)
    if as_json:
        typer.echo(json.dumps({
            "game": GAME, "games": result.games, "seed": seed, "players": players, "bots": list(names),
            "sherlock_wins": result.sherlock_wins, "sherlock_win_rate": result.sherlock_rate,
            "sherlock_win_rate_stderr": result.stderr, "explosions": result.explosions, "time_outs": result.time_outs,
            "mean_rounds": result.mean_rounds, "false_claims_per_round_moriarty": result.false_claims_moriarty,
            "false_claims_per_round_sherlock": result.false_claims_sherlock, "seconds": elapsed,
        }, indent=2))
        return
    out = Console()
    specs = ", ".join(dict.fromkeys(names))
    table = Table(title=f"Time Bomb Evolution, {players} players, {result.games} games, bots {specs}")
    for col in ("Sherlock wins", "Win %", "± s.e.", "Explosions", "Time outs", "Mean rounds", "False claims M / S"):
        table.add_column(col, justify="right")
    table.add_row(str(result.sherlock_wins), f"{100 * result.sherlock_rate:.1f}", f"{100 * result.stderr:.1f}",
                  str(result.explosions), str(result.time_outs), f"{result.mean_rounds:.2f}",
                  f"{result.false_claims_moriarty:.2f} / {result.false_claims_sherlock:.2f}")
    out.print(table)
    out.print(f"False claims are per player and game. {speed_text(result.games, elapsed, run.where)}; "
              f"every game sound.")


def _replay(matchup: Matchup, seed: int) -> None:
    _record, state = play_game(matchup, seed)
    assert isinstance(state, TimeBombState)
    out = Console()
    roles = ", ".join(f"{s}: {state.roles[s]}" for s in state.seats)
    out.print(f"Game seed {seed}: bots {', '.join(matchup.bots)}; roles {roles}; removed "
              f"{', '.join(f'{c}{i}' for c, i in state.removed)}", highlight=False)
    for cut in state.table.cuts:
        extra = " (red extra cut)" if cut.extra else ""
        out.print(f"  round {cut.round} turn {cut.turn}: player {cut.cutter} cut player {cut.seat}: {cut.card}{extra}",
                  highlight=False)
    out.print(f"Result: {state.table.winner} wins ({state.table.reason}).")


def _role_checks(players: int, spec: str, seed: int) -> tuple[float, float, int]:
    """One game's role-belief score, worked out where the game is played: hits, chance and checks summed over
    its advisor Sherlocks (plain numbers, so a worker process or a cluster sends back three figures, not bots)."""
    created: list[Any] = []

    def recording(name: str, seat: int, rng: Any) -> Any:
        bot = make_bot(name, seat, rng)
        created.append(bot)
        return bot

    matchup = Matchup(functools.partial(_new_state, players=players), (spec,) * players, recording)
    _record, state = play_game(matchup, seed)
    assert isinstance(state, TimeBombState)
    hits = chance = 0.0
    checks = 0
    for bot in created:
        inner = bot.inner if isinstance(bot, RoleBot) else bot
        if not isinstance(inner, AdvisorBot) or inner.role != SHERLOCK:
            continue
        snapshots = list(inner.role_beliefs)
        if getattr(inner, "last_beliefs", None):
            snapshots.append(inner.last_beliefs)
        others = [s for s in state.seats if s != inner.seat]
        truth = {s for s in others if state.roles[s] == MORIARTY}
        for _round, beliefs in snapshots:
            top = max(beliefs[s] for s in others)
            best = [s for s in others if abs(beliefs[s] - top) < 1e-12]
            hits += sum(1 for s in best if s in truth) / len(best)
            chance += len(truth) / len(others)
            checks += 1
    return hits, chance, checks


def role_ranking(games: int, players: int, seed: int, spec: str = "advisor/bluffing-moriarty",
                 executor: Backend | Executor | int = 1) -> dict[str, float]:
    """How often an advisor Sherlock's top P(Moriarty) is a true Moriarty (ties share), at every redeal and its
    last decision, against chance (the share of Moriarty players among the others), over the games of the run
    seeded ``seed``, played through ``executor`` (see :func:`solver.parallel.run_jobs`)."""
    per_game = run_jobs(functools.partial(_role_checks, players, spec), [game_seed(seed, i) for i in range(games)],
                        executor)
    hits = sum(h for h, _, _ in per_game)
    chance = sum(c for _, c, _ in per_game)
    checks = float(sum(n for _, _, n in per_game))
    return {"checks": checks, "top_is_moriarty": hits / checks if checks else 0.0,
            "chance": chance / checks if checks else 0.0}
