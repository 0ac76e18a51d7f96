"""Random play on a rules engine: the loop tests, benchmarks and planners keep needing."""

from __future__ import annotations

import numpy as np

from jungle_envs.core.game import CHANCE, TERMINAL, Game
from jungle_envs.core.state import GameState


def random_step(game: Game, state: GameState, rng: np.random.Generator) -> int:
    """Apply one chance outcome or one uniformly random legal action.

    Returns who acted (a seat or ``CHANCE``), or ``TERMINAL`` when the game is over and
    nothing was applied.
    """
    player = game.current_player(state)
    if player == CHANCE:
        game._apply_chance(state, game.sample_chance(state, rng))
    elif player != TERMINAL:
        actions = game.legal_actions(state)
        game._apply_action(state, actions[rng.integers(len(actions))])
    return player


def play_randomly(
    game: Game, state: GameState, rng: np.random.Generator, max_steps: int | None = None
) -> GameState:
    """Play on with random legal actions until the game ends (or ``max_steps`` steps)."""
    steps = 0
    while (max_steps is None or steps < max_steps) and random_step(game, state, rng) != TERMINAL:
        steps += 1
    return state
