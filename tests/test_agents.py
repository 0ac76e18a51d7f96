"""Shipped agents (the "ppo" opponent), observation-only options, ladders and ratings."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest

import jungle_envs
from jungle_envs import agents

pytest.importorskip("sb3_contrib")

from jungle_envs.core.policies import make_policy, observation_game
from jungle_envs.evaluation import evaluate, play_game
from training import ladder, ship, tournament, train
from training.common import make_vec_env, mark_trained_on, new_model

JS = "jungle_envs/JungleSweep-v0"
SHIPPED = agents.shipped()


def tiny_model(env_id: str, players: int, options: dict, path):
    venv = make_vec_env(env_id, n_envs=2, num_players=players, **options)
    model = new_model(venv, n_steps=32, batch_size=32, policy_kwargs={"net_arch": [8]})
    mark_trained_on(model, env_id, players, options)
    model.save(path)
    return path


@pytest.fixture
def agents_dir(tmp_path, monkeypatch):
    """An empty place for shipped agents, standing in for the package's own."""
    folder = tmp_path / "agents"
    folder.mkdir()
    monkeypatch.setattr(agents, "AGENTS_DIR", folder)
    monkeypatch.setattr(agents, "MANIFEST", folder / "manifest.json")
    agents._load.cache_clear()
    yield folder
    agents._load.cache_clear()


def test_a_model_with_other_observation_options_plays_with_its_own_observation(tmp_path):
    path = str(tiny_model(JS, 4, {"move_features": True}, tmp_path / "m.zip"))
    game = jungle_envs.make_game(JS, 4)
    policy = make_policy(path, game)
    seen = observation_game(policy, game)
    assert seen is not game and seen.options["move_features"] is True
    assert seen.observation_size == policy.observation_size > game.observation_size
    # the rules engine, both env engines and the evaluation all hand it its own view
    play_game(game, [policy, make_policy("random", game), policy, policy], seed=1)
    for engine in ("reference", "compiled"):
        env = gym.make(JS, opponents=path, engine=engine)
        obs, info = env.reset(seed=3)
        assert obs.shape == (game.observation_size,)
        rng = np.random.default_rng(0)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
    result = evaluate(JS, policy, "random", games=2, num_players=4)
    assert result.games == 2 and result.illegal_actions == 0


def test_rule_options_still_refuse_a_model(tmp_path):
    path = str(tiny_model(JS, 4, {}, tmp_path / "m.zip"))
    with pytest.raises(ValueError, match="trained on"):
        make_policy(path, jungle_envs.make_game(JS, 4, coconuts={1: 8, 2: 8}))


def test_ship_strips_the_model_and_registers_it_as_ppo(tmp_path, agents_dir):
    run = tmp_path / "run"
    train.main(
        ["--env", JS, "--players", "2", "--timesteps", "128", "--n-envs", "2", "--out",
         str(run), "--set", "ppo.n_steps=64", "--set", "ppo.batch_size=64", "--set",
         "ppo.n_epochs=1", "--set", "ppo.net_arch=[16,16]", "--set", "eval.games=1",
         "--set", "imitate.rounds=0", "--no-progress"]
    )  # fmt: skip
    shipped_path = ship.main([str(run)])
    assert shipped_path == agents_dir / "JungleSweep-2p.zip"
    assert shipped_path.stat().st_size < (run / "model.zip").stat().st_size
    record = agents.shipped()["JungleSweep-2p"]
    config = json.loads((run / "config.json").read_text())
    assert record["num_players"] == 2 and record["env_options"] == config["env_options"]
    assert record["timesteps"] >= 128 and record["training"]["ppo"] == config["ppo"]
    # "ppo" is now an opponent in the 2-player game, in the default env (no move features)
    env = gym.make(JS, num_players=2, opponents="ppo")
    _, info = env.reset(seed=0)
    while True:
        _, _, terminated, truncated, info = env.step(int(np.argmax(info["action_mask"])))
        if terminated or truncated:
            break
    with pytest.raises(ValueError, match="no shipped 'ppo' agent for JungleSweep with 3"):
        gym.make(JS, num_players=3, opponents="ppo")
    with pytest.raises(SystemExit, match="not a run folder"):
        ship.main([str(tmp_path)])
    # --select ships the run's model that wins most on validation games, and says so
    chosen = ship.main([str(run), "--select", "2", "--workers", "1"])
    record = agents.shipped()["JungleSweep-2p"]
    assert chosen == shipped_path and set(record["selected"]["win_rates"]) == {
        *(f"checkpoints/{p.name}" for p in run.glob("checkpoints/step-*.zip")),
        *(["imitate/model.zip"] if (run / "imitate").exists() else []),
        "model.zip",
    }
    assert record["continued_from"] is None  # a fresh run
    # a run that continues the shipped agent says so, with that agent's own record
    more = tmp_path / "more"
    train.main(
        ["--env", JS, "--players", "2", "--timesteps", "128", "--n-envs", "2", "--out",
         str(more), "--set", f"init={shipped_path}", "--set", "ppo.n_steps=64", "--set",
         "ppo.batch_size=64", "--set", "ppo.n_epochs=1", "--set", "ppo.net_arch=[16,16]",
         "--set", "eval.games=1", "--set", "imitate.rounds=0", "--no-progress"]
    )  # fmt: skip
    ship.main([str(more)])
    continued = agents.shipped()["JungleSweep-2p"]["continued_from"]
    assert continued["model"] == str(shipped_path) and continued["timesteps"] >= 128
    assert continued["record"] == record


def test_ship_refuses_a_file_over_the_limit(tmp_path, agents_dir, monkeypatch):
    path = tiny_model(JS, 2, {}, tmp_path / "m.zip")
    run = tmp_path / "run"
    run.mkdir()
    (run / "config.json").write_text(json.dumps({"env": JS, "players": 2}))
    monkeypatch.setattr(agents, "MAX_BYTES", 1000)
    with pytest.raises(SystemExit, match="over the 5 MiB limit"):
        ship.ship(run, path, agents_dir)
    assert not list(agents_dir.glob("*.zip"))


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_shipped_agent_loads_fits_and_plays(name):
    record = SHIPPED[name]
    path = agents.AGENTS_DIR / record["file"]
    assert path.stat().st_size <= agents.MAX_BYTES
    env = gym.make(record["env"], num_players=record["num_players"], opponents="ppo")
    policy = make_policy("ppo", env.unwrapped.game)
    assert policy.trained_on["env"] == record["env"]
    _, info = env.reset(seed=5)
    while True:
        _, _, terminated, truncated, info = env.step(int(np.argmax(info["action_mask"])))
        if terminated or truncated:
            break
    assert "winners" in info


def test_bootstrap_intervals_hold_the_ratings_and_order_them():
    outcomes = {(0, 1): np.array([80, 0, 20]), (0, 2): np.array([95, 0, 5]),
                (1, 2): np.array([70, 10, 20])}  # fmt: skip
    ratings = tournament.elo(tournament.bradley_terry(tournament.points(outcomes, 3)))
    low, high = tournament.bootstrap(outcomes, 3, reps=200)
    assert np.all(low <= ratings) and np.all(ratings <= high)
    assert ratings[0] > ratings[1] > ratings[2] and high[2] < low[0]


def test_ladder_picks_checkpoints_and_writes_its_section(tmp_path, agents_dir):
    run = tmp_path / "runs" / "TropicRace-2p" / "checkpoints"
    run.mkdir(parents=True)
    model = tiny_model("jungle_envs/TropicRace-v0", 2, {}, tmp_path / "m.zip")
    for steps in range(1, 9):
        (run / f"step-{steps * 1000:010d}.zip").write_bytes(model.read_bytes())
    picks = ladder.checkpoints(run.parent, 3)
    assert [p.name for _, p in picks] == [
        "step-0000001000.zip", "step-0000003000.zip", "step-0000006000.zip"
    ]  # fmt: skip
    page = tmp_path / "results.md"
    page.write_text(f"# Results\n{ladder.START}\nold\n{ladder.END}\nend\n")
    body = ladder.main(
        ["--game", "TropicRace", "--players", "2", "--games", "6", "--runs",
         str(tmp_path / "runs"), "--checkpoints", "1", "--write", str(page)]
    )  # fmt: skip
    assert "| heuristic |" in body and "| checkpoint 0.0M steps |" in body
    text = page.read_text()
    assert "old" not in text and body in text and text.endswith(f"{ladder.END}\nend\n")
    with pytest.raises(SystemExit):
        ladder.main(["--game", "TropicRace", "--players", "9"])


def test_the_ladder_takes_search_opponents_by_budget(tmp_path, capsys):
    page = tmp_path / "results.md"
    start, end = ladder.markers("search-ladder")
    page.write_text(f"{ladder.START}\nkept\n{ladder.END}\n{start}\nold\n{end}\n")
    body = ladder.main(
        ["--game", "TropicRace", "--players", "2", "--games", "4", "--runs", str(tmp_path),
         "--search", "mcts:8", "mcts:0.01s:random", "--write", str(page),
         "--section", "search-ladder"]
    )  # fmt: skip
    assert "| mcts (8 simulations) |" in body
    assert "| mcts (0.01 s, random rollouts) |" in body
    text = page.read_text()
    assert "kept" in text and "old" not in text and f"{start}\n{body}{end}" in text
    with pytest.raises(SystemExit) as exc:  # refused before any game is played
        ladder.main(["--game", "TropicRace", "--write", str(page), "--section", "nowhere"])
    assert exc.value.code == 2 and "nowhere:start" in capsys.readouterr().err
    assert page.read_text() == text
    with pytest.raises(SystemExit) as exc:
        ladder.main(["--game", "TropicRace", "--search", "mcts:zero"])
    assert exc.value.code == 2 and "mcts:zero" in capsys.readouterr().err


def test_the_ladder_replaces_only_the_tables_it_played(tmp_path):
    page = tmp_path / "results.md"
    kept = "**JungleSweep, 4 players** (9 games per pair)\n\n| policy | Elo |\n| kept | 1 |\n"
    stale = "**TropicRace, 2 players** (9 games per pair)\n\n| policy | Elo |\n| stale | 1 |\n"
    last = "**SpankTheMonkey, 4 players** (9 games per pair)\n\n| last | 1 |\n"
    page.write_text(f"intro\n{ladder.START}\n{kept}\n{stale}\n{last}{ladder.END}\nend\n")
    argv = ["--game", "TropicRace", "--players", "2", "--games", "4", "--runs", str(tmp_path),
            "--checkpoints", "0", "--write", str(page)]  # fmt: skip
    body = ladder.main(argv)
    text = page.read_text()
    assert "| stale |" not in text and "| kept |" in text and "| last |" in text
    # the new table stands where the stale one stood, between the two it did not touch
    assert text.index("| kept |") < text.index(body) < text.index("| last |")
    assert text.startswith(f"intro\n{ladder.START}\n") and text.endswith(f"{ladder.END}\nend\n")
    assert ladder.blocks_of(ladder.section_body(page)).keys() == {
        ("JungleSweep", 4),
        ("TropicRace", 2),
        ("SpankTheMonkey", 4),
    }
    body = ladder.main([*argv, "--replace"])
    assert page.read_text() == f"intro\n{ladder.START}\n{body}{ladder.END}\nend\n"
    # a table never played before goes last
    merged = ladder.merge_blocks(kept + "\n" + stale, [last])
    assert list(ladder.blocks_of(merged)) == [("JungleSweep", 4), ("TropicRace", 2),
                                              ("SpankTheMonkey", 4)]  # fmt: skip


def test_every_game_ships_an_agent_at_4_and_2_players():
    expected = {
        agents.agent_name(env_id.split("/")[1].removesuffix("-v0"), players)
        for env_id in jungle_envs.ENV_IDS
        for players in (4, 2)
    }
    assert set(SHIPPED) == expected
    for name, record in SHIPPED.items():
        assert (agents.AGENTS_DIR / record["file"]).is_file(), name
        assert record["num_players"] == int(name.rsplit("-", 1)[1].removesuffix("p"))


def test_a_model_with_another_action_count_is_refused_by_name(tmp_path):
    from gymnasium import spaces

    from jungle_envs.maskable_ppo import MaskablePPOPolicy

    path = tiny_model("jungle_envs/TropicRace-v0", 2, {}, tmp_path / "m.zip")
    policy = MaskablePPOPolicy(str(path))
    policy.model.action_space = spaces.Discrete(12)
    game = jungle_envs.make_game("TropicRace", 2)
    with pytest.raises(ValueError, match="chooses among 12 actions, TropicRace has 219"):
        make_policy(policy.model, game)


def test_the_ladder_names_each_search_by_what_sets_it_apart():
    assert ladder.search_label("mcts:300") == "mcts (300 simulations)"
    assert ladder.search_label("mcts+ppo:0.5s") == "mcts+ppo (0.5 s)"
    assert ladder.search_label("mcts:1000:prior=0") == "mcts (1,000 simulations, prior 0)"
    assert ladder.search_label("mcts:8:random") == "mcts (8 simulations, random rollouts)"


def test_ppo_sample_draws_each_move_from_the_models_distribution(tmp_path):
    from training.validate import opponent_known

    path = tiny_model("jungle_envs/TropicRace-v0", 2, {}, tmp_path / "m.zip")
    env = gym.make("jungle_envs/TropicRace-v0", num_players=2)
    obs, info = env.reset(seed=3)
    mask = info["action_mask"]
    game = env.unwrapped.game
    greedy = make_policy(str(path), game)
    sampled = make_policy(f"ppo-sample:{path}", game)
    probs = greedy.probabilities(obs, mask)
    assert np.count_nonzero(probs > 0.05) >= 2  # an untrained model spreads its moves
    draws = [sampled.act(obs, mask, np.random.default_rng(k)) for k in range(600)]
    assert all(mask[a] for a in draws)
    freq = np.bincount(draws, minlength=len(probs)) / len(draws)
    assert np.abs(freq - probs).max() < 0.08
    assert {greedy.act(obs, mask, np.random.default_rng(k)) for k in range(20)} == {
        int(np.argmax(probs))
    }
    # same generator, same draws: games with a sampling opponent stay reproducible
    assert sampled.act(obs, mask, np.random.default_rng(9)) == sampled.act(
        obs, mask, np.random.default_rng(9)
    )
    # the bare name is the shipped agent, sampling; a missing file is no player
    assert not make_policy("ppo-sample", jungle_envs.make_game("TropicRace", 4)).deterministic
    assert opponent_known("ppo-sample") and opponent_known(f"ppo-sample:{path}")
    assert not opponent_known("ppo-sample:" + str(tmp_path / "missing.zip"))
