"""Jungle Sweep as a ``Game``: the folder's functions bound to one config.

The header and options are in ``config.py``, the rules in ``rules.py``, the views in
``encoding.py``, ``render.py`` and ``image.py``; every method here forwards to them with
``self.config``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jungle_envs.core.game import ChanceEvent, Game
from jungle_envs.games.jungle_sweep import encoding, render, rules
from jungle_envs.games.jungle_sweep.config import SPEC, Config, make_config
from jungle_envs.games.jungle_sweep.heuristic import JungleSweepHeuristic
from jungle_envs.games.jungle_sweep.state import JungleSweepState, resample, validate


class JungleSweep(Game):
    """Jungle Sweep for 2-6 players (the 2-player game runs two monkeys per player)."""

    spec = SPEC
    state_class = JungleSweepState
    make_config = staticmethod(make_config)
    config: Config

    # --- rules ---------------------------------------------------------------------------
    def new_state(self) -> JungleSweepState:
        return rules.new_state(self.config)

    def current_player(self, state: JungleSweepState) -> int:
        return rules.current_player(self.config, state)

    def legal_mask(self, state: JungleSweepState) -> np.ndarray:
        return rules.legal_mask(self.config, state)

    def legal_actions(self, state: JungleSweepState) -> list[int]:
        return rules.legal_actions_in(state)

    def _apply_action(self, state: JungleSweepState, action: int) -> None:
        rules.apply_action(self.config, state, action)

    def chance_event(self, state: JungleSweepState) -> ChanceEvent:
        return rules.chance_event(self.config, state)

    def sample_chance(self, state: JungleSweepState, rng: np.random.Generator) -> int:
        return rules.sample_chance(self.config, state, rng)

    def _apply_chance(self, state: JungleSweepState, outcome: int) -> None:
        rules.apply_chance(self.config, state, outcome)

    def scores(self, state: JungleSweepState) -> list[float]:
        return rules.scores(self.config, state)

    def winners(self, state: JungleSweepState) -> list[int]:
        return rules.winners(self.config, state)

    def final_details(self, state: JungleSweepState) -> dict[str, Any]:
        return rules.final_details(self.config, state)

    def validate_state(self, state: JungleSweepState) -> None:
        validate(self.config, state)

    def _resample(self, state: JungleSweepState, seat: int, rng: np.random.Generator) -> None:
        resample(self.config, state, seat, rng)

    # --- views ---------------------------------------------------------------------------
    @property
    def observation_size(self) -> int:
        return self.config.observation_size

    def observe(self, state, seat, out=None):
        return encoding.observe(self.config, state, self.check_seat(seat), out)

    def render(self, state: JungleSweepState, viewer: int | None = None) -> str:
        if viewer is not None:
            viewer = self.check_seat(viewer, "viewer")
        return render.render(self.config, state, viewer)

    def _describe_outcome(self, state, outcome, viewer):
        return render.describe_outcome(self.config, state, outcome, viewer)

    def _draw_image(self, state, viewer):
        from jungle_envs.games.jungle_sweep.image import draw

        return draw(self.config, state, viewer)

    def heuristic_policy(self) -> JungleSweepHeuristic:
        return JungleSweepHeuristic(self.config)

    def compiled_twin(self):
        from jungle_envs.games.jungle_sweep import compiled

        return compiled


GAME = JungleSweep
