"""Agents that come with the package: one MaskablePPO model per game and player count,
trained with the game's config (``training/configs``) and playable as the opponent named
``"ppo"``, so there is a ladder random < heuristic < ppo without training anything.

``manifest.json`` lists them: file, env, player count, env options, and how each was
trained (steps, wall time, config). ``python -m training.ship RUN`` adds or replaces one.
Loading a model needs the training extra (sb3-contrib, PyTorch).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jungle_envs.core.game import Game

AGENTS_DIR = Path(__file__).parent
MANIFEST = AGENTS_DIR / "manifest.json"
MAX_BYTES = 5 * 1024 * 1024  # a shipped file stays below this


def shipped() -> dict[str, dict[str, Any]]:
    """The manifest: agent name (``<game>-<N>p``) -> its record."""
    if not MANIFEST.exists():
        return {}
    return json.loads(MANIFEST.read_text())


def agent_name(env_name: str, num_players: int) -> str:
    return f"{env_name}-{num_players}p"


def agent_path(game: Game) -> Path:
    """The shipped model for this game and player count, or a ValueError saying which
    player counts have one."""
    records = shipped()
    name = agent_name(game.spec.env_name, game.num_players)
    if name not in records:
        counts = sorted(r["num_players"] for r in records.values() if r["env"] == game.spec.env_id)
        raise ValueError(
            f"no shipped 'ppo' agent for {game.spec.env_name} with {game.num_players} "
            f"players; shipped for {counts or 'no'} player counts (train one with "
            f"python -m training.train and pass its model.zip as the opponent)"
        )
    return AGENTS_DIR / records[name]["file"]


@cache
def _load(path: str) -> Any:
    # One model per file for the whole process: opponents only run inference on it.
    from jungle_envs.maskable_ppo import load_maskable_ppo

    return load_maskable_ppo(path)


def shipped_policy(game: Game) -> Any:
    """The ``"ppo"`` opponent: the shipped agent for ``game``, playing its most likely
    legal action."""
    from jungle_envs.maskable_ppo import MaskablePPOPolicy

    return MaskablePPOPolicy(_load(str(agent_path(game))))


def sampling_policy(game: Game, path: str | None) -> Any:
    """The ``"ppo-sample"`` opponent (``"ppo-sample:MODEL.zip"`` for another model): the
    model playing as it trains, each move drawn from its masked distribution with the
    env's generator, where ``"ppo"`` and a model path play the likeliest move."""
    from jungle_envs.maskable_ppo import MaskablePPOPolicy

    if path is None:
        return MaskablePPOPolicy(_load(str(agent_path(game))), deterministic=False)
    return MaskablePPOPolicy(path, deterministic=False)
