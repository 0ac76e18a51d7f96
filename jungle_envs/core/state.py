"""Game states as plain dataclasses of ints and (nested) lists of ints.

That restriction buys three things every game needs: a copy that shares nothing
mutable, a JSON form that is the complete state, and loading that checks every field's
type and shape against the dataclass annotations before a game checks its own
invariants. Games subclass ``GameState`` with ``@dataclass`` and only such fields.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, ClassVar, TypeVar, Union

S = TypeVar("S", bound="GameState")


class StateError(ValueError):
    """A saved or hand-built state that is malformed or breaks a rule's invariant."""


def _copy_value(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy_value(v) for v in value]
    return value  # ints, bools, strings and None are immutable


def _check_value(value: Any, hint: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        errors = []
        for option in typing.get_args(hint):
            try:
                return _check_value(value, option, where)
            except StateError as exc:
                errors.append(str(exc))
        raise StateError(f"{where}: {value!r} matches none of {hint}")
    if hint is type(None):
        if value is not None:
            raise StateError(f"{where}: expected null, got {value!r}")
        return None
    if origin is list:
        if not isinstance(value, list):
            raise StateError(f"{where}: expected a list, got {type(value).__name__}")
        (item_hint,) = typing.get_args(hint)
        return [_check_value(v, item_hint, f"{where}[{i}]") for i, v in enumerate(value)]
    if hint is bool:
        if not isinstance(value, bool):
            raise StateError(f"{where}: expected true/false, got {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise StateError(f"{where}: expected an integer, got {value!r}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise StateError(f"{where}: expected a string, got {value!r}")
        return value
    raise TypeError(f"unsupported state field type {hint!r} at {where}")


class GameState:
    """Base for game states: ``copy``, ``to_dict`` and type-checked ``from_dict``."""

    _hints: ClassVar[dict[str, Any] | None] = None

    @classmethod
    def _field_hints(cls) -> dict[str, Any]:
        if cls.__dict__.get("_hints") is None:
            hints = typing.get_type_hints(cls)
            cls._hints = {f.name: hints[f.name] for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        return cls._hints  # type: ignore[return-value]

    def copy(self: S) -> S:
        new = object.__new__(type(self))
        for name in self._field_hints():
            object.__setattr__(new, name, _copy_value(getattr(self, name)))
        return new

    def to_dict(self) -> dict[str, Any]:
        return {name: _copy_value(getattr(self, name)) for name in self._field_hints()}

    @classmethod
    def from_dict(cls: type[S], data: Any) -> S:
        hints = cls._field_hints()
        if not isinstance(data, dict):
            raise StateError(f"state must be a JSON object, got {type(data).__name__}")
        missing = sorted(set(hints) - set(data))
        unknown = sorted(set(data) - set(hints))
        if missing or unknown:
            raise StateError(f"state fields: missing {missing}, unknown {unknown}")
        values = {name: _check_value(data[name], hint, name) for name, hint in hints.items()}
        return cls(**values)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.to_dict() == other.to_dict()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]


def deal_counts(pool: list[int], sizes: list[int], rng: Any) -> list[list[int]]:
    """Deal ``sizes[i]`` items to each hand i from ``pool`` (items per kind) without
    replacement, every deal as likely as drawing the items one by one: per hand, items per
    kind, and last the rest of the pool. A determinization deals what a seat cannot see
    this way, so the result depends on the pooled counts only, not on who held what."""
    import numpy as np

    left = np.asarray(pool, dtype=np.int64)
    if (left < 0).any() or sum(sizes) > left.sum():
        raise ValueError(f"cannot deal hands of {sizes} from a pool of {pool}")
    hands = []
    for size in sizes:
        hand = rng.multivariate_hypergeometric(left, size) if size else np.zeros_like(left)
        left = left - hand
        hands.append(hand.tolist())
    return [*hands, left.tolist()]
