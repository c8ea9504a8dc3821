"""The server in the reader's language (issue 16): its refusals and the explanations of
illegal moves come in French with the cookie ``lang=fr`` and in Dutch with
``Accept-Language: nl``, in English by default, over HTTP and the WebSocket; the cookie
wins over the header; the browser client's catalogues are served at ``/api/i18n``; an
unknown language is refused with the list of the languages."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from splendor.classic import Action
from splendor.classic.explain import why_illegal
from splendor.i18n import catalogue_json, messages
from splendor.server.app import Limits
from splendor.server.errors import N_, BadRequest, NotFound, Text
from splendor.server.language import language_of

FR = {"Cookie": "lang=fr"}
NL = {"Accept-Language": "nl-BE,nl;q=0.9,en;q=0.5"}


def _game(client: TestClient) -> tuple[str, str, str]:
    """A classic game of two people: ``(game id, seat 0's token, seat 1's token)``."""
    r = client.post(
        "/api/games",
        json={"game": "splendor", "seats": [{"type": "human", "name": "Ann"}] * 2},
    )
    assert r.status_code == 201, r.text
    made = r.json()
    return made["game_id"], made["seats"][0]["token"], made["seats"][1]["token"]


def _observation(client: TestClient, game_id: str, seat: int) -> Any:
    """The engine's observation of ``seat`` in the app's live game."""
    service = client.app.state.service  # type: ignore[attr-defined]

    async def get() -> Any:
        return await service.get(game_id)

    live = client.portal.call(get)  # type: ignore[union-attr]
    return live.state.observation(seat)


def test_a_refusal_in_the_readers_language(client: TestClient) -> None:
    english = client.get("/api/games/nope")
    assert english.status_code == 404
    assert english.json() == {"detail": "no game 'nope'"}
    french = client.get("/api/games/nope", headers=FR)
    assert french.status_code == 404
    assert french.json() == {"detail": "aucune partie 'nope'"}
    assert french.headers["content-language"] == "fr"
    dutch = client.get("/api/games/nope", headers=NL)
    assert dutch.json() == {"detail": "geen spel 'nope'"}
    # the cookie wins over the browser's languages; a cookie naming no language does not
    assert client.get("/api/games/nope", headers={**FR, **NL}).json()["detail"].startswith("aucune")
    odd = client.get("/api/games/nope", headers={"Cookie": "lang=sv", **NL})
    assert odd.json()["detail"].startswith("geen spel")


def test_a_refusal_with_a_reason_inside(client: TestClient) -> None:
    """A seat's name that is too long: the whole sentence, its inner reason included, in
    the reader's language."""
    seats = [{"type": "human", "name": "A" * 41}, {"type": "human", "name": "Bob"}]
    body = {"game": "splendor", "seats": seats}
    r = client.post("/api/games", json=body)
    assert r.status_code == 400
    assert r.json()["detail"] == "seat 1: a name is 1 to 40 characters, got 41"
    r = client.post("/api/games", json=body, headers=FR)
    assert r.json()["detail"] == "place 1 : un nom fait de 1 à 40 caractères ; celui-ci en a 41"
    r = client.post("/api/games", json=body, headers=NL)
    assert r.json()["detail"] == "plaats 1: een naam heeft 1 tot 40 tekens; deze heeft er 41"


def test_the_explanation_of_an_illegal_move(client: TestClient) -> None:
    gid, ann, _bob = _game(client)
    obs = _observation(client, gid, 0)
    action = Action.parse("buy 3.1")
    url = f"/api/games/{gid}/explain"
    body = {"token": ann, "action": "buy 3.1"}
    english = client.post(url, json=body).json()
    french = client.post(url, json=body, headers=FR).json()
    dutch = client.post(url, json=body, headers=NL).json()
    assert english["legal"] is french["legal"] is dutch["legal"] is False
    assert english["reason"] == why_illegal(obs, action)
    assert french["reason"] == why_illegal(obs, action, "fr") != english["reason"]
    assert dutch["reason"] == why_illegal(obs, action, "nl") != english["reason"]
    # the server's own reasons too (not the seat's decision)
    other = client.post(url, json={"token": _bob, "action": "take W U G"}, headers=FR).json()
    assert other["reason"] == "ce n'est pas à vous de décider : c'est à la place 1 (Ann) de jouer"


def test_an_illegal_move_is_refused_with_the_explanation(client: TestClient) -> None:
    gid, ann, _bob = _game(client)
    obs = _observation(client, gid, 0)
    body = {"action": "buy 3.1", "move": 0}
    headers = {"Authorization": f"Bearer {ann}"}
    english = client.post(f"/api/games/{gid}/actions", json=body, headers=headers)
    assert english.status_code == 422
    reason = why_illegal(obs, Action.parse("buy 3.1"))
    assert english.json()["detail"].startswith(f"illegal action 'buy 3.1': {reason}. Legal now: ")
    french = client.post(f"/api/games/{gid}/actions", json=body, headers={**headers, **FR})
    detail = french.json()["detail"]
    assert detail.startswith("action interdite 'buy 3.1' : ")
    assert why_illegal(obs, Action.parse("buy 3.1"), "fr") in detail
    assert "Actions permises : take W U G" in detail  # the notation is not translated
    dutch = client.post(f"/api/games/{gid}/actions", json=body, headers={**headers, **NL})
    assert why_illegal(obs, Action.parse("buy 3.1"), "nl") in dutch.json()["detail"]
    # a notation that is no action: the hint in the reader's language
    body = {"action": "take X", "move": 0}
    hint = client.post(f"/api/games/{gid}/actions", json=body, headers={**headers, **FR})
    assert hint.status_code == 400
    assert "prenez 3 couleurs différentes" in hint.json()["detail"]


def test_websocket_refusals_in_the_readers_language(client: TestClient) -> None:
    gid, _ann, _bob = _game(client)
    for headers, start in (
        ({}, "spectators cannot act"),
        (FR, "les spectateurs"),
        (NL, "toeschouwers"),
    ):
        with client.websocket_connect(f"/ws/games/{gid}", headers=headers) as ws:
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "action", "action": "take W U G", "move": 0})
            error = ws.receive_json()
            assert error["type"] == "error" and error["status"] == 403
            assert error["message"].startswith(start), error


def test_rate_limits_and_chat_in_the_readers_language(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(limits=Limits(create_rate="1/minute", action_rate=None, auth_rate=None))
    gid, ann, _bob = _game(client)
    r = client.post(
        "/api/games",
        json={"game": "duel", "seats": [{"type": "human", "name": "A"}] * 2},
        headers=NL,
    )
    assert r.status_code == 429
    assert r.json()["detail"].startswith(
        "te veel nieuwe spellen vanaf je adres: hoogstens 1 per 60 s"
    )
    chat = client.post(f"/api/games/{gid}/chat", json={"token": ann, "text": "x" * 301}, headers=FR)
    assert chat.status_code == 400
    assert chat.json()["detail"] == "un message fait de 1 à 300 caractères ; celui-ci en a 301"


def test_the_catalogue_route(client: TestClient) -> None:
    r = client.get("/api/i18n/fr")
    assert r.status_code == 200
    assert r.json() == json.loads(catalogue_json("fr", "web"))
    assert r.json()["plural"] == "fr" and len(r.json()["messages"]) > 100
    assert "max-age" in r.headers["cache-control"] and "public" in r.headers["cache-control"]
    again = client.get("/api/i18n/fr", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and not again.content
    assert (
        client.get("/api/i18n/nl", headers={"If-None-Match": r.headers["etag"]}).status_code == 200
    )
    assert client.get("/api/i18n/en").json() == {"language": "en", "plural": "en", "messages": {}}
    # the reader's own: the cookie, else Accept-Language
    negotiated = client.get("/api/i18n", headers=NL)
    assert negotiated.json()["language"] == "nl" and negotiated.json()["plural"] == "en"
    assert "Accept-Language" in negotiated.headers["vary"]
    assert client.get("/api/i18n", headers={**FR, **NL}).json()["language"] == "fr"
    assert client.get("/api/i18n").json()["language"] == "en"
    for unknown in ("sv", "FR", "x" * 50):
        refused = client.get(f"/api/i18n/{unknown}")
        assert refused.status_code == 404
        assert "the languages are en, fr, nl" in refused.json()["detail"]
    assert (
        "les langues sont en, fr, nl, de, es, it, pt, pl"
        in (client.get("/api/i18n/sv", headers=FR).json()["detail"])
    )


def test_the_page_says_its_language(client: TestClient, web_dir: Path) -> None:
    """The client's page carries the reader's language in ``<html lang>`` (the client
    loads that catalogue); it varies with the cookie and ``Accept-Language``."""
    (web_dir / "index.html").write_text(
        '<!doctype html>\n<html lang="en">\n<title>t</title></html>'
    )
    assert '<html lang="en">' in client.get("/").text
    assert '<html lang="fr">' in client.get("/leaderboard", headers=FR).text
    page = client.get("/games/abc", headers=NL)
    assert '<html lang="nl">' in page.text
    assert "Accept-Language" in page.headers["vary"]


def test_service_error_keeps_english_and_translates() -> None:
    """``message`` stays the English sentence (logs, API clients); ``translated`` says it
    in a language; a field that is a Text is translated with it; a refusal left unmarked
    (for programmers only) stays English."""
    inner = Text(N_("a name is 1 to {max} characters, got {length}"), {"max": 40, "length": 41})
    e = BadRequest(N_("seat {seat}: {error}"), seat=2, error=inner)
    assert e.message == str(e) == "seat 2: a name is 1 to 40 characters, got 41"
    assert e.translated("nl") == "plaats 2: een naam heeft 1 tot 40 tekens; deze heeft er 41"
    assert e.translated("en") == e.message
    assert NotFound(N_("no table {table}"), table="'t'").translated("fr") == "aucune table 't'"
    plain = BadRequest('"tokens" must be a list of seat tokens (strings)')
    assert plain.translated("fr") == plain.message
    with pytest.raises(ValueError, match="languages are en, fr, nl, de, es, it, pt, pl"):
        e.translated("sv")
    assert (
        messages("fr", "server").gettext("wrong name or password")
        == "nom ou mot de passe incorrect"
    )


class _Connection:
    """Just what :func:`language_of` reads of a request."""

    def __init__(self, cookies: dict[str, str], headers: dict[str, str]) -> None:
        self.cookies = cookies
        self.headers = headers


@pytest.mark.parametrize(
    "cookies, headers, language",
    [
        ({}, {}, "en"),
        ({"lang": "nl"}, {}, "nl"),
        ({"lang": "fr"}, {"accept-language": "nl"}, "fr"),
        ({"lang": "xx"}, {"accept-language": "nl-NL,nl;q=0.9"}, "nl"),
        ({}, {"accept-language": "sv-SE, fr;q=0.4"}, "fr"),
        ({}, {"accept-language": "sv-SE"}, "en"),
        ({}, {"accept-language": "de-DE, fr;q=0.4"}, "de"),
        ({}, {"accept-language": "pt-BR"}, "pt"),
    ],
)
def test_language_of(cookies: dict[str, str], headers: dict[str, str], language: str) -> None:
    assert language_of(_Connection(cookies, headers)) == language  # type: ignore[arg-type]
