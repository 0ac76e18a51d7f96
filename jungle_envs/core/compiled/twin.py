"""The Python face of a game's compiled twin: its config, state rows and step-by-step calls.

``Twin(game)`` loads the game's twin (``Game.compiled_twin``: its ``compiled/`` folder), which
builds the kernels' config from the game's options and converts between a state dataclass
and an int32 row. Saving and loading go through the reference: ``unpack`` a row, then
``game.state_to_json``.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled import calls
from jungle_envs.core.game import Game
from jungle_envs.core.layout import Layout
from jungle_envs.core.state import GameState


class TwinUnavailable(ValueError):
    """A game or option the compiled twin cannot represent."""


def observation_offsets(layout: Layout, pieces: tuple[str, ...]) -> np.ndarray:
    """Where each of ``pieces`` starts in ``layout``'s observation (-1 for one the layout
    lacks), for a twin config's ``obs_at`` array, read as ``cfg.obs_at[OBS_<PIECE>]``.

    One field, not one config field per piece: a kernel call passes a config tuple's
    fields one by one, and fifteen more fields made Spank the Monkey's rules 20-25% slower
    (measured with ``python -m benchmarks.peers``). Elephant Festival stores it as a tuple:
    an array in a config costs every kernel call a reference count."""
    offsets = layout.offsets()
    unknown = sorted(set(offsets) - set(pieces))
    if unknown:
        raise TwinUnavailable(f"the twin does not write the observation pieces {unknown}")
    return np.array([offsets.get(piece, -1) for piece in pieces], dtype=np.int64)


class Twin:
    """A game's compiled twin, bound to the game's player count and options."""

    def __init__(self, game: Game) -> None:
        self.module = game.compiled_twin()
        if self.module is None:
            raise TwinUnavailable(f"{game.spec.env_name} has no compiled twin")
        self.game = game
        # raises TwinUnavailable for options the twin cannot represent
        self.cfg = self.module.make_twin_config(game.config)
        self.num_players = game.num_players
        self.num_actions = game.spec.num_actions
        self.obs_size = game.observation_size
        self.row_size = int(self.cfg.row_size)
        if (self.cfg.num_actions, self.cfg.obs_size) != (self.num_actions, self.obs_size):
            raise TwinUnavailable("the twin's action or observation size differs")
        self._bound: dict[str, object] = {}
        self._scratch_obs = np.zeros(self.obs_size, dtype=np.float32)
        self._scratch_mask = np.zeros(self.num_actions, dtype=np.int8)

    def __reduce__(self):
        # The twin is a pure function of its game: a copy (pickle, deepcopy) rebuilds it.
        return (Twin, (self.game,))

    # --- state rows ----------------------------------------------------------------------
    def new_row(self) -> np.ndarray:
        row = np.zeros(self.row_size, dtype=np.int32)
        self._call("init_state", row)
        return row

    def pack(self, state: GameState, row: np.ndarray | None = None) -> np.ndarray:
        if row is None:
            row = np.zeros(self.row_size, dtype=np.int32)
        row[:] = 0
        self.module.pack(self.cfg, state, row)
        return row

    def unpack(self, row: np.ndarray) -> GameState:
        return self.module.unpack(self.cfg, row)

    # --- one rule at a time (tests and tools) -----------------------------------------------
    def _call(self, name: str, *args):
        """``calls.<name>(cfg, *args)`` through its compiled entry point (bound on first
        use: later calls skip numba's type dispatch)."""
        fn = self._bound.get(name)
        if fn is None:
            fn = self._bound[name] = bind(getattr(calls, name), self.cfg, *args)
        return fn(self.cfg, *args)

    def current_player(self, row: np.ndarray) -> int:
        return int(self._call("current_player", row))

    def legal_mask(self, row: np.ndarray) -> np.ndarray:
        mask = np.zeros(self.num_actions, dtype=np.int8)
        self._call("legal_mask", row, mask)
        return mask.astype(bool)

    def apply_action(self, row: np.ndarray, action: int) -> None:
        self._call("apply_action", row, int(action))

    def sample_chance(self, row: np.ndarray, u: float) -> int:
        return int(self._call("sample_chance", row, float(u)))

    def apply_chance(self, row: np.ndarray, outcome: int) -> None:
        self._call("apply_chance", row, int(outcome))

    def observe(self, row: np.ndarray, seat: int) -> np.ndarray:
        obs = np.zeros(self.obs_size, dtype=np.float32)
        self._call("observe", row, int(seat), obs)
        return obs

    def scores(self, row: np.ndarray) -> list[float]:
        out = np.zeros(self.num_players)
        self._call("scores", row, out)
        return out.tolist()

    def returns(self, row: np.ndarray) -> list[float]:
        out = np.zeros(self.num_players)
        self._call("returns", row, out)
        return out.tolist()

    def playout(
        self,
        row: np.ndarray,
        streams: np.ndarray,
        kinds: np.ndarray,
        first_action: int = -1,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Play ``row`` to the end in one compiled call (see ``calls.playout``): each seat
        random or heuristic by ``kinds`` (int8, one per seat), drawing from ``streams``
        (two uint64 words, as ``rng.stream_state`` makes); every seat's return and score."""
        returns, scores = np.zeros(self.num_players), np.zeros(self.num_players)
        obs, mask = self._scratch_obs, self._scratch_mask
        self._call("playout", row, streams, kinds, int(first_action), obs, mask, returns, scores)
        return returns, scores

    def advance_to_caller(self, row: np.ndarray, streams: np.ndarray, kinds: np.ndarray) -> int:
        """Play ``row`` on in one compiled call (``seat_runner.advance_to_caller``, the
        all-seat batch's): chance and the random or heuristic seats of ``kinds`` (int8),
        and the forced moves of its ``CALLER`` seats, until a ``CALLER`` seat has a
        decision with a choice; that seat, or ``TERMINAL`` when the game ends first."""
        obs, mask = self._scratch_obs, self._scratch_mask
        return int(self._call("advance_to_caller", row, streams, kinds, True, obs, mask))

    def heuristic_action(self, row: np.ndarray, seat: int) -> int:
        obs = self.observe(row, seat)
        mask = self.legal_mask(row).astype(np.int8)
        return int(self._call("heuristic_action", row, int(seat), obs, mask))

    def heuristic_actions(
        self, rows: np.ndarray, seats: np.ndarray, obs: np.ndarray, masks: np.ndarray
    ) -> np.ndarray:
        """The heuristic's move for seat ``seats[i]`` of row ``i``, given that seat's
        observation and int8 mask (as a vector env's buffers hold them), in one call."""
        out = np.zeros(len(rows), dtype=np.int64)
        self._call("heuristic_actions", rows, seats, obs, masks, out)
        return out


def bind(dispatcher, *example_args):
    """The compiled entry point of ``dispatcher`` for these argument types (compiled or
    loaded from the cache on first use); calling it skips numba's type dispatch, so it must
    only ever get arguments of exactly these types."""
    from numba import typeof

    from jungle_envs.core.compiled.notice import compiling

    signature = tuple(typeof(arg) for arg in example_args)
    if signature not in dispatcher.overloads:
        with compiling(dispatcher, signature, example_args[0]):
            dispatcher.compile(signature)
    return dispatcher.overloads[signature].entry_point
