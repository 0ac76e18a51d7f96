"""Jungle Sweep's heuristic with one broom roll of lookahead: a rule-based teacher above it.

    python -m training.broom_lookahead --players 4 [--blend 0.25] [--rival 0.3]
        [--games 4000] [--seed 156000] [--workers 2] [--json]

The heuristic takes the die whose move ends safest and only then thinks of the others
(``jungle_envs/games/jungle_sweep/heuristic.py``). The rollout gaps say where that loses
(``docs/training.md``): a slightly safer field for my monkey can leave the next monkey the
die that saves it, and being swept second pays the same as being swept third. This policy
weighs those directly. For each die it could take it lets the seats after it take theirs
as the heuristic would (the safest move among the dice left, ties by the denial order),
and scores the die by the coconuts its monkey can expect from the coming broom roll:

- each monkey in play is swept with one minus its safety (the chance the roll falls short
  of its field), and the sweeps are nested, the nearest first, as the broom reaches them;
- a monkey swept gets what its place of leaving pays (the first out nothing, the last 2,
  the others 1: ``zero_places`` below follows the rulings' scoring);
- a monkey left alone gets 2; one that survives with others is paid ``blend`` x the place
  it gets if the monkeys leave in the order of their safeties now, plus ``1 - blend`` x
  the mean of the places left (no one knows who the next rolls will reach);
- the game is won on the total, so the die is worth its monkey's coconuts less ``rival`` x
  those the leading opponent (the most coconuts so far, which every seat sees) can expect,
  and with its monkey out a seat takes the die that leaves the leader the least.

Everything else (water holes, hills, clearings, where a safer field is never worse) is the
heuristic's. It reads only its own observation, as the heuristic does, and plays at the
heuristic's speed, so it is a teacher that costs no playouts; the paired comparison with
the heuristic in its seat among three heuristics is the command above (one game in seat
``i mod N`` per seed, as ``training.compare``). Only for 3 to 6 players: at 2 players a
seat runs two monkeys whose coconuts add up, which this count does not model.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import numpy as np

from jungle_envs.games.jungle_sweep.config import MONKEY_FEATURES
from jungle_envs.games.jungle_sweep.encoding import View, decode, move_value, safety
from jungle_envs.games.jungle_sweep.heuristic import DENIAL_ORDER, JungleSweepHeuristic
from jungle_envs.games.jungle_sweep.tables import CHOOSE_DIE, NUM_FACES

ENV_ID = "jungle_envs/JungleSweep-v0"


def zero_places(monkeys: int) -> int:
    """How many of the first monkeys swept out in a round get no coconut (the rulings)."""
    return 2 if monkeys >= 6 else 1


def place_pays(place: int, monkeys: int) -> float:
    """Coconuts for leaving the round ``place``-th (1 = first swept) of ``monkeys``."""
    if place <= zero_places(monkeys):
        return 0.0
    return 2.0 if place == monkeys else 1.0


def expected_coconuts(
    safeties: list[float], me: int, swept: int, monkeys: int, blend: float
) -> float:
    """``me``'s expected coconuts from the next broom roll, ``safeties`` per monkey in play
    and ``swept`` monkeys out already. The roll reaches a monkey when a uniform draw ``u``
    exceeds its safety, so the monkeys reached are those below ``u``: the value is exact
    over the intervals between the safeties."""
    cuts = sorted({0.0, 1.0, *(p for p in safeties if p < 1.0)})
    value = 0.0
    for low, high in itertools.pairwise(cuts):
        reach = (low + high) / 2
        out = sorted((i for i, p in enumerate(safeties) if p < reach), key=safeties.__getitem__)
        left = len(safeties) - len(out)
        if me in out:
            pays = place_pays(swept + out.index(me) + 1, monkeys)
        elif left == 1:
            pays = 2.0
        else:
            gone = swept + len(out)
            share = sum(place_pays(q, monkeys) for q in range(gone + 1, monkeys + 1)) / left
            rest = [p for i, p in enumerate(safeties) if i not in out and i != me]
            first = gone + 1 + sum(p < safeties[me] for p in rest)
            ties = sum(p == safeties[me] for p in rest)
            rank = sum(place_pays(first + t, monkeys) for t in range(ties + 1)) / (ties + 1)
            pays = blend * rank + (1 - blend) * share
        value += (high - low) * pays
    return value


TEACHER = "broom-lookahead"
# The settings chosen on seeds 140,000-155,999 (docs/training.md).
BLEND, RIVAL = 0.25, 0.3


class BroomLookahead(JungleSweepHeuristic):
    """The heuristic, its die chosen by ``expected_coconuts`` (ties by its denial).

    As a teacher (``training.distill --teacher broom-lookahead[:BLEND]``) it answers
    ``act_state`` as the searches do: ``visits`` is a one-hot of its move and ``overruled``
    says whether that move is not the heuristic's."""

    def __init__(
        self, config: Any, blend: float = BLEND, rival: float = RIVAL, game: Any = None
    ) -> None:
        if config.num_players < 3:
            raise ValueError(
                f"the broom lookahead is for 3 to 6 players, not {config.num_players}: at 2 "
                "players a seat's two monkeys share their coconuts"
            )
        if not 0.0 <= blend <= 1.0:
            raise ValueError(f"blend must be in [0, 1], got {blend!r}")
        if not 0.0 <= rival <= 10.0:
            raise ValueError(f"rival must be in [0, 10], got {rival!r}")
        super().__init__(config)
        self.blend, self.rival, self.game = blend, rival, game
        self.visits = np.zeros(NUM_FACES)
        self.overruled = False

    @classmethod
    def from_name(cls, name: str, game: Any) -> BroomLookahead:
        """``broom-lookahead[:BLEND[:RIVAL]]`` for a Jungle Sweep ``Game``."""
        head, *numbers = name.split(":")
        if head != TEACHER or len(numbers) > 2:
            raise ValueError(f"{name!r} is not {TEACHER}[:BLEND[:RIVAL]]")
        try:
            settings = [float(n) for n in numbers]
            return cls(game.config, *settings, game=game)
        except ValueError as exc:
            raise ValueError(f"{name!r}: {exc}") from None

    def act_state(self, state: Any, seat: int, action_mask: np.ndarray, rng) -> int:
        if self.game is None:
            raise TypeError("act_state needs the Game: build it with from_name(name, game)")
        observation = self.game.observe(state, seat)
        move = self.act(observation, action_mask, rng)
        self.overruled = move != super().act(observation, action_mask, rng)
        self.visits = np.zeros(len(action_mask))
        self.visits[move] = 1.0
        return move

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng) -> int:
        view = decode(self.config, observation)
        faces = [f for f in range(NUM_FACES) if action_mask[f]]
        if view.phase != CHOOSE_DIE or len(faces) == 1:
            return super().act(observation, action_mask, rng)
        counts = observation[self.config.layout["monkeys"]].reshape(-1, MONKEY_FEATURES)[:, -1]
        scores = {face: self.die_value(view, face, counts) for face in faces}
        best = max(scores.values())
        return self._deny(view, [f for f in faces if scores[f] >= best - 1e-9])

    def die_value(self, view: View, face: int, counts: np.ndarray) -> float:
        """Slot 0's expected coconuts if it takes ``face`` and the seats after it take the
        heuristic's safest dice from what is left, less ``rival`` x the leader's (the
        opponent with the most coconuts so far; with my monkey out, only the latter)."""
        pool = list(view.pool)
        pool[face] -= 1
        mine = view.in_play[0] and view.position(0) >= 0
        slots = [0] if mine else []
        safeties = [move_value(self.config, view, 0, face)] if mine else []
        for slot in range(1, view.num_monkeys):
            if not view.in_play[slot]:
                continue
            slots.append(slot)
            if not view.to_choose[slot]:
                safeties.append(safety(self.config, view, view.position(slot)))
                continue
            dice = [g for g in range(NUM_FACES) if pool[g] > 0]
            values = {g: move_value(self.config, view, slot, g) for g in dice}
            top = max(values.values())
            taken = min((g for g in values if values[g] >= top - 1e-9), key=DENIAL_ORDER.index)
            pool[taken] -= 1
            safeties.append(values[taken])
        swept = view.num_monkeys - sum(view.in_play[: view.num_monkeys])

        def expect(i: int) -> float:
            return expected_coconuts(safeties, i, swept, view.num_monkeys, self.blend)

        others = [i for i, slot in enumerate(slots) if not view.mine[slot]]
        leader = 0.0
        if others:
            most = max(counts[slots[i]] for i in others)
            leaders = [i for i in others if counts[slots[i]] >= most - 1e-6]
            leader = sum(expect(i) for i in leaders) / len(leaders)
        if not mine:
            return -leader
        return expect(0) - self.rival * leader


def compare_with_heuristic(
    players: int, blend: float, rival: float, games: int, seed: int, workers: int = 2
) -> dict[str, Any]:
    """The lookahead and the heuristic in the same seats of the same games, among three
    (or N - 1) heuristics: ``training.compare``'s paired differences."""
    import gymnasium as gym

    import jungle_envs  # noqa: F401  (registers the envs)
    from training.compare import compare_results
    from training.evaluate import run_evaluation

    env = gym.make(ENV_ID, num_players=players)
    policy = BroomLookahead(env.unwrapped.game.config, blend, rival)
    env.close()
    mine = run_evaluation(ENV_ID, policy, "heuristic", games, players, seed, workers)
    base = run_evaluation(ENV_ID, "heuristic", "heuristic", games, players, seed, workers)
    return {"players": players, "blend": blend, "rival": rival, "games": games, "seed": seed,
            **compare_results(mine, base)}  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    from training import cli

    parser = cli.parser("training.broom_lookahead", __doc__)
    parser.add_argument("--players", type=int, default=4, help="3 to 6")
    parser.add_argument("--blend", type=float, default=BLEND, help="weight of the place by safety")
    parser.add_argument("--rival", type=float, default=RIVAL, help="weight of the leader's")
    parser.add_argument("--games", type=int, default=4000, help="paired games")
    parser.add_argument("--seed", type=int, default=156_000, help="seed of game 0")
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games must be at least 2 (an interval needs two games)")
    if not 3 <= args.players <= 6:
        parser.error(f"--players must be 3 to 6, got {args.players}")
    if not 0.0 <= args.blend <= 1.0:
        parser.error(f"--blend must be in [0, 1], got {args.blend}")
    if not 0.0 <= args.rival <= 10.0:
        parser.error(f"--rival must be in [0, 10], got {args.rival}")
    result = compare_with_heuristic(
        args.players, args.blend, args.rival, args.games, args.seed, args.workers
    )
    if args.json:
        print(json.dumps(result, indent=2))
        return
    cli.print_paired(
        f"Jungle Sweep {args.players}p, {args.games} paired games from seed {args.seed}, "
        f"blend {args.blend}, rival {args.rival}: lookahead", result,
    )  # fmt: skip


if __name__ == "__main__":
    main()
