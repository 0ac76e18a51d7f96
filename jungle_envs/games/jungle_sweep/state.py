"""Jungle Sweep state: every fact of a game in progress, hidden ones included."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from jungle_envs.core.state import GameState, StateError
from jungle_envs.games.jungle_sweep.config import Config
from jungle_envs.games.jungle_sweep.tables import (
    CHOOSE_DIE,
    CLEARING,
    CLEARING_CHOICE,
    DRAW_COCONUT,
    GAME_OVER,
    HILL,
    HILL_CHOICE,
    LAY_RING,
    NUM_FACES,
    PALM,
    PHASE_NAMES,
    REROLL,
    ROLL,
    ROUNDS,
    SET_ASIDE,
    WATER,
    WATER_HOLE,
)


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
    pending: int  # where a water-hole or hill decision would put the monkey, else -1
    supply: list[int]  # face-down coconuts per value (index into config.coconut_values)
    set_aside: list[int]  # coconuts per value set aside unseen (3 players)
    coconuts: list[list[int]]  # per monkey slot: values of its coconuts (owner sees them)
    awards: list[int]  # monkey slots still owed a coconut, in draw order

    @property
    def mover(self) -> int:
        """The monkey slot whose die choice or landing is being decided."""
        return (self.active + self.turn) % len(self.monkey_pos)


def validate(config: Config, state: JungleSweepState) -> None:
    """Raise StateError if ``state`` cannot arise in a game of ``config``; ``rules.validate``
    calls this (every invariant of this game is checked here, none needs the rules)."""

    def need(ok: bool, message: str) -> None:
        if not ok:
            raise StateError(message)

    monkeys, nvals, phase = config.num_monkeys, len(config.coconut_values), state.phase
    need(0 <= phase < len(PHASE_NAMES), f"phase: phase {phase} unknown")
    need(0 <= state.round <= ROUNDS, f"round: round {state.round} outside 0..{ROUNDS}")
    need(
        (phase == GAME_OVER) == (state.round == ROUNDS),
        "round, phase: only a finished game has round 4",
    )
    need(len(state.monkey_pos) == monkeys, f"monkey_pos: monkey_pos needs {monkeys} entries")
    need(len(state.coconuts) == monkeys, f"coconuts: coconuts needs {monkeys} entries")
    need(len(state.pool) == NUM_FACES, f"pool: pool needs {NUM_FACES} counts")
    need(all(c >= 0 for c in state.pool), "pool: pool counts must be >= 0")
    need(
        0 <= state.active < monkeys and 0 <= state.turn < monkeys,
        "active, turn: active/turn out of range",
    )
    need(0 <= state.dice_round <= config.max_dice_rounds, "dice_round: dice_round out of range")
    _validate_coconuts(config, state, need, nvals)

    expected = config.ring_tiles(min(state.round, ROUNDS - 1))
    laid = Counter(state.ring)
    need(
        all(laid[code] <= expected[code] for code in laid),
        "ring, round: ring holds tiles not in the box",
    )
    complete = sum(laid.values()) == sum(expected.values())
    need(
        complete != (phase in (SET_ASIDE, LAY_RING)),
        "ring, round, phase: the ring does not fit the phase",
    )
    decision = phase in (CHOOSE_DIE, WATER, HILL_CHOICE, CLEARING_CHOICE)
    need(
        state.pending == -1 or phase in (WATER, HILL_CHOICE),
        "pending, phase: a pending field needs a decision",
    )
    if phase in (SET_ASIDE, LAY_RING):
        need(
            not any(state.pool) and state.turn == 0,
            "pool, turn, phase: no dice before the ring is laid",
        )
        return
    size = len(state.ring)
    need(0 <= state.broom < size, "broom, ring: broom is off the ring")
    placed = [p for p in state.monkey_pos if p != -1]
    need(all(0 <= p < size for p in placed), "monkey_pos, ring: a monkey is off the ring")
    need(
        len(set(placed)) == len(placed) and state.broom not in placed,
        "monkey_pos, broom: two pieces share a field",
    )
    out = [m for m, p in enumerate(state.monkey_pos) if p == -1]
    need(
        sorted(state.leaving_order) == out,
        "leaving_order, monkey_pos: leaving order must list exactly the swept monkeys",
    )
    if phase in (DRAW_COCONUT, GAME_OVER):
        need(
            not any(state.pool) and state.turn == 0,
            "pool, turn, phase: no dice once the round is over",
        )
        return
    need(len(placed) >= 2, "monkey_pos, phase: a round with one monkey left is over")
    need(
        state.dice_round < config.max_dice_rounds,
        "dice_round, phase: the safety net has ended this round",
    )
    if phase == ROLL:
        need(
            sum(state.pool) < config.num_dice and state.turn == 0,
            "pool, turn, phase: a roll has dice left to roll",
        )
        return
    taking = config.num_dice - state.turn - (not decision or phase != CHOOSE_DIE)
    need(
        sum(state.pool) == taking,
        "pool, turn, phase: dice in the pool do not match the monkeys to take one",
    )
    if phase == CHOOSE_DIE:
        return
    terrain = [code if code < PALM else PALM for code in state.ring]
    here = state.monkey_pos[state.mover]
    need(here != -1, "monkey_pos, active, turn, phase: a swept monkey has no move to finish")
    if phase in (REROLL, CLEARING_CHOICE):
        need(
            terrain[here] == CLEARING,
            "monkey_pos, ring, active, turn, phase: only a monkey on the clearing re-rolls",
        )
        return
    need(
        0 <= state.pending < size, "pending, ring, phase: a landing decision needs a pending field"
    )
    need(
        state.pending not in placed and state.pending != state.broom,
        "pending, monkey_pos, broom: pending field is taken",
    )
    if phase == WATER:
        need(
            terrain[state.pending] == WATER_HOLE,
            "pending, ring, phase: a water-hole decision needs a water hole",
        )
    else:
        need(
            terrain[here] == HILL,
            "monkey_pos, ring, active, turn, phase: a hill decision needs the monkey on a hill",
        )


def _validate_coconuts(config: Config, state: JungleSweepState, need, nvals: int) -> None:
    need(
        len(state.supply) == nvals and len(state.set_aside) == nvals,
        f"supply, set_aside: {nvals} coconut values",
    )
    need(
        all(c >= 0 for c in state.supply + state.set_aside),
        "supply, set_aside: coconut counts must be >= 0",
    )
    drawn = Counter(v for vals in state.coconuts for v in vals)
    need(set(drawn) <= set(config.coconut_values), "coconuts: a coconut has an unknown value")
    for i, value in enumerate(config.coconut_values):
        total = state.supply[i] + state.set_aside[i] + drawn[value]
        need(
            total == config.initial_supply[i],
            f"supply, set_aside, coconuts: coconuts of value {value} do not add up",
        )
    aside = sum(state.set_aside)
    if state.phase == SET_ASIDE:
        need(
            state.round == 0 and not state.ring,
            "phase, round, ring: coconuts are set aside before the game",
        )
        need(aside < config.set_aside_count, "set_aside, phase: set-aside is already complete")
    else:
        need(
            aside == config.set_aside_count,
            f"set_aside, phase: {config.set_aside_count} coconuts are set aside",
        )
    need(
        all(0 <= a < config.num_monkeys for a in state.awards),
        "awards: awards name unknown monkeys",
    )
    need(
        bool(state.awards) == (state.phase == DRAW_COCONUT),
        "awards, phase: awards belong to the draw phase",
    )
    need(
        len(state.awards) <= sum(state.supply),
        "awards, supply: more coconuts owed than the supply holds",
    )
    # Every round hands out the same number of coconuts, so the round caps how many are out
    # (and the supply then lasts to the end). Fewer is a position a test may set up.
    handed = config.coconuts_per_round * state.round
    if state.phase == DRAW_COCONUT:
        handed += config.coconuts_per_round - len(state.awards)
    need(
        sum(drawn.values()) <= handed,
        f"round, coconuts, awards: by round {state.round} the monkeys hold at most {handed} "
        f"coconuts, not {sum(drawn.values())}",
    )
