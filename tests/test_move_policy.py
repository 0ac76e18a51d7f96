"""The move-scoring policy: one network shared by every action, fed each action's move
features, whose scores are MaskablePPO's logits."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch as th
from sb3_contrib import MaskablePPO

import jungle_envs
from jungle_envs.maskable_ppo import MaskablePPOPolicy
from jungle_envs.move_policy import MovePolicy, MoveScoring, move_policy_kwargs
from jungle_envs.sb3 import CompiledVecEnv

EF = "jungle_envs/ElephantFestival-v0"


def scoring(num_moves: int, per_move: int = 3, state: int = 20, extra: int = 1) -> MoveScoring:
    size = state + num_moves * per_move
    space = gym.spaces.Box(0.0, 1.0, (size,), np.float32)
    return MoveScoring(space, state, num_moves, per_move, num_moves + extra, 32, 16)


def test_the_network_does_not_grow_with_the_number_of_moves():
    def count(net):
        return sum(p.numel() for p in net.parameters())

    assert count(scoring(10)) == count(scoring(500))


def test_permuting_the_moves_permutes_their_scores():
    th.manual_seed(0)
    net = scoring(6)
    obs = th.rand(5, 20 + 6 * 3)
    order = th.tensor([3, 0, 5, 1, 4, 2])
    moves = obs[:, 20:].reshape(5, 6, 3)
    permuted = th.cat([obs[:, :20], moves[:, order].reshape(5, -1)], dim=1)
    scores, again = net(obs)[:, 32:38], net(permuted)[:, 32:38]
    assert th.allclose(again, scores[:, order], atol=1e-6)


def test_zero_rows_score_as_the_full_move_network_would_and_gradients_reach_every_layer():
    th.manual_seed(1)
    net = scoring(8)
    obs = th.rand(6, 20 + 8 * 3)
    obs[:, 20:].reshape(6, 8, 3)[:, ::2] = 0.0  # half the moves not available
    obs[2, 20:] = 0.0  # and an observation with none (another seat decides)
    features = net(obs)
    moves = obs[:, 20:].reshape(6, 8, 3)
    embedding = net.state(obs[:, :20])
    dense = net.score(th.relu(net.from_move(moves) + net.from_state(embedding)[:, None]))
    assert th.allclose(features[:, 32:40], dense.squeeze(-1), atol=1e-6)
    features[:, 32:40].sum().backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in net.from_move.parameters())


def test_a_per_move_bias_lets_equal_rows_score_apart_and_starts_at_zero():
    space = gym.spaces.Box(0.0, 1.0, (20 + 4 * 3,), np.float32)
    th.manual_seed(2)
    net = MoveScoring(space, 20, 4, 3, 5, 32, 16, action_bias=True)
    obs = th.rand(3, 32)
    obs[:, 20:] = th.tensor([0.5, 0.2, 1.0] * 4)  # four identical moves
    scores = net(obs)[:, 32:36]
    assert th.allclose(scores, scores[:, :1].expand(-1, 4))  # equal rows, equal scores
    optimizer = th.optim.SGD(net.parameters(), lr=0.5)
    for _ in range(20):  # learn to prefer the third of the equal moves
        loss = th.nn.functional.cross_entropy(net(obs)[:, 32:36], th.full((3,), 2))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    assert (net(obs)[:, 32:36].argmax(1) == 2).all()


def test_a_moves_piece_that_does_not_fit_is_refused():
    space = gym.spaces.Box(0.0, 1.0, (30,), np.float32)
    with pytest.raises(ValueError, match="does not fit"):
        MoveScoring(space, 20, 10, 3, 11)
    with pytest.raises(ValueError, match="no 'moves' piece"):
        move_policy_kwargs(jungle_envs.make_game("ElephantFestival", 2))


def test_the_value_head_leaves_the_move_scores_alone_and_the_model_saves_and_plays(tmp_path):
    game = jungle_envs.make_game("ElephantFestival", 2, move_features=True)
    venv = CompiledVecEnv(EF, num_envs=4, num_players=2, move_features=True)
    model = MaskablePPO(MovePolicy, venv, n_steps=16, batch_size=32, n_epochs=1, device="cpu",
                        policy_kwargs=move_policy_kwargs(game), seed=0)  # fmt: skip
    policy = model.policy
    obs = th.as_tensor(venv.reset())
    policy.predict_values(obs).sum().backward()
    extractor = policy.features_extractor
    for layer in (extractor.score, extractor.from_move, extractor.other_actions):
        assert layer.weight.grad is None or not layer.weight.grad.any()
    masks = venv.action_masks()
    logits = policy.get_distribution(obs, action_masks=masks).distribution.logits
    assert logits.shape == (4, game.spec.num_actions)
    model.learn(32)
    model.save(tmp_path / "m.zip")
    loaded = MaskablePPO.load(tmp_path / "m.zip", device="cpu")
    with th.no_grad():
        a = policy.get_distribution(obs, action_masks=masks).distribution.probs
        b = loaded.policy.get_distribution(obs, action_masks=masks).distribution.probs
    assert th.allclose(a, b)
    venv.close()
    # as an opponent, by path: a whole game against it
    env = gym.make(EF, num_players=2, move_features=True, opponents=str(tmp_path / "m.zip"))
    _, info = env.reset(seed=1)
    done, rng = False, np.random.default_rng(0)
    while not done:
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        _, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert terminated and len(info["returns"]) == 2
    opponent = MaskablePPOPolicy(str(tmp_path / "m.zip"))
    assert opponent.trained_on is None and opponent.action_count == game.spec.num_actions
    env.close()


def test_a_deepened_model_plays_as_its_source_learns_and_saves_its_layers(tmp_path):
    from jungle_envs.move_policy import deepen

    game = jungle_envs.make_game("ElephantFestival", 2, move_features=True)
    venv = CompiledVecEnv(EF, num_envs=4, num_players=2, move_features=True)
    model = MaskablePPO(MovePolicy, venv, n_steps=16, batch_size=32, n_epochs=1, device="cpu",
                        policy_kwargs=move_policy_kwargs(game), seed=0)  # fmt: skip
    model.learn(32)  # weights away from their start
    obs, masks = th.as_tensor(venv.reset()), venv.action_masks()

    def probs_and_values(policy):
        with th.no_grad():
            probs = policy.get_distribution(obs, action_masks=masks).distribution.probs
            return probs, policy.predict_values(obs)

    before = probs_and_values(model.policy)
    with pytest.raises(ValueError, match="integer >= the model's 1"):
        deepen(model, 0)
    deepen(model, 3)
    assert len(model.policy.features_extractor.deeper) == 2
    after = probs_and_values(model.policy)
    assert all(th.allclose(a, b, atol=1e-6) for a, b in zip(before, after, strict=True))
    # the added blocks take gradients through their zero last layer
    logits = model.policy.get_distribution(obs, action_masks=masks).distribution.logits
    logits[th.as_tensor(masks)].sum().backward()
    block = model.policy.features_extractor.deeper[0]
    assert block[-1].weight.grad.abs().sum() > 0
    model.save(tmp_path / "deep.zip")
    loaded = MaskablePPO.load(tmp_path / "deep.zip", device="cpu")
    assert loaded.policy_kwargs["features_extractor_kwargs"]["move_layers"] == 3
    assert all(
        th.allclose(a, b, atol=1e-6)
        for a, b in zip(after, probs_and_values(loaded.policy), strict=True)
    )
    with pytest.raises(ValueError, match="integer >= the model's 3"):
        deepen(loaded, 2)
    assert deepen(loaded, 3) is loaded
    venv.close()


def test_deepening_refuses_a_flat_policy_and_bad_layer_counts():
    from jungle_envs.move_policy import deepen

    venv = CompiledVecEnv(EF, num_envs=2, num_players=2)
    model = MaskablePPO("MlpPolicy", venv, n_steps=8, batch_size=16, device="cpu", seed=0)
    with pytest.raises(ValueError, match="move-scoring policy"):
        deepen(model, 2)
    space = gym.spaces.Box(0.0, 1.0, (32,), np.float32)
    with pytest.raises(ValueError, match="move_layers must be an integer >= 1"):
        MoveScoring(space, 20, 4, 3, 5, move_layers=0)
    venv.close()
