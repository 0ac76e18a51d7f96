"""Hand-built Spank the Monkey positions for the rules tests (cards by name)."""

from __future__ import annotations

from jungle_envs.games.spank_the_monkey.game import SpankTheMonkey
from jungle_envs.games.spank_the_monkey.state import NO_CARD, SpankState
from jungle_envs.games.spank_the_monkey.tables import (
    ACTIONS,
    ATTACK_CHOICE,
    CARD_INDEX,
    MAX_DISCARDS,
    NUM_TYPES,
    PICK_START,
)


def card(name: str) -> int:
    return CARD_INDEX[name]


def level(entry) -> list[int]:
    """A tower level from "Name" or ("Name", brace bonus, "Reinforcement" or None)."""
    if isinstance(entry, str):
        entry = (entry, 0, None)
    name, bonus, reinforcement = entry
    return [card(name), bonus, card(reinforcement) if reinforcement else NO_CARD]


def position(
    hands: dict[int, list[str]] | None = None,
    towers: dict[int, list] | None = None,
    num_players: int = 2,
    phase: int = ATTACK_CHOICE,
    player: int = 0,
    discard: list[str] = (),
    monkey: int | None = None,
    attack: list[int] | None = None,
    **options,
) -> tuple[SpankTheMonkey, SpankState]:
    """Every card not placed in a hand, tower or the discard pile is in the deck."""
    game = SpankTheMonkey(num_players, **options)
    deck = list(game.config.deck_counts)
    hand_counts = [[0] * NUM_TYPES for _ in range(num_players)]
    for seat, names in (hands or {}).items():
        for name in names:
            hand_counts[seat][card(name)] += 1
            deck[card(name)] -= 1
    built = [[level(e) for e in (towers or {}).get(s, [])] for s in range(num_players)]
    for tower in built:
        for junk, _, reinforcement in tower:
            deck[junk] -= 1
            if reinforcement != NO_CARD:
                deck[reinforcement] -= 1
    pile = [card(name) for name in discard]
    for t in pile:
        deck[t] -= 1
    state = SpankState(
        phase=phase, player=player, deck=deck, discard=pile, hands=hand_counts, towers=built,
        monkey=game.config.monkey_start if monkey is None else monkey, draws=[],
        after_draws=PICK_START, attack=attack or [], queue=[], discards_left=MAX_DISCARDS,
        winner=-1, turns=1,
    )  # fmt: skip
    game.validate_state(state)
    return game, state


def play(game, state, *names: str) -> None:
    """Apply actions by their names in the action table."""
    for name in names:
        game.apply_action(state, ACTIONS.names.index(name))


def legal_names(game, state) -> list[str]:
    return [ACTIONS.names[a] for a in game.legal_actions(state)]
