"""Render modes of the Gymnasium and PettingZoo envs: rgb_array frames, human mode at every
reset and step, and Gymnasium's RecordVideo."""

from __future__ import annotations

import importlib

import gymnasium
import numpy as np
import pytest

import jungle_envs
import jungle_envs.core.game
from jungle_envs import multiagent
from jungle_envs.core.registry import game_class

CASES = [
    pytest.param(env_id, n, id=f"{env_id.split('/')[1]}-{n}p")
    for env_id in jungle_envs.ENV_IDS
    for n in game_class(env_id).spec.player_counts
]


def frame_shape(env_id: str) -> tuple[int, int, int]:
    package = game_class(env_id).__module__.rsplit(".", 1)[0]
    width, height = importlib.import_module(f"{package}.image").FRAME_SIZE
    return (height, width, 3)


@pytest.mark.parametrize(("env_id", "players"), CASES)
def test_every_step_of_a_game_renders_a_frame_of_one_size(env_id, players):
    env = gymnasium.make(env_id, num_players=players, render_mode="rgb_array")
    shape, rng = frame_shape(env_id), np.random.default_rng(players)
    env.reset(seed=players)
    frames = [env.render()]
    for _ in range(400):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, _, terminated, truncated, _ = env.step(action)
        frames.append(env.render())
        if terminated or truncated:
            break
    for frame in frames:
        assert frame.dtype == np.uint8 and frame.shape == shape
    assert len({frame.tobytes() for frame in frames}) > 1  # the picture follows the game


@pytest.mark.parametrize("env_id", jungle_envs.ENV_IDS)
def test_human_mode_prints_at_every_reset_and_step(env_id, capsys):
    env = gymnasium.make(env_id, num_players=2, render_mode="human")
    env.reset(seed=0)
    assert capsys.readouterr().out.strip()
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert capsys.readouterr().out.strip()
    assert env.render() is None


@pytest.mark.parametrize("env_id", jungle_envs.ENV_IDS)
def test_pettingzoo_envs_render_frames_and_print_in_human_mode(env_id, capsys):
    env = multiagent.env(env_id, num_players=3, render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().shape == frame_shape(env_id)
    human = multiagent.env(env_id, num_players=3, render_mode="human")
    human.reset(seed=0)
    assert capsys.readouterr().out.strip()
    with pytest.raises(ValueError, match="render_mode"):
        multiagent.env(env_id, render_mode="picture")


def test_no_frame_is_drawn_unless_asked_for(monkeypatch):
    """Stepping costs nothing extra in the other render modes: no picture is drawn."""

    def refuse(*args, **kwargs):
        raise AssertionError("a frame was drawn")

    monkeypatch.setattr(jungle_envs.core.game.Game, "render_image", refuse)
    for mode in (None, "ansi"):
        env = gymnasium.make("jungle_envs/TropicRace-v0", render_mode=mode)
        env.reset(seed=0)
        for _ in range(20):
            _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            if terminated or truncated:
                env.reset()


def test_record_video_writes_an_mp4_of_an_episode(tmp_path):
    # needs the video extra (moviepy), which the test extra includes
    env = gymnasium.make("jungle_envs/TropicRace-v0", num_players=2, render_mode="rgb_array")
    env = gymnasium.wrappers.RecordVideo(env, str(tmp_path), episode_trigger=lambda e: e == 0)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(30):
        mask = env.unwrapped.action_masks()
        _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            break
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000
