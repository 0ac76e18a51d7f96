"""Our envs next to the libraries users would otherwise pick, in one process run.

    pip install -e '.[bench]'        # PettingZoo classic and OpenSpiel
    python -m benchmarks.peers [--seconds S] [--repeats R] [--json FILE] [--only batch]

The same loop everywhere: random legal moves until the game ends, then a new game.
- PettingZoo classic ``connect_four_v3`` and ``texas_holdem_v4`` through the AEC API,
  choosing among ``observation["action_mask"]``; a step is one ``env.step``.
- OpenSpiel ``backgammon`` and ``leduc_poker`` through ``pyspiel``, chance sampled from
  ``state.chance_outcomes()``; a step is one player's ``apply_action`` (chance not counted).
- pgx ``connect_four`` on the CPU, batch 1 and 1,024, and ``backgammon`` (dice and every
  seat, the closest peer of the all-seat batch), batch 1, 64 and 1,024
  (``pip install -e '.[pgx]'``; the row says "not installed" otherwise); a step is one env
  step of one game in the batch.
- Ours at each game's default player count: the Gymnasium env on the compiled twin (the
  default) and on the Python reference (one learner step with its random opponents,
  observation and mask), the compiled vector env with 1,024 envs on 1 and 2 threads (learner
  steps summed over the envs; ``_lean``: with ``final_details=False``, as training runs
  it), and the twin and reference rules engines (one decision by any seat, no
  observation); our PettingZoo AEC env (``jungle_envs.multiagent.env``) on the
  twin and on the reference, and on the reference inside PettingZoo's two checking
  wrappers, as version 0.2 made it (a step is one ``env.step``, as for PettingZoo's).
- Ours at 4 players: the all-seat batch (``jungle_envs.make_batch``, every seat the
  caller's, random legal moves chosen by a kernel) at 1, 64 and 1,024 envs (2 threads) and
  1,024 on 1 thread; a decision is one seat's move with its observation and mask written.
Ratios are ours divided by the peer.
"""

from __future__ import annotations

import json
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import jungle_envs
from benchmarks import compiled
from benchmarks.step_speed import engine_run, env_run
from jungle_envs.core.registry import game_class
from training import cli


def pettingzoo_run(make: Callable, seconds: float, seed: int) -> float:
    env = make()
    rng = np.random.default_rng(seed)
    steps, game = 0, 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        env.reset(seed=seed + game)
        game += 1
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - start)


def aec_maker(env_id: str, players: int, engine: str, wrapped: bool = False) -> Callable:
    """Our PettingZoo AEC env on ``engine``; ``wrapped``: inside PettingZoo's
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``, as ``multiagent.env`` was
    made before it made those checks itself (the AEC speed of version 0.2)."""
    from pettingzoo.utils import wrappers

    from jungle_envs import multiagent

    def make():
        env = multiagent.env(env_id, num_players=players, engine=engine)
        if wrapped:
            env = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(env))
        return env

    return make


def openspiel_run(name: str, seconds: float, seed: int) -> float:
    import pyspiel

    game = pyspiel.load_game(name)
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(outcomes[rng.choice(len(outcomes), p=probs)])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
                steps += 1
    return steps / (time.perf_counter() - start)


def peers() -> dict[str, Callable[[float, int], float]]:
    from pettingzoo.classic import connect_four_v3, texas_holdem_v4

    return {
        "PettingZoo connect_four_v3": lambda s, seed: pettingzoo_run(connect_four_v3.env, s, seed),
        "PettingZoo texas_holdem_v4": lambda s, seed: pettingzoo_run(texas_holdem_v4.env, s, seed),
        "OpenSpiel backgammon": lambda s, seed: openspiel_run("backgammon", s, seed),
        "OpenSpiel leduc_poker": lambda s, seed: openspiel_run("leduc_poker", s, seed),
    }


# The all-seat batch's rows: (envs, threads), at 4 players, next to pgx backgammon's batches.
BATCH_RUNS = {"batch1": (1, 1), "batch64": (64, 2), "batch1024x1": (1024, 1),
              "batch1024x2": (1024, 2)}  # fmt: skip
BATCH_SIZES = (1, 64, 1024)
BATCH_PLAYERS = 4


def median_of(run: Callable[[float, int], float], seconds: float, repeats: int) -> float:
    return statistics.median(run(seconds, seed) for seed in range(repeats))


def main(argv: list[str] | None = None) -> dict:
    parser = cli.parser("benchmarks.peers", __doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of a timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per speed")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument(
        "--only",
        choices=("batch",),
        help="one section alone: 'batch' times the all-seat batch next to pgx backgammon "
        "(a few minutes, where the whole run takes much longer)",
    )
    cli.add_quiet(parser)
    args = parser.parse_args(argv)
    backgammon = {
        batch: compiled.pgx_run(batch, args.seconds, "backgammon") for batch in BATCH_SIZES
    }
    if args.only == "batch":
        result = {"pgx_backgammon": backgammon, "batch": batch_section(args, backgammon)}
    else:
        result = envs_section(args)
        result["pgx_backgammon"] = backgammon
        result["batch"] = batch_section(args, backgammon)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return result


def envs_section(args) -> dict:
    """The single envs, vector envs, engines and AEC envs next to the peers."""
    try:
        peer_runs = peers()
    except ImportError as exc:
        raise SystemExit(
            f"the peers need the bench extra: pip install -e '.[bench]' ({exc})"
        ) from None
    theirs = {name: median_of(run, args.seconds, args.repeats) for name, run in peer_runs.items()}
    pgx = {batch: compiled.pgx_run(batch, args.seconds) for batch in (1, 1024)}
    ours = {}
    kinds = {
        "env": lambda e, p, s, seed: env_run(e, p, s, seed)[0],
        "env_ref": lambda e, p, s, seed: env_run(e, p, s, seed, "reference")[0],
        "vec1024x1": lambda e, p, s, seed: compiled.vector_run(e, p, s, seed, 1024, 1)[0],
        "vec1024x2": lambda e, p, s, seed: compiled.vector_run(e, p, s, seed, 1024, 2)[0],
        "vec1024x2_lean": lambda e, p, s, seed: compiled.vector_run(
            e, p, s, seed, 1024, 2, final_details=False
        )[0],
        "aec": lambda e, p, s, seed: pettingzoo_run(aec_maker(e, p, "compiled"), s, seed),
        "aec_ref": lambda e, p, s, seed: pettingzoo_run(aec_maker(e, p, "reference"), s, seed),
        "aec_ref_wrapped": lambda e, p, s, seed: pettingzoo_run(
            aec_maker(e, p, "reference", wrapped=True), s, seed
        ),
        "twin": lambda e, p, s, seed: compiled.twin_engine_run(e, p, s, seed)[0],
        "engine": lambda e, p, s, seed: engine_run(e, p, s, seed)[0],
    }
    for env_id in cli.progress(jungle_envs.ENV_IDS, len(jungle_envs.ENV_IDS), "envs", args.quiet):
        players = game_class(env_id).spec.default_players
        ours[env_id] = {"players": players}
        for kind, run in kinds.items():
            ours[env_id][kind] = median_of(
                lambda s, seed, r=run, e=env_id, p=players: r(e, p, s, seed),
                args.seconds,
                args.repeats,
            )
    print(
        f"Python {platform.python_version()} on {platform.machine()}; median of "
        f"{args.repeats} runs x {args.seconds:g} s; steps/s"
    )
    for name, speed in theirs.items():
        print(f"  {name:<28}{speed:>12,.0f}")
    for batch, speed in pgx.items():
        shown = f"{speed:>12,.0f}" if speed is not None else "   not installed"
        print(f"  {'pgx connect_four, batch ' + str(batch):<28}{shown}")
    names = list(theirs)
    print(
        f"\n{'ours (default players)':<34}{'steps/s':>10}"
        + "".join(f"{'/ ' + n.split()[1]:>16}" for n in names)
    )
    for env_id, row in ours.items():
        for kind in kinds:
            label = f"{env_id.split('/')[1].removesuffix('-v0')} {kind} ({row['players']}p)"
            print(
                f"  {label:<32}{row[kind]:>10,.0f}"
                + "".join(f"{row[kind] / theirs[n]:>16.2f}" for n in names)
            )
    return {"peers": theirs, "pgx": pgx, "ours": ours}


def batch_section(args, backgammon: dict) -> dict:
    """The all-seat batch at 4 players, printed next to pgx backgammon's batches."""
    batches = {}
    for env_id in cli.progress(jungle_envs.ENV_IDS, len(jungle_envs.ENV_IDS), "batch", args.quiet):
        batches[env_id] = {
            kind: median_of(
                lambda s, seed, e=env_id, n=n, t=t: compiled.batch_run(
                    e, BATCH_PLAYERS, s, seed, n, t
                )[0],
                args.seconds,
                args.repeats,
            )
            for kind, (n, t) in BATCH_RUNS.items()
        }
    print(f"\nall-seat batch, {BATCH_PLAYERS} players, decisions/s (pgx backgammon steps/s)")
    for size, speed in backgammon.items():
        shown = f"{speed:>12,.0f}" if speed is not None else "   not installed"
        print(f"  {'pgx backgammon, batch ' + str(size):<32}{shown}")
    for env_id, row in batches.items():
        for kind, (n, _threads) in BATCH_RUNS.items():
            label = f"{env_id.split('/')[1].removesuffix('-v0')} {kind}"
            peer = backgammon.get(n)
            ratio = f"{row[kind] / peer:>10.2f} x pgx" if peer else ""
            print(f"  {label:<32}{row[kind]:>12,.0f}{ratio}")
    return {"players": BATCH_PLAYERS, "runs": BATCH_RUNS, "decisions": batches}


if __name__ == "__main__":
    main()
