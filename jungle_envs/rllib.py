"""Ray RLlib integration: a multi-agent env, an action-masking RL module, and a policy
that plays a trained RLlib module in the package's envs and tools.

Needs the ``rllib`` extra (``pip install 'jungle-envs[rllib]'``); nothing here is imported
by the rest of the package unless asked for.

- ``JungleRLlibEnv`` wraps the PettingZoo AEC env (``jungle_envs.multiagent``) as an
  RLlib ``MultiAgentEnv``. Observations are dicts ``{"observations", "action_mask"}``.
  Seats listed in ``fixed`` are played inside the env by package policies (random,
  heuristic, ...); with ``learner_seats="one"`` one random seat per episode is the learner
  and every other seat is fixed, with ``"all"`` every seat is a learner agent (self-play
  with one shared policy).
- ``MaskedPPOModule`` is a PPO torch RL module that reads the mask from the observation
  and sets the logits of illegal actions to the lowest float.
- ``RLlibPolicy`` loads a module from a checkpoint and acts greedily; ``make_policy``
  builds it from ``"rllib:CHECKPOINT_DIR"`` (see ``training.evaluate``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import (
    DefaultPPOTorchRLModule as PPOTorchRLModule,
)
from ray.rllib.core.columns import Columns
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.utils.torch_utils import FLOAT_MIN

from jungle_envs.core.policies import make_policy, opponent_action
from jungle_envs.multiagent import raw_env

MODULE_ID = "shared"


def agent_seat(agent: str) -> int:
    return int(agent.rsplit("_", 1)[1])


class JungleRLlibEnv(MultiAgentEnv):
    """A game of the package as an RLlib multi-agent env (turn based: one agent acts)."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        self.aec = raw_env(
            config.pop("game", "JungleSweep-v0"),
            num_players=config.pop("num_players", None),
            **config.pop("options", {}),
        )
        self.learner_seats = config.pop("learner_seats", "all")
        if self.learner_seats not in ("one", "all"):
            raise ValueError(f"learner_seats must be 'one' or 'all', got {self.learner_seats!r}")
        fixed = config.pop("fixed", "random")
        if config:
            raise ValueError(f"unknown env config keys {sorted(config)}")
        game = self.aec.game
        self.fixed_policy = make_policy(fixed, game) if self.learner_seats == "one" else None
        self.possible_agents = list(self.aec.possible_agents)
        self.agents = list(self.possible_agents)
        n = game.spec.num_actions
        space = spaces.Dict({
            "observations": spaces.Box(0.0, 1.0, (game.observation_size,), np.float32),
            "action_mask": spaces.Box(0.0, 1.0, (n,), np.float32),
        })  # fmt: skip
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._learners: set[str] = set(self.possible_agents)
        self._rng = np.random.default_rng()

    def _obs(self, agent: str) -> dict[str, np.ndarray]:
        raw = self.aec.observe(agent)
        return {
            "observations": raw["observation"],
            "action_mask": raw["action_mask"].astype(np.float32),
        }

    def _to_learner(self) -> tuple[dict, dict, dict, dict]:
        """Let fixed seats play until a learner must act or the game ends."""
        aec = self.aec
        while True:
            agent = aec.agent_selection
            if all(aec.terminations.values()):
                rewards = {a: float(aec._cumulative_rewards[a]) for a in self._learners}
                obs = {a: self._obs(a) for a in self._learners}
                done = {a: True for a in self._learners} | {"__all__": True}
                return obs, rewards, done, {"__all__": False}
            if agent in self._learners:  # RLlib wants a reward with every observation
                return (
                    {agent: self._obs(agent)},
                    {agent: 0.0},
                    {"__all__": False},
                    {"__all__": False},
                )
            seat = aec.possible_agents.index(agent)
            mask = aec.table.legal_mask().astype(bool)
            action = opponent_action(self.fixed_policy, aec.game, aec.state, seat, mask, self._rng)
            aec.step(action)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._rng = np.random.default_rng([seed, 1])
        self.aec.reset(seed=seed)
        if self.learner_seats == "one":
            self._learners = {self.possible_agents[int(self._rng.integers(len(self.agents)))]}
        else:
            self._learners = set(self.possible_agents)
        obs, _, _, _ = self._to_learner()
        return obs, {}

    def step(self, action_dict: dict[str, int]):
        agent = self.aec.agent_selection
        self.aec.step(int(action_dict[agent]))
        obs, rewards, terminated, truncated = self._to_learner()
        return obs, rewards, terminated, truncated, {}


class MaskedPPOModule(PPOTorchRLModule):
    """PPO module for dict observations: the network sees ``observations``; the logits of
    actions the ``action_mask`` forbids are pushed to the lowest float."""

    def __init__(self, *, observation_space=None, **kwargs) -> None:
        self.full_observation_space = observation_space
        super().__init__(observation_space=observation_space["observations"], **kwargs)

    def setup(self) -> None:
        super().setup()
        self.observation_space = self.full_observation_space

    @staticmethod
    def _split(batch: dict) -> tuple[torch.Tensor, dict]:
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict):
            return None, batch
        batch = dict(batch)
        batch[Columns.OBS] = obs["observations"]
        return obs["action_mask"], batch

    @staticmethod
    def _mask(outs: dict, mask: torch.Tensor | None) -> dict:
        if mask is not None:
            outs[Columns.ACTION_DIST_INPUTS] = outs[Columns.ACTION_DIST_INPUTS] + torch.clamp(
                torch.log(mask), min=FLOAT_MIN
            )
        return outs

    def _forward_inference(self, batch, **kwargs):
        mask, batch = self._split(batch)
        return self._mask(super()._forward_inference(batch, **kwargs), mask)

    def _forward_exploration(self, batch, **kwargs):
        mask, batch = self._split(batch)
        return self._mask(super()._forward_exploration(batch, **kwargs), mask)

    def _forward_train(self, batch, **kwargs):
        mask, batch = self._split(batch)
        return self._mask(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch, embeddings=None):
        _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)


def module_path(checkpoint: str | Path) -> Path:
    return Path(checkpoint) / "learner_group" / "learner" / "rl_module" / MODULE_ID


def checkpoint_policy(game: Any, checkpoint: str | None) -> RLlibPolicy:
    """The registered name ``rllib:CHECKPOINT_DIR``: a trained RLlib module as an opponent."""
    if not checkpoint:
        raise ValueError("an RLlib opponent names its checkpoint: 'rllib:CHECKPOINT_DIR'")
    return RLlibPolicy(checkpoint)


class RLlibPolicy:
    """A trained RLlib module as a package policy (greedy over the legal actions)."""

    def __init__(self, checkpoint: str | Path) -> None:
        from ray.rllib.core.rl_module.rl_module import RLModule

        path = module_path(checkpoint)
        if not path.exists():
            raise FileNotFoundError(f"no RLlib module {MODULE_ID!r} under {checkpoint}")
        self.module = RLModule.from_checkpoint(path)
        self.observation_size = int(self.module.full_observation_space["observations"].shape[0])

    def act(self, observation, action_mask, rng) -> int:
        obs = {
            "observations": torch.as_tensor(observation, dtype=torch.float32)[None],
            "action_mask": torch.as_tensor(np.asarray(action_mask, np.float32))[None],
        }
        with torch.no_grad():
            out = self.module.forward_inference({Columns.OBS: obs})
        logits = out[Columns.ACTION_DIST_INPUTS][0].numpy()
        return int(np.argmax(np.where(np.asarray(action_mask, bool), logits, -np.inf)))
