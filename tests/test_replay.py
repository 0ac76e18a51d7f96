"""Replays: recorded from play, evaluation and tournaments, checked when loaded."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

from jungle_envs.core.game import TERMINAL
from jungle_envs.core.registry import GAMES, make_game
from jungle_envs.evaluation import evaluate, evaluation_replays
from jungle_envs.play import Session
from jungle_envs.play.session import read_save, session_from_save
from jungle_envs.replay import ReplayError, load_replay, replay_from_dict
from training import evaluate as evaluate_cli
from training import tournament


def finished_session(name="TropicRace", players=3, seed=1) -> Session:
    session = Session(make_game(name, players), ["heuristic"] * players, seed=seed)
    assert session.advance() == TERMINAL
    return session


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_played_game_replays_to_the_same_end_through_its_file(name, tmp_path):
    session = finished_session(name)
    replay = load_replay(json.dumps(session.replay().to_dict()))
    assert len(replay) == len(session.history) > 10
    assert replay.position(len(replay)) == session.state
    assert replay.position(0) == session.start
    # forwards and back give the same positions
    middle = len(replay) // 2
    assert replay.position(middle) == replay.position(middle)
    assert replay.describe(len(replay)) and replay.describe(1)


def test_a_save_loaded_mid_game_keeps_the_history_from_the_start(tmp_path):
    game = make_game("SpankTheMonkey", 2)
    session = Session(game, ["human", "heuristic"], seed=6)
    for _ in range(4):  # a few human moves, then save and load (a kill and a resume)
        session.advance()
        session.act(session.legal_actions()[0])
    path = session.save(tmp_path / "mid.json")
    loaded = session_from_save(read_save(path))
    assert loaded.history == session.history and loaded.start == session.start
    while loaded.advance() != TERMINAL:
        loaded.act(loaded.legal_actions()[0])
    replay = loaded.replay()
    assert replay.position(len(replay)) == loaded.state


def test_a_save_whose_history_does_not_lead_to_its_position_starts_afresh(tmp_path):
    session = finished_session("TropicRace", 2)
    data = session.to_dict()
    data["history"] = data["history"][:-3]  # edited by hand: no longer leads to the position
    loaded = session_from_save(json.loads(json.dumps(data)))
    assert loaded.history == [] and loaded.start == loaded.state == session.state


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(version=99), "format version"),
        (lambda d: d["start"].update(game="chess"), "unknown game"),
        (lambda d: d.update(steps="all"), "steps"),
        (lambda d: d["steps"].append([0, 0, 0]), "is not \\[seat or null, value\\]"),
        (lambda d: d["steps"].append([True, 1]), "is not \\[seat or null, value\\]"),
        (lambda d: d.update(seats=[1, 2]), "seats"),
        (lambda d: d["start"].update(state={"phase": "x"}), "start position"),
    ],
)
def test_a_malformed_replay_is_refused_with_its_reason(change, message):
    data = finished_session("TropicRace", 2).replay().to_dict()
    change(data)
    with pytest.raises(ReplayError, match=message):
        replay_from_dict(data)


def test_an_impossible_step_is_named():
    data = finished_session("TropicRace", 2).replay().to_dict()
    decision = next(i for i, (seat, _) in enumerate(data["steps"]) if seat is not None)
    wrong_seat = [(data["steps"][decision][0] + 1) % 2, data["steps"][decision][1]]
    for bad in ([None, 999], wrong_seat):
        steps = [list(s) for s in data["steps"]]
        where = 0 if bad[0] is None else decision
        steps[where] = bad
        with pytest.raises(ReplayError, match=f"step {where + 1} "):
            replay_from_dict({**data, "steps": steps})


def test_evaluate_writes_replays_of_the_chosen_games_with_their_seating(tmp_path):
    data = evaluate_cli.main(
        ["--env", "TropicRace", "--players", "3", "--agent", "heuristic", "--games", "6",
         "--replays", str(tmp_path), "--replay-games", "1", "5", "--quiet"]
    )  # fmt: skip
    assert [p.rsplit("/", 1)[1] for p in data["replays"]] == ["game-1.json", "game-5.json"]
    for path, index in zip(data["replays"], (1, 5), strict=True):
        replay = load_replay(Path(path).read_text())
        assert replay.seats[index % 3] == "agent: heuristic"
        assert replay.game.is_terminal(replay.position(len(replay)))


def test_evaluate_refuses_a_replay_game_outside_the_run(tmp_path):
    with pytest.raises(SystemExit):
        evaluate_cli.main(["--games", "3", "--replays", str(tmp_path), "--replay-games", "3"])


def test_a_tournament_writes_each_pairs_first_games(tmp_path):
    tournament.main(
        ["--env", "TropicRace", "--policies", "random", "heuristic", "--games", "3",
         "--replays", str(tmp_path), "--replay-games", "2", "--quiet"]
    )  # fmt: skip
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["pair-0-1-game-0.json", "pair-0-1-game-1.json"]
    replay = load_replay((tmp_path / files[1]).read_text())
    assert sorted(set(replay.seats)) == ["heuristic", "random"]


def play_recorded(name: str, engine: str, seed: int, record: bool):
    """A game against a random and a heuristic seat, the learner playing random legal moves;
    returns the env and every observation it saw."""
    env = gym.make(f"jungle_envs/{name}-v0", num_players=3, engine=engine,
                   opponents=["random", "heuristic"], agent_seat=seed % 3)  # fmt: skip
    if record:
        env.unwrapped.record_replays()
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    seen, done = [obs], False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, _, terminated, truncated, info = env.step(action)
        seen.append(obs)
        done = terminated or truncated
    return env, seen, info


@pytest.mark.parametrize("engine", ["compiled", "reference"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_env_records_the_game_it_played_on_either_engine(name, engine):
    for seed in (3, 4):
        env, seen, info = play_recorded(name, engine, seed, record=True)
        replay = env.unwrapped.replay(["a", "b", "c"])
        assert replay.position(len(replay)) == env.unwrapped.state  # chance outcomes and all
        assert replay.game.final_info(replay.position(len(replay)))["winners"] == info["winners"]
        assert {seat for seat, _ in replay.steps} >= {None, 0, 1, 2}
        assert "events" not in info and "record" not in info
        # recording changes nothing of the game: the same seed plays the same trajectory
        _, unrecorded, _ = play_recorded(name, engine, seed, record=False)
        assert all(np.array_equal(a, b) for a, b in zip(seen, unrecorded, strict=True))


def test_an_env_without_a_record_says_how_to_keep_one():
    env = gym.make("jungle_envs/TropicRace-v0", num_players=2)
    env.reset(seed=0)
    with pytest.raises(RuntimeError, match="record_replays"):
        env.unwrapped.replay()
    env.unwrapped.record_replays()  # from the next reset on, not mid-game
    with pytest.raises(RuntimeError, match="before reset"):
        env.unwrapped.replay()


@pytest.mark.parametrize("name", ["SpankTheMonkey", "JungleSweep"])
def test_evaluation_replays_are_the_games_evaluate_scored(name):
    env_id = f"jungle_envs/{name}-v0"
    indices = [0, 1, 2, 5]
    result = evaluate(env_id, "random", "heuristic", num_players=3, seed=40, indices=indices)
    replays = evaluation_replays(env_id, "random", "heuristic", indices, num_players=3, seed=40)
    for i, replay in zip(indices, replays, strict=True):
        seat = i % 3
        final = replay.game.final_info(replay.position(len(replay)))
        scores = [float(x) for x in final["scores"]]
        credit = 1.0 / len(final["winners"]) if seat in final["winners"] else 0.0
        margin = scores[seat] - max(x for k, x in enumerate(scores) if k != seat)
        assert result.outcomes[i] == (credit, margin)
        assert replay.seats[seat] == "agent: random"
