"""Play the reference engine and its compiled twin side by side and report the first difference.

Both get the same chance outcomes (the reference's draw for one uniform number, which the
twin must draw too) and the same decisions (random legal actions mixed with the
heuristic's choice, so the heuristic's lines of play are reached). ``full`` checks compare
after every step the state (through the reference's JSON form) and whose turn it is; at
every decision the mask and the deciding seat's observation, at every
``heuristic_every``-th the heuristic's choice; every ``seats_every`` steps every seat's
observation, the scores and the returns. ``lean`` checks (for long runs) compare the mask
at every decision, the deciding seat's observation and heuristic choice at every
``view_every``-th decision, the state every ``state_every`` steps, and everything at the
end. A difference raises
``TwinMismatch`` with the seed, the actions so far and both states as JSON.

    python -m jungle_envs.core.compiled.lockstep --game JungleSweep --players 4 \
        --games 100000 --workers 2
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from jungle_envs.core.compiled.twin import Twin
from jungle_envs.core.game import CHANCE, TERMINAL, Game
from jungle_envs.core.registry import GAMES, make_game


class TwinMismatch(AssertionError):
    """The twin and the reference disagree."""


class FixedUniform:
    """Stands in for a generator whose next ``random()`` is ``u`` (one draw per event)."""

    def __init__(self, u: float) -> None:
        self.u = u

    def random(self) -> float:
        return self.u


@dataclass
class LockstepReport:
    games: int = 0
    steps: int = 0
    decisions: int = 0
    seconds: float = 0.0


def play_lockstep(
    game: Game,
    twin: Twin,
    seed: int,
    full: bool = True,
    state_every: int = 25,
    view_every: int = 8,
    seats_every: int = 10,
    heuristic_every: int = 3,
    heuristic_share: float = 0.5,
) -> tuple[int, int]:
    """One game in lockstep; returns (steps, decisions)."""
    rng = np.random.default_rng(seed)
    heuristic = game.heuristic_policy()
    state = game.new_state()
    row = twin.new_row()
    history: list[str] = []
    fields = [f.name for f in dataclasses.fields(state)]

    def fail(what: str) -> None:
        raise TwinMismatch(
            f"{game.spec.env_name} {game.settings()} seed {seed}, after {history}: {what}\n"
            f"reference: {game.state_to_json(state)}\n"
            f"twin:      {game.state_to_json(twin.unpack(row))}"
        )

    def check_state() -> None:
        twin_state = twin.unpack(row)
        for name in fields:  # the JSON form's fields, without copying the state
            if getattr(twin_state, name) != getattr(state, name):
                fail(f"states differ in {name!r}")

    check_state()
    steps = decisions = 0
    while True:
        player = game.current_player(state)
        if twin.current_player(row) != player:
            fail(f"current player {twin.current_player(row)} != {player}")
        if player == TERMINAL:
            break
        if player == CHANCE:
            u = float(rng.random())
            outcome = game.sample_chance(state, FixedUniform(u))
            twin_outcome = twin.sample_chance(row, u)
            if twin_outcome != outcome:
                fail(f"chance draw for u={u!r}: twin {twin_outcome}, reference {outcome}")
            game._apply_chance(state, outcome)  # drawn from the event itself: possible
            twin.apply_chance(row, outcome)
            history.append(f"c{outcome}")
        else:
            mask = game.legal_mask(state)
            if not np.array_equal(twin.legal_mask(row), mask):
                fail(f"masks differ: twin {np.flatnonzero(twin.legal_mask(row))}, "
                     f"reference {np.flatnonzero(mask)}")  # fmt: skip
            legal = np.flatnonzero(mask)
            action = int(legal[rng.integers(len(legal))])
            if full or decisions % view_every == 0:
                obs = game.observe(state, player)
                compare_views(twin.observe(row, player), obs, f"view of seat {player}", fail)
            # The twin's heuristic picks the heuristic moves; every heuristic_every-th
            # decision the reference's must agree (it is the slow part of a check).
            choice = twin.heuristic_action(row, player)
            if decisions % (heuristic_every if full else view_every) == 0:
                expected = heuristic.act(game.observe(state, player), mask, None)
                if choice != expected:
                    fail(f"heuristic of seat {player}: twin {choice}, reference {expected}")
            if rng.random() < heuristic_share:
                action = choice
            game._apply_action(state, action)  # drawn from the mask: legal
            twin.apply_action(row, action)
            history.append(f"a{action}")
            decisions += 1
        steps += 1
        if full:
            check_state()
            if steps % seats_every == 0:
                for seat in range(game.num_players):
                    view = twin.observe(row, seat)
                    compare_views(view, game.observe(state, seat), f"view of {seat}", fail)
                check_results(game, twin, state, row, fail)
        elif steps % state_every == 0:
            check_state()
    check_state()
    check_results(game, twin, state, row, fail)
    for seat in range(game.num_players):
        compare_views(twin.observe(row, seat), game.observe(state, seat), f"view of {seat}", fail)
    return steps, decisions


def compare_views(twin_obs: np.ndarray, obs: np.ndarray, what: str, fail) -> None:
    if twin_obs.dtype != obs.dtype or twin_obs.tobytes() != obs.tobytes():
        bad = np.flatnonzero(twin_obs != obs)[:8]
        fail(f"{what} differs at {bad.tolist()}: twin {twin_obs[bad]}, reference {obs[bad]}")


def check_results(game: Game, twin: Twin, state, row, fail) -> None:
    if twin.scores(row) != [float(x) for x in game.scores(state)]:
        fail(f"scores: twin {twin.scores(row)}, reference {game.scores(state)}")
    if twin.returns(row) != game.returns(state):
        fail(f"returns: twin {twin.returns(row)}, reference {game.returns(state)}")


def run(
    name: str,
    players: int,
    games: int,
    first_seed: int = 0,
    full: bool = True,
    workers: int = 1,
    **options,
) -> LockstepReport:
    """``games`` games from ``first_seed`` on; with ``workers`` > 1, in that many processes."""
    start = time.perf_counter()
    if workers > 1:
        bounds = np.linspace(first_seed, first_seed + games, workers + 1).astype(int)
        jobs = [
            (name, players, int(a), int(b), full, options) for a, b in itertools.pairwise(bounds)
        ]
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(_run_seeds, jobs))
    else:
        parts = [_run_seeds((name, players, first_seed, first_seed + games, full, options))]
    report = LockstepReport(seconds=time.perf_counter() - start)
    for part in parts:
        report.games += part.games
        report.steps += part.steps
        report.decisions += part.decisions
    return report


def _run_seeds(job: tuple) -> LockstepReport:
    name, players, first, last, full, options = job
    game = make_game(name, players, **options)
    twin = Twin(game)
    report = LockstepReport()
    for seed in range(first, last):
        steps, decisions = play_lockstep(game, twin, seed, full=full)
        report.games += 1
        report.steps += steps
        report.decisions += decisions
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="first game's seed")
    parser.add_argument("--full", action="store_true", help="compare everything every step")
    parser.add_argument("--workers", type=int, default=1, help="processes to share the games")
    args = parser.parse_args(argv)
    report = run(
        args.game, args.players, args.games, args.seed, full=args.full, workers=args.workers
    )
    print(
        f"{args.game}, {args.players} players: {report.games} games, {report.steps} steps, "
        f"{report.decisions} decisions in lockstep, no difference ({report.seconds:.0f} s)"
    )


if __name__ == "__main__":
    main()
