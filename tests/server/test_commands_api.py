"""``POST /api/commands`` and ``GET /api/commands/{game}`` (issue 33): a move typed in the
reader's language comes back in notation; bad input is a 400 in that language (never a
422 or a 500), the text is capped; the words of a language are served for help texts."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from splendor.commands import MAX_TEXT, CommandError, command_words, to_notation
from splendor.i18n import messages

FR = {"Cookie": "lang=fr"}
NL = {"Accept-Language": "nl-BE,nl;q=0.9,en;q=0.5"}


def _post(client: TestClient, body: Any, headers: dict[str, str] | None = None) -> Any:
    return client.post("/api/commands", json=body, headers=headers or {})


MOVES = [
    ("splendor", "prendre blanc bleu vert", FR, "take W U G"),
    ("splendor", "prendre B U V", FR, "take W U G"),
    ("splendor", "take G W U", FR, "take W U G"),  # English notation, loosely
    ("splendor", "acheter 2.3 choisir", FR, "buy 2.3 choose"),
    ("duel", "neem c3", NL, "take c3"),
    ("duel", "steel Z", NL, "steal K"),
    ("splendor-duel", "take c5 c3 c4", {}, "take c3 c4 c5"),
    ("classic", "buy r1", {}, "buy r1"),
]


def test_a_move_in_words_comes_back_in_notation(client):
    for game, text, headers, notation in MOVES:
        r = _post(client, {"game": game, "text": text}, headers)
        assert r.status_code == 200, (text, r.text)
        assert r.json() == {"notation": notation}


def test_a_move_that_is_no_move_is_refused_in_the_request_language(client):
    for headers, language in ((FR, "fr"), (NL, "nl"), ({}, "en")):
        r = _post(client, {"game": "splendor", "text": "sauter W"}, headers)
        assert r.status_code == 400
        with pytest.raises(CommandError) as e:
            to_notation("splendor", "sauter W", language)
        assert r.json() == {"detail": str(e.value)}
        take = command_words("splendor", language)["verbs"]["take"][0]
        assert take in r.json()["detail"]


def test_the_cookie_wins_over_the_header(client):
    r = _post(client, {"game": "splendor", "text": "neem W B G"}, {**FR, **NL})
    assert r.status_code == 400  # French words only: 'neem' is Dutch
    assert _post(client, {"game": "splendor", "text": "neem W B G"}, NL).json() == {
        "notation": "take W U G"
    }


BAD_TEXTS: list[dict[str, Any]] = [
    {"game": "splendor"},
    {"game": "splendor", "text": None},
    {"game": "splendor", "text": 5},
    {"game": "splendor", "text": ["take", "W"]},
    {"game": "splendor", "text": {"verb": "take"}},
    {"game": "splendor", "text": "take W " * 1000},
    {"game": "splendor", "text": "x" * (MAX_TEXT + 1)},
]


def test_a_missing_wrong_or_huge_text_is_a_400(client):
    template = '"text" must be a move written as text, at most {n} characters long'
    for body in BAD_TEXTS:
        for headers, language in ((FR, "fr"), ({}, "en")):
            r = _post(client, body, headers)
            assert r.status_code == 400, r.text
            detail = messages(language, "server").gettext(template, n=MAX_TEXT)
            assert r.json() == {"detail": detail}


def test_a_text_of_the_greatest_length_is_read(client):
    text = "take W U G".ljust(MAX_TEXT)
    assert _post(client, {"game": "splendor", "text": text}).json() == {"notation": "take W U G"}


def test_a_missing_or_unknown_game_is_a_400(client):
    detail = messages("fr", "server").gettext(
        '"game" must be one of {games}', games='"splendor", "duel"'
    )
    for game in [None, "chess", 3, ["duel"], {"name": "duel"}, "", "d" * 10_000, "duel\x00"]:
        body: dict[str, Any] = {"text": "take W U G"}
        if game is not None:
            body["game"] = game
        r = _post(client, body, FR)
        assert r.status_code == 400, r.text
        assert r.json()["detail"] == detail


def test_a_body_that_is_no_json_object_is_a_400(client):
    for raw in [b"", b"not json", b"[1, 2]", b'"take W"', b"null", b"{" * 500 + b"}" * 500]:
        r = client.post("/api/commands", content=raw, headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (raw[:20], r.text)


def test_hostile_texts_never_break_the_route(client):
    texts = ["\x00", "take \u202e W", "🙂 🙂", "take ' OR 1=1 --", "<script>", "take W\nU G", "\t"]
    for text in texts:
        r = _post(client, {"game": "duel", "text": text}, FR)
        assert r.status_code in (200, 400), (text, r.text)
        assert isinstance(r.json().get("detail", r.json().get("notation")), str)


def test_an_oversized_body_is_refused_before_reading(make_client):
    from splendor.server.app import Limits

    client = make_client(limits=Limits.unlimited_rates(max_body_bytes=1000))
    r = _post(client, {"game": "splendor", "text": "x" * 5000})
    assert r.status_code == 413


def test_the_words_of_a_language_are_served(client):
    r = client.get("/api/commands/duel", headers=NL)
    assert r.status_code == 200
    assert r.json() == command_words("duel", "nl")
    assert r.headers["content-language"] == "nl"
    assert r.json()["verbs"]["take"][0] == "neem"
    assert client.get("/api/commands/splendor").json()["letters"]["W"] == "W"
    r = client.get("/api/commands/chess", headers=FR)
    assert r.status_code == 404
    assert "chess" in r.json()["detail"]
