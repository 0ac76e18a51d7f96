"""Save a copy of a MaskablePPO model whose logits are multiplied by a factor.

    python -m training.sharpen MODEL.zip OUT.zip --factor 50

The copy's likeliest move is the model's own in every position; the moves it draws
(``opponents="ppo-sample:OUT.zip"``, or as a learner in training) come closer to it as
the factor grows (a sampling temperature of ``1 / factor``). What it records it was
trained on is kept, so it loads wherever the model does. ``training.allseat --sharpen K``
continues a model from such a copy (docs/multiagent.md says why).
"""

from __future__ import annotations

from pathlib import Path

from training import cli
from training.cli import load_model_or_fail
from training.common import sharpen_logits
from training.selfplay import atomic_save


def main(argv: list[str] | None = None) -> Path:
    parser = cli.parser("training.sharpen", __doc__)
    parser.add_argument("model", type=Path, help="the MaskablePPO model (.zip)")
    parser.add_argument("out", type=Path, help="where the sharper copy goes (.zip)")
    parser.add_argument("--factor", type=float, required=True, help="logits times this (> 0)")
    args = parser.parse_args(argv)
    if not args.factor > 0:
        parser.error(f"--factor must be positive, got {args.factor}")
    model = load_model_or_fail(args.model)
    sharpen_logits(model, args.factor)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    atomic_save(model, args.out)
    print(f"saved {args.out}: the logits of {args.model} times {args.factor:g}")
    return args.out


if __name__ == "__main__":
    main()
