"""Jungle Sweep: the game header, its options, and the binding of the rule functions."""

from __future__ import annotations

from collections import Counter
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
from jungle_envs.games.jungle_sweep import encoding, render, rules
from jungle_envs.games.jungle_sweep.rules import broom_reach_distribution
from jungle_envs.games.jungle_sweep.state import JungleSweepState, resample, validate
from jungle_envs.games.jungle_sweep.tables import (
    ACTION_NAMES,
    DEFAULT_COCONUTS,
    DEFAULT_MAX_DICE_ROUNDS,
    DEFAULT_TERRAIN,
    LAST_MONKEY_COCONUTS,
    LATER_LEAVER_COCONUTS,
    LAY_RING,
    MAX_MONKEYS,
    NUM_FACES,
    PALM,
    PLAYER_SETUP,
    REROLL,
    ROLL,
    ROUNDS,
    TERRAIN_KEYS,
    UNREWARDED,
)


def _check_terrain(value: Any) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise TypeError(f"expected a mapping of terrain counts, got {value!r}")
    unknown = sorted(set(value) - set(DEFAULT_TERRAIN))
    if unknown:
        raise ValueError(f"unknown terrain {unknown}; allowed: {sorted(DEFAULT_TERRAIN)}")
    merged = {**DEFAULT_TERRAIN, **value}
    for key, count in merged.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"terrain count for {key!r} must be an int >= 0, got {count!r}")
    if merged["quicksand"] != 1:
        raise ValueError("there is exactly one quicksand (the broom's start)")
    if merged["jungle_path"] < ROUNDS - 1:
        raise ValueError(f"need at least {ROUNDS - 1} jungle paths (one leaves per round)")
    return merged


def _check_coconuts(value: Any) -> dict[int, int]:
    if not isinstance(value, Mapping) or not value:
        raise TypeError(f"expected a mapping coconut value -> count, got {value!r}")
    value = integer_keys(value, "coconut values")
    for coconut, count in value.items():
        if isinstance(coconut, bool) or not isinstance(coconut, int) or coconut < 0:
            raise ValueError(f"coconut values must be ints >= 0, got {coconut!r}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"coconut counts must be ints >= 0, got {count!r}")
    return dict(sorted(value.items()))


def _check_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected True or False, got {value!r}")
    return value


def _check_positive_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"expected an int >= 1, got {value!r}")
    return value


SPEC = GameSpec(
    name="jungle_sweep",
    env_name="JungleSweep",
    min_players=2,
    max_players=6,
    default_players=4,
    action_names=ACTION_NAMES,
    # Per round at most max_dice_rounds dice rounds; per dice round a seat decides for at
    # most two monkeys: a die, then a landing chain (hill steps, re-rolls) of a few more.
    max_decisions=ROUNDS * DEFAULT_MAX_DICE_ROUNDS * 2 * 6,
    options=(
        Option("terrain", DEFAULT_TERRAIN, "non-palm ring tiles by terrain", _check_terrain),
        Option(
            "coconuts", DEFAULT_COCONUTS, "coconut value -> count (0 = hollow)", _check_coconuts
        ),
        Option(
            "move_features",
            False,
            "add to the observation where each die face would take my monkey",
            _check_bool,
            observation_only=True,
        ),
        Option(
            "max_dice_rounds",
            DEFAULT_MAX_DICE_ROUNDS,
            "dice rounds after which a round ends by the safety net (above 200, also raise "
            "the env's step_limit)",
            _check_positive_int,
        ),
    ),
)


class JungleSweep(Game):
    """Jungle Sweep for 2-6 players (the 2-player game runs two monkeys per player)."""

    spec = SPEC
    state_class = JungleSweepState

    def _setup(self) -> None:
        monkeys, with_hollow, set_aside = PLAYER_SETUP[self.num_players]
        self.num_monkeys = self.num_dice = monkeys
        self.set_aside_count = set_aside
        self.terrain = self.options["terrain"]
        self.max_dice_rounds = self.options["max_dice_rounds"]
        coconuts = self.options["coconuts"]
        self.coconut_values = tuple(coconuts)
        self.initial_supply = tuple(
            count if (value != 0 or with_hollow) else 0 for value, count in coconuts.items()
        )
        per_round = LAST_MONKEY_COCONUTS + LATER_LEAVER_COCONUTS * (
            monkeys - 1 - UNREWARDED[monkeys]
        )
        self.coconuts_per_round = per_round
        needed = ROUNDS * per_round + set_aside
        if sum(self.initial_supply) < needed:
            raise ValueError(
                f"the coconut supply for {self.num_players} players holds "
                f"{sum(self.initial_supply)} coconuts; the game hands out {needed}"
            )
        self.max_ring_size = MAX_MONKEYS + sum(self.terrain.values())
        self._ring_tiles = [self._tiles_for_round(r) for r in range(ROUNDS)]
        self._ring_counts = [
            [tiles[code] for code in range(PALM + MAX_MONKEYS)] for tiles in self._ring_tiles
        ]
        self._observation_size = encoding.observation_size(self)
        reach = broom_reach_distribution(self.num_dice)
        # Chance the broom's next roll stops short of a field d steps ahead (d >= 1).
        self._short_of = np.concatenate([[0.0], np.cumsum(reach)])
        self.encoding_cache: dict[tuple[int, ...], np.ndarray] = {}

    def _tiles_for_round(self, round_index: int) -> Counter:
        # Codes 0..4 are terrain (see tables); palms are PALM + monkey slot.
        counts = Counter({PALM + m: 1 for m in range(self.num_monkeys)})
        for code, key in enumerate(TERRAIN_KEYS[:PALM]):
            n = self.terrain[key] - (round_index if key == "jungle_path" else 0)
            if n > 0:
                counts[code] = n
        return counts

    def broom_short_of(self, ahead: int) -> float:
        """Chance the broom's next roll moves fewer than ``ahead`` fields."""
        return float(self._short_of[min(ahead, len(self._short_of) - 1)])

    def ring_tiles(self, round_index: int) -> Counter:
        """The multiset of tile codes making up the ring in a round."""
        return self._ring_tiles[round_index].copy()

    def tiles_left(self, state: JungleSweepState) -> dict[int, int]:
        """Tile code -> count still to lay in this round's ring."""
        counts = list(self._ring_counts[state.round])
        for code in state.ring:
            counts[code] -= 1
        return {code: n for code, n in enumerate(counts) if n}

    def ring_size(self, round_index: int) -> int:
        return sum(self._ring_tiles[round_index].values())

    # --- rules ---------------------------------------------------------------------------
    def new_state(self) -> JungleSweepState:
        return rules.new_state(self)

    def current_player(self, state: JungleSweepState) -> int:
        return rules.current_player(self, state)

    def legal_mask(self, state: JungleSweepState) -> np.ndarray:
        mask = np.zeros(self.spec.num_actions, dtype=bool)
        mask[rules.legal_actions_in(state)] = True
        return mask

    def legal_actions(self, state: JungleSweepState) -> list[int]:
        return rules.legal_actions_in(state)

    def _apply_action(self, state: JungleSweepState, action: int) -> None:
        rules.apply_action(self, state, action)

    def chance_event(self, state: JungleSweepState) -> ChanceEvent:
        return rules.chance_event(self, state)

    def sample_chance(self, state: JungleSweepState, rng) -> int:
        phase = state.phase
        if phase in (ROLL, REROLL):
            return int(rng.random() * NUM_FACES)
        if phase == LAY_RING:
            counts = list(self._ring_counts[state.round])
            for code in state.ring:
                counts[code] -= 1
            return draw_from_counts(counts, rng)
        return self.coconut_values[draw_from_counts(state.supply, rng)]

    def _apply_chance(self, state: JungleSweepState, outcome: int) -> None:
        rules.apply_chance(self, state, outcome)

    def scores(self, state: JungleSweepState) -> list[float]:
        return rules.scores(self, state)

    def winners(self, state: JungleSweepState) -> list[int]:
        return rules.winners(self, state)

    def final_details(self, state: JungleSweepState) -> dict[str, Any]:
        return {
            "coconut_values": [
                sorted(v for m in rules.seat_monkeys(self, seat) for v in state.coconuts[m])
                for seat in range(self.num_players)
            ],
            "coconut_counts": [
                sum(len(state.coconuts[m]) for m in rules.seat_monkeys(self, seat))
                for seat in range(self.num_players)
            ],
        }

    def validate_state(self, state: JungleSweepState) -> None:
        validate(state, self)

    def _resample(self, state: JungleSweepState, seat: int, rng: np.random.Generator) -> None:
        resample(state, self, seat, rng)

    # --- views ---------------------------------------------------------------------------
    @property
    def observation_size(self) -> int:
        return self._observation_size

    def observe(self, state, seat, out=None):
        return encoding.observe(self, state, self.check_seat(seat), out)

    def render(self, state: JungleSweepState, viewer: int | None = None) -> str:
        if viewer is not None:
            viewer = self.check_seat(viewer, "viewer")
        return render.render(self, state, viewer)

    def _describe_outcome(self, state, outcome, viewer):
        return render.describe_outcome(self, state, outcome, viewer)

    def heuristic_policy(self):
        from jungle_envs.games.jungle_sweep.heuristic import JungleSweepHeuristic

        return JungleSweepHeuristic(self)


GAME = JungleSweep
