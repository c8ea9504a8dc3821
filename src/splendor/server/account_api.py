"""The account routes: e-mail address, verification, password reset and change, deletion.

JSON bodies; refusals are ``{"detail"}`` with the status said. A route that needs a
player answers 401 without a session. Cookie-carrying requests from another site are
refused (403, :func:`.players_api.check_same_site`).

- ``POST /api/players/me/email`` ``{"email"}``: set the address (unverified) and mail a
  verification link (202 ``{"player", "sent"}``; ``sent`` false when it is the verified
  address already). 400 not one address (header injection included), 403 a guest, 429
  too many mails, 503 the mail could not be sent.
- ``POST /api/players/me/email/resend``: a new link to the unverified address (202
  ``{"player"}``); 409 none waiting.
- ``DELETE /api/players/me/email``: forget the address (``{"player"}``).
- ``POST /api/players/verify-email`` ``{"token"}``: confirm an address (``{"verified":
  true, "email"}``); 404 forged, 409 used (or the address changed since), 410 expired.
- ``POST /api/players/reset`` ``{"name_or_email"}``: 202 ``{"detail"}``, the same whatever
  exists; a mail goes to the account's verified address (:mod:`.account_mail`).
- ``POST /api/players/reset/confirm`` ``{"token", "password"}``: set the new password,
  log out every other session (``{"player"}``); 400 a bad password, 404/409/410 as above.
- ``POST /api/players/me/password`` ``{"current", "new"}``: change the password; every
  other session is logged out (``{"player"}``); 401 a wrong current password.
- ``DELETE /api/players/me`` ``{"password"}`` (an account; a guest sends no body or
  ``{}``): delete the player (:mod:`.account_changes`), leave its open tables, end the
  session (``{"player": null, "name"}``: the anonymous name it now has).

Every route that checks a password or sends a mail counts against the client address's
``auth`` rate (:class:`.rates.Limits`); the others against ``action``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import select

from .account_changes import AccountChanges
from .account_mail import AccountMail
from .accounts import BadCredentials, Player
from .errors import N_, Conflict, Text
from .language import language_of
from .players_api import SESSION_COOKIE, check_same_site, session_token
from .request_context import (
    accounts_of,
    body_of,
    hit_rate,
    optional_body_of,
    player_of,
    tables_of,
)
from .storage import TableRow, TableSeatRow
from .tables import OPEN


def account_mail_of(request: Request) -> AccountMail:
    """The app's :class:`.account_mail.AccountMail` (made with the app's accounts and
    mailer at the first use)."""
    state = request.app.state
    found: AccountMail | None = getattr(state, "account_mail", None)
    if found is None:
        found = state.account_mail = AccountMail(state.accounts, state.mailer)
    return found


def base_url_of(request: Request) -> str:
    """The site's address for links in mails: ``--public-url``, else the request's."""
    public: str | None = getattr(request.app.state.mail, "public_url", None)
    return public or str(request.base_url)


async def _me(request: Request) -> Player:
    player = await player_of(request)
    if player is None:
        raise BadCredentials(N_("log in first"))
    return player


def _open_tables(request: Request, player_id: str) -> list[str]:
    with accounts_of(request).storage.session() as s:
        return list(
            s.scalars(
                select(TableRow.id)
                .join(TableSeatRow, TableSeatRow.table_id == TableRow.id)
                .where(TableSeatRow.player_id == player_id, TableRow.status == OPEN)
            )
        )


def account_router() -> APIRouter:
    """The routes of the module docstring."""
    router = APIRouter(prefix="/api/players")
    _email_routes(router)
    _password_routes(router)
    return router


def _email_routes(router: APIRouter) -> None:
    """The address and its verification."""

    @router.post("/me/email", status_code=202)
    async def set_email(request: Request) -> Any:
        hit_rate("auth", request)
        check_same_site(request)
        me = await _me(request)
        body = await body_of(request)
        player, sent = await account_mail_of(request).set_email(
            me, body.get("email"), language_of(request), base_url_of(request)
        )
        return JSONResponse({"player": player.to_json(private=True), "sent": sent}, 202)

    @router.post("/me/email/resend", status_code=202)
    async def resend(request: Request) -> Any:
        hit_rate("auth", request)
        check_same_site(request)
        me = await _me(request)
        player = await account_mail_of(request).resend(me, base_url_of(request))
        return JSONResponse({"player": player.to_json(private=True)}, 202)

    @router.delete("/me/email")
    async def remove_email(request: Request) -> dict[str, Any]:
        hit_rate("action", request)
        check_same_site(request)
        me = await _me(request)
        player = await asyncio.to_thread(account_mail_of(request).remove_email, me.id)
        return {"player": player.to_json(private=True)}

    @router.post("/verify-email")
    async def verify(request: Request) -> dict[str, Any]:
        hit_rate("auth", request)
        check_same_site(request)
        body = await body_of(request)
        email = await asyncio.to_thread(account_mail_of(request).verify, body.get("token"))
        return {"verified": True, "email": email}


def _password_routes(router: APIRouter) -> None:
    """Password reset and change, and deletion."""

    @router.post("/reset", status_code=202)
    async def reset(request: Request) -> Any:
        hit_rate("auth", request)
        check_same_site(request)
        body = await body_of(request)
        account_mail_of(request).request_reset(body.get("name_or_email"), base_url_of(request))
        detail = Text(
            N_(
                "if an account has this name or address and a verified e-mail address, "
                "a link to choose a new password is on its way"
            )
        ).translated(language_of(request))
        return JSONResponse({"detail": detail}, 202)

    @router.post("/reset/confirm")
    async def reset_confirm(request: Request) -> dict[str, Any]:
        hit_rate("auth", request)
        check_same_site(request)
        body = await body_of(request)
        player = await asyncio.to_thread(
            account_mail_of(request).confirm_reset,
            body.get("token"),
            body.get("password"),
            session_token(request),
        )
        return {"player": player.to_json()}

    @router.post("/me/password")
    async def change_password(request: Request) -> dict[str, Any]:
        hit_rate("auth", request)
        check_same_site(request)
        me = await _me(request)
        body = await body_of(request)
        player = await asyncio.to_thread(
            AccountChanges(accounts_of(request)).change_password,
            me,
            body.get("current"),
            body.get("new"),
            session_token(request),
        )
        return {"player": player.to_json(private=True)}

    @router.delete("/me")
    async def delete_me(request: Request) -> Any:
        hit_rate("auth", request)
        check_same_site(request)
        me = await _me(request)
        body = await optional_body_of(request)
        changes = AccountChanges(accounts_of(request))
        name = await asyncio.to_thread(changes.delete, me, body.get("password"))
        for table_id in await asyncio.to_thread(_open_tables, request, me.id):
            try:
                await tables_of(request).leave(me, table_id)
            except Conflict:
                pass  # started or left meanwhile
        response = JSONResponse({"player": None, "name": name})
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
        return response


__all__ = ["account_mail_of", "account_router", "base_url_of"]
