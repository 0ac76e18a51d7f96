"""The Gymnasium env for Jungle Sweep (``jungle_envs/JungleSweep-v0``)."""

from __future__ import annotations

from jungle_envs.core.compiled.vector_env import CompiledVectorEnv
from jungle_envs.core.env import JungleEnv
from jungle_envs.games.jungle_sweep import JungleSweep


class JungleSweepEnv(JungleEnv):
    """
    ## Description
    Monkeys run clockwise round a ring of terrain tiles while a broom sweeps behind them.
    Each dice round the active player rolls one die per monkey; the broom moves by the
    sum, sweeping out every monkey it passes that is not on a palm. Then every player in
    turn takes one of the rolled dice and moves its monkey by it. The longer a monkey
    stays in, the more face-down coconuts it earns; after four rounds the highest coconut
    value wins. With two players each runs two monkeys. Full rules: `jungle-envs rules
    JungleSweep` prints them (shipped with the package; the docs' page
    rules/jungle_sweep.md).

    ## Action Space
    `Discrete(12)`: 0-5 take the die showing 0, 1, 2, 3, 4 or PALM; 6 enter the water
    hole, 7 stay out of it; 8 take the hill's extra step, 9 stay on the hill; 10 re-roll
    on the clearing, 11 stay on it. Use `env.action_masks()` or `info["action_mask"]`
    for the legal ones.

    ## Observation Space
    `Box(0, 1, (329,), float32)` with the default options: the ring clockwise from the
    broom (terrain and monkeys per field), per-monkey status with the observer's monkey
    first, the dice pool, phase, round, player count, and the observer's own coconuts.
    Other players' coconut values are hidden. `observation_mode="dict"` gives
    `{"observation": ..., "action_mask": ...}`. The layout is documented in
    `jungle_envs/games/jungle_sweep/encoding.py` and the rules page
    (`jungle-envs rules JungleSweep`).

    ## Rewards
    At the end: +1 for a sole win, 0 for a shared win, -1 for a loss (`reward="win"`).
    `reward="score"` pays each coconut's value to its owner as it is drawn. An illegal
    action ends the episode with -1 and `info["illegal_action"] = True`.

    ## Starting State
    Round 1: the terrain tiles and the palms are shuffled into a ring, the broom stands on
    the quicksand and every monkey on its own palm; the start player owns the first palm
    clockwise from the broom. Coconuts lie face down in the supply. `reset` deals the game
    and plays the seats before the learner (and chance) up to the learner's first decision;
    the learner's seat is drawn each reset unless `agent_seat` fixes it.

    ## Episode End
    Terminates after the fourth round's coconuts are drawn. Truncated after `step_limit`
    learner decisions (never reached by default: a safety net ends any round
    after 200 dice rounds).

    ## Information
    Every step: `action_mask` (int8, the learner's legal actions) and `agent_seat`. At the
    end, with `scores`, `winners` and `returns` (every seat's), the game's own:
    - `coconut_values`: every seat's coconut values, sorted (at the end)
    - `coconut_counts`: every seat's number of coconuts (at the end)

    ## Arguments
    `num_players` (2-6, default 4), `opponents` (`"random"`, `"heuristic"`, a MaskablePPO
    model or path, an object with `act(obs, mask, rng)`, a callable, or a list per seat),
    `agent_seat` (`"random"` or a seat), `render_mode` (`None`, `"ansi"`, `"human"`,
    `"rgb_array"`),
    `observation_mode` (`"flat"`, `"dict"`), `illegal_action` (`"lose"`, `"raise"`),
    `reward` (`"win"`, `"score"`), `skip_forced_actions` (default True), `engine`
    (`"auto"`: the compiled twin; `"compiled"`, `"reference"`), `step_limit`, `event_log`,
    and the game options `terrain` (non-palm tiles, default 8 paths, 1 quicksand, 1
    clearing, 2 water holes, 2 hills), `coconuts` (value -> count, default {0: 4, 1: 6,
    2: 5, 3: 3, 4: 2}), `move_features` (default False: add where each die face would
    take my monkey) and `max_dice_rounds` (default 200).

    ## Version History
    - v0: the only version so far. 0.2.0 changed rules (the rulings' gaps), action ids and
      observation pieces of the games without a new suffix (CHANGELOG.md says which), so a
      model trained on 0.1 does not fit; since then, changes that alter an observation or an
      action are named in CHANGELOG.md. Options that change only the observation
      (`move_features`) keep v0.
    """

    game_class = JungleSweep


class JungleSweepVectorEnv(CompiledVectorEnv):
    """Many games stepped together by the compiled twin (see ``CompiledVectorEnv``)."""

    game_class = JungleSweep


ENV = JungleSweepEnv
VECTOR_ENV = JungleSweepVectorEnv
