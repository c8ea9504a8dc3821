"""What the training commands' run configs share (:mod:`splendor.train.runs`)."""

from __future__ import annotations

import pytest

from splendor.train.runs import check_game


def test_a_run_names_its_game_by_package_and_a_player_count_it_allows() -> None:
    assert check_game("classic", 4).name == "splendor"
    assert check_game("duel", 2).name == "duel"
    with pytest.raises(ValueError, match="Splendor Duel has 2 players, got 3"):
        check_game("duel", 3)
    with pytest.raises(ValueError, match="Splendor has 2-4 players, got 5"):
        check_game("classic", 5)
    with pytest.raises(ValueError, match="game must be classic or duel, got 'splendor'"):
        check_game("splendor", 2)
