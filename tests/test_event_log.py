"""The event log: every decision and chance outcome between two of the learner's decisions,
as the learner may know them, on both engines, at no cost to the games played."""

from __future__ import annotations

import re

import gymnasium
import numpy as np
import pytest

import jungle_envs
from jungle_envs.core.game import CHANCE
from jungle_envs.core.policies import make_policy

ENV_IDS = jungle_envs.ENV_IDS


def trajectory(env, seed: int, steps: int) -> list:
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    seen = [obs.tobytes()]
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, _ = env.step(action)
        seen.append((obs.tobytes(), reward, terminated, truncated))
        if terminated or truncated:
            obs, _ = env.reset()
            seen.append(obs.tobytes())
    return seen


@pytest.mark.parametrize("engine", ["compiled", "reference"])
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_log_changes_nothing_in_the_games_played(env_id, engine):
    """On the compiled engine the log replays each kernel step rule by rule and the engine
    checks the replay ends where the kernel did; any difference would raise here."""
    kwargs = dict(num_players=3, opponents=["heuristic", "random"], engine=engine)
    plain = trajectory(gymnasium.make(env_id, **kwargs), seed=4, steps=150)
    logged = gymnasium.make(env_id, event_log=True, **kwargs)
    assert trajectory(logged, seed=4, steps=150) == plain
    assert "events" not in gymnasium.make(env_id, **kwargs).reset(seed=0)[1]


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_tables_with_and_without_heuristic_seats_play_the_same_rules(env_id):
    """The compiled single env has two versions of its kernel, with the heuristic and (for
    tables without heuristic seats) without it; a mixture switches between them from
    episode to episode, and the log's rule-by-rule replay checks every kernel call."""
    kwargs = dict(num_players=2, opponents={"random": 1, "heuristic": 1}, engine="compiled")
    plain = gymnasium.make(env_id, **kwargs)
    seen = trajectory(plain, seed=9, steps=400)
    assert set(plain.unwrapped.engine._entries) == {False, True}  # both versions played
    assert trajectory(gymnasium.make(env_id, event_log=True, **kwargs), seed=9, steps=400) == seen


class Recording:
    """An opponent that plays like another and writes down what it chose."""

    def __init__(self, policy, seat: int, record: list) -> None:
        self.policy, self.seat, self.record = policy, seat, record

    def act(self, observation, mask, rng) -> int:
        action = self.policy.act(observation, mask, rng)
        self.record.append(("decision", self.seat, int(action)))
        return action


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_log_lists_every_decision_and_outcome_in_order(env_id):
    record: list = []
    env = gymnasium.make(env_id, num_players=3, engine="reference", agent_seat=0)
    game = env.unwrapped.game
    heuristic = make_policy("heuristic", game)
    env = gymnasium.make(
        env_id,
        num_players=3,
        engine="reference",
        agent_seat=0,
        event_log=True,
        skip_forced_actions=False,
        opponents=[None, Recording(heuristic, 1, record), Recording(heuristic, 2, record)],
    )
    game = env.unwrapped.game
    sample = game.sample_chance

    def recorded_sample(state, rng):
        outcome = sample(state, rng)
        record.append(("chance", None, game.describe_outcome(state, outcome, viewer=0)))
        return outcome

    game.sample_chance = recorded_sample
    names, rng = game.spec.action_names, np.random.default_rng(0)
    _, info = env.reset(seed=2)
    assert [(e["kind"], e["seat"]) for e in info["events"]] == [(k, s) for k, s, _ in record]
    for _ in range(40):
        record.clear()
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, _, terminated, _, info = env.step(action)
        log = info["events"]
        assert log[0] == {
            "kind": "decision",
            "seat": 0,
            "action": action,
            "text": f"seat 0 (you): {names[action]}",
        }
        expected = [
            (kind, seat, value if kind == "chance" else f"seat {seat}: {names[value]}")
            for kind, seat, value in record
        ]
        assert [(e["kind"], e["seat"], e["text"]) for e in log[1:]] == expected
        if terminated:
            break


def test_another_seats_drawn_cards_stay_face_down_in_the_log():
    for engine in ("compiled", "reference"):
        env = gymnasium.make(
            "jungle_envs/SpankTheMonkey-v0", num_players=4, event_log=True, engine=engine
        )
        _, info = env.reset(seed=1)
        learner, draws = info["agent_seat"], []
        rng = np.random.default_rng(1)
        for _ in range(60):
            for event in info["events"]:
                found = re.fullmatch(r"seat (\d) drew (.+)", event["text"])
                if found:
                    draws.append((int(found[1]) == learner, found[2]))
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                _, info = env.reset()
                learner = info["agent_seat"]
        assert {card for mine, card in draws if not mine} == {"a card"}
        assert any(mine and card != "a card" for mine, card in draws)


def test_the_log_shows_in_the_text_rendering_and_takes_only_booleans():
    env = gymnasium.make("jungle_envs/TropicRace-v0", event_log=True, render_mode="ansi")
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    text = env.render()
    assert "since your last decision:" in text and "(you):" in text
    for value in ("yes", 1, None):
        with pytest.raises(ValueError, match="event_log must be True or False"):
            gymnasium.make("jungle_envs/TropicRace-v0", event_log=value)


def test_chance_is_named_for_every_outcome_of_every_game():
    """describe_outcome names each outcome of every pending chance event (no fallback to
    the raw number), and says the same for every viewer in a game without secrets."""
    for env_id in ENV_IDS:
        game = gymnasium.make(env_id, num_players=4).unwrapped.game
        state, rng = game.new_state(), np.random.default_rng(0)
        for _ in range(300):
            if game.current_player(state) == CHANCE:
                event = game.chance_event(state)
                for outcome in event.outcomes:
                    text = game.describe_outcome(state, outcome, viewer=0)
                    assert text and not text.startswith(event.name)
                game.apply_chance(state, game.sample_chance(state, rng))
            elif not game.is_terminal(state):
                actions = game.legal_actions(state)
                game.apply_action(state, actions[rng.integers(len(actions))])
