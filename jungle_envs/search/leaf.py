"""The guide's value at a search's new nodes, mixed with the rollout's (AlphaGo's lambda).

A guided search (``MCTS(guide=..., leaf=L)``) values a new node by ``(1 - L) x`` what a
rollout to the end is worth ``+ L x`` what the guide's value head expects. The value
head was fitted on its own seat's observations at its own decisions, so each seat is
valued where it would have been in training: from the new node the rollout policy plays
on until every seat has reached a decision with a choice, and each seat's observation
at its first such decision goes through the network (one forward pass for all of them).
A seat whose decision never comes (the game ends first) gets its final value. With
``L = 1`` the rollout stops there: no playout to the end.

The value head estimates the guide's reward with gamma = 1, so it is on the search's scale
only where the reward is one of the search's values: ``reward="win"`` is the game's
returns, ``reward="rank"`` the blend of returns and place. A guide trained on score or
margin (points) is refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jungle_envs.core.game import TERMINAL, Game
from jungle_envs.search.worlds import TwinWorld, playout_value

# The guide's reward -> the search value its value head estimates.
VALUE_OF_REWARD = {"win": "returns", "rank": "blend"}


def guide_value_kind(guide: Any) -> str:
    """The search value (``returns`` or ``blend``) that ``guide``'s value head estimates,
    from the reward it was trained on (the env's default, "win", for a model saved
    without it); a ValueError for any other reward."""
    trained = getattr(guide, "trained_on", None) or {}
    reward = (trained.get("env_options") or {}).get("reward", "win")
    if reward not in VALUE_OF_REWARD:
        raise ValueError(
            f"leaf values need a guide trained on reward 'win' or 'rank' (its value is then "
            f"on the search's scale); this guide was trained on reward={reward!r}"
        )
    return VALUE_OF_REWARD[reward]


class LeafValues:
    """Values every seat of a new node by the guide's value head (see the module doc)."""

    def __init__(self, world: Any, guide: Any, guide_game: Game, value: str) -> None:
        if not hasattr(guide, "values"):
            raise ValueError(f"leaf values need a guide with a value head, got {guide!r}")
        self.world, self.guide, self.value = world, guide, value
        self.players = guide_game.num_players
        self.num_actions = guide_game.spec.num_actions
        self.observe = self._reference_observer(guide_game)
        if isinstance(world, TwinWorld):
            self.observe = self._twin_observer(world, guide_game)

    @staticmethod
    def _reference_observer(guide_game: Game):
        return lambda state, seat: guide_game.observe(state, seat)

    @staticmethod
    def _twin_observer(world: TwinWorld, guide_game: Game):
        from jungle_envs.core.compiled.twin import Twin, TwinUnavailable

        try:
            twin = Twin(guide_game)
        except TwinUnavailable:  # the guide's observation options are reference-only
            return lambda row, seat: guide_game.observe(world.twin.unpack(row), seat)
        if twin.row_size != world.twin.row_size:
            raise ValueError("the guide's game keeps its state in another row layout")
        return twin.observe

    def evaluate(self, state: Any, action: int, rng: np.random.Generator, mix: float) -> np.ndarray:
        """Every seat's value after ``action`` at ``state`` (changed in place), mixing the
        guide's values (weight ``mix``) with a rollout's to the end (``1 - mix``)."""
        world = self.world
        waiting = np.ones(self.players, dtype=np.int8)
        observations, masks, seats = [], [], []
        # advance stops only where a seat has a choice: training skipped forced moves, so
        # the value head never saw one
        player = world.advance(state, action, waiting, rng)
        while player >= 0:
            waiting[player] = 0
            mask = np.zeros(self.num_actions, dtype=bool)
            mask[world.legal(state)] = True
            observations.append(self.observe(state, player))
            masks.append(mask)
            seats.append(player)
            if not waiting.any():
                break
            player = world.advance(state, -1, waiting, rng)
        ended = world.player(state) == TERMINAL
        rolled = None
        if ended:
            rolled = playout_value(self.value, *world.final(state))
        elif mix < 1.0:
            rolled = playout_value(self.value, *world.rollout(state, -1, rng))
        guided = np.zeros(self.players) if rolled is None else rolled.copy()
        if seats:
            guessed = self.guide.values(np.stack(observations), np.stack(masks))
            guided[seats] = np.clip(guessed, -1.0, 1.0)
        if rolled is None:
            return guided
        return mix * guided + (1.0 - mix) * rolled
