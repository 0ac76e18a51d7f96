"""Per-env random streams for the compiled engine: SplitMix64, one uint64 word per stream.

Every env owns its streams (chance and opponents), so a batch gives the same games in
any thread layout, and an env's dice never depend on its neighbours. Streams are seeded
from ``numpy.random.SeedSequence`` in Python; the kernels only draw.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.jit import kernel

CHANCE_STREAM, OPPONENT_STREAM = 0, 1
STREAMS = 2

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


def stream_state(seed: int | None) -> np.ndarray:
    """The (STREAMS,) uint64 words of one env's streams; fresh entropy when seed is None."""
    return np.random.SeedSequence(seed).generate_state(STREAMS, np.uint64)


@kernel(inline=True)
def next_u64(streams, k):
    z = streams[k] + _GOLDEN
    streams[k] = z
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@kernel(inline=True)
def uniform(streams, k):
    """A float in [0, 1) with 53 random bits."""
    return float(next_u64(streams, k) >> np.uint64(11)) * _TO_UNIT


@kernel(inline=True)
def below(streams, k, n):
    """An int in [0, n)."""
    return min(int(uniform(streams, k) * n), n - 1)


@kernel
def draw_from_counts(counts, u):
    """Index drawn in proportion to ``counts`` for the uniform number ``u``: the draw of
    the reference's ``core.game.draw_from_counts`` when its generator gives ``u``."""
    total = 0
    for c in counts:
        total += c
    x, acc, last = u * total, 0, -1
    for index in range(counts.shape[0]):
        if counts[index]:
            acc += counts[index]
            last = index
            if x < acc:
                return index
    return last
