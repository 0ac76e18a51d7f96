"""The compiled twin's board (mirrors the movement functions of ``rules.py``: ``board``,
``walk``, ``palm_jump``): reading terrain and monkeys from the state row, and moving on it.

Movement helpers take the monkeys' positions as an array of their own, so the heuristic
can move monkeys in thought.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.jungle_sweep.tables import DIE_FACE_STEPS, PALM, QUICKSAND, QUICKSAND_COST

FACE_STEPS = np.array(DIE_FACE_STEPS, dtype=np.int64)


# --- reading the row ------------------------------------------------------------------------
@kernel(inline=True)
def terrain(cfg, s, field):
    code = s[cfg.ring + field]
    return code if code < PALM else PALM


@kernel(inline=True)
def positions(cfg, s):
    return s[cfg.monkey_pos : cfg.monkey_pos + cfg.num_monkeys]


@kernel(inline=True)
def mover(cfg, s):
    return (s[cfg.active] + s[cfg.turn]) % cfg.num_monkeys


@kernel(inline=True)
def occupied(s, pos, broom, skip, field):
    """Whether a monkey other than ``skip``, or the broom, stands on ``field``."""
    if field == broom:
        return True
    for m in range(pos.shape[0]):
        if m != skip and pos[m] == field:
            return True
    return False


# --- movement on a board (pure) ---------------------------------------------------------------
@kernel
def walk(cfg, s, pos, broom, mover_slot, start, steps):
    size = s[cfg.ring_len]
    here, left = start, steps
    while left > 0:
        nxt = (here + 1) % size
        while occupied(s, pos, broom, mover_slot, nxt) and nxt != start:
            nxt = (nxt + 1) % size
        if nxt == start:
            break
        cost = QUICKSAND_COST if terrain(cfg, s, nxt) == QUICKSAND else 1
        if cost > left:
            break
        here, left = nxt, left - cost
    return here


@kernel
def palm_jump(cfg, s, pos, broom, mover_slot, start):
    size = s[cfg.ring_len]
    for k in range(1, size + 1):
        field = (start + k) % size
        if terrain(cfg, s, field) == PALM and not occupied(s, pos, broom, mover_slot, field):
            return field
    return start


@kernel(inline=True)
def short_of(cfg, ahead):
    """The chance that the broom's next roll stops short of a field ``ahead`` steps on."""
    return cfg.short_of[min(ahead, cfg.short_of.shape[0] - 1)]
