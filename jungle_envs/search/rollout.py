"""One-step rollout improvement of the heuristic: a teacher a notch above it.

At a decision every legal move is played out ``rollouts`` times with the heuristic in
every seat afterwards (Tesauro and Galperin 1997, "On-line policy improvement using
Monte-Carlo search"; Bertsekas's rollout algorithm). Rollout k of every move plays from
the same determinization and the same random streams, so two moves are compared on the
same luck and their difference has a small standard error. The policy keeps the
heuristic's own move unless another move's mean return beats it by more than ``z``
standard errors of that paired difference: where the rollouts cannot tell the moves
apart, the heuristic's choice stands, so the policy departs from it only where the
heuristic measurably loses.

That makes it a clean target for a network (``training.distill --teacher rollout:400``):
a search's visit shares are noisy when moves are close, while this policy's labels are
the heuristic's move except at the decisions where a better one is shown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from jungle_envs.core.game import Game, GameState
from jungle_envs.search.worlds import (
    ENGINES,
    VALUES,
    check_choice,
    finite_number,
    make_world,
    playout_value,
    settings_by_name,
    split_name,
    whole,
)

# The settings a name may carry as KEY=VALUE, with how each value is read.
NAMED_SETTINGS = {"z": float, "determinizations": int, "value": str}


@dataclass(frozen=True)
class Rollout:
    """The settings of the rollout-improved heuristic; ``opponents=Rollout(400)`` in an env.

    rollouts: playouts of each legal move per decision.
    z: how many standard errors of the paired difference another move must beat the
        heuristic's move by to be played instead.
    determinizations: worlds dealt per decision (``Game.resample``); rollout k of every
        move plays in world k mod this.
    value: what a playout is worth to the seat, as the search's ``value``: "returns" (+1
        a sole win, -1 a loss, 0 otherwise), "rank" (the place among the other seats) or
        "blend" (their mean: in a 4-player game a win is one outcome in four, and the
        place says something in the other three, so fewer rollouts tell moves apart).
    engine: "auto" (the compiled twin when the game has one), "compiled" or "reference".
    """

    rollouts: int = 200
    z: float = 2.0
    determinizations: int = 16
    value: str = "blend"
    engine: str = "auto"

    def __post_init__(self) -> None:
        if not (whole(self.rollouts) and self.rollouts >= 2):
            raise ValueError(f"rollouts must be an integer >= 2, got {self.rollouts!r}")
        if not (finite_number(self.z) and self.z >= 0):
            raise ValueError(f"z must be a number >= 0, got {self.z!r}")
        if not (whole(self.determinizations) and self.determinizations >= 1):
            raise ValueError(
                f"determinizations must be an integer >= 1, got {self.determinizations!r}"
            )
        check_choice("value", self.value, VALUES)
        check_choice("engine", self.engine, ENGINES)

    @classmethod
    def from_name(cls, name: str) -> Rollout:
        """``rollout``, ``rollout:400`` (rollouts per move), and settings by name after it:
        ``rollout:400:z=2``, ``rollout:400:value=returns``, ``rollout:400:determinizations=4``."""
        head, parts, named = split_name(name)
        if head != "rollout" or len(parts) > 1:
            raise ValueError(f"{name!r} is not rollout[:ROLLOUTS][:KEY=VALUE]")
        settings: dict[str, Any] = {}
        if parts:
            try:
                settings["rollouts"] = int(parts[0])
            except ValueError:
                raise ValueError(
                    f"{name!r}: the budget is a number of rollouts per move (rollout:400), "
                    f"got {parts[0]!r}"
                ) from None
        return settings_by_name(cls, name, settings, named, NAMED_SETTINGS)

    def for_game(self, game: Game) -> RolloutPolicy:
        return RolloutPolicy(game, self)


class RolloutPolicy:
    """The rollout-improved heuristic bound to a game. Like the search it reads the true
    state only through ``Game.resample``, so it knows what its seat may know."""

    uses_observation = False
    uses_state = True

    def __init__(self, game: Game, settings: Rollout | None = None) -> None:
        self.game = game
        self.settings = settings or Rollout()
        self.world = make_world(game, "heuristic", self.settings.engine)
        self.heuristic = game.heuristic_policy()
        self.observes = getattr(self.heuristic, "uses_observation", True)
        # the last decision: a one-hot of the move played (the target ``training.distill``
        # fits), each legal move's mean playout value, and whether it overruled the heuristic
        self.visits = np.zeros(game.spec.num_actions)
        self.values = np.full(game.spec.num_actions, np.nan)
        self.overruled = False

    def act(self, observation, action_mask, rng) -> int:
        raise TypeError(
            "the rollout policy plays out moves from the game state, not an observation: "
            "use it as an env opponent (envs pass it the state) or call "
            "act_state(state, seat, mask, rng)"
        )

    def heuristic_move(self, state: GameState, seat: int, action_mask: np.ndarray, rng) -> int:
        obs = self.game.observe(state, seat) if self.observes else None
        return int(self.heuristic.act(obs, action_mask, rng))

    def act_state(
        self, state: GameState, seat: int, action_mask: np.ndarray, rng: np.random.Generator
    ) -> int:
        legal = np.flatnonzero(action_mask)
        base = self.heuristic_move(state, seat, action_mask, rng)
        self.visits = np.zeros(self.game.spec.num_actions)
        self.values = np.full(self.game.spec.num_actions, np.nan)
        self.overruled = False
        if len(legal) == 1:
            self.visits[base] = 1.0
            return base
        values = self.move_values(state, seat, legal, rng)
        means = values.mean(axis=1)
        self.values[legal] = means
        mine, best = int(np.flatnonzero(legal == base)[0]), int(means.argmax())
        move = base
        if best != mine:
            difference = values[best] - values[mine]
            error = float(difference.std(ddof=1)) / math.sqrt(len(difference))
            if difference.mean() > self.settings.z * error:
                move, self.overruled = int(legal[best]), True
        self.visits[move] = 1.0
        return move

    def move_values(
        self, state: GameState, seat: int, legal: np.ndarray, rng: np.random.Generator
    ) -> np.ndarray:
        """``seat``'s value of each legal move's playouts (``value``), a row per move and a
        column per rollout; column k of every move plays in the same world and seed."""
        settings, world = self.settings, self.world
        count = min(settings.determinizations, settings.rollouts)
        worlds = [world.load(self.game.resample(state, seat, rng)) for _ in range(count)]
        seeds = rng.integers(0, 2**63, size=settings.rollouts)
        values = np.zeros((len(legal), settings.rollouts))
        for k, seed in enumerate(seeds.tolist()):
            dealt = worlds[k % count]
            for i, action in enumerate(legal.tolist()):
                returns, scores = world.rollout(
                    world.copy(dealt), action, np.random.default_rng(seed)
                )
                value = playout_value(self.settings.value, np.asarray(returns), np.asarray(scores))
                values[i, k] = value[seat]
        return values
