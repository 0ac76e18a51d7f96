"""Training configs: per-game JSON files with defaults, overridable from the command line.

A config is a nested dict. ``load_config`` starts from ``DEFAULTS``, applies the game's file
(``training/configs/<game>.json``; a missing one is an error, not a run on defaults) or a file
given with ``--config``, then ``key=value`` overrides such as ``ppo.learning_rate=1e-4``
(values are parsed as JSON when they can be).
``training.validate`` checks the result, field by field, before a run writes or starts anything.
"""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path
from typing import Any

from jungle_envs.core.registry import resolve_env_id

CONFIG_DIR = Path(__file__).parent / "configs"


class ConfigError(ValueError):
    """A config, override or config file that cannot be used; the message names the field."""


DEFAULTS: dict[str, Any] = {
    "env": "jungle_envs/JungleSweep-v0",
    "players": None,  # the game's default
    "env_options": {},  # game options passed to gymnasium.make
    # a name, a model path, a list per seat, a mixture {"random": 0.3, "heuristic": 0.7}
    # drawn per seat and episode, or "self"
    "opponents": "random",
    # stages [{"from": 0.5, "opponents": {...}}, ...]: from that fraction of the budget on,
    # the opponents are that mixture of built-in players and the league's pool ("pool")
    # (compiled vector env)
    "curriculum": [],
    # a mixture's "pool" share plays frozen snapshots of the learner, taken in memory at the
    # start and every snapshot_freq steps; the newest pool_size of them are kept
    "league": {"snapshot_freq": 500_000, "pool_size": 8, "deterministic": False},
    "timesteps": 1_000_000,
    # a wall-time budget in seconds (all sessions of a run together): training stops at
    # whichever of the two budgets comes first, and curriculum stages follow this one
    "wall_seconds": None,
    "n_envs": 2,
    # auto: one compiled vector env when every opponent is built in, else one Gymnasium env
    # per worker process; python: always the latter; compiled: always the former
    "vec_env": "auto",
    "seed": 0,
    # threads for PyTorch's updates; null: half the cores, at most 4, with the compiled
    # vector env, 1 with worker processes (more collapses on a busy machine: docs/training.md)
    "torch_threads": None,
    # a MaskablePPO zip whose weights a new run starts from (e.g. from training.imitate)
    "init": None,
    # with rounds > 0 (and no init), a new run first imitates the heuristic
    # (training.imitate: DAgger rounds of `steps` learner decisions, `epochs` passes over the
    # data at `learning_rate`) into RUN/imitate/ and starts PPO from that model
    "imitate": {
        "rounds": 0,
        "steps": 32_768,
        "epochs": 4,
        "batch_size": 256,
        "learning_rate": 1e-3,
    },
    # "mlp": SB3's MLP over the flat observation; "moves": score each action from its move
    # features with one network shared by every action (needs env_options.move_features)
    "policy": "mlp",
    # per player count, entries that replace the file's for that table: {"2": {...}, "4":
    # {...}}; a run takes its table's and keeps none (its config.json is what it ran)
    "tables": {},
    # the later stages of a table's recipe (training.agent), each continuing the model the
    # one before picked: {"name": ..., "set": {"dotted.key": value, ...}, "select": "final"
    # or "validation"} (training.train with those overrides), or {"name": ..., "allseat":
    # {"seats": ..., "seconds": ...}} (training.allseat with those arguments), or {"name": ...,
    # "distill": {"teacher": ..., "rounds": ...}} (training.distill with those arguments)
    "stages": [],
    "eval": {"freq": 50_000, "games": 200, "opponents": "random"},
    "checkpoint_freq": 50_000,
    "keep_checkpoints": 3,
    "self_play": {
        "snapshot_freq": 100_000,  # a copy of the learner joins the pool this often
        "pool_size": 10,  # the newest snapshots kept in the pool
        "fixed": ["random", "heuristic"],  # opponents mixed in ...
        "fixed_ratio": 0.3,  # ... this share of the episodes
    },
    "ppo": {
        "learning_rate": 3e-4,
        "n_steps": 1024,
        "batch_size": 256,
        "n_epochs": 10,
        "gamma": 0.995,
        "gae_lambda": 0.95,
        "clip_range": 0.2,
        "ent_coef": 0.01,
        "vf_coef": 0.5,
        "net_arch": [128, 128],
    },
}


def game_config_path(env_id: str) -> Path:
    stem = env_id.removeprefix("jungle_envs/").removesuffix("-v0")
    snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in stem).lstrip("_")
    return CONFIG_DIR / f"{snake}.json"


# Keys whose value a table's replaces whole, at any depth: a mixture or a network is one
# choice, so {"heuristic": 1.0} over {"random": 0.5, "heuristic": 0.5} keeps no random half.
WHOLE = frozenset({"opponents", "curriculum", "stages", "net_arch"})


def merge(
    base: dict[str, Any], update: dict[str, Any], whole: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """``update`` over ``base``: nested sections merged key by key, except keys in ``whole``."""
    out = copy.deepcopy(base)
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and key not in whole:
            out[key] = merge(out[key], value, whole)
        else:
            out[key] = copy.deepcopy(value)
    return out


def parse_override(text: str) -> tuple[list[str], Any]:
    if "=" not in text:
        raise ConfigError(f"an override looks like key.sub=value, got {text!r}")
    key, raw = text.split("=", 1)
    return key.split("."), parse_value(raw)


def parse_value(raw: str) -> Any:
    """A command-line value: JSON when it parses (``true``, ``3``, ``[64, 64]``), else text."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


# Sections whose keys are open: game options are checked by the env itself when it is
# made, so ``env_options.move_features=true`` may add a key the defaults do not list.
OPEN_SECTIONS = ("env_options",)


def apply_override(config: dict[str, Any], path: list[str], value: Any) -> None:
    node = config
    for part in path[:-1]:
        if not isinstance(node.get(part), dict):
            raise ConfigError(f"unknown config section {'.'.join(path[:-1])!r}")
        node = node[part]
    if path[-1] not in node and tuple(path[:-1]) not in {(name,) for name in OPEN_SECTIONS}:
        raise ConfigError(f"unknown config key {'.'.join(path)!r}; known here: {sorted(node)}")
    node[path[-1]] = value


def load_config(
    env_id: str | None,
    file: str | Path | None = None,
    overrides: list[str] = (),
    players: int | None = None,
) -> dict[str, Any]:
    """DEFAULTS, then the file (the game's unless given), then the file's entries for the
    table (``players``, else the config's or the game's default count), then ``overrides``."""
    config = copy.deepcopy(DEFAULTS)
    if file:
        source = Path(file)
    else:
        # every game has its file: a missing one is an error, never a silent run on defaults
        name = env_id or DEFAULTS["env"]
        source = game_config_path(name)
        if not source.is_file():
            raise ConfigError(
                f"no config file for {name!r}: {str(source)!r} does not exist "
                "(pass --config FILE to train from another file)"
            )
    config = merge(config, read_config_file(source))
    if env_id:
        config["env"] = env_id
    parsed = [parse_override(text) for text in overrides]
    for path, value in parsed:
        apply_override(config, path, value)
    table = table_entries(config, players)
    if table:
        config = merge(config, table, WHOLE)
        for path, value in parsed:  # the command line still has the last word
            apply_override(config, path, value)
    config["tables"] = {}
    # a short id ("TropicRace-v0") in a file or an override names the same env; an unknown
    # one stays for training.validate to name the allowed ids
    with contextlib.suppress(ValueError, TypeError):
        config["env"] = resolve_env_id(config["env"])
    return config


def table_entries(config: dict[str, Any], players: int | None) -> dict[str, Any]:
    """The config's entries for one player count (``{}`` when it has none)."""
    tables = config.get("tables")
    if not tables:
        return {}
    if not isinstance(tables, dict) or not all(
        isinstance(key, str) and key.isdigit() and isinstance(value, dict)
        for key, value in tables.items()
    ):
        raise ConfigError(
            'tables must be an object {"2": {...}, "4": {...}} of entries per player count, '
            f"got {json.dumps(tables)[:120]}"
        )
    if players is None:
        players = config.get("players")
    if players is None:
        with contextlib.suppress(ValueError, TypeError, KeyError):
            import jungle_envs

            players = jungle_envs.game_class(resolve_env_id(config["env"])).spec.default_players
    return copy.deepcopy(tables.get(str(players), {}))


def read_config_file(path: Path) -> dict[str, Any]:
    """A config file's object, or a ConfigError naming the file and what is wrong with it."""
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"config file {str(path)!r} does not exist") from None
    except IsADirectoryError:
        raise ConfigError(f"config file {str(path)!r} is a folder, not a JSON file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config file {str(path)!r} cannot be read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"config file {str(path)!r} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(
            f"config file {str(path)!r} must hold a JSON object, got {type(data).__name__}"
        )
    return data
