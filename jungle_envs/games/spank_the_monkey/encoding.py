"""Spank the Monkey observation: a flat float32 vector in [0, 1] from one seat's view.

Its layout is ``config.LAYOUT`` (T = 44 card types in table order, S = 6 seat slots, L = 42
tower levels; docs/rules/spank_the_monkey.md shows it), which the game's ``Config`` carries
as ``layout``: all offsets below come from it. Seats are rotated so the observer is slot 0.
Other players' hands appear only as sizes; the deck only as its size.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from jungle_envs.games.spank_the_monkey import rules
from jungle_envs.games.spank_the_monkey.config import (
    AFTER_AT,
    ATTACK_AT,
    CARD_KIND_AT,
    LEVEL_FEATURES,
    MIN_PLAYERS,
    MOVE_ATTACK,
    MOVE_BUILD,
    MOVE_DEFEND,
    MOVE_DISCARD,
    MOVE_DRAW,
    MOVE_FEATURES,
    MOVE_KIND_AT,
    MOVE_LEVEL,
    MOVE_PASS,
    MOVE_REINFORCE,
    MOVE_SEAT,
    MOVE_SPANK,
    MOVE_SPECIAL,
    SEAT_FEATURES,
    Config,
)
from jungle_envs.games.spank_the_monkey.state import CARD as ATTACK_CARD
from jungle_envs.games.spank_the_monkey.state import LEVEL, NO_CARD, TARGET, SpankState
from jungle_envs.games.spank_the_monkey.tables import (
    ACTIONS,
    ATTACK,
    ATTACK_PLAYER,
    ATTACK_TYPES,
    BONUS_AGAINST,
    CARDS,
    CATEGORIES,
    DECISION_PHASES,
    DEFEND,
    DEFENSE,
    DEFENSE_TYPES,
    GUARD_DOG,
    IGNORES_REINFORCEMENT,
    JUNK,
    MAX_DISCARDS,
    MAX_LEVELS,
    MAX_SEATS,
    NUM_TYPES,
    REINFORCEMENT,
    SPANK_HIT,
    SPANK_REACH,
    SPECIAL,
    TOPPLES_ALL,
    TRAMPOLINE,
    TRAMPOLINE_TARGET,
)

# Per junk type: the static part of a level's features.
JUNK_ROWS = {
    t: [card.height / 4.0, 0.0, 0.0, *(float(c in card.categories) for c in CATEGORIES)]
    for t, card in enumerate(CARDS)
}


def observe(config: Config, state: SpankState, seat: int, out=None) -> np.ndarray:
    layout = config.layout
    obs = np.zeros(layout.size, dtype=np.float32) if out is None else out
    if out is not None:
        obs.fill(0.0)
    n = config.num_players
    hand = layout["hand"]
    obs[hand] = state.hands[seat]
    obs[hand] /= config.max_copies
    towers = obs[layout["towers"]].reshape(MAX_SEATS, MAX_LEVELS, LEVEL_FEATURES)
    seats = obs[layout["seats"]].reshape(MAX_SEATS, SEAT_FEATURES)
    for other in range(n):
        slot = (other - seat) % n
        total = 0
        for level, (junk, bonus, reinforcement) in enumerate(state.towers[other]):
            row = JUNK_ROWS[junk]
            towers[slot, level, 0] = 1.0
            towers[slot, level, 1:] = row
            towers[slot, level, 2] = (CARDS[junk].strength + bonus) / 12.0
            if reinforcement != NO_CARD:
                towers[slot, level, 3] = CARDS[reinforcement].strength / 3.0
            total += CARDS[junk].height
        seats[slot] = (
            sum(state.hands[other]) / 15.0,
            total / 30.0,
            state.monkey <= total <= state.monkey + SPANK_REACH,
            other == state.player,
        )
    obs[layout.offset("monkey")] = state.monkey / 20.0
    obs[layout.offset("deck")] = sum(state.deck) / sum(config.deck_counts)
    pile = np.bincount(state.discard, minlength=NUM_TYPES) if state.discard else 0
    discards = layout["discards"]
    obs[discards] = pile
    obs[discards] /= config.max_copies
    if state.discard:
        obs[layout.offset("top") + state.discard[-1]] = 1.0
    if state.phase in DECISION_PHASES:
        obs[layout.offset("phase") + DECISION_PHASES.index(state.phase)] = 1.0
    if state.attack:
        card, target, level, defense, redirected = state.attack
        obs[layout.offset("attack_card") + ATTACK_TYPES.index(card)] = 1.0
        if target >= 0:
            obs[layout.offset("attack_target") + (target - seat) % n] = 1.0
        if level >= 0:
            obs[layout.offset("attack_level")] = level / MAX_LEVELS
        if defense != NO_CARD:
            obs[layout.offset("attack_defense") + DEFENSE_TYPES.index(defense)] = 1.0
        obs[layout.offset("attack_redirected")] = redirected
    obs[layout.offset("discards_left")] = state.discards_left / MAX_DISCARDS
    obs[layout.offset("players") + n - MIN_PLAYERS] = 1.0
    if config.move_features and rules.current_player(config, state) == seat:
        write_move_features(config, state, seat, obs)
    np.minimum(obs, 1.0, out=obs)
    return obs


# --- what each action would do (the move_features option) ----------------------------------
CARD_KINDS = (JUNK, REINFORCEMENT, ATTACK, DEFENSE, SPECIAL)
P_ONE_MORE, P_ALL_ABOVE = 2 / 6, 1 / 6  # collapse roll: 4-5 one more card, 6 every card
MONKEY_CHANGE = {"SHAKE": 1, "GORILLA": 2}  # a Banana Peel lowers it to the floor at most
KIND_OF_ACTION = {
    ACTIONS.draw_second: MOVE_DRAW,
    **dict.fromkeys(ACTIONS.build.values(), MOVE_BUILD),
    **dict.fromkeys(ACTIONS.reinforce.values(), MOVE_REINFORCE),
    **dict.fromkeys(ACTIONS.attack.values(), MOVE_ATTACK),
    **dict.fromkeys(ACTIONS.special.values(), MOVE_SPECIAL),
    **dict.fromkeys(ACTIONS.seat, MOVE_SEAT),
    **dict.fromkeys(ACTIONS.level, MOVE_LEVEL),
    **dict.fromkeys(ACTIONS.defend.values(), MOVE_DEFEND),
    ACTIONS.spank: MOVE_SPANK,
    **dict.fromkeys(ACTIONS.discard.values(), MOVE_DISCARD),
}  # every other action passes


def success_chance(state: SpankState, card: int, target: int, level: int, defense: int) -> float:
    """The chance ``card`` topples ``level`` of ``target``'s tower on a die roll against its
    strength, braces, reinforcement and ``defense`` (a defense card's strength)."""
    junk, brace, reinforcement = state.towers[target][level]
    value = CARDS[card].strength
    if card in BONUS_AGAINST:
        bonus, categories = BONUS_AGAINST[card]
        value += bonus if categories & set(CARDS[junk].categories) else 0
    guard = CARDS[junk].strength + brace + defense
    if reinforcement != NO_CARD and card not in IGNORES_REINFORCEMENT:
        guard += CARDS[reinforcement].strength
    return min(1.0, max(0.0, (7 - max(guard - value, 1)) / 6))


def expected_fall(state: SpankState, card: int, target: int, level: int) -> float:
    """Tower height lost when ``card`` topples ``level`` (the collapse roll averaged)."""
    heights = [CARDS[junk].height for junk, _, _ in state.towers[target][level:]]
    if card in TOPPLES_ALL:
        return float(sum(heights))
    first = heights[1] if len(heights) > 1 else 0
    return heights[0] + (P_ONE_MORE * first + P_ALL_ABOVE * sum(heights[1:]))


def best_level(state: SpankState, card: int, attacker: int, target: int):
    """(success chance, expected fall, level) of the level of ``target`` where ``card``
    takes most height down in expectation (the lowest of equals); None if it reaches none."""
    best = None
    for level in rules.attack_levels(state, card, attacker, target):
        chance = success_chance(state, card, target, level, 0)
        fall = expected_fall(state, card, target, level)
        if best is None or chance * fall > best[0] * best[1]:
            best = (chance, fall, level)
    return best


def write_move_features(config: Config, state: SpankState, seat: int, obs: np.ndarray) -> None:
    """The ``moves`` piece for the seat deciding now (see ``config.MOVE_FEATURES``)."""
    moves = config.layout.offset("moves")
    monkey = state.monkey
    mine = rules.height(state, seat)
    for action in rules.legal_actions(config, state):
        at = moves + action * MOVE_FEATURES
        kind = KIND_OF_ACTION.get(action, MOVE_PASS)
        card = ACTIONS.card_of.get(action, NO_CARD)
        obs[at] = 1.0
        obs[at + MOVE_KIND_AT + kind] = 1.0
        height_after, monkey_after = mine, monkey
        if card != NO_CARD:
            info = CARDS[card]
            obs[at + CARD_KIND_AT + CARD_KINDS.index(info.kind)] = 1.0
            obs[at + CARD_KIND_AT + 5] = info.height / 4.0
            obs[at + CARD_KIND_AT + 6] = min(info.strength / 12.0, 1.0)
            if kind in (MOVE_BUILD, MOVE_SPECIAL):
                height_after += info.height if kind == MOVE_BUILD else 0
                monkey_after += MONKEY_CHANGE.get(info.effect, 0)
                if info.effect == "BANANA_PEEL":
                    monkey_after = max(config.monkey_floor, monkey - 1)
        obs[at + AFTER_AT] = min(height_after / 30.0, 1.0)
        obs[at + AFTER_AT + 1] = min(monkey_after / 20.0, 1.0)
        gap = height_after - monkey_after
        if 0 <= gap <= SPANK_REACH:
            obs[at + AFTER_AT + 2] = 1.0
            obs[at + AFTER_AT + 3] = (7 - SPANK_HIT[gap]) / 6
        attack = attack_features(state, seat, kind, action, card)
        if attack is not None:
            chance, fall, target = attack
            tower = rules.height(state, target)
            obs[at + ATTACK_AT] = chance
            obs[at + ATTACK_AT + 1] = min(fall / 10.0, 1.0)
            obs[at + ATTACK_AT + 2] = float(monkey <= tower <= monkey + SPANK_REACH)
            obs[at + ATTACK_AT + 3] = min(tower / 30.0, 1.0)


def attack_features(state: SpankState, seat: int, kind: int, action: int, card: int):
    """(success chance, expected fall, target seat) of the attack an action plays, aims or
    defends against; None for the other actions."""
    n = len(state.towers)
    if kind == MOVE_ATTACK:  # the best target level over every other seat
        best = None
        for offset in range(1, n):
            target = (seat + offset) % n
            plan = best_level(state, card, seat, target)
            if plan is not None and (best is None or plan[0] * plan[1] > best[0] * best[1]):
                best = (*plan[:2], target)
        return best
    if not state.attack:
        return None
    pending, target, level = state.attack[ATTACK_CARD], state.attack[TARGET], state.attack[LEVEL]
    if kind == MOVE_SEAT:
        aimed = (seat + ACTIONS.seat.index(action) + 1) % n
        if state.phase == ATTACK_PLAYER:
            plan = best_level(state, pending, seat, aimed)
            return None if plan is None else (*plan[:2], aimed)
        if state.phase == TRAMPOLINE_TARGET:  # the new owner may not defend
            hit = min(level, len(state.towers[aimed]) - 1)
            chance = success_chance(state, pending, aimed, hit, 0)
            return chance, expected_fall(state, pending, aimed, hit), aimed
        return None
    if kind == MOVE_LEVEL:
        aimed = ACTIONS.level.index(action)
        chance = success_chance(state, pending, target, aimed, 0)
        return chance, expected_fall(state, pending, target, aimed), target
    if state.phase == DEFEND and kind in (MOVE_DEFEND, MOVE_PASS):
        fall = expected_fall(state, pending, target, level)
        if card in (GUARD_DOG, TRAMPOLINE):  # cancelled, or sent on to another tower
            return 0.0, fall, target
        defense = CARDS[card].strength if card != NO_CARD else 0
        return success_chance(state, pending, target, level, defense), fall, target
    return None


@dataclass
class Level:
    height: int
    strength: int  # with braces, without reinforcement
    reinforcement: int
    categories: frozenset[str]


@dataclass
class View:
    """What a seat sees, decoded from its observation (for rule-based policies)."""

    hand: list[int]  # my cards per type
    towers: list[list[Level]]  # per rotated seat, bottom first
    hand_sizes: list[int]
    monkey: int
    deck: int  # cards left in the deck
    phase: int
    attack_card: int  # NO_CARD if no attack is pending
    attack_target: int  # rotated seat, -1 if none
    attack_level: int
    num_players: int

    def height(self, slot: int) -> int:
        return sum(level.height for level in self.towers[slot])


def decode(config: Config, obs: np.ndarray) -> View:
    """What ``obs`` shows; ``config`` may also be the Game (``encoding.decode(game, obs)``)."""
    config = getattr(config, "config", config)
    n = config.num_players
    parts = config.layout.split(obs)
    decoded = []
    for slot in range(n):
        levels = []
        for row in parts["towers"][slot]:
            if row[0] < 0.5:
                break
            levels.append(Level(
                height=round(row[1] * 4), strength=round(row[2] * 12),
                reinforcement=round(row[3] * 3),
                categories=frozenset(c for c, flag in zip(CATEGORIES, row[4:], strict=True)
                                     if flag > 0.5),
            ))  # fmt: skip
        decoded.append(levels)
    seats = parts["seats"]
    phase_hot, card_hot, target_hot = parts["phase"], parts["attack_card"], parts["attack_target"]
    return View(
        hand=np.rint(parts["hand"] * config.max_copies).astype(int).tolist(),
        towers=decoded,
        hand_sizes=np.rint(seats[:n, 0] * 15).astype(int).tolist(),
        monkey=round(parts["monkey"][0] * 20),
        deck=round(parts["deck"][0] * sum(config.deck_counts)),
        phase=DECISION_PHASES[int(phase_hot.argmax())] if phase_hot.any() else -1,
        attack_card=ATTACK_TYPES[int(card_hot.argmax())] if card_hot.any() else NO_CARD,
        attack_target=int(target_hot.argmax()) if target_hot.any() else -1,
        attack_level=round(parts["attack_level"][0] * MAX_LEVELS),
        num_players=n,
    )
