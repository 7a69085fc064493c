"""``assist beyond-baker-street``: the Beyond Baker Street companion's session, and
``assist simulate beyond-baker-street``.

The ``assist beyond-baker-street`` and ``analyze`` commands are declared in :mod:`assistant_cli.main` (so that
their help needs no game import) and import this module when they run.

The session follows the shared pattern (:mod:`assistant_cli.session`, :mod:`assistant_cli.main`):
``BakerStreetSession.handle(line)`` turns a typed line into a :class:`~assistant_cli.session.Reply` of view data
(:mod:`solver.view`, built in :mod:`models.beyond_baker_street.views`), raises
:class:`~solver.errors.AssistantError` for a bad line (nothing changes), and keeps the journal of accepted entries
(rewritten atomically by :class:`~assistant_cli.session.Journal`). The terminal loop, piped stdin, file replay and
Ctrl-C recovery are the shared ones in ``main.py``.

What the user types is what happens at the table (:mod:`models.beyond_baker_street.observations`): the setup
(players, my seat, the case, the hands I see, the face-up Leads), then every Assist, card played, Confirm,
Pursue, Lead revealed and card another player draws. My own draw is added by the session (I cannot see the
card, and the rules say when it happens); ``me`` may stand for my seat number. After every entry it shows my
hand: for each position, the cards it can be with their exact probabilities.
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from assistant_cli.companion import (
    ClusterOption,
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
from assistant_cli.session import BaseSession, Command, Journal, Reply, SetupQuestion, no_args
from models.beyond_baker_street.advisor import Advice, advise, make_bot
from models.beyond_baker_street.data import DEFAULT_DATA, HAND_SIZES, ICONS, NUMBERS, SECTIONS, Evidence, GameData
from models.beyond_baker_street.hat import hat_advise, hat_table_of, in_play
from models.beyond_baker_street.knowledge import HandKnowledge, Told
from models.beyond_baker_street.observations import (
    Drew,
    Entry,
    parse,
    take_evidence,
)
from models.beyond_baker_street.rules import (
    LOSS_KINDS,
    BakerStreetState,
    TableRules,
    new_character_game,
    new_game,
    parse_characters,
)
from models.beyond_baker_street.views import (
    brief_view,
    describe_change,
    empathy_view,
    help_view,
    state_view,
    told_text,
    why_card_view,
    why_position_view,
)
from solver import view as v
from solver.errors import AssistantError
from solver.parsing import is_whole, parse_int, shown
from solver.simulate import Matchup, play_game
from solver.text import plural

GAME = "beyond-baker-street"
JOURNAL_HEADER = journal_header(GAME)
ADVICE_SHOWN = 8

COMMANDS: dict[str, tuple[str, ...]] = {
    "help": ("help", "h", "?"),
    "quit": ("quit", "exit", "q"),
    "show": ("show", "state", "s"),
    "undo": ("undo", "u"),
    "why": ("why",),
    "empathy": ("empathy", "they", "others"),
    "history": ("history", "hist"),
    "edit": ("edit",),
    "drop": ("drop",),
    "advise": ("advise", "advice"),
}
COMMAND_OF = {alias: name for name, aliases in COMMANDS.items() for alias in aliases}
ENTRY_VERBS = ("players", "me", "case", "start", "hand", "lead", "assist", "investigate", "eliminate", "confirm",
               "pursue", "draw", "character", "advance", "exchange", "swap", "return", "peek", "bury")
SEAT_VERBS = ("assist", "hint", "investigate", "inv", "eliminate", "elim", "confirm", "pursue", "draw", "character",
              "advance", "exchange", "swap", "return", "peek", "bury")

class Question(SetupQuestion):
    """One step of the setup dialogue; an answer starting with a command or an entry verb passes through."""

    KEYWORDS = frozenset([*COMMAND_OF, *ENTRY_VERBS])


class BakerStreetSession(BaseSession):
    """One player's Beyond Baker Street companion: setup, what happens at the table, the journal."""

    COMMAND_OF = COMMAND_OF

    def __init__(
        self, journal: Journal | None = None, data: GameData = DEFAULT_DATA, count_budget: float = 2.0
    ) -> None:
        super().__init__(journal, count_budget)  # count_budget unused: the counts here are always exact and fast
        self.data = data
        self.kn = HandKnowledge(data)

    @property
    def knowledge(self) -> HandKnowledge | None:
        return self.kn if self.kn.started else None

    # -- the loop -------------------------------------------------------------------------------------------
    def _help_view(self) -> v.View:
        return help_view(self.kn)

    def fresh(self) -> BakerStreetSession:
        return BakerStreetSession(None, self.data, self.count_budget)

    def _commands(self, show: bool) -> dict[str, Command]:
        return {"why": self._why, "empathy": self._empathy, "advise": self._advise}

    def _entry(self, tokens: list[str], show: bool) -> Reply:
        entry = parse(self._with_seat(tokens))
        before = self._by_card() if self.kn.started and show else None

        def reply() -> Reply:
            summary = f"recorded '{entry}'"
            if not show:
                return Reply([], True, summary=summary)
            change = describe_change(before, self._by_card()) if before is not None and self.kn.started else ""
            head = f"{summary}; {change}" if change else summary
            return Reply([self.state_view(head)], True, summary=head)

        return self._accept(str(entry), lambda: self._add(entry), reply)

    def _conflict_line(self, conflict: object) -> str | None:
        """An Assist named or skipped my card: the Assist's line; a card I see has no single line."""
        return str(conflict.assist) if isinstance(conflict, Told) else None

    def _by_card(self) -> list[tuple[int, dict[Evidence, float]]]:
        """My positions as (card id, distribution): ids follow a card as it moves along the hand."""
        kn = self.kn
        return [(slot.id, dist) for slot, dist in zip(kn.hands[kn.me], kn.hand(), strict=True)]

    def _with_seat(self, tokens: list[str]) -> str:
        """The line with 'me' standing for my seat number where a seat is expected."""
        if tokens[0].lower() not in SEAT_VERBS or not any(t.lower() == "me" for t in tokens[1:]):
            return " ".join(tokens)
        if self.kn.setup.me is None:
            raise AssistantError("'me' stands for your seat: enter 'me SEAT' first")
        return " ".join([tokens[0], *(str(self.kn.setup.me) if t.lower() == "me" else t for t in tokens[1:])])

    def _add(self, entry: Entry) -> None:
        """Add an entry, then my own draw when the rules make me draw (I cannot see the card)."""
        kn = self.kn
        started = kn.started
        kn.add(entry)
        if not started:
            return
        board = kn.board
        assert board is not None
        while board.pending and board.pending[0] == ("draw", kn.me):
            kn.add(Drew(kn.me))

    def _require(self, what: str) -> HandKnowledge:
        if not self.kn.started:
            raise AssistantError(f"{what}: finish the setup first, still need {', '.join(self.kn.missing())}")
        return self.kn

    # -- setup dialogue -------------------------------------------------------------------------------------
    def setup_question(self) -> Question | None:
        s = self.kn.setup
        if self.kn.started:
            return None
        if s.players is None:
            return Question("Number of players (2-4): ", "players")
        if s.me is None:
            return Question(f"Your seat (1-{s.players}): ", "me")
        if s.case is None:
            return Question("Case File (1-6): ", "case")
        if not s.no_characters:
            for seat in range(1, s.players + 1):
                if seat not in s.characters:
                    who = "Your" if seat == s.me else f"Player {seat}'s"
                    return Question(f"{who} Character (Tab completes the names; 'none': no Characters): ",
                                    f"character {seat}")
        if not any(line.startswith("start ") for line in self.lines) and not s.characters:
            return Question(f"Who takes the first turn (seat 1-{s.players})? ", "start")
        for seat in range(1, s.players + 1):
            if seat != s.me and seat not in s.hands:
                return Question(f"Player {seat}'s hand, left to right (e.g. 3W 5C 1D 6T): ", f"hand {seat}")
        have = {e.lead.section for e in s.leads}
        examples = {"Opportunity": "7C", "Motive": "10D", "Suspect": "12W"}
        for section in SECTIONS:
            if section not in have:
                return Question(f"The face-up {section} Lead (e.g. {examples[section]}): ", "lead")
        return None

    # -- views ----------------------------------------------------------------------------------------------
    def state_view(self, head: str | None) -> v.View:
        return state_view(self.kn, head)

    def brief_view(self) -> v.View:
        """One screen: the Leads, the tracks and the Impossible, what comes next, and your hand."""
        return brief_view(self.kn)

    def _why(self, args: list[str]) -> v.View:
        usage = "why POSITION [CARD] [steps]"
        kn = self._require("why")
        steps = bool(args) and args[-1].lower() == "steps"
        args = args[:-1] if steps else args
        if not args:
            raise AssistantError(f"why: expected '{usage}'")
        held = len(kn.hands[kn.me])
        pos = parse_int(args[0], "why: position", 1, max(HAND_SIZES.values()))
        if pos > held:
            raise AssistantError(f"why: position {pos}, but you hold {plural(held, 'card')}")
        if len(args) > 1:
            card, i = take_evidence(args, 1, usage)
            no_args("why", args[i:])
            if steps and card in kn.unseen():
                from assistant_cli.teach_games import BakerStreetTeacher, why_steps

                return v.Text(why_steps(BakerStreetTeacher(), self, (card.code, pos)))
            result = kn.explain(pos, card)
            prob = kn.hand()[pos - 1].get(card, 0.0)
            return why_card_view(card, pos, result, prob)
        return why_position_view(kn, pos)

    def _empathy(self, args: list[str]) -> v.View:
        kn = self._require("empathy")
        seats = [s for s in kn.hands if s != kn.me]
        if args:
            if len(args) != 1 or not is_whole(args[0]) or args[0] not in map(str, seats):
                among = ", ".join(map(str, seats[:-1])) + f" or {seats[-1]}" if len(seats) > 1 else str(seats[0])
                raise AssistantError(f"empathy {shown(' '.join(args))}: expected 'empathy [SEAT]' with SEAT {among} "
                                     "(another player)")
            seats = [int(args[0])]
        return empathy_view(kn, seats)

    def _advise(self, args: list[str]) -> v.View:
        kn = self._require("advise")
        words = [a.lower() for a in args]
        if not set(words) <= {"all", "hat"} or len(set(words)) != len(words):
            raise AssistantError(f"advise: unexpected '{' '.join(args)}', expected 'advise [all] [hat]'")
        board = kn.board
        assert board is not None
        if board.over:
            raise AssistantError(f"advise: the game is over ({board.result}: {board.reason})")
        note: list[v.View] = []
        if board.pending:
            raise AssistantError(f"advise: first enter '{board.expecting()}'")
        if board.current != kn.me:
            note.append(v.Text(f"(it is player {board.current}'s turn; this is what you would do now)", "muted"))
        advice = self._hat_advice(kn, note) if "hat" in words else advise(kn)
        return v.Group(*note, v.advice_view(advice, None if "all" in words else ADVICE_SHOWN, False))

    def _hat_advice(self, kn: HandKnowledge, note: list[v.View]) -> list[Advice]:
        """``advise hat``: the table plays the hat convention; what its messages told me, and its advice."""
        if not in_play(kn):
            note.append(v.Text("(the hat convention is played with 3 or 4 players in Case Files 3 to 6; this is the "
                               "plain advice)", "muted"))
            return advise(kn)
        hat = hat_table_of(kn)
        told = [f"position {i}: {hat.labels[s.id]}" for i, s in enumerate(kn.hands[kn.me], 1) if s.id in hat.labels]
        note.append(v.Text("Hat messages told you: " + ("; ".join(told) if told else "nothing yet") +
                           " (true only if every player follows the convention)", "muted"))
        return hat_advise(kn, hat)

    def summary(self) -> dict[str, object]:
        """The current state as plain data (``analyze --json``): ``hand`` has one map per position."""
        kn = self._require("analyze")
        board = kn.board
        assert board is not None
        return {
            "game": GAME,
            "players": kn.players,
            "me": kn.me,
            "case": board.case.number,
            "hand": [{c.name: p for c, p in sorted(d.items(), key=lambda kv: -kv[1])} for d in kn.hand()],
            "worlds": kn.worlds(),
            "told": [told_text(kn, kn.me, pos) for pos in range(1, len(kn.hands[kn.me]) + 1)],
            "empathy": {
                str(s): [{c.name: p for c, p in sorted(d.items(), key=lambda kv: -kv[1])} for d in kn.hand(s)]
                for s in kn.hands if s != kn.me
            },
            "board": {
                "leads": {
                    s: {
                        "lead": ls.lead.code if ls.lead else None,
                        "evidence": [c.code for c in ls.evidence],
                        "raised": [c.code for c in ls.raised],
                        "target": ls.target if ls.lead else None,
                        "confirmed": ls.confirmed,
                        "below": ls.pile,
                    }
                    for s, ls in board.leads.items()
                },
                "track": board.track,
                "holmes": board.holmes,
                "impossible": [c.code for c in board.impossible],
                "deck": board.deck,
                "next": None if board.over else board.current,
                "result": board.result,
            },
            "entries": list(self.lines),
        }

    # -- completion -----------------------------------------------------------------------------------------
    def _candidates(self, words: list[str]) -> list[str]:
        s = self.kn.setup
        if not words:
            return [*ENTRY_VERBS, *(aliases[0] for aliases in COMMANDS.values())]
        verb, pos = words[0].lower(), len(words)
        seats = [str(i) for i in range(1, (s.players or 4) + 1)] + (["me"] if s.me else [])
        cards = [c.code for c in (self.kn.unseen() if self.kn.started else self.data.evidence)]
        sections = list(SECTIONS)
        subjects = [*map(str, NUMBERS), *ICONS]
        if verb == "players":
            return [str(n) for n in sorted(self.data.hand_sizes)] if pos == 1 else []
        if verb in ("me", "start"):
            return seats[:-1] if pos == 1 and s.me else seats if pos == 1 else []
        if verb == "case":
            return [str(n) for n in sorted(self.data.case_files)] if pos == 1 else []
        if verb == "hand":
            return seats if pos == 1 else cards
        if verb == "lead":
            return [f"{v}{i[0]}" for v in range(7, 14) for i in ICONS] if pos == 1 else []
        if verb in ("assist", "hint"):
            return seats if pos <= 2 else subjects if pos == 3 else ["at"] if pos == 4 else ["1", "2", "3", "4"]
        if verb in ("investigate", "inv"):
            return seats if pos == 1 else ["1", "2", "3", "4", "5", "6"] if pos == 2 else cards if pos == 3 \
                else sections if pos == 4 else []
        if verb in ("eliminate", "elim"):
            return seats if pos == 1 else ["1", "2", "3", "4", "5", "6"] if pos == 2 else cards if pos == 3 else []
        if verb in ("confirm", "pursue"):
            return seats if pos == 1 else sections if pos == 2 else []
        if verb == "draw":
            return seats if pos == 1 else cards if pos == 2 else []
        if verb == "character":
            names = [c.name.replace(" ", "_") for c in sorted(self.data.characters.values(), key=lambda c: c.order)]
            return seats if pos == 1 else [*names, "none"] if pos == 2 else []
        if verb in ("advance",):
            return seats if pos == 1 else []
        if verb in ("return", "bury"):
            return seats if pos == 1 else cards if pos == 2 else []
        if verb == "exchange":
            return seats if pos == 1 else cards if pos in (2, 3) else []
        if verb == "peek":
            return seats if pos == 1 else [*cards, "top", "bottom"] if pos == 2 else ["top", "bottom"] if pos == 3 \
                else []
        if verb == "swap":
            return seats if pos in (1, 3) else ["1", "2", "3", "4", "5", "6"] if pos in (2, 4) else cards
        if COMMAND_OF.get(verb) == "why" and self.kn.started:
            held = [str(i) for i in range(1, len(self.kn.hands[self.kn.me]) + 1)]
            return held if pos == 1 else [c.code for c in self.kn.hand()[int(words[1]) - 1]] \
                if pos == 2 and words[1].isdigit() and words[1] in held else []
        if COMMAND_OF.get(verb) == "advise":
            return ["all", "hat"] if pos in (1, 2) else []
        return []


# -- the Typer apps ---------------------------------------------------------------------------------------------



# -- simulation ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SimulationSummary:
    """A cooperative run: the table wins or loses together."""

    games: int
    wins: int
    means: dict[str, float]  # per game, summed over the seats
    losses: dict[str, int]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def stderr(self) -> float:
        p = self.win_rate
        return math.sqrt(p * (1 - p) / self.games) if self.games else 0.0


def summarize_records(records: Sequence[Any]) -> SimulationSummary:
    n = len(records)
    wins = sum(1 for r in records if r.stats[0].get("won", 0.0))
    table_keys = {"won", "holmes", "track", *LOSS_KINDS}
    keys = sorted({k for r in records for st in r.stats for k in st} - table_keys)
    means = {k: sum(st.get(k, 0.0) for r in records for st in r.stats) / n for k in keys} if n else {}
    for k in ("holmes", "track"):
        means[f"{k}_at_end"] = sum(r.stats[0].get(k, 0.0) for r in records) / n if n else 0.0
    losses = {k: int(sum(r.stats[0].get(k, 0.0) for r in records)) for k in LOSS_KINDS}
    return SimulationSummary(n, wins, means, losses)


def simulate_command(
    games: GamesOption = 100,
    players: Annotated[int, typer.Option(help="Players at the table.", min=2, max=4)] = 3,
    case: Annotated[int, typer.Option(help="Case File.", min=1, max=6)] = 1,
    bots: Annotated[str, typer.Option(help="Bots seat by seat, comma-separated, or one name for every seat "
                                           "(random, advisor, hat: the advisor with the hat convention, "
                                           "every seat).")] = "advisor",
    seed: SeedOption = 0,
    workers: WorkersOption = 1,
    cluster: ClusterOption = None,
    as_json: SummaryJsonOption = False,
    replay: ReplayOption = None,
    characters: Annotated[str, typer.Option(help="Character cards: 'random' (drawn per game), or one name per "
                                                 "seat, comma-separated ('Toby,random,Lestrade'); empty: the "
                                                 "base game.")] = "",
) -> None:
    """Simulate Beyond Baker Street games (cooperative: the table wins or loses together)."""

    def build() -> Matchup:
        rules = TableRules(players, case)
        names = seat_bots(bots, players, lambda name: make_bot(name, 1, random.Random(0)), counted=False)
        if "hat" in names and set(names) != {"hat"}:
            raise AssistantError(f"--bots '{bots}': hat is a convention the whole table plays; make every seat hat")
        if characters.strip():
            seats = parse_characters(characters, players, rules.data)
            return Matchup(functools.partial(new_character_game, rules, seats), names, make_bot)
        return Matchup(functools.partial(new_game, rules), names, make_bot)

    chars = f" --characters {characters}" if characters.strip() else ""
    run = run_simulation(build, games, seed, workers, replay, _replay,
                         f"{GAME} --players {players} --case {case} --bots {bots}{chars}", cluster=cluster)
    if run is None:
        return
    names, elapsed = run.matchup.bots, run.elapsed
    summary = summarize_records(run.records)
    if as_json:
        typer.echo(json.dumps({
            "game": GAME, "games": summary.games, "seed": seed, "players": players, "case": case,
            "bots": list(names), "characters": characters or None, "wins": summary.wins, "win_rate": summary.win_rate,
            "win_rate_stderr": summary.stderr, "mean_per_game": summary.means, "losses": summary.losses,
        }, indent=2))
        return
    out = Console()
    table = Table(title=f"Beyond Baker Street, {players} players, Case File {case}, {summary.games} games "
                        f"({', '.join(names)}{'; characters ' + characters if chars else ''})")
    for col in ("Wins", "Win %", "s.e.", "Turns", "Assist", "Invest", "Wrong", "Elim", "Pursue", "Dead"):
        table.add_column(col, justify="right")
    m = summary.means
    table.add_row(str(summary.wins), f"{100 * summary.win_rate:.1f}", f"{100 * summary.stderr:.1f}",
                  *(f"{m.get(k, 0.0):.1f}" for k in ("turns", "assists", "investigates", "mismatches", "eliminates",
                                                      "pursues", "dead_leads")))
    out.print(table)
    lost = ", ".join(f"{k.removeprefix('lost_').replace('_', ' ')} {v}" for k, v in summary.losses.items())
    out.print(f"Losses: {lost}. Means are per game, all seats together (Wrong: investigated on the wrong "
              f"icon; Dead: Dead Leads). {speed_text(summary.games, elapsed, run.where)}.")


def _replay(matchup: Matchup, seed: int) -> None:
    record, state = play_game(matchup, seed)
    assert isinstance(state, BakerStreetState)
    out = Console()
    chars = f"; characters {', '.join(state.rules.characters)}" if state.rules.characters else ""
    out.print(f"Game seed {seed}: bots {', '.join(matchup.bots)}; first player {state.first_player}{chars}")
    for s in state.seats:
        out.print(f"  player {s} was dealt {' '.join(c.code for c in state.hand_log[s][0])}", highlight=False)
    for line in state.log:
        out.print(line, highlight=False)
    out.print(f"Result: {state.board.result} ({state.board.reason}) after {record.actions} actions.")
