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
    "reward": "'win' (+1 sole win, 0 shared/no winner, -1 loss) or 'score' (score gained)",
    "skip_forced_actions": "play the learner's only legal action automatically (default True)",
    "engine": "'auto' (the compiled twin when the game has one), 'compiled' or 'reference'",
    "step_limit": "learner decisions after which an episode is truncated (default: the "
    "game's bound; None: never)",
    "event_log": "hand over info['events']: every decision and chance outcome since the "
    "learner's last decision, as the learner may know them (default False)",
}
CHOICES = {
    "observation_mode": ("flat", "dict"),
    "illegal_action": ("lose", "raise"),
    "reward": ("win", "score"),
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


def check_step_limit(step_limit: Any, default: int) -> int | None:
    """-1 means the game's own bound on a seat's decisions; None means no limit."""
    if step_limit is None:
        return None
    if isinstance(step_limit, bool) or not isinstance(step_limit, (int, np.integer)):
        raise ValueError(f"step_limit must be an int >= 1, -1 or None, got {step_limit!r}")
    if step_limit == -1:
        return default
    if step_limit < 1:
        raise ValueError(f"step_limit must be an int >= 1, -1 or None, got {step_limit!r}")
    return int(step_limit)


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
    if agent_seat != "random" and (
        isinstance(agent_seat, (bool, np.bool_))
        or not isinstance(agent_seat, (int, np.integer))
        or not 0 <= agent_seat < n
    ):
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
