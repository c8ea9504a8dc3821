"""RandomBot: uniform, seeded, always legal."""

from __future__ import annotations

import pytest

from splendor import classic
from splendor.bots import Bot, RandomBot, make_bot
from splendor.match import play_game


def _game_actions(seed_a: int, seed_b: int, deal: int) -> list[str]:
    _, record = play_game([RandomBot(seed_a), RandomBot(seed_b)], game="splendor", seed=deal)
    return record.actions


def test_same_seed_same_choices() -> None:
    assert _game_actions(1, 2, deal=5) == _game_actions(1, 2, deal=5)


def test_different_seeds_differ() -> None:
    games = {tuple(_game_actions(s, 100 + s, deal=5)) for s in range(4)}
    assert len(games) > 1


def test_choices_follow_the_generator() -> None:
    st = classic.new_game(3, seed=11)
    legal = st.legal_actions()
    obs = st.observation(0)
    a, b = RandomBot(7), RandomBot(7)
    assert [a.choose(obs, legal) for _ in range(50)] == [b.choose(obs, legal) for _ in range(50)]
    # uniform: every legal decision comes up in 2000 draws of ~20 choices
    c = RandomBot(3)
    seen = {c.choose(obs, legal) for _ in range(2000)}
    assert seen == set(legal)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_always_legal_to_the_end(players: int) -> None:
    """play_game raises AgentError on an illegal choice; check each choice here too."""
    bots = [RandomBot(10 * players + i) for i in range(players)]
    checked = 0

    class Checking:
        name = "checking"

        def __init__(self, bot: RandomBot) -> None:
            self.bot = bot

        def choose(self, obs, legal):  # type: ignore[no-untyped-def]
            nonlocal checked
            assert legal == obs.legal_actions()
            action = self.bot.choose(obs, legal)
            assert action in legal
            checked += 1
            return action

    state, record = play_game(
        [Checking(b) for b in bots], game="splendor", seed=players, max_decisions=5000
    )
    assert state.is_terminal
    assert checked == len(record.actions) > 0


def test_empty_legal_actions_is_an_error() -> None:
    obs = classic.new_game(2, seed=0).observation(0)
    with pytest.raises(ValueError):
        RandomBot(0).choose(obs, [])


def test_registry_and_protocol() -> None:
    bot = make_bot("random", seed=3)
    assert isinstance(bot, RandomBot)
    assert isinstance(bot, Bot)
    assert bot.name == "random"


# --------------------------------------------------------------------------- Splendor Duel


def _duel_actions(seed_a: int, seed_b: int, deal: int) -> list[str]:
    _, record = play_game(
        [RandomBot(seed_a), RandomBot(seed_b)], game="duel", seed=deal, options={"turn_cap": 400}
    )
    return record.actions


def test_duel_same_seed_same_choices() -> None:
    assert _duel_actions(1, 2, deal=5) == _duel_actions(1, 2, deal=5)
    assert len({tuple(_duel_actions(s, 100 + s, deal=5)) for s in range(3)}) > 1


def test_duel_always_legal_in_every_phase() -> None:
    """Random duel games run to the end (D21 or the turn cap, D25), every choice legal,
    through every kind of decision (payment, joker, token, steal, royal, return…)."""
    phases: set[str] = set()

    class Checking:
        name = "checking"

        def __init__(self, bot: RandomBot) -> None:
            self.bot = bot

        def choose(self, obs, legal):  # type: ignore[no-untyped-def]
            assert legal == obs.legal_actions()
            action = self.bot.choose(obs, legal)
            assert action in legal
            phases.add(obs.phase)
            return action

    for deal in (10, 16, 18, 0):
        state, record = play_game(
            [Checking(RandomBot(deal)), Checking(RandomBot(deal + 1))],
            game="duel",
            seed=deal,
            options={"turn_cap": 400},
        )
        assert state.is_terminal and record.result is not None
    assert phases == {
        "main",
        "reserve",
        "payment",
        "joker",
        "token",
        "steal",
        "royal",
        "return tokens",
    }


def test_duel_empty_legal_actions_is_an_error() -> None:
    from splendor import duel

    obs = duel.new_game(seed=0).observation(0)
    with pytest.raises(ValueError):
        RandomBot(0).choose(obs, [])
