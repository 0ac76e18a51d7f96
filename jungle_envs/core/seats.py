"""The seat plan: who plays the seats other than the learner's, parsed once.

The ``opponents`` argument of every env (the single env on either engine, the compiled
vector env, the PettingZoo and RLlib envs) is read here and nowhere else: one spec for every
other seat, a list read by seats after the learner or by absolute seat, or a mixture of
names drawn per seat and episode. The single env turns the plan's specs into policies
(``policies.make_policy``); the compiled vector env maps them to its built-in kinds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

SINGLE, RELATIVE, ABSOLUTE, MIXTURE = "single", "relative", "absolute", "mixture"


@dataclass(frozen=True)
class SeatPlan:
    """A parsed ``opponents`` argument.

    ``kind`` is SINGLE (``specs[0]`` plays every other seat), RELATIVE (``specs[i]`` plays
    the i-th seat after the learner), ABSOLUTE (``specs[s]`` plays seat ``s``; the learner's
    entry may be None) or MIXTURE (``mixture`` maps names to weights, drawn per seat and
    episode)."""

    kind: str
    specs: tuple[Any, ...] = ()
    mixture: dict[str, float] | None = None

    def seat_specs(self, learner: int, num_players: int) -> dict[int, Any]:
        """Seat -> spec for every seat but the learner's (a mixture's dict for each)."""
        others = [s for s in range(num_players) if s != learner]
        if self.kind == SINGLE:
            return {s: self.specs[0] for s in others}
        if self.kind == RELATIVE:
            return {(learner + 1 + i) % num_players: self.specs[i] for i in range(num_players - 1)}
        if self.kind == ABSOLUTE:
            missing = [s for s in others if self.specs[s] is None]
            if missing:
                raise ValueError(f"no opponent given for seat(s) {missing}")
            return {s: self.specs[s] for s in others}
        return {s: self.mixture for s in others}


def check_mixture(mix: Any, allowed: Sequence[str] | None = None) -> dict[str, float]:
    """Names -> weights: finite numbers >= 0, at least one above 0, names from ``allowed``
    (any name when None)."""
    if not isinstance(mix, dict) or not mix:
        raise ValueError(f"an opponent mixture maps names to weights, got {mix!r}")
    if allowed is not None and set(mix) - set(allowed):
        unknown = sorted(map(str, set(mix) - set(allowed)))
        raise ValueError(f"an opponent mixture here draws from {list(allowed)}; got {unknown}")
    for name, weight in mix.items():
        if not isinstance(name, str):
            raise ValueError(f"an opponent mixture maps names to weights, got key {name!r}")
        number = isinstance(weight, (int, float, np.integer, np.floating))
        if isinstance(weight, (bool, np.bool_)) or not number or not math.isfinite(weight):
            raise ValueError(f"mixture weights must be finite numbers >= 0, got {mix!r}")
        if weight < 0:
            raise ValueError(f"mixture weights must be finite numbers >= 0, got {mix!r}")
    if sum(float(w) for w in mix.values()) <= 0:
        raise ValueError(f"an opponent mixture needs a weight above 0, got {mix!r}")
    return {name: float(weight) for name, weight in mix.items()}


def parse_opponents(opponents: Any, num_players: int) -> SeatPlan:
    """Read the ``opponents`` argument for a table of ``num_players`` (see ``SeatPlan``)."""
    if isinstance(opponents, (list, tuple)):
        specs = tuple(opponents)
        if len(specs) == num_players - 1:
            return SeatPlan(RELATIVE, specs)
        if len(specs) == num_players:
            return SeatPlan(ABSOLUTE, specs)
        raise ValueError(
            f"a list of opponents needs {num_players - 1} entries (seats after the learner) "
            f"or {num_players} (one per seat) for {num_players} players; got {len(specs)}"
        )
    if isinstance(opponents, dict):
        return SeatPlan(MIXTURE, mixture=check_mixture(opponents))
    return SeatPlan(SINGLE, (opponents,))


def resolve_specs(plan: SeatPlan, make: Callable[[Any], Any]) -> SeatPlan:
    """The plan with every spec replaced by ``make(spec)`` once (an absolute list's None,
    the learner's own entry, stays None), so seats that share a spec share what it became."""
    if plan.kind == MIXTURE:
        return plan
    keep_none = plan.kind == ABSOLUTE
    return SeatPlan(
        plan.kind, tuple(None if s is None and keep_none else make(s) for s in plan.specs)
    )
