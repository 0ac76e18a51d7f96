"""Tropic Race: the game header, its options, its observation layout, and the frozen config
every function of the folder takes.

``SPEC`` declares the game and checks each option on its own; ``LAYOUT`` declares the
observation (the same for every player count and option; ``encoding.py`` writes and reads
it); ``make_config`` checks the options together and derives what the rules read (monkeys
per player, the tile mix by kind, the fields as locations, the die as a chance event) once
per game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jungle_envs.core.game import ChanceEvent, GameSpec, Option
from jungle_envs.core.layout import Layout, Piece
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
    NUM_LOCATIONS,
    SLOTS,
    TILE_KINDS,
)

LAND_NAMES = tuple(LOCATION_NAMES[f] for f in LAND)
MIN_PLAYERS, MAX_SEATS = 2, 5  # the player counts of SPEC

# The observation: a flat float32 vector in [0, 1] from one seat's point of view, seats
# rotated so that the observer comes first (seat slot k is the seat k places after it).
LAYOUT = Layout(
    [
        Piece(
            "monkeys",
            (MAX_SEATS, NUM_LOCATIONS),
            "per rotated seat (the observer first): monkeys on each location (START, T1-T3, "
            "B1-B9, NT1-5, FT1-5, FB1-5, GOAL) / monkeys per player",
        ),
        Piece("lion", (len(LAND),), "one-hot over the land fields T1-T3, B1-B9"),
        Piece("river", (SLOTS, 2), "per slot 1-5: near turtle present, far turtle present"),
        Piece(
            "supply",
            (len(TILE_KINDS),),
            "face-down tiles per kind (bridge, near only, far only, empty) / tiles in the box",
        ),
        Piece("phase", (2,), "one-hot: move a monkey, walk the lion"),
        Piece("steps", (MAX_NUMBER,), "one-hot: steps of the pending move (1-9)"),
        Piece("players", (MAX_SEATS - MIN_PLAYERS + 1,), "one-hot: 2-5 players"),
        Piece(
            "fields",
            (len(LAND), 2),
            "per land field: die field, arrow field (fixed by the options)",
        ),
    ]
)


# With the move_features option, per action (row i for action i, all zero unless the
# observer decides now): legal; a lion walk; for a monkey move, the heuristic's progress of
# that monkey before and after it (steps to GOAL over today's river, penalties for tiles
# about to leave and dead ends, scaled from [-20, 40]); the heuristic's one-ply standing
# after the action (my progress minus the best rival's, pushes averaged, an extra turn
# counted; from [-80, 80]); whether that standing is the best of the legal actions and how
# far below the best it is (/ 40, at most 1); whether it wins the game, brings a monkey
# home, gives an extra turn or pushes the river; and the monkeys it sends to START, mine
# and the rivals' (/ monkeys per player).
MOVE_FEATURES = 13
PROGRESS_LOW, PROGRESS_SPAN = -20.0, 60.0
STANDING_SPAN = 80.0  # the standing column: [-80, 80] -> [0, 1]
GAP_SPAN = 40.0
MOVES_LAYOUT = Layout(
    [
        *LAYOUT.pieces,
        Piece(
            "moves",
            (len(ACTION_NAMES), MOVE_FEATURES),
            "option `move_features` only, per action (all zero unless the observer decides "
            "now): legal, lion walk, moved monkey's progress before and after, standing "
            "after, best, gap to the best, wins, monkey home, extra turn, push, my monkeys "
            "sent home, rivals' monkeys sent home",
        ),
    ]
)


def _check_flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected True or False, got {value!r}")
    return value


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
    min_players=MIN_PLAYERS,
    max_players=MAX_SEATS,
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
        Option(
            "move_features",
            False,
            "add, per action, what it would do (progress, standing, extra turns, captures)",
            _check_flag,
            observation_only=True,
        ),
    ),
)


@dataclass(frozen=True, eq=False)
class Config:
    """A Tropic Race game's player count and options, and what the rules derive from them.

    The options in immutable form: ``die_faces`` (the faces as given), ``monkeys`` (None:
    by player count), ``tile_mix`` (tiles per kind, in ``TILE_KINDS`` order),
    ``lion_start`` (a location), ``die_fields`` and ``arrow_fields`` (sets of locations).
    """

    num_players: int
    die_faces: tuple[str, ...]
    monkeys: int | None
    tile_mix: tuple[int, ...]
    lion_start: int
    die_fields: frozenset[int]
    arrow_fields: frozenset[int]
    monkeys_per_player: int
    die_event: ChanceEvent  # the roll: outcome codes 1-9, LION_CODE, ARROW_CODE
    die_outcomes: tuple[int, ...]  # the die's outcome codes, sorted
    die_counts: tuple[int, ...]  # faces per outcome code
    max_steps: int  # the largest number face (1 if none)
    field_features: np.ndarray  # the observation's ``fields`` piece (read-only float32)
    move_features: bool  # option: the observation shows what each action would do
    layout: Layout  # the observation (``LAYOUT``, or ``MOVES_LAYOUT`` with move_features)

    @property
    def observation_size(self) -> int:
        return self.layout.size


def make_config(num_players: int, options: Mapping[str, Any]) -> Config:
    """The config of a game with ``num_players`` and checked ``options``; a ValueError for
    options that contradict each other."""
    die_fields = frozenset(LOC[f] for f in options["die_fields"])
    arrow_fields = frozenset(LOC[f] for f in options["arrow_fields"])
    both = sorted(LOCATION_NAMES[f] for f in die_fields & arrow_fields)
    if both:
        raise ValueError(f"a field cannot be both a die and an arrow field: {both}")
    faces = Counter(
        LION_CODE if f == LION_FACE else ARROW_CODE if f == ARROW_FACE else int(f)
        for f in options["die_faces"]
    )
    outcomes = tuple(sorted(faces))
    features = np.array(
        [flag for f in LAND for flag in (f in die_fields, f in arrow_fields)], dtype=np.float32
    )
    features.setflags(write=False)
    return Config(
        num_players=num_players,
        die_faces=tuple(options["die_faces"]),
        monkeys=options["monkeys"],
        tile_mix=tuple(options["tile_mix"][kind] for kind in TILE_KINDS),
        lion_start=LOC[options["lion_start"]],
        die_fields=die_fields,
        arrow_fields=arrow_fields,
        monkeys_per_player=options["monkeys"] or MONKEYS_PER_PLAYER[num_players],
        die_event=ChanceEvent.weighted("roll the die", dict(sorted(faces.items()))),
        die_outcomes=outcomes,
        die_counts=tuple(faces[code] for code in outcomes),
        max_steps=max([code for code in faces if code <= MAX_NUMBER] + [1]),
        field_features=features,
        move_features=options["move_features"],
        layout=MOVES_LAYOUT if options["move_features"] else LAYOUT,
    )
