"""The games of the package and their Gymnasium registration."""

from __future__ import annotations

import importlib
from typing import Any

import gymnasium as gym
from gymnasium.envs.registration import WrapperSpec

from jungle_envs.core.game import Game

# Env name -> the game's package. Each package exposes GAME (the Game subclass) from
# game.py and ENV (the JungleEnv subclass) from env.py.
GAMES: dict[str, str] = {
    "JungleSweep": "jungle_envs.games.jungle_sweep",
    "TropicRace": "jungle_envs.games.tropic_race",
    "SpankTheMonkey": "jungle_envs.games.spank_the_monkey",
    "ElephantFestival": "jungle_envs.games.elephant_festival",
}

ACTION_MASK_WRAPPER = WrapperSpec(
    name="ActionMaskAccess",
    entry_point="jungle_envs.core.env:ActionMaskAccess",
    kwargs={},
)


def game_class(name: str) -> type[Game]:
    """The Game subclass for an env name ("JungleSweep") or env id."""
    key = name.removeprefix("jungle_envs/").removesuffix("-v0")
    if key not in GAMES:
        raise ValueError(f"unknown game {name!r}; allowed: {sorted(GAMES)}")
    return importlib.import_module(f"{GAMES[key]}.game").GAME


def make_game(name: str, num_players: int | None = None, **options: Any) -> Game:
    """A rules engine without Gymnasium: ``make_game("JungleSweep", 4)``."""
    return game_class(name)(num_players, **options)


def env_ids() -> list[str]:
    return [f"jungle_envs/{name}-v0" for name in GAMES]


def register_envs() -> None:
    for name, package in GAMES.items():
        env_id = f"jungle_envs/{name}-v0"
        if env_id in gym.registry:
            continue
        gym.register(
            id=env_id,
            entry_point=f"{package}.env:ENV",
            max_episode_steps=game_class(name).spec.max_decisions,
            additional_wrappers=(ACTION_MASK_WRAPPER,),
        )
