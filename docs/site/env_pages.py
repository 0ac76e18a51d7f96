"""MkDocs hook: one page per env, in Gymnasium's layout, made from the package itself.

Each page is the env class docstring (its ``## Description``, ``## Action Space`` ...
sections) with tables the code knows better than prose: the spaces, every action's name,
the observation layout at the default options, the arguments with their defaults and the
``info`` keys an episode returns (read from a played game, so the page cannot drift from
the env). ``mkdocs.yml`` names this file under ``hooks``; ``env_page`` is also what the
tests read.
"""

from __future__ import annotations

import inspect
import re

import gymnasium as gym
import numpy as np

import jungle_envs
from jungle_envs.core.env import JungleEnv
from jungle_envs.core.registry import ENTRIES, load_entry_point

# What the common info keys hold; the game's own end-of-game keys are in its docstring.
COMMON_INFO = {
    "action_mask": "int8 mask of the learner's legal actions (every step)",
    "agent_seat": "the learner's seat this episode (every step)",
    "scores": "every seat's score (at the end)",
    "winners": "the winning seats (at the end; several on a shared win)",
    "returns": "every seat's +1 / 0 / -1 (at the end)",
    "illegal_action": "True when the episode ended on an illegal action",
    "events": "every decision and chance outcome since the last step (`event_log=True`)",
}
ENV_ARGUMENTS = {
    "num_players": "players at the table",
    "opponents": '"random", "heuristic", "ppo", "mcts[:N]", a model or path, a callable, '
    "or a list per seat",
    "agent_seat": 'the learner\'s seat, or "random" (drawn each reset)',
    "render_mode": 'None, "ansi", "human" or "rgb_array"',
    "observation_mode": '"flat" or "dict" (with the mask)',
    "illegal_action": '"lose" (end the episode, -1) or "raise"',
    "reward": '"win", "score", "margin" or "rank"',
    "skip_forced_actions": "play single legal choices without asking the learner",
    "engine": '"auto" (the compiled twin), "compiled" or "reference"',
    "step_limit": "learner decisions before truncation (-1: the game's bound)",
    "event_log": 'add `info["events"]`',
}


def docstring_sections(cls: type) -> dict[str, str]:
    """``## Heading`` -> its text, in order."""
    text = inspect.cleandoc(cls.__doc__ or "")
    parts = re.split(r"^## (.+)$", text, flags=re.MULTILINE)
    pairs = zip(parts[1::2], parts[2::2], strict=True)
    return {title.strip(): body.strip() for title, body in pairs}


def end_info_keys(env_id: str) -> list[str]:
    """The info keys of an episode's last step, from a random game."""
    env = gym.make(env_id)
    _, info = env.reset(seed=0)
    keys = set(info)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, truncated, info = env.step(action)
        keys |= set(info)
        done = terminated or truncated
    env.close()
    return sorted(keys)


def info_table(env_id: str, section: str) -> list[str]:
    """The ``## Information`` section as a table of every key a played game returns, each
    described by ``COMMON_INFO`` or the docstring's ``- `key`: meaning`` lines; a key
    described nowhere fails the build."""
    described = dict(COMMON_INFO)
    described.update(re.findall(r"^- `(\w+)`: (.+(?:\n  .+)*)", section, flags=re.MULTILINE))
    rows = ["## Information", "", "| key | holds |", "| --- | --- |"]
    for key in end_info_keys(env_id):
        if key not in described:
            raise ValueError(f"{env_id}: info key {key!r} is not described in its docstring")
        rows.append(f"| `{key}` | {' '.join(described[key].split())} |")
    for key in ("illegal_action", "events"):  # not in a random game's infos, yet returned
        rows.append(f"| `{key}` | {described[key]} |")
    return [*rows, ""]


def argument_table(spec) -> list[str]:
    """Every env argument and game option with its default."""
    rows = ["| argument | default | meaning |", "| --- | --- | --- |"]
    signature = inspect.signature(JungleEnv.__init__)
    for arg, meaning in ENV_ARGUMENTS.items():
        default = signature.parameters[arg].default
        shown = f"`{spec.default_players}`" if arg == "num_players" else cell(default)
        rows.append(f"| `{arg}` | {shown} | {meaning} |")
    for option in spec.options:
        rows.append(f"| `{option.name}` | {cell(option.default)} | {option.doc} |")
    return rows


def cell(value: object) -> str:
    text = repr(value) if not isinstance(value, str) else f'"{value}"'
    if len(text) > 60:
        text = text[:57] + "..."
    return "`" + text.replace("|", "\\|") + "`"


def env_page(name: str) -> str:
    entry = ENTRIES[name]
    env_cls = load_entry_point(entry.env)
    game_cls = load_entry_point(entry.game)
    spec = game_cls.spec
    env_id = f"jungle_envs/{name}-v0"
    env = gym.make(env_id)
    sections = docstring_sections(env_cls)
    lines = [
        f"# {env_cls.__name__.removesuffix('Env')} (`{env_id}`)",
        "",
        "| | |",
        "| --- | --- |",
        f'| Make | `gymnasium.make("{env_id}")` |',
        f"| Players | {spec.min_players}-{spec.max_players} (default {spec.default_players}) |",
        f"| Action space | `{env.action_space}` |",
        f"| Observation space | `{env.observation_space}` (default options, "
        f"{spec.default_players} players) |",
        f"| Chance, hidden information | {spec.chance}, {spec.hidden_information} |",
        "",
    ]
    for title, body in sections.items():
        lines += [f"## {title}", "", body, ""]
        if title == "Action Space":
            lines += ["| action | name |", "| --- | --- |"]
            lines += [f"| {i} | {n} |" for i, n in enumerate(spec.action_names)]
            lines.append("")
        if title == "Information":
            lines[-4:] = info_table(env_id, body)
            continue
        if title == "Arguments":
            lines[-1:] = ["", *argument_table(spec), ""]
        if title == "Observation Space":
            game = jungle_envs.make_game(name, num_players=spec.default_players)
            lines += [
                f"The flat observation at {spec.default_players} players and default options:",
                "",
                game.config.layout.table(),
                "",
            ]
    env.close()
    return "\n".join(lines) + "\n"


def on_files(files, config):
    """Add ``envs/<Name>.md`` for every registered game."""
    from mkdocs.structure.files import File

    for name in ENTRIES:
        files.append(File.generated(config, f"envs/{name}.md", content=env_page(name)))
    return files
