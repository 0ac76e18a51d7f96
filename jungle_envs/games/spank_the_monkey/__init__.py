"""Spank the Monkey: build a junk tower, knock the others down, reach the monkey first."""

from jungle_envs.games.spank_the_monkey.game import SpankTheMonkey

__all__ = ["SpankTheMonkey"]
