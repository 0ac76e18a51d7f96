"""The win reward with the luck no decision can change averaged out (Rao-Blackwellized).

In Jungle Sweep a seat's decisions decide how many coconuts each monkey earns; which
values those coconuts show is drawn from the box, and no decision changes that draw (the
heuristic and the shipped agents never read their own values either). The game is won on
the values, so about half of the win reward's variance at 4 players is that draw
(``docs/training.md``, "The coconut draw averaged out"). ``expected_returns`` pays every
seat the mean of the win reward over every deal of the box's values to the monkeys with
their final counts: for a policy that does not read its values, the same expected reward
as the game's, from less noise.

The mean is taken over ``SAMPLES`` deals, seeded by the counts, so the same final counts
always pay the same; counts seen before are looked up (a 4-player game ends in one of a
few hundred count vectors).

``python -m training.luck --players 4 --games 3000 --seed 200000`` plays heuristic games
in every seat and prints both rewards' mean and variance per seat.
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Any

import numpy as np

# Deals per count vector: the mean's standard error is under 0.01 of the +-1 reward.
SAMPLES = 20_000
# Games whose win reward has such a draw, and the function that averages it out.
AVERAGED_GAMES = ("JungleSweep",)


def check_averaged(game: str, reward: str) -> None:
    """Raise ValueError unless ``game`` has a draw to average and ``reward`` is "win"."""
    if game not in AVERAGED_GAMES:
        raise ValueError(
            f"averaging the luck needs a game with a final draw no decision affects "
            f"({', '.join(AVERAGED_GAMES)}), not {game}"
        )
    if reward != "win":
        raise ValueError(f"averaging the luck works on reward 'win', not {reward!r}")


def expected_returns(config: Any, state: Any) -> np.ndarray:
    """Every seat's mean win reward (+1 sole win, 0 shared, -1 loss) over all deals of the
    box's coconut values to the monkeys, each keeping its count of ``state``."""
    box = list(state.supply)
    for i, n in enumerate(state.set_aside):
        box[i] += n
    for coconuts in state.coconuts:
        for value in coconuts:
            box[config.coconut_values.index(value)] += 1
    counts = tuple(len(c) for c in state.coconuts)
    return np.array(
        _mean_returns(tuple(config.coconut_values), tuple(box), counts, config.num_players)
    )


@lru_cache(maxsize=65_536)
def _mean_returns(
    values: tuple[int, ...], box: tuple[int, ...], counts: tuple[int, ...], players: int
) -> tuple[float, ...]:
    rng = np.random.default_rng([*box, *counts, players])
    coconuts = np.repeat(np.array(values), box)
    deals = coconuts[np.argsort(rng.random((SAMPLES, len(coconuts))), axis=1)]
    edges = np.concatenate([[0], np.cumsum(counts)])
    monkey_sums = np.stack(
        [deals[:, a:b].sum(axis=1) for a, b in itertools.pairwise(edges)], axis=1
    )
    return tuple(seat_returns(monkey_sums, np.array(counts), players).mean(axis=0).tolist())


def seat_returns(monkey_sums: np.ndarray, counts: np.ndarray, players: int) -> np.ndarray:
    """(deals, players) win rewards from each monkey's coconut sum per deal, ranked as the
    rules rank seats: value, then (two monkeys a seat) the better monkey, then count."""
    seats = np.arange(len(counts)) % players  # monkey slot m belongs to seat m % players
    scale = int(monkey_sums.max(initial=0)) + 1
    count_scale = int(counts.sum()) + 1
    keys = []
    for seat in range(players):
        mine = seats == seat
        value = monkey_sums[:, mine].sum(axis=1)
        key = value * scale
        if mine.sum() > 1:
            key = key + monkey_sums[:, mine].max(axis=1)
        keys.append(key * count_scale + counts[mine].sum())
    keys = np.stack(keys, axis=1)
    best = keys.max(axis=1, keepdims=True)
    top = keys == best
    sole = top & (top.sum(axis=1, keepdims=True) == 1)
    return sole.astype(float) - (~top).astype(float)


def heuristic_games(players: int, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(games, players) win rewards and their luck-averaged means, the heuristic in every
    seat on the rules engine (chance drawn from ``seed``)."""
    import jungle_envs
    from jungle_envs.core.game import CHANCE

    game = jungle_envs.make_game("JungleSweep", num_players=players)
    policy, rng = game.heuristic_policy(), np.random.default_rng(seed)
    drawn, averaged = [], []
    for _ in range(games):
        state = game.new_state()
        while not game.is_terminal(state):
            seat = game.current_player(state)
            if seat == CHANCE:
                game.apply_chance(state, game.sample_chance(state, rng))
            else:
                mask = game.legal_mask(state)
                game.apply_action(state, int(policy.act(game.observe(state, seat), mask, rng)))
        drawn.append(game.returns(state))
        averaged.append(expected_returns(game.config, state))
    return np.array(drawn), np.array(averaged)


def main(argv: list[str] | None = None) -> None:
    from training import cli

    parser = cli.parser("training.luck", __doc__)
    parser.add_argument("--players", type=int, default=4, help="2 to 6")
    parser.add_argument("--games", type=int, default=3000, help="heuristic games to play")
    parser.add_argument("--seed", type=int, default=200_000, help="the games' chance draws")
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games must be at least 2 (a variance needs two games)")
    try:
        drawn, averaged = heuristic_games(args.players, args.games, args.seed)
    except ValueError as exc:
        parser.error(str(exc))
    print(f"Jungle Sweep, {args.players} players, {args.games} heuristic games, seed {args.seed}")
    print("seat  win reward: mean  variance   averaged: mean  variance")
    for seat in range(args.players):
        print(f"{seat:4d}  {drawn[:, seat].mean():+17.3f}  {drawn[:, seat].var():8.3f}   "
              f"{averaged[:, seat].mean():+14.3f}  {averaged[:, seat].var():8.3f}")  # fmt: skip
    share = averaged.var(axis=0).mean() / drawn.var(axis=0).mean()
    print(f"the averaged reward keeps {share:.0%} of the win reward's variance")


if __name__ == "__main__":
    main()
