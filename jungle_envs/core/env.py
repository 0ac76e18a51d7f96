"""One Gymnasium env for every game: the learner's seat against pluggable opponents.

The env wraps a ``Game``: ``reset`` deals a game and plays chance events and opponents
until the learner must decide; ``step`` applies the learner's action and does the same
again. Every game's env subclass only names its game and documents it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from jungle_envs.core.game import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    check_action_index,
)
from jungle_envs.core.policies import seat_policies

ENV_OPTIONS = {
    "num_players": "number of seats (see the game's range)",
    "opponents": "'random', 'heuristic', a model path/object, a policy, a callable, or a list",
    "agent_seat": "'random' (drawn each reset) or a seat index",
    "render_mode": "None, 'ansi' or 'human'",
    "observation_mode": "'flat' (a float32 vector) or 'dict' (observation + action_mask)",
    "illegal_action": "'lose' (end the episode with -1) or 'raise'",
    "reward": "'win' (+1 sole win, 0 shared/no winner, -1 loss) or 'score' (score gained)",
    "skip_forced_actions": "play the learner's only legal action automatically (default True)",
}
CHOICES = {
    "observation_mode": ("flat", "dict"),
    "illegal_action": ("lose", "raise"),
    "reward": ("win", "score"),
    "render_mode": (None, "ansi", "human"),
}
MAX_RESETS_WITHOUT_DECISION = 100


class UnsupportedRenderMode(ValueError, TypeError):
    """A render mode the env cannot produce.

    Also a TypeError so callers that probe render modes keep working: Stable-Baselines3's
    ``make_vec_env`` asks for ``"rgb_array"`` and retries without it on a TypeError.
    """


class OpponentError(RuntimeError):
    """An opponent policy answered with an action that is not legal."""


class JungleEnv(gym.Env):
    """Generic multi-player env; subclasses set ``game_class`` and the docstring."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 4}
    game_class: ClassVar[type[Game]]

    def __init__(
        self,
        num_players: int | None = None,
        opponents: Any = "random",
        agent_seat: int | str = "random",
        render_mode: str | None = None,
        observation_mode: str = "flat",
        illegal_action: str = "lose",
        reward: str = "win",
        skip_forced_actions: bool = True,
        **game_options: Any,
    ) -> None:
        spec = self.game_class.spec
        known_game = {opt.name for opt in spec.options}
        unknown = sorted(set(game_options) - known_game)
        if unknown:
            raise ValueError(
                f"unknown option(s) {unknown} for {spec.env_id}; env options: "
                f"{sorted(ENV_OPTIONS)}; game options: {sorted(known_game) or 'none'}"
            )
        for name, value in (
            ("observation_mode", observation_mode),
            ("illegal_action", illegal_action),
            ("reward", reward),
            ("render_mode", render_mode),
        ):
            if value not in CHOICES[name]:
                error = UnsupportedRenderMode if name == "render_mode" else ValueError
                raise error(f"{name}={value!r} is not one of {list(CHOICES[name])}")
        game = self.game_class(num_players, **game_options)
        seats = range(game.num_players)
        if agent_seat != "random" and (
            isinstance(agent_seat, bool)
            or not isinstance(agent_seat, (int, np.integer))
            or agent_seat not in seats
        ):
            raise ValueError(
                f"agent_seat must be 'random' or a seat in 0..{game.num_players - 1}, "
                f"got {agent_seat!r}"
            )
        resolve = seat_policies(opponents, game)
        for seat in seats if agent_seat == "random" else [int(agent_seat)]:
            resolve(seat)  # fail now, not at the first reset

        self.game = game
        self.num_players = game.num_players
        self.agent_seat_option = agent_seat
        self.render_mode = render_mode
        self.observation_mode = observation_mode
        self.illegal_action = illegal_action
        self.reward_mode = reward
        self.skip_forced_actions = bool(skip_forced_actions)
        self._resolve_opponents = resolve

        n_actions = spec.num_actions
        self.action_space = spaces.Discrete(n_actions)
        flat = spaces.Box(0.0, 1.0, shape=(game.observation_size,), dtype=np.float32)
        if observation_mode == "dict":
            self.observation_space = spaces.Dict(
                {"observation": flat, "action_mask": spaces.Box(0, 1, (n_actions,), np.int8)}
            )
        else:
            self.observation_space = flat

        self.state = None
        self.agent_seat = 0
        self._opponents: dict[int, Any] = {}
        self._needs_obs: dict[int, bool] = {}
        self._opponent_rng = np.random.default_rng()
        self._mask = np.ones(n_actions, dtype=bool)
        self._done = False
        self._last_score = 0.0

    # --- Gymnasium API ----------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if options:
            raise ValueError(f"reset() takes no options, got {sorted(options)}")
        super().reset(seed=seed)
        # Opponents draw from their own stream so their choices never shift the dice.
        self._opponent_rng = np.random.default_rng(self.np_random.integers(2**63))
        if self.agent_seat_option == "random":
            self.agent_seat = int(self.np_random.integers(self.num_players))
        else:
            self.agent_seat = int(self.agent_seat_option)
        self._opponents = self._resolve_opponents(self.agent_seat)
        self._needs_obs = {
            seat: getattr(policy, "uses_observation", True)
            for seat, policy in self._opponents.items()
        }
        for policy in {id(p): p for p in self._opponents.values()}.values():
            if hasattr(policy, "start_episode"):  # e.g. a self-play pool picks its player
                policy.start_episode(self._opponent_rng)
        for _ in range(MAX_RESETS_WITHOUT_DECISION):
            self.state = self.game.new_state()
            self._done = False
            self._last_score = 0.0
            self._advance()
            if not self._done:
                break
        else:
            raise RuntimeError("no game gave the learner a decision")
        if self.reward_mode == "score":
            self._last_score = self._score()
        return self._observation(), self._info()

    def step(self, action: Any):
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode is over; call reset() before step()")
        action = check_action_index(action, self.action_space.n)
        if not self._mask[action]:
            legal = self.game.describe_actions(np.flatnonzero(self._mask).tolist())
            message = (
                f"action {action} ({self.game.spec.action_names[action]}) is not legal for "
                f"seat {self.agent_seat}; legal: {legal}"
            )
            if self.illegal_action == "raise":
                raise IllegalActionError(message)
            self._done = True
            info = self._info()
            info.update(illegal_action=True, illegal_action_message=message)
            return self._observation(), -1.0, True, False, info
        self.game._apply_action(self.state, action)
        self._advance()
        if self.reward_mode == "score":
            score = self._score()
            reward, self._last_score = score - self._last_score, score
        else:
            reward = self.game.returns(self.state)[self.agent_seat] if self._done else 0.0
        return self._observation(), float(reward), self._done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Bool mask of legal actions (what sb3-contrib's MaskablePPO reads)."""
        return self._mask.copy()

    def render(self) -> str | None:
        if self.state is None or self.render_mode is None:
            return None
        viewer = None if self._done else self.agent_seat
        text = self.game.render(self.state, viewer)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # --- internals --------------------------------------------------------------------
    def _advance(self) -> None:
        """Play chance and opponents until the learner must decide or the game ends."""
        game, state = self.game, self.state
        while True:
            player = game.current_player(state)
            if player == CHANCE:
                game._apply_chance(state, game.sample_chance(state, self.np_random))
                continue
            if player == TERMINAL:
                self._done = True
                self._mask = np.ones(self.action_space.n, dtype=bool)
                return
            mask = game.legal_mask(state)
            if player == self.agent_seat:
                if self.skip_forced_actions and mask.sum() == 1:
                    game._apply_action(state, int(mask.argmax()))
                    continue
                self._mask = mask
                return
            policy = self._opponents[player]
            obs = game.observe(state, player) if self._needs_obs[player] else None
            action = policy.act(obs, mask, self._opponent_rng)
            try:
                action = check_action_index(action, self.action_space.n)
            except ValueError as exc:
                raise OpponentError(f"opponent in seat {player}: {exc}") from None
            if not mask[action]:
                raise OpponentError(
                    f"opponent in seat {player} chose illegal action {action}; legal: "
                    f"{game.describe_actions(np.flatnonzero(mask).tolist())}"
                )
            game._apply_action(state, action)

    def _score(self) -> float:
        return float(self.game.scores(self.state)[self.agent_seat])

    def _observation(self):
        obs = self.game.observe(self.state, self.agent_seat)
        if self.observation_mode == "dict":
            return {"observation": obs, "action_mask": self._mask.astype(np.int8)}
        return obs

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self._mask.astype(np.int8),
            "agent_seat": self.agent_seat,
        }
        if self._done:
            game, state = self.game, self.state
            info["scores"] = game.scores(state)
            info["winners"] = game.winners(state)
            info["returns"] = game.returns(state)
            info.update(game.final_details(state))
        return info


class ActionMaskAccess(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Outermost wrapper ``gymnasium.make`` adds so ``env.action_masks()`` still works.

    Gymnasium's own wrappers (TimeLimit, OrderEnforcing) do not forward methods.
    """

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.Wrapper.__init__(self, env)

    def action_masks(self) -> np.ndarray:
        return self.env.get_wrapper_attr("action_masks")()
