"""Soak test: random masked games on every game, player count and path, counting errors.

    python -m benchmarks.soak [--games N] [--games-compiled N] [--seconds S] [--workers W]
                              [--seed S] [--paths env engine pettingzoo compiled] ...

Every game, at every player count of its range, is played with uniformly random legal
actions on four paths, each checking what it can see after every step:

- ``env``: ``gymnasium.make(id, num_players=n, opponents="random", ...)`` on the compiled
  engine and the reference engine in turn, with flat and dict observations, both reward
  modes, forced actions skipped or not, random and fixed seats. Each step: the observation
  lies in ``observation_space``, the mask has a legal action, ``info["action_mask"]`` equals
  ``action_masks()``, the reward is finite (0 before the end with ``reward="win"``); at the
  end the scores, winners and returns are consistent, the last reward is the seat's return
  (or the rewards add up to the seat's score gain with ``reward="score"``). In the deep games
  the mask and observation also equal the reference rules' view of the env's state.
- ``engine``: the rules functions directly: every seat random over ``legal_mask``, chance
  drawn through ``chance_event(...).sample`` with a seeded numpy generator and applied with
  the checked ``apply_chance``; ``validate_state``, a ``state_to_json`` -> ``state_from_json``
  round trip (equal state, same text) and every seat's observation (float32, in [0, 1]) at
  every state of the deep games and every ``--check-every`` steps of the others (and at
  every game's end, with its results). Deep games also compare the game's fast chance draw
  with its described event.
- ``pettingzoo``: the AEC env (``jungle_envs.multiagent.env``, with PettingZoo's order and
  bounds wrappers) with random masked actions: observations in their space, the selected
  agent's mask non-empty (the others' all zero, in deep games), rewards finite, every agent
  paid its return at the end.
- ``compiled``: the compiled vector env (``gymnasium.make_vec(...,
  vectorization_mode="vector_entry_point")``, ``--num-envs`` games per call, random
  opponents inside the kernel, the learner's random legal actions drawn by a compiled
  helper). Every step: every mask non-empty, every observation finite and in [0, 1],
  rewards finite, autoreset and end-of-episode flags and returns consistent; every
  ``--check-every-compiled`` steps one env's state is unpacked, validated, saved and loaded, and
  its mask and observation compared with the reference rules'.

``--option-share`` of the games play non-default options: each game's extreme values (see
``variants.py``: smallest and largest boards, decks, dice, supplies and limits its option
checks accept). A variant that a player count does not accept is listed as n/a.

The games are cut into tasks (``--chunk`` games; ``--chunk-compiled`` on the compiled path)
that ``--workers`` processes share. Each task has its own seed, derived from ``--seed`` and
the task's place in the plan, and each game of a task its own (the task's plus its index),
so a run is reproducible from ``--seed`` with any number of workers. An error (an
exception or a failed check) is recorded with its path, game, players, options, seed and
a ``--replay`` key that plays that one game again (with every check at every state) and
prints the traceback; a worker process that dies is an error of the task it ran. The
command exits 1 if anything failed, 0 otherwise.

``--seconds`` caps the wall time: no game starts after it (the summary says how much of
the plan was played). Tasks are ordered so that every game, player count, path and
variant is reached early. ``--json FILE`` writes the summary; ``--write docs/reliability.md``
replaces the text between ``<!-- soak:start -->`` and ``<!-- soak:end -->`` there.
"""

from .cli import main
from .report import MARK_END, MARK_START, report
from .tasks import PATHS
from .variants import variants

__all__ = ["MARK_END", "MARK_START", "PATHS", "main", "report", "variants"]
