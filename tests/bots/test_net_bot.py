"""The network bot (:mod:`splendor.bots.net_bot`, issue 17): whole games from its own
observation, the same choices for the same seed, and its spec ``net:[BUDGET:]FILE``."""

from __future__ import annotations

import pytest

from splendor import classic, duel
from splendor.bots import RandomBot, make_bot, parse_bot_spec
from splendor.bots.net_bot import NetBot
from splendor.bots.network import PolicyValueNet
from splendor.match import play_game


@pytest.mark.parametrize("game, players", [("classic", 2), ("classic", 3), ("duel", 2)])
def test_it_plays_whole_games_from_its_observation(game: str, players: int, tmp_path) -> None:
    path = PolicyValueNet.initial(game, players, hidden=(32, 16), seed=1).save(tmp_path / "n.npz")
    bot = make_bot(f"net:40:{path}", seed=3)
    assert isinstance(bot, NetBot) and bot.name == f"net:40:{path}"
    agents = [bot] + [RandomBot(k) for k in range(1, players)]
    final, record = play_game(
        agents, game="splendor" if game == "classic" else "duel", seed=2, max_decisions=300
    )
    record.replay()  # every decision it made was legal
    assert bot.last is not None and bot.last.iterations == 40
    assert sum(bot.last.visits.values()) == 39  # the first iteration evaluates the root


def test_the_same_seed_gives_the_same_choices() -> None:
    net = PolicyValueNet.initial("duel", 2, hidden=(16, 8), seed=4)
    state = duel.new_game(seed=6)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    picks = {str(NetBot(net, iterations=60, seed=9).choose(obs, legal)) for _ in range(3)}
    assert len(picks) == 1


def test_specs_and_mismatches_are_refused_clearly(tmp_path) -> None:
    assert parse_bot_spec("net:x.npz").seconds == 1.0
    p = parse_bot_spec("net:250ms:nets/a.npz")
    assert (p.kind, p.seconds, p.command) == ("net", 0.25, "nets/a.npz")
    assert parse_bot_spec("net:800:a.npz").iterations == 800
    with pytest.raises(ValueError, match="needs a network file"):
        parse_bot_spec("net:")
    with pytest.raises(ValueError, match="bad search budget"):
        parse_bot_spec("net:soon:a.npz")
    with pytest.raises((ValueError, OSError)):
        make_bot(f"net:{tmp_path / 'missing.npz'}")
    net = PolicyValueNet.initial("duel", 2, hidden=(8, 4))
    state = classic.new_game(2, seed=1)
    with pytest.raises(ValueError, match="network plays duel with 2 players, not classic with 2"):
        NetBot(net, iterations=5).choose(state.observation(0), state.legal_actions())
    with pytest.raises(ValueError, match="positive budget"):
        NetBot(net, seconds=0)
