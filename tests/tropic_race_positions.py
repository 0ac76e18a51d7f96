"""Hand-built Tropic Race positions for the rules tests (locations by name)."""

from __future__ import annotations

from jungle_envs.games.tropic_race.game import TropicRace
from jungle_envs.games.tropic_race.state import TropicRaceState
from jungle_envs.games.tropic_race.tables import (
    ARROW_CODE,
    LION_CODE,
    LOC,
    MOVE,
    MOVE_INDEX,
    ROLL,
    START,
    THEN_STEP_ONE,
    TILE_KINDS,
)

ALL_BRIDGES = ("bridge",) * 5
LION, ARROW = LION_CODE, ARROW_CODE


def position(
    monkeys: dict[int, list[str]] | None = None,
    num_players: int = 2,
    lion: str = "B5",
    slots: tuple[str, ...] = ALL_BRIDGES,
    phase: int = ROLL,
    steps: int = 0,
    player: int = 0,
    **options,
) -> tuple[TropicRace, TropicRaceState]:
    """``monkeys`` maps a seat to the named locations of some of its monkeys; the rest
    wait in START. The supply holds the box minus the tiles in the river."""
    game = TropicRace(num_players, **options)
    kinds = [TILE_KINDS.index(kind) for kind in slots]
    supply = list(game.config.tile_mix)
    for kind in kinds:
        supply[kind] -= 1
    seats = []
    for seat in range(num_players):
        placed = [LOC[name] for name in (monkeys or {}).get(seat, [])]
        seats.append(sorted(placed + [START] * (game.config.monkeys_per_player - len(placed))))
    state = TropicRaceState(
        phase=phase,
        player=player,
        monkeys=seats,
        lion=LOC[lion],
        slots=kinds,
        supply=supply,
        steps=steps if phase == MOVE else 0,
        then=THEN_STEP_ONE,
        volcano=False,
        rolls=0,
    )
    game.validate_state(state)
    return game, state


def move(game: TropicRace, state: TropicRaceState, origin: str, target: str) -> None:
    game.apply_action(state, MOVE_INDEX[(LOC[origin], LOC[target])])


def targets(game: TropicRace, state: TropicRaceState) -> set[tuple[str, str]]:
    """The legal moves as (from, to) names."""
    names = game.spec.action_names
    return {
        tuple(names[a].removeprefix("move ").split("->"))
        for a in game.legal_actions(state)
        if names[a].startswith("move ")
    }


def where(state: TropicRaceState, seat: int) -> list[str]:
    from jungle_envs.games.tropic_race.tables import LOCATION_NAMES

    return [LOCATION_NAMES[loc] for loc in state.monkeys[seat]]
