"""The paired tables of the shipped agents: each against the heuristic in its own seat.

    python -m training.paired [--game NAME ...] [--players 4 2] [--games 2000]
        [--seed 95000] [--agent ppo] [--random-at 4] [--workers 2] [--json OUT]
        [--write docs/results.md] [--section paired]

For every game and player count the agent (``ppo``: the shipped one) and the heuristic
play the same ``--games`` games from the same seat against heuristics (``training.compare``:
game i seeded ``seed + i``, the seat ``i mod N``), and at ``--random-at`` players also
against random players. A row gives both rates and the paired difference (agent minus
heuristic) in win rate and in score margin over the best other seat, with 95% intervals;
the target is met where the win-rate interval lies above 0 (against random players: where
the agent does at least as well as the heuristic, in margin when both always win).
``--write`` replaces the page's section between ``<!-- SECTION:start -->`` and
``<!-- SECTION:end -->``; ``--json`` keeps every comparison.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import jungle_envs
from jungle_envs import agents
from training import cli
from training.compare import compare, interval
from training.ladder import markers, write_section

HEADER = (
    "| table | opponents | agent / heuristic | paired difference (win rate) "
    "| paired difference (margin) | target |\n| --- | --- | --- | --- | --- | --- |"
)


def target_met(data: dict[str, Any]) -> bool:
    """Against heuristics: the win-rate interval above 0. Against random players: at least
    level on the mean, read on the margin where both policies win every game."""
    if data["opponents"] != "random":
        return data["win_rate_difference"]["ci95"][0] > 0
    rates = data["agent_result"]["win_rate"], data["baseline_result"]["win_rate"]
    measure = "margin_difference" if rates == (1.0, 1.0) else "win_rate_difference"
    return data[measure]["mean"] >= 0


def title(env_name: str) -> str:
    """``SpankTheMonkey`` as a table names it: ``Spank the Monkey``."""
    words = re.findall(r"[A-Z][a-z]*", env_name)
    return " ".join(word.lower() if word == "The" else word for word in words)


def row(data: dict[str, Any]) -> str:
    game = title(jungle_envs.game_class(data["env"]).spec.env_name)
    others = data["players"] - 1
    plural = "s" if others > 1 and data["opponents"] == "heuristic" else ""
    opponents = f"{others} {data['opponents']}{plural}"
    agent, baseline = data["agent_result"]["win_rate"], data["baseline_result"]["win_rate"]
    wins, margins = data["win_rate_difference"], data["margin_difference"]
    win_text = interval(wins, 3) if not math.isnan(wins["mean"]) else "-"
    margin_text = interval(margins, 2) if margins["games"] else "-"
    return (
        f"| {game} {data['players']}p | {opponents} | {agent:.3f} / {baseline:.3f} | {win_text} "
        f"| {margin_text} | {'met' if target_met(data) else 'missed'} |"
    )


def table(results: list[dict[str, Any]]) -> str:
    lines = [HEADER] + [row(data) for data in results]
    met = sum(target_met(data) for data in results)
    first = results[0]
    return (
        f"{first['games']:,} paired games per row, seeds {first['seed']:,}-"
        f"{first['seed'] + first['games'] - 1:,}; targets met in {met} of {len(results)} rows.\n\n"
        + "\n".join(lines) + "\n"
    )  # fmt: skip


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = cli.parser("training.paired", __doc__)
    cli.add_games(parser)
    parser.add_argument("--players", nargs="+", type=int, default=[4, 2], help="player counts")
    parser.add_argument("--games", type=int, default=2000, help="games per policy and row")
    parser.add_argument("--seed", type=int, default=95_000, help="game i is seeded seed + i")
    parser.add_argument("--agent", default="ppo", help="the agent: ppo (shipped) or a name")
    parser.add_argument("--random-at", type=int, nargs="*", default=[4],
                        help="player counts also played against random players")  # fmt: skip
    parser.add_argument("--workers", type=int, default=1, help="processes sharing the games")
    parser.add_argument("--json", type=Path, help="write every comparison here")
    parser.add_argument("--write", type=Path, help="a markdown page with the section")
    parser.add_argument("--section", default="paired", help="the section --write replaces")
    cli.add_quiet(parser)
    args = parser.parse_args(argv)
    if args.games < 2 or args.workers < 1 or args.seed < 0:
        parser.error("--games must be >= 2, --workers >= 1 and --seed >= 0")
    if args.write:  # before an hour of games, not after
        start, end = markers(args.section)
        text = args.write.read_text() if args.write.is_file() else ""
        if start not in text or end not in text:
            parser.error(f"{args.write} has no {start} ... {end} section to replace")
    jobs = [(game, players, "heuristic") for players in args.players for game in args.game]
    jobs += [(game, players, "random") for players in args.random_at for game in args.game]
    for game, players, _ in jobs:
        spec = jungle_envs.game_class(f"jungle_envs/{game}-v0").spec
        if players not in spec.player_counts:
            parser.error(f"{game} takes {spec.min_players}-{spec.max_players} players")
        if args.agent == "ppo" and agents.agent_name(game, players) not in agents.shipped():
            parser.error(f"no shipped agent for {game} at {players} players")
    results = []
    for game, players, opponents in jobs:
        data = compare(f"jungle_envs/{game}-v0", args.agent, "heuristic", opponents,
                       args.games, players, args.seed, args.workers, quiet=args.quiet)  # fmt: skip
        print(row(data), flush=True)
        results.append(data)
    body = table(results)
    print(body)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    if args.write:
        write_section(args.write, body, *markers(args.section))
    return results


if __name__ == "__main__":
    main()
