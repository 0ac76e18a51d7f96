"""Elephant Festival: grow a festival ground of coloured tiles behind two elephants."""

from jungle_envs.games.elephant_festival.game import ElephantFestival

__all__ = ["ElephantFestival"]
