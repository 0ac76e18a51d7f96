"""Tropic Race: the ``Game`` binding the folder's rule functions to a game's ``Config``.

The header, the options and the config are in ``config.py``; every method forwards to the
function of the folder that implements it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jungle_envs.core.game import ChanceEvent, Game
from jungle_envs.games.tropic_race import encoding, render, rules
from jungle_envs.games.tropic_race.config import SPEC, make_config
from jungle_envs.games.tropic_race.state import TropicRaceState


class TropicRace(Game):
    """Tropic Race for 2-5 players."""

    spec = SPEC
    state_class = TropicRaceState
    make_config = staticmethod(make_config)

    # --- rules ---------------------------------------------------------------------------
    def new_state(self) -> TropicRaceState:
        return rules.new_state(self.config)

    def current_player(self, state: TropicRaceState) -> int:
        return rules.current_player(state)

    def legal_actions(self, state: TropicRaceState) -> list[int]:
        return rules.legal_actions(self.config, state)

    def legal_mask(self, state: TropicRaceState) -> np.ndarray:
        return rules.legal_mask(self.config, state)

    def _apply_action(self, state: TropicRaceState, action: int) -> None:
        rules.apply_action(self.config, state, action)

    def chance_event(self, state: TropicRaceState) -> ChanceEvent:
        return rules.chance_event(self.config, state)

    def sample_chance(self, state: TropicRaceState, rng: np.random.Generator) -> int:
        return rules.sample_chance(self.config, state, rng)

    def _apply_chance(self, state: TropicRaceState, outcome: int) -> None:
        rules.apply_chance(self.config, state, outcome)

    def scores(self, state: TropicRaceState) -> list[float]:
        return rules.scores(state)

    def winners(self, state: TropicRaceState) -> list[int]:
        return rules.winners(state)

    def final_details(self, state: TropicRaceState) -> dict[str, Any]:
        return rules.final_details(state)

    def validate_state(self, state: TropicRaceState) -> None:
        rules.validate(state, self.config)

    # --- views ---------------------------------------------------------------------------
    @property
    def observation_size(self) -> int:
        return self.config.observation_size

    def observe(self, state, seat, out=None):
        return encoding.observe(self.config, state, self.check_seat(seat), out)

    def render(self, state: TropicRaceState, viewer: int | None = None) -> str:
        if viewer is not None:
            viewer = self.check_seat(viewer, "viewer")
        return render.render(self.config, state, viewer)

    def _describe_outcome(self, state, outcome, viewer):
        return render.describe_outcome(self.config, state, outcome, viewer)

    def _draw_image(self, state, viewer):
        from jungle_envs.games.tropic_race.image import draw

        return draw(self.config, state, viewer)

    def heuristic_policy(self):
        from jungle_envs.games.tropic_race.heuristic import TropicRaceHeuristic

        return TropicRaceHeuristic(self.config)

    def compiled_twin(self):
        from jungle_envs.games.tropic_race import compiled

        return compiled


GAME = TropicRace
