"""The event log on the compiled engine: one kernel step replayed a rule at a time.

The kernel plays chance and the built-in opponents without stopping, so it cannot say
what happened. With the log on, the engine first replays the step on copies of its row
and random streams through the twin's single-rule entry points, drawing the same numbers
in the order ``runner.advance`` draws them, and writes down each decision and outcome;
then the kernel takes the step as always, and the engine checks that both rows agree.
The log costs nothing when it is off: the kernel step is untouched.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from jungle_envs.core import events
from jungle_envs.core.compiled import contract, rng, runner
from jungle_envs.core.state import GameState

_MASK64 = (1 << 64) - 1
_GOLDEN, _MIX1, _MIX2 = int(rng._GOLDEN), int(rng._MIX1), int(rng._MIX2)


def uniform(streams: list[int], k: int) -> float:
    """``rng.uniform`` in plain Python ints: the same SplitMix64 draw."""
    z = (streams[k] + _GOLDEN) & _MASK64
    streams[k] = z
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
    return float((z ^ (z >> 31)) >> 11) * rng._TO_UNIT


def below(streams: list[int], k: int, n: int) -> int:
    return min(int(uniform(streams, k) * n), n - 1)


def random_legal(mask: np.ndarray, streams: list[int]) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[below(streams, rng.OPPONENT_STREAM, len(legal))])


class Replayed(NamedTuple):
    """One kernel call replayed: its events, the row it must end in, and its raw steps
    (``[seat, action]`` or ``[None, outcome]``, hidden outcomes included, as
    ``jungle_envs.replay`` keeps them); ``start``: the state before a fresh deal's chance."""

    log: list[dict]
    row: np.ndarray
    steps: list[list]
    start: GameState | None


def replay(engine, start: bool, action: int, actor: int) -> Replayed:
    """The events of ``engine``'s next kernel call and the row it should end in.

    ``start``: a fresh deal; otherwise ``actor`` (the learner or an external opponent)
    plays ``action`` first."""
    twin, game, learner = engine.twin, engine.game, engine.learner
    row, streams = engine._row.copy(), [int(word) for word in engine._streams]
    log: list[dict] = []
    steps: list[list] = []
    dealt = None
    if start:
        twin._call("init_state", row)
        dealt = twin.unpack(row)
    else:
        log.append(events.decision(game, actor, action, learner))
        steps.append([actor, action])
        twin.apply_action(row, action)
    while True:
        player = twin.current_player(row)
        if player == contract.CHANCE:
            outcome = twin.sample_chance(row, uniform(streams, rng.CHANCE_STREAM))
            log.append(events.outcome(game, twin.unpack(row), outcome, learner))
            steps.append([None, outcome])
            twin.apply_chance(row, outcome)
            continue
        if player == contract.TERMINAL:
            return Replayed(log, row, steps, dealt)
        mask = twin.legal_mask(row)
        kind = engine._kinds[player]
        if player == learner:
            if not (engine.skip_forced and mask.sum() == 1):
                return Replayed(log, row, steps, dealt)
            choice, forced = int(mask.argmax()), True
        elif kind == runner.RANDOM:
            choice, forced = random_legal(mask, streams), False
        elif kind == runner.HEURISTIC:
            choice, forced = twin.heuristic_action(row, player), False
        else:  # an opponent in Python: the engine logs its decision when it makes it
            return Replayed(log, row, steps, dealt)
        log.append(events.decision(game, player, choice, learner, forced))
        steps.append([player, choice])
        twin.apply_action(row, choice)
