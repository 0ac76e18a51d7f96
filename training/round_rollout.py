"""Jungle Sweep's heuristic improved by paired rollouts to the end of the round: a cheap teacher.

    python -m training.round_rollout --players 4 [--rollouts 32] [--z 1] [--rival 0.3]
        [--field heuristic] [--opponents heuristic] [--games 2000] [--seed 168000]
        [--workers 2] [--json]

The rollout-improved heuristic (``rollout:400``, ``jungle_envs/search/rollout.py``) plays
every move out to the end of the game and compares wins: a 4-player win is one outcome in
four and three more rounds of dice lie between a move and it, so 400 playouts a move are
needed and a decision costs a quarter of a second. In Jungle Sweep a move's effect is in
its round: the broom's sweeps decide the coconuts awarded when the round ends, and their
values are drawn at random afterwards. So this teacher plays each legal move out to the
end of the round only, with the heuristic in its own seat and, by ``field``, the
heuristic or uniformly random legal moves in the others (the compiled twin's
``round_awards``; ``field=random`` expects the field of random players that the paired
tables' second row plays in), and values it by the coconuts awarded to its seat less ``rival`` x
those of the leading opponent (the most coconuts so far, which every seat sees: the game
is won on the total). Rollout k of every move draws the same dice stream, so two moves are
compared on the same luck; the heuristic's move stands unless another one's mean beats it
by more than ``z`` standard errors of the paired difference.

It reads what its seat sees: the ring, the monkeys, the dice pool, the coconut counts; a
rollout stops before any coconut is drawn, so the hidden values never enter. At 2 players
a seat's two monkeys' awards add up. As a distillation teacher
(``training.distill --teacher round-rollout[:ROLLOUTS][:z=Z][:rival=R][:field=F]``) it
answers as the other rollout teacher does: ``visits`` a one-hot of its move, ``values``
each legal move's mean, ``overruled`` whether it left the heuristic. The paired comparison with the
heuristic in its seat is the command above (one game in seat ``i mod N`` per seed, as
``training.compare``).
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

ENV_ID = "jungle_envs/JungleSweep-v0"
TEACHER = "round-rollout"
# The settings chosen on seeds 168,000-169,999 (docs/training.md).
ROLLOUTS, Z, RIVAL = 32, 1.0, 0.3
FIELD = "heuristic"
NAMED = {"z": float, "rival": float, "field": str}


class RoundRollout:
    """The heuristic's move unless paired round rollouts show another one better."""

    uses_state = True
    uses_observation = False

    def __init__(
        self, game: Any, rollouts: int = ROLLOUTS, z: float = Z, rival: float = RIVAL,
        field: str = FIELD,
    ) -> None:  # fmt: skip
        from jungle_envs.core.compiled.twin import Twin
        from jungle_envs.games.jungle_sweep.compiled.round_rollout import FIELDS

        if not game.spec.env_name.startswith("JungleSweep"):
            raise ValueError(f"{TEACHER} teaches Jungle Sweep only, not {game.spec.env_name}")
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 2:
            raise ValueError(f"rollouts must be an integer >= 2, got {rollouts!r}")
        if not (math.isfinite(z) and z >= 0):
            raise ValueError(f"z must be a number >= 0, got {z!r}")
        if not (math.isfinite(rival) and 0 <= rival <= 10):
            raise ValueError(f"rival must be in [0, 10], got {rival!r}")
        if field not in FIELDS:
            raise ValueError(f"field must be one of {', '.join(FIELDS)}, got {field!r}")
        self.game, self.rollouts, self.z, self.rival = game, rollouts, z, rival
        self.field, self.field_code = field, FIELDS[field]
        self.twin = Twin(game)  # raises TwinUnavailable for options the twin lacks
        self.heuristic = game.heuristic_policy()
        actions = game.spec.num_actions
        self.obs = np.zeros(self.twin.obs_size, dtype=np.float32)
        self.mask = np.zeros(actions, dtype=np.int8)
        self.kernel = None
        self.visits = np.zeros(actions)
        self.values = np.full(actions, np.nan)
        self.overruled = False

    @classmethod
    def from_name(cls, name: str, game: Any) -> RoundRollout:
        """``round-rollout``, ``round-rollout:64``, ``round-rollout:32:z=1:rival=0.3``,
        ``round-rollout:field=random``."""
        from jungle_envs.search.worlds import named_settings, split_name

        head, parts, named = split_name(name)
        if head != TEACHER or len(parts) > 1:
            raise ValueError(f"{name!r} is not {TEACHER}[:ROLLOUTS][:z=Z][:rival=R][:field=F]")
        settings: dict[str, Any] = named_settings(name, named, NAMED)
        if parts:
            try:
                settings["rollouts"] = int(parts[0])
            except ValueError:
                raise ValueError(
                    f"{name!r}: the budget is a number of rollouts per move "
                    f"({TEACHER}:32), got {parts[0]!r}"
                ) from None
        try:
            return cls(game, **settings)
        except ValueError as exc:
            raise ValueError(f"{name!r}: {exc}") from None

    def act(self, observation, action_mask, rng) -> int:
        raise TypeError(
            f"{TEACHER} plays rounds out from the game state, not an observation: use it "
            "as an env opponent (envs pass it the state) or call act_state(state, seat, mask, rng)"
        )

    def act_state(self, state: Any, seat: int, action_mask: np.ndarray, rng) -> int:
        legal = np.flatnonzero(action_mask)
        base = int(self.heuristic.act(self.game.observe(state, seat), action_mask, rng))
        self.visits = np.zeros(len(action_mask))
        self.values = np.full(len(action_mask), np.nan)
        self.overruled, move = False, base
        if len(legal) > 1:
            values = self.move_values(state, seat, legal, rng)
            means = values.mean(axis=1)
            self.values[legal] = means
            mine, best = int(np.flatnonzero(legal == base)[0]), int(means.argmax())
            if best != mine:
                difference = values[best] - values[mine]
                error = float(difference.std(ddof=1)) / math.sqrt(len(difference))
                if difference.mean() > self.z * error:
                    move, self.overruled = int(legal[best]), True
        self.visits[move] = 1.0
        return move

    def round_awards(
        self, state: Any, seat: int, legal: np.ndarray, seeds: np.ndarray
    ) -> np.ndarray:
        """``[move, rollout, seat]``: the coconuts each seat is awarded at the round's end
        after ``seat``'s move."""
        from jungle_envs.core.compiled.twin import bind
        from jungle_envs.games.jungle_sweep.compiled.round_rollout import round_awards

        row = self.twin.pack(state)
        legal = np.asarray(legal, dtype=np.int64)
        seeds = np.asarray(seeds, dtype=np.uint64)
        out = np.zeros((len(legal), len(seeds), self.game.num_players))
        args = (row, legal, np.int64(seat), np.int64(self.field_code), seeds, self.obs,
                self.mask, out)  # fmt: skip
        if self.kernel is None:
            self.kernel = bind(round_awards, self.twin.cfg, *args)
        self.kernel(self.twin.cfg, *args)
        return out

    def move_values(self, state: Any, seat: int, legal: np.ndarray, rng) -> np.ndarray:
        """``seat``'s value of each legal move's rollouts, a row per move: its awards less
        ``rival`` x the mean of the leading opponents' (by the coconuts held so far)."""
        seeds = rng.integers(0, 2**63, size=self.rollouts)
        awards = self.round_awards(state, seat, legal, seeds)
        players = self.game.num_players
        held = np.zeros(players)
        for monkey, coconuts in enumerate(state.coconuts):
            held[monkey % players] += len(coconuts)
        others = [p for p in range(players) if p != seat]
        leaders = [p for p in others if held[p] == max(held[o] for o in others)]
        return awards[:, :, seat] - self.rival * awards[:, :, leaders].mean(axis=2)


def compare_with_heuristic(
    players: int, rollouts: int, z: float, rival: float, opponents: str, games: int,
    seed: int, workers: int = 2, field: str = FIELD,
) -> dict[str, Any]:  # fmt: skip
    """The teacher and the heuristic in the same seats of the same games among
    ``opponents`` (``heuristic`` or ``random``): ``training.compare``'s paired differences."""
    import gymnasium as gym

    import jungle_envs  # noqa: F401  (registers the envs)
    from training.compare import compare_results
    from training.evaluate import run_evaluation

    env = gym.make(ENV_ID, num_players=players)
    policy = RoundRollout(env.unwrapped.game, rollouts, z, rival, field)
    env.close()
    mine = run_evaluation(ENV_ID, policy, opponents, games, players, seed, workers)
    base = run_evaluation(ENV_ID, "heuristic", opponents, games, players, seed, workers)
    return {"players": players, "rollouts": rollouts, "z": z, "rival": rival,
            "field": field, "opponents": opponents, "games": games, "seed": seed,
            **compare_results(mine, base)}  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    from training import cli

    parser = cli.parser("training.round_rollout", __doc__)
    parser.add_argument("--players", type=int, default=4, help="2 to 6")
    parser.add_argument("--rollouts", type=int, default=ROLLOUTS, help="rollouts per move")
    parser.add_argument("--z", type=float, default=Z, help="standard errors to overrule by")
    parser.add_argument("--rival", type=float, default=RIVAL, help="weight of the leader's")
    parser.add_argument("--field", choices=("heuristic", "random"), default=FIELD,
                        help="who plays the other seats in the rollouts")  # fmt: skip
    parser.add_argument("--opponents", choices=("heuristic", "random"), default="heuristic",
                        help="the other seats")  # fmt: skip
    parser.add_argument("--games", type=int, default=2000, help="paired games")
    parser.add_argument("--seed", type=int, default=168_000, help="seed of game 0")
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games must be at least 2 (an interval needs two games)")
    if not 2 <= args.players <= 6:
        parser.error(f"--players must be 2 to 6, got {args.players}")
    if args.rollouts < 2:
        parser.error(f"--rollouts must be at least 2, got {args.rollouts}")
    if not (math.isfinite(args.z) and args.z >= 0):
        parser.error(f"--z must be a number >= 0, got {args.z}")
    if not (math.isfinite(args.rival) and 0 <= args.rival <= 10):
        parser.error(f"--rival must be in [0, 10], got {args.rival}")
    if args.workers < 1:
        parser.error(f"--workers must be at least 1, got {args.workers}")
    result = compare_with_heuristic(
        args.players, args.rollouts, args.z, args.rival, args.opponents, args.games,
        args.seed, args.workers, args.field,
    )  # fmt: skip
    if args.json:
        print(json.dumps(result, indent=2))
        return
    cli.print_paired(
        f"Jungle Sweep {args.players}p among {args.opponents} players, {args.games} paired "
        f"games from seed {args.seed}, {args.rollouts} rollouts, z {args.z}, rival "
        f"{args.rival}, field {args.field}: round rollout", result,
    )  # fmt: skip


if __name__ == "__main__":
    main()
