"""A Gymnasium vector env that steps every game of a batch in one compiled call.

The states of all ``num_envs`` games are rows of one int32 array; ``step`` calls a numba
kernel that plays chance, the built-in opponents (``"random"``, ``"heuristic"``) and the
learner's action for a range of rows and writes observations, masks, rewards and flags
straight into preallocated arrays. The kernel releases the GIL, so ``num_threads`` threads
(default: the cores this process may use, at most one per 256 envs) each run one share of
the rows at the same time, the calling thread one of them.
No process is started and nothing is pickled::

    envs = gymnasium.make_vec("jungle_envs/TropicRace-v0", num_envs=1024,
                              vectorization_mode="vector_entry_point", num_players=4)
    obs, info = envs.reset(seed=0)         # env i seeded seed + i
    obs, rewards, terminated, truncated, info = envs.step(actions)
    envs.action_masks()                    # bool, (num_envs, num_actions)

Autoreset as Gymnasium >= 1.1 defines its modes (``autoreset_mode=``, also in
``metadata["autoreset_mode"]``): ``NEXT_STEP`` (the default: the step after an episode ends
resets that env and ignores its action, reward 0), ``SAME_STEP`` (the step that ends it
resets it too and returns the new episode's observation; ``info["final_obs"]`` and
``info["final_info"]`` hold the end) or ``DISABLED`` (an ended env waits for
``reset(options={"reset_mask": mask})``; stepping it is refused). ``info`` holds
``action_mask`` (int8, n x A) and ``agent_seat`` every step; where an episode ended,
``scores``, ``returns`` (n x players, float) and ``illegal_action``, and, with
``final_details=True`` (the default), what the single env adds at the end: ``winners`` and
the game's own keys (each with Gymnasium's ``_key`` mask). With ``copy=False`` the returned
arrays are the env's own buffers, overwritten by the next step (what a trainer that copies
them anyway wants).
"""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from jungle_envs.core.arguments import (
    REWARD_KINDS,
    check_count,
    check_flag,
    check_reset_options,
    check_seeds,
    parse_env_arguments,
)
from jungle_envs.core.compiled import runner
from jungle_envs.core.compiled.rng import stream_state
from jungle_envs.core.compiled.twin import Twin, bind
from jungle_envs.core.compiled.vector_options import (
    MIXABLE,
    VECTOR_ENV_OPTIONS,
    autoreset_mode_of,
    check_reset_mask,
    opponent_kinds,
    opponent_mix,
    resolve_threads,
)
from jungle_envs.core.game import Game
from jungle_envs.core.seats import MIXTURE, SINGLE, SeatPlan


class CompiledVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` games of one kind, stepped together by the compiled twin."""

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": AutoresetMode.NEXT_STEP}
    game_class: ClassVar[type[Game]]

    def __init__(
        self,
        num_envs: int,
        num_players: int | None = None,
        opponents: Any = "random",
        agent_seat: int | str = "random",
        observation_mode: str = "flat",
        illegal_action: str = "lose",
        reward: str = "win",
        skip_forced_actions: bool = True,
        step_limit: int | None = -1,
        num_threads: int | None = None,
        copy: bool = True,
        autoreset_mode: Any = AutoresetMode.NEXT_STEP,
        final_details: bool = True,
        **game_options: Any,
    ) -> None:
        num_envs = check_count("num_envs", num_envs)
        copy = check_flag("copy", copy)
        self.autoreset_mode = autoreset_mode_of(autoreset_mode)
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.final_details = check_flag("final_details", final_details)
        args = parse_env_arguments(
            self.game_class, num_players, opponents, agent_seat, observation_mode,
            illegal_action, reward, skip_forced_actions, step_limit, game_options,
            env_options=VECTOR_ENV_OPTIONS,
        )  # fmt: skip
        game = args.game
        self.game, self.twin = game, Twin(game)
        n, spec = game.num_players, game.spec
        self.mix = np.zeros(len(MIXABLE))
        self.pool: list[Any] = []
        self._pool_rng = np.random.default_rng()
        plan = args.opponents
        if plan.kind == MIXTURE:  # a mixture, drawn per seat and episode
            self.mix = opponent_mix(plan.mixture)
            plan = SeatPlan(SINGLE, ("random",))
            self._check_pool()
        kinds, self.relative = opponent_kinds(plan, n)
        self.kinds = np.tile(kinds, (num_envs, 1))
        self.seat_option = -1 if args.agent_seat is None else args.agent_seat
        self.num_envs = num_envs
        self.observation_mode, self.illegal_action = args.observation_mode, args.illegal_action
        self.reward_kind = REWARD_KINDS[args.reward]
        self.skip_forced = args.skip_forced_actions
        limit = args.step_limit
        self.max_steps = limit if limit is not None else np.iinfo(np.int64).max
        self.num_threads = resolve_threads(num_threads, num_envs)
        self.copy = copy

        flat = spaces.Box(0.0, 1.0, (game.observation_size,), np.float32)
        mask_space = spaces.Box(0, 1, (spec.num_actions,), np.int8)
        self.single_observation_space = (
            spaces.Dict({"observation": flat, "action_mask": mask_space})
            if observation_mode == "dict"
            else flat
        )
        self.single_action_space = spaces.Discrete(spec.num_actions)
        self.observation_space = gym.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, num_envs)

        self.buffers = runner.BatchBuffers(
            rows=np.zeros((num_envs, self.twin.row_size), dtype=np.int32),
            streams=np.zeros((num_envs, 2), dtype=np.uint64),
            learners=np.zeros(num_envs, dtype=np.int64),
            obs=np.zeros((num_envs, game.observation_size), dtype=np.float32),
            masks=np.zeros((num_envs, spec.num_actions), dtype=np.int8),
            scores=np.zeros((num_envs, n)),
            results=np.zeros((num_envs, n)),
            rewards=np.zeros(num_envs),
            terminated=np.zeros(num_envs, dtype=np.bool_),
            truncated=np.zeros(num_envs, dtype=np.bool_),
            illegal=np.zeros(num_envs, dtype=np.bool_),
            ended=np.zeros(num_envs, dtype=np.bool_),
            steps=np.zeros(num_envs, dtype=np.int64),
            ok=np.ones(num_envs, dtype=np.bool_),
            actions=np.zeros(num_envs, dtype=np.int64),
            which=np.zeros(num_envs, dtype=np.bool_),
            waiting=np.full(num_envs, -1, dtype=np.int64),
            picks=np.zeros((num_envs, n), dtype=np.int64),
        )
        bounds = np.linspace(0, num_envs, min(self.num_threads, num_envs) + 1).astype(int)
        self._shares = [(int(a), int(b)) for a, b in itertools.pairwise(bounds)]
        self._pool: ThreadPoolExecutor | None = None
        self._kernel = bind(runner.batch_call, self.twin.cfg, *self.buffers, 0, -1,
                            self.kinds, True, True, 0, 1, self.mix, 0, 0, 1)  # fmt: skip
        self._started = False

    # --- Gymnasium API -------------------------------------------------------------------
    def reset(self, *, seed: int | list[int | None] | None = None, options: dict | None = None):
        """Reset every env, or with ``options={"reset_mask": mask}`` (bool, one per env;
        what ``DISABLED`` autoreset needs) only those where the mask is set; ``seed`` then
        seeds those envs (env i: ``seed + i``) and the others go on."""
        self._check_open()
        reset_mask = None
        if isinstance(options, dict):
            options = dict(options)
            reset_mask = check_reset_mask(options.pop("reset_mask", None), self.num_envs)
        check_reset_options(options)
        seeds = check_seeds(seed, self.num_envs)  # all checked before any stream changes
        if reset_mask is not None:
            self._check_started("reset(options={'reset_mask': ...})")
            for i in np.flatnonzero(reset_mask):
                if seed is not None:
                    self.buffers.streams[i] = stream_state(seeds[i])
            self.buffers.which[:] = reset_mask
            self.run(runner.RESET_WHERE)
            return self._observation(), self._info(final=False)
        for i, env_seed in enumerate(seeds):
            self.buffers.streams[i] = stream_state(env_seed)
        self._pool_rng = np.random.default_rng(seeds if None not in seeds else None)
        self.run(runner.RESET_ALL)
        self._started = True
        return self._observation(), self._info(final=False)

    def step(self, actions):
        self._check_started("step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.num_envs} integers, got {actions.dtype} {actions.shape}"
            )
        b = self.buffers
        actions = actions.astype(np.int64, copy=False)
        live = ~b.ended
        n_actions = self.single_action_space.n
        if np.any(live & ((actions < 0) | (actions >= n_actions))):
            bad = actions[live & ((actions < 0) | (actions >= n_actions))]
            raise ValueError(
                f"actions {bad.tolist()} are out of the action space [0, {n_actions - 1}]"
            )
        if self.illegal_action == "raise":
            index = np.flatnonzero(live)
            illegal = index[b.masks[index, actions[index]] == 0]
            if illegal.size:
                from jungle_envs.core.game import IllegalActionError

                raise IllegalActionError(
                    f"illegal actions in envs {illegal.tolist()}: {actions[illegal].tolist()}"
                )
        if self.autoreset_mode == AutoresetMode.DISABLED and b.ended.any():
            raise RuntimeError(
                f"envs {np.flatnonzero(b.ended).tolist()[:8]} have ended and autoreset is "
                "DISABLED: reset(options={'reset_mask': mask}) them first"
            )
        b.actions[:] = actions
        self.run(runner.STEP)
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            return self._step_same_step()
        out = (b.rewards, b.terminated, b.truncated)
        if self.copy:
            out = tuple(a.copy() for a in out)
        return self._observation(), *out, self._info(final=True)

    def _step_same_step(self):
        """The end of every ended env goes into ``final_obs`` / ``final_info``; then those
        envs start their next episode in the same step."""
        b = self.buffers
        ended = np.flatnonzero(b.terminated | b.truncated)
        rewards, terminated, truncated = b.rewards.copy(), b.terminated.copy(), b.truncated.copy()
        if not ended.size:
            return self._observation(), rewards, terminated, truncated, self._info(final=False)
        final_obs, final_info = self._observation(), self._info(final=True)
        b.which[:] = False
        b.which[ended] = True
        self.run(runner.RESET_WHERE)
        info = self._info(final=False)
        for i in ended:
            single = {key: value[i] for key, value in final_info.items()
                      if not key.startswith("_") and final_info[f"_{key}"][i]}  # fmt: skip
            obs = (
                {key: value[i] for key, value in final_obs.items()}
                if isinstance(final_obs, dict)
                else final_obs[i]
            )
            info = self._add_info(info, {"final_obs": obs, "final_info": single}, int(i))
        return self._observation(), rewards, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Bool (num_envs, num_actions) mask of every env's legal actions."""
        self._check_started("action_masks()")
        return self.buffers.masks.astype(bool)

    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError(f"this {type(self).__name__} is closed; make a new one")

    def _check_started(self, what: str) -> None:
        self._check_open()
        if not self._started:
            raise RuntimeError(f"call reset() before {what}")

    def set_opponent_mix(self, mix: dict[str, float]) -> None:
        """Draw every env's opponents from this mixture from its next episode on, e.g.
        ``{"random": 0.3, "heuristic": 0.7}`` (a curriculum changes it during training), or
        ``{"heuristic": 0.6, "pool": 0.4}`` with players from ``set_opponent_pool``."""
        mix_weights = opponent_mix(mix)
        self.mix[:] = mix_weights
        self._check_pool()

    def set_opponent_pool(self, players: list[Any]) -> None:
        """The players a mixture's ``"pool"`` share draws from (one per seat and episode),
        e.g. earlier snapshots of the learner (``jungle_envs.sb3.PolicyPlayer``). A player
        has ``act_batch(observations, masks, rng) -> actions`` for many envs at once, or
        ``act(observation, mask, rng) -> action``. Envs already playing keep their draw
        while the pool keeps its size; a smaller pool takes effect at their next episode."""
        for player in players:
            if not (hasattr(player, "act_batch") or hasattr(player, "act")):
                raise TypeError(f"a pool player needs act_batch() or act(); got {player!r}")
        shrinking = len(players) < len(self.pool)
        self.pool = list(players)
        if shrinking:  # an episode whose player left the pool plays on against the last one
            np.minimum(self.buffers.picks, max(len(players) - 1, 0), out=self.buffers.picks)
        self._check_pool()

    def _check_pool(self) -> None:
        if self.mix[2] > 0 and not self.pool and self.mix[:2].sum() == 0:
            # drawn from an empty pool, a seat falls back on the heuristic: say so up front
            # only when nothing else could be drawn
            import warnings

            warnings.warn(
                "the opponent mixture draws only from the pool, which is empty: the heuristic "
                "plays until set_opponent_pool() fills it",
                stacklevel=3,
            )

    @property
    def states(self) -> list:
        """Snapshots of every env's game state (reference dataclasses)."""
        self._check_started("reading states")
        return [self.twin.unpack(row) for row in self.buffers.rows]

    def run(self, command: int) -> None:
        """STEP, RESET_ALL or RESET_WHERE ``which`` over the batch, one share per thread."""
        first, *others = self._shares
        if others and self._pool is None:
            self._pool = ThreadPoolExecutor(len(others), thread_name_prefix="jungle_envs")
        futures = [self._pool.submit(self._call, command, *share) for share in others]
        self._call(command, *first)  # the calling thread takes a share too
        for future in futures:
            future.result()
        if not self.buffers.ok.all():
            raise RuntimeError("no game gave the learner a decision")
        if command != runner.POOL_ACTIONS and self.pool:
            while (self.buffers.waiting >= 0).any():
                self._pool_turns()
                self.run(runner.POOL_ACTIONS)

    def _pool_turns(self) -> None:
        """Ask the pool players for the moves the kernel waits for: each player once, for
        all the envs where it is to move."""
        b = self.buffers
        envs = np.flatnonzero(b.waiting >= 0)
        players = b.picks[envs, b.waiting[envs]]
        for index in np.unique(players):
            mine = envs[players == index]
            player = self.pool[index]
            masks = b.masks[mine].astype(bool)
            if hasattr(player, "act_batch"):
                chosen = np.asarray(player.act_batch(b.obs[mine], masks, self._pool_rng))
            else:
                chosen = np.array(
                    [
                        player.act(b.obs[i], m, self._pool_rng)
                        for i, m in zip(mine, masks, strict=True)
                    ]
                )
            chosen = chosen.astype(np.int64).reshape(len(mine))
            if not masks[np.arange(len(mine)), chosen].all():
                raise ValueError(f"pool player {index} chose an illegal action")
            b.actions[mine] = chosen

    def close_extras(self, **kwargs: Any) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def _call(self, command: int, first: int, last: int) -> None:
        self._kernel(self.twin.cfg, *self.buffers, command, self.seat_option, self.kinds,
                     self.relative, self.skip_forced, self.reward_kind, self.max_steps,
                     self.mix, len(self.pool), first, last)  # fmt: skip

    # --- internals -----------------------------------------------------------------------
    def _observation(self):
        b = self.buffers
        obs = b.obs.copy() if self.copy else b.obs
        if self.observation_mode == "dict":
            masks = b.masks.copy() if self.copy else b.masks
            return {"observation": obs, "action_mask": masks}
        return obs

    def _info(self, final: bool) -> dict[str, Any]:
        b = self.buffers
        info: dict[str, Any] = {
            "action_mask": b.masks.copy() if self.copy else b.masks,
            "_action_mask": np.ones(self.num_envs, dtype=np.bool_),
            "agent_seat": b.learners.copy(),
            "_agent_seat": np.ones(self.num_envs, dtype=np.bool_),
        }
        if final:
            ended = b.terminated | b.truncated
            if ended.any():
                info["scores"] = np.where(ended[:, None], b.scores, 0.0)
                info["_scores"] = ended.copy()
                info["returns"] = np.where(b.terminated[:, None], b.results, 0.0)
                info["_returns"] = ended.copy()
                info["illegal_action"] = b.illegal.copy()
                info["_illegal_action"] = ended.copy()
                if self.final_details:
                    for i in np.flatnonzero(b.terminated & ~b.illegal):
                        details = self.game.final_info(self.twin.unpack(b.rows[i]))
                        extra = {k: v for k, v in details.items() if k not in info}
                        info = self._add_info(info, extra, int(i))
        return info
