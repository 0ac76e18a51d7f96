"""Jungle Sweep state: every fact of a game in progress, hidden ones included."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from jungle_envs.core.state import GameState, StateError
from jungle_envs.games.jungle_sweep.tables import (
    CHOOSE_DIE,
    DRAW_COCONUT,
    GAME_OVER,
    HILL_CHOICE,
    LAY_RING,
    NUM_FACES,
    PHASE_NAMES,
    REROLL,
    ROLL,
    ROUNDS,
    SET_ASIDE,
    WATER,
)

if TYPE_CHECKING:
    from jungle_envs.games.jungle_sweep.game import JungleSweep


@dataclass(eq=False)
class JungleSweepState(GameState):
    phase: int
    round: int  # 0-based, ROUNDS when over
    ring: list[int]  # tile codes laid so far this round, clockwise
    broom: int  # ring index
    monkey_pos: list[int]  # per monkey slot: ring index, or -1 once swept out
    leaving_order: list[int]  # monkey slots swept out this round, in order
    active: int  # monkey slot holding the dice this dice round
    dice_round: int  # dice rounds completed this round
    pool: list[int]  # dice per face: rolled so far (ROLL), or still to take
    turn: int  # monkeys that have taken a die this dice round
    move_from: int  # where the current move started (a water hole's "stay")
    pending: int  # where a water-hole or hill decision would put the monkey, else -1
    supply: list[int]  # face-down coconuts per value (index into game.coconut_values)
    set_aside: list[int]  # coconuts per value set aside unseen (3 players)
    coconuts: list[list[int]]  # per monkey slot: values of its coconuts (owner sees them)
    awards: list[int]  # monkey slots still owed a coconut, in draw order

    @property
    def mover(self) -> int:
        """The monkey slot whose die choice or landing is being decided."""
        return (self.active + self.turn) % len(self.monkey_pos)


def validate(state: JungleSweepState, game: JungleSweep) -> None:
    """Raise StateError if ``state`` cannot arise in ``game``."""

    def need(ok: bool, message: str) -> None:
        if not ok:
            raise StateError(message)

    monkeys, nvals = game.num_monkeys, len(game.coconut_values)
    need(0 <= state.phase < len(PHASE_NAMES), f"phase {state.phase} unknown")
    need(0 <= state.round <= ROUNDS, f"round {state.round} outside 0..{ROUNDS}")
    need((state.phase == GAME_OVER) == (state.round == ROUNDS), "only a finished game has round 4")
    need(len(state.monkey_pos) == monkeys, f"monkey_pos needs {monkeys} entries")
    need(len(state.coconuts) == monkeys, f"coconuts needs {monkeys} entries")
    need(len(state.pool) == NUM_FACES, f"pool needs {NUM_FACES} counts")
    need(all(c >= 0 for c in state.pool), "pool counts must be >= 0")
    need(sum(state.pool) <= game.num_dice, f"more than {game.num_dice} dice in the pool")
    need(len(state.supply) == nvals and len(state.set_aside) == nvals, f"{nvals} coconut values")
    need(all(c >= 0 for c in state.supply + state.set_aside), "coconut counts must be >= 0")
    need(all(0 <= a < monkeys for a in state.awards), "awards name unknown monkeys")
    need(0 <= state.active < monkeys and 0 <= state.turn <= monkeys, "active/turn out of range")
    need(0 <= state.dice_round <= game.max_dice_rounds, "dice_round out of range")
    drawn = Counter(v for vals in state.coconuts for v in vals)
    need(set(drawn) <= set(game.coconut_values), "a coconut has an unknown value")
    for i, value in enumerate(game.coconut_values):
        total = state.supply[i] + state.set_aside[i] + drawn[value]
        need(total == game.initial_supply[i], f"coconuts of value {value} do not add up")

    expected = game.ring_tiles(min(state.round, ROUNDS - 1))
    laid = Counter(state.ring)
    need(all(laid[code] <= expected[code] for code in laid), "ring holds tiles not in the box")
    complete = sum(laid.values()) == sum(expected.values())
    need(complete or state.phase in (SET_ASIDE, LAY_RING), "the ring is incomplete")
    if state.phase in (SET_ASIDE, LAY_RING):
        return
    size = len(state.ring)
    need(0 <= state.broom < size, "broom is off the ring")
    placed = [p for p in state.monkey_pos if p != -1]
    need(all(0 <= p < size for p in placed), "a monkey is off the ring")
    need(len(set(placed)) == len(placed) and state.broom not in placed, "two pieces share a field")
    out = [m for m, p in enumerate(state.monkey_pos) if p == -1]
    need(sorted(state.leaving_order) == out, "leaving order must list exactly the swept monkeys")
    decision = state.phase in (CHOOSE_DIE, WATER, HILL_CHOICE)
    need(not decision or state.turn < monkeys, "no monkey is left to decide")
    if state.phase in (WATER, HILL_CHOICE):
        need(0 <= state.pending < size, "a landing decision needs a pending field")
        need(state.monkey_pos[state.mover] != -1, "a swept monkey has no landing to decide")
    if state.phase == REROLL:
        need(state.monkey_pos[state.mover] != -1, "a swept monkey cannot re-roll")
    if state.phase in (CHOOSE_DIE, WATER, HILL_CHOICE, REROLL):
        taking = game.num_dice - state.turn - (state.phase != CHOOSE_DIE)
        need(sum(state.pool) == taking, "dice in the pool do not match the monkeys to take one")
    if state.phase == DRAW_COCONUT:
        need(bool(state.awards), "drawing coconuts with nobody owed one")
    if state.phase in (WATER, HILL_CHOICE, REROLL, CHOOSE_DIE, ROLL):
        need(len(placed) >= 2, "a round with one monkey left is over")
