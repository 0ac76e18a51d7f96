"""Where a search plays its determinized games: on the compiled twin or the rules engine.

A search needs a few moves on a world it can copy cheaply: who acts, the legal actions,
an action, a chance outcome drawn with the event's odds, and a rollout to the end. Both
worlds here give the same moves; ``TwinWorld`` keeps a world as a twin row (a copy is a
NumPy copy, a rollout one compiled call), ``ReferenceWorld`` as a rules-engine state, for
games or options the twin does not cover.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jungle_envs.core.game import CHANCE, Game, GameState, places

ROLLOUTS = ("heuristic", "random")
ENGINES = ("auto", "compiled", "reference")
VALUES = ("returns", "rank", "blend")


def whole(value: Any) -> bool:
    """An integer, and not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def finite_number(value: Any) -> bool:
    """An int or float that is finite, and not a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and np.isfinite(value)


def check_choice(field: str, value: Any, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{field} must be one of {', '.join(choices)}, got {value!r}")


def playout_value(kind: str, returns: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """What a finished playout is worth to every seat: "returns" (the game's: +1 a sole
    win, -1 a loss, 0 otherwise), "rank" (the place among the other seats) or "blend"
    (their mean)."""
    if kind == "returns":
        return returns
    if kind == "rank":
        return places(scores)
    return (returns + places(scores)) / 2.0


def split_name(name: str) -> tuple[str, list[str], list[str]]:
    """``"mcts:400:prior=0"`` -> ("mcts", ["400"], ["prior=0"]): the head, the positional
    parts and the ``KEY=VALUE`` parts of a search's name."""
    head, *parts = name.split(":")
    return head, [p for p in parts if "=" not in p], [p for p in parts if "=" in p]


def settings_by_name(
    cls: Any, name: str, settings: dict[str, Any], named: list[str], readers: dict[str, Any]
) -> Any:
    """``cls`` built from ``settings`` and the ``KEY=VALUE`` parts of ``name``; a bad
    setting is a ValueError that starts with the name."""
    settings = {**settings, **named_settings(name, named, readers)}
    try:
        return cls(**settings)
    except ValueError as exc:
        raise ValueError(f"{name!r}: {exc}") from None


def named_settings(name: str, named: list[str], readers: dict[str, Any]) -> dict[str, Any]:
    """The ``KEY=VALUE`` parts of ``name`` read by ``readers`` (key -> type), or a
    ValueError that names the setting."""
    settings: dict[str, Any] = {}
    for part in named:
        key, _, text = part.partition("=")
        if key not in readers:
            raise ValueError(f"{name!r}: unknown setting {key!r}; by name: {', '.join(readers)}")
        try:
            settings[key] = readers[key](text)
        except ValueError:
            kind = "a number" if readers[key] in (int, float) else "text"
            raise ValueError(f"{name!r}: {key} must be {kind}, got {text!r}") from None
    return settings


class TwinWorld:
    """Worlds as compiled-twin rows; a rollout is ``Twin.playout``."""

    def __init__(self, game: Game, rollout: str) -> None:
        from jungle_envs.core.compiled import runner
        from jungle_envs.core.compiled.twin import Twin

        self.twin = Twin(game)  # raises TwinUnavailable for options the twin lacks
        kind = runner.HEURISTIC if rollout == "heuristic" else runner.RANDOM
        self.kinds = np.full(game.num_players, kind, dtype=np.int8)
        self.guided = rollout == "heuristic"

    def load(self, state: GameState) -> np.ndarray:
        return self.twin.pack(state)

    @staticmethod
    def copy(world: np.ndarray) -> np.ndarray:
        return world.copy()

    def player(self, world: np.ndarray) -> int:
        return self.twin.current_player(world)

    def legal(self, world: np.ndarray) -> np.ndarray:
        return np.flatnonzero(self.twin.legal_mask(world))

    def act(self, world: np.ndarray, action: int) -> None:
        self.twin.apply_action(world, action)

    def chance(self, world: np.ndarray, rng: np.random.Generator) -> None:
        self.twin.apply_chance(world, self.twin.sample_chance(world, rng.random()))

    def favourite(self, world: np.ndarray, player: int, rng: np.random.Generator) -> int:
        """The rollout policy's choice for ``player``, or -1 when it is random."""
        return self.twin.heuristic_action(world, player) if self.guided else -1

    def final(self, world: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every seat's return and score in a finished world."""
        return np.asarray(self.twin.returns(world)), np.asarray(self.twin.scores(world))

    def rollout(
        self, world: np.ndarray, action: int, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray]:
        """Apply ``action`` (if >= 0), play to the end; every seat's return and score."""
        streams = rng.integers(0, 2**64, size=2, dtype=np.uint64)
        return self.twin.playout(world, streams, self.kinds, action)

    def advance(
        self, world: np.ndarray, action: int, waiting: np.ndarray, rng: np.random.Generator
    ) -> int:
        """Apply ``action`` (if >= 0) and play on by the rollout policy until a seat with
        ``waiting[seat]`` set has a decision with a choice: that seat, or TERMINAL."""
        from jungle_envs.core.compiled.seat_runner import CALLER

        if action >= 0:
            self.twin.apply_action(world, action)
        streams = rng.integers(0, 2**64, size=2, dtype=np.uint64)
        kinds = np.where(waiting != 0, CALLER, self.kinds).astype(np.int8)
        return self.twin.advance_to_caller(world, streams, kinds)


class ReferenceWorld:
    """Worlds as rules-engine states; rollouts by the game's Python policies."""

    def __init__(self, game: Game, rollout: str) -> None:
        from jungle_envs.core.policies import RandomPolicy

        self.game = game
        self.policy: Any = game.heuristic_policy() if rollout == "heuristic" else RandomPolicy()
        self.observes = getattr(self.policy, "uses_observation", True)
        self.guided = rollout == "heuristic"

    @staticmethod
    def load(state: GameState) -> GameState:
        return state.copy()

    @staticmethod
    def copy(world: GameState) -> GameState:
        return world.copy()

    def player(self, world: GameState) -> int:
        return self.game.current_player(world)

    def legal(self, world: GameState) -> np.ndarray:
        return np.flatnonzero(self.game.legal_mask(world))

    def act(self, world: GameState, action: int) -> None:
        self.game._apply_action(world, int(action))

    def chance(self, world: GameState, rng: np.random.Generator) -> None:
        self.game._apply_chance(world, self.game.sample_chance(world, rng))

    def favourite(self, world: GameState, player: int, rng: np.random.Generator) -> int:
        if not self.guided:
            return -1
        mask = self.game.legal_mask(world)
        return int(self.policy.act(self.game.observe(world, player), mask, rng))

    def final(self, world: GameState) -> tuple[np.ndarray, np.ndarray]:
        game = self.game
        return np.asarray(game.returns(world), float), np.asarray(game.scores(world), float)

    def rollout(
        self, world: GameState, action: int, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray]:
        self.advance(world, action, np.zeros(self.game.num_players, dtype=np.int8), rng)
        return self.final(world)

    def advance(
        self, world: GameState, action: int, waiting: np.ndarray, rng: np.random.Generator
    ) -> int:
        """As ``TwinWorld.advance``, step by step on the rules engine."""
        game = self.game
        if action >= 0:
            game._apply_action(world, int(action))
        while (player := game.current_player(world)) >= 0 or player == CHANCE:
            if player == CHANCE:
                game._apply_chance(world, game.sample_chance(world, rng))
                continue
            mask = game.legal_mask(world)
            if waiting[player] and mask.sum() > 1:
                return player
            obs = game.observe(world, player) if self.observes else None
            game._apply_action(world, int(self.policy.act(obs, mask, rng)))
        return player


def make_world(game: Game, rollout: str, engine: str) -> TwinWorld | ReferenceWorld:
    """The world for ``engine``: "compiled" (refuses a game without a twin), "reference",
    or "auto" (the twin when the game and its options have one)."""
    if rollout not in ROLLOUTS:
        raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
    if engine == "reference":
        return ReferenceWorld(game, rollout)
    if engine not in ("auto", "compiled"):
        raise ValueError(f"engine must be auto, compiled or reference, got {engine!r}")
    from jungle_envs.core.compiled.twin import TwinUnavailable

    try:
        return TwinWorld(game, rollout)
    except TwinUnavailable:
        if engine == "compiled":
            raise
        return ReferenceWorld(game, rollout)
