"""The shared observation tensor (splendor.rl.encoding): layout, consistency with the
engine's public observation, and no hidden information (C16, D22)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from splendor import classic, duel
from splendor.rl import encoding
from splendor.rl.encoding import Field, layout, observation_size, observation_tensor

GAMES = [("classic", 2), ("classic", 3), ("classic", 4), ("duel", 2)]
PROPS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def module(game: str):
    return classic if game == "classic" else duel


def played(game: str, n: int, seed: int, steps: int):
    """A state after ``steps`` uniformly random decisions (fewer if the game ends)."""
    st = module(game).new_game(n, seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if st.is_terminal:
            break
        st.apply(int(rng.choice(np.flatnonzero(st.legal_mask()))))
    return st


def positions(game: str, n: int, games: int = 3):
    """States along a few random games, every decision (for sweeping checks)."""
    for seed in range(games):
        st = module(game).new_game(n, seed)
        rng = np.random.default_rng(100 + seed)
        while True:
            yield st
            if st.is_terminal:
                break
            st = st.copy()
            st.apply(int(rng.choice(np.flatnonzero(st.legal_mask()))))


def part(x: np.ndarray, game: str, n: int, name: str) -> np.ndarray:
    f = {f.name: f for f in layout(game, n)}[name]
    return x[f.slice].reshape(f.shape)


# ----------------------------------------------------------------------------- layout


@pytest.mark.parametrize("game,n", GAMES)
def test_layout_tiles_the_tensor(game: str, n: int) -> None:
    fields = layout(game, n)
    assert all(isinstance(f, Field) for f in fields)
    assert len({f.name for f in fields}) == len(fields)
    off = 0
    for f in fields:
        assert f.offset == off, f.name
        assert f.size == int(np.prod(f.shape)) > 0
        assert f.dtype in ("one-hot", "binary", "count", "features")
        assert f.meaning and f.rule and f.high > 0
        off += f.size
    assert off == observation_size(game, n)


def test_sizes_and_actions() -> None:
    assert [observation_size(g, n) for g, n in GAMES] == [405, 473, 541, 816]
    assert observation_size("splendor", 3) == observation_size("classic", 3)
    assert observation_size("splendor-duel") == observation_size("duel")
    assert encoding.num_actions("classic") == classic.NUM_ACTIONS == 93
    assert encoding.num_actions("duel") == duel.NUM_ACTIONS == 296


@pytest.mark.parametrize(
    "call",
    [
        lambda: layout("chess"),
        lambda: layout("classic", 5),
        lambda: layout("classic", 1),
        lambda: layout("duel", 3),
        lambda: encoding.num_actions("go"),
        lambda: observation_size("duel", True),
    ],
)
def test_bad_arguments(call) -> None:
    with pytest.raises(ValueError):
        call()


def test_refuses_a_full_state() -> None:
    """A State holds hidden information: only an Observation may be encoded (C16, D22)."""
    with pytest.raises(TypeError, match="Observation"):
        observation_tensor(classic.new_game(2, 0))
    with pytest.raises(TypeError, match="Observation"):
        observation_tensor(duel.new_game(seed=0))
    with pytest.raises(TypeError):
        observation_tensor(np.zeros(3))


def test_action_mask() -> None:
    st = played("duel", 2, 3, 20)
    m = encoding.action_mask(st)
    assert m.dtype == np.int8 and m.shape == (duel.NUM_ACTIONS,)
    assert np.array_equal(m.astype(bool), st.legal_mask())
    assert np.array_equal(encoding.action_mask(st.observation(0)), m)
    with pytest.raises(TypeError):
        encoding.action_mask(3)


# ------------------------------------------------------------------ layout consistency


def check_kinds(x: np.ndarray, game: str, n: int) -> None:
    """Every field holds the kind of values its layout entry says."""
    assert x.dtype == np.float32 and x.shape == (observation_size(game, n),)
    assert np.all(x >= 0) and np.all(np.isfinite(x))
    assert np.all(x <= encoding.observation_high(game, n))
    for f in layout(game, n):
        v = x[f.slice].reshape(f.shape)
        if f.dtype in ("one-hot", "binary"):
            assert np.isin(v, (0.0, 1.0)).all(), f.name
        if f.dtype == "one-hot":
            assert (v.sum(axis=-1) <= 1).all(), f.name
        if f.dtype == "count":
            assert np.array_equal(v, np.round(v)), f.name


def classic_card(card) -> np.ndarray:
    v = np.zeros(len(encoding.C_CARD_FEATURES), dtype=np.float32)
    if card is None:
        return v
    v[0] = 1
    v[card.level] = 1
    v[4 + card.bonus] = 1
    v[9] = card.points
    v[10:15] = card.cost
    return v


def duel_card(card) -> np.ndarray:
    v = np.zeros(len(encoding.D_CARD_FEATURES), dtype=np.float32)
    if card is None:
        return v
    v[0] = 1
    v[card.level] = 1
    v[4 + (card.color if card.color >= 0 else 6)] = 1
    v[11] = card.bonus_count
    v[12] = card.points
    v[13] = card.crowns
    ab = card.ability
    v[14] = "again" in ab
    v[15] = ab == "token"
    v[16] = ab == "privilege"
    v[17] = ab == "steal"
    v[18] = "joker" in ab
    v[19:25] = card.cost
    return v


def reserved_slot(card, blind: bool, features) -> np.ndarray:
    if isinstance(card, classic.HiddenCard) or isinstance(card, duel.HiddenCard):
        v = np.zeros(len(features(None)) + 2, dtype=np.float32)
        v[0] = 1
        v[card.level] = 1
        v[-2] = 1
    else:
        v = np.concatenate([features(card), [0.0, 0.0]]).astype(np.float32)
    v[-1] = float(blind)
    return v


def check_common(x: np.ndarray, obs, game: str, n: int, phases: dict) -> list[int]:
    """Checks shared by both games; returns the seats in row order (observer first)."""
    me = obs.seat
    order = [(me + k) % n for k in range(n)]
    p = lambda name: part(x, game, n, name)  # noqa: E731
    assert np.array_equal(p("seat"), np.eye(n)[me])
    cur = obs.current_player
    assert np.array_equal(p("current"), np.zeros(n) if cur is None else np.eye(n)[order.index(cur)])
    assert list(phases)[int(np.argmax(p("phase")))] == obs.phase and p("phase").sum() == 1
    assert p("turn")[0] == obs.turn
    assert list(p("deck_sizes")) == list(obs.deck_sizes)
    players = [obs.player(s) for s in order]
    assert np.array_equal(p("players.tokens"), [q.tokens for q in players])
    assert np.array_equal(p("players.bonuses"), [q.bonuses for q in players])
    assert list(p("players.points")) == [q.points for q in players]
    assert list(p("players.cards")) == [len(q.purchased) for q in players]
    assert list(p("players.num_reserved")) == [len(q.reserved) for q in players]
    if obs.phase == "return tokens":
        assert p("return.excess")[0] == sum(obs.player(cur).tokens) - 10 > 0
    else:
        assert p("return.excess")[0] == 0
    pay = obs.payment
    if pay is None:
        assert not p("payment.card").any() and not p("payment.source").any()
        assert not p("payment.need").any() and not p("payment.gold").any()
    else:
        assert list(p("payment.need")) == list(pay[1]) and p("payment.gold")[0] == pay[2]
        assert p("payment.source").sum() == 1
    return order


@pytest.mark.parametrize("n", [2, 3, 4])
def test_classic_tensor_matches_the_observation(n: int) -> None:
    """Decoding every field through layout() gives back the engine's public view (C1-C17)."""
    from splendor.classic.state import PHASE_NAMES

    seen_phases = set()
    for st in positions("classic", n, games=2):
        for seat in range(n):
            obs = st.observation(seat)
            x = observation_tensor(obs)
            check_kinds(x, "classic", n)
            order = check_common(x, obs, "classic", n, PHASE_NAMES.values())
            p = lambda name, x=x: part(x, "classic", n, name)  # noqa: E731
            seen_phases.add(obs.phase)
            assert p("final_round")[0] == obs.final_round
            assert list(p("supply")) == list(obs.supply)
            want = np.array([[classic_card(c) for c in row] for row in obs.faceup])
            assert np.array_equal(p("faceup"), want)
            nob = p("nobles")
            for k, noble in enumerate(obs.nobles):
                if noble is None:
                    assert not nob[k].any()
                else:
                    assert list(nob[k]) == [1, *noble.requirement, noble.points]
            assert list(p("players.nobles")) == [len(obs.player(s).nobles) for s in order]
            res = p("players.reserved")
            for r, s in enumerate(order):
                q = obs.player(s)
                for k in range(3):
                    if k < len(q.reserved):
                        want_slot = reserved_slot(q.reserved[k], q.reserved_blind[k], classic_card)
                        assert np.array_equal(res[r, k], want_slot)
                    else:
                        assert not res[r, k].any()
            if obs.payment is not None:
                assert np.array_equal(p("payment.card"), classic_card(obs.payment[0]))
    assert {"main", "return tokens", "game over"} <= seen_phases


def test_duel_tensor_matches_the_observation() -> None:
    """Decoding every field through layout() gives back the engine's public view (D1-D25)."""
    from splendor.duel.state import PHASE_NAMES

    seen_phases = set()
    for st in positions("duel", 2, games=3):
        for seat in (0, 1):
            obs = st.observation(seat)
            x = observation_tensor(obs)
            check_kinds(x, "duel", 2)
            order = check_common(x, obs, "duel", 2, PHASE_NAMES.values())
            p = lambda name, x=x: part(x, "duel", 2, name)  # noqa: E731
            seen_phases.add(obs.phase)
            board = p("board")
            for cell, v in enumerate(obs.board):
                assert np.array_equal(board[cell], np.zeros(7) if v is None else np.eye(7)[v])
            assert list(p("bag")) == list(obs.bag)
            assert p("free_privileges")[0] == obs.free_privileges
            assert p("replenished")[0] == obs.replenished and p("extra_turn")[0] == obs.extra_turn
            assert p("turn_cap")[0] == 0 and p("turns_left")[0] == 0
            flat = [c for row in obs.pyramid for c in row]
            assert np.array_equal(p("pyramid"), np.array([duel_card(c) for c in flat]))
            players = [obs.player(s) for s in order]
            assert list(p("players.crowns")) == [q.crowns for q in players]
            assert np.array_equal(p("players.color_points"), [q.color_points for q in players])
            assert list(p("players.privileges")) == [q.privileges for q in players]
            royals = p("royals")
            for k, royal in enumerate(duel.ROYALS):
                owner = next((s for s in (0, 1) if royal in obs.player(s).royals), None)
                where = 0 if owner is None else (1 if owner == seat else 2)
                assert np.array_equal(royals[k, :3], np.eye(3)[where])
                assert royals[k, 3] == royal.points
            assert all(
                c >= len(q.royals) for c, q in zip(p("players.royal_claims"), players, strict=True)
            )
            res = p("players.reserved")
            for r, q in enumerate(players):
                for k in range(3):
                    if k < len(q.reserved):
                        want_slot = reserved_slot(q.reserved[k], q.reserved_blind[k], duel_card)
                        assert np.array_equal(res[r, k], want_slot)
                    else:
                        assert not res[r, k].any()
            pend = obs.pending_card
            assert np.array_equal(p("pending.card"), duel_card(pend))
            if pend is None:
                assert not p("pending.effects").any()
            if obs.payment is not None:
                assert np.array_equal(p("payment.card"), duel_card(obs.payment[0]))
    assert {"main", "game over"} <= seen_phases
    assert len(seen_phases) >= 5


def test_duel_turn_cap_fields() -> None:
    """D25: the cap and the turns left are public."""
    st = duel.new_game(seed=4, turn_cap=30)
    st.apply(int(np.flatnonzero(st.legal_mask())[-1]))
    x = observation_tensor(st.observation(1))
    assert part(x, "duel", 2, "turn_cap")[0] == 1
    assert part(x, "duel", 2, "turns_left")[0] == 30 - st.turn


def test_seat_relative() -> None:
    """Row 0 of every per-player field is the observer's (the rest in turn order)."""
    st = played("classic", 3, 5, 30)
    for seat in range(3):
        x = observation_tensor(st.observation(seat))
        tokens = part(x, "classic", 3, "players.tokens")
        for k in range(3):
            assert tuple(tokens[k]) == st.observation(seat).player((seat + k) % 3).tokens


# ------------------------------------------------------------------ hidden information


@PROPS
@given(
    game=hs.sampled_from(GAMES),
    seed=hs.integers(0, 2**32),
    steps=hs.integers(0, 160),
    draw=hs.integers(0, 2**32),
)
def test_tensor_ignores_hidden_information(game, seed, steps, draw) -> None:
    """Another full state consistent with a seat's observation (other deck orders, other
    blind reserves, another generator) gives that seat the same tensor (C16, D22)."""
    name, n = game
    st = played(name, n, seed, steps)
    for seat in range(n):
        obs = st.observation(seat)
        other = module(name).determinize(obs, draw)
        assert np.array_equal(observation_tensor(other.observation(seat)), observation_tensor(obs))


@PROPS
@given(game=hs.sampled_from(GAMES), seed=hs.integers(0, 2**32), steps=hs.integers(0, 150))
def test_tensor_follows_public_information(game, seed, steps) -> None:
    """Every decision changes something public, and every seat's tensor shows it."""
    name, n = game
    st = played(name, n, seed, steps)
    if st.is_terminal:
        return
    before = [observation_tensor(st.observation(s)) for s in range(n)]
    legal = np.flatnonzero(st.legal_mask())
    st.apply(int(legal[seed % len(legal)]))
    for s in range(n):
        assert not np.array_equal(observation_tensor(st.observation(s)), before[s])


def test_blind_reserve_shows_its_level_only() -> None:
    """A blind reserve (C8) is hidden from the other seats: two different level-1 cards
    reserved blind give the opponent the same tensor, and the owner different ones."""
    tensors = {0: [], 1: []}
    cards = set()
    for seed in range(40):
        st = classic.new_game(2, seed)
        st.apply(classic.Action.parse("reserve d1"))
        cid = st.observation(0).player(0).reserved[0].id
        if cid in cards:
            continue
        cards.add(cid)
        for s in (0, 1):
            tensors[s].append(observation_tensor(st.observation(s)))
        if len(cards) == 2:
            break
    # the decks and face-up cards differ between seeds: compare the reserved rows only
    own = [part(x, "classic", 2, "players.reserved")[0] for x in tensors[0]]
    theirs = [part(x, "classic", 2, "players.reserved")[1] for x in tensors[1]]
    assert not np.array_equal(own[0], own[1])
    assert np.array_equal(theirs[0], theirs[1])
    assert theirs[0][0, -2] == 1  # hidden flag


def test_public_edit_changes_the_tensor() -> None:
    """Editing a public field of a state (the supply) changes every seat's tensor."""
    st = classic.new_game(2, 1)
    arr = st.array
    arr[0]["supply"][0] -= 1
    arr[0]["tokens"][1][0] += 1
    other = classic.State(arr)
    for s in (0, 1):
        assert not np.array_equal(
            observation_tensor(other.observation(s)), observation_tensor(st.observation(s))
        )


@pytest.mark.parametrize(
    "game, players", [("classic", 2), ("classic", 3), ("classic", 4), ("duel", 2)]
)
def test_a_seats_tensor_from_the_full_state_is_its_observations(game: str, players: int) -> None:
    """``seat_tensor(state, seat)`` (what the bots' compiled search encodes from each
    determinization) equals the tensor of ``state.observation(seat)`` in every position of
    random games, for every seat: other seats' blind reserves hidden, except the one being
    paid for (C16, D22)."""
    from splendor.encoding import seat_tensor

    module = classic if game == "classic" else duel
    rng = np.random.default_rng(7)
    paying_blind = checked = 0
    for g in range(80):
        if checked > 1000 and paying_blind:
            break
        state = module.new_game(players, seed=g)
        while not state.is_terminal:
            for seat in range(players):
                want = observation_tensor(state.observation(seat))
                assert np.array_equal(seat_tensor(state, seat), want)
                checked += 1
            rec = state._a[0]  # a blind reserve being paid for is public (its exception)
            src = int(rec["pay_src"]) - 12
            if state.phase == "payment" and src >= 0 and rec["reserved_blind"][rec["current"], src]:
                paying_blind += 1
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
    assert checked > 1000 and paying_blind > 0
    with pytest.raises(TypeError, match="full classic or duel State"):
        seat_tensor(module.new_game(players, seed=1).observation(0), 0)
    with pytest.raises(ValueError, match="seat must be"):
        seat_tensor(module.new_game(players, seed=1), players)
