"""Ratings of rated games (:mod:`splendor.server.ratings`): game kinds, Glicko-2 for the
2-player kinds (Glickman's worked example), OpenSkill Plackett-Luce for 3-4 players, shared
victories (C15), and the stored form of a rating."""

from __future__ import annotations

import json
import math

import pytest
from openskill.models import PlackettLuce

from splendor.server.ratings import (
    DUEL,
    GLICKO2,
    KINDS,
    OPENSKILL_PL,
    SPLENDOR_2,
    SPLENDOR_MULTI,
    Rating,
    game_kind,
    glicko2_period,
    initial_rating,
    update,
)


def glicko(value: float, deviation: float = 200.0, volatility: float = 0.06) -> Rating:
    return Rating(GLICKO2, value, deviation, volatility, 10)


def multi(value: float = 1500.0, deviation: float = 350.0) -> Rating:
    return Rating(OPENSKILL_PL, value, deviation, None, 0)


# --- game kinds ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "players", "kind"),
    [
        ("splendor", 2, SPLENDOR_2),
        ("splendor", 3, SPLENDOR_MULTI),
        ("splendor", 4, SPLENDOR_MULTI),
        ("duel", 2, DUEL),
        ("classic", 2, SPLENDOR_2),
        ("splendor-duel", 2, DUEL),
    ],
)
def test_game_kind(game: str, players: int, kind: str) -> None:
    """Classic Splendor is rated apart with 2 and with 3-4 players; Duel on its own."""
    assert game_kind(game, players) == kind


def test_game_kind_uses_the_engines_game_names() -> None:
    """The names are those the descriptors register and the server stores."""
    from splendor.game import games

    classic, duel = games()
    assert game_kind(classic.name, 2) == SPLENDOR_2
    assert game_kind(duel.name, 2) == DUEL
    assert game_kind("Splendor-Duel", 2) == DUEL  # any spelling get_game knows
    assert KINDS == (SPLENDOR_2, SPLENDOR_MULTI, DUEL)


@pytest.mark.parametrize(
    ("game", "players", "message"),
    [
        ("splendor", 1, "2 to 4 players, not 1"),
        ("splendor", 5, "2 to 4 players, not 5"),
        ("duel", 3, "2 players, not 3"),
        ("duel", 1, "2 players, not 1"),
        ("chess", 2, "unknown game 'chess'"),
        ("", 2, "unknown game ''"),
    ],
)
def test_game_kind_refuses(game: str, players: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        game_kind(game, players)


def test_initial_ratings() -> None:
    """A newcomer: 1500 +- 350 in every kind; Glicko-2 volatility 0.06, OpenSkill none."""
    for kind in (SPLENDOR_2, DUEL):
        assert initial_rating(kind) == Rating(GLICKO2, 1500.0, 350.0, 0.06, 0)
    assert initial_rating(SPLENDOR_MULTI) == Rating(OPENSKILL_PL, 1500.0, 350.0, None, 0)
    with pytest.raises(ValueError, match="unknown game kind 'splendor'"):
        initial_rating("splendor")


# --- Glicko-2, 2 players -------------------------------------------------------------------


def test_glicko2_paper_example() -> None:
    """Glickman's worked example (glicko2.pdf): 1500/200/0.06 against 1400/30, 1550/100 and
    1700/300, scoring 1, 0, 0, ends at 1464.06 / 151.52 / 0.05999. (The paper rounds its
    intermediate values; exact arithmetic gives 1464.05.)"""
    player = Rating(GLICKO2, 1500.0, 200.0, 0.06, 7)
    opponents = [glicko(1400, 30), glicko(1550, 100), glicko(1700, 300)]
    after = glicko2_period(player, opponents, [1.0, 0.0, 0.0])
    assert after.value == pytest.approx(1464.06, abs=0.015)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)
    assert after.games == 10
    assert after.system == GLICKO2


def test_glicko2_period_refuses() -> None:
    player = glicko(1500)
    with pytest.raises(ValueError, match="one score per opponent"):
        glicko2_period(player, [], [])
    with pytest.raises(ValueError, match="one score per opponent"):
        glicko2_period(player, [glicko(1500)], [1.0, 0.0])
    with pytest.raises(ValueError, match=r"within \[0, 1\]"):
        glicko2_period(player, [glicko(1500)], [2.0])
    with pytest.raises(ValueError, match=r"within \[0, 1\]"):
        glicko2_period(player, [glicko(1500)], [math.nan])
    with pytest.raises(ValueError, match="needs 'glicko2' ratings"):
        glicko2_period(player, [multi()], [1.0])


@pytest.mark.parametrize("kind", [SPLENDOR_2, DUEL])
def test_a_2_player_win_moves_both_ratings(kind: str) -> None:
    """The winner rises, the loser falls, by the same amount when their deviations are equal
    (roughly: their volatilities may move apart a little); both deviations shrink."""
    a, b = glicko(1600, 120), glicko(1500, 120)
    for winner in (0, 1):
        new_a, new_b = update(kind, [a, b], [winner])
        gain_a, gain_b = new_a.value - a.value, new_b.value - b.value
        assert (gain_a > 0) == (winner == 0) and (gain_b > 0) == (winner == 1)
        assert abs(gain_a) > 5 and abs(gain_b) > 5
        assert gain_a + gain_b == pytest.approx(0.0, abs=0.05)
        assert new_a.deviation < a.deviation and new_b.deviation < b.deviation
        assert new_a.games == new_b.games == 11


def test_a_2_player_game_updates_each_player_against_the_other() -> None:
    """Seat i's new rating is one Glicko-2 period against the other's rating before the game."""
    a, b = glicko(1700, 80, 0.05), glicko(1450, 250, 0.07)
    assert update(DUEL, [a, b], [1]) == [
        glicko2_period(a, [b], [0.0]),
        glicko2_period(b, [a], [1.0]),
    ]


def test_c15_a_shared_victory_between_equals_changes_no_rating() -> None:
    """C15: two winners of a 2-player game drew (0.5 each): equals keep their rating and
    become more certain of it."""
    for start in (initial_rating(DUEL), glicko(1620, 90)):
        new = update(DUEL, [start, start], [0, 1])
        for rating in new:
            assert rating.value == pytest.approx(start.value, abs=1e-9)
            assert rating.deviation < start.deviation
            assert rating.games == start.games + 1
        assert update(SPLENDOR_2, [start, start], [1, 0]) == new


def test_c15_a_shared_victory_moves_unequals_towards_each_other() -> None:
    strong, weak = glicko(1800), glicko(1400)
    new_strong, new_weak = update(SPLENDOR_2, [strong, weak], [0, 1])
    assert new_strong.value < strong.value
    assert new_weak.value > weak.value


def test_an_upset_moves_ratings_more_than_an_expected_win() -> None:
    """The low-rated player beating the high-rated one moves both more than the reverse."""
    low, high = glicko(1400, 100), glicko(1700, 100)
    upset_low, upset_high = update(DUEL, [low, high], [0])
    expected_low, expected_high = update(DUEL, [low, high], [1])
    assert upset_low.value - low.value > 3 * (expected_high.value - high.value) > 0
    assert high.value - upset_high.value > 3 * (low.value - expected_low.value) > 0


def test_an_uncertain_rating_moves_more() -> None:
    """A newcomer's rating (deviation 350) moves more than a settled one's (50)."""
    new_player, settled = glicko(1500, 350), glicko(1500, 50)
    opponent = glicko(1500, 100)
    fast = update(DUEL, [new_player, opponent], [0])[0]
    slow = update(DUEL, [settled, opponent], [0])[0]
    assert fast.value - 1500 > 5 * (slow.value - 1500) > 0


def test_a_volatile_rating_moves_more() -> None:
    """The stored volatility is used: at equal rating and deviation, a volatile player's
    rating moves more and stays less certain."""
    opponent = glicko(1500, 100)
    calm = update(SPLENDOR_2, [glicko(1500, 60, 0.03), opponent], [0])[0]
    volatile = update(SPLENDOR_2, [glicko(1500, 60, 0.3), opponent], [0])[0]
    assert volatile.value - 1500 > calm.value - 1500 > 0
    assert volatile.deviation > calm.deviation + 10


# --- OpenSkill Plackett-Luce, 3-4 players --------------------------------------------------


def test_multiplayer_winner_rises_and_the_others_fall() -> None:
    for seats in (3, 4):
        start = [initial_rating(SPLENDOR_MULTI)] * seats
        new = update(SPLENDOR_MULTI, start, [1])
        assert new[1].value > 1500
        assert all(new[i].value < 1500 for i in range(seats) if i != 1)
        assert len({new[i].value for i in range(seats) if i != 1}) == 1
        assert all(r.deviation < 350 and r.games == 1 for r in new)


def test_multiplayer_is_openskill_plackett_luce_on_the_display_scale() -> None:
    """value = 1500 + 42 (mu - 25), deviation = 42 sigma, computed by openskill's
    PlackettLuce (defaults) with the winners at rank 1 and the others at rank 2."""
    model = PlackettLuce()
    mus, sigmas = [27.0, 25.0, 22.5, 30.0], [5.0, 8.0, 6.5, 3.0]
    start = [multi(1500 + 42 * (m - 25), 42 * s) for m, s in zip(mus, sigmas, strict=True)]
    new = update(SPLENDOR_MULTI, start, [2])
    teams = [[model.rating(mu=m, sigma=s)] for m, s in zip(mus, sigmas, strict=True)]
    expected = model.rate(teams, ranks=[2, 2, 1, 2])
    for rating, team in zip(new, expected, strict=True):
        assert rating.value == pytest.approx(1500 + 42 * (team[0].mu - 25), abs=1e-9)
        assert rating.deviation == pytest.approx(42 * team[0].sigma, abs=1e-9)
        assert rating.volatility is None


def test_c15_a_shared_victory_of_two_of_four_gives_them_equal_changes() -> None:
    """C15: two of four share the victory: from equal ratings they gain the same, less than
    a sole winner; the two others lose the same."""
    start = [initial_rating(SPLENDOR_MULTI)] * 4
    new = update(SPLENDOR_MULTI, start, [3, 0])
    assert new[0] == new[3]
    assert new[1] == new[2]
    assert new[0].value > 1500 > new[1].value
    sole = update(SPLENDOR_MULTI, start, [0])
    assert 1500 < new[0].value < sole[0].value


def test_c15_everyone_sharing_the_victory_changes_no_rating() -> None:
    start = [multi(1500, 300)] * 3
    for rating in update(SPLENDOR_MULTI, start, [0, 1, 2]):
        assert rating.value == pytest.approx(1500, abs=1e-9)
        assert rating.games == 1


def test_ranks_put_a_player_last() -> None:
    """Explicit ranks (lower is better, ties allowed) rank a seat below the other losers."""
    start = [initial_rating(SPLENDOR_MULTI)] * 4
    default = update(SPLENDOR_MULTI, start, [0])
    ranked = update(SPLENDOR_MULTI, start, [0], ranks=[1, 2, 2, 3])
    assert ranked[0].value > ranked[1].value == ranked[2].value > ranked[3].value
    assert ranked[3].value < default[3].value
    assert ranked[1].value > default[1].value
    assert update(SPLENDOR_MULTI, start, [0], ranks=[1, 2, 2, 2]) == default
    assert update(SPLENDOR_MULTI, start, [0], ranks=[0, 5, 5, 5]) == default


def test_multiplayer_results_follow_the_seats() -> None:
    """Permuting the seats (with their ratings and results) permutes the new ratings."""
    start = [multi(1600, 200), multi(1450, 300), multi(1500, 120), multi(1700, 340)]
    new = update(SPLENDOR_MULTI, start, [1, 3])
    order = [2, 0, 3, 1]
    permuted = update(SPLENDOR_MULTI, [start[i] for i in order], [order.index(1), order.index(3)])
    for seat, source in enumerate(order):
        assert permuted[seat].value == pytest.approx(new[source].value, abs=1e-9)
        assert permuted[seat].deviation == pytest.approx(new[source].deviation, abs=1e-9)


def test_updates_are_deterministic() -> None:
    start = [multi(1600, 200), multi(1450, 300), multi(1500, 120)]
    assert update(SPLENDOR_MULTI, start, [2]) == update(SPLENDOR_MULTI, start, [2])
    pair = [glicko(1530, 140), glicko(1490, 60)]
    assert update(DUEL, pair, [0]) == update(DUEL, pair, [0])


# --- refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "ratings", "winners", "ranks", "message"),
    [
        ("chess", [glicko(1500)] * 2, [0], None, "unknown game kind 'chess'"),
        (DUEL, [glicko(1500)] * 3, [0], None, "a duel game has 2 seats, not 3"),
        (SPLENDOR_2, [glicko(1500)], [0], None, "has 2 seats, not 1"),
        (SPLENDOR_MULTI, [multi()] * 2, [0], None, "has 3 or 4 seats, not 2"),
        (SPLENDOR_MULTI, [multi()] * 5, [0], None, "has 3 or 4 seats, not 5"),
        (DUEL, [glicko(1500), multi()], [0], None, "seat 1's rating is 'openskill-pl'"),
        (SPLENDOR_MULTI, [multi(), glicko(1500), multi()], [0], None, "seat 1's rating is"),
        (DUEL, [glicko(1500)] * 2, [], None, "without a winner is not rated"),
        (SPLENDOR_MULTI, [multi()] * 4, [], None, "without a winner is not rated"),
        (DUEL, [glicko(1500)] * 2, [2], None, "winner 2 is not a seat"),
        (DUEL, [glicko(1500)] * 2, [-1], None, "winner -1 is not a seat"),
        (DUEL, [glicko(1500)] * 2, [True], None, "winner True is not a seat"),
        (SPLENDOR_MULTI, [multi()] * 3, [1, 1], None, "list a seat twice"),
        (SPLENDOR_MULTI, [multi()] * 4, [0], [1, 2, 2], "ranks has 3 entries for 4 seats"),
        (SPLENDOR_MULTI, [multi()] * 3, [0], [1, 2, 2, 3], "ranks has 4 entries for 3 seats"),
        (SPLENDOR_MULTI, [multi()] * 3, [0], [2, 1, 3], "are not winners"),
        (SPLENDOR_MULTI, [multi()] * 3, [0], [1, 1, 3], "are not winners"),
        (SPLENDOR_MULTI, [multi()] * 3, [0, 1], [1, 2, 3], "are not winners"),
        (SPLENDOR_MULTI, [multi()] * 3, [0], [1.0, 2.0, 2.0], "ranks must be integers"),
        (DUEL, [glicko(1500)] * 2, [0], [2, 1], "are not winners"),
    ],
)
def test_update_refuses(
    kind: str,
    ratings: list[Rating],
    winners: list[int],
    ranks: list[int] | None,
    message: str,
) -> None:
    with pytest.raises(ValueError, match=message):
        update(kind, ratings, winners, ranks)


# --- the stored form ------------------------------------------------------------------------


def test_rating_round_trips_through_json() -> None:
    ratings = [
        initial_rating(DUEL),
        initial_rating(SPLENDOR_MULTI),
        update(DUEL, [glicko(1531.25, 87.5), glicko(1480)], [0])[0],
        update(SPLENDOR_MULTI, [multi()] * 3, [2])[2],
    ]
    for rating in ratings:
        data = json.loads(json.dumps(rating.to_dict()))
        assert set(data) == {"system", "value", "deviation", "volatility", "games"}
        assert Rating.from_dict(data) == rating


def test_from_dict_accepts_json_integers() -> None:
    data = {"system": "glicko2", "value": 1500, "deviation": 350, "volatility": 0.06, "games": 0}
    rating = Rating.from_dict(data)
    assert rating == initial_rating(SPLENDOR_2)
    assert isinstance(rating.value, float) and isinstance(rating.deviation, float)


GOOD = {"system": "glicko2", "value": 1500.0, "deviation": 350.0, "volatility": 0.06, "games": 3}
GOOD_MULTI = {"system": "openskill-pl", "value": 1500.0, "deviation": 350.0, "volatility": None}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"value": None}, "'value' must be a number"),
        ({"value": "1500"}, "'value' must be a number"),
        ({"value": True}, "'value' must be a number"),
        ({"value": math.nan}, "'value' must be finite"),
        ({"value": math.inf}, "'value' must be finite"),
        ({"value": 1e9}, "'value' must be finite and within"),
        ({"deviation": -10.0}, "'deviation' must be > 0"),
        ({"deviation": 0}, "'deviation' must be > 0"),
        ({"deviation": math.nan}, "'deviation' must be > 0"),
        ({"deviation": 5000.0}, "'deviation' must be > 0 and <= 1000"),
        ({"deviation": [350]}, "'deviation' must be a number"),
        ({"volatility": None}, "'volatility' must be > 0"),
        ({"volatility": -0.06}, "'volatility' must be > 0"),
        ({"volatility": math.inf}, "'volatility' must be > 0"),
        ({"volatility": "0.06"}, "'volatility' must be a number"),
        ({"games": -1}, "'games' must be >= 0"),
        ({"games": 1.5}, "'games' must be an integer"),
        ({"games": "3"}, "'games' must be an integer"),
        ({"games": False}, "'games' must be an integer"),
        ({"system": "elo"}, "'system' must be 'glicko2' or 'openskill-pl'"),
        ({"system": 2}, "'system' must be a string"),
        ({"system": "openskill-pl"}, "'volatility' must be null for 'openskill-pl'"),
        ({"extra": 1}, "unknown rating field 'extra'"),
    ],
)
def test_from_dict_refuses_corrupt_data(changes: dict[str, object], message: str) -> None:
    Rating.from_dict(GOOD)  # the unchanged data is fine
    with pytest.raises(ValueError, match=message):
        Rating.from_dict({**GOOD, **changes})


@pytest.mark.parametrize("field", ["system", "value", "deviation", "volatility", "games"])
def test_from_dict_names_a_missing_field(field: str) -> None:
    data = {key: value for key, value in GOOD.items() if key != field}
    with pytest.raises(ValueError, match=f"rating field '{field}' is missing"):
        Rating.from_dict(data)


@pytest.mark.parametrize("data", [None, [], "rating", 1500, [GOOD]])
def test_from_dict_refuses_what_is_not_an_object(data: object) -> None:
    with pytest.raises(ValueError, match="a rating must be a JSON object"):
        Rating.from_dict(data)


def test_from_dict_multiplayer_rating() -> None:
    assert Rating.from_dict({**GOOD_MULTI, "games": 0}) == initial_rating(SPLENDOR_MULTI)


def test_rating_checks_its_ranges_on_construction() -> None:
    with pytest.raises(ValueError, match="'deviation' must be > 0"):
        Rating(GLICKO2, 1500.0, -1.0, 0.06, 0)
    with pytest.raises(ValueError, match="'volatility' must be null"):
        Rating(OPENSKILL_PL, 1500.0, 300.0, 0.06, 0)
