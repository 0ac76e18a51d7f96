"""Rule-based Jungle Sweep policy: stay out of the broom's reach, deny the others the dice.

It reads only its own observation (decoded with ``encoding.decode``) and looks ahead with
the engine's own movement functions. A field's safety is the chance that the broom's next
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
from jungle_envs.games.jungle_sweep.encoding import View, decode
from jungle_envs.games.jungle_sweep.rules import palm_jump, walk
from jungle_envs.games.jungle_sweep.tables import (
    CLEARING,
    CLEARING_CHOICE,
    CLEARING_REROLL,
    CLEARING_STAY,
    DIE_FACE_STEPS,
    HILL,
    HILL_CHOICE,
    HILL_STAY,
    HILL_STEP,
    NUM_FACES,
    PALM,
    PALM_FACE,
    WATER,
    WATER_ENTER,
    WATER_HOLE,
    WATER_STAY,
)

# Among equally good dice, which to prefer when nothing else decides: the escape first.
DENIAL_ORDER = (PALM_FACE, 4, 3, 2, 1, 0)


class JungleSweepHeuristic:
    def __init__(self, config: Config) -> None:
        self.config = config
        # safe_beyond[d]: chance the broom stops short of a field d steps ahead of it.
        self.safe_beyond = config.short_of

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng) -> int:
        view = decode(self.config, observation)
        me = view.position(0)
        if view.phase == WATER:
            better = self.safety(view, view.pending) > self.safety(view, me)
            return WATER_ENTER if better else WATER_STAY
        if view.phase == HILL_CHOICE:
            better = self._landing(view, 0, view.pending, view.pending, 1) > self.safety(view, me)
            return HILL_STEP if better else HILL_STAY
        if view.phase == CLEARING_CHOICE:
            better = self.reroll_value(view, 0, 1) > self.safety(view, me)
            return CLEARING_REROLL if better else CLEARING_STAY
        faces = [f for f in range(NUM_FACES) if action_mask[f]]
        if view.in_play[0] and me >= 0:
            values = {f: self.move_value(view, 0, f) for f in faces}
            best = max(values.values())
            faces = [f for f in faces if values[f] >= best - 1e-9]
        return self._deny(view, faces)

    # --- evaluation --------------------------------------------------------------------
    def safety(self, view: View, field: int) -> float:
        if view.terrain[field] == PALM:
            return 1.0
        return float(self.safe_beyond[min(field, len(self.safe_beyond) - 1)])

    def _board(self, view: View, slot: int) -> list[bool]:
        occupied = [m >= 0 and m != slot for m in view.monkey_at]
        occupied[0] = True  # the broom's field
        return occupied

    def move_value(self, view: View, slot: int, face: int, depth: int = 0) -> float:
        pos = view.position(slot)
        if face == 0:
            return self.safety(view, pos)
        occupied = self._board(view, slot)
        if face == PALM_FACE:
            return self.safety(view, palm_jump(view.terrain, occupied, pos))
        target = walk(view.terrain, occupied, pos, DIE_FACE_STEPS[face])
        if target == pos:
            return self.safety(view, pos)
        if view.terrain[target] == WATER_HOLE:
            return max(self.safety(view, pos), self.safety(view, target))
        return self._landing(view, slot, pos, target, depth)

    def _landing(self, view: View, slot: int, start: int, field: int, depth: int) -> float:
        terrain = view.terrain[field]
        if terrain == HILL and depth < 3:
            step = walk(view.terrain, self._board(view, slot), field, 1)
            stay = self.safety(view, field)
            if step == field:
                return stay
            return max(stay, self._landing(view, slot, field, step, depth + 1))
        if terrain == CLEARING and depth < 3:
            moved = _moved(view, slot, field)
            return max(self.safety(view, field), self.reroll_value(moved, slot, depth + 1))
        return self.safety(view, field)

    def reroll_value(self, view: View, slot: int, depth: int) -> float:
        """Expected safety after re-rolling on the clearing ``slot`` stands on."""
        values = [self.move_value(view, slot, f, depth) for f in range(NUM_FACES)]
        return sum(values) / NUM_FACES  # summed in face order, as the compiled twin does

    def _deny(self, view: View, faces: list[int]) -> int:
        """Pick among ``faces`` by what the next monkey in play would make of them."""
        if len(faces) > 1:
            for slot in range(1, view.num_monkeys):
                if not view.to_choose[slot] or not view.in_play[slot]:
                    continue
                values = {f: self.move_value(view, slot, f) for f in faces}
                pick = max if not view.mine[slot] else min
                target = pick(values.values())
                faces = [f for f in faces if abs(values[f] - target) < 1e-9]
                break
        return min(faces, key=DENIAL_ORDER.index)


def _moved(view: View, slot: int, field: int) -> View:
    """The view with ``slot``'s monkey standing on ``field``."""
    monkey_at = [-1 if m == slot else m for m in view.monkey_at]
    monkey_at[field] = slot
    return View(**{**view.__dict__, "monkey_at": monkey_at})
