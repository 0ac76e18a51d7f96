"""Rule-based Spank the Monkey policy: climb into the spank window, knock down the leader.

It reads only its own observation (decoded with ``encoding.decode``). A tower's "threat"
is how close it is to the spank window (monkey height to monkey height + 2). The policy
builds the junk card that brings its tower nearest the window without overshooting,
always reinforces its top card, spanks whenever it may, plays the attack with the best
expected damage to a threatening opponent (chance of success times the height that falls,
collapse included), defends its own tower when an attack is likely to succeed, and sends
Trampolined attacks at the leader. It takes the optional second card unless the deck is
nearly dry and its own tower is the closest to the monkey: a dry deck ends the game with
no winner, which only the players behind should hurry.
"""

from __future__ import annotations

import numpy as np

from jungle_envs.games.spank_the_monkey.config import Config
from jungle_envs.games.spank_the_monkey.encoding import Level, View, decode
from jungle_envs.games.spank_the_monkey.tables import (
    ACTIONS,
    ATTACK_CHOICE,
    ATTACK_LEVEL,
    ATTACK_PLAYER,
    BONUS_AGAINST,
    BUILD_JUNK,
    BUILD_REINFORCE,
    CARDS,
    DEFEND,
    DISCARD,
    DRAW_SECOND,
    GUARD_DOG,
    HAND,
    IGNORES_REINFORCEMENT,
    SPANK,
    SPANK_REACH,
    TOPPLES_ALL,
    TRAMPOLINE,
    TRAMPOLINE_TARGET,
)

ATTACK_THRESHOLD = 0.6  # expected threat-weighted height an attack must remove
DEFEND_THRESHOLD = 0.35  # chance of success above which an attack is worth a defense card
P_ONE_MORE, P_ALL_ABOVE = 2 / 6, 1 / 6  # collapse roll: 4-5 one more card, 6 every card
DRY_DECK_TURNS = 2  # "nearly dry": the deck holds at most this many cards per player


def success_chance(card: int, level: Level, defense: int = 0) -> float:
    value = CARDS[card].strength
    if card in BONUS_AGAINST:
        bonus, categories = BONUS_AGAINST[card]
        value += bonus if categories & level.categories else 0
    reinforcement = 0 if card in IGNORES_REINFORCEMENT else level.reinforcement
    needed = level.strength + reinforcement + defense - value  # die >= needed
    return min(1.0, max(0.0, (7 - max(needed, 1)) / 6))


def expected_fall(card: int, tower: list[Level], index: int) -> float:
    """Tower height lost if the attack on ``index`` succeeds (collapse averaged)."""
    above = [level.height for level in tower[index + 1 :]]
    if card in TOPPLES_ALL:
        return tower[index].height + sum(above)
    extra = P_ONE_MORE * (above[0] if above else 0) + P_ALL_ABOVE * sum(above)
    return tower[index].height + extra


class SpankTheMonkeyHeuristic:
    def __init__(self, config: Config) -> None:
        self.config = config

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng) -> int:
        view = decode(self.config, observation)
        legal = set(np.flatnonzero(action_mask).tolist())
        choice = self.choose(view, legal)
        return choice if choice in legal else max(legal)  # the last action is always "pass"

    def choose(self, view: View, legal: set[int]) -> int:
        phase = view.phase
        if phase == SPANK:
            return ACTIONS.spank if ACTIONS.spank in legal else ACTIONS.no_spank
        if phase == DRAW_SECOND:
            return ACTIONS.draw_second if self.wants_second_card(view) else ACTIONS.no_second_draw
        if phase == BUILD_JUNK:
            return self.build(view, legal)
        if phase == BUILD_REINFORCE:
            options = [t for t, a in ACTIONS.reinforce.items() if a in legal]
            best = max(options, key=lambda t: CARDS[t].strength, default=None)
            return ACTIONS.reinforce[best] if best is not None else ACTIONS.skip_reinforce
        if phase in (ATTACK_CHOICE, ATTACK_PLAYER, ATTACK_LEVEL):
            return self.attack(view, legal)
        if phase == DEFEND:
            return self.defend(view, legal)
        if phase == TRAMPOLINE_TARGET:
            seats = [k + 1 for k, a in enumerate(ACTIONS.seat) if a in legal]
            return ACTIONS.seat[max(seats, key=lambda k: self.threat(view, k)) - 1]
        return self.discard(view, legal) if phase == DISCARD else max(legal)

    # --- pieces --------------------------------------------------------------------------
    def threat(self, view: View, slot: int) -> float:
        gap = view.monkey - view.height(slot)
        if -SPANK_REACH <= gap <= 0:
            return 3.0
        return 1.0 if 0 < gap <= 3 else 0.2

    def wants_second_card(self, view: View) -> bool:
        if view.deck > DRY_DECK_TURNS * view.num_players:
            return True
        gaps = [abs(view.monkey - view.height(slot)) for slot in range(view.num_players)]
        return gaps[0] > min(gaps[1:])  # behind: a dry deck (nobody wins) beats a loss

    def build(self, view: View, legal: set[int]) -> int:
        mine, best, best_score = view.height(0), ACTIONS.skip_build, 0.0
        for junk, action in ACTIONS.build.items():
            if action not in legal:
                continue
            card = CARDS[junk]
            monkey = view.monkey + (card.effect == "SHAKE")
            new = mine + card.height
            if new > monkey + SPANK_REACH:
                continue
            # In the window the spank needs 3+, 4+ or 5+: aim for the monkey's own height.
            score = 12.0 - 2.0 * (new - monkey) if new >= monkey else float(card.height)
            score += 0.3 * card.strength
            score += 1.0 if card.effect in ("DRAW", "SALVAGE") else 0.0
            if score > best_score:
                best, best_score = action, score
        return best

    def plans(self, view: View):
        """(value, card, target slot, level) of every attack the hand allows, or of the
        attack card already played when a target is being chosen."""
        mine = view.height(0)
        if view.phase == ATTACK_CHOICE:
            cards = [card for card in ACTIONS.attack if view.hand[card]]
        else:
            cards = [view.attack_card]
        for card in cards:
            for slot in range(1, view.num_players):
                tower, base = view.towers[slot], 0
                for index, level in enumerate(tower):
                    top = base + level.height
                    reach = CARDS[card].effect != HAND or base <= mine <= top
                    base = top
                    if reach:
                        damage = success_chance(card, level) * expected_fall(card, tower, index)
                        yield damage * self.threat(view, slot), card, slot, index

    def attack(self, view: View, legal: set[int]) -> int:
        if view.phase == ATTACK_CHOICE:
            for name in ("Gorilla", "Banana Peel", "Scrap Dealer", "Inspection", "Earthquake"):
                action = ACTIONS.special[self.game_card(name)]
                if action in legal and self.special_helps(view, name):
                    return action
        plans = [
            p for p in self.plans(view) if p[0] >= ATTACK_THRESHOLD or view.phase != ATTACK_CHOICE
        ]
        if view.phase == ATTACK_PLAYER:
            plans = [p for p in plans if p[1] == view.attack_card]
        if view.phase == ATTACK_LEVEL:
            plans = [p for p in plans if p[1] == view.attack_card and p[2] == view.attack_target]
        if not plans:
            return ACTIONS.end_attacks
        _, card, slot, index = max(plans)
        if view.phase == ATTACK_CHOICE:
            return ACTIONS.attack[card]
        return ACTIONS.seat[slot - 1] if view.phase == ATTACK_PLAYER else ACTIONS.level[index]

    @staticmethod
    def game_card(name: str) -> int:
        return next(i for i, card in enumerate(CARDS) if card.name == name)

    def special_helps(self, view: View, name: str) -> bool:
        mine = view.height(0)
        leader = max(self.threat(view, s) for s in range(1, view.num_players))
        if name == "Gorilla":  # lift the monkey out of a leader's reach, not out of mine
            return leader >= 3.0 and mine < view.monkey - 2
        if name == "Banana Peel":  # bring the monkey into my reach
            return mine == view.monkey - 1
        if name == "Earthquake":
            return leader >= 3.0 and self.threat(view, 0) < 3.0
        if name == "Scrap Dealer":  # cards now, but the deck running dry lets the monkey win
            return not any(view.hand[junk] for junk in ACTIONS.build)
        return True  # Inspection: fewer cards for them

    def keep_value(self, view: View, card: int) -> float:
        """How much a card in hand is worth keeping (higher: keep)."""
        kind, gap = CARDS[card].kind, view.monkey - view.height(0)
        if kind == "junk":
            return 5.0 if CARDS[card].height <= gap + SPANK_REACH else 0.5
        return {"reinforcement": 3.0, "defense": 2.5, "special": 1.5}.get(kind, 1.0)

    def discard(self, view: View, legal: set[int]) -> int:
        """Thin the hand to four cards, so the next turn draws two."""
        if sum(view.hand) <= 4:
            return ACTIONS.stop_discard
        held = [t for t, a in ACTIONS.discard.items() if a in legal]
        worst = min(held, key=lambda t: self.keep_value(view, t), default=None)
        if worst is None or self.keep_value(view, worst) >= 5.0:
            return ACTIONS.stop_discard
        return ACTIONS.discard[worst]

    def defend(self, view: View, legal: set[int]) -> int:
        tower = view.towers[0]
        if not 0 <= view.attack_level < len(tower):
            return ACTIONS.no_defense
        level, card = tower[view.attack_level], view.attack_card
        risk = success_chance(card, level)
        if risk < DEFEND_THRESHOLD:
            return ACTIONS.no_defense
        options = []
        for defense, action in ACTIONS.defend.items():
            if action not in legal:
                continue
            if defense in (GUARD_DOG, TRAMPOLINE):
                options.append((0.0, 1, action))  # keep those for later if a value card will do
            else:
                options.append((success_chance(card, level, CARDS[defense].strength), 0, action))
        if not options:
            return ACTIONS.no_defense
        return min(options)[2]
