"""``training.gradient_share``: the policy and value terms' pull on the shared layers."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from training import allseat, gradient_share
from training.common import mark_trained_on


def move_model(game="JungleSweep", players=2, options=None):
    """A new model by the game's config (the move-scoring network with move features)."""
    args = argparse.Namespace(game=game, players=players, init=None, option=[],
                              learning_rate=1e-4, ent_coef=0.0, batch_size=64, epochs=1,
                              threads=1, seed=0, vf_coef=None)  # fmt: skip
    options = {"move_features": True} if options is None else options
    model = allseat.build_model(args, f"jungle_envs/{game}-v0", options)
    mark_trained_on(model, f"jungle_envs/{game}-v0", players, options)
    return model


def one_buffer(model, game="JungleSweep", players=2, decisions=256):
    trainer = allseat.AllSeatTrainer(model, game, players, ["learner", "snapshot"],
                                     {"move_features": True}, num_envs=8, rollout=decisions,
                                     seed=5, snapshot_every=0)  # fmt: skip
    trainer.collect()
    buffer = trainer.closed_buffer()
    trainer.close()
    return buffer


def test_the_value_term_scales_with_vf_coef_and_the_policy_term_does_not():
    model = move_model()
    buffer = one_buffer(model)
    model.vf_coef = 0.5
    policy_a, value_a, shared = gradient_share.shared_norms(
        gradient_share.loss_gradients(model, buffer))  # fmt: skip
    model.vf_coef = 0.05
    policy_b, value_b, _ = gradient_share.shared_norms(
        gradient_share.loss_gradients(model, buffer))  # fmt: skip
    assert shared > 0 and policy_a > 0 and value_a > 0
    assert policy_b == pytest.approx(policy_a, rel=1e-5)
    assert value_b == pytest.approx(value_a / 10, rel=1e-4)


def test_minibatch_gradients_add_up_to_the_whole_buffers():
    model = move_model()
    buffer = one_buffer(model)
    model.batch_size = 64
    small = gradient_share.loss_gradients(model, buffer)
    model.batch_size = buffer.buffer_size
    whole = gradient_share.loss_gradients(model, buffer)
    for name in ("policy", "value"):
        for a, b in zip(small[name], whole[name], strict=True):
            # advantages are normalised per minibatch, so only the value term must match
            if name == "value":
                np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-4, atol=1e-7)
    assert gradient_share.shared_norms(whole)[2] > 0


def test_the_command_reports_the_ratio_and_refuses_bad_input(tmp_path, capsys):
    model = move_model()
    model.save(tmp_path / "m.zip")
    result = gradient_share.main([str(tmp_path / "m.zip"), "--seats", "learner,snapshot",
                                  "--decisions", "128"])  # fmt: skip
    out = capsys.readouterr().out
    assert "the value term is" in out and "pull equally at vf_coef" in out
    assert result["ratio"] == pytest.approx(result["value_norm"] / result["policy_norm"])
    assert result["equal_vf_coef"] == pytest.approx(result["vf_coef"] / result["ratio"])
    plain = move_model("TropicRace", options={})  # the plain MLP: nothing shared
    plain.save(tmp_path / "plain.zip")
    gradient_share.main([str(tmp_path / "plain.zip"), "--seats", "learner,snapshot",
                         "--decisions", "64"])  # fmt: skip
    assert "share no trained parameter" in capsys.readouterr().out
    (tmp_path / "bad.zip").write_text("not a model")
    for argv in ([str(tmp_path / "none.zip")], [str(tmp_path / "bad.zip")],
                 [str(tmp_path / "m.zip"), "--decisions", "0"],
                 [str(tmp_path / "m.zip"), "--seats", "learner,pilot"]):  # fmt: skip
        with pytest.raises(SystemExit):
            gradient_share.main(argv)
