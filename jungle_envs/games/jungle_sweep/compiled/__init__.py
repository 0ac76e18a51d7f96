"""Jungle Sweep's compiled twin: numba kernels over one int32 state row.

Each file mirrors the reference file of the same name: ``state.py`` (the row, the kernels'
config, ``pack``/``unpack``), ``rules.py`` (with ``board.py``, its movement functions),
``encoding.py`` (``observe``) and ``heuristic.py`` (``heuristic_action``). Importing this
package registers the kernels with the shared runner.
"""

from __future__ import annotations

from jungle_envs.core.compiled.contract import register_twin
from jungle_envs.games.jungle_sweep.compiled import encoding, heuristic, rules
from jungle_envs.games.jungle_sweep.compiled.state import (
    JungleSweepMovesTwinConfig,
    JungleSweepTwinConfig,
    make_twin_config,
    pack,
    unpack,
)

__all__ = ["JungleSweepTwinConfig", "make_twin_config", "pack", "unpack"]

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
register_twin(JungleSweepTwinConfig, **KERNELS)
# with the move_features option: the observation with its moves piece
register_twin(JungleSweepMovesTwinConfig, **{**KERNELS, "observe": encoding.observe})
