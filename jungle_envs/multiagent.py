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
agent that is not selected. Chance events are drawn from the env's own streams, seeded by
``reset(seed=...)``. Rewards (+1 sole win, 0 shared or none, -1 loss) reach every agent
when the game ends. The game runs on its compiled twin (``engine="auto"``, one kernel
call from one decision to the next) or on the Python reference (``engine="reference"``).
``parallel_env`` gives the same games through PettingZoo's parallel API.
Needs the ``multiagent`` extra (``pip install 'jungle-envs[multiagent]'``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

try:
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils.env_logger import EnvLogger
except ImportError as exc:
    raise ImportError(
        "jungle_envs.multiagent needs PettingZoo: pip install 'jungle-envs[multiagent]'"
    ) from exc

from jungle_envs.core.game import TERMINAL, IllegalActionError, check_action_index
from jungle_envs.core.registry import game_class
from jungle_envs.core.turns import make_table


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
        engine: str = "auto",
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            modes = [None, *self.metadata["render_modes"]]
            raise ValueError(f"render_mode={render_mode!r} is not one of {modes}")
        self.game = game_class(game)(num_players, **options)
        self.table = make_table(self.game, engine)
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
        self._seeded = False
        self._has_reset = False

    @property
    def state(self):
        """The game as it stands (a snapshot on the compiled engine), None before reset."""
        return self.table.state

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        reseed = seed is not None or not self._seeded
        self._seeded = self._has_reset = True
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._arrive(self.table.deal(seed, reseed))
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        seat = self._seat[agent]
        if agent == self.agent_selection and not self.terminations[agent]:
            mask = self.table.legal_mask()
        else:
            mask = np.zeros(self.game.spec.num_actions, dtype=np.int8)
        return {"observation": self.table.observe(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = check_action_index(action, self.game.spec.num_actions)
        if not self.table.is_legal(action):
            legal = np.flatnonzero(self.table.legal_mask()).tolist()
            raise IllegalActionError(
                f"{agent} may not play {action} ({self.game.spec.action_names[action]}); "
                f"legal: {self.game.describe_actions(legal)}"
            )
        self._cumulative_rewards[agent] = 0.0
        self._arrive(self.table.play(action))
        if self.render_mode == "human":
            self.render()

    def agent_iter(self, max_iter: int = 2**63):
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return super().agent_iter(max_iter)

    def _arrive(self, player: int) -> None:
        """Select the agent who must decide now; at the end pay every agent."""
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if player == TERMINAL:
            state = self.table.snapshot()
            returns = self.table.returns()
            scores, winners = self.game.scores(state), self.game.winners(state)
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
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        state = self.table.snapshot()
        if self.render_mode is None or state is None:
            return None
        if self.render_mode == "rgb_array":
            return self.game.render_image(state)
        text = self.game.render(state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class JungleParallelEnv(ParallelEnv):
    """One game of the package through PettingZoo's parallel API.

    Every step takes a dict of actions from the live agents and plays the one of the agent
    that must decide (the one whose ``action_mask`` is not all zero); the others' actions
    are ignored (the mask shows them none: a masked sample gives 0). Each agent observes
    its own view every step; rewards (+1 sole win, 0 shared or none, -1 loss) reach every
    agent at the end, with ``infos[agent]["scores"]`` and ``["winners"]``. ``infos[agent]
    ["to_move"]`` is True for the agent that decides next. An illegal move of the agent
    to move ends the game: ``illegal_action="lose"`` (the default, as the Gymnasium env's)
    pays it -1 and the others 0, ``"raise"`` raises and changes nothing. Same engines and
    seeding as the AEC env, which ``self.aec`` is (``self.aec.state``: the game).
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 2}

    def __init__(self, game: str, num_players: int | None = None,
                 render_mode: str | None = None, engine: str = "auto",
                 illegal_action: str = "lose", **options: Any) -> None:  # fmt: skip
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.aec = JungleAECEnv(game, num_players, render_mode, engine, **options)
        self.game = self.aec.game
        self.metadata = {**self.metadata, "name": self.aec.metadata["name"]}
        self.render_mode = render_mode
        self.possible_agents = self.aec.possible_agents
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        return self._observations(), self._infos()

    def step(self, actions: dict[str, Any]):
        if not self.agents:
            raise RuntimeError("the game is over: reset() before step()")
        aec = self.aec
        mover = aec.agent_selection
        if not aec.terminations[mover]:
            if mover not in actions:
                raise ValueError(f"{mover} must decide now; actions has only {sorted(actions)}")
            action = check_action_index(actions[mover], self.game.spec.num_actions)
            if self.illegal_action == "lose" and not aec.table.is_legal(action):
                return self._lose(mover)
            aec.step(action)
        observations, infos = self._observations(), self._infos()
        rewards = {agent: float(aec.rewards[agent]) for agent in self.agents}
        terminations = {agent: bool(aec.terminations[agent]) for agent in self.agents}
        truncations = dict.fromkeys(self.agents, False)
        if all(terminations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _lose(self, mover: str):
        """The mover played an illegal move: the game ends, -1 to it, 0 to the others."""
        agents, self.agents = self.agents, []
        observations = {agent: self.aec.observe(agent) for agent in agents}
        for observation in observations.values():
            observation["action_mask"][:] = 0
        rewards = {agent: -1.0 if agent == mover else 0.0 for agent in agents}
        infos = {agent: {"illegal_action": mover, "to_move": False} for agent in agents}
        return (
            observations,
            rewards,
            dict.fromkeys(agents, True),
            dict.fromkeys(agents, False),
            infos,
        )

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {agent: self.aec.observe(agent) for agent in self.agents}

    def _infos(self) -> dict[str, dict]:
        aec = self.aec
        return {
            agent: {
                **aec.infos[agent],
                "to_move": agent == aec.agent_selection and not aec.terminations[agent],
            }
            for agent in self.agents
        }

    def render(self) -> str | np.ndarray | None:
        return self.aec.render()

    def state(self) -> np.ndarray:
        raise NotImplementedError("no global state array: each agent observes its own view")

    def close(self) -> None:
        self.aec.close()


def parallel_env(name: str, **kwargs: Any) -> JungleParallelEnv:
    """The game through PettingZoo's parallel API (``JungleParallelEnv``)."""
    return JungleParallelEnv(name, **kwargs)


def raw_env(name: str, **kwargs: Any) -> JungleAECEnv:
    """The bare AEC env for ``name`` ("JungleSweep-v0", "jungle_envs/JungleSweep-v0", ...)."""
    return JungleAECEnv(name, **kwargs)


def env(name: str, **kwargs: Any) -> JungleAECEnv:
    """The AEC env. It makes the checks of PettingZoo's ``OrderEnforcingWrapper`` and
    ``AssertOutOfBoundsWrapper`` itself (no step, observe or render before reset, a warning
    for a step after the end, a ValueError for an action outside the space): the wrappers
    forward every attribute read through Python and cost more than a decision of the
    compiled engine."""
    return raw_env(name, **kwargs)
