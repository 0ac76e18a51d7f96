"""The move targets of a distillation (``training.move_targets``), and a round-rollout
distillation that fits the teacher's move values."""

from __future__ import annotations

import json

import numpy as np
import pytest

from training import distill, imitate
from training.move_targets import move_targets, value_shares

NAN = np.nan


def test_values_become_a_softmax_over_the_valued_moves_at_the_temperature():
    values = np.array([[1.0, 0.9, NAN, 0.0], [0.5, 0.5, NAN, NAN], [NAN, NAN, NAN, NAN]])
    shares, valued = value_shares(values, 0.1)
    assert valued.tolist() == [True, True, False]
    logits = np.array([0.0, -1.0, -10.0])  # (value - best) / 0.1 over the valued moves
    expected = np.exp(logits) / np.exp(logits).sum()
    assert np.allclose(shares[0, [0, 1, 3]], expected) and shares[0, 2] == 0.0
    assert shares[1].tolist() == [0.5, 0.5, 0.0, 0.0]  # a tie splits evenly
    assert (shares[2] == 0).all()
    colder, _ = value_shares(values, 0.01)
    assert colder[0, 0] > shares[0, 0] > 0.5 and colder[0, 1] < shares[0, 1]


def test_the_values_target_falls_back_to_the_teachers_move_where_nothing_was_valued():
    visits = np.array([[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]])
    values = np.array([[0.2, 0.4, NAN, NAN], [NAN, NAN, NAN, NAN]])
    overruled = np.array([True, False])
    wanted, weights = move_targets(visits, "values", 0.0, overruled, 3.0, values, 0.2)
    assert np.allclose(wanted[0], [1 / (1 + np.e), np.e / (1 + np.e), 0, 0], atol=1e-6)
    assert wanted[1].tolist() == [0, 0, 0, 1] and weights.tolist() == [3, 1]
    for kwargs, message in [
        ({"values": None}, "needs the teacher's move values"),
        ({"values": values, "temperature": 0.0}, "temperature must be > 0"),
    ]:
        with pytest.raises(ValueError, match=message):
            move_targets(visits, "values", 0.0, **kwargs)
    with pytest.raises(ValueError, match="target must be one of"):
        move_targets(visits, "sharpest", 0.0)


@pytest.fixture(scope="module")
def sweep_model(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep") / "imitated"
    return imitate.main(["--env", "JungleSweep", "--players", "4", "--rounds", "1",
                         "--steps", "256", "--epochs", "1", "--n-envs", "8", "--out", str(out),
                         "--set", "policy=moves", "--set", "env_options.move_features=true",
                         "--set", "ppo.net_arch=[32,32]"])  # fmt: skip


def test_round_rollout_rounds_keep_the_move_values_and_fit_their_softmax(tmp_path, sweep_model):
    out = tmp_path / "values"
    distill.main(["--env", "JungleSweep", "--init", str(sweep_model), "--teacher",
                  "round-rollout:4", "--games", "2", "--epochs", "1", "--workers", "1",
                  "--target", "values", "--temperature", "0.2", "--out", str(out)])  # fmt: skip
    record = json.loads((out / "distill.json").read_text())
    assert record["settings"]["target"] == "values"
    assert record["settings"]["temperature"] == 0.2
    data = dict(np.load(out / "round-0.npz"))
    masks = data["masks"].astype(bool)
    choices = masks.sum(1) > 1
    assert choices.any()
    # every legal move of a decision with a choice is valued, and nothing else is
    assert (np.isfinite(data["values"]) == (masks & choices[:, None])).all()
    # the teacher's move is the best valued one unless it kept the heuristic's move
    played = data["visits"].argmax(1)
    best = np.nanargmax(np.where(choices[:, None], data["values"], 0.0), axis=1)
    assert (played[choices & data["overruled"]] == best[choices & data["overruled"]]).all()
    # the saved data refits without a search, and older data without values is refused
    refit = distill.main(["--env", "JungleSweep", "--init", str(sweep_model), "--rounds", "0",
                          "--data", str(out / "round-0.npz"), "--target", "values",
                          "--epochs", "1", "--out", str(tmp_path / "refit")])  # fmt: skip
    assert refit.is_file()
    old = tmp_path / "old.npz"
    np.savez(old, **{k: v for k, v in data.items() if k != "values"})
    with pytest.raises(SystemExit):
        distill.main(
            [
                "--env",
                "JungleSweep",
                "--init",
                str(sweep_model),
                "--rounds",
                "0",
                "--data",
                str(old),
                "--target",
                "values",
                "--out",
                str(tmp_path / "x"),
            ]
        )
    assert not (tmp_path / "x").exists()
