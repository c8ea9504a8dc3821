"""The JSON messages: action JSON, action parsing, and above all what each viewer sees
(C16, D22: no deck order, no generator, no other player's blind reserve; a spectator sees
no blind reserve at all, except a card being paid for)."""

from __future__ import annotations

from datetime import UTC

import pytest

from splendor import classic, duel
from splendor.errors import ParseError
from splendor.server.protocol import (
    MalformedActionError,
    action_json,
    log_entry_json,
    log_json,
    parse_action,
    public_observation,
    state_message,
    state_message_json,
)

from .util import check_message, check_observation, engine_states


def test_action_json_fields() -> None:
    a = classic.Action.parse("take W U G")
    assert action_json(a) == {
        "id": a.id,
        "notation": "take W U G",
        "kind": "take3",
        "colors": [0, 1, 2],
    }
    b = classic.Action.parse("buy 2.3")
    assert action_json(b) == {
        "id": b.id,
        "notation": "buy 2.3",
        "kind": "buy_faceup",
        "level": 2,
        "slot": 3,
    }
    c = duel.Action.parse("take c3 c4 c5")
    j = action_json(c)
    assert (
        j["kind"] == "take"
        and j["cells"] == list(c.cells)
        and "colors" not in j
        and "level" not in j
    )
    r = duel.Action.parse("buy r1")
    assert action_json(r)["reserved"] is True and action_json(r)["slot"] == 1
    assert "reserved" not in action_json(duel.Action.parse("buy 1.1"))


@pytest.mark.parametrize(
    "game, value",
    [
        ("splendor", "fly away"),
        ("splendor", 93),
        ("splendor", -1),
        ("splendor", True),
        ("splendor", 1.5),
        ("splendor", None),
        ("duel", "take z9"),
        ("duel", 296),
        ("duel", ["take c3"]),
    ],
)
def test_parse_action_rejects_malformed(game: str, value: object) -> None:
    with pytest.raises(MalformedActionError) as e:
        parse_action(game, value)
    assert str(e.value)


@pytest.mark.parametrize("raised", [ParseError, ValueError])
def test_parse_action_wraps_the_engines_parse_error(
    monkeypatch: pytest.MonkeyPatch, raised: type[ValueError]
) -> None:
    """An engine's :class:`~splendor.errors.ParseError`, or a bare ValueError from an engine
    written before it, becomes the same MalformedActionError (400): what was sent, the
    engine's reason, and the game's hint."""

    def parse(text: str) -> object:
        raise raised(f"not an action: {text!r}")

    monkeypatch.setattr(classic.Action, "parse", staticmethod(parse))
    with pytest.raises(MalformedActionError) as e:
        parse_action("splendor", "fly away")
    message = str(e.value)
    assert message.startswith("'fly away' is not an action of splendor: not an action: 'fly away'")
    assert "Hint: " in message and e.value.__cause__ is None


def test_parse_action_accepts_ids_and_notation() -> None:
    assert parse_action("splendor", "take g w u") == classic.Action.parse("take W U G")
    assert parse_action("splendor", 0) == classic.Action.from_id(0)
    assert parse_action("duel", "take c5 c3 c4") == duel.Action.parse("take c3 c4 c5")


@pytest.mark.parametrize(
    "game, players", [("splendor", 2), ("splendor", 3), ("splendor", 4), ("duel", 2)]
)
def test_every_view_hides_what_it_must(game: str, players: int) -> None:
    """Every position of biased random games (they reserve blind and buy reserved cards
    often): each seat's and the spectator's message equal the true position minus the
    hidden fields; the check must have met hidden blind reserves and, for each game, a
    blind reserve being paid for."""
    totals = {"hidden_reserves": 0, "paying_blind": 0, "positions": 0}
    for g in range(6 if players == 2 else 3):
        moves: list[tuple[int, str]] = []
        prev = None
        for state in engine_states(game, seed=100 + g, policy_seed=g, num_players=players):
            true = state.to_dict()
            if prev is not None:
                moves.append((prev.current_player, "x"))
            prev = state
            totals["positions"] += 1
            for seat in [None, *range(players)]:
                msg = state_message(
                    game_id="g",
                    game=game,
                    state=state,
                    seat=seat,
                    moves=moves,
                    seats=[],
                    result=None,
                )
                counts = check_message(msg, true, seat)
                for k, v in counts.items():
                    totals[k] += v
                if seat is not None and seat == state.current_player and not state.is_terminal:
                    assert [a["id"] for a in msg["legal_actions"]] == [
                        a.id for a in state.legal_actions()
                    ]
    assert totals["hidden_reserves"] > 0, totals
    assert totals["paying_blind"] > 0, totals


def test_public_observation_hides_every_blind_reserve() -> None:
    """A spectator does not see even the blind reserve of the seat to move (which that
    seat's own observation shows)."""
    state = classic.new_game(2, seed=3)
    state.apply("reserve d1")
    state.apply("reserve d2")
    true = state.to_dict()
    pub = public_observation(state).to_dict()
    assert pub["reserved"][0][0] == -1 and pub["reserved"][1][0] == -1
    assert true["reserved"][0][0] >= 0 and true["reserved"][1][0] >= 0
    assert state.observation(0).to_dict()["reserved"][0][0] == true["reserved"][0][0]
    check_observation(pub, true, None)
    d = duel.new_game(seed=5)
    gold = next(a for a in d.legal_actions() if a.kind == "take_gold")
    d.apply(gold)
    d.apply("reserve d3")
    pub = public_observation(d).to_dict()
    assert d.to_dict()["reserved"][0][0] >= 0 and pub["reserved"][0][0] == -1
    check_observation(pub, d.to_dict(), None)


@pytest.mark.parametrize("game", ["splendor", "duel"])
def test_state_message_json_is_the_state_message(game: str) -> None:
    """The WebSocket text (with the log kept as text, one entry appended per move) parses
    to exactly :func:`state_message`, same keys in the same order, for every viewer."""
    import json

    moves: list[tuple[int, str]] = []
    log = ""
    seats = [
        {"seat": 0, "type": "human", "name": "Ann", "bot": None, "connected": True},
        {"seat": 1, "type": "bot", "name": "Bo", "bot": "random", "connected": True},
    ]
    states = list(engine_states(game, seed=4, policy_seed=9, limit=60))
    for k, state in enumerate(states):
        for seat in (0, 1, None):
            expected = state_message(
                game_id="g",
                game=game,
                state=state,
                seat=seat,
                moves=moves,
                seats=seats,
                result=None,
            )
            text = state_message_json(
                game_id="g",
                game=game,
                state=state,
                seat=seat,
                moves=moves,
                seats=seats,
                result=None,
                log=log,
            )
            got = json.loads(text)
            assert got == expected and list(got) == list(expected)
            assert text == state_message_json(
                game_id="g",
                game=game,
                state=state,
                seat=seat,
                moves=moves,
                seats=seats,
                result=None,
            )
        if state.current_player is not None:  # the log is text kept beside the moves
            entry = log_entry_json(len(moves), int(state.current_player), f"move {k}")
            log = f"{log},{entry}" if log else entry
            moves.append((int(state.current_player), f"move {k}"))
            assert log == log_json(moves)


# --------------------------------------------------------------------------- client input


@pytest.mark.parametrize(
    "text, depth", [("1", 0), ("[]", 1), ('{"a": [1, {"b": []}]}', 4), ("[" * 32 + "]" * 32, 32)]
)
def test_loads_json_accepts_up_to_the_depth(text: str, depth: int) -> None:
    from splendor.server.protocol import json_depth, loads_json

    assert json_depth(loads_json(text)) == depth


@pytest.mark.parametrize(
    "data, words",
    [
        ("[" * 33 + "]" * 33, "nested too deeply"),
        ("[" * 100_000, "nested too deeply"),  # json.loads alone raises RecursionError here
        ('{"a": ' * 5000 + "1" + "}" * 5000, "nested too deeply"),
        ("{", "not valid JSON"),
        (b"\xff\xfe\x00", "not valid JSON"),
        ("1" * 5000, "not valid JSON"),
    ],
)
def test_loads_json_refuses_with_a_message(data: str | bytes, words: str) -> None:
    from splendor.server.protocol import MalformedJSONError, loads_json

    with pytest.raises(MalformedJSONError, match=words):
        loads_json(data)
    with pytest.raises(MalformedJSONError, match="at most 2 levels"):
        loads_json("[[[1]]]", max_depth=2)


@pytest.mark.parametrize(
    "given, cleaned",
    [
        ("Ann", "Ann"),
        ("  Ann \t Lee\n", "Ann Lee"),
        ("A\x00n\x1bn\x7f", "Ann"),  # controls, NUL included
        ("\u202eAnn\u202c \u2066Bo\u2069", "Ann Bo"),  # bidi override, isolate
        ("A\u200bn\u200cn\u200d\u2060\ufeff", "Ann"),  # zero-width
        ("Ann\u2028Bo\u2029", "Ann Bo"),  # line/paragraph separators
        ("Zoe\u0301", "Zo\u00e9"),  # NFC
        ("\U0001f600 Ann", "\U0001f600 Ann"),  # astral characters stay
    ],
)
def test_clean_name(given: str, cleaned: str) -> None:
    from splendor.server.protocol import clean_name

    assert clean_name(given, 40) == cleaned


@pytest.mark.parametrize(
    "given, words",
    [
        ("An\ud800n", "lone surrogate"),
        ("\udfff", "lone surrogate"),
        ("\u200b\x00 \u202e", "visible character"),
        ("", "visible character"),
        ("x" * 41, "1 to 40"),
        (None, "string"),
        (["Ann"], "string"),
    ],
)
def test_clean_name_refuses(given: object, words: str) -> None:
    from splendor.server.protocol import BadNameError, clean_name

    with pytest.raises(BadNameError, match=words):
        clean_name(given, 40)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- moves said


def test_a_live_game_says_its_moves_once_per_language_asked() -> None:
    """Each log entry and ``last_move`` carry the move's sentence in the viewer's
    language (``{seatN}`` for the players); a language's log grows by the new moves only,
    and a game loaded without facts replays them."""
    import json
    from datetime import datetime

    from splendor.move_text import move_facts, move_sentence
    from splendor.server.live import LiveGame

    now = datetime.now(UTC)
    state = duel.new_game(seed=5)
    live = LiveGame("g", "duel", 2, 5, {}, [], now, now, state.copy(), [], None)
    names = ["{seat0}", "{seat1}"]
    expected: list[str] = []
    for _ in range(12):
        action = state.legal_actions()[-1]
        expected.append(move_sentence(state, action, names, "fr"))
        live.add_move(int(state.current_player), str(action), facts=move_facts(state, action))
        state.apply(action)
        texts, log = live.said("fr")
        assert texts == expected and [e["text"] for e in json.loads(f"[{log}]")] == expected
    assert set(live.logs) == {"fr"}  # English was never asked for
    fresh = LiveGame("g", "duel", 2, 5, {}, [], now, now, state, list(live.moves), None)
    assert fresh.said("fr")[0] == expected  # facts replayed from the deal
    message = state_message(
        game_id="g",
        game="duel",
        state=state,
        seat=0,
        moves=live.moves,
        seats=[],
        result=None,
        texts=expected,
    )
    assert message["last_move"]["text"] == expected[-1]
    assert [e["text"] for e in message["log"]] == expected


def test_an_analysis_says_the_move_played_and_the_engines_moves() -> None:
    """An analysis answer gains ``played_text``, ``best_text`` and each alternative's
    ``text``, said in the position before the move (issue 33: no "best: take W G R")."""
    from splendor.move_text import move_sentence
    from splendor.server.analysis_said import Deal, said_analysis

    state = classic.new_game(2, seed=3)
    moves = []
    for _ in range(3):
        action = state.legal_actions()[0]
        moves.append((int(state.current_player), str(action)))
        state.apply(action)
    before = classic.new_game(2, seed=3)
    before.apply(moves[0][1])
    best = before.legal_actions()[-1]
    move = {"index": 1, "played": moves[1][1], "best": str(best)}
    move["alternatives"] = [{"move": str(best)}, {"move": "not a move"}]
    answer = {"status": "done", "data": {"moves": [move]}, "error": None}
    names = ["{seat0}", "{seat1}"]
    played = move_sentence(before, classic.Action.parse(moves[1][1]), names, "fr")
    said = said_analysis(answer, Deal("splendor", 2, 3, {}, moves), ["a", played, "c"], "fr")
    (out,) = said["data"]["moves"]
    assert out["played_text"] == played and "played_text" not in move  # a copy
    assert out["best_text"] == move_sentence(before, best, names, "fr")
    assert [a["text"] for a in out["alternatives"]] == [out["best_text"], None]
