"""Random games for tests that look at every state of a game (pictures, views)."""

from __future__ import annotations

import numpy as np

from jungle_envs.core.game import TERMINAL
from jungle_envs.core.random_play import random_step


def states(game, seed: int):
    """Every state of one random game, the first one included (the same object, advanced)."""
    state = game.new_state()
    rng = np.random.default_rng(seed)
    yield state
    while random_step(game, state, rng) != TERMINAL:
        yield state


def first(game, seed: int, wanted):
    """A copy of the first state of a random game for which ``wanted(state)`` holds."""
    for state in states(game, seed):
        if wanted(state):
            return state.copy()
    raise AssertionError("no such state in the game")
