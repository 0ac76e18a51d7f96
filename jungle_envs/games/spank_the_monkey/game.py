"""Spank the Monkey as a ``Game``: the binding of the folder's functions to one config."""

from __future__ import annotations

from typing import Any

import numpy as np

from jungle_envs.core.game import ChanceEvent, Game
from jungle_envs.games.spank_the_monkey import encoding, render, rules
from jungle_envs.games.spank_the_monkey.config import SPEC, make_config
from jungle_envs.games.spank_the_monkey.state import SpankState, resample, validate


class SpankTheMonkey(Game):
    """Spank the Monkey for 2-6 players."""

    spec = SPEC
    state_class = SpankState
    make_config = staticmethod(make_config)

    # --- rules ---------------------------------------------------------------------------
    def new_state(self) -> SpankState:
        return rules.new_state(self.config)

    def current_player(self, state: SpankState) -> int:
        return rules.current_player(state)

    def legal_actions(self, state: SpankState) -> list[int]:
        return rules.legal_actions(state)

    def legal_mask(self, state: SpankState) -> np.ndarray:
        return rules.legal_mask(state)

    def _apply_action(self, state: SpankState, action: int) -> None:
        rules.apply_action(self.config, state, action)

    def chance_event(self, state: SpankState) -> ChanceEvent:
        return rules.chance_event(self.config, state)

    def sample_chance(self, state: SpankState, rng: np.random.Generator) -> int:
        return rules.sample_chance(self.config, state, rng)

    def _apply_chance(self, state: SpankState, outcome: int) -> None:
        rules.apply_chance(self.config, state, outcome)

    def scores(self, state: SpankState) -> list[float]:
        return rules.scores(self.config, state)

    def winners(self, state: SpankState) -> list[int]:
        return rules.winners(state)

    def final_details(self, state: SpankState) -> dict[str, Any]:
        return rules.final_details(state)

    def validate_state(self, state: SpankState) -> None:
        validate(state, self.config)

    def _resample(self, state: SpankState, seat: int, rng: np.random.Generator) -> None:
        resample(state, self.config, seat, rng)

    # --- views ---------------------------------------------------------------------------
    @property
    def observation_size(self) -> int:
        return self.config.observation_size

    def observe(self, state: SpankState, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        return encoding.observe(self.config, state, self.check_seat(seat), out)

    def render(self, state: SpankState, viewer: int | None = None) -> str:
        if viewer is not None:
            viewer = self.check_seat(viewer, "viewer")
        return render.render(self.config, state, viewer)

    def _describe_outcome(self, state: SpankState, outcome: int, viewer: int | None) -> str:
        return render.describe_outcome(self.config, state, outcome, viewer)

    def _draw_image(self, state: SpankState, viewer: int | None) -> np.ndarray:
        from jungle_envs.games.spank_the_monkey.image import draw

        return draw(self.config, state, viewer)

    def heuristic_policy(self):
        from jungle_envs.games.spank_the_monkey.heuristic import SpankTheMonkeyHeuristic

        return SpankTheMonkeyHeuristic(self.config)

    def compiled_twin(self):
        from jungle_envs.games.spank_the_monkey import compiled

        return compiled


GAME = SpankTheMonkey
