"""Game records (C18): write, read, replay and validate."""

from __future__ import annotations

import json

import pytest

from splendor import classic
from splendor.bots import RandomBot
from splendor.match import AgentError, play_game
from splendor.record import GameRecord, RecordError


def _finished_record(seed: int = 3, players: int = 2) -> tuple[classic.State, GameRecord]:
    return play_game([RandomBot(seed + i) for i in range(players)], seed=seed)


def test_c18_record_replays_to_the_same_final_state(tmp_path):
    final, rec = _finished_record()
    assert final.is_terminal
    path = rec.save(tmp_path / "g.json")
    loaded = GameRecord.load(path)
    assert loaded.to_dict() == rec.to_dict()
    replayed = loaded.replay()
    assert replayed == final  # byte-identical state arrays
    assert loaded.result == {
        "scores": final.scores,
        "winners": final.winners,
        "end_reason": final.end_reason,
        "turns": final.turn,
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_record_round_trips_through_json(players, tmp_path):
    _, rec = _finished_record(seed=11, players=players)
    again = GameRecord.from_dict(json.loads(rec.to_json()))
    assert again.actions == rec.actions and again.players == rec.players
    assert again.replay().scores == rec.result["scores"]


def test_illegal_action_names_first_bad_entry():
    _, rec = _finished_record()
    data = rec.to_dict()
    data["actions"][4] = "buy 3.1"  # nobody can afford a level-3 card on turn 5
    bad = GameRecord.from_dict(data)
    with pytest.raises(RecordError) as err:
        bad.replay()
    assert err.value.index == 4
    assert "action 5" in str(err.value) and "illegal" in str(err.value)


def test_malformed_action_names_first_bad_entry():
    _, rec = _finished_record()
    data = rec.to_dict()
    data["actions"][2] = "take X X X"
    data["actions"][6] = "nonsense"
    with pytest.raises(RecordError) as err:
        GameRecord.from_dict(data).replay()
    assert err.value.index == 2 and "malformed" in str(err.value)


def test_tampered_result_is_detected():
    _, rec = _finished_record()
    data = rec.to_dict()
    data["result"]["scores"] = [99] * rec.num_players
    with pytest.raises(RecordError, match="scores"):
        GameRecord.from_dict(data).replay()


def test_actions_after_the_end_are_rejected():
    _, rec = _finished_record()
    data = rec.to_dict()
    data["actions"].append("pass")
    with pytest.raises(RecordError, match="already over"):
        GameRecord.from_dict(data).replay()


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d.update(version=99), "version"),
        (lambda d: d.pop("seed"), "seed"),
        (lambda d: d.update(actions="take W U G"), "actions"),
        (lambda d: d.update(players=["a"]), "players"),
        (lambda d: d.update(game="chess"), "unknown game"),
    ],
)
def test_corrupt_records_get_clear_errors(mutate, message):
    _, rec = _finished_record()
    data = rec.to_dict()
    mutate(data)
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(data).replay()


def test_unreadable_files(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError, match="not valid JSON"):
        GameRecord.load(broken)


def test_unfinished_record_replays_without_result():
    final, rec = play_game([RandomBot(1), RandomBot(2)], seed=5, max_decisions=20)
    assert rec.result is None and len(rec.actions) == 20
    assert rec.replay() == final and not final.is_terminal


def test_play_game_resumes_from_a_partial_record():
    _, partial = play_game([RandomBot(1), RandomBot(2)], seed=8, max_decisions=15)
    resumed_final, resumed = play_game([RandomBot(3), RandomBot(4)], seed=8, record=partial)
    assert resumed is partial and resumed_final.is_terminal
    assert resumed.replay() == resumed_final


class _Cheater:
    name = "cheater"

    def choose(self, observation, legal_actions):
        return classic.Action.parse("buy 3.1")


def test_agent_choosing_an_illegal_action_is_refused():
    with pytest.raises(AgentError, match="not legal"):
        play_game([_Cheater(), RandomBot(1)], seed=1)


# ------------------------------------------------------------------ decision cap (arena host)


def _capped_record(cap: int = 5) -> tuple[classic.State, GameRecord]:
    """A classic game stopped by a host after ``cap`` decisions (as the arena does)."""
    from splendor.record import decision_cap_result

    final, rec = play_game([RandomBot(1), RandomBot(2)], seed=9, max_decisions=cap)
    assert not final.is_terminal and len(rec.actions) == cap
    rec.result = decision_cap_result(final, cap)
    return final, rec


def test_a_capped_record_has_no_winner_round_trips_and_replays(tmp_path):
    final, rec = _capped_record(5)
    assert rec.result == {
        "scores": list(final.scores),
        "winners": [],
        "end_reason": "decision_cap",
        "turns": final.turn,
        "decision_cap": 5,
    }
    loaded = GameRecord.load(rec.save(tmp_path / "capped.json"))
    assert loaded.to_dict() == rec.to_dict()
    replayed = loaded.replay()
    assert replayed == final and not replayed.is_terminal


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d["actions"].pop(), "decision cap of 5, but it holds 4 actions"),
        (lambda d: d["actions"].append(_capped_record(6)[1].actions[5]),  # a legal 6th
         "decision cap of 5, but it holds 6 actions"),
        (lambda d: d["result"].update(decision_cap=4), "decision cap of 4, but it holds 5"),
        (lambda d: d["result"].update(winners=[0]),
         r"winners \[0\] does not match the replayed game \(\[\]\): a game stopped by its "
         "decision cap has no winner"),
        (lambda d: d["result"].update(scores=[3, 0]), "scores"),
    ],
)
def test_a_tampered_capped_record_is_refused(mutate, message):
    _, rec = _capped_record(5)
    data = json.loads(rec.to_json())
    mutate(data)
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(data).replay()


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(decision_cap=None), "'decision_cap' is None, not a number of decisions >= 1"),
        (dict(decision_cap="5"), "'decision_cap' is '5'"),
        (dict(decision_cap=0), "'decision_cap' is 0"),
        (dict(decision_cap=True), "'decision_cap' is True"),
        (dict(end_reason="points"), "has a 'decision_cap' but its end_reason is 'points'"),
    ],
)
def test_malformed_decision_cap_results_are_refused_on_load(change, message):
    _, rec = _capped_record(5)
    data = json.loads(rec.to_json())
    data["result"].update(change)
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(data)


def test_a_decision_cap_whose_actions_finish_the_game_is_refused():
    _, rec = _finished_record()
    data = rec.to_dict()
    data["result"] = dict(data["result"], winners=[], end_reason="decision_cap",
                          decision_cap=len(rec.actions))
    with pytest.raises(RecordError, match="stopped by a decision cap.*but its actions finish the game"):
        GameRecord.from_dict(data).replay()
