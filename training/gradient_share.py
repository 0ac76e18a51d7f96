"""How much of a PPO update's pull on the layers the policy and the value head share comes
from each loss.

    python -m training.gradient_share jungle_envs/agents/ElephantFestival-4p.zip \\
        [--seats learner,snapshot,snapshot,snapshot] [--greedy-snapshots] \\
        [--option reward=\\"margin\\"] [--decisions 8192] [--seed 126000] [--threads 2]

The move-scoring network (``jungle_envs.move_policy``) scores moves from a state
embedding that its value head reads too, so both losses train that embedding. The
command plays one rollout of the all-seat batch as ``training.allseat`` does (the model
in the learner seats, copies of it in the snapshot seats), builds PPO's buffer of those
decisions, and takes the gradient of each term of MaskablePPO's loss over the whole
buffer: the clipped policy term with the entropy bonus, and ``vf_coef`` x the value
error. It prints both norms over the parameters that both terms reach, their ratio, and
the ``vf_coef`` at which they would pull equally. A value term hundreds of times larger
means an update mostly reshapes the embedding to fit returns, and the move scores that
read it shift as a side effect (``--vf-coef`` in ``training.allseat`` lowers its weight).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from sb3_contrib import MaskablePPO

from jungle_envs.maskable_ppo import trained_on
from training import cli
from training.allseat import AllSeatTrainer, parse_seats, run_options
from training.cli import fail, load_model_or_fail


def loss_gradients(model: MaskablePPO, buffer: Any) -> dict[str, Any]:
    """The gradients of the policy term (with the entropy bonus) and of the weighted value
    term of MaskablePPO's loss over ``buffer``, summed over its minibatches as one batch."""
    policy = model.policy
    policy.set_training_mode(True)
    params = [p for p in policy.parameters() if p.requires_grad]
    sums = {"policy": [th.zeros_like(p) for p in params],
            "value": [th.zeros_like(p) for p in params]}  # fmt: skip
    clip = float(model.clip_range(1.0))
    total = buffer.buffer_size * buffer.n_envs
    next(buffer.get(total))  # flattens the buffer's arrays once, as PPO's first pass does
    # minibatches as PPO draws them, from a fixed shuffle: advantages are normalised per
    # minibatch, so the same split gives the same numbers on every run
    order = np.random.default_rng(0).permutation(total)
    for start in range(0, total, model.batch_size):
        data = buffer._get_samples(order[start : start + model.batch_size])
        advantages = data.advantages
        if model.normalize_advantage and len(advantages) > 1:
            advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
        values, log_prob, entropy = policy.evaluate_actions(
            data.observations, data.actions.long().flatten(), action_masks=data.action_masks
        )
        ratio = th.exp(log_prob - data.old_log_prob)
        surrogate = th.min(advantages * ratio, advantages * th.clamp(ratio, 1 - clip, 1 + clip))
        entropy_loss = -th.mean(-log_prob) if entropy is None else -th.mean(entropy)
        terms = {
            "policy": -surrogate.mean() + model.ent_coef * entropy_loss,
            "value": model.vf_coef * th.nn.functional.mse_loss(data.returns, values.flatten()),
        }
        weight = len(advantages) / total  # the minibatch's share of the whole buffer
        for name, loss in terms.items():
            grads = th.autograd.grad(loss, params, retain_graph=True, allow_unused=True)
            for acc, grad in zip(sums[name], grads, strict=True):
                if grad is not None:
                    acc += weight * grad
    return {"params": params, **sums}


def shared_norms(gradients: dict[str, Any]) -> tuple[float, float, int]:
    """Norms of the policy and value gradients over the parameters both reach, and how
    many parameter tensors that is."""
    shared = [i for i, (g, h) in enumerate(zip(gradients["policy"], gradients["value"],
                                                strict=True)) if g.any() and h.any()]  # fmt: skip

    def norm(name: str) -> float:
        return float(sum(float((gradients[name][i] ** 2).sum()) for i in shared) ** 0.5)

    return norm("policy"), norm("value"), len(shared)


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = cli.parser("training.gradient_share", __doc__)
    parser.add_argument("model", type=Path, help="the MaskablePPO model (.zip)")
    parser.add_argument("--seats", default="learner,snapshot,snapshot,snapshot",
                        help="per seat, as training.allseat's --seats")  # fmt: skip
    parser.add_argument("--greedy-snapshots", action="store_true",
                        help="snapshot seats play their likeliest move")  # fmt: skip
    parser.add_argument("--option", action="append", default=[],
                        help="an env option key=value (JSON) over the model's own")  # fmt: skip
    parser.add_argument("--decisions", type=int, default=8192, help="learner decisions")
    parser.add_argument("--seed", type=int, default=126_000, help="env i is dealt seed + i")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads")
    args = parser.parse_args(argv)
    if args.decisions < 1:
        parser.error(f"--decisions must be at least 1, got {args.decisions}")
    model = load_model_or_fail(args.model)
    record = trained_on(model)
    if not record:
        fail(f"{args.model} does not record its game (train it with this package's tools)")
    th.set_num_threads(args.threads)
    players = int(record["num_players"])
    game = record["env"].split("/")[-1].removesuffix("-v0")
    try:
        seats = parse_seats(args.seats, players)
    except ValueError as exc:
        parser.error(str(exc))
    options = run_options(argparse.Namespace(init=str(args.model), option=args.option))
    trainer = AllSeatTrainer(model, game, players, seats, options, rollout=args.decisions,
                             seed=args.seed, snapshot_every=0,
                             greedy_snapshots=args.greedy_snapshots)  # fmt: skip
    try:
        trainer.collect()
        buffer = trainer.closed_buffer()
    finally:
        trainer.close()
    policy_norm, value_norm, shared = shared_norms(loss_gradients(model, buffer))
    returns = buffer.returns.ravel()
    result = {
        "decisions": float(len(returns)),
        "returns_std": float(np.std(returns)),
        "policy_norm": policy_norm,
        "value_norm": value_norm,
        "ratio": value_norm / policy_norm if policy_norm else float("inf"),
        "vf_coef": float(model.vf_coef),
    }
    if not shared:
        print(f"{args.model}: the policy and the value head share no trained parameter")
        return result
    result["equal_vf_coef"] = model.vf_coef * policy_norm / value_norm if value_norm else 0.0
    print(
        f"{game}, {players} players, reward {options.get('reward', 'win')}: "
        f"{len(returns):,} decisions, returns' std {result['returns_std']:.3f}\n"
        f"  over the {shared} parameter tensors both terms reach: policy term "
        f"{policy_norm:.4g}, value term (vf_coef {model.vf_coef:g}) {value_norm:.4g}: "
        f"the value term is {result['ratio']:.3g} x the policy term\n"
        f"  the two would pull equally at vf_coef {result['equal_vf_coef']:.3g}"
    )
    return result


if __name__ == "__main__":
    main()
