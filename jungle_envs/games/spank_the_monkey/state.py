"""Spank the Monkey state: every fact of a game in progress, hidden hands included."""

from __future__ import annotations

from dataclasses import dataclass

from jungle_envs.core.state import GameState, StateError
from jungle_envs.games.spank_the_monkey.config import Config
from jungle_envs.games.spank_the_monkey.tables import (
    ATTACK_CHOICE,
    ATTACK_LEVEL,
    ATTACK_PLAYER,
    ATTACK_ROLL,
    ATTACK_TYPES,
    BUILD_JUNK,
    BUILD_REINFORCE,
    CARDS,
    COLLAPSE_ROLL,
    DEFEND,
    DEFENSE_TYPES,
    DRAW,
    DRAW_SECOND,
    GAME_OVER,
    INSPECT,
    JUNK_TYPES,
    MAX_DISCARDS,
    MAX_LEVELS,
    NUM_TYPES,
    PHASE_NAMES,
    PICK_START,
    QUAKE_ROLL,
    REINFORCEMENT_TYPES,
    SPANK_REACH,
    SPANK_ROLL,
    TRAMPOLINE,
    TRAMPOLINE_TARGET,
)

# Draws end the deal or lead to the second-card choice, a build or an attack step.
AFTER_DRAWS = (PICK_START, DRAW_SECOND, BUILD_JUNK, BUILD_REINFORCE, ATTACK_CHOICE)
# Fields of the pending attack (``state.attack``), empty when there is none.
CARD, TARGET, LEVEL, DEFENSE, REDIRECTED = range(5)
NO_CARD = -1


@dataclass(eq=False)
class SpankState(GameState):
    phase: int
    player: int  # whose turn it is; -1 while dealing
    deck: list[int]  # face-down cards per type
    discard: list[int]  # the discard pile, bottom first: its last card is the top
    hands: list[list[int]]  # per seat: cards per type (secret)
    towers: list[
        list[list[int]]
    ]  # per seat, bottom first: [junk type, brace bonus, reinforcement or -1]
    monkey: int  # the monkey's height
    draws: list[int]  # seats still to receive a card in the pending draws, in order
    after_draws: int  # the phase that follows them
    attack: list[int]  # [card, target seat, level, defense or -1, redirected 0/1] or []
    queue: list[int]  # seats still to roll (earthquake) or to lose a card (inspection)
    discards_left: int
    winner: int  # the seat that spanked the monkey; -1 if none (yet)
    turns: int  # turns started so far


def tower_height(tower: list[list[int]], cards) -> int:
    return sum(cards[level[0]].height for level in tower)


def can_spank(state: SpankState, seat: int) -> bool:
    height = tower_height(state.towers[seat], CARDS)
    return state.monkey <= height <= state.monkey + SPANK_REACH


def validate(config: Config, state: SpankState) -> None:
    """Raise StateError if ``state`` cannot arise in a game of ``config``; the one invariant
    that needs the rules (a decision has a legal action) is ``rules.validate``'s."""

    def need(ok: bool, message: str) -> None:
        if not ok:
            raise StateError(message)

    n, phase = config.num_players, state.phase
    need(0 <= phase < len(PHASE_NAMES), f"phase: phase {phase} unknown")
    need(len(state.deck) == NUM_TYPES and all(c >= 0 for c in state.deck), "deck: deck counts")
    need(
        len(state.hands) == n and len(state.towers) == n,
        f"hands, towers: one hand and tower per seat ({n})",
    )
    need(all(len(h) == NUM_TYPES and min(h) >= 0 for h in state.hands), "hands: hand counts")
    need(
        all(0 <= t < NUM_TYPES for t in state.discard), "discard: unknown card in the discard pile"
    )
    counts = list(state.deck)
    for t in state.discard:
        counts[t] += 1
    for hand in state.hands:
        counts = [a + b for a, b in zip(counts, hand, strict=True)]
    for tower in state.towers:
        need(len(tower) <= MAX_LEVELS, f"towers: a tower holds at most {MAX_LEVELS} cards")
        for level in tower:
            need(len(level) == 3, "towers: a tower level is [junk, brace bonus, reinforcement]")
            junk, bonus, reinforcement = level
            need(junk in JUNK_TYPES and bonus >= 0, "towers: a tower level needs a junk card")
            need(
                reinforcement == NO_CARD or reinforcement in REINFORCEMENT_TYPES,
                "towers: only reinforcements stand beside junk",
            )
            counts[junk] += 1
            if reinforcement != NO_CARD:
                counts[reinforcement] += 1
    need(
        counts == list(config.deck_counts),
        "deck, discard, hands, towers: the cards do not add up to the deck",
    )
    need(state.monkey >= config.monkey_floor, "monkey: the monkey is below its floor")
    # The first turn starts as the deal ends, so a state in play has counted its turn.
    need((state.player < 0) == (state.turns == 0), "player, turns: turns begin after the deal")
    # Only a Shake junk (one build a turn) and Gorillas (each card once a turn) lift it.
    gorillas = sum(c for t, c in enumerate(config.deck_counts) if CARDS[t].effect == "GORILLA")
    highest = config.monkey_start + state.turns * (1 + 2 * gorillas)
    need(
        state.monkey <= highest,
        f"monkey, turns: {state.monkey} is above {highest}, its reach in {state.turns} turns",
    )
    need(
        -1 <= state.player < n and all(0 <= s < n for s in state.draws + state.queue),
        "player, draws, queue: seat out of range",
    )
    need(phase == DRAW or not state.draws, "draws, phase: pending draws belong to the draw phase")
    need(
        phase != DRAW or (state.draws and sum(state.deck) > 0),
        "draws, deck, phase: a draw needs a card",
    )
    need(phase in (QUAKE_ROLL, INSPECT) or not state.queue, "queue, phase: queue outside a special")
    need(
        0 <= state.discards_left <= MAX_DISCARDS and state.turns >= 0,
        "discards_left, turns: counters out of range",
    )
    need(
        (state.winner >= 0) <= (phase == GAME_OVER) and -1 <= state.winner < n,
        "winner, phase: a winner only once the game is over",
    )
    need(
        state.after_draws in AFTER_DRAWS,
        "after_draws: draws lead to the deal's end or a build/attack step",
    )
    need(
        (state.player < 0) == (phase == DRAW and state.after_draws == PICK_START)
        or phase == PICK_START,
        "player, phase, after_draws: only the deal comes before the first turn",
    )
    need(
        phase not in (QUAKE_ROLL, INSPECT) or bool(state.queue),
        "queue, phase: a special with nobody left",
    )
    need(
        phase != SPANK_ROLL or can_spank(state, state.player),
        "phase, towers, monkey, player: spank roll out of reach",
    )
    in_attack = phase in (
        ATTACK_PLAYER,
        ATTACK_LEVEL,
        DEFEND,
        TRAMPOLINE_TARGET,
        ATTACK_ROLL,
        COLLAPSE_ROLL,
    )
    need(
        in_attack == bool(state.attack),
        "attack, phase: a pending attack belongs to the attack steps",
    )
    if state.attack:
        _validate_attack(state, need, n)
    need(
        phase != INSPECT or all(sum(state.hands[s]) > 0 for s in state.queue),
        "queue, hands, phase: an inspection needs a card to take",
    )


def _validate_attack(state: SpankState, need, n: int) -> None:
    need(len(state.attack) == 5, "attack: attack is [card, target, level, defense, redirected]")
    card, target, level, defense, redirected = state.attack
    phase = state.phase
    need(card in ATTACK_TYPES, "attack: the pending attack needs an attack card")
    need(defense == NO_CARD or defense in DEFENSE_TYPES, "attack: defense card")
    need(redirected in (0, 1) and (not redirected or defense == TRAMPOLINE), "attack: redirect")
    if phase == ATTACK_PLAYER:
        need(
            target == -1 and level == -1 and defense == NO_CARD,
            "attack, phase: no target chosen yet",
        )
        return
    need(
        0 <= target < n and (target != state.player or redirected),
        "attack, player, phase: attack target seat",
    )
    if phase == ATTACK_LEVEL:
        need(level == -1 and defense == NO_CARD, "attack, phase: no level chosen yet")
        return
    need(
        phase != DEFEND or (defense == NO_CARD and not redirected),
        "attack, phase: one defense only",
    )
    need(
        phase != TRAMPOLINE_TARGET or (defense == TRAMPOLINE and not redirected),
        "attack, phase: a Trampoline picks the new tower",
    )
    if phase == COLLAPSE_ROLL:
        need(
            0 <= level < len(state.towers[target]),
            "attack, towers, phase: nothing above the card to collapse",
        )
    else:
        need(
            0 <= level < len(state.towers[target]),
            "attack, towers, phase: the target card is not in the tower",
        )
