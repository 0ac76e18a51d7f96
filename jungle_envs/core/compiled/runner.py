"""The game-independent loop of the compiled engine: chance, opponents, the learner.

``advance`` plays one env on until someone outside the kernel must act: the learner, an
opponent that lives in Python (a model, a callable), or nobody because the game is over.
Chance outcomes come from the env's chance stream, built-in opponents (random, heuristic)
act from its opponent stream. ``env_call`` is what the single env calls; ``batch_call``
steps or resets a range of a batch's envs in one call, with next-step autoreset (the step
after an episode ends resets that env and ignores its action); it releases the GIL, so the
vector env runs one range per thread. The per-game rules come in through ``contract``.
Each has one entry point per game, because every compiled entry point costs seconds of
compile time (a numba ``prange`` loop cost the most: it compiles the whole game again).
"""

from __future__ import annotations

from collections import namedtuple

from jungle_envs.core.arguments import MARGIN_REWARD, RANK_REWARD, SCORE_REWARD, WIN_REWARD
from jungle_envs.core.compiled import contract as game
from jungle_envs.core.compiled.jit import kernel
from jungle_envs.core.compiled.rng import CHANCE_STREAM, OPPONENT_STREAM, below, uniform

# Who plays a seat other than the learner's.
EXTERNAL, RANDOM, HEURISTIC = 0, 1, 2
# What ``advance`` stopped for; EXTERNAL_TURN + k: the opponent in seat k lives in Python.
LEARNER, DONE, EXTERNAL_TURN = 0, 1, 2
MAX_RESETS_WITHOUT_DECISION = 100


@kernel(inline=True)
def seat_kind(kinds, relative, learner, seat, num_players):
    if relative:
        return kinds[(seat - learner) % num_players]
    return kinds[seat]


@kernel
def random_legal(mask, streams):
    count = 0
    for a in range(mask.shape[0]):
        count += mask[a]
    pick = below(streams, OPPONENT_STREAM, count)
    for a in range(mask.shape[0]):
        if mask[a]:
            if pick == 0:
                return a
            pick -= 1
    return -1


@kernel(inline=True)
def forced_action(mask):
    """The only legal action of ``mask``, or -1 when there are none or several."""
    only, count = -1, 0
    for a in range(mask.shape[0]):
        if mask[a]:
            only, count = a, count + 1
    return only if count == 1 else -1


@kernel
def advance(cfg, s, streams, learner, kinds, relative, skip_forced, heuristics, obs, mask):
    """Play chance and built-in opponents; stop for the learner, an external opponent or
    the end. ``obs`` and ``mask`` end up holding the view of whoever must act next (the
    learner's observation and an all-ones mask at the end). ``heuristics``: None compiles
    a version without the heuristic (its seats then wait for Python, which never happens:
    the engine passes None only when no seat is the heuristic's), saving a quarter of the
    single env's first compile; any other value keeps it."""
    while True:
        player = game.current_player(cfg, s)
        if player == game.CHANCE:
            outcome = game.sample_chance(cfg, s, uniform(streams, CHANCE_STREAM))
            game.apply_chance(cfg, s, outcome)
            continue
        if player == game.TERMINAL:
            game.observe(cfg, s, learner, obs)
            mask[:] = 1
            return DONE
        game.legal_mask(cfg, s, mask)
        if player == learner:
            if skip_forced:
                only = forced_action(mask)
                if only >= 0:
                    game.apply_action(cfg, s, only)
                    continue
            game.observe(cfg, s, learner, obs)
            return LEARNER
        kind = seat_kind(kinds, relative, learner, player, cfg.num_players)
        if kind == RANDOM:
            game.apply_action(cfg, s, random_legal(mask, streams))
        elif kind == HEURISTIC:
            if heuristics is None:  # pruned at compile time: this version has no heuristic
                game.observe(cfg, s, player, obs)
                return EXTERNAL_TURN + player
            else:
                game.observe(cfg, s, player, obs)
                game.apply_action(cfg, s, game.heuristic_action(cfg, s, player, obs, mask))
        else:
            game.observe(cfg, s, player, obs)
            return EXTERNAL_TURN + player


@kernel
def env_reset(cfg, s, streams, seat_option, kinds, relative, skip_forced, obs, mask):
    """Deal games until someone outside the kernel must act; returns the learner's seat
    (-1 if no deal gave one) and what ``advance`` stopped for."""
    for _ in range(MAX_RESETS_WITHOUT_DECISION):
        learner = seat_option
        if seat_option < 0:
            learner = below(streams, CHANCE_STREAM, cfg.num_players)
        game.init_state(cfg, s)
        status = advance(cfg, s, streams, learner, kinds, relative, skip_forced, True, obs, mask)
        if status != DONE:
            return learner, status
    return -1, DONE


@kernel
def env_step(cfg, s, streams, learner, kinds, relative, skip_forced, action, obs, mask):
    """Apply the action of whoever must act (learner or external opponent) and advance."""
    game.apply_action(cfg, s, action)
    return advance(cfg, s, streams, learner, kinds, relative, skip_forced, True, obs, mask)


@kernel
def reward_potential(scores, learner, reward_kind):
    """What the score and margin rewards pay the change of: the learner's score, less the
    best other score for the margin."""
    value = scores[learner]
    if reward_kind == MARGIN_REWARD:
        best = -1e300
        for seat in range(len(scores)):
            if seat != learner and scores[seat] > best:
                best = scores[seat]
        value -= best
    return value


@kernel
def learner_reward(cfg, s, learner, status, reward_kind, scores, results):
    """The learner's reward for the step that just ended with ``status``: the change of its
    score or margin (``scores`` holds every seat's score before the step; updated with
    those rewards and at the end) or, at the end, its return (``results`` gets every
    seat's return). The rank reward pays at the end only: the mean of the return and the
    place (others outscored minus others outscoring, over the others)."""
    reward = 0.0
    if reward_kind in (SCORE_REWARD, MARGIN_REWARD) or status == DONE:
        before = reward_potential(scores, learner, reward_kind)
        game.scores(cfg, s, scores)
        if reward_kind in (SCORE_REWARD, MARGIN_REWARD):
            reward = reward_potential(scores, learner, reward_kind) - before
    if status == DONE:
        game.returns(cfg, s, results)
        if reward_kind == WIN_REWARD:
            reward = results[learner]
        elif reward_kind == RANK_REWARD:
            place = 0.0
            for seat in range(len(scores)):
                if scores[learner] > scores[seat]:
                    place += 1.0
                elif scores[learner] < scores[seat]:
                    place -= 1.0
            reward = (results[learner] + place / max(len(scores) - 1, 1)) / 2.0
    return reward


@kernel
def env_call(cfg, s, streams, learner, kinds, relative, skip_forced, heuristics, reward_kind,
             start, action, obs, mask, scores, results):  # fmt: skip
    """The single env's one entry point (one compiled function per game keeps compile time
    down). ``start``: deal a fresh game and play on to the first outside decision.
    Otherwise apply ``action`` and play on. Returns (status, the learner's reward); when an
    external opponent must act first the reward waits for the call with its action.
    ``heuristics``: None for a table without heuristic seats (see ``advance``)."""
    if start:
        game.init_state(cfg, s)
    else:
        game.apply_action(cfg, s, action)
    status = advance(cfg, s, streams, learner, kinds, relative, skip_forced, heuristics, obs,
                     mask)  # fmt: skip
    if start:
        game.scores(cfg, s, scores)
        return status, 0.0
    if status >= EXTERNAL_TURN:
        return status, 0.0
    return status, learner_reward(cfg, s, learner, status, reward_kind, scores, results)


# The vector env's arrays, one row per env (named as the module attribute so numba's cache
# pickles the class by reference). The kernel below takes them one by one.
BatchBuffers = namedtuple(
    "BatchBuffers",
    [
        "rows", "streams", "learners", "obs", "masks", "scores", "results", "rewards",
        "terminated", "truncated", "illegal", "ended", "steps", "ok", "actions", "which",
        "waiting", "picks",
    ],
)  # fmt: skip
# ``waiting[i]``: the seat of env i whose opponent lives in Python (a pool player) and must
# act before the learner's step completes, or -1; ``picks[i, seat]``: which pool player.
STEP, RESET_ALL, RESET_WHERE, POOL_ACTIONS = 0, 1, 2, 3


@kernel
def reset_one(cfg, S, streams, learners, obs, masks, scores, ended, steps, ok, waiting, picks,
              i, seat_option, kinds, relative, skip_forced, mix, pool_size):  # fmt: skip
    total = mix[0] + mix[1] + mix[2]
    if total > 0.0:  # a mixture: every seat's opponent drawn anew for the episode
        for seat in range(kinds.shape[1]):
            pick = uniform(streams[i], OPPONENT_STREAM) * total
            if pick < mix[0]:
                kinds[i, seat] = RANDOM
            elif pick < mix[0] + mix[1] or pool_size == 0:
                kinds[i, seat] = HEURISTIC
            else:
                kinds[i, seat] = EXTERNAL
                picks[i, seat] = below(streams[i], OPPONENT_STREAM, pool_size)
    learner, status = env_reset(cfg, S[i], streams[i], seat_option, kinds[i], relative,
                                skip_forced, obs[i], masks[i])  # fmt: skip
    learners[i] = learner
    waiting[i] = status - EXTERNAL_TURN if status >= EXTERNAL_TURN else -1
    game.scores(cfg, S[i], scores[i])
    ok[i] = learner >= 0
    ended[i], steps[i] = False, 0


@kernel
def finish_step(cfg, S, learners, scores, results, rewards, terminated, truncated, ended,
                steps, waiting, i, status, reward_kind, max_steps):  # fmt: skip
    """Env i stopped with ``status`` after the learner's step: wait for a pool player, or
    pay the learner's reward and set the flags."""
    if status >= EXTERNAL_TURN:
        waiting[i] = status - EXTERNAL_TURN
        return
    waiting[i] = -1
    rewards[i] = learner_reward(cfg, S[i], learners[i], status, reward_kind, scores[i],
                                results[i])  # fmt: skip
    terminated[i] = status == DONE
    truncated[i] = status != DONE and steps[i] >= max_steps
    ended[i] = terminated[i] or truncated[i]


@kernel
def step_one(cfg, S, streams, learners, obs, masks, scores, results, rewards, terminated,
             truncated, illegal, ended, steps, waiting, actions, i, kinds, relative,
             skip_forced, reward_kind, max_steps):  # fmt: skip
    """One step of env i; an illegal action ends the episode with -1."""
    rewards[i], terminated[i], truncated[i], illegal[i] = 0.0, False, False, False
    learner, action = learners[i], actions[i]
    steps[i] += 1
    if action < 0 or action >= masks.shape[1] or masks[i, action] == 0:
        rewards[i], terminated[i], illegal[i], ended[i] = -1.0, True, True, True
        results[i, :] = 0.0
        game.scores(cfg, S[i], scores[i])
        return
    status = env_step(cfg, S[i], streams[i], learner, kinds[i], relative, skip_forced, action,
                      obs[i], masks[i])  # fmt: skip
    finish_step(cfg, S, learners, scores, results, rewards, terminated, truncated, ended,
                steps, waiting, i, status, reward_kind, max_steps)  # fmt: skip


@kernel
def batch_call(cfg, S, streams, learners, obs, masks, scores, results, rewards, terminated,
               truncated, illegal, ended, steps, ok, actions, which, waiting, picks, command,
               seat_option, kinds, relative, skip_forced, reward_kind, max_steps, mix,
               pool_size, first, last):  # fmt: skip
    """The vector env's one entry point, over envs ``first`` to ``last`` - 1 (it releases
    the GIL, so threads can each run a share): STEP (next-step autoreset: an env whose last
    step ended its episode is reset, its action ignored), or RESET_ALL, or RESET_WHERE
    ``which`` is set (same-step autoreset, as Stable-Baselines3's vector envs do it), or
    POOL_ACTIONS: ``actions`` holds the moves of the pool players that envs ``waiting``
    for. ``kinds`` holds each env's opponents by seat; with a ``mix`` (chances of random,
    heuristic and pool opponents, not all 0) they are drawn anew at each reset."""
    for i in range(first, last):
        if command == POOL_ACTIONS:
            if waiting[i] >= 0:
                status = env_step(cfg, S[i], streams[i], learners[i], kinds[i], relative,
                                  skip_forced, actions[i], obs[i], masks[i])  # fmt: skip
                if status == DONE and steps[i] == 0:  # over before the learner's first move
                    reset_one(cfg, S, streams, learners, obs, masks, scores, ended, steps,
                              ok, waiting, picks, i, seat_option, kinds, relative,
                              skip_forced, mix, pool_size)  # fmt: skip
                elif steps[i] == 0:  # still dealing the episode: nothing to pay yet
                    waiting[i] = status - EXTERNAL_TURN if status >= EXTERNAL_TURN else -1
                else:
                    finish_step(cfg, S, learners, scores, results, rewards, terminated,
                                truncated, ended, steps, waiting, i, status, reward_kind,
                                max_steps)  # fmt: skip
        elif command == STEP and not ended[i]:
            step_one(cfg, S, streams, learners, obs, masks, scores, results, rewards,
                     terminated, truncated, illegal, ended, steps, waiting, actions, i,
                     kinds, relative, skip_forced, reward_kind, max_steps)  # fmt: skip
        elif command != RESET_WHERE or which[i]:
            if command == STEP:
                rewards[i], terminated[i], truncated[i], illegal[i] = 0.0, False, False, False
            reset_one(cfg, S, streams, learners, obs, masks, scores, ended, steps, ok,
                      waiting, picks, i, seat_option, kinds, relative, skip_forced, mix,
                      pool_size)  # fmt: skip
