"""The game descriptors (issue 31): each engine declares its game once, and what the
descriptor says agrees with what the engine does, for every game of ``games()``."""

from __future__ import annotations

import numpy as np
import pytest

import splendor
from splendor.descriptor import Game, GameOption, Kernels
from splendor.game import games, get_game

GAMES = games()
IDS = [g.name for g in GAMES]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_name_finds_the_game(game: Game) -> None:
    for name in game.names:
        assert get_game(name) is game and get_game(name.upper()) is game
    assert str(game) == game.name and splendor.get_game(game) is game


def test_names_are_unique_across_games() -> None:
    names = [n for g in GAMES for n in g.names]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_facts_agree_with_the_engine(game: Game) -> None:
    """Player range (C1, D1), action count, dtype and classes are the engine's own."""
    for n in game.player_counts:
        state = game.new_game(n, 1)
        assert state.game is game and state.observation(0).game is game
        assert isinstance(state, game.state_type)
        assert isinstance(state.observation(0), game.observation_type)
        assert state.legal_mask().shape == (game.num_actions,)
        assert state._a.dtype == game.state_dtype
    for n in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(ValueError):
            game.new_game(n, 1)
        with pytest.raises(ValueError, match="players"):
            game.check_players(n)
    assert all(game.action_type.from_id(i).id == i for i in range(game.num_actions))
    with pytest.raises(splendor.ParseError):
        game.action_type.from_id(game.num_actions)
    game.action_type.parse(game.example_action)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_kernels_are_the_rules_module(game: Game) -> None:
    state = game.new_game(game.default_players, 3)
    mask = np.zeros(game.num_actions, dtype=np.bool_)
    n = game.kernels.legal_mask(state._a, mask)
    assert n == mask.sum() and np.array_equal(mask, state.legal_mask())
    assert game.kernels == Kernels.of(game.module.rules)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_label_names_the_player_count_only_when_it_varies(game: Game) -> None:
    label = game.label(game.max_players)
    assert label.startswith(game.title)
    assert (str(game.max_players) in label) == (game.min_players != game.max_players)


def test_options_are_checked_and_filled() -> None:
    duel = get_game("duel")
    assert duel.check_options(None) == {} and duel.check_options({"turn_cap": 0}) == {}
    assert duel.check_options({}, bots_only=True) == {
        "turn_cap": duel.options["turn_cap"].bot_default
    }
    assert duel.check_options({"turn_cap": 50}) == {"turn_cap": 50}
    for bad in (-1, 1 << 31, "7", 1.5, True):
        with pytest.raises(ValueError, match="turn_cap .*D25"):
            duel.check_options({"turn_cap": bad})
    with pytest.raises(ValueError, match="unknown option.*allowed: turn_cap"):
        duel.check_options({"speed": 1})
    with pytest.raises(ValueError, match="allowed: none"):
        get_game("classic").check_options({"turn_cap": 10})
    assert duel.deal(seed=2, turn_cap=30).turn_cap == 30


def test_an_option_says_what_is_allowed() -> None:
    option = GameOption("cap", None, 1, 9, "X1", "a cap", off=0)
    assert option.check(0) is None and option.check(9) == 9
    with pytest.raises(ValueError, match=r"between 1 and 9 \(0 for none\) \(X1\), got 10"):
        option.check(10)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_parts_resolve_and_an_unknown_one_is_named(game: Game) -> None:
    for role in game.parts:
        assert game.part(role) is not None
    with pytest.raises(KeyError, match="no part 'nothing'"):
        game.part("nothing")


def test_a_descriptor_is_frozen() -> None:
    with pytest.raises(AttributeError):
        GAMES[0].num_actions = 1  # type: ignore[misc]
