"""Gymnasium environments for jungle-themed multi-player tabletop games.

Importing the package registers every env with Gymnasium::

    import gymnasium
    import jungle_envs  # noqa: F401

    env = gymnasium.make("jungle_envs/JungleSweep-v0", num_players=4, opponents="heuristic")
"""

from jungle_envs.core.policies import RandomPolicy, register_policy
from jungle_envs.core.registry import (
    env_ids,
    game_class,
    make_game,
    register_envs,
    resolve_env_id,
)

__version__ = "0.2.0"

register_envs()

ENV_IDS = env_ids()

__all__ = [
    "ENV_IDS",
    "RandomPolicy",
    "env_ids",
    "game_class",
    "make_game",
    "register_policy",
    "resolve_env_id",
]
