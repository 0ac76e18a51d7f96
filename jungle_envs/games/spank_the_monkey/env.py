"""The Gymnasium env for Spank the Monkey (``jungle_envs/SpankTheMonkey-v0``)."""

from __future__ import annotations

from jungle_envs.core.compiled.vector_env import CompiledVectorEnv
from jungle_envs.core.env import JungleEnv
from jungle_envs.games.spank_the_monkey import SpankTheMonkey


class SpankTheMonkeyEnv(JungleEnv):
    """
    ## Description
    A card game on a junkyard. On your turn you draw a card (and may draw a second if you
    held 4 or fewer), may build one junk card on your tower (its effect resolves) and
    reinforce the top card, play any number of attack and special cards against the other
    towers, try to spank the monkey when your tower is at its height or up to two above,
    and discard up to two cards. An attacked player may
    answer with a defense card, so the env asks the learner for decisions on other
    players' turns too. Spanking the monkey wins; if the deck cannot feed a draw the
    monkey wins and nobody else does. Full rules and the 94-card table:
    `jungle-envs rules SpankTheMonkey` (shipped with the package; the docs' page
    rules/spank_the_monkey.md).

    ## Action Space
    `Discrete(144)`, named by card type, never by copy: draw a second card or not (offered
    after the first card to a player who held 4 or fewer); build a junk card (19) or nothing;
    reinforce (4) or not; attack with a card (11), play a special (5) or end attacks;
    target the player k seats on (5, also used for a Trampoline); target tower level
    0-41 (42); defend with a card (5) or not; spank or not; discard a card (44) or stop.
    `game.spec.action_names` lists them; use `env.action_masks()`.

    ## Observation Space
    `Box(0, 1, (2970,), float32)`: the observer's hand, every tower level by level
    (height, strength, reinforcement, categories), hand sizes and tower heights, the
    monkey, the deck size, the discard pile and its top card, the phase and the pending
    attack. Other hands are hidden. Layout: `game.config.layout`
    (`jungle_envs/games/spank_the_monkey/config.py`) and the rules page
    (`jungle-envs rules SpankTheMonkey`).

    ## Rewards
    +1 for spanking the monkey, -1 when another player does, 0 for everybody when the
    monkey wins (`reward="win"`). `reward="score"` pays the change in the learner's tower
    height. An illegal action ends the episode with -1 and `info["illegal_action"] = True`.

    ## Starting State
    The monkey starts at 14 minus the number of players (option `monkey_base`); everyone is
    dealt 5 cards, every tower is empty and a random player starts. `reset` deals the game
    and plays the seats before the learner (and chance) up to the learner's first decision;
    the learner's seat is drawn each reset unless `agent_seat` fixes it.

    ## Episode End
    Terminates when a spank hits or a draw finds the deck empty. The deck never refills,
    so every game ends within about 90 turns.

    ## Information
    Every step: `action_mask` (int8, the learner's legal actions) and `agent_seat`. At the
    end, with `scores`, `winners` and `returns` (every seat's), the game's own:
    - `monkey_won`: True when the monkey escaped and nobody won
    - `turns`: turns played
    - `monkey_height`: the monkey's height at the end

    ## Arguments
    `num_players` (2-6, default 4), `opponents`, `agent_seat`, `render_mode`,
    `observation_mode`, `illegal_action`, `reward`, `skip_forced_actions`, `engine`,
    `step_limit`, `event_log`, and the game
    options `deck` (card name -> copies, a partial mapping overrides the table),
    `monkey_base` (default 14: the monkey starts at 14 minus the players) and
    `monkey_floor` (default 5: a Banana Peel never takes it lower).

    ## Version History
    - v0: the only version so far. 0.2.0 changed rules (the rulings' gaps), action ids and
      observation pieces of the games without a new suffix (CHANGELOG.md says which), so a
      model trained on 0.1 does not fit; since then, changes that alter an observation or an
      action are named in CHANGELOG.md. Options that change only the observation
      (`move_features`) keep v0.
    """

    game_class = SpankTheMonkey


class SpankTheMonkeyVectorEnv(CompiledVectorEnv):
    """Many games stepped together by the compiled twin (see ``CompiledVectorEnv``)."""

    game_class = SpankTheMonkey


ENV = SpankTheMonkeyEnv
VECTOR_ENV = SpankTheMonkeyVectorEnv
