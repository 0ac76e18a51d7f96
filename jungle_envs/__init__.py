"""Gymnasium environments for jungle-themed multi-player tabletop games.

Importing the package registers every env with Gymnasium::

    import gymnasium
    import jungle_envs  # noqa: F401

    env = gymnasium.make("jungle_envs/JungleSweep-v0", num_players=4, opponents="heuristic")
"""

from jungle_envs.core import sources  # noqa: F401 - the sources' fingerprint, taken first
from jungle_envs.core.policies import RandomPolicy, register_policy
from jungle_envs.core.registry import (
    env_ids,
    game_class,
    make_game,
    register_envs,
    resolve_env_id,
)

__version__ = "0.2.0"

# The policy names of the layers above the core, as lazy entry points: the core never
# imports them, and nothing loads until an env asks for the name.
register_policy("ppo", "jungle_envs.agents:shipped_policy", builtin=True)
register_policy(
    "ppo-sample", "jungle_envs.agents:sampling_policy", with_argument=True, builtin=True
)
register_policy("mcts", "jungle_envs.search:search_policy", with_argument=True, builtin=True)
register_policy(
    "mcts+ppo", "jungle_envs.search:guided_search_policy", with_argument=True, builtin=True
)
register_policy("rollout", "jungle_envs.search:rollout_policy", with_argument=True, builtin=True)
register_policy("rllib", "jungle_envs.rllib:checkpoint_policy", with_argument=True, builtin=True)

try:  # the rules engines need no Gymnasium; the envs register only where it is installed
    import gymnasium  # noqa: F401
except ImportError:
    pass
else:
    register_envs()

ENV_IDS = env_ids()


def make_batch(game: str, num_envs: int, **kwargs):
    """Many games whose seats the caller plays, on the compiled engine: see
    ``jungle_envs.batch.make_batch`` (imported on first use: it loads numba)."""
    from jungle_envs.batch import make_batch as make

    return make(game, num_envs, **kwargs)


__all__ = [
    "ENV_IDS",
    "RandomPolicy",
    "env_ids",
    "game_class",
    "make_batch",
    "make_game",
    "register_policy",
    "resolve_env_id",
]
