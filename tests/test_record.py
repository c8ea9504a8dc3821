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
        (
            lambda d: d["actions"].append(_capped_record(6)[1].actions[5]),  # a legal 6th
            "decision cap of 5, but it holds 6 actions",
        ),
        (lambda d: d["result"].update(decision_cap=4), "decision cap of 4, but it holds 5"),
        (
            lambda d: d["result"].update(winners=[0]),
            r"winners \[0\] does not match the replayed game \(\[\]\): a game stopped by its "
            "decision cap has no winner",
        ),
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
    data["result"] = dict(
        data["result"], winners=[], end_reason="decision_cap", decision_cap=len(rec.actions)
    )
    with pytest.raises(
        RecordError, match="stopped by a decision cap.*but its actions finish the game"
    ):
        GameRecord.from_dict(data).replay()


# ------------------------------------------------------------------ malformed records (issue 14)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (
            lambda d: d.update(metadata=5),
            "field 'metadata' must be an object (or null), got a whole number",
        ),
        (
            lambda d: d.update(metadata=[1, 2]),
            "field 'metadata' must be an object (or null), got a list",
        ),
        (
            lambda d: d.update(metadata="ab"),
            "field 'metadata' must be an object (or null), got a string",
        ),
        (lambda d: d.update(options=[]), "field 'options' must be an object (or null), got a list"),
        (
            lambda d: d.update(options=0),
            "field 'options' must be an object (or null), got a whole number",
        ),
        (
            lambda d: d.update(players=[1, 2]),
            "field 'players' must hold names (strings); name 1 is a whole number",
        ),
        (lambda d: d.update(players=["a", None]), "name 2 is null"),
        (lambda d: d.update(started_at={"a": 1}), "field 'started_at' must be an ISO 8601 time"),
        (
            lambda d: d.update(num_players=True),
            "field 'num_players' must be a whole number of seats, got true",
        ),
        (lambda d: d.update(seed="7"), "field 'seed' must be a whole number, got a string"),
        (lambda d: d.update(seed=10**5000), "field 'seed' is out of range"),
        (lambda d: d.update(num_players=10**30), "field 'num_players' is out of range"),
        (lambda d: d.update(version="1"), "unsupported record version '1'"),
        (lambda d: d.update(version=True), "unsupported record version True"),
        (lambda d: d.update(actions=["pass", 3]), "action 2 is not a string but a whole number"),
        (lambda d: d.update(result=[1]), "field 'result' must be an object or null, got a list"),
        (
            lambda d: d["result"].update(scores="x"),
            "result 'scores' must be a list of 2 whole numbers",
        ),
        (
            lambda d: d["result"].update(scores=[1]),
            "result 'scores' must be a list of 2 whole numbers",
        ),
        (
            lambda d: d["result"].update(winners=[5]),
            "result 'winners' must be a list of distinct seats 0..1",
        ),
        (lambda d: d["result"].update(winners=[0, 0]), "distinct seats"),
        (
            lambda d: d["result"].update(end_reason=[1]),
            "result 'end_reason' must be a string or null, got a list",
        ),
        (
            lambda d: d["result"].update(turns="70"),
            "result 'turns' must be a whole number >= 0, got '70'",
        ),
        (
            lambda d: d["result"].update(turns=-1),
            "result 'turns' must be a whole number >= 0, got -1",
        ),
        (
            lambda d: d["result"].pop("turns"),
            "result 'turns' must be a whole number >= 0, got None",
        ),
        (lambda d: d["result"].update(extra={1: 2}), "has a key 1 that is not a string"),
        (lambda d: d["metadata"].update(x=float("nan")), "holds nan, which is not a JSON number"),
        (lambda d: d["metadata"].update(x=10**4500), "holds a number of more than 4000 digits"),
        (
            lambda d: d["metadata"].update(x=b"bytes"),
            "holds a Python bytes, which JSON cannot hold",
        ),
        (lambda d: d["metadata"].update(x=_nested(100)), "nested more than 64 levels deep"),
        (lambda d: d["metadata"].update(x=_nested(100_000)), "nested more than 64 levels deep"),
        (
            lambda d: d["result"].update(
                forfeit={"seat": 10**400, "reason": ""}, end_reason="forfeit"
            ),
            "forfeit seat a whole number of 1329 bits is not a seat",
        ),
    ],
)
def test_every_malformed_field_is_a_record_error_naming_it(mutate, message):
    _, rec = _finished_record()
    data = json.loads(rec.to_json())
    mutate(data)
    with pytest.raises(RecordError) as err:
        GameRecord.from_dict(data)
    assert message in str(err.value)
    assert "\n" not in str(err.value) and len(str(err.value)) < 400


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    "data, message",
    [
        ([1, 2], "a record must be a JSON object, got a list"),
        ("text", "a record must be a JSON object, got a string"),
        (None, "a record must be a JSON object, got null"),
        ({}, "not a game record: 'format' must be 'splendor-record', got None"),
    ],
)
def test_a_record_that_is_not_an_object(data, message):
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(data)


@pytest.mark.parametrize(
    "text, message",
    [
        ("[" * 100_000, "nested too deeply"),
        (
            '{"format": "splendor-record", "version": ' + "1" * 5001 + "}",
            "a number of more digits than Python reads",
        ),
        ('{"format": "splendor-record", "metadata": NaN}', "NaN is not a JSON number"),
        (b"\xff\xfe{}", "not UTF-8 text"),
        ("", "not valid JSON"),
    ],
    ids=["deep", "huge-number", "nan", "not-utf8", "empty"],
)
def test_text_that_is_not_a_record(tmp_path, text, message):
    path = tmp_path / "bad.json"
    (path.write_bytes if isinstance(text, bytes) else path.write_text)(text)
    with pytest.raises(RecordError, match=message) as err:
        GameRecord.load(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(text)


def test_metadata_nested_deeper_than_the_limit_is_refused_from_text():
    _, rec = _finished_record()
    text = rec.to_json()
    deep = text[: text.rindex("}")].rstrip().rstrip("}") + '"x": ' + "[" * 200 + "]" * 200 + "}}"
    assert json.loads(deep)["metadata"]["x"]  # valid JSON, 200 levels deep
    with pytest.raises(RecordError, match="field 'metadata' is nested more than 64 levels deep"):
        GameRecord.from_json(deep)


def test_a_too_large_file_is_refused_unread(tmp_path, monkeypatch):
    import splendor.record as record

    monkeypatch.setattr(record, "MAX_RECORD_BYTES", 1000)
    _, rec = _finished_record()
    path = rec.save(tmp_path / "big.json")
    assert path.stat().st_size > 1000
    with pytest.raises(RecordError, match="is larger than"):
        GameRecord.load(path)


def test_a_read_record_writes_back_as_it_was_read():
    """Nothing is converted on reading: to_dict gives back the same document."""
    _, rec = _finished_record()
    data = json.loads(rec.to_json())
    data["metadata"] = {"arena": {"think_s": [0.5, 1.25], "note": None, "deep": _nested(10)}}
    again = GameRecord.from_dict(data)
    assert again.to_dict() == data
    data["metadata"]["arena"]["note"] = "changed"  # the record holds its own copy
    assert again.metadata["arena"]["note"] is None


def test_a_tampered_turn_count_or_end_reason_is_detected():
    _, rec = _finished_record()
    for key, value in (("turns", rec.result["turns"] + 1), ("end_reason", "turn_cap")):
        data = json.loads(rec.to_json())
        data["result"][key] = value
        with pytest.raises(
            RecordError, match=f"record result {key} .* does not match the replayed game"
        ):
            GameRecord.from_dict(data).replay()


def test_a_huge_action_is_quoted_short():
    _, rec = _finished_record()
    data = rec.to_dict()
    data["actions"][0] = "x" * 100_000
    with pytest.raises(RecordError, match="action 1 .* is malformed") as err:
        GameRecord.from_dict(data).replay()
    assert len(str(err.value)) < 1000 and "\n" not in str(err.value)


# ------------------------------------------------------------------ effects


def _duel_record(seed: int = 4) -> GameRecord:
    from splendor.bots import RandomBot as Bot

    _state, record = play_game([Bot(seed), Bot(seed + 1)], game="duel", seed=seed)
    return record


def test_effects_are_written_read_back_and_checked(tmp_path):
    """The record tells what the rules did besides each action (privileges, abilities
    resolved without a choice, extra turns: D7-D19); a record whose effects are not the
    replayed game's is refused."""
    record = _duel_record()
    assert record.effects is None and "effects" not in record.to_dict()
    told = record.with_effects()
    assert told.effects, "a whole Duel game moves privileges at least"
    assert {e["kind"] for e in told.effects} & {"privilege", "token", "steal", "royal", "again"}
    assert all(0 <= e["action"] < len(told.actions) for e in told.effects)
    path = told.save(tmp_path / "duel.json")
    back = GameRecord.load(path)
    assert back.effects == told.effects
    back.replay()
    # the same actions give the same effects; a changed one is refused
    first = dict(back.effects[0])
    first["seat"] = 1 - first["seat"]
    with pytest.raises(RecordError, match="record effect 1 .* does not match the replayed game"):
        GameRecord.from_dict({**back.to_dict(), "effects": [first, *back.effects[1:]]}).replay()
    with pytest.raises(RecordError, match="holds 0 effects but the replayed game has"):
        GameRecord.from_dict({**back.to_dict(), "effects": []}).replay()


@pytest.mark.parametrize(
    "effects, message",
    [
        ({}, "'effects' must be a list or null"),
        ([3], "record effect 1 must be an object"),
        ([{"action": 10**6, "kind": "again", "seat": 0}], "'action' must be the 0-based index"),
        ([{"action": 0, "kind": "again"}], "record effect 1: an effect has the fields"),
        (
            [
                {
                    "action": 0,
                    "kind": "win",
                    "seat": 0,
                    "source": -1,
                    "color": -1,
                    "cell": "",
                    "item": -1,
                    "count": 1,
                }
            ],
            "effect kind must be one of",
        ),
    ],
)
def test_malformed_effects_are_refused_on_load(effects, message):
    record = _duel_record()
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict({**record.to_dict(), "effects": effects})
