"""What the generic env promises beyond Gymnasium's checker, on every registered env."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import jungle_envs
from jungle_envs.core.game import CHANCE, TERMINAL
from jungle_envs.core.random_play import random_step

# Every behaviour here holds on both engines (see conftest.each_engine).
pytestmark = pytest.mark.usefixtures("each_engine")

ENV_IDS = [pytest.param(env_id, id=env_id.split("/")[1]) for env_id in jungle_envs.ENV_IDS]


def play(env, seed, rng=None):
    """One masked-random episode; returns the rewards and the final info."""
    rng = rng or np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    rewards, done = [], False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        done = terminated or truncated
    return rewards, info


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_make_returns_the_env_with_its_step_limit_and_action_masks(env_id):
    env = gym.make(env_id)
    assert env.unwrapped is env  # no wrapper hides action_masks()
    assert env.step_limit == env.game.spec.max_decisions
    _, info = env.reset(seed=0)
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"].astype(bool))
    assert env.get_wrapper_attr("action_masks")().dtype == bool


@pytest.mark.parametrize("engine", ["compiled", "reference"])
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_step_limit_truncates_the_episode_and_then_needs_a_reset(env_id, engine):
    env = gym.make(env_id, num_players=4, step_limit=2, engine=engine, skip_forced_actions=False)
    _, info = env.reset(seed=3)
    flags = []
    for _ in range(2):
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        flags.append((terminated, truncated))
    assert flags == [(False, False), (False, True)]
    assert "scores" not in info  # the game did not end, only the episode
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset()
    with pytest.raises(ValueError, match="step_limit"):
        gym.make(env_id, step_limit=0)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_dict_observation_mode_carries_the_mask(env_id):
    env = gym.make(env_id, observation_mode="dict")
    check_env(env.unwrapped)
    obs, info = env.reset(seed=1)
    assert set(obs) == {"observation", "action_mask"}
    assert env.observation_space.contains(obs)
    np.testing.assert_array_equal(obs["action_mask"], info["action_mask"])


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_learner_sees_its_own_seat_and_decides_after_every_step(env_id):
    env = gym.make(env_id, num_players=3, agent_seat=2)
    base = env.unwrapped
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    done = False
    while not done:
        assert info["agent_seat"] == 2
        assert base.game.current_player(base.state) == 2
        np.testing.assert_array_equal(obs, base.game.observe(base.state, 2))
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, _, done, _, info = env.step(action)
    assert base.game.current_player(base.state) == TERMINAL


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_random_agent_seat_visits_every_seat(env_id):
    env = gym.make(env_id, num_players=4)
    seats = {env.reset(seed=s)[1]["agent_seat"] for s in range(40)}
    assert seats == {0, 1, 2, 3}


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_win_reward_arrives_once_at_the_end_even_when_opponents_finish(env_id):
    env = gym.make(env_id, num_players=4)
    for seed in range(30):
        rewards, info = play(env, seed)
        assert all(r == 0.0 for r in rewards[:-1])
        assert rewards[-1] == info["returns"][info["agent_seat"]]
        assert rewards[-1] in (-1.0, 0.0, 1.0)
        winners = info["winners"]
        expected = (
            1.0
            if winners == [info["agent_seat"]]
            else (0.0 if info["agent_seat"] in winners or not winners else -1.0)
        )
        assert rewards[-1] == expected


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_score_reward_adds_up_to_the_score_gained(env_id):
    env = gym.make(env_id, num_players=4, reward="score")
    base = env.unwrapped
    for seed in range(20):
        env.reset(seed=seed)
        start = base.game.scores(base.state)[base.agent_seat]  # what reset already counted
        rewards, info = play(env, seed)
        assert sum(rewards) == pytest.approx(info["scores"][info["agent_seat"]] - start)


def margin(scores, seat):
    return scores[seat] - max(x for other, x in enumerate(scores) if other != seat)


@pytest.mark.parametrize("engine", ["compiled", "reference"])
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_margin_reward_adds_up_to_the_final_margin_over_the_best_opponent(env_id, engine):
    env = gym.make(env_id, num_players=3, reward="margin", engine=engine, opponents="heuristic")
    score_env = gym.make(
        env_id, num_players=3, reward="score", engine=engine, opponents="heuristic"
    )
    base = env.unwrapped
    for seed in range(12):
        env.reset(seed=seed)
        start = margin(base.game.scores(base.state), base.agent_seat)
        rewards, info = play(env, seed)
        assert sum(rewards) == pytest.approx(margin(info["scores"], info["agent_seat"]) - start)
        score_rewards, score_info = play(score_env, seed)
        assert score_info["scores"] == info["scores"]  # the reward does not change the game
        if len(set(info["scores"])) > 1 and rewards != score_rewards:
            return  # the two rewards differ where others score
    pytest.fail("the margin reward paid the same as the score reward in every game")


def rank_reward(game, info) -> float:
    """The win return and the place among the final scores, half each (worked by hand)."""
    seat, scores, winners = info["agent_seat"], info["scores"], info["winners"]
    won = game.returns_of(winners)[seat]
    above = sum(scores[seat] > x for x in scores)
    below = sum(scores[seat] < x for x in scores)
    return (won + (above - below) / (len(scores) - 1)) / 2


@pytest.mark.parametrize("engine", ["compiled", "reference"])
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_rank_reward_pays_the_win_and_the_place_at_the_end_only(env_id, engine):
    env = gym.make(env_id, num_players=4, reward="rank", engine=engine, opponents="random")
    win_env = gym.make(env_id, num_players=4, engine=engine, opponents="random")
    seen = set()
    for seed in range(16):
        rewards, info = play(env, seed)
        assert all(r == 0.0 for r in rewards[:-1])
        assert rewards[-1] == pytest.approx(rank_reward(env.unwrapped.game, info))
        _, win_info = play(win_env, seed)
        assert win_info["scores"] == info["scores"]  # the reward does not change the game
        seen.add(rewards[-1])
    assert len(seen) > 2  # places, not only win or loss


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_final_info_holds_scores_and_winners(env_id):
    env = gym.make(env_id, num_players=3)
    _, info = play(env, 5)
    assert len(info["scores"]) == 3 and set(info["winners"]) <= {0, 1, 2}
    assert info["returns"] == jungle_envs.make_game(env_id, 3).returns(env.unwrapped.state)


# Games whose learner meets decisions with a single legal action (the last die in Jungle
# Sweep, one possible move in Tropic Race, one target in Spank the Monkey). In Elephant
# Festival a pass or a second placement is always there.
FORCED = [p for p in ENV_IDS if "ElephantFestival" not in p.values[0]]


def test_every_game_is_listed_for_forced_decisions_or_explained():
    assert {p.values[0] for p in ENV_IDS} - {p.values[0] for p in FORCED} == {
        "jungle_envs/ElephantFestival-v0"
    }


@pytest.mark.parametrize("env_id", FORCED)
def test_forced_actions_are_played_for_the_learner_unless_asked_not_to(env_id):
    def single_choice_seen(skip):
        env = gym.make(env_id, num_players=4, skip_forced_actions=skip)
        seen = False
        rng = np.random.default_rng(0)
        for seed in range(10):
            _, info = env.reset(seed=seed)
            done = False
            while not done:
                seen |= int(info["action_mask"].sum()) == 1
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
                _, _, done, _, info = env.step(action)
        return seen

    assert not single_choice_seen(True)
    assert single_choice_seen(False)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_ansi_render_is_text_and_human_render_prints(env_id, capsys):
    env = gym.make(env_id, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and len(text.splitlines()) > 3
    human = gym.make(env_id, render_mode="human")
    human.reset(seed=0)  # prints, as Gymnasium's human mode does at every reset and step
    assert capsys.readouterr().out.strip() == text.strip()
    assert human.render() is None
    assert capsys.readouterr().out.strip() == text.strip()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_engine_chance_events_are_proper_distributions(env_id):
    game = jungle_envs.make_game(env_id)
    state = game.new_state()
    rng = np.random.default_rng(0)
    for _ in range(2000):
        player = game.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            event = game.chance_event(state)
            assert sum(event.probabilities) == pytest.approx(1.0)
            assert all(p > 0 for p in event.probabilities)
            game.apply_chance(state, event.sample(rng))
        else:
            game.apply_action(state, game.legal_actions(state)[0])


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_vector_envs_reach_the_masks(env_id):
    envs = gym.make_vec(env_id, num_envs=2, vectorization_mode="sync")
    _, info = envs.reset(seed=0)
    for _ in range(20):
        masks = np.array(envs.call("action_masks"))
        np.testing.assert_array_equal(masks, info["action_mask"].astype(bool))
        actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
        _, _, _, _, info = envs.step(actions)
    envs.close()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_final_info_is_the_games_results_however_a_game_computes_it(env_id):
    game = jungle_envs.make_game(env_id, 3)
    rng = np.random.default_rng(4)
    state = game.new_state()
    for finished in (False, True):
        while (finished or rng.random() < 0.98) and random_step(game, state, rng) != TERMINAL:
            pass
        expected = {
            "scores": game.scores(state),
            "winners": game.winners(state),
            "returns": game.returns(state),
            **game.final_details(state),
        }
        assert game.final_info(state) == expected
