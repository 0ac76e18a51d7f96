"""What a new user or a fuzzer tried that broke: copies, option keys, seats, outcomes, paths.

Each test covers the class of input, not only the case reported: every game, both
engines, every kind of opponent argument.
"""

from __future__ import annotations

import copy
import pickle
import zipfile

import gymnasium
import numpy as np
import pytest

import jungle_envs
import jungle_envs.agents
from jungle_envs.core.game import IllegalActionError
from jungle_envs.core.registry import make_game

ENV_IDS = jungle_envs.ENV_IDS
OPPONENT_ARGUMENTS = {
    "one name": "heuristic",
    "a list": ["random", "heuristic", "random"],
    "a mixture": {"random": 0.5, "heuristic": 0.5},
}


def play(env, seed: int, steps: int) -> list:
    """Same masked random actions from ``seed``: what the env answers, step by step."""
    rng = np.random.default_rng(seed)
    answers = []
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, info = env.step(action)
        answers.append((obs.tobytes(), reward, terminated, truncated, info["agent_seat"]))
        if terminated or truncated:
            obs, info = env.reset()
            answers.append((obs.tobytes(), info["agent_seat"]))
    return answers


# --- copies ----------------------------------------------------------------------------
@pytest.mark.parametrize("opponents", OPPONENT_ARGUMENTS.values(), ids=OPPONENT_ARGUMENTS)
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pickled_and_deep_copied_envs_play_on_exactly_as_the_original(
    env_id, opponents, each_engine
):
    env = gymnasium.make(env_id, num_players=4, opponents=opponents)
    env.reset(seed=3)
    play(env, seed=1, steps=5)
    pickled = pickle.loads(pickle.dumps(env))  # the standard module, no cloudpickle
    copied = copy.deepcopy(env)
    expected = play(env, seed=2, steps=60)
    assert play(pickled, seed=2, steps=60) == expected
    assert play(copied, seed=2, steps=60) == expected


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_deep_copy_has_opponents_of_its_own(env_id):
    env = gymnasium.make(env_id, num_players=3, opponents={"random": 0.5, "heuristic": 0.5})
    copied = copy.deepcopy(env)
    mine, theirs = env.unwrapped._resolve_opponents(0), copied.unwrapped._resolve_opponents(0)
    assert mine.keys() == theirs.keys()
    for seat in mine:
        assert mine[seat] is not theirs[seat]
    before = {seat: theirs[seat].current for seat in theirs}
    drawn = set()
    for seed in range(20):  # the original draws its players; the copy's stay as they were
        env.reset(seed=seed)
        drawn |= {type(mine[seat].current).__name__ for seat in mine}
    assert len(drawn) == 2
    assert all(theirs[seat].current is before[seat] for seat in theirs)


def test_an_env_pickles_before_its_first_reset():
    env = gymnasium.make("jungle_envs/TropicRace-v0")
    twin = pickle.loads(pickle.dumps(env))
    assert play_one(twin) == play_one(env)


def play_one(env):
    env.reset(seed=9)
    return play(env, seed=9, steps=20)


# --- options keyed by numbers ------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "option", "value"),
    [
        ("JungleSweep", "coconuts", {0: 2, 1: 12, 2: 12, 3: 8}),
        ("ElephantFestival", "tiles_per_color", {1: 5, 2: 4, 4: 2}),
    ],
)
def test_integer_keyed_options_accept_numeric_strings_as_json_gives_them(game, option, value):
    as_json = {str(key): count for key, count in value.items()}
    assert (
        make_game(game, 4, **{option: as_json}).options
        == make_game(game, 4, **{option: value}).options
    )
    with pytest.raises(ValueError, match="integers"):
        make_game(game, 4, **{option: {"one": 3}})
    with pytest.raises(ValueError, match="repeats"):
        make_game(game, 4, **{option: {**value, str(next(iter(value))): 1}})


# --- seats, viewers and chance outcomes ----------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_seats_and_viewers_out_of_range_are_refused(env_id):
    game = make_game(env_id.split("/")[1].removesuffix("-v0"), 4)
    state = game.new_state()
    for seat in (-1, 4, 99, 1.0, True, "0"):
        with pytest.raises(ValueError, match=r"seat in 0\.\.3"):
            game.observe(state, seat)
        with pytest.raises(ValueError, match="viewer must be a seat"):
            game.render(state, viewer=seat)
    assert game.observe(state, np.int64(3)).shape == (game.observation_size,)
    assert isinstance(game.render(state, viewer=None), str)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_chance_outcomes_are_integers_only(env_id):
    game = make_game(env_id.split("/")[1].removesuffix("-v0"), 4)
    state = game.new_state()
    outcome = next(o for o, p in game.chance_event(state).distribution().items() if p > 0)
    before = game.state_to_json(state)
    for lookalike in (float(outcome), bool(outcome) if outcome in (0, 1) else str(outcome)):
        with pytest.raises(IllegalActionError, match="not a possible outcome"):
            game.apply_chance(state, lookalike)
        assert game.state_to_json(state) == before
    game.apply_chance(state, np.int64(outcome))
    assert game.state_to_json(state) != before


# --- options no game can be played with ------------------------------------------------
def test_a_die_of_only_arrows_is_refused_when_the_env_is_made():
    with pytest.raises(ValueError, match="only ARROW faces"):
        gymnasium.make("jungle_envs/TropicRace-v0", die_faces=["ARROW"] * 10)
    gymnasium.make("jungle_envs/TropicRace-v0", die_faces=["ARROW"] * 9 + ["LION"]).reset(seed=0)


# --- the env's own step limit --------------------------------------------------------------
@pytest.mark.parametrize(
    ("env_id", "options"),
    [
        (
            "jungle_envs/ElephantFestival-v0",
            {"tiles_per_color": {0: 200, **dict.fromkeys(range(1, 6), 0)}},
        ),
        (
            "jungle_envs/ElephantFestival-v0",
            {"tiles_per_color": {5: 1, **dict.fromkeys(range(5), 0)}},
        ),
        ("jungle_envs/JungleSweep-v0", {"max_dice_rounds": 1}),
        ("jungle_envs/TropicRace-v0", {}),
        ("jungle_envs/SpankTheMonkey-v0", {}),
    ],
)
def test_an_episode_ends_terminated_or_truncated_never_both(env_id, options, each_engine):
    """The step limit defaults to the game's bound on a seat's decisions; the last
    decision of a game that long ends it, which is termination, not truncation."""
    env = gymnasium.make(env_id, num_players=2, **options)
    bound = env.unwrapped.step_limit
    rng = np.random.default_rng(0)
    for limit in (bound, 1, 2):
        env = gymnasium.make(env_id, num_players=2, step_limit=limit, **options)
        for seed in range(4):
            env.reset(seed=seed)
            for steps in range(1, limit + 1):
                action = int(rng.choice(np.flatnonzero(env.action_masks())))
                _, _, terminated, truncated, info = env.step(action)
                assert not (terminated and truncated)
                if truncated:
                    assert steps == limit and "winners" not in info
                if terminated or truncated:
                    break
            else:
                raise AssertionError(f"no end after {limit} steps with step_limit={limit}")


# --- opponents given as paths ----------------------------------------------------------------
def test_opponent_paths_that_are_no_model_say_what_they_are(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "model.zip").write_bytes(
        (jungle_envs.agents.AGENTS_DIR / "TropicRace-4p.zip").read_bytes()
    )
    text = tmp_path / "notes"
    text.write_text("not a model")
    with zipfile.ZipFile(tmp_path / "other.zip", "w") as archive:
        archive.writestr("readme.txt", "a zip, but no model")
    cases = {
        run: "is a folder, not a MaskablePPO model .zip; the run's model is",
        tmp_path: "is a folder, not a MaskablePPO model .zip$",
        text: "not a zip archive",
        tmp_path / "other.zip": "not a loadable MaskablePPO model",
        tmp_path / "missing" / "model": "no MaskablePPO model at",
    }
    for path, message in cases.items():
        with pytest.raises((ValueError, FileNotFoundError), match=message):
            gymnasium.make("jungle_envs/TropicRace-v0", opponents=str(path))
    env = gymnasium.make("jungle_envs/TropicRace-v0", opponents=str(run / "model"))
    env.reset(seed=0)  # a model path without its .zip, as Stable-Baselines3 saves it
