"""Fitted move values: one step of policy improvement over the heuristic, fitted by a network.

    python -m training.advantage --env JungleSweep --init MODEL [--players 4] [--games 2000]
        [--rollouts 4] [--determinizations 4] [--value blend] [--temperature 0.1]
        [--anchor model] [--epochs 4] [--lr 0.0003] [--batch-size 512] [--workers 2]
        [--seed 0] [--data NPZ ...] [--holdout NPZ ...] [--out runs/advantage/<Game>-<N>p]

The rollout-improved heuristic (``rollout:400``) beats the heuristic because at a few
decisions in a hundred another move's paired playouts are clearly better; a network fitted
to its choices needs many of those decisions, and at 400 playouts a move they come at about
two a second. This tool spends the playouts the other way: a few paired playouts at very
many decisions (every decision with a choice, every seat, of ``--games`` heuristic games;
playout k of every move from the same world dealt from what the seat knows and on the same
random streams), and the network is to learn the heuristic's move values by regression,
where the noise of a handful of playouts averages out over similar decisions (approximate
policy iteration: Lagoudakis and Parr 2003).

The fit makes the network's logits, centred over the legal moves, regress onto the
anchor's centred logits plus the moves' centred values over ``--temperature``. With
``--anchor model`` (the model's own logits before the fit) that is the KL-regularised
improvement step ``pi_new ~ pi_old x exp(value / temperature)``, so the fit starts where
the model is; ``--anchor heuristic`` starts from one logit on the heuristic's move. The
value head fits the returns. ``--holdout`` files are never fitted: the value gained per
decision by the model's choices there, against the heuristic's move, is an estimate of the
fit's gain free of the bias of choosing on the same noise (``OUT/advantage.json`` has it
before and after the fit, with the settings and seconds). ``OUT/data.npz`` keeps the valued
decisions (``--data`` fits them again without playing) and ``OUT/model.zip`` is a
MaskablePPO model that ``training.compare`` measures and ``opponents="ppo:PATH"`` plays.

Game i is seeded ``2_000_000 + 100_000 * seed + i``: clear of the seeds the evaluations and
tables use (0-199,999) and of ``training.distill``'s.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import time
from pathlib import Path
from typing import Any

import numpy as np

from jungle_envs.core.files import atomic_write_text
from training import cli
from training.cli import fail

SEED_BASE = 2_000_000
KEYS = ("obs", "masks", "values", "heuristic", "returns", "seat")


def game_seed(seed: int, index: int) -> int:
    return SEED_BASE + 100_000 * seed + index


def _play(job: tuple) -> dict[str, np.ndarray]:
    """Worker: the decisions of the heuristic games ``indices``, each legal move valued."""
    env_id, players, options, rollouts, determinizations, value, seed, indices = job
    import jungle_envs
    from jungle_envs.core.compiled import runner
    from jungle_envs.core.compiled.twin import Twin
    from jungle_envs.core.game import CHANCE
    from jungle_envs.search.worlds import playout_value

    game = jungle_envs.game_class(env_id)(num_players=players, **options)
    twin, heuristic = Twin(game), game.heuristic_policy()
    kinds = np.full(players, runner.HEURISTIC, dtype=np.int8)
    columns: dict[str, list] = {k: [] for k in KEYS}
    for index in indices:
        rng = np.random.default_rng(game_seed(seed, index))
        state, start = game.new_state(), len(columns["obs"])
        while (player := game.current_player(state)) >= 0 or player == CHANCE:
            if player == CHANCE:
                game._apply_chance(state, game.sample_chance(state, rng))
                continue
            mask = game.legal_mask(state)
            obs = game.observe(state, player)
            move = int(heuristic.act(obs, mask, rng))
            legal = np.flatnonzero(mask)
            if len(legal) > 1:
                worlds = [twin.pack(game.resample(state, player, rng))
                          for _ in range(min(determinizations, rollouts))]  # fmt: skip
                streams = rng.integers(0, 2**64, size=(rollouts, 2), dtype=np.uint64)
                values = np.full(game.spec.num_actions, np.nan, dtype=np.float32)
                for action in legal.tolist():
                    total = 0.0
                    for k in range(rollouts):
                        returns, scores = twin.playout(
                            worlds[k % len(worlds)].copy(), streams[k], kinds, action
                        )
                        total += playout_value(value, returns, scores)[player]
                    values[action] = total / rollouts
                for key, item in zip(KEYS[:5], (obs, mask, values, move, 0.0), strict=True):
                    columns[key].append(item)
                columns["seat"].append(player)
            game._apply_action(state, move)
        final = game.returns(state)
        for i in range(start, len(columns["obs"])):
            columns["returns"][i] = float(final[columns["seat"][i]])
    return {
        "obs": np.asarray(columns["obs"], dtype=np.float32).reshape(-1, game.observation_size),
        "masks": np.asarray(columns["masks"], dtype=bool).reshape(-1, game.spec.num_actions),
        "values": np.asarray(columns["values"], dtype=np.float32).reshape(
            -1, game.spec.num_actions
        ),
        "heuristic": np.asarray(columns["heuristic"], dtype=np.int64),
        "returns": np.asarray(columns["returns"], dtype=np.float32),
        "seat": np.asarray(columns["seat"], dtype=np.int64),
    }


def collect(
    env_id: str, players: int, options: dict, games: int, rollouts: int,
    determinizations: int, value: str, workers: int, seed: int, quiet: bool = True,
) -> list[dict[str, np.ndarray]]:  # fmt: skip
    """Worker ``w`` plays games ``w, w + workers, ...``; one part per worker (the data do
    not depend on how many there are: every game has its own seed)."""
    chunks = [list(range(k, min(k + 10, games))) for k in range(0, games, 10)]
    jobs = [(env_id, players, options, rollouts, determinizations, value, seed, c)
            for c in chunks]  # fmt: skip
    if workers <= 1:
        parts = list(cli.progress(map(_play, jobs), len(jobs), "valued games", quiet))
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = list(cli.progress(pool.imap(_play, jobs), len(jobs), "valued games", quiet))
    return parts


def merge(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {k: np.concatenate([p[k] for p in parts]) for k in KEYS}


ANCHORS = ("model", "heuristic")


def centred(table: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """``table`` less its mean over each row's legal moves, 0 where illegal."""
    table = np.where(masks, np.nan_to_num(table), 0.0).astype(np.float64)
    mean = table.sum(1, keepdims=True) / masks.sum(1, keepdims=True)
    return np.where(masks, table - mean, 0.0)


def move_targets(
    values: np.ndarray, masks: np.ndarray, anchor: np.ndarray, temperature: float
) -> np.ndarray:
    """Per decision and legal move, the anchor's logits plus the move's value over
    ``temperature``, centred over the legal moves (0 where illegal): what the centred logits
    regress onto. With the model's own logits as the anchor this is the policy
    ``pi_new ~ pi_old x exp(value / temperature)`` (the KL-regularised improvement step of
    MPO and AWR): a move replaces the model's choice where its value gain beats
    ``temperature`` x the model's logit gap."""
    return (centred(anchor, masks) + centred(values, masks) / temperature).astype(np.float32)


def model_logits(model: Any, data: dict[str, np.ndarray], batch: int = 8192) -> np.ndarray:
    """The model's log-probabilities at every decision of ``data`` (-inf where illegal)."""
    import torch

    from training.distill import policy_outputs

    rows = []
    with torch.no_grad():
        for at in range(0, len(data["obs"]), batch):
            log_probs, _ = policy_outputs(
                model.policy, torch.as_tensor(data["obs"][at : at + batch]),
                data["masks"][at : at + batch],
            )  # fmt: skip
            rows.append(log_probs.numpy())
    return np.concatenate(rows) if rows else np.zeros((0, data["masks"].shape[1]))


def anchor_logits(model: Any, data: dict[str, np.ndarray], anchor: str) -> np.ndarray:
    """What the fit starts from: the model's own logits, or one logit on the heuristic's move."""
    if anchor == "model":
        return model_logits(model, data)
    table = np.zeros(data["masks"].shape)
    table[np.arange(len(table)), data["heuristic"]] = 1.0
    return table


def choices(model: Any, data: dict[str, np.ndarray]) -> np.ndarray:
    """The model's likeliest move at every decision of ``data``."""
    return model_logits(model, data).argmax(1)


def describe_choices(picks: np.ndarray, data: dict[str, np.ndarray]) -> dict:
    """How often ``picks`` are the heuristic's move, and the data's value of them against
    the heuristic's: the mean playout value gained per decision, with a 95% interval over
    the decisions (unbiased on decisions the fit never saw)."""
    rows = np.arange(len(picks))
    values = np.nan_to_num(data["values"])
    gained = values[rows, picks] - values[rows, data["heuristic"]]
    half = 1.96 * gained.std(ddof=1) / np.sqrt(len(gained)) if len(gained) > 1 else 0.0
    mean = float(gained.mean())
    return {
        "heuristic_move": round(float((picks == data["heuristic"]).mean()), 4),
        "value_gained_per_decision": [round(mean, 5), round(mean - half, 5), round(mean + half, 5)],
    }


def fit(
    model: Any, data: dict[str, np.ndarray], temperature: float, epochs: int,
    batch_size: int, lr: float, seed: int, anchor: str = "model",
) -> dict[str, float]:  # fmt: skip
    """Centred logits onto ``move_targets`` from ``anchor`` (squared error over the legal
    moves) plus ``vf_coef`` x the value error over the returns' variance (as
    ``training.distill``)."""
    import torch

    from training.distill import policy_outputs

    policy, rng = model.policy, np.random.default_rng(seed)
    for group in policy.optimizer.param_groups:
        group["lr"] = lr
    obs, masks = data["obs"], data["masks"]
    targets = move_targets(data["values"], masks, anchor_logits(model, data, anchor), temperature)
    returns = data["returns"].astype(np.float32)
    scale = max(float(returns.var()), 1.0)
    policy.set_training_mode(True)
    losses = []
    for _ in range(epochs):
        for batch in np.array_split(rng.permutation(len(obs)), max(1, len(obs) // batch_size)):
            mask = torch.as_tensor(masks[batch])
            log_probs, values = policy_outputs(policy, torch.as_tensor(obs[batch]), masks[batch])
            # log-softmax and logits differ by a constant per row: centring removes it
            logits = torch.where(mask, log_probs, torch.zeros_like(log_probs))
            shifted = logits - logits.sum(1, keepdim=True) / mask.sum(1, keepdim=True)
            error = torch.where(mask, shifted - torch.as_tensor(targets[batch]), 0.0)
            move_loss = (error**2).sum() / mask.sum()
            value_loss = torch.nn.functional.mse_loss(values, torch.as_tensor(returns[batch]))
            loss = move_loss + model.vf_coef * value_loss / scale
            policy.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), model.max_grad_norm)
            policy.optimizer.step()
            losses.append((move_loss.item(), value_loss.item() / scale))
    policy.set_training_mode(False)
    for group in policy.optimizer.param_groups:  # PPO goes on at its own rate
        group["lr"] = model.lr_schedule(1.0)
    move, value = np.mean(losses, axis=0)
    return {"move_loss": round(float(move), 4), "value_loss": round(float(value), 4)}


def advantage(
    config: dict[str, Any], players: int, init: Path, out: Path, *, games: int, rollouts: int,
    determinizations: int, value: str, temperature: float, epochs: int, batch_size: int,
    lr: float, anchor: str,
    workers: int, seed: int = 0, data: list[Path] | None = None,
    holdout: list[Path] | None = None, quiet: bool = True,
) -> Path:  # fmt: skip
    """Value ``games`` heuristic games' moves (none with ``games=0``), fit ``init`` to them
    and to ``data``; saves ``out/model.zip``. The choices before and after the fit are
    described on the fitted data and on ``holdout`` (decisions the fit never saw, whose
    value gained per decision is an estimate without the fit's bias)."""
    import torch

    from jungle_envs.maskable_ppo import load_maskable_ppo
    from training.common import torch_threads
    from training.selfplay import atomic_save

    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    parts = [dict(np.load(path)) for path in data or []]
    if games:
        fresh = collect(config["env"], players, config["env_options"], games, rollouts,
                        determinizations, value, workers, seed, quiet)  # fmt: skip
        np.savez_compressed(out / "data.npz", **merge(fresh))
        parts.append(merge(fresh))
    valued = time.perf_counter()
    everything = merge(parts)
    model = load_maskable_ppo(init)
    torch.set_num_threads(torch_threads(None))
    held = merge([dict(np.load(path)) for path in holdout]) if holdout else None
    before = describe_choices(choices(model, everything), everything)
    held_before = describe_choices(choices(model, held), held) if held else None
    losses = fit(model, everything, temperature, epochs, batch_size, lr, seed, anchor)
    after = describe_choices(choices(model, everything), everything)
    held_after = describe_choices(choices(model, held), held) if held else None
    atomic_save(model, out / "model.zip")
    record = {
        "env": config["env"], "players": players,
        "settings": {"init": str(init), "games": games, "rollouts": rollouts,
                     "determinizations": determinizations, "value": value,
                     "temperature": temperature, "anchor": anchor,
                     "epochs": epochs, "batch_size": batch_size, "lr": lr, "seed": seed,
                     "data": [str(p) for p in data or []]},
        "decisions": len(everything["obs"]), "before": before, "after": after, **losses,
        "holdout": {"files": [str(p) for p in holdout or []],
                    "decisions": len(held["obs"]) if held else 0,
                    "before": held_before, "after": held_after},
        "value_seconds": round(valued - start, 1),
        "fit_seconds": round(time.perf_counter() - valued, 1),
    }  # fmt: skip
    atomic_write_text(out / "advantage.json", json.dumps(record, indent=2))
    print(json.dumps(record), flush=True)
    return out / "model.zip"


def parse_args(argv: list[str] | None = None):
    from jungle_envs.search.worlds import VALUES

    parser = cli.parser("training.advantage", __doc__)
    parser.add_argument("--env", type=cli.env_id, required=True, help="env id or game name")
    parser.add_argument("--init", type=Path, required=True, help="the model to fit")
    parser.add_argument("--players", type=int, help="player count (None: the model's)")
    parser.add_argument("--games", type=int, default=2000, help="heuristic games to value")
    parser.add_argument("--rollouts", type=int, default=4, help="paired playouts per move")
    parser.add_argument("--determinizations", type=int, default=4,
                        help="worlds dealt per decision from what the seat knows")  # fmt: skip
    parser.add_argument("--value", choices=VALUES, default="blend",
                        help="what a playout is worth (as the search's value)")  # fmt: skip
    parser.add_argument(
        "--temperature",
        type=float,
        default=0.1,
        help="value per logit: a move's value over it is added to its logit",
    )
    parser.add_argument("--anchor", choices=ANCHORS, default="model",
                        help="the logits the values are added to: the model's own, or one "
                        "on the heuristic's move")  # fmt: skip
    parser.add_argument("--epochs", type=int, default=4, help="passes over the data")
    parser.add_argument("--batch-size", type=int, default=512, help="minibatch size")
    parser.add_argument("--lr", type=float, default=3e-4, help="learning rate of the fit")
    parser.add_argument("--workers", type=int, default=2, help="processes valuing games")
    parser.add_argument("--seed", type=int, default=0, help="seed of the games (see above)")
    parser.add_argument("--data", type=Path, nargs="*", default=[],
                        help="data.npz files of earlier runs to fit on as well")  # fmt: skip
    parser.add_argument("--holdout", type=Path, nargs="*", default=[],
                        help="data.npz files to describe the choices on, never fitted")  # fmt: skip
    parser.add_argument("--out", type=Path, help="folder (None: runs/advantage/<Game>-<N>p)")
    args = parser.parse_args(argv)
    counts = (("--rollouts", args.rollouts, 1), ("--determinizations", args.determinizations, 1),
              ("--epochs", args.epochs, 1), ("--batch-size", args.batch_size, 1),
              ("--workers", args.workers, 1), ("--games", args.games, 0))  # fmt: skip
    for flag, number, least in counts:
        if number < least:
            fail(f"advantage: error: {flag} must be an integer >= {least}, got {number}")
    if args.games == 0 and not args.data:
        fail("advantage: error: --games 0 needs --data (saved decisions to fit)")
    if not (math.isfinite(args.temperature) and args.temperature > 0):
        fail(f"advantage: error: --temperature must be a number > 0, got {args.temperature}")
    if not 0 < args.lr < 1:
        fail(f"advantage: error: --lr must be a number between 0 and 1, got {args.lr}")
    for path in [args.init, *args.data, *args.holdout]:
        if not path.is_file():
            fail(f"advantage: error: no such file: {path}")
    return args


def main(argv: list[str] | None = None) -> Path:
    from training.config import ConfigError
    from training.distill import run_config

    args = parse_args(argv)
    try:
        config, players = run_config(args.env, args.init, args.players)
    except ConfigError as exc:
        fail(f"config error: {exc}")
    stem = args.env.split("/")[-1].removesuffix("-v0")
    out = args.out or Path("runs") / "advantage" / f"{stem}-{players}p"
    model = advantage(
        config, players, args.init, out, games=args.games, rollouts=args.rollouts,
        determinizations=args.determinizations, value=args.value, temperature=args.temperature,
        anchor=args.anchor,
        epochs=args.epochs, batch_size=args.batch_size, lr=args.lr, workers=args.workers,
        seed=args.seed, data=args.data, holdout=args.holdout, quiet=False,
    )  # fmt: skip
    print(f"model: {model}")
    return model


if __name__ == "__main__":
    main()
