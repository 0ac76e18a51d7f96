"""The one decorator every compiled kernel uses.

``kernel`` is numba's ``njit`` with the package's settings: cached on disk (with the
package's own cache locator, so an edit never loads stale code), ``nogil`` so batch calls
can run in threads, numpy's error model (no hidden zero checks) and never ``fastmath``:
observations must equal the reference bit for bit.

A kernel called from another kernel compiles for its arguments' types with constants
made plain and signed integers widened to int64 (``call_types``). numba would otherwise
compile one copy per literal (``enter(cfg, s, PHASE_CARD)`` and ``enter(cfg, s, 10)`` are
two types) and per integer width (a value read from the int32 state row, or an int64
loop index): Spank the Monkey's first env compiled 108 functions, ``enter`` six times
(``python -m benchmarks.compile_profile`` lists them). The call site casts its arguments
to the one signature, as numba does for any call that needs a conversion.
"""

from __future__ import annotations

import warnings

from numba.core import types
from numba.core.registry import CPUDispatcher

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


def call_type(arg_type: types.Type) -> types.Type:
    """The type a kernel compiles for when a kernel passes it an ``arg_type``."""
    plain = types.unliteral(arg_type)
    if isinstance(plain, types.Integer) and plain.signed:
        return types.int64
    return plain


class KernelDispatcher(CPUDispatcher):
    """numba's CPU dispatcher, compiling kernel-to-kernel calls for ``call_type``s."""

    def get_call_template(self, args, kws):
        args = tuple(call_type(arg) for arg in args)
        kws = {name: call_type(arg) for name, arg in kws.items()}
        return super().get_call_template(args, kws)


# What every kernel compiles with (the contract's generic functions too, see ``contract``).
KERNEL_OPTIONS = {"nogil": True, "error_model": "numpy", "boundscheck": None}


def kernel(fn=None, *, inline: bool = False, parallel: bool = False):
    options = {"nopython": True, **KERNEL_OPTIONS}
    if inline:
        options["inline"] = "always"
    if parallel:
        options["parallel"] = True
    cache = use_cache()

    def make(function):
        dispatcher = KernelDispatcher(py_func=function, locals={}, targetoptions=options)
        if cache:
            dispatcher.enable_caching()
        return dispatcher

    return make if fn is None else make(fn)
