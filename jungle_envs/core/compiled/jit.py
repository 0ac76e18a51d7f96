"""The one decorator every compiled kernel uses.

``kernel`` is numba's ``njit`` with the package's settings: cached on disk (with the
package's own cache locator, so an edit never loads stale code), ``nogil`` so batch calls
can run in threads, numpy's error model (no hidden zero checks) and never ``fastmath``:
observations must equal the reference bit for bit.
"""

from __future__ import annotations

from numba import njit

from jungle_envs.core.compiled.cache import INSTALLED


def kernel(fn=None, *, inline: bool = False, parallel: bool = False):
    options = {"cache": INSTALLED, "nogil": True, "error_model": "numpy"}
    if inline:
        options["inline"] = "always"
    if parallel:
        options["parallel"] = True
    if fn is None:
        return lambda f: njit(**options)(f)
    return njit(**options)(fn)
