"""Tropic Race as text: the board as in the rulings' sketch, with monkeys, lion and tiles."""

from __future__ import annotations

from jungle_envs.games.tropic_race import rules
from jungle_envs.games.tropic_race.config import Config
from jungle_envs.games.tropic_race.state import TropicRaceState
from jungle_envs.games.tropic_race.tables import (
    ARROW_CODE,
    ARROW_FACE,
    FAR_BANK,
    FAR_TURTLE,
    GAME_OVER,
    GOAL,
    LION_CODE,
    LION_FACE,
    LOC,
    LOCATION_NAMES,
    NEAR_TURTLE,
    NO_TILE,
    PHASE_NAMES,
    PICK_START,
    ROLL,
    SLOTS,
    START,
    TILE_KINDS,
    TILE_TURTLES,
)

WIDTH = 6
LEGEND = "digits = a monkey of that seat, L = lion, ~~ = no turtle, * = die field, > = arrow field"


def _cell(
    config: Config, state: TropicRaceState, loc: int, present: bool = True, width: int = WIDTH
) -> str:
    if not present:
        return "~~".center(width)
    owner = next((str(s) for s, monkeys in enumerate(state.monkeys) if loc in monkeys), "")
    mark = "L" if loc == state.lion else ""
    mark += "*" if loc in config.die_fields else ">" if loc in config.arrow_fields else ""
    return (owner + mark or ".").center(width)


def render(config: Config, state: TropicRaceState, viewer: int | None = None) -> str:
    if state.phase == GAME_OVER:
        status = f"game over after {state.rolls} rolls"
    else:
        player = f"seat {state.player}" if state.player >= 0 else "-"
        status = f"to play: {player} | {PHASE_NAMES[state.phase]}"
        if state.steps:
            status += f" ({state.steps} step{'s' if state.steps > 1 else ''})"
    lines = [f"Tropic Race, {config.num_players} players | {status}"]
    home = ", ".join(f"seat {s}: {m.count(GOAL)}" for s, m in enumerate(state.monkeys))
    lines.append(f"GOAL  {home}".center(WIDTH * SLOTS + 6))
    turtles = [TILE_TURTLES[k] if k != NO_TILE else (False, False) for k in state.slots]
    rows = (
        ("FB", [_cell(config, state, FAR_BANK[i]) for i in range(SLOTS)]),
        ("FT", [_cell(config, state, FAR_TURTLE[i], turtles[i][1]) for i in range(SLOTS)]),
        ("NT", [_cell(config, state, NEAR_TURTLE[i], turtles[i][0]) for i in range(SLOTS)]),
    )
    for label, cells in rows:
        lines.append(f"{label}    " + "".join(cells))
    lines.append("slot  " + "".join(str(i + 1).center(WIDTH) for i in range(SLOTS)))
    bank = "".join(_cell(config, state, LOC[f"B{i}"], width=3) for i in range(1, 10))
    lines.append("B1-9  " + bank)
    for name in ("T3", "T2", "T1"):
        lines.append("      " + " " * 12 + _cell(config, state, LOC[name], width=3) + f"  {name}")
    waiting = ", ".join(f"seat {s}: {m.count(START)}" for s, m in enumerate(state.monkeys))
    lines.append(f"START {waiting}")
    lines.append(
        f"river supply: {sum(state.supply)} tiles | lion on "
        f"{LOCATION_NAMES[state.lion]} | rolls {state.rolls}"
    )
    lines.append(LEGEND)
    if viewer is not None and 0 <= viewer < config.num_players:
        mine = ", ".join(LOCATION_NAMES[loc] for loc in state.monkeys[viewer])
        lines.append(f"you are seat {viewer}: monkeys on {mine}")
    if state.phase == GAME_OVER:
        how = "the volcano erupted" if state.volcano else "a player got every monkey home"
        winners = ", ".join(f"seat {w}" for w in rules.winners(config, state))
        lines.append(f"game over ({how}): winner(s) {winners}")
    return "\n".join(lines)


def describe_outcome(
    config: Config, state: TropicRaceState, outcome: int, viewer: int | None
) -> str:
    """A chance outcome in words (the game has no secrets, so every viewer knows it)."""
    if state.phase == ROLL:
        face = {LION_CODE: LION_FACE, ARROW_CODE: ARROW_FACE}.get(outcome, str(outcome))
        return f"seat {state.player} rolled {face}"
    if state.phase == PICK_START:
        return f"seat {outcome} starts"
    return f"drew a river tile ({TILE_KINDS[outcome].replace('_', '-')})"


def describe_effect(
    config: Config, before: TropicRaceState, after: TropicRaceState, viewer: int | None
) -> str:
    """What a move or a roll did beyond itself: monkeys sent back to START (by the lion or
    a push), monkeys reaching the goal, the volcano. Everything is public."""
    events = []
    for seat, (old, new) in enumerate(zip(before.monkeys, after.monkeys, strict=True)):
        left, arrived = list(old), []
        for location in new:
            if location in left:
                left.remove(location)
            else:
                arrived.append(location)
        home = arrived.count(START)
        sent_back = [loc for loc in left if loc != START][:home] if home else []
        for location in sent_back:
            events.append(f"seat {seat}'s monkey on {LOCATION_NAMES[location]} back to START")
        if arrived.count(GOAL):
            events.append(f"seat {seat}'s monkey reaches the GOAL")
    if after.volcano and not before.volcano:
        events.append("the supply is empty: the volcano erupts and ends the game")
    return "; ".join(events)
