"""Checks of a training recipe's later stages (``stages`` in a game's config), part of
``check_config``: each stage's name and kind, the arguments a ``training.allseat`` or
``training.distill`` stage may give, what a ``set`` stage may override (checked as a
whole config of its own), and what a distill stage's arguments say together (a values
target needs a teacher that values moves, ``data_from`` names earlier distill stages).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from training.config import ConfigError, apply_override
from training.validate import (
    MIXABLE,
    Rule,
    check_config,
    check_opponent_names,
    choice,
    integer,
    mixture,
    number,
    shown,
)

# training.allseat's arguments a recipe stage may give (the rest come from the recipe)
ALLSEAT_ARGS: dict[str, Rule] = {
    "seats": Rule("seats as training.allseat takes them", lambda v: isinstance(v, str) and v),
    "seconds": number(0, above=True),
    "steps": integer(1),
    "num_envs": integer(1),
    "rollout": integer(2),
    "learning_rate": number(0, above=True),
    "ent_coef": number(0),
    "batch_size": integer(2),
    "epochs": integer(1),
    "pool_size": integer(1),
    "snapshot_every": integer(1),
    "threads": integer(1),
    "seed": integer(0, 2**31 - 1),
}
# training.distill's arguments a recipe stage may give (init, out and the env: the recipe's)
DISTILL_ARGS: dict[str, Rule] = {
    "teacher": Rule(
        "a teacher's name (mcts..., rollout..., broom-lookahead... or round-rollout...)",
        lambda v: (
            isinstance(v, str)
            and v.startswith(("mcts", "rollout", "broom-lookahead", "round-rollout"))
        ),
    ),
    "rounds": integer(1),
    "games": integer(1),
    "beta": number(0, 1),
    "epochs": integer(1),
    "batch_size": integer(1),
    "lr": number(0, 1, above=True),
    "target": choice("visits", "best", "values"),
    "temperature": number(0, above=True),
    "min_share": number(0, 1),
    "overruled_weight": number(0, above=True),
    "move_layers": integer(1),
    "refit_layers": integer(1),
    "workers": integer(1),
    "seed": integer(0, 2**31 - 1),
    # the other seats of the stage's games, as training.distill --opponents takes them
    "opponents": Rule(
        "an opponent name (built-in, ppo, a model path), one per seat (a,b,c), or a "
        "built-in mixture {name: weight}",
        lambda v: (isinstance(v, str) and bool(v)) or mixture(MIXABLE[:2]).ok(v),
    ),
    # earlier distill stages whose rounds the stage fits on as well (training.distill --data)
    "data_from": Rule(
        "a list of earlier distill stages' names",
        lambda v: isinstance(v, list) and bool(v) and all(isinstance(n, str) for n in v),
    ),
}
# what a training stage continues and may not change
FIXED_BY_RECIPE = ("env", "players", "init", "stages", "tables")
STAGE_KINDS = ("set", "allseat", "distill")


def check_recipe_stages(config: dict[str, Any]) -> None:
    """Each later stage of the recipe: a name, and training.train overrides that give a valid
    config over this one, or training.allseat arguments of the right kinds."""
    names: set[str] = set()
    teachers: dict[str, str] = {}  # the earlier distill stages' teachers, by stage name
    for i, stage in enumerate(config["stages"]):
        where = f"stages[{i}]"
        kinds = [kind for kind in STAGE_KINDS if isinstance(stage, dict) and kind in stage]
        if (
            not isinstance(stage, dict)
            or len(kinds) != 1
            or not isinstance(stage[kinds[0]], dict)
            or set(stage) - {"name", "select", *STAGE_KINDS}
            or not re.fullmatch(r"[A-Za-z0-9_-]+", str(stage.get("name", "")))
        ):
            raise ConfigError(
                f'{where} must be {{"name": NAME, "set": {{...}}, "select": "final" or '
                f'"validation"}}, {{"name": NAME, "allseat": {{...}}}} or {{"name": NAME, '
                f'"distill": {{...}}}} (NAME of letters, digits, - and _), got {shown(stage)}'
            )
        if stage["name"] in names:
            raise ConfigError(f"{where}: the name {stage['name']!r} is taken by an earlier stage")
        names.add(stage["name"])
        kind = kinds[0]
        if kind in ("allseat", "distill"):
            if "select" in stage:
                raise ConfigError(f"{where}: a stage of {kind} ships its final model; drop select")
            rules = ALLSEAT_ARGS if kind == "allseat" else DISTILL_ARGS
            for key, value in stage[kind].items():
                if key not in rules:
                    raise ConfigError(f"unknown key {where}.{kind}.{key}; known: {sorted(rules)}")
                if not rules[key].ok(value):
                    raise ConfigError(
                        f"{where}.{kind}.{key} must be {rules[key].allowed}, got {shown(value)}"
                    )
            if kind == "distill":
                check_distill_stage(where, stage["distill"], teachers)
                teachers[stage["name"]] = str(stage["distill"].get("teacher", "mcts:300"))
            continue
        if stage.get("select", "final") not in ("final", "validation"):
            raise ConfigError(f'{where}.select must be "final" or "validation"')
        trial = copy.deepcopy({**config, "stages": []})
        for key in stage["set"]:
            if key.split(".")[0] in FIXED_BY_RECIPE:
                raise ConfigError(f"{where}.set may not change {key} (the recipe fixes it)")
        try:
            for key, value in stage["set"].items():
                apply_override(trial, key.split("."), value)
            check_config(trial)
        except ConfigError as exc:
            raise ConfigError(f"{where}.set: {exc}") from None


def check_distill_stage(where: str, args: dict[str, Any], teachers: dict[str, str]) -> None:
    """What a distill stage's arguments say together: a values target needs a teacher that
    values moves, in the stage and in every earlier stage it takes data from."""
    values = args.get("target") == "values"
    if values and not str(args.get("teacher", "")).startswith("round-rollout"):
        raise ConfigError(f'{where}.distill: target "values" needs a round-rollout teacher')
    for name in args.get("data_from", []):
        if name not in teachers:
            raise ConfigError(
                f"{where}.distill.data_from: {name!r} is not an earlier distill stage; "
                f"earlier: {sorted(teachers) or 'none'}"
            )
        if values and not teachers[name].startswith("round-rollout"):
            raise ConfigError(
                f'{where}.distill.data_from: target "values" fits move values, and stage '
                f"{name!r}'s teacher {teachers[name]!r} does not value moves"
            )
    spec = args.get("opponents")
    if isinstance(spec, str):
        check_opponent_names(f"{where}.distill.opponents", spec.split(","))
