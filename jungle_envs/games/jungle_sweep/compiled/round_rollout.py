"""Rollouts to the end of a round on the twin (mirrors the reference's play of a round:
``rules.py``'s steps with ``heuristic.py``'s choice in every seat, or in the rolling
seat alone and a uniformly random legal move in the others), for the round-rollout
teacher of ``training.round_rollout``.

A round's coconut awards are decided by the order in which the broom sweeps the monkeys;
the values on the coconuts are drawn only after that, at random from the supply. So a
rollout can stop when the round ends and count each seat's awarded coconuts: that count
is what its moves in the round earned, with none of the later rounds' luck in it, and it
never reads a hidden coconut value.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.contract import CHANCE, TERMINAL
from jungle_envs.core.compiled.jit import kernel
from jungle_envs.core.compiled.rng import CHANCE_STREAM, uniform
from jungle_envs.core.compiled.runner import random_legal
from jungle_envs.games.jungle_sweep.compiled import rules
from jungle_envs.games.jungle_sweep.compiled.heuristic import heuristic_action
from jungle_envs.games.jungle_sweep.tables import DRAW_COCONUT, GAME_OVER

# Who plays the other seats in a rollout: the field the teacher expects to face.
FIELD_HEURISTIC, FIELD_RANDOM = 0, 1
FIELDS = {"heuristic": FIELD_HEURISTIC, "random": FIELD_RANDOM}


@kernel
def round_over(cfg, s, round_):
    """Whether the round that was ``round_`` has been scored (its awards are set, or the
    game has gone on to a later round or its end)."""
    return s[cfg.phase] == DRAW_COCONUT or s[cfg.round] != round_ or s[cfg.phase] == GAME_OVER


@kernel
def awards_of_round(cfg, row, action, seat, field, streams, obs, mask, out):
    """Apply ``action`` to a copy of ``row``, play the round out with the heuristic in
    ``seat`` and in the others as ``field`` says (the heuristic, or a random legal move
    from ``streams``' opponent stream), chance from its chance stream, and add each seat's
    coconuts awarded at the round's end to ``out`` (a seat owns monkey ``m`` when
    ``m % players`` is it)."""
    s = row.copy()
    round_ = s[cfg.round]
    rules.apply_action(cfg, s, action)
    while not round_over(cfg, s, round_):
        player = rules.current_player(cfg, s)
        if player == CHANCE:
            u = uniform(streams, CHANCE_STREAM)
            rules.apply_chance(cfg, s, rules.sample_chance(cfg, s, u))
            continue
        if player == TERMINAL:
            break
        rules.legal_mask(cfg, s, mask)
        if field == FIELD_RANDOM and player != seat:
            rules.apply_action(cfg, s, random_legal(mask, streams))
            continue
        # Jungle Sweep's heuristic reads the row (only what every seat sees), not ``obs``:
        # writing the observation would only cost time
        rules.apply_action(cfg, s, heuristic_action(cfg, s, player, obs, mask))
    if s[cfg.phase] == DRAW_COCONUT:
        for a in range(s[cfg.awards_len]):
            out[s[cfg.awards + a] % cfg.num_players] += 1.0


@kernel
def round_awards(cfg, row, legal, seat, field, seeds, obs, mask, out):
    """``out[i, k, p]``: the coconuts seat ``p`` is awarded when the round of ``row`` is
    played out after ``seat``'s move ``legal[i]`` (``awards_of_round``); rollout ``k`` of
    every move draws its chance and random moves from the same streams, seeded by
    ``seeds[k]``, so moves are compared on the same luck as far as their play allows."""
    out[:] = 0.0
    streams = np.zeros(2, dtype=np.uint64)
    for k in range(seeds.shape[0]):
        for i in range(legal.shape[0]):
            streams[0] = seeds[k]
            streams[1] = seeds[k]
            awards_of_round(cfg, row, legal[i], seat, field, streams, obs, mask, out[i, k])
