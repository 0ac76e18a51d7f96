"""Mirrors state.py: the compiled twin's config, the state row and its readers.

A state is one int32 row. Scalars come first, then fixed-capacity blocks; a list field
keeps its length in a scalar slot. The layout (field -> offset) is built from the game's
player count and options and travels in the config, so one compiled kernel serves every
option value (the deck sizes the discard pile and the towers).

    scalars  phase player monkey after_draws discards_left winner turns discard_len
             draws_len queue_len attack_len (0, or 5 while an attack is pending)
    blocks   deck (T), hands (n x T), tower_len (n), towers (n x L x 3: junk, brace
             bonus, reinforcement or -1, bottom first), discard (C, bottom first),
             draws (5n, in order), queue (n, in order), attack (5)

T = 44 card types, n players, L = junk cards in the deck (no tower holds more), C = cards
in the deck. The observation's offsets are constants (``OBS_<PIECE>``, from the game's
``config.LAYOUT``, the same for every option).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from jungle_envs.core.compiled.jit import kernel
from jungle_envs.core.compiled.twin import TwinUnavailable
from jungle_envs.games.spank_the_monkey.compiled.tables import HEIGHT
from jungle_envs.games.spank_the_monkey.config import LAYOUT, MOVES_LAYOUT, Config
from jungle_envs.games.spank_the_monkey.state import SpankState
from jungle_envs.games.spank_the_monkey.tables import ACTIONS, HAND_SIZE, JUNK_TYPES, NUM_TYPES

SCALARS = (
    "phase",
    "player",
    "monkey",
    "after_draws",
    "discards_left",
    "winner",
    "turns",
    "discard_len",
    "draws_len",
    "queue_len",
    "attack_len",
)
ATTACK_FIELDS = 5
# Below these, every count and height stays far inside int32, and the heuristic's reading
# of its observation (card counts scaled to [0, 1] in float32, then rounded back) is exact.
MAX_CARDS = 1 << 16
MAX_MONKEY = 1 << 24

# The observation's layout is the same for every option, so where each piece starts is a
# constant compiled into the kernels (a config field per piece would be passed on every
# kernel call: 15 of them made Spank the Monkey's rules 20-25% slower).
OBS_HAND = LAYOUT.offset("hand")
OBS_TOWERS = LAYOUT.offset("towers")
OBS_SEATS = LAYOUT.offset("seats")
OBS_MONKEY = LAYOUT.offset("monkey")
OBS_DECK = LAYOUT.offset("deck")
OBS_DISCARDS = LAYOUT.offset("discards")
OBS_TOP = LAYOUT.offset("top")
OBS_PHASE = LAYOUT.offset("phase")
OBS_ATTACK_CARD = LAYOUT.offset("attack_card")
OBS_ATTACK_TARGET = LAYOUT.offset("attack_target")
OBS_ATTACK_LEVEL = LAYOUT.offset("attack_level")
OBS_ATTACK_DEFENSE = LAYOUT.offset("attack_defense")
OBS_ATTACK_REDIRECTED = LAYOUT.offset("attack_redirected")
OBS_DISCARDS_LEFT = LAYOUT.offset("discards_left")
OBS_PLAYERS = LAYOUT.offset("players")
OBS_MOVES = MOVES_LAYOUT.offset("moves")  # with the move_features option only

# Named as the module attribute so that numba's cache pickles it by reference.
SpankTwinConfig = namedtuple(
    "SpankTwinConfig",
    [
        "num_players", "num_actions", "obs_size", "row_size",
        "deck_counts", "total_cards", "max_copies", "monkey_start", "monkey_floor",
        "levels", "draws_cap", "move_features",
        # offsets into the row
        "phase", "player", "monkey", "after_draws", "discards_left", "winner", "turns",
        "discard_len", "draws_len", "queue_len", "attack_len",
        "deck", "hands", "tower_len", "towers", "discard", "draws", "queue", "attack",
        # offsets into the observation (``config.layout``)
    ],
)  # fmt: skip
# The same fields with the move_features option, as a class of its own: numba compiles
# a game's kernels per config class, so a config without move features never
# compiles them (its first env is ready sooner).
SpankMovesTwinConfig = namedtuple("SpankMovesTwinConfig", SpankTwinConfig._fields)
TwinConfig = SpankTwinConfig


def make_twin_config(config: Config) -> TwinConfig:
    if config.layout.pieces != (MOVES_LAYOUT if config.move_features else LAYOUT).pieces:
        raise TwinUnavailable("the twin writes only the game's own observation layout")
    n, counts = config.num_players, [int(c) for c in config.deck_counts]
    total = sum(counts)
    if total > MAX_CARDS:
        raise TwinUnavailable(
            f"the compiled Spank the Monkey holds at most {MAX_CARDS} cards; deck has {total}"
        )
    if config.monkey_start >= MAX_MONKEY:
        raise TwinUnavailable(
            f"the compiled Spank the Monkey starts the monkey below {MAX_MONKEY}; "
            f"monkey_base {config.monkey_base} is too high"
        )
    levels = max(sum(counts[j] for j in JUNK_TYPES), 1)
    draws_cap = HAND_SIZE * n  # the deal; a turn queues at most two draws
    at = {name: i for i, name in enumerate(SCALARS)}
    size = len(SCALARS)
    for name, length in (
        ("deck", NUM_TYPES),
        ("hands", n * NUM_TYPES),
        ("tower_len", n),
        ("towers", n * levels * 3),
        ("discard", total),
        ("draws", draws_cap),
        ("queue", n),
        ("attack", ATTACK_FIELDS),
    ):
        at[name], size = size, size + length
    config_class = SpankMovesTwinConfig if config.move_features else SpankTwinConfig
    return config_class(
        num_players=n,
        num_actions=len(ACTIONS.names),
        obs_size=config.observation_size,
        row_size=size,
        # a tuple: an array in the config costs every kernel call a reference count
        # (the all-seat batch ran 1.6x faster without it)
        deck_counts=tuple(counts),
        total_cards=total,
        max_copies=int(config.max_copies),
        monkey_start=int(config.monkey_start),
        monkey_floor=int(config.monkey_floor),
        levels=levels,
        draws_cap=draws_cap,
        move_features=bool(config.move_features),
        **at,
    )


def pack(cfg: TwinConfig, state: SpankState, row: np.ndarray) -> None:
    for name in ("phase", "player", "monkey", "after_draws", "discards_left", "winner"):
        row[getattr(cfg, name)] = getattr(state, name)
    row[cfg.turns] = state.turns
    row[cfg.deck : cfg.deck + NUM_TYPES] = state.deck
    for seat, hand in enumerate(state.hands):
        row[cfg.hands + seat * NUM_TYPES : cfg.hands + (seat + 1) * NUM_TYPES] = hand
    for seat, tower in enumerate(state.towers):
        row[cfg.tower_len + seat] = len(tower)
        start = cfg.towers + seat * cfg.levels * 3
        for level, cards in enumerate(tower):
            row[start + 3 * level : start + 3 * level + 3] = cards
    for name, values in (
        ("discard", state.discard),
        ("draws", state.draws),
        ("queue", state.queue),
        ("attack", state.attack),
    ):
        at = getattr(cfg, name)
        row[getattr(cfg, f"{name}_len")] = len(values)
        row[at : at + len(values)] = values


def unpack(cfg: TwinConfig, row: np.ndarray) -> SpankState:
    def block(at: int, length: int) -> list[int]:
        return row[at : at + length].tolist()

    def listed(name: str) -> list[int]:
        return block(getattr(cfg, name), int(row[getattr(cfg, f"{name}_len")]))

    n = cfg.num_players
    towers = []
    for seat in range(n):
        start = cfg.towers + seat * cfg.levels * 3
        flat = block(start, 3 * int(row[cfg.tower_len + seat]))
        towers.append([flat[i : i + 3] for i in range(0, len(flat), 3)])
    return SpankState(
        phase=int(row[cfg.phase]),
        player=int(row[cfg.player]),
        deck=block(cfg.deck, NUM_TYPES),
        discard=listed("discard"),
        hands=[block(cfg.hands + seat * NUM_TYPES, NUM_TYPES) for seat in range(n)],
        towers=towers,
        monkey=int(row[cfg.monkey]),
        draws=listed("draws"),
        after_draws=int(row[cfg.after_draws]),
        attack=listed("attack"),
        queue=listed("queue"),
        discards_left=int(row[cfg.discards_left]),
        winner=int(row[cfg.winner]),
        turns=int(row[cfg.turns]),
    )


# --- reading the row (shared by the rules, the observation and the heuristic) -------------
@kernel(inline=True)
def hand_at(cfg, seat):
    return cfg.hands + seat * NUM_TYPES


@kernel(inline=True)
def level_at(cfg, seat, level):
    return cfg.towers + (seat * cfg.levels + level) * 3


@kernel(inline=True)
def height(cfg, s, seat):
    """``state.tower_height`` of ``seat``'s tower."""
    total = 0
    for level in range(s[cfg.tower_len + seat]):
        total += HEIGHT[s[level_at(cfg, seat, level)]]
    return total


@kernel(inline=True)
def hand_size(cfg, s, seat):
    total = 0
    at = hand_at(cfg, seat)
    for t in range(NUM_TYPES):
        total += s[at + t]
    return total


@kernel(inline=True)
def deck_size(cfg, s):
    total = 0
    for t in range(NUM_TYPES):
        total += s[cfg.deck + t]
    return total
