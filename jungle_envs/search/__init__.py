"""Search opponents: information-set MCTS over determinizations (``Game.resample``).

import gymnasium
from jungle_envs.search import MCTS

env = gymnasium.make("jungle_envs/TropicRace-v0", opponents=MCTS(simulations=400))
env = gymnasium.make("jungle_envs/TropicRace-v0", opponents="mcts:0.1s")
"""

from jungle_envs.search.mcts import MCTS, MCTSPolicy

__all__ = ["MCTS", "MCTSPolicy"]
