"""Building blocks shared by the training scripts: vector envs and MaskablePPO models."""

from __future__ import annotations

import copy
import json
import os
from typing import Any

import gymnasium as gym
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor

import jungle_envs
from jungle_envs.core.workers import EndsWithParent, one_torch_thread_after_fork
from training.config import DEFAULTS

BUILT_IN_OPPONENTS = ("random", "heuristic")
# a mixture's share of players drawn from the self-play pool of the compiled vector env
POOL = "pool"


def built_in(opponents: Any) -> bool:
    """Whether the compiled vector env can play every opponent: built-in players, or a
    mixture of them and the self-play pool."""
    if isinstance(opponents, dict):  # a mixture
        return all(name in (*BUILT_IN_OPPONENTS, POOL) for name in opponents)
    specs = opponents if isinstance(opponents, (list, tuple)) else [opponents]
    return all(isinstance(s, str) and s in BUILT_IN_OPPONENTS for s in specs)


def make_vec_env(
    env_id: str,
    n_envs: int = 4,
    seed: int = 0,
    subprocess: bool = False,
    vectorization: str = "auto",
    **env_kwargs: Any,
) -> VecEnv:
    """``n_envs`` copies of the env, each seeded ``seed + i``; MaskablePPO reads the masks
    through ``env_method("action_masks")``.

    ``vectorization="auto"`` steps them all in one compiled call (``CompiledVecEnv``) when
    every opponent is built in (random, heuristic) and the game has a compiled twin;
    otherwise, and with ``"python"``, each env is a Gymnasium env of its own, in worker
    processes when ``subprocess`` is set. ``"compiled"`` insists on the compiled one.
    Worker processes end by themselves when this process dies, even by SIGKILL."""
    if vectorization not in ("auto", "compiled", "python"):
        raise ValueError(f"vectorization={vectorization!r}; allowed: auto, compiled, python")
    opponents = env_kwargs.get("opponents", "random")
    engine = env_kwargs.get("engine", "auto")
    if vectorization == "compiled" or (
        vectorization == "auto" and built_in(opponents) and engine != "reference"
    ):
        from jungle_envs.core.compiled.twin import TwinUnavailable
        from jungle_envs.sb3 import CompiledVecEnv

        kwargs = {k: v for k, v in env_kwargs.items() if k != "engine"}
        try:
            return VecMonitor(CompiledVecEnv(env_id, n_envs, seed=seed, **kwargs))
        except TwinUnavailable:
            if vectorization == "compiled":
                raise

    def factory(rank: int):
        def make() -> gym.Env:
            env = Monitor(gym.make(env_id, **env_kwargs))
            env.reset(seed=seed + rank)
            return env

        return make

    fns = [factory(i) for i in range(n_envs)]
    if subprocess and n_envs > 1:
        # SB3 calls each factory first thing in its worker; forked workers hold one another's
        # pipes open, so without a watch they outlive a killed trainer for good.
        start_method = "fork"
        return SubprocVecEnv([EndsWithParent(fn, start_method) for fn in fns], start_method)
    return DummyVecEnv(fns)


def _default_hyperparameters() -> dict[str, Any]:
    """MaskablePPO keyword arguments from the config defaults (training/config.py)."""
    ppo = copy.deepcopy(DEFAULTS["ppo"])
    net_arch = ppo.pop("net_arch")
    return {**ppo, "policy_kwargs": {"net_arch": net_arch}}


DEFAULT_HYPERPARAMETERS: dict[str, Any] = _default_hyperparameters()


def new_model(
    venv: VecEnv,
    seed: int = 0,
    tensorboard_log: str | None = None,
    threads: int | None = None,
    policy: Any = None,
    **overrides: Any,
) -> MaskablePPO:
    """A MaskablePPO model on ``venv``; ``policy`` None: SB3's MLP (or multi-input) policy."""
    one_torch_thread_after_fork()
    torch.set_num_threads(threads or torch_threads(venv))
    params = {**DEFAULT_HYPERPARAMETERS, **overrides}
    if policy is None:
        dict_obs = isinstance(venv.observation_space, gym.spaces.Dict)
        policy = "MultiInputPolicy" if dict_obs else "MlpPolicy"
    return MaskablePPO(policy, venv, seed=seed, device="cpu", verbose=0, **params)


def policy_setup(config: dict[str, Any], net_arch: Any) -> tuple[Any, dict[str, Any]]:
    """The policy class (None: SB3's MLP) and ``policy_kwargs`` of a run's config:
    ``"policy": "moves"`` scores each action from its move features (``move_policy``)."""
    if config.get("policy", "mlp") != "moves":
        return None, {"net_arch": net_arch}
    from jungle_envs.move_policy import MovePolicy, move_policy_kwargs

    spec = jungle_envs.game_class(config["env"]).spec
    names = {option.name for option in spec.options}
    options = {k: v for k, v in config["env_options"].items() if k in names}
    game = jungle_envs.make_game(config["env"], config["players"], **options)
    return MovePolicy, move_policy_kwargs(game, net_arch)


def sharpen_logits(model: MaskablePPO, factor: float) -> None:
    """Multiply the policy's logits by ``factor`` (a temperature of ``1 / factor``): the
    likeliest move stays the same, and the moves drawn approach it.

    A model is judged by its likeliest moves, while PPO improves the moves it draws. Where
    a network's scores of several moves differ by hundredths, its draws play a different,
    weaker game than its likeliest moves (docs/multiagent.md), so a run that continues it
    can start from a sharper copy. Only the last layer (the move scores and the other
    actions' logits, or the MLP's action net) is scaled."""
    if not factor > 0:
        raise ValueError(f"the logit factor must be positive, got {factor}")
    policy = model.policy
    extractor = policy.features_extractor
    layers = [getattr(extractor, "score", None), getattr(extractor, "other_actions", None)]
    with torch.no_grad():
        if layers[0] is not None:  # the move-scoring network: its scores are the logits
            for layer in layers:
                layer.weight.mul_(factor)
                layer.bias.mul_(factor)
            if getattr(extractor, "action_bias", None) is not None:
                extractor.action_bias.mul_(factor)
        else:
            policy.action_net.weight.mul_(factor)
            policy.action_net.bias.mul_(factor)


def mark_trained_on(model: MaskablePPO, env_id: str, players: int, env_options: dict) -> None:
    """Record in the model (its zip keeps it) the env it learns on, so that loading it as an
    opponent or evaluating it uses, or insists on, the same game, players and options."""
    model.trained_on = {
        "env": env_id,
        "num_players": int(players),
        "env_options": json.loads(json.dumps(env_options)),
    }


def torch_threads(venv: VecEnv) -> int:
    """One PyTorch thread beside worker processes; otherwise half the cores, at most 4.

    PyTorch's default, a thread per core, collapses when anything else runs: its threads
    wait for one another at every parallel region, and one of them always waits for a
    core. On 2 cores with a second busy process, 2 threads trained 2.6x slower than 1
    (Jungle Sweep 1,289 vs 3,366 steps/s; quiet, 2 threads were 1.3x faster);
    ``python -m benchmarks.torch_threads`` measures it. Half the cores keeps that margin."""
    if isinstance(venv, SubprocVecEnv):
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(4, (cores or 1) // 2))


def uses_pool(config: dict[str, Any]) -> bool:
    """Whether the run's opponents or curriculum draw from the self-play pool."""
    mixes = [config["opponents"], *(stage["opponents"] for stage in config["curriculum"])]
    return any(isinstance(mix, dict) and mix.get(POOL, 0) > 0 for mix in mixes)


def set_opponent_pool(venv: VecEnv, players: list) -> None:
    """Give a compiled vector env (under any SB3 wrappers) its self-play pool."""
    venv.unwrapped.set_opponent_pool(players)


def set_opponent_mix(venv: VecEnv, mix: dict) -> None:
    """Change the opponents of a compiled vector env (under any SB3 wrappers)."""
    inner = venv.unwrapped
    if not hasattr(inner, "set_opponent_mix"):
        raise ValueError(
            "an opponent curriculum needs the compiled vector env: built-in opponents "
            "(random, heuristic) and vec_env auto or compiled"
        )
    inner.set_opponent_mix(mix)
