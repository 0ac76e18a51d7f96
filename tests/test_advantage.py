"""training.advantage: every legal move valued by paired playouts, and the network fitted to it."""

from __future__ import annotations

import numpy as np
import pytest

import jungle_envs
from jungle_envs.maskable_ppo import load_maskable_ppo
from training import advantage

ENV = "jungle_envs/JungleSweep-v0"
AGENT = "jungle_envs/agents/JungleSweep-4p.zip"
OPTIONS = {"move_features": True}


@pytest.fixture(scope="module")
def data():
    return advantage.merge([advantage._play((ENV, 4, OPTIONS, 3, 2, "blend", 5, [0, 1]))])


def test_every_decision_with_a_choice_is_kept_with_each_legal_moves_value(data):
    masks, values = data["masks"], data["values"]
    assert len(masks) > 20 and (masks.sum(1) >= 2).all()
    assert np.isfinite(values[masks]).all() and np.isnan(values[~masks]).all()
    assert ((values[masks] >= -1) & (values[masks] <= 1)).all()  # blend: win and place in [-1, 1]
    assert set(data["seat"].tolist()) == {0, 1, 2, 3}  # every seat's decisions
    assert masks[np.arange(len(masks)), data["heuristic"]].all()
    game = jungle_envs.game_class(ENV)(num_players=4, **OPTIONS)
    heuristic = game.heuristic_policy()
    for obs, mask, move in zip(data["obs"], masks, data["heuristic"], strict=True):
        assert heuristic.act(obs, mask, None) == move  # the heuristic's move, from the obs


def test_the_returns_are_each_seats_final_return_of_its_game(data):
    assert set(np.unique(data["returns"]).tolist()) <= {-1.0, 0.0, 1.0}
    # within one game a sole winner's decisions all read +1 and nobody else's do
    first = advantage._play((ENV, 4, OPTIONS, 2, 1, "blend", 5, [0]))
    by_seat = {s: set(first["returns"][first["seat"] == s].tolist()) for s in range(4)}
    assert all(len(v) == 1 for v in by_seat.values())
    assert sum(v == {1.0} for v in by_seat.values()) <= 1


def test_the_data_repeat_with_the_seed_whatever_the_workers():
    one = advantage.merge(advantage.collect(ENV, 4, OPTIONS, 3, 2, 1, "blend", 1, 9))
    two = advantage.merge(advantage.collect(ENV, 4, OPTIONS, 3, 2, 1, "blend", 2, 9))
    other = advantage.merge(advantage.collect(ENV, 4, OPTIONS, 3, 2, 1, "blend", 1, 10))
    for key in advantage.KEYS:
        np.testing.assert_array_equal(one[key], two[key])
    assert len(one["obs"]) != len(other["obs"]) or not np.array_equal(one["obs"], other["obs"])


def test_targets_are_the_anchor_plus_the_values_over_the_temperature_centred():
    masks = np.array([[True, True, False], [True, True, True]])
    values = np.array([[0.2, 0.1, np.nan], [0.0, 0.0, 0.3]], dtype=np.float32)
    anchor = np.array([[0.0, 1.0, -np.inf], [1.0, 0.0, 0.0]])
    targets = advantage.move_targets(values, masks, anchor, temperature=0.1)
    # first row: 0 + 2 against 1 + 1, a tie; illegal moves 0 whatever their value
    np.testing.assert_allclose(targets[0], [0.0, 0.0, 0.0], atol=1e-6)
    np.testing.assert_allclose(targets[1], [1 - 4 / 3, -4 / 3, 3 - 4 / 3], atol=1e-5)
    assert targets[1].sum() == pytest.approx(0.0, abs=1e-6)
    # a lower temperature lets the values outweigh the anchor
    colder = advantage.move_targets(values, masks, anchor, temperature=0.01)
    assert colder[0].argmax() == 0 and colder[1].argmax() == 2


def test_the_fit_follows_the_values_where_they_outweigh_the_anchor(data):
    rows = np.arange(len(data["obs"]))
    other = np.array([np.flatnonzero(m & (np.arange(m.size) != h))[0]
                      for m, h in zip(data["masks"], data["heuristic"], strict=True)])  # fmt: skip
    level = dict(data, values=np.where(data["masks"], 0.0, np.nan).astype(np.float32))
    model = load_maskable_ppo(AGENT)
    advantage.fit(model, level, 0.05, 100, 16, 1e-3, 0, anchor="heuristic")
    assert (advantage.choices(model, level) == data["heuristic"]).mean() > 0.95
    ahead = level["values"].copy()
    ahead[rows, other] = 0.5  # another move far ahead at every decision
    ahead = dict(level, values=ahead)
    # the shipped agent's 3-layer move scorer needs more passes than 1 layer did
    advantage.fit(model, ahead, 0.05, 200, 16, 1e-3, 0, anchor="model")
    picks = advantage.choices(model, ahead)
    assert (picks == other).mean() > 0.9
    report = advantage.describe_choices(picks, ahead)
    mean, low, high = report["value_gained_per_decision"]
    assert report["heuristic_move"] < 0.1 and low <= mean <= high and mean > 0.4


def test_anchored_on_itself_with_no_value_gaps_the_model_keeps_its_choices(data):
    import torch

    from training.distill import policy_outputs

    level = dict(data, values=np.where(data["masks"], 0.0, np.nan).astype(np.float32))
    model = load_maskable_ppo(AGENT)
    before = advantage.choices(model, level)
    with torch.no_grad():
        log_probs, _ = policy_outputs(model.policy, torch.as_tensor(level["obs"]),
                                      level["masks"].astype(bool))  # fmt: skip
    top_two = np.sort(log_probs.exp().numpy(), axis=1)[:, -2:]
    # where two moves are near a tie, the minibatches' noise may swap them: the claim is
    # about the choices the model makes clearly (its top move 0.1 likelier than the next)
    clear = top_two[:, 1] - top_two[:, 0] >= 0.1
    assert clear.mean() > 0.5
    advantage.fit(model, level, 0.1, 20, 16, 1e-3, 0, anchor="model")
    assert (advantage.choices(model, level) == before)[clear].mean() > 0.95


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--temperature", "0"], "--temperature must be a number > 0"),
        (["--anchor", "search"], "invalid choice"),
        (["--games", "0"], "--games 0 needs --data"),
        (["--rollouts", "0"], "--rollouts must be an integer >= 1"),
        (["--data", "no-such.npz"], "no such file: no-such.npz"),
    ],
)
def test_bad_arguments_are_one_line_errors(argv, message, capsys):
    with pytest.raises(SystemExit):
        advantage.parse_args(["--env", "JungleSweep", "--init", AGENT, *argv])
    assert message in capsys.readouterr().err
