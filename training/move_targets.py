"""What a distillation's move loss fits at each decision (``training.distill --target``).

- ``visits``: the search's share of root visits per move (a near tie stays a near tie).
- ``best``: the move the teacher plays, alone.
- ``values``: a softmax of the teacher's value of each move at ``--temperature`` (the round
  rollouts' mean value; Rusu et al., "Policy distillation", ICLR 2016, fit a softmax of the
  teacher's Q-values rather than its choice). A move worth little less than the best keeps
  some probability and one far behind none, so the fit spends its capacity where a choice
  costs the most. Decisions without values (one legal move, or a teacher that does not
  value moves) fall back to the teacher's move.
"""

from __future__ import annotations

import numpy as np

TARGETS = ("visits", "best", "values")
TEMPERATURE = 0.05  # in the teacher's value unit: coconuts, for the round rollouts


def value_shares(values: np.ndarray, temperature: float) -> tuple[np.ndarray, np.ndarray]:
    """Per row, softmax((value - best) / temperature) over the moves with a finite value,
    and whether the row has one at all (NaN marks a move the teacher did not value)."""
    finite = np.isfinite(values)
    valued = finite.any(axis=1)
    best = np.where(valued, np.where(finite, values, -np.inf).max(axis=1), 0.0)
    scaled = np.where(finite, (np.where(finite, values, 0.0) - best[:, None]) / temperature,
                      -np.inf)  # fmt: skip
    shares = np.where(finite, np.exp(scaled), 0.0)
    total = shares.sum(axis=1, keepdims=True)
    return np.divide(shares, total, out=np.zeros_like(shares), where=total > 0), valued


def move_targets(
    visits: np.ndarray, target: str, min_share: float,
    overruled: np.ndarray | None = None, overruled_weight: float = 1.0,
    values: np.ndarray | None = None, temperature: float = TEMPERATURE,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The target distribution of each decision and how much it counts: a decision whose
    most visited move has under ``min_share`` of the visits is left out of the move loss
    (the value head still learns from it), and one where the rollout teacher overruled the
    heuristic counts ``overruled_weight`` times (they are a few in a hundred, and the only
    ones where the teacher says more than the heuristic)."""
    if target not in TARGETS:
        raise ValueError(f"target must be one of {TARGETS}, got {target!r}")
    if not (np.isfinite(temperature) and temperature > 0):
        raise ValueError(f"temperature must be > 0, got {temperature!r}")
    best = visits.argmax(1)
    played = np.zeros_like(visits)
    played[np.arange(len(visits)), best] = 1.0
    if target == "values":
        if values is None:
            raise ValueError("target 'values' needs the teacher's move values (data 'values')")
        shares, valued = value_shares(values.astype(np.float64), temperature)
        chosen = np.where(valued[:, None], shares, played)
    else:
        chosen = played if target == "best" else visits
    weights = (visits[np.arange(len(visits)), best] >= min_share).astype(np.float32)
    if overruled is not None:
        weights = weights * np.where(overruled, overruled_weight, 1.0).astype(np.float32)
    return chosen.astype(np.float32), weights
