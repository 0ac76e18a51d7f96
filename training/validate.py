"""Checks a training config whole before a run writes a file or starts a worker.

``FIELDS`` lists every entry of the config (``training/config.py``'s ``DEFAULTS``) with the
values it takes; ``check_config`` applies it, rejects keys it does not list, then checks
what depends on more than one field: the game's player range, the env and game options
(by making one in-process env on the Python engine), that every opponent resolves, and
that a curriculum or league pool gets the compiled vector env it needs. Every failure is a
``ConfigError`` whose one-line message names the field and the values it allows; the
scripts print it and exit with status 2 (``training.cli.fail``), as argparse does. The
recipe's later stages are checked in ``training.recipe_checks``.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jungle_envs
from jungle_envs.core.policies import POLICY_REGISTRY
from training.cli import fail
from training.config import ConfigError

SELF = "self"  # the self-play opponent of training.train (worker processes)
POOL = "pool"  # a mixture's share of the league's snapshots (compiled vector env)
MIXABLE = ("random", "heuristic", POOL)  # what the compiled vector env can mix
# env arguments that are not the config's to pass through env_options, and why
RESERVED_ENV_OPTIONS = {
    "num_players": "the run sets it from players",
    "opponents": "the run sets it from opponents",
    "render_mode": "training renders nothing",
}


@dataclass(frozen=True)
class Rule:
    allowed: str  # the accepted values, as an error message names them
    ok: Callable[[Any], bool]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    # bool is an int to Python, and NaN or Infinity parse as JSON from the command line
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def integer(low: int, high: int | None = None) -> Rule:
    allowed = f"an integer >= {low}" if high is None else f"an integer from {low} to {high}"
    return Rule(allowed, lambda v: _is_int(v) and low <= v and (high is None or v <= high))


def number(low: float, high: float | None = None, *, above: bool = False) -> Rule:
    if high is not None:
        allowed = f"a number from {low} to {high}"
    else:
        allowed = f"a number {'>' if above else '>='} {low}"

    def ok(v: Any) -> bool:
        return _is_number(v) and (v > low if above else v >= low) and (high is None or v <= high)

    return Rule(allowed, ok)


def choice(*values: str) -> Rule:
    return Rule(f"one of {', '.join(values)}", lambda v: isinstance(v, str) and v in values)


def optional(rule: Rule) -> Rule:
    return Rule(f"null or {rule.allowed}", lambda v: v is None or rule.ok(v))


def mixture(names: tuple[str, ...] | None = None) -> Rule:
    keys = f"{', '.join(names)}" if names else "opponent names"
    return Rule(
        f"a mixture {{name: weight}} of {keys} with weights >= 0, not all 0",
        lambda v: (
            isinstance(v, dict)
            and bool(v)
            and (names is None or set(v) <= set(names))
            and all(_is_number(w) and w >= 0 for w in v.values())
            and sum(v.values()) > 0
        ),
    )


def _layers(value: Any) -> bool:
    return isinstance(value, list) and all(_is_int(n) and n >= 1 for n in value)


def _net_arch(value: Any) -> bool:
    if isinstance(value, dict):  # separate policy and value networks
        return bool(value) and set(value) <= {"pi", "vf"} and all(map(_layers, value.values()))
    return _layers(value)


BOOLEAN = Rule("true or false", lambda v: isinstance(v, bool))
OPPONENTS = Rule(
    "an opponent name, a model path, a comma list, a list per seat or a mixture {name: weight}",
    lambda v: (
        (isinstance(v, str) and bool(v))
        or (isinstance(v, list) and bool(v) and all(s is None or isinstance(s, str) for s in v))
        or mixture().ok(v)
    ),
)
NET_ARCH = Rule('a list of layer sizes (integers >= 1) or {"pi": [...], "vf": [...]}', _net_arch)

# Every entry of a config; a dotted name is a key of a section.
FIELDS: dict[str, Rule] = {
    "env": Rule(
        f"one of {', '.join(jungle_envs.ENV_IDS)} or a short id (TropicRace-v0, tropic_race)",
        choice(*jungle_envs.ENV_IDS).ok,
    ),
    "players": optional(integer(1)),  # the game's own range is checked once the env is known
    "env_options": Rule("an object of env and game options", lambda v: isinstance(v, dict)),
    "opponents": OPPONENTS,
    "curriculum": Rule(
        'a list of stages {"from": fraction, "opponents": mixture}', lambda v: isinstance(v, list)
    ),
    "league.snapshot_freq": integer(1),
    "league.pool_size": integer(1),
    "league.deterministic": BOOLEAN,
    "timesteps": integer(1),
    "wall_seconds": optional(number(0, above=True)),
    "n_envs": integer(1),
    "vec_env": choice("auto", "python", "compiled"),
    # later sessions and the eval env add to it, and NumPy takes seeds below 2**32
    "seed": integer(0, 2**31 - 1),
    "torch_threads": optional(integer(1)),
    "policy": choice("mlp", "moves"),
    "init": optional(
        Rule("a MaskablePPO .zip that exists", lambda v: isinstance(v, str) and os.path.isfile(v))
    ),
    "imitate.rounds": integer(0),
    "imitate.steps": integer(1),
    "imitate.epochs": integer(1),
    "imitate.batch_size": integer(1),
    "imitate.learning_rate": number(0, above=True),
    "eval.freq": integer(1),
    "eval.games": integer(1),
    "eval.opponents": OPPONENTS,
    "checkpoint_freq": integer(1),
    "keep_checkpoints": integer(1),  # 0 would keep them all: step-*.zip[:-0] is empty
    "self_play.snapshot_freq": integer(1),
    "self_play.pool_size": integer(1),
    "self_play.fixed": Rule(
        "a non-empty list of opponent names",
        lambda v: isinstance(v, list) and bool(v) and all(isinstance(s, str) for s in v),
    ),
    "self_play.fixed_ratio": number(0, 1),
    "ppo.learning_rate": number(0, above=True),
    "ppo.n_steps": integer(1),
    "ppo.batch_size": integer(2),  # the advantages of a one-sample batch normalise to NaN
    "ppo.n_epochs": integer(1),
    "ppo.gamma": number(0, 1),
    "ppo.gae_lambda": number(0, 1),
    "ppo.clip_range": number(0, above=True),
    "ppo.ent_coef": number(0),
    "ppo.vf_coef": number(0),
    "ppo.net_arch": NET_ARCH,
    "tables": Rule(
        'an object {"2": {...}, "4": {...}} of entries per player count',
        lambda v: (
            isinstance(v, dict)
            and all(
                isinstance(k, str) and k.isdigit() and isinstance(x, dict) for k, x in v.items()
            )
        ),
    ),
    "stages": Rule(
        'a list of recipe stages {"name": ..., "set" | "allseat" | "distill": {...}}',
        lambda v: isinstance(v, list),
    ),
}
STAGE_FIELDS: dict[str, Rule] = {"from": number(0, 1), "opponents": mixture(MIXABLE)}


def shown(value: Any) -> str:
    """A value as the config writes it, kept to one short line."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 120 else f"{text[:117]}..."


def check_fields(config: Any, fields: dict[str, Rule], where: str = "") -> None:
    """Types and ranges of ``fields`` in ``config`` (sections nested by dotted names)."""
    sections: dict[str, dict[str, Rule]] = {}
    for name, rule in fields.items():
        head, dot, rest = name.partition(".")
        if dot:
            sections.setdefault(head, {})[rest] = rule
    known = sorted({name.partition(".")[0] for name in fields})
    if not isinstance(config, dict):
        what = where.rstrip(".") or "a config"
        raise ConfigError(f"{what} must be an object with keys {known}, got {shown(config)}")
    unknown = sorted(set(config) - set(known))
    if unknown:
        raise ConfigError(f"unknown config key {where + unknown[0]!r}; known here: {known}")
    for name in known:
        path = where + name
        if name in sections:
            check_fields(config.get(name), sections[name], f"{path}.")
        elif name not in config:
            raise ConfigError(f"{path} is missing; it must be {fields[name].allowed}")
        elif not fields[name].ok(config[name]):
            raise ConfigError(f"{path} must be {fields[name].allowed}, got {shown(config[name])}")


def split_opponents(spec: Any) -> Any:
    """``"a,b,c"`` is a list of one opponent per seat after the learner."""
    return spec.split(",") if isinstance(spec, str) and "," in spec else spec


def plain_policy_names() -> list[str]:
    """Registered names usable alone (``rllib`` needs its checkpoint after a colon)."""
    return sorted(n for n, e in POLICY_REGISTRY.items() if n != "rllib" or not e.with_argument)


def opponent_known(name: str) -> bool:
    """A registered policy, an RLlib checkpoint or a model file that exists."""
    if name in POLICY_REGISTRY and (
        not POLICY_REGISTRY[name].with_argument or name == "ppo-sample"
    ):
        return True
    head = name.split(":")[0]
    if head in ("mcts", "mcts+ppo", "rollout"):
        from jungle_envs.search import MCTS, Rollout

        try:
            (Rollout if head == "rollout" else MCTS).from_name(name)
        except ValueError:
            return False
        return True
    if name.startswith("rllib:"):
        return os.path.exists(name.removeprefix("rllib:"))
    if name.startswith("ppo-sample:"):
        return os.path.isfile(name.removeprefix("ppo-sample:"))
    return os.path.isfile(name) or os.path.isfile(f"{name}.zip")  # a run folder is no model


def check_policy_name(prog: str, flag: str, name: str) -> None:
    """One line and status 2 for a player name that is no built-in player, model file or
    RLlib checkpoint (a run folder: the hint names its model)."""
    if opponent_known(name):
        return
    hint = ""
    if os.path.isdir(name):
        inside = os.path.join(name, "model.zip")
        hint = (
            f" ({name!r} is a folder; its model is {inside!r})"
            if os.path.isfile(inside)
            else (f" ({name!r} is a folder, not a model file)")
        )
    fail(
        f"{prog}: error: {flag} {name!r} is neither a built-in player "
        f"({', '.join(plain_policy_names())}, mcts:BUDGET, mcts+ppo:BUDGET, "
        f"rollout:ROLLOUTS, ppo-sample:MODEL), a model file that exists nor "
        f"rllib:CHECKPOINT_DIR{hint}"
    )


def check_opponent_names(field: str, spec: Any, extra: tuple[str, ...] = ()) -> None:
    names = list(spec) if isinstance(spec, (dict, list)) else [spec]
    for name in names:
        if name is None or name in extra or opponent_known(name):
            continue
        allowed = ", ".join([*plain_policy_names(), *extra])
        raise ConfigError(
            f"{field} names an unknown opponent {name!r}; allowed: {allowed}, mcts:BUDGET, "
            f"mcts+ppo:BUDGET, rollout:ROLLOUTS, a model path that exists or rllib:CHECKPOINT_DIR"
        )


def make_env(field: str, env_id: str, players: int | None, options: dict, opponents: Any):
    """Make (and close) one env in this process on the Python engine: the env and the game
    check their options, player count and opponents, without compiling or forking."""
    import gymnasium as gym

    kwargs = {**options, "engine": "reference"}
    try:
        gym.make(env_id, num_players=players, opponents=opponents, **kwargs).close()
    except (ValueError, TypeError) as exc:
        raise ConfigError(f"{field}: {exc}") from None
    except Exception as exc:  # e.g. a model file that does not load
        raise ConfigError(f"{field}: {type(exc).__name__}: {exc}") from None


def check_env(config: dict[str, Any]) -> None:
    env_id, players, options = config["env"], config["players"], config["env_options"]
    spec = jungle_envs.game_class(env_id).spec
    if players is not None and players not in spec.player_counts:
        raise ConfigError(
            f"players must be an integer from {spec.min_players} to {spec.max_players} for "
            f"{env_id}, got {shown(players)}"
        )
    reserved = sorted(set(options) & set(RESERVED_ENV_OPTIONS))
    if reserved:
        name = reserved[0]
        raise ConfigError(f"env_options.{name} is not allowed: {RESERVED_ENV_OPTIONS[name]}")
    from jungle_envs.core.arguments import CHOICES

    engine = options.get("engine", "auto")
    if engine not in CHOICES["engine"]:
        raise ConfigError(
            f"env_options.engine must be one of {', '.join(CHOICES['engine'])}, got {shown(engine)}"
        )
    make_env("env_options", env_id, players, options, "random")


def check_opponents(config: dict[str, Any]) -> None:
    env_id, players, options = config["env"], config["players"], config["env_options"]
    spec = split_opponents(config["opponents"])
    if isinstance(spec, dict):
        check_opponent_names("opponents", spec, (POOL,))
        # the pool is the league's, filled while training: the env checks the rest
        rest = {name: w for name, w in spec.items() if name != POOL}
        make_env("opponents", env_id, players, options, rest if sum(rest.values()) else "random")
    elif spec == SELF:
        check_opponent_names("self_play.fixed", config["self_play"]["fixed"])
        for name in config["self_play"]["fixed"]:
            make_env("self_play.fixed", env_id, players, options, name)
    else:
        check_opponent_names("opponents", spec, (SELF,) if isinstance(spec, str) else ())
        make_env("opponents", env_id, players, options, spec)
    evaluated = split_opponents(config["eval"]["opponents"])
    check_opponent_names("eval.opponents", evaluated)
    make_env("eval.opponents", env_id, players, options, evaluated)


def check_vectorization(config: dict[str, Any]) -> None:
    """A curriculum and the league's pool switch the opponents of the compiled vector env,
    which plays built-in opponents only."""
    from training.common import built_in, uses_pool

    opponents, vec_env = split_opponents(config["opponents"]), config["vec_env"]
    league = bool(config["curriculum"]) or uses_pool(config)
    if league and vec_env == "python":
        raise ConfigError(
            "vec_env must be auto or compiled with a curriculum or a league pool (a mixture's "
            "'pool' share), got 'python'"
        )
    if (league or vec_env == "compiled") and not built_in(opponents):
        why = "a curriculum or a league pool" if league else "vec_env compiled"
        raise ConfigError(
            f"opponents must be random, heuristic, a list of them or a mixture of random, "
            f"heuristic and pool with {why}, got {shown(config['opponents'])}"
        )
    engine = config["env_options"].get("engine", "auto")
    if league and engine == "reference":
        raise ConfigError(
            "env_options.engine must be auto or compiled with a curriculum or a league pool "
            "(they need the compiled vector env), got 'reference'"
        )
    if league or vec_env == "compiled" or engine == "compiled":
        from jungle_envs.core.compiled.twin import Twin, TwinUnavailable

        game_class = jungle_envs.game_class(config["env"])
        names = {option.name for option in game_class.spec.options}
        options = {k: v for k, v in config["env_options"].items() if k in names}
        game = game_class(config["players"], **options)
        try:
            Twin(game)
        except TwinUnavailable as exc:
            raise ConfigError(
                f"env_options: the compiled engine (vec_env compiled, a curriculum or a league "
                f"pool) cannot play these options: {exc}"
            ) from None


def check_config(config: Any) -> None:
    """Raise a ConfigError naming the first field that is wrong."""
    check_fields(config, FIELDS)
    for i, stage in enumerate(config["curriculum"]):
        check_fields(stage, STAGE_FIELDS, f"curriculum[{i}].")
    check_env(config)
    check_opponents(config)
    check_vectorization(config)
    if config["policy"] == "moves" and config["env_options"].get("move_features") is not True:
        raise ConfigError(
            "policy 'moves' scores each action from its move features: set "
            "env_options.move_features=true"
        )
    from training.recipe_checks import check_recipe_stages  # it checks set stages here

    check_recipe_stages(config)
    ppo = config["ppo"]
    rollout = ppo["n_steps"] * config["n_envs"]
    if rollout % ppo["batch_size"] == 1:
        raise ConfigError(
            f"ppo.batch_size must not leave a minibatch of one sample (its advantages "
            f"normalise to NaN): ppo.n_steps x n_envs = {rollout}, got {ppo['batch_size']}"
        )
