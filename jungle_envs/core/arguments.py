"""The env arguments, checked once for the single env and the compiled vector env alike.

Both envs take the same keyword arguments (the vector env adds its own few); this module
says what each means, which values it allows, and turns them into one checked record, so a
wrong argument gets the same one-line error from either env and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from jungle_envs.core.game import Game
from jungle_envs.core.seats import SeatPlan, parse_opponents

ENV_OPTIONS = {
    "num_players": "number of seats (see the game's range)",
    "opponents": "'random', 'heuristic', a model path/object, a policy, a callable, a list, "
    "or a mixture such as {'random': 0.3, 'heuristic': 0.7} (drawn per seat and episode)",
    "agent_seat": "'random' (drawn each reset) or a seat index",
    "render_mode": "None, 'ansi' (text), 'human' (text printed at every reset and step) or "
    "'rgb_array' (a picture of the table, needs Pillow)",
    "observation_mode": "'flat' (a float32 vector) or 'dict' (observation + action_mask)",
    "illegal_action": "'lose' (end the episode with -1) or 'raise'",
    "reward": "'win' (+1 sole win, 0 shared/no winner, -1 loss), 'score' (score gained), "
    "'margin' (change in the score minus the best other score, from the learner's first "
    "decision to the end) or 'rank' (at the end, the mean of the win reward and the place: "
    "other seats outscored minus other seats outscoring, over the other seats)",
    "skip_forced_actions": "play the learner's only legal action automatically (default True)",
    "engine": "'auto' (the compiled twin when the game has one), 'compiled' or 'reference'",
    "step_limit": "learner decisions after which an episode is truncated (default: the "
    "game's bound; None: never)",
    "event_log": "hand over info['events']: every decision and chance outcome since the "
    "learner's last decision, as the learner may know them (default False)",
}
MAX_INT64 = 2**63 - 1
# the reward option as the engines take it (a small int, also inside compiled kernels)
REWARD_KINDS = {"win": 0, "score": 1, "margin": 2, "rank": 3}
WIN_REWARD, SCORE_REWARD, MARGIN_REWARD, RANK_REWARD = 0, 1, 2, 3
CHOICES = {
    "observation_mode": ("flat", "dict"),
    "illegal_action": ("lose", "raise"),
    "reward": ("win", "score", "margin", "rank"),
    "render_mode": (None, "ansi", "human", "rgb_array"),
    "engine": ("auto", "compiled", "reference"),
}


class UnsupportedRenderMode(ValueError, TypeError):
    """A render mode the env does not have (Gymnasium's checkers expect a ValueError or
    TypeError)."""


@dataclass(frozen=True)
class EnvArguments:
    """Checked arguments of an env: the game they make and how its seats are played."""

    game: Game
    opponents: SeatPlan
    agent_seat: int | None  # None: drawn at every reset
    observation_mode: str
    illegal_action: str
    reward: str
    skip_forced_actions: bool
    step_limit: int | None  # learner decisions before truncation; None: never


def check_choice(name: str, value: Any) -> None:
    if value not in CHOICES[name]:
        error = UnsupportedRenderMode if name == "render_mode" else ValueError
        raise error(f"{name}={value!r} is not one of {list(CHOICES[name])}")


def check_flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):  # bool("False") is True: take only booleans
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def is_integer(value: Any) -> bool:
    """A Python or numpy integer, not a bool (``True`` is an int to Python, not to us)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_count(name: str, value: Any, minimum: int = 1, maximum: int = MAX_INT64) -> int:
    """An integer (Python or numpy) in ``[minimum, maximum]``, as a Python int."""
    if not is_integer(value) or not minimum <= value <= maximum:
        upper = "" if maximum == MAX_INT64 else f" and <= {maximum}"
        raise ValueError(f"{name} must be an int >= {minimum}{upper}, got {value!r}")
    return int(value)


def check_step_limit(step_limit: Any, default: int) -> int | None:
    """-1 means the game's own bound on a seat's decisions; None means no limit."""
    if step_limit is None:
        return None
    if not is_integer(step_limit) or not (step_limit == -1 or 1 <= step_limit <= MAX_INT64):
        raise ValueError(
            f"step_limit must be an int from 1 to 2**63 - 1, -1 or None, got {step_limit!r}"
        )
    return default if step_limit == -1 else int(step_limit)


def check_reset_options(options: Any) -> None:
    """``reset(options=...)``: the envs take none (None or an empty dict)."""
    if options is None:
        return
    if not isinstance(options, dict):
        raise TypeError(f"reset() options must be a dict or None, got {options!r}")
    if options:
        raise ValueError(f"reset() takes no options, got {sorted(map(str, options))}")


def check_seeds(seed: Any, num_envs: int) -> list[int | None]:
    """One seed per env from ``reset(seed=...)`` of a vector env: None (fresh entropy), an
    int ``s`` (env i gets ``s + i``) or a sequence of ``num_envs`` ints or Nones; every seed
    an integer >= 0. Checked whole before any env's stream changes."""
    if seed is None:
        return [None] * num_envs
    if is_integer(seed):
        seeds: list[Any] = [int(seed) + i for i in range(num_envs)]
    elif isinstance(seed, (list, tuple, np.ndarray)) and np.ndim(seed) == 1:
        seeds = list(seed)
        if len(seeds) != num_envs:
            raise ValueError(f"reset() needs {num_envs} seeds, got {len(seeds)}")
    else:
        raise TypeError(
            f"seed must be None, an int >= 0 or a list of {num_envs} of them, got {seed!r}"
        )
    bad = [s for s in seeds if s is not None and (not is_integer(s) or s < 0)]
    if bad:
        raise ValueError(f"seeds must be ints >= 0 or None, got {bad[0]!r}")
    return [None if s is None else int(s) for s in seeds]


def parse_env_arguments(
    game_class: type[Game],
    num_players: Any,
    opponents: Any,
    agent_seat: Any,
    observation_mode: Any,
    illegal_action: Any,
    reward: Any,
    skip_forced_actions: Any,
    step_limit: Any,
    game_options: dict[str, Any],
    env_options: dict[str, str] = ENV_OPTIONS,
) -> EnvArguments:
    """Check every argument shared by the envs and make the game; ``env_options`` names
    the env's own arguments for the message about an unknown one."""
    spec = game_class.spec
    known_game = {opt.name for opt in spec.options}
    unknown = sorted(set(game_options) - known_game)
    if unknown:
        raise ValueError(
            f"unknown option(s) {unknown} for {spec.env_id}; env options: "
            f"{sorted(env_options)}; game options: {sorted(known_game) or 'none'}"
        )
    for name, value in (
        ("observation_mode", observation_mode),
        ("illegal_action", illegal_action),
        ("reward", reward),
    ):
        check_choice(name, value)
    game = game_class(num_players, **game_options)
    n = game.num_players
    if agent_seat != "random" and (not is_integer(agent_seat) or not 0 <= agent_seat < n):
        raise ValueError(f"agent_seat must be 'random' or a seat in 0..{n - 1}, got {agent_seat!r}")
    return EnvArguments(
        game=game,
        opponents=parse_opponents(opponents, n),
        agent_seat=None if agent_seat == "random" else int(agent_seat),
        observation_mode=observation_mode,
        illegal_action=illegal_action,
        reward=reward,
        skip_forced_actions=check_flag("skip_forced_actions", skip_forced_actions),
        step_limit=check_step_limit(step_limit, spec.max_decisions),
    )
