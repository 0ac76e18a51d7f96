"""Soak test: random masked games on every game, player count and path, counting errors.

    python -m benchmarks.soak [--games N] [--games-compiled N] [--seconds S] [--workers W]
                              [--seed S] [--paths env engine pettingzoo compiled] ...

Every game, at every player count of its range, is played with uniformly random legal
actions on four paths, each checking what it can see after every step:

- ``env``: ``gymnasium.make(id, num_players=n, opponents="random", ...)`` on the compiled
  engine and the reference engine in turn, with flat and dict observations, both reward
  modes, forced actions skipped or not, random and fixed seats. Each step: the observation
  lies in ``observation_space``, the mask has a legal action, ``info["action_mask"]`` equals
  ``action_masks()``, the reward is finite (0 before the end with ``reward="win"``); at the
  end the scores, winners and returns are consistent, the last reward is the seat's return
  (or the rewards add up to the seat's score gain with ``reward="score"``). In the deep games
  the mask and observation also equal the reference rules' view of the env's state.
- ``engine``: the rules functions directly: every seat random over ``legal_mask``, chance
  drawn through ``chance_event(...).sample`` with a seeded numpy generator and applied with
  the checked ``apply_chance``; ``validate_state``, a ``state_to_json`` -> ``state_from_json``
  round trip (equal state, same text) and every seat's observation (float32, in [0, 1]) at
  every state of the deep games and every ``--check-every`` steps of the others (and at
  every game's end, with its results). Deep games also compare the game's fast chance draw
  with its described event.
- ``pettingzoo``: the AEC env (``jungle_envs.multiagent.env``, with PettingZoo's order and
  bounds wrappers) with random masked actions: observations in their space, the selected
  agent's mask non-empty (the others' all zero, in deep games), rewards finite, every agent
  paid its return at the end.
- ``compiled``: the compiled vector env (``gymnasium.make_vec(...,
  vectorization_mode="vector_entry_point")``, ``--num-envs`` games per call, random
  opponents inside the kernel, the learner's random legal actions drawn by a compiled
  helper). Every step: every mask non-empty, every observation finite and in [0, 1],
  rewards finite, autoreset and end-of-episode flags and returns consistent; every
  ``--check-every`` steps one env's state is unpacked, validated, saved and loaded, and
  its mask and observation compared with the reference rules'.

``--option-share`` of the games play non-default options: each game's extreme values (see
``VARIANTS``: smallest and largest boards, decks, dice, supplies and limits its option
checks accept). A variant that a player count does not accept is listed as n/a.

The games are cut into tasks (``--chunk`` games; ``--chunk-compiled`` on the compiled path)
that ``--workers`` processes share. Each task has its own seed, derived from ``--seed`` and
the task's place in the plan, and each game of a task its own (the task's plus its index),
so a run is reproducible from ``--seed`` with any number of workers. An error (an
exception or a failed check) is recorded with its path, game, players, options, seed and
a ``--replay`` key that plays that one game again (with every check at every state) and
prints the traceback; a worker process that dies is an error of the task it ran. The
command exits 1 if anything failed, 0 otherwise.

``--seconds`` caps the wall time: no game starts after it (the summary says how much of
the plan was played). Tasks are ordered so that every game, player count, path and
variant is reached early. ``--json FILE`` writes the summary; ``--write docs/reliability.md``
replaces the text between ``<!-- soak:start -->`` and ``<!-- soak:end -->`` there.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import multiprocessing
import multiprocessing.connection
import os
import platform
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import gymnasium as gym
import numpy as np

import jungle_envs
from jungle_envs.core.game import CHANCE, TERMINAL, Game
from jungle_envs.core.registry import GAMES, game_class

PATHS = ("env", "engine", "pettingzoo", "compiled")
MARK_START, MARK_END = "<!-- soak:start -->", "<!-- soak:end -->"
DEFAULT_VARIANT = "default"

# --- option variants ---------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """Options to play a share of the games with; ``options(players)`` gives them (or None
    where the variant does not apply at that player count)."""

    name: str
    options: Callable[[int], dict[str, Any] | None]


def fixed(name: str, **options: Any) -> Variant:
    return Variant(name, lambda _players: options)


def _spank_min_deck(players: int) -> dict[str, int]:
    """The smallest deck the rules take (one card more than the opening hands), the card
    kinds dealt round robin so every kind is in it."""
    from jungle_envs.games.spank_the_monkey.tables import CARDS, HAND_SIZE

    kinds: dict[str, list[str]] = {}
    for card in CARDS:
        kinds.setdefault(card.kind, []).extend([card.name] * card.copies)
    deck = dict.fromkeys((card.name for card in CARDS), 0)
    want, dealt = HAND_SIZE * players + 1, 0
    while dealt < want:
        for names in kinds.values():
            if names and dealt < want:
                deck[names.pop(0)] += 1
                dealt += 1
    return deck


def _spank_deck(keep: Callable[[Any], int]) -> dict[str, int]:
    from jungle_envs.games.spank_the_monkey.tables import CARDS

    return {card.name: keep(card) for card in CARDS}


def _spank_variants() -> tuple[Variant, ...]:
    from jungle_envs.games.spank_the_monkey.tables import DEFAULT_MONKEY_BASE, JUNK

    return (
        # the monkey starts on the ground (base = players, floor 0) or at its floor
        Variant("monkey_at_0", lambda n: {"monkey_base": n, "monkey_floor": 0}),
        Variant("monkey_at_floor", lambda n: {"monkey_floor": DEFAULT_MONKEY_BASE - n}),
        fixed("monkey_base_60", monkey_base=60),
        Variant("deck_min", lambda n: {"deck": _spank_min_deck(n)}),
        fixed("deck_no_junk", deck=_spank_deck(lambda c: 0 if c.kind == JUNK else c.copies)),
        fixed("deck_junk_only", deck=_spank_deck(lambda c: c.copies if c.kind == JUNK else 0)),
        # junk is at its maximum already (every level of the tallest tower): the rest x4
        fixed("deck_x4", deck=_spank_deck(lambda c: c.copies * (1 if c.kind == JUNK else 4))),
    )


def _tropic_variants() -> tuple[Variant, ...]:
    from jungle_envs.games.tropic_race.tables import LAND, LOCATION_NAMES, SLOTS

    land = [LOCATION_NAMES[f] for f in LAND]
    no_tiles = {"bridge": 0, "near_only": 0, "far_only": 0, "empty": 0}
    return (
        fixed("monkeys_1", monkeys=1),
        fixed("monkeys_12", monkeys=12),
        # the fewest faces the die takes: an arrow and a lion or the smallest number
        fixed("die_lion_arrow", die_faces=["LION", "ARROW"]),
        fixed("die_1_arrow", die_faces=["1", "ARROW"]),
        fixed("die_9_lion_arrow", die_faces=["9", "9", "LION", "ARROW"]),
        fixed("tiles_min_bridges", tile_mix={**no_tiles, "bridge": SLOTS + 1}),
        fixed("tiles_min_empty", tile_mix={**no_tiles, "empty": SLOTS + 1}),
        fixed("tiles_100", tile_mix={"bridge": 40, "near_only": 20, "far_only": 20, "empty": 20}),
        fixed("fields_none", lion_start=land[0], die_fields=[], arrow_fields=[]),
        fixed("fields_all", lion_start=land[-1], die_fields=land[1:], arrow_fields=[land[0]]),
    )


def _sweep_variants() -> tuple[Variant, ...]:
    from jungle_envs.games.jungle_sweep.tables import ROUNDS

    return (
        fixed("dice_rounds_1", max_dice_rounds=1),
        fixed("dice_rounds_3", max_dice_rounds=3),
        fixed(
            "terrain_min",
            terrain={"jungle_path": ROUNDS - 1, "clearing": 0, "water_hole": 0, "hill": 0},
        ),
        fixed(
            "terrain_big", terrain={"jungle_path": 24, "clearing": 6, "water_hole": 6, "hill": 6}
        ),
        fixed("coconuts_one_value", coconuts={1: 60}),
        fixed("coconuts_up_to_9", coconuts={0: 10, 1: 10, 2: 10, 3: 10, 4: 10, 9: 10}),
        fixed("move_features", move_features=True),
    )


def _elephant_variants() -> tuple[Variant, ...]:
    from jungle_envs.games.elephant_festival.game import MAX_TILES_PER_COLOR

    none = dict.fromkeys(range(6), 0)
    return (
        fixed("grid_3", grid=3),
        fixed("grid_15", grid=15),
        fixed("tiles_1", tiles_per_color={**none, 0: 1}),
        fixed("tiles_only_5s", tiles_per_color={**none, 5: 5}),
        # the most tiles a colour may have (one round each), on the smallest ground
        fixed("tiles_max_grid_3", grid=3, tiles_per_color={**none, 2: MAX_TILES_PER_COLOR}),
    )


def variants(name: str) -> tuple[Variant, ...]:
    """The variants of a game, the default options first."""
    extra = {
        "JungleSweep": _sweep_variants,
        "TropicRace": _tropic_variants,
        "SpankTheMonkey": _spank_variants,
        "ElephantFestival": _elephant_variants,
    }.get(name, tuple)()
    return (fixed(DEFAULT_VARIANT), *extra)


def variant_options(name: str, variant: str, players: int) -> dict[str, Any] | None:
    for v in variants(name):
        if v.name == variant:
            return v.options(players)
    raise ValueError(
        f"{name} has no variant {variant!r}; it has {[v.name for v in variants(name)]}"
    )


# Settings cycled through by the env and compiled paths (a task's index picks one).
ENV_SETTINGS: tuple[dict[str, Any], ...] = (
    {"engine": "compiled"},
    {"engine": "reference"},
    {"engine": "compiled", "observation_mode": "dict", "reward": "score"},
    {"engine": "reference", "observation_mode": "dict", "skip_forced_actions": False},
    {"engine": "compiled", "skip_forced_actions": False, "agent_seat": 0},
    {"engine": "reference", "reward": "score", "agent_seat": -1},  # -1: the last seat
)
COMPILED_SETTINGS: tuple[dict[str, Any], ...] = (
    {},
    {"skip_forced_actions": False},
    {"reward": "score"},
    {"agent_seat": 0},
)


def settings_for(path: str, index: int, players: int) -> dict[str, Any]:
    table = ENV_SETTINGS if path == "env" else COMPILED_SETTINGS if path == "compiled" else ({},)
    settings = dict(table[index % len(table)])
    if settings.get("agent_seat") == -1:
        settings["agent_seat"] = players - 1
    return settings


# --- tasks and results -------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    path: str
    game: str  # env name, e.g. "JungleSweep"
    players: int
    variant: str
    seed: int  # the first game's seed (compiled: the vector env's reset seed)
    games: int
    settings: int = 0  # index into the path's settings table
    num_envs: int = 0  # compiled only

    def key(self, seed: int | None = None) -> str:
        """What ``--replay`` takes: one game (Python paths, ``seed`` its own) or the task."""
        parts = [self.path, self.game, str(self.players), self.variant]
        parts += [str(self.seed if seed is None else seed), str(self.settings)]
        if self.path == "compiled":
            parts += [str(self.games), str(self.num_envs)]
        return ":".join(parts)

    @classmethod
    def from_key(cls, key: str) -> Task:
        parts = key.split(":")
        try:
            path, name, players, variant, seed, settings, *rest = parts
            if path not in PATHS or name not in GAMES:
                raise ValueError
            if path == "compiled":
                games, num_envs = (int(x) for x in rest)
            elif rest:
                raise ValueError
            else:
                games, num_envs = 1, 0
            return cls(path, name, int(players), variant, int(seed), games, int(settings), num_envs)
        except ValueError:
            raise ValueError(
                f"bad replay key {key!r}: expected path:game:players:variant:seed:settings"
                "[:games:num_envs] as the soak prints it"
            ) from None


@dataclass
class TaskResult:
    task: Task
    games: int = 0
    steps: int = 0
    truncated: int = 0
    errors: int = 0
    seconds: float = 0.0
    records: list[dict[str, Any]] = field(default_factory=list)
    aborted: str = ""  # why the task stopped before its games were played, if it did


@dataclass(frozen=True)
class Knobs:
    """What a worker needs besides the task."""

    deadline: float | None = None  # time.time() after which no game starts
    deep_every: int = 50
    check_every: int = 200
    check_every_compiled: int = 10
    max_task_errors: int = 3
    full: bool = False  # check everything at every state (replays)


class SoakCheckFailed(AssertionError):
    """A check of the soak failed (as opposed to an exception from the package)."""


def check(condition: Any, message: str | Callable[[], str]) -> None:
    """Fail with ``message`` (or what it returns, built only then) unless ``condition``."""
    if not condition:
        fail(message() if callable(message) else message)


def fail(message: str) -> NoReturn:
    raise SoakCheckFailed(message)


def pick_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action (tests replace this to break the soak on purpose)."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def compiled_actions(masks: np.ndarray, streams: np.ndarray, out: np.ndarray) -> None:
    """A random legal action per row of ``masks``, drawn in a compiled loop (tests replace
    this to break the soak on purpose)."""
    from jungle_envs.core.compiled import calls

    calls.random_actions(masks, streams, out)


def check_observation(obs: Any, size: int, what: str) -> None:
    check(isinstance(obs, np.ndarray), lambda: f"{what}: not an array but {type(obs)}")
    check(obs.shape == (size,), lambda: f"{what}: shape {obs.shape}, expected ({size},)")
    check(obs.dtype == np.float32, lambda: f"{what}: dtype {obs.dtype}, expected float32")
    low, high = obs.min(), obs.max()  # a NaN makes both comparisons fail
    check(low >= 0.0 and high <= 1.0, lambda: f"{what}: values outside [0, 1]: {_outside(obs)}")


def _outside(obs: np.ndarray) -> str:
    bad = np.flatnonzero(~((obs >= 0.0) & (obs <= 1.0)))
    return f"at {bad[:8].tolist()} (of {bad.size}): {obs[bad[:8]].tolist()}"


def check_results(game: Game, scores: Any, winners: Any, returns: Any, what: str) -> None:
    n = game.num_players
    check(len(scores) == n, lambda: f"{what}: {len(scores)} scores for {n} players")
    check(all(math.isfinite(float(s)) for s in scores), lambda: f"{what}: scores {scores}")
    winners = [int(w) for w in winners]
    check(
        len(set(winners)) == len(winners) and all(0 <= w < n for w in winners),
        lambda: f"{what}: winners {winners} are not distinct seats of {n}",
    )
    expected = game.returns_of(winners)
    check(
        [float(r) for r in returns] == expected,
        lambda: f"{what}: returns {list(returns)}, expected {expected} for winners {winners}",
    )


# --- the paths -----------------------------------------------------------------------------


def max_steps_of(game: Game) -> int:
    """A bound on a game's steps (decisions and chance) that only a runaway game passes."""
    return 20 * game.spec.max_decisions * game.num_players + 100_000


def check_engine_state(game: Game, state: Any, what: str) -> None:
    game.validate_state(state)
    text = game.state_to_json(state)
    loaded = game.state_from_json(text)
    check(loaded == state, lambda: f"{what}: the state loaded from its JSON differs")
    check(game.state_to_json(loaded) == text, lambda: f"{what}: JSON of the loaded state differs")
    check(state.copy() == state, lambda: f"{what}: a copy of the state differs")
    for seat in range(game.num_players):
        check_observation(game.observe(state, seat), game.observation_size, f"{what}, seat {seat}")


def play_engine_game(game: Game, seed: int, deep: bool, check_every: int) -> tuple[int, bool]:
    """One game on the rules functions; returns (steps, truncated)."""
    rng = np.random.default_rng(seed)
    state = game.new_state()
    n, num_actions = game.num_players, game.spec.num_actions
    limit = max_steps_of(game)
    steps = 0
    while True:
        if deep or steps % check_every == 0:
            check_engine_state(game, state, f"step {steps}")
        player = game.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            event = game.chance_event(state)
            outcome = event.sample(rng)
            if deep:
                fast = game.sample_chance(state, np.random.default_rng(steps))
                described = event.sample(np.random.default_rng(steps))
                if fast != described:
                    fail(f"step {steps}: fast chance draw {fast} != {described} of {event}")
            game.apply_chance(state, outcome)
        else:
            if not 0 <= player < n:
                fail(f"step {steps}: current player {player}")
            mask = game.legal_mask(state)
            if mask.dtype != np.bool_ or mask.shape != (num_actions,):
                fail(f"step {steps}: mask {mask.dtype} {mask.shape}")
            if not mask.any():
                fail(f"step {steps}: seat {player} has no legal action")
            if deep:
                legal = game.legal_actions(state)
                if list(legal) != np.flatnonzero(mask).tolist():
                    fail(f"step {steps}: legal_actions {legal} != the mask")
            game.apply_action(state, pick_action(mask, rng))
        steps += 1
        if steps > limit:
            fail(f"no end after {limit} steps")
    check_engine_state(game, state, "end")
    check(not game.legal_mask(state).any(), "a finished game has legal actions")
    info = game.final_info(state)
    check_results(game, info["scores"], info["winners"], info["returns"], "end")
    check(info["returns"] == game.returns(state), "final_info's returns != returns()")
    return steps, False


def play_env_game(
    env: gym.Env, settings: dict[str, Any], seed: int, deep: bool
) -> tuple[int, bool]:
    """One episode of the Gymnasium env; returns (learner steps, truncated)."""
    base = env.unwrapped
    game = base.game
    rng = np.random.default_rng([seed, 1])
    space = env.observation_space
    dict_mode = settings.get("observation_mode") == "dict"
    score_mode = settings.get("reward") == "score"
    obs, info = env.reset(seed=seed)
    seat = info["agent_seat"]
    if not 0 <= seat < game.num_players:
        fail(f"agent_seat {seat}")
    if "agent_seat" in settings and seat != settings["agent_seat"]:
        fail(f"agent_seat {seat}, not the fixed seat {settings['agent_seat']}")
    start_score = float(game.scores(base.state)[seat]) if score_mode else 0.0
    total, steps, reward = 0.0, 0, 0.0
    terminated = truncated = False
    while True:
        if not space.contains(obs):
            fail(f"step {steps}: observation outside the space")
        mask = env.action_masks()
        if mask.dtype != np.bool_:
            fail(f"step {steps}: action_masks() dtype {mask.dtype}")
        sent = info["action_mask"]
        if sent.dtype != np.int8 or not np.array_equal(sent, mask.astype(np.int8)):
            fail(f"step {steps}: info['action_mask'] {sent} != action_masks() {mask}")
        if dict_mode and not np.array_equal(obs["action_mask"], sent):
            fail(f"step {steps}: the observation's mask != info['action_mask']")
        if info["agent_seat"] != seat:
            fail(f"step {steps}: agent_seat changed to {info['agent_seat']}")
        if terminated or truncated:
            break
        if not mask.any():
            fail(f"step {steps}: no legal action while not done")
        if deep:
            state = base.state
            player = game.current_player(state)
            if player != seat:
                fail(f"step {steps}: the env's state has seat {player} to move, not {seat}")
            if not np.array_equal(game.legal_mask(state), mask):
                fail(f"step {steps}: the mask != the rules' legal_mask of the env's state")
            flat = obs["observation"] if dict_mode else obs
            if not np.array_equal(flat, game.observe(state, seat)):
                fail(f"step {steps}: the observation != the rules' view of the env's state")
        obs, reward, terminated, truncated, info = env.step(pick_action(mask, rng))
        steps += 1
        if not isinstance(reward, (float, int, np.floating)) or not math.isfinite(reward):
            fail(f"step {steps}: reward {reward!r}")
        if "illegal_action" in info:
            fail(f"step {steps}: {info.get('illegal_action_message', 'illegal action')}")
        if terminated and truncated:
            fail(f"step {steps}: terminated and truncated")
        total += float(reward)
        if not score_mode and not terminated and reward != 0:
            fail(f"step {steps}: reward {reward} before the end")
    if terminated:
        check_results(game, info["scores"], info["winners"], info["returns"], "final info")
        if score_mode:
            gained = float(info["scores"][seat]) - start_score
            check(
                abs(total - gained) < 1e-6,
                lambda: f"score rewards add up to {total}, the seat gained {gained}",
            )
        else:
            check(
                reward == info["returns"][seat],
                lambda: f"last reward {reward} != the seat's return {info['returns'][seat]}",
            )
        check(env.action_masks().all(), "after the end action_masks() is not all True")
    return steps, truncated


def play_pettingzoo_game(env: Any, seed: int, deep: bool) -> tuple[int, bool]:
    """One game of the AEC env; returns (env.step calls, truncated)."""
    raw = env.unwrapped
    game = raw.game
    n = game.num_players
    rng = np.random.default_rng([seed, 1])
    env.reset(seed=seed)
    limit = max_steps_of(game)
    steps, truncated = 0, False
    paid: dict[str, float] = {}
    final: dict[str, Any] = {}
    for agent in env.agent_iter(limit):
        obs, reward, termination, truncation, info = env.last()
        if not math.isfinite(reward):
            fail(f"step {steps}: {agent}'s reward {reward!r}")
        if deep:
            if not env.observation_space(agent).contains(obs):
                fail(f"step {steps}: {agent}'s observation outside its space")
        else:
            check_observation(obs["observation"], game.observation_size, f"step {steps}, {agent}")
        mask = obs["action_mask"]
        if termination or truncation:
            truncated |= bool(truncation)
            if mask.any():
                fail(f"step {steps}: {agent} is done but has a mask")
            paid[agent], final = float(reward), info
            action = None
        else:
            if not mask.any():
                fail(f"step {steps}: {agent} has no legal action")
            if deep:
                for other in raw.agents:
                    if other != agent and env.observe(other)["action_mask"].any():
                        fail(f"step {steps}: {other}, not selected, has a mask")
            action = pick_action(mask, rng)
        env.step(action)
        steps += 1
    check(not raw.agents, lambda: f"agents {raw.agents} left after {steps} steps")
    check(len(paid) == n, lambda: f"{len(paid)} of {n} agents saw the end")
    check("scores" in final and "winners" in final, lambda: f"final info {final}")
    returns = [paid[f"player_{seat}"] for seat in range(n)]
    check_results(game, final["scores"], final["winners"], returns, "final rewards")
    return steps, truncated


def play_compiled(
    envs: Any, game: Game, task: Task, knobs: Knobs, result: TaskResult, settings: dict
) -> None:
    """Step the vector env with random legal actions until ``task.games`` episodes ended;
    counts into ``result``. Raises on the first failed check."""
    from jungle_envs.core.compiled.rng import stream_state

    num_envs = envs.num_envs
    n = game.num_players
    score_mode = settings.get("reward") == "score"
    obs, info = envs.reset(seed=task.seed)
    streams = np.array([stream_state([task.seed, 1, i]) for i in range(num_envs)])
    actions = np.zeros(num_envs, dtype=np.int64)
    rng = np.random.default_rng([task.seed, 2])
    ended = np.zeros(num_envs, dtype=bool)
    since_end, step = 0, 0
    patience = game.spec.max_decisions + 10
    while result.games < task.games:
        if knobs.deadline is not None and time.time() > knobs.deadline:
            result.aborted = "time limit"
            return
        masks = info["action_mask"]
        if not masks.any(axis=1).all():
            fail(f"step {step}: envs {_empty_rows(masks)} have no legal action")
        if not (obs.min() >= 0.0 and obs.max() <= 1.0):  # a NaN fails too
            fail(f"step {step}: {_bad_rows(obs)}")
        seats = info["agent_seat"]
        if not ((seats >= 0) & (seats < n)).all():
            fail(f"step {step}: agent seats {seats}")
        if knobs.full or step % knobs.check_every_compiled == 0:
            live = np.flatnonzero(~ended)  # none when every game ended at the last step
            for i in live if knobs.full or not live.size else live[rng.integers(live.size, size=1)]:
                check_compiled_row(envs, game, int(i), obs, masks, f"step {step}, env {i}")
        compiled_actions(masks, streams, actions)
        obs, rewards, terminated, truncated, info = envs.step(actions)
        step += 1
        result.steps += int(np.count_nonzero(~ended))
        if not np.isfinite(rewards).all():
            fail(f"step {step}: rewards {rewards}")
        if (terminated & truncated).any():
            fail(f"step {step}: terminated and truncated")
        if rewards[ended].any() or (terminated | truncated)[ended].any():
            fail(f"step {step}: an env reset by autoreset got a reward or ended")
        done = terminated | truncated
        if done.any():
            if info["illegal_action"][done].any():
                fail(
                    f"step {step}: illegal actions in envs {np.flatnonzero(info['illegal_action'])}"
                )
            rows = np.flatnonzero(terminated)
            returns, scores = info["returns"][rows], info["scores"][rows]
            if not np.isfinite(scores).all():
                fail(f"step {step}: scores {scores}")
            if not np.isin(returns, (-1.0, 0.0, 1.0)).all():
                fail(f"step {step}: returns {returns}")
            own = returns[np.arange(len(rows)), info["agent_seat"][rows]]
            if not score_mode and not np.array_equal(rewards[rows], own):
                fail(f"step {step}: final rewards {rewards[rows]} != the returns {own}")
            result.games += int(np.count_nonzero(done))
            result.truncated += int(np.count_nonzero(truncated))
            since_end = 0
        else:
            since_end += 1
            if since_end > patience:
                fail(f"no episode ended in {patience} steps")
        ended = done


def _empty_rows(masks: np.ndarray) -> list[int]:
    return np.flatnonzero(~masks.any(axis=1))[:8].tolist()


def _bad_rows(obs: np.ndarray) -> str:
    rows = np.flatnonzero(~((obs >= 0.0) & (obs <= 1.0)).all(axis=1))
    return f"envs {rows[:8].tolist()} have observations outside [0, 1]: {_outside(obs[rows[0]])}"


def check_compiled_row(envs: Any, game: Game, i: int, obs: Any, masks: Any, what: str) -> None:
    """One env of the vector env against the reference rules."""
    state = envs.twin.unpack(envs.buffers.rows[i])
    check_engine_state(game, state, what)
    seat = int(envs.buffers.learners[i])
    player = game.current_player(state)
    check(player == seat, lambda: f"{what}: seat {player} to move, not the learner {seat}")
    check(
        np.array_equal(masks[i].astype(bool), game.legal_mask(state)),
        lambda: f"{what}: mask != the rules' legal_mask",
    )
    check(
        np.array_equal(obs[i], game.observe(state, seat)),
        lambda: f"{what}: observation != the rules' view",
    )


# --- running a task ------------------------------------------------------------------------


def make_env(path: str, task: Task, options: dict[str, Any], settings: dict[str, Any]) -> Any:
    env_id = f"jungle_envs/{task.game}-v0"
    if path == "env":
        return gym.make(env_id, num_players=task.players, opponents="random", **settings, **options)
    if path == "pettingzoo":
        from jungle_envs import multiagent

        return multiagent.env(env_id, num_players=task.players, **options)
    if path == "compiled":
        return gym.make_vec(
            env_id,
            num_envs=task.num_envs,
            vectorization_mode="vector_entry_point",
            num_players=task.players,
            opponents="random",
            num_threads=1,
            copy=False,
            **settings,
            **options,
        )
    return jungle_envs.make_game(task.game, task.players, **options)


def run_task(task: Task, knobs: Knobs) -> TaskResult:
    """Play a task's games, catching and recording every error."""
    result = TaskResult(task)
    start = time.perf_counter()
    options = variant_options(task.game, task.variant, task.players) or {}
    settings = settings_for(task.path, task.settings, task.players)
    seed = task.seed

    def record(exc: BaseException, seed: int | None) -> None:
        result.errors += 1
        result.records.append(error_record(task, options, settings, seed, exc))

    try:
        subject = make_env(task.path, task, options, settings)
    except Exception as exc:
        record(exc, None)
        result.aborted = "could not make the env"
        result.seconds = time.perf_counter() - start
        return result
    if task.path == "compiled":
        try:
            play_compiled(subject, subject.game, task, knobs, result, settings)
        except Exception as exc:
            record(exc, None)
            result.aborted = "error"
        subject.close()
        result.seconds = time.perf_counter() - start
        return result
    for k in range(task.games):
        if knobs.deadline is not None and time.time() > knobs.deadline:
            result.aborted = "time limit"
            break
        seed = task.seed + k
        deep = knobs.full or (seed % knobs.deep_every == 0)
        try:
            if task.path == "engine":
                steps, truncated = play_engine_game(subject, seed, deep, knobs.check_every)
            elif task.path == "env":
                steps, truncated = play_env_game(subject, settings, seed, deep)
            else:
                steps, truncated = play_pettingzoo_game(subject, seed, deep)
        except Exception as exc:
            record(exc, seed)
            if result.errors >= knobs.max_task_errors:
                result.aborted = f"{result.errors} errors"
                break
            try:  # a failed game may leave the env anywhere: start from a fresh one
                subject = make_env(task.path, task, options, settings)
            except Exception as again:
                record(again, None)
                result.aborted = "could not make the env"
                break
            continue
        result.games += 1
        result.steps += steps
        result.truncated += truncated
    if hasattr(subject, "close"):
        subject.close()
    result.seconds = time.perf_counter() - start
    return result


def error_record(
    task: Task, options: dict, settings: dict, seed: int | None, exc: BaseException
) -> dict[str, Any]:
    key = task.key(seed)
    return {
        "path": task.path,
        "game": task.game,
        "players": task.players,
        "variant": task.variant,
        "options": repr(options),
        "settings": repr(settings),
        "seed": seed if seed is not None else task.seed,
        "error": f"{type(exc).__name__}: {exc}",
        "traceback": "".join(traceback.format_exception(exc))[-4000:],
        "replay": f"python -m benchmarks.soak --replay {key}",
    }


def _worker(conn: multiprocessing.connection.Connection, knobs: Knobs) -> None:
    """A worker process: run the tasks the parent sends until it sends None or goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        result = run_task(task, knobs)
        try:
            conn.send(result)
        except (BrokenPipeError, OSError):
            return


# --- the plan --------------------------------------------------------------------------------


@dataclass
class Plan:
    tasks: list[Task]
    not_applicable: dict[str, list[str]]  # "game Np path" -> variants it does not take
    variant_names: dict[str, list[str]]


def task_seed(seed: int, *place: int) -> int:
    """A task's seed from the run's and the task's place in the plan (below 2**62, so the
    games' seeds, the task's plus an index, stay distinct)."""
    state = np.random.SeedSequence([seed, *place]).generate_state(1, np.uint64)[0]
    return int(state >> np.uint64(2))


def applicable(path: str, name: str, players: int, options: dict[str, Any] | None) -> str:
    """Why a variant cannot be played on a path ("" if it can)."""
    if options is None:
        return "not at this player count"
    try:
        game = game_class(name)(players, **options)
    except ValueError as exc:
        return str(exc)
    if path == "compiled":
        from jungle_envs.core.compiled.engine import Twin, TwinUnavailable

        try:
            Twin(game)
        except TwinUnavailable as exc:
            return str(exc)
    return ""


def split_games(total: int, share: float, count: int) -> list[int]:
    """Games of the default options and of each of ``count`` variants for ``total`` games:
    the variants share ``share`` of them, each at least one game (so a small ``total`` plays
    a little more than asked), the default options the rest, at least ``1 - share``."""
    if count == 0 or share <= 0 or total == 0:
        return [total] + [0] * count
    each = max(1, round(total * share / count))
    return [max(total - each * count, math.ceil(total * (1 - share))), *([each] * count)]


def make_plan(args: argparse.Namespace) -> Plan:
    cells = []  # (path, game, players, variant names with games)
    not_applicable: dict[str, list[str]] = {}
    names = args.game or list(GAMES)
    for path in args.paths:
        per_cell = args.games_compiled if path == "compiled" else args.games
        chunk = args.chunk_compiled if path == "compiled" else args.chunk
        for g, name in enumerate(names):
            spec = game_class(name).spec
            counts = [n for n in spec.player_counts if not args.players or n in args.players]
            for n in counts:
                playable = []
                for v, variant in enumerate(variants(name)):
                    why = applicable(path, name, n, variant.options(n))
                    if why:
                        not_applicable.setdefault(f"{name} {n}p {path}", []).append(
                            f"{variant.name} ({why})"
                        )
                    elif v == 0 or args.option_share > 0:
                        playable.append((v, variant.name))
                split = split_games(per_cell, args.option_share, len(playable) - 1)
                for (v, vname), games in zip(playable, split, strict=True):
                    pieces = [chunk] * (games // chunk) + ([games % chunk] if games % chunk else [])
                    cells.append(
                        [(path, g, name, n, v, vname, c, size) for c, size in enumerate(pieces)]
                    )
    # Round robin over the cells: every path, game, player count and variant comes early.
    tasks = []
    for c in range(max((len(cell) for cell in cells), default=0)):
        for cell in cells:
            if c < len(cell):
                path, g, name, n, v, vname, index, size = cell[c]
                seed = task_seed(args.seed, PATHS.index(path), g, n, v, index)
                settings = index + n + v  # varies along a cell and across player counts
                num_envs = min(args.num_envs, size) if path == "compiled" else 0
                tasks.append(Task(path, name, n, vname, seed, size, settings, num_envs))
    return Plan(tasks, not_applicable, {name: [v.name for v in variants(name)] for name in names})


# --- running the plan --------------------------------------------------------------------------


class Progress:
    """A progress bar over games (rich, else tqdm, else a line now and then)."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.done, self.errors = total, 0, 0
        self._bar: Any = None
        self._last_line = 0.0
        self.enabled = enabled
        self._kind = "plain"
        if not enabled or not sys.stdout.isatty():  # a log gets a line now and then
            return
        try:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(
                TextColumn("soak {task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
            )
            self._bar.start()
            self._id = self._bar.add_task("0 errors", total=total)
            self._kind = "rich"
        except ImportError:
            try:
                from tqdm import tqdm

                self._bar = tqdm(total=total, unit="game", desc="soak")
                self._kind = "tqdm"
            except ImportError:
                pass

    def advance(self, games: int, errors: int) -> None:
        self.done += games
        self.errors += errors
        if not self.enabled:
            return
        if self._kind == "rich":
            self._bar.update(self._id, advance=games, description=f"{self.errors} errors")
        elif self._kind == "tqdm":
            self._bar.update(games)
            self._bar.set_postfix(errors=self.errors)
        elif time.time() - self._last_line > 30:
            self._last_line = time.time()
            print(f"soak: {self.done:,}/{self.total:,} games, {self.errors} errors", flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop() if self._kind == "rich" else self._bar.close()


def run_plan(
    tasks: list[Task], knobs: Knobs, workers: int, progress: Progress
) -> tuple[list[TaskResult], bool]:
    """Run the tasks on ``workers`` processes (1: in this process); returns the results and
    whether the run was interrupted."""
    results: list[TaskResult] = []
    if workers <= 1:
        try:
            for task in tasks:
                if knobs.deadline is not None and time.time() > knobs.deadline:
                    break
                result = run_task(task, knobs)
                results.append(result)
                progress.advance(result.games, result.errors)
        except KeyboardInterrupt:
            return results, True
        return results, False

    context = multiprocessing.get_context("spawn")  # no forked locks or threads
    queue = list(reversed(tasks))
    pool: dict[int, tuple[Any, Any, Task | None]] = {}  # id -> (process, conn, its task)

    def start_worker(wid: int) -> None:
        parent, child = context.Pipe()
        process = context.Process(target=_worker, args=(child, knobs), daemon=True)
        process.start()
        child.close()
        pool[wid] = (process, parent, None)

    def give(wid: int) -> None:
        process, conn, _ = pool[wid]
        if queue and not (knobs.deadline is not None and time.time() > knobs.deadline):
            task = queue.pop()
            conn.send(task)
            pool[wid] = (process, conn, task)
        else:
            conn.send(None)
            conn.close()
            process.join(timeout=10)
            del pool[wid]

    interrupted = False
    try:
        for wid in range(workers):
            start_worker(wid)
            give(wid)
        while pool:
            waitables = [conn for _, conn, _ in pool.values()]
            waitables += [process.sentinel for process, _, _ in pool.values()]
            multiprocessing.connection.wait(waitables, timeout=5)
            for wid, (process, conn, task) in list(pool.items()):
                result = None
                try:
                    if conn.poll():
                        result = conn.recv()
                except (EOFError, OSError):
                    pass
                if result is not None:
                    results.append(result)
                    progress.advance(result.games, result.errors)
                    give(wid)
                elif not process.is_alive():  # died in the middle of its task
                    conn.close()
                    crashed = TaskResult(task, errors=1, aborted="worker died")
                    crashed.records.append(
                        error_record(
                            task,
                            variant_options(task.game, task.variant, task.players) or {},
                            settings_for(task.path, task.settings, task.players),
                            None,
                            RuntimeError(
                                f"the worker process died (exit code {process.exitcode}) playing "
                                f"this task"
                            ),
                        )
                    )
                    results.append(crashed)
                    progress.advance(0, 1)
                    start_worker(wid)
                    give(wid)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        for process, conn, _ in pool.values():
            if process.is_alive():
                process.terminate()
            process.join(timeout=5)
            conn.close()
    return results, interrupted


# --- the summary ---------------------------------------------------------------------------------


def summarise(
    results: list[TaskResult],
    plan: Plan,
    args: argparse.Namespace,
    wall: float,
    interrupted: bool,
) -> dict[str, Any]:
    cells: dict[tuple[str, str, int, str], dict[str, float]] = {}
    records: list[dict[str, Any]] = []
    errors = 0
    for r in results:
        t = r.task
        cell = cells.setdefault(
            (t.game, t.path, t.players, t.variant),
            dict.fromkeys(("games", "steps", "truncated", "errors", "seconds", "tasks"), 0),
        )
        cell["games"] += r.games
        cell["steps"] += r.steps
        cell["truncated"] += r.truncated
        cell["errors"] += r.errors
        cell["seconds"] += r.seconds
        cell["tasks"] += 1
        errors += r.errors
        records += r.records
    planned = sum(t.games for t in plan.tasks)
    played = sum(int(c["games"]) for c in cells.values())
    timed_out = any(r.aborted == "time limit" for r in results) or len(results) < len(plan.tasks)
    return {
        "command": "python -m benchmarks.soak " + " ".join(args.argv),
        "seed": args.seed,
        "workers": args.workers,
        "paths": list(args.paths),
        "games_planned": planned,
        "games": played,
        "steps": sum(int(c["steps"]) for c in cells.values()),
        "truncated": sum(int(c["truncated"]) for c in cells.values()),
        "errors": errors,
        "wall_seconds": round(wall, 1),
        "complete": not interrupted and not timed_out,
        "interrupted": interrupted,
        "stopped_by_time_limit": timed_out and not interrupted,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": git_commit(),
        "machine": machine(),
        "cells": [
            {
                "game": g,
                "path": p,
                "players": n,
                "variant": v,
                **{k: round(x, 3) if k == "seconds" else int(x) for k, x in c.items()},
            }
            for (g, p, n, v), c in sorted(cells.items())
        ],
        "variants": plan.variant_names,
        "not_applicable": plan.not_applicable,
        "error_records": records[: args.max_error_records],
    }


def git_commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).parent,
            timeout=10,
            check=True,
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).parent,
            timeout=10,
            check=True,
        )
        return out.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def machine() -> str:
    import numba

    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return (
        f"{platform.machine()}, {cores} cores, Python {platform.python_version()}, "
        f"numpy {np.__version__}, numba {numba.__version__}, gymnasium {gym.__version__}"
    )


def by_game_and_path(summary: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for c in summary["cells"]:
        row = rows.setdefault(
            (c["game"], c["path"]),
            {
                "players": set(),
                "variants": set(),
                **dict.fromkeys(("games", "steps", "truncated", "errors", "seconds"), 0),
            },
        )
        row["players"].add(c["players"])
        if c["games"]:
            row["variants"].add(c["variant"])
        for k in ("games", "steps", "truncated", "errors", "seconds"):
            row[k] += c[k]
    return rows


def table(summary: dict[str, Any]) -> str:
    """The summary as a Markdown table: one row per game and path, then totals by path."""
    rows = by_game_and_path(summary)
    head = (
        "| game | path | players | variants | games | steps | steps/game | games/s "
        "per core | truncated | errors |"
    )
    lines = [head, "|" + "---|" * 4 + "---:|" * 6]

    def line(game: str, path: str, row: dict[str, Any]) -> str:
        players = sorted(row["players"])
        span = f"{players[0]}-{players[-1]}" if len(players) > 1 else str(players[0])
        per_game = row["steps"] / row["games"] if row["games"] else 0
        rate = row["games"] / row["seconds"] if row["seconds"] else 0
        return (
            f"| {game} | {path} | {span} | {len(row['variants'])} | {row['games']:,} | "
            f"{row['steps']:,} | {per_game:,.0f} | {rate:,.0f} | {row['truncated']:,} | "
            f"{row['errors']:,} |"
        )

    paths = [p for p in PATHS if any(k[1] == p for k in rows)]
    games = list(dict.fromkeys(k[0] for k in rows))
    for game in games:
        for path in paths:
            if (game, path) in rows:
                lines.append(line(game, path, rows[(game, path)]))
    for path in paths:
        total = {
            "players": set(),
            "variants": set(),
            **dict.fromkeys(("games", "steps", "truncated", "errors", "seconds"), 0),
        }
        for (_, p), row in rows.items():
            if p == path:
                total["players"] |= row["players"]
                for k in ("games", "steps", "truncated", "errors", "seconds"):
                    total[k] += row[k]
        total["variants"] = {
            (c["game"], c["variant"]) for c in summary["cells"] if c["path"] == path and c["games"]
        }
        lines.append(line("**all**", f"**{path}**", total))
    everything = {
        "players": {c["players"] for c in summary["cells"]},
        "variants": {(c["game"], c["variant"]) for c in summary["cells"] if c["games"]},
        **{
            k: sum(c[k] for c in summary["cells"])
            for k in ("games", "steps", "truncated", "errors", "seconds")
        },
    }
    if summary["cells"]:
        lines.append(line("**all**", "**all**", everything))
    return "\n".join(lines)


def report(summary: dict[str, Any]) -> str:
    """The summary as Markdown (what ``--write`` puts between the markers)."""
    status = (
        "complete"
        if summary["complete"]
        else ("interrupted" if summary["interrupted"] else "stopped by the time limit")
    )
    wall = summary["wall_seconds"]
    took = f"{wall:.0f} s" if wall < 120 else f"{wall / 60:.1f} min"
    out = [
        f"`{summary['command'].strip()}`: **{summary['games']:,} games, "
        f"{summary['errors']} errors** ({summary['steps']:,} steps) in {took} "
        f"wall time on {summary['workers']} worker process(es); run {status} "
        f"({summary['games']:,} of {summary['games_planned']:,} planned games). "
        f"{summary['date']}, commit {summary['commit']}; {summary['machine']}.",
        "",
        table(summary),
        "",
        "Steps: learner steps (env, compiled), decisions and chance events (engine), "
        "`env.step` calls (pettingzoo). Games/s per core: games over the time the worker "
        "spent on them. Truncated: episodes cut off by the env's step limit.",
        "",
        "Option variants: "
        + "; ".join(f"{g}: {', '.join(v)}" for g, v in summary["variants"].items())
        + ".",
    ]
    if summary["not_applicable"]:
        skipped = sorted(
            {
                (k.rsplit(" ", 1)[0], v.split(" (")[0])
                for k, vs in summary["not_applicable"].items()
                for v in vs
            }
        )
        out += [
            "",
            "Not applicable (the options refuse them): "
            + ", ".join(f"{v} at {k}" for k, v in skipped)
            + ".",
        ]
    if summary["error_records"]:
        out += ["", "Errors:", ""]
        for e in summary["error_records"]:
            out.append(
                f"- {e['path']} {e['game']} {e['players']}p {e['variant']} "
                f"seed {e['seed']}: {e['error'].splitlines()[0][:300]} "
                f"(`{e['replay']}`)"
            )
    return "\n".join(out)


def check_markers(path: Path) -> tuple[str, int, int]:
    """The content of ``path`` and where its soak markers are; ValueError if it has none."""
    if not path.is_file():
        raise ValueError(
            f"--write: {path} does not exist (it must hold the markers {MARK_START} and {MARK_END})"
        )
    content = path.read_text()
    start, end = content.find(MARK_START), content.find(MARK_END)
    if start < 0 or end < start or content.count(MARK_START) != 1 or content.count(MARK_END) != 1:
        raise ValueError(f"--write: {path} needs one {MARK_START} followed by one {MARK_END}")
    return content, start, end


def write_markers(path: Path, text: str) -> None:
    """Replace what lies between the soak markers of ``path`` with ``text``."""
    content, start, end = check_markers(path)
    new = content[: start + len(MARK_START)] + "\n" + text.strip() + "\n" + content[end:]
    path.write_text(new)


# --- the command ---------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.soak",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        epilog="Exit status: 0 no error, 1 an error (each printed with its traceback and "
        "replay key), 2 bad arguments, 130 interrupted. A replay key is "
        "path:game:players:variant:seed:settings (compiled: plus :games:num_envs), as an "
        "error prints it. See the module's docstring for what each path checks.",
    )
    add = parser.add_argument
    add(
        "--games",
        type=int,
        default=3000,
        metavar="N",
        help="games per game x player count on each Python path (env, engine, pettingzoo)",
    )
    add(
        "--games-compiled",
        type=int,
        default=60_000,
        metavar="N",
        help="games per game x player count on the compiled path",
    )
    add(
        "--seconds",
        type=float,
        default=None,
        metavar="S",
        help="wall-time limit: no game starts after it (None: play the whole plan)",
    )
    add(
        "--workers",
        type=int,
        default=2,
        metavar="W",
        help="worker processes (1: run in this process)",
    )
    add("--seed", type=int, default=0, help="the run's seed; every task's derives from it")
    add(
        "--paths",
        nargs="+",
        choices=PATHS,
        default=list(PATHS),
        metavar="PATH",
        help=f"paths to soak, of {', '.join(PATHS)}",
    )
    add(
        "--game",
        nargs="+",
        choices=sorted(GAMES),
        default=None,
        metavar="NAME",
        help=f"games to soak, of {', '.join(GAMES)} (None: all)",
    )
    add(
        "--players",
        nargs="+",
        type=int,
        default=None,
        metavar="N",
        help="player counts to soak (None: each game's whole range)",
    )
    add(
        "--option-share",
        type=float,
        default=0.25,
        metavar="F",
        help="share of the games played with non-default option variants, split evenly "
        "among a game's variants (0: default options only)",
    )
    add(
        "--deep-every",
        type=int,
        default=50,
        metavar="K",
        help="Python paths: one game in K checks everything at every state",
    )
    add(
        "--check-every",
        type=int,
        default=200,
        metavar="K",
        help="engine path: the other games are validated, saved and loaded, and observed "
        "every K steps (and at the end)",
    )
    add(
        "--check-every-compiled",
        type=int,
        default=10,
        metavar="K",
        help="compiled path: one env is checked against the reference rules every K "
        "steps of the vector env",
    )
    add("--chunk", type=int, default=100, metavar="N", help="games per task on the Python paths")
    add(
        "--chunk-compiled",
        type=int,
        default=5000,
        metavar="N",
        help="games per task on the compiled path",
    )
    add("--num-envs", type=int, default=256, metavar="N", help="envs per compiled vector env")
    add(
        "--max-task-errors",
        type=int,
        default=3,
        metavar="N",
        help="a task stops after N errors (the rest of its games are not played)",
    )
    add(
        "--max-error-records",
        type=int,
        default=50,
        metavar="N",
        help="errors described in the summary (all are counted)",
    )
    add("--json", type=Path, default=None, metavar="FILE", help="write the summary as JSON here")
    add(
        "--write",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"replace the text between {MARK_START} and {MARK_END} in this Markdown file "
        "with the result",
    )
    add(
        "--replay",
        default=None,
        metavar="KEY",
        help="play the game (or compiled task) of an error's replay key again, checking "
        "every state, print its traceback and exit",
    )
    add("--no-progress", action="store_true", help="no progress bar")
    add("--list-variants", action="store_true", help="print every game's option variants and exit")
    args = parser.parse_args(argv)
    for name in (
        "games",
        "games_compiled",
        "chunk",
        "chunk_compiled",
        "num_envs",
        "workers",
        "deep_every",
        "check_every",
        "check_every_compiled",
        "max_task_errors",
    ):
        minimum = 0 if name.startswith("games") else 1
        if getattr(args, name) < minimum:
            parser.error(f"--{name.replace('_', '-')} must be >= {minimum}")
    if not 0 <= args.option_share <= 1:
        parser.error("--option-share must be in [0, 1]")
    if args.seconds is not None and args.seconds <= 0:
        parser.error("--seconds must be > 0")
    if args.write is not None:
        try:
            check_markers(args.write)
        except ValueError as exc:
            parser.error(str(exc))
    if "pettingzoo" in args.paths:
        try:
            import pettingzoo  # noqa: F401
        except ImportError:
            parser.error(
                "the pettingzoo path needs pettingzoo (pip install -e '.[test]'), "
                "or leave it out of --paths"
            )
    args.argv = list(sys.argv[1:] if argv is None else argv)
    return args


def replay(key: str, knobs: Knobs) -> int:
    """Play a replay key's game with every check at every state, or its compiled task with
    the run's checks (a compiled task is the whole batch: it plays the same games only with
    the same checks drawing the same envs to check)."""
    try:
        task = Task.from_key(key)
        variant_options(task.game, task.variant, task.players)
    except ValueError as exc:
        print(f"python -m benchmarks.soak: error: {exc}", file=sys.stderr)
        return 2
    print(f"replaying {task}", flush=True)
    if task.path != "compiled":
        knobs = Knobs(deep_every=1, check_every=1, max_task_errors=1, full=True)
    result = run_task(task, knobs)
    if result.records:
        for record in result.records:
            print(f"options {record['options']}, settings {record['settings']}")
            print(record["traceback"])
        return 1
    print(f"no error: {result.games} game(s), {result.steps} steps")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    knobs = Knobs(
        deadline=None,
        deep_every=args.deep_every,
        check_every=args.check_every,
        check_every_compiled=args.check_every_compiled,
        max_task_errors=args.max_task_errors,
    )
    if args.replay:
        return replay(args.replay, knobs)
    if args.list_variants:
        for name in args.game or GAMES:
            for v in variants(name):
                print(
                    f"{name} {v.name}: "
                    + ", ".join(
                        f"{n}p {v.options(n)!r}" for n in game_class(name).spec.player_counts
                    )
                )
        return 0
    plan = make_plan(args)
    total = sum(t.games for t in plan.tasks)
    print(
        f"soak: {total:,} games in {len(plan.tasks)} tasks on {args.workers} worker(s), "
        f"paths {', '.join(args.paths)}, seed {args.seed}",
        flush=True,
    )
    start = time.perf_counter()
    if args.seconds is not None:
        knobs = Knobs(**{**asdict(knobs), "deadline": time.time() + args.seconds})
    progress = Progress(total, enabled=not args.no_progress)
    try:
        results, interrupted = run_plan(plan.tasks, knobs, args.workers, progress)
    finally:
        progress.close()
    summary = summarise(results, plan, args, time.perf_counter() - start, interrupted)
    text = report(summary)
    print(text)
    for e in summary["error_records"]:
        print(
            f"\n--- {e['path']} {e['game']} {e['players']}p {e['variant']} seed {e['seed']} "
            f"options {e['options']} settings {e['settings']}\n{e['traceback']}"
            f"replay: {e['replay']}"
        )
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1, default=str) + "\n")
    if args.write:
        write_markers(args.write, text)
        print(f"wrote the result into {args.write}")
    if summary["errors"]:
        return 1
    if interrupted:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
