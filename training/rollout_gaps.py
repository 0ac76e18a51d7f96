"""Where the heuristic's move loses: one-step rollout values of every legal move.

    python -m training.rollout_gaps --env JungleSweep [--players 4] [--games 40]
        [--rollouts 400] [--seed 0] [--seat 0] [--z 2.5] [--confirm 0]
        [--determinizations 0] [--json OUT]

Plays ``--games`` games with the heuristic in every seat. At each decision of ``--seat``
with more than one legal move, every legal move is played out ``--rollouts`` times on the
compiled twin with the heuristic in every seat afterwards; move and rollout k share their
dice and draws (the same random streams), so the difference between two moves is measured
on the same luck. A gap is a decision where another move's mean return beats the
heuristic's by more than ``--z`` standard errors of the paired difference. The report
counts the gaps, their mean size and which move the heuristic made and which won, the
first place to look for what the heuristic (and a network that copies it) does not see.
A policy that played the winning move at every gap would gain about ``gain per game``
in return (an upper estimate: the largest of several noisy means is biased upwards).

The playouts start from the true state, so they know what the seat cannot (in Jungle
Sweep the other monkeys' coconut values); ``--determinizations D`` plays rollout k from
world ``k % D`` of ``D`` dealt from what the seat knows (``Game.resample``), as the search
does, so a gap is one a fair player could find.

``--confirm N`` removes that bias, as a held-out set does: at every gap the winning move
and the heuristic's are played out again ``N`` times on fresh random streams (drawn from a
generator of their own, so the games and the gaps found are the same with or without it),
and the gain of switching there is that fresh paired mean. Summed per game, these give the
gain per game of the policy that plays the heuristic except at the gaps found, with a 95%
interval over the games.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

import jungle_envs
from jungle_envs.core.game import CHANCE, Game
from training import cli


def move_values(
    twin: Any, rows: np.ndarray | list[np.ndarray], legal: np.ndarray, seat: int,
    rollouts: int, rng: np.random.Generator,
) -> np.ndarray:  # fmt: skip
    """``seat``'s return after each legal move, one row per move, one column per rollout;
    column k of every move plays from the same random streams and from world ``k % len(rows)``
    (one packed state, or several worlds dealt from what ``seat`` knows)."""
    from jungle_envs.core.compiled import runner

    worlds = [rows] if isinstance(rows, np.ndarray) else list(rows)
    kinds = np.full(twin.num_players, runner.HEURISTIC, dtype=np.int8)
    streams = rng.integers(0, 2**64, size=(rollouts, 2), dtype=np.uint64)
    values = np.zeros((len(legal), rollouts))
    for i, action in enumerate(legal):
        for k in range(rollouts):
            world = worlds[k % len(worlds)]
            returns, _ = twin.playout(world.copy(), streams[k], kinds, int(action))
            values[i, k] = returns[seat]
    return values


def decision_record(
    game: Game, state: Any, legal: np.ndarray, chosen: int, values: np.ndarray, z: float
) -> dict[str, Any]:
    """One decision: each move's mean return, and the gap when another move beats the
    heuristic's ``chosen`` by more than ``z`` standard errors of the paired difference."""
    means = values.mean(axis=1)
    mine = int(np.flatnonzero(legal == chosen)[0])
    best = int(means.argmax())
    difference = values[best] - values[mine]
    error = float(difference.std(ddof=1) / np.sqrt(len(difference))) if len(difference) > 1 else 0.0
    gap = float(difference.mean())
    significant = best != mine and gap > 0 and gap > z * error
    return {
        "legal": legal.tolist(),
        "heuristic": chosen,
        "means": [round(float(m), 4) for m in means],
        "best": int(legal[best]),
        "gap": round(gap, 4) if significant else 0.0,
        "standard_error": round(error, 4),
        "moves": f"{game.action_to_string(state, chosen)} -> "
        f"{game.action_to_string(state, int(legal[best]))}",
    }


def rollout_gaps(
    env_id: str, players: int, games: int, rollouts: int, seed: int, seat: int, z: float,
    confirm: int = 0, determinizations: int = 0,
) -> dict[str, Any]:  # fmt: skip
    """Every decision of ``seat`` with a choice, over ``games`` heuristic games; with
    ``confirm`` > 0 every gap's gain measured again on that many fresh rollouts, and with
    ``determinizations`` > 0 every playout from a world dealt from what ``seat`` knows."""
    from jungle_envs.core.compiled.twin import Twin

    game = jungle_envs.game_class(env_id)(num_players=players)
    seat = game.check_seat(seat)
    if games < 1 or rollouts < 2:
        raise ValueError(f"need games >= 1 and rollouts >= 2, got {games} and {rollouts}")
    if confirm < 0 or confirm == 1:
        raise ValueError(f"need confirm = 0 (off) or >= 2 rollouts, got {confirm}")
    if determinizations < 0:
        raise ValueError(f"need determinizations >= 0 (0: the true state), got {determinizations}")
    twin = Twin(game)
    heuristic = game.heuristic_policy()
    observes = getattr(heuristic, "uses_observation", True)
    rng = np.random.default_rng(seed)
    confirm_rng = np.random.default_rng([seed, 1])  # its own, so the games stay the same
    deal_rng = np.random.default_rng([seed, 2])

    def worlds(state: Any, rng: np.random.Generator) -> np.ndarray | list[np.ndarray]:
        if not determinizations:
            return twin.pack(state)
        return [twin.pack(game.resample(state, seat, rng)) for _ in range(determinizations)]

    decisions, confirmed = [], np.zeros(games)
    for index in range(games):
        state = game.new_state()
        while (player := game.current_player(state)) >= 0 or player == CHANCE:
            if player == CHANCE:
                game._apply_chance(state, game.sample_chance(state, rng))
                continue
            mask = game.legal_mask(state)
            obs = game.observe(state, player) if observes else None
            action = int(heuristic.act(obs, mask, rng))
            legal = np.flatnonzero(mask)
            if player == seat and len(legal) > 1:
                values = move_values(twin, worlds(state, deal_rng), legal, seat, rollouts, rng)
                record = decision_record(game, state, legal, action, values, z)
                if confirm and record["gap"] > 0:
                    pair = np.array([action, record["best"]])
                    again = move_values(
                        twin, worlds(state, confirm_rng), pair, seat, confirm, confirm_rng
                    )
                    record["confirmed"] = round(float((again[1] - again[0]).mean()), 4)
                    confirmed[index] += again[1].mean() - again[0].mean()
                decisions.append(record)
            game._apply_action(state, action)
    gaps = [d for d in decisions if d["gap"] > 0]
    kinds = Counter(d["moves"] for d in gaps)
    data = {
        "env": env_id, "players": players, "games": games, "rollouts": rollouts,
        "seed": seed, "seat": seat, "z": z, "decisions": len(decisions), "gaps": len(gaps),
        "mean_gap": round(float(np.mean([d["gap"] for d in gaps])), 4) if gaps else 0.0,
        "gain_per_game": round(sum(d["gap"] for d in gaps) / games, 4),
        "kinds": kinds.most_common(), "records": decisions, "confirm": confirm,
        "determinizations": determinizations,
    }  # fmt: skip
    if confirm:
        mean = round(float(confirmed.mean()), 4)
        if games > 1:  # one game has no spread to take an interval from
            half = 1.96 * confirmed.std(ddof=1) / np.sqrt(games)
            data["confirmed_gain_per_game"] = [mean, round(mean - half, 4), round(mean + half, 4)]
        else:
            data["confirmed_gain_per_game"] = [mean, None, None]
    return data


def describe(data: dict[str, Any]) -> str:
    lines = [
        f"{data['env']}, {data['players']} players, seat {data['seat']}: {data['decisions']} "
        f"decisions with a choice in {data['games']} heuristic games, {data['rollouts']} "
        f"paired rollouts per move (seed {data['seed']}), "
        + (
            f"from {data['determinizations']} worlds dealt from what the seat knows"
            if data.get("determinizations")
            else "from the true state"
        ),
        f"  the heuristic's move beaten by more than {data['z']} standard errors: "
        f"{data['gaps']} ({data['gaps'] / max(data['decisions'], 1):.1%}), by "
        f"{data['mean_gap']:.3f} in return on average; gain per game {data['gain_per_game']:.3f}",
    ]
    if data.get("confirm"):
        mean, low, high = data["confirmed_gain_per_game"]
        interval = f" ({low:+.3f}...{high:+.3f})" if low is not None else ""
        lines.append(
            f"  on {data['confirm']} fresh rollouts per gap: gain per game {mean:+.3f}"
            f"{interval} in return, {mean / 2:+.3f} in wins for the win reward"
        )
    lines += [f"  {count:4d}  {moves}" for moves, count in data["kinds"][:12]]
    return "\n".join(lines)


def build_parser() -> Any:
    parser = cli.parser("training.rollout_gaps", __doc__)
    parser.add_argument("--env", type=cli.env_id, required=True, help="the game")
    parser.add_argument("--players", type=int, default=4, help="player count")
    parser.add_argument("--games", type=int, default=40, help="heuristic games to play")
    parser.add_argument("--rollouts", type=int, default=400, help="paired rollouts per move")
    parser.add_argument("--seed", type=int, default=0, help="seed of the games and rollouts")
    parser.add_argument("--seat", type=int, default=0, help="the seat whose decisions are valued")
    parser.add_argument("--z", type=float, default=2.5, help="standard errors a gap must clear")
    parser.add_argument(
        "--confirm",
        type=int,
        default=0,
        help="fresh paired rollouts to measure each gap's gain again (0: off)",
    )
    parser.add_argument(
        "--determinizations",
        type=int,
        default=0,
        help="worlds dealt from what the seat knows (Game.resample) that the rollouts "
        "cycle through; 0 plays out the true state, hidden values included",
    )
    parser.add_argument("--json", type=Path, default=None, help="write every decision here")
    return parser


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        data = rollout_gaps(args.env, args.players, args.games, args.rollouts, args.seed,
                            args.seat, args.z, args.confirm, args.determinizations)  # fmt: skip
    except ValueError as exc:  # a bad count or seat: one line, as argparse reports its own
        parser.error(str(exc))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(data))
    print(describe(data))
    return data


if __name__ == "__main__":
    main()
