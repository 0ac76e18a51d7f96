"""Tropic Race's compiled twin: numba kernels over an int32 state row, one file per
reference file they mirror (``state.py`` the row and the kernels' config, ``rules.py`` with
``board.py`` the rules, ``encoding.py`` the observation, ``heuristic.py`` the heuristic).

Loaded by ``TropicRace.compiled_twin``; importing it registers the kernels for the config
class, so the shared runner finds them.
"""

from __future__ import annotations

from jungle_envs.core.compiled.contract import register_twin
from jungle_envs.games.tropic_race.compiled import encoding, heuristic, rules
from jungle_envs.games.tropic_race.compiled.state import (
    TropicRaceMovesTwinConfig,
    TwinConfig,
    make_twin_config,
    pack,
    unpack,
)

__all__ = ["TwinConfig", "make_twin_config", "pack", "unpack"]

KERNELS = dict(
    init_state=rules.init_state,
    current_player=rules.current_player,
    legal_mask=rules.legal_mask,
    apply_action=rules.apply_action,
    sample_chance=rules.sample_chance,
    apply_chance=rules.apply_chance,
    observe=encoding.observe_board,
    scores=rules.scores,
    returns=rules.returns,
    heuristic_action=heuristic.heuristic_action,
)
register_twin(TwinConfig, **KERNELS)
# with the move_features option: the observation with its moves piece
register_twin(TropicRaceMovesTwinConfig, **{**KERNELS, "observe": encoding.observe})
