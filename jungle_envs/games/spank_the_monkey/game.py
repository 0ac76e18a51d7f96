"""Spank the Monkey: the ``Game`` that binds this folder's modules to a game's ``Config``.

The header, the options, the observation layout and the config are in ``config.py``; the
base class forwards every rule and view to the modules named here (``core/game.py``).
"""

from __future__ import annotations

from jungle_envs.core.game import Game
from jungle_envs.games.spank_the_monkey import encoding, render, rules
from jungle_envs.games.spank_the_monkey.config import SPEC, make_config
from jungle_envs.games.spank_the_monkey.heuristic import SpankTheMonkeyHeuristic
from jungle_envs.games.spank_the_monkey.state import SpankState


class SpankTheMonkey(Game):
    """Spank the Monkey for 2-6 players."""

    spec = SPEC
    state_class = SpankState
    make_config = staticmethod(make_config)
    rules_module = rules
    encoding_module = encoding
    render_module = render
    heuristic_class = SpankTheMonkeyHeuristic

    def _draw_image(self, state, viewer):
        from jungle_envs.games.spank_the_monkey.image import draw  # Pillow, only when drawing

        return draw(self.config, state, viewer)

    def compiled_twin(self):
        from jungle_envs.games.spank_the_monkey import compiled  # numba, only when asked for

        return compiled


GAME = SpankTheMonkey
