"""Elephant Festival state: every fact of a game in progress, the bag's contents included."""

from __future__ import annotations

from dataclasses import dataclass

from jungle_envs.core.state import GameState, StateError
from jungle_envs.games.elephant_festival.config import Config
from jungle_envs.games.elephant_festival.tables import (
    DRAW_TILE,
    ELEPHANTS,
    GAME_OVER,
    MAX_PASSES,
    NUM_KINDS,
    PHASE_NAMES,
    PLACE,
    START_TILE,
)


@dataclass(eq=False)
class ElephantFestivalState(GameState):
    phase: int
    grounds: list[list[list[int]]]  # per seat: cells row by row, each a stack bottom first
    elephants: list[list[int]]  # per seat: the cell of each elephant
    passes: list[int]  # passes used per seat: that many elephants lie on their side
    box: list[int]  # tiles per kind neither drawn nor left in the box's unused part
    bag: int  # tiles still in the bag
    draws_left: int  # tiles still to draw for this round's display
    display: list[int]  # face-up tiles per kind
    holder: int  # the seat holding the bag this round
    turn: int  # players who have acted this round
    discarded: list[int]  # tiles per kind nobody took (out of the game)


def _connected(config: Config, ground: list[list[int]]) -> bool:
    """Every occupied cell is reached from the start tile through occupied cells."""
    grid, start = config.grid, config.start_cell
    seen, todo = {start}, [start]
    while todo:
        row, col = divmod(todo.pop(), grid)
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            nxt = r * grid + c
            if 0 <= r < grid and 0 <= c < grid and ground[nxt] and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return len(seen) == sum(1 for stack in ground if stack)


def validate(config: Config, state: ElephantFestivalState) -> None:
    """Raise StateError if ``state`` cannot arise in a game of ``config``; the one invariant
    that needs the rules (the deciding player has something to do) is ``rules.validate``'s."""

    def need(ok: bool, message: str) -> None:
        if not ok:
            raise StateError(message)

    n, cells, phase = config.num_players, config.grid * config.grid, state.phase
    need(0 <= phase < len(PHASE_NAMES), f"phase: phase {phase} unknown")
    need(
        len(state.grounds) == n and len(state.elephants) == n,
        "grounds, elephants: one ground per seat",
    )
    need(
        len(state.passes) == n and all(0 <= p <= MAX_PASSES for p in state.passes), "passes: passes"
    )
    for name in ("box", "display", "discarded"):
        counts = getattr(state, name)
        need(len(counts) == NUM_KINDS and min(counts) >= 0, f"{name}: needs a count per kind")
    placed = [0] * NUM_KINDS
    for seat, ground in enumerate(state.grounds):
        need(len(ground) == cells, f"grounds: a ground has {cells} cells")
        need(
            ground[config.start_cell] == [START_TILE],
            "grounds: the start tile lies alone at the centre",
        )
        for cell, stack in enumerate(ground):
            if cell != config.start_cell:
                need(all(0 <= t < NUM_KINDS for t in stack), "grounds: unknown tile on a ground")
                for t in stack:
                    placed[t] += 1
        herd = state.elephants[seat]
        need(len(herd) == ELEPHANTS and all(0 <= c < cells for c in herd), "elephants: elephants")
        need(
            all(ground[c] for c in herd), "elephants, grounds: an elephant stands on an empty cell"
        )
        need(
            len(set(herd)) == ELEPHANTS or herd[0] == config.start_cell,
            "elephants: elephants share only the start tile",
        )
        need(_connected(config, ground), "grounds: every tile touches the rest of the ground")
    seen = [
        b + d + o + p
        for b, d, o, p in zip(state.box, state.display, state.discarded, placed, strict=True)
    ]
    need(
        seen == list(config.tile_counts),
        "box, display, discarded, grounds: the tiles do not add up to the box",
    )
    drawn = config.bag_size - state.bag
    need(0 <= state.bag <= config.bag_size, "bag: bag out of range")
    need(
        sum(state.display) + sum(placed) + sum(state.discarded) == drawn,
        "bag, display, discarded, grounds: drawn tiles must be on display, placed or discarded",
    )
    need(0 <= state.holder < n and 0 <= state.turn <= n, "holder, turn: holder/turn out of range")
    need(0 <= state.draws_left <= state.bag, "draws_left, bag: more draws than tiles in the bag")
    need(
        sum(state.display) + state.draws_left <= n,
        "display, draws_left: one face-up tile per player at most",
    )
    rounds = -(-(drawn + state.draws_left) // n)  # rounds begun
    if phase == GAME_OVER:
        need(
            state.holder == rounds % n,
            "holder, bag, draws_left, phase: the bag passes on every round",
        )
    else:
        need(
            state.holder == (rounds - 1) % n,
            "holder, bag, draws_left, phase: the bag passes on every round",
        )
    for seat, ground in enumerate(state.grounds):
        acted = sum(map(len, ground)) - 1 + state.passes[seat]
        # Seats act in order from the holder; those still to act this round may only have
        # acted in the rounds before it.
        done_this_round = phase == GAME_OVER or (
            phase == PLACE and (seat - state.holder) % n < state.turn
        )
        need(
            acted <= rounds - (not done_this_round),
            f"grounds, passes, turn, holder, phase: seat {seat} acted more than once a round",
        )
    need(
        (state.draws_left > 0) == (phase == DRAW_TILE),
        "draws_left, phase: draws belong to the draw phase",
    )
    if phase == DRAW_TILE:  # a round draws one tile per player while the bag lasts
        shown = sum(state.display)
        need(
            shown + state.draws_left == min(n, state.bag + shown),
            "draws_left, display, bag: one draw per player while the bag lasts",
        )
    if phase == PLACE:
        need(state.turn < n, "turn: everyone has acted this round")
    if phase == GAME_OVER:
        need(
            state.bag == 0 and not any(state.display),
            "phase, bag, display: the game ends with the bag empty",
        )
