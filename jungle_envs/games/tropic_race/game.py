"""Tropic Race: the ``Game`` that binds this folder's modules to a game's ``Config``.

The header, the options and the config are in ``config.py``; the base class forwards every
rule and view to the modules named here (``core/game.py``).
"""

from __future__ import annotations

from jungle_envs.core.game import Game
from jungle_envs.games.tropic_race import encoding, render, rules
from jungle_envs.games.tropic_race.config import SPEC, make_config
from jungle_envs.games.tropic_race.heuristic import TropicRaceHeuristic
from jungle_envs.games.tropic_race.state import TropicRaceState


class TropicRace(Game):
    """Tropic Race for 2-5 players."""

    spec = SPEC
    state_class = TropicRaceState
    make_config = staticmethod(make_config)
    rules_module = rules
    encoding_module = encoding
    render_module = render
    heuristic_class = TropicRaceHeuristic

    def _draw_image(self, state, viewer):
        from jungle_envs.games.tropic_race.image import draw  # Pillow, only when drawing

        return draw(self.config, state, viewer)

    def compiled_twin(self):
        from jungle_envs.games.tropic_race import compiled  # numba, only when asked for

        return compiled


GAME = TropicRace
