"""A MaskablePPO policy's value path alone, lean, for callers that ask it often.

A search that values its new nodes with the guide's value head (``jungle_envs.search.leaf``)
asks for a few observations at a time, hundreds of times a decision. ``predict_values``
then costs several times the arithmetic: it runs the policy's half of the features too
(every move's score) and goes through the modules' Python layers, and PyTorch's threads
(or OpenBLAS's, for NumPy) wait on each other for a 4-row batch, badly so when the other
core is busy. ``ValueHead`` replays only the value path, layer by layer, on
the policy's own parameters (so a model that keeps training is never read stale) and on
one PyTorch thread: the flat MLP policy (``features -> mlp_extractor.value_net ->
value_net``) and the move-scoring policy (the state embedding of ``MoveScoring``, then
the same). Any other structure is ``None`` from ``value_head``, and the caller keeps
``predict_values``.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _layers(module: Any) -> list[Any] | None:
    """``module`` (a layer or an ``nn.Sequential`` of them) as a list of steps, or None."""
    from torch import nn

    from jungle_envs.move_policy import Embedding

    if isinstance(module, nn.Sequential):
        steps: list[Any] = []
        for inner in module:
            found = _layers(inner)
            if found is None:
                return None
            steps += found
        return steps
    if isinstance(module, (nn.Linear, nn.ReLU, nn.Tanh)):
        return [module]
    if isinstance(module, (nn.Flatten, nn.Identity, Embedding)):
        return []  # a flat observation; the value path computes only the embedding
    return None


class ValueHead:
    """``policy``'s value of each observation row (see the module doc); made by
    ``value_head``, which checks that the policy has this structure."""

    def __init__(self, policy: Any, keep: np.ndarray | None, steps: list[Any]) -> None:
        self.policy, self.keep, self.steps = policy, keep, steps

    def __call__(self, observations: np.ndarray) -> np.ndarray:
        import torch
        from torch.nn import functional

        x = np.asarray(observations, dtype=np.float32)
        if self.keep is not None:
            x = x[:, self.keep]
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            with torch.no_grad():
                out = torch.from_numpy(np.ascontiguousarray(x))
                for step in self.steps:
                    if isinstance(step, torch.nn.Linear):
                        out = functional.linear(out, step.weight, step.bias)
                    elif isinstance(step, torch.nn.ReLU):
                        out = torch.relu(out)
                    else:
                        out = torch.tanh(out)
        finally:
            torch.set_num_threads(threads)
        return out.numpy().reshape(-1).astype(np.float64)


def value_head(policy: Any) -> ValueHead | None:
    """A ``ValueHead`` for ``policy``, or None where its value path has another form (a
    dict observation, another features extractor or layer)."""
    from jungle_envs.move_policy import MoveScoring

    if hasattr(policy.observation_space, "spaces"):
        return None
    extractor = policy.features_extractor
    if not policy.share_features_extractor:
        extractor = policy.vf_features_extractor
    keep, front = None, _layers(extractor.flatten) if hasattr(extractor, "flatten") else None
    if isinstance(extractor, MoveScoring):
        size = int(np.prod(policy.observation_space.shape))
        keep = np.r_[0 : extractor.moves_at, extractor.moves_end : size]
        front = _layers(extractor.state)
    rest = [_layers(policy.mlp_extractor.value_net), _layers(policy.value_net)]
    if front is None or any(part is None for part in rest):
        return None
    return ValueHead(policy, keep, front + rest[0] + rest[1])
