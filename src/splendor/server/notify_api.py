"""The notifications' HTTP API (:mod:`.notifications`).

- ``GET /api/players/me/notifications`` (logged in; a guest will do): the player's
  settings, ``{"settings": {channel: {"on", kind...}}, "channels": [...], "kinds": [...],
  "email": {"address", "verified"}, "push": {"subscriptions": n}}``.
- ``PUT /api/players/me/notifications``: a change of the settings, whole or partial
  (``{"email": {"on": false}}``); answers as ``GET``. 400: an unknown channel or switch,
  or a value that is not true/false.
- ``GET /api/push/key``: ``{"key"}``, the server's VAPID public key (base64url), the
  ``applicationServerKey`` of ``PushManager.subscribe``.
- ``POST /api/push/subscriptions`` (logged in): the browser's ``PushSubscription`` JSON
  ``{"endpoint", "keys": {"p256dh", "auth"}}``: kept (201, ``{"subscriptions": n}``). 400:
  a malformed endpoint or keys.
- ``DELETE /api/push/subscriptions`` ``{"endpoint"}``: forgotten (``{"deleted": bool,
  "subscriptions": n}``).
- ``GET /unsubscribe/{token}`` and ``POST`` (RFC 8058's one-click): the link of every
  notification mail turns e-mail notifications off (a page saying so, in the player's
  language). 403: a forged token; 404: the player is gone.
- ``GET /sw.js``: the service worker (``web/sw.js``) at the site's root, so that its scope
  is the whole site.

Every route counts against the ``action`` rate of the client.
"""

from __future__ import annotations

import asyncio
import html
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse
from sqlalchemy import select, update

from ..i18n import DEFAULT_LANGUAGE, LANGUAGES
from .errors import N_, BadRequest, NotFound
from .notifications import Notifier
from .notify_mail import unsubscribed_text
from .notify_prefs import CHANNELS, KINDS, effective, merged
from .request_context import body_of, hit_rate, required_player
from .rows import PlayerRow
from .storage import Storage


def notifier_of(request: Request) -> Notifier:
    """The app's notifier."""
    notifier: Notifier = request.app.state.notifier  # set by the lifespan
    return notifier


def _settings(storage: Storage, notifier: Notifier, player_id: str) -> dict[str, Any]:
    with storage.engine.begin() as c:
        row = c.execute(
            select(PlayerRow.notify, PlayerRow.email, PlayerRow.email_verified_at).where(
                PlayerRow.id == player_id
            )
        ).one()
    return {
        "settings": effective(row.notify),
        "channels": list(CHANNELS),
        "kinds": list(KINDS),
        "email": {"address": row.email, "verified": row.email_verified_at is not None},
        "push": {"subscriptions": notifier.delivery.push.count(player_id)},
    }


def _change(storage: Storage, player_id: str, change: Any) -> None:
    with storage.engine.begin() as c:
        stored = c.execute(select(PlayerRow.notify).where(PlayerRow.id == player_id)).scalar()
        prefs = merged(stored, change)
        c.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(notify=prefs))


def _email_off(storage: Storage, player_id: str) -> str:
    """Turn ``player_id``'s e-mail notifications off; their language. Raises NotFound."""
    with storage.engine.begin() as c:
        row = c.execute(
            select(PlayerRow.notify, PlayerRow.language, PlayerRow.deleted_at).where(
                PlayerRow.id == player_id
            )
        ).first()
        if row is None or row.deleted_at is not None:
            raise NotFound(N_("this player does not exist any more"))
        prefs = effective(row.notify)
        prefs["email"]["on"] = False
        c.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(notify=prefs))
    return row.language if row.language in LANGUAGES else DEFAULT_LANGUAGE


def _page(title: str, text: str, language: str) -> HTMLResponse:
    body = (
        f'<!doctype html><html lang="{html.escape(language)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{html.escape(title)}</title><link rel="stylesheet" href="/static/style.css">'
        f'</head><body><main id="app" class="unsubscribed"><h1>{html.escape(title)}</h1>'
        f'<p>{html.escape(text)}</p><p><a href="/">Splendor</a></p></main></body></html>'
    )
    return HTMLResponse(body, headers={"Cache-Control": "no-store"})


def notify_router(web: Path) -> APIRouter:
    """The routes above; ``web`` is the client's folder (its ``sw.js``)."""
    router = APIRouter()

    def storage_of(request: Request) -> Storage:
        storage: Storage = request.app.state.storage  # set by the lifespan
        return storage

    @router.get("/api/players/me/notifications")
    async def settings(request: Request) -> dict[str, Any]:
        hit_rate("action", request)
        player = await required_player(request)
        return await asyncio.to_thread(
            _settings, storage_of(request), notifier_of(request), player.id
        )

    @router.put("/api/players/me/notifications")
    async def change(request: Request) -> dict[str, Any]:
        hit_rate("action", request)
        player = await required_player(request)
        body = await body_of(request)
        storage = storage_of(request)
        await asyncio.to_thread(_change, storage, player.id, body)
        return await asyncio.to_thread(_settings, storage, notifier_of(request), player.id)

    @router.get("/api/push/key")
    async def push_key(request: Request) -> dict[str, str]:
        hit_rate("action", request)
        push = notifier_of(request).delivery.push
        return {"key": await asyncio.to_thread(push.public_key)}

    @router.post("/api/push/subscriptions", status_code=201)
    async def subscribe(request: Request) -> dict[str, Any]:
        hit_rate("action", request)
        player = await required_player(request)
        body = await body_of(request)
        push = notifier_of(request).delivery.push
        await asyncio.to_thread(push.subscribe, player.id, body)
        return {"subscriptions": await asyncio.to_thread(push.count, player.id)}

    @router.delete("/api/push/subscriptions")
    async def unsubscribe_push(request: Request) -> dict[str, Any]:
        hit_rate("action", request)
        player = await required_player(request)
        body = await body_of(request)
        if "endpoint" not in body:
            raise BadRequest("the body is {endpoint}: the subscription's endpoint")
        push = notifier_of(request).delivery.push
        deleted = await asyncio.to_thread(push.unsubscribe, player.id, body["endpoint"])
        return {"deleted": deleted, "subscriptions": await asyncio.to_thread(push.count, player.id)}

    async def unsubscribe(request: Request, token: str) -> HTMLResponse:
        hit_rate("action", request)
        unsubscribe = notifier_of(request).delivery.unsubscribe
        player_id = await asyncio.to_thread(unsubscribe.player_of, token)
        language = await asyncio.to_thread(_email_off, storage_of(request), player_id)
        return _page(*unsubscribed_text(language), language)

    router.add_api_route(
        "/unsubscribe/{token}", unsubscribe, methods=["GET", "POST"], include_in_schema=False
    )

    @router.get("/sw.js", include_in_schema=False)
    async def service_worker() -> FileResponse:
        path = web / "sw.js"
        if not path.is_file():
            raise NotFound(N_("the service worker is not installed"))
        return FileResponse(
            path,
            media_type="text/javascript",
            headers={"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"},
        )

    return router


__all__ = ["notifier_of", "notify_router"]
