"""The players' HTTP API: guest, sign-up, log-in, log-out, "who am I" and player pages.

The session lives in the cookie :data:`SESSION_COOKIE`: HTTP-only (scripts cannot read it),
``SameSite=Lax`` (other sites' pages cannot post with it), ``Secure`` when the request came
over HTTPS, for :data:`SESSION_MAX_AGE` seconds. A request that carries the cookie and an
``Origin`` header naming another site is refused (403) before anything changes.

Routes (JSON bodies, answers ``{"player": {...}}`` unless said):

- ``POST /api/players/guest`` ``{"name"}``: a new guest, logged in (201).
- ``POST /api/players/signup`` ``{"name", "password"}``: an account; the guest of the
  current session becomes it (same id, games and ratings kept) (201). 409: the name is taken.
- ``POST /api/players/login`` ``{"name", "password"}``: 401 "wrong name or password".
- ``POST /api/players/logout``: ends the session, clears the cookie (``{"player": null}``).
- ``GET /api/players/me``: the session's player, or ``{"player": null}``. The player
  answers of these routes are the player's own view (:meth:`.accounts.Player.to_json`
  with ``private``: ``role``, ``email``, ``email_verified``, ``language``).
- Log-in remembers the request's language as the language of the player's mails.
- E-mail, password reset and change, deletion: :mod:`.account_api`.
- ``GET /api/players/{id}``: the player page (:meth:`.accounts.Accounts.profile`).
- ``GET /api/players/leaderboard/{kind}``: the best ratings of ``splendor-2``,
  ``splendor-multi`` or ``duel`` (:meth:`.accounts.Accounts.leaderboard`).

Guest, sign-up and log-in count against the ``auth`` rate of :class:`.app.Limits`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection

from .accounts import Accounts, Player
from .errors import N_, Forbidden
from .language import language_of
from .moderation import check_address, note_session_address

SESSION_COOKIE = "splendor_session"
SESSION_MAX_AGE = 400 * 24 * 3600
"""Seconds a session cookie lives (400 days, the longest browsers keep one)."""


def session_token(request: Request) -> str | None:
    """The session token of a request's cookie, if any."""
    return request.cookies.get(SESSION_COOKIE)


def same_site(connection: HTTPConnection) -> bool:
    """False when a request or WebSocket handshake carries an ``Origin`` header naming a
    host other than its ``Host`` (a page of another site): its cookie must not be used.
    Browsers send ``Origin`` on every WebSocket handshake and cross-site POST."""
    origin = connection.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == connection.headers.get("host")


def check_same_site(request: Request) -> None:
    """Refuse a cookie-carrying request whose ``Origin`` is another site.

    Raises:
        Forbidden: the ``Origin`` header names a host other than the request's ``Host``.
    """
    if SESSION_COOKIE in request.cookies and not same_site(request):
        raise Forbidden(N_("a request from another site cannot use your session"))


def _address(request: Request) -> str:
    """The client's address (as :func:`.request_context.client_of`, which imports this
    module)."""
    return request.client.host if request.client is not None else "unknown"


async def _note_address(accounts: Accounts, request: Request, token: str) -> None:
    """Keep the hash of the address of a new session (:mod:`.moderation`: a ban reaches
    the guests made from it)."""
    await asyncio.to_thread(note_session_address, accounts.storage, token, _address(request))


async def _check_address(accounts: Accounts, request: Request, account: bool) -> None:
    """Refuse a new guest (``account``: a new account) from a banned address
    (:func:`.moderation.check_address`; 403)."""
    await asyncio.to_thread(check_address, accounts.storage, _address(request), account)


async def _remember_language(request: Request, accounts: Accounts, player: Player) -> Player:
    """``player`` with the request's language as the language of its mails (stored)."""
    language = language_of(request)
    if player.language == language:
        return player
    await asyncio.to_thread(accounts.set_language, player.id, language)
    return replace(player, language=language)


def _with_session(request: Request, content: dict[str, Any], token: str, status: int) -> Any:
    response = JSONResponse(content, status_code=status)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=SESSION_MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


def players_router(
    accounts_of: Callable[[Request], Accounts],
    body_of: Callable[[Request], Awaitable[dict[str, Any]]],
    hit_rate: Callable[[str, Request], None],
) -> APIRouter:
    """The routes above.

    Args:
        accounts_of: the app's :class:`~.accounts.Accounts` for a request.
        body_of: reads a request's JSON object body (size and depth limited; 400 if not
            an object).
        hit_rate: counts a request of a kind (``"auth"``, ``"action"``) for its client
            (raises the app's 429 error when over the rate).
    """
    router = APIRouter(prefix="/api/players")

    async def logged_in(request: Request, player: Player, token: str, status: int) -> Any:
        await _note_address(accounts_of(request), request, token)  # bans reach it
        return _with_session(request, {"player": player.to_json(private=True)}, token, status)

    @router.post("/guest", status_code=201)
    async def guest(request: Request) -> Any:
        hit_rate("auth", request)
        check_same_site(request)
        body = await body_of(request)
        await _check_address(accounts_of(request), request, False)
        player, token = await asyncio.to_thread(accounts_of(request).create_guest, body.get("name"))
        return await logged_in(request, player, token, 201)

    @router.post("/signup", status_code=201)
    async def signup(request: Request) -> Any:
        hit_rate("auth", request)
        check_same_site(request)
        body = await body_of(request)
        await _check_address(accounts_of(request), request, True)
        player, token = await asyncio.to_thread(
            accounts_of(request).sign_up,
            body.get("name"),
            body.get("password"),
            session_token(request),
        )
        return await logged_in(request, player, token, 201)

    @router.post("/login")
    async def login(request: Request) -> Any:
        hit_rate("auth", request)
        check_same_site(request)
        body = await body_of(request)
        player, token = await asyncio.to_thread(
            accounts_of(request).log_in, body.get("name"), body.get("password")
        )
        player = await _remember_language(request, accounts_of(request), player)
        return await logged_in(request, player, token, 200)

    @router.post("/logout")
    async def logout(request: Request) -> Any:
        check_same_site(request)
        await asyncio.to_thread(accounts_of(request).log_out, session_token(request))
        response = JSONResponse({"player": None})
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
        return response

    @router.get("/me")
    async def me(request: Request) -> dict[str, Any]:
        player = await asyncio.to_thread(
            accounts_of(request).player_for_session, session_token(request)
        )
        return {"player": player.to_json(private=True) if player is not None else None}

    @router.get("/leaderboard/{kind}")
    async def leaderboard(request: Request, kind: str) -> dict[str, Any]:
        hit_rate("action", request)
        return await asyncio.to_thread(accounts_of(request).leaderboard, kind)

    @router.get("/{player_id}")
    async def page(request: Request, player_id: str) -> dict[str, Any]:
        hit_rate("action", request)  # database queries per call
        return await asyncio.to_thread(accounts_of(request).profile, player_id)

    return router
