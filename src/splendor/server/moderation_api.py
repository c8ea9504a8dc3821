"""The moderation HTTP API: reporting a player, and the moderators' routes.

Reports (a logged-in account; :mod:`.reports` for the limits):

- ``POST /api/players/{id}/report`` ``{"reason", "text"?, "game_id"?}``: report a player
  (201, the report). 403 not logged in or a guest, 404 no such player or game, 400 a bad
  body or yourself, 409 an open report of yours about that player exists, 429 too many
  reports today (``Retry-After``).
- ``POST /api/games/{id}/seats/{seat}/report`` ``{"reason", "text"?}``: the same about
  the player of a seat (from a name in the game's chat); 404 a bot's or unknown seat.

The moderators' routes (an admin's session; anybody else gets 403 and nothing changes):

- ``GET /api/moderation/reports?status=open|all``: ``{"reports": [...], "open": n}``
  (:meth:`.reports.Reports.queue`).
- ``POST /api/moderation/reports/{id}/close`` ``{"resolution": "resolved"|"dismissed"}``:
  ``{"report"}``; 409 closed already.
- ``GET /api/moderation/players?q=TEXT``: ``{"players": [...]}`` whose name starts with
  TEXT, or whose id it is (:meth:`.moderation.Moderation.search`).
- ``GET /api/moderation/players/{id}``: ``{"player"}``, its moderation status.
- ``POST /api/moderation/players/{id}/mute`` ``{"minutes", "reason"?}``, ``.../unmute``,
  ``.../ban`` ``{"reason"?}``, ``.../unban``, ``.../rename`` ``{"name"}``: the act
  (:class:`.moderation.Moderation`), answered ``{"player"}`` (its status after it). 403
  acting on yourself or another admin, 409 banning a banned player, unbanning one who is
  not, a name another account holds.
- ``GET /api/moderation/audit?before=ID``: ``{"entries": [...]}``, the audit log newest
  first (:meth:`.moderation.Moderation.audit_log`).

Every route counts against the client's ``action`` rate.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from .accounts import Player
from .errors import N_, BadRequest, Forbidden
from .moderation import Moderation, require_admin
from .reports import Reports
from .request_context import body_of, checked_id, hit_rate, optional_body_of, player_of


def _storage(request: Request) -> Any:
    return request.app.state.storage  # set by the lifespan


async def _reporter(request: Request) -> Player:
    """The logged-in player filing a report.

    Raises:
        Forbidden: nobody is logged in (403).
    """
    player = await player_of(request)
    if player is None:
        raise Forbidden(N_("log in to report a player"))
    return player


async def _admin(request: Request) -> tuple[Moderation, str]:
    """The moderation acts and the acting admin's id.

    Raises:
        Forbidden: nobody logged in, or not an admin (403).
    """
    hit_rate("action", request)
    player = await player_of(request)
    storage = _storage(request)
    admin_id = await asyncio.to_thread(
        require_admin, storage, None if player is None else player.id
    )
    return Moderation(storage), admin_id


def _report_id(report_id: str) -> int:
    try:
        value = int(report_id)
    except ValueError:
        raise BadRequest(f"a report id is a whole number, got {report_id[:20]!r}") from None
    if not 0 < value < 2**31:
        raise BadRequest(f"a report id is a positive whole number, got {value}")
    return value


def _seat(seat: str) -> int:
    if not seat.isdigit() or len(seat) > 2:
        raise BadRequest(f"a seat is a whole number from 0, got {seat[:20]!r}")
    return int(seat)


def moderation_router() -> APIRouter:
    """The routes of the module's docstring."""
    router = APIRouter()

    @router.post("/api/players/{player_id}/report", status_code=201)
    async def report(request: Request, player_id: str) -> dict[str, Any]:
        hit_rate("action", request)
        reporter = await _reporter(request)
        body = await body_of(request)
        reports = Reports(_storage(request))
        return {"report": await asyncio.to_thread(reports.file, reporter, player_id, body)}

    @router.post("/api/games/{game_id}/seats/{seat}/report", status_code=201)
    async def report_seat(request: Request, game_id: str, seat: str) -> dict[str, Any]:
        hit_rate("action", request)
        reporter = await _reporter(request)
        body = await body_of(request)
        reports = Reports(_storage(request))
        found = await asyncio.to_thread(
            reports.file_for_seat, reporter, checked_id(game_id), _seat(seat), body
        )
        return {"report": found}

    @router.get("/api/moderation/reports")
    async def queue(request: Request, status: str = "open") -> dict[str, Any]:
        mod, _ = await _admin(request)
        reports = Reports(mod.storage)
        entries = await asyncio.to_thread(reports.queue, status)
        return {"reports": entries, "open": await asyncio.to_thread(reports.open_count)}

    @router.post("/api/moderation/reports/{report_id}/close")
    async def close(request: Request, report_id: str) -> dict[str, Any]:
        mod, admin = await _admin(request)
        body = await body_of(request)
        reports = Reports(mod.storage)
        done = await asyncio.to_thread(
            reports.close, _report_id(report_id), body.get("resolution"), admin
        )
        return {"report": done}

    @router.get("/api/moderation/players")
    async def search(request: Request, q: str = "") -> dict[str, Any]:
        mod, _ = await _admin(request)
        return {"players": await asyncio.to_thread(mod.search, q)}

    @router.get("/api/moderation/players/{player_id}")
    async def status(request: Request, player_id: str) -> dict[str, Any]:
        mod, _ = await _admin(request)
        return {"player": await asyncio.to_thread(mod.status, player_id)}

    @router.post("/api/moderation/players/{player_id}/{act}")
    async def act(request: Request, player_id: str, act: str) -> dict[str, Any]:
        mod, admin = await _admin(request)
        body = await optional_body_of(request)
        if act == "mute":
            call: Any = (mod.mute, player_id, body.get("minutes"), body.get("reason"), admin)
        elif act == "unmute":
            call = (mod.unmute, player_id, admin)
        elif act == "ban":
            call = (mod.ban, player_id, body.get("reason"), admin)
        elif act == "unban":
            call = (mod.unban, player_id, admin)
        elif act == "rename":
            call = (mod.rename, player_id, body.get("name"), admin)
        else:
            raise BadRequest(
                f"unknown act {act[:20]!r}: the acts are mute, unmute, ban, unban, rename"
            )
        return {"player": await asyncio.to_thread(*call)}

    @router.get("/api/moderation/audit")
    async def audit(request: Request, before: str | None = None) -> dict[str, Any]:
        mod, _ = await _admin(request)
        return {"entries": await asyncio.to_thread(mod.audit_log, before)}

    return router


__all__ = ["moderation_router"]
