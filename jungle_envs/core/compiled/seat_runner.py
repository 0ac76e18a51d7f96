"""The compiled loop of the all-seat batch: the caller decides for any seats it keeps.

``runner`` serves one learner against built-in opponents; here no seat is special. Each
env stops at the next decision of a seat the caller plays (``CALLER`` in ``kinds``), with
that seat's observation and mask written; chance and built-in seats (random, heuristic)
are played inside the kernel from the env's two streams, as in ``runner``. Every step
pays every seat its reward, so self-play, search and league code see all of them at once.
Autoreset is next-step: the call after an env's episode ended deals it again and ignores
its action. ``seats_call`` is the one entry point per game; it releases the GIL so a batch
is stepped in shares on threads.
"""

from __future__ import annotations

from jungle_envs.core.arguments import MARGIN_REWARD, RANK_REWARD, SCORE_REWARD, WIN_REWARD
from jungle_envs.core.compiled import contract as game
from jungle_envs.core.compiled.jit import kernel
from jungle_envs.core.compiled.rng import CHANCE_STREAM, uniform
from jungle_envs.core.compiled.runner import (
    HEURISTIC,
    RANDOM,
    forced_action,
    random_legal,
    reward_potential,
)

CALLER = 0  # a seat whose moves come from the caller (runner.EXTERNAL)
STEP, RESET_ALL, RESET_WHERE = 0, 1, 2
MAX_DEALS = 100  # deals in a row that end before any caller decision: give up


@kernel
def advance_to_caller(cfg, s, streams, kinds, skip_forced, obs, mask):
    """Play chance and built-in seats until a caller seat must decide (returns it, with
    its observation and mask written) or the game ends (returns ``game.TERMINAL``)."""
    while True:
        player = game.current_player(cfg, s)
        if player == game.CHANCE:
            game.apply_chance(cfg, s, game.sample_chance(cfg, s, uniform(streams, CHANCE_STREAM)))
            continue
        if player == game.TERMINAL:
            return player
        game.legal_mask(cfg, s, mask)
        kind = kinds[player]
        if kind == RANDOM:
            game.apply_action(cfg, s, random_legal(mask, streams))
            continue
        if kind == HEURISTIC:
            game.observe(cfg, s, player, obs)
            game.apply_action(cfg, s, game.heuristic_action(cfg, s, player, obs, mask))
            continue
        if skip_forced:
            only = forced_action(mask)
            if only >= 0:
                game.apply_action(cfg, s, only)
                continue
        game.observe(cfg, s, player, obs)
        return player


@kernel
def pay_seats(cfg, s, done, reward_kind, scores, results, rewards):
    """Every seat's reward for the stretch of play that just ended (``scores`` holds the
    scores before it and is updated, so the caller always sees them); at the end
    ``results`` gets the returns. The rewards the single env pays its learner
    (``runner.learner_reward``), for each seat."""
    n = scores.shape[0]
    rewards[:] = 0.0
    paid_on_the_way = reward_kind in (SCORE_REWARD, MARGIN_REWARD)
    if paid_on_the_way:
        for seat in range(n):
            rewards[seat] = -reward_potential(scores, seat, reward_kind)
    game.scores(cfg, s, scores)
    if paid_on_the_way:
        for seat in range(n):
            rewards[seat] += reward_potential(scores, seat, reward_kind)
    if done:
        game.returns(cfg, s, results)
        for seat in range(n):
            if reward_kind == WIN_REWARD:
                rewards[seat] = results[seat]
            elif reward_kind == RANK_REWARD:
                place = 0.0
                for other in range(n):
                    if scores[seat] > scores[other]:
                        place += 1.0
                    elif scores[seat] < scores[other]:
                        place -= 1.0
                rewards[seat] = (results[seat] + place / max(n - 1, 1)) / 2.0


@kernel
def deal(cfg, s, streams, kinds, skip_forced, obs, mask, scores, rewards):
    """A fresh game, played on to the first caller decision; returns that seat, or -1 when
    ``MAX_DEALS`` games in a row ended before any."""
    rewards[:] = 0.0
    for _ in range(MAX_DEALS):
        game.init_state(cfg, s)
        player = advance_to_caller(cfg, s, streams, kinds, skip_forced, obs, mask)
        if player != game.TERMINAL:
            game.scores(cfg, s, scores)
            return player
    return -1


@kernel
def seats_call(cfg, S, streams, players, obs, masks, scores, results, rewards, terminated,
               dealt, actions, which, kinds, skip_forced, reward_kind, command, first,
               last):  # fmt: skip
    """Step (``STEP``), deal (``RESET_ALL``) or deal where ``which`` is set
    (``RESET_WHERE``) envs ``first`` to ``last`` - 1. A step applies ``actions[i]`` for
    seat ``players[i]`` (checked legal by the caller) and plays on; an env whose episode
    ended at its last step is dealt again instead (next-step autoreset). At the end
    ``players[i]`` stays the seat that moved last, its observation is shown and the mask
    is all ones. ``dealt[i]`` is False where no deal gave a caller decision."""
    for i in range(first, last):
        if command == STEP and not terminated[i]:
            game.apply_action(cfg, S[i], actions[i])
            player = advance_to_caller(cfg, S[i], streams[i], kinds[i], skip_forced, obs[i],
                                       masks[i])  # fmt: skip
            done = player == game.TERMINAL
            pay_seats(cfg, S[i], done, reward_kind, scores[i], results[i], rewards[i])
            terminated[i] = done
            if done:
                game.observe(cfg, S[i], players[i], obs[i])
                masks[i, :] = 1
            else:
                players[i] = player
        elif command != RESET_WHERE or which[i]:
            player = deal(cfg, S[i], streams[i], kinds[i], skip_forced, obs[i], masks[i],
                          scores[i], rewards[i])  # fmt: skip
            dealt[i] = player >= 0
            players[i] = max(player, 0)
            terminated[i] = False
            results[i, :] = 0.0


@kernel
def table_call(cfg, s, streams, kinds, skip_forced, reward_kind, start, action, obs, mask,
               scores, results, rewards):  # fmt: skip
    """One game for the multi-agent envs (``core.turns``): deal (``start``, once, even if
    the game then ends before anyone decides) or apply ``action`` of the seat to move, and
    play on to the next caller decision. Returns that seat (its observation and mask
    written) or ``game.TERMINAL``; ``rewards`` holds every seat's reward for the stretch."""
    if start:
        game.init_state(cfg, s)
        rewards[:] = 0.0
        results[:] = 0.0
        player = advance_to_caller(cfg, s, streams, kinds, skip_forced, obs, mask)
        game.scores(cfg, s, scores)
        if player == game.TERMINAL:
            pay_seats(cfg, s, True, reward_kind, scores, results, rewards)
        return player
    game.apply_action(cfg, s, action)
    player = advance_to_caller(cfg, s, streams, kinds, skip_forced, obs, mask)
    pay_seats(cfg, s, player == game.TERMINAL, reward_kind, scores, results, rewards)
    return player
