"""Tropic Race state: every fact of a game in progress (the game has no secrets)."""

from __future__ import annotations

from dataclasses import dataclass

from jungle_envs.core.state import GameState, StateError
from jungle_envs.games.tropic_race.config import Config
from jungle_envs.games.tropic_race.tables import (
    FAR_TURTLE,
    GAME_OVER,
    GOAL,
    LAND,
    LAY_TILE,
    MOVE,
    NEAR_TURTLE,
    NO_TILE,
    NUM_LOCATIONS,
    PHASE_NAMES,
    PICK_START,
    SLOTS,
    START,
    THEN_END_TURN,
    TILE_KINDS,
    TILE_TURTLES,
)


@dataclass(eq=False)
class TropicRaceState(GameState):
    phase: int
    player: int  # whose turn it is; -1 until the start player is picked
    monkeys: list[list[int]]  # per seat: the location of each monkey, sorted
    lion: int  # a land location
    slots: list[int]  # tile kind in river slots 1..5, NO_TILE until laid
    supply: list[int]  # face-down tiles per kind
    steps: int  # steps of the pending move (a roll, or 1), else 0
    then: int  # what follows a pending push: THEN_STEP_ONE or THEN_END_TURN
    volcano: bool  # the supply ran out and ended the game
    rolls: int  # dice rolled so far


def validate(config: Config, state: TropicRaceState) -> None:
    """Raise StateError if ``state`` cannot arise in a game of ``config``; the one invariant
    that needs the rules (a decision has a legal action) is ``rules.validate``'s."""

    def need(ok: bool, message: str) -> None:
        if not ok:
            raise StateError(message)

    n, phase = config.num_players, state.phase
    need(0 <= phase < len(PHASE_NAMES), f"phase: phase {phase} unknown")
    need(len(state.monkeys) == n, f"monkeys: monkeys needs one list per seat ({n})")
    for seat, locations in enumerate(state.monkeys):
        per = config.monkeys_per_player
        need(len(locations) == per, f"monkeys: seat {seat} needs {per} monkeys")
        need(
            all(0 <= loc < NUM_LOCATIONS for loc in locations), "monkeys: a monkey is off the board"
        )
        need(locations == sorted(locations), "monkeys: monkey locations must be sorted")
    on_board = [loc for seat in state.monkeys for loc in seat if loc not in (START, GOAL)]
    need(len(set(on_board)) == len(on_board), "monkeys: two monkeys share a field")
    need(
        state.lion in LAND and state.lion not in on_board,
        "lion, monkeys: the lion must stand alone on land",
    )
    need(
        len(state.slots) == SLOTS and len(state.supply) == len(TILE_KINDS),
        "slots, supply: river shape",
    )
    need(all(c >= 0 for c in state.supply), "supply: supply counts must be >= 0")
    laid = [kind for kind in state.slots if kind != NO_TILE]
    need(all(0 <= kind < len(TILE_KINDS) for kind in laid), "slots: unknown tile kind")
    need(state.slots[: len(laid)] == laid, "slots: tiles are laid from slot 1 on")
    in_play = sum(state.supply) + len(laid)
    need(in_play <= sum(config.tile_mix), "supply, slots: more tiles than the box holds")
    need(
        phase in (LAY_TILE, GAME_OVER) or len(laid) == SLOTS, "slots, phase: the river is not laid"
    )
    need((phase == LAY_TILE) == (len(laid) < SLOTS), "slots, phase: the river is laid")
    if phase == LAY_TILE:
        need(
            sum(state.supply) + len(laid) == sum(config.tile_mix),
            "supply, slots: tiles missing at set-up",
        )
    for slot, kind in enumerate(state.slots):
        near, far = TILE_TURTLES[kind] if kind != NO_TILE else (False, False)
        need(
            near or NEAR_TURTLE[slot] not in on_board,
            f"monkeys, slots: a monkey stands on missing NT{slot + 1}",
        )
        # A far turtle is reached only from the near one: its tile must be a bridge.
        need(
            (near and far) or FAR_TURTLE[slot] not in on_board,
            f"monkeys, slots: no way onto FT{slot + 1}",
        )
    need(
        (state.player == -1) == (phase in (LAY_TILE, PICK_START)),
        "player, phase: player and phase disagree",
    )
    need(-1 <= state.player < n, "player: player out of range")
    need(
        state.then in (0, THEN_END_TURN) and state.rolls >= 0,
        "then, rolls: then/rolls out of range",
    )
    need((state.steps > 0) == (phase == MOVE), "steps, phase: steps belong to a move")
    need(0 <= state.steps <= config.max_steps, "steps: steps out of range")
    over = phase == GAME_OVER
    need(
        state.volcano == (over and sum(state.supply) == 0),
        "volcano, phase, supply: the volcano is the empty supply",
    )
    need(
        over or phase == LAY_TILE or sum(state.supply) > 0,
        "supply, phase: an empty supply ends the game",
    )
    finished = [s for s in range(n) if all(loc == GOAL for loc in state.monkeys[s])]
    need(len(finished) <= 1, "monkeys: two players cannot both be home")
    need(
        over == bool(finished or state.volcano),
        "phase, monkeys, volcano: a game ends by a win or the volcano",
    )
    for kind, total in enumerate(config.tile_mix):
        need(
            state.supply[kind] + laid.count(kind) <= total,
            f"supply, slots: too many {TILE_KINDS[kind]} tiles",
        )
