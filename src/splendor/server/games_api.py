"""The games' HTTP API, ``/api/games...`` (see :mod:`.app` for the statuses and bodies):
create, look up by seat tokens, read a state, act, explain, resign, chat, the record and
the replay of a finished game, and its post-game analysis. A seat acts with its token
(``Authorization: Bearer``, or ``"token"`` in the body) or its player's session."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from . import chat
from .analysis_jobs import answer as analysis_answer
from .analysis_said import with_sentences
from .errors import N_, BadRequest, Forbidden, ServiceError
from .language import language_of
from .live import LiveGame
from .request_context import (
    analyses_of,
    body_of,
    checked_id,
    hit_rate,
    json_response,
    optional_body_of,
    player_id_of,
    seat_token,
    service_of,
)

router = APIRouter(prefix="/api/games")
"""The routes of this module; the app includes them with :func:`games_router`."""


def games_router() -> APIRouter:
    """The routes above (module docstring)."""
    return router


@router.post("", status_code=201)
async def create_game(request: Request) -> JSONResponse:
    """A new game (201): its id, seats (a person's with its token and invite link) and
    spectator link; an ``Idempotency-Key`` makes a retry answer the same game."""
    hit_rate("create", request)
    body = await body_of(request)
    key = request.headers.get("idempotency-key")
    made = await service_of(request).create(
        body.get("game"), body.get("seats"), body.get("options"), idempotency_key=key
    )
    live, tokens = made.live, made.tokens
    seats = []
    for s in live.seats:
        entry: dict[str, Any] = {"seat": s.seat, "type": s.type, "name": s.name, "bot": s.bot}
        if s.seat in tokens:
            entry["token"] = tokens[s.seat]
            entry["invite"] = f"/games/{live.id}#token={tokens[s.seat]}"
        seats.append(entry)
    content = {
        "game_id": live.id,
        "game": live.game,
        "seats": seats,
        "spectate": f"/games/{live.id}",
    }
    headers = {"Idempotent-Replayed": "true"} if made.replayed else None
    return JSONResponse(content, status_code=201, headers=headers)


@router.get("")
async def list_games_moved(request: Request) -> None:
    """405: the list of a client's games is ``POST /api/games/mine`` (tokens stay out of
    URLs)."""
    raise ServiceError(
        "seat tokens are not accepted in URLs (they end up in logs): send POST /api/games/mine "
        'with {"tokens": [...]}',
        405,
    )


@router.post("/mine")
async def list_games(request: Request) -> dict[str, Any]:
    """``{"games": [...]}``, the games the body's ``"tokens"`` hold seats in."""
    hit_rate("action", request)  # a database query per call
    body = await body_of(request)
    return {"games": await service_of(request).list_games(body.get("tokens", []))}


@router.get("/{game_id}")
async def get_state(request: Request, game_id: str) -> Response:
    """The state message for the request's viewer (a seat, or a spectator)."""
    token = seat_token(request)
    service = service_of(request)
    live = await service.get(checked_id(game_id))
    seat = await service.viewer_seat(live, token, await player_id_of(request))
    return json_response(service.message_json(live, seat, language=language_of(request)))


@router.post("/{game_id}/actions")
async def post_action(request: Request, game_id: str) -> Response:
    """Play ``{"action", "move"}`` for the request's seat; answers its new state."""
    hit_rate("action", request)
    service = service_of(request)
    await service.get(checked_id(game_id))
    body = await body_of(request)
    token = seat_token(request, body)
    if "action" not in body:
        raise BadRequest('missing "action": an action id or a notation such as "take W U G"')
    if "move" not in body:
        raise BadRequest(
            'missing "move": the "move" number of the state you decided on (a whole number); '
            "a request replayed with it cannot play twice"
        )
    live, seat = await service.act(
        game_id, token, body["action"], body["move"], await player_id_of(request)
    )
    return json_response(service.message_json(live, seat, language=language_of(request)))


async def _acting_seat(request: Request, live: LiveGame, body: dict[str, Any]) -> int:
    """The seat a request acts for: its token, or its player's session (403 if none)."""
    seat = await service_of(request).viewer_seat(
        live, seat_token(request, body), await player_id_of(request)
    )
    if seat is None:
        raise Forbidden(
            N_(
                "only a seated player may do this: send your seat token, or log in as the "
                "player sitting there"
            )
        )
    return seat


@router.post("/{game_id}/resign")
async def post_resign(request: Request, game_id: str) -> Response:
    """The request's seat resigns; answers its state."""
    hit_rate("action", request)
    service = service_of(request)
    live = await service.get(checked_id(game_id))
    body = await optional_body_of(request)
    seat = await _acting_seat(request, live, body)
    await service.resign(live, seat)
    return json_response(service.message_json(live, seat, language=language_of(request)))


@router.get("/{game_id}/chat")
async def get_chat(request: Request, game_id: str) -> dict[str, Any]:
    """``{"messages": [...]}``, the table's chat as the session's player reads it
    (:func:`.chat.history_for`: without the messages of the players it blocks)."""
    hit_rate("action", request)
    service = service_of(request)
    live = await service.get(checked_id(game_id))
    viewer = await player_id_of(request)
    return {"messages": await asyncio.to_thread(chat.history_for, service.storage, live, viewer)}


@router.post("/{game_id}/chat", status_code=201)
async def post_chat(request: Request, game_id: str) -> dict[str, Any]:
    """A seated player's ``{"text"}`` at the table (:func:`.chat.say`)."""
    hit_rate("action", request)
    service = service_of(request)
    live = await service.get(checked_id(game_id))
    body = await body_of(request)
    seat = await _acting_seat(request, live, body)
    return await chat.say(service, live, seat, body.get("text"))


@router.post("/{game_id}/explain")
async def post_explain(request: Request, game_id: str) -> dict[str, Any]:
    """Is ``{"action"}`` legal for the request's viewer, and why not (in the reader's
    language)."""
    hit_rate("action", request)
    service = service_of(request)
    await service.get(checked_id(game_id))
    body = await body_of(request)
    token = seat_token(request, body)
    if "action" not in body:
        raise BadRequest('missing "action": an action id or a notation')
    return await service.explain(
        game_id, token, body["action"], await player_id_of(request), language_of(request)
    )


@router.post("/{game_id}/analysis")
async def post_analysis(request: Request, game_id: str) -> JSONResponse:
    """A seated player asks for the post-game analysis: 202 queued now, 200 the stored
    one (:meth:`.analysis_jobs.Analyses.request`)."""
    hit_rate("action", request)
    service = service_of(request)
    live = await service.get(checked_id(game_id))
    body = await optional_body_of(request)
    seat = await _acting_seat(request, live, body)
    player_id = await player_id_of(request) or live.seats[seat].player_id
    stored, new = await analyses_of(request).request(live, player_id)
    language = language_of(request)
    said = await with_sentences(analysis_answer(stored, language), live, language)
    return JSONResponse(said, status_code=202 if new else 200)


@router.get("/{game_id}/analysis")
async def get_analysis(request: Request, game_id: str) -> dict[str, Any]:
    """``{"status", "data", "error"}`` of the game's analysis (404 none asked for)."""
    hit_rate("action", request)  # a database query per call
    live = await service_of(request).get(checked_id(game_id))
    language = language_of(request)
    return await with_sentences(await analyses_of(request).view(live.id, language), live, language)


@router.get("/{game_id}/record")
async def get_record(request: Request, game_id: str) -> JSONResponse:
    """The record of a finished game, as a JSON attachment."""
    service = service_of(request)
    record = service.record(await service.get(checked_id(game_id)))
    return JSONResponse(
        record.to_dict(),
        headers={"Content-Disposition": f'attachment; filename="{game_id}.json"'},
    )


@router.get("/{game_id}/replay")
async def get_replay(request: Request, game_id: str) -> dict[str, Any]:
    """Every position of a finished game."""
    service = service_of(request)
    return service.replay(await service.get(checked_id(game_id)), language_of(request))


__all__ = ["games_router"]
