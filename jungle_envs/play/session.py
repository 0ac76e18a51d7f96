"""One game at the table: the rules engine, who sits where, the dice and the log.

No terminal here: a ``Session`` plays chance and the opponents until a human must decide,
takes the humans' actions, keeps for each human the log of what happened since they last
acted (opponents' decisions, chance outcomes as that seat may know them), and saves and
loads itself as JSON. ``jungle_envs.play.terminal`` puts it on the screen.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from jungle_envs.core.engines import checked_opponent_action
from jungle_envs.core.files import atomic_write_text, read_text_limited
from jungle_envs.core.game import CHANCE, TERMINAL, Game
from jungle_envs.core.policies import make_policy, opponent_action
from jungle_envs.core.registry import GAMES, make_game
from jungle_envs.core.state import GameState, StateError
from jungle_envs.replay import Replay, ReplayError, replay_from_dict

HUMAN = "human"
SAVE_FORMAT = "jungle_envs.play"
SAVE_VERSION = 1


class LoadError(ValueError):
    """A saved game that cannot be loaded (missing, malformed, or for another table)."""


class Event(NamedTuple):
    """One line of a seat's log: ``seat`` acted (None: chance), ``what`` in words."""

    seat: int | None
    what: str


def find_game(name: str) -> str:
    """The env name ("TropicRace") for a game named any usual way: ``TropicRace``,
    ``tropicrace``, ``tropic_race``, ``TropicRace-v0``, ``jungle_envs/TropicRace-v0``."""
    key = name.strip()
    for prefix in ("jungle_envs/",):
        if key.lower().startswith(prefix):
            key = key[len(prefix) :]
    if key.lower().endswith("-v0"):
        key = key[:-3]
    key = "".join(ch for ch in key.lower() if ch.isalnum())
    for env_name in GAMES:
        if env_name.lower() == key:
            return env_name
    raise ValueError(f"unknown game {name!r}; choose from {', '.join(GAMES)}")


def build_policies(game: Game, seats: list[str]) -> dict[int, Any]:
    """Seat -> policy for every seat not played by a human (one policy per distinct name).
    Raises ValueError with a readable message for an unknown name or unusable model."""
    made: dict[str, Any] = {}
    policies = {}
    for seat, spec in enumerate(seats):
        if spec == HUMAN:
            continue
        if spec not in made:
            try:
                made[spec] = make_policy(spec, game)
            except (ValueError, TypeError, OSError, ImportError) as exc:
                raise ValueError(f"seat {seat} ({spec}): {exc}") from None
        policies[seat] = made[spec]
    return policies


def rng_state(rng: np.random.Generator) -> dict[str, Any]:
    return rng.bit_generator.state


def rng_from_state(state: Any) -> np.random.Generator:
    rng = np.random.default_rng()
    try:
        rng.bit_generator.state = state
    except (TypeError, ValueError, KeyError) as exc:
        raise LoadError(f"the saved random generator state is not usable: {exc}") from None
    return rng


class Session:
    """A game in progress: ``advance()`` to the next human decision, then ``act()``."""

    def __init__(self, game: Game, seats: list[str], seed: int | None = None) -> None:
        if len(seats) != game.num_players:
            raise ValueError(
                f"{game.num_players} players need {game.num_players} seats, got {len(seats)}"
            )
        self.game = game
        self.seats = list(seats)
        self.humans = [seat for seat, spec in enumerate(seats) if spec == HUMAN]
        self.policies = build_policies(game, self.seats)
        self.seed = seed
        chance_seed, opponent_seed = np.random.SeedSequence(seed).spawn(2)
        self.chance_rng = np.random.default_rng(chance_seed)
        self.opponent_rng = np.random.default_rng(opponent_seed)
        self.state = game.new_state()
        # the game from its start, step by step (``jungle_envs.replay``): [seat or None, value]
        self.start = self.state.copy()
        self.history: list[tuple[int | None, int]] = []
        # each human's events since they last acted; with no human, the spectator's (None)
        self.logs: dict[int | None, list[Event]] = {s: [] for s in self.humans or [None]}
        self.acted: set[int] = set()  # the humans who have had a turn
        for policy in {id(p): p for p in self.policies.values()}.values():
            if hasattr(policy, "start_episode"):  # as the env does at reset
                policy.start_episode(self.opponent_rng)

    @classmethod
    def new(
        cls,
        game_name: str,
        num_players: int | None,
        options: dict[str, Any],
        seats: list[str],
        seed: int | None = None,
    ) -> Session:
        return cls(make_game(find_game(game_name), num_players, **options), seats, seed)

    # --- playing ---------------------------------------------------------------------
    def to_move(self) -> int:
        return self.game.current_player(self.state)

    def legal_actions(self) -> list[int]:
        return self.game.legal_actions(self.state)

    def advance(self) -> int:
        """Play chance and opponents (as ``ReferenceEngine._advance`` does) until a human
        must decide; return that seat, or ``TERMINAL``."""
        game, state = self.game, self.state
        while True:
            player = game.current_player(state)
            if player == TERMINAL or player in self.humans:
                return player
            if player == CHANCE:
                outcome = game.sample_chance(state, self.chance_rng)
                before = state.copy()
                said = {v: game.describe_outcome(state, outcome, v) for v in self.logs}
                game._apply_chance(state, outcome)
                self.history.append((None, int(outcome)))
                for viewer, log in self.logs.items():
                    log.append(Event(None, self._with_effect(said[viewer], before, viewer)))
                continue
            policy = self.policies[player]
            mask = game.legal_mask(state)
            action = opponent_action(policy, game, state, player, mask, self.opponent_rng)
            action = checked_opponent_action(game, player, action, mask)
            name = game.action_to_string(state, action)
            before = state.copy()
            game._apply_action(state, action)
            self.history.append((player, int(action)))
            self._logged(player, name, before)

    def act(self, action: int) -> None:
        """The deciding human's action (checked); their log starts afresh."""
        seat = self.to_move()
        name = self.action_name(action)
        before = self.state.copy()
        self.game.apply_action(self.state, action)  # raises on an illegal action
        self.history.append((seat, int(action)))
        self.acted.add(seat)
        self._logged(seat, name, before)

    def action_name(self, action: int) -> str:
        """The action as the seat to move would say it (``Game.action_to_string``)."""
        return self.game.action_to_string(self.state, action)

    def _logged(self, seat: int, name: str, before: GameState) -> None:
        """``seat`` did ``name`` (the state was ``before``): into everyone else's log with
        what it did; the seat's own log starts anew."""
        if seat in self.logs:
            self.logs[seat] = []
        for viewer, log in self.logs.items():
            if viewer != seat:
                log.append(Event(seat, self._with_effect(name, before, viewer)))

    def _with_effect(self, text: str, before: GameState, viewer: int | None) -> str:
        """``text`` and what the step from ``before`` to now did, as ``viewer`` may know it."""
        effect = self.game.describe_effect(before, self.state, viewer)
        return f"{text} => {effect}" if effect else text

    def log(self, viewer: int | None) -> list[Event]:
        return list(self.logs.get(viewer, []))

    def replay(self) -> Replay:
        """The game so far as a ``Replay`` (from its start, or from where it was loaded)."""
        return Replay(self.game, self.start, list(self.history), list(self.seats))

    # --- saving ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Everything needed to continue exactly here: game, config, state, seats and both
        random generators (so a loaded game rolls the same dice), and the humans' logs."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game.spec.env_name,
            "seats": self.seats,
            "seed": self.seed,
            "position": json.loads(self.game.state_to_json(self.state)),
            "rngs": {
                "chance": rng_state(self.chance_rng),
                "opponents": rng_state(self.opponent_rng),
            },
            "acted": sorted(self.acted),
            "start": json.loads(self.game.state_to_json(self.start)),
            "history": [[seat, value] for seat, value in self.history],
            "logs": [[viewer, [list(event) for event in log]] for viewer, log in self.logs.items()],
        }

    def save(self, path: str | Path) -> Path:
        path = Path(path).expanduser()
        try:
            atomic_write_text(path, json.dumps(self.to_dict(), indent=1) + "\n")
        except OSError as exc:
            raise OSError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
        return path


def read_save(path: str | Path) -> dict[str, Any]:
    """A save file's content (a dict), or LoadError saying why not."""
    path = Path(path).expanduser()
    try:
        text = read_text_limited(path)
    except OSError as exc:
        raise LoadError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise LoadError(str(exc)) from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # ValueError: a number over 4,300 digits
        raise LoadError(f"{str(path)!r} is not a saved game (not JSON: {exc})") from None
    if not isinstance(data, dict):
        raise LoadError(f"{str(path)!r} is not a saved game (not a JSON object)")
    return data


def session_from_save(data: dict[str, Any], seats: list[str] | None = None) -> Session:
    """Rebuild a session from ``Session.to_dict()``, or from a bare position written by
    ``Game.state_to_json`` (then with fresh dice). ``seats`` replaces the saved seats."""
    try:
        return _session_from_save(data, seats)
    except LoadError:
        raise
    except (
        StateError, ValueError, TypeError, LookupError, AttributeError, ArithmeticError,
        RecursionError,
    ) as exc:  # fmt: skip
        raise LoadError(f"not a usable saved game: {exc}") from None


def _session_from_save(data: dict[str, Any], seats: list[str] | None) -> Session:
    full = data.get("format") == SAVE_FORMAT
    if full and data.get("version") != SAVE_VERSION:
        raise LoadError(f"saved by another version of the format ({data.get('version')!r})")
    position = data.get("position") if full else data
    if not isinstance(position, dict) or not {"game", "config", "state"} <= set(position):
        raise LoadError("not a saved game: it has no game, config and state")
    by_module = {module.rsplit(".", 1)[1]: name for name, module in GAMES.items()}
    if position["game"] not in by_module:
        raise LoadError(f"the file holds an unknown game {position['game']!r}")
    config = position["config"]
    if not isinstance(config, dict):
        raise LoadError("the saved config is not an object")
    config = dict(config)
    game = make_game(by_module[position["game"]], config.pop("num_players", None), **config)
    state = game.state_from_json(json.dumps(position))
    if seats is None:
        seats = data.get("seats") if full else [HUMAN] + ["heuristic"] * (game.num_players - 1)
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise LoadError("the saved seats are not a list of names")
    seed = data.get("seed") if full else None
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise LoadError(f"the saved seed is not a non-negative integer: {seed!r}")
    session = Session(game, seats, seed)
    session.state = state
    if full:
        rngs = data.get("rngs")
        if not isinstance(rngs, dict):
            raise LoadError("the saved random generators are missing")
        session.chance_rng = rng_from_state(rngs.get("chance"))
        session.opponent_rng = rng_from_state(rngs.get("opponents"))
        session.logs = _logs(data.get("logs"), session)
        acted = data.get("acted")
        if isinstance(acted, list):
            session.acted = {seat for seat in acted if seat in session.humans}
        session.start, session.history = _history(data, session)
    else:
        session.start = state.copy()
    return session


def _history(data: dict[str, Any], session: Session) -> tuple[Any, list]:
    """The saved start and steps when they lead to the saved position; else the game's
    history starts at that position (a save edited by hand, or of an older version)."""
    try:
        replay = replay_from_dict({"start": data.get("start"), "history": data.get("history")})
        if replay.position(len(replay)) == session.state and replay.game.settings() == (
            session.game.settings()
        ):
            return replay.start, list(replay.steps)
    except ReplayError:
        pass
    return session.state.copy(), []


def _logs(saved: Any, session: Session) -> dict[int | None, list[Event]]:
    logs = {viewer: [] for viewer in session.logs}
    if not isinstance(saved, list):
        return logs
    for entry in saved:
        if not (
            isinstance(entry, list)
            and len(entry) == 2
            and (entry[0] is None or isinstance(entry[0], int))
            and entry[0] in logs
            and isinstance(entry[1], list)
        ):
            continue  # a log of another seating: dropped, the game itself is intact
        logs[entry[0]] = [
            Event(seat, what)
            for seat, what in (e for e in entry[1] if isinstance(e, list) and len(e) == 2)
            if (seat is None or isinstance(seat, int)) and isinstance(what, str)
        ]
    return logs
