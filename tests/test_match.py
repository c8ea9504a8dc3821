"""play_game: forfeits of failing agents, and forfeit results in game records."""

from __future__ import annotations

import json

import pytest

from splendor import classic, duel
from splendor.bots import RandomBot
from splendor.bots.base import BotError
from splendor.match import AgentError, failure_reason, play_game
from splendor.record import GameRecord, RecordError, forfeit_result


class FailsAt(RandomBot):
    """A random bot that, at its ``at``-th decision (0-based), raises or answers ``bad``."""

    def __init__(self, seed: int, at: int, error: BaseException | None = None, bad=None):
        super().__init__(seed)
        self.calls = 0
        self.at, self.error, self.bad = at, error, bad
        self.seen: list = []

    def choose(self, observation, legal):
        self.calls += 1
        self.seen.append(observation)
        if self.calls - 1 == self.at:
            if self.error is not None:
                raise self.error
            return self.bad
        return super().choose(observation, legal)


def _forfeit_game(bot_seat: int, players: int = 3, game: str = "splendor", **kw):
    agents = [RandomBot(10 + i) for i in range(players)]
    agents[bot_seat] = FailsAt(bot_seat, **kw)
    state, rec = play_game(agents, game=game, seed=4, forfeit_on_error=True)
    return agents[bot_seat], state, rec


def _valid_forfeit(rec: GameRecord, seat: int, tmp_path) -> GameRecord:
    loaded = GameRecord.load(rec.save(tmp_path / "g.json"))
    assert loaded.to_dict() == rec.to_dict()
    final = loaded.replay()
    assert not final.is_terminal and final.current_player == seat
    return loaded


def test_an_agent_that_raises_forfeits(tmp_path):
    bot, state, rec = _forfeit_game(1, at=6, error=RuntimeError("kaboom"))
    assert state.current_player == 1 and not state.is_terminal
    # the state is the one seat 1 failed to decide in: the bot's last observation
    assert state.observation(1).to_dict() == bot.seen[-1].to_dict()
    assert rec.result == {
        "scores": state.scores,
        "winners": [0, 2],
        "end_reason": "forfeit",
        "turns": state.turn,
        "forfeit": {"seat": 1, "reason": "RuntimeError: kaboom"},
    }
    assert state == _valid_forfeit(rec, 1, tmp_path).replay()


def test_a_bot_error_forfeits_with_its_reason(tmp_path):
    _, state, rec = _forfeit_game(0, players=2, game="duel", at=3, error=BotError("it broke"))
    assert rec.result["forfeit"] == {"seat": 0, "reason": "it broke"}
    assert rec.result["winners"] == [1] and rec.result["turns"] == state.turn
    _valid_forfeit(rec, 0, tmp_path)


@pytest.mark.parametrize(
    "bad, reason",
    [
        (classic.Action.parse("buy 3.1"), "seat 2 chose buy 3.1, which is not legal now"),
        ("xyzzy", "seat 2 answered 'xyzzy', which is not an action: "),
        (None, "seat 2 answered None, which is not an action: "),
        (10**6, "seat 2 answered 1000000, which is not an action: "),
    ],
)
def test_an_illegal_answer_forfeits(bad, reason, tmp_path):
    _, state, rec = _forfeit_game(2, players=4, at=0, bad=bad)
    assert state.turn == 2 and len(rec.actions) == 2  # seats 0 and 1 played
    assert rec.result["forfeit"]["seat"] == 2 and rec.result["winners"] == [0, 1, 3]
    assert rec.result["forfeit"]["reason"].startswith(reason)
    _valid_forfeit(rec, 2, tmp_path)


def test_without_forfeit_errors_are_raised():
    agents = [RandomBot(1), FailsAt(2, at=2, error=RuntimeError("kaboom"))]
    with pytest.raises(RuntimeError, match="kaboom"):
        play_game(agents, seed=1)
    agents = [RandomBot(1), FailsAt(2, at=2, bad=classic.Action.parse("buy 3.1"))]
    with pytest.raises(AgentError, match="seat 1 chose buy 3.1, which is not legal now"):
        play_game(agents, seed=1, forfeit_on_error=False)


def test_forfeit_only_for_the_listed_seats():
    agents = [RandomBot(1), FailsAt(2, at=2, error=ValueError("person quit"))]
    with pytest.raises(ValueError, match="person quit"):
        play_game(agents, seed=1, forfeit_on_error={0})
    agents = [RandomBot(1), FailsAt(2, at=2, error=ValueError("bot broke"))]
    _, rec = play_game(agents, seed=1, forfeit_on_error={1})
    assert rec.result["forfeit"] == {"seat": 1, "reason": "ValueError: bot broke"}


def test_keyboard_interrupt_is_never_a_forfeit():
    agents = [RandomBot(1), FailsAt(2, at=1, error=KeyboardInterrupt())]
    with pytest.raises(KeyboardInterrupt):
        play_game(agents, seed=1, forfeit_on_error=True)


def test_a_game_without_failures_is_unchanged_by_forfeit_on_error():
    plain = play_game([RandomBot(1), RandomBot(2)], seed=8)[1]
    guarded = play_game([RandomBot(1), RandomBot(2)], seed=8, forfeit_on_error=True)[1]
    assert guarded.actions == plain.actions and guarded.result == plain.result
    assert "forfeit" not in plain.result


def test_failure_reason():
    assert failure_reason(BotError("timed out")) == "timed out"
    assert failure_reason(AgentError("seat 1 chose x")) == "seat 1 chose x"
    assert failure_reason(ZeroDivisionError("division by zero")) == (
        "ZeroDivisionError: division by zero"
    )
    assert failure_reason(RuntimeError()) == "RuntimeError"


# ------------------------------------------------------------------ forfeit records


def _forfeit_dict() -> dict:
    _, _, rec = _forfeit_game(1, at=5, error=RuntimeError("kaboom"))
    return json.loads(rec.to_json())


def _replay(data: dict) -> None:
    GameRecord.from_dict(data).replay()


def test_forfeit_record_round_trips():
    data = _forfeit_dict()
    rec = GameRecord.from_dict(data)
    assert rec.to_dict() == data
    rec.replay()


def test_tampered_forfeit_winners_are_rejected():
    data = _forfeit_dict()
    data["result"]["winners"] = [1]
    with pytest.raises(
        RecordError,
        match=r"record result winners \[1\] does not match the replayed game \(\[0, 2\]\): "
        "after a forfeit by seat 1 every other seat wins",
    ):
        _replay(data)


def test_tampered_forfeit_scores_are_rejected():
    data = _forfeit_dict()
    data["result"]["scores"][0] += 3
    with pytest.raises(RecordError, match="record result scores .* does not match"):
        _replay(data)


def test_tampered_forfeit_seat_is_rejected():
    data = _forfeit_dict()
    data["result"]["forfeit"]["seat"] = 0  # then the winners do not match
    with pytest.raises(RecordError, match="after a forfeit by seat 0 every other seat wins"):
        _replay(data)
    for seat in (3, -1, "1", True, None):
        data["result"]["forfeit"]["seat"] = seat
        with pytest.raises(
            RecordError, match=f"forfeit seat {seat!r} is not a seat of this 3-player"
        ):
            GameRecord.from_dict(data)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda r: r.pop("forfeit"), "ends by forfeit but has no 'forfeit' object"),
        (lambda r: r.update(forfeit="seat 1"), "ends by forfeit but has no 'forfeit' object"),
        (lambda r: r["forfeit"].pop("reason"), "forfeit has no 'reason' text"),
        (lambda r: r.update(end_reason="points"), "has a 'forfeit' but its end_reason is 'points'"),
    ],
)
def test_malformed_forfeit_results_are_rejected(change, message):
    data = _forfeit_dict()
    change(data["result"])
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(data)


@pytest.mark.parametrize("game", ["splendor", "duel"])
def test_a_forfeit_whose_actions_finish_the_game_is_rejected(game):
    agents = [RandomBot(1), RandomBot(2)]
    final, rec = play_game(agents, game=game, seed=6)
    assert final.is_terminal
    loser = 1 - final.winners[0]
    rec.result = forfeit_result(final, loser, "made up")
    data = json.loads(rec.to_json())
    with pytest.raises(
        RecordError,
        match=f"record says seat {loser} forfeited, but its actions finish the game "
        f"\\({final.end_reason}, {final.turn} turns\\)",
    ):
        _replay(data)


def test_records_without_forfeits_still_validate():
    final, rec = play_game([RandomBot(1), RandomBot(2)], game="duel", seed=2)
    data = json.loads(rec.to_json())
    assert set(data["result"]) == {"scores", "winners", "end_reason", "turns"}
    assert GameRecord.from_dict(data).replay() == final
    unfinished = play_game([RandomBot(1), RandomBot(2)], seed=2, max_decisions=7)[1]
    assert unfinished.result is None
    GameRecord.from_dict(json.loads(unfinished.to_json())).replay()
    # an ordinary result on an unfinished game is still refused
    data = json.loads(unfinished.to_json())
    data["result"] = {"scores": [0, 0], "winners": [0], "end_reason": "points", "turns": 3}
    with pytest.raises(RecordError, match="do not finish the game"):
        _replay(data)


def test_a_forfeit_before_any_action_validates(tmp_path):
    st = duel.new_game(seed=9)
    rec = GameRecord(game="duel", num_players=2, players=["a", "b"], seed=9)
    rec.result = forfeit_result(st, 0, "gone")
    assert rec.result["winners"] == [1] and rec.result["scores"] == [0, 0]
    GameRecord.load(rec.save(tmp_path / "d.json")).replay()
