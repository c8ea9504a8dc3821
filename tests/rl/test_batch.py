"""Batched games (splendor.rl.batch): every step of every game is the engine's, replayed
through the Python API (C16, D22 for the observations; C15, D21, D25 for the rewards)."""

from __future__ import annotations

import numpy as np
import pytest

from splendor import classic, duel
from splendor.rl import encoding
from splendor.rl.batch import BatchedGames, environment_generators
from splendor.rl.common import outcome_rewards

CASES = [
    ("classic", 2, None, False, None),
    ("classic", 3, None, True, None),
    ("classic", 4, None, False, None),
    ("classic", 2, None, False, 9),  # games cut short after 9 turns (truncated)
    ("duel", 2, None, True, None),
    ("duel", 2, 12, False, None),  # a short turn cap: games end with no winner (D25)
    ("duel", 2, None, False, 7),
]


def new_state(game: str, players: int, seed: int, cap: int | None):
    if game == "classic":
        return classic.new_game(players, seed)
    return duel.new_game(2, seed, turn_cap=cap)


def check_views(games: BatchedGames, step, states: list) -> None:
    """Every row of ``step`` is the Python API's view of the replayed game."""
    for i, st in enumerate(states):
        assert step.current[i] == st.current_player
        assert np.array_equal(step.mask[i], st.legal_mask())
        if games.seat_views:
            for p in range(games.num_players):
                want = encoding.observation_tensor(st.observation(p))
                assert np.array_equal(step.obs[i, p], want)
        else:
            want = encoding.observation_tensor(st.observation(st.current_player))
            assert np.array_equal(step.obs[i], want)


@pytest.mark.parametrize("game,players,cap,views,max_turns", CASES)
def test_every_step_is_the_engines(
    game: str, players: int, cap: int | None, views: bool, max_turns: int | None
) -> None:
    """Replay each environment's games with ``new_game(players, game_seed)`` and the
    actions played: the same observations, masks, seats to play, and terminal rewards;
    a game that ends (or reaches ``max_turns``: truncated) is dealt anew in the same step."""
    n = 5
    games = BatchedGames(
        game, n, players, seat_views=views, turn_cap=cap, max_turns=max_turns, seed=3
    )
    step = games.reset()
    assert step.obs.shape == ((n, players) if views else (n,)) + (games.observation_size,)
    states = [new_state(game, players, int(s), cap) for s in games.game_seed]
    check_views(games, step, states)
    ended = 0
    for _ in range(260 if game == "classic" else 330):
        actions = games.random_actions().copy()
        step = games.step(actions)
        for i in range(n):
            st = states[i]
            st.apply(int(actions[i]))
            if step.terminated[i]:
                assert st.is_terminal and not step.truncated[i]
                assert step.rewards[i].tolist() == pytest.approx(outcome_rewards(st))
                states[i] = new_state(game, players, int(games.game_seed[i]), cap)
                ended += 1
            elif step.truncated[i]:
                assert max_turns and st.turn >= max_turns and not st.is_terminal
                assert not step.rewards[i].any()
                states[i] = new_state(game, players, int(games.game_seed[i]), cap)
                ended += 1
            else:
                assert not st.is_terminal and not step.rewards[i].any()
                assert max_turns is None or st.turn < max_turns
        check_views(games, step, states)
    assert ended >= 3  # several games ended and were dealt anew
    if cap:
        assert ended and all(st.end_reason is None or st.turn <= cap for st in states)


def test_turn_cap_ends_with_no_winner() -> None:
    games = BatchedGames("duel", 4, turn_cap=6, seed=1)
    games.reset()
    rewards = []
    for _ in range(60):
        step = games.step(games.random_actions())
        rewards += [step.rewards[i].tolist() for i in np.flatnonzero(step.terminated)]
    assert rewards and all(r == [0.0, 0.0] for r in rewards)


def play_first_legal(games: BatchedGames, steps: int) -> list[np.ndarray]:
    """Observations seen while playing each game's first legal decision."""
    step = games.reset()
    seen = [step.obs.copy()]
    for _ in range(steps):
        step = games.step(np.argmax(step.mask, axis=1))
        seen.append(step.obs.copy())
    return seen


def test_games_are_reproducible_per_environment() -> None:
    """An environment's games follow its own seed, whatever the other environments and
    their number: environment 1 of three seeded [5, 6, 7] plays as the sole environment
    seeded [6]."""
    a = play_first_legal(BatchedGames("classic", 3, seed=[5, 6, 7]), 150)
    b = play_first_legal(BatchedGames("classic", 1, seed=[6]), 150)
    c = play_first_legal(BatchedGames("classic", 3, seed=[5, 6, 7]), 150)
    for x, y, z in zip(a, b, c, strict=True):
        assert np.array_equal(x[1], y[0])
        assert np.array_equal(x, z)
    d = play_first_legal(BatchedGames("classic", 3, seed=[5, 9, 7]), 150)
    assert not all(np.array_equal(x[1], w[1]) for x, w in zip(a, d, strict=True))


def test_reset_with_a_seed_restarts_the_same_games() -> None:
    games = BatchedGames("duel", 4, seed=11)
    first = games.reset().obs.copy()
    seeds = games.game_seed.copy()
    for _ in range(5):
        games.step(games.random_actions())
    assert np.array_equal(games.reset(seed=11).obs, first)
    assert np.array_equal(games.game_seed, seeds)
    games.reset(seed=12)
    assert not np.array_equal(games.game_seed, seeds)


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    """``illegal_action="raise"``: a ValueError naming it, and no game moves."""
    games = BatchedGames("classic", 4, seed=2, illegal_action="raise")
    games.reset()
    for _ in range(3):
        games.step(games.random_actions())
    before = (
        games._arrays.states.copy(),
        games._arrays.obs.copy(),
        games._arrays.mask.copy(),
        games.game_seed.copy(),
    )
    actions = games.random_actions().copy()
    illegal = int(np.flatnonzero(~games._arrays.mask[2])[0])
    actions[2] = illegal
    with pytest.raises(
        ValueError, match=r"environment 2: illegal action .* legal now: .* No game moved"
    ):
        games.step(actions)
    after = (games._arrays.states, games._arrays.obs, games._arrays.mask, games.game_seed)
    assert all(np.array_equal(x, y) for x, y in zip(before, after, strict=True))
    for bad in (99, -1):
        actions[2] = bad
        with pytest.raises(ValueError, match="out of range"):
            games.step(actions)
    assert np.array_equal(games._arrays.states, before[0])
    actions[2] = int(np.flatnonzero(games._arrays.mask[2])[0])
    games.step(actions)  # the same batch, now legal, plays
    assert not np.array_equal(games._arrays.states, before[0])


@pytest.mark.parametrize("game", ["classic", "duel"])
def test_an_illegal_action_ends_its_game_by_default(game: str) -> None:
    """The default (``illegal_action="terminate"``): the game with the illegal action ends
    unplayed (``terminated``, ``illegal``, ``illegal_reward`` to the seat that played it, 0
    to the others) and the next game is dealt at once; the other games play on."""
    games = BatchedGames(game, 4, seed=2, illegal_reward=-3.0)
    games.reset()
    for _ in range(3):
        games.step(games.random_actions())
    actions = games.random_actions().copy()
    seat = int(games._arrays.current[2])
    old_seed = int(games.game_seed[2])
    actions[2] = int(np.flatnonzero(~games._arrays.mask[2])[0])
    step = games.step(actions)
    assert step.illegal.tolist() == [False, False, True, False]
    assert step.terminated[2] and not step.truncated[2]
    expected = np.zeros(games.num_players, dtype=np.float32)
    expected[seat] = -3.0
    assert np.array_equal(step.rewards[2], expected)
    assert int(games.game_seed[2]) != old_seed and games.state(2).turn == 0
    assert (
        step.obs[2].tolist()
        == encoding.observation_tensor(games.state(2).observation(int(step.current[2]))).tolist()
    )
    actions[2] = 10_000  # out of range: the same
    step = games.step(actions)
    assert step.illegal[2] and step.terminated[2]
    step = games.step(games.random_actions())
    assert not step.illegal.any()


@pytest.mark.parametrize(
    "actions,message",
    [
        (np.zeros(3, dtype=np.int64), r"shape \(4,\)"),
        (np.zeros(4, dtype=np.float64), "integer decision ids"),
        (np.zeros(4, dtype=np.bool_), "integer decision ids"),
        ([[0, 0, 0, 0]], r"shape \(4,\)"),
    ],
)
def test_malformed_actions_are_refused(actions, message: str) -> None:
    games = BatchedGames("classic", 4, seed=0)
    games.reset()
    before = games._arrays.states.copy()
    with pytest.raises(ValueError, match=message):
        games.step(actions)
    assert np.array_equal(games._arrays.states, before)


def test_step_before_reset_is_refused() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        BatchedGames("classic", 2).step(np.zeros(2, dtype=np.int64))


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"game": "chess"}, "unknown game"),
        ({"game": "duel", "num_players": 3}, "2"),
        ({"num_players": 5}, "2"),
        ({"num_envs": 0}, "num_envs"),
        ({"num_envs": 2.5}, "num_envs"),
        ({"turn_cap": 10}, "Duel"),
        ({"game": "duel", "turn_cap": 0}, "turn_cap"),
        ({"seed": -1}, "seed"),
        ({"max_turns": 0}, "max_turns"),
        ({"max_turns": 2.0}, "max_turns"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"num_envs": 2, "seed": [1]}, "one int per environment"),
        ({"num_envs": 2, "seed": [1, "x"]}, r"seed\[1\]"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BatchedGames(**kwargs)


def test_random_actions_are_legal_and_uniform() -> None:
    games = BatchedGames("duel", 64, seed=4)
    step = games.reset()
    counts = np.zeros(games.num_actions)
    for _ in range(200):
        a = games.random_actions()
        assert step.mask[np.arange(64), a].all()
        counts += np.bincount(a, minlength=games.num_actions) * (step.mask.sum(1) > 0).all()
        step = games.step(a)
    assert counts.sum() == 64 * 200


def test_state_is_a_copy_and_checks_its_index() -> None:
    games = BatchedGames("classic", 2, seed=0)
    games.reset()
    st = games.state(1)
    assert isinstance(st, classic.State) and st.turn == 0
    st.apply(st.legal_actions()[0])
    assert games.state(1).turn == 0 and games._arrays.states[1]["turn"] == 0
    for bad in (2, -1, True):
        with pytest.raises(IndexError, match="0..1"):
            games.state(bad)


def test_environment_generators() -> None:
    a = environment_generators(7, 4)
    assert a.dtype == np.uint64 and a.shape == (4,) and len(set(a.tolist())) == 4
    assert np.array_equal(a, environment_generators(7, 4))
    assert environment_generators([3, 3], 2)[0] == environment_generators([3], 1)[0]
    assert not np.array_equal(environment_generators(None, 2), environment_generators(None, 2))
