"""The checks every game must pass (after OpenSpiel's ``random_sim_test`` and PettingZoo's ``api_test``).

:func:`check_game` plays seeded games with the given bots (random ones, ideally keeping a knowledge state)
and checks, at every step:

- the interface is coherent: a live state has a player to move with legal actions, shown in that player's view
  only; a terminal state has neither and returns one value per seat, the winner's the highest;
- a sample of the legal actions applies without error (on clones), and the bot's choice is legal;
- ``clone`` is independent and deterministic: playing the same action on a clone and on the original gives the
  same public state (player to move, legal actions, every view and counter) and the same observations, and
  touching the clone leaves the original alone (views must compare by value);
- every game ends (within ``max_actions``);
- every knowledge state a bot keeps stays sound after every observation (the true hidden world is still
  possible), and at the end also by its own solver (``deep``).

It is game-agnostic: the game supplies its state factory and bots.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from solver.bots import Bot, knowledge_of
from solver.errors import AssistantError
from solver.game import State
from solver.simulate import bot_rng, game_seed


class ConformanceError(AssistantError):
    """A game broke an interface rule; the message names the game seed that reproduces it."""


@dataclass(frozen=True)
class ConformanceReport:
    games: int
    actions: int
    observations: int
    knowledge_checks: int
    wins: int
    draws: int


def _fail(seed: int, message: str) -> ConformanceError:
    return ConformanceError(f"game seed {seed}: {message}")


def _check_live(state: State, seed: int) -> list:
    seat = state.current_player()
    if seat is None or not 1 <= seat <= state.num_players:
        raise _fail(seed, f"live state has player to move {seat!r}")
    legal = state.legal_actions()
    if not legal:
        raise _fail(seed, f"player {seat} has no legal action in a live state")
    if list(state.view(seat).legal_actions) != legal:
        raise _fail(seed, f"player {seat}'s view does not show their legal actions")
    for other in range(1, state.num_players + 1):
        if other != seat and state.view(other).legal_actions:
            raise _fail(seed, f"player {other} is shown legal actions on player {seat}'s move")
    return legal


def _check_terminal(state: State, seed: int) -> None:
    if state.current_player() is not None or state.legal_actions():
        raise _fail(seed, "terminal state still has a player to move or legal actions")
    returns = state.returns()
    if len(returns) != state.num_players:
        raise _fail(seed, f"returns has {len(returns)} values for {state.num_players} players")
    winner = state.winner()
    if winner is not None and returns[winner - 1] != max(returns):
        raise _fail(seed, f"winner {winner} does not have the highest return {returns}")


def snapshot(state: State) -> tuple[object, ...]:
    """Everything public about a state: player to move, legal actions, every seat's view and counters."""
    seats = range(1, state.num_players + 1)
    return (
        state.current_player(),
        state.legal_actions(),
        [state.view(s) for s in seats],
        [dict(state.player_stats(s)) for s in seats],
    )


def _check_clone(state: State, action: object, seed: int, rng: random.Random, legal: list) -> State:
    """Apply ``action`` to a clone; check a sample of other legal actions on clones; return the clone."""
    before = snapshot(state)
    for other in rng.sample(legal, min(3, len(legal))):
        trial = state.clone()
        try:
            trial.apply(other)
        except AssistantError as exc:
            raise _fail(seed, f"legal action '{other}' raised: {exc}") from exc
    twin = state.clone()
    twin.apply(action)
    if snapshot(state) != before:
        raise _fail(seed, f"applying '{action}' to a clone changed the original")
    return twin


def check_game(
    new_state: Callable[[random.Random], State],
    make_bot: Callable[[int, random.Random], Bot],
    games: int,
    seed: int = 0,
    deep: bool = True,
    max_actions: int = 100_000,
) -> ConformanceReport:
    """Play ``games`` games (one bot per seat from ``make_bot``) and check them; raise :class:`ConformanceError`."""
    actions = observations = checks = wins = draws = 0
    for index in range(games):
        gseed = game_seed(seed, index)
        rng = random.Random(gseed)
        state = new_state(random.Random(gseed))
        bots = [make_bot(s, bot_rng(gseed, s)) for s in range(1, state.num_players + 1)]

        def deliver(state: State = state, bots: list[Bot] = bots, gseed: int = gseed) -> tuple[int, int]:
            n = k = 0
            for seat, bot in enumerate(bots, start=1):
                for obs in state.take_observations(seat):
                    try:
                        bot.inform(obs)
                    except AssistantError as exc:
                        raise _fail(gseed, f"player {seat} rejected '{obs}': {exc}") from exc
                    n += 1
                    knowledge = knowledge_of(bot)
                    if knowledge is not None:
                        k += 1
                        failure = state.soundness_failure(seat, knowledge)
                        if failure:
                            raise _fail(gseed, f"unsound after '{obs}': {failure}")
            return n, k

        n, k = deliver()
        observations, checks = observations + n, checks + k
        steps = 0
        while not state.is_terminal():
            legal = _check_live(state, gseed)
            seat = state.current_player()
            assert seat is not None
            action = bots[seat - 1].step(state.view(seat))
            if action not in legal:
                raise _fail(gseed, f"player {seat}'s bot chose '{action}', which is not a legal action")
            twin = _check_clone(state, action, gseed, rng, legal)
            state.apply(action)
            for s in range(1, state.num_players + 1):
                if twin.take_observations(s) != state.clone().take_observations(s):
                    raise _fail(gseed, f"'{action}' gave player {s} different observations on a clone")
            if snapshot(twin) != snapshot(state):
                raise _fail(gseed, f"'{action}' led to a different state on a clone")
            n, k = deliver()
            observations, checks = observations + n, checks + k
            steps += 1
            if steps > max_actions:
                raise _fail(gseed, f"the game did not end within {max_actions} actions")
        _check_terminal(state, gseed)
        if deep:
            for seat, bot in enumerate(bots, start=1):
                knowledge = knowledge_of(bot)
                failure = None if knowledge is None else state.soundness_failure(seat, knowledge, deep=True)
                if failure:
                    raise _fail(gseed, f"unsound at the end: {failure}")
        actions += steps
        wins += state.winner() is not None
        draws += state.winner() is None
    return ConformanceReport(games, actions, observations, checks, wins, draws)
