"""Many games at once, every seat the caller's: the batched all-seat API on the compiled twin.

Gymnasium's envs give one learner a seat and play the others; self-play, search and league
code want to decide for every seat themselves, over many games, at the engine's speed (as
pgx's ``state.current_player`` / ``legal_action_mask`` / ``step`` do). No Gymnasium needed::

    import jungle_envs

    batch = jungle_envs.make_batch("TropicRace", num_envs=1024, num_players=4, seed=0)
    view = batch.reset()                   # env i seeded seed + i
    while training:
        actions = my_policy(view.current_player, view.observation, view.legal_action_mask)
        view = batch.step(actions)         # rewards for every seat, (num_envs, players)

``view.current_player[i]`` is the seat to move in env i, ``view.observation[i]`` that seat's
observation (the single env's, bit for bit) and ``view.legal_action_mask[i]`` its legal
moves. Chance is played inside the kernel from each env's own streams. Seats may be left to
built-in players (``opponents=[None, "heuristic", None, "random"]``: the caller plays seats
0 and 2). Autoreset is next-step: where ``view.terminated[i]``, ``view.scores[i]`` and
``view.returns[i]`` are that game's final scores and returns (+1 sole win, 0 shared or
nobody, -1 loss), the shown seat is the one that moved last, the mask is all ones, and the
next ``step`` deals a new game there and ignores its action.
"""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from jungle_envs.core.arguments import (
    CHOICES,
    REWARD_KINDS,
    check_count,
    check_flag,
    check_seeds,
)
from jungle_envs.core.compiled import runner, seat_runner
from jungle_envs.core.compiled.rng import stream_state
from jungle_envs.core.compiled.twin import Twin, bind
from jungle_envs.core.game import Game, IllegalActionError
from jungle_envs.core.registry import make_game

# Who plays a seat: the caller (None), or a built-in player inside the kernel.
SEAT_PLAYERS = {None: seat_runner.CALLER, "random": runner.RANDOM, "heuristic": runner.HEURISTIC}


@dataclass(frozen=True)
class BatchView:
    """What the batch shows after ``reset`` or ``step``, one row per env."""

    current_player: np.ndarray  # int64 (n,): the seat to move (at the end: the last mover)
    observation: np.ndarray  # float32 (n, observation_size): that seat's observation
    legal_action_mask: np.ndarray  # bool (n, num_actions)
    rewards: np.ndarray  # float64 (n, num_players): every seat's reward for the step
    terminated: np.ndarray  # bool (n,): the game ended with this step
    scores: np.ndarray  # float64 (n, num_players): the scores (final where terminated)
    returns: np.ndarray  # float64 (n, num_players): final returns where terminated, else 0


def seat_kinds(opponents: Any, num_players: int) -> np.ndarray:
    """``opponents`` -> the kernel's player kind per seat: None (every seat the caller's)
    or one entry per seat, None for a seat the caller plays, "random" or "heuristic"."""
    if opponents is None:
        return np.zeros(num_players, dtype=np.int8)
    if not isinstance(opponents, (list, tuple)) or len(opponents) != num_players:
        raise ValueError(
            f"opponents must be None or a list of {num_players} entries (one per seat: "
            f"None for the caller's seats, 'random' or 'heuristic'), got {opponents!r}"
        )
    unknown = [spec for spec in opponents if spec not in SEAT_PLAYERS]
    if unknown:
        raise ValueError(
            f"the batch plays seats by None (the caller), 'random' or 'heuristic'; got "
            f"{unknown[0]!r}"
        )
    kinds = np.array([SEAT_PLAYERS[spec] for spec in opponents], dtype=np.int8)
    if not (kinds == seat_runner.CALLER).any():
        raise ValueError("opponents leaves no seat to the caller (None for at least one)")
    return kinds


class GameBatch:
    """``num_envs`` games of one kind whose seats the caller plays, stepped by the twin."""

    def __init__(
        self,
        game: Game,
        num_envs: int,
        seed: int | list[int | None] | None = None,
        opponents: Any = None,
        reward: str = "win",
        skip_forced_actions: bool = False,
        num_threads: int | None = None,
        copy: bool = True,
    ) -> None:
        from jungle_envs.core.compiled.vector_options import resolve_threads

        num_envs = check_count("num_envs", num_envs)
        if reward not in CHOICES["reward"]:
            raise ValueError(f"reward must be one of {CHOICES['reward']}, got {reward!r}")
        self.skip_forced = check_flag("skip_forced_actions", skip_forced_actions)
        self.copy = check_flag("copy", copy)
        kinds = seat_kinds(opponents, game.num_players)
        self.game, self.twin = game, Twin(game)
        self.num_envs, self.num_players = num_envs, game.num_players
        self.num_actions, self.observation_size = game.spec.num_actions, game.observation_size
        self.reward_kind = REWARD_KINDS[reward]
        self.num_threads = resolve_threads(num_threads, num_envs)
        n, players = num_envs, game.num_players
        self.kinds = np.tile(kinds, (n, 1))
        self.rows = np.zeros((n, self.twin.row_size), dtype=np.int32)
        self.streams = np.zeros((n, 2), dtype=np.uint64)
        self.players = np.zeros(n, dtype=np.int64)
        self.obs = np.zeros((n, self.observation_size), dtype=np.float32)
        self.masks = np.zeros((n, self.num_actions), dtype=np.int8)
        self.scores = np.zeros((n, players))
        self.results = np.zeros((n, players))
        self.rewards = np.zeros((n, players))
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.dealt = np.ones(n, dtype=np.bool_)
        self.actions = np.zeros(n, dtype=np.int64)
        self.which = np.zeros(n, dtype=np.bool_)
        bounds = np.linspace(0, n, min(self.num_threads, n) + 1).astype(int)
        self._shares = [(int(a), int(b)) for a, b in itertools.pairwise(bounds)]
        self._pool: ThreadPoolExecutor | None = None
        self._kernel = bind(seat_runner.seats_call, *self._arguments(seat_runner.STEP, 0, 1))
        self._started = False
        self.reset(seed)

    # --- the API -------------------------------------------------------------------------
    def reset(self, seed: int | list[int | None] | None = None) -> BatchView:
        """Deal every env a new game (env i seeded ``seed + i``, or by a list of seeds;
        None: fresh entropy) and play on to each env's first decision of a caller seat."""
        seeds = check_seeds(seed, self.num_envs)  # all checked before any stream changes
        for i, env_seed in enumerate(seeds):
            self.streams[i] = stream_state(env_seed)
        self._run(seat_runner.RESET_ALL)
        self._started = True
        return self.view()

    def step(self, actions: Any) -> BatchView:
        """Play ``actions[i]`` for the seat to move in env i (ignored where the last step
        ended the game: that env is dealt again). An action out of range or illegal in a
        live env raises, naming the envs, and changes nothing."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.num_envs} integers, got {actions.dtype} {actions.shape}"
            )
        live = np.flatnonzero(~self.terminated)
        chosen = actions[live].astype(np.int64)
        outside = (chosen < 0) | (chosen >= self.num_actions)
        if outside.any():
            raise ValueError(
                f"actions {chosen[outside].tolist()} in envs {live[outside].tolist()} are out "
                f"of the action space [0, {self.num_actions - 1}]"
            )
        illegal = self.masks[live, chosen] == 0
        if illegal.any():
            raise IllegalActionError(
                f"illegal actions {chosen[illegal].tolist()} in envs {live[illegal].tolist()} "
                f"(see legal_action_mask)"
            )
        self.actions[:] = actions
        self._run(seat_runner.STEP)
        return self.view()

    def reset_where(self, which: Any) -> BatchView:
        """Deal new games in the envs where ``which`` (bool, one per env) is set, keeping
        their streams going; the others are left as they are (their rewards read 0)."""
        which = np.asarray(which)
        if which.shape != (self.num_envs,) or which.dtype != np.bool_:
            raise ValueError(f"which must be {self.num_envs} booleans, got {which.dtype} "
                             f"{which.shape}")  # fmt: skip
        self._check_started()
        self.which[:] = which
        self.rewards[~which] = 0.0
        self._run(seat_runner.RESET_WHERE)
        return self.view()

    def view(self) -> BatchView:
        """The batch as it stands (copies, unless made with ``copy=False``)."""
        self._check_started()
        keep = (lambda a: a.copy()) if self.copy else (lambda a: a)
        return BatchView(
            current_player=keep(self.players),
            observation=keep(self.obs),
            legal_action_mask=self.masks.astype(bool) if self.copy else self.masks.view(np.bool_),
            rewards=keep(self.rewards),
            terminated=keep(self.terminated),
            scores=keep(self.scores),
            returns=keep(self.results),
        )

    def winners(self, env: int) -> list[int]:
        """The winning seats of env ``env``'s game, which its last step ended ([] when
        nobody won)."""
        self._check_started()
        if not self.terminated[env]:
            raise ValueError(f"env {env}'s game has not ended (view.terminated[{env}])")
        return list(self.game.winners(self.twin.unpack(self.rows[env])))

    @property
    def states(self) -> list:
        """Every env's game state as the reference's dataclass (for saving or rendering:
        ``batch.game.state_to_json(batch.states[i])``)."""
        self._check_started()
        return [self.twin.unpack(row) for row in self.rows]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def __enter__(self) -> GameBatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"GameBatch({self.game.spec.env_name}, num_envs={self.num_envs}, "
                f"num_players={self.num_players}, threads={self.num_threads})")  # fmt: skip

    # --- internals -----------------------------------------------------------------------
    def _check_started(self) -> None:
        if not self._started:
            raise RuntimeError("reset() the batch first")

    def _arguments(self, command: int, first: int, last: int) -> tuple:
        return (self.twin.cfg, self.rows, self.streams, self.players, self.obs, self.masks,
                self.scores, self.results, self.rewards, self.terminated, self.dealt,
                self.actions, self.which, self.kinds, self.skip_forced, self.reward_kind,
                command, first, last)  # fmt: skip

    def _run(self, command: int) -> None:
        first, *others = self._shares
        if others and self._pool is None:
            self._pool = ThreadPoolExecutor(len(others), thread_name_prefix="jungle_envs")
        futures = [
            self._pool.submit(self._kernel, *self._arguments(command, *share)) for share in others
        ]
        self._kernel(*self._arguments(command, *first))
        for future in futures:
            future.result()
        if not self.dealt.all():
            raise RuntimeError(
                f"no deal gave the caller's seats a decision in envs "
                f"{np.flatnonzero(~self.dealt).tolist()[:8]}"
            )


def make_batch(
    game: str,
    num_envs: int,
    num_players: int | None = None,
    seed: int | list[int | None] | None = None,
    opponents: Any = None,
    reward: str = "win",
    skip_forced_actions: bool = False,
    num_threads: int | None = None,
    copy: bool = True,
    **options: Any,
) -> GameBatch:
    """``num_envs`` games of ``game`` ("TropicRace", or an env id) with ``num_players``
    seats and the game's ``options`` (as ``gymnasium.make`` takes them), dealt with
    ``seed``. The caller plays every seat unless ``opponents`` (one entry per seat) leaves
    some to "random" or "heuristic". ``reward``: as the env's option, paid to every seat.
    ``skip_forced_actions``: play a caller seat's only legal move automatically (default
    False: every decision is shown, as pgx and OpenSpiel do). ``num_threads``: threads that
    step shares of the batch (default: the usable cores, at most one per 256 envs)."""
    return GameBatch(
        make_game(game, num_players, **options), num_envs, seed=seed, opponents=opponents,
        reward=reward, skip_forced_actions=skip_forced_actions, num_threads=num_threads,
        copy=copy,
    )  # fmt: skip
