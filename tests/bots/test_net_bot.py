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
    assert parse_bot_spec("net:800").iterations == 800 and parse_bot_spec("net:800").command == ""
    assert (parse_bot_spec("net").seconds, parse_bot_spec("net:2s").seconds) == (1.0, 2.0)
    with pytest.raises(ValueError, match="no network file after the budget"):
        parse_bot_spec("net:1s:")
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


@pytest.mark.parametrize("level, seconds", [("hard", 0.05), ("expert", 1.0)])
def test_the_top_levels_are_the_shipped_network_with_their_time(level: str, seconds: float) -> None:
    """``hard`` and ``expert`` (issue 17) search with the shipped network, each with its own
    time per decision; a level takes no options."""
    p = parse_bot_spec(level)
    assert (p.kind, p.label, p.seconds, p.iterations, p.command) == (
        "net",
        level,
        seconds,
        None,
        "",
    )
    bot = make_bot(level, seed=2)
    assert isinstance(bot, NetBot) and (bot.name, bot.seconds) == (level, seconds)
    with pytest.raises(ValueError, match="takes no options"):
        parse_bot_spec(f"{level}:2s")


def test_the_shipped_network_or_mcts_where_none_ships(tmp_path, monkeypatch) -> None:
    """``net`` without a file plays the network shipped for the game and player count
    (:mod:`splendor.bots.nets`), and MCTS with the same budget where none ships."""
    from splendor.bots import net_bot
    from splendor.bots.mcts import MCTSBot

    path = PolicyValueNet.initial("classic", 2, hidden=(16, 8), seed=3).save(tmp_path / "c.npz")
    monkeypatch.setattr(
        net_bot, "shipped_path", lambda game, n: path if (game, n) == ("classic", 2) else None
    )
    two, four = classic.new_game(2, seed=1), classic.new_game(4, seed=1)
    bot = make_bot("net:30", seed=5)
    links, stats = bot.search(two.observation(0))
    assert stats.shape[0] == 4 and bot.last.iterations == 30  # the network's tree (priors)
    links, stats = bot.search(four.observation(0))
    assert stats.shape[0] == 3  # MCTS's tree
    mcts = MCTSBot(iterations=30, seed=5)
    mcts.search(four.observation(0))
    assert bot.last.visits == mcts.last.visits  # the same search, budget and seed


def test_a_network_carries_its_play_settings() -> None:
    """``mix`` and ``exploration`` left out are the network's ``info["play"]``."""
    net = PolicyValueNet.initial("duel", 2, hidden=(16, 8), seed=4)
    tuned = PolicyValueNet(**{**net.__dict__, "info": {"play": {"mix": 1.0, "exploration": 0.7}}})
    state = duel.new_game(seed=6)
    obs = state.observation(state.current_player)

    def visits(bot: NetBot) -> dict[str, int]:
        bot.search(obs)
        assert bot.last is not None
        return bot.last.visits

    by_info = visits(NetBot(tuned, iterations=200, seed=2, early_stop=False))
    explicit = visits(
        NetBot(net, iterations=200, seed=2, mix=1.0, exploration=0.7, early_stop=False)
    )
    default = visits(NetBot(net, iterations=200, seed=2, early_stop=False))
    assert by_info == explicit and by_info != default


def test_the_shipped_networks_are_found_by_game_and_player_count() -> None:
    from splendor.bots import nets

    for name in nets.shipped():
        game, players = name.split("-")
        path = nets.shipped_path(game, int(players.rstrip("p")))
        assert path is not None and path.stem == name
        net = PolicyValueNet.load(path)
        assert (net.game, f"{net.num_players}p") == (game, players)
    assert nets.shipped_path("classic", 9) is None


@pytest.mark.parametrize("game", ["classic", "duel"])
def test_the_priors_temperature(game: str) -> None:
    """With ``temperature`` T the root's priors are the network's policy to the power
    1/T, renormalised (the softmax of the logits over T); the network's own
    ``info["play"]["temperature"]`` is the default."""
    from dataclasses import replace

    import numpy as np

    from splendor.bots import net_search
    from splendor.bots.net_bot import tempered
    from splendor.bots.search import NO_NODE, T_ACTION, T_CHILD, T_SIBLING

    module = classic if game == "classic" else duel
    net = PolicyValueNet.initial(game, 2, hidden=(16, 8), seed=2)
    net = replace(net, wp=net.wp * np.float32(30.0))  # priors far from uniform
    state = module.new_game(2, 3) if game == "classic" else duel.new_game(seed=3)
    obs = state.observation(state.current_player)
    policy, _ = net.evaluate(state)

    def root_priors(bot: NetBot) -> dict[int, float]:
        links, stats = bot.search(obs)
        out, ch = {}, int(links[T_CHILD, 0])
        while ch != NO_NODE:
            out[int(links[T_ACTION, ch])] = float(stats[net_search.S_PRIOR, ch])
            ch = int(links[T_SIBLING, ch])
        return out

    for t in (1.0, 2.5):
        want = policy ** (1.0 / t)
        want /= want.sum()
        got = root_priors(NetBot(net, iterations=1, seed=0, temperature=t))
        assert got and all(abs(p - want[a]) < 1e-4 for a, p in got.items())
    flat = root_priors(NetBot(net, iterations=1, seed=0, temperature=2.5))
    played = replace(net, info={"play": {"temperature": 2.5}})
    assert root_priors(NetBot(played, iterations=1, seed=0)) == flat
    assert max(flat.values()) < max(root_priors(NetBot(net, iterations=1, seed=0)).values())
    assert tempered(net, 1.0)[4] is net.wp
    with pytest.raises(ValueError, match="temperature must be above 0"):
        NetBot(net, iterations=1, temperature=0.0)
    with pytest.raises(ValueError, match="lookahead must be 0 or more decisions"):
        NetBot(net, iterations=1, lookahead=-1)
