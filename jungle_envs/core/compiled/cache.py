"""Where numba keeps the compiled twins, and when a cached kernel is stale.

numba stamps a cached function with the hash of its own source file only, so a kernel that
calls kernels from other files (every batch entry point does) would keep running old code
after those files change (numba issue 1833). This locator stamps a game's kernels with one
hash of that game's sources and the shared core, and the shared runner with the hash of
everything: an edit recompiles what may depend on it, and nothing stale is ever loaded.
The cache lives in the package's ``__pycache__`` folders when they are writable, else in
``NUMBA_CACHE_DIR`` or the user's cache folder. A process whose sources changed on disk
after it imported the package compiles without the cache (``jit.kernel``,
``core/sources.py``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from numba.core import caching, config

from jungle_envs.core.sources import PACKAGE_DIR, scope_of, sources_digest


def user_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "jungle_envs" / "numba"


class PackageCacheLocator(caching._CacheLocator):
    """Caches this package's kernels, stamped with the hash of all its sources."""

    def __init__(self, py_func, py_file: str, path: str) -> None:
        self._py_file = py_file
        self._scope = scope_of(Path(py_file).resolve())
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = path

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return sources_digest(self._scope)

    def get_disambiguator(self) -> str:
        # The stamp in the file name too: numba unpickles an index before it compares
        # stamps, and an index written by other sources may name classes that no longer
        # exist (a twin's config moved to another module), which would fail the load.
        return f"{self._lineno}-{self.get_source_stamp()[:12]}"

    @classmethod
    def from_function(cls, py_func, py_file: str):
        path = Path(py_file).resolve()
        if PACKAGE_DIR not in path.parents:
            return None
        subpath = cls.get_suitable_cache_subpath(py_file)
        candidates = [str(path.parent / "__pycache__"), str(user_cache_dir() / subpath)]
        if config.CACHE_DIR:
            candidates.insert(0, os.path.join(config.CACHE_DIR, subpath))
        for folder in candidates:
            locator = cls(py_func, py_file, folder)
            try:
                locator.ensure_cache_path()
            except OSError:
                continue
            return locator
        return None


def install() -> bool:
    """Put the locator first in numba's list; False if this numba hides that list."""
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    locators = getattr(impl, "_locator_classes", None)
    if not isinstance(locators, list):
        return False
    if PackageCacheLocator not in locators:
        locators.insert(0, PackageCacheLocator)
    return True


INSTALLED = install()


STAMPED = re.compile(r"-\d+-([0-9a-f]{12})\.py\d+(\.\d+)?\.nb[ic]$")


def cache_folders() -> list[Path]:
    """Where this package's kernels may be cached: its ``__pycache__`` folders, the user's
    cache folder and ``NUMBA_CACHE_DIR``'s."""
    folders = [path for path in PACKAGE_DIR.rglob("__pycache__") if path.is_dir()]
    folders.append(user_cache_dir())
    if config.CACHE_DIR:
        folders.append(Path(config.CACHE_DIR))
    return folders


def prune_stale(folders: list[Path] | None = None) -> int:
    """Delete cached kernels stamped with sources that are no longer on disk; the number
    deleted. Every edit or upgrade stamps new files and numba never removes the old ones
    (a development machine had 4,725 of them, 500 MB, and a slower start: they were
    walked at every kernel's definition). ``jungle-envs warmup`` calls it first."""
    current = {sources_digest(scope)[:12] for scope in ["", *game_scopes()]}
    deleted = 0
    for folder in cache_folders() if folders is None else folders:
        for path in folder.rglob("*.nb[ic]") if folder.is_dir() else []:
            found = STAMPED.search(path.name)
            if found and found.group(1) not in current:
                try:
                    path.unlink()
                    deleted += 1
                except OSError:  # another process removed it, or a read-only cache
                    pass
    return deleted


def game_scopes() -> list[str]:
    games = PACKAGE_DIR / "games"
    return sorted(path.name for path in games.iterdir() if (path / "__init__.py").exists())
