"""The Gymnasium env for Tropic Race (``jungle_envs/TropicRace-v0``)."""

from __future__ import annotations

from jungle_envs.core.compiled.vector_env import CompiledVectorEnv
from jungle_envs.core.env import JungleEnv
from jungle_envs.games.tropic_race import TropicRace


class TropicRaceEnv(JungleEnv):
    """
    ## Description
    Each player walks a band of monkeys from the start up a T-shaped path, along the river
    bank, over turtle tiles and into the goal. A ten-sided die moves a monkey exactly 1-6
    steps, sends the lion walking to one of the path's three ends (sending home the first
    monkey it meets), or pushes the river: a new tile enters on the left, the tiles shift
    right and the one falling off takes its riders home. Die fields give an extra turn,
    arrow fields push the river. The first player with every monkey in the goal wins;
    when the river's supply runs out the volcano ends the game and most monkeys home win.
    Full rules: `jungle-envs rules TropicRace` prints them (shipped
    with the package; the docs' page rules/tropic_race.md).

    ## Action Space
    `Discrete(219)`: actions 0-215 move a monkey from one location to another (a fixed
    table of every from/to pair the board allows, named in `game.spec.action_names`);
    216-218 walk the lion to T1, B1 or B9. Use `env.action_masks()` or
    `info["action_mask"]` for the legal ones.

    ## Observation Space
    `Box(0, 1, (210,), float32)`: monkeys per location for every seat (the observer
    first), the lion, the turtles of the five river tiles, the supply by tile kind, the
    phase and the steps to move, the player count and the special fields. The game has no
    hidden information. `observation_mode="dict"` adds the mask. Layout:
    `game.config.layout` (`jungle_envs/games/tropic_race/config.py`) and the
    rules page (`jungle-envs rules TropicRace`).

    ## Rewards
    At the end: +1 for a sole win, 0 for a shared win, -1 for a loss (`reward="win"`).
    `reward="score"` pays +1 for each of the learner's monkeys reaching the goal (and -1 if
    one were ever to leave it, which the rules do not allow). An illegal action ends the
    episode with -1 and `info["illegal_action"] = True`.

    ## Starting State
    The 20 river tiles are shuffled; five lie face up in slots 1 to 5, the rest are the
    supply. Every monkey waits in START, the lion stands on B5, and a random player starts.
    `reset` deals the game and plays the seats before the learner (and chance) up to the
    learner's first decision; the learner's seat is drawn each reset unless `agent_seat`
    fixes it.

    ## Episode End
    Terminates when a player has every monkey in the goal or the volcano erupts (the last
    supply tile is pushed in). Truncated after `step_limit` learner decisions (by default
    the game's bound, which a game practically never reaches).

    ## Information
    Every step: `action_mask` (int8, the learner's legal actions) and `agent_seat`. At the
    end, with `scores`, `winners` and `returns` (every seat's), the game's own:
    - `monkeys_home`: every seat's monkeys in the goal (at the end)
    - `volcano`: True when the supply ran out (the volcano erupted)
    - `rolls`: dice rolled in the game

    ## Arguments
    `num_players` (2-5, default 4), `opponents`, `agent_seat`, `render_mode`,
    `observation_mode`, `illegal_action`, `reward`, `skip_forced_actions`, `engine`,
    `step_limit`, `event_log` (see the README),
    and the game options `die_faces` (default 1-6, LION x2, ARROW x2), `tile_mix` (default
    10 bridges, 4 near-only, 3 far-only, 3 empty), `lion_start` (default "B5"),
    `die_fields` (default T2, B2, B8), `arrow_fields` (default B4, B6) and `monkeys` (per
    player; default 6/5/4/4 for 2/3/4/5 players).

    ## Version History
    - v0: the only version so far. 0.2.0 changed rules (the rulings' gaps), action ids and
      observation pieces of the games without a new suffix (CHANGELOG.md says which), so a
      model trained on 0.1 does not fit; since then, changes that alter an observation or an
      action are named in CHANGELOG.md. Options that change only the observation
      (`move_features`) keep v0.
    """

    game_class = TropicRace


class TropicRaceVectorEnv(CompiledVectorEnv):
    """Many games stepped together by the compiled twin (see ``CompiledVectorEnv``)."""

    game_class = TropicRace


ENV = TropicRaceEnv
VECTOR_ENV = TropicRaceVectorEnv
