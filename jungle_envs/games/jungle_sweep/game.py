"""Jungle Sweep: the ``Game`` that binds this folder's modules to a game's ``Config``.

The header, the options and the config are in ``config.py``; the base class forwards every
rule and view to the modules named here (``core/game.py``).
"""

from __future__ import annotations

from jungle_envs.core.game import Game
from jungle_envs.games.jungle_sweep import encoding, render, rules
from jungle_envs.games.jungle_sweep.config import SPEC, make_config
from jungle_envs.games.jungle_sweep.heuristic import JungleSweepHeuristic
from jungle_envs.games.jungle_sweep.state import JungleSweepState


class JungleSweep(Game):
    """Jungle Sweep for 2-6 players (the 2-player game runs two monkeys per player)."""

    spec = SPEC
    state_class = JungleSweepState
    make_config = staticmethod(make_config)
    rules_module = rules
    encoding_module = encoding
    render_module = render
    heuristic_class = JungleSweepHeuristic

    def _draw_image(self, state, viewer):
        from jungle_envs.games.jungle_sweep.image import draw  # Pillow, only when drawing

        return draw(self.config, state, viewer)

    def compiled_twin(self):
        from jungle_envs.games.jungle_sweep import compiled  # numba, only when asked for

        return compiled


GAME = JungleSweep
