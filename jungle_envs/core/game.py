"""The contract every game's rules engine fulfils.

A game is a set of functions over a mutable state object, in the style of pgx and
OpenSpiel: whoever must act next (a seat, chance, or nobody once the game is over), the
legal actions, applying an action, the pending chance event with its outcome
probabilities, and per-player results. Nothing here imports Gymnasium: the env in
``jungle_envs.core.env`` is a thin layer over this contract, and planners or tests can
drive a game directly.

Chance is explicit. When ``current_player(state) == CHANCE`` the caller asks for
``chance_event(state)`` and applies one of its outcomes with ``apply_chance``. The env
samples the outcome with its own generator; a test applies whichever outcome it needs.
"""

from __future__ import annotations

import importlib
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from jungle_envs.core.state import GameState, StateError

CHANCE = -1
TERMINAL = -2


class IllegalActionError(ValueError):
    """An action that is inside the action space but not legal in the current state."""


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


class Game(ABC):
    """A game with bound options and player count; stateless apart from that config.

    Subclasses set ``spec`` and ``state_class``, bind ``make_config`` (the game's
    ``config.make_config``) and implement the abstract methods by calling the functions of
    their folder with ``self.config``. States are plain objects that the methods mutate in
    place; ``state.copy()`` gives an independent copy.
    """

    spec: ClassVar[GameSpec]
    state_class: ClassVar[type[GameState]]
    config: Any  # the frozen Config that the game's functions take (``make_config``)

    def __init__(self, num_players: int | None = None, **options: Any) -> None:
        spec = self.spec
        if num_players is None:
            num_players = spec.default_players
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
            raise TypeError(f"num_players must be an int, got {num_players!r}")
        if not spec.min_players <= int(num_players) <= spec.max_players:
            raise ValueError(
                f"{spec.env_name} is played by {spec.min_players} to {spec.max_players} "
                f"players; got num_players={num_players}"
            )
        known = {opt.name: opt for opt in spec.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise ValueError(
                f"unknown option(s) {unknown} for {spec.env_name}; "
                f"allowed: {sorted(known) or 'none'}"
            )
        self.num_players = int(num_players)
        self.options = {
            name: opt.resolve(options[name]) if name in options else opt.resolve(opt.default)
            for name, opt in known.items()
        }
        self.config = self.make_config(self.num_players, self.options)
        self._setup()

    @staticmethod
    def make_config(num_players: int, options: Mapping[str, Any]) -> Any:
        """The frozen Config of the game's folder for checked ``options``: the player count,
        the options and what follows from them. Games bind their ``config.make_config``."""
        return None

    def _setup(self) -> None:  # noqa: B027 - optional hook
        """Derive constants from ``num_players`` and ``options`` (override as needed)."""

    # --- the rules -------------------------------------------------------------------
    @abstractmethod
    def new_state(self) -> GameState:
        """A fresh game; usually it starts with chance events (shuffles, set-up draws)."""

    @abstractmethod
    def current_player(self, state: GameState) -> int:
        """The seat that must decide, or ``CHANCE``, or ``TERMINAL``."""

    @abstractmethod
    def legal_mask(self, state: GameState) -> np.ndarray:
        """Bool mask over ``spec.num_actions`` for the deciding seat (empty if none)."""

    @abstractmethod
    def _apply_action(self, state: GameState, action: int) -> None:
        """Apply a legal action (already checked)."""

    @abstractmethod
    def chance_event(self, state: GameState) -> ChanceEvent:
        """The pending chance event; only valid when ``current_player`` is ``CHANCE``."""

    @abstractmethod
    def _apply_chance(self, state: GameState, outcome: int) -> None:
        """Apply a chance outcome (already checked)."""

    @abstractmethod
    def scores(self, state: GameState) -> list[float]:
        """Each seat's score as the rules count it (complete information)."""

    @abstractmethod
    def winners(self, state: GameState) -> list[int]:
        """The winning seats of a finished game; empty when nobody wins."""

    # --- views -----------------------------------------------------------------------
    @property
    @abstractmethod
    def observation_size(self) -> int: ...

    @abstractmethod
    def observe(self, state: GameState, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """Float32 vector from ``seat``'s point of view; never shows others' secrets."""

    @abstractmethod
    def render(self, state: GameState, viewer: int | None = None) -> str:
        """Readable text; hidden information is shown only to ``viewer`` (all if None)."""

    def describe_outcome(self, state: GameState, outcome: int, viewer: int | None = None) -> str:
        """The pending chance event's ``outcome`` in words, as ``viewer`` may know it (a
        card drawn by another seat stays face down; None: everything). Call it before the
        outcome is applied."""
        if viewer is not None:
            viewer = self.check_seat(viewer, "viewer")
        return self._describe_outcome(state, outcome, viewer)

    def _describe_outcome(self, state: GameState, outcome: int, viewer: int | None) -> str:
        """Games name their outcomes (and hide secret ones) by overriding this."""
        return f"{self.chance_event(state).name}: {outcome}"

    def render_image(self, state: GameState, viewer: int | None = None) -> np.ndarray:
        """The table as an RGB picture (uint8, ``(height, width, 3)``, the same size for
        every state of this game); hidden cards and tiles are drawn face down unless
        ``viewer`` may see them (all face up if None). Needs Pillow."""
        if viewer is not None:
            viewer = self.check_seat(viewer, "viewer")
        return self._draw_image(state, viewer)

    def _draw_image(self, state: GameState, viewer: int | None) -> np.ndarray:
        """Games draw with their ``image.draw`` by overriding this (imported there, so that
        Pillow loads only when a picture is drawn)."""
        package = type(self).__module__.rsplit(".", 1)[0]
        return importlib.import_module(f"{package}.image").draw(self, state, viewer)

    def compiled_twin(self) -> Any:
        """The game's compiled twin package (its ``compiled/``: ``make_twin_config``, ``pack``,
        ``unpack``, kernels registered), or None for a game without one. Imported only
        when asked for, since it loads numba."""
        package = type(self).__module__.rsplit(".", 1)[0]
        try:
            return importlib.import_module(f"{package}.twin")
        except ModuleNotFoundError:
            return None

    @abstractmethod
    def heuristic_policy(self) -> Any:
        """The game's rule-based policy (an object with ``act(obs, mask, rng)``)."""

    def check_seat(self, seat: Any, what: str = "seat") -> int:
        """``seat`` as an int, or a ValueError: a seat of -1 would wrap round to the last
        seat's hidden cards, one past the end to an IndexError deep in a view."""
        if (
            isinstance(seat, (bool, np.bool_))
            or not isinstance(seat, (int, np.integer))
            or not 0 <= seat < self.num_players
        ):
            raise ValueError(f"{what} must be a seat in 0..{self.num_players - 1}, got {seat!r}")
        return int(seat)

    def sample_chance(self, state: GameState, rng: np.random.Generator) -> int:
        """An outcome of the pending chance event, drawn with ``rng``.

        Games may override this with a faster draw of the same distribution; it is what
        envs and random play use, while ``chance_event`` stays the description."""
        return self.chance_event(state).sample(rng)

    def resample(self, state: GameState, seat: int, rng: np.random.Generator) -> GameState:
        """A state ``seat`` cannot tell from ``state``, for information-set search: the same
        observation for ``seat``, with what it cannot see (others' cards, the order of
        face-down supplies) dealt anew, every deal that fits what it has seen as likely as
        the rules make it. The hidden parts are pooled before they are dealt, so the result
        depends on what ``seat`` may know and ``rng`` only. ``state`` is not changed."""
        seat = self.check_seat(seat)
        copy = state.copy()
        self._resample(copy, seat, rng)
        return copy

    def _resample(self, state: GameState, seat: int, rng: np.random.Generator) -> None:  # noqa: B027
        """Deal ``state``'s hidden parts anew for ``seat``, in place. Nothing to deal by
        default: games whose face-down supplies are drawn by counts every player can keep
        (and no hands) hide nothing that a draw has not yet decided."""

    # --- checked entry points --------------------------------------------------------
    def apply_action(self, state: GameState, action: int) -> None:
        """Apply ``action`` for the deciding seat; raise without changing the state."""
        player = self.current_player(state)
        if player < 0:
            what = "chance must be resolved" if player == CHANCE else "the game is over"
            raise IllegalActionError(f"no seat is to decide: {what}")
        action = check_action_index(action, self.spec.num_actions)
        if not self.legal_mask(state)[action]:
            raise IllegalActionError(
                f"action {action} ({self.spec.action_names[action]}) is not legal for seat "
                f"{player}; legal: {self.describe_actions(self.legal_actions(state))}"
            )
        self._apply_action(state, action)

    def apply_chance(self, state: GameState, outcome: int) -> None:
        """Apply one outcome of the pending chance event; raise if it is not possible."""
        if self.current_player(state) != CHANCE:
            raise IllegalActionError("no chance event is pending")
        event = self.chance_event(state)
        possible = [o for o, p in event.distribution().items() if p > 0]
        # 0.0 == 0 and True == 1: only an integer is an outcome
        integer = isinstance(outcome, (int, np.integer)) and not isinstance(outcome, bool)
        if not integer or outcome not in possible:
            raise IllegalActionError(
                f"{outcome!r} is not a possible outcome of {event.name!r}; possible: {possible}"
            )
        self._apply_chance(state, int(outcome))

    def legal_actions(self, state: GameState) -> list[int]:
        return np.flatnonzero(self.legal_mask(state)).tolist()

    def is_terminal(self, state: GameState) -> bool:
        return self.current_player(state) == TERMINAL

    def returns(self, state: GameState) -> list[float]:
        """+1 for a sole winner, 0 for a shared win or when nobody wins, -1 for a loser."""
        if not self.is_terminal(state):
            return [0.0] * self.num_players
        return self.returns_of(self.winners(state))

    def returns_of(self, winners: Sequence[int]) -> list[float]:
        """Each seat's return when ``winners`` won a finished game."""
        if not winners:
            return [0.0] * self.num_players
        win_value = 1.0 if len(winners) == 1 else 0.0
        return [win_value if seat in winners else -1.0 for seat in range(self.num_players)]

    def describe_actions(self, actions: Sequence[int]) -> str:
        return ", ".join(f"{a}={self.spec.action_names[a]}" for a in actions)

    def final_details(self, state: GameState) -> dict[str, Any]:
        """Extra per-player results for the env's final ``info`` (override as needed)."""
        return {}

    def final_info(self, state: GameState) -> dict[str, Any]:
        """The results the env puts in a finished episode's ``info``: ``scores``, ``winners``,
        ``returns`` and the ``final_details``. Games whose scoring is costly override this
        to score once."""
        return {
            "scores": self.scores(state),
            "winners": self.winners(state),
            "returns": self.returns(state),
            **self.final_details(state),
        }

    # --- persistence -----------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """The player count and options as given (what a saved state records); the frozen
        ``config`` derived from them is what the rules read. Was ``config()`` before 0.3."""
        return {"num_players": self.num_players, **self.options}

    def rules_settings(self) -> dict[str, Any]:
        """``settings()`` without the options that change only the observation."""
        observation_only = {o.name for o in self.spec.options if o.observation_only}
        return {k: v for k, v in self.settings().items() if k not in observation_only}

    def state_to_json(self, state: GameState) -> str:
        payload = {
            "game": self.spec.name,
            "config": self.settings(),
            "state": state.to_dict(),
        }
        return json.dumps(payload, separators=(",", ":"))

    def state_from_json(self, text: str) -> GameState:
        """Rebuild a state saved by ``state_to_json``; raise ``StateError`` if malformed."""
        try:
            payload = json.loads(text)
        except (TypeError, json.JSONDecodeError) as exc:
            raise StateError(f"saved state is not valid JSON: {exc}") from None
        except RecursionError:
            raise StateError("saved state is nested too deeply to be a state") from None
        if not isinstance(payload, dict) or set(payload) != {"game", "config", "state"}:
            raise StateError("saved state must be an object with keys 'game', 'config', 'state'")
        if payload["game"] != self.spec.name:
            raise StateError(f"saved state is for game {payload['game']!r}, not {self.spec.name!r}")
        if payload["config"] != json.loads(json.dumps(self.settings())):
            raise StateError(
                f"saved state was made with config {payload['config']}, "
                f"this game has {self.settings()}"
            )
        state = self.state_class.from_dict(payload["state"])
        self.validate_state(state)
        return state

    def validate_state(self, state: GameState) -> None:  # noqa: B027 - optional hook
        """Raise ``StateError`` if ``state`` breaks an invariant of this game."""


def check_action_index(action: Any, num_actions: int) -> int:
    """Normalise an action to int; raise if it is not an integer in ``[0, num_actions)``."""
    if isinstance(action, np.ndarray):
        if action.shape not in ((), (1,)):
            raise ValueError(f"action must be a single integer, got array of shape {action.shape}")
        action = action.reshape(()).item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"action must be an integer in [0, {num_actions - 1}], got {action!r}")
    if not 0 <= action < num_actions:
        raise ValueError(f"action {action} is out of the action space [0, {num_actions - 1}]")
    return int(action)
