"""Search opponents: information-set MCTS over determinizations (``Game.resample``).

import gymnasium
from jungle_envs.search import MCTS

env = gymnasium.make("jungle_envs/TropicRace-v0", opponents=MCTS(simulations=400))
env = gymnasium.make("jungle_envs/TropicRace-v0", opponents="mcts:0.1s")
"""

from jungle_envs.search.mcts import MCTS, MCTSPolicy

__all__ = ["MCTS", "MCTSPolicy", "search_policy"]


def search_policy(game, budget: str | None = None) -> MCTSPolicy:
    """The registered name ``mcts``: ``mcts``, ``mcts:400``, ``mcts:0.5s``,
    ``mcts:400:random`` (the text after ``mcts:`` is ``budget``)."""
    return MCTS.from_name("mcts" if budget is None else f"mcts:{budget}").for_game(game)
