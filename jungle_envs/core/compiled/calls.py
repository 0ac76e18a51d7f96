"""Single kernels callable from Python, one call per rule: for tests, tools and planners.

Each call pays numba's dispatch (microseconds), so loops belong in kernels; these are for
driving the twin step by step beside the reference engine.
"""

from __future__ import annotations

from jungle_envs.core.compiled import contract as game
from jungle_envs.core.compiled.jit import kernel


@kernel
def init_state(cfg, s):
    game.init_state(cfg, s)


@kernel
def current_player(cfg, s):
    return game.current_player(cfg, s)


@kernel
def legal_mask(cfg, s, mask):
    game.legal_mask(cfg, s, mask)


@kernel
def apply_action(cfg, s, action):
    game.apply_action(cfg, s, action)


@kernel
def sample_chance(cfg, s, u):
    return game.sample_chance(cfg, s, u)


@kernel
def apply_chance(cfg, s, outcome):
    game.apply_chance(cfg, s, outcome)


@kernel
def observe(cfg, s, seat, obs):
    game.observe(cfg, s, seat, obs)


@kernel
def scores(cfg, s, out):
    game.scores(cfg, s, out)


@kernel
def returns(cfg, s, out):
    game.returns(cfg, s, out)


@kernel
def heuristic_action(cfg, s, seat, obs, mask):
    return game.heuristic_action(cfg, s, seat, obs, mask)
