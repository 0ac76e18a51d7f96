"""The compiled vector env and its Stable-Baselines3 adapter.

Its rows are checked against the reference engine (observation, mask and returns of the
unpacked state), its envs against each other (a batch plays the same games as the same
envs one by one, on any number of threads), and its Gymnasium semantics (next-step
autoreset, infos, bad input) directly.
"""

from __future__ import annotations

import zlib

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import jungle_envs
from jungle_envs.core.compiled.vector_env import CompiledVectorEnv
from jungle_envs.core.game import TERMINAL, IllegalActionError

ENV_IDS = [pytest.param(env_id, id=env_id.split("/")[1]) for env_id in jungle_envs.ENV_IDS]


def make(env_id: str, num_envs: int, **kwargs) -> CompiledVectorEnv:
    return gym.make_vec(
        env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs
    )


def first_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_make_vec_gives_the_compiled_vector_env_with_batched_spaces(env_id):
    envs = make(env_id, 3, num_players=3)
    assert isinstance(envs, CompiledVectorEnv)
    obs, info = envs.reset(seed=0)
    game = envs.game
    assert obs.shape == (3, game.observation_size) and obs.dtype == np.float32
    assert envs.observation_space.contains(obs)
    assert info["action_mask"].shape == (3, game.spec.num_actions)
    assert info["action_mask"].dtype == np.int8
    np.testing.assert_array_equal(envs.action_masks(), info["action_mask"].astype(bool))
    assert envs.action_masks().any(axis=1).all()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_row_is_the_reference_view_of_its_state(env_id):
    envs = make(env_id, 4, num_players=3, opponents="heuristic")
    game = envs.game
    rng = np.random.default_rng(1)
    obs, info = envs.reset(seed=5)
    ended, finished = np.zeros(4, dtype=bool), 0
    for _ in range(150):
        for i, state in enumerate(envs.states):
            if ended[i]:
                continue  # still the finished game: the next step starts a new one
            seat = int(info["agent_seat"][i])
            assert game.current_player(state) == seat
            np.testing.assert_array_equal(obs[i], game.observe(state, seat))
            np.testing.assert_array_equal(info["action_mask"][i], game.legal_mask(state))
        obs, rewards, terminated, truncated, info = envs.step(first_legal(info["action_mask"], rng))
        # Next-step autoreset: the envs that had ended start over, their actions ignored.
        assert not rewards[ended].any() and not terminated[ended].any()
        for i in np.flatnonzero(terminated):
            state = envs.states[i]
            assert game.current_player(state) == TERMINAL
            seat = int(info["agent_seat"][i])
            assert rewards[i] == game.returns(state)[seat]
            np.testing.assert_array_equal(info["returns"][i], game.returns(state))
            np.testing.assert_array_equal(info["scores"][i], game.scores(state))
            assert info["_returns"][i] and not info["illegal_action"][i]
            finished += 1
        ended = terminated | truncated
    assert finished > 0


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_batch_plays_the_games_of_its_envs_alone_on_any_number_of_threads(env_id, threads):
    batch = make(env_id, 3, num_players=4, num_threads=threads)
    alone = [make(env_id, 1, num_players=4, num_threads=1) for _ in range(3)]
    obs, _info = batch.reset(seed=40)
    for i, env in enumerate(alone):
        one_obs, _ = env.reset(seed=40 + i)
        np.testing.assert_array_equal(obs[i], one_obs[0])
    rng = np.random.default_rng(0)
    for _ in range(150):
        actions = first_legal(batch.action_masks(), rng)
        out = batch.step(actions)
        for i, env in enumerate(alone):
            one = env.step(actions[i : i + 1])
            for got, want in zip(out[:4], one[:4], strict=True):
                np.testing.assert_array_equal(got[i], want[0])


def test_same_seed_same_games_and_another_seed_other_games():
    def trace(seed):
        envs = make("jungle_envs/TropicRace-v0", 4, opponents="heuristic")
        rng = np.random.default_rng(0)
        obs, _ = envs.reset(seed=seed)
        out = [obs]
        for _ in range(60):
            obs, rewards, *_ = envs.step(first_legal(envs.action_masks(), rng))
            out += [obs, rewards]
        return np.concatenate([a.ravel() for a in out])

    np.testing.assert_array_equal(trace(3), trace(3))
    assert not np.array_equal(trace(3), trace(4))


def final_score(scores: np.ndarray, seat: int) -> float:
    return scores[seat]


def final_margin(scores: np.ndarray, seat: int) -> float:
    return scores[seat] - np.delete(scores, seat).max()


@pytest.mark.parametrize(
    ("reward", "players", "final"), [("score", 4, final_score), ("margin", 3, final_margin)]
)
def test_score_and_margin_rewards_add_up_to_the_final_score_or_margin(reward, players, final):
    envs = make("jungle_envs/JungleSweep-v0", 2, reward=reward, num_players=players)
    rng = np.random.default_rng(2)
    _, info = envs.reset(seed=1)
    game = envs.unwrapped.game
    # the rewards pay changes from the learner's first decision on: others may score before it
    totals = np.array(
        [final(np.array(game.scores(state), dtype=float), seat)
         for state, seat in zip(envs.unwrapped.states, info["agent_seat"], strict=True)]
    )  # fmt: skip
    finals = [None, None]
    while any(f is None for f in finals):
        _, rewards, terminated, _, info = envs.step(first_legal(envs.action_masks(), rng))
        totals += np.where([f is None for f in finals], rewards, 0.0)
        for i in np.flatnonzero(terminated):
            if finals[i] is None:
                finals[i] = final(info["scores"][i], info["agent_seat"][i])
    np.testing.assert_allclose(totals, finals)


def test_the_rank_reward_pays_the_win_and_the_place_at_the_end():
    envs = make("jungle_envs/SpankTheMonkey-v0", 4, reward="rank", num_players=4,
                opponents="heuristic")  # fmt: skip
    rng = np.random.default_rng(5)
    envs.reset(seed=2)
    finished = 0
    while finished < 12:
        _, rewards, terminated, _, info = envs.step(first_legal(envs.action_masks(), rng))
        assert (rewards[~terminated] == 0).all()
        for i in np.flatnonzero(terminated):
            seat, scores = info["agent_seat"][i], list(info["scores"][i])
            place = sum(scores[seat] > x for x in scores) - sum(scores[seat] < x for x in scores)
            expected = (info["returns"][i][seat] + place / 3) / 2
            assert rewards[i] == pytest.approx(expected)
            finished += 1


def test_illegal_actions_lose_or_raise_and_bad_actions_are_refused():
    envs = make("jungle_envs/JungleSweep-v0", 2, illegal_action="lose")
    _, info = envs.reset(seed=0)
    illegal = np.array([np.flatnonzero(m == 0)[0] for m in info["action_mask"]])
    _, rewards, terminated, _, info = envs.step(illegal)
    assert terminated.all() and (rewards == -1).all() and info["illegal_action"].all()
    raising = make("jungle_envs/JungleSweep-v0", 2, illegal_action="raise")
    _, info = raising.reset(seed=0)
    before = raising.buffers.rows.copy()
    with pytest.raises(IllegalActionError, match="envs"):
        raising.step(np.array([np.flatnonzero(m == 0)[0] for m in info["action_mask"]]))
    np.testing.assert_array_equal(raising.buffers.rows, before)  # nothing moved
    with pytest.raises(ValueError, match="out of the action space"):
        raising.step(np.array([0, 99]))
    with pytest.raises(ValueError, match="2 integers"):
        raising.step(np.array([0, 1, 2]))
    with pytest.raises(ValueError, match="built-in opponents"):
        make("jungle_envs/JungleSweep-v0", 2, opponents=lambda o, m, r: 0)
    with pytest.raises(ValueError, match="num_threads"):
        make("jungle_envs/JungleSweep-v0", 2, num_threads=0)


def test_dict_observations_carry_the_masks():
    envs = make("jungle_envs/SpankTheMonkey-v0", 2, observation_mode="dict")
    obs, info = envs.reset(seed=0)
    assert set(obs) == {"observation", "action_mask"}
    assert envs.observation_space.contains(obs)
    np.testing.assert_array_equal(obs["action_mask"], info["action_mask"])


def test_maskable_ppo_trains_on_the_sb3_adapter():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    from jungle_envs.sb3 import CompiledVecEnv

    venv = VecMonitor(CompiledVecEnv("jungle_envs/TropicRace-v0", num_envs=8, num_players=2))
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    model.learn(512)
    assert model.num_timesteps >= 512 and len(model.ep_info_buffer) > 0
    venv.reset()
    rng = np.random.default_rng(0)
    seen_end = False
    for _ in range(200):
        masks = venv.env_method("action_masks")
        assert masks.shape == (8, venv.action_space.n)
        obs, _, dones, infos = venv.step(first_legal(masks, rng))
        for i in np.flatnonzero(dones):
            seen_end = True
            assert infos[i]["terminal_observation"].shape == obs[i].shape
            assert venv.env_method("action_masks")[i].any()  # already the next game
    assert seen_end


def test_an_opponent_mixture_is_drawn_per_seat_and_episode_and_can_change():
    envs = make("jungle_envs/TropicRace-v0", 400, opponents={"random": 1, "heuristic": 3})
    envs.reset(seed=0)
    share = (envs.kinds == 2).mean()  # heuristic
    assert 0.68 < share < 0.82
    envs.set_opponent_mix({"random": 1.0})
    rng = np.random.default_rng(0)
    for _ in range(400):  # every env finishes an episode and draws again
        envs.step(first_legal(envs.action_masks(), rng))
    assert (envs.kinds == 1).mean() > 0.95
    with pytest.raises(ValueError, match="mixture"):
        envs.set_opponent_mix({"champion": 1.0})


class PythonHeuristic:
    """The game's reference heuristic, as a pool player that lives in Python."""

    def __init__(self, game) -> None:
        self.policy = game.heuristic_policy()
        self.calls = 0

    def act(self, observation, mask, rng) -> int:
        self.calls += 1
        return int(self.policy.act(observation, mask, rng))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pool_players_in_python_play_exactly_as_the_compiled_heuristic(env_id):
    """The pool path (the kernel stops, Python moves for many envs, the kernel goes on) is
    checked against the built-in heuristic: same seeds, same learner moves, same games."""
    compiled = make(env_id, 16, num_players=3, opponents={"heuristic": 1})
    with pytest.warns(UserWarning, match="pool, which is empty"):
        pooled = make(env_id, 16, num_players=3, opponents={"pool": 1})
    player = PythonHeuristic(pooled.game)
    pooled.set_opponent_pool([player])
    rng = np.random.default_rng(7)
    a, b = compiled.reset(seed=11), pooled.reset(seed=11)
    ends = 0
    for _ in range(150):
        for x, y in zip(a, b, strict=True):  # obs and info, then rewards, flags and infos
            if isinstance(x, dict):
                assert x.keys() == y.keys()
                for key in x:
                    np.testing.assert_array_equal(x[key], y[key])
            else:
                np.testing.assert_array_equal(x, y)
        actions = first_legal(compiled.action_masks(), rng)
        a, b = compiled.step(actions), pooled.step(actions)
        ends += int(a[2].sum())
    assert ends > 0 and player.calls > 0
    assert (pooled.kinds == 0).all()  # every opponent seat was an external pool player


def test_policy_snapshots_play_from_the_pool_and_ppo_trains_against_them():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from jungle_envs.sb3 import CompiledVecEnv, PolicyPlayer

    venv = CompiledVecEnv("jungle_envs/TropicRace-v0", num_envs=8, num_players=2,
                          opponents={"random": 1, "pool": 1})  # fmt: skip
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    players = [PolicyPlayer(model.policy), PolicyPlayer(model.policy, deterministic=True)]
    venv.set_opponent_pool(players)
    model.learn(512)
    assert model.num_timesteps >= 512
    kinds = venv.vector.kinds[:, 1]
    assert (kinds == 0).any() and (kinds == 1).any()  # pool and random seats both drawn
    # a snapshot is frozen: training the learner does not change it
    before = [p.detach().clone() for p in players[0].policy.parameters()]
    model.learn(256)
    for old, new in zip(before, players[0].policy.parameters(), strict=True):
        assert (old == new).all()
    masks = venv.action_masks()
    obs = venv.vector.buffers.obs
    picks = players[0].act_batch(obs, masks, np.random.default_rng(0))
    assert masks[np.arange(len(masks)), picks].all()
    with pytest.raises(TypeError, match="act_batch"):
        venv.set_opponent_pool([object()])


def pick(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A legal action that depends only on the observation: the same decisions in any
    autoreset mode."""
    legal = [np.flatnonzero(m) for m in masks]
    return np.array([a[zlib.crc32(o.tobytes()) % len(a)] for o, a in zip(obs, legal, strict=True)])


def episodes_of(mode: str, steps: int = 120) -> list[list[list]]:
    """Per env, its episodes as Gymnasium shows them in ``mode``: each the observations of
    its decisions, the rewards, and the end (final observation, scores, winners)."""
    envs = make("jungle_envs/TropicRace-v0", 3, num_players=2, autoreset_mode=mode)
    assert envs.metadata["autoreset_mode"] == AutoresetMode[mode]
    obs, info = envs.reset(seed=21)
    runs: list[list[list]] = [[[obs[i].tobytes()]] for i in range(3)]
    ended = np.zeros(3, dtype=bool)
    for _ in range(steps):
        obs, rewards, terminated, truncated, info = envs.step(pick(obs, info["action_mask"]))
        for i in range(3):
            episode = runs[i][-1]
            if mode == "NEXT_STEP" and ended[i]:
                assert rewards[i] == 0 and not terminated[i]
                runs[i].append([obs[i].tobytes()])
            elif terminated[i] or truncated[i]:
                final = info["final_info"] if mode == "SAME_STEP" else info
                end_obs = info["final_obs"][i] if mode == "SAME_STEP" else obs[i]
                episode += [rewards[i], ("end", end_obs.tobytes(), tuple(final["scores"][i]),
                                         tuple(final["winners"][i]))]  # fmt: skip
                if mode != "NEXT_STEP":
                    runs[i].append([obs[i].tobytes()])
            else:
                episode += [rewards[i], obs[i].tobytes()]
        ended = terminated | truncated
        if mode == "DISABLED" and ended.any():
            with pytest.raises(RuntimeError, match="DISABLED"):
                envs.step(pick(obs, info["action_mask"]))
            obs, info = envs.reset(options={"reset_mask": ended})
            for i in np.flatnonzero(ended):
                runs[i][-1] = [obs[i].tobytes()]
    return [[e for e in run if isinstance(e[-1], tuple)] for run in runs]  # whole episodes


def test_the_three_autoreset_modes_show_the_same_games():
    """Gymnasium's autoreset modes differ only in when an env starts its next episode:
    the same seeds and decisions give the same episodes, ends and final infos."""
    runs = {mode: episodes_of(mode) for mode in ("NEXT_STEP", "SAME_STEP", "DISABLED")}
    for i in range(3):
        count = min(len(run[i]) for run in runs.values())
        assert count >= 2
        for mode in ("SAME_STEP", "DISABLED"):
            assert runs[mode][i][:count] == runs["NEXT_STEP"][i][:count], (mode, i)


def test_final_infos_carry_what_the_single_env_returns_at_the_end():
    envs = make("jungle_envs/JungleSweep-v0", 8, num_players=4)
    single = gym.make("jungle_envs/JungleSweep-v0", num_players=4)
    _, single_info = single.reset(seed=3)
    rng = np.random.default_rng(0)
    while not single.step(int(first_legal(single_info["action_mask"][None], rng)[0]))[2]:
        single_info = single.unwrapped._info()
    single_keys = set(single.unwrapped._info())
    _, info = envs.reset(seed=3)
    while True:
        _, _, terminated, _, info = envs.step(first_legal(info["action_mask"], rng))
        if terminated.any():
            break
    i = int(np.flatnonzero(terminated)[0])
    expected = envs.game.final_info(envs.states[i])
    assert {k for k in info if not k.startswith("_")} >= single_keys | set(expected)
    assert info["winners"][i] == expected["winners"] and info["_winners"][i]
    assert info["coconut_values"][i] == expected["coconut_values"]
    lean = make("jungle_envs/JungleSweep-v0", 8, num_players=4, final_details=False)
    lean.reset(seed=3)
    assert "winners" not in lean.step(first_legal(info["action_mask"], rng))[4]


def test_autoreset_options_are_checked():
    with pytest.raises(ValueError, match="autoreset_mode must be one of"):
        make("jungle_envs/JungleSweep-v0", 2, autoreset_mode="sometimes")
    envs = make("jungle_envs/JungleSweep-v0", 2, autoreset_mode="disabled")
    with pytest.raises(RuntimeError, match="reset"):
        envs.reset(options={"reset_mask": np.array([True, False])})
    envs.reset(seed=0)
    rows = envs.buffers.rows.copy()
    for bad in ([True, False], np.array([1, 0]), np.array([False, False])):
        with pytest.raises(ValueError, match="reset_mask"):
            envs.reset(options={"reset_mask": bad})
    with pytest.raises(ValueError, match="takes no options"):
        envs.reset(options={"colour": 1})
    np.testing.assert_array_equal(envs.buffers.rows, rows)
