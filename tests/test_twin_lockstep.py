"""The compiled twin of every game against its reference engine, in lockstep.

Every game and player count plays ``GAMES_PER_COUNT`` seeded games with the same chance
outcomes and decisions on both engines and compares everything after every step (see
``jungle_envs.core.compiled.lockstep``). ``python -m jungle_envs.core.compiled.lockstep``
runs the same check on many more games.
"""

from __future__ import annotations

import pytest

from jungle_envs.core.compiled import lockstep
from jungle_envs.core.registry import GAMES, game_class

GAMES_PER_COUNT = 200
CASES = [
    pytest.param(name, players, id=f"{name}-{players}p")
    for name in GAMES
    for players in game_class(name).spec.player_counts
]


@pytest.mark.parametrize("name,players", CASES)
def test_twin_plays_every_step_like_the_reference(name, players):
    report = lockstep.run(name, players, GAMES_PER_COUNT, first_seed=1000 * players)
    assert report.games == GAMES_PER_COUNT and report.decisions > GAMES_PER_COUNT


# Observation options the twin writes too: what each move would do, for the seat to move.
MOVE_FEATURE_CASES = [
    pytest.param(name, players, id=f"{name}-{players}p-move_features")
    for name in GAMES
    for players in (2, 4)
]


@pytest.mark.parametrize("name,players", MOVE_FEATURE_CASES)
def test_twin_writes_the_move_features_of_the_reference(name, players):
    report = lockstep.run(name, players, 50, first_seed=7000 + players, move_features=True)
    assert report.games == 50 and report.decisions > 50
