"""Play a policy against opponents and measure how often it wins.

Light on dependencies (Gymnasium and NumPy): a trained model is loaded only when one is
asked for. A game won by k seats together counts 1/k to each, so with N equal players the
expected win rate is exactly 1/N.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np

from jungle_envs.core.game import CHANCE, TERMINAL
from jungle_envs.core.policies import (
    make_policy,
    observation_game,
    opponent_action,
)
from jungle_envs.maskable_ppo import is_model, trained_on

BASE_INFO = {"action_mask", "agent_seat", "scores", "winners", "returns", "illegal_action"}


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (successes may be fractional)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class SeatRecord:
    games: int = 0
    wins: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass
class EvaluationResult:
    env_id: str
    num_players: int
    games: int = 0
    wins: float = 0.0  # shared wins count 1/k
    sole_wins: int = 0
    shared_wins: int = 0
    illegal_actions: int = 0
    # games cut off by a step limit before the end: no winner, no score; they count as
    # games without a win for the agent
    truncated: int = 0
    score_total: float = 0.0
    # the agent's score minus the best opponent's, summed (and squared) for a mean and its
    # interval: how games that every policy wins differ
    margin_total: float = 0.0
    margin_squares: float = 0.0
    decisions: int = 0
    per_seat: dict[int, SeatRecord] = field(default_factory=dict)
    detail_totals: dict[str, float] = field(default_factory=dict)  # scalar final-info sums
    # per game index: the agent's win credit and its margin over the best opponent (NaN
    # when the game has no scores), so that two policies on the same games can be paired
    outcomes: dict[int, tuple[float, float]] = field(default_factory=dict)

    @property
    def details(self) -> dict[str, float]:
        """Mean per game of each number or flag the game reports at the end."""
        return {k: v / self.games for k, v in self.detail_totals.items()} if self.games else {}

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def scored_games(self) -> int:
        """Games that reached their end with a legal last action: they have scores."""
        return self.games - self.illegal_actions - self.truncated

    @property
    def mean_score(self) -> float:
        return self.score_total / self.scored_games if self.scored_games else 0.0

    @property
    def mean_margin(self) -> float:
        """Mean of the agent's score minus the best opponent's score."""
        scored = self.scored_games
        return self.margin_total / scored if scored else 0.0

    @property
    def margin_ci95(self) -> tuple[float, float]:
        """Normal 95% interval of ``mean_margin``."""
        scored = self.scored_games
        if scored < 2:
            return (self.mean_margin, self.mean_margin)
        variance = (self.margin_squares - scored * self.mean_margin**2) / (scored - 1)
        half = 1.96 * math.sqrt(max(variance, 0.0) / scored)
        return (self.mean_margin - half, self.mean_margin + half)

    @property
    def chance_rate(self) -> float:
        return 1.0 / self.num_players

    def __str__(self) -> str:  # print(result) reads as a sentence; repr keeps the fields
        return self.summary()

    def summary(self) -> str:
        lo, hi = self.ci95
        return (
            f"win rate {self.win_rate:.3f} (95% CI {lo:.3f}-{hi:.3f}) over {self.games} games "
            f"[chance {self.chance_rate:.3f}], mean score {self.mean_score:.2f} "
            f"(margin over the best opponent {self.mean_margin:+.2f}), "
            f"illegal actions {self.illegal_actions}, cut off by the step limit {self.truncated}"
        )


def evaluate(
    env_id: str,
    agent: Any,
    opponents: Any = "random",
    games: int = 1000,
    num_players: int | None = None,
    seed: int = 0,
    indices: Sequence[int] | None = None,
    **env_kwargs: Any,
) -> EvaluationResult:
    """Play ``games`` games of ``agent`` against ``opponents``, rotating the agent's seat.

    ``agent`` is anything the env accepts as an opponent: a name ("random", "heuristic"),
    a MaskablePPO model or path, a policy object or a callable. A model saved with what it
    was trained on plays with that player count and those game options unless
    ``num_players`` or ``env_kwargs`` say otherwise. Game i is seeded with
    ``seed + i``, puts the agent in seat ``i % num_players`` and gives the agent a
    generator of its own, so any subset of games (``indices``) plays exactly as it would
    in a full run: results do not depend on how games are split among workers.
    """
    players, policy, env_kwargs, _ = agent_setup(env_id, agent, num_players, env_kwargs)
    envs = [
        gym.make(env_id, num_players=players, opponents=opponents, agent_seat=seat, **env_kwargs)
        for seat in range(players)
    ]
    result = EvaluationResult(env_id, players)
    for i in range(games) if indices is None else indices:
        seat = i % players
        info, decisions = play_evaluation_game(envs[seat], policy, seed, i)
        result.decisions += decisions
        record_game(result, seat, info, i)
    return result


def play_evaluation_game(env, policy: Any, seed: int, i: int) -> tuple[dict[str, Any], int]:
    """Game ``i`` of an evaluation from ``seed`` on ``env`` (whose ``agent_seat`` is the
    agent's): its final ``info`` and the agent's number of decisions. The agent draws from
    a generator of its own, so the game is the same whichever games are played before it."""
    rng = np.random.default_rng([seed, i])
    obs, info = env.reset(seed=seed + i)
    seat = env.unwrapped.agent_seat
    decisions, done = 0, False
    while not done:
        mask = info["action_mask"].astype(bool)
        if getattr(policy, "uses_state", False):  # a search: it reads the state itself
            action = policy.act_state(env.unwrapped.state, seat, mask, rng)
        else:
            action = policy.act(obs, mask, rng)
        obs, _, terminated, truncated, info = env.step(action)
        decisions += 1
        done = terminated or truncated
    return info, decisions


def agent_setup(
    env_id: str, agent: Any, num_players: int | None, env_kwargs: dict[str, Any]
) -> tuple[int, Any, dict[str, Any], Any]:
    """The player count, the agent's policy, the env options and the game an evaluation
    plays: a model plays the game it was trained on unless told otherwise, and sees with
    its own observation options."""
    trained = trained_on(agent) if is_model(agent) else None
    if trained:
        if num_players is None:
            num_players = trained["num_players"]
        env_kwargs = {**trained["env_options"], **env_kwargs}
    probe = gym.make(env_id, num_players=num_players, **env_kwargs)
    game = probe.unwrapped.game
    policy = make_policy(agent, game)
    observing = observation_game(policy, game)
    if observing is not game:  # the agent sees with its own options
        own = {o.name for o in observing.spec.options if o.observation_only}
        env_kwargs = {**env_kwargs, **{k: observing.options[k] for k in own}}
    return probe.unwrapped.num_players, policy, env_kwargs, game


def evaluation_replays(
    env_id: str,
    agent: Any,
    opponents: Any,
    indices: Sequence[int],
    num_players: int | None = None,
    seed: int = 0,
    **env_kwargs: Any,
) -> list[Any]:
    """Replays of the games ``indices`` of ``evaluate``'s run with these arguments: game i
    played again as ``evaluate`` plays it (seed ``seed + i``, the agent in seat
    ``i % num_players``, the same engine and generators), with the env recording every
    step, so each replay is the game that was scored, chance outcomes and all."""
    players, policy, env_kwargs, _ = agent_setup(env_id, agent, num_players, env_kwargs)
    other = opponents if isinstance(opponents, str) else "opponent"
    replays = []
    for i in indices:
        seat = i % players
        env = gym.make(
            env_id, num_players=players, opponents=opponents, agent_seat=seat, **env_kwargs
        )
        env.unwrapped.record_replays()
        play_evaluation_game(env, policy, seed, i)
        labels = [f"agent: {agent}" if s == seat else other for s in range(players)]
        replays.append(env.unwrapped.replay(labels))
        env.close()
    return replays


def record_game(
    result: EvaluationResult, seat: int, info: dict[str, Any], index: int | None = None
) -> None:
    record = result.per_seat.setdefault(seat, SeatRecord())
    record.games += 1
    result.games += 1
    if index is not None:
        result.outcomes[index] = (0.0, math.nan)  # until the game shows a result
    if info.get("illegal_action"):
        result.illegal_actions += 1
        return
    if "winners" not in info:  # truncated by a step limit: the game has no result
        result.truncated += 1
        return
    winners = info["winners"]
    credit = 0.0
    if seat in winners:
        credit = 1.0 / len(winners)
        result.wins += credit
        record.wins += credit
        result.sole_wins += len(winners) == 1
        result.shared_wins += len(winners) > 1
    scores = info["scores"]
    result.score_total += scores[seat]
    margin = float(scores[seat]) - max(float(x) for k, x in enumerate(scores) if k != seat)
    result.margin_total += margin
    result.margin_squares += margin * margin
    if index is not None:
        result.outcomes[index] = (credit, margin)
    for key, value in info.items():
        if key not in BASE_INFO and isinstance(value, (bool, int, float)):
            result.detail_totals[key] = result.detail_totals.get(key, 0.0) + float(value)


def merge_results(parts: Sequence[EvaluationResult]) -> EvaluationResult:
    """One result from the results of disjoint sets of games."""
    total = EvaluationResult(parts[0].env_id, parts[0].num_players)
    for part in parts:
        for name in (
            "games",
            "wins",
            "sole_wins",
            "shared_wins",
            "illegal_actions",
            "truncated",
            "score_total",
            "margin_total",
            "margin_squares",
            "decisions",
        ):
            setattr(total, name, getattr(total, name) + getattr(part, name))
        for seat, record in part.per_seat.items():
            mine = total.per_seat.setdefault(seat, SeatRecord())
            mine.games += record.games
            mine.wins += record.wins
        for key, value in part.detail_totals.items():
            total.detail_totals[key] = total.detail_totals.get(key, 0.0) + value
        total.outcomes.update(part.outcomes)
    total.per_seat = dict(sorted(total.per_seat.items()))
    total.outcomes = dict(sorted(total.outcomes.items()))
    return total


def play_game(game, policies: Sequence[Any], seed: int, history: list | None = None) -> list[int]:
    """One game on the rules engine with a policy in every seat; returns the winners.
    ``history``, if given, gets every step as ``(seat, action)`` or ``(None, outcome)``
    (a ``jungle_envs.replay.Replay`` from ``game.new_state()``)."""
    rng = np.random.default_rng(seed)
    policy_rng = np.random.default_rng([seed, 1])
    state = game.new_state()
    while (player := game.current_player(state)) != TERMINAL:
        if player == CHANCE:
            outcome = game.sample_chance(state, rng)
            game._apply_chance(state, outcome)
            if history is not None:
                history.append((None, int(outcome)))
            continue
        mask = game.legal_mask(state)
        action = opponent_action(policies[player], game, state, player, mask, policy_rng)
        if not mask[action]:
            raise ValueError(f"the policy in seat {player} chose illegal action {action}")
        game._apply_action(state, action)
        if history is not None:
            history.append((player, int(action)))
    return game.winners(state)
