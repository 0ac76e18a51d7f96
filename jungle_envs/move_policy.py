"""A MaskablePPO policy that scores every action from what it does, with weights shared
across actions (as DouZero feeds each move's features to its network).

A plain MLP sees a flat observation and must learn, output by output, which inputs belong
to which action; with the ``move_features`` option the observation already says what each
move would do (a ``moves`` piece: ``num_moves`` rows of ``per_move`` values, row i for
action i). ``MoveScoring`` embeds the rest of the observation (the state) once and scores
each move from its row and that embedding with one small network shared by every move;
actions past the rows (a pass) are scored from the state alone. The scores are the
policy's logits; the value head reads the state embedding only. Its size does not grow
with the number of actions, but for one learned score per move (``action_bias``, zero at
the start), which lets it break ties between equal rows as a teacher does.

    from jungle_envs.move_policy import MovePolicy, move_policy_kwargs
    model = MaskablePPO(MovePolicy, venv, policy_kwargs=move_policy_kwargs(game))

The move network has one hidden layer unless ``move_layers`` (a ``features_extractor_kwargs``
entry) adds residual blocks; ``deepen(model, layers)`` adds them to a trained model without
changing what it plays, so a fit can start from it (``training.distill --move-layers``).

Needs the training extra (PyTorch, sb3-contrib).
"""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn


class MoveScoring(BaseFeaturesExtractor):
    """Features ``[state embedding (state_dim), one score per action (num_actions)]``."""

    def __init__(
        self,
        observation_space: gym.spaces.Box,
        moves_at: int,
        num_moves: int,
        per_move: int,
        num_actions: int,
        state_dim: int = 256,
        move_dim: int = 128,
        action_bias: bool = False,
        move_layers: int = 1,
    ) -> None:
        super().__init__(observation_space, state_dim + num_actions)
        size = int(np.prod(observation_space.shape))
        if isinstance(move_layers, bool) or not isinstance(move_layers, int) or move_layers < 1:
            raise ValueError(f"move_layers must be an integer >= 1, got {move_layers!r}")
        self.moves_at, self.num_moves, self.per_move = moves_at, num_moves, per_move
        self.moves_end = moves_at + num_moves * per_move
        if not 0 <= moves_at <= self.moves_end <= size or num_moves > num_actions:
            raise ValueError(
                f"a moves piece of {num_moves} x {per_move} at {moves_at} does not fit an "
                f"observation of {size} and {num_actions} actions"
            )
        self.state = nn.Sequential(
            nn.Linear(size - (self.moves_end - moves_at), state_dim), nn.ReLU(),
            nn.Linear(state_dim, state_dim), nn.ReLU(),
        )  # fmt: skip
        # one hidden layer over [move row, state embedding], split so that the state's
        # half is computed once per observation, not once per move
        self.from_move = nn.Linear(per_move, move_dim)
        self.from_state = nn.Linear(state_dim, move_dim, bias=False)
        self.score = nn.Linear(move_dim, 1)
        # move_layers > 1: residual blocks on the move's hidden layer, their last layer zero
        # at the start (MovePolicy._build), so a deepened model plays as its source did
        # (``deepen``) and the fit adds what one layer could not express.
        self.deeper = nn.ModuleList(
            nn.Sequential(nn.Linear(move_dim, move_dim), nn.ReLU(), nn.Linear(move_dim, move_dim))
            for _ in range(move_layers - 1)
        )
        with warnings.catch_warnings():  # no other actions where every action has a row
            warnings.filterwarnings("ignore", "Initializing zero-element tensors")
            self.other_actions = nn.Linear(state_dim, num_actions - num_moves)
        # A learned score per move, zero at the start: shared weights score equal rows
        # equally, and a teacher may still prefer one of them (Jungle Sweep's heuristic
        # takes the palm die among equally safe dice, to deny it to the next monkey).
        self.action_bias = nn.Parameter(th.zeros(num_moves)) if action_bias else None

    def forward(self, obs: th.Tensor) -> th.Tensor:
        moves = obs[:, self.moves_at : self.moves_end].reshape(-1, self.num_moves, self.per_move)
        state = th.cat([obs[:, : self.moves_at], obs[:, self.moves_end :]], dim=1)
        embedding = self.state(state)
        from_state = self.from_state(embedding)
        # Most rows are zero (moves that are not legal now): one score per observation
        # stands for all of them, and only the other rows go through the move network,
        # which is the same function and several times cheaper when few moves are legal.
        zero_row = self.move_score(th.relu(self.from_move.bias + from_state))
        scores = zero_row.expand(-1, self.num_moves)
        batch, move = (moves != 0).any(dim=-1).nonzero(as_tuple=True)
        if len(batch):
            hidden = th.relu(self.from_move(moves[batch, move]) + from_state[batch])
            scores = scores.index_put((batch, move), self.move_score(hidden).squeeze(-1))
        if self.action_bias is not None:
            scores = scores + self.action_bias
        return th.cat([embedding, scores, self.other_actions(embedding)], dim=1)

    def move_score(self, hidden: th.Tensor) -> th.Tensor:
        for block in self.deeper:
            hidden = hidden + block(hidden)
        return self.score(hidden)


class ScoresAsLogits(nn.Module):
    """The action net: the extractor's scores, unchanged."""

    def __init__(self, start: int) -> None:
        super().__init__()
        self.start = start

    def forward(self, latent: th.Tensor) -> th.Tensor:
        return latent[:, self.start :]


class Embedding(nn.Module):
    """The state embedding part of the features: what the value head reads (the scores
    are the policy's; a value loss through them would move the logits)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def forward(self, features: th.Tensor) -> th.Tensor:
        return features[:, : self.size]


class MovePolicy(MaskableActorCriticPolicy):
    """MaskablePPO's actor-critic with ``MoveScoring`` features and its scores as logits;
    the value head is an MLP (``net_arch``, its ``vf`` sizes) over the state embedding."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        arch = kwargs.pop("net_arch", None) or [64, 64]
        self.value_layers = list(arch["vf"] if isinstance(arch, dict) else arch) or [64]
        kwargs["net_arch"] = {"pi": [], "vf": self.value_layers}
        kwargs.setdefault("features_extractor_class", MoveScoring)
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        extractor = self.features_extractor
        assert isinstance(extractor, MoveScoring)
        state_dim = extractor.features_dim - self.action_space.n
        layers: list[nn.Module] = [Embedding(state_dim)]
        last = state_dim
        for size in self.value_layers:
            layers += [nn.Linear(last, size), self.activation_fn()]
            last = size
        self.mlp_extractor.value_net = nn.Sequential(*layers)
        self.action_net = ScoresAsLogits(state_dim)
        # near-uniform moves at the start, as MaskablePPO's own action net begins
        for layer in (extractor.score, extractor.other_actions):
            nn.init.orthogonal_(layer.weight, gain=0.01)
            nn.init.zeros_(layer.bias)
        for block in extractor.deeper:
            nn.init.zeros_(block[-1].weight)
            nn.init.zeros_(block[-1].bias)
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )


def move_policy_kwargs(game: Any, net_arch: Any = None) -> dict[str, Any]:
    """``policy_kwargs`` for ``MovePolicy`` on ``game`` (made with ``move_features=True``):
    where its ``moves`` piece lies and how it is shaped."""
    layout = game.config.layout
    try:
        piece = layout.piece("moves")
    except (KeyError, ValueError):
        raise ValueError(
            f"{game.spec.env_name} with these options has no 'moves' piece in its observation "
            f"(make it with move_features=True)"
        ) from None
    num_moves, per_move = piece.shape
    return {
        "features_extractor_kwargs": {
            "moves_at": layout.offset("moves"),
            "num_moves": int(num_moves),
            "per_move": int(per_move),
            "num_actions": game.spec.num_actions,
            "action_bias": True,
        },
        "net_arch": net_arch or [64, 64],
    }


def deepen(model: Any, move_layers: int) -> Any:
    """``model`` (a MaskablePPO with ``MovePolicy``) with ``move_layers`` layers in its move
    scorer: the blocks it lacks are added with their last layer zero, so the deepened model
    picks the same moves and values the same states until it is fitted again. Returns the
    model, changed in place (a new policy and optimizer); ``model.save`` keeps the layers."""
    import copy

    extractor = getattr(model.policy, "features_extractor", None)
    if not isinstance(extractor, MoveScoring):
        raise ValueError("only a model with the move-scoring policy (MovePolicy) can be deepened")
    have = 1 + len(extractor.deeper)
    if isinstance(move_layers, bool) or not isinstance(move_layers, int) or move_layers < have:
        raise ValueError(
            f"move_layers must be an integer >= the model's {have}, got {move_layers!r}"
        )
    if move_layers == have:
        return model
    kwargs = copy.deepcopy(model.policy_kwargs)
    kwargs.setdefault("features_extractor_kwargs", {})["move_layers"] = move_layers
    policy = model.policy_class(
        model.observation_space, model.action_space, model.lr_schedule, **kwargs
    ).to(model.device)
    missing, unexpected = policy.load_state_dict(model.policy.state_dict(), strict=False)
    strange = unexpected + [key for key in missing if ".deeper." not in key]
    if strange:
        raise ValueError(f"the deepened policy does not take the model's weights: {strange}")
    model.policy, model.policy_kwargs = policy, kwargs
    return model
