"""Single kernels callable from Python, one call per rule: for tests, tools and planners.

Each call pays numba's dispatch (microseconds), so loops belong in kernels; these are for
driving the twin step by step beside the reference engine.
"""

from __future__ import annotations

from jungle_envs.core.compiled import contract as game
from jungle_envs.core.compiled.jit import kernel
from jungle_envs.core.compiled.rng import CHANCE_STREAM, uniform
from jungle_envs.core.compiled.runner import HEURISTIC, random_legal

# the all-seat batch's walk to a caller seat's next choice, also a search's (leaf values)
from jungle_envs.core.compiled.seat_runner import advance_to_caller  # noqa: F401


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


@kernel
def heuristic_actions(cfg, rows, seats, obs, masks, out):
    """The heuristic's move for ``seats[i]`` in every row, from the observations and masks
    the vector env already wrote (a teacher for a batch, in one call)."""
    for i in range(rows.shape[0]):
        out[i] = game.heuristic_action(cfg, rows[i], seats[i], obs[i], masks[i])


@kernel
def random_play(cfg, s, streams, mask, decisions):
    """Random legal moves for every seat from a fresh game on, chance sampled, no
    observation built, until ``decisions`` decisions are made; returns the games finished
    (the twin engine's speed, as ``benchmarks.step_speed`` times the reference's)."""
    game.init_state(cfg, s)
    games = made = 0
    while made < decisions:
        player = game.current_player(cfg, s)
        if player == game.CHANCE:
            game.apply_chance(cfg, s, game.sample_chance(cfg, s, uniform(streams, CHANCE_STREAM)))
        elif player == game.TERMINAL:
            games += 1
            game.init_state(cfg, s)
        else:
            game.legal_mask(cfg, s, mask)
            game.apply_action(cfg, s, random_legal(mask, streams))
            made += 1
    return games


@kernel
def random_actions(masks, streams, out):
    """A uniformly random legal action per row of ``masks`` (a learner that costs nothing,
    for timing vector envs)."""
    for i in range(masks.shape[0]):
        out[i] = random_legal(masks[i], streams[i])


@kernel
def playout(cfg, s, streams, kinds, first_action, obs, mask, out, scores_out):
    """Apply ``first_action`` (if >= 0), then play to the end: chance from the chance
    stream, each seat by its kind (``runner.RANDOM`` or ``runner.HEURISTIC``) from the
    opponent stream. ``out`` gets every seat's return, ``scores_out`` its score, and
    ``obs`` is scratch. A search's rollout in one call."""
    if first_action >= 0:
        game.apply_action(cfg, s, first_action)
    while True:
        player = game.current_player(cfg, s)
        if player == game.CHANCE:
            game.apply_chance(cfg, s, game.sample_chance(cfg, s, uniform(streams, CHANCE_STREAM)))
            continue
        if player == game.TERMINAL:
            break
        game.legal_mask(cfg, s, mask)
        if kinds[player] == HEURISTIC:
            game.observe(cfg, s, player, obs)
            game.apply_action(cfg, s, game.heuristic_action(cfg, s, player, obs, mask))
        else:
            game.apply_action(cfg, s, random_legal(mask, streams))
    game.returns(cfg, s, out)
    game.scores(cfg, s, scores_out)
