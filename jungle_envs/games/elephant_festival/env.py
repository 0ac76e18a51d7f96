"""The Gymnasium env for Elephant Festival (``jungle_envs/ElephantFestival-v0``)."""

from __future__ import annotations

from jungle_envs.core.compiled.vector_env import CompiledVectorEnv
from jungle_envs.core.env import JungleEnv
from jungle_envs.games.elephant_festival import ElephantFestival


class ElephantFestivalEnv(JungleEnv):
    """
    ## Description
    Each player grows a festival ground of coloured tiles around a start tile, walking two
    elephants across it: every new tile goes next to an elephant, on an empty cell or on
    top of a stack, and the elephant steps onto it. Each round the bag holder lays out as
    many tiles as there are players and everyone, from the bag holder on, takes one or
    passes (twice a game, laying an elephant down). At the end each player keeps one
    field per colour (two of their own), loses 2 points per tile removed, 5 per missing
    colour, and scores standing elephants, arches matched on the start tile and elephant
    symbols. Full rules: `jungle-envs rules ElephantFestival` prints them (shipped
    with the package; the docs' page rules/elephant_festival.md).

    ## Action Space
    `Discrete(241)`: 0-239 place a face-up tile kind (colour relative to the player's
    own, and symbol count) beside elephant 1 or 2 to the north, east, south or west;
    240 pass. Use `env.action_masks()`.

    ## Observation Space
    `Box(0, 1, (4125,), float32)` with the default 9x9 grid: every ground cell by cell
    (top colour, start tile, symbols, stack height, elephants) for every seat with the
    observer first, the face-up tiles, the tiles not yet seen, the bag, the passes and
    the bag holder. Colours are relative to the observer. The bag's contents are hidden.

    ## Rewards
    +1 for a sole win, 0 for a shared win, -1 for a loss (`reward="win"`).
    `reward="score"` pays the change of the learner's score as the game would count it if
    it ended now. An illegal action ends the episode with -1 and `info["illegal_action"]`.

    ## Starting State
    Every player has a start tile of their colour at the centre of an empty 9 x 9 ground
    (option `grid`) with both elephants on it; seat 0 holds the bag of 20 tiles per player
    and lays out the first tiles. `reset` deals the game and plays the seats before the
    learner (and chance) up to the learner's first decision; the learner's seat is drawn
    each reset unless `agent_seat` fixes it.

    ## Episode End
    Terminates when the bag is empty and the last face-up tiles are dealt with (20
    rounds with the default tiles). The final `info` holds every seat's score line by
    line (`score_lines`).

    ## Information
    Every step: `action_mask` (int8, the learner's legal actions) and `agent_seat`. At the
    end, with `scores`, `winners` and `returns` (every seat's), the game's own:
    - `score_lines`: every seat's score, line by line (at the end)
    - `standing_elephants`: every seat's elephants still standing (at the end)

    ## Arguments
    `num_players` (2-5, default 4), `opponents`, `agent_seat`, `render_mode`,
    `observation_mode`, `illegal_action`, `reward`, `skip_forced_actions`, `engine`,
    `step_limit`, `event_log`, and the game
    options `tiles_per_color` (symbols -> tiles of each colour, default {0: 5, 1: 5,
    2: 4, 3: 3, 4: 2, 5: 1}) and `grid` (side of the ground, odd, default 9).

    ## Version History
    - v0: the only version so far. 0.2.0 changed rules (the rulings' gaps), action ids and
      observation pieces of the games without a new suffix (CHANGELOG.md says which), so a
      model trained on 0.1 does not fit; since then, changes that alter an observation or an
      action are named in CHANGELOG.md. Options that change only the observation
      (`move_features`) keep v0.
    """

    game_class = ElephantFestival


class ElephantFestivalVectorEnv(CompiledVectorEnv):
    """Many games stepped together by the compiled twin (see ``CompiledVectorEnv``)."""

    game_class = ElephantFestival


ENV = ElephantFestivalEnv
VECTOR_ENV = ElephantFestivalVectorEnv
