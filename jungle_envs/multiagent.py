"""PettingZoo AEC environments for every game, built on the same rules engines.

    from jungle_envs import multiagent

    env = multiagent.env("JungleSweep-v0", num_players=4, render_mode="ansi")
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(
            observation["action_mask"])
        env.step(action)

Agents are named by seat (``player_0`` ...). Whoever must decide is selected, also in the
middle of another player's turn (a defender in Spank the Monkey). ``observe(agent)`` gives
that agent's own view: ``{"observation": float32 vector, "action_mask": int8}``, the same
encoding as the Gymnasium env (other players' secrets hidden); the mask is all zero for an
agent that is not selected. Chance events are sampled with the env's generator, seeded by
``reset(seed=...)``. Rewards (+1 sole win, 0 shared or none, -1 loss) reach every agent
when the game ends. Needs the ``multiagent`` extra (``pip install 'jungle-envs[multiagent]'``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

try:
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:
    raise ImportError(
        "jungle_envs.multiagent needs PettingZoo: pip install 'jungle-envs[multiagent]'"
    ) from exc

from jungle_envs.core.game import CHANCE, TERMINAL, IllegalActionError, check_action_index
from jungle_envs.core.registry import game_class


class JungleAECEnv(AECEnv):
    """One game of the package as a PettingZoo AEC environment."""

    metadata = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        game: str,
        num_players: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            modes = [None, *self.metadata["render_modes"]]
            raise ValueError(f"render_mode={render_mode!r} is not one of {modes}")
        self.game = game_class(game)(num_players, **options)
        spec = self.game.spec
        self.metadata = {**self.metadata, "name": f"{spec.name}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.game.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (spec.num_actions,), np.int8),
        })  # fmt: skip
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(spec.num_actions) for a in self.possible_agents}
        self.state = None
        self.np_random, _ = seeding.np_random(None)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self.state is None:
            self.np_random, _ = seeding.np_random(seed)
        self.state = self.game.new_state()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._advance()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        mask = np.zeros(self.game.spec.num_actions, dtype=np.int8)
        if agent == self.agent_selection and not self.terminations[agent]:
            mask[self.game.legal_actions(self.state)] = 1
        return {"observation": self.game.observe(self.state, seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = check_action_index(action, self.game.spec.num_actions)
        if not self.game.legal_mask(self.state)[action]:
            raise IllegalActionError(
                f"{agent} may not play {action} ({self.game.spec.action_names[action]}); "
                f"legal: {self.game.describe_actions(self.game.legal_actions(self.state))}"
            )
        self._cumulative_rewards[agent] = 0.0
        self.game._apply_action(self.state, action)
        self._advance()
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> None:
        """Resolve chance until someone must decide; at the end pay every agent."""
        game, state = self.game, self.state
        while (player := game.current_player(state)) == CHANCE:
            game._apply_chance(state, game.sample_chance(state, self.np_random))
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if player == TERMINAL:
            returns = game.returns(state)
            scores, winners = game.scores(state), game.winners(state)
            for agent in self.agents:
                seat = self._seat[agent]
                self.rewards[agent] = float(returns[seat])
                self.terminations[agent] = True
                self.infos[agent] = {"scores": scores, "winners": winners}
            if getattr(self, "agent_selection", None) not in self.agents:
                # A deal can end the game before anyone decides (Tropic Race's volcano):
                # agent_iter still needs an agent to hand each dead step to.
                self.agent_selection = self.agents[0]
            self._accumulate_rewards()
            return
        self.agent_selection = self.possible_agents[player]
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        """The whole table, hidden cards included (the view of a spectator): text for
        "ansi" and "human" (printed, also at every reset and step), a picture for
        "rgb_array"."""
        if self.render_mode is None or self.state is None:
            return None
        if self.render_mode == "rgb_array":
            return self.game.render_image(self.state)
        text = self.game.render(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(name: str, **kwargs: Any) -> JungleAECEnv:
    """The bare AEC env for ``name`` ("JungleSweep-v0", "jungle_envs/JungleSweep-v0", ...)."""
    return JungleAECEnv(name, **kwargs)


def env(name: str, **kwargs: Any) -> AECEnv:
    """The AEC env with PettingZoo's usual checks: out-of-bounds actions, order of calls."""
    wrapped = raw_env(name, **kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
