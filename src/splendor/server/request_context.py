"""What a route reads from its request or WebSocket: the app's objects (set on
``app.state`` by :func:`.app.create_app`'s lifespan), the client's address, the session's
player, the seat token, the game id and the JSON body. Every router uses these, so a route
holds only what it does."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from fastapi import Request, WebSocket
from fastapi.responses import Response

from .errors import N_, BadRequest, NotFound, ServiceError
from .players_api import SESSION_COOKIE, check_same_site, same_site
from .protocol import MalformedJSONError, loads_json

if TYPE_CHECKING:
    from .accounts import Accounts, Player
    from .analysis_jobs import Analyses
    from .hub import Hub
    from .rates import Limits, RateLimiter
    from .service import GameService
    from .tables import Tables

Connection = Request | WebSocket

_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

# ---------------------------------------------------------------------- the app's objects


def service_of(connection: Connection) -> GameService:
    """The app's game service."""
    service: GameService = connection.app.state.service  # set by the lifespan
    return service


def accounts_of(connection: Connection) -> Accounts:
    """The app's players and sessions."""
    accounts: Accounts = connection.app.state.accounts  # set by the lifespan
    return accounts


def tables_of(connection: Connection) -> Tables:
    """The app's lobby tables."""
    tables: Tables = connection.app.state.tables  # set by the lifespan
    return tables


def analyses_of(connection: Connection) -> Analyses:
    """The app's post-game analyses."""
    found: Analyses = connection.app.state.analyses  # set by the lifespan
    return found


def hub_of(connection: Connection) -> Hub:
    """The app's WebSocket subscribers."""
    hub: Hub = connection.app.state.hub  # set by the lifespan
    return hub


def limits_of(connection: Connection) -> Limits:
    """The app's :class:`.rates.Limits`."""
    limits: Limits = connection.app.state.limits  # set by create_app
    return limits


def rates_of(connection: Connection) -> RateLimiter:
    """The app's rate counters."""
    rates: RateLimiter = connection.app.state.rates  # set by create_app
    return rates


# ---------------------------------------------------------------------- the caller


def client_of(connection: Connection) -> str:
    """The client's address, the key of its rate limits (behind a proxy, run uvicorn with
    ``--proxy-headers`` so that this is the real client's)."""
    return connection.client.host if connection.client is not None else "unknown"


def hit_rate(kind: str, connection: Connection) -> None:
    """Count one ``kind`` request (``"create"``, ``"action"``, ``"auth"``) of the client.

    Raises:
        RateLimited: over the rate (:meth:`.rates.RateLimiter.hit`).
    """
    rates_of(connection).hit(kind, client_of(connection))


async def player_of(connection: Connection) -> Player | None:
    """The logged-in player of a request or WebSocket (its session cookie), or None;
    a cookie sent from another site's page does not count."""
    if not same_site(connection):
        return None
    token = connection.cookies.get(SESSION_COOKIE)
    if token is None:
        return None
    return await asyncio.to_thread(accounts_of(connection).player_for_session, token)


class NotLoggedIn(ServiceError):
    """A request that needs a player without a session (401)."""

    status = 401


async def required_player(
    request: Request,
    player_of: Callable[[Request], Awaitable[Player | None]] = player_of,
) -> Player:
    """The session's player of a request that needs one (same-site requests only).

    Args:
        request: the request.
        player_of: how to read its player (default :func:`player_of`; the routers that
            are given the app's take that one).

    Raises:
        NotLoggedIn: no session (401).
        Forbidden: a cookie-carrying request from another site's page (403).
    """
    check_same_site(request)
    player = await player_of(request)
    if player is None:
        raise NotLoggedIn(N_("play as a guest or log in first (POST /api/players/guest)"))
    return player


async def player_id_of(connection: Connection) -> str | None:
    """The id of :func:`player_of`, or None."""
    player = await player_of(connection)
    return None if player is None else player.id


# ---------------------------------------------------------------------- what it sent


def checked_id(game_id: str) -> str:
    """``game_id`` if it can be a game id (URL-safe letters, at most 64). Raises NotFound."""
    if not _GAME_ID.fullmatch(game_id):
        raise NotFound(
            N_("no game {game}: a game id is made of letters, digits, - and _"),
            game=repr(game_id),
        )
    return game_id


def seat_token(request: Request, body: dict[str, Any] | None = None) -> Any:
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


async def body_of(request: Request) -> dict[str, Any]:
    """The request body as a JSON object (:func:`.protocol.loads_json`, nested at most
    :attr:`.rates.Limits.max_json_depth` deep).

    Raises:
        BadRequest: not JSON, too deep, or not an object (400).
        BodyTooLarge: past the size limit (:class:`.middleware.Guard`).
    """
    raw = await request.body()
    try:
        body = loads_json(raw, limits_of(request).max_json_depth) if raw else None
    except MalformedJSONError as e:
        raise BadRequest(f"the body is {e}" if str(e).startswith("not ") else str(e)) from None
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    return body


async def optional_body_of(request: Request) -> dict[str, Any]:
    """:func:`body_of`, or ``{}`` for a request without a body."""
    return await body_of(request) if await request.body() else {}


def json_response(text: str) -> Response:
    """A 200 response whose body is JSON text already serialized (a state message)."""
    return Response(content=text, media_type="application/json")


__all__ = [
    "accounts_of",
    "analyses_of",
    "body_of",
    "checked_id",
    "client_of",
    "hit_rate",
    "hub_of",
    "json_response",
    "limits_of",
    "optional_body_of",
    "player_id_of",
    "player_of",
    "rates_of",
    "seat_token",
    "service_of",
    "tables_of",
]
