"""A game's declarative header, as OpenSpiel's GameType and GameInfo: players, actions,
the bound on a game's length, documented options, and chance events with their odds.

Nothing here knows a game's rules; each game's ``config.py`` fills these in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Option:
    """A documented, validated game option (a *(tunable)* of the rulings)."""

    name: str
    default: Any
    doc: str
    check: Callable[[Any], Any] | None = None  # returns the normalised value or raises
    # changes only what a seat observes, not the rules: a model trained with another value
    # can still play here as an opponent, observing with its own value
    observation_only: bool = False

    def resolve(self, value: Any) -> Any:
        if self.check is None:
            return value
        try:
            return self.check(value)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"invalid value for option {self.name!r}: {exc}") from None


def integer_keys(value: Mapping[Any, Any], what: str) -> dict[int, Any]:
    """A mapping's keys as ints, numeric strings included: JSON (config files, the command
    line, saved states) can only key by strings."""
    keys: dict[int, Any] = {}
    for key, item in value.items():
        number = key
        if isinstance(key, str) and re.fullmatch(r"[+-]?\d+", key.strip()):
            number = int(key)
        if isinstance(number, bool) or not isinstance(number, (int, np.integer)):
            raise ValueError(f"{what} must be integers (or numeric strings), got {key!r}")
        if int(number) in keys:
            raise ValueError(f"{what}: {key!r} repeats the key {int(number)}")
        keys[int(number)] = item
    return keys


@dataclass(frozen=True)
class GameSpec:
    """Declarative header of a game, as OpenSpiel's GameType/GameInfo."""

    name: str  # snake_case module name, e.g. "jungle_sweep"
    env_name: str  # CamelCase id stem, e.g. "JungleSweep"
    min_players: int
    max_players: int
    default_players: int
    action_names: tuple[str, ...]
    max_decisions: int  # bound on one seat's decisions in a game (the env's step limit)
    chance: bool = True
    hidden_information: bool = True
    options: tuple[Option, ...] = field(default_factory=tuple)

    @property
    def num_actions(self) -> int:
        return len(self.action_names)

    @property
    def env_id(self) -> str:
        return f"jungle_envs/{self.env_name}-v0"

    @property
    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)


@dataclass(frozen=True)
class ChanceEvent:
    """A pending random event: what is drawn or rolled, its outcomes and their odds."""

    name: str
    outcomes: tuple[int, ...]
    probabilities: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.outcomes) != len(self.probabilities) or not self.outcomes:
            raise ValueError("a chance event needs one probability per outcome")
        if abs(sum(self.probabilities) - 1.0) > 1e-9:
            raise ValueError(f"chance event {self.name!r}: probabilities do not sum to 1")

    @classmethod
    def weighted(cls, name: str, weights: dict[int, int]) -> ChanceEvent:
        """An event whose outcomes are drawn in proportion to integer counts (a bag draw)."""
        items = [(k, w) for k, w in weights.items() if w > 0]
        total = sum(w for _, w in items)
        return cls(name, tuple(k for k, _ in items), tuple(w / total for _, w in items))

    @classmethod
    def uniform(cls, name: str, outcomes: Sequence[int]) -> ChanceEvent:
        return cls(name, tuple(outcomes), (1 / len(outcomes),) * len(outcomes))

    def distribution(self) -> dict[int, float]:
        """Outcome -> probability."""
        return dict(zip(self.outcomes, self.probabilities, strict=True))

    def sample(self, rng: np.random.Generator) -> int:
        # Inverse-CDF sampling: one uniform draw, cheaper than rng.choice with p=.
        u = rng.random()
        acc = 0.0
        for outcome, p in zip(self.outcomes, self.probabilities, strict=True):
            acc += p
            if u < acc:
                return outcome
        return self.outcomes[-1]


def draw_from_counts(counts: Sequence[int], rng: np.random.Generator) -> int:
    """Index drawn in proportion to ``counts``: what ``ChanceEvent.weighted(...).sample``
    does with the same single uniform number, without building the event."""
    u = rng.random() * sum(counts)
    acc = 0
    last = -1
    for index, count in enumerate(counts):
        if count:
            acc += count
            last = index
            if u < acc:
                return index
    return last
