"""Tropic Race: the game header, its options, and the binding of the rule functions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from jungle_envs.core.game import ChanceEvent, Game, GameSpec, Option, draw_from_counts
from jungle_envs.games.tropic_race import encoding, render, rules
from jungle_envs.games.tropic_race.state import TropicRaceState, validate
from jungle_envs.games.tropic_race.tables import (
    ACTION_NAMES,
    ARROW_CODE,
    ARROW_FACE,
    DEFAULT_ARROW_FIELDS,
    DEFAULT_DIE,
    DEFAULT_DIE_FIELDS,
    DEFAULT_LION_START,
    DEFAULT_TILE_MIX,
    LAND,
    LION_CODE,
    LION_FACE,
    LOC,
    LOCATION_NAMES,
    MAX_NUMBER,
    MONKEYS_PER_PLAYER,
    PICK_START,
    ROLL,
    SLOTS,
    TILE_KINDS,
)

LAND_NAMES = tuple(LOCATION_NAMES[f] for f in LAND)


def _check_die(value: Any) -> list[str]:
    if isinstance(value, str) or not isinstance(value, Sequence) or not value:
        raise TypeError(f"expected a list of faces, got {value!r}")
    allowed = {str(n) for n in range(1, MAX_NUMBER + 1)} | {LION_FACE, ARROW_FACE}
    faces = [str(face) for face in value]
    bad = sorted(set(faces) - allowed)
    if bad:
        raise ValueError(f"unknown faces {bad}; allowed: 1-{MAX_NUMBER}, {LION_FACE}, {ARROW_FACE}")
    if ARROW_FACE not in faces:
        raise ValueError("keep an ARROW face: the river must move for the volcano to end the game")
    if set(faces) == {ARROW_FACE}:
        raise ValueError("keep a number or LION face: with only ARROW faces nobody ever decides")
    return faces


def _check_tile_mix(value: Any) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise TypeError(f"expected a mapping tile kind -> count, got {value!r}")
    unknown = sorted(set(value) - set(TILE_KINDS))
    if unknown:
        raise ValueError(f"unknown tile kinds {unknown}; allowed: {list(TILE_KINDS)}")
    mix = {**DEFAULT_TILE_MIX, **value}
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in mix.values()):
        raise ValueError("tile counts must be ints >= 0")
    if sum(mix.values()) <= SLOTS:
        raise ValueError(
            f"need more than {SLOTS} tiles: {SLOTS} fill the river, the rest the supply"
        )
    return mix


def _check_land_field(value: Any) -> str:
    if value not in LAND_NAMES:
        raise ValueError(f"{value!r} is not a land field; allowed: {list(LAND_NAMES)}")
    return value


def _check_fields(value: Any) -> list[str]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise TypeError(f"expected a list of land fields, got {value!r}")
    return sorted({_check_land_field(field) for field in value}, key=LAND_NAMES.index)


def _check_monkeys(value: Any) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ValueError(f"expected None (by player count) or an int >= 1, got {value!r}")
    return value


SPEC = GameSpec(
    name="tropic_race",
    env_name="TropicRace",
    min_players=2,
    max_players=5,
    default_players=4,
    action_names=ACTION_NAMES,
    # No hard bound exists (the volcano comes with the arrows); this only guards training.
    max_decisions=2000,
    hidden_information=False,
    options=(
        Option("die_faces", list(DEFAULT_DIE), "faces of the ten-sided die", _check_die),
        Option("tile_mix", DEFAULT_TILE_MIX, "river tiles by kind", _check_tile_mix),
        Option("lion_start", DEFAULT_LION_START, "the lion's first field", _check_land_field),
        Option(
            "die_fields", list(DEFAULT_DIE_FIELDS), "fields giving an extra turn", _check_fields
        ),
        Option(
            "arrow_fields", list(DEFAULT_ARROW_FIELDS), "fields pushing the river", _check_fields
        ),
        Option(
            "monkeys",
            None,
            "monkeys per player (None: 6/5/4/4 for 2/3/4/5 players)",
            _check_monkeys,
        ),
    ),
)


class TropicRace(Game):
    """Tropic Race for 2-5 players."""

    spec = SPEC
    state_class = TropicRaceState

    def _setup(self) -> None:
        opts = self.options
        self.monkeys_per_player = opts["monkeys"] or MONKEYS_PER_PLAYER[self.num_players]
        self.tile_mix = tuple(opts["tile_mix"][kind] for kind in TILE_KINDS)
        self.lion_start = LOC[opts["lion_start"]]
        self.die_fields = frozenset(LOC[f] for f in opts["die_fields"])
        self.arrow_fields = frozenset(LOC[f] for f in opts["arrow_fields"])
        both = sorted(LOCATION_NAMES[f] for f in self.die_fields & self.arrow_fields)
        if both:
            raise ValueError(f"a field cannot be both a die and an arrow field: {both}")
        faces = Counter(
            LION_CODE if f == LION_FACE else ARROW_CODE if f == ARROW_FACE else int(f)
            for f in opts["die_faces"]
        )
        self.die_event = ChanceEvent.weighted("roll the die", dict(sorted(faces.items())))
        self._die_outcomes = sorted(faces)
        self._die_counts = [faces[code] for code in self._die_outcomes]
        self.max_steps = max([code for code in faces if code <= MAX_NUMBER] + [1])
        self._observation_size = encoding.observation_size(self)
        self.field_features = encoding.field_features(self)

    # --- rules ---------------------------------------------------------------------------
    def new_state(self) -> TropicRaceState:
        return rules.new_state(self)

    def current_player(self, state: TropicRaceState) -> int:
        return rules.current_player(state)

    def legal_actions(self, state: TropicRaceState) -> list[int]:
        return rules.legal_actions(self, state)

    def legal_mask(self, state: TropicRaceState) -> np.ndarray:
        mask = np.zeros(self.spec.num_actions, dtype=bool)
        mask[rules.legal_actions(self, state)] = True
        return mask

    def _apply_action(self, state: TropicRaceState, action: int) -> None:
        rules.apply_action(self, state, action)

    def chance_event(self, state: TropicRaceState) -> ChanceEvent:
        return rules.chance_event(self, state)

    def sample_chance(self, state: TropicRaceState, rng) -> int:
        if state.phase == ROLL:
            return self._die_outcomes[draw_from_counts(self._die_counts, rng)]
        if state.phase == PICK_START:
            return int(rng.random() * self.num_players)
        return draw_from_counts(state.supply, rng)

    def _apply_chance(self, state: TropicRaceState, outcome: int) -> None:
        rules.apply_chance(self, state, outcome)

    def scores(self, state: TropicRaceState) -> list[float]:
        return [float(n) for n in rules.home_counts(state)]

    def winners(self, state: TropicRaceState) -> list[int]:
        return rules.winners(state)

    def final_details(self, state: TropicRaceState) -> dict[str, Any]:
        return {
            "monkeys_home": rules.home_counts(state),
            "volcano": state.volcano,
            "rolls": state.rolls,
        }

    def validate_state(self, state: TropicRaceState) -> None:
        validate(state, self)

    # --- views ---------------------------------------------------------------------------
    @property
    def observation_size(self) -> int:
        return self._observation_size

    def observe(self, state, seat, out=None):
        return encoding.observe(self, state, self.check_seat(seat), out)

    def render(self, state: TropicRaceState, viewer: int | None = None) -> str:
        if viewer is not None:
            viewer = self.check_seat(viewer, "viewer")
        return render.render(self, state, viewer)

    def _describe_outcome(self, state, outcome, viewer):
        return render.describe_outcome(self, state, outcome, viewer)

    def heuristic_policy(self):
        from jungle_envs.games.tropic_race.heuristic import TropicRaceHeuristic

        return TropicRaceHeuristic(self)


GAME = TropicRace
