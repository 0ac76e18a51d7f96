"""Time per decision of the IS-MCTS opponent, per game and budget.

    python -m benchmarks.search_speed [--game NAME ...] [--simulations 100 300 1000]
        [--players 4] [--positions 20] [--guided] [--leaf 0.5] [--json FILE]

For each game it plays a heuristic game (seed 0) and takes ``--positions`` of its
decisions with more than one legal action, spread over the game; then the search decides
each of them at each budget, in this process, on the compiled twin with heuristic
rollouts (``jungle_envs.search.MCTS`` defaults otherwise). It reports the mean seconds per
decision and simulations per second. ``--guided`` also times the search guided by the
shipped agent (``mcts+ppo``) at each budget: the cost of its one forward pass a decision;
``--leaf L`` the guided search that also values new nodes by the agent's value head
(``mcts+ppo:N:leaf=L``): a short walk to every seat's next decision and a forward pass
at every simulation.
Early decisions cost more than late ones (longer rollouts), so the spread over the whole
game matters.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

import jungle_envs
from jungle_envs.core.game import CHANCE, TERMINAL
from jungle_envs.search import MCTS, MCTSPolicy
from training import cli


def positions(game, count: int, seed: int = 0) -> list:
    """``count`` decisions with a choice, evenly spread over one heuristic game."""
    rng = np.random.default_rng(seed)
    heuristic = game.heuristic_policy()
    state, found = game.new_state(), []
    while (player := game.current_player(state)) != TERMINAL:
        if player == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
            continue
        mask = game.legal_mask(state)
        if mask.sum() > 1:
            found.append((state.copy(), player, mask))
        game.apply_action(state, heuristic.act(game.observe(state, player), mask, rng))
    picks = np.linspace(0, len(found) - 1, min(count, len(found))).round().astype(int)
    return [found[i] for i in sorted(set(picks.tolist()))]


def measure(
    name: str,
    budgets: list[int],
    players: int,
    count: int,
    guide: str | None = None,
    leaf: float = 0.0,
) -> dict[int, dict]:
    """Seconds per decision at each budget, of the search guided by ``guide`` (a policy
    name, e.g. "ppo"; with its value at new nodes by weight ``leaf``) or of the plain
    search."""
    game = jungle_envs.make_game(name, players)
    chosen = positions(game, count)
    warm = MCTSPolicy(game, MCTS(simulations=2))
    for state, seat, mask in chosen:  # every compiled kernel loaded before the clock
        warm.act_state(state, seat, mask, np.random.default_rng(0))
    results = {}
    for budget in budgets:
        policy = MCTSPolicy(game, MCTS(simulations=budget, guide=guide, leaf=leaf))
        rng, start = np.random.default_rng(1), time.perf_counter()
        for state, seat, mask in chosen:
            policy.act_state(state, seat, mask, rng)
        seconds = (time.perf_counter() - start) / len(chosen)
        results[budget] = {"seconds_per_decision": seconds, "simulations_per_s": budget / seconds}
    return results


def main(argv: list[str] | None = None) -> dict:
    parser = cli.parser("benchmarks.search_speed", __doc__)
    cli.add_games(parser)
    parser.add_argument(
        "--simulations", type=int, nargs="+", default=[100, 300, 1000], help="budgets to time"
    )
    parser.add_argument("--players", type=int, default=4, help="player count")
    parser.add_argument("--positions", type=int, default=20, help="decisions timed per game")
    parser.add_argument(
        "--guided", action="store_true", help="also time the search guided by the shipped agent"
    )
    parser.add_argument(
        "--leaf",
        type=float,
        help="also time the guided search with the guide's value at new nodes, this weight "
        "(0-1; games whose agent was trained on points have none and are left out)",
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    if min(args.simulations) < 1 or args.positions < 1:
        parser.error("--simulations and --positions must be at least 1")
    if args.leaf is not None and not 0 < args.leaf <= 1:
        parser.error(f"--leaf must be above 0 and at most 1, got {args.leaf}")
    print("| game | search | simulations | seconds per decision | simulations/s |")
    print("| --- | --- | --- | --- | --- |")
    results: dict[str, dict] = {}
    searches = {"mcts": (None, 0.0)}
    if args.guided:
        searches["mcts+ppo"] = ("ppo", 0.0)
    if args.leaf is not None:
        searches[f"mcts+ppo:leaf={args.leaf:g}"] = ("ppo", args.leaf)
    for name in args.game:
        for search, (guide, leaf) in searches.items():
            try:
                rows = measure(name, args.simulations, args.players, args.positions, guide, leaf)
            except ValueError as exc:  # a guide without a value on the search's scale
                print(f"| {name} | {search} | not available: {exc} | | |", flush=True)
                continue
            results[name if search == "mcts" else f"{name}/{search}"] = rows
            for budget, row in rows.items():
                print(
                    f"| {name} | {search} | {budget:,} | {row['seconds_per_decision']:.3f} | "
                    f"{row['simulations_per_s']:,.0f} |",
                    flush=True,
                )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    main()
