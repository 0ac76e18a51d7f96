"""What the env runs a game on: the reference rules engine or its compiled twin.

Both engines play chance and opponents until the learner must decide, and answer the env
with the learner's observation, mask and reward; the env (``core/env.py``) owns the API,
the checks and the seeding. The reference engine calls the game's Python functions; the
compiled engine runs one numba kernel per step for chance and the built-in opponents
(random, heuristic) and hands other opponents (models, callables) their turn in Python.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from jungle_envs.core import events
from jungle_envs.core.arguments import MARGIN_REWARD, RANK_REWARD, WIN_REWARD
from jungle_envs.core.game import CHANCE, TERMINAL, Game, check_action_index, places
from jungle_envs.core.policies import (
    MixturePolicy,
    RandomPolicy,
    observation_game,
    opponent_action,
    opponent_observation,
)
from jungle_envs.core.state import GameState


@dataclass
class Record:
    """An episode as ``jungle_envs.replay`` keeps it: the state before the deal and every
    step since, ``[seat, action]`` or ``[None, outcome]`` with hidden outcomes as they are.
    The table's own record, for replays of exactly the games played; never in ``info``."""

    start: GameState | None  # None until the next deal: recording starts there
    steps: list[list] = field(default_factory=list)


class OpponentError(RuntimeError):
    """An opponent policy answered with an action that is not legal."""


def checked_opponent_action(game: Game, seat: int, action: Any, mask: np.ndarray) -> int:
    try:
        action = check_action_index(action, game.spec.num_actions)
    except ValueError as exc:
        raise OpponentError(f"opponent in seat {seat}: {exc}") from None
    if not mask[action]:
        raise OpponentError(
            f"opponent in seat {seat} chose illegal action {action}; legal: "
            f"{game.describe_actions(np.flatnonzero(mask).tolist())}"
        )
    return action


class ReferenceEngine:
    """The game's Python rules engine: readable, and the yardstick of the compiled one."""

    name = "reference"

    def __init__(self, game: Game, skip_forced_actions: bool, reward_kind: int) -> None:
        self.game = game
        self.skip_forced = skip_forced_actions
        self.reward_kind = reward_kind
        self.state: GameState | None = None
        self.mask = np.ones(game.spec.num_actions, dtype=bool)
        self.done = False
        self._last_score = 0.0
        self.log: list[dict] | None = None  # the event log, when the env keeps one
        self.record: Record | None = None  # every raw step, when the env records replays

    def new_episode(self, learner: int, opponents: dict, rng, opponent_rng) -> bool:
        """Deal a game and play on to the learner's first decision; False if it ended."""
        self.learner, self.opponents = learner, opponents
        self.rng, self.opponent_rng = rng, opponent_rng
        self.state = self.game.new_state()
        self.done = False
        if self.log is not None:
            self.log = []
        if self.record is not None:
            self.record = Record(self.state.copy())
        self._advance()
        self._last_score = self._score()
        return not self.done

    def step(self, action: int) -> float:
        """Apply the learner's (legal) action, play on, and return the learner's reward."""
        if self.log is not None:
            self.log = [events.decision(self.game, self.learner, action, self.learner)]
        if self.record is not None:
            self.record.steps.append([self.learner, action])
        self.game._apply_action(self.state, action)
        self._advance()
        if self.reward_kind == RANK_REWARD:
            if not self.done:
                return 0.0
            won = self.game.returns(self.state)[self.learner]
            return (won + float(places(self.game.scores(self.state))[self.learner])) / 2.0
        if self.reward_kind != WIN_REWARD:
            score = self._score()
            reward, self._last_score = score - self._last_score, score
            return reward
        return self.game.returns(self.state)[self.learner] if self.done else 0.0

    def observation(self) -> np.ndarray:
        return self.game.observe(self.state, self.learner)

    def _score(self) -> float:
        """What the score and margin rewards pay the change of (see ``runner.reward_potential``)."""
        scores = [float(x) for x in self.game.scores(self.state)]
        own = scores[self.learner]
        if self.reward_kind == MARGIN_REWARD:
            own -= max(x for seat, x in enumerate(scores) if seat != self.learner)
        return own

    def _advance(self) -> None:
        game, state = self.game, self.state
        while True:
            player = game.current_player(state)
            if player == CHANCE:
                outcome = game.sample_chance(state, self.rng)
                if self.log is not None:
                    self.log.append(events.outcome(game, state, outcome, self.learner))
                if self.record is not None:
                    self.record.steps.append([None, outcome])
                game._apply_chance(state, outcome)
                continue
            if player == TERMINAL:
                self.done = True
                self.mask = np.ones(game.spec.num_actions, dtype=bool)
                return
            mask = game.legal_mask(state)
            if player == self.learner:
                if self.skip_forced and mask.sum() == 1:
                    action = int(mask.argmax())
                    if self.log is not None:
                        self.log.append(events.decision(game, player, action, player, True))
                    if self.record is not None:
                        self.record.steps.append([player, action])
                    game._apply_action(state, action)
                    continue
                self.mask = mask
                return
            policy = self.opponents[player]
            action = checked_opponent_action(
                game,
                player,
                opponent_action(policy, game, state, player, mask, self.opponent_rng),
                mask,
            )
            if self.log is not None:
                self.log.append(events.decision(game, player, action, self.learner))
            if self.record is not None:
                self.record.steps.append([player, action])
            game._apply_action(state, action)


def built_in_kind(policy: Any, game: Game) -> int:
    """How the compiled engine can play ``policy`` itself, or EXTERNAL."""
    from jungle_envs.core.compiled import runner

    if isinstance(policy, MixturePolicy):  # this episode's draw
        policy = policy.current
    if type(policy) is RandomPolicy:
        return runner.RANDOM
    if game.is_heuristic(policy):
        return runner.HEURISTIC
    return runner.EXTERNAL


class CompiledEngine:
    """The game's compiled twin: chance and built-in opponents inside one kernel call."""

    name = "compiled"

    def __init__(self, game: Game, skip_forced_actions: bool, reward_kind: int, twin: Any) -> None:
        self.game, self.twin = game, twin
        self.skip_forced = skip_forced_actions
        self.reward_kind = reward_kind
        n = game.num_players
        self._row = np.zeros(twin.row_size, dtype=np.int32)
        self._streams = np.zeros(2, dtype=np.uint64)
        self._obs = np.zeros(game.observation_size, dtype=np.float32)
        self._mask = np.ones(game.spec.num_actions, dtype=np.int8)
        self._scores = np.zeros(n)
        self._results = np.zeros(n)
        self._kinds = np.zeros(n, dtype=np.int8)
        self.done = False
        self.learner = 0
        self._dealt = False
        self.log: list[dict] | None = None  # the event log, when the env keeps one
        self.record: Record | None = None  # every raw step, when the env records replays
        self._heuristic_seats = False  # whether the kernel must play the heuristic
        self._bind()

    def _bind(self) -> None:
        from jungle_envs.core.compiled import runner

        self._runner = runner
        self._entries: dict[bool, Any] = {}  # bound on first use: see ``_entry``

    def _entry(self, heuristics: bool):
        """The compiled entry point itself (no numba type dispatch on every call), in the
        version with the heuristic or without it: a table without heuristic seats never
        compiles the heuristic, a quarter of the first compile."""
        if heuristics not in self._entries:
            from jungle_envs.core.compiled.twin import bind

            self._entries[heuristics] = bind(
                self._runner.env_call, self.twin.cfg, self._row, self._streams, 0,
                self._kinds, False, True, True if heuristics else None, 0, True, 0, self._obs,
                self._mask, self._scores, self._results,
            )  # fmt: skip
        return self._entries[heuristics]

    # A compiled function and a module do not pickle: a copy binds its own.
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        del state["_entries"], state["_runner"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._bind()

    @property
    def mask(self) -> np.ndarray:
        return self._mask.view(bool)

    @property
    def state(self) -> GameState | None:
        """A snapshot of the game (the compiled engine keeps it as an int32 row)."""
        return self.twin.unpack(self._row) if self._dealt else None

    def new_episode(self, learner: int, opponents: dict, rng, opponent_rng) -> bool:
        self.learner, self.opponents, self.opponent_rng = learner, opponents, opponent_rng
        for seat in range(self.game.num_players):
            if seat != learner:
                self._kinds[seat] = built_in_kind(opponents[seat], self.game)
        others = [seat for seat in range(self.game.num_players) if seat != learner]
        self._heuristic_seats = any(self._kinds[s] == self._runner.HEURISTIC for s in others)
        self._streams[:] = rng.integers(0, 2**63, size=2, dtype=np.uint64)
        self._dealt = True
        if self.log is not None:
            self.log = []
        status, _ = self._run(True, 0)
        status, _ = self._play_external(status, 0.0)
        self.done = status == self._runner.DONE
        return not self.done

    def step(self, action: int) -> float:
        if self.log is not None:
            self.log = []
        status, reward = self._run(False, action, self.learner)
        status, reward = self._play_external(status, reward)
        self.done = status == self._runner.DONE
        return float(reward)

    def observation(self) -> np.ndarray:
        return self._obs.copy()

    def _run(self, start: bool, action: int, actor: int = -1) -> tuple[int, float]:
        watched = self.log is not None or self.record is not None
        if watched:  # the kernel cannot say what it did: replay the call rule by rule first
            from jungle_envs.core.compiled.event_replay import replay

            replayed = replay(self, start, action, actor)
        heuristics = self._heuristic_seats
        result = self._entry(heuristics)(
            self.twin.cfg, self._row, self._streams, self.learner, self._kinds, False,
            self.skip_forced, True if heuristics else None, self.reward_kind, start, action,
            self._obs, self._mask, self._scores, self._results,
        )  # fmt: skip
        if watched:
            if not np.array_equal(self._row, replayed.row):
                raise RuntimeError("the event log's replay and the kernel disagree (a bug)")
            if self.log is not None:
                self.log.extend(replayed.log)
            if self.record is not None:
                if start:
                    self.record = Record(replayed.start)
                self.record.steps.extend(replayed.steps)
        return result

    def _play_external(self, status: int, reward: float) -> tuple[int, float]:
        """Let opponents that live in Python (models, callables) take their turns."""
        runner = self._runner
        while status >= runner.EXTERNAL_TURN:
            seat = status - runner.EXTERNAL_TURN
            mask = self._mask.astype(bool)
            policy = self.opponents[seat]
            if getattr(policy, "uses_state", False):
                state = self.twin.unpack(self._row)
                action = policy.act_state(state, seat, mask, self.opponent_rng)
            else:
                obs = self._obs.copy()
                if observation_game(policy, self.game) is not self.game:
                    state = self.twin.unpack(self._row)
                    obs = opponent_observation(policy, self.game, state, seat)
                action = policy.act(obs, mask, self.opponent_rng)
            action = checked_opponent_action(self.game, seat, action, mask)
            status, reward = self._run(False, action, seat)
        return status, reward
