"""Information-set Monte Carlo tree search (IS-MCTS), an opponent of adjustable strength.

Each decision searches one tree over the deciding seat's information: every simulation
plays in a determinization (``Game.resample``: what the seat cannot see dealt anew, drawn
from what it may know only), walks the tree by UCB, samples chance outcomes with the
event's odds on the way, adds one node and finishes the game with a rollout (the random
or the heuristic policy for every seat). A node is the sequence of decisions from the
root, so worlds that differ in hidden cards or dice share statistics; a child counts the
simulations in which it was legal ("availability", Cowling, Powley and Whitehouse 2012)
and its mean return for every seat, and the seat to act at a node picks by its own
return. The move played is the root's most visited child.

The strength dial is the budget: simulations per decision, or seconds per decision, or
both (whichever runs out first). With a simulation budget the same generator gives the
same choices; a time budget depends on the machine.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from jungle_envs.core.game import CHANCE, TERMINAL, Game, GameState
from jungle_envs.search.worlds import (
    ENGINES,
    ROLLOUTS,
    VALUES,
    check_choice,
    finite_number,
    make_world,
    playout_value,
    settings_by_name,
    split_name,
    whole,
)


class Node:
    __slots__ = ("avail", "children", "favourite", "total", "visits")

    def __init__(self, players: int) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.avail = 1
        self.favourite = -2  # the rollout policy's move here, once asked (-1: none)
        self.total = np.zeros(players)  # summed returns of every seat through this node


# The settings a name may carry as KEY=VALUE, with how each value is read.
NAMED_SETTINGS = {
    "prior": float,
    "exploration": float,
    "determinizations": int,
    "leaf": float,
    "value": str,
}


@dataclass(frozen=True)
class MCTS:
    """The settings of an IS-MCTS opponent; ``opponents=MCTS(simulations=400)`` in an env.

    simulations: simulations per decision (None: the time budget alone).
    seconds: wall time per decision (None: the simulation budget alone).
    determinizations: worlds dealt per decision; simulation i plays in world i mod this.
    rollout: "heuristic" or "random", for every seat in the rollouts.
    exploration: the UCB constant, on values scaled to [0, 1].
    value: what a finished simulation is worth to each seat: "returns" (the game's: +1 a
        sole win, -1 a loss, 0 otherwise), "rank" (+1 for each other seat it outscores, -1
        for each that outscores it, over the others), or "blend" (their mean: wins first,
        and a better place when nobody wins, which a few simulations see more often).
        None: "blend", or with leaf values the value the guide's reward estimates.
    engine: "auto" (the compiled twin when the game has one), "compiled" or "reference".
    guide: a learned policy (``"ppo"``, a model path or object) whose move probabilities
        at the root steer the search as AlphaZero's prior: the first simulations try its
        likeliest moves, and each root move gets ``prior * probability * sqrt(N) /
        (visits + 1)`` on top of its UCB score, N the root's simulations so far (PUCT;
        deeper nodes keep the rollout policy's bias). None: the rollout policy's move alone.
    leaf: the weight of the guide's value at a new node against the rollout's (AlphaGo's
        mixing, ``jungle_envs.search.leaf``): 0 rollouts alone, 1 the guide's value alone.
        Needs a guide trained on reward "win" or "rank".
    """

    simulations: int | None = 200
    seconds: float | None = None
    determinizations: int = 8
    rollout: str = "heuristic"
    exploration: float = 0.7
    value: str | None = None
    prior: float = 1.0
    engine: str = "auto"
    guide: Any = None
    leaf: float = 0.0

    def __post_init__(self) -> None:
        if self.simulations is not None and not (whole(self.simulations) and self.simulations >= 1):
            raise ValueError(
                f"simulations must be an integer >= 1 or None, got {self.simulations!r}"
            )
        if self.seconds is not None and not (finite_number(self.seconds) and self.seconds > 0):
            raise ValueError(f"seconds must be a number > 0 or None, got {self.seconds!r}")
        if self.simulations is None and self.seconds is None:
            raise ValueError("give a budget: simulations, seconds or both")
        if not (whole(self.determinizations) and self.determinizations >= 1):
            raise ValueError(
                f"determinizations must be an integer >= 1, got {self.determinizations!r}"
            )
        check_choice("rollout", self.rollout, ROLLOUTS)
        if not (isinstance(self.exploration, (int, float)) and self.exploration >= 0):
            raise ValueError(f"exploration must be a number >= 0, got {self.exploration!r}")
        if not (finite_number(self.prior) and self.prior >= 0):
            raise ValueError(f"prior must be a number >= 0, got {self.prior!r}")
        if self.value is not None:
            check_choice("value", self.value, VALUES)
        if not (finite_number(self.leaf) and 0.0 <= self.leaf <= 1.0):
            raise ValueError(f"leaf must be a number from 0 to 1, got {self.leaf!r}")
        if self.leaf > 0 and self.guide is None:
            raise ValueError("leaf values come from a guide's value head: give a guide")
        check_choice("engine", self.engine, ENGINES)

    @classmethod
    def from_name(cls, name: str) -> MCTS:
        """``mcts``, ``mcts:400`` (simulations), ``mcts:0.5s`` (seconds), and a rollout
        policy after another colon: ``mcts:400:random``; ``mcts+ppo:400`` is guided by the
        shipped agent of the game and player count. Settings by name after the budget:
        ``mcts:1000:prior=0``, ``mcts:300:random:exploration=1.0``, ``mcts+ppo:300:leaf=0.5``
        (prior, exploration, determinizations, leaf, value)."""
        head, parts, named = split_name(name)
        if head not in ("mcts", "mcts+ppo") or len(parts) > 2:
            raise ValueError(
                f"{name!r} is not mcts[+ppo][:SIMULATIONS|:SECONDSs][:ROLLOUT][:KEY=VALUE]"
            )
        settings: dict[str, Any] = {"guide": "ppo"} if head == "mcts+ppo" else {}
        try:
            if parts and parts[0].endswith("s"):
                settings.update(seconds=float(parts[0][:-1]), simulations=None)
            elif parts:
                settings.update(simulations=int(parts[0]))
        except ValueError:
            raise ValueError(
                f"{name!r}: the budget is a number of simulations (mcts:400) or of seconds "
                f"(mcts:0.5s), got {parts[0]!r}"
            ) from None
        if len(parts) == 2:
            settings.update(rollout=parts[1])
        return settings_by_name(cls, name, settings, named, NAMED_SETTINGS)

    def for_game(self, game: Game) -> MCTSPolicy:
        return MCTSPolicy(game, self)


class MCTSPolicy:
    """IS-MCTS bound to a game. It reads the true state only through ``Game.resample``,
    so it knows what its seat may know. Envs hand it the state (``uses_state``)."""

    uses_observation = False
    uses_state = True

    def __init__(self, game: Game, settings: MCTS | None = None, **changes: Any) -> None:
        self.game = game
        self.settings = replace(settings or MCTS(), **changes)
        self.world = make_world(game, self.settings.rollout, self.settings.engine)
        self.last: dict[str, float] = {}  # the last search: simulations, seconds
        self.guide = self.guide_game = self.leaf_values = None
        self.value = self.settings.value or "blend"
        if self.settings.guide is not None:
            from jungle_envs.core.policies import make_policy, observation_game

            self.guide = make_policy(self.settings.guide, game)
            if not hasattr(self.guide, "probabilities"):
                raise ValueError(
                    f"guide must be a learned policy with move probabilities (a MaskablePPO "
                    f"model), got {self.settings.guide!r}"
                )
            self.guide_game = observation_game(self.guide, game)
            if self.settings.leaf > 0:
                self._use_leaf_values()
        # the last search's root visits per action (what search distillation learns from)
        self.visits = np.zeros(game.spec.num_actions)

    def _use_leaf_values(self) -> None:
        from jungle_envs.search.leaf import LeafValues, guide_value_kind

        kind = guide_value_kind(self.guide)
        if self.settings.value not in (None, kind):
            raise ValueError(
                f"the guide's value head estimates value={kind!r} (its reward); a search "
                f"with leaf values must use it, got value={self.settings.value!r}"
            )
        self.value = kind
        self.leaf_values = LeafValues(self.world, self.guide, self.guide_game, kind)

    def act(self, observation, action_mask, rng) -> int:
        raise TypeError(
            "MCTS searches from the game state, not an observation: use it as an env "
            "opponent (envs pass it the state) or call act_state(state, seat, mask, rng)"
        )

    def act_state(
        self, state: GameState, seat: int, action_mask: np.ndarray, rng: np.random.Generator
    ) -> int:
        legal = np.flatnonzero(action_mask)
        self.visits = np.zeros(self.game.spec.num_actions)
        if len(legal) == 1:
            self.last = {"simulations": 0, "seconds": 0.0}
            self.visits[legal[0]] = 1.0
            return int(legal[0])
        settings, world = self.settings, self.world
        start = time.perf_counter()
        deadline = start + settings.seconds if settings.seconds is not None else math.inf
        budget = settings.simulations if settings.simulations is not None else math.inf
        worlds = [
            world.load(self.game.resample(state, seat, rng))
            for _ in range(settings.determinizations)
        ]
        root, done = Node(self.game.num_players), 0
        guide = None
        if self.guide is not None:
            guide = self.guide.probabilities(self.guide_game.observe(state, seat), action_mask)
        while done < budget and (done == 0 or time.perf_counter() < deadline):
            self._simulate(root, world.copy(worlds[done % len(worlds)]), rng, guide)
            done += 1
            root.visits = done
        self.last = {"simulations": done, "seconds": time.perf_counter() - start}
        for action, child in root.children.items():
            self.visits[action] = child.visits
        return self._choose(root, legal, seat)

    def _simulate(
        self, root: Node, state: Any, rng: np.random.Generator, guide: np.ndarray | None = None
    ) -> None:
        world, c, prior = self.world, self.settings.exploration, self.settings.prior
        node, path = root, []
        while True:
            player = world.player(state)
            while player == CHANCE:
                world.chance(state, rng)
                player = world.player(state)
            if player == TERMINAL:
                result = self._value(*world.final(state))
                break
            legal = world.legal(state).tolist()
            children = node.children
            untried = []
            for action in legal:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.avail += 1
            guided = guide is not None and node is root
            if untried and guided:  # the guide's likeliest untried move first
                action = max(untried, key=lambda a: guide[a])
                child = children[action] = Node(len(root.total))
                path.append(child)
                result = self._expand(state, action, rng)
                break
            if untried:
                # the rollout policy's choice first: with a heuristic, its move is the
                # likeliest good one, and the first simulations through a node test it
                action = world.favourite(state, player, rng)
                if node.favourite == -2:  # kept for the progressive bias below
                    node.favourite = action
                if action not in untried:
                    action = untried[int(rng.integers(len(untried)))]
                child = children[action] = Node(len(root.total))
                path.append(child)
                result = self._expand(state, action, rng)
                break
            best, best_score = -1, -math.inf
            # PUCT's weight on the guide: it grows with the root's simulations, so the
            # guide's favourite keeps its lead unless its value falls clearly behind
            puct = prior * math.sqrt(node.visits) if guided else 0.0
            for action in legal:
                child = children[action]
                mean = (child.total[player] / child.visits + 1.0) / 2.0
                score = mean + c * math.sqrt(math.log(child.avail) / child.visits)
                if guided:  # the guide's probabilities as the bias at the root
                    score += puct * guide[action] / (child.visits + 1)
                elif action == node.favourite:  # progressive bias, fading with visits
                    score += prior / (child.visits + 1)
                if score > best_score:
                    best, best_score = action, score
            node = children[best]
            path.append(node)
            world.act(state, best)
        for visited in path:
            visited.visits += 1
            visited.total += result

    def _expand(self, state: Any, action: int, rng: np.random.Generator) -> np.ndarray:
        """What a new node (``action`` at ``state``) is worth to every seat: a rollout's
        value, mixed with the guide's value head's where ``leaf`` > 0."""
        if self.leaf_values is not None:
            return self.leaf_values.evaluate(state, action, rng, self.settings.leaf)
        return self._value(*self.world.rollout(state, action, rng))

    def _value(self, returns: np.ndarray, scores: np.ndarray) -> np.ndarray:
        return playout_value(self.value, returns, scores)

    def _choose(self, root: Node, legal: np.ndarray, seat: int) -> int:
        """The most visited legal child; ties go to the higher mean return for ``seat``."""
        best, key = int(legal[0]), (-1, -math.inf)
        for action in legal.tolist():
            child = root.children.get(action)
            if child is None or child.visits == 0:
                continue
            candidate = (child.visits, child.total[seat] / child.visits)
            if candidate > key:
                best, key = action, candidate
        return best
