"""Jungle Sweep: monkeys run round a ring ahead of a broom and hide on palms."""

from jungle_envs.games.jungle_sweep.game import JungleSweep

__all__ = ["JungleSweep"]
