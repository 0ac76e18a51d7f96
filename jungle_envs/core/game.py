"""The contract every game's rules engine fulfils.

A game is a set of functions over a mutable state object, in the style of pgx and
OpenSpiel: whoever must act next (a seat, chance, or nobody once the game is over), the
legal actions, applying an action, the pending chance event with its outcome
probabilities, and per-player results. Nothing here imports Gymnasium: the env in
``jungle_envs.core.env`` is a thin layer over this contract, and planners or tests can
drive a game directly.

Chance is explicit. When ``current_player(state) == CHANCE`` the caller asks for
``chance_event(state)`` and applies one of its outcomes with ``apply_chance``. The env
samples the outcome with its own generator; a test applies whichever outcome it needs.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from jungle_envs.core.spec import (  # noqa: F401 - the header's names, also read from here
    ChanceEvent,
    GameSpec,
    Option,
    draw_from_counts,
    integer_keys,
)
from jungle_envs.core.state import GameState, StateError

CHANCE = -1
TERMINAL = -2


class IllegalActionError(ValueError):
    """An action that is inside the action space but not legal in the current state."""


class Game(ABC):
    """A game with bound options and player count; stateless apart from that config.

    Subclasses set ``spec`` and ``state_class``, bind ``make_config`` (the game's
    ``config.make_config``), name the modules of their folder (``rules_module``,
    ``encoding_module``, ``render_module``, ``heuristic_class``) whose functions every
    method calls with ``self.config``, and import their picture and compiled twin
    (``_draw_image``, ``compiled_twin``). States are plain objects that the methods mutate
    in place; ``state.copy()`` gives an independent copy.
    """

    spec: ClassVar[GameSpec]
    state_class: ClassVar[type[GameState]]
    config: Any  # the frozen Config that the game's functions take (``make_config``)

    def __init__(self, num_players: int | None = None, **options: Any) -> None:
        spec = self.spec
        if num_players is None:
            num_players = spec.default_players
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
            raise TypeError(f"num_players must be an int, got {num_players!r}")
        if not spec.min_players <= int(num_players) <= spec.max_players:
            raise ValueError(
                f"{spec.env_name} is played by {spec.min_players} to {spec.max_players} "
                f"players; got num_players={num_players}"
            )
        known = {opt.name: opt for opt in spec.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise ValueError(
                f"unknown option(s) {unknown} for {spec.env_name}; "
                f"allowed: {sorted(known) or 'none'}"
            )
        self.num_players = int(num_players)
        self.options = {
            name: opt.resolve(options[name]) if name in options else opt.resolve(opt.default)
            for name, opt in known.items()
        }
        self.config = self.make_config(self.num_players, self.options)

    @staticmethod
    @abstractmethod
    def make_config(num_players: int, options: Mapping[str, Any]) -> Any:
        """The frozen Config of the game's folder for checked ``options``: the player count,
        the options and what follows from them. Games bind their ``config.make_config``."""

    # --- the rules: forwarded to the game's rules module with the config ---------------
    # A game's folder provides these functions with one signature in every game, as pgx's
    # game modules do; the Game subclass only names its modules (``rules_module`` ...).
    rules_module: ClassVar[ModuleType]  # new_state, current_player, legal_actions, ...
    encoding_module: ClassVar[ModuleType]  # observe
    render_module: ClassVar[ModuleType]  # render, describe_outcome, describe_effect
    heuristic_class: ClassVar[type]  # built with the config; act(obs, mask, rng)

    def new_state(self) -> GameState:
        """A fresh game; usually it starts with chance events (shuffles, set-up draws)."""
        return self.rules_module.new_state(self.config)

    def current_player(self, state: GameState) -> int:
        """The seat that must decide, or ``CHANCE``, or ``TERMINAL``."""
        return self.rules_module.current_player(self.config, state)

    def legal_actions(self, state: GameState) -> list[int]:
        """The deciding seat's legal actions, ascending (empty if none)."""
        return self.rules_module.legal_actions(self.config, state)

    def legal_mask(self, state: GameState) -> np.ndarray:
        """Bool mask over ``spec.num_actions`` for the deciding seat (empty if none)."""
        return self.rules_module.legal_mask(self.config, state)

    def _apply_action(self, state: GameState, action: int) -> None:
        """Apply a legal action (already checked)."""
        self.rules_module.apply_action(self.config, state, action)

    def chance_event(self, state: GameState) -> ChanceEvent:
        """The pending chance event; only valid when ``current_player`` is ``CHANCE``."""
        return self.rules_module.chance_event(self.config, state)

    def sample_chance(self, state: GameState, rng: np.random.Generator) -> int:
        """An outcome of the pending chance event, drawn with ``rng``: the game's fast draw
        of ``chance_event``'s distribution (what envs and random play use)."""
        return self.rules_module.sample_chance(self.config, state, rng)

    def _apply_chance(self, state: GameState, outcome: int) -> None:
        """Apply a chance outcome (already checked)."""
        self.rules_module.apply_chance(self.config, state, outcome)

    def scores(self, state: GameState) -> list[float]:
        """Each seat's score as the rules count it (complete information)."""
        return self.rules_module.scores(self.config, state)

    def winners(self, state: GameState) -> list[int]:
        """The winning seats of a finished game; empty when nobody wins."""
        return self.rules_module.winners(self.config, state)

    def final_details(self, state: GameState) -> dict[str, Any]:
        """Extra per-player results for the env's final ``info``."""
        return self.rules_module.final_details(self.config, state)

    def validate_state(self, state: GameState) -> None:
        """Raise ``StateError`` if ``state`` breaks an invariant of this game."""
        self.rules_module.validate(self.config, state)

    # --- views -----------------------------------------------------------------------
    @property
    def observation_size(self) -> int:
        return self.config.layout.size

    def observe(self, state: GameState, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """Float32 vector from ``seat``'s point of view; never shows others' secrets."""
        return self.encoding_module.observe(self.config, state, self.check_seat(seat), out)

    def render(self, state: GameState, viewer: int | None = None) -> str:
        """Readable text; hidden information is shown only to ``viewer`` (all if None)."""
        if viewer is not None:
            viewer = self.check_seat(viewer, "viewer")
        return self.render_module.render(self.config, state, viewer)

    def heuristic_policy(self) -> Any:
        """The game's rule-based policy (an object with ``act(obs, mask, rng)``)."""
        return self.heuristic_class(self.config)

    def is_heuristic(self, policy: Any) -> bool:
        """Whether ``policy`` is this game's rule-based policy (which the compiled engine
        plays inside its kernels)."""
        return type(policy) is self.heuristic_class

    def describe_outcome(self, state: GameState, outcome: int, viewer: int | None = None) -> str:
        """The pending chance event's ``outcome`` in words, as ``viewer`` may know it (a
        card drawn by another seat stays face down; None: everything). Call it before the
        outcome is applied."""
        if viewer is not None:
            viewer = self.check_seat(viewer, "viewer")
        return self._describe_outcome(state, outcome, viewer)

    def _describe_outcome(self, state: GameState, outcome: int, viewer: int | None) -> str:
        return self.render_module.describe_outcome(self.config, state, outcome, viewer)

    def describe_effect(
        self, before: GameState, after: GameState, viewer: int | None = None
    ) -> str:
        """What one action or chance outcome did, from the state ``before`` it to the state
        ``after`` it, in words as ``viewer`` may know it ("seat 1's monkey on T3 back to
        START"), "" when nothing beyond the move itself is worth a line. The play log
        puts it after the move ("move START->T3 => ..."), as OpenSpiel's action strings
        plus their outcome."""
        if viewer is not None:
            viewer = self.check_seat(viewer, "viewer")
        return self.render_module.describe_effect(self.config, before, after, viewer)

    def render_image(self, state: GameState, viewer: int | None = None) -> np.ndarray:
        """The table as an RGB picture (uint8, ``(height, width, 3)``, the same size for
        every state of this game); hidden cards and tiles are drawn face down unless
        ``viewer`` may see them (all face up if None). Needs Pillow."""
        if viewer is not None:
            viewer = self.check_seat(viewer, "viewer")
        return self._draw_image(state, viewer)

    @abstractmethod
    def _draw_image(self, state: GameState, viewer: int | None) -> np.ndarray:
        """The game's ``image.draw`` (imported in the override, so that Pillow loads only
        when a picture is drawn)."""

    def compiled_twin(self) -> Any:
        """The game's compiled twin package (its ``compiled/``: ``make_twin_config``,
        ``pack``, ``unpack``, kernels registered), or None for a game without one. Games
        import it in the override: it loads numba."""
        return None

    def check_seat(self, seat: Any, what: str = "seat") -> int:
        """``seat`` as an int, or a ValueError: a seat of -1 would wrap round to the last
        seat's hidden cards, one past the end to an IndexError deep in a view."""
        if (
            isinstance(seat, (bool, np.bool_))
            or not isinstance(seat, (int, np.integer))
            or not 0 <= seat < self.num_players
        ):
            raise ValueError(f"{what} must be a seat in 0..{self.num_players - 1}, got {seat!r}")
        return int(seat)

    def resample(self, state: GameState, seat: int, rng: np.random.Generator) -> GameState:
        """A state ``seat`` cannot tell from ``state``, for information-set search: the same
        observation for ``seat``, with what it cannot see (others' cards, the order of
        face-down supplies) dealt anew, every deal that fits what it has seen as likely as
        the rules make it. The hidden parts are pooled before they are dealt, so the result
        depends on what ``seat`` may know and ``rng`` only. ``state`` is not changed."""
        seat = self.check_seat(seat)
        copy = state.copy()
        self._resample(copy, seat, rng)
        return copy

    def _resample(self, state: GameState, seat: int, rng: np.random.Generator) -> None:
        """Deal ``state``'s hidden parts anew for ``seat``, in place, with the rules
        module's ``resample``. Nothing to deal without one: games whose face-down supplies
        are drawn by counts every player can keep (and no hands) hide nothing that a draw
        has not yet decided."""
        resample = getattr(self.rules_module, "resample", None)
        if resample is not None:
            resample(self.config, state, seat, rng)

    # --- checked entry points --------------------------------------------------------
    def apply_action(self, state: GameState, action: int) -> None:
        """Apply ``action`` for the deciding seat; raise without changing the state."""
        player = self.current_player(state)
        if player < 0:
            what = "chance must be resolved" if player == CHANCE else "the game is over"
            raise IllegalActionError(f"no seat is to decide: {what}")
        action = check_action_index(action, self.spec.num_actions)
        if not self.legal_mask(state)[action]:
            raise IllegalActionError(
                f"action {action} ({self.spec.action_names[action]}) is not legal for seat "
                f"{player}; legal: {self.describe_actions(self.legal_actions(state))}"
            )
        self._apply_action(state, action)

    def apply_chance(self, state: GameState, outcome: int) -> None:
        """Apply one outcome of the pending chance event; raise if it is not possible."""
        if self.current_player(state) != CHANCE:
            raise IllegalActionError("no chance event is pending")
        event = self.chance_event(state)
        possible = [o for o, p in event.distribution().items() if p > 0]
        # 0.0 == 0 and True == 1: only an integer is an outcome
        integer = isinstance(outcome, (int, np.integer)) and not isinstance(outcome, bool)
        if not integer or outcome not in possible:
            raise IllegalActionError(
                f"{outcome!r} is not a possible outcome of {event.name!r}; possible: {possible}"
            )
        self._apply_chance(state, int(outcome))

    def is_terminal(self, state: GameState) -> bool:
        return self.current_player(state) == TERMINAL

    def returns(self, state: GameState) -> list[float]:
        """+1 for a sole winner, 0 for a shared win or when nobody wins, -1 for a loser."""
        if not self.is_terminal(state):
            return [0.0] * self.num_players
        return self.returns_of(self.winners(state))

    def returns_of(self, winners: Sequence[int]) -> list[float]:
        """Each seat's return when ``winners`` won a finished game."""
        if not winners:
            return [0.0] * self.num_players
        win_value = 1.0 if len(winners) == 1 else 0.0
        return [win_value if seat in winners else -1.0 for seat in range(self.num_players)]

    def action_to_string(self, state: GameState, action: int) -> str:
        """``action`` as the seat deciding in ``state`` would say it (OpenSpiel's
        ``action_to_string``): its fixed name, unless the game's action ids are relative
        to the seat (Elephant Festival's colours), where it names the real thing."""
        return self.spec.action_names[action]

    def describe_actions(self, actions: Sequence[int]) -> str:
        return ", ".join(f"{a}={self.spec.action_names[a]}" for a in actions)

    def final_info(self, state: GameState) -> dict[str, Any]:
        """The results the env puts in a finished episode's ``info``: ``scores``, ``winners``,
        ``returns`` and the ``final_details``. Games whose scoring is costly override this
        to score once."""
        return {
            "scores": self.scores(state),
            "winners": self.winners(state),
            "returns": self.returns(state),
            **self.final_details(state),
        }

    # --- persistence -----------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """The player count and options as given (what a saved state records); the frozen
        ``config`` derived from them is what the rules read. Was ``config()`` before 0.3."""
        return {"num_players": self.num_players, **self.options}

    def rules_settings(self) -> dict[str, Any]:
        """``settings()`` without the options that change only the observation."""
        observation_only = {o.name for o in self.spec.options if o.observation_only}
        return {k: v for k, v in self.settings().items() if k not in observation_only}

    def state_to_json(self, state: GameState) -> str:
        payload = {
            "game": self.spec.name,
            "config": self.settings(),
            "state": state.to_dict(),
        }
        return json.dumps(payload, separators=(",", ":"))

    def state_from_json(self, text: str) -> GameState:
        """Rebuild a state saved by ``state_to_json``; raise ``StateError`` if malformed."""
        try:
            payload = json.loads(text)
        except (TypeError, ValueError) as exc:  # ValueError: also a number over 4,300 digits
            raise StateError(f"saved state is not valid JSON: {exc}") from None
        except RecursionError:
            raise StateError("saved state is nested too deeply to be a state") from None
        if not isinstance(payload, dict) or set(payload) != {"game", "config", "state"}:
            raise StateError("saved state must be an object with keys 'game', 'config', 'state'")
        if payload["game"] != self.spec.name:
            raise StateError(f"saved state is for game {payload['game']!r}, not {self.spec.name!r}")
        if payload["config"] != json.loads(json.dumps(self.settings())):
            raise StateError(
                f"saved state was made with config {payload['config']}, "
                f"this game has {self.settings()}"
            )
        state = self.state_class.from_dict(payload["state"])
        self.validate_state(state)
        return state


def places(scores: Sequence[float]) -> np.ndarray:
    """Per seat: the other seats it outscores minus those outscoring it, over the others
    (+1 alone on top, -1 alone at the bottom); the rank reward's and the search's place."""
    scores = np.asarray(scores, dtype=float)
    above = (scores[:, None] > scores[None, :]).sum(axis=1)
    below = (scores[:, None] < scores[None, :]).sum(axis=1)
    return (above - below) / max(len(scores) - 1, 1)


def check_action_index(action: Any, num_actions: int) -> int:
    """Normalise an action to int; raise if it is not an integer in ``[0, num_actions)``."""
    if isinstance(action, np.ndarray):
        if action.shape not in ((), (1,)):
            raise ValueError(f"action must be a single integer, got array of shape {action.shape}")
        action = action.reshape(()).item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"action must be an integer in [0, {num_actions - 1}], got {action!r}")
    if not 0 <= action < num_actions:
        raise ValueError(f"action {action} is out of the action space [0, {num_actions - 1}]")
    return int(action)
