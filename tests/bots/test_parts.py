"""Each game's bot parts (issue 31): the searches, the reach features and greedy's evaluator
read from the game's descriptor (``Game.part``), never chosen by the game's name."""

from __future__ import annotations

import pytest

from splendor.bots.features import ReachLayout, per_seat
from splendor.bots.mcts import PLAYOUTS
from splendor.bots.net_search import NetSearchPart
from splendor.bots.search import PLAYOUT_CODES, SearchPart
from splendor.descriptor import Game
from splendor.game import games, get_game


@pytest.mark.parametrize("game", games(), ids=str)
def test_every_game_declares_its_bot_parts(game: Game) -> None:
    search = game.part("search")
    assert isinstance(search, SearchPart)
    assert search.policy in PLAYOUTS and search.policy in PLAYOUT_CODES
    assert search.depth == (search.max_playout or 1 << 30)
    assert isinstance(game.part("net_search"), NetSearchPart)
    assert isinstance(game.part("reach"), ReachLayout)
    assert per_seat(game) == 3 * 15 + game.part("reach").num_nobles + 4
    state = game.new_game(game.min_players, 0)
    legal = state.legal_actions()
    evaluator = game.part("greedy_evaluator")
    assert len(evaluator(state.observation(state.current_player)).scores(legal)) == len(legal)


def test_the_parts_keep_each_games_tuned_defaults() -> None:
    """The defaults docs/bots.md and docs/analysis.md describe: classic greedy playouts to
    the end (UCB 0.4), Duel heuristic playouts of 16 decisions (UCB 0.7); the analysis
    mixes greedy playouts in classic only."""
    classic, duel = get_game("classic"), get_game("duel")
    c, d = classic.part("search"), duel.part("search")
    assert (c.policy, c.max_playout, c.exploration, c.margin) == ("greedy", 0, 0.4, 0.0)
    assert (d.policy, d.max_playout, d.exploration, d.margin) == ("heuristic", 16, 0.7, 0.0)
    assert classic.part("net_search").analysis_mix == 0.5
    assert duel.part("net_search").analysis_mix is None
    assert (classic.part("reach").num_nobles, duel.part("reach").num_nobles) == (5, 0)
