"""Search opponents: information-set MCTS over determinizations (``Game.resample``).

import gymnasium
from jungle_envs.search import MCTS

env = gymnasium.make("jungle_envs/TropicRace-v0", opponents=MCTS(simulations=400))
env = gymnasium.make("jungle_envs/TropicRace-v0", opponents="mcts:0.1s")
"""

from jungle_envs.search.mcts import MCTS, MCTSPolicy
from jungle_envs.search.rollout import Rollout, RolloutPolicy

__all__ = [
    "MCTS",
    "MCTSPolicy",
    "Rollout",
    "RolloutPolicy",
    "guided_search_policy",
    "rollout_policy",
    "search_policy",
]


def search_policy(game, budget: str | None = None) -> MCTSPolicy:
    """The registered name ``mcts``: ``mcts``, ``mcts:400``, ``mcts:0.5s``,
    ``mcts:400:random`` (the text after ``mcts:`` is ``budget``)."""
    return MCTS.from_name("mcts" if budget is None else f"mcts:{budget}").for_game(game)


def guided_search_policy(game, budget: str | None = None) -> MCTSPolicy:
    """The registered name ``mcts+ppo``: the search guided at its root by the shipped
    agent of the game and player count (``mcts+ppo:400``, ``mcts+ppo:0.5s``)."""
    name = "mcts+ppo" if budget is None else f"mcts+ppo:{budget}"
    return MCTS.from_name(name).for_game(game)


def rollout_policy(game, budget: str | None = None) -> RolloutPolicy:
    """The registered name ``rollout``: the heuristic improved by paired rollouts of every
    legal move (``rollout:400``, ``rollout:400:z=2``)."""
    return Rollout.from_name("rollout" if budget is None else f"rollout:{budget}").for_game(game)
