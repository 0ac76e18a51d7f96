"""Search distillation: fit a model to the moves of a search, on the states the model
itself reaches (the expert-iteration step of Anthony, Tian and Barber 2017, and of AlphaZero
without its self-play: the search here rolls out with the heuristic). The teacher is the
IS-MCTS search (``mcts...``), the rollout-improved heuristic (``rollout...``: the
heuristic's move unless paired rollouts show another one better), or, in Jungle Sweep,
the broom lookahead of ``training.broom_lookahead`` (``broom-lookahead[:BLEND[:RIVAL]]``) or
the round rollouts of ``training.round_rollout``
(``round-rollout[:ROLLOUTS][:z=Z][:rival=R][:field=F]``).

    python -m training.distill --env ElephantFestival --init MODEL [--players 4]
        [--teacher mcts:300] [--rounds 1] [--games 200] [--beta 0.5] [--epochs 4]
        [--lr 0.0003] [--batch-size 256] [--workers 2] [--seed 0]
        [--target visits|best|values] [--temperature 0.05] [--min-share 0]
        [--overruled-weight 1] [--move-layers N] [--refit-layers N]
        [--opponents random|'{"heuristic": 0.5, "random": 0.5}'|ppo|MODEL.zip]
        [--out runs/distill/<Game>-<N>p]

``--init`` is the model to improve (e.g. the run's imitation model, or a shipped agent);
it keeps its network (``--move-layers`` deepens its move scorer first, without changing
what it plays: ``jungle_envs.move_policy.deepen``) and env options. Each round plays
``--games`` games on worker processes against the config's first opponents (or
``--opponents``: built-in players, or a trained agent in every other seat, ``ppo`` or a
model's path, which makes the games self-play): at every decision of the learner's seat
the search is asked (``--teacher``, any ``mcts`` or ``rollout`` name) and its share of
root visits per move is kept as the target (the rollout and broom teachers': their move); the
search's move is played with probability ``--beta``, the model's own (sampled) move
otherwise, so the data covers the model's own mistakes (DAgger, as ``training.imitate``).
The model is then fitted on all rounds' data by cross-entropy to the visit shares (a soft
target: a near tie in the search stays a near tie; ``--target best``: the teacher's move
alone; ``--target values``: a softmax of the round rollouts' value of each move at
``--temperature``, see ``training.move_targets``) and its value head to the learner's
return, and the next round plays with the fitted model. ``--refit-layers N`` ends with one
more fit: a fresh copy of ``--init``, deepened to ``N`` layers, fitted on every round's data
(the rounds' students gather the data; the deeper network learns it once, from the init
that played well, rather than after rounds of refitting a small one).

Game i of round r is seeded ``1_000_000 + 100_000 * seed + 10_000 * r + i``: far from the
seeds the evaluations and tables use (0-99,999). ``out/round-R.npz`` keeps each round's
data, so ``--data`` can fit again without searching; ``out/distill.json`` records every
round (decisions, how often the model picked the search's move before and after the fit,
losses, seconds) and ``out/model.zip`` is the result, which ``training.train --set
init=MODEL`` continues with PPO and ``training.ship`` ships.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np

from jungle_envs.core.files import atomic_write_text
from training import cli
from training.cli import fail
from training.config import ConfigError, load_config
from training.imitate import first_opponents
from training.move_targets import TARGETS, TEMPERATURE, move_targets
from training.search_data import (
    BROOM_TEACHER,
    JUNGLE_SWEEP_TEACHERS,
    ROUND_TEACHER,
    check_jungle_sweep_teacher,
    search_data,
)
from training.validate import check_config, split_opponents


def policy_outputs(policy: Any, obs: Any, masks: np.ndarray) -> tuple[Any, Any]:
    """The masked log-probabilities of every action and the value, in one forward pass."""
    import torch

    features = policy.extract_features(obs)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    logits = policy.action_net(latent_pi)
    logits = logits.masked_fill(~torch.as_tensor(masks), -1e9)
    return torch.log_softmax(logits, dim=1), policy.value_net(latent_vf).flatten()


def agreement(model: Any, data: dict[str, np.ndarray]) -> float:
    """How often the model's most likely move is the search's most visited one."""
    import torch

    with torch.no_grad():
        log_probs, _ = policy_outputs(
            model.policy, torch.as_tensor(data["obs"]), data["masks"].astype(bool)
        )
    return float((log_probs.argmax(1).numpy() == data["visits"].argmax(1)).mean())


def fit(
    model: Any, data: dict[str, np.ndarray], epochs: int, batch_size: int, lr: float,
    seed: int, target: str = "visits", min_share: float = 0.0, overruled_weight: float = 1.0,
    temperature: float = TEMPERATURE,
) -> dict[str, float]:  # fmt: skip
    """Cross-entropy to the move targets (``move_targets``) plus ``vf_coef`` x the value
    error (over the returns' variance, as ``training.imitate.fit``)."""
    import torch

    policy, rng = model.policy, np.random.default_rng(seed)
    for group in policy.optimizer.param_groups:
        group["lr"] = lr
    obs, masks = data["obs"], data["masks"].astype(bool)
    visits, weights = move_targets(
        data["visits"].astype(np.float64), target, min_share, data.get("overruled"),
        overruled_weight, data.get("values"), temperature,
    )  # fmt: skip
    returns = data["returns"].astype(np.float32)
    scale = max(float(returns.var()), 1.0)
    policy.set_training_mode(True)
    losses = []
    for _ in range(epochs):
        for batch in np.array_split(rng.permutation(len(obs)), max(1, len(obs) // batch_size)):
            log_probs, values = policy_outputs(policy, torch.as_tensor(obs[batch]), masks[batch])
            wanted, weight = torch.as_tensor(visits[batch]), torch.as_tensor(weights[batch])
            move_loss = -((wanted * log_probs).sum(1) * weight).sum() / weight.sum().clamp(min=1)
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


def merge(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The parts' columns end to end (the columns every part has: older data lacks some)."""
    keys = [k for k in parts[0] if all(k in p for p in parts)]
    return {k: np.concatenate([p[k] for p in parts]) for k in keys}


def overruled_only(data: dict[str, np.ndarray]) -> dict[str, np.ndarray] | None:
    """The decisions where the rollout teacher overruled the heuristic (None: none)."""
    chosen = data.get("overruled")
    if chosen is None or not chosen.any():
        return None
    return {k: v[chosen] for k, v in data.items()}


def distill(
    config: dict[str, Any], players: int, init: Path, out: Path, *, teacher: str, rounds: int,
    games: int, beta: float, epochs: int, batch_size: int, lr: float, workers: int,
    seed: int = 0, data: list[Path] | None = None, quiet: bool = True,
    target: str = "visits", min_share: float = 0.0, overruled_weight: float = 1.0,
    move_layers: int | None = None, refit_layers: int | None = None,
    temperature: float = TEMPERATURE, opponents: Any = None,
) -> Path:  # fmt: skip
    """Rounds of search data and fits, starting from ``init``; saves ``out/model.zip``
    (with ``refit_layers``: ``init`` deepened to that many layers and fitted on all the
    rounds' data). ``opponents`` plays the other seats (None: the config's first built-in
    ones)."""
    import torch

    from training.common import torch_threads
    from training.selfplay import atomic_save

    out.mkdir(parents=True, exist_ok=True)
    model = deepened(init, move_layers, seed)  # plays as init until its first fit
    torch.set_num_threads(1 if workers > 1 else torch_threads(None))
    parts = [dict(np.load(path)) for path in data or []]
    student, log, start = Path(init), [], time.perf_counter()
    for r in range(rounds):
        began = time.perf_counter()
        part = search_data(config, players, student, teacher, games, beta, workers, seed, r,
                           quiet, opponents)  # fmt: skip
        np.savez_compressed(out / f"round-{r}.npz", **part)
        parts.append(part)
        searched = time.perf_counter()
        everything = merge(parts)
        before = agreement(model, part)
        overruled = overruled_only(part)
        overruled_before = agreement(model, overruled) if overruled else None
        losses = fit(model, everything, epochs, batch_size, lr, seed + r, target, min_share,
                     overruled_weight, temperature)  # fmt: skip
        student = out / f"round-{r}.zip"
        atomic_save(model, student)
        entry = {"round": r, "games": games, "decisions": len(part["obs"]),
                 "all_decisions": len(everything["obs"]),
                 "search_won": round(float(part["won"].mean()), 4),
                 "overruled": int(part["overruled"].sum()) if "overruled" in part else 0,
                 "agreement_before": round(before, 4),
                 "agreement_after": round(agreement(model, part), 4), **losses,
                 "search_seconds": round(searched - began, 1),
                 "fit_seconds": round(time.perf_counter() - searched, 1)}  # fmt: skip
        if overruled:  # where the teacher left the heuristic: what the fit is for
            entry["agreement_overruled_before"] = round(overruled_before, 4)
            entry["agreement_overruled_after"] = round(agreement(model, overruled), 4)
        log.append(entry)
        print(json.dumps(entry), flush=True)
    if rounds == 0:  # fit the given data only
        everything = merge(parts)
        losses = fit(model, everything, epochs, batch_size, lr, seed, target, min_share,
                     overruled_weight, temperature)  # fmt: skip
        after = round(agreement(model, everything), 4)
        log.append({"round": "data", "all_decisions": len(everything["obs"]),
                    "agreement_after": after, **losses})  # fmt: skip
        print(json.dumps(log[-1]), flush=True)
    if refit_layers is not None and rounds > 0:
        began, everything = time.perf_counter(), merge(parts)
        model = deepened(init, refit_layers, seed)
        before = agreement(model, everything)
        losses = fit(model, everything, epochs, batch_size, lr, seed, target, min_share,
                     overruled_weight, temperature)  # fmt: skip
        log.append({"round": "refit", "move_layers": refit_layers,
                    "all_decisions": len(everything["obs"]),
                    "agreement_before": round(before, 4),
                    "agreement_after": round(agreement(model, everything), 4), **losses,
                    "fit_seconds": round(time.perf_counter() - began, 1)})  # fmt: skip
        print(json.dumps(log[-1]), flush=True)
    atomic_save(model, out / "model.zip")
    settings = {"init": str(init), "teacher": teacher, "rounds": rounds, "games": games,
                "beta": beta, "epochs": epochs, "batch_size": batch_size, "lr": lr,
                "target": target, "temperature": temperature, "min_share": min_share,
                "overruled_weight": overruled_weight,
                "move_layers": move_layers, "refit_layers": refit_layers,
                "opponents": first_opponents(config) if opponents is None else opponents,
                "seed": seed,
                "data": [str(p) for p in data or []]}  # fmt: skip
    record = {"env": config["env"], "players": players, "settings": settings, "rounds": log,
              "seconds": round(time.perf_counter() - start, 1)}  # fmt: skip
    atomic_write_text(out / "distill.json", json.dumps(record, indent=2))
    return out / "model.zip"


def deepened(init: Path, move_layers: int | None, seed: int) -> Any:
    """``init`` loaded, its move scorer deepened to ``move_layers`` (None: as it is); the
    added blocks' starting weights come from ``seed``, so a run repeats."""
    import torch

    from jungle_envs.maskable_ppo import load_maskable_ppo

    model = load_maskable_ppo(init)
    if move_layers is not None:
        from jungle_envs.move_policy import deepen

        with torch.random.fork_rng():
            torch.manual_seed(seed)
            deepen(model, move_layers)
    return model


def parse_args(argv: list[str] | None = None):
    parser = cli.parser("training.distill", __doc__)
    parser.add_argument("--env", type=cli.env_id, required=True, help="env id or game name")
    parser.add_argument("--init", type=Path, required=True, help="the model to improve")
    parser.add_argument("--players", type=int, help="player count (None: the model's)")
    parser.add_argument("--teacher", default="mcts:300",
                        help="mcts..., rollout..., or in Jungle Sweep "
                        "broom-lookahead[:BLEND[:RIVAL]] or round-rollout[:ROLLOUTS]")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=1, help="rounds of search and fit")
    parser.add_argument("--games", type=int, default=200, help="games per round")
    parser.add_argument("--beta", type=float, default=0.5,
                        help="chance that the search's move is played")  # fmt: skip
    parser.add_argument("--epochs", type=int, default=4, help="passes over the data per fit")
    parser.add_argument("--batch-size", type=int, default=256, help="minibatch size")
    parser.add_argument("--lr", type=float, default=3e-4, help="learning rate of the fit")
    parser.add_argument("--target", choices=TARGETS, default="visits",
                        help="fit the visit shares, the teacher's move alone, or a softmax "
                        "of the teacher's move values (training.move_targets)")  # fmt: skip
    parser.add_argument("--temperature", type=float, default=TEMPERATURE,
                        help="the values target's softmax temperature, in value units")  # fmt: skip
    parser.add_argument("--min-share", type=float, default=0.0,
                        help="skip decisions whose top move has a smaller share")  # fmt: skip
    parser.add_argument("--overruled-weight", type=float, default=1.0,
                        help="weight of the decisions where a rollout, broom or round teacher "
                        "overruled the heuristic")  # fmt: skip
    parser.add_argument("--move-layers", type=int, default=None,
                        help="deepen the model's move scorer to this many layers first "
                        "(jungle_envs.move_policy.deepen; None: keep it)")  # fmt: skip
    parser.add_argument("--refit-layers", type=int, default=None,
                        help="end by fitting --init, deepened to this many layers, on every "
                        "round's data (None: the last round's student is the result)")  # fmt: skip
    parser.add_argument("--opponents", default=None,
                        help="the other seats: a name the env takes (random, heuristic, ppo, a "
                        "model's path), one per seat (a,b,c) or a mixture as JSON "
                        "({\"heuristic\": 0.5, \"random\": 0.5}); None: the config's first "
                        "opponents")  # fmt: skip
    parser.add_argument("--workers", type=int, default=2, help="processes playing games")
    parser.add_argument("--seed", type=int, default=0, help="seed of the games (see above)")
    parser.add_argument("--data", type=Path, nargs="*", default=[],
                        help="round-R.npz files of earlier runs to fit on as well")  # fmt: skip
    parser.add_argument("--out", type=Path, help="folder (None: runs/distill/<Game>-<N>p)")
    args = parser.parse_args(argv)
    if not args.teacher.startswith(("mcts", "rollout", *JUNGLE_SWEEP_TEACHERS)):
        fail(
            f"distill: error: --teacher must be a search (mcts... or rollout...), "
            f"{BROOM_TEACHER}[:BLEND[:RIVAL]] or {ROUND_TEACHER}[:ROLLOUTS][:z=Z][:rival=R], "
            f"got {args.teacher!r}"
        )
    if not 0 <= args.beta <= 1:
        fail(f"distill: error: --beta must be between 0 and 1, got {args.beta}")
    if not 0 <= args.min_share <= 1:
        fail(f"distill: error: --min-share must be between 0 and 1, got {args.min_share}")
    if args.move_layers is not None and args.move_layers < 1:
        fail(f"distill: error: --move-layers must be >= 1, got {args.move_layers}")
    if args.refit_layers is not None and (args.refit_layers < 1 or args.rounds == 0):
        fail(
            "distill: error: --refit-layers must be >= 1 and needs rounds of search "
            "(with --rounds 0, --move-layers fits the given data from a deepened init)"
        )
    if not (math.isfinite(args.temperature) and args.temperature > 0):
        fail(f"distill: error: --temperature must be > 0, got {args.temperature}")
    if args.target == "values" and args.rounds and not args.teacher.startswith(ROUND_TEACHER):
        fail(f"distill: error: --target values needs a teacher that values every move "
             f"({ROUND_TEACHER}...), got {args.teacher!r}")  # fmt: skip
    if not (math.isfinite(args.overruled_weight) and args.overruled_weight > 0):
        fail(f"distill: error: --overruled-weight must be > 0, got {args.overruled_weight}")
    if not 0 < args.lr < 1:
        fail(f"distill: error: --lr must be a number between 0 and 1, got {args.lr}")
    counts = (("--games", args.games), ("--epochs", args.epochs),
              ("--batch-size", args.batch_size), ("--workers", args.workers))  # fmt: skip
    for flag, value in counts:
        if value < 1:
            fail(f"distill: error: {flag} must be an integer >= 1, got {value}")
    if args.rounds < 0 or (args.rounds == 0 and not args.data):
        fail("distill: error: --rounds must be >= 1, or 0 with --data to fit saved data only")
    for path in [args.init, *args.data]:
        if not path.is_file():
            fail(f"distill: error: no such file: {path}")
    for path in args.data if args.target == "values" else []:
        if "values" not in np.load(path).files:
            fail(f"distill: error: --target values: {path} has no move values (a "
                 f"{ROUND_TEACHER} round saves them)")  # fmt: skip
    return args


def run_config(env_id: str, init: Path, players: int | None = None) -> tuple[dict, int]:
    """The game's config with the env options ``init`` was trained with, and the player
    count: ``players``, else the model's, else the config's."""
    from jungle_envs.maskable_ppo import load_maskable_ppo, trained_on

    made = trained_on(load_maskable_ppo(init)) or {}
    config = load_config(env_id, None, [], players or made.get("num_players"))
    check_config(config)
    config["env_options"] = dict(made.get("env_options", config["env_options"]))
    return config, players or made.get("num_players") or config["players"]


def with_opponents(players: int, env_id: str, spec: str) -> Any:
    """The other seats' players of ``--opponents``: built-in names, a mixture, or models
    (``ppo``, a model's path: the games are then played among copies of a trained agent,
    self-play for the learner's seat); a spec the env does not take is refused as one
    line."""
    import gymnasium

    import jungle_envs  # noqa: F401  (registers the envs)

    try:
        opponents = json.loads(spec) if spec.lstrip().startswith("{") else split_opponents(spec)
    except json.JSONDecodeError as exc:
        fail(f"distill: error: --opponents: not a JSON mixture: {exc}")
    try:
        gymnasium.make(env_id, num_players=players, opponents=opponents).close()
    except (ValueError, TypeError, FileNotFoundError) as exc:
        fail(f"distill: error: --opponents: {exc}")
    return opponents


def main(argv: list[str] | None = None) -> Path:
    from jungle_envs.search import MCTS, Rollout

    args = parse_args(argv)
    try:
        config, players = run_config(args.env, args.init, args.players)
    except ConfigError as exc:
        fail(f"config error: {exc}")
    try:
        if args.teacher.startswith(JUNGLE_SWEEP_TEACHERS):
            check_jungle_sweep_teacher(args.teacher, config, players)
        else:
            (Rollout if args.teacher.startswith("rollout") else MCTS).from_name(args.teacher)
    except ValueError as exc:
        fail(f"distill: error: --teacher: {exc}")
    opponents = None
    if args.opponents is not None:
        opponents = with_opponents(players, config["env"], args.opponents)
    for flag, layers in (("--move-layers", args.move_layers),
                         ("--refit-layers", args.refit_layers)):  # fmt: skip
        if layers is not None:  # refused before any game is played
            try:
                deepened(args.init, layers, args.seed)
            except ValueError as exc:
                fail(f"distill: error: {flag}: {exc}")
    stem = args.env.split("/")[-1].removesuffix("-v0")
    out = args.out or Path("runs") / "distill" / f"{stem}-{players}p"
    model = distill(
        config, players, args.init, out, teacher=args.teacher, rounds=args.rounds,
        games=args.games, beta=args.beta, epochs=args.epochs, batch_size=args.batch_size,
        lr=args.lr, workers=args.workers, seed=args.seed, data=args.data, quiet=False,
        target=args.target, min_share=args.min_share, overruled_weight=args.overruled_weight,
        move_layers=args.move_layers, refit_layers=args.refit_layers,
        temperature=args.temperature, opponents=opponents,
    )  # fmt: skip
    print(f"model: {model}")
    return model


if __name__ == "__main__":
    main()
