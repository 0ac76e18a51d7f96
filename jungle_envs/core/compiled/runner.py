"""The game-independent loop of the compiled engine: chance, opponents, the learner.

``advance`` plays one env on until someone outside the kernel must act: the learner, an
opponent that lives in Python (a model, a callable), or nobody because the game is over.
Chance outcomes come from the env's chance stream, built-in opponents (random, heuristic)
act from its opponent stream. ``env_step`` / ``env_reset`` are what the single env calls;
``batch_step`` / ``batch_reset`` step many envs in one call, spread over threads, with
next-step autoreset (the step after an episode ends resets that env and ignores its
action). The per-game rules come in through ``contract``.
"""

from __future__ import annotations

from numba import prange

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


@kernel
def advance(cfg, s, streams, learner, kinds, relative, skip_forced, obs, mask):
    """Play chance and built-in opponents; stop for the learner, an external opponent or
    the end. ``obs`` and ``mask`` end up holding the view of whoever must act next (the
    learner's observation and an all-ones mask at the end)."""
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
                only, count = -1, 0
                for a in range(mask.shape[0]):
                    if mask[a]:
                        only, count = a, count + 1
                if count == 1:
                    game.apply_action(cfg, s, only)
                    continue
            game.observe(cfg, s, learner, obs)
            return LEARNER
        kind = seat_kind(kinds, relative, learner, player, cfg.num_players)
        if kind == RANDOM:
            game.apply_action(cfg, s, random_legal(mask, streams))
        elif kind == HEURISTIC:
            game.observe(cfg, s, player, obs)
            game.apply_action(cfg, s, game.heuristic_action(cfg, s, player, obs, mask))
        else:
            game.observe(cfg, s, player, obs)
            return EXTERNAL_TURN + player


@kernel
def env_reset(cfg, s, streams, seat_option, kinds, relative, skip_forced, obs, mask):
    """Deal games until the learner has a decision; returns the learner's seat, or -1."""
    for _ in range(MAX_RESETS_WITHOUT_DECISION):
        learner = seat_option
        if seat_option < 0:
            learner = below(streams, CHANCE_STREAM, cfg.num_players)
        game.init_state(cfg, s)
        status = advance(cfg, s, streams, learner, kinds, relative, skip_forced, obs, mask)
        if status != DONE:
            return learner
    return -1


@kernel
def start_episode(cfg, s, streams, learner, kinds, relative, skip_forced, obs, mask, scores):
    """A fresh game played on until someone outside the kernel acts (single env)."""
    game.init_state(cfg, s)
    status = advance(cfg, s, streams, learner, kinds, relative, skip_forced, obs, mask)
    game.scores(cfg, s, scores)
    return status


@kernel
def env_step(cfg, s, streams, learner, kinds, relative, skip_forced, action, obs, mask):
    """Apply the action of whoever must act (learner or external opponent) and advance."""
    game.apply_action(cfg, s, action)
    return advance(cfg, s, streams, learner, kinds, relative, skip_forced, obs, mask)


@kernel
def learner_reward(cfg, s, learner, status, score_reward, scores, results):
    """The learner's reward for the step that just ended with ``status``: the score gained
    (``scores`` holds every seat's score before the step; updated with the score reward
    and at the end) or, at the end, its return (``results`` gets every seat's return)."""
    reward = 0.0
    if score_reward or status == DONE:
        last = scores[learner]
        game.scores(cfg, s, scores)
        if score_reward:
            reward = scores[learner] - last
    if status == DONE:
        game.returns(cfg, s, results)
        if not score_reward:
            reward = results[learner]
    return reward


@kernel
def step_and_reward(cfg, s, streams, learner, kinds, relative, skip_forced, score_reward,
                    action, obs, mask, scores, results):  # fmt: skip
    """``env_step``, then the learner's reward unless an external opponent must act first
    (call again with its action; the reward then covers the whole step)."""
    status = env_step(cfg, s, streams, learner, kinds, relative, skip_forced, action, obs, mask)
    if status >= EXTERNAL_TURN:
        return status, 0.0
    return status, learner_reward(cfg, s, learner, status, score_reward, scores, results)


@kernel
def _reset_one(cfg, S, streams, learners, seat_option, kinds, relative, skip_forced, obs,
               masks, scores, i):  # fmt: skip
    learner = env_reset(
        cfg, S[i], streams[i], seat_option, kinds, relative, skip_forced, obs[i], masks[i]
    )
    learners[i] = learner
    game.scores(cfg, S[i], scores[i])
    return learner >= 0


@kernel(parallel=True)
def batch_reset(cfg, S, streams, learners, seat_option, kinds, relative, skip_forced, obs,
                masks, scores, ok):  # fmt: skip
    """Reset every env; ``scores`` keeps each env's scores for the score reward."""
    for i in prange(S.shape[0]):
        ok[i] = _reset_one(cfg, S, streams, learners, seat_option, kinds, relative,
                           skip_forced, obs, masks, scores, i)  # fmt: skip


@kernel(parallel=True)
def batch_reset_where(cfg, S, streams, learners, seat_option, kinds, relative, skip_forced,
                      obs, masks, scores, steps, which, ok):  # fmt: skip
    """Reset the envs where ``which`` is set (same-step autoreset, as Stable-Baselines3's
    vector envs do it)."""
    for i in prange(S.shape[0]):
        if which[i]:
            ok[i] = _reset_one(cfg, S, streams, learners, seat_option, kinds, relative,
                               skip_forced, obs, masks, scores, i)  # fmt: skip
            steps[i] = 0


@kernel(parallel=True)
def batch_step(cfg, S, streams, learners, seat_option, kinds, relative, skip_forced,
               score_reward, max_steps, actions, obs, masks, scores, rewards, terminated,
               truncated, illegal, ended, steps, results, ok):  # fmt: skip
    """One step of every env, next-step autoreset: ``ended[i]`` says env i's last step
    ended its episode, so this step resets it and ignores its action. ``results`` gets a
    finished game's returns; an illegal action ends the episode with -1."""
    for i in prange(S.shape[0]):
        rewards[i], terminated[i], truncated[i], illegal[i] = 0.0, False, False, False
        if ended[i]:
            ok[i] = _reset_one(cfg, S, streams, learners, seat_option, kinds, relative,
                               skip_forced, obs, masks, scores, i)  # fmt: skip
            ended[i], steps[i] = False, 0
            continue
        learner, action = learners[i], actions[i]
        steps[i] += 1
        if action < 0 or action >= masks.shape[1] or masks[i, action] == 0:
            rewards[i], terminated[i], illegal[i], ended[i] = -1.0, True, True, True
            results[i, :] = 0.0
            game.scores(cfg, S[i], scores[i])
            continue
        status = env_step(cfg, S[i], streams[i], learner, kinds, relative, skip_forced, action,
                          obs[i], masks[i])  # fmt: skip
        rewards[i] = learner_reward(cfg, S[i], learner, status, score_reward, scores[i],
                                    results[i])  # fmt: skip
        terminated[i] = status == DONE
        truncated[i] = status != DONE and steps[i] >= max_steps
        ended[i] = terminated[i] or truncated[i]
