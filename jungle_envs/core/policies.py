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

import os
import zipfile
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

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


class MaskablePPOPolicy:
    """A trained sb3-contrib MaskablePPO model playing from its own seat's point of view.

    ``deterministic=True`` plays the most likely legal action; otherwise the action is
    sampled from the masked distribution with the env's generator, so games stay
    reproducible. Works for models trained on the flat or the dict observation.
    """

    def __init__(self, model: Any, deterministic: bool = True) -> None:
        if isinstance(model, (str, os.PathLike)):
            model = load_maskable_ppo(model)
        self.model = model
        self.deterministic = deterministic
        self._dict_obs = hasattr(model.observation_space, "spaces")
        # What the model was trained on (saved in its zip by our training scripts).
        self.trained_on: dict[str, Any] | None = getattr(model, "trained_on", None)

    @property
    def action_count(self) -> int:
        return int(self.model.action_space.n)

    @property
    def observation_size(self) -> int:
        space = self.model.observation_space
        if self._dict_obs:
            space = space.spaces["observation"]
        return int(np.prod(space.shape))

    def act(self, observation, action_mask, rng) -> int:
        import torch

        mask = np.asarray(action_mask, dtype=bool)
        obs: Any = observation
        if self._dict_obs:
            obs = {"observation": observation, "action_mask": mask.astype(np.int8)}
        policy = self.model.policy
        obs_tensor, _ = policy.obs_to_tensor(obs)
        with torch.no_grad():
            dist = policy.get_distribution(obs_tensor, action_masks=mask[None])
            probs = dist.distribution.probs[0].cpu().numpy().astype(np.float64)
        probs = np.where(mask, probs, 0.0)
        if self.deterministic:
            return int(np.argmax(probs))
        return int(rng.choice(len(probs), p=probs / probs.sum()))


class MixturePolicy:
    """Plays each episode as one of several policies, drawn by weight when the episode
    starts: ``{"random": 0.3, "heuristic": 0.7}`` (names of the registry)."""

    def __init__(self, mix: dict[str, float], game: Game) -> None:
        if not mix or any(
            isinstance(w, bool) or not isinstance(w, (int, float)) or w < 0 for w in mix.values()
        ):
            raise ValueError(f"an opponent mixture maps names to weights >= 0, got {mix!r}")
        total = float(sum(mix.values()))
        if total <= 0:
            raise ValueError(f"an opponent mixture needs a weight above 0, got {mix!r}")
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


def load_maskable_ppo(path: str | os.PathLike) -> Any:
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError(
            "loading a trained model needs the training extra: pip install 'jungle-envs[train]'"
        ) from exc
    found = os.fspath(path)
    if os.path.isdir(found):
        inside = os.path.join(found, "model.zip")
        hint = f"; the run's model is {inside!r}" if os.path.isfile(inside) else ""
        raise ValueError(f"{found!r} is a folder, not a MaskablePPO model .zip{hint}")
    if not os.path.exists(found):
        found = f"{found}.zip"  # as Stable-Baselines3 looks for it
        if not os.path.isfile(found):
            raise FileNotFoundError(f"no MaskablePPO model at {os.fspath(path)!r}")
    if not zipfile.is_zipfile(found):
        raise ValueError(f"{found!r} is not a MaskablePPO model (not a zip archive)")
    try:
        return MaskablePPO.load(found, device="cpu")
    except (
        AssertionError,
        KeyError,
        ValueError,
        RuntimeError,
        EOFError,
        zipfile.BadZipFile,
    ) as exc:
        raise ValueError(f"{found!r} is not a loadable MaskablePPO model: {exc!r}") from None


PolicyFactory = Callable[["Game"], Policy]

POLICY_REGISTRY: dict[str, PolicyFactory] = {
    "random": lambda game: RandomPolicy(),
    "heuristic": lambda game: game.heuristic_policy(),
    "ppo": lambda game: _shipped_policy(game),
    "mcts": lambda game: _search_policy("mcts", game),
}


def _shipped_policy(game: Game) -> Policy:
    from jungle_envs.agents import shipped_policy

    return shipped_policy(game)


def _search_policy(name: str, game: Game) -> Policy:
    """IS-MCTS by name: ``mcts``, ``mcts:400``, ``mcts:0.5s``, ``mcts:400:random``."""
    from jungle_envs.search import MCTS

    return MCTS.from_name(name).for_game(game)


BUILT_IN_POLICIES = frozenset(POLICY_REGISTRY)


def register_policy(name: str, factory: PolicyFactory, replace: bool = False) -> None:
    """Make ``factory(game) -> policy`` available to envs under ``name``.

    A name already taken is an error unless ``replace=True`` (re-running a notebook cell
    that registers a policy); the built-in names cannot be replaced."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"a policy name must be a non-empty string, got {name!r}")
    if not callable(factory):
        raise TypeError(f"factory must be callable as factory(game), got {factory!r}")
    if name in BUILT_IN_POLICIES:
        raise ValueError(f"{name!r} is a built-in policy and cannot be replaced")
    if name in POLICY_REGISTRY and not replace:
        raise ValueError(
            f"a policy named {name!r} is already registered; pass replace=True to replace it"
        )
    POLICY_REGISTRY[name] = factory


def make_policy(spec: Any, game: Game) -> Policy:
    """Turn a name, a model path, a model, a policy object or a callable into a policy."""
    if isinstance(spec, (str, os.PathLike)):
        name = os.fspath(spec)
        if name in POLICY_REGISTRY:
            policy = POLICY_REGISTRY[name](game)
            if not isinstance(policy, MaskablePPOPolicy):
                return policy
        elif name.startswith("mcts:"):
            return _search_policy(name, game)
        elif name.startswith("rllib:"):  # a Ray RLlib checkpoint (needs the rllib extra)
            from jungle_envs.rllib import RLlibPolicy

            policy = RLlibPolicy(name.removeprefix("rllib:"))
        elif name.endswith(".zip") or os.sep in name or os.path.exists(name):
            policy: Any = MaskablePPOPolicy(name)
        else:
            raise ValueError(
                f"unknown opponent {name!r}; allowed: {sorted(POLICY_REGISTRY)}, "
                "a path to a MaskablePPO .zip, rllib:CHECKPOINT_DIR, a policy object or a "
                "callable"
            )
    elif hasattr(spec, "for_game"):  # settings to bind to the game (jungle_envs.search.MCTS)
        return spec.for_game(game)
    elif hasattr(spec, "policy") and hasattr(spec, "predict"):
        policy = MaskablePPOPolicy(spec)
    elif isinstance(spec, Policy):
        return spec
    elif callable(spec):
        return CallablePolicy(spec)
    else:
        raise TypeError(
            f"an opponent must be a name {sorted(POLICY_REGISTRY)}, a model path, a "
            f"MaskablePPO model, an object with act(observation, action_mask, rng) or a "
            f"callable; got {spec!r}"
        )
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
    return policy


def is_model(spec: Any) -> bool:
    """A MaskablePPO model, or a path to one (not a registered name)."""
    if isinstance(spec, (str, os.PathLike)):
        name = os.fspath(spec)
        return (
            name not in POLICY_REGISTRY
            and not name.startswith("rllib:")
            and (name.endswith(".zip") or os.path.exists(name))
        )
    return hasattr(spec, "policy") and hasattr(spec, "predict")


def trained_on(model: Any) -> dict[str, Any] | None:
    """The env a model was trained on: {"env", "num_players", "env_options"}, saved in the
    model's zip by the training scripts; None for a model saved without it."""
    if isinstance(model, (str, os.PathLike)):
        model = load_maskable_ppo(model)
    found = getattr(model, "trained_on", None)
    return dict(found) if isinstance(found, dict) else None


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
    """Learner seat -> {seat: policy} for every other seat.

    A plain object rather than a closure, so envs pickle with the standard module and a
    deep copy of an env gets opponents of its own.
    """

    def __init__(self, by_seat: list[Policy | None], relative: bool) -> None:
        self.by_seat, self.relative = by_seat, relative

    def __call__(self, learner: int) -> dict[int, Policy]:
        n = len(self.by_seat)
        if self.relative:  # entry i plays the i-th seat after the learner
            return {(learner + 1 + i) % n: self.by_seat[i] for i in range(n - 1)}  # type: ignore[misc]
        missing = [s for s in range(n) if s != learner and self.by_seat[s] is None]
        if missing:
            raise ValueError(f"no opponent given for seat(s) {missing}")
        return {s: self.by_seat[s] for s in range(n) if s != learner}  # type: ignore[misc]


def seat_policies(opponents: Any, game: Game) -> SeatPolicies:
    """Resolve the env's ``opponents`` argument once; map a learner seat to seat->policy.

    A single spec plays every other seat. A list of ``num_players - 1`` specs is read in
    seat order starting after the learner; a list of ``num_players`` is read by absolute
    seat, and the learner's own entry (which may be None) is ignored. A dict of names to
    weights is a mixture: each seat draws its player anew at every episode.
    """
    n = game.num_players
    if isinstance(opponents, (list, tuple)):
        specs: Sequence[Any] = opponents
        if len(specs) == n - 1:
            return SeatPolicies([make_policy(s, game) for s in specs] + [None], relative=True)
        if len(specs) == n:
            return SeatPolicies(
                [None if s is None else make_policy(s, game) for s in specs], relative=False
            )
        raise ValueError(
            f"a list of opponents needs {n - 1} entries (seats after the learner) or {n} "
            f"(one per seat) for {n} players; got {len(specs)}"
        )
    if isinstance(opponents, dict):  # a mixture, drawn for each seat and episode
        return SeatPolicies([MixturePolicy(opponents, game) for _ in range(n)], relative=False)
    policy = make_policy(opponents, game)
    return SeatPolicies([policy] * n, relative=False)
