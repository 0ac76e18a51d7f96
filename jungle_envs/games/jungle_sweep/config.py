"""Jungle Sweep's header and config: the options, their checks, what follows from them, and
the observation layout.

``SPEC`` declares the game (players, actions, options); ``observation_layout`` declares the
observation (its sizes follow the ring capacity, the number of coconut values and the
``move_features`` option; ``encoding.py`` writes and reads it); ``make_config`` turns a
player count and checked options into the frozen ``Config`` that every function of the
folder takes: the options in an immutable form, the numbers the rules derive from them, and
the observation layout.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from jungle_envs.core.game import GameSpec, Option, integer_keys
from jungle_envs.core.layout import Layout, Piece
from jungle_envs.games.jungle_sweep.tables import (
    ACTION_NAMES,
    CHOOSE_DIE,
    CLEARING_CHOICE,
    DEFAULT_COCONUTS,
    DEFAULT_MAX_DICE_ROUNDS,
    DEFAULT_TERRAIN,
    DIE_FACE_STEPS,
    HILL_CHOICE,
    LAST_MONKEY_COCONUTS,
    LATER_LEAVER_COCONUTS,
    MAX_MONKEYS,
    NUM_FACES,
    NUM_TERRAINS,
    PALM,
    PLAYER_SETUP,
    ROUNDS,
    TERRAIN_KEYS,
    UNREWARDED,
    WATER,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 6  # the player counts of SPEC
PLAYER_COUNTS = MAX_PLAYERS - MIN_PLAYERS + 1

# The observation's rows: per ring field, per monkey slot and (move_features) per die face.
FIELD_FEATURES = NUM_TERRAINS + MAX_MONKEYS + 1
MONKEY_FEATURES = 7
# Per die face, with the move_features option: where it takes the deciding monkey (7
# columns), then what the heuristic weighs: the move's value with hill steps and clearing
# re-rolls looked ahead, the same for the next monkey still to take a die, and whether that
# monkey is an opponent's or the observer's own; last, the best value that next monkey can
# make with the dice left if I take this face. A network that scores each face from its
# own row cannot compare rows, and what a die leaves the next monkey decides two-monkey
# endgames (one-step rollouts there put the heuristic's own-safety choice 0.2 behind).
MOVE_FEATURES = 12
LOOKAHEAD_AT = 7  # the first of those five columns
LEFT_AT = LOOKAHEAD_AT + 4  # the next monkey's best value from the dice left
DECISION_PHASES = (CHOOSE_DIE, WATER, HILL_CHOICE, CLEARING_CHOICE)  # the phase one-hot


@functools.cache
def observation_layout(max_ring_size: int, num_values: int, move_features: bool) -> Layout:
    """The observation for a ring capacity, a number of coconut values and the
    ``move_features`` option."""
    pieces = [
        Piece(
            "fields",
            (max_ring_size, FIELD_FEATURES),
            "the ring clockwise from the broom's field (field 0 holds the broom): terrain "
            "one-hot (palm, path, quicksand, clearing, water hole, hill), the monkey on it "
            f"one-hot by rotated slot ({MAX_MONKEYS}), 1 where a pending water-hole/hill "
            "decision would put the monkey; fields the ring no longer has are all zero",
        ),
        Piece(
            "monkeys",
            (MAX_MONKEYS, MONKEY_FEATURES),
            "per rotated slot: exists, in play, the observer's, still to take a die this dice "
            "round, holds the dice, deciding now, coconuts / 8",
        ),
        Piece("pool", (NUM_FACES,), "dice left per face (0 1 2 3 4 PALM) / number of dice"),
        Piece(
            "phase",
            (len(DECISION_PHASES),),
            "one-hot: choose a die, water hole, hill, clearing (re-roll or stay)",
        ),
        Piece("round", (ROUNDS,), "one-hot round 1-4"),
        Piece("dice_rounds", (1,), "dice rounds played this round / 20, at most 1"),
        Piece("players", (PLAYER_COUNTS,), "one-hot 2-6 players"),
        Piece("supply", (1,), "coconuts left face down / coconuts in the box"),
        Piece("own_coconuts", (num_values,), "the observer's coconuts per value / 16"),
        Piece("own_value", (1,), "the observer's coconut value / 64"),
    ]
    if move_features:
        pieces.append(
            Piece(
                "moves",
                (NUM_FACES, MOVE_FEATURES),
                "option `move_features` only: per die face, whether it is in the pool, and "
                "where it would take my monkey: a palm, fields ahead of the broom / ring size, "
                "chance the broom's next roll falls short of it (1 on a palm), a water-hole / "
                "hill / re-roll landing; while I choose a die: the move's value for my "
                "monkey with hill steps and re-rolls looked ahead, the same for the next "
                "monkey still to take a die, that monkey is an opponent's / mine, and that "
                "monkey's best value with the dice left after I take this face",
            )
        )
    return Layout(pieces)


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
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
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


@dataclass(frozen=True)
class Config:
    """A Jungle Sweep table: player count, options and what the rules derive from them."""

    num_players: int
    # the options
    terrain: tuple[tuple[str, int], ...]  # non-palm terrain key -> count, in code order
    coconuts: tuple[tuple[int, int], ...]  # coconut value -> count in the box, by value
    move_features: bool
    max_dice_rounds: int
    # what follows from them
    num_monkeys: int
    num_dice: int
    set_aside_count: int  # coconuts set aside unseen before the game (3 players)
    coconut_values: tuple[int, ...]  # the values, in the order supply counts are kept
    initial_supply: tuple[int, ...]  # face-down coconuts per value at the start
    coconuts_per_round: int  # coconuts handed out at the end of every round
    max_ring_size: int  # ring capacity: the palms and every non-palm tile
    ring_counts: tuple[tuple[int, ...], ...]  # per round: tiles per code 0..PALM+5
    short_of: tuple[float, ...]  # [d]: chance the broom's next roll moves fewer than d fields
    layout: Layout  # the observation

    @property
    def observation_size(self) -> int:
        return self.layout.size

    def ring_tiles(self, round_index: int) -> Counter:
        """The multiset of tile codes making up the ring in a round."""
        return Counter({code: n for code, n in enumerate(self.ring_counts[round_index]) if n})

    def ring_size(self, round_index: int) -> int:
        return sum(self.ring_counts[round_index])

    def broom_short_of(self, ahead: int) -> float:
        """Chance the broom's next roll moves fewer than ``ahead`` fields."""
        return self.short_of[min(ahead, len(self.short_of) - 1)]


def broom_reach_distribution(num_dice: int) -> np.ndarray:
    """P(broom moves exactly s fields) for s = 0.. with ``num_dice`` fair dice."""
    face = np.zeros(max(DIE_FACE_STEPS) + 1)
    for steps in DIE_FACE_STEPS:
        face[steps] += 1 / NUM_FACES
    pmf = np.array([1.0])
    for _ in range(num_dice):
        pmf = np.convolve(pmf, face)
    return pmf


def make_config(num_players: int, options: Mapping[str, Any]) -> Config:
    """The config for checked ``options``; raises if the coconuts cannot last four rounds."""
    monkeys, with_hollow, set_aside = PLAYER_SETUP[num_players]
    terrain = dict(options["terrain"])
    coconuts = dict(options["coconuts"])
    initial_supply = tuple(
        count if (value != 0 or with_hollow) else 0 for value, count in coconuts.items()
    )
    per_round = LAST_MONKEY_COCONUTS + LATER_LEAVER_COCONUTS * (monkeys - 1 - UNREWARDED[monkeys])
    needed = ROUNDS * per_round + set_aside
    if sum(initial_supply) < needed:
        raise ValueError(
            f"the coconut supply for {num_players} players holds "
            f"{sum(initial_supply)} coconuts; the game hands out {needed}"
        )
    ring_counts = []
    for round_index in range(ROUNDS):
        # Codes 0..4 are terrain (see tables); palms are PALM + monkey slot.
        counts = [0] * (PALM + MAX_MONKEYS)
        for code, key in enumerate(TERRAIN_KEYS[:PALM]):
            counts[code] = max(terrain[key] - (round_index if key == "jungle_path" else 0), 0)
        for m in range(monkeys):
            counts[PALM + m] = 1
        ring_counts.append(tuple(counts))
    max_ring_size = MAX_MONKEYS + sum(terrain.values())
    # short_of[d]: chance the broom's next roll stops short of a field d steps ahead (d >= 1).
    short_of = np.concatenate([[0.0], np.cumsum(broom_reach_distribution(monkeys))])
    move_features = bool(options["move_features"])
    return Config(
        num_players=num_players,
        terrain=tuple(terrain.items()),
        coconuts=tuple(coconuts.items()),
        move_features=move_features,
        max_dice_rounds=int(options["max_dice_rounds"]),
        num_monkeys=monkeys,
        num_dice=monkeys,
        set_aside_count=set_aside,
        coconut_values=tuple(coconuts),
        initial_supply=initial_supply,
        coconuts_per_round=per_round,
        max_ring_size=max_ring_size,
        ring_counts=tuple(ring_counts),
        short_of=tuple(float(p) for p in short_of),
        layout=observation_layout(max_ring_size, len(coconuts), move_features),
    )
