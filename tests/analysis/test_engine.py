"""Post-game analysis (issue 19): the numbers of :mod:`splendor.analysis.engine`, from what
each seat could see (C16, D22), for both games and 2-4 players."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from splendor import classic, duel
from splendor.analysis import Analyser, GameAnalysis, Settings, analyse, decisions, judge
from splendor.analysis.engine import Decision, MoveAnalysis
from splendor.bots import make_bot
from splendor.match import play_game
from splendor.record import GameRecord, RecordError

QUICK = Settings(iterations=96, seed=3)


def greedy_record(
    game: str, players: int, seed: int, max_decisions: int | None = None
) -> GameRecord:
    """A game between greedy bots (quick), stopped after ``max_decisions`` if given."""
    agents = [make_bot("greedy", seed + k) for k in range(players)]
    _, record = play_game(agents, game=game, seed=seed, max_decisions=max_decisions)
    return record


def state_before(record: GameRecord, index: int) -> object:
    """The record's position before its action ``index``."""
    module = record.game_module()
    state = record.new_state()
    for text in record.actions[:index]:
        state.apply(module.action_type.parse(text))
    return state


@pytest.mark.parametrize(("game", "module"), [("splendor", classic), ("duel", duel)])
def test_records_that_differ_only_in_hidden_cards_get_the_same_analysis(
    game: str, module: object
) -> None:
    """C16 / D22: the analysis of a move reads its seat's observation, never the hidden
    cards. A twin position deals the unseen cards (the opponent's blind reserves, the
    decks' order) anew: same observation, other hidden cards, same analysis; and the
    searches really differ when the hidden cards are read (the full twin states differ)."""
    record = greedy_record(game, 2, seed=11, max_decisions=30)
    analyser = Analyser(QUICK)
    judged = 0
    for d in decisions(record):
        if judged == 3:
            break
        state = state_before(record, d.index)
        twin = module.determinize(state.observation(d.seat), 1000 + d.index)  # type: ignore[attr-defined]
        assert not np.array_equal(twin.array, state.array)  # other hidden cards
        seen = twin.observation(d.seat).array
        assert np.array_equal(seen, d.observation)  # the same observation
        first = analyser.decision(game, d)
        again = analyser.decision(game, Decision(d.index, d.seat, d.turn, seen, d.action, d.played))
        assert first == again
        judged += not first.forced
    assert judged == 3


@dataclass
class DealtRecord(GameRecord):
    """A record whose deal is given (a twin of a seeded deal), to build records that
    differ only in hidden cards."""

    deal: object = None

    def new_state(self) -> object:
        return self.deal.copy()  # type: ignore[attr-defined]


def test_two_records_that_differ_only_in_a_blind_reserve_get_the_same_analysis() -> None:
    """C16: Bob reserves the top card of level 1's deck, blind; the two records deal that
    deck in different orders (the face-up cards are the same), so Bob holds a different
    card in each. Ann's next moves are analysed the same in both: her analysis never reads
    Bob's reserve nor the deck."""
    first = classic.new_game(2, 21)
    for k in range(50):
        twin = classic.determinize(first.observation(0), k)
        a, b = first.copy(), twin.copy()
        for state in (a, b):
            for text in ("take W U G", "reserve d1"):
                state.apply(text)
        if a.players[1].reserved != b.players[1].reserved:  # Bob holds another card
            break
    else:  # pragma: no cover - 50 deals of level 1's 36 cards
        pytest.fail("no twin deal with another top card")
    actions = ["take W U G", "reserve d1", "take R K W", "take U G R", "take W G K"]
    records = [
        DealtRecord("splendor", 2, ["ann", "bob"], 21, actions=list(actions), deal=deal)
        for deal in (first, twin)
    ]
    one, other = (analyse(r, [0], QUICK) for r in records)
    assert [m.index for m in one.moves] == [0, 2, 4]
    assert one.moves == other.moves
    assert one.moves[1].label != "forced" and one.moves[1].alternatives


def test_decisions_carry_observations_not_states() -> None:
    """What the search is given hides the decks' order: every decision's array is its
    seat's observation, which differs from the state wherever something is hidden."""
    record = greedy_record("splendor", 2, seed=5, max_decisions=12)
    found = list(decisions(record, [1]))
    assert [d.seat for d in found] == [1] * len(found) and found
    for d in found:
        state = state_before(record, d.index)
        assert np.array_equal(d.observation, state.observation(1).array)
        assert not np.array_equal(d.observation, state.array)
        assert record.actions[d.index] == d.played


@pytest.mark.parametrize(
    ("game", "players"), [("splendor", 2), ("splendor", 3), ("splendor", 4), ("duel", 2)]
)
def test_every_move_is_judged_consistently(game: str, players: int) -> None:
    record = greedy_record(game, players, seed=7, max_decisions=6 * players)
    result = analyse(record, settings=QUICK)
    assert result.complete and result.total == len(record.actions) == len(result.moves)
    assert [m.index for m in result.moves] == list(range(len(record.actions)))
    module = record.game_module()
    for m in result.moves:
        assert m.played == record.actions[m.index]
        if m.forced:
            assert m.legal == 1 and m.best is None and m.loss is None
            continue
        assert m.legal > 1 and m.best is not None
        module.action_type.parse(m.best)
        assert m.before is not None and m.after is not None and m.loss is not None
        assert 0.0 <= m.after <= 1.0 and 0.0 <= m.before <= 1.0
        assert m.loss == pytest.approx(max(0.0, m.before - m.after))
        assert m.label == judge.label(m.loss, m.best == m.played)
        assert m.alternatives[0]["move"] == m.best
        assert m.iterations >= QUICK.iterations  # type: ignore[operator]
    summaries = result.summaries()
    assert [s.seat for s in summaries] == list(range(players))
    assert sum(s.moves + s.forced for s in summaries) == len(result.moves)


def test_analysing_one_seat_gives_the_same_numbers_as_analysing_all() -> None:
    record = greedy_record("duel", 2, seed=4, max_decisions=16)
    every = analyse(record, settings=QUICK)
    one = analyse(record, [1], QUICK)
    assert one.seats == [1]
    assert one.moves == [m for m in every.moves if m.seat == 1]


def _throwaway(record: GameRecord) -> tuple[object, object] | None:
    """At the winner's last decision of a Duel ``record`` won on points: a move that does
    not win, after which the opponent wins with one decision (D20), with the position;
    None when there is none."""
    last = len(record.actions) - 1
    state = state_before(record, last)
    seat = state.current_player  # type: ignore[attr-defined]
    for a in state.legal_actions():  # type: ignore[attr-defined]
        after = state.copy()  # type: ignore[attr-defined]
        after.apply(a)
        if after.is_terminal or after.current_player == seat:
            continue
        for reply in after.legal_actions():
            end = after.copy()
            end.apply(reply)
            if end.is_terminal and end.winners == [1 - seat]:
                return state, a
    return None


def test_throwing_away_a_won_game_is_a_blunder() -> None:
    """D20: 20 prestige points win at once. At a winner's last decision, the winning move
    is the engine's (win probability near 1), and a move after which the opponent wins at
    once is a blunder with a loss near 1."""
    for seed in range(60):
        record = greedy_record("duel", 2, seed=seed)
        if record.result and record.result["end_reason"] == "points":
            found = _throwaway(record)
            if found is not None:
                break
    else:  # pragma: no cover - seed 3 has one
        pytest.fail("no game in which the winner could have thrown the game away")
    state, throw = found
    last = len(record.actions) - 1
    seat = state.current_player  # type: ignore[attr-defined]
    obs = state.observation(seat)  # type: ignore[attr-defined]
    turn = state.turn + 1  # type: ignore[attr-defined]
    winning = duel.Action.parse(record.actions[last])
    analyser = Analyser(Settings(iterations=400, seed=0))
    good = analyser.decision(
        "duel", Decision(last, seat, turn, obs.array, winning.id, str(winning))
    )
    assert good.label == "best" and good.before is not None and good.before > 0.95
    bad = analyser.decision("duel", Decision(last, seat, turn, obs.array, throw.id, str(throw)))  # type: ignore[attr-defined]
    assert bad.label == "blunder" and bad.loss is not None and bad.loss > 0.5, bad
    assert bad.best is not None and bad.best != bad.played


def test_json_round_trip_and_corrupt_analyses() -> None:
    record = greedy_record("splendor", 2, seed=2, max_decisions=8)
    result = analyse(record, settings=QUICK)
    data = result.to_dict()
    back = GameAnalysis.from_dict(data)
    assert back.to_dict() == data
    assert data["summaries"][0]["moves"] + data["summaries"][0]["forced"] == 4
    with pytest.raises(ValueError, match="format"):
        GameAnalysis.from_dict({**data, "format": "chess"})
    with pytest.raises(ValueError, match="seat"):
        GameAnalysis.from_dict({**data, "moves": [{**data["moves"][0], "seat": 5}]})
    with pytest.raises(ValueError, match="label"):
        GameAnalysis.from_dict({**data, "moves": [{**data["moves"][0], "label": "brilliant"}]})
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        GameAnalysis.from_dict({**data, "moves": [{**data["moves"][1], "after": 1.5}]})
    with pytest.raises(ValueError, match="unknown analysis setting"):
        GameAnalysis.from_dict({**data, "settings": {"depth": 3}})
    with pytest.raises(ValueError, match="version"):
        GameAnalysis.from_dict({**data, "version": 9})
    with pytest.raises(ValueError, match="must be an object"):
        MoveAnalysis.from_dict([], 2)


def test_bad_requests_are_refused_clearly() -> None:
    record = greedy_record("splendor", 2, seed=2, max_decisions=4)
    with pytest.raises(ValueError, match=r"seats are 0\.\.1"):
        analyse(record, [2], QUICK)
    with pytest.raises(ValueError, match="time per move"):
        Settings(seconds=0)
    with pytest.raises(ValueError, match="iterations"):
        Settings(iterations=0)
    with pytest.raises(ValueError, match="focus_share"):
        Settings(focus_share=2.0)
    with pytest.raises(ValueError, match="mix"):
        Settings(mix=1.5)
    broken = GameRecord(record.game, 2, record.players, record.seed, actions=["take W W W W"])
    with pytest.raises(RecordError, match="action 1"):
        analyse(broken, settings=QUICK)
    d = next(decisions(record))
    legal = {a.id for a in classic.Observation(d.observation).legal_actions()}
    illegal = next(i for i in range(classic.NUM_ACTIONS) if i not in legal)
    with pytest.raises(ValueError, match="not legal"):
        Analyser(QUICK).decision("splendor", Decision(0, 0, 1, d.observation, illegal, "x"))


def test_a_network_of_another_game_is_refused(tmp_path: object) -> None:
    from splendor.bots.network import PolicyValueNet

    path = f"{tmp_path}/duel.npz"
    PolicyValueNet.initial("duel", 2, (4, 4), seed=0).save(path)
    record = greedy_record("splendor", 2, seed=2, max_decisions=2)
    with pytest.raises(ValueError, match="plays duel"):
        analyse(record, settings=Settings(iterations=8, network=path))


def test_a_focused_search_adds_visits_to_the_judged_move_only() -> None:
    """``NetBot.search(focus=...)``: the same search, then iterations through the judged
    decision alone; every other root decision keeps exactly the statistics it had."""
    from splendor.bots import search as tree
    from splendor.bots.net_bot import NetBot

    obs = duel.new_game(2, 3).observation(0)
    plain = NetBot(None, iterations=200, seed=1, early_stop=False)
    links, stats = plain.search(obs)
    children = {a: (n, q) for a, n, q in tree.root_children(links, stats[:3])}
    rare = min(children, key=lambda a: children[a][0])
    focused = NetBot(None, iterations=200, seed=1, early_stop=False)
    links2, stats2 = focused.search(obs, focus=rare, focus_visits=150)
    after = {a: (n, q) for a, n, q in tree.root_children(links2, stats2[:3])}
    assert after[rare][0] >= 150 > children[rare][0]
    assert {a: v for a, v in after.items() if a != rare} == {
        a: v for a, v in children.items() if a != rare
    }
    assert stats2[0, 0] == 200 + after[rare][0] - children[rare][0]
    assert focused.last is not None and focused.last.iterations == 200  # the search before
    legal = {a.id for a in obs.legal_actions()}
    with pytest.raises(ValueError, match="not a legal decision"):
        focused.search(obs, focus=next(i for i in range(duel.NUM_ACTIONS) if i not in legal))
