"""The Gymnasium vector environment (splendor.rl.vector_env): Gymnasium's vector contract
(spaces, seeding, next-step auto-reset, returned data, its vector wrappers) and the games
it plays (the engine's rules, the bots' choices, C15/D21 rewards)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space
from gymnasium.wrappers.vector import FlattenObservation, RecordEpisodeStatistics

import splendor.rl  # noqa: F401  # registers the ids
from splendor.bots.greedy_compiled import classic_greedy_scores
from splendor.bots.greedy_duel_compiled import duel_greedy_scores
from splendor.rl import encoding
from splendor.rl.common import make_spaces
from splendor.rl.vector_env import SplendorVectorEnv

GAMES = [("classic", 2), ("classic", 3), ("duel", 2)]


def masked_random(obs: dict, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per environment (0 where nothing is legal: ignored)."""
    out = np.zeros(len(obs["action_mask"]), dtype=np.int64)
    for i, m in enumerate(obs["action_mask"]):
        legal = np.flatnonzero(m)
        if legal.size:
            out[i] = rng.choice(legal)
    return out


@pytest.mark.parametrize("game,players", GAMES)
def test_spaces_and_every_observation_in_them(game: str, players: int) -> None:
    """The batched spaces are Gymnasium's ``batch_space`` of the single environment's,
    and every observation returned lies in them."""
    env = SplendorVectorEnv(game, 6, num_players=players, seat="random")
    single_obs, single_act = make_spaces(game, players)
    assert env.single_observation_space == single_obs
    assert env.single_action_space == single_act
    assert env.observation_space == batch_space(single_obs, 6)
    assert env.action_space == batch_space(single_act, 6)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    env_id = "splendor/Splendor-v0" if game == "classic" else "splendor/SplendorDuel-v0"
    sync = gymnasium.make_vec(env_id, 6, vectorization_mode="sync", num_players=players)
    assert (sync.observation_space, sync.action_space) == (env.observation_space, env.action_space)
    assert sync.metadata["autoreset_mode"] == env.metadata["autoreset_mode"]
    sync_obs, _ = sync.reset(seed=1)
    obs, infos = env.reset(seed=1)
    assert sync_obs in env.observation_space and obs in sync.observation_space
    assert obs in env.observation_space
    rng = np.random.default_rng(1)
    for _ in range(120):
        obs, rewards, term, trunc, infos = env.step(masked_random(obs, rng))
        assert obs in env.observation_space
        assert rewards.dtype == np.float32 and rewards.shape == (6,)
        assert term.dtype == np.bool_ and trunc.dtype == np.bool_ and not trunc.any()
        assert set(infos) >= {"seat", "_seat", "game_seed", "_game_seed", "illegal_action"}


def rollout(env: SplendorVectorEnv, seed: int, steps: int) -> list:
    out = []
    obs, infos = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out.append((obs, infos))
    for _ in range(steps):
        out.append(env.step(masked_random(obs, rng)))
        obs = out[-1][0]
    return out


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_reset_and_step_are_deterministic(opponent: str) -> None:
    """The same seed and actions give the same observations, rewards and infos (as
    Gymnasium's ``check_reset_seed_determinism`` / ``check_step_determinism`` ask of a
    single environment); another seed gives other games."""
    a = rollout(SplendorVectorEnv("classic", 4, opponent=opponent, seat="random"), 5, 60)
    b = rollout(SplendorVectorEnv("classic", 4, opponent=opponent, seat="random"), 5, 60)
    assert data_equivalence(a, b)
    c = rollout(SplendorVectorEnv("classic", 4, opponent=opponent, seat="random"), 6, 60)
    assert not data_equivalence(a, c)


def test_returned_data_is_not_reused() -> None:
    """With ``copy=True`` (the default) every call returns new arrays; ``copy=False``
    returns the environment's buffers."""
    env = SplendorVectorEnv("duel", 3)
    obs1, _ = env.reset(seed=0)
    obs2, r2, t2, _, _ = env.step(masked_random(obs1, np.random.default_rng(0)))
    assert obs1["observation"] is not obs2["observation"]
    assert not np.shares_memory(obs1["observation"], obs2["observation"])
    assert not np.shares_memory(obs1["action_mask"], obs2["action_mask"])
    shared = SplendorVectorEnv("duel", 3, copy=False)
    o1, _ = shared.reset(seed=0)
    o2, _, _, _, _ = shared.step(masked_random(o1, np.random.default_rng(0)))
    assert np.shares_memory(o1["observation"], o2["observation"])


@pytest.mark.parametrize("game,players", GAMES)
def test_observations_are_the_engines_and_next_step_reset(game: str, players: int) -> None:
    """At every step the observation and mask are the learning seat's view of the engine
    state (it owes the decision), and at the end its terminal reward (C15, D21). The step
    after the end ignores the action (an illegal one here) and starts the next game:
    reward 0, not terminated, a new deal whose first observation it returns."""
    env = SplendorVectorEnv(game, 4, num_players=players, seat="random")
    obs, infos = env.reset(seed=9)
    rng = np.random.default_rng(9)
    ended = 0
    after_end = np.zeros(4, dtype=bool)
    for _ in range(400 if game == "classic" else 500):
        for i in range(4):
            st = env.state(i)
            seat = int(infos["seat"][i])
            view = encoding.observation_tensor(st.observation(seat))
            assert np.array_equal(obs["observation"][i], view)
            if st.is_terminal:
                assert not obs["action_mask"][i].any()
            else:
                assert st.current_player == seat
                assert np.array_equal(obs["action_mask"][i], st.legal_mask().astype(np.int8))
        actions = masked_random(obs, rng)
        actions[after_end] = 10_000  # ignored: those environments start their next game
        old_seeds = infos["game_seed"].copy()
        obs, rewards, term, trunc, infos = env.step(actions)
        for i in np.flatnonzero(after_end):
            assert rewards[i] == 0 and not term[i] and not infos["illegal_action"][i]
            assert infos["game_seed"][i] != old_seeds[i]
            assert env.state(i).turn <= players  # the opening of a new game
        for i in np.flatnonzero(term):
            st = env.state(i)
            assert st.is_terminal
            winners = st.winners
            seat = int(infos["seat"][i])
            want = (1 / len(winners) if seat in winners else -1.0) if winners else 0.0
            assert rewards[i] == pytest.approx(want)
            ended += 1
        assert not rewards[~term & ~after_end].any()
        after_end = term.copy()
    assert ended >= 4


@pytest.mark.parametrize("game", ["classic", "duel"])
def test_greedy_bots_play_their_best_decision(game: str) -> None:
    """Each decision the ``greedy`` bots make is one of the greedy bot's best-scored
    decisions in that position: found by replaying, from the learning seat's position,
    its action then each candidate of the bot in the engine."""
    scores_of = classic_greedy_scores if game == "classic" else duel_greedy_scores
    env = SplendorVectorEnv(game, 1, opponent="greedy", seat=0)
    obs, infos = env.reset(seed=2)
    rng = np.random.default_rng(2)
    checked = 0
    for _ in range(150):
        before = env.state(0)
        action = masked_random(obs, rng)
        obs, _, term, _, infos = env.step(action)
        if before.is_terminal:
            continue
        after = env.state(0)
        st = before.copy()
        st.apply(int(action[0]))
        # follow the bot one decision at a time while exactly one candidate leads on
        while not st.is_terminal and st.current_player != 0:
            mask = st.legal_mask()
            scores = np.zeros(len(mask))
            scores_of(st._a, mask, scores)
            best = scores[mask].max()
            top = [a for a in np.flatnonzero(mask) if scores[a] >= best - 1e-9]
            nexts = []
            for a in np.flatnonzero(mask):
                nxt = st.copy()
                nxt.apply(int(a))
                nexts.append((int(a), nxt))
            # the bot's move is the candidate on the path to `after`: when the bot owes
            # only this decision, the candidate equal to `after` is it
            done = [a for a, nxt in nexts if np.array_equal(nxt._a, after._a)]
            if done:
                assert done[0] in top
                checked += 1
                break
            st = dict(nexts)[top[0]] if len(top) == 1 else None
            if st is None:
                break
    assert checked >= 20


def test_an_illegal_action_ends_the_episode_and_changes_nothing() -> None:
    env = SplendorVectorEnv("classic", 2, illegal_reward=-5.0)
    obs, _ = env.reset(seed=0)
    before = env.state(1).array
    actions = masked_random(obs, np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    obs2, rewards, term, trunc, infos = env.step(actions)
    assert term[1] and rewards[1] == -5.0 and infos["illegal_action"][1]
    assert not infos["illegal_action"][0]
    assert np.array_equal(env.state(1).array, before)
    assert np.array_equal(obs2["observation"][1], obs["observation"][1])
    obs3, rewards, term, _, infos = env.step(np.zeros(2, dtype=np.int64))
    assert rewards[1] == 0 and not term[1]  # the next game began


def test_illegal_action_raise_changes_nothing() -> None:
    """``illegal_action="raise"``: a ValueError naming the environment and the action; no
    game moves (not even the legal ones of the same batch)."""
    env = SplendorVectorEnv("duel", 2, illegal_action="raise")
    obs, _ = env.reset(seed=0)
    before = [env.state(i).array for i in range(2)]
    actions = masked_random(obs, np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(ValueError, match=r"environment 1: illegal action .* No game moved"):
        env.step(actions)
    assert all(np.array_equal(env.state(i).array, before[i]) for i in range(2))
    actions[1] = int(np.flatnonzero(obs["action_mask"][1])[0])
    env.step(actions)
    assert not np.array_equal(env.state(0).array, before[0])


def test_max_turns_truncates_and_resets_at_the_next_step() -> None:
    env = SplendorVectorEnv("classic", 3, max_turns=6, seat="random")
    obs, infos = env.reset(seed=4)
    rng = np.random.default_rng(4)
    cut = 0
    after = np.zeros(3, dtype=bool)
    for _ in range(40):
        obs, rewards, term, trunc, infos = env.step(masked_random(obs, rng))
        for i in np.flatnonzero(after):
            assert not trunc[i] and env.state(i).turn <= 2  # the next game began
        for i in np.flatnonzero(trunc):
            st = env.state(i)
            assert st.turn >= 6 and not st.is_terminal and rewards[i] == 0 and not term[i]
            cut += 1
        after = trunc | term
    assert cut >= 3


def test_malformed_actions_are_refused() -> None:
    env = SplendorVectorEnv("classic", 2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(2, dtype=np.int64))
    env.reset(seed=0)
    before = env.state(0).array
    for bad in (np.zeros(3, dtype=np.int64), np.zeros(2), ["a", "b"]):
        with pytest.raises(ValueError, match="actions must"):
            env.step(bad)
    assert np.array_equal(env.state(0).array, before)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"opponent": "mcts:0.1s"}, "SyncVectorEnv"),
        ({"seat": 2}, "seat"),
        ({"seat": "first"}, "seat"),
        ({"num_envs": 0}, "num_envs"),
        ({"turn_cap": 5}, "Duel"),
        ({"render_mode": "human"}, "render_mode"),
        ({"max_turns": -3}, "max_turns"),
        ({"illegal_action": "skip"}, "illegal_action"),
        ({"game": "duel", "num_players": 4}, "2"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SplendorVectorEnv(**kwargs)


def test_make_vec_and_gymnasium_vector_wrappers() -> None:
    """``gymnasium.make_vec`` builds it from the registered ids; Gymnasium's vector
    wrappers (which check the auto-reset mode) run over it; the greedy bot beats random
    decisions."""
    envs = gymnasium.make_vec("splendor/Splendor-v0", num_envs=8, opponent="greedy")
    assert isinstance(envs.unwrapped, SplendorVectorEnv)
    wrapped = RecordEpisodeStatistics(FlattenObservation(envs))
    obs, _ = wrapped.reset(seed=0)
    assert obs.shape == (8, encoding.observation_size("classic") + encoding.num_actions("classic"))
    size = encoding.observation_size("classic")
    rng = np.random.default_rng(0)
    returns = []
    for _ in range(600):
        actions = masked_random({"action_mask": obs[:, size:]}, rng)
        obs, _, term, trunc, infos = wrapped.step(actions)
        if "episode" in infos:
            returns += infos["episode"]["r"][infos["_episode"]].tolist()
    assert len(returns) >= 8
    assert np.mean(returns) < -0.5  # random decisions lose to greedy
    sync = gymnasium.make_vec("splendor/SplendorDuel-v0", num_envs=2, vectorization_mode="sync")
    assert not isinstance(sync.unwrapped, SplendorVectorEnv)


def test_render_ansi() -> None:
    env = SplendorVectorEnv("duel", 2, render_mode="ansi")
    assert env.render() is None
    env.reset(seed=0)
    texts = env.render()
    assert len(texts) == 2 and all("P0" in t or "player" in t.lower() for t in texts)
