"""Spank the Monkey's compiled twin: numba kernels over one int32 row per state, equal to
the reference step for step (``tests/test_twin_lockstep.py``).

Each file mirrors the reference file of its name: ``state.py`` (the row, the twin's config,
``pack`` / ``unpack``), ``rules.py`` (the state machine), ``encoding.py`` (``observe``),
``heuristic.py`` (``heuristic_action``), ``tables.py`` (the tables as arrays) and
``reading.py`` (what reads the row without changing it: legal actions, reach, an attack's
values). This entry registers the kernels for the config's class.
"""

from __future__ import annotations

from jungle_envs.core.compiled.contract import register_twin
from jungle_envs.games.spank_the_monkey.compiled import encoding, heuristic, reading, rules
from jungle_envs.games.spank_the_monkey.compiled.state import (
    SpankMovesTwinConfig,
    TwinConfig,
    make_twin_config,
    pack,
    unpack,
)

__all__ = ["TwinConfig", "make_twin_config", "pack", "unpack"]

KERNELS = dict(
    init_state=rules.init_state,
    current_player=rules.current_player,
    legal_mask=reading.legal_mask,
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
register_twin(SpankMovesTwinConfig, **{**KERNELS, "observe": encoding.observe})
