"""Per-seat trajectories ("lanes") for PPO over games where the learner plays many seats.

In a batch of turn-based games the learner's decisions arrive interleaved: env 3's seat 1,
then env 3's seat 2, ... A seat's own decisions in order form its lane. A decision's reward
is everything that seat earned until its next decision, or until its game ended; its
advantage is GAE along the lane. ``LaneBuffer`` keeps every lane's open decision (waiting
for the seat's next one) and the closed ones in the order they closed, and carries the open
ones from one rollout into the next, so no decision or reward is lost at a rollout's edge:
the recursion is only cut there, with the value at the next decision as the bootstrap.
"""

from __future__ import annotations

import numpy as np


class LaneBuffer:
    """Decisions of ``num_envs`` x ``num_players`` lanes, each open until its seat decides
    again (closed with that decision's value) or its game ends (closed as final)."""

    def __init__(
        self, num_envs: int, num_players: int, obs_size: int, num_actions: int, capacity: int
    ) -> None:
        self.num_envs, self.num_players = num_envs, num_players
        self.capacity = capacity
        self.obs = np.zeros((capacity, obs_size), dtype=np.float32)
        self.masks = np.zeros((capacity, num_actions), dtype=bool)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.values = np.zeros(capacity)
        self.log_probs = np.zeros(capacity)
        self.rewards = np.zeros(capacity)
        self.next_values = np.zeros(capacity)
        self.final = np.zeros(capacity, dtype=bool)
        self.successor = np.full(capacity, -1, dtype=np.int64)  # the lane's next decision
        self.open = np.full((num_envs, num_players), -1, dtype=np.int64)
        self.closed: list[np.ndarray] = []  # indices, in the order they closed
        self.size = 0

    @property
    def num_closed(self) -> int:
        return sum(len(chunk) for chunk in self.closed)

    def decide(self, envs, seats, obs, masks, actions, values, log_probs) -> None:
        """New decisions of seats ``seats`` in envs ``envs``: each closes its lane's open
        decision (bootstrapped with this one's value) and opens the lane anew."""
        count = len(envs)
        if not count:
            return
        if self.size + count > self.capacity:
            raise RuntimeError("the lane buffer is full: collect fewer steps per rollout")
        at = np.arange(self.size, self.size + count)
        self.size += count
        self.obs[at], self.masks[at], self.actions[at] = obs, masks, actions
        self.values[at], self.log_probs[at], self.rewards[at] = values, log_probs, 0.0
        self.final[at], self.successor[at] = False, -1
        before = self.open[envs, seats]
        waiting = before >= 0
        self.next_values[before[waiting]] = values[waiting]
        self.successor[before[waiting]] = at[waiting]
        self.closed.append(before[waiting])
        self.open[envs, seats] = at

    def earn(self, rewards: np.ndarray, learner_seats: np.ndarray) -> None:
        """Add a step's rewards (num_envs x num_players) to the learner lanes' open decisions."""
        for seat in learner_seats:
            lanes = self.open[:, seat]
            waiting = lanes >= 0
            self.rewards[lanes[waiting]] += rewards[waiting, seat]

    def end_games(self, envs: np.ndarray) -> None:
        """The games of ``envs`` ended: their lanes' open decisions close as final."""
        lanes = self.open[envs].ravel()
        lanes = lanes[lanes >= 0]
        self.next_values[lanes], self.final[lanes] = 0.0, True
        self.closed.append(lanes)
        self.open[envs] = -1

    def advantages(self, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
        """(closed decisions in closing order, their GAE advantages). A successor still open
        (or carried past this rollout) cuts the recursion: its value is the bootstrap."""
        order = np.concatenate(self.closed) if self.closed else np.zeros(0, dtype=np.int64)
        advantage = np.zeros(self.capacity)
        done = np.zeros(self.capacity, dtype=bool)
        done[order] = True
        # A decision closes before its successor does: walking backwards visits the
        # successor first.
        for index in order[::-1]:
            delta = self.rewards[index] + gamma * self.next_values[index] - self.values[index]
            follow = self.successor[index]
            carry = 0.0
            if not self.final[index] and follow >= 0 and done[follow]:
                carry = gamma * lam * advantage[follow]
            advantage[index] = delta + carry
        return order, advantage[order]

    def carried(self) -> LaneBuffer:
        """A new buffer holding only the open decisions (the next rollout closes them)."""
        fresh = LaneBuffer(
            self.num_envs, self.num_players, self.obs.shape[1], self.masks.shape[1], self.capacity
        )
        lanes = np.flatnonzero(self.open.ravel() >= 0)
        old = self.open.ravel()[lanes]
        new = np.arange(len(old))
        for name in ("obs", "masks", "actions", "values", "log_probs", "rewards"):
            getattr(fresh, name)[new] = getattr(self, name)[old]
        fresh.open.ravel()[lanes] = new
        fresh.size = len(old)
        return fresh
