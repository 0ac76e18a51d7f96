"""Elephant Festival: the ``Game`` that binds this folder's modules to a game's ``Config``.

The header, the options, the observation layout and the config are in ``config.py``; the
base class forwards every rule and view to the modules named here (``core/game.py``).
"""

from __future__ import annotations

from jungle_envs.core.game import Game
from jungle_envs.games.elephant_festival import encoding, render, rules
from jungle_envs.games.elephant_festival.config import SPEC, make_config
from jungle_envs.games.elephant_festival.heuristic import ElephantFestivalHeuristic
from jungle_envs.games.elephant_festival.state import ElephantFestivalState


class ElephantFestival(Game):
    """Elephant Festival for 2-5 players."""

    spec = SPEC
    state_class = ElephantFestivalState
    make_config = staticmethod(make_config)
    rules_module = rules
    encoding_module = encoding
    render_module = render
    heuristic_class = ElephantFestivalHeuristic

    def action_to_string(self, state, action):
        return rules.action_string(self.config, state, action)

    def final_info(self, state):
        # scoring a ground is the costly part: scores, winners and details share one scoring
        totals, won, details = rules.final_results(self.config, state)
        return {"scores": totals, "winners": won, "returns": self.returns_of(won), **details}

    def _draw_image(self, state, viewer):
        from jungle_envs.games.elephant_festival.image import draw  # Pillow, only when drawing

        return draw(self.config, state, viewer)

    def compiled_twin(self):
        from jungle_envs.games.elephant_festival import compiled  # numba, only when asked for

        return compiled


GAME = ElephantFestival
