"""One Gymnasium env for every game: the learner's seat against pluggable opponents.

The env wraps a ``Game``: ``reset`` deals a game and plays chance events and opponents
until the learner must decide; ``step`` applies the learner's action and does the same
again. The game runs on its compiled twin when it has one (``engine="auto"``), else on the
Python reference engine (``core/engines.py``); both behave the same to the caller. Every
game's env subclass only names its game and documents it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from jungle_envs.core import events
from jungle_envs.core.arguments import (
    REWARD_KINDS,
    UnsupportedRenderMode,
    check_choice,
    check_flag,
    check_reset_options,
    parse_env_arguments,
)
from jungle_envs.core.engines import CompiledEngine, OpponentError, Record, ReferenceEngine
from jungle_envs.core.game import Game, IllegalActionError, check_action_index
from jungle_envs.core.policies import seat_policies

__all__ = ["JungleEnv", "OpponentError", "UnsupportedRenderMode"]

MAX_RESETS_WITHOUT_DECISION = 100


class JungleEnv(gym.Env):
    """Generic multi-player env; subclasses set ``game_class`` and the docstring."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "render_fps": 2,
    }
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
        engine: str = "auto",
        step_limit: int | None = -1,
        event_log: bool = False,
        **game_options: Any,
    ) -> None:
        check_choice("render_mode", render_mode)
        check_choice("engine", engine)
        args = parse_env_arguments(
            self.game_class, num_players, opponents, agent_seat, observation_mode,
            illegal_action, reward, skip_forced_actions, step_limit, game_options,
        )  # fmt: skip
        game, spec = args.game, self.game_class.spec
        resolve = seat_policies(args.opponents, game)
        for seat in range(game.num_players) if args.agent_seat is None else [args.agent_seat]:
            resolve(seat)  # fail now, not at the first reset
        event_log = check_flag("event_log", event_log)

        self.game = game
        self.num_players = game.num_players
        self.agent_seat_option = "random" if args.agent_seat is None else args.agent_seat
        self.render_mode = render_mode
        self.observation_mode = args.observation_mode
        self.illegal_action = args.illegal_action
        self.reward_mode = args.reward
        self.skip_forced_actions = args.skip_forced_actions
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

        self.engine = make_engine(game, engine, self.skip_forced_actions, REWARD_KINDS[args.reward])
        self.event_log = event_log
        if self.event_log:
            self.engine.log = []
        self.step_limit = args.step_limit
        self.agent_seat = 0
        self._steps = 0
        self._started = False
        self._opponent_rng = np.random.default_rng()

    # --- Gymnasium API ----------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        check_reset_options(options)
        super().reset(seed=seed)
        # Opponents draw from their own stream so their choices never shift the dice.
        self._opponent_rng = np.random.default_rng(self.np_random.integers(2**63))
        if self.agent_seat_option == "random":
            self.agent_seat = int(self.np_random.integers(self.num_players))
        else:
            self.agent_seat = int(self.agent_seat_option)
        opponents = self._resolve_opponents(self.agent_seat)
        for policy in {id(p): p for p in opponents.values()}.values():
            if hasattr(policy, "start_episode"):  # e.g. a self-play pool picks its player
                policy.start_episode(self._opponent_rng)
        for _ in range(MAX_RESETS_WITHOUT_DECISION):
            if self.engine.new_episode(
                self.agent_seat, opponents, self.np_random, self._opponent_rng
            ):
                break
        else:
            raise RuntimeError(
                f"no game in {MAX_RESETS_WITHOUT_DECISION} deals gave the learner a decision: "
                f"the options {self.game.options} may leave seat {self.agent_seat} nothing to do"
            )
        self._started = True
        self._steps = 0
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any):
        if not self._started:
            raise RuntimeError("call reset() before step()")
        engine = self.engine
        if engine.done:
            raise RuntimeError("the episode is over; call reset() before step()")
        action = check_action_index(action, self.action_space.n)
        if not engine.mask[action]:
            legal = self.game.describe_actions(np.flatnonzero(engine.mask).tolist())
            message = (
                f"action {action} ({self.game.spec.action_names[action]}) is not legal for "
                f"seat {self.agent_seat}; legal: {legal}"
            )
            if self.illegal_action == "raise":
                raise IllegalActionError(message)
            engine.done = True
            info = self._info()
            info.update(illegal_action=True, illegal_action_message=message)
            return self._observation(), -1.0, True, False, info
        reward = engine.step(action)
        self._steps += 1
        truncated = (
            not engine.done and self.step_limit is not None and self._steps >= self.step_limit
        )
        if self.render_mode == "human":
            self.render()
        if truncated:
            engine.done = True  # the episode is over; the game itself is not
            return self._observation(), reward, False, True, self._info(final=False)
        return self._observation(), reward, engine.done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Bool mask of legal actions (what sb3-contrib's MaskablePPO reads)."""
        if not self._started:
            raise RuntimeError("call reset() before action_masks(): there is no game yet")
        return np.array(self.engine.mask, dtype=bool)

    @property
    def state(self):
        """The game's state (on the compiled engine, a snapshot: changing it changes
        nothing); None before the first reset."""
        return self.engine.state

    def record_replays(self, on: bool = True) -> None:
        """From the next reset on, keep every step of each episode (every seat's decisions
        and the chance outcomes as they are, hidden cards included) for ``replay()``. Off
        by default: on the compiled engine each kernel call is then replayed rule by rule
        first, as the event log does, which is slower. The record is the table's, not the
        learner's: nothing of it reaches observations or ``info``."""
        self.engine.record = Record(None) if on else None

    def replay(self, seats: list[str] | None = None):
        """The episode so far as a ``jungle_envs.replay.Replay`` (``seats``: who played
        each seat, for its viewers); ``record_replays()`` must have been called before the
        episode's reset."""
        record = self.engine.record
        if record is None or record.start is None:
            raise RuntimeError("no replay is kept: call record_replays() before reset()")
        from jungle_envs.replay import Replay

        steps = [(None if seat is None else int(seat), int(value)) for seat, value in record.steps]
        return Replay(self.game, record.start.copy(), steps, None if seats is None else list(seats))

    def render(self) -> str | np.ndarray | None:
        """The table as the learner sees it (everything once the game is over): text for
        "ansi", a picture for "rgb_array"; "human" prints the text (also at every reset
        and step, as Gymnasium's convention asks). With the event log on, the text ends
        with what happened since the learner's last decision."""
        if not self._started or self.render_mode is None:
            return None
        viewer = None if self.engine.done else self.agent_seat
        if self.render_mode == "rgb_array":
            return self.game.render_image(self.engine.state, viewer)
        text = self.game.render(self.engine.state, viewer)
        if self.event_log and self.engine.log:
            text += "\nsince your last decision:\n" + events.as_text(self.engine.log)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # --- internals --------------------------------------------------------------------
    def _observation(self):
        obs = self.engine.observation()
        if self.observation_mode == "dict":
            return {"observation": obs, "action_mask": self.engine.mask.astype(np.int8)}
        return obs

    def _info(self, final: bool = True) -> dict[str, Any]:
        engine = self.engine
        info: dict[str, Any] = {
            "action_mask": engine.mask.astype(np.int8),
            "agent_seat": self.agent_seat,
        }
        if self.event_log:
            info["events"] = list(engine.log)
        if engine.done and final:
            info.update(self.game.final_info(engine.state))
        return info


AUTO_ENGINE = "auto"  # what engine="auto" means; the test suite runs the envs on both


def make_engine(game: Game, engine: str, skip_forced: bool, reward_kind: int):
    """The compiled twin for "auto" (when the game and its options have one) and
    "compiled" (or an error saying why not); the Python reference otherwise."""
    if engine == "auto":
        engine = AUTO_ENGINE
    if engine == "reference":
        return ReferenceEngine(game, skip_forced, reward_kind)
    from jungle_envs.core.compiled.twin import Twin, TwinUnavailable

    try:
        twin = Twin(game)
    except TwinUnavailable:
        if engine == "compiled":
            raise
        return ReferenceEngine(game, skip_forced, reward_kind)
    return CompiledEngine(game, skip_forced, reward_kind, twin)
