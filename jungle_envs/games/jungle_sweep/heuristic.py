"""Rule-based Jungle Sweep policy: stay out of the broom's reach, deny the others the dice.

It reads only its own observation (decoded with ``encoding.decode``) and looks ahead with
the engine's own movement functions (the move values in ``encoding``, which the
``move_features`` option shows a learner too). A field's safety is the chance that the broom's next
roll falls short of it (palms are always safe). On its own turn it takes the die whose
move ends safest; water holes and hill steps are taken when the new field is safer, and a
clearing's re-roll when the average over the six faces beats staying on the clearing. With
its monkey out, or when several dice are equally safe, it takes the die the next monkey in
play would want most if that monkey is an opponent's (least, if it is its own second
monkey in the two-player game).
"""

from __future__ import annotations

import numpy as np

from jungle_envs.games.jungle_sweep.config import Config
from jungle_envs.games.jungle_sweep.encoding import (
    View,
    decode,
    landing,
    move_value,
    reroll_value,
    safety,
)
from jungle_envs.games.jungle_sweep.tables import (
    CLEARING_CHOICE,
    CLEARING_REROLL,
    CLEARING_STAY,
    HILL_CHOICE,
    HILL_STAY,
    HILL_STEP,
    NUM_FACES,
    PALM_FACE,
    WATER,
    WATER_ENTER,
    WATER_STAY,
)

# Among equally good dice, which to prefer when nothing else decides: the escape first.
DENIAL_ORDER = (PALM_FACE, 4, 3, 2, 1, 0)


class JungleSweepHeuristic:
    def __init__(self, config: Config) -> None:
        self.config = config

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng) -> int:
        view = decode(self.config, observation)
        me = view.position(0)
        if view.phase == WATER:
            better = safety(self.config, view, view.pending) > safety(self.config, view, me)
            return WATER_ENTER if better else WATER_STAY
        if view.phase == HILL_CHOICE:
            better = landing(self.config, view, 0, view.pending, view.pending, 1) > safety(
                self.config, view, me
            )
            return HILL_STEP if better else HILL_STAY
        if view.phase == CLEARING_CHOICE:
            better = reroll_value(self.config, view, 0, 1) > safety(self.config, view, me)
            return CLEARING_REROLL if better else CLEARING_STAY
        faces = [f for f in range(NUM_FACES) if action_mask[f]]
        if view.in_play[0] and me >= 0:
            values = {f: move_value(self.config, view, 0, f) for f in faces}
            best = max(values.values())
            faces = [f for f in faces if values[f] >= best - 1e-9]
        return self._deny(view, faces)

    def _deny(self, view: View, faces: list[int]) -> int:
        """Pick among ``faces`` by what the next monkey in play would make of them."""
        if len(faces) > 1:
            for slot in range(1, view.num_monkeys):
                if not view.to_choose[slot] or not view.in_play[slot]:
                    continue
                values = {f: move_value(self.config, view, slot, f) for f in faces}
                pick = max if not view.mine[slot] else min
                target = pick(values.values())
                faces = [f for f in faces if abs(values[f] - target) < 1e-9]
                break
        return min(faces, key=DENIAL_ORDER.index)
