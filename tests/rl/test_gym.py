"""Gymnasium single-agent environments (splendor/Splendor-v0, splendor/SplendorDuel-v0)."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import splendor.rl
from splendor import classic, duel
from splendor.bots import RandomBot
from splendor.rl import encoding
from splendor.rl.gym_env import SplendorEnv

IDS = ["splendor/Splendor-v0", "splendor/SplendorDuel-v0"]


@pytest.mark.parametrize("env_id", IDS)
def test_check_env(env_id: str) -> None:
    """Gymnasium's checker, with the default arguments: it steps unmasked random actions,
    which end the episode (``illegal_action="terminate"``, the default)."""
    env = gymnasium.make(env_id)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # `turn` has no upper bound (the game has no fixed length)
        warnings.filterwarnings("ignore", message=".*maximum value is infinity.*")
        check_env(env.unwrapped)
    env.close()


def test_registration_is_idempotent() -> None:
    splendor.rl.register_envs()
    splendor.rl.register_envs()
    for env_id in IDS:
        assert env_id in gymnasium.registry
    env = gymnasium.make("splendor/Splendor-v0", opponent="greedy")
    assert isinstance(env.unwrapped, SplendorEnv) and env.unwrapped.game == "classic"
    assert gymnasium.make("splendor/SplendorDuel-v0").unwrapped.game == "duel"


def play(env, seed: int):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        mask = obs["action_mask"]
        assert np.array_equal(mask, info["action_mask"]) and mask.any()
        assert env.unwrapped.game_state.current_player == env.unwrapped.seat
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        if term or trunc:
            return reward, term, trunc, info, steps
        assert reward == 0


@pytest.mark.parametrize(
    "env_id,kwargs",
    [
        ("splendor/Splendor-v0", {"opponent": "greedy"}),
        ("splendor/Splendor-v0", {"opponent": "random", "num_players": 3, "seat": "random"}),
        (
            "splendor/Splendor-v0",
            {"opponent": ["random", "greedy", "random"], "num_players": 4, "seat": 2},
        ),
        ("splendor/SplendorDuel-v0", {"opponent": "random", "seat": 1}),
        ("splendor/SplendorDuel-v0", {"opponent": "greedy", "seat": "random"}),
    ],
)
def test_random_games_reward_matches_the_engine(env_id: str, kwargs: dict) -> None:
    env = gymnasium.make(env_id, **kwargs)
    seats = set()
    for seed in range(3):
        reward, term, trunc, info, steps = play(env, seed)
        st = env.unwrapped.game_state
        seat = env.unwrapped.seat
        seats.add(seat)
        assert term and not trunc and st.is_terminal
        assert info["winners"] == st.winners and info["scores"] == st.scores
        assert not info["action_mask"].any()
        want = 1.0 / len(st.winners) if seat in st.winners else -1.0
        assert reward == want
    if kwargs.get("seat") not in (None, "random"):
        assert seats == {kwargs["seat"]}


def test_reset_is_reproducible() -> None:
    env = gymnasium.make("splendor/SplendorDuel-v0", opponent="random", seat="random")
    runs = []
    for _ in range(2):
        obs, info = env.reset(seed=11)
        trace = [obs["observation"]]
        rng = np.random.default_rng(0)
        for _ in range(30):
            obs, r, term, trunc, info = env.step(
                int(rng.choice(np.flatnonzero(obs["action_mask"])))
            )
            trace.append(obs["observation"])
            if term:
                break
        runs.append(np.array(trace))
    assert np.array_equal(runs[0], runs[1])
    # the seed deals the engine's game: with seat 0 nobody moved before the agent
    env = gymnasium.make("splendor/Splendor-v0", seat=0)
    obs, _ = env.reset(seed=77)
    assert np.array_equal(
        obs["observation"], encoding.observation_tensor(classic.new_game(2, 77).observation(0))
    )


def test_seat_option_and_bot_objects() -> None:
    bot = RandomBot(3)
    env = gymnasium.make("splendor/Splendor-v0", opponent=bot, num_players=2)
    obs, info = env.reset(seed=1, options={"seat": 1})
    assert info["seat"] == 1 and env.unwrapped.game_state.turn == 1  # the bot played seat 0
    reward, term, *_ = play(env, 2)
    assert term


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = gymnasium.make("splendor/SplendorDuel-v0", opponent="random", illegal_action="raise")
    obs, _ = env.reset(seed=5)
    st = env.unwrapped.game_state
    before = st.array.copy()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"illegal action {illegal}"):
        env.step(illegal)
    for bad in (-3, duel.NUM_ACTIONS, None, 1.0):
        with pytest.raises(ValueError):
            env.step(bad)
    assert np.array_equal(st.array, before)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_illegal_action_terminate_mode() -> None:
    """The default: an illegal action ends the episode with ``illegal_reward``."""
    env = gymnasium.make("splendor/Splendor-v0", illegal_reward=-5)
    obs, _ = env.reset(seed=5)
    before = env.unwrapped.game_state.array.copy()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, reward, term, trunc, info = env.step(illegal)
    assert term and reward == -5 and info["illegal_action"] == illegal
    assert np.array_equal(env.unwrapped.game_state.array, before)
    with pytest.raises(ValueError):
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_duel_turn_cap_is_a_draw() -> None:
    env = gymnasium.make("splendor/SplendorDuel-v0", turn_cap=8)
    reward, term, trunc, info, _ = play(env, 0)
    assert term and reward == 0.0 and info["winners"] == []


def test_max_turns_truncates() -> None:
    env = gymnasium.make("splendor/Splendor-v0", max_turns=6)
    reward, term, trunc, info, _ = play(env, 0)
    assert trunc and not term and reward == 0.0
    with pytest.raises(ValueError):
        env.step(0)


def test_default_max_turns_truncates() -> None:
    """Without ``max_turns``, an episode is cut short after DEFAULT_MAX_TURNS turns (a
    policy that only takes and returns tokens never ends a game); None turns it off."""
    from splendor.rl.gym_env import DEFAULT_MAX_TURNS

    env = SplendorEnv("classic")
    assert env.max_turns == DEFAULT_MAX_TURNS == 400
    assert SplendorEnv("classic", max_turns=None).max_turns is None
    env = SplendorEnv("classic", max_turns=5)
    obs, _ = env.reset(seed=0)
    truncated = False
    while not truncated:
        obs, reward, term, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert not term
    assert env.game_state.turn == 5 and reward == 0


@pytest.mark.parametrize("env_id", IDS)
def test_observation_space_is_finite_and_holds_every_observation(env_id: str) -> None:
    """The Box is bounded everywhere (the turn counters by the int32 turn field) and holds
    the observations of random games."""
    env = gymnasium.make(env_id, opponent="random")
    box = env.observation_space["observation"]
    assert np.isfinite(box.high).all() and (box.high >= 1).all()
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            assert env.observation_space.contains(obs)
            obs, _, term, trunc, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            done = term or trunc


@pytest.mark.parametrize("env_id", IDS)
def test_render(env_id: str) -> None:
    env = gymnasium.make(env_id, render_mode="ansi")
    env.reset(seed=0)
    assert "player_0" in env.render()
    env = gymnasium.make(env_id, render_mode="rgb_array")
    env.reset(seed=0)
    img = env.render()
    assert img.dtype == np.uint8 and img.shape[2] == 3


def test_bad_arguments() -> None:
    for kwargs in (
        {"num_players": 5},
        {"seat": 2},
        {"seat": "left"},
        {"opponent": "nobody"},
        {"opponent": ["random", "random"]},
        {"opponent": 3},
        {"illegal_action": "ignore"},
        {"turn_cap": 10},  # a Duel setting
    ):
        with pytest.raises(ValueError):
            SplendorEnv("classic", **kwargs)
    with pytest.raises(ValueError):
        SplendorEnv("duel", num_players=3)
    with pytest.raises(ValueError):
        SplendorEnv("duel").reset(seed=-1)


def test_human_render_mode_prints_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    """``render_mode="human"``: the board is printed at reset and at every step, and
    ``render()`` prints it and returns None."""
    env = gymnasium.make("splendor/SplendorDuel-v0", render_mode="human")
    obs, _ = env.reset(seed=3)
    assert "player_" in capsys.readouterr().out
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert "player_" in capsys.readouterr().out
    assert env.render() is None and "player_" in capsys.readouterr().out
    with pytest.warns(UserWarning, match="render_mode"), pytest.raises(ValueError, match="'human'"):
        gymnasium.make("splendor/Splendor-v0", render_mode="window")
