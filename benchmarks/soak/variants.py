"""What the soak plays each game with: option variants (the extremes each game's option
checks accept) and the env settings the env and compiled paths cycle through."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

DEFAULT_VARIANT = "default"


@dataclass(frozen=True)
class Variant:
    """Options to play a share of the games with; ``options(players)`` gives them (or None
    where the variant does not apply at that player count)."""

    name: str
    options: Callable[[int], dict[str, Any] | None]


def fixed(name: str, **options: Any) -> Variant:
    return Variant(name, lambda _players: options)


def _spank_min_deck(players: int) -> dict[str, int]:
    """The smallest deck the rules take (one card more than the opening hands), the card
    kinds dealt round robin so every kind is in it."""
    from jungle_envs.games.spank_the_monkey.tables import CARDS, HAND_SIZE

    kinds: dict[str, list[str]] = {}
    for card in CARDS:
        kinds.setdefault(card.kind, []).extend([card.name] * card.copies)
    deck = dict.fromkeys((card.name for card in CARDS), 0)
    want, dealt = HAND_SIZE * players + 1, 0
    while dealt < want:
        for names in kinds.values():
            if names and dealt < want:
                deck[names.pop(0)] += 1
                dealt += 1
    return deck


def _spank_deck(keep: Callable[[Any], int]) -> dict[str, int]:
    from jungle_envs.games.spank_the_monkey.tables import CARDS

    return {card.name: keep(card) for card in CARDS}


def _spank_variants() -> tuple[Variant, ...]:
    from jungle_envs.games.spank_the_monkey.tables import DEFAULT_MONKEY_BASE, JUNK

    return (
        # the monkey starts on the ground (base = players, floor 0) or at its floor
        Variant("monkey_at_0", lambda n: {"monkey_base": n, "monkey_floor": 0}),
        Variant("monkey_at_floor", lambda n: {"monkey_floor": DEFAULT_MONKEY_BASE - n}),
        fixed("monkey_base_60", monkey_base=60),
        Variant("deck_min", lambda n: {"deck": _spank_min_deck(n)}),
        fixed("deck_no_junk", deck=_spank_deck(lambda c: 0 if c.kind == JUNK else c.copies)),
        fixed("deck_junk_only", deck=_spank_deck(lambda c: c.copies if c.kind == JUNK else 0)),
        # junk is at its maximum already (every level of the tallest tower): the rest x4
        fixed("deck_x4", deck=_spank_deck(lambda c: c.copies * (1 if c.kind == JUNK else 4))),
        fixed("move_features", move_features=True),
    )


def _tropic_variants() -> tuple[Variant, ...]:
    from jungle_envs.games.tropic_race.tables import LAND, LOCATION_NAMES, SLOTS

    land = [LOCATION_NAMES[f] for f in LAND]
    no_tiles = {"bridge": 0, "near_only": 0, "far_only": 0, "empty": 0}
    return (
        fixed("monkeys_1", monkeys=1),
        fixed("monkeys_12", monkeys=12),
        # the fewest faces the die takes: an arrow and a lion or the smallest number
        fixed("die_lion_arrow", die_faces=["LION", "ARROW"]),
        fixed("die_1_arrow", die_faces=["1", "ARROW"]),
        fixed("die_9_lion_arrow", die_faces=["9", "9", "LION", "ARROW"]),
        fixed("tiles_min_bridges", tile_mix={**no_tiles, "bridge": SLOTS + 1}),
        fixed("tiles_min_empty", tile_mix={**no_tiles, "empty": SLOTS + 1}),
        fixed("tiles_100", tile_mix={"bridge": 40, "near_only": 20, "far_only": 20, "empty": 20}),
        fixed("fields_none", lion_start=land[0], die_fields=[], arrow_fields=[]),
        fixed("fields_all", lion_start=land[-1], die_fields=land[1:], arrow_fields=[land[0]]),
        fixed("move_features", move_features=True),
    )


def _sweep_variants() -> tuple[Variant, ...]:
    from jungle_envs.games.jungle_sweep.tables import ROUNDS

    return (
        fixed("dice_rounds_1", max_dice_rounds=1),
        fixed("dice_rounds_3", max_dice_rounds=3),
        fixed(
            "terrain_min",
            terrain={"jungle_path": ROUNDS - 1, "clearing": 0, "water_hole": 0, "hill": 0},
        ),
        fixed(
            "terrain_big", terrain={"jungle_path": 24, "clearing": 6, "water_hole": 6, "hill": 6}
        ),
        fixed("coconuts_one_value", coconuts={1: 60}),
        fixed("coconuts_up_to_9", coconuts={0: 10, 1: 10, 2: 10, 3: 10, 4: 10, 9: 10}),
        fixed("move_features", move_features=True),
    )


def _elephant_variants() -> tuple[Variant, ...]:
    from jungle_envs.games.elephant_festival.config import MAX_TILES_PER_COLOR

    none = dict.fromkeys(range(6), 0)
    return (
        fixed("grid_3", grid=3),
        fixed("grid_15", grid=15),
        fixed("tiles_1", tiles_per_color={**none, 0: 1}),
        fixed("tiles_only_5s", tiles_per_color={**none, 5: 5}),
        # the most tiles a colour may have (one round each), on the smallest ground
        fixed("tiles_max_grid_3", grid=3, tiles_per_color={**none, 2: MAX_TILES_PER_COLOR}),
        # move_features is left to the lockstep test: scoring 240 placements in Python at
        # every observation made the soak's Python paths several times slower
    )


def variants(name: str) -> tuple[Variant, ...]:
    """The variants of a game, the default options first."""
    extra = {
        "JungleSweep": _sweep_variants,
        "TropicRace": _tropic_variants,
        "SpankTheMonkey": _spank_variants,
        "ElephantFestival": _elephant_variants,
    }.get(name, tuple)()
    return (fixed(DEFAULT_VARIANT), *extra)


def variant_options(name: str, variant: str, players: int) -> dict[str, Any] | None:
    for v in variants(name):
        if v.name == variant:
            return v.options(players)
    raise ValueError(
        f"{name} has no variant {variant!r}; it has {[v.name for v in variants(name)]}"
    )


# Settings cycled through by the env and compiled paths (a task's index picks one).
ENV_SETTINGS: tuple[dict[str, Any], ...] = (
    {"engine": "compiled"},
    {"engine": "reference"},
    {"engine": "compiled", "observation_mode": "dict", "reward": "score"},
    {"engine": "reference", "observation_mode": "dict", "skip_forced_actions": False},
    {"engine": "compiled", "skip_forced_actions": False, "agent_seat": 0},
    {"engine": "reference", "reward": "score", "agent_seat": -1},  # -1: the last seat
    {"engine": "compiled", "reward": "margin"},
    {"engine": "reference", "reward": "rank"},
    {"engine": "reference", "reward": "margin", "agent_seat": 0},
    {"engine": "compiled", "reward": "rank", "agent_seat": -1},
)
COMPILED_SETTINGS: tuple[dict[str, Any], ...] = (
    {},
    {"skip_forced_actions": False},
    {"reward": "score"},
    {"agent_seat": 0},
    {"reward": "margin"},
    {"reward": "rank"},
)


def settings_for(path: str, index: int, players: int) -> dict[str, Any]:
    table = ENV_SETTINGS if path == "env" else COMPILED_SETTINGS if path == "compiled" else ({},)
    settings = dict(table[index % len(table)])
    if settings.get("agent_seat") == -1:
        settings["agent_seat"] = players - 1
    return settings
