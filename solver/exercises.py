"""Deduction exercises drawn from seeded simulated games, graded exactly by the engine (``assist teach GAME``).

An exercise is a moment of a simulated game seen from one seat (its entries so far, as typed in the companion)
where something has just become decidable, and a question about it:

- **ruled out** / **certain**: "the last entry ruled something out (or made it certain): name one" (answer in
  the claim syntax, e.g. ``Knife 3``);
- **possible**: "is X still possible?" (``yes`` / ``no``);
- **likely**: "how likely is X?" (a percentage or a fraction, right within 5 points);
- **decision**: "which question / Assist / search / cut does the advisor rank best?" (right if it is the top
  choice or within the advisor's tolerance of its score);
- **empathy** (games whose teacher has ``empathy_exercises``): "how many cards can player K's position P be,
  as far as they can know?".

``hint`` escalates: the first names the kind of rule that decides it, the second the entries it rests on, the
third gives the answer with its explanation; ``answer`` shows it at once, ``skip`` moves on, ``quit`` stops. A
right first answer without a hint counts as right; any other ending counts as tried, and the reply says so.
A level grows with the explanation: 1 one-step eliminations (a stated fact, and where it puts a card), 2 chains
of simple steps (a full count, only one place left) or a single count step, 3 multi-step chains with counts (all
needed, counts adding up) and empathy, 4 case analysis and counting (probabilities, decisions). Scores per game
and level are kept in a small JSON file.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from solver.claims import Explained, Key
from solver.errors import AssistantError
from solver.simulate import game_seed
from solver.teaching import Decision, Teacher, Transcript
from solver.text import percent

LEVELS = (1, 2, 3, 4)
LIKELY_TOLERANCE = 0.05
DEFAULT_SCORES = Path("assist-teach-scores.json")


@dataclass
class Grade:
    right: bool
    message: str


@dataclass
class Exercise:
    """One exercise: the seat's entries up to the moment, the question, how to answer, how it is graded and
    the explanation that the hints reveal step by step."""

    kind: str
    level: int
    lines: tuple[str, ...]
    prompt: str
    syntax: str
    grade: Callable[[str], Grade]
    explanation: tuple[str, ...]
    answer: str
    source: str  # which simulated game and moment it comes from
    session: Any = None  # the seat's companion session at that moment (its own copy: grading reads it)
    key: Any = None  # the claim asked about (claim kinds), and its truth: a bool, or the probability
    expected: Any = None

    hints_shown: int = field(default=0)
    hints: tuple[str, ...] = ()  # the escalating hints (:func:`hint_ladder`); the last gives the answer

    def __post_init__(self) -> None:
        if not self.hints:
            self.hints = hint_ladder(None, self.explanation, self.answer, self.kind)


@dataclass
class Later:
    """An exercise known to exist but made only when it is shown (:meth:`Teacher.decision_later`): the list a
    session draws is then ready without the slow rankings, and the first exercise does not wait for the last."""

    kind: str
    level: int
    source: str
    make: Callable[[], Exercise]


def ready(item: Exercise | Later) -> Exercise:
    """The exercise itself, made now if it was left for later."""
    return item.make() if isinstance(item, Later) else item


#: What each step kind asks of a player, for the first hint.
KIND_WORDS = {
    "stated": "an entry that says it directly",
    "one place": "a card is in one place only",
    "count full": "a count that is already full",
    "only one left": "only one possibility left",
    "all needed": "a count that needs every candidate still possible",
    "not all": "cards that cannot all hold together",
    "counts add up": "two counts that must add up",
    "case analysis": "trying every arrangement the entries allow",
    "so the claim": "putting the steps together",
    "counting": "counting the arrangements of the hidden cards that fit (each equally likely)",
    "advisor": "the advisor's exact score of each choice",
    "empathy": "what that player can see and was told",
}


def hint_ladder(explained: Explained | None, explanation: Sequence[str], answer: str, kind: str) -> tuple[str, ...]:
    """Three hints, each giving more: the kind of rule that decides it, the entries it rests on, the answer.

    From a chain, the kinds and the cited entries are read off its steps; otherwise from the ``[kind]`` tags of
    the explanation lines and the lines before the last (the last says the conclusion)."""
    kinds: list[str] = []
    entries: list[str] = []
    chain = explained.chain if explained is not None else None
    if chain is not None and explained is not None and explained.explainer is not None:
        describer = explained.explainer.describer
        for step in chain.steps:
            kinds.append(step.kind)
            entries += [describer.source(src) for src in step.sources if src.kind == "entry"]
    else:
        for line in explanation:
            tag = line.rsplit("[", 1)[-1].rstrip("]").split(";")[0] if line.endswith("]") else ""
            if tag:
                kinds.append(tag)
        entries = [line.split(". ", 1)[-1].rsplit(" [", 1)[0] for line in explanation[:-1]]
    words = [KIND_WORDS.get(k, k) for k in dict.fromkeys(kinds)]
    first = "the kind of rule: " + ("; then ".join(words) if words else f"a {kind} question")
    if chain is not None:
        cited = list(dict.fromkeys(entries))
        second = ("it rests on " + "; ".join(cited)) if cited else "it rests on the setup alone (what you see)"
    else:
        second = "; ".join(entries) if entries else "look at the last entry and what it changed"
    return (first, second, f"the answer: {answer}")


def level_of(explained: Explained) -> int:
    """Level of a decided claim's explanation (module docstring)."""
    chain = explained.chain
    if chain is None:
        return explained.level or (1 if explained.note == "seen" else 4)
    if chain.hardest >= 4:
        return 4
    if len(chain.steps) <= 2 and chain.hardest <= 1:
        return 1
    if chain.hardest <= 2 or len(chain.steps) == 1:
        return 2
    return 3


def parse_probability(text: str) -> float:
    """'40%', '0.4' or '2/5' as a probability; a one-line error otherwise."""
    t = text.strip().replace(" ", "")
    try:
        if t.endswith("%"):
            value = float(t[:-1]) / 100
        elif "/" in t:
            value = float(Fraction(t))
        else:
            value = float(t)
            if value > 1:
                value /= 100  # "40" means 40%
    except (ValueError, ZeroDivisionError):
        raise AssistantError(f"'{text}': expected a probability such as 40%, 0.4 or 2/5") from None
    if not 0 <= value <= 1:
        raise AssistantError(f"'{text}': a probability is between 0% and 100%")
    return value


def parse_yes_no(text: str) -> bool:
    word = text.strip().lower()
    if word in ("yes", "y"):
        return True
    if word in ("no", "n"):
        return False
    raise AssistantError(f"'{text}': expected yes or no")


# -- generating exercises -----------------------------------------------------------------------------------


class _Game:
    """A simulated game replayed line by line into a fresh companion session."""

    def __init__(self, teacher: Teacher, transcript: Transcript) -> None:
        self.teacher = teacher
        self.transcript = transcript
        self.session = teacher.new_session()
        self.i = 0

    def moments(self) -> Iterator[tuple[int, dict[Key, bool], dict[Key, bool]]]:
        """After each entry once the setup is done: (lines entered, decided before, decided after)."""
        teacher, session = self.teacher, self.session
        before: dict[Key, bool] | None = None
        for i, line in enumerate(self.transcript.lines):
            session.handle(line, show=False)
            self.i = i + 1
            if not teacher.started(session):
                continue
            after = teacher.decided(session)
            if before is not None:
                yield self.i, before, after
            before = after


def _frozen(teacher: Teacher, lines: Sequence[str]) -> Any:
    """A session of its own at this moment (the game's session goes on to later entries)."""
    session = teacher.new_session()
    for line in lines:
        session.handle(line, show=False)
    return session


def _claim_exercise(teacher: Teacher, session: Any, new: dict[Key, bool], rng: random.Random,
                    lines: tuple[str, ...], source: str, wish: int | None = None) -> Exercise | None:
    """'Name a claim the last entry ruled out / made certain', or 'is X still possible?' (of level ``wish``
    if one of a few claims tried has it)."""
    keys = sorted(new, key=repr)
    focus = [k for k in keys if teacher.focus(k)] or keys
    rng.shuffle(focus)
    for key in focus[:4]:
        value = new[key]
        explained = teacher.explain(session, key, value)
        level = level_of(explained)
        if wish is None or level == wish:
            break
    last = lines[-1]
    if rng.random() < 0.5:
        right_keys = {k for k, v in new.items() if v == value}
        decided_now = teacher.decided(session)

        def grade(text: str) -> Grade:
            k = teacher.parse_claim(session, text)
            if k in right_keys:
                return Grade(True, f"right: {teacher.say(k, value)}")
            if decided_now.get(k) == value:
                return Grade(False, f"{teacher.say(k, value)}, but that was known before '{last}'; look for what "
                                    "this entry changed")
            if k in decided_now:
                return Grade(False, f"no: {teacher.say(k, decided_now[k])}")
            p = teacher.probability(session, k)
            chance = "" if p is None else f" (probability {percent(p)})"
            return Grade(False, f"not yet: {teacher.say(k, None)} is still possible{chance}")

        what = "made certain" if value else "ruled out"
        kind = "certain" if value else "ruled out"
        about = teacher.focus_name if teacher.focus(key) else "the table"
        prompt = (f"After entry {len(lines)} '{last}', something about {about} is newly {what}. "
                  f"Name one {'claim' if value else 'thing ruled out'}.")
        hint = f"answer {teacher.claim_syntax}, e.g. '{teacher.claim_example}'"
        answer = "; ".join(teacher.claim_text(k) for k in sorted(right_keys, key=repr)[:6])
        shown = f"for example '{teacher.claim_text(key)}': {teacher.say(key, value)} (all: {answer})"
        return Exercise(kind, level, lines, prompt, hint, grade, explained.lines, shown, source, session, key, value,
                        hints=hint_ladder(explained, explained.lines, shown, kind))

    def grade_possible(text: str) -> Grade:
        said = parse_yes_no(text)
        if said == value:
            return Grade(True, f"right: {teacher.say(key, value)}")
        return Grade(False, f"no: {teacher.say(key, value)}")

    answer = f"{'yes' if value else 'no'}: {teacher.say(key, value)}"
    question = f"Is it still possible that {teacher.say(key, True)}?"
    return Exercise("possible", level, lines, question, "answer yes or no", grade_possible, explained.lines,
                    answer, source, session, key, value, hints=hint_ladder(explained, explained.lines, answer,
                                                                           "possible"))


def _likely_exercise(teacher: Teacher, session: Any, rng: random.Random, lines: tuple[str, ...],
                     source: str) -> Exercise | None:
    open_claims = {k: p for k, p in teacher.open_claims(session).items() if 0.08 <= p <= 0.92 and teacher.focus(k)}
    if not open_claims:
        return None
    key = rng.choice(sorted(open_claims, key=repr))
    p = open_claims[key]

    def grade(text: str) -> Grade:
        said = parse_probability(text)
        if abs(said - p) <= LIKELY_TOLERANCE + 1e-9:
            return Grade(True, f"right: {p:.1%} exactly{f' ({counted})' if counted else ''}")
        return Grade(False, f"not close enough ({said:.0%}); it is {'more' if p > said else 'less'} likely")

    counted = teacher.count_text(session, key) or _fraction_text(p)
    explanation = (f"1. Every arrangement of the hidden cards that fits all the entries is equally likely; count "
                   f"those where {teacher.say(key, True)}. [counting]",
                   f"2. The exact count gives {p:.1%}{f': {counted}' if counted else ''}. [counting]")
    return Exercise("likely", 4, lines, f"How likely is it that {teacher.say(key, True)}?",
                    f"a percentage (40%), a decimal (0.4) or a fraction (2/5); right within {LIKELY_TOLERANCE:.0%}",
                    grade, explanation, f"{p:.1%} ({counted})", source, session, key, p)


def _fraction_text(p: float) -> str:
    """A probability as the count it comes from, where the game's claims give no count ('3 of 8')."""
    f = Fraction(p).limit_denominator(1000)
    if abs(float(f) - p) > 1e-12:
        return ""
    return f"{f.numerator} of {f.denominator} equally likely cases"


def _decision_exercise(teacher: Teacher, session: Any, lines: tuple[str, ...], source: str,
                       later: bool = False) -> Exercise | Later | None:
    """A decision exercise here, if the seat decides with two choices or more; with ``later``, ranked only when
    it is shown (where the teacher can tell a decision without ranking it)."""
    rank = teacher.decision_later(session)
    if rank is None:
        return None
    if later:
        return Later("decision", 4, source, lambda: _decision_from(rank(), session, lines, source))
    return _decision_from(rank(), session, lines, source)


def _decision_from(decision: Decision, session: Any, lines: tuple[str, ...], source: str) -> Exercise:
    best = decision.ranking[0]

    def grade(text: str) -> Grade:
        choice = decision.find(text)
        unit = f" {decision.unit}" if decision.unit else ""
        if decision.accepts(choice):
            tie = "" if choice.text == best.text else f" (within {decision.tolerance}{unit} of the best, {best.text})"
            return Grade(True, f"right: {choice.text} scores {choice.score:.2f}{unit}{tie}: {choice.reason}")
        rank = [c.text for c in decision.ranking].index(choice.text) + 1
        return Grade(False, f"{choice.text} ranks {rank} of {len(decision.ranking)} ({choice.score:.2f}{unit}); "
                            f"something scores more")

    top = decision.ranking[:3]
    explanation = tuple(f"{i}. {c.text}: {c.score:.2f}{f' ({c.reason})' if c.reason else ''} [advisor]"
                        for i, c in enumerate(top, 1))
    return Exercise("decision", 4, lines, decision.prompt, f"answer {decision.syntax}", grade, explanation,
                    f"{best.text} ({best.reason})", source, session)


def _empathy_exercise(teacher: Teacher, session: Any, rng: random.Random, lines: tuple[str, ...],
                      source: str) -> Exercise | None:
    """Beyond Baker Street: right after an Assist to another player, what they can know about that card."""
    last = lines[-1].split()
    kn = session.knowledge
    if len(last) < 4 or last[0] != "assist" or not last[2].isdigit() or int(last[2]) == kn.me:
        return None
    seat = int(last[2])
    hand = teacher.empathy(session, seat)  # type: ignore[attr-defined]
    told = [int(w) for w in last[last.index("at") + 1:]] if "at" in last else []
    if not told:
        return None
    pos = rng.choice(told)
    n = len(hand[pos - 1])

    def grade(text: str) -> Grade:
        if not text.strip().isdigit():
            raise AssistantError(f"'{text}': expected a whole number of cards")
        if int(text) == n:
            return Grade(True, f"right: {n} cards ({', '.join(sorted(c.code for c in hand[pos - 1]))})")
        return Grade(False, f"no: it is {'more' if n > int(text) else 'fewer'}")

    assists = [f"'{a}' {'names' if named else 'skips'} it" for a, named in kn.hints_on(pos, seat)]
    explanation = (f"1. Player {seat} cannot see their own hand; they see every other hand, the Leads and the "
                   f"Impossible, as you do (and your hand too). [empathy]",
                   f"2. The Assists to that card: {'; '.join(assists)}. [stated]",
                   f"3. The cards that fit those Assists and that player {seat} cannot see: {n} "
                   f"({', '.join(sorted(c.code for c in hand[pos - 1]))}). [counting]")
    return Exercise("empathy", 3, lines,
                    f"Player {seat} was just told '{' '.join(last)}'. As far as player {seat} can know, how many "
                    f"different cards can their position {pos} still be?", "answer a whole number", grade,
                    explanation, f"{n}", source, session)


def exercises(teacher: Teacher, seed: int, players: int, level: int | None, count: int,
              max_games: int = 12, later: bool = False) -> list[Exercise | Later]:
    """``count`` exercises (of ``level``, or of every level, easiest first) from games seeded by ``seed``; with
    ``later``, decisions are ranked only when shown (:class:`Later`; the same exercises, made then)."""
    rng = random.Random(f"teach/{teacher.game}/{seed}")
    found: list[Exercise | Later] = []
    kinds_done: dict[str, int] = {}
    enough_at: int | None = None  # the game in which ``count`` exercises were found (a level may still be missing)

    def capped(kind: str) -> bool:
        """Whether exercises of ``kind`` are no longer kept (every level asked for: a mix of kinds); checked
        before one is made where the kind is known in advance, since making one replays its game."""
        return level is None and kinds_done.get(kind, 0) >= max(2, count // 3)

    for g in range(max_games):
        if enough_at is not None and g > enough_at + GAP_GAMES:
            break  # a level the games rarely give (Evidence's level 3) is not worth a long wait
        transcript = teacher.transcript(game_seed(seed, g), players)
        game = _Game(teacher, transcript)
        source = f"{teacher.game} game seed {transcript.seed}, seat {transcript.seat}"
        per_game = 0
        for n, before, after in game.moments():
            lines = transcript.lines[:n]
            new = {k: v for k, v in after.items() if k not in before}
            made: list[Exercise | Later | None] = []
            at = f"{source}, entry {n}"
            roll = rng.random()
            if new and roll < 0.6:
                # With every level asked for, steer the claims towards a level not found yet, so that the levels
                # a session shows are contiguous (1, 2, 3, 4, not 1, 2, 4).
                have = {e.level for e in found}
                wish = level if level is not None else next((lv for lv in (1, 2, 3) if lv not in have), None)
                made.append(_claim_exercise(teacher, _frozen(teacher, lines), new, rng, lines, at, wish))
            elif n in transcript.actions and level in (None, 4) and roll < 0.8:
                if not capped("decision"):
                    made.append(_decision_exercise(teacher, _frozen(teacher, lines), lines, at, later))
            elif teacher.empathy_exercises and level in (None, 3) and roll < 0.8:
                made.append(_empathy_exercise(teacher, _frozen(teacher, lines), rng, lines, at))
            elif level in (None, 4) and roll < 0.7 and not capped("likely"):
                made.append(_likely_exercise(teacher, _frozen(teacher, lines), rng, lines, at))
            for ex in made:
                if ex is None or (level is not None and ex.level != level):
                    continue
                if capped(ex.kind):
                    continue
                kinds_done[ex.kind] = kinds_done.get(ex.kind, 0) + 1
                found.append(ex)
                per_game += 1
            if len(found) >= count and enough_at is None:
                enough_at = g
            if (len(found) >= count and not (level is None and _gap(found))) or per_game >= 3:
                break
        if len(found) >= count and not (level is None and _gap(found)):
            break
    return contiguous(found, count)


#: Once enough exercises are found, how many more games are searched for a level still missing.
GAP_GAMES = 1


def _gap(items: Sequence[Exercise | Later]) -> bool:
    levels = sorted({e.level for e in items})
    return bool(levels) and levels != list(range(levels[0], levels[-1] + 1))


def contiguous(items: list[Exercise | Later], count: int) -> list[Exercise | Later]:
    """At most ``count`` of ``items``, sorted by level, keeping one of each level found first (so a session
    of every level shows 1, 2, 3, 4 when the games gave them)."""
    chosen: list[Exercise | Later] = []
    for lv in sorted({e.level for e in items}):
        chosen.append(next(e for e in items if e.level == lv))
    chosen += [e for e in items if e not in chosen]
    return sorted(chosen[:count], key=lambda e: e.level)


# -- scores -------------------------------------------------------------------------------------------------


def load_scores(path: Path) -> dict[str, Any]:
    """The saved scores ({} if there is no file yet); a one-line error for a file that is not ours."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise AssistantError(f"scores file '{path}': cannot read it ({exc})") from None
    if not isinstance(data, dict):
        raise AssistantError(f"scores file '{path}': expected a JSON object")
    return data


def save_scores(path: Path, scores: dict[str, Any]) -> None:
    """Write atomically (a temporary file renamed over the old one), so a crash never leaves half a file."""
    directory = path.resolve().parent
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".teach-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(scores, f, indent=2, sort_keys=True)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def record(scores: dict[str, Any], game: str, level: int, right: bool) -> None:
    row = scores.setdefault(game, {}).setdefault(f"level {level}", {"right": 0, "tried": 0})
    row["tried"] += 1
    row["right"] += int(right)


def scores_line(scores: dict[str, Any], game: str) -> str:
    rows = scores.get(game, {})
    if not rows:
        return "no scores yet"
    return ", ".join(f"{lvl}: {r['right']}/{r['tried']}" for lvl, r in sorted(rows.items()))


# -- the loop -----------------------------------------------------------------------------------------------

HELP = ("answer in the syntax shown; 'hint' gives more each time (the kind of rule, then the entries, then the "
        "answer), 'answer' shows it at once, 'skip' moves on, 'quit' stops")


def run(teacher: Teacher, items: Sequence[Exercise | Later], read: Callable[[str], str | None],
        write: Callable[[str], None], scores_path: Path | None, echo: bool = False) -> dict[str, int]:
    """Pose each exercise; ``read(prompt)`` returns a line or None at the end of input. A bad answer is a
    one-line error and the exercise stays open. Returns the session's tally."""
    scores = load_scores(scores_path) if scores_path else {}
    tally = {"right": 0, "tried": 0, "skipped": 0}
    levels = sorted({e.level for e in items})
    missing = [lv for lv in range(levels[0], levels[-1] + 1) if lv not in levels] if levels else []
    skipped = (f" (no level-{' or '.join(map(str, missing))} exercise in the games searched; another --seed may "
               "have one)") if missing else ""
    plural = ("s" if len(items) != 1 else "", "s" if len(levels) != 1 else "")
    write(f"{teacher.title}: {len(items)} exercise{plural[0]}, level{plural[1]} {', '.join(map(str, levels))}"
          f"{skipped}. {HELP}.")
    for number, item in enumerate(items, start=1):
        ex = ready(item)
        write("")
        write(f"Exercise {number} of {len(items)} (level {ex.level}, {ex.kind}; {ex.source})")
        write("Your entries so far:")
        for i, line in enumerate(ex.lines, start=1):
            write(f"  {i:>3}  {line}")
        write(ex.prompt)
        write(f"({ex.syntax})")
        attempts = ex.hints_shown = 0
        while True:
            text = read("answer> ")
            if text is None:
                write("end of input: stopping")
                _finish(teacher, scores, scores_path, tally, write)
                return tally
            text = text.strip()
            if echo:
                write(f"answer> {text}")
            word = text.lower()
            if not text:
                continue
            if word == "quit":
                _finish(teacher, scores, scores_path, tally, write)
                return tally
            if word == "help":
                write(HELP)
                continue
            if word == "hint":
                if ex.hints_shown < len(ex.hints):
                    write(f"hint {ex.hints_shown + 1} of {len(ex.hints)}: {ex.hints[ex.hints_shown]}")
                    ex.hints_shown += 1
                    if ex.hints_shown == len(ex.hints):  # the last hint is the answer: show why, then move on
                        for line in ex.explanation:
                            write(f"  {line}")
                        write("(counted as tried, not right: the hints gave the answer)")
                        _score(teacher, scores, scores_path, tally, ex, False)
                        break
                continue
            if word == "answer":
                write(f"answer: {ex.answer}")
                for line in ex.explanation:
                    write(f"  {line}")
                _score(teacher, scores, scores_path, tally, ex, False)
                break
            if word == "skip":
                tally["skipped"] += 1
                write("skipped")
                break
            try:
                grade = ex.grade(text)
            except AssistantError as exc:
                write(f"error: {exc}")
                continue
            attempts += 1
            if grade.right:
                counted = attempts == 1 and ex.hints_shown == 0
                write(grade.message if counted else _tried(grade.message, ex.hints_shown, attempts))
                write("why, step by step:")
                for line in ex.explanation:
                    write(f"  {line}")
                _score(teacher, scores, scores_path, tally, ex, counted)
                break
            write(f"{grade.message}. Try again, or 'hint'.")
    _finish(teacher, scores, scores_path, tally, write)
    return tally


def _tried(message: str, hints: int, attempts: int) -> str:
    """A right answer that the tally counts as tried, said so ("right after 1 hint (counted as tried, ...)")."""
    after = [f"{hints} hint{'s' if hints != 1 else ''}"] if hints else []
    if attempts > 1:
        after.append(f"{attempts - 1} wrong answer{'s' if attempts != 2 else ''}")
    what = message.removeprefix("right: ")
    return f"right after {' and '.join(after)} (counted as tried, not right): {what}"


def _score(teacher: Teacher, scores: dict[str, Any], path: Path | None, tally: dict[str, int], ex: Exercise,
           right: bool) -> None:
    """A right first answer without hints counts as right; any other ending counts as tried."""
    tally["tried"] += 1
    tally["right"] += int(right)
    record(scores, teacher.game, ex.level, right)
    if path is not None:
        save_scores(path, scores)


def _finish(teacher: Teacher, scores: dict[str, Any], path: Path | None, tally: dict[str, int],
            write: Callable[[str], None]) -> None:
    write("")
    write(f"this session: {tally['right']} right of {tally['tried']} ({tally['skipped']} skipped); "
          f"all sessions, {teacher.game}: {scores_line(scores, teacher.game)}")


def game_explanations(teacher: Teacher, lines: Sequence[str], per_entry: int = 3) -> Iterator[Explained]:
    """The explanations a game gives along the way: after each entry, those of up to ``per_entry`` claims it
    decided (the seat's own first), each on its own, as ``why ... steps`` and the exercises give them. For the
    verification figures (every step of every chain is checked by the engine)."""
    game = _Game(teacher, Transcript(teacher.game, 0, 0, teacher.seat, tuple(lines)))
    for _, before, after in game.moments():
        new = {k: v for k, v in after.items() if k not in before}
        keys = sorted(new, key=lambda k: (not teacher.focus(k), repr(k)))[:per_entry]
        for key in keys:
            yield teacher.explain(game.session, key, new[key])
