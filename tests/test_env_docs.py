"""Each env's documentation: Gymnasium's docstring sections, and the site's env page."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from jungle_envs.core.registry import ENTRIES, load_entry_point

ROOT = Path(__file__).resolve().parents[1]
SECTIONS = ["Description", "Action Space", "Observation Space", "Rewards", "Starting State",
            "Episode End", "Information", "Arguments", "Version History"]  # fmt: skip


def env_pages():
    spec = importlib.util.spec_from_file_location("env_pages", ROOT / "docs/site/env_pages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", list(ENTRIES))
def test_every_env_docstring_has_gymnasiums_sections_in_order(name):
    pages = env_pages()
    sections = pages.docstring_sections(load_entry_point(ENTRIES[name].env))
    assert list(sections) == SECTIONS
    assert all(sections.values())


@pytest.mark.parametrize("name", list(ENTRIES))
def test_the_env_page_names_every_action_piece_option_and_info_key(name):
    pages = env_pages()
    page = pages.env_page(name)
    spec = load_entry_point(ENTRIES[name].game).spec
    for index, action in enumerate(spec.action_names):
        assert f"| {index} | {action} |" in page
    import jungle_envs

    for piece in jungle_envs.make_game(name).config.layout:
        assert f"| `{piece.name}` |" in page
    for option in spec.options:
        assert f"| `{option.name}` |" in page
    for key in pages.end_info_keys(f"jungle_envs/{name}-v0"):
        assert f"| `{key}` |" in page


def test_an_info_key_described_nowhere_fails_the_page(monkeypatch):
    pages = env_pages()
    monkeypatch.setattr(pages, "end_info_keys", lambda env_id: ["action_mask", "mystery"])
    with pytest.raises(ValueError, match="mystery"):
        pages.info_table("jungle_envs/TropicRace-v0", "")


@pytest.mark.parametrize("name", list(ENTRIES))
def test_the_registry_shows_the_env_defaults_and_both_envs_take_them(name):
    import gymnasium as gym

    env_id = f"jungle_envs/{name}-v0"
    kwargs = gym.spec(env_id).kwargs
    spec = load_entry_point(ENTRIES[name].game).spec
    assert kwargs["num_players"] == spec.default_players and kwargs["opponents"] == "random"
    env = gym.make(env_id, num_players=2)  # a caller's argument wins over the default
    assert env.unwrapped.game.num_players == 2 and env.spec.kwargs["num_players"] == 2
    envs = gym.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point")
    assert envs.game.num_players == spec.default_players
    env.close()
    envs.close()
