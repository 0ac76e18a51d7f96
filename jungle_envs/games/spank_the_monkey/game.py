"""Spank the Monkey: the game header, its options, and the binding of the rule functions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from jungle_envs.core.game import ChanceEvent, Game, GameSpec, Option, draw_from_counts
from jungle_envs.games.spank_the_monkey import encoding, render, rules
from jungle_envs.games.spank_the_monkey.state import SpankState, resample, validate
from jungle_envs.games.spank_the_monkey.tables import (
    ACTIONS,
    CARD_INDEX,
    CARDS,
    DEFAULT_MONKEY_BASE,
    DEFAULT_MONKEY_FLOOR,
    DRAW,
    HAND_SIZE,
    INSPECT,
    JUNK,
    MAX_LEVELS,
    PICK_START,
)

DEFAULT_DECK = {card.name: card.copies for card in CARDS}


def _check_deck(value: Any) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise TypeError(f"expected a mapping card name -> copies, got {value!r}")
    unknown = sorted(set(value) - set(CARD_INDEX))
    if unknown:
        raise ValueError(f"unknown cards {unknown}; the table lists {sorted(CARD_INDEX)}")
    deck = {**DEFAULT_DECK, **value}
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in deck.values()):
        raise ValueError("copies must be ints >= 0")
    junk = sum(n for name, n in deck.items() if CARDS[CARD_INDEX[name]].kind == JUNK)
    if junk > MAX_LEVELS:
        raise ValueError(f"at most {MAX_LEVELS} junk cards (the tallest tower the actions name)")
    return deck


def _check_int(minimum: int):
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise ValueError(f"expected an int >= {minimum}, got {value!r}")
        return value

    return check


SPEC = GameSpec(
    name="spank_the_monkey",
    env_name="SpankTheMonkey",
    min_players=2,
    max_players=6,
    default_players=4,
    action_names=ACTIONS.names,
    # Every turn draws from a deck that never refills, so a game lasts at most ~90 turns;
    # a seat plays or discards each card it holds at most once.
    max_decisions=2000,
    options=(
        Option("deck", DEFAULT_DECK, "copies of each card (name -> copies)", _check_deck),
        Option(
            "monkey_base",
            DEFAULT_MONKEY_BASE,
            "the monkey starts at this minus the players",
            _check_int(1),
        ),
        Option(
            "monkey_floor",
            DEFAULT_MONKEY_FLOOR,
            "a Banana Peel never takes the monkey lower",
            _check_int(0),
        ),
    ),
)


class SpankTheMonkey(Game):
    """Spank the Monkey for 2-6 players."""

    spec = SPEC
    state_class = SpankState

    def _setup(self) -> None:
        deck = self.options["deck"]
        self.deck_counts = tuple(deck[card.name] for card in CARDS)
        self.max_copies = max(max(self.deck_counts), 1)
        self.monkey_start = self.options["monkey_base"] - self.num_players
        self.monkey_floor = self.options["monkey_floor"]
        if self.monkey_start < self.monkey_floor:
            raise ValueError(
                f"the monkey would start at {self.monkey_start}, below its floor "
                f"{self.monkey_floor}"
            )
        if sum(self.deck_counts) <= HAND_SIZE * self.num_players:
            raise ValueError(f"the deck must hold more than {HAND_SIZE} cards per player")
        self._observation_size = encoding.observation_size(self)

    # --- rules ---------------------------------------------------------------------------
    def new_state(self) -> SpankState:
        return rules.new_state(self)

    def current_player(self, state: SpankState) -> int:
        return rules.current_player(state)

    def legal_actions(self, state: SpankState) -> list[int]:
        return rules.legal_actions(state)

    def legal_mask(self, state: SpankState) -> np.ndarray:
        mask = np.zeros(self.spec.num_actions, dtype=bool)
        mask[rules.legal_actions(state)] = True
        return mask

    def _apply_action(self, state: SpankState, action: int) -> None:
        rules.apply_action(self, state, action)

    def chance_event(self, state: SpankState) -> ChanceEvent:
        return rules.chance_event(self, state)

    def sample_chance(self, state: SpankState, rng) -> int:
        if state.phase == DRAW:
            return draw_from_counts(state.deck, rng)
        if state.phase == INSPECT:
            return draw_from_counts(state.hands[state.queue[0]], rng)
        if state.phase == PICK_START:
            return int(rng.random() * self.num_players)
        return 1 + int(rng.random() * 6)  # a die roll

    def _apply_chance(self, state: SpankState, outcome: int) -> None:
        rules.apply_chance(self, state, outcome)

    def scores(self, state: SpankState) -> list[float]:
        """Tower heights (the winner is whoever spanked the monkey, see ``winners``)."""
        return [float(rules.height(state, seat)) for seat in range(self.num_players)]

    def winners(self, state: SpankState) -> list[int]:
        return rules.winners(state)

    def final_details(self, state: SpankState) -> dict[str, Any]:
        return {"monkey_won": state.winner < 0, "turns": state.turns, "monkey_height": state.monkey}

    def validate_state(self, state: SpankState) -> None:
        validate(state, self)

    def _resample(self, state: SpankState, seat: int, rng: np.random.Generator) -> None:
        resample(state, self, seat, rng)

    # --- views ---------------------------------------------------------------------------
    @property
    def observation_size(self) -> int:
        return self._observation_size

    def observe(self, state, seat, out=None):
        return encoding.observe(self, state, self.check_seat(seat), out)

    def render(self, state: SpankState, viewer: int | None = None) -> str:
        if viewer is not None:
            viewer = self.check_seat(viewer, "viewer")
        return render.render(self, state, viewer)

    def _describe_outcome(self, state, outcome, viewer):
        return render.describe_outcome(self, state, outcome, viewer)

    def heuristic_policy(self):
        from jungle_envs.games.spank_the_monkey.heuristic import SpankTheMonkeyHeuristic

        return SpankTheMonkeyHeuristic(self)


GAME = SpankTheMonkey
