"""Spank the Monkey rules engine: functions over a ``SpankState`` and its game config.

No Gymnasium here. A turn is a chain of phases (draw, build, reinforce, attacks, spank,
discard); ``enter`` moves to a phase and passes over it at once when its only choice
would be "do nothing", so every decision left has a real alternative or a real target.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jungle_envs.core.game import CHANCE, TERMINAL, ChanceEvent, draw_from_counts
from jungle_envs.core.state import StateError, deal_counts
from jungle_envs.games.spank_the_monkey.config import Config
from jungle_envs.games.spank_the_monkey.state import (
    CARD,
    DEFENSE,
    LEVEL,
    NO_CARD,
    REDIRECTED,
    TARGET,
    SpankState,
    can_spank,
    tower_height,
)
from jungle_envs.games.spank_the_monkey.state import validate as validate_state
from jungle_envs.games.spank_the_monkey.tables import (
    ACTIONS,
    ATTACK_CHOICE,
    ATTACK_LEVEL,
    ATTACK_PLAYER,
    ATTACK_ROLL,
    ATTACK_TYPES,
    BONUS_AGAINST,
    BUILD_JUNK,
    BUILD_REINFORCE,
    CARDS,
    COLLAPSE_NONE,
    COLLAPSE_ONE,
    COLLAPSE_ROLL,
    DECISION_PHASES,
    DEFEND,
    DEFENSE_TYPES,
    DIE,
    DISCARD,
    DRAW,
    DRAW_SECOND,
    DRAW_TWO_AT_OR_BELOW,
    GAME_OVER,
    GUARD_DOG,
    HAND,
    HAND_SIZE,
    IGNORES_REINFORCEMENT,
    INSPECT,
    JUNK_TYPES,
    MAX_DISCARDS,
    MAX_LEVELS,
    NUM_TYPES,
    PICK_START,
    QUAKE_ROLL,
    QUAKE_TOPPLES,
    REINFORCEMENT_TYPES,
    SPANK,
    SPANK_HIT,
    SPANK_ROLL,
    SPECIAL_TYPES,
    TOPPLES_ALL,
    TRAMPOLINE,
    TRAMPOLINE_TARGET,
)

DIE_ROLL = ChanceEvent("roll a die", DIE, (1 / 6,) * 6)
DEFENDER_PHASES = (DEFEND, TRAMPOLINE_TARGET)


# --- reading the table (pure) -------------------------------------------------------------
def height(state: SpankState, seat: int) -> int:
    return tower_height(state.towers[seat], CARDS)


def level_base(tower: list[list[int]], level: int) -> int:
    return sum(CARDS[junk].height for junk, _, _ in tower[:level])


def attack_levels(state: SpankState, card: int, attacker: int, target: int) -> list[int]:
    """Levels of ``target``'s tower that ``card`` may hit; hand attacks reach only the
    card spanning the attacker's height (base <= height <= base + card height)."""
    tower = state.towers[target]
    if CARDS[card].effect != HAND:
        return list(range(len(tower)))
    mine, base, levels = height(state, attacker), 0, []
    for level, (junk, _, _) in enumerate(tower):
        top = base + CARDS[junk].height
        if base <= mine <= top:
            levels.append(level)
        base = top
    return levels


def attack_targets(state: SpankState, card: int, attacker: int) -> list[int]:
    n = len(state.towers)
    return [s for s in range(n) if s != attacker and attack_levels(state, card, attacker, s)]


def trampoline_targets(state: SpankState, defender: int) -> list[int]:
    return [s for s in range(len(state.towers)) if s != defender and state.towers[s]]


def defense_value(state: SpankState) -> int:
    card, target, level, defense, _ = state.attack
    junk, bonus, reinforcement = state.towers[target][level]
    value = CARDS[junk].strength + bonus
    if reinforcement != NO_CARD and card not in IGNORES_REINFORCEMENT:
        value += CARDS[reinforcement].strength
    if defense != NO_CARD:
        value += CARDS[defense].strength
    return value


def attack_value(state: SpankState, die: int) -> int:
    card, target, level, _, _ = state.attack
    value = CARDS[card].strength + die
    if card in BONUS_AGAINST:
        bonus, categories = BONUS_AGAINST[card]
        if categories & set(CARDS[state.towers[target][level][0]].categories):
            value += bonus
    return value


# --- the state machine ------------------------------------------------------------------
def new_state(config: Config) -> SpankState:
    n = config.num_players
    state = SpankState(
        phase=DRAW, player=-1, deck=list(config.deck_counts), discard=[],
        hands=[[0] * NUM_TYPES for _ in range(n)], towers=[[] for _ in range(n)],
        monkey=config.monkey_start, draws=[], after_draws=PICK_START, attack=[], queue=[],
        discards_left=0, winner=-1, turns=0,
    )  # fmt: skip
    start_draws(config, state, [seat for _ in range(HAND_SIZE) for seat in range(n)], PICK_START)
    return state


def current_player(config: Config, state: SpankState) -> int:
    if state.phase in DEFENDER_PHASES:
        return state.attack[TARGET]
    if state.phase == GAME_OVER:
        return TERMINAL
    return state.player if state.phase >= DRAW_SECOND else CHANCE


def chance_event(config: Config, state: SpankState) -> ChanceEvent:
    phase = state.phase
    if phase == DRAW:
        return ChanceEvent.weighted("draw a card (type)", dict(enumerate(state.deck)))
    if phase == INSPECT:
        hand = state.hands[state.queue[0]]
        return ChanceEvent.weighted("a random card leaves the hand (type)", dict(enumerate(hand)))
    if phase == PICK_START:
        n = config.num_players
        return ChanceEvent("pick the start player", tuple(range(n)), (1 / n,) * n)
    if phase in (ATTACK_ROLL, COLLAPSE_ROLL, QUAKE_ROLL, SPANK_ROLL):
        return DIE_ROLL
    raise ValueError(f"no chance event in phase {phase}")


def sample_chance(config: Config, state: SpankState, rng: np.random.Generator) -> int:
    """An outcome of ``chance_event``, drawn as fast as the compiled twin draws it."""
    if state.phase == DRAW:
        return draw_from_counts(state.deck, rng)
    if state.phase == INSPECT:
        return draw_from_counts(state.hands[state.queue[0]], rng)
    if state.phase == PICK_START:
        return int(rng.random() * config.num_players)
    return 1 + int(rng.random() * 6)  # a die roll


def apply_chance(config: Config, state: SpankState, outcome: int) -> None:
    phase = state.phase
    if phase == DRAW:
        state.deck[outcome] -= 1
        state.hands[state.draws.pop(0)][outcome] += 1
        continue_draws(config, state)
    elif phase == PICK_START:
        state.player = outcome
        start_turn(config, state)
    elif phase == ATTACK_ROLL:
        resolve_attack(config, state, outcome)
    elif phase == COLLAPSE_ROLL:
        _, target, level, _, _ = state.attack
        if outcome not in COLLAPSE_NONE:
            fall(state, target, level, 1 if outcome in COLLAPSE_ONE else None)
        state.attack = []
        enter(config, state, ATTACK_CHOICE)
    elif phase == QUAKE_ROLL:
        seat = state.queue.pop(0)
        if outcome in QUAKE_TOPPLES:
            fall(state, seat, len(state.towers[seat]) - 1, 1)
        if not state.queue:
            enter(config, state, ATTACK_CHOICE)
    elif phase == INSPECT:
        seat = state.queue.pop(0)
        state.hands[seat][outcome] -= 1
        state.discard.append(outcome)
        if not state.queue:
            enter(config, state, ATTACK_CHOICE)
    else:  # SPANK_ROLL
        needed = SPANK_HIT[height(state, state.player) - state.monkey]
        if outcome >= needed:
            state.winner, state.phase = state.player, GAME_OVER
        else:
            enter(config, state, DISCARD)


def fall(state: SpankState, seat: int, level: int, count: int | None) -> None:
    """``count`` junk cards from ``level`` up (all if None) go to the discard pile."""
    tower = state.towers[seat]
    stop = len(tower) if count is None else min(len(tower), level + count)
    for junk, _, reinforcement in tower[level:stop]:
        state.discard.append(junk)
        if reinforcement != NO_CARD:
            state.discard.append(reinforcement)
    del tower[level:stop]


def resolve_attack(config: Config, state: SpankState, die: int) -> None:
    card, target, level, _, _ = state.attack
    if attack_value(state, die) < defense_value(state):
        state.attack = []
        enter(config, state, ATTACK_CHOICE)
        return
    fall(state, target, level, 1)
    if card in TOPPLES_ALL:
        fall(state, target, level, None)
    if level < len(state.towers[target]):
        state.phase = COLLAPSE_ROLL  # the owner rolls for the cards above
        return
    state.attack = []
    enter(config, state, ATTACK_CHOICE)


def start_draws(config: Config, state: SpankState, seats: list[int], after: int) -> None:
    state.draws, state.after_draws = list(seats), after
    continue_draws(config, state)


def continue_draws(config: Config, state: SpankState) -> None:
    if not state.draws:
        enter(config, state, state.after_draws)
    elif sum(state.deck) == 0:  # the deck cannot feed a draw: the monkey wins
        state.draws, state.phase, state.winner = [], GAME_OVER, -1
    else:
        state.phase = DRAW


def start_turn(config: Config, state: SpankState) -> None:
    state.turns += 1
    state.discards_left = MAX_DISCARDS
    # A small hand may draw a second card: that choice follows the first card.
    small = sum(state.hands[state.player]) <= DRAW_TWO_AT_OR_BELOW
    start_draws(config, state, [state.player], DRAW_SECOND if small else BUILD_JUNK)


def enter(config: Config, state: SpankState, phase: int) -> None:
    """Go to ``phase``, passing on at once when there is nothing to choose there."""
    state.phase = phase
    if phase in (PICK_START, GAME_OVER) or legal_actions(config, state) != [PASS_ACTION[phase]]:
        return
    if phase == DISCARD:
        state.player = (state.player + 1) % len(state.hands)
        start_turn(config, state)
    elif phase == DEFEND:
        state.phase = ATTACK_ROLL
    else:
        enter(config, state, NEXT_PHASE[phase])


# What "do nothing" is in each phase, and where it leads.
PASS_ACTION = {
    DRAW_SECOND: ACTIONS.no_second_draw, BUILD_JUNK: ACTIONS.skip_build,
    BUILD_REINFORCE: ACTIONS.skip_reinforce, ATTACK_CHOICE: ACTIONS.end_attacks,
    DEFEND: ACTIONS.no_defense, SPANK: ACTIONS.no_spank, DISCARD: ACTIONS.stop_discard,
}  # fmt: skip
NEXT_PHASE = {
    DRAW_SECOND: BUILD_JUNK,
    BUILD_JUNK: BUILD_REINFORCE,
    BUILD_REINFORCE: ATTACK_CHOICE,
    ATTACK_CHOICE: SPANK,
    SPANK: DISCARD,
}


def legal_actions(config: Config, state: SpankState) -> list[int]:
    phase, player = state.phase, state.player
    if phase in DEFENDER_PHASES:
        defender = state.attack[TARGET]
        if phase == TRAMPOLINE_TARGET:
            n = len(state.towers)
            seats = trampoline_targets(state, defender)
            return sorted(ACTIONS.seat[(s - defender) % n - 1] for s in seats)
        hand = state.hands[defender]
        usable = [
            d
            for d in DEFENSE_TYPES
            if hand[d] and (d != TRAMPOLINE or trampoline_targets(state, defender))
        ]
        return [*sorted(ACTIONS.defend[d] for d in usable), ACTIONS.no_defense]
    if phase < DRAW_SECOND or phase == GAME_OVER:
        return []
    if phase == DRAW_SECOND:  # not offered once the deck is empty
        return (
            [ACTIONS.draw_second, ACTIONS.no_second_draw]
            if any(state.deck)
            else [ACTIONS.no_second_draw]
        )
    hand, n = state.hands[player], len(state.towers)
    tower = state.towers[player]
    if phase == BUILD_JUNK:
        cards = [j for j in JUNK_TYPES if hand[j]] if len(tower) < MAX_LEVELS else []
        return [ACTIONS.build[j] for j in cards] + [ACTIONS.skip_build]
    if phase == BUILD_REINFORCE:
        open_top = bool(tower) and tower[-1][2] == NO_CARD
        cards = [r for r in REINFORCEMENT_TYPES if hand[r]] if open_top else []
        return [ACTIONS.reinforce[r] for r in cards] + [ACTIONS.skip_reinforce]
    if phase == ATTACK_CHOICE:
        attacks = [
            ACTIONS.attack[a] for a in ATTACK_TYPES if hand[a] and attack_targets(state, a, player)
        ]
        specials = [ACTIONS.special[s] for s in SPECIAL_TYPES if hand[s]]
        return attacks + specials + [ACTIONS.end_attacks]
    if phase == ATTACK_PLAYER:
        seats = attack_targets(state, state.attack[CARD], player)
        return sorted(ACTIONS.seat[(s - player) % n - 1] for s in seats)
    if phase == ATTACK_LEVEL:
        levels = attack_levels(state, state.attack[CARD], player, state.attack[TARGET])
        return [ACTIONS.level[level] for level in levels]
    if phase == SPANK:
        return [ACTIONS.spank, ACTIONS.no_spank] if can_spank(state, player) else [ACTIONS.no_spank]
    # DISCARD
    cards = [t for t in range(NUM_TYPES) if hand[t]] if state.discards_left else []
    return [ACTIONS.discard[t] for t in cards] + [ACTIONS.stop_discard]


def legal_mask(config: Config, state: SpankState) -> np.ndarray:
    mask = np.zeros(len(ACTIONS.names), dtype=bool)
    mask[legal_actions(config, state)] = True
    return mask


def apply_action(config: Config, state: SpankState, action: int) -> None:
    phase, player = state.phase, state.player
    if phase == ATTACK_PLAYER:
        state.attack[TARGET] = (player + ACTIONS.seat.index(action) + 1) % len(state.towers)
        state.phase = ATTACK_LEVEL
    elif phase == ATTACK_LEVEL:
        state.attack[LEVEL] = ACTIONS.level.index(action)
        enter(config, state, DEFEND)
    elif phase == TRAMPOLINE_TARGET:
        defender, n = state.attack[TARGET], len(state.towers)
        target = (defender + ACTIONS.seat.index(action) + 1) % n
        state.attack[TARGET] = target
        state.attack[LEVEL] = min(state.attack[LEVEL], len(state.towers[target]) - 1)
        state.attack[REDIRECTED] = 1  # the new owner may not defend
        state.phase = ATTACK_ROLL
    elif action == PASS_ACTION.get(phase):
        if phase == DEFEND:
            state.phase = ATTACK_ROLL
        elif phase == DISCARD:
            state.player = (player + 1) % len(state.hands)
            start_turn(config, state)
        else:
            enter(config, state, NEXT_PHASE[phase])
    elif phase == SPANK:
        state.phase = SPANK_ROLL
    elif phase == DRAW_SECOND:
        start_draws(config, state, [player], BUILD_JUNK)
    else:
        play_card(config, state, ACTIONS.card_of[action])


def play_card(config: Config, state: SpankState, card: int) -> None:
    """A card leaves a hand: built, placed, played against someone, or discarded."""
    phase, player = state.phase, state.player
    owner = state.attack[TARGET] if phase == DEFEND else player
    state.hands[owner][card] -= 1
    tower = state.towers[player]
    if phase == BUILD_JUNK:
        tower.append([card, 0, NO_CARD])
        junk_effect(config, state, CARDS[card].effect)
    elif phase == BUILD_REINFORCE:
        tower[-1][2] = card
        enter(config, state, ATTACK_CHOICE)
    elif phase == DEFEND:
        state.discard.append(card)
        state.attack[DEFENSE] = card
        if card == GUARD_DOG:  # the attack is cancelled: no roll
            state.attack = []
            enter(config, state, ATTACK_CHOICE)
        else:
            state.phase = TRAMPOLINE_TARGET if card == TRAMPOLINE else ATTACK_ROLL
    elif phase == DISCARD:
        state.discard.append(card)
        state.discards_left -= 1
        enter(config, state, DISCARD)
    elif card in ATTACK_TYPES:
        state.discard.append(card)
        state.attack = [card, -1, -1, NO_CARD, 0]
        state.phase = ATTACK_PLAYER
    else:
        state.discard.append(card)
        special_effect(config, state, CARDS[card].effect)


def junk_effect(config: Config, state: SpankState, effect: str) -> None:
    tower = state.towers[state.player]
    if effect == "DRAW":
        start_draws(config, state, [state.player], BUILD_REINFORCE)
        return
    if effect == "SALVAGE" and state.discard:
        state.hands[state.player][state.discard.pop()] += 1
    elif effect == "BRACE" and len(tower) > 1:
        tower[-2][1] += 1
    elif effect == "SHAKE":
        state.monkey += 1
    enter(config, state, BUILD_REINFORCE)


def special_effect(config: Config, state: SpankState, effect: str) -> None:
    n, player = len(state.towers), state.player
    order = [(player + k) % n for k in range(n)]
    if effect == "EARTHQUAKE":
        state.queue = [s for s in order if state.towers[s]]
    elif effect == "INSPECTION":
        state.queue = [s for s in order[1:] if sum(state.hands[s])]
    elif effect == "GORILLA":
        state.monkey += 2
    elif effect == "BANANA_PEEL":
        state.monkey = max(config.monkey_floor, state.monkey - 1)
    elif effect == "SCRAP_DEALER":
        start_draws(config, state, [player, player], ATTACK_CHOICE)
        return
    if state.queue:
        state.phase = QUAKE_ROLL if effect == "EARTHQUAKE" else INSPECT
    else:
        enter(config, state, ATTACK_CHOICE)


# --- saved states and search -----------------------------------------------------------
def validate(config: Config, state: SpankState) -> None:
    """Raise StateError if ``state`` cannot arise in a game of ``config``: the invariants of
    ``state.validate``, then that a decision has a legal action (a check that needs the
    rules, so it is made here: state.py sits below rules.py)."""
    validate_state(config, state)
    if state.phase in DECISION_PHASES and not legal_actions(config, state):
        raise StateError("phase, hands, towers, player, attack: nothing legal to do")


def resample(config: Config, state: SpankState, seat: int, rng: np.random.Generator) -> None:
    """Deal anew, in place, the cards ``seat`` has not seen: other seats' hands and the
    deck, from the pool of those cards (the game's cards minus the seat's hand and every
    card in sight). Each hand keeps its size, which everyone sees.

    A card taken back from the discard pile (Salvage) was seen going into a hand, but the
    observation does not keep it, and neither does this deal: it treats that card as
    unseen. Search that relies on it sees a little less than a player with a memory."""
    others = [other for other in range(config.num_players) if other != seat]
    pool = list(state.deck)
    for other in others:
        pool = [a + b for a, b in zip(pool, state.hands[other], strict=True)]
    *hands, deck = deal_counts(pool, [sum(state.hands[other]) for other in others], rng)
    for other, hand in zip(others, hands, strict=True):
        state.hands[other] = hand
    state.deck = deck


# --- results ----------------------------------------------------------------------------
def scores(config: Config, state: SpankState) -> list[float]:
    """Tower heights (the winner is whoever spanked the monkey, see ``winners``)."""
    return [float(height(state, seat)) for seat in range(config.num_players)]


def winners(config: Config, state: SpankState) -> list[int]:
    return [state.winner] if state.phase == GAME_OVER and state.winner >= 0 else []


def final_details(config: Config, state: SpankState) -> dict[str, Any]:
    return {"monkey_won": state.winner < 0, "turns": state.turns, "monkey_height": state.monkey}
