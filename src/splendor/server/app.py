"""The FastAPI application: REST API, one WebSocket per game, and the browser client.

``create_app(database_url)`` builds an app that holds its own storage, hub, bot executor,
game service and rate-limit counters (``app.state``); nothing is global. Routes (errors
are ``{"detail": "<message>"}``: 400 malformed, 403 bad token / not your seat, 404 unknown
game, 409 not your turn / stale move / game over / record of an active game, 413 body too
large, 422 illegal action / idempotency key reused with another request, 429 too many
requests (with ``Retry-After``), 503 database unavailable (with ``Retry-After``)):

- ``GET /api/meta``: games (player counts, card tables) and bot levels.
- ``POST /api/games``: create a game (201, seat tokens and invite links). An
  ``Idempotency-Key`` header makes a retry return the same game and tokens.
- ``POST /api/games/mine``: ``{"tokens": [...]}``, the games those tokens hold seats in,
  newest first.
- ``GET /api/games/{id}``: the state message for the viewer of the ``Authorization:
  Bearer <seat token>`` header (none: spectator).
- ``POST /api/games/{id}/actions``: ``{"action", "move"}`` (``move`` required: the state's
  move number the client decided on), play a decision; the token in the header (or as
  ``"token"`` in the body).
- ``POST /api/games/{id}/explain``: ``{"action"}``, is it legal, and why not.
- ``GET /api/games/{id}/record``: the record (JSON attachment), finished games only.
- ``GET /api/games/{id}/replay``: every position of a finished game.
- ``POST /api/games/{id}/resign``: the seat (token or session) resigns
  (:meth:`.service.GameService.resign`); ``GET``/``POST /api/games/{id}/chat``: the table's
  chat (:mod:`.chat`; only seated players write).
- ``POST /api/games/{id}/analysis``: a seated player asks for the post-game analysis of a
  finished game (202 queued now, 200 the stored one; 403 not seated, 409 not over, 429 too
  many); ``GET /api/games/{id}/analysis``: ``{"status", "data", "error"}`` (404 none asked
  for); :mod:`.analysis_jobs`.
- ``WS /ws/games/{id}``: a spectator's state at once (the session's seat's for a logged-in
  player seated there); ``{"type": "auth", "token"}`` makes
  the connection its seat's (the seat's state follows); then state messages after every
  accepted move, and when a seat or a spectator comes or goes (``"spectators"``),
  ``{"type": "chat", "message"}``, and ``{"type": "analysis", "game_id", "status", "done",
  "total"}`` as a post-game analysis progresses. The client sends ``{"type": "action", "action",
  "move"}``, ``{"type": "chat", "text"}``, ``{"type": "resign"}`` or ``{"type": "ping"}``;
  a rejected message gets ``{"type": "error", "status", "message"}``
  and the connection stays open (a bad token too: 403, still a spectator). Close codes:
  4400 a token in the URL, 4404 unknown game, 1013 database unavailable or the client
  fell behind.
- ``GET /api/i18n/{lang}``, ``GET /api/i18n``: the client's catalogue of a language, or of
  the reader's (:mod:`.language`).
- ``GET /``, ``/games/{id}``, ``/games/{id}/replay``, ``/players/{id}``, ``/tables/{id}``,
  ``/leaderboard``, ``/howto/{game}`` (splendor, duel: how to play): the client's
  ``index.html``, its ``<html lang>`` the reader's language;
  ``/static/...``: the client's files (``src/splendor/web/``).

**Languages.** Refusals (``detail``, a WebSocket error's ``message``) and explanations of
illegal moves come in the reader's language: the ``lang`` cookie (en, fr or nl, set by the
client's language switch), else the request's ``Accept-Language``, else English
(:func:`.language.language_of`; :mod:`.errors` for how a refusal is translated).

Seat tokens never travel in a URL: ``?token=`` is refused (400, WebSocket 4400), and
:func:`serve` redacts any ``token=`` from its logs (:class:`RedactTokens`). Every HTTP
response carries the security headers of :data:`SECURITY_HEADERS`. The limits (body and
WebSocket message sizes, JSON depth, rates per client address) are :class:`Limits`.

State messages are sent as JSON text built once per distinct viewer
(:meth:`.service.GameService.message_json`). :func:`serve` runs the app with uvicorn.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import gc
import json
import logging
import math
import os
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, MutableMapping
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import exc as sa_exc
from starlette.datastructures import MutableHeaders

from ..bots.external import game_tables
from . import bots as server_bots
from . import chat
from .accounts import Accounts, Player
from .analysis_jobs import Analyses, AnalysisConfig
from .analysis_jobs import answer as analysis_answer
from .errors import N_, Text
from .hub import Hub, Subscriber
from .language import i18n_router, language_of, localized_page
from .notify import Listener
from .players_api import SESSION_COOKIE, players_router, same_site
from .protocol import MAX_JSON_DEPTH, MalformedJSONError, loads_json
from .service import (
    BadRequest,
    Created,
    Forbidden,
    GameService,
    Lifecycle,
    LiveGame,
    NotFound,
    ServiceError,
)
from .storage import Storage
from .tables import MIN_CLOCK, Tables
from .tables_api import LobbyFeed, tables_router

log = logging.getLogger("splendor.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The browser client (``src/splendor/web/``: ``index.html`` and its modules)."""

CLOSE_BAD_REQUEST = 4400
CLOSE_UNKNOWN_GAME = 4404
CLOSE_TRY_AGAIN = 1013

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The client's policy: its own scripts, styles and connections only (it has no inline
script or style attribute), ``data:`` images (the favicon), never framed."""

DOCS_CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: https:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
"""FastAPI's API pages (``/docs``, ``/redoc``) load Swagger UI / ReDoc from a CDN with an
inline script: they get this looser policy, and are still never framed."""

DOCS_PATHS = ("/docs", "/redoc")

SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Headers on every HTTP response, with ``Content-Security-Policy`` (and ``Cache-Control:
no-store`` on ``/api/`` answers, which may hold seat tokens)."""

DB_UNAVAILABLE: tuple[type[Exception], ...] = (
    sa_exc.OperationalError,
    sa_exc.InterfaceError,
    sa_exc.DisconnectionError,
    sa_exc.TimeoutError,
)
"""Database errors that mean "unreachable, down or overloaded" (answered 503), as
opposed to a bug (500)."""

DB_RETRY_AFTER_S = 5

_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_TOKEN_IN_TEXT = re.compile(r"(?i)(?<=[?&;])(token=)[^&;#\s\"']*")


@dataclass(frozen=True)
class Limits:
    """What one client may send (see docs/server.md, "Limits and hostile input").

    Attributes:
        max_body_bytes: the largest request body (bytes); a larger one is refused with 413
            as soon as its ``Content-Length`` says so, or once that many bytes of a
            chunked body have arrived (it is never read whole).
        max_ws_message_bytes: the largest WebSocket message (bytes): uvicorn closes the
            connection on a bigger frame (1009, :func:`serve`); under any other server the
            app answers an error message (413) and stays open.
        max_json_depth: the deepest nesting of arrays/objects in a body or a message (400).
        create_rate: game creations per client address, ``limits`` notation
            (``"30/minute"``, several with ``;``); None or ``"off"``: unlimited.
        action_rate: actions, explanations, game-list lookups, chat and analysis requests
            (REST) and WebSocket messages per client address; None or ``"off"``:
            unlimited.
        auth_rate: guest sessions, sign-ups and log-ins per client address (each costs an
            Argon2 hash; guessing passwords stays slow); None or ``"off"``: unlimited.
        min_clock: the shortest time bank (real time) or turn (turn-based) a table's clock
            may have, in seconds (default 60; tests and demonstrations use a few seconds).

    Raises:
        ValueError: a size below 1, or a rate the ``limits`` package cannot parse.
    """

    max_body_bytes: int = 64 * 1024
    max_ws_message_bytes: int = 64 * 1024
    max_json_depth: int = MAX_JSON_DEPTH
    create_rate: str | None = "30/minute"
    action_rate: str | None = "30/second"
    auth_rate: str | None = "10/minute;100/day"
    min_clock: int = MIN_CLOCK

    def __post_init__(self) -> None:
        for name in ("max_body_bytes", "max_ws_message_bytes", "max_json_depth", "min_clock"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
        for name in ("create_rate", "action_rate", "auth_rate"):
            if getattr(self, name) == "off":
                object.__setattr__(self, name, None)
            _parse_rate(name, getattr(self, name))

    @classmethod
    def unlimited_rates(cls, **kwargs: Any) -> Limits:
        """Limits without rate limits (load tests, benchmarks), sizes as given or default."""
        return cls(create_rate=None, action_rate=None, auth_rate=None, **kwargs)


def _parse_rate(name: str, rate: str | None) -> list[Any]:
    """The ``limits`` items of a rate string (empty for None). Raises ValueError."""
    if rate is None:
        return []
    import limits

    try:
        items = limits.parse_many(rate)
    except ValueError as e:
        raise ValueError(
            f"{name}: {rate!r} is not a rate such as '30/minute' or '5/second;100/hour' ({e})"
        ) from None
    if not items:
        raise ValueError(f"{name}: {rate!r} is not a rate such as '30/minute'")
    return items


class RateLimited(ServiceError):
    """Too many requests from one client address (429); ``retry_after`` in seconds.

    Args:
        message: the English template (see :class:`.errors.ServiceError`).
        retry_after: seconds until the next request may pass.
        fields: the template's fields.
    """

    status = 429

    def __init__(self, message: str, retry_after: int, /, **fields: Any) -> None:
        super().__init__(message, None, **fields)
        self.retry_after = retry_after


_RATE_MESSAGES = {
    "create": N_(
        "too many game creations from your address: at most {amount} per {period} s; "
        "try again in {wait} s"
    ),
    "action": N_(
        "too many actions and messages from your address: at most {amount} per {period} s; "
        "try again in {wait} s"
    ),
    "auth": N_(
        "too many guest sessions, sign-ups and log-ins from your address: at most {amount} "
        "per {period} s; try again in {wait} s"
    ),
}


class RateLimiter:
    """Moving-window counters per client address, in memory (the ``limits`` package);
    one per app.

    Args:
        limits: the rates (:attr:`Limits.create_rate`, :attr:`Limits.action_rate`).
    """

    def __init__(self, limits: Limits) -> None:
        from limits.storage import MemoryStorage
        from limits.strategies import MovingWindowRateLimiter

        self._items = {
            "create": _parse_rate("create_rate", limits.create_rate),
            "action": _parse_rate("action_rate", limits.action_rate),
            "auth": _parse_rate("auth_rate", limits.auth_rate),
        }
        self._limiter = (
            MovingWindowRateLimiter(MemoryStorage()) if any(self._items.values()) else None
        )

    def hit(self, kind: str, client: str) -> None:
        """Count one ``kind`` (``"create"``, ``"action"`` or ``"auth"``) request of ``client``.

        Raises:
            RateLimited: over a rate (the request must be refused; it was still counted).
        """
        items = self._items[kind]
        if self._limiter is None:
            return
        for item in items:
            if not self._limiter.hit(item, kind, client):
                reset = self._limiter.get_window_stats(item, kind, client).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                raise RateLimited(
                    _RATE_MESSAGES[kind],
                    wait,
                    amount=item.amount,
                    period=item.get_expiry(),
                    wait=wait,
                )


def create_app(
    database_url: str | None = None,
    *,
    web_dir: str | Path | None = None,
    executor: Executor | None = None,
    search_executor: Executor | None = None,
    bot_workers: int | None = None,
    limits: Limits | None = None,
    lifecycle: Lifecycle | None = None,
    analysis: AnalysisConfig | None = None,
) -> FastAPI:
    """Build the web app.

    Args:
        database_url: SQLAlchemy URL (``sqlite:///file.db``,
            ``postgresql+psycopg://user@host/db``); None: a SQLite file in the user's data
            directory (:func:`.storage.default_database_url`). Migrated at start-up.
        web_dir: the client's folder (default :data:`WEB_DIR`).
        executor: where the quick bots (random, greedy, easy) think; default a spawn
            process pool of one process, owned (and shut down) by the app. Given
            executors are not shut down by the app.
        search_executor: where the searching bots (medium, hard, expert) think; default
            ``executor`` when one is given, else an owned pool of ``bot_workers`` processes.
        bot_workers: size of the default search pool (default: CPU count, at most 4).
        limits: sizes and rates (default :class:`Limits`).
        lifecycle: eviction, expiry and bot-turn retries (default
            :class:`.service.Lifecycle`).
        analysis: post-game analyses: the search budget per decision, how many run at
            once, the per-player limit (default :class:`.analysis_jobs.AnalysisConfig`:
            2,000 iterations a decision, seed 0, one at a time). They search in the
            ``search_executor`` pool.

    Once started (schema migrated, unfinished games loaded), the app moves every object
    that exists to the garbage collector's permanent generation (:func:`gc.freeze`): the
    modules, engines and tables loaded at start-up live as long as the process, and
    without this a full collection scans them all (pauses of about 100-170 ms every few
    seconds under load, measured, which every game in flight waits for).
    """
    web = Path(web_dir) if web_dir is not None else WEB_DIR
    limits = limits if limits is not None else Limits()
    rates = RateLimiter(limits)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(database_url)
        owned: list[Executor] = []
        quick = executor
        if quick is None:
            quick = server_bots.make_executor(1)
            owned.append(quick)
        search = search_executor
        if search is None:
            if executor is not None:
                search = executor
            else:
                search = server_bots.make_executor(bot_workers)
                owned.append(search)
        hub = Hub()
        service = GameService(storage, hub, server_bots.BotPools(quick, search), lifecycle)
        app.state.storage, app.state.hub, app.state.service = storage, hub, service
        analyses = Analyses(service, analysis)
        app.state.analyses = analyses
        app.state.accounts = Accounts(storage)
        tables = Tables(storage, service, lambda table_id: feed.changed(table_id), limits.min_clock)
        feed = LobbyFeed(hub, tables)
        app.state.tables = tables
        listener = None
        if storage.engine.dialect.name == "postgresql":  # other processes may share it

            def handle(kind: str, key: str, data: Any) -> None:
                if kind == "table":
                    feed.changed(key)
                else:
                    service.on_notification(kind, key, data)

            listener = Listener(storage.url, handle, service.resync)
        app.state.listener = listener
        try:
            await service.start()
            await analyses.start()
            if listener is not None:
                listener.start()
            gc.freeze()  # see the docstring: no full-collection pauses over start-up objects
            yield
        finally:
            if listener is not None:
                await listener.close()
            await analyses.close()
            await service.close()
            for pool in owned:  # a decision under way ends within its time budget
                await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
            storage.close()

    app = FastAPI(title="Splendor", lifespan=lifespan)
    app.state.limits, app.state.rates = limits, rates
    app.add_middleware(_Guard, max_body_bytes=limits.max_body_bytes)

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError) -> JSONResponse:
        headers = {"Content-Language": language_of(request)}
        if isinstance(exc, RateLimited):
            headers["Retry-After"] = str(exc.retry_after)
        elif exc.status == 503:  # the database is unavailable (the service says so)
            headers["Retry-After"] = str(DB_RETRY_AFTER_S)
        return JSONResponse(
            {"detail": _printable(exc.translated(language_of(request)))},
            status_code=exc.status,
            headers=headers,
        )

    @app.exception_handler(_BodyTooLarge)
    async def _body_too_large(_request: Request, _exc: _BodyTooLarge) -> JSONResponse:
        return _too_large(limits.max_body_bytes)

    async def _db_unavailable(request: Request, exc: Exception) -> JSONResponse:
        log.error("database unavailable (%s %s): %s", request.method, request.url.path, exc)
        text = Text(
            N_("the database is unavailable; nothing was changed, try again in {seconds} s"),
            {"seconds": DB_RETRY_AFTER_S},
        )
        return JSONResponse(
            {"detail": text.translated(language_of(request))},
            status_code=503,
            headers={"Retry-After": str(DB_RETRY_AFTER_S)},
        )

    for kind in DB_UNAVAILABLE:
        app.add_exception_handler(kind, _db_unavailable)

    def service_of(request: Request | WebSocket) -> GameService:
        service: GameService = request.app.state.service  # set by the lifespan above
        return service

    async def body_of(request: Request) -> dict[str, Any]:
        return await _json_object(request, limits.max_json_depth)

    def accounts_of(request: Request | WebSocket) -> Accounts:
        accounts: Accounts = request.app.state.accounts  # set by the lifespan above
        return accounts

    async def player_of(connection: Request | WebSocket) -> Player | None:
        """The logged-in player of a request or WebSocket (its session cookie), or None;
        a cookie sent from another site's page does not count."""
        if not same_site(connection):
            return None
        token = connection.cookies.get(SESSION_COOKIE)
        if token is None:
            return None
        return await asyncio.to_thread(accounts_of(connection).player_for_session, token)

    async def player_id_of(connection: Request | WebSocket) -> str | None:
        player = await player_of(connection)
        return None if player is None else player.id

    def hit_rate(kind: str, request: Request) -> None:
        rates.hit(kind, _client(request))

    def tables_of(connection: Request | WebSocket) -> Tables:
        tables: Tables = connection.app.state.tables  # set by the lifespan above
        return tables

    app.include_router(i18n_router())
    app.include_router(players_router(accounts_of, body_of, hit_rate))
    app.include_router(tables_router(tables_of, player_of, body_of, hit_rate, _send_loop))

    # ------------------------------------------------------------------ REST

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        return {
            "games": {
                "splendor": {"min_players": 2, "max_players": 4, "tables": game_tables("splendor")},
                "duel": {"min_players": 2, "max_players": 2, "tables": game_tables("duel")},
            },
            "bots": list(server_bots.SERVER_BOTS),
        }

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> JSONResponse:
        rates.hit("create", _client(request))
        body = await body_of(request)
        key = request.headers.get("idempotency-key")
        made: Created = await service_of(request).create(
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

    @app.get("/api/games")
    async def list_games_moved(request: Request) -> None:
        raise ServiceError(
            "seat tokens are not accepted in URLs (they end up in logs): send POST /api/games/mine "
            'with {"tokens": [...]}',
            405,
        )

    @app.post("/api/games/mine")
    async def list_games(request: Request) -> dict[str, Any]:
        rates.hit("action", _client(request))  # a database query per call
        body = await body_of(request)
        return {"games": await service_of(request).list_games(body.get("tokens", []))}

    @app.get("/api/games/{game_id}")
    async def get_state(request: Request, game_id: str) -> Response:
        token = _token(request)
        service = service_of(request)
        live = await service.get(_checked_id(game_id))
        seat = await service.viewer_seat(live, token, await player_id_of(request))
        return _json_response(service.message_json(live, seat))

    @app.post("/api/games/{game_id}/actions")
    async def post_action(request: Request, game_id: str) -> Response:
        rates.hit("action", _client(request))
        service = service_of(request)
        await service.get(_checked_id(game_id))
        body = await body_of(request)
        token = _token(request, body)
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
        return _json_response(service.message_json(live, seat))

    async def acting_seat(request: Request, live: LiveGame, body: dict[str, Any]) -> int:
        """The seat a request acts for: its token, or its player's session (403 if none)."""
        seat = await service_of(request).viewer_seat(
            live, _token(request, body), await player_id_of(request)
        )
        if seat is None:
            raise Forbidden(
                N_(
                    "only a seated player may do this: send your seat token, or log in as the "
                    "player sitting there"
                )
            )
        return seat

    @app.post("/api/games/{game_id}/resign")
    async def post_resign(request: Request, game_id: str) -> Response:
        rates.hit("action", _client(request))
        service = service_of(request)
        live = await service.get(_checked_id(game_id))
        body = await body_of(request) if await request.body() else {}
        seat = await acting_seat(request, live, body)
        await service.resign(live, seat)
        return _json_response(service.message_json(live, seat))

    @app.get("/api/games/{game_id}/chat")
    async def get_chat(request: Request, game_id: str) -> dict[str, Any]:
        rates.hit("action", _client(request))
        service = service_of(request)
        live = await service.get(_checked_id(game_id))
        return {"messages": await asyncio.to_thread(chat.history, service.storage, live.id)}

    @app.post("/api/games/{game_id}/chat", status_code=201)
    async def post_chat(request: Request, game_id: str) -> dict[str, Any]:
        rates.hit("action", _client(request))
        service = service_of(request)
        live = await service.get(_checked_id(game_id))
        body = await body_of(request)
        seat = await acting_seat(request, live, body)
        return await chat.say(service, live, seat, body.get("text"))

    @app.post("/api/games/{game_id}/explain")
    async def post_explain(request: Request, game_id: str) -> dict[str, Any]:
        rates.hit("action", _client(request))
        service = service_of(request)
        await service.get(_checked_id(game_id))
        body = await body_of(request)
        token = _token(request, body)
        if "action" not in body:
            raise BadRequest('missing "action": an action id or a notation')
        return await service.explain(
            game_id, token, body["action"], await player_id_of(request), language_of(request)
        )

    def analyses_of(request: Request) -> Analyses:
        found: Analyses = request.app.state.analyses  # set by the lifespan above
        return found

    @app.post("/api/games/{game_id}/analysis")
    async def post_analysis(request: Request, game_id: str) -> JSONResponse:
        rates.hit("action", _client(request))
        service = service_of(request)
        live = await service.get(_checked_id(game_id))
        body = await body_of(request) if await request.body() else {}
        seat = await acting_seat(request, live, body)
        player_id = await player_id_of(request) or live.seats[seat].player_id
        stored, new = await analyses_of(request).request(live, player_id)
        return JSONResponse(
            analysis_answer(stored, language_of(request)), status_code=202 if new else 200
        )

    @app.get("/api/games/{game_id}/analysis")
    async def get_analysis(request: Request, game_id: str) -> dict[str, Any]:
        rates.hit("action", _client(request))  # a database query per call
        live = await service_of(request).get(_checked_id(game_id))
        return await analyses_of(request).view(live.id, language_of(request))

    @app.get("/api/games/{game_id}/record")
    async def get_record(request: Request, game_id: str) -> JSONResponse:
        service = service_of(request)
        record = service.record(await service.get(_checked_id(game_id)))
        return JSONResponse(
            record.to_dict(),
            headers={"Content-Disposition": f'attachment; filename="{game_id}.json"'},
        )

    @app.get("/api/games/{game_id}/replay")
    async def get_replay(request: Request, game_id: str) -> dict[str, Any]:
        service = service_of(request)
        return service.replay(await service.get(_checked_id(game_id)))

    # ------------------------------------------------------------------ WebSocket

    @app.websocket("/ws/games/{game_id}")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        service = service_of(websocket)
        await websocket.accept()
        if "token" in websocket.query_params:
            await websocket.close(
                code=CLOSE_BAD_REQUEST,
                reason=_reason(
                    'no token in the URL: send {"type": "auth", "token": ...} as the first message'
                ),
            )
            return
        try:
            live = await service.get(_checked_id(game_id))
        except ServiceError as e:  # no such game, or the database is unavailable (503)
            code = CLOSE_TRY_AGAIN if e.status == 503 else CLOSE_UNKNOWN_GAME
            await websocket.close(code=code, reason=_reason(e.message))
            return
        except DB_UNAVAILABLE as e:
            log.error("database unavailable (WebSocket %s): %s", game_id, e)
            await websocket.close(
                code=CLOSE_TRY_AGAIN, reason="the database is unavailable; try again shortly"
            )
            return
        hub: Hub = websocket.app.state.hub
        player = await player_of(websocket)
        player_id = None if player is None else player.id
        sub = hub.subscribe(game_id, service.seat_of_player(live, player_id))
        sub.player_id = player_id
        sub.player_name = None if player is None else player.name
        sub.send_text(service.message_json(live, sub.seat))
        service.publish(live, exclude=sub)  # the others see the seat or spectator come
        sender = asyncio.create_task(_send_loop(websocket, sub))
        try:
            await _receive_loop(
                websocket, service, live, sub, limits, rates, language_of(websocket)
            )
        finally:
            # no await before the presence update: this block may run under cancellation
            sender.cancel()
            hub.unsubscribe(sub)
            if sub.seat is None or sub.seat not in hub.connected_seats(game_id):
                service.publish(live)  # the seat or spectator left
            await asyncio.gather(sender, return_exceptions=True)

    # ------------------------------------------------------------------ client

    def index(request: Request) -> HTMLResponse:
        """The client's page in the reader's language (``<html lang>``, read by the
        client to load its catalogue)."""
        page = web / "index.html"
        if not page.is_file():
            raise ServiceError(f"the browser client is not installed ({page} is missing)", 404)
        html = localized_page(page.read_text(encoding="utf-8"), language_of(request))
        return HTMLResponse(
            html, headers={"Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"}
        )

    @app.get("/", include_in_schema=False)
    async def home(request: Request) -> HTMLResponse:
        return index(request)

    @app.get("/games/{game_id}", include_in_schema=False)
    async def game_page(request: Request, game_id: str) -> HTMLResponse:
        return index(request)

    @app.get("/games/{game_id}/replay", include_in_schema=False)
    async def replay_page(request: Request, game_id: str) -> HTMLResponse:
        return index(request)

    @app.get("/players/{player_id}", include_in_schema=False)
    async def player_page(request: Request, player_id: str) -> HTMLResponse:
        return index(request)

    @app.get("/tables/{table_id}", include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> HTMLResponse:
        return index(request)

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page(request: Request) -> HTMLResponse:
        return index(request)

    @app.get("/howto/{game}", include_in_schema=False)
    async def howto_page(request: Request, game: str) -> HTMLResponse:
        if game not in ("splendor", "duel"):
            raise NotFound(
                N_("no how-to page {page}: the games are splendor, duel"), page=repr(game[:20])
            )
        return index(request)

    app.mount("/static", StaticFiles(directory=web, check_dir=False), name="static")
    return app


# ---------------------------------------------------------------------- HTTP helpers


class _BodyTooLarge(Exception):
    """A chunked request body grew past the limit while it was being read."""


ASGIApp = Callable[
    [MutableMapping[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]],
    Awaitable[None],
]


class _Guard:
    """ASGI middleware for HTTP requests: refuses bodies over ``max_body_bytes`` (413) by
    their ``Content-Length`` before reading, or by counting the bytes of a chunked body as
    they arrive (:class:`_BodyTooLarge`, answered 413 by the app), and adds the security
    headers to every response."""

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        csp = (
            DOCS_CONTENT_SECURITY_POLICY if path.startswith(DOCS_PATHS) else CONTENT_SECURITY_POLICY
        )
        api = path.startswith("/api/")

        async def send_secured(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Security-Policy", csp)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
                if api:
                    headers.setdefault("Cache-Control", "no-store")
            await send(message)

        limit = self.max_body_bytes
        declared = None
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                declared = value
        if declared is not None:
            if not declared.isdigit():
                await JSONResponse(
                    {"detail": "the Content-Length header must be a whole number of bytes"},
                    status_code=400,
                )(scope, receive, send_secured)
                return
            if int(declared) > limit:
                await _too_large(limit)(scope, receive, send_secured)
                return
        received = 0

        async def receive_limited() -> Any:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _BodyTooLarge()
            return message

        await self.app(scope, receive_limited, send_secured)


def _too_large(limit: int) -> JSONResponse:
    return JSONResponse(
        {"detail": f"the request body is too large: at most {limit} bytes"},
        status_code=413,
    )


def _printable(message: str) -> str:
    """``message`` made encodable as UTF-8 (a lone surrogate that came from the client
    becomes a ``\\udXXX`` escape instead of breaking the response)."""
    return message.encode("utf-8", "backslashreplace").decode("utf-8")


def _client(connection: Request | WebSocket) -> str:
    """The client's address, the key of its rate limits (behind a proxy, run uvicorn with
    ``--proxy-headers`` so that this is the real client's)."""
    return connection.client.host if connection.client is not None else "unknown"


def _checked_id(game_id: str) -> str:
    """``game_id`` if it can be a game id (URL-safe letters, at most 64). Raises NotFound."""
    if not _GAME_ID.fullmatch(game_id):
        raise NotFound(
            N_("no game {game}: a game id is made of letters, digits, - and _"),
            game=repr(game_id),
        )
    return game_id


def _token(request: Request, body: dict[str, Any] | None = None) -> Any:
    """The seat token of a request: ``Authorization: Bearer <token>``, or ``"token"`` in a
    JSON body; None when there is none.

    Raises:
        BadRequest: a ``?token=`` in the URL, an ``Authorization`` header that is not
            ``Bearer <token>``, or a header and a body that name different tokens.
    """
    if "token" in request.query_params:
        raise BadRequest(
            "seat tokens are not accepted in URLs (they end up in logs and browser history): "
            "send the header 'Authorization: Bearer <token>'"
        )
    header = request.headers.get("authorization")
    from_header = None
    if header is not None:
        scheme, _, credentials = header.strip().partition(" ")
        if scheme.lower() != "bearer" or not credentials.strip():
            raise BadRequest("the Authorization header must be 'Bearer <seat token>'")
        from_header = credentials.strip()
    from_body = None if body is None else body.get("token")
    if from_header is not None and from_body is not None and from_body != from_header:
        raise BadRequest(
            'the Authorization header and "token" in the body name different seat tokens; send one'
        )
    return from_header if from_header is not None else from_body


def _json_response(text: str) -> Response:
    """A 200 response whose body is JSON text already serialized (a state message)."""
    return Response(content=text, media_type="application/json")


async def _json_object(request: Request, max_depth: int = MAX_JSON_DEPTH) -> dict[str, Any]:
    """The request body as a JSON object (:func:`.protocol.loads_json`). Raises
    BadRequest (400) otherwise, or :class:`_BodyTooLarge` past the size limit."""
    raw = await request.body()
    try:
        body = loads_json(raw, max_depth) if raw else None
    except MalformedJSONError as e:
        raise BadRequest(f"the body is {e}" if str(e).startswith("not ") else str(e)) from None
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    return body


def _reason(message: str) -> str:
    """A close reason fits in 123 bytes (RFC 6455)."""
    data = message.encode("utf-8", "backslashreplace")[:120]
    return data.decode("utf-8", errors="ignore")


# ---------------------------------------------------------------------- WebSocket loops


async def _send_loop(websocket: WebSocket, sub: Subscriber) -> None:
    """Drain ``sub``'s outbox (JSON texts) into the socket; a None closes it (the client
    fell behind)."""
    try:
        while True:
            message = await sub.outbox.get()
            if message is None:
                await websocket.close(
                    code=CLOSE_TRY_AGAIN, reason="too many unread messages; reconnect"
                )
                return
            await websocket.send_text(message)
    except (WebSocketDisconnect, RuntimeError):
        return


async def _receive_loop(
    websocket: WebSocket,
    service: GameService,
    live: LiveGame,
    sub: Subscriber,
    limits: Limits,
    rates: RateLimiter,
    language: str = "en",
) -> None:
    """Handle the client's messages (:func:`_handle_message`) until it leaves; a rejected
    message gets ``{"type": "error", "status", "message"}`` (429 ones with
    ``"retry_after"``; the message in ``language``, the reader's) and the connection stays
    open, whatever the frame held."""
    client = _client(websocket)
    while True:
        try:
            frame = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if frame["type"] == "websocket.disconnect":
            return
        try:
            rates.hit("action", client)
            await _handle_message(websocket, service, live, sub, frame, limits)
        except ServiceError as e:
            error: dict[str, Any] = {
                "type": "error",
                "status": e.status,
                "message": _printable(e.translated(language)),
            }
            if isinstance(e, RateLimited):
                error["retry_after"] = e.retry_after
            elif e.status == 503:
                error["retry_after"] = DB_RETRY_AFTER_S
            sub.send(error)
        except DB_UNAVAILABLE as e:
            log.error("database unavailable (WebSocket %s): %s", live.id, e)
            sub.send(
                {
                    "type": "error",
                    "status": 503,
                    "retry_after": DB_RETRY_AFTER_S,
                    "message": Text(
                        N_("the database is unavailable; nothing was changed, try again shortly")
                    ).translated(language),
                }
            )
        except Exception:  # a bug must not drop the connection: say so, keep serving
            log.exception("WebSocket message of game %s failed", live.id)
            sub.send(
                {
                    "type": "error",
                    "status": 500,
                    "message": Text(N_("internal error; the message was not applied")).translated(
                        language
                    ),
                }
            )


async def _handle_message(
    websocket: WebSocket,
    service: GameService,
    live: LiveGame,
    sub: Subscriber,
    frame: Mapping[str, Any],
    limits: Limits,
) -> None:
    """One client frame: ``{"type": "auth", "token"}``, ``{"type": "action", "action",
    "move"}`` or ``{"type": "ping"}``. Raises ServiceError for a rejected one (a bad token
    included: 403, and the connection stays a spectator's)."""
    text = frame.get("text")
    if text is None:
        raise BadRequest("binary frames are not accepted: send JSON text messages")
    size = (
        len(text)
        if len(text) * 4 <= limits.max_ws_message_bytes
        else len(text.encode("utf-8", "surrogatepass"))
    )
    if size > limits.max_ws_message_bytes:
        raise ServiceError(
            f"the message is too large: at most {limits.max_ws_message_bytes} bytes", 413
        )
    try:
        message = loads_json(text, limits.max_json_depth)
    except MalformedJSONError as e:
        raise BadRequest(f"a message must be a JSON object; {e}") from None
    kind = message.get("type") if isinstance(message, dict) else None
    if kind == "ping":
        sub.send({"type": "pong"})
    elif kind == "auth":
        token = message.get("token")
        if not isinstance(token, str) or not token:
            raise BadRequest('"token" must be your seat token (a string, from your invite link)')
        # a bad token: Forbidden, still a spectator
        seat = await service.viewer_seat(live, token, sub.player_id)
        assert seat is not None
        if sub.seat == seat:  # seated by the session already: the same seat's token is fine
            sub.send_text(service.message_json(live, seat))
            return
        if sub.seat is not None:
            raise BadRequest(f"this connection is already seat {sub.seat}'s")
        sub.seat = seat
        sub.send_text(service.message_json(live, seat))
        service.publish(live, exclude=sub)  # the others see the seat connected
    elif kind in ("chat", "resign"):
        if sub.seat is None:
            raise ServiceError(
                N_("spectators cannot chat; authenticate first")
                if kind == "chat"
                else N_("spectators cannot resign; authenticate first"),
                403,
            )
        if kind == "chat":
            await chat.say(service, live, sub.seat, message.get("text"))
        else:
            await service.resign(live, sub.seat)
    elif kind == "action":
        if sub.seat is None:
            raise ServiceError(
                N_(
                    "spectators cannot act; authenticate first: "
                    '{"type": "auth", "token": <your seat token>}'
                ),
                403,
            )
        if "action" not in message:
            raise BadRequest('missing "action": an action id or a notation')
        if "move" not in message:
            raise BadRequest('missing "move": the "move" number of the state you decided on')
        await service.act_as(live, sub.seat, message["action"], message["move"])
    else:
        raise BadRequest(
            'unknown message; send {"type": "auth", "token": ...}, '
            '{"type": "action", "action": ..., "move": n}, {"type": "chat", "text": ...}, '
            '{"type": "resign"} or {"type": "ping"}'
        )


# ---------------------------------------------------------------------- serving


class RedactTokens(logging.Filter):
    """A logging filter that replaces the value of any ``token=`` query parameter in a
    record (its message and string arguments) with ``[redacted]``: uvicorn's access log
    and its WebSocket lines print the path with its query string."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact_tokens(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact_tokens(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {
                k: redact_tokens(v) if isinstance(v, str) else v for k, v in record.args.items()
            }
        return True


def redact_tokens(text: str) -> str:
    """``text`` with every ``token=VALUE`` after ``?``, ``&`` or ``;`` as ``token=[redacted]``."""
    return _TOKEN_IN_TEXT.sub(r"\1[redacted]", text)


def log_config() -> dict[str, Any]:
    """uvicorn's default logging configuration with :class:`RedactTokens` on its handlers."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_tokens"] = {"()": f"{__name__}.RedactTokens"}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact_tokens")
    return config


def serve(
    database_url: str | None = None,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    bot_workers: int | None = None,
    access_log: bool = True,
    log_level: str = "info",
    ws_per_message_deflate: bool = True,
    limits: Limits | None = None,
    lifecycle: Lifecycle | None = None,
    workers: int = 1,
    analysis: AnalysisConfig | None = None,
) -> None:
    """Run the app with uvicorn until it is stopped (SIGINT/SIGTERM); blocks.

    uvicorn picks its fastest installed parts: the ``uvloop`` event loop, the
    ``httptools`` HTTP parser and the ``websockets`` (sans-I/O) WebSocket protocol.

    Args:
        database_url, bot_workers, lifecycle, analysis: as :func:`create_app`.
        host, port: the address to listen on.
        access_log: log one line per HTTP request and WebSocket connection (off for load
            tests: it costs time on the event loop); seat tokens in URLs are redacted.
        log_level: uvicorn's log level (``"info"``, ``"warning"``, ...).
        ws_per_message_deflate: offer WebSocket compression (RFC 7692): smaller state
            messages (their move log repeats from one message to the next) for CPU time
            (about a sixth of the server's time when saturated on loopback; measured with
            ``benchmarks/bench_server.py``).
        limits: as :func:`create_app`; its ``max_ws_message_bytes`` is also uvicorn's
            ``ws_max_size`` (a bigger frame closes the connection with 1009).
        workers: server processes sharing the port (uvicorn's workers); above 1 the
            database must be PostgreSQL (:mod:`.notify`). Each process builds its app
            from the options passed in the environment (:func:`app_from_environment`).

    Raises:
        SystemExit: uvicorn could not start (the port is taken, for example).
    """
    import uvicorn

    limits = limits if limits is not None else Limits()
    target: Any = create_app(
        database_url,
        bot_workers=bot_workers,
        limits=limits,
        lifecycle=lifecycle,
        analysis=analysis,
    )
    extra: dict[str, Any] = {}
    if workers > 1:
        os.environ[SERVE_OPTIONS] = json.dumps(
            {
                "database_url": database_url,
                "bot_workers": bot_workers,
                "limits": dataclasses.asdict(limits),
                "lifecycle": None if lifecycle is None else dataclasses.asdict(lifecycle),
                "analysis": None
                if analysis is None
                else {
                    **dataclasses.asdict(analysis),
                    "settings": analysis.settings.to_dict(),
                },
            }
        )
        target = "splendor.server.app:app_from_environment"
        extra = {"factory": True, "workers": workers}
    uvicorn.run(
        target,
        **extra,
        host=host,
        port=port,
        log_level=log_level,
        access_log=access_log,
        ws_per_message_deflate=ws_per_message_deflate,
        ws_max_size=limits.max_ws_message_bytes,
        log_config=log_config(),
    )


SERVE_OPTIONS = "SPLENDOR_SERVE_OPTIONS"
"""The environment variable through which :func:`serve` passes its options to its worker
processes."""


def app_from_environment() -> FastAPI:
    """The app of one of :func:`serve`'s worker processes, built from the options in the
    environment variable :data:`SERVE_OPTIONS`."""
    options = json.loads(os.environ[SERVE_OPTIONS])
    lifecycle = options["lifecycle"]
    analysis = options.get("analysis")
    return create_app(
        options["database_url"],
        bot_workers=options["bot_workers"],
        limits=Limits(**options["limits"]),
        lifecycle=None if lifecycle is None else Lifecycle(**lifecycle),
        analysis=None if analysis is None else AnalysisConfig(**analysis),
    )


__all__ = [
    "Limits",
    "app_from_environment",
    "RateLimited",
    "RateLimiter",
    "RedactTokens",
    "create_app",
    "log_config",
    "redact_tokens",
    "serve",
]
