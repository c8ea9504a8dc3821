"""The OpenSpiel games (:mod:`splendor.rl.openspiel_game`) under OpenSpiel's own checks
(``random_sim_test``, ``MCTSBot``, ``ISMCTSBot``) and the adapter's promises: hidden
information never reaches a player's strings or tensors (C16, D22), serialization round
trips, illegal actions leave the state unchanged, the decision cap, zero-sum returns
(C15, D21, D25)."""

from __future__ import annotations

import re

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from splendor import classic, duel  # noqa: E402
from splendor.rl import encoding, openspiel_game  # noqa: E402
from splendor.rl.openspiel_game import CLASSIC_GAME_NAME, DUEL_GAME_NAME  # noqa: E402

GAMES = [
    pytest.param(CLASSIC_GAME_NAME, {"players": 2}, id="classic-2"),
    pytest.param(CLASSIC_GAME_NAME, {"players": 3}, id="classic-3"),
    pytest.param(CLASSIC_GAME_NAME, {"players": 4}, id="classic-4"),
    pytest.param(DUEL_GAME_NAME, {}, id="duel"),
]


def load(name: str, params: dict | None = None) -> pyspiel.Game:
    return pyspiel.load_game(name, params or {})


def dealt(game: pyspiel.Game, deal: int = 7) -> pyspiel.State:
    state = game.new_initial_state()
    state.apply_action(deal)
    return state


def play_random(state: pyspiel.State, rng: np.random.Generator, steps: int) -> pyspiel.State:
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


def sampler(seed: int):
    return np.random.default_rng(seed).random


# --------------------------------------------------------------------------- loading


@pytest.mark.parametrize("name,params", GAMES)
def test_load_game_declares_its_properties(name: str, params: dict) -> None:
    game = load(name, params)
    kind = "classic" if name == CLASSIC_GAME_NAME else "duel"
    n = params.get("players", 2)
    gt = game.get_type()
    assert game.num_players() == n
    assert game.num_distinct_actions() == encoding.num_actions(kind)
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game.max_chance_outcomes() == openspiel_game.DEFAULT_DEALS
    assert game.max_game_length() == openspiel_game.DEFAULT_MAX_DECISIONS[kind]
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    size = encoding.observation_size(kind, n)
    assert game.observation_tensor_shape() == [size]
    assert game.information_state_tensor_shape() == [size]
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == openspiel_game.DEFAULT_DEALS
    # the game's string loads the same game back
    assert str(pyspiel.load_game(str(game))) == str(game)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="players"):
        load(CLASSIC_GAME_NAME, {"players": 5})
    with pytest.raises(ValueError, match="deals"):
        load(DUEL_GAME_NAME, {"deals": 0})
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        load(CLASSIC_GAME_NAME, {"colour": 1})


# --------------------------------------------------------------------------- OpenSpiel's checks


@pytest.mark.parametrize(
    "name,params,sims",
    [
        (CLASSIC_GAME_NAME, {"players": 2}, 2),
        (CLASSIC_GAME_NAME, {"players": 3}, 1),
        (CLASSIC_GAME_NAME, {"players": 4}, 1),
        (DUEL_GAME_NAME, {}, 2),
    ],
    ids=["classic-2", "classic-3", "classic-4", "duel"],
)
def test_random_sim_test_with_serialization(name: str, params: dict, sims: int) -> None:
    """OpenSpiel's own random simulation test: legal actions sorted and masked, clone and
    ``serialize``/``deserialize`` give equal states, observations and information states
    for every player, returns within the utility range and zero-sum."""
    pyspiel.random_sim_test(load(name, params), num_sims=sims, serialize=True, verbose=False)


def play_with(game: pyspiel.Game, bots: list, deal: int) -> pyspiel.State:
    state = dealt(game, deal)
    while not state.is_terminal():
        state.apply_action(int(bots[state.current_player()].step(state)))
    return state


@pytest.mark.parametrize(
    "name,params,rollout",
    [
        (CLASSIC_GAME_NAME, {"players": 2}, None),
        (CLASSIC_GAME_NAME, {"players": 3}, 40),
        (DUEL_GAME_NAME, {}, 30),
    ],
    ids=["classic-2", "classic-3", "duel"],
)
def test_openspiel_ismcts_plays_full_games(name: str, params: dict, rollout: int | None) -> None:
    """OpenSpiel's ISMCTSBot (it resamples worlds with ``resample_from_infostate`` and keys
    its nodes by information-state strings, asserting that every resampled world has the
    root's key) plays a whole game in every seat."""
    game = load(name, params)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1), max_length=rollout)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 3, random_state=np.random.RandomState(p))
        for p in range(game.num_players())
    ]
    state = play_with(game, bots, deal=11)
    assert state.is_terminal()
    assert abs(sum(state.returns())) < 1e-9


@pytest.mark.parametrize(
    "name,params",
    [(CLASSIC_GAME_NAME, {"players": 2}), (DUEL_GAME_NAME, {})],
    ids=["classic-2", "duel"],
)
def test_openspiel_mcts_plays_full_games_on_determinizations(name: str, params: dict) -> None:
    """OpenSpiel's (perfect-information) MCTSBot plays whole games through
    :class:`DeterminizingBot`, which hands it a resampled world each decision."""
    game = load(name, params)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(2), max_length=30)
    bots = [
        openspiel_game.DeterminizingBot(
            mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=np.random.RandomState(p)), seed=p
        )
        for p in range(2)
    ]
    state = play_with(game, bots, deal=5)
    assert state.is_terminal()
    assert abs(sum(state.returns())) < 1e-9


# --------------------------------------------------------------------------- hidden information


def views(state: pyspiel.State, p: int, observers: tuple) -> tuple:
    obs, info = observers
    obs.set_from(state, p)
    info.set_from(state, p)
    return (
        state.observation_string(p),
        state.information_state_string(p),
        tuple(state.observation_tensor(p)),
        tuple(state.information_state_tensor(p)),
        obs.tensor.tobytes(),
        info.tensor.tobytes(),
    )


@pytest.mark.parametrize(
    "name,params",
    [(CLASSIC_GAME_NAME, {"players": 3}), (DUEL_GAME_NAME, {})],
    ids=["classic-3", "duel"],
)
def test_no_tensor_or_string_changes_when_only_hidden_information_changes(
    name: str, params: dict
) -> None:
    """C16, D22: ``resample_from_infostate(p)`` redraws everything ``p`` cannot see (deck
    order, other seats' blind reserves, the generator); every observation and
    information-state string and tensor of ``p`` stays the same."""
    game = load(name, params)
    observers = (
        make_observation(game),
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=True)),
    )
    rng = np.random.default_rng(3)
    state = dealt(game, 3)
    hidden_changed = 0
    checked = 0
    while not state.is_terminal() and checked < 60:
        for p in range(game.num_players()):
            other = state.resample_from_infostate(p, sampler(checked * 7 + p))
            assert views(other, p, observers) == views(state, p, observers)
            assert other.history() == state.history()
            if p == state.current_player():  # another seat's legal buys hang on its hidden cards
                assert other.legal_actions() == state.legal_actions()
            hidden_changed += str(other) != str(state)
        checked += 1
        play_random(state, rng, 3)
    assert hidden_changed > checked  # the hidden part did change, nearly every time


def blind_reserve(game: pyspiel.Game, seed: int) -> tuple[pyspiel.State, int, int]:
    """A state right after some seat reserved blind from a deck (C8, D9): (state, seat,
    card id)."""
    kind = game.engine
    rng = np.random.default_rng(seed)
    state = dealt(game, seed)
    while True:
        assert not state.is_terminal(), "no blind reserve in this game"
        legal = state.legal_actions()
        blind = [a for a in legal if kind.Action.from_id(a).kind == "reserve_deck"]
        if blind and rng.random() < 0.5:
            seat = state.current_player()
            before = len(state.engine_state().player(seat).reserved)
            state.apply_action(blind[0])
            card = state.engine_state().player(seat).reserved[before]
            return state, seat, card.id
        state.apply_action(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("name", [CLASSIC_GAME_NAME, DUEL_GAME_NAME], ids=["classic", "duel"])
def test_blind_reserve_stays_hidden_from_the_others(name: str) -> None:
    game = load(name)
    state, seat, card = blind_reserve(game, 4)
    mine = re.compile(rf"#{card}(?!\d)")
    p = 1 - seat
    assert not mine.search(state.observation_string(p))
    assert not mine.search(state.information_state_string(p))
    assert mine.search(state.observation_string(seat))  # its owner sees it
    assert mine.search(state.information_state_string(seat))
    # resampling for the other seat redraws that card, with the same view for that seat
    redrawn = set()
    for k in range(12):
        other = state.resample_from_infostate(p, sampler(k))
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.observation_tensor(p) == state.observation_tensor(p)
        redrawn.add(other.engine_state().player(seat).reserved[-1].id)
    assert len(redrawn) > 1


def test_information_state_string_records_every_decision() -> None:
    """Perfect recall: the information-state string lists every decision in notation, with
    the cards it revealed (a face-up refill, a card bought)."""
    game = load(CLASSIC_GAME_NAME)
    state = play_random(dealt(game, 9), np.random.default_rng(9), 40)
    text = state.information_state_string(0)
    history = state.public_history()
    assert len(history) == state.decisions == len(state.history()) - 1
    assert text.endswith("; ".join(history))
    for line, action in zip(history, state.history()[1:], strict=True):
        seat, notation = line.split(":", 1)
        assert notation.startswith(state.action_to_string(int(seat), action))
    # the observation string is the current view only
    assert "history" not in state.observation_string(0)


def test_unsupported_observation_type_is_refused() -> None:
    game = load(CLASSIC_GAME_NAME)
    public_only = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(ValueError, match="single-player"):
        make_observation(game, public_only)


# --------------------------------------------------------------------------- serialization


@pytest.mark.parametrize("name,params", GAMES[1:], ids=["classic-3", "classic-4", "duel"])
def test_serialize_round_trip_replays_identically(name: str, params: dict) -> None:
    game = load(name, params)
    rng = np.random.default_rng(5)
    state = play_random(dealt(game, 5), rng, 25)
    copy = game.deserialize_state(state.serialize())
    g2, copy2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(g2) == str(game)
    for other in (copy, copy2):
        assert str(other) == str(state)
        assert other.history() == state.history()
        for p in range(game.num_players()):
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_tensor(p) == state.observation_tensor(p)
    # the hidden generator came along: the same decisions give the same game
    while not state.is_terminal():
        legal = state.legal_actions()
        assert copy.legal_actions() == legal
        a = legal[int(rng.integers(len(legal)))]
        state.apply_action(a)
        copy.apply_action(a)
        assert str(copy) == str(state)
    assert copy.returns() == state.returns()
    # a state serialized before the deal
    fresh = game.deserialize_state(game.new_initial_state().serialize())
    assert fresh.is_chance_node()


def test_clone_is_independent() -> None:
    game = load(DUEL_GAME_NAME)
    state = play_random(dealt(game), np.random.default_rng(1), 10)
    before = str(state)
    clone = state.clone()
    play_random(clone, np.random.default_rng(2), 10)
    assert str(state) == before
    assert clone.history()[: len(state.history())] == state.history()


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("name", [CLASSIC_GAME_NAME, DUEL_GAME_NAME], ids=["classic", "duel"])
def test_illegal_action_raises_and_leaves_the_state_unchanged(name: str) -> None:
    game = load(name)
    state = play_random(dealt(game, 2), np.random.default_rng(2), 15)
    legal = set(state.legal_actions())
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)

    def snap() -> tuple:
        return (
            str(state),
            state.history(),
            state.serialize(),
            state.move_number(),
            state.decisions,
        )

    snapshot = snap()
    for bad in (illegal, game.num_distinct_actions() + 5, -2):
        with pytest.raises(pyspiel.SpielError, match=r"illegal action .*legal now: \d+ \("):
            state.apply_action(bad)
        assert snap() == snapshot
    with pytest.raises(pyspiel.SpielError):  # OpenSpiel's own check of kInvalidAction
        state.apply_action(pyspiel.INVALID_ACTION)
    assert snap() == snapshot
    chance = game.new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="illegal deal"):
        chance.apply_action(game.max_chance_outcomes())
    assert chance.is_chance_node() and chance.history() == []


def test_action_strings_are_the_engine_notation() -> None:
    game = load(CLASSIC_GAME_NAME)
    state = game.new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 3) == "deal 3 (seed 3)"
    state.apply_action(3)
    for a in state.legal_actions():
        assert state.action_to_string(state.current_player(), a) == str(classic.Action.from_id(a))


# --------------------------------------------------------------------------- end of game


def test_decision_cap_ends_the_game_as_a_draw() -> None:
    game = load(CLASSIC_GAME_NAME, {"max_decisions": 12})
    assert game.max_game_length() == 12
    state = play_random(dealt(game), np.random.default_rng(0), 100)
    assert state.is_terminal() and state.capped and state.decisions == 12
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == [0.0, 0.0]
    assert state.legal_actions() == []
    with pytest.raises(pyspiel.SpielError, match="game is over"):
        state.apply_action(0)


def test_duel_turn_cap_ends_with_no_winner() -> None:
    """D25: the ``turn_cap`` parameter is the engine's turn cap; nobody wins."""
    game = load(DUEL_GAME_NAME, {"turn_cap": 6})
    state = play_random(dealt(game), np.random.default_rng(0), 500)
    assert state.is_terminal() and not state.capped
    assert state.engine_state().end_reason == "turn cap"
    assert state.returns() == [0.0, 0.0]


@pytest.mark.parametrize("name,params", GAMES, ids=["classic-2", "classic-3", "classic-4", "duel"])
def test_returns_reward_the_engines_winners(name: str, params: dict) -> None:
    """C15/D21: each of the k winners gets +1/k, each other seat -1/(n-k); sum 0."""
    game = load(name, params)
    n = game.num_players()
    for deal in range(3):
        state = play_random(dealt(game, deal), np.random.default_rng(deal), 10_000)
        assert state.is_terminal()
        winners = state.engine_state().winners
        k = len(winners)
        want = (
            [0.0] * n
            if k in (0, n)
            else [1 / k if p in winners else -1 / (n - k) for p in range(n)]
        )
        assert state.returns() == pytest.approx(want)
        assert sum(state.returns()) == pytest.approx(0.0)


def test_new_initial_state_for_seed_matches_the_engine() -> None:
    game = load(CLASSIC_GAME_NAME, {"players": 3, "seed": 100})
    state = game.new_initial_state_for_seed(105)
    assert state.history() == [5]
    assert state.engine_state().to_dict() == classic.new_game(3, 105).to_dict()
    outside = game.new_initial_state_for_seed(7)
    assert outside.history() == [] and outside.current_player() == 0
    assert outside.engine_state().to_dict() == classic.new_game(3, 7).to_dict()
    d = load(DUEL_GAME_NAME, {"turn_cap": 50}).new_initial_state_for_seed(3)
    assert d.engine_state().to_dict() == duel.new_game(2, 3, turn_cap=50).to_dict()
    with pytest.raises(TypeError):
        game.state_from_engine(duel.new_game(2, 1))
