"""Search distillation (training.distill): the search's visit shares are the targets, the
model learns them on the states it reaches, and the result is a model PPO and play take."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from jungle_envs.maskable_ppo import MaskablePPOPolicy
from jungle_envs.sb3 import CompiledVecEnv
from training import distill, imitate
from training.common import new_model

ENV = "jungle_envs/TropicRace-v0"


@pytest.fixture(scope="module")
def small_model(tmp_path_factory):
    """An imitation model with a small network (TropicRace, 2 players)."""
    out = tmp_path_factory.mktemp("imitated")
    return imitate.main(["--env", ENV, "--players", "2", "--rounds", "1", "--steps", "256",
                         "--epochs", "1", "--n-envs", "8", "--out", str(out),
                         "--set", "ppo.net_arch=[32,32]"])  # fmt: skip


def test_fitting_visit_shares_moves_the_policy_to_them_and_keeps_illegal_moves_out():
    venv = CompiledVecEnv(ENV, num_envs=8, seed=5, num_players=2, opponents="heuristic")
    model = new_model(venv, seed=0, policy_kwargs={"net_arch": [32, 32]}, n_steps=64,
                      batch_size=64)  # fmt: skip
    obs, masks = [], []
    current = venv.reset()
    for _ in range(32):
        m = venv.action_masks()
        obs.append(current)
        masks.append(m)
        current, *_ = venv.step(np.array([np.flatnonzero(row)[0] for row in m]))
    obs, masks = np.concatenate(obs), np.concatenate(masks)
    # the target: the last legal move of every state, with a tenth of the mass on the first
    visits = np.zeros(masks.shape)
    last = np.array([np.flatnonzero(row)[-1] for row in masks])
    first = np.array([np.flatnonzero(row)[0] for row in masks])
    visits[np.arange(len(obs)), first] += 0.1
    visits[np.arange(len(obs)), last] += 0.9
    data = {"obs": obs, "masks": masks, "visits": visits, "returns": np.ones(len(obs))}
    choices = masks.sum(1) > 1
    before = distill.agreement(model, data)
    distill.fit(model, data, epochs=30, batch_size=64, lr=3e-3, seed=0)
    after = distill.agreement(model, data)
    assert after > before + 0.2 and after > 0.8, (before, after)
    import torch

    with torch.no_grad():
        log_probs, values = distill.policy_outputs(model.policy, torch.as_tensor(obs), masks)
    probs = log_probs.exp().numpy()
    assert np.allclose(probs.sum(1), 1.0, atol=1e-5) and (probs[~masks] < 1e-6).all()
    assert (probs[np.arange(len(obs)), last][choices] > 0.5).mean() > 0.8
    assert abs(float(values.mean()) - 1.0) < 0.5  # the value head learns the returns
    venv.close()


def test_move_targets_are_the_shares_or_the_top_move_and_weak_decisions_drop_out():
    visits = np.array([[0.5, 0.3, 0.2, 0.0], [0.0, 0.9, 0.1, 0.0], [0.25, 0.25, 0.2, 0.3]])
    shares, weights = distill.move_targets(visits, "visits", 0.0)
    assert np.allclose(shares, visits) and weights.tolist() == [1, 1, 1]
    best, weights = distill.move_targets(visits, "best", 0.5)
    assert best.tolist() == [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1]]
    assert weights.tolist() == [1, 1, 0]  # 0.3 is under the share asked for


def test_decisions_where_the_rollouts_overruled_the_heuristic_count_more():
    visits = np.eye(3)
    overruled = np.array([False, True, False])
    _, weights = distill.move_targets(visits, "best", 0.0, overruled, 4.0)
    assert weights.tolist() == [1, 4, 1]
    part = {"obs": np.arange(3), "overruled": overruled}
    assert distill.overruled_only(part)["obs"].tolist() == [1]
    assert distill.overruled_only({"obs": np.arange(3)}) is None  # search data has none
    # older data without the column still merges with new data (on the common columns)
    merged = distill.merge([{"obs": np.arange(2)}, part])
    assert set(merged) == {"obs"} and merged["obs"].tolist() == [0, 1, 0, 1, 2]


def test_distill_learns_from_the_rollout_improved_heuristic(tmp_path, small_model):
    out = tmp_path / "rollout"
    distill.main(["--env", ENV, "--init", str(small_model), "--teacher", "rollout:4:z=0",
                  "--games", "2", "--epochs", "1", "--workers", "1", "--target", "best",
                  "--overruled-weight", "3", "--out", str(out)])  # fmt: skip
    record = json.loads((out / "distill.json").read_text())
    data = dict(np.load(out / "round-0.npz"))
    assert record["settings"]["overruled_weight"] == 3.0
    # the teacher's one move is the target; z = 0 overrules the heuristic now and then
    assert (data["visits"].sum(1) == 1).all() and set(np.unique(data["visits"])) == {0, 1}
    assert record["rounds"][0]["overruled"] == int(data["overruled"].sum()) > 0
    assert "agreement_overruled_after" in record["rounds"][0]


def test_a_left_out_decision_does_not_move_the_policy():
    venv = CompiledVecEnv(ENV, num_envs=4, seed=3, num_players=2, opponents="heuristic")
    obs, masks = venv.reset(), venv.action_masks()
    visits = masks / masks.sum(1, keepdims=True)  # flat: no move has 0.9 of the visits
    data = {"obs": obs, "masks": masks, "visits": visits, "returns": np.zeros(len(obs))}
    import torch

    moved = []
    for min_share in (0.9, 0.0):
        model = new_model(venv, seed=0, policy_kwargs={"net_arch": [16]}, n_steps=32,
                          batch_size=32)  # fmt: skip
        with torch.no_grad():
            before, _ = distill.policy_outputs(model.policy, torch.as_tensor(obs), masks)
        distill.fit(model, data, epochs=5, batch_size=4, lr=1e-2, seed=0, target="best",
                    min_share=min_share)  # fmt: skip
        with torch.no_grad():
            after, _ = distill.policy_outputs(model.policy, torch.as_tensor(obs), masks)
        moved.append(not torch.allclose(before, after))
    # left out, the policy's network (apart from the value's) is not touched; kept, it is
    assert moved == [False, True]
    venv.close()


def test_a_deepened_student_starts_as_its_init_and_keeps_its_layers(tmp_path):
    init = imitate.main(["--env", ENV, "--players", "2", "--rounds", "1", "--steps", "256",
                         "--epochs", "1", "--n-envs", "8", "--out", str(tmp_path / "imitated"),
                         "--set", "policy=moves", "--set", "env_options.move_features=true",
                         "--set", "ppo.net_arch=[32,32]"])  # fmt: skip
    out = tmp_path / "deep"
    model = distill.main(["--env", ENV, "--init", str(init), "--teacher", "mcts:20",
                          "--games", "2", "--epochs", "1", "--workers", "1",
                          "--move-layers", "2", "--opponents", "random",
                          "--out", str(out)])  # fmt: skip
    record = json.loads((out / "distill.json").read_text())
    assert record["settings"]["move_layers"] == 2
    assert record["settings"]["opponents"] == "random"
    student = MaskablePPOPolicy(str(model))
    assert len(student.model.policy.features_extractor.deeper) == 1
    # before its first fit the deepened student picked the moves its init picks
    data = dict(np.load(out / "round-0.npz"))
    first = MaskablePPOPolicy(str(init))
    assert record["rounds"][0]["agreement_before"] == round(distill.agreement(first.model, data), 4)


def test_a_model_plays_the_other_seats_when_named_and_the_games_repeat(tmp_path, small_model):
    def run(name, opponents):
        out = tmp_path / name
        distill.main(["--env", ENV, "--init", str(small_model), "--teacher", "mcts:10",
                      "--games", "3", "--epochs", "1", "--workers", "1", "--opponents",
                      opponents, "--seed", "4", "--out", str(out)])  # fmt: skip
        record = json.loads((out / "distill.json").read_text())
        return record["settings"]["opponents"], dict(np.load(out / "round-0.npz"))

    named, by_model = run("model", str(small_model))
    _, again = run("model-again", str(small_model))
    _, by_random = run("random", "random")
    assert named == str(small_model)
    for key in ("obs", "masks", "visits", "returns"):  # same seed, same opponents: same games
        assert np.array_equal(by_model[key], again[key]), key
    # the same seeds against random players are other games: the model did play the seats
    assert len(by_model["obs"]) != len(by_random["obs"]) or not np.array_equal(
        by_model["obs"], by_random["obs"])  # fmt: skip


def test_a_refit_fits_a_deepened_init_on_every_rounds_data(tmp_path):
    import torch

    init = imitate.main(["--env", ENV, "--players", "2", "--rounds", "1", "--steps", "256",
                         "--epochs", "1", "--n-envs", "8", "--out", str(tmp_path / "imitated"),
                         "--set", "policy=moves", "--set", "env_options.move_features=true",
                         "--set", "ppo.net_arch=[32,32]"])  # fmt: skip
    runs = []
    for name in ("a", "b"):
        out = tmp_path / name
        model = distill.main(["--env", ENV, "--init", str(init), "--teacher", "mcts:20",
                              "--games", "2", "--rounds", "2", "--epochs", "1",
                              "--workers", "1", "--refit-layers", "3", "--opponents",
                              "random", "--out", str(out)])  # fmt: skip
        runs.append((out, model))
    (out, model), (_again, model_again) = runs
    record = json.loads((out / "distill.json").read_text())
    assert record["settings"]["refit_layers"] == 3
    refit = record["rounds"][-1]
    assert refit["round"] == "refit" and refit["move_layers"] == 3
    data = distill.merge([dict(np.load(out / f"round-{r}.npz")) for r in range(2)])
    assert refit["all_decisions"] == len(data["obs"])
    # the rounds' students keep the init's one layer; the result has three, and its fit
    # started from the init itself, not from the last round's student
    assert len(MaskablePPOPolicy(str(out / "round-1.zip")).model.policy.features_extractor
               .deeper) == 0  # fmt: skip
    result = MaskablePPOPolicy(str(model)).model
    assert len(result.policy.features_extractor.deeper) == 2
    first = MaskablePPOPolicy(str(init)).model
    assert refit["agreement_before"] == round(distill.agreement(first, data), 4)
    # the same settings repeat the same weights (the added blocks are seeded)
    repeated = MaskablePPOPolicy(str(model_again)).model.policy.state_dict()
    for key, value in result.policy.state_dict().items():
        assert torch.equal(value, repeated[key]), key


def test_distill_collects_search_targets_and_saves_a_model_that_plays(tmp_path, small_model):
    out = tmp_path / "distilled"
    model = distill.main(["--env", ENV, "--init", str(small_model), "--teacher", "mcts:20",
                          "--games", "3", "--rounds", "2", "--epochs", "1", "--workers", "1",
                          "--out", str(out)])  # fmt: skip
    record = json.loads((out / "distill.json").read_text())
    assert [r["round"] for r in record["rounds"]] == [0, 1]
    assert record["rounds"][1]["all_decisions"] > record["rounds"][0]["decisions"] > 0
    data = dict(np.load(out / "round-0.npz"))
    masks = data["masks"].astype(bool)
    assert np.allclose(data["visits"].sum(1), 1.0)  # shares of the root's visits
    assert (data["visits"][~masks] == 0).all()  # only legal moves are searched
    assert set(np.unique(data["returns"])) <= {-1.0, 0.0, 1.0}  # win reward, gamma 1
    policy = MaskablePPOPolicy(str(model))
    assert policy.trained_on["env"] == ENV and policy.trained_on["num_players"] == 2
    # the same seeds give the same data, whatever the number of workers
    config, players = distill.run_config(ENV, small_model)
    again = distill.search_data(config, players, small_model, "mcts:20", 3, 0.5, 2, 0, 0)
    assert np.array_equal(again["visits"], data["visits"])
    # refitting saved data needs no search
    refit = distill.main(["--env", ENV, "--init", str(model), "--rounds", "0", "--data",
                          str(out / "round-0.npz"), "--epochs", "1", "--out",
                          str(tmp_path / "refit")])  # fmt: skip
    assert refit.is_file()


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--teacher", "heuristic"], "--teacher must be a search"),
        (["--teacher", "mcts:x"], "the budget is a number"),
        (["--beta", "1.5"], "--beta must be between 0 and 1"),
        (["--games", "0"], "--games must be an integer >= 1"),
        (["--rounds", "0"], "--rounds must be >= 1, or 0 with --data"),
        (["--min-share", "1.2"], "--min-share must be between 0 and 1"),
        (["--overruled-weight", "0"], "--overruled-weight must be > 0"),
        (["--temperature", "0"], "--temperature must be > 0"),
        (["--target", "values"], "--target values needs a teacher that values every move"),
        (["--teacher", "rollout:1"], "rollouts must be an integer >= 2"),
        (["--teacher", "broom-lookahead"], "teaches Jungle Sweep only"),
        (["--teacher", "round-rollout"], "teaches Jungle Sweep only"),
        (["--move-layers", "0"], "--move-layers must be >= 1"),
        (["--move-layers", "2"], "only a model with the move-scoring policy"),
        (["--refit-layers", "0"], "--refit-layers must be >= 1"),
        (["--refit-layers", "2"], "--refit-layers: only a model with the move-scoring"),
        (["--opponents", "nobody"], "--opponents:"),
        (["--opponents", "{bad"], "--opponents: not a JSON mixture"),
        (["--opponents", "random,random,random"], "--opponents:"),
    ],
)
def test_bad_distill_settings_are_one_line(tmp_path, capsys, small_model, flags, message):
    with pytest.raises(SystemExit) as exit_info:
        distill.main(["--env", ENV, "--init", str(small_model), "--out", str(tmp_path / "d"),
                      *flags])  # fmt: skip
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
    assert not (tmp_path / "d").exists()
