"""training.rollout_gaps: paired rollout values of every legal move at a seat's decisions."""

from __future__ import annotations

import numpy as np
import pytest

from jungle_envs.core.game import CHANCE
from jungle_envs.games.jungle_sweep.game import JungleSweep
from training import rollout_gaps


def decision_state():
    """A Jungle Sweep state at a decision with three legal dice, reached from the start."""
    game = JungleSweep(num_players=4)
    rng = np.random.default_rng(5)
    state = game.new_state()
    while True:
        if game.current_player(state) == CHANCE:
            game._apply_chance(state, game.sample_chance(state, rng))
            continue
        legal = np.flatnonzero(game.legal_mask(state))
        if len(legal) >= 3:
            return game, state, legal
        game._apply_action(state, int(legal[0]))


def test_a_gap_is_a_move_that_beats_the_heuristics_by_more_than_z_errors():
    game, state, legal = decision_state()
    noise = np.tile([-1.0, 1.0], 50)
    values = np.stack([noise, noise + 0.5, noise - 0.5])  # paired: the second wins by 0.5
    record = rollout_gaps.decision_record(game, state, legal[:3], int(legal[0]), values, 2.5)
    assert record["best"] == legal[1] and record["gap"] == pytest.approx(0.5)
    assert record["means"] == pytest.approx([0.0, 0.5, -0.5])
    # the heuristic's own move the best: no gap
    record = rollout_gaps.decision_record(game, state, legal[:3], int(legal[1]), values, 2.5)
    assert record["gap"] == 0.0
    # a lead inside the paired noise is not a gap
    wobble = noise + np.random.default_rng(0).normal(0, 3, size=100)
    values = np.stack([noise, wobble + 0.1, noise - 0.5])
    record = rollout_gaps.decision_record(game, state, legal[:3], int(legal[0]), values, 2.5)
    assert record["best"] == legal[1] and record["gap"] == 0.0


def test_rollout_gaps_values_every_legal_move_and_repeat_with_the_seed():
    data = rollout_gaps.rollout_gaps("jungle_envs/JungleSweep-v0", 4, 1, 6, 11, 0, 2.5)
    again = rollout_gaps.rollout_gaps("jungle_envs/JungleSweep-v0", 4, 1, 6, 11, 0, 2.5)
    assert data == again and data["decisions"] == len(data["records"]) > 0
    for record in data["records"]:
        assert len(record["means"]) == len(record["legal"]) > 1
        assert record["heuristic"] in record["legal"] and record["best"] in record["legal"]
        assert all(-1.0 <= m <= 1.0 for m in record["means"])
        assert record["gap"] == 0.0 or record["best"] != record["heuristic"]
    assert data["gaps"] == sum(r["gap"] > 0 for r in data["records"])
    assert "decisions with a choice" in rollout_gaps.describe(data)


@pytest.mark.parametrize(
    ("args", "message"),
    [((0, 6, 0), "games >= 1"), ((1, 1, 0), "rollouts >= 2"), ((1, 6, 7), "seat")],
)
def test_bad_rollout_gap_settings_are_refused(args, message):
    games, rollouts, seat = args
    with pytest.raises(ValueError, match=message):
        rollout_gaps.rollout_gaps("jungle_envs/JungleSweep-v0", 4, games, rollouts, 0, seat, 2.5)


def test_the_command_line_refuses_bad_settings_in_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        rollout_gaps.main(["--env", "JungleSweep", "--games", "1", "--rollouts", "1"])
    assert stop.value.code == 2
    assert "rollouts >= 2" in capsys.readouterr().err


def test_confirm_measures_each_gap_again_without_changing_the_games():
    args = ("jungle_envs/JungleSweep-v0", 4, 2, 8, 3, 0, 0.5)  # a low z finds some gaps
    plain = rollout_gaps.rollout_gaps(*args)
    data = rollout_gaps.rollout_gaps(*args, confirm=6)
    assert data["gaps"] > 0
    # the same games and gaps: --confirm draws its rollouts from a generator of its own
    stripped = [{k: v for k, v in r.items() if k != "confirmed"} for r in data["records"]]
    assert stripped == plain["records"]
    confirmed = [r["confirmed"] for r in data["records"] if r["gap"] > 0]
    assert len(confirmed) == data["gaps"]
    assert all("confirmed" not in r for r in data["records"] if r["gap"] == 0)
    assert all(-2.0 <= c <= 2.0 for c in confirmed)
    mean, low, high = data["confirmed_gain_per_game"]
    assert mean == pytest.approx(sum(confirmed) / 2, abs=1e-3) and low <= mean <= high
    assert "fresh rollouts per gap" in rollout_gaps.describe(data)
    with pytest.raises(ValueError, match="confirm"):
        rollout_gaps.rollout_gaps(*args, confirm=1)


def test_determinized_rollouts_play_from_worlds_the_seat_could_be_in():
    data = rollout_gaps.rollout_gaps("jungle_envs/JungleSweep-v0", 4, 1, 6, 11, 0, 2.5,
                                     determinizations=3)  # fmt: skip
    plain = rollout_gaps.rollout_gaps("jungle_envs/JungleSweep-v0", 4, 1, 6, 11, 0, 2.5)
    # the deals come from a generator of their own: the same game and decisions
    assert [r["legal"] for r in data["records"]] == [r["legal"] for r in plain["records"]]
    assert [r["heuristic"] for r in data["records"]] == [r["heuristic"] for r in plain["records"]]
    assert "worlds dealt from what the seat knows" in rollout_gaps.describe(data)
    with pytest.raises(ValueError, match="determinizations"):
        rollout_gaps.rollout_gaps("jungle_envs/JungleSweep-v0", 4, 1, 6, 11, 0, 2.5,
                                  determinizations=-1)  # fmt: skip


def later_decision_state():
    """A decision of seat 0 with a choice once another monkey holds coconuts (hidden values)."""
    game = JungleSweep(num_players=4)
    rng = np.random.default_rng(6)
    state = game.new_state()
    while True:
        if game.current_player(state) == CHANCE:
            game._apply_chance(state, game.sample_chance(state, rng))
            continue
        legal = np.flatnonzero(game.legal_mask(state))
        held = any(len(c) for c in state.coconuts[1:])
        if held and game.current_player(state) == 0 and len(legal) > 1:
            return game, state, legal
        game._apply_action(state, int(rng.choice(legal)))


def test_determinized_worlds_keep_what_the_seat_knows_and_deal_the_rest():
    from jungle_envs.core.compiled.twin import Twin

    game, state, legal = later_decision_state()
    twin = Twin(game)
    rng = np.random.default_rng(2)
    worlds = [game.resample(state, 0, rng) for _ in range(8)]
    for world in worlds:  # seat 0's own view is the same in every world
        np.testing.assert_array_equal(game.observe(world, 0), game.observe(state, 0))
    rows = [twin.pack(w) for w in worlds]
    assert any(not np.array_equal(rows[0], r) for r in rows[1:])  # hidden values dealt anew
    values = rollout_gaps.move_values(twin, rows, legal, 0, 16, np.random.default_rng(4))
    assert values.shape == (len(legal), 16) and np.all(np.abs(values) <= 1.0)
