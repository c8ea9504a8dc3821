"""PettingZoo AEC environments (splendor.rl.splendor_v0, splendor.rl.splendor_duel_v0)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from splendor import classic, duel
from splendor.rl import encoding, splendor_duel_v0, splendor_v0
from splendor.rl.common import outcome_rewards

ENVS = [
    pytest.param(lambda **kw: splendor_v0.env(num_players=2, **kw), "classic", 2, id="classic2"),
    pytest.param(lambda **kw: splendor_v0.env(num_players=3, **kw), "classic", 3, id="classic3"),
    pytest.param(lambda **kw: splendor_v0.env(num_players=4, **kw), "classic", 4, id="classic4"),
    pytest.param(lambda **kw: splendor_duel_v0.env(**kw), "duel", 2, id="duel"),
]


@pytest.fixture(autouse=True)
def _quiet():
    # PettingZoo's api_test warns about Dict observations (its own chess does the same)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*Observation.*")
        yield


@pytest.mark.parametrize("make,game,n", ENVS)
def test_pettingzoo_api(make, game, n) -> None:
    api_test(make())  # the default arguments (num_cycles=1000)


@pytest.mark.parametrize("make,game,n", ENVS)
def test_pettingzoo_seed(make, game, n) -> None:
    seed_test(make)  # the default arguments (num_cycles=500)


def random_game(env, seed: int):
    """Play one game with random masked actions; returns (rewards, final engine state,
    the agents seen acting in order)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = {a: 0.0 for a in env.possible_agents}
    actors = []
    state = env.unwrapped.game_state
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            assert not obs["action_mask"].any()
            env.step(None)
            continue
        # agent_selection follows the engine's current player; only it has a mask
        assert agent == f"player_{state.current_player}"
        for other in env.agents:
            m = env.observe(other)["action_mask"]
            assert m.any() == (other == agent)
        mask = obs["action_mask"]
        assert np.array_equal(mask.astype(bool), state.legal_mask())
        actors.append(agent)
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return total, state, actors


@pytest.mark.parametrize("make,game,n", ENVS)
def test_random_games_rewards_match_the_engine(make, game, n) -> None:
    env = make()
    for seed in range(3):
        total, state, actors = random_game(env, seed)
        assert state.is_terminal and env.agents == []
        want = outcome_rewards(state)
        assert [total[f"player_{p}"] for p in range(n)] == want
        winners = state.winners
        assert winners, "random games end on points here"
        for p in range(n):
            assert total[f"player_{p}"] == (1.0 / len(winners) if p in winners else -1.0)
        # a turn is several decisions by the same seat: some agent acts twice in a row
        assert any(a == b for a, b in zip(actors, actors[1:], strict=False))


def test_outcome_rewards_shared_and_draw() -> None:
    class Fake:
        num_players = 3
        is_terminal = True
        winners = [0, 2]

    assert outcome_rewards(Fake()) == [0.5, -1.0, 0.5]
    Fake.winners = []
    assert outcome_rewards(Fake()) == [0.0, 0.0, 0.0]
    Fake.is_terminal = False
    assert outcome_rewards(Fake()) == [0.0, 0.0, 0.0]


def test_reset_seed_deals_the_engine_game() -> None:
    env = splendor_v0.env(num_players=3)
    env.reset(seed=1234)
    assert np.array_equal(env.unwrapped.game_state.array, classic.new_game(3, 1234).array)
    env = splendor_duel_v0.env()
    env.reset(seed=99)
    assert np.array_equal(env.unwrapped.game_state.array, duel.new_game(2, 99).array)
    obs = env.observe("player_1")["observation"]
    assert np.array_equal(obs, encoding.observation_tensor(duel.new_game(2, 99).observation(1)))


def test_reset_without_seed_follows_np_random() -> None:
    a, b = splendor_duel_v0.env(), splendor_duel_v0.env()
    a.reset(seed=5)
    b.reset(seed=5)
    a.reset()
    b.reset()
    assert np.array_equal(a.unwrapped.game_state.array, b.unwrapped.game_state.array)
    c = splendor_duel_v0.env()
    c.reset()  # entropy: just works


@pytest.mark.parametrize("make,game,n", ENVS)
def test_illegal_action_raises_and_changes_nothing(make, game, n) -> None:
    """``illegal_action="raise"``: a ValueError naming it and the legal ones; the game is
    unchanged and the agent may play again."""
    env = make(illegal_action="raise")
    env.reset(seed=3)
    st = env.unwrapped.game_state
    before = st.array.copy()
    illegal = int(np.flatnonzero(~st.legal_mask())[0])
    with pytest.raises(ValueError, match=rf"illegal action {illegal} .*legal now: \d+ \("):
        env.step(illegal)
    for bad in (-1, encoding.num_actions(game), 2.5, "take W U G", True):
        with pytest.raises(ValueError):
            env.step(bad)
    assert np.array_equal(st.array, before)
    assert env.agent_selection == "player_0"
    env.step(np.int64(np.flatnonzero(st.legal_mask())[0]))  # numpy ints are fine


@pytest.mark.parametrize("make,game,n", ENVS)
def test_illegal_action_terminates_by_default(make, game, n) -> None:
    """The default (``illegal_action="terminate"``, as PettingZoo's
    ``TerminateIllegalWrapper``): every agent is terminated, the one that played it gets
    ``illegal_reward``, the others 0; the game is unchanged and every agent then steps None."""
    env = make(illegal_reward=-2.0)
    env.reset(seed=3)
    st = env.unwrapped.game_state
    before = st.array.copy()
    illegal = int(np.flatnonzero(~st.legal_mask())[0])
    env.step(illegal)
    assert np.array_equal(st.array, before)
    assert all(env.terminations.values())
    assert env.rewards == {a: (-2.0 if a == "player_0" else 0.0) for a in env.agents}
    assert env.infos["player_0"]["illegal_action"] == illegal
    assert "illegal action" in env.infos["player_0"]["error"]
    _, reward, term, _, _ = env.last()
    assert term and reward == -2.0 and not env.observe("player_0")["action_mask"].any()
    while env.agents:
        env.step(None)


def test_duel_turn_cap_is_a_draw() -> None:
    """D25: a game ended by the turn cap has no winner: reward 0 for both."""
    env = splendor_duel_v0.env(turn_cap=6)
    total, state, _ = random_game(env, 0)
    assert state.end_reason == "turn cap" and state.winners == []
    assert total == {"player_0": 0.0, "player_1": 0.0}


def test_max_turns_truncates() -> None:
    env = splendor_v0.env(num_players=2, max_turns=5)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert trunc and not term and reward == 0
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.unwrapped.game_state.turn == 5 and not env.unwrapped.game_state.is_terminal


def test_spaces() -> None:
    env = splendor_v0.env(num_players=4)
    env.reset(seed=0)
    space = env.observation_space("player_2")
    assert space["observation"].shape == (encoding.observation_size("classic", 4),)
    assert space["observation"].dtype == np.float32
    assert space["action_mask"].dtype == np.int8
    assert env.action_space("player_0").n == classic.NUM_ACTIONS
    assert splendor_duel_v0.env().action_space("player_1").n == duel.NUM_ACTIONS
    assert space.contains(env.observe("player_2"))


@pytest.mark.parametrize("mod", [splendor_v0, splendor_duel_v0])
def test_render_modes(mod) -> None:
    env = mod.env(render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and "player_0 to decide" in text and "player_1" in text
    env.close()
    env = mod.env(render_mode="rgb_array")
    env.reset(seed=2)
    img = env.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3 and img.std() > 10
    env.close()
    env = mod.env()
    env.reset(seed=2)
    with pytest.warns(UserWarning, match="render_mode"):
        assert env.render() is None


@pytest.mark.parametrize("mod", [splendor_v0, splendor_duel_v0])
def test_pettingzoo_render_test_passes_with_a_human_mode(mod, capsys) -> None:
    """PettingZoo's ``render_test`` makes the environment with ``render_mode="human"``
    first: that mode prints the board (at reset, at each step and on ``render()``) and
    returns None."""
    render_test(mod.env)
    env = mod.env(render_mode="human")
    env.reset(seed=2)
    capsys.readouterr()
    assert env.render() is None
    assert "player_0 to decide" in capsys.readouterr().out
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))
    assert "player_1" in capsys.readouterr().out  # printed by the step itself


def test_render_hides_other_seats_blind_reserves() -> None:
    env = splendor_v0.env(num_players=2, render_mode="ansi")
    env.reset(seed=2)
    env.step(classic.Action.parse("reserve d2").id)
    text = env.render()  # the view of player_1, to act
    assert "L2 (hidden)" in text


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        splendor_v0.env(num_players=5)
    with pytest.raises(ValueError):
        splendor_duel_v0.env(num_players=3)
    with pytest.raises(ValueError):
        splendor_v0.env(render_mode="window")
    with pytest.raises(ValueError):
        splendor_duel_v0.env(turn_cap=0)
    with pytest.raises(ValueError):
        splendor_v0.env(max_turns=0)
    with pytest.raises(ValueError):
        splendor_v0.env(illegal_action="ignore")
    env = splendor_v0.env()
    for seed in (-1, 2**63, "7"):
        with pytest.raises(ValueError):
            env.reset(seed=seed)
