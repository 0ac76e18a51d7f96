"""Tropic Race: monkeys cross a river on turtle tiles before the lion or the volcano stop them."""

from jungle_envs.games.tropic_race.game import TropicRace

__all__ = ["TropicRace"]
