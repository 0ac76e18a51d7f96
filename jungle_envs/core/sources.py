"""What the package's compiled-kernel cache stamps with: hashes of the Python sources.

Kept free of numba so that ``import jungle_envs`` can take the fingerprint of the sources
first thing (``STARTED``): a kernel is cached only while the sources on disk are still the
ones this process imported. Code imported before an edit or a checkout and compiled after
it would otherwise be saved under the new sources' stamp, and every later process would
load it (the edit made while a long test run was still importing modules lazily).
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1]


def package_sources() -> list[Path]:
    """The package's ``.py`` files. The ``__pycache__`` folders are not walked: they hold
    numba's cache files, thousands on a machine that has seen many versions, and this
    runs at every kernel's definition."""
    found = []
    for folder, subfolders, files in os.walk(PACKAGE_DIR):
        subfolders[:] = [name for name in subfolders if name != "__pycache__"]
        found.extend(Path(folder, name) for name in files if name.endswith(".py"))
    return sorted(found)


def fingerprint() -> tuple[tuple[str, int, int], ...]:
    """Every source file's path, size and modification time: cheap to take at each
    kernel's definition, and changed by any edit or checkout."""
    found = []
    for path in package_sources():
        stat = path.stat()
        found.append((str(path), stat.st_size, stat.st_mtime_ns))
    return tuple(found)


STARTED = fingerprint()


def unchanged_since_start() -> bool:
    return fingerprint() == STARTED


@functools.cache
def sources_digest(scope: str = "") -> str:
    """One hash over the Python sources a kernel may depend on: the shared core and, for a
    game's kernel (``scope`` = its folder), that game's files; for the shared runner
    (``scope`` empty), every game's files. An edit to one game recompiles that game only."""
    digest = hashlib.sha256()
    core = sorted((PACKAGE_DIR / "core").rglob("*.py"))
    games = PACKAGE_DIR / "games"
    own = sorted((games / scope).rglob("*.py")) if scope else sorted(games.rglob("*.py"))
    for path in [*core, *own]:
        digest.update(str(path.relative_to(PACKAGE_DIR)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def scope_of(py_file: Path) -> str:
    """The game folder a source file belongs to, or "" for shared code."""
    parts = py_file.relative_to(PACKAGE_DIR).parts
    return parts[1] if len(parts) > 2 and parts[0] == "games" else ""
