"""The checks the paths share: a failed one raises ``SoakCheckFailed`` with what it saw."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NoReturn

import numpy as np

from jungle_envs.core.game import Game


class SoakCheckFailed(AssertionError):
    """A check of the soak failed (as opposed to an exception from the package)."""


def check(condition: Any, message: str | Callable[[], str]) -> None:
    """Fail with ``message`` (or what it returns, built only then) unless ``condition``."""
    if not condition:
        fail(message() if callable(message) else message)


def fail(message: str) -> NoReturn:
    raise SoakCheckFailed(message)


def check_observation(obs: Any, size: int, what: str) -> None:
    check(isinstance(obs, np.ndarray), lambda: f"{what}: not an array but {type(obs)}")
    check(obs.shape == (size,), lambda: f"{what}: shape {obs.shape}, expected ({size},)")
    check(obs.dtype == np.float32, lambda: f"{what}: dtype {obs.dtype}, expected float32")
    low, high = obs.min(), obs.max()  # a NaN makes both comparisons fail
    check(low >= 0.0 and high <= 1.0, lambda: f"{what}: values outside [0, 1]: {out_of_range(obs)}")


def out_of_range(obs: np.ndarray) -> str:
    """Where ``obs`` leaves [0, 1] and with what values, for a failure's message."""
    bad = np.flatnonzero(~((obs >= 0.0) & (obs <= 1.0)))
    return f"at {bad[:8].tolist()} (of {bad.size}): {obs[bad[:8]].tolist()}"


def check_results(game: Game, scores: Any, winners: Any, returns: Any, what: str) -> None:
    n = game.num_players
    check(len(scores) == n, lambda: f"{what}: {len(scores)} scores for {n} players")
    check(all(math.isfinite(float(s)) for s in scores), lambda: f"{what}: scores {scores}")
    winners = [int(w) for w in winners]
    check(
        len(set(winners)) == len(winners) and all(0 <= w < n for w in winners),
        lambda: f"{what}: winners {winners} are not distinct seats of {n}",
    )
    expected = game.returns_of(winners)
    check(
        [float(r) for r in returns] == expected,
        lambda: f"{what}: returns {list(returns)}, expected {expected} for winners {winners}",
    )


def max_steps_of(game: Game) -> int:
    """A bound on a game's steps (decisions and chance) that only a runaway game passes."""
    return 20 * game.spec.max_decisions * game.num_players + 100_000


def check_engine_state(game: Game, state: Any, what: str) -> None:
    game.validate_state(state)
    text = game.state_to_json(state)
    loaded = game.state_from_json(text)
    check(loaded == state, lambda: f"{what}: the state loaded from its JSON differs")
    check(game.state_to_json(loaded) == text, lambda: f"{what}: JSON of the loaded state differs")
    check(state.copy() == state, lambda: f"{what}: a copy of the state differs")
    for seat in range(game.num_players):
        check_observation(game.observe(state, seat), game.observation_size, f"{what}, seat {seat}")
