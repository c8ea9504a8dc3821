"""How a bot plays, counted from records (:mod:`splendor.arena.style`, issue 17): each count
checked against another source than the one it is taken from (the decisions against the
final holdings)."""

from __future__ import annotations

import pytest

from splendor.arena.style import STYLE_KEYS, mean_style, seat_style
from splendor.bots import make_bot
from splendor.game import get_game
from splendor.match import play_game


@pytest.mark.parametrize("game, players", [("splendor", 2), ("splendor", 3), ("duel", 2)])
def test_counts_agree_with_the_decisions_and_the_final_holdings(game: str, players: int) -> None:
    for seed in range(4):
        bots = [make_bot("greedy" if k == 0 else "random", seed=seed + k) for k in range(players)]
        final, record = play_game(bots, game=game, seed=seed)
        style = seat_style(record)
        assert len(style) == players
        buys = [0] * players
        reserves = [0] * players
        state = record.new_state()
        for text in record.actions:
            seat = state.current_player
            action = get_game(game).action_type.parse(text)
            buys[seat] += action.kind in ("buy", "buy_faceup", "buy_reserved", "buy_choose")
            reserves[seat] += action.kind.startswith("reserve")
            state.apply(action)
        for seat, s in enumerate(style):
            assert set(s) == set(STYLE_KEYS)
            # a reserved card leaves the reserve only when bought (C8, D9)
            assert (
                s["reserves"] == reserves[seat] == s["reserves_bought"] + s["reserves_never_bought"]
            )
            assert s["reserves_never_bought"] == len(final.player(seat).reserved)
            # every card bought is one buy decision, of one level
            assert s["cards"] == buys[seat] == s["cards_l1"] + s["cards_l2"] + s["cards_l3"]
            if game == "splendor":
                assert s["nobles"] == len(final.player(seat).nobles)
            else:
                assert s["nobles"] == len(final.player(seat).royals)
        returned = [0] * players
        state = record.new_state()
        for text in record.actions:
            returned[state.current_player] += text.startswith("return ")
            state.apply(text)
        assert [s["returns"] for s in style] == returned  # one token per return (C11, D20)


def test_means_per_bot_over_its_seat_games() -> None:
    row = dict.fromkeys(STYLE_KEYS, 0)
    games = [
        {"bots": [0, 1], "style": [{**row, "returns": 2}, {**row, "returns": 5}]},
        {"bots": [1, 0], "style": [{**row, "returns": 1}, {**row, "returns": 4}]},
        {"bots": [0, 1]},  # a summary without a style (an older run): left out
    ]
    assert mean_style(games, 0)["returns"] == 3.0
    assert mean_style(games, 1)["returns"] == 3.0
    assert mean_style(games, 2) is None
