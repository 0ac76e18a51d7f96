"""Hand-built Jungle Sweep positions for the rules tests.

A ring is written as tokens clockwise from field 0: J path, Q quicksand, C clearing,
W water hole, H hill, P<k> the palm of monkey slot k. The game is made with terrain
options that match the ring, so every position passes the engine's own validation.
"""

from __future__ import annotations

from collections import Counter

from jungle_envs.core.game import CHANCE
from jungle_envs.games.jungle_sweep.game import JungleSweep
from jungle_envs.games.jungle_sweep.state import JungleSweepState
from jungle_envs.games.jungle_sweep.tables import (
    CHOOSE_DIE,
    CLEARING,
    HILL,
    JUNGLE_PATH,
    NUM_FACES,
    PALM,
    PALM_FACE,
    QUICKSAND,
    TERRAIN_KEYS,
    WATER_HOLE,
)

TOKENS = {"J": JUNGLE_PATH, "Q": QUICKSAND, "C": CLEARING, "W": WATER_HOLE, "H": HILL}
FACE = {"0": 0, "1": 1, "2": 2, "3": 3, "4": 4, "P": PALM_FACE}

# Ring A (4 players): fields 0..13.
RING_A = "Q J J P0 J W H J C P1 J P2 J P3"
# Ring with two adjacent palms, for the broom (4 players).
RING_BROOM = "Q J P0 P1 J W H J C J P2 J P3 J"


def parse_ring(ring: str) -> list[int]:
    return [PALM + int(t[1:]) if t.startswith("P") else TOKENS[t] for t in ring.split()]


def make_game(ring: str, num_players: int = 4, round_index: int = 0, **options) -> JungleSweep:
    counts = Counter(code for code in parse_ring(ring) if code < PALM)
    terrain = {key: counts[code] for code, key in enumerate(TERRAIN_KEYS[:PALM])}
    terrain["jungle_path"] += round_index  # one path leaves before each later round
    return JungleSweep(num_players, terrain=terrain, **options)


def position(
    ring: str = RING_A,
    monkeys: dict[int, int] | None = None,
    broom: int = 0,
    num_players: int = 4,
    phase: int = CHOOSE_DIE,
    pool: str = "",
    active: int = 0,
    turn: int = 0,
    swept: tuple[int, ...] = (),
    round_index: int = 0,
    **options,
) -> tuple[JungleSweep, JungleSweepState]:
    """A game and a state: ``monkeys`` maps slot -> field; ``swept`` lists slots out, in
    leaving order; ``pool`` holds the dice as face letters, e.g. "0 3 P"."""
    game = make_game(ring, num_players, round_index, **options)
    codes = parse_ring(ring)
    if monkeys is None:
        monkeys = {m: codes.index(PALM + m) for m in range(game.config.num_monkeys)}
    counts = [0] * NUM_FACES
    for face in pool.split():
        counts[FACE[face]] += 1
    state = JungleSweepState(
        phase=phase,
        round=round_index,
        ring=codes,
        broom=broom,
        monkey_pos=[monkeys.get(m, -1) for m in range(game.config.num_monkeys)],
        leaving_order=list(swept),
        active=active,
        dice_round=0,
        pool=counts,
        turn=turn,
        pending=-1,
        supply=list(game.config.initial_supply),
        set_aside=[0] * len(game.config.coconut_values),
        coconuts=[[] for _ in range(game.config.num_monkeys)],
        awards=[],
    )
    one = game.config.coconut_values.index(1)
    state.supply[one] -= game.config.set_aside_count  # three players: four 1s lie aside unseen
    state.set_aside[one] += game.config.set_aside_count
    game.validate_state(state)
    return game, state


def roll(game: JungleSweep, state: JungleSweepState, faces: str) -> None:
    """Force the dice of a ROLL phase (or a clearing's re-roll) to show ``faces``."""
    for face in faces.split():
        assert game.current_player(state) == CHANCE
        game.apply_chance(state, FACE[face])


def take(game: JungleSweep, state: JungleSweepState, faces: str) -> None:
    """Let the deciding seats take these dice in turn (landing decisions not included)."""
    for face in faces.split():
        game.apply_action(state, FACE[face])
