"""The shared core: the game contract, the generic env, policies and the registry."""

from jungle_envs.core.game import (
    CHANCE,
    TERMINAL,
    ChanceEvent,
    Game,
    GameSpec,
    IllegalActionError,
    Option,
)
from jungle_envs.core.state import GameState, StateError

__all__ = [
    "CHANCE",
    "TERMINAL",
    "ChanceEvent",
    "Game",
    "GameSpec",
    "GameState",
    "IllegalActionError",
    "Option",
    "StateError",
]
