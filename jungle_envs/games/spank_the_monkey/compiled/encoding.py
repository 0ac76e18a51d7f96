"""Mirrors encoding.py: ``observe`` as a kernel over a state row.

``observe`` writes exactly the vector of ``encoding.observe`` (same layout, its offsets in
the config as ``obs_<piece>``, same float32 values): every value is computed in float64
as the reference computes it and rounded once when stored, which equals the reference's
float32 divisions of whole numbers; the final clamp to 1 is taken before storing, where
it gives the same float32. The buffer is zeroed once and only non-zero entries are written.
"""

from __future__ import annotations

from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.spank_the_monkey.compiled.state import (
    OBS_ATTACK_CARD,
    OBS_ATTACK_DEFENSE,
    OBS_ATTACK_LEVEL,
    OBS_ATTACK_REDIRECTED,
    OBS_ATTACK_TARGET,
    OBS_DECK,
    OBS_DISCARDS,
    OBS_DISCARDS_LEFT,
    OBS_HAND,
    OBS_MONKEY,
    OBS_PHASE,
    OBS_PLAYERS,
    OBS_SEATS,
    OBS_TOP,
    OBS_TOWERS,
    deck_size,
    hand_at,
    hand_size,
    level_at,
)
from jungle_envs.games.spank_the_monkey.compiled.tables import CATEGORY_BITS, HEIGHT, STRENGTH
from jungle_envs.games.spank_the_monkey.config import (
    LEVEL_FEATURES,
    MIN_PLAYERS,
    SEAT_FEATURES,
)
from jungle_envs.games.spank_the_monkey.state import CARD as A_CARD
from jungle_envs.games.spank_the_monkey.state import DEFENSE as A_DEFENSE
from jungle_envs.games.spank_the_monkey.state import LEVEL as A_LEVEL
from jungle_envs.games.spank_the_monkey.state import REDIRECTED as A_REDIRECTED
from jungle_envs.games.spank_the_monkey.state import TARGET as A_TARGET
from jungle_envs.games.spank_the_monkey.tables import (
    ATTACK_TYPES,
    CATEGORIES,
    DECISION_PHASES,
    DEFENSE_TYPES,
    MAX_DISCARDS,
    MAX_LEVELS,
    NUM_TYPES,
    SPANK_REACH,
)

NUM_CATEGORIES = len(CATEGORIES)
FIRST_DECISION, LAST_DECISION = DECISION_PHASES[0], DECISION_PHASES[-1]
FIRST_ATTACK, FIRST_DEFENSE = ATTACK_TYPES[0], DEFENSE_TYPES[0]
if tuple(range(FIRST_DECISION, LAST_DECISION + 1)) != DECISION_PHASES:
    raise ImportError("the twin reads the decision phases as one contiguous block")
if tuple(range(FIRST_ATTACK, FIRST_ATTACK + len(ATTACK_TYPES))) != ATTACK_TYPES or (
    tuple(range(FIRST_DEFENSE, FIRST_DEFENSE + len(DEFENSE_TYPES))) != DEFENSE_TYPES
):
    raise ImportError("the twin reads attack and defense cards as contiguous blocks")


@kernel(inline=True)
def put(obs, at, value):
    """Store a non-negative value clamped to 1, as the reference's final ``np.minimum``."""
    obs[at] = min(value, 1.0)


@kernel
def observe(cfg, s, seat, obs):
    obs[:] = 0.0
    n, monkey = cfg.num_players, s[cfg.monkey]
    hand = hand_at(cfg, seat)
    for t in range(NUM_TYPES):
        if s[hand + t]:
            put(obs, OBS_HAND + t, s[hand + t] / cfg.max_copies)
    for other in range(n):
        slot = (other - seat) % n
        total = 0
        for level in range(s[cfg.tower_len + other]):
            at = level_at(cfg, other, level)
            junk, bonus, reinforcement = s[at], s[at + 1], s[at + 2]
            row = OBS_TOWERS + (slot * MAX_LEVELS + level) * LEVEL_FEATURES
            obs[row] = 1.0
            obs[row + 1] = HEIGHT[junk] / 4.0
            put(obs, row + 2, (STRENGTH[junk] + bonus) / 12.0)
            if reinforcement >= 0:
                obs[row + 3] = STRENGTH[reinforcement] / 3.0
            bits = CATEGORY_BITS[junk]
            for c in range(NUM_CATEGORIES):
                if bits >> c & 1:
                    obs[row + 4 + c] = 1.0
            total += HEIGHT[junk]
        row = OBS_SEATS + slot * SEAT_FEATURES
        put(obs, row, hand_size(cfg, s, other) / 15.0)
        put(obs, row + 1, total / 30.0)
        obs[row + 2] = monkey <= total <= monkey + SPANK_REACH
        obs[row + 3] = other == s[cfg.player]
    put(obs, OBS_MONKEY, monkey / 20.0)
    obs[OBS_DECK] = deck_size(cfg, s) / cfg.total_cards
    discards = OBS_DISCARDS
    for k in range(s[cfg.discard_len]):
        obs[discards + s[cfg.discard + k]] += 1.0  # whole numbers: exact in float32
    for t in range(NUM_TYPES):
        if obs[discards + t]:
            put(obs, discards + t, obs[discards + t] / cfg.max_copies)
    if s[cfg.discard_len]:
        obs[OBS_TOP + s[cfg.discard + s[cfg.discard_len] - 1]] = 1.0
    phase = s[cfg.phase]
    if FIRST_DECISION <= phase <= LAST_DECISION:
        obs[OBS_PHASE + phase - FIRST_DECISION] = 1.0
    if s[cfg.attack_len]:
        attack = cfg.attack
        obs[OBS_ATTACK_CARD + s[attack + A_CARD] - FIRST_ATTACK] = 1.0
        target, level = s[attack + A_TARGET], s[attack + A_LEVEL]
        if target >= 0:
            obs[OBS_ATTACK_TARGET + (target - seat) % n] = 1.0
        if level >= 0:
            obs[OBS_ATTACK_LEVEL] = level / MAX_LEVELS
        defense = s[attack + A_DEFENSE]
        if defense >= 0:
            obs[OBS_ATTACK_DEFENSE + defense - FIRST_DEFENSE] = 1.0
        obs[OBS_ATTACK_REDIRECTED] = s[attack + A_REDIRECTED]
    obs[OBS_DISCARDS_LEFT] = s[cfg.discards_left] / MAX_DISCARDS
    obs[OBS_PLAYERS + n - MIN_PLAYERS] = 1.0
