"""The Thirteen Clues companion session: one object that turns a typed line into a reply.

``ThirteenCluesSession.handle(line)`` is the whole interactive loop minus any interface: it parses the line,
updates the setup or the knowledge model, keeps the journal of accepted entries and returns a :class:`Reply`
holding view data (:mod:`models.thirteen_clues.views`), which the terminal and the web page draw alike. It
raises :class:`solver.errors.AssistantError` for user errors and changes nothing then. The shared machinery
(journal, replay, edit and drop) is :class:`solver.session.BaseSession`.

The journal holds the lines that make up the current state, in canonical form (``str`` of the parsed entry,
so prefixes like ``ask 3 re 2`` are saved as ``ask 3 Red 2``); what-ifs are saved as ``whatif <entry>``.
``undo`` removes the last line, ``whatif clear`` removes the what-if lines. It is rewritten atomically after
every accepted entry, so a crash or Ctrl-C loses nothing.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from models.thirteen_clues import ENTRY, choices, views
from models.thirteen_clues.bga import BgaDeal, BgaDealError, parse_deal, parse_order, read_deal_file
from models.thirteen_clues.claims import ThirteenCluesClaims
from models.thirteen_clues.data import DEFAULT_DATA, GameData
from models.thirteen_clues.knowledge import MYSTERY, TableSetup, ThirteenCluesKnowledge, place_label
from models.thirteen_clues.observations import (
    CARD_NAMES,
    Accusation,
    Entry,
    InformantBy,
    InformantLook,
    Observation,
    Witness,
    parse,
)
from solver import view as v
from solver.claims import why_steps
from solver.errors import AssistantError
from solver.knowledge import Count
from solver.parsing import is_whole, parse_int
from solver.session import BaseSession, Choice, Command, Journal, Reply, SetupQuestion, no_args
from solver.teaching import journal_numbers
from solver.text import plural

JOURNAL_HEADER = ENTRY.header

# Session commands (not journaled) and their aliases; everything else is an entry for the parser.
COMMANDS: dict[str, tuple[str, ...]] = {
    "help": ("help", "h", "?"),
    "quit": ("quit", "exit", "q"),
    "show": ("show", "state", "s"),
    "undo": ("undo", "u"),
    "why": ("why",),
    "locations": ("locations", "loc", "where"),
    "whatif": ("whatif", "what-if", "wi", "suppose"),
    "history": ("history", "hist"),
    "advise": ("advise", "advice", "hint"),
    "edit": ("edit",),
    "drop": ("drop",),
    "seats": ("seats",),
}
COMMAND_OF = {alias: name for name, aliases in COMMANDS.items() for alias in aliases}
ENTRY_VERBS = ("players", "me", "private", "screen", "ask", "informant", "accuse", "subcategories")
ENTRY_ALIASES = ("witness", "sees", "inf", "accusation")
OBSERVATION_TYPES = (Witness, InformantLook, InformantBy, Accusation)
ADVICE_SHOWN = 8  # rows of advice shown unless 'advise all'
#: The first line of every advice: the entries never say whose turn it is (an ask names who is asked, not who
#: asks), so the advice is always what I would do on my turn now, as off-turn advice in the other games.
NO_TURN_NOTE = "(the entries do not say whose turn it is; this is what you would do now, on your turn)"


@dataclass(frozen=True)
class Question(SetupQuestion):
    """A step of the Thirteen Clues setup dialogue (an answer starting with one of these words is a command)."""

    KEYWORDS: ClassVar[frozenset[str]] = frozenset([*COMMAND_OF, *ENTRY_VERBS, *ENTRY_ALIASES])


@dataclass(frozen=True)
class Snapshot:
    """What the state-at-a-glance shows, kept to describe what the next entry changed."""

    mystery: dict[str, dict[str, float]]
    places: dict[str, frozenset[str]]
    count: Count
    whatifs: tuple[str, ...]


class ThirteenCluesSession(BaseSession):
    """One player's Thirteen Clues companion: setup, observations, what-ifs, journal."""

    COMMAND_OF = COMMAND_OF
    ENTRY_WORDS = ENTRY_VERBS
    NO_ARGS = BaseSession.NO_ARGS | {"locations"}

    #: What :meth:`import_setup` reads (the page offers a box for it while the setup is not started).
    IMPORT_LABEL = "Board Game Arena deal: paste the visible_cards_players JSON"

    def __init__(
        self,
        journal: Journal | None = None,
        data: GameData = DEFAULT_DATA,
        count_budget: float = 2.0,
        bga_deal: str | None = None,
        bga_seats: str | None = None,
    ) -> None:
        super().__init__(journal, count_budget)
        self.data = data
        self.setup = TableSetup(data=data)
        self.knowledge: ThirteenCluesKnowledge | None = None
        self._entries: list[tuple[Entry, bool]] = []  # parallel to ``lines``: (entry, hypothetical)
        self._snapshot: Snapshot | None = None
        self._show = True
        self._bga: BgaDeal | None = None  # a BGA deal waiting for its seat order
        self._grid: tuple[object, dict[str, dict[str, float]]] | None = None  # (constraints, grid) last computed
        if bga_deal is not None:
            self.import_setup(read_deal_file(bga_deal), bga_seats or "")

    # -- the loop -------------------------------------------------------------------------------------------
    def handle(self, line: str, show: bool = True) -> Reply:
        self._show = show  # the state views of this line read it
        return super().handle(line, show)

    def _help_view(self) -> v.View:
        return views.help_view()

    def fresh(self) -> ThirteenCluesSession:
        return ThirteenCluesSession(None, self.data, self.count_budget)

    def state(self, brief: bool = False) -> list[v.View]:
        if brief or self.knowledge is None:
            return [self.brief_view()]
        snap = self._take_snapshot()
        return [self.drawn_view(), views.state_view(snap.mystery, snap.count, snap.whatifs, None)]

    def grid(self) -> dict[str, dict[str, float]]:
        """Every unseen card's exact probability in every place (0 where it is ruled out; ``grid`` of ``analyze
        --json``): one joint count per place other than my mystery (:meth:`ThirteenCluesKnowledge.joints`, exact
        and fast whatever the count budget, and the same computation as the count), so the card x holder grid
        never rests on an estimate."""
        knowledge = self._require_knowledge("grid")
        observed = [c for e in knowledge.knowledge.entries for c in e.constraints]
        key = (id(knowledge), tuple(observed))  # the grid of these exact constraints, once (the page redraws it)
        if self._grid is not None and self._grid[0] == key:
            return self._grid[1]
        possible = knowledge.knowledge.possible()
        joints = knowledge.joints()
        probes = [p for p in knowledge.capacities if p != MYSTERY]
        first = joints[probes[0]]
        total = first.total
        pivot_counts = first.pivot_counts()
        probe_counts = {place: joints[place].probe_counts() for place in probes}
        out: dict[str, dict[str, float]] = {card: {} for card in knowledge.unseen}
        for i, card in enumerate(first.items):
            rows = (first.pivots >> i) & 1 == 1
            out[card][MYSTERY] = int(pivot_counts[rows].sum()) / total if total else 0.0
            for place in probes:
                columns = (joints[place].probes >> i) & 1 == 1
                out[card][place] = int(probe_counts[place][columns].sum()) / total if total else 0.0
        order = list(knowledge.capacities)
        grid = {card: {p: out[card].get(p, 0.0) if p in possible[card] else 0.0 for p in order}
                for card in knowledge.unseen}
        self._grid = (key, grid)
        return grid

    def drawn_view(self) -> v.View:
        """The table drawn (:func:`views.drawn_view`): my mystery's candidates, the cards I see, the grid."""
        knowledge = self._require_knowledge("show")
        possible = knowledge.knowledge.possible()
        return views.drawn_view(knowledge.mystery(), self.grid(), possible, list(knowledge.capacities),
                                knowledge.private, knowledge.setup.screens, knowledge.me, knowledge.count().exact)

    def _show_reply(self) -> Reply:
        reply = self._state_reply(summary=None, diff=False, accepted=False)
        if self.knowledge is None or not reply.renderables:
            return reply
        return Reply([self.drawn_view(), *reply.renderables], reply.accepted, summary=reply.summary)

    def _changed_reply(self, summary: str, show: bool) -> Reply:
        self._show = show  # the rebuilt state came from a replay, which showed nothing
        return self._state_reply(summary, diff=False)

    def brief_view(self) -> v.View:
        if self.knowledge is None:
            return views.setup_view(self.setup, None)
        snap = self._take_snapshot()
        return views.brief_view(snap.mystery, snap.count, snap.whatifs)

    def _commands(self, show: bool) -> dict[str, Command]:
        return {"why": self._why, "locations": lambda args: self._locations(), "whatif": self._whatif,
                "advise": self._advise, "seats": lambda args: self._seats(" ".join(args))}

    def _entry(self, tokens: list[str], show: bool) -> Reply:
        entry = parse(" ".join(tokens))
        if isinstance(entry, OBSERVATION_TYPES):
            return self._observe(entry, hypothetical=False)
        return self._setup_entry(entry)

    # -- setup ----------------------------------------------------------------------------------------------
    def import_setup(self, text: str, seats: str = "") -> Reply:
        """Import a Board Game Arena deal (:mod:`models.thirteen_clues.bga`) as the setup lines it stands for,
        journalled like typed ones. When the ids do not give the seat order and ``seats`` is empty, the deal
        waits and the setup dialogue asks for it ('seats ID ID ...'). Raises with one line, changing nothing, on
        a bad deal or when the setup has already started."""
        if self.lines:
            raise BgaDealError(f"BGA deal: this game already has {plural(len(self.lines), 'entry')}; import a deal "
                               "into a new game")
        deal = parse_deal(text)
        order = parse_order(seats, deal) if seats.strip() else deal.seat_order()
        if order is None:
            self._bga = deal
            question = self.setup_question()
            assert question is not None
            return Reply([v.Text(f"BGA deal read: you hold {deal.private[0]} and {deal.private[1]}; "
                                 f"{question.prompt.strip()}", "accent")])
        return self._apply_deal(deal, order)

    def pending_setup(self) -> str | None:
        """The imported setup still waiting (a BGA deal waiting for its seat order) as text that
        :meth:`restore_setup` reads back, or None: what a server keeps beside the journal across a restart."""
        return self._bga.to_json() if self._bga is not None and not self.lines else None

    def restore_setup(self, text: str) -> None:
        """Make the deal ``text`` (:meth:`pending_setup`'s) wait for its seat order again, in a game with no entry
        yet; one-line :class:`BgaDealError` for a text that is no deal, changing nothing."""
        if self.lines:
            raise BgaDealError(f"BGA deal: this game already has {plural(len(self.lines), 'entry')}")
        self._bga = parse_deal(text)

    def _seats(self, text: str) -> Reply:
        """``seats ID ID ...``: the seat order of a BGA deal waiting for it."""
        if self._bga is None:
            raise AssistantError("seats: no Board Game Arena deal is waiting for its seat order")
        if not text.strip():
            raise AssistantError(f"seats: expected the ids {' '.join(self._bga.ids)} clockwise from seat 1")
        return self._apply_deal(self._bga, parse_order(text, self._bga))

    def _apply_deal(self, deal: BgaDeal, order: Sequence[str]) -> Reply:
        if self.lines:
            raise BgaDealError(f"BGA deal: the setup has started ('{self.lines[0]}'); undo it or import the deal into "
                               "a new game")
        lines = deal.lines(order)
        trial = self.fresh()
        for line in lines:  # every line checked before any is recorded: a bad deal changes nothing
            try:
                trial.handle(line, show=False)
            except AssistantError as exc:
                words = line.split()
                who = order[int(words[1]) - 1] if words[0] == "screen" else deal.me
                raise BgaDealError(f"BGA deal: player {who}: {exc}") from None
        self._bga = None
        reply = Reply()
        for line in lines:
            reply = self.handle(line, show=line == lines[-1])
        return reply

    def table_ranges(self) -> dict[str, tuple[int, int]]:
        return {"seat": (1, self.setup.players)} if self.setup.players else {}

    def missing_setup(self) -> str:
        return ", ".join(self.setup.missing())

    def setup_question(self) -> Question | None:
        """The next question of the setup dialogue, or None once the setup is complete."""
        s = self.setup
        if self._bga is not None:
            return Question(f"Seat order of the BGA deal: the player ids clockwise from seat 1 "
                            f"({' '.join(self._bga.ids)}): ", "seats")
        if s.players is None:
            return Question("Number of players (2-6): ", "players")
        if s.me is None:
            return Question(f"Your seat (1-{s.players}): ", "me")
        if s.private is None:
            return Question("Your two private cards (left then right): ", "private")
        for seat in s.seats_others():
            if seat not in s.screens:
                return Question(f"Player {seat}'s screen (person location weapon): ", f"screen {seat}")
        return None

    def _setup_entry(self, entry: Entry) -> Reply:
        before = self.knowledge
        if before is None:
            setup = copy.deepcopy(self.setup)  # TableSetup.apply may fail half-way: work on a copy
            setup.apply(entry)
            knowledge = self._new_knowledge(setup) if setup.complete() else None
        else:
            # A correction after the game started: rebuild from scratch so every observation is re-checked.
            setup, knowledge = self._build([*self._entries, (entry, False)])

        def apply() -> None:
            self.setup, self.knowledge = setup, knowledge
            self._entries.append((entry, False))

        def reply() -> Reply:
            if knowledge is None:
                return self._state_reply(f"recorded '{entry}'")
            if before is None:
                summary = f"setup complete: {plural(len(knowledge.unseen), 'card')} unseen; '{entry}' recorded"
                self._snapshot = None
                return self._state_reply(summary=summary, diff=False)
            return self._state_reply(summary=f"'{entry}' (setup changed, every entry re-checked)")

        return self._accept(str(entry), apply, reply)

    def _new_knowledge(self, setup: TableSetup) -> ThirteenCluesKnowledge:
        return ThirteenCluesKnowledge(setup, count_budget=self.count_budget)

    def _build(self, entries: Sequence[tuple[Entry, bool]]) -> tuple[TableSetup, ThirteenCluesKnowledge | None]:
        """The setup and knowledge that ``entries`` give; raises on the first entry that does not fit."""
        setup = TableSetup(data=self.data)
        for entry, _ in entries:
            if not isinstance(entry, OBSERVATION_TYPES):
                setup.apply(entry)
        if not setup.complete():
            return setup, None
        knowledge = self._new_knowledge(setup)
        for entry, hypothetical in entries:
            if isinstance(entry, OBSERVATION_TYPES):
                knowledge.add(entry, hypothetical)
        return setup, knowledge

    # -- observations, undo, what-ifs -----------------------------------------------------------------------
    def _require_knowledge(self, what: str) -> ThirteenCluesKnowledge:
        if self.knowledge is None:
            raise AssistantError(f"{what}: finish the setup first, still need {', '.join(self.setup.missing())}")
        return self.knowledge

    def _observe(self, obs: Observation, hypothetical: bool) -> Reply:
        knowledge = self._require_knowledge(f"'{obs}'")
        line = f"whatif {obs}" if hypothetical else str(obs)
        label = f"what-if '{obs}' (not a fact)" if hypothetical else f"'{obs}'"

        def apply() -> None:
            self._baseline()
            knowledge.add(obs, hypothetical)
            self._entries.append((obs, hypothetical))

        return self._accept(line, apply, lambda: self._state_reply(summary=label))

    def _undo(self, show: bool) -> Reply:
        """Remove the last line (``show`` is in ``self._show`` already, where the state views read it)."""
        if not self.lines:
            raise AssistantError("undo: nothing to undo")
        line = self.lines[-1]
        entry, hypothetical = self._entries[-1]
        if isinstance(entry, OBSERVATION_TYPES):
            assert self.knowledge is not None
            self._baseline()
            self.knowledge.undo()
        else:
            had_knowledge = self.knowledge is not None
            self.setup, self.knowledge = self._build(self._entries[:-1])
            if not had_knowledge or self.knowledge is None:
                self._snapshot = None
        self.lines.pop()
        self._entries.pop()
        self._save()
        return self._state_reply(summary=f"undid '{line}'")

    def _whatif(self, args: list[str]) -> Reply:
        if not args:
            raise AssistantError("whatif: expected 'whatif ENTRY' (e.g. 'whatif ask 3 Red 2') or 'whatif clear'")
        if args[0].lower() == "clear":
            no_args("whatif clear", args[1:])
            knowledge = self._require_knowledge("whatif clear")
            if not knowledge.knowledge.whatifs:
                raise AssistantError("whatif clear: there is no what-if to clear")
            return self._guarded(lambda: self._clear_whatifs(knowledge), resave=True)
        entry = parse(" ".join(args))
        if not isinstance(entry, OBSERVATION_TYPES):
            raise AssistantError(f"whatif {entry}: expected an observation (ask, informant, accuse), not setup")
        return self._observe(entry, hypothetical=True)

    def _clear_whatifs(self, knowledge: ThirteenCluesKnowledge) -> Reply:
        """Drop every what-if: the facts stay (run through ``_guarded``)."""
        self._baseline()
        dropped = knowledge.knowledge.clear_whatifs()
        keep = [i for i, (_, hyp) in enumerate(self._entries) if not hyp]
        self.lines = [self.lines[i] for i in keep]
        self._entries = [self._entries[i] for i in keep]
        self._save()
        shown = ", ".join(f"'{o}'" for o in dropped)
        return self._state_reply(summary=f"cleared what-if {shown}; back to the facts")

    # -- queries --------------------------------------------------------------------------------------------
    def _why(self, args: list[str]) -> Reply:
        usage = "why CARD [PLACE] [steps]  (PLACE: mystery, a seat number, or an informant letter)"
        steps = bool(args) and args[-1].lower() == "steps"
        args = args[:-1] if steps else args
        if not args:
            raise AssistantError(f"why: expected '{usage}'")
        knowledge = self._require_knowledge("why")
        card, i = CARD_NAMES.take(args, 0)
        place = self._place(args[i:], knowledge, usage)
        if steps and knowledge.where_visible(card) is None:
            numbers = journal_numbers(self.lines, len(knowledge.knowledge.entries))
            return Reply([v.Text(why_steps(ThirteenCluesClaims(knowledge, numbers), (card, place)))])
        result = knowledge.explain(card, place)
        whatifs = set(knowledge.knowledge.whatifs)
        prob = knowledge.count().probability((card, MYSTERY)) if place == MYSTERY else None
        return Reply([views.explanation_view(card, place_label(place), result, whatifs, prob)])

    @staticmethod
    def _place(args: list[str], knowledge: ThirteenCluesKnowledge, usage: str) -> str:
        if not args:
            return MYSTERY
        text = "".join(args).lower()
        if text in ("mystery", "me", "mine", "my", "mymystery"):
            return MYSTERY
        if text.upper() in knowledge.letters:
            return text.upper()
        seat_text, side = text, ""
        for word, code in (("left", "L"), ("right", "R"), ("l", "L"), ("r", "R")):
            if text.endswith(word) and is_whole(text[: -len(word)]):
                seat_text, side = text[: -len(word)], code
                break
        if is_whole(seat_text):
            seat = parse_int(seat_text, "why: seat", 1, knowledge.players)
            places = knowledge.private_places(seat) if seat != knowledge.me else []
            if knowledge.players == 2 and side:
                places = [p for p in places if p.endswith(side)]
            if len(places) == 1 and places[0] in knowledge.capacities:
                return places[0]
            if len(places) > 1:
                raise AssistantError(f"why: place '{' '.join(args)}': in a two-player game say '{seat}left' or "
                                     f"'{seat}right'")
        raise AssistantError(f"why: unknown place '{' '.join(args)}', expected '{usage}'")

    def _locations(self) -> Reply:
        knowledge = self._require_knowledge("locations")
        hypothetical = bool(knowledge.knowledge.whatifs)
        return Reply([views.locations_view(knowledge.locations(), list(knowledge.capacities), hypothetical)])

    def _advise(self, args: list[str]) -> Reply:
        usage = "advise [all] [glasses N]"
        knowledge = self._require_knowledge("advise")
        words = [a.lower() for a in args]
        show_all = "all" in words
        if show_all:
            words.remove("all")
        kwargs: dict[str, int] = {}
        if words[:1] == ["glasses"] and len(words) == 2:
            # The glasses I hold: at most one per player is in the game (rulebook: the box has one per player).
            kwargs["glasses"] = parse_int(words[1], "advise glasses", 1, knowledge.players)
        elif words:
            raise AssistantError(f"advise: unexpected '{' '.join(args)}', expected '{usage}'")
        from models.thirteen_clues.advisor import advise  # NumPy and the joint counts: only when asked

        advice = advise(knowledge, **kwargs)
        hypothetical = bool(knowledge.knowledge.whatifs)
        me = knowledge.me
        over = knowledge.winning_accusation() is not None  # no entry is legal any more: no "do this"
        # The entries name who is asked, never who asks: no turn order to check, so the advice says what it is.
        return Reply([v.Group(v.Text(NO_TURN_NOTE, "muted"),
                              views.advice_view(advice, None if show_all else ADVICE_SHOWN, hypothetical,
                                                None if over else lambda action: views.do_line(action, me)))])

    # -- state at a glance ----------------------------------------------------------------------------------
    def _baseline(self) -> None:
        """Remember the state before a change, so the reply can say what the change did."""
        if self._show and self._snapshot is None:
            self._snapshot = self._take_snapshot()

    def _take_snapshot(self) -> Snapshot:
        knowledge = self.knowledge
        assert knowledge is not None
        places = {card: frozenset(p) for card, p in knowledge.knowledge.possible().items()}
        whatifs = tuple(str(o) for o in knowledge.knowledge.whatifs)
        return Snapshot(knowledge.mystery(), places, knowledge.count(), whatifs)

    def _state_reply(self, summary: str | None, diff: bool = True, accepted: bool = True) -> Reply:
        """The state at a glance, headed by ``summary`` and what changed since the last view."""
        if not self._show:
            self._snapshot = None  # the next view has no baseline; an entry takes one before it changes the state
            return Reply([], accepted, summary=summary)
        if self.knowledge is None:
            return Reply([views.setup_view(self.setup, summary)], accepted, summary=summary)
        before, after = self._snapshot, self._take_snapshot()
        self._snapshot = after
        comparable = diff and before is not None and before.places.keys() == after.places.keys()
        changes = describe_changes(before, after) if comparable and before is not None else ""
        head = "; ".join(part for part in (summary, changes) if part) or None
        return Reply([views.state_view(after.mystery, after.count, after.whatifs, head)], accepted, summary=head)

    def snapshot(self) -> Snapshot:
        """The current state (for the demo and for JSON output)."""
        self._require_knowledge("show")
        return self._take_snapshot()

    def solved(self) -> dict[str, str] | None:
        """My mystery as {category: card} once every category has one candidate left, else None."""
        if self.knowledge is None:
            return None
        mystery = self.knowledge.mystery()
        if all(len(cards) == 1 for cards in mystery.values()):
            return {cat: next(iter(cards)) for cat, cards in mystery.items()}
        return None

    def summary(self) -> dict[str, object]:
        """The final state as plain data (``analyze --json``)."""
        knowledge = self._require_knowledge("analyze")
        count = knowledge.count()
        mystery = knowledge.mystery()
        worlds: float | int = int(count.worlds) if count.exact else count.worlds
        out: dict[str, object] = {
            "worlds": worlds,
            "exact": count.exact,
            "solved": all(len(cards) == 1 for cards in mystery.values()),
            "mystery": mystery,
            "locations": {card: [place_label(p) for p in ps] for card, ps in knowledge.locations().items()},
            "grid": self.grid(),
            "entries": [line for line, (_, hyp) in zip(self.lines, self._entries, strict=True) if not hyp],
            "whatifs": [str(o) for o in knowledge.knowledge.whatifs],
        }
        if not count.exact:
            out["stderr"] = count.stderr
            out["note"] = count.note
        return out

    # -- the legal next words (models.thirteen_clues.choices) ----------------------------------------------
    def _entry_choices(self, words: list[str]) -> list[Choice]:
        return choices.choices(self, words)

    def _command_choices(self) -> list[Choice]:
        """The commands, with ``seats`` only while a pasted deal waits for its seat order."""
        return [c for c in super()._command_choices() if c.word != "seats" or self._bga is not None]

    def _command_args(self, command: str, words: list[str]) -> list[Choice]:
        return choices.command_args(self, command, words)


def describe_changes(before: Snapshot, after: Snapshot) -> str:
    """One line saying what changed: cards ruled out of / back into my mystery, categories narrowed,
    placements learned elsewhere, and the world count."""
    parts = []
    out_cards = [c for cat in before.mystery for c in before.mystery[cat] if c not in after.mystery[cat]]
    back = [c for cat in after.mystery for c in after.mystery[cat] if c not in before.mystery[cat]]
    if out_cards:
        parts.append(f"ruled out {', '.join(out_cards)}")
    if back:
        parts.append(f"possible again: {', '.join(back)}")
    for cat, cards in after.mystery.items():
        if len(cards) != len(before.mystery[cat]):
            if len(cards) == 1:
                parts.append(f"{cat} solved: {next(iter(cards))}")
            else:
                parts.append(f"{cat} now {len(cards)} candidates")
    removed = sum(len(before.places[c] - after.places[c]) for c in after.places)
    added = sum(len(after.places[c] - before.places[c]) for c in after.places)
    newly_fixed = [
        f"{c} is {place_label(next(iter(ps)))}"
        for c, ps in after.places.items()
        if len(ps) == 1 and len(before.places[c]) > 1 and MYSTERY not in ps
    ]
    if newly_fixed:
        parts.append("; ".join(newly_fixed))
    if not out_cards and not back:
        if removed or added:
            elsewhere = []
            if removed:
                elsewhere.append(f"{plural(removed, 'placement')} ruled out")
            if added:
                elsewhere.append(f"{added} possible again")
            parts.append(f"no change to your mystery's candidates ({', '.join(elsewhere)} elsewhere)")
        elif before.count.worlds == after.count.worlds:
            parts.append("no new information")
        else:
            parts.append("no card ruled out anywhere")
    if before.count.worlds != after.count.worlds:
        parts.append(f"worlds {views.worlds_short(before.count)} -> {views.worlds_short(after.count)}")
    return "; ".join(parts)
