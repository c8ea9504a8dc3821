"""The game protocol and registry (splendor.game)."""

from __future__ import annotations

import pytest

from splendor import classic
from splendor.game import GameState, get_game


def test_registry_knows_the_classic_game_by_both_names():
    assert get_game("splendor") is classic.GAME
    assert get_game("classic") is classic.GAME
    assert get_game(" Classic ") is classic.GAME


def test_unknown_game_lists_known_ones():
    with pytest.raises(ValueError, match="known games: splendor, duel"):
        get_game("chess")


def test_both_games_are_registered_under_their_names_and_aliases():
    from splendor import duel

    assert get_game("duel") is duel.GAME and get_game("splendor-duel") is duel.GAME
    assert get_game("classic") is classic.GAME and get_game("splendor") is classic.GAME
    assert get_game(duel.GAME) is duel.GAME


def test_duel_state_implements_the_protocol():
    from splendor import duel

    assert isinstance(duel.new_game(2, 0), GameState)


def test_classic_state_implements_the_protocol():
    assert isinstance(classic.new_game(2, 0), GameState)


@pytest.mark.parametrize("n", [1, 5])
def test_player_count_checked(n):
    with pytest.raises(ValueError, match="2 to 4 players"):
        classic.GAME.check_players(n)


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, True, "7"])
def test_c18_seed_must_be_a_non_negative_63_bit_integer(seed):
    with pytest.raises(ValueError, match="seed must be an integer"):
        classic.new_game(2, seed)


def test_c18_largest_seed_deals_a_game():
    assert classic.new_game(2, 2**63 - 1) == classic.new_game(2, 2**63 - 1)
