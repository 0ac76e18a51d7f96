"""What the command-line tools of ``training`` and ``benchmarks`` share: a parser whose usage
names ``python -m <module>`` and whose help shows every default, an ``--env`` type that takes
short ids, progress bars on stderr, and the one-line failure (exit status 2) of a bad
argument or model file."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from typing import Any, NoReturn, TypeVar

from jungle_envs.core.registry import resolve_env_id

T = TypeVar("T")


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Defaults shown after every help, and the description kept as written."""


def parser(module: str, doc: str | None) -> argparse.ArgumentParser:
    """A parser for ``python -m module``, described by the first paragraph of ``doc``."""
    return argparse.ArgumentParser(
        prog=f"python -m {module}",
        description=(doc or "").strip().split("\n\n")[0],
        formatter_class=HelpFormatter,
    )


def env_id(text: str) -> str:
    """An argparse ``type=``: any name of a game (``TropicRace``, ``tropic_race``,
    ``TropicRace-v0``) to its full id; an unknown one is a one-line usage error."""
    try:
        return resolve_env_id(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def game_name(text: str) -> str:
    """An argparse ``type=`` for ``--game``: any name of a game to its name (``TropicRace``)."""
    return env_id(text).removeprefix("jungle_envs/").removesuffix("-v0")


def add_games(parser: argparse.ArgumentParser) -> None:
    """``--game``: one or more games by any of their names; every game by default."""
    from jungle_envs.core.registry import GAMES

    parser.add_argument(
        "--game",
        nargs="+",
        default=list(GAMES),
        type=game_name,
        help="games, by name or env id (TropicRace, tropic_race, jungle_envs/TropicRace-v0)",
    )


def add_quiet(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress bar (it is shown on stderr only when stderr is a terminal)",
    )


def progress(
    items: Iterable[T], total: int | None = None, desc: str = "", quiet: bool = False
) -> Iterator[T]:
    """``items`` with a progress bar on stderr; none when ``quiet`` or stderr is not a TTY."""
    if not bar_on(quiet):
        yield from items
        return
    from tqdm import tqdm

    with tqdm(items, total=total, desc=desc, file=sys.stderr, leave=False) as bar:
        yield from bar


def bar_on(quiet: bool = False) -> bool:
    """Whether a progress bar would be shown."""
    return not quiet and sys.stderr.isatty()


def print_paired(headline: str, result: dict) -> None:
    """A paired comparison (``evaluation.compare``'s result) as two lines: ``headline``
    with both win rates, then the paired differences with their 95% intervals."""
    wins, margin = result["win_rate_difference"], result["margin_difference"]
    mine, base = result["agent_result"]["win_rate"], result["baseline_result"]["win_rate"]
    print(f"{headline}: {mine:.3f}, heuristic {base:.3f}")
    (w_low, w_high), (m_low, m_high) = wins["ci95"], margin["ci95"]
    print(f"wins {wins['mean']:+.3f} ({w_low:+.3f}...{w_high:+.3f}), "
          f"margin {margin['mean']:+.2f} ({m_low:+.2f}...{m_high:+.2f})")  # fmt: skip


class UsageExit(SystemExit, ValueError):
    """Exit status 2 after a one-line reason on stderr; also a ValueError, which is what
    callers of the scripts' ``main`` caught for a bad option before."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.code = 2


def fail(message: str) -> NoReturn:
    print(message, file=sys.stderr)
    raise UsageExit(message)


def load_model_or_fail(path: Any) -> Any:
    """The MaskablePPO model at ``path`` on the CPU; a missing file or one that is not such
    a model fails in one line."""
    from sb3_contrib import MaskablePPO  # here: validating options must not import torch

    if not path.is_file():
        fail(f"no model at {path}")
    try:
        return MaskablePPO.load(path, device="cpu")
    except Exception as exc:  # not a zip, another algorithm's file, a truncated save
        fail(f"{path} is not a MaskablePPO model: {exc}")
