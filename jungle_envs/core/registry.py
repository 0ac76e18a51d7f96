"""The games of the package and their Gymnasium registration.

Every game is named here once, with explicit ``"module:attr"`` entry points for its rules
engine, its env and its compiled vector env (imported only when used, so the rules layer
loads without Gymnasium).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from jungle_envs.core.game import Game


@dataclass(frozen=True)
class GameEntry:
    package: str  # the game's folder as a module
    game: str  # the Game subclass
    env: str  # the Gymnasium env (core.env.JungleEnv subclass)
    vector_env: str  # the compiled vector env (core.compiled.vector_env.CompiledVectorEnv)


ENTRIES: dict[str, GameEntry] = {
    "JungleSweep": GameEntry(
        "jungle_envs.games.jungle_sweep",
        "jungle_envs.games.jungle_sweep:JungleSweep",
        "jungle_envs.games.jungle_sweep.env:JungleSweepEnv",
        "jungle_envs.games.jungle_sweep.env:JungleSweepVectorEnv",
    ),
    "TropicRace": GameEntry(
        "jungle_envs.games.tropic_race",
        "jungle_envs.games.tropic_race:TropicRace",
        "jungle_envs.games.tropic_race.env:TropicRaceEnv",
        "jungle_envs.games.tropic_race.env:TropicRaceVectorEnv",
    ),
    "SpankTheMonkey": GameEntry(
        "jungle_envs.games.spank_the_monkey",
        "jungle_envs.games.spank_the_monkey:SpankTheMonkey",
        "jungle_envs.games.spank_the_monkey.env:SpankTheMonkeyEnv",
        "jungle_envs.games.spank_the_monkey.env:SpankTheMonkeyVectorEnv",
    ),
    "ElephantFestival": GameEntry(
        "jungle_envs.games.elephant_festival",
        "jungle_envs.games.elephant_festival:ElephantFestival",
        "jungle_envs.games.elephant_festival.env:ElephantFestivalEnv",
        "jungle_envs.games.elephant_festival.env:ElephantFestivalVectorEnv",
    ),
}
# Env name -> the game's package (what tools that walk the folders read).
GAMES: dict[str, str] = {name: entry.package for name, entry in ENTRIES.items()}


def load_entry_point(path: str) -> Any:
    """``"package.module:attr"`` -> the object."""
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


def game_class(name: str) -> type[Game]:
    """The Game subclass for an env name ("JungleSweep") or env id."""
    try:
        key = resolve_env_id(name).removeprefix("jungle_envs/").removesuffix("-v0")
    except ValueError:
        raise ValueError(f"unknown game {name!r}; allowed: {sorted(GAMES)}") from None
    return load_entry_point(ENTRIES[key].game)


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
    import gymnasium as gym

    for name, entry in ENTRIES.items():
        env_id = f"jungle_envs/{name}-v0"
        if env_id in gym.registry:
            continue
        gym.register(
            id=env_id,
            entry_point=entry.env,
            vector_entry_point=entry.vector_env,
            order_enforce=False,
            disable_env_checker=True,
            kwargs=registered_defaults(name),
        )


def registered_defaults(name: str) -> dict[str, Any]:
    """The env arguments' defaults, shown by ``env.spec.kwargs`` and the registry; only
    those the single and the vector env share (``make_vec`` hands them to both). The game
    options stay out: their defaults are in ``GameSpec.options`` and the env pages."""
    import inspect

    entry = ENTRIES[name]
    single, vector = (inspect.signature(load_entry_point(path).__init__).parameters
                      for path in (entry.env, entry.vector_env))  # fmt: skip
    defaults = {
        key: parameter.default
        for key, parameter in single.items()
        if key in vector
        and parameter.default is not inspect.Parameter.empty
        and vector[key].default == parameter.default
    }
    defaults["num_players"] = load_entry_point(entry.game).spec.default_players
    return defaults


def rules_text(name: str) -> str:
    """A game's full rules page (``docs/rules/<game>.md``, shipped in the package as its
    ``RULES.md``, so an installed wheel has it too); ``jungle-envs rules GAME`` prints it."""
    from importlib.resources import files

    if name not in ENTRIES:
        raise ValueError(f"unknown game {name!r}; the games: {', '.join(ENTRIES)}")
    return (files(ENTRIES[name].package) / "RULES.md").read_text(encoding="utf-8")
