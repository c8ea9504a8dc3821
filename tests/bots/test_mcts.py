"""Information-set MCTS (splendor.bots.mcts / search / playout) for both games."""

from __future__ import annotations

import numpy as np
import pytest

from splendor import classic, duel
from splendor.bots import make_bot, parse_bot_spec
from splendor.bots.mcts import MCTSBot, warm_up
from splendor.bots.search import new_tree
from splendor.match import play_game

GAMES = [classic, duel]


def _midgame(module, seed: int, decisions: int = 30, players: int = 2):
    st = module.new_game(players, seed)
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        legal = st.legal_actions()
        st.apply(legal[int(rng.integers(len(legal)))])
        if st.is_terminal:
            break
    return st


@pytest.mark.parametrize("module", GAMES, ids=["classic", "duel"])
@pytest.mark.parametrize("seed", range(4))
def test_early_stop_keeps_the_choice_and_saves_iterations(module, seed):
    """An iteration budget ends early only when the leader can no longer be overtaken:
    the decision is the one the whole budget gives."""
    saved = 0
    for depth in (0, 3, 8):
        st = _midgame(module, depth + seed)
        legal = st.legal_actions()
        if len(legal) < 2:
            continue
        obs = st.observation(st.current_player)
        full = MCTSBot(iterations=3000, seed=seed, early_stop=False)
        quick = MCTSBot(iterations=3000, seed=seed)
        assert quick.choose(obs, legal) == full.choose(obs, legal)
        assert full.last is not None and quick.last is not None
        assert full.last.iterations == 3000 and quick.last.iterations <= 3000
        best = max(quick.last.visits.values())
        others = sorted(quick.last.visits.values())[:-1] or [0]
        if quick.last.iterations < 3000:
            assert best - max(others) > 3000 - quick.last.iterations
        saved += 3000 - quick.last.iterations
    assert saved > 0


@pytest.mark.parametrize("module", GAMES, ids=["classic", "duel"])
def test_choice_is_legal_and_search_counts_iterations(module):
    st = _midgame(module, 3)
    bot = MCTSBot(iterations=300, seed=1, early_stop=False)
    legal = st.legal_actions()
    choice = bot.choose(st.observation(st.current_player), legal)
    assert choice in legal
    assert bot.last is not None and bot.last.iterations == 300
    assert sum(bot.last.visits.values()) == 300
    assert set(bot.last.visits) <= {str(a) for a in legal}


@pytest.mark.parametrize("module", GAMES, ids=["classic", "duel"])
def test_iteration_budget_is_deterministic_per_seed(module):
    st = _midgame(module, 5)
    obs = st.observation(st.current_player)
    legal = st.legal_actions()
    a = MCTSBot(iterations=200, seed=9)
    b = MCTSBot(iterations=200, seed=9)
    assert a.choose(obs, legal) == b.choose(obs, legal)
    assert a.last.visits == b.last.visits


@pytest.mark.parametrize("module", GAMES, ids=["classic", "duel"])
def test_search_reads_only_the_observation(module):
    """C16/D22: two states that differ only in hidden cards give the same observation, so
    the same seeded search must give the same tree."""
    st = _midgame(module, 11)
    seat = st.current_player
    obs = st.observation(seat)
    other = module.determinize(obs, 123)  # a different hidden deal, same information set
    assert other.observation(seat).array.tobytes() == obs.array.tobytes()
    assert other.to_dict() != st.to_dict()
    one = MCTSBot(iterations=150, seed=4)
    two = MCTSBot(iterations=150, seed=4)
    one.choose(st.observation(seat), st.legal_actions())
    two.choose(other.observation(seat), other.legal_actions())
    assert one.last.visits == two.last.visits


@pytest.mark.parametrize("module", GAMES, ids=["classic", "duel"])
def test_single_legal_action_needs_no_search(module):
    st = module.new_game(2, 0)
    only = st.legal_actions()[:1]
    bot = MCTSBot(iterations=50, seed=0)
    assert bot.choose(st.observation(0), only) == only[0]
    assert bot.last is None


def test_time_budget_is_respected():
    """The search stops at its time budget. Compiling the kernels is not part of a move's
    budget (the terminal and the server warm them up first): on a fresh clone the first
    search compiled for 13 s inside the budget, so the test warms up too."""
    warm_up()
    st = classic.new_game(2, 2)
    bot = MCTSBot(seconds=0.2, seed=0)
    bot.choose(st.observation(0), st.legal_actions())
    assert bot.last.iterations > 0
    assert 0.15 <= bot.last.seconds < 1.0


@pytest.mark.parametrize("players", [3, 4])
def test_multiplayer_classic_plays_to_the_end(players):
    bots = [MCTSBot(iterations=40, seed=i) for i in range(players)]
    state, rec = play_game(bots, game="splendor", seed=7, max_decisions=60)
    assert len(rec.actions) == 60 or state.is_terminal


def test_rewards_are_max_n_for_each_player():
    """The tree stores, per node, the reward of the seat that moved into it: in a 3-player
    game every seat's decisions appear with rewards in [0, 1]."""
    st = classic.new_game(3, 1)
    bot = MCTSBot(iterations=4000, seed=2)
    links, stats = bot.search(st.observation(0))
    used = int(bot.last.nodes)
    players = set(int(p) for p in links[4, 1:used])
    assert players == {0, 1, 2}
    visited = stats[0, 1:used] > 0
    means = stats[2, 1:used][visited] / stats[0, 1:used][visited]
    assert np.all((means >= 0) & (means <= 1))


@pytest.mark.parametrize("module", GAMES, ids=["classic", "duel"])
def test_compiled_determinization_matches_observation(module):
    st = _midgame(module, 21, decisions=40)
    seat = st.current_player
    obs = st.observation(seat)
    seen = set()
    for k in range(5):
        d = module.determinize(obs, k)
        assert d.observation(seat).array.tobytes() == obs.array.tobytes()
        seen.add(d.array.tobytes())
        d.legal_actions()  # a sound, playable position
    assert len(seen) > 1


def test_mcts_beats_random_in_duel():
    wins = 0
    for g in range(4):
        seat = g % 2
        bots = [make_bot("random", seed=g), make_bot("random", seed=g)]
        bots[seat] = MCTSBot(iterations=300, seed=g)
        _, rec = play_game(bots, game="duel", seed=g, options={"turn_cap": 400})
        wins += rec.result["winners"] == [seat]
    assert wins == 4


def test_mcts_beats_random_in_classic():
    wins = 0
    for g in range(4):
        seat = g % 2
        bots = [make_bot("random", seed=g), make_bot("random", seed=g)]
        bots[seat] = MCTSBot(iterations=300, seed=g)
        _, rec = play_game(bots, game="splendor", seed=g)
        wins += rec.result["winners"] == [seat]
    assert wins == 4


@pytest.mark.parametrize(
    "kwargs",
    [
        {"seconds": None},
        {"iterations": 0},
        {"seconds": -1.0},
        {"playout": "smart"},
        {"iterations": 10, "max_playout": -1},
        {"iterations": 10, "margin": 1.5},
        {"iterations": 10, "margin": -0.1},
    ],
)
def test_bad_configuration_is_refused(kwargs):
    with pytest.raises(ValueError):
        MCTSBot(**kwargs)


def test_wrong_observation_type_is_refused():
    st = classic.new_game(2, 0)
    with pytest.raises(TypeError, match="Observation"):
        MCTSBot(iterations=5).choose(st, st.legal_actions())


def test_tree_capacity_must_be_positive():
    with pytest.raises(ValueError):
        new_tree(0)


@pytest.mark.parametrize(
    "spec, seconds, iterations, playout",
    [
        ("mcts", 1.0, None, None),
        ("mcts:250ms", 0.25, None, None),
        ("mcts:5000:random", None, 5000, "random"),
        ("mcts:2s:greedy", 2.0, None, "greedy"),
        ("mcts:1s:heuristic", 1.0, None, "heuristic"),
        ("medium", 0.05, None, None),
    ],
)
def test_specs_build_configured_bots(spec, seconds, iterations, playout):
    p = parse_bot_spec(spec)
    assert (p.seconds, p.iterations, p.playout) == (seconds, iterations, playout)
    bot = make_bot(spec, seed=1)
    assert isinstance(bot, MCTSBot)
    assert (bot.seconds, bot.iterations, bot.playout) == (seconds, iterations, playout)
    assert bot.name == p.label


@pytest.mark.parametrize("spec", ["mcts:0", "mcts:fast", "mcts:1s:clever", "hard:2", "mcts:1:2:3"])
def test_bad_specs_name_what_is_allowed(spec):
    with pytest.raises(ValueError) as e:
        parse_bot_spec(spec)
    assert any(w in str(e.value) for w in ("budget", "playout", "options", "takes no"))


def test_run_budget_counts_stops_and_refuses() -> None:
    """The budget loop both bots share (:func:`splendor.bots.search.run_budget`)."""
    from splendor.bots import search as _search

    links, stats, _size = _search.new_tree(8)
    calls: list[int] = []

    def step(want: int) -> int:
        calls.append(want)
        return want

    assert (
        _search.run_budget(
            step, links, stats, seconds=None, iterations=70, early_stop=False, chunk=32
        )
        == 70
    )
    assert calls == [32, 32, 6]
    # a full tree ends the search with what ran
    assert (
        _search.run_budget(
            lambda want: want - 1, links, stats, seconds=None, iterations=70, early_stop=False
        )
        == 31
    )
    # a decided root ends it early: one child with 50 visits, 30 iterations left
    links[_search.T_CHILD, 0] = 1
    stats[0, 1] = 50.0
    calls.clear()
    assert (
        _search.run_budget(
            step, links, stats, seconds=None, iterations=40, early_stop=True, chunk=10
        )
        == 10
    )
    with pytest.raises(ValueError, match="cannot be determinized"):
        _search.run_budget(
            lambda want: -1, links, stats, seconds=1.0, iterations=None, early_stop=False
        )
    with pytest.raises(ValueError, match="needs a budget"):
        _search.run_budget(step, links, stats, seconds=None, iterations=None, early_stop=False)
