"""One game on each Python path: the Gymnasium env, the rules engine and the PettingZoo AEC
env, checking after every step what that path can see."""

from __future__ import annotations

import math
import tempfile
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from jungle_envs.core.game import CHANCE, TERMINAL, Game, places

from .checks import check, check_engine_state, check_observation, check_results, fail, max_steps_of


def pick_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action (tests replace this to break the soak on purpose)."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def play_engine_game(game: Game, seed: int, deep: bool, check_every: int) -> tuple[int, bool]:
    """One game on the rules functions; returns (steps, truncated)."""
    rng = np.random.default_rng(seed)
    state = game.new_state()
    n, num_actions = game.num_players, game.spec.num_actions
    limit = max_steps_of(game)
    steps = 0
    while True:
        if deep or steps % check_every == 0:
            check_engine_state(game, state, f"step {steps}")
        player = game.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            event = game.chance_event(state)
            outcome = event.sample(rng)
            if deep:
                fast = game.sample_chance(state, np.random.default_rng(steps))
                described = event.sample(np.random.default_rng(steps))
                if fast != described:
                    fail(f"step {steps}: fast chance draw {fast} != {described} of {event}")
            game.apply_chance(state, outcome)
        else:
            if not 0 <= player < n:
                fail(f"step {steps}: current player {player}")
            mask = game.legal_mask(state)
            if mask.dtype != np.bool_ or mask.shape != (num_actions,):
                fail(f"step {steps}: mask {mask.dtype} {mask.shape}")
            if not mask.any():
                fail(f"step {steps}: seat {player} has no legal action")
            if deep:
                legal = game.legal_actions(state)
                if list(legal) != np.flatnonzero(mask).tolist():
                    fail(f"step {steps}: legal_actions {legal} != the mask")
            game.apply_action(state, pick_action(mask, rng))
        steps += 1
        if deep and steps == SAVE_AT:
            check_play_save(game, state, f"step {steps}")
        if steps > limit:
            fail(f"no end after {limit} steps")
    check_engine_state(game, state, "end")
    if deep:
        check_play_save(game, state, "end")
    check(not game.legal_mask(state).any(), "a finished game has legal actions")
    info = game.final_info(state)
    check_results(game, info["scores"], info["winners"], info["returns"], "end")
    check(info["returns"] == game.returns(state), "final_info's returns != returns()")
    return steps, False


SAVE_AT = 25  # a deep game round-trips the play CLI's save/load here and at its end


def check_play_save(game: Game, state: Any, what: str) -> None:
    """The play CLI loads the position from a file (as ``load FILE`` does), saves it again
    (written whole, by rename) and loads that save: the same position each time."""
    from jungle_envs.play.session import read_save, session_from_save

    text = game.state_to_json(state)
    with tempfile.TemporaryDirectory() as folder:
        bare = Path(folder) / "position.json"
        bare.write_text(text)
        session = session_from_save(read_save(bare))
        check(session.game.state_to_json(session.state) == text, f"{what}: load changed it")
        saved = session.save(Path(folder) / "save.json")
        again = session_from_save(read_save(saved))
        check(again.game.state_to_json(again.state) == text, f"{what}: save+load changed it")
        check(sorted(p.name for p in Path(folder).iterdir()) == ["position.json", "save.json"],
              f"{what}: the save left a temporary file")  # fmt: skip


def seat_score(scores: Any, seat: int, kind: str) -> float:
    """What the score and margin rewards pay the change of: the seat's score, less the best
    other seat's for the margin."""
    own = float(scores[seat])
    if kind == "margin":
        own -= max(float(x) for other, x in enumerate(scores) if other != seat)
    return own


def play_env_game(
    env: gym.Env, settings: dict[str, Any], seed: int, deep: bool
) -> tuple[int, bool]:
    """One episode of the Gymnasium env; returns (learner steps, truncated)."""
    base = env.unwrapped
    game = base.game
    rng = np.random.default_rng([seed, 1])
    space = env.observation_space
    dict_mode = settings.get("observation_mode") == "dict"
    kind = settings.get("reward", "win")
    dense = kind in ("score", "margin")  # paid as the score (margin) changes, else at the end
    obs, info = env.reset(seed=seed)
    seat = info["agent_seat"]
    if not 0 <= seat < game.num_players:
        fail(f"agent_seat {seat}")
    if "agent_seat" in settings and seat != settings["agent_seat"]:
        fail(f"agent_seat {seat}, not the fixed seat {settings['agent_seat']}")
    start_score = seat_score(game.scores(base.state), seat, kind) if dense else 0.0
    total, steps, reward = 0.0, 0, 0.0
    terminated = truncated = False
    while True:
        if not space.contains(obs):
            fail(f"step {steps}: observation outside the space")
        mask = env.action_masks()
        if mask.dtype != np.bool_:
            fail(f"step {steps}: action_masks() dtype {mask.dtype}")
        sent = info["action_mask"]
        if sent.dtype != np.int8 or not np.array_equal(sent, mask.astype(np.int8)):
            fail(f"step {steps}: info['action_mask'] {sent} != action_masks() {mask}")
        if dict_mode and not np.array_equal(obs["action_mask"], sent):
            fail(f"step {steps}: the observation's mask != info['action_mask']")
        if info["agent_seat"] != seat:
            fail(f"step {steps}: agent_seat changed to {info['agent_seat']}")
        if terminated or truncated:
            break
        if not mask.any():
            fail(f"step {steps}: no legal action while not done")
        if deep:
            state = base.state
            player = game.current_player(state)
            if player != seat:
                fail(f"step {steps}: the env's state has seat {player} to move, not {seat}")
            if not np.array_equal(game.legal_mask(state), mask):
                fail(f"step {steps}: the mask != the rules' legal_mask of the env's state")
            flat = obs["observation"] if dict_mode else obs
            if not np.array_equal(flat, game.observe(state, seat)):
                fail(f"step {steps}: the observation != the rules' view of the env's state")
        obs, reward, terminated, truncated, info = env.step(pick_action(mask, rng))
        steps += 1
        if not isinstance(reward, (float, int, np.floating)) or not math.isfinite(reward):
            fail(f"step {steps}: reward {reward!r}")
        if "illegal_action" in info:
            fail(f"step {steps}: {info.get('illegal_action_message', 'illegal action')}")
        if terminated and truncated:
            fail(f"step {steps}: terminated and truncated")
        total += float(reward)
        if not dense and not terminated and reward != 0:
            fail(f"step {steps}: reward {reward} before the end")
    if terminated:
        check_results(game, info["scores"], info["winners"], info["returns"], "final info")
        if dense:
            gained = seat_score(info["scores"], seat, kind) - start_score
            check(
                abs(total - gained) < 1e-6,
                lambda: f"{kind} rewards add up to {total}, the seat gained {gained}",
            )
        elif kind == "rank":
            paid = (info["returns"][seat] + places(info["scores"])[seat]) / 2.0
            check(
                abs(reward - paid) < 1e-9,
                lambda: f"last rank reward {reward} != the mean of return and place {paid}",
            )
        else:
            check(
                reward == info["returns"][seat],
                lambda: f"last reward {reward} != the seat's return {info['returns'][seat]}",
            )
        check(env.action_masks().all(), "after the end action_masks() is not all True")
    return steps, truncated


def play_pettingzoo_game(env: Any, seed: int, deep: bool) -> tuple[int, bool]:
    """One game of the AEC env; returns (env.step calls, truncated)."""
    raw = env.unwrapped
    game = raw.game
    n = game.num_players
    rng = np.random.default_rng([seed, 1])
    env.reset(seed=seed)
    limit = max_steps_of(game)
    steps, truncated = 0, False
    paid: dict[str, float] = {}
    final: dict[str, Any] = {}
    for agent in env.agent_iter(limit):
        obs, reward, termination, truncation, info = env.last()
        if not math.isfinite(reward):
            fail(f"step {steps}: {agent}'s reward {reward!r}")
        if deep:
            if not env.observation_space(agent).contains(obs):
                fail(f"step {steps}: {agent}'s observation outside its space")
        else:
            check_observation(obs["observation"], game.observation_size, f"step {steps}, {agent}")
        mask = obs["action_mask"]
        if termination or truncation:
            truncated |= bool(truncation)
            if mask.any():
                fail(f"step {steps}: {agent} is done but has a mask")
            paid[agent], final = float(reward), info
            action = None
        else:
            if not mask.any():
                fail(f"step {steps}: {agent} has no legal action")
            if deep:
                for other in raw.agents:
                    if other != agent and env.observe(other)["action_mask"].any():
                        fail(f"step {steps}: {other}, not selected, has a mask")
            action = pick_action(mask, rng)
        env.step(action)
        steps += 1
    check(not raw.agents, lambda: f"agents {raw.agents} left after {steps} steps")
    check(len(paid) == n, lambda: f"{len(paid)} of {n} agents saw the end")
    check("scores" in final and "winners" in final, lambda: f"final info {final}")
    returns = [paid[f"player_{seat}"] for seat in range(n)]
    check_results(game, final["scores"], final["winners"], returns, "final rewards")
    return steps, truncated
