"""Spank the Monkey as text: every tower as a stack, the monkey, the acting player's hand."""

from __future__ import annotations

from jungle_envs.games.spank_the_monkey.config import Config
from jungle_envs.games.spank_the_monkey.state import NO_CARD, SpankState, tower_height
from jungle_envs.games.spank_the_monkey.tables import (
    ATTACK_ROLL,
    CARDS,
    COLLAPSE_ROLL,
    DRAW,
    GAME_OVER,
    INSPECT,
    PHASE_NAMES,
    PICK_START,
    QUAKE_ROLL,
    SPANK_REACH,
    SPANK_ROLL,
)


def hand_text(hand: list[int]) -> str:
    cards = [f"{CARDS[t].name}" + (f" x{n}" if n > 1 else "") for t, n in enumerate(hand) if n]
    return ", ".join(cards) if cards else "(empty)"


def render(config: Config, state: SpankState, viewer: int | None = None) -> str:
    if state.phase == GAME_OVER:
        status = f"game over after {state.turns} turns"
    else:
        turn = f"seat {state.player} to play" if state.player >= 0 else "dealing"
        status = f"turn {state.turns}, {turn} | {PHASE_NAMES[state.phase]}"
    top = CARDS[state.discard[-1]].name if state.discard else "-"
    lines = [
        f"Spank the Monkey, {config.num_players} players | {status}",
        f"monkey height {state.monkey} (spank from {state.monkey} to "
        f"{state.monkey + SPANK_REACH}) | deck {sum(state.deck)} cards | discard pile "
        f"{len(state.discard)} cards, top: {top}",
    ]
    for seat, tower in enumerate(state.towers):
        height = tower_height(tower, CARDS)
        reach = " IN REACH" if state.monkey <= height <= state.monkey + SPANK_REACH else ""
        you = " (you)" if seat == viewer else ""
        lines.append(
            f"seat {seat}{you}: tower height {height}{reach}, "
            f"{sum(state.hands[seat])} cards in hand"
        )
        base = 0
        rows = []
        for level, (junk, bonus, reinforcement) in enumerate(tower):
            card = CARDS[junk]
            strength = f"s{card.strength}" + (f"+{bonus}" if bonus else "")
            extra = ""
            if reinforcement != NO_CARD:
                extra = f" + {CARDS[reinforcement].name} (+{CARDS[reinforcement].strength})"
            rows.append(
                f"   L{level:<2} {card.name:<18} h{card.height} {strength:<5} "
                f"spans {base}-{base + card.height}{extra}"
            )
            base += card.height
        lines.extend(reversed(rows))  # the top of the tower first
    if state.attack:
        card, target, level, defense, redirected = state.attack
        where = f"seat {target} level {level}" if target >= 0 and level >= 0 else "(aiming)"
        how = f", defended with {CARDS[defense].name}" if defense != NO_CARD else ""
        how += ", redirected by a Trampoline" if redirected else ""
        lines.append(f"pending attack: {CARDS[card].name} by seat {state.player} on {where}{how}")
    if viewer is None:
        for seat, hand in enumerate(state.hands):
            lines.append(f"hand of seat {seat}: {hand_text(hand)}")
    elif 0 <= viewer < config.num_players:
        lines.append(f"your hand (seat {viewer}): {hand_text(state.hands[viewer])}")
    if state.phase == GAME_OVER:
        result = (
            f"seat {state.winner} spanked the monkey"
            if state.winner >= 0
            else ("the deck ran out: the monkey wins, nobody else does")
        )
        lines.append(f"game over: {result}")
    return "\n".join(lines)


# What each roll decides, for the event log.
ROLL_PURPOSE = {
    ATTACK_ROLL: "for the attack",
    COLLAPSE_ROLL: "for the collapse",
    QUAKE_ROLL: "in the earthquake",
    SPANK_ROLL: "to spank the monkey",
}


def describe_outcome(config: Config, state: SpankState, outcome: int, viewer: int | None) -> str:
    """A chance outcome as ``viewer`` may know it: a drawn card only to the one drawing."""
    if state.phase == DRAW:
        seat = state.draws[0]
        card = CARDS[outcome].name if viewer is None or viewer == seat else "a card"
        return f"seat {seat} drew {card}"
    if state.phase == INSPECT:  # the card goes to the discard pile, face up
        return f"seat {state.queue[0]} lost {CARDS[outcome].name} to the inspection"
    if state.phase == PICK_START:
        return f"seat {outcome} starts"
    seat = state.queue[0] if state.phase == QUAKE_ROLL else state.player
    return f"seat {seat} rolled {outcome} {ROLL_PURPOSE[state.phase]}"


def describe_effect(
    config: Config, before: SpankState, after: SpankState, viewer: int | None
) -> str:
    """What a move or a roll did beyond itself: a card taken back from the discard pile
    (it lay face up), towers rising or falling, the monkey climbing, a spank. Cards that
    go into a hand from the deck stay secret; the draw's own line says so."""
    events = []
    kept = 0
    while kept < min(len(before.discard), len(after.discard)):
        if before.discard[kept] != after.discard[kept]:
            break
        kept += 1
    for card in before.discard[kept:]:
        taker = next(
            (s for s in range(config.num_players) if after.hands[s][card] > before.hands[s][card]),
            None,
        )
        if taker is not None:
            events.append(f"seat {taker} takes {CARDS[card].name} back from the discard pile")
    for seat in range(config.num_players):
        old = tower_height(before.towers[seat], CARDS)
        new = tower_height(after.towers[seat], CARDS)
        if new != old:
            move = "rises" if new > old else "falls"
            events.append(f"seat {seat}'s tower {move} to height {new}")
    if after.monkey != before.monkey:
        events.append(
            f"the monkey {'climbs' if after.monkey > before.monkey else 'drops'} "
            f"to height {after.monkey}"
        )
    if after.phase == GAME_OVER and before.phase != GAME_OVER:
        events.append(
            f"seat {after.winner} spanks the monkey and wins"
            if after.winner >= 0
            else "the deck runs out: the monkey wins"
        )
    return "; ".join(events)
