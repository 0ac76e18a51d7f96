"""Opponent policies: plain objects with one method, plus a small name registry.

A policy is anything with ``act(observation, action_mask, rng) -> int`` or a plain
callable with that signature. ``observation`` is the flat float32 vector of the seat the
policy plays, ``action_mask`` a bool array, ``rng`` a ``numpy.random.Generator`` owned by
the env (so opponents are reproducible under ``reset(seed=...)``). A policy that sets
``uses_observation = False`` gets ``None`` as its observation, which saves the env from
building one. A policy with a ``start_episode(rng)`` method has it called at every
``reset``, before the first decision: the place to swap players between episodes. A
search sets ``uses_state = True`` and gets ``act_state(state, seat, action_mask, rng)``
instead: the game state, which it may read only through ``Game.resample`` (what its seat
may know), as ``jungle_envs.search.MCTS`` does.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from jungle_envs.core.seats import (
    ABSOLUTE,
    MIXTURE,
    SeatPlan,
    check_mixture,
    parse_opponents,
    resolve_specs,
)

if TYPE_CHECKING:
    from jungle_envs.core.game import Game


@runtime_checkable
class Policy(Protocol):
    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator
    ) -> int: ...


class RandomPolicy:
    """Uniform over the legal actions."""

    uses_observation = False  # the env may pass None instead of building one

    def act(self, observation, action_mask, rng) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[rng.integers(len(legal))])


class CallablePolicy:
    """Adapts a function ``f(observation, action_mask, rng) -> int``."""

    def __init__(self, fn: Callable[[np.ndarray, np.ndarray, np.random.Generator], int]) -> None:
        self.fn = fn

    def act(self, observation, action_mask, rng) -> int:
        return self.fn(observation, action_mask, rng)


class MixturePolicy:
    """Plays each episode as one of several policies, drawn by weight when the episode
    starts: ``{"random": 0.3, "heuristic": 0.7}`` (names of the registry)."""

    def __init__(self, mix: dict[str, float], game: Game) -> None:
        mix = check_mixture(mix)
        total = sum(mix.values())
        self.names = list(mix)
        self.weights = np.array([mix[name] / total for name in self.names])
        self.policies = [make_policy(name, game) for name in self.names]
        self.current: Any = self.policies[int(np.argmax(self.weights))]

    @property
    def uses_observation(self) -> bool:
        return getattr(self.current, "uses_observation", True)

    @property
    def observation_game(self) -> Game | None:
        return getattr(self.current, "observation_game", None)

    def start_episode(self, rng: np.random.Generator) -> None:
        self.current = self.policies[int(rng.choice(len(self.policies), p=self.weights))]
        if hasattr(self.current, "start_episode"):
            self.current.start_episode(rng)

    @property
    def uses_state(self) -> bool:
        return getattr(self.current, "uses_state", False)

    def act(self, observation, action_mask, rng) -> int:
        return self.current.act(observation, action_mask, rng)

    def act_state(self, state, seat, action_mask, rng) -> int:
        return self.current.act_state(state, seat, action_mask, rng)


@dataclass(frozen=True)
class PolicyEntry:
    """A registered policy name: ``target`` is a factory or its lazy ``"module:attr"``
    path (imported at first use, so this module never imports the packages above it).
    A plain entry is called ``factory(game)``; one ``with_argument`` also answers
    ``"name:ARG"`` and is called ``factory(game, ARG)`` (ARG None for the bare name)."""

    target: str | Callable[..., Any]
    with_argument: bool = False
    builtin: bool = False

    def factory(self) -> Callable[..., Any]:
        if callable(self.target):
            return self.target
        module, _, attr = self.target.partition(":")
        return getattr(importlib.import_module(module), attr)

    def make(self, game: Game, argument: str | None) -> Any:
        if self.with_argument:
            return self.factory()(game, argument)
        return self.factory()(game)


def _random(game: Game) -> Policy:
    return RandomPolicy()


def _heuristic(game: Game) -> Policy:
    return game.heuristic_policy()


# Name -> entry, as RLCard's models registry: the core's own two here, the packages above
# (the shipped agents, the search, RLlib) add theirs in ``jungle_envs/__init__.py``.
POLICY_REGISTRY: dict[str, PolicyEntry] = {
    "random": PolicyEntry(_random, builtin=True),
    "heuristic": PolicyEntry(_heuristic, builtin=True),
}
# Paths and model objects: the MaskablePPO player (needs the training extra).
MODEL_POLICY = "jungle_envs.maskable_ppo:MaskablePPOPolicy"


def register_policy(
    name: str, factory: Callable[..., Any] | str, replace: bool = False, *,
    with_argument: bool = False, builtin: bool = False,
) -> None:  # fmt: skip
    """Make ``factory(game) -> policy`` available to envs under ``name``; ``factory`` may
    be a lazy ``"module:attr"`` path. With ``with_argument=True`` the factory is called
    ``factory(game, ARG)`` for ``"name:ARG"`` too (``ARG`` None for the bare name).

    A name already taken is an error unless ``replace=True`` (re-running a notebook cell
    that registers a policy); the built-in names cannot be replaced."""
    if not isinstance(name, str) or not name or ":" in name:
        raise ValueError(f"a policy name must be a non-empty string without ':', got {name!r}")
    lazy = isinstance(factory, str) and factory.count(":") == 1
    if not (callable(factory) or lazy):
        raise TypeError(
            f"factory must be callable as factory(game) or a 'module:attr' path, got {factory!r}"
        )
    old, entry = POLICY_REGISTRY.get(name), PolicyEntry(factory, with_argument, builtin)
    if old == entry:  # the package registering its own names again (a reload)
        return
    if old is not None and old.builtin:
        raise ValueError(f"{name!r} is a built-in policy and cannot be replaced")
    if old is not None and not replace:
        raise ValueError(
            f"a policy named {name!r} is already registered; pass replace=True to replace it"
        )
    POLICY_REGISTRY[name] = entry


def registered_entry(name: str) -> tuple[PolicyEntry, str | None] | None:
    """The entry answering ``name`` and its argument (``"mcts:400"`` -> mcts, "400")."""
    if name in POLICY_REGISTRY:
        return POLICY_REGISTRY[name], None
    base, colon, argument = name.partition(":")
    entry = POLICY_REGISTRY.get(base)
    if colon and entry is not None and entry.with_argument:
        return entry, argument
    return None


def policy_names() -> list[str]:
    """The registered names, ``name:ARG`` families shown as ``name[:ARG]``."""
    return sorted(f"{n}[:ARG]" if e.with_argument else n for n, e in POLICY_REGISTRY.items())


def _model_policy(spec: Any) -> Any:
    module, _, attr = MODEL_POLICY.partition(":")
    return getattr(importlib.import_module(module), attr)(spec)


def is_model_path(name: str) -> bool:
    """A string that names a model file rather than a registered policy."""
    return registered_entry(name) is None and (
        name.endswith(".zip") or os.sep in name or os.path.exists(name)
    )


def make_policy(spec: Any, game: Game) -> Policy:
    """Turn a name, a model path, a model, a policy object or a callable into a policy."""
    if isinstance(spec, (str, os.PathLike)):
        name = os.fspath(spec)
        found = registered_entry(name)
        if found is not None:
            policy: Any = found[0].make(game, found[1])
        elif name.endswith(".zip") or os.sep in name or os.path.exists(name):
            policy = _model_policy(name)
        else:
            raise ValueError(
                f"unknown opponent {name!r}; allowed: {policy_names()}, a path to a "
                "MaskablePPO .zip, a policy object or a callable"
            )
    elif hasattr(spec, "for_game"):  # settings to bind to the game (jungle_envs.search.MCTS)
        return spec.for_game(game)
    elif hasattr(spec, "policy") and hasattr(spec, "predict"):
        policy = _model_policy(spec)
    elif isinstance(spec, Policy):
        return spec
    elif callable(spec):
        return CallablePolicy(spec)
    else:
        raise TypeError(
            f"an opponent must be a name {policy_names()}, a model path, a MaskablePPO "
            f"model, an object with act(observation, action_mask, rng) or a callable; "
            f"got {spec!r}"
        )
    if hasattr(policy, "observation_size"):  # a learned model: does it fit this game?
        check_model_fits(policy, game)
    return policy


def check_model_fits(policy: Any, game: Game) -> None:
    """Refuse a model trained for another game, player count, rules or observation."""
    check_trained_on(policy, game)
    observing = observation_game(policy, game)
    if policy.observation_size != observing.observation_size:
        raise ValueError(
            f"the model expects observations of size {policy.observation_size}, "
            f"{game.spec.env_name} with this config gives {observing.observation_size} (was it "
            f"trained with other game options? a run's config.json lists its env_options)"
        )
    actions = getattr(policy, "action_count", None)
    if actions is not None and actions != game.spec.num_actions:
        raise ValueError(
            f"the model chooses among {actions} actions, {game.spec.env_name} has "
            f"{game.spec.num_actions} (was it trained on another game or rules version?)"
        )


def check_trained_on(policy: Any, game: Game) -> None:
    """Refuse a model in a game, player count or game options it was not trained for.

    Options that change only the observation (``Option.observation_only``) may differ: the
    model then observes through a game with its own values (``policy.observation_game``),
    which the envs use to build its observations."""
    info = getattr(policy, "trained_on", None)
    if not info:
        return
    from jungle_envs.core.registry import game_class

    wanted_game = game_class(info["env"])
    options = {k: v for k, v in info.get("env_options", {}).items() if k in game.options}
    wanted = wanted_game(info["num_players"], **options)
    same_rules = type(game) is wanted_game and game.rules_settings() == wanted.rules_settings()
    if same_rules and game.settings() != wanted.settings():
        policy.observation_game = wanted
        return
    if type(game) is not wanted_game or game.settings() != wanted.settings():
        raise ValueError(
            f"the model was trained on {info['env']} with {info['num_players']} players and "
            f"game options {options or 'default'}; this env is {game.spec.env_id} with "
            f"{game.settings()}. Make the env with gymnasium.make(env, num_players=..., "
            f"**options) as the model was trained (jungle_envs.core.policies.trained_on(model))"
        )


def observation_game(policy: Any, game: Game) -> Game:
    """The game whose ``observe`` builds ``policy``'s observations in ``game``: ``game``
    itself unless the policy was trained with other observation-only options."""
    return getattr(policy, "observation_game", None) or game


def opponent_action(
    policy: Any, game: Game, state: Any, seat: int, mask: np.ndarray, rng: np.random.Generator
) -> int:
    """``policy``'s choice in ``seat``: a search (``uses_state``) gets the state, which it
    reads only through ``Game.resample``; any other policy its observation."""
    if getattr(policy, "uses_state", False):
        return policy.act_state(state, seat, mask, rng)
    return policy.act(opponent_observation(policy, game, state, seat), mask, rng)


def opponent_observation(policy: Any, game: Game, state: Any, seat: int) -> np.ndarray | None:
    """What ``policy`` gets to see in ``seat``: None when it does not look."""
    if not getattr(policy, "uses_observation", True):
        return None
    return observation_game(policy, game).observe(state, seat)


class SeatPolicies:
    """Learner seat -> {seat: policy} for every other seat, from a resolved seat plan.

    A plain object rather than a closure, so envs pickle with the standard module and a
    deep copy of an env gets opponents of its own.
    """

    def __init__(self, plan: SeatPlan, num_players: int) -> None:
        self.plan, self.num_players = plan, num_players

    def __call__(self, learner: int) -> dict[int, Policy]:
        return self.plan.seat_specs(learner, self.num_players)


def seat_policies(opponents: Any, game: Game) -> SeatPolicies:
    """Resolve the env's ``opponents`` argument once (see ``seats.parse_opponents``); map a
    learner seat to seat -> policy. A single spec plays every other seat with one policy; a
    mixture gives each seat its own ``MixturePolicy``, drawn anew at every episode."""
    n = game.num_players
    plan = opponents if isinstance(opponents, SeatPlan) else parse_opponents(opponents, n)
    if plan.kind == MIXTURE:
        mixtures = tuple(MixturePolicy(plan.mixture, game) for _ in range(n))
        return SeatPolicies(SeatPlan(ABSOLUTE, mixtures), n)
    return SeatPolicies(resolve_specs(plan, lambda spec: make_policy(spec, game)), n)
