"""The compiled vector env's own options, checked before anything changes: opponents the
kernel plays itself, autoreset modes, reset masks and thread counts."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

from jungle_envs.core.arguments import ENV_OPTIONS, check_count
from jungle_envs.core.compiled import runner
from jungle_envs.core.seats import ABSOLUTE, RELATIVE, SeatPlan, check_mixture

BUILT_IN = {"random": runner.RANDOM, "heuristic": runner.HEURISTIC}
# A mixture may also draw players from the pool set with ``set_opponent_pool``.
MIXABLE = (*BUILT_IN, "pool")
VECTOR_ENV_OPTIONS = {
    **{k: v for k, v in ENV_OPTIONS.items() if k not in ("render_mode", "engine", "event_log")},
    "num_envs": "games stepped together",
    "num_threads": "threads that step shares of the games (default: the usable cores)",
    "copy": "return copies of the env's arrays (default True)",
    "autoreset_mode": "Gymnasium's AutoresetMode (or its name): NEXT_STEP (default), "
    "SAME_STEP or DISABLED",
    "final_details": "put winners and the game's own end-of-game keys in the info of an "
    "ended episode, as the single env does (default True; False skips that Python work)",
}


def autoreset_mode_of(value: Any) -> AutoresetMode:
    """An ``AutoresetMode`` or its name, in any case ("same_step", "SameStep")."""
    if isinstance(value, AutoresetMode):
        return value
    wanted = str(value).replace("_", "").lower()
    for mode in AutoresetMode:
        if wanted in (mode.name.replace("_", "").lower(), mode.value.lower()):
            return mode
    raise ValueError(
        f"autoreset_mode must be one of {[m.name for m in AutoresetMode]}, got {value!r}"
    )


def opponent_mix(mix: Any) -> np.ndarray:
    """A mixture {"random": p, "heuristic": q, "pool": r} -> the kernel's [p, q, r] (any
    scale, not all 0)."""
    weights = check_mixture(mix, allowed=MIXABLE)
    return np.array([weights.get(name, 0.0) for name in MIXABLE], dtype=np.float64)


def opponent_kinds(plan: SeatPlan, num_players: int) -> tuple[np.ndarray, bool]:
    """A seat plan of built-in names -> (kinds, relative): by seats after the learner, or
    by absolute seat for a list of one entry per seat."""

    def kind(spec: Any) -> int:
        if isinstance(spec, str) and spec in BUILT_IN:
            return BUILT_IN[spec]
        raise ValueError(
            f"the compiled vector env plays built-in opponents only ({sorted(BUILT_IN)}); "
            f"got {spec!r}. For models or callables use gymnasium.make_vec(..., "
            "vectorization_mode='sync') or jungle_envs.process_vector_env.BatchedVectorEnv"
        )

    kinds = np.zeros(num_players, dtype=np.int8)
    if plan.kind == RELATIVE:
        kinds[1:] = [kind(s) for s in plan.specs]
        return kinds, True
    if plan.kind == ABSOLUTE:
        if any(s is None for s in plan.specs):
            raise ValueError("a per-seat list of opponents needs every seat filled")
        return np.array([kind(s) for s in plan.specs], dtype=np.int8), False
    kinds[1:] = kind(plan.specs[0])
    return kinds, True


ENVS_PER_THREAD = 256  # below this a thread's share costs more to hand over than it saves


def check_reset_mask(mask: Any, num_envs: int) -> np.ndarray | None:
    """``options["reset_mask"]``: None, or a bool numpy array of ``num_envs`` with a True."""
    if mask is None:
        return None
    if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (num_envs,):
        raise ValueError(f"options['reset_mask'] must be a bool numpy array of {num_envs}, "
                         f"got {mask!r}")  # fmt: skip
    if not mask.any():
        raise ValueError("options['reset_mask'] must set at least one env")
    return mask


def resolve_threads(num_threads: int | None, num_envs: int) -> int:
    """The threads to step the batch on; by default one per core this process may use, and
    no more than one per ``ENVS_PER_THREAD`` envs."""
    if num_threads is None:
        try:
            cores = len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            cores = os.cpu_count() or 1
        return max(1, min(cores, num_envs // ENVS_PER_THREAD))
    return check_count("num_threads", num_threads)
