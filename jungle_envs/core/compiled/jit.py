"""The one decorator every compiled kernel uses.

``kernel`` is numba's ``njit`` with the package's settings: cached on disk (with the
package's own cache locator, so an edit never loads stale code), ``nogil`` so batch calls
can run in threads, numpy's error model (no hidden zero checks) and never ``fastmath``:
observations must equal the reference bit for bit.
"""

from __future__ import annotations

import warnings

from numba import njit

from jungle_envs.core import sources
from jungle_envs.core.compiled.cache import INSTALLED


def use_cache() -> bool:
    """Whether a kernel defined now may be cached: only while the package's sources are
    those this process imported (an edit since then: compiled here, never saved)."""
    if not INSTALLED:
        return False
    if sources.unchanged_since_start():
        return True
    warnings.warn(
        "jungle_envs sources changed on disk since this process imported them; its "
        "compiled kernels are not cached (restart the process to use the cache)",
        RuntimeWarning,
        stacklevel=3,
    )
    return False


def kernel(fn=None, *, inline: bool = False, parallel: bool = False):
    options = {"cache": use_cache(), "nogil": True, "error_model": "numpy"}
    if inline:
        options["inline"] = "always"
    if parallel:
        options["parallel"] = True
    if fn is None:
        return lambda f: njit(**options)(f)
    return njit(**options)(fn)
