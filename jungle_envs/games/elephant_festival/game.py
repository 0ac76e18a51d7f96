"""Elephant Festival: the Game, binding the folder's rule functions to one Config."""

from __future__ import annotations

from typing import Any

import numpy as np

from jungle_envs.core.game import ChanceEvent, Game
from jungle_envs.games.elephant_festival import encoding, render, rules
from jungle_envs.games.elephant_festival.config import SPEC, make_config
from jungle_envs.games.elephant_festival.state import ElephantFestivalState, validate


class ElephantFestival(Game):
    """Elephant Festival for 2-5 players."""

    spec = SPEC
    state_class = ElephantFestivalState
    make_config = staticmethod(make_config)

    # --- rules ---------------------------------------------------------------------------
    def new_state(self) -> ElephantFestivalState:
        return rules.new_state(self.config)

    def current_player(self, state: ElephantFestivalState) -> int:
        return rules.current_player(self.config, state)

    def legal_actions(self, state: ElephantFestivalState) -> list[int]:
        return sorted(rules.legal_actions(self.config, state))

    def legal_mask(self, state: ElephantFestivalState) -> np.ndarray:
        return rules.legal_mask(self.config, state)

    def _apply_action(self, state: ElephantFestivalState, action: int) -> None:
        rules.apply_action(self.config, state, action)

    def chance_event(self, state: ElephantFestivalState) -> ChanceEvent:
        return rules.chance_event(self.config, state)

    def sample_chance(self, state: ElephantFestivalState, rng) -> int:
        return rules.sample_chance(self.config, state, rng)

    def _apply_chance(self, state: ElephantFestivalState, outcome: int) -> None:
        rules.apply_chance(self.config, state, outcome)

    def scores(self, state: ElephantFestivalState) -> list[float]:
        return rules.scores(self.config, state)

    def winners(self, state: ElephantFestivalState) -> list[int]:
        return rules.winners(self.config, state)

    def final_details(self, state: ElephantFestivalState) -> dict[str, Any]:
        return rules.final_details(self.config, state)

    def final_info(self, state: ElephantFestivalState) -> dict[str, Any]:
        totals, won, details = rules.final_results(self.config, state)  # one scoring
        return {"scores": totals, "winners": won, "returns": self.returns_of(won), **details}

    def validate_state(self, state: ElephantFestivalState) -> None:
        validate(self.config, state)

    # --- views ---------------------------------------------------------------------------
    @property
    def observation_size(self) -> int:
        return self.config.observation_size

    def observe(self, state, seat, out=None):
        return encoding.observe(self.config, state, self.check_seat(seat), out)

    def render(self, state: ElephantFestivalState, viewer: int | None = None) -> str:
        if viewer is not None:
            viewer = self.check_seat(viewer, "viewer")
        return render.render(self.config, state, viewer)

    def _describe_outcome(self, state, outcome, viewer):
        return render.describe_outcome(self.config, state, outcome, viewer)

    def _draw_image(self, state: ElephantFestivalState, viewer: int | None) -> np.ndarray:
        from jungle_envs.games.elephant_festival.image import draw

        return draw(self.config, state, viewer)

    def heuristic_policy(self):
        from jungle_envs.games.elephant_festival.heuristic import ElephantFestivalHeuristic

        return ElephantFestivalHeuristic(self.config)

    def compiled_twin(self):
        from jungle_envs.games.elephant_festival import compiled

        return compiled


GAME = ElephantFestival
