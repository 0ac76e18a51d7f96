"""One game played decision by decision for the multi-agent envs, on either engine.

The PettingZoo envs (``jungle_envs.multiagent``) and RLlib's multi-agent env hand every
decision to whoever must make it, also in the middle of another player's turn; chance is
played in between. ``CompiledTable`` does that in one twin kernel call per decision
(``seat_runner.table_call``), chance drawn from the table's own streams;
``ReferenceTable`` on the readable Python engine, chance from a numpy generator. Both
answer the same questions: who decides, with what view and mask, and who was paid what.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jungle_envs.core.game import CHANCE, TERMINAL, Game
from jungle_envs.core.state import GameState

ENGINES = ("auto", "compiled", "reference")


class ReferenceTable:
    """The game on its Python rules engine."""

    engine = "reference"

    def __init__(self, game: Game) -> None:
        from gymnasium.utils import seeding

        self.game = game
        self.state: GameState | None = None
        self.rng, _ = seeding.np_random(None)
        self.player = TERMINAL

    def deal(self, seed: int | None, reseed: bool) -> int:
        """A new game, played on to its first decision; returns the seat (or TERMINAL)."""
        if reseed:
            from gymnasium.utils import seeding

            self.rng, _ = seeding.np_random(seed)
        self.state = self.game.new_state()
        return self._advance()

    def play(self, action: int) -> int:
        """Apply the legal ``action`` of the seat to move; returns the next seat to move."""
        self.game._apply_action(self.state, action)
        return self._advance()

    def _advance(self) -> int:
        game, state = self.game, self.state
        while (player := game.current_player(state)) == CHANCE:
            game._apply_chance(state, game.sample_chance(state, self.rng))
        self.player = player
        n = game.spec.num_actions
        self.mask = (
            np.zeros(n, np.int8) if player == TERMINAL else game.legal_mask(state).view(np.int8)
        )
        return player

    def legal_mask(self) -> np.ndarray:
        """Int8 mask of the mover's legal actions (all 0 at the end), a copy."""
        return self.mask.copy()

    def is_legal(self, action: int) -> bool:
        return bool(self.mask[action])

    def observe(self, seat: int) -> np.ndarray:
        return self.game.observe(self.state, seat)

    def returns(self) -> list[float]:
        return [float(x) for x in self.game.returns(self.state)]

    def snapshot(self) -> GameState | None:
        return self.state


class CompiledTable:
    """The game on its compiled twin: one kernel call from a decision to the next."""

    engine = "compiled"

    def __init__(self, game: Game, twin: Any) -> None:
        from jungle_envs.core.compiled.rng import stream_state

        self.game, self.twin = game, twin
        n = game.num_players
        self.row = np.zeros(twin.row_size, dtype=np.int32)
        self.streams = stream_state(None)
        self.kinds = np.zeros(n, dtype=np.int8)  # every seat the caller's
        self.obs = np.zeros(game.observation_size, dtype=np.float32)
        self.mask = np.zeros(game.spec.num_actions, dtype=np.int8)
        self.scores, self.results, self.rewards = np.zeros(n), np.zeros(n), np.zeros(n)
        self.player = TERMINAL
        self.dealt = False
        self._bind()

    def _bind(self) -> None:
        from jungle_envs.core.compiled import seat_runner
        from jungle_envs.core.compiled.twin import bind

        self._call = bind(seat_runner.table_call, *self._arguments(True, 0))

    def _arguments(self, start: bool, action: int) -> tuple:
        return (self.twin.cfg, self.row, self.streams, self.kinds, False, 0, start, action,
                self.obs, self.mask, self.scores, self.results, self.rewards)  # fmt: skip

    # A compiled entry point does not pickle: a copy binds its own.
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        del state["_call"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._bind()

    def deal(self, seed: int | None, reseed: bool) -> int:
        if reseed:
            from jungle_envs.core.compiled.rng import stream_state

            self.streams[:] = stream_state(seed)
        self.dealt = True
        self.player = int(self._call(*self._arguments(True, 0)))
        return self.player

    def play(self, action: int) -> int:
        self.player = int(self._call(*self._arguments(False, action)))
        return self.player

    def legal_mask(self) -> np.ndarray:
        if self.player == TERMINAL:
            return np.zeros(self.game.spec.num_actions, dtype=np.int8)
        return self.mask.copy()

    def is_legal(self, action: int) -> bool:
        return self.player != TERMINAL and bool(self.mask[action])

    def observe(self, seat: int) -> np.ndarray:
        if seat == self.player:
            return self.obs.copy()
        return self.twin.observe(self.row, seat)

    def returns(self) -> list[float]:
        return self.results.tolist()

    @property
    def state(self) -> GameState | None:
        """A snapshot of the game (the twin keeps it as an int32 row)."""
        return self.twin.unpack(self.row) if self.dealt else None

    def snapshot(self) -> GameState | None:
        return self.state


def make_table(game: Game, engine: str = "auto") -> ReferenceTable | CompiledTable:
    """The game on ``engine``: "auto" (the compiled twin where the game and its options
    have one, else the reference), "compiled" (refused where there is none) or
    "reference"."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    if engine == "reference":
        return ReferenceTable(game)
    from jungle_envs.core.compiled.twin import Twin, TwinUnavailable

    try:
        twin = Twin(game)
    except TwinUnavailable:
        if engine == "compiled":
            raise
        return ReferenceTable(game)
    return CompiledTable(game, twin)
