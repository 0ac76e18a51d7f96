"""Array helpers for kernels that are cheaper to compile than numba's own.

``dst[:] = src`` between two arrays compiles numba's broadcasting with its shape-mismatch
error path, the largest single piece of Tropic Race's and Jungle Sweep's first compile
(``python -m benchmarks.compile_profile``); a plain loop compiles in a fraction of that
and runs as fast.
"""

from __future__ import annotations

from jungle_envs.core.compiled.jit import kernel


@kernel(inline=True)
def copy_into(dst, src):
    """``dst[i] = src[i]`` for every ``i`` of ``src`` (``dst`` at least as long)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]
