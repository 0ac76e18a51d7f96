"""Every game as an OpenSpiel Python game, so OpenSpiel's own algorithms run on it.

    import pyspiel
    import jungle_envs.openspiel  # registers the games

    game = pyspiel.load_game("jungle_envs_elephant_festival",
                             {"players": 2, "options": '{"grid": 3}'})
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            ...

Short names: ``jungle_envs_jungle_sweep``, ``jungle_envs_tropic_race``,
``jungle_envs_spank_the_monkey``, ``jungle_envs_elephant_festival``; parameters ``players``
and ``options`` (the game's options as a JSON object, e.g. a small variant). Chance is
explicit: every draw and roll is a chance node whose outcomes and probabilities come from
the rules' own ``chance_event``. A player's observation (string and tensor) is the single
env's view of that seat; the information state (string only) is perfect recall: the
player's views after every move so far and its own actions. No information-state tensor:
a history of these games has no fixed size. Runs on the reference engine. Needs
``open_spiel`` (``pip install 'jungle-envs[openspiel]'``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as exc:
    raise ImportError("jungle_envs.openspiel needs OpenSpiel: pip install open_spiel") from exc

from jungle_envs.core.game import CHANCE, TERMINAL
from jungle_envs.core.registry import GAMES, game_class

PREFIX = "jungle_envs_"
# Chance outcomes are small ints (a die face, a card or tile kind, a seat): the most any
# game's events use, rounded up; checked whenever an event is listed.
MAX_CHANCE_OUTCOMES = {"JungleSweep": 16, "TropicRace": 16, "SpankTheMonkey": 64,
                       "ElephantFestival": 64}  # fmt: skip


def short_name(name: str) -> str:
    return PREFIX + game_class(name).spec.name


def game_type(name: str) -> pyspiel.GameType:
    spec = game_class(name).spec
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"jungle_envs {spec.env_name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": spec.default_players, "options": "{}"},
    )


def make_game_class(name: str) -> type:
    """The ``pyspiel.Game`` subclass of one of our games."""
    kind = game_type(name)

    class JungleSpielGame(pyspiel.Game):
        def __init__(self, params: dict | None = None) -> None:
            params = {"players": kind.parameter_specification["players"], "options": "{}",
                      **(params or {})}  # fmt: skip
            options = json.loads(params["options"])
            if not isinstance(options, dict):
                raise ValueError(f"options must be a JSON object, got {params['options']!r}")
            self.rules = game_class(name)(int(params["players"]), **options)
            spec = self.rules.spec
            info = pyspiel.GameInfo(
                num_distinct_actions=spec.num_actions,
                max_chance_outcomes=MAX_CHANCE_OUTCOMES[spec.env_name],
                num_players=self.rules.num_players,
                min_utility=-1.0,
                max_utility=1.0,
                max_game_length=spec.max_decisions * self.rules.num_players,
            )
            super().__init__(kind, info, params)

        def new_initial_state(self) -> JungleSpielState:
            return JungleSpielState(self)

        def make_py_observer(self, iig_obs_type=None, params=None) -> JungleObserver:
            if params:
                raise ValueError(f"observer parameters are not supported, got {params}")
            recall = iig_obs_type is not None and iig_obs_type.perfect_recall
            return JungleObserver(self.rules, perfect_recall=recall)

    JungleSpielGame.__name__ = JungleSpielGame.__qualname__ = f"{name}SpielGame"
    return JungleSpielGame


class JungleSpielState(pyspiel.State):
    """A game in progress: our reference state, advanced by OpenSpiel's actions."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.state = self.rules.new_state()

    def current_player(self) -> int:
        player = self.rules.current_player(self.state)
        if player == CHANCE:
            return pyspiel.PlayerId.CHANCE
        if player == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return [int(a) for a in self.rules.legal_actions(self.state)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        event = self.rules.chance_event(self.state)
        bound = MAX_CHANCE_OUTCOMES[self.rules.spec.env_name]
        if max(event.outcomes) >= bound:
            raise ValueError(f"chance outcome {max(event.outcomes)} >= max_chance_outcomes")
        return sorted(zip(event.outcomes, event.probabilities, strict=True))

    def _apply_action(self, action: int) -> None:
        if self.rules.current_player(self.state) == CHANCE:
            self.rules.apply_chance(self.state, int(action))
        else:
            self.rules.apply_action(self.state, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"{self.rules.chance_event(self.state).name}: {action}"
        return self.rules.spec.action_names[action]

    def is_terminal(self) -> bool:
        return self.rules.current_player(self.state) == TERMINAL

    def returns(self) -> list[float]:
        return [float(x) for x in self.rules.returns(self.state)]

    def __str__(self) -> str:
        return self.rules.render(self.state)


class JungleObserver:
    """OpenSpiel's observer: a seat's view (the env's observation), or with perfect recall
    its views after every move so far and its own actions (string only)."""

    def __init__(self, rules: Any, perfect_recall: bool) -> None:
        self.rules, self.perfect_recall = rules, perfect_recall
        size = 0 if perfect_recall else rules.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: JungleSpielState, player: int) -> None:
        if not self.perfect_recall:
            self.rules.observe(state.state, player, self.tensor)

    def string_from(self, state: JungleSpielState, player: int) -> str:
        if not self.perfect_recall:
            return self.rules.render(state.state, viewer=player)
        # Replay the history: after every move the player's view (a digest of it), and the
        # player's own actions, which it knows.
        rules, replay, seen = self.rules, self.rules.new_state(), [f"p{player}"]
        for move in state.history():
            mover = rules.current_player(replay)
            if mover == CHANCE:
                rules.apply_chance(replay, move)
            else:
                rules.apply_action(replay, move)
                if mover == player:
                    seen.append(f"a{move}")
            view = rules.observe(replay, player).tobytes()
            seen.append(hashlib.blake2b(view, digest_size=8).hexdigest())
        return " ".join(seen)


def register() -> list[str]:
    """Register every game with OpenSpiel (done on import); their short names."""
    names = []
    for name in GAMES:
        pyspiel.register_game(game_type(name), make_game_class(name))
        names.append(short_name(name))
    return names


SHORT_NAMES = register()
