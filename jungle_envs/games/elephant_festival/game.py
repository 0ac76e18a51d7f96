"""Elephant Festival: the game header, its options, and the binding of the rule functions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from jungle_envs.core.game import (
    ChanceEvent,
    Game,
    GameSpec,
    Option,
    draw_from_counts,
    integer_keys,
)
from jungle_envs.games.elephant_festival import encoding, render, rules
from jungle_envs.games.elephant_festival.state import ElephantFestivalState, validate
from jungle_envs.games.elephant_festival.tables import (
    ACTION_NAMES,
    DEFAULT_GRID,
    DEFAULT_TILES_PER_COLOR,
    ELEPHANTS,
    MAX_SYMBOLS,
    NUM_COLORS,
    PLACE_ACTIONS,
    TYPES,
)

MAX_TILES_PER_COLOR = 200


def _check_tiles(value: Any) -> dict[int, int]:
    if not isinstance(value, Mapping):
        raise TypeError(f"expected a mapping symbols -> tiles per colour, got {value!r}")
    value = integer_keys(value, "symbol counts")
    unknown = sorted(set(value) - set(DEFAULT_TILES_PER_COLOR), key=str)
    if unknown:
        raise ValueError(f"unknown symbol counts {unknown}; allowed: 0-{MAX_SYMBOLS}")
    tiles = {**DEFAULT_TILES_PER_COLOR, **value}
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in tiles.values()):
        raise ValueError("tile counts must be ints >= 0")
    if not 0 < sum(tiles.values()) <= MAX_TILES_PER_COLOR:
        raise ValueError(f"each colour needs 1 to {MAX_TILES_PER_COLOR} tiles (one round each)")
    return dict(sorted(tiles.items()))


def _check_grid(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 3 or value % 2 == 0:
        raise ValueError(
            f"the grid size must be an odd int >= 3 (the start tile is central), got {value!r}"
        )
    return value


SPEC = GameSpec(
    name="elephant_festival",
    env_name="ElephantFestival",
    min_players=2,
    max_players=5,
    default_players=4,
    action_names=ACTION_NAMES,
    max_decisions=MAX_TILES_PER_COLOR,  # one decision per round: 20 with the default tiles
    options=(
        Option(
            "tiles_per_color",
            DEFAULT_TILES_PER_COLOR,
            "tiles of each colour by their number of elephant symbols",
            _check_tiles,
        ),
        Option("grid", DEFAULT_GRID, "side of the square ground", _check_grid),
    ),
)


class ElephantFestival(Game):
    """Elephant Festival for 2-5 players."""

    spec = SPEC
    state_class = ElephantFestivalState

    def _setup(self) -> None:
        per_color = self.options["tiles_per_color"]
        self.tile_counts = tuple(per_color[kind % TYPES] for kind in range(NUM_COLORS * TYPES))
        # 20 tiles per player with the default box: the bag holds a colour's worth each.
        self.tiles_per_player = sum(per_color.values())
        self.bag_size = self.tiles_per_player * self.num_players
        self.grid = self.options["grid"]
        self.start_cell = self.grid * self.grid // 2
        self.action_index = {triple: index for index, triple in enumerate(PLACE_ACTIONS)}
        self._observation_size = encoding.observation_size(self)

    # --- rules ---------------------------------------------------------------------------
    def new_state(self) -> ElephantFestivalState:
        return rules.new_state(self)

    def current_player(self, state: ElephantFestivalState) -> int:
        return rules.current_player(self, state)

    def legal_actions(self, state: ElephantFestivalState) -> list[int]:
        return sorted(rules.legal_actions(self, state))

    def legal_mask(self, state: ElephantFestivalState) -> np.ndarray:
        mask = np.zeros(self.spec.num_actions, dtype=bool)
        mask[rules.legal_actions(self, state)] = True
        return mask

    def _apply_action(self, state: ElephantFestivalState, action: int) -> None:
        rules.apply_action(self, state, action)

    def chance_event(self, state: ElephantFestivalState) -> ChanceEvent:
        return rules.chance_event(self, state)

    def sample_chance(self, state: ElephantFestivalState, rng) -> int:
        return draw_from_counts(state.box, rng)

    def _apply_chance(self, state: ElephantFestivalState, outcome: int) -> None:
        rules.apply_chance(self, state, outcome)

    def scores(self, state: ElephantFestivalState) -> list[float]:
        return [float(lines["total"]) for lines in rules.breakdowns(self, state)]

    def winners(self, state: ElephantFestivalState) -> list[int]:
        return rules.winners(self, state)

    def final_details(self, state: ElephantFestivalState) -> dict[str, Any]:
        return {
            "score_lines": rules.breakdowns(self, state),
            "standing_elephants": [ELEPHANTS - p for p in state.passes],
        }

    def final_info(self, state: ElephantFestivalState) -> dict[str, Any]:
        # Scoring every ground is the costly part: once, not once per result.
        lines = rules.breakdowns(self, state)
        totals = [float(line["total"]) for line in lines]
        winners = []
        if self.is_terminal(state):
            winners = [seat for seat, total in enumerate(totals) if total == max(totals)]
        return {
            "scores": totals,
            "winners": winners,
            "returns": self.returns_of(winners),
            "score_lines": lines,
            "standing_elephants": [ELEPHANTS - p for p in state.passes],
        }

    def validate_state(self, state: ElephantFestivalState) -> None:
        validate(state, self)

    # --- views ---------------------------------------------------------------------------
    @property
    def observation_size(self) -> int:
        return self._observation_size

    def observe(self, state, seat, out=None):
        return encoding.observe(self, state, self.check_seat(seat), out)

    def render(self, state: ElephantFestivalState, viewer: int | None = None) -> str:
        if viewer is not None:
            viewer = self.check_seat(viewer, "viewer")
        return render.render(self, state, viewer)

    def _describe_outcome(self, state, outcome, viewer):
        return render.describe_outcome(self, state, outcome, viewer)

    def heuristic_policy(self):
        from jungle_envs.games.elephant_festival.heuristic import ElephantFestivalHeuristic

        return ElephantFestivalHeuristic(self)


GAME = ElephantFestival
