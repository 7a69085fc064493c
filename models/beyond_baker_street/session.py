"""The Beyond Baker Street companion session (``assist beyond-baker-street``).

It follows the shared pattern (:class:`solver.session.BaseSession`): ``BeyondBeyondBakerStreetSession.handle(line)``
turns a typed line into a :class:`~solver.session.Reply` of view data (:mod:`solver.view`, built in
:mod:`models.beyond_baker_street.views`), raises :class:`~solver.errors.AssistantError` for a bad line (nothing
changes), and keeps the journal of accepted entries (rewritten atomically by :class:`~solver.session.Journal`).
The terminal loop, piped stdin, file replay and Ctrl-C recovery are the command line's.

What the user types is what happens at the table (:mod:`models.beyond_baker_street.observations`): the setup
(players, my seat, the case, the hands I see, the face-up Leads), then every Assist, card played, Confirm,
Pursue, Lead revealed and card another player draws. My own draw is added by the session (I cannot see the
card, and the rules say when it happens); ``me`` may stand for my seat number. After every entry it shows my
hand: for each position, the cards it can be with their exact probabilities.
"""

from __future__ import annotations

from models.beyond_baker_street import ENTRY, choices
from models.beyond_baker_street.advisor import Advice, advise
from models.beyond_baker_street.claims import BeyondBakerStreetClaims
from models.beyond_baker_street.data import DEFAULT_DATA, HAND_SIZES, SECTIONS, Evidence, GameData
from models.beyond_baker_street.hat import hat_advise, hat_table_of, in_play
from models.beyond_baker_street.knowledge import HandKnowledge, Told
from models.beyond_baker_street.observations import (
    Assist,
    DoubleAssist,
    Drew,
    Entry,
    Hand,
    parse,
    take_evidence,
)
from models.beyond_baker_street.views import (
    brief_view,
    describe_change,
    do_line,
    drawn_view,
    empathy_view,
    help_view,
    state_view,
    told_text,
    why_card_view,
    why_position_view,
)
from solver import view as v
from solver.claims import why_steps
from solver.errors import AssistantError
from solver.parsing import is_whole, parse_int, shown
from solver.session import BaseSession, Choice, Command, Journal, Reply, SetupQuestion, no_args
from solver.text import off_turn, plural

GAME = ENTRY.name
JOURNAL_HEADER = ENTRY.header
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


class BeyondBakerStreetSession(BaseSession):
    """One player's Beyond Baker Street companion: setup, what happens at the table, the journal."""

    COMMAND_OF = COMMAND_OF
    ENTRY_WORDS = ENTRY_VERBS

    def __init__(
        self, journal: Journal | None = None, data: GameData = DEFAULT_DATA, count_budget: float = 2.0
    ) -> None:
        super().__init__(journal, count_budget)  # count_budget unused: the counts here are always exact and fast
        self.data = data
        self._kn = HandKnowledge(data)  # the setup so far, then the knowledge

    @property
    def knowledge(self) -> HandKnowledge | None:
        """The knowledge model once the setup is complete, else None."""
        return self._kn if self._kn.started else None

    # -- the loop -------------------------------------------------------------------------------------------
    def _help_view(self) -> v.View:
        return help_view(self._kn)

    def fresh(self) -> BeyondBakerStreetSession:
        return BeyondBakerStreetSession(None, self.data, self.count_budget)

    def _commands(self, show: bool) -> dict[str, Command]:
        return {"why": self._why, "empathy": self._empathy, "advise": self._advise}

    def _entry(self, tokens: list[str], show: bool) -> Reply:
        entry = parse(self._with_seat(tokens))
        before = self._by_card() if self._kn.started and show else None

        def reply() -> Reply:
            summary = f"recorded '{entry}'"
            if not show:
                return Reply([], True, summary=summary)
            change = describe_change(before, self._by_card()) if before is not None and self._kn.started else ""
            head = f"{summary}; {change}" if change else summary
            return Reply([self.state_view(head)], True, summary=head)

        return self._accept(str(entry), lambda: self._add(entry), reply)

    def _conflict_line(self, conflict: object) -> str | None:
        """An Assist named or skipped my card: the Assist's line; the entry that showed me a card (its 'hand' line
        or draw): that line; a card I see elsewhere has no single line."""
        if isinstance(conflict, Told):
            return str(conflict.assist)
        return str(conflict) if isinstance(conflict, Hand | Drew) else None

    def _by_card(self) -> list[tuple[int, dict[Evidence, float]]]:
        """My positions as (card id, distribution): ids follow a card as it moves along the hand."""
        kn = self._kn
        return [(slot.id, dist) for slot, dist in zip(kn.hands[kn.me], kn.hand(), strict=True)]

    def _with_seat(self, tokens: list[str]) -> str:
        """The line with 'me' standing for my seat number where a seat is expected."""
        if tokens[0].lower() not in SEAT_VERBS or not any(t.lower() == "me" for t in tokens[1:]):
            return " ".join(tokens)
        if self._kn.setup.me is None:
            raise AssistantError("'me' stands for your seat: enter 'me SEAT' first")
        return " ".join([tokens[0], *(str(self._kn.setup.me) if t.lower() == "me" else t for t in tokens[1:])])

    def _add(self, entry: Entry) -> None:
        """Add an entry, then my own draw when the rules make me draw (I cannot see the card)."""
        kn = self._kn
        started = kn.started
        kn.add(entry)
        if not started:
            return
        board = kn.board
        assert board is not None
        while board.pending and board.pending[0] == ("draw", kn.me):
            kn.add(Drew(kn.me))

    def _require(self, what: str) -> HandKnowledge:
        if not self._kn.started:
            raise AssistantError(f"{what}: finish the setup first, still need {', '.join(self._kn.missing())}")
        return self._kn

    # -- setup dialogue -------------------------------------------------------------------------------------
    def missing_setup(self) -> str:
        return ", ".join(self._kn.missing())

    def table_ranges(self) -> dict[str, tuple[int, int]]:
        ranges = {"case": (min(self.data.case_files), max(self.data.case_files))}
        players = self._kn.setup.players
        if players:
            ranges["seat"] = (1, players)
        return ranges

    def setup_question(self) -> Question | None:
        s = self._kn.setup
        if self._kn.started:
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
        return state_view(self._kn, head)

    def state(self, brief: bool = False) -> list[v.View]:
        """The table drawn (:func:`views.drawn_view`) above the state at a glance (the same board in sentences,
        which say a little more: how far over its limit the Impossible is), once the game started."""
        if brief or not self._kn.started:
            return super().state(brief)
        return [drawn_view(self._kn), self.state_view(None)]

    def _show_reply(self) -> Reply:
        return Reply(self.state())

    def brief_view(self) -> v.View:
        """One screen: the Leads, the tracks and the Impossible, what comes next, and your hand."""
        return brief_view(self._kn)

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
                return v.Text(why_steps(BeyondBakerStreetClaims(kn), (card.code, pos)))
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
            note.append(v.Text(off_turn(board.current, f"your move on the table as it is, before player "
                                                        f"{board.current} moves"), "muted"))
        advice = self._hat_advice(kn, note) if "hat" in words else advise(kn)
        do = self._do_line if board.current == kn.me else None  # my move only: an entry of mine
        return v.Group(*note, v.advice_view(advice, None if "all" in words else ADVICE_SHOWN, False, do))

    def _do_line(self, action: object) -> str | None:
        """My advised ``action``'s entry line ("do this"): an Assist whole, with the positions the choices give
        for its subject (I see the hand I point to), else :func:`do_line`'s."""
        kn = self.knowledge
        assert kn is not None
        if isinstance(action, Assist):
            return self._assist_line(f"assist {kn.me} ", action) or do_line(action, kn.me)
        if isinstance(action, DoubleAssist):  # Lady Hilda Hope: the second Assist after 'and'
            first = self._assist_line(f"assist {kn.me} ", action.first)
            whole = self._assist_line(f"{first} and ", action.second) if first else None
            return whole or (f"{first} and " if first else None)
        line = do_line(action, kn.me)  # type: ignore[arg-type]
        if line is not None and line.endswith(" "):  # the rest: whatever the knowledge leaves one way to enter
            return self._known_rest(line, getattr(action, "section", None))
        return line

    def _known_rest(self, head: str, section: str | None = None) -> str:
        """``head`` followed by each next word the choices offer only one of (my card at a position when the
        knowledge has one left, a card I see), then the advised Lead ``section`` among the Leads offered (before
        the card when my card there is not known, as the Lead is chosen at the table before the card is seen): the
        whole entry when nothing unknown is left, else up to the first word only the table can tell (the
        choices then offer exactly its legal values)."""
        line = head
        for _ in range(4):  # an entry has at most four words after its start (swap: the two cards)
            offered = self.choices(line)
            words = [c.word for c in offered]
            cards = [c for c in offered if c.word not in SECTIONS]  # a Lead offered first is a choice, not a card
            if len(cards) == 1:
                chosen = cards[0]
            elif section is not None and section in words:
                chosen = offered[words.index(section)]
            elif len(offered) == 1:
                chosen = offered[0]
            else:
                break
            if chosen.complete:
                whole = line + chosen.word
                return whole if self.fits(whole) else head
            line += chosen.word + " "
        return line

    def _assist_line(self, head: str, action: Assist) -> str | None:
        """``head`` and the Assist ``action`` with its positions, as the choices offer it (``None`` if they do
        not offer its subject)."""
        head = f"{head}{action.target} "
        subject = str(action.subject).lower()
        for choice in self.choices(head):
            if choice.word.lower().split(" at ")[0] == subject:
                return head + choice.word
        return None

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

    # -- the legal next words (models.beyond_baker_street.choices) -----------------------------------------
    def _entry_choices(self, words: list[str]) -> list[Choice]:
        return choices.choices(self, words)

    def _command_args(self, command: str, words: list[str]) -> list[Choice]:
        return choices.command_args(self, command, words)
