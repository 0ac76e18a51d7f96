"""Self-play at kernel speed (``training.allseat``): lanes, the trainer and its command."""

from __future__ import annotations

import argparse
import json

import gymnasium as gym
import numpy as np
import pytest
import torch as th

pytest.importorskip("sb3_contrib")

import jungle_envs
from training import allseat
from training.lanes import LaneBuffer


def decide(lanes, env, seat, value, action=0):
    obs = np.full((1, 3), float(seat), dtype=np.float32)
    mask = np.ones((1, 2), dtype=bool)
    lanes.decide(np.array([env]), np.array([seat]), obs, mask, np.array([action]),
                 np.array([value]), np.array([-0.7]))  # fmt: skip


def test_a_seats_decisions_chain_along_its_lane_and_end_with_its_game():
    lanes = LaneBuffer(num_envs=1, num_players=2, obs_size=3, num_actions=2, capacity=16)
    decide(lanes, 0, 0, 0.5)  # decision 0: seat 0
    decide(lanes, 0, 1, 0.2)  # decision 1: seat 1
    decide(lanes, 0, 0, 0.6)  # decision 2: seat 0 again, which closes decision 0
    lanes.earn(np.array([[1.0, -1.0]]), np.array([0, 1]))  # the game's last step pays
    lanes.end_games(np.array([0]))
    order, advantages = lanes.advantages(gamma=1.0, lam=0.5)
    assert order.tolist() == [0, 2, 1]  # in the order they closed
    assert lanes.successor[0] == 2 and lanes.next_values[0] == pytest.approx(0.6)
    assert lanes.final[[1, 2]].all() and not lanes.final[0]
    expected = {2: 1.0 - 0.6, 1: -1.0 - 0.2}
    expected[0] = 0.0 + 0.6 - 0.5 + 0.5 * expected[2]  # GAE along seat 0's lane
    assert advantages.tolist() == pytest.approx([expected[0], expected[2], expected[1]])
    assert (lanes.open == -1).all()


def test_an_open_decision_and_its_reward_carry_into_the_next_rollout():
    lanes = LaneBuffer(num_envs=2, num_players=2, obs_size=3, num_actions=2, capacity=16)
    decide(lanes, 0, 0, 0.1)
    decide(lanes, 1, 1, 0.3, action=1)
    lanes.earn(np.array([[0.25, 0.0], [0.0, 0.5]]), np.array([0, 1]))
    order, _ = lanes.advantages(gamma=1.0, lam=0.95)
    assert len(order) == 0  # nothing closed yet: nothing to learn from
    carried = lanes.carried()
    assert carried.size == 2 and carried.num_closed == 0
    at = carried.open[1, 1]
    assert carried.actions[at] == 1 and carried.rewards[at] == 0.5 and carried.values[at] == 0.3
    decide(carried, 1, 1, 0.4)  # the next rollout: the seat decides again
    order, advantages = carried.advantages(gamma=1.0, lam=0.95)
    assert order.tolist() == [at] and advantages[0] == pytest.approx(0.5 + 0.4 - 0.3)


def small_model(game="TropicRace", players=2):
    args = argparse.Namespace(game=game, players=players, init=None, option=[],
                              learning_rate=1e-4, ent_coef=0.0, batch_size=64, epochs=1,
                              threads=1, seed=0, vf_coef=None)  # fmt: skip
    return allseat.build_model(args, f"jungle_envs/{game}-v0", {})


def test_every_learner_decision_is_legal_and_a_finished_lane_is_paid_its_seats_return():
    model = small_model()
    trainer = allseat.AllSeatTrainer(model, "TropicRace", 2, ["learner", "learner"], {},
                                     num_envs=8, rollout=600, seed=3)  # fmt: skip
    trainer.collect()
    lanes = trainer.lanes
    order, advantages = lanes.advantages(model.gamma, model.gae_lambda)
    assert len(order) >= 600 and np.isfinite(advantages).all()
    assert lanes.masks[order, lanes.actions[order]].all()  # every action was legal
    assert trainer.games > 0
    finals = order[lanes.final[order]]
    assert len(finals) == 2 * trainer.games  # both seats' lanes end with each game
    assert set(lanes.rewards[finals].tolist()) <= {-1.0, 0.0, 1.0}  # the win reward
    assert sorted(lanes.rewards[finals].tolist()) == sorted(trainer.final_returns)
    middle = order[~lanes.final[order]]
    assert (lanes.rewards[middle] == 0.0).all()  # the win reward pays only at the end
    assert np.isin(lanes.successor[middle], np.arange(lanes.size)).all()


def test_built_in_and_snapshot_seats_never_reach_the_lanes():
    model = small_model(players=4)
    seats = ["learner", "snapshot", "heuristic", "random"]
    trainer = allseat.AllSeatTrainer(model, "TropicRace", 4, seats, {}, num_envs=8,
                                     rollout=300, seed=5)  # fmt: skip
    trainer.collect()
    used = np.flatnonzero((trainer.lanes.open >= 0).any(axis=0))
    assert used.tolist() == [0]  # only seat 0's lanes were opened
    assert trainer.update()["n_updates"] >= 1


@pytest.mark.parametrize("snapshot_every,pool", [(1, 3), (0, 1)])
def test_snapshots_join_the_pool_unless_the_starting_model_is_kept(snapshot_every, pool):
    model = small_model()
    trainer = allseat.AllSeatTrainer(model, "TropicRace", 2, ["learner", "snapshot"], {},
                                     num_envs=8, rollout=200, seed=2,
                                     snapshot_every=snapshot_every)  # fmt: skip
    start = {k: v.clone() for k, v in model.policy.state_dict().items()}
    for _ in range(2):
        trainer.collect()
        trainer.update()
    assert len(trainer.pool) == pool
    kept = trainer.pool[0].state_dict()  # the first snapshot is the starting model
    assert all(np.array_equal(kept[k].numpy(), start[k].numpy()) for k in start)
    moved = model.policy.state_dict()
    assert any(not np.array_equal(moved[k].numpy(), start[k].numpy()) for k in start)


@pytest.mark.parametrize("greedy", [False, True])
def test_greedy_snapshots_play_their_likeliest_legal_move(greedy):
    import torch

    torch.manual_seed(0)  # the sampling snapshots' draws
    model = small_model(players=4)
    seats = ["learner", "snapshot", "snapshot", "snapshot"]
    trainer = allseat.AllSeatTrainer(model, "TropicRace", 4, seats, {}, num_envs=8,
                                     rollout=200, seed=4, greedy_snapshots=greedy)  # fmt: skip
    snapshot, plays = trainer.pool[0], []

    def recorded(obs, deterministic=False, action_masks=None):
        actions, values, log_probs = snapshot.forward(
            obs, deterministic=deterministic, action_masks=action_masks
        )
        plays.append((obs, action_masks, actions.numpy()))
        return actions, values, log_probs

    trainer.pool = [recorded]
    trainer.collect()
    assert plays

    def likeliest(obs, masks):
        return snapshot.predict(obs.numpy(), deterministic=True, action_masks=masks)[0]

    greedy_plays = [np.array_equal(a, likeliest(obs, masks)) for obs, masks, a in plays]
    assert all(greedy_plays) == greedy
    assert all(masks[np.arange(len(a)), a].all() for _, masks, a in plays)


def test_bad_pool_settings_are_refused(tmp_path):
    with pytest.raises(ValueError, match="snapshot_every at least 0"):
        allseat.AllSeatTrainer(small_model(), "TropicRace", 2, ["learner", "snapshot"], {},
                               num_envs=8, rollout=200, snapshot_every=-1)  # fmt: skip
    with pytest.raises(SystemExit):
        allseat.main(["--game", "TropicRace", "--players", "2", "--out", str(tmp_path / "x"),
                      "--seats", "learner,snapshot", "--pool-size", "0"])  # fmt: skip
    assert not (tmp_path / "x").exists()


def test_the_command_trains_and_saves_a_model_that_plays_as_an_opponent(tmp_path, capsys):
    out = tmp_path / "run"
    path = allseat.main(["--game", "TropicRace", "--players", "2", "--out", str(out),
                         "--seats", "learner,snapshot", "--steps", "600", "--num-envs", "8",
                         "--rollout", "300", "--batch-size", "64", "--snapshot-every", "1",
                         "--checkpoint-every", "1"])  # fmt: skip
    assert path.exists() and list((out / "checkpoints").glob("model-*.zip"))
    assert "saved" in capsys.readouterr().out
    assert "selfplay/steps_per_s" in (out / "progress.csv").read_text()
    env = gym.make("jungle_envs/TropicRace-v0", num_players=2, opponents=str(path))
    _, info = env.reset(seed=1)
    for _ in range(2000):  # a whole game against the saved model
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    assert terminated and reward in (-1.0, 0.0, 1.0)
    # the run ships as the game's agent, with the self-play settings in its record
    from sb3_contrib import MaskablePPO

    from training import ship

    dest = tmp_path / "agents"
    dest.mkdir()
    with pytest.raises(SystemExit):  # --select picks among training.train checkpoints only
        ship.main([str(out), "--select", "2", "--dest", str(dest)])
    shipped = ship.main([str(out), "--dest", str(dest)])
    record = json.loads((dest / "manifest.json").read_text())["TropicRace-2p"]
    assert shipped == dest / "TropicRace-2p.zip" and record["file"] == shipped.name
    assert record["timesteps"] == MaskablePPO.load(path, device="cpu").num_timesteps >= 600
    assert record["training"]["recipe"] == "training.allseat"
    assert record["training"]["seats"] == ["learner", "snapshot"]
    assert record["wall_seconds"] >= 0 and record["continued_from"] is None
    # a second stage from the first run's model ships with the first stage's record inside
    again = tmp_path / "run2"
    allseat.main(["--game", "TropicRace", "--players", "2", "--out", str(again),
                  "--seats", "learner,snapshot", "--steps", "300", "--num-envs", "8",
                  "--rollout", "300", "--batch-size", "64", "--init", str(path)])  # fmt: skip
    ship.main([str(again), "--dest", str(dest)])
    second = json.loads((dest / "manifest.json").read_text())["TropicRace-2p"]
    assert second["continued_from"]["model"] == str(path)
    assert second["continued_from"]["record"]["source"] == str(path)


@pytest.mark.parametrize(
    "text,message",
    [("learner,pilot", "--seats needs 2"), ("snapshot", "at least one learner"),
     ("learner,learner,learner", "--seats needs 2")],
)  # fmt: skip
def test_bad_seat_lists_are_refused(text, message):
    with pytest.raises(ValueError, match=message):
        allseat.parse_seats(text, 2)


@pytest.mark.parametrize("game", ["ElephantFestival", "TropicRace"])
def test_sharpened_logits_keep_the_likeliest_move_and_scale_its_lead(game):
    from sb3_contrib import MaskablePPO

    from jungle_envs.move_policy import MovePolicy, move_policy_kwargs
    from training.common import sharpen_logits

    if game == "ElephantFestival":  # the move-scoring network
        env = gym.make(f"jungle_envs/{game}-v0", num_players=2, move_features=True)
        kwargs = move_policy_kwargs(jungle_envs.make_game(game, 2, move_features=True))
        model = MaskablePPO(MovePolicy, env, device="cpu", seed=0, policy_kwargs=kwargs)
    else:  # SB3's MLP and its action net
        model = small_model(game)
        env = gym.make(f"jungle_envs/{game}-v0", num_players=2)
    with th.no_grad():  # a policy that is not near-uniform, as a trained one is not
        for parameter in model.policy.parameters():
            parameter.add_(th.randn_like(parameter) * 0.3)
    obs, info = env.reset(seed=5)
    tensor = th.as_tensor(obs[None])
    legal = info["action_mask"].astype(bool)
    mask = legal[None]

    def logits():
        with th.no_grad():
            dist = model.policy.get_distribution(tensor, action_masks=mask).distribution
        return dist.logits[0].numpy()[legal]

    before = logits()
    sharpen_logits(model, 4.0)
    after = logits()
    assert after.argmax() == before.argmax()
    lead_before, lead_after = before.max() - before, after.max() - after
    assert lead_after == pytest.approx(4.0 * lead_before, rel=1e-4, abs=1e-4)
    assert np.ptp(before) > 0.1  # the check above compares spread logits, not equal ones
    with pytest.raises(ValueError, match="positive"):
        sharpen_logits(model, 0.0)


def test_sharpen_needs_a_starting_model_and_a_positive_factor(tmp_path):
    for extra in (["--sharpen", "4"], ["--init", "m.zip", "--sharpen", "-1"]):
        with pytest.raises(SystemExit):
            allseat.main(["--game", "TropicRace", "--players", "2", "--out",
                          str(tmp_path / "x"), *extra])  # fmt: skip
    assert not (tmp_path / "x").exists()


def test_the_sharpen_command_saves_a_copy_with_the_same_likeliest_moves(tmp_path, capsys):
    from sb3_contrib import MaskablePPO

    from training import sharpen
    from training.common import mark_trained_on

    model = small_model()
    mark_trained_on(model, "jungle_envs/TropicRace-v0", 2, {})
    model.save(tmp_path / "m.zip")
    out = sharpen.main([str(tmp_path / "m.zip"), str(tmp_path / "s.zip"), "--factor", "8"])
    copy = MaskablePPO.load(out, device="cpu")
    assert copy.trained_on == model.trained_on
    env = gym.make("jungle_envs/TropicRace-v0", num_players=2)
    obs, info = env.reset(seed=2)
    legal = info["action_mask"].astype(bool)
    tensor, mask = th.as_tensor(obs[None]), legal[None]
    with th.no_grad():
        a, b = (m.policy.get_distribution(tensor, action_masks=mask).distribution.logits[0]
                .numpy()[legal] for m in (model, copy))  # fmt: skip
    assert b.argmax() == a.argmax()
    assert b.max() - b == pytest.approx(8.0 * (a.max() - a), rel=1e-4, abs=1e-4)
    (tmp_path / "bad.zip").write_text("not a model")
    for argv in ([str(tmp_path / "none.zip"), str(tmp_path / "t.zip"), "--factor", "2"],
                 [str(tmp_path / "bad.zip"), str(tmp_path / "t.zip"), "--factor", "2"],
                 [str(tmp_path / "m.zip"), str(tmp_path / "t.zip"), "--factor", "0"]):  # fmt: skip
        with pytest.raises(SystemExit):
            sharpen.main(argv)
    assert not (tmp_path / "t.zip").exists()


def test_vf_coef_sets_the_value_weight_of_a_new_or_continued_model(tmp_path):
    out = tmp_path / "run"
    common = ["--game", "TropicRace", "--players", "2", "--seats", "learner,snapshot",
              "--steps", "200", "--num-envs", "8", "--rollout", "200",
              "--batch-size", "64"]  # fmt: skip
    path = allseat.main([*common, "--out", str(out), "--vf-coef", "0.01"])
    from sb3_contrib import MaskablePPO

    assert MaskablePPO.load(path, device="cpu").vf_coef == pytest.approx(0.01)
    # a continued model keeps its own weight unless the run names one
    kept = allseat.main([*common, "--out", str(tmp_path / "kept"), "--init", str(path)])
    assert MaskablePPO.load(kept, device="cpu").vf_coef == pytest.approx(0.01)
    again = allseat.main([*common, "--out", str(tmp_path / "again"), "--init", str(path),
                          "--vf-coef", "0.3"])  # fmt: skip
    assert MaskablePPO.load(again, device="cpu").vf_coef == pytest.approx(0.3)
    with pytest.raises(SystemExit):
        allseat.main([*common, "--out", str(tmp_path / "x"), "--vf-coef", "-1"])
    assert not (tmp_path / "x").exists()
