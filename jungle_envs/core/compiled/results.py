"""Results shared by the twins: returns from a ranking, as ``core.game.Game.returns``."""

from __future__ import annotations

from jungle_envs.core.compiled.jit import kernel


@kernel
def returns_from_keys(keys, out):
    """+1 for the sole seat with the highest key, 0 for seats sharing it, -1 for the rest."""
    best = keys.max()
    winners = 0
    for seat in range(keys.shape[0]):
        winners += keys[seat] == best
    for seat in range(keys.shape[0]):
        if keys[seat] == best:
            out[seat] = 1.0 if winners == 1 else 0.0
        else:
            out[seat] = -1.0
