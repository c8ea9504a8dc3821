"""The parts of the game service on their own (issue 31): a create request is checked
against the game's descriptor (its player range and options, no branch on its name), and
the service hands each job to a part."""

from __future__ import annotations

import pytest

from splendor.game import get_game
from splendor.server.creation import _idempotency, check_request, deal, game_module
from splendor.server.errors import BadRequest

TWO = [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]


def test_game_module_answers_the_descriptor_or_a_bad_request() -> None:
    assert game_module("Splendor-Duel") is get_game("duel")
    assert game_module("classic") is get_game("splendor")
    for bad in ("chess", 3, None):
        with pytest.raises(BadRequest) as e:
            game_module(bad)
        assert e.value.status == 400


def test_options_are_checked_by_the_descriptor() -> None:
    """D25: Duel's turn cap, checked and normalised (0 or None: no cap); Splendor has no
    option. Every refusal is a 400 naming the option."""
    assert check_request("duel", TWO, {"turn_cap": 300}).options == {"turn_cap": 300}
    assert check_request("duel", TWO, {"turn_cap": 0}).options == {}
    assert check_request("duel", TWO, {"turn_cap": None}).options == {}
    assert check_request("duel", TWO).options == {}
    assert check_request("splendor", TWO, {}).options == {}
    refusals = [
        ("splendor", {"turn_cap": 3}, "unknown option"),
        ("duel", {"turn_cap": "x"}, "turn_cap"),
        ("duel", {"turn_cap": -1}, "turn_cap"),
        ("duel", {"turn_cap": True}, "turn_cap"),
        ("duel", {"turn_cap": 2**31}, "turn_cap"),
        ("duel", {"speed": 1}, "unknown option"),
        ("duel", [1], '"options" must be an object'),
    ]
    for game, options, words in refusals:
        with pytest.raises(BadRequest) as e:
            check_request(game, TWO, options)
        assert e.value.status == 400 and words in e.value.message, (game, options)


def test_the_player_range_comes_from_the_descriptor() -> None:
    four = [{"type": "human"}] * 4
    assert check_request("splendor", four).num_players == 4
    with pytest.raises(BadRequest, match="duel is for 2 to 2 players, got 4 seats"):
        check_request("duel", four)
    with pytest.raises(BadRequest, match="splendor is for 2 to 4 players, got 5 seats"):
        check_request("splendor", [*four, {"type": "human"}])
    with pytest.raises(BadRequest, match="at least one human"):
        check_request("splendor", [{"type": "bot", "bot": "random"}] * 2)


def test_a_deal_takes_the_checked_options_and_the_plan_names_the_seats() -> None:
    request = check_request("duel", [{"type": "human"}, {"type": "bot", "bot": "greedy"}])
    assert request.plan == [("human", "Player 1", None), ("bot", "greedy", "greedy")]
    seed, state = deal(request)
    assert state.game is get_game("duel") and 0 <= seed < 2**63
    assert state.to_dict() == get_game("duel").new_game(2, seed).to_dict()


def test_an_idempotency_key_digests_the_checked_request() -> None:
    """The same key with the same game, seats and (checked) options digests the same, so
    a retry finds the game made first; another request does not."""
    key = "k" * 32
    same = [
        _idempotency(key, check_request("duel", TWO, options))
        for options in ({}, {"turn_cap": 0}, None)
    ]
    assert len({i.request_hash for i in same}) == 1
    other = _idempotency(key, check_request("duel", TWO, {"turn_cap": 9}))
    assert other.request_hash != same[0].request_hash and other.key_hash == same[0].key_hash
    with pytest.raises(BadRequest, match="Idempotency-Key"):
        _idempotency("short", check_request("duel", TWO))
