"""Mirrors heuristic.py: ``SpankTheMonkeyHeuristic`` as the kernel ``heuristic_action``.

The reference decodes the seat's observation; this kernel reads the same facts from the
state row and nothing the seat cannot see (its own hand, the towers, hand sizes, the deck
size, the pending attack). Where the observation loses information the kernel loses it
too: the monkey is seen at most at height 20 and a level's strength at most 12 (both are
clamped to 1 when scaled), which the reference then decodes back. Candidates are visited
in the reference's order and ties break as its ``max``/``min`` do: the first of equal
keys, except for attack plans, whose tuples make the last of equal values win.
"""

from __future__ import annotations

from jungle_envs.core.compiled.jit import kernel
from jungle_envs.games.spank_the_monkey.compiled.state import (
    deck_size,
    hand_at,
    hand_size,
    height,
    level_at,
)
from jungle_envs.games.spank_the_monkey.compiled.tables import (
    ACTION_OF,
    BONUS,
    BONUS_BITS,
    CATEGORY_BITS,
    DISCARD_ROW,
    DRAW_EFFECT,
    DRAW_SECOND_ACTION,
    EFFECT,
    END_ATTACKS,
    HAND_STYLE,
    HEIGHT,
    IGNORES,
    KIND,
    KIND_ATTACK,
    KIND_DEFENSE,
    KIND_JUNK,
    KIND_REINFORCEMENT,
    KIND_SPECIAL,
    LEVEL0,
    NO_DEFENSE,
    NO_SECOND_DRAW,
    NO_SPANK,
    SALVAGE,
    SEAT0,
    SHAKE,
    SKIP_BUILD,
    SKIP_REINFORCE,
    SPANK_ACTION,
    STOP_DISCARD,
    STRENGTH,
    TOPPLES,
)
from jungle_envs.games.spank_the_monkey.heuristic import (
    ATTACK_THRESHOLD,
    DEFEND_THRESHOLD,
    DRY_DECK_TURNS,
    P_ALL_ABOVE,
    P_ONE_MORE,
)
from jungle_envs.games.spank_the_monkey.state import CARD as A_CARD
from jungle_envs.games.spank_the_monkey.state import LEVEL as A_LEVEL
from jungle_envs.games.spank_the_monkey.state import TARGET as A_TARGET
from jungle_envs.games.spank_the_monkey.tables import (
    ATTACK_CHOICE,
    ATTACK_LEVEL,
    ATTACK_PLAYER,
    BUILD_JUNK,
    BUILD_REINFORCE,
    CARD_INDEX,
    DEFEND,
    DISCARD,
    DRAW_SECOND,
    GUARD_DOG,
    NUM_TYPES,
    SPANK,
    SPANK_REACH,
    TRAMPOLINE,
    TRAMPOLINE_TARGET,
)

VIEW_MONKEY, VIEW_STRENGTH = 20, 12  # the observation's scales (monkey / 20, strength / 12)
GORILLA, BANANA_PEEL = CARD_INDEX["Gorilla"], CARD_INDEX["Banana Peel"]
SCRAP_DEALER, INSPECTION = CARD_INDEX["Scrap Dealer"], CARD_INDEX["Inspection"]
EARTHQUAKE = CARD_INDEX["Earthquake"]


@kernel(inline=True)
def seat_of(cfg, seat, slot):
    return (seat + slot) % cfg.num_players


@kernel
def threat(monkey, tower_height):
    gap = monkey - tower_height
    if -SPANK_REACH <= gap <= 0:
        return 3.0
    return 1.0 if 0 < gap <= 3 else 0.2


@kernel
def success_chance(cfg, s, card, owner, level, defense):
    """``heuristic.success_chance`` against ``level`` of ``owner``'s tower as seen."""
    at = level_at(cfg, owner, level)
    junk, reinforcement = s[at], s[at + 2]
    value = STRENGTH[card]
    if BONUS_BITS[card] & CATEGORY_BITS[junk]:
        value += BONUS[card]
    strength = min(STRENGTH[junk] + s[at + 1], VIEW_STRENGTH)
    extra = 0 if reinforcement < 0 or IGNORES[card] else STRENGTH[reinforcement]
    needed = strength + extra + defense - value
    return min(1.0, max(0.0, (7 - max(needed, 1)) / 6))


@kernel
def expected_fall(cfg, s, card, owner, index):
    above, first = 0, 0
    for level in range(index + 1, s[cfg.tower_len + owner]):
        h = HEIGHT[s[level_at(cfg, owner, level)]]
        above += h
        if level == index + 1:
            first = h
    own = HEIGHT[s[level_at(cfg, owner, index)]]
    if TOPPLES[card]:
        return float(own + above)
    return own + (P_ONE_MORE * first + P_ALL_ABOVE * above)


@kernel
def heuristic_action(cfg, s, seat, obs, mask):
    choice = choose(cfg, s, seat, mask)
    if choice >= 0 and mask[choice]:
        return choice
    for action in range(mask.shape[0] - 1, -1, -1):  # the last action is always "pass"
        if mask[action]:
            return action
    return choice


@kernel
def choose(cfg, s, seat, mask):
    phase, n = s[cfg.phase], cfg.num_players
    monkey = min(s[cfg.monkey], VIEW_MONKEY)
    mine = height(cfg, s, seat)
    if phase == SPANK:
        return SPANK_ACTION if mask[SPANK_ACTION] else NO_SPANK
    if phase == DRAW_SECOND:
        if deck_size(cfg, s) > DRY_DECK_TURNS * n:
            return DRAW_SECOND_ACTION
        closest = -1
        for slot in range(1, n):
            gap = abs(monkey - height(cfg, s, seat_of(cfg, seat, slot)))
            closest = gap if closest < 0 else min(closest, gap)
        return DRAW_SECOND_ACTION if abs(monkey - mine) > closest else NO_SECOND_DRAW
    if phase == BUILD_JUNK:
        return build(monkey, mine, mask)
    if phase == BUILD_REINFORCE:
        best, strength = SKIP_REINFORCE, -1
        for card in range(NUM_TYPES):
            action = ACTION_OF[KIND_REINFORCEMENT, card]
            if KIND[card] == KIND_REINFORCEMENT and mask[action] and STRENGTH[card] > strength:
                best, strength = action, STRENGTH[card]
        return best
    if phase in (ATTACK_CHOICE, ATTACK_PLAYER, ATTACK_LEVEL):
        return attack(cfg, s, seat, monkey, mine, mask)
    if phase == DEFEND:
        return defend(cfg, s, seat, mask)
    if phase == TRAMPOLINE_TARGET:
        best, top = -1, -1.0
        for k in range(1, n):
            if mask[SEAT0 + k - 1]:
                value = threat(monkey, height(cfg, s, seat_of(cfg, seat, k)))
                if value > top:
                    best, top = SEAT0 + k - 1, value
        return best
    if phase == DISCARD:
        return discard(cfg, s, seat, monkey - mine, mask)
    return mask.shape[0] - 1


@kernel
def build(monkey, mine, mask):
    best, best_score = SKIP_BUILD, 0.0
    for junk in range(NUM_TYPES):
        if KIND[junk] != KIND_JUNK or not mask[ACTION_OF[KIND_JUNK, junk]]:
            continue
        target = monkey + (EFFECT[junk] == SHAKE)
        new = mine + HEIGHT[junk]
        if new > target + SPANK_REACH:
            continue
        # In the window the spank needs 3+, 4+ or 5+: aim for the monkey's own height.
        score = 12.0 - 2.0 * (new - target) if new >= target else float(HEIGHT[junk])
        score += 0.3 * STRENGTH[junk]
        score += 1.0 if EFFECT[junk] == DRAW_EFFECT or EFFECT[junk] == SALVAGE else 0.0
        if score > best_score:
            best, best_score = ACTION_OF[KIND_JUNK, junk], score
    return best


@kernel
def special_helps(cfg, s, seat, monkey, mine, card):
    leader = 0.0
    for slot in range(1, cfg.num_players):
        value = threat(monkey, height(cfg, s, seat_of(cfg, seat, slot)))
        leader = value if slot == 1 else max(leader, value)
    if card == GORILLA:  # lift the monkey out of a leader's reach, not out of mine
        return leader >= 3.0 and mine < monkey - 2
    if card == BANANA_PEEL:  # bring the monkey into my reach
        return mine == monkey - 1
    if card == EARTHQUAKE:
        return leader >= 3.0 and threat(monkey, mine) < 3.0
    if card == SCRAP_DEALER:  # cards now, but the deck running dry lets the monkey win
        hand = hand_at(cfg, seat)
        for junk in range(NUM_TYPES):
            if KIND[junk] == KIND_JUNK and s[hand + junk]:
                return False
        return True
    return True  # Inspection: fewer cards for them


@kernel
def attack(cfg, s, seat, monkey, mine, mask):
    phase, n = s[cfg.phase], cfg.num_players
    if phase == ATTACK_CHOICE:
        for card in (GORILLA, BANANA_PEEL, SCRAP_DEALER, INSPECTION, EARTHQUAKE):
            action = ACTION_OF[KIND_SPECIAL, card]
            if mask[action] and special_helps(cfg, s, seat, monkey, mine, card):
                return action
    hand = hand_at(cfg, seat)
    pending, aimed = s[cfg.attack + A_CARD], -1
    if phase == ATTACK_LEVEL:
        aimed = (s[cfg.attack + A_TARGET] - seat) % n
    found, best = False, 0.0
    best_card, best_slot, best_index = -1, -1, -1
    for card in range(NUM_TYPES):
        if phase == ATTACK_CHOICE:
            if KIND[card] != KIND_ATTACK or s[hand + card] == 0:
                continue
        elif card != pending:
            continue
        for slot in range(1, n):
            if aimed >= 0 and slot != aimed:
                continue
            owner, base = seat_of(cfg, seat, slot), 0
            threatened = threat(monkey, height(cfg, s, owner))
            for index in range(s[cfg.tower_len + owner]):
                top = base + HEIGHT[s[level_at(cfg, owner, index)]]
                reach = EFFECT[card] != HAND_STYLE or base <= mine <= top
                base = top
                if not reach:
                    continue
                damage = success_chance(cfg, s, card, owner, index, 0)
                damage = damage * expected_fall(cfg, s, card, owner, index)
                value = damage * threatened
                if phase == ATTACK_CHOICE and value < ATTACK_THRESHOLD:
                    continue
                if not found or value >= best:  # visited in increasing (card, slot, index)
                    found, best = True, value
                    best_card, best_slot, best_index = card, slot, index
    if not found:
        return END_ATTACKS
    if phase == ATTACK_CHOICE:
        return ACTION_OF[KIND_ATTACK, best_card]
    return SEAT0 + best_slot - 1 if phase == ATTACK_PLAYER else LEVEL0 + best_index


@kernel
def defend(cfg, s, seat, mask):
    level, card = s[cfg.attack + A_LEVEL], s[cfg.attack + A_CARD]
    if not 0 <= level < s[cfg.tower_len + seat]:
        return NO_DEFENSE
    if success_chance(cfg, s, card, seat, level, 0) < DEFEND_THRESHOLD:
        return NO_DEFENSE
    best, best_chance, best_rank = NO_DEFENSE, 0.0, 0
    for defense in range(NUM_TYPES):
        action = ACTION_OF[KIND_DEFENSE, defense]
        if KIND[defense] != KIND_DEFENSE or not mask[action]:
            continue
        if defense in (GUARD_DOG, TRAMPOLINE):
            chance, rank = 0.0, 1  # keep those for later if a value card will do
        else:
            chance, rank = success_chance(cfg, s, card, seat, level, STRENGTH[defense]), 0
        if (
            best == NO_DEFENSE
            or chance < best_chance
            or (chance == best_chance and rank < best_rank)
        ):
            best, best_chance, best_rank = action, chance, rank
    return best


@kernel
def keep_value(card, gap):
    kind = KIND[card]
    if kind == KIND_JUNK:
        return 5.0 if HEIGHT[card] <= gap + SPANK_REACH else 0.5
    if kind == KIND_REINFORCEMENT:
        return 3.0
    if kind == KIND_DEFENSE:
        return 2.5
    return 1.5 if kind == KIND_SPECIAL else 1.0


@kernel
def discard(cfg, s, seat, gap, mask):
    """Thin the hand to four cards, so the next turn draws two."""
    if hand_size(cfg, s, seat) <= 4:
        return STOP_DISCARD
    worst, lowest = -1, 0.0
    for card in range(NUM_TYPES):
        if mask[ACTION_OF[DISCARD_ROW, card]]:
            value = keep_value(card, gap)
            if worst < 0 or value < lowest:
                worst, lowest = card, value
    if worst < 0 or lowest >= 5.0:
        return STOP_DISCARD
    return ACTION_OF[DISCARD_ROW, worst]
