"""The games of the package and their Gymnasium registration."""

from __future__ import annotations

import importlib
from typing import Any

import gymnasium as gym

from jungle_envs.core.game import Game

# Env name -> the game's package. Each package exposes GAME (the Game subclass) from
# game.py and ENV (the JungleEnv subclass) from env.py.
GAMES: dict[str, str] = {
    "JungleSweep": "jungle_envs.games.jungle_sweep",
    "TropicRace": "jungle_envs.games.tropic_race",
    "SpankTheMonkey": "jungle_envs.games.spank_the_monkey",
    "ElephantFestival": "jungle_envs.games.elephant_festival",
}


def game_class(name: str) -> type[Game]:
    """The Game subclass for an env name ("JungleSweep") or env id."""
    try:
        key = resolve_env_id(name).removeprefix("jungle_envs/").removesuffix("-v0")
    except ValueError:
        raise ValueError(f"unknown game {name!r}; allowed: {sorted(GAMES)}") from None
    return importlib.import_module(f"{GAMES[key]}.game").GAME


def make_game(name: str, num_players: int | None = None, **options: Any) -> Game:
    """A rules engine without Gymnasium: ``make_game("JungleSweep", 4)``."""
    return game_class(name)(num_players, **options)


def env_ids() -> list[str]:
    return [f"jungle_envs/{name}-v0" for name in GAMES]


def _key(text: str) -> str:
    return text.replace("_", "").replace("-", "").replace(" ", "").lower()


def resolve_env_id(name: str) -> str:
    """The full env id for any way of naming a game: ``"jungle_envs/TropicRace-v0"``,
    ``"TropicRace-v0"``, ``"TropicRace"``, ``"tropicrace"`` or ``"tropic_race"`` all give
    ``"jungle_envs/TropicRace-v0"``. A ValueError naming the known ids otherwise."""
    text = str(name).strip()
    bare = text.removeprefix("jungle_envs/")
    for suffix in ("-v0", "-V0"):
        bare = bare.removesuffix(suffix)
    wanted = _key(bare)
    for game in GAMES:
        if _key(game) == wanted:
            return f"jungle_envs/{game}-v0"
    raise ValueError(f"unknown env {name!r}; known: {', '.join(env_ids())}")


def register_envs() -> None:
    """Register every game. ``gymnasium.make`` returns the env itself, not wrapped: it
    enforces its own step limit (``step_limit``, by default the game's bound on a seat's
    decisions) and call order, so ``env.action_masks()`` works on what ``make`` returns,
    and ``make_vec(..., vectorization_mode="vector_entry_point")`` (a Gymnasium mode that
    refuses extra wrappers) gives the compiled vector env."""
    for name, package in GAMES.items():
        env_id = f"jungle_envs/{name}-v0"
        if env_id in gym.registry:
            continue
        gym.register(
            id=env_id,
            entry_point=f"{package}.env:ENV",
            vector_entry_point=f"{package}.env:VECTOR_ENV",
            order_enforce=False,
            disable_env_checker=True,
        )
