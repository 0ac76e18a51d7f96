"""Jungle Sweep as text: the ring, broom, monkeys, dice pool and coconuts."""

from __future__ import annotations

from jungle_envs.games.jungle_sweep import rules
from jungle_envs.games.jungle_sweep.config import Config
from jungle_envs.games.jungle_sweep.state import JungleSweepState
from jungle_envs.games.jungle_sweep.tables import (
    CHOOSE_DIE,
    CLEARING_CHOICE,
    DIE_FACE_LABELS,
    GAME_OVER,
    HILL_CHOICE,
    LAY_RING,
    NUM_FACES,
    PALM,
    PHASE_NAMES,
    REROLL,
    ROLL,
    ROUNDS,
    SET_ASIDE,
    TERRAIN_LABELS,
    TERRAIN_SYMBOLS,
    WATER,
)

LEGEND = "P=palm J=jungle path Q=quicksand C=clearing W=water hole H=hill; B=broom, digits=monkeys"


def monkey_label(config: Config, m: int) -> str:
    if config.num_monkeys == config.num_players:
        return str(m)
    return f"{m % config.num_players}{'ab'[m // config.num_players]}"  # seat + which monkey


def render(config: Config, state: JungleSweepState, viewer: int | None = None) -> str:
    if state.phase == GAME_OVER:
        where = f"game over after {ROUNDS} rounds"
    else:
        where = (
            f"round {state.round + 1}/{ROUNDS} | dice round {state.dice_round + 1} | "
            f"{PHASE_NAMES[state.phase]}"
        )
    lines = [f"Jungle Sweep, {config.num_players} players | {where}"]
    if state.ring:
        width = 4
        fields, pieces = [], []
        for i, code in enumerate(state.ring):
            symbol = TERRAIN_SYMBOLS[code if code < PALM else PALM]
            fields.append(symbol.ljust(width))
            here = "B" if i == state.broom else ""
            occupants = [m for m, pos in enumerate(state.monkey_pos) if pos == i]
            if occupants and state.phase != GAME_OVER:
                here += monkey_label(config, occupants[0])
            if i == state.pending:
                here += "*"
            pieces.append((here or ".").ljust(width))
        lines.append("ring  " + "".join(fields) + " (clockwise, then back to the start)")
        lines.append("      " + "".join(pieces))
        lines.append("      " + LEGEND + "; *=pending landing")
    if state.phase != GAME_OVER and any(state.pool):
        dice = " ".join(DIE_FACE_LABELS[f] for f in range(NUM_FACES) for _ in range(state.pool[f]))
        lines.append(f"dice pool: {dice}   (held by monkey {monkey_label(config, state.active)})")
    if state.phase in (CHOOSE_DIE, WATER, HILL_CHOICE, CLEARING_CHOICE):
        mover = state.mover
        lines.append(
            f"to decide: seat {mover % config.num_players} for monkey {monkey_label(config, mover)}"
        )
    if state.phase != GAME_OVER:
        out = [monkey_label(config, m) for m in state.leaving_order]
        lines.append(f"swept out this round: {', '.join(out) if out else 'none'}")
    lines.append("coconuts:")
    for seat in range(config.num_players):
        monkeys = list(range(seat, config.num_monkeys, config.num_players))
        values = [v for m in monkeys for v in state.coconuts[m]]
        shown = viewer is None or viewer == seat or state.phase == GAME_OVER
        detail = f"value {sum(values)} {sorted(values)}" if shown else "values hidden"
        marker = "  <- you" if viewer == seat else ""
        count = f"{len(values)} coconut" + ("" if len(values) == 1 else "s")
        lines.append(f"  seat {seat}: {count}, {detail}{marker}")
    if state.phase == GAME_OVER:
        lines.append(f"game over: {result_text(config, state)}")
    return "\n".join(lines)


def result_text(config: Config, state: JungleSweepState) -> str:
    winners = rules.winners(config, state)
    names = ", ".join(f"seat {w}" for w in winners)
    return f"{names} wins" if len(winners) == 1 else f"{names} share the win"


def describe_outcome(
    config: Config, state: JungleSweepState, outcome: int, viewer: int | None
) -> str:
    """A chance outcome as ``viewer`` may know it: coconut values only to their owner."""
    if state.phase in (ROLL, REROLL):
        return f"rolled {DIE_FACE_LABELS[outcome]}"
    if state.phase == LAY_RING:
        if outcome >= PALM:
            return f"laid the palm of monkey {monkey_label(config, outcome - PALM)}"
        return f"laid a {TERRAIN_LABELS[outcome]} tile"
    if state.phase == SET_ASIDE:
        value = outcome if viewer is None else "?"
        return f"set a coconut aside unseen (value {value})"
    monkey = state.awards[0]
    seat = monkey % config.num_players
    value = outcome if viewer is None or viewer == seat else "?"
    return f"monkey {monkey_label(config, monkey)} drew a coconut (value {value})"


FIELD_NAMES = {"path": "jungle path", "water": "water hole"}  # as the rules name them


def field_text(config: Config, code: int) -> str:
    if code >= PALM:
        return f"the palm of monkey {monkey_label(config, code - PALM)}"
    return f"a {FIELD_NAMES.get(TERRAIN_LABELS[code], TERRAIN_LABELS[code])}"


def describe_effect(
    config: Config, before: JungleSweepState, after: JungleSweepState, viewer: int | None
) -> str:
    """What a move or a roll did beyond itself: where a monkey lands, who is swept out and
    in which place, a round or the game ending. Positions and sweeps are public."""
    events = []
    if after.round == before.round:
        for m, (old, new) in enumerate(zip(before.monkey_pos, after.monkey_pos, strict=True)):
            if old >= 0 and new < 0:
                place = after.leaving_order.index(m) + 1 if m in after.leaving_order else 0
                events.append(f"monkey {monkey_label(config, m)} is swept out (#{place})")
            elif new >= 0 and new != old:
                where = field_text(config, after.ring[new])
                events.append(f"monkey {monkey_label(config, m)} lands on {where}")
    elif before.round < ROUNDS:
        events.append(f"round {before.round + 1} of {ROUNDS} ends")
    if after.phase == GAME_OVER and before.phase != GAME_OVER:
        events.append(f"game over: {result_text(config, after)}")
    return "; ".join(events)
