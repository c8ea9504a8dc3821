"""The HTTP API of "My games", friends and blocks (:mod:`.my_games`, :mod:`.social`).

Every route needs a logged-in player (a guest will do; 401 without a session) and counts
against the ``action`` rate (an invitation against ``create``):

- ``GET /api/me/games?finished=N``: ``{"games": [...], "finished": [...], "waiting": n}``,
  the session's player's unfinished games (those waiting on the player first) and its
  ``N`` (0-100, default 20) most recent finished ones (:func:`.my_games.entries`).
- ``POST /api/players/{id}/follow``, ``DELETE /api/players/{id}/follow``: follow or stop
  following (idempotent); ``POST /api/players/{id}/block``, ``DELETE
  /api/players/{id}/block``: block or unblock (idempotent; blocking ends the follows
  between the two, and the blocker leaves the open tables where both sit). Each answers
  ``{"relation": {"following", "followed_by", "friend", "blocked"}}``. 400: oneself;
  404: no such player; 403: following across a block.
- ``GET /api/players/{id}/relation``: ``{"relation": {...}}`` as above.
- ``GET /api/me/friends``: ``{"friends": [...], "following": [...], "followers": [...]}``
  (:func:`.social.friends`), each player with ``"online"`` (an open ``/ws/me``).
- ``GET /api/me/blocks``: ``{"blocks": [{"id", "name", "account", "since"}]}``.
- ``POST /api/tables/{id}/invite`` ``{"player_id", "code"?}``: invite a friend to an open
  table where the inviter sits (``code``: the invitation code of an invitation table, put
  in the link). The friend's tabs get ``{"type": "invite", "table", "url", "from"}`` on
  ``/ws/me``, and the notifier (``app.state.notifier``, when the app has one) is asked to
  tell them. Answers ``{"invited": id, "online": bool, "url"}``. 403: not seated there,
  not a friend, a block between the friend and a seated player, a wrong code; 404: no
  such table or player; 409: the table is not open, full, or the friend sits there.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import secrets
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import select

from ..game import get_game
from . import social
from .accounts import Player
from .errors import N_, BadRequest, Conflict, Forbidden, Text
from .my_games import FINISHED_LIMIT, entries, read_games
from .player_feed import is_online, send_to_player
from .request_context import body_of, hit_rate, hub_of, required_player, service_of, tables_of
from .storage import Storage, TableRow, TableSeatRow, utcnow
from .table_forms import OPEN, invite_hash

log = logging.getLogger(__name__)


required = required_player
"""The session's player (:func:`.request_context.required_player`)."""


def storage_of(request: Request) -> Storage:
    """The app's storage."""
    storage: Storage = request.app.state.storage  # set by the lifespan
    return storage


def _finished_limit(request: Request) -> int:
    raw = request.query_params.get("finished")
    if raw is None:
        return FINISHED_LIMIT
    if not (raw.isascii() and raw.isdigit()) or int(raw) > 100:
        raise BadRequest('"finished" must be a whole number from 0 to 100')
    return int(raw)


def social_router() -> APIRouter:
    """The routes above (module docstring)."""
    router = APIRouter()

    @router.get("/api/me/games")
    async def my_games(request: Request) -> dict[str, Any]:
        hit_rate("action", request)
        player = await required(request)
        limit = _finished_limit(request)
        active, done = await asyncio.to_thread(
            read_games, storage_of(request), player.id, finished=limit
        )
        return entries(active, done, player.id, service_of(request).games.find, utcnow())

    async def change(request: Request, player_id: str, act: Any) -> dict[str, Any]:
        hit_rate("action", request)
        player = await required(request)
        storage = storage_of(request)
        await asyncio.to_thread(act, storage, player.id, player_id)
        return {"relation": await asyncio.to_thread(social.relation, storage, player.id, player_id)}

    @router.post("/api/players/{player_id}/follow")
    async def follow(request: Request, player_id: str) -> dict[str, Any]:
        return await change(request, player_id, social.follow)

    @router.delete("/api/players/{player_id}/follow")
    async def unfollow(request: Request, player_id: str) -> dict[str, Any]:
        return await change(request, player_id, social.unfollow)

    @router.post("/api/players/{player_id}/block")
    async def block(request: Request, player_id: str) -> dict[str, Any]:
        answer = await change(request, player_id, social.block)
        await _leave_shared_tables(request, await required(request), player_id)
        return answer

    @router.delete("/api/players/{player_id}/block")
    async def unblock(request: Request, player_id: str) -> dict[str, Any]:
        return await change(request, player_id, social.unblock)

    @router.get("/api/players/{player_id}/relation")
    async def relation(request: Request, player_id: str) -> dict[str, Any]:
        hit_rate("action", request)
        player = await required(request)
        storage = storage_of(request)
        await asyncio.to_thread(social.check_other, storage, player.id, player_id)
        return {"relation": await asyncio.to_thread(social.relation, storage, player.id, player_id)}

    @router.get("/api/me/friends")
    async def friends(request: Request) -> dict[str, Any]:
        hit_rate("action", request)
        player = await required(request)
        found = await asyncio.to_thread(social.friends, storage_of(request), player.id)
        hub = hub_of(request)
        for group in found.values():
            for entry in group:
                entry["online"] = is_online(hub, entry["id"])
        return found

    @router.get("/api/me/blocks")
    async def blocks(request: Request) -> dict[str, Any]:
        hit_rate("action", request)
        player = await required(request)
        return {"blocks": await asyncio.to_thread(social.blocks, storage_of(request), player.id)}

    @router.post("/api/tables/{table_id}/invite")
    async def invite(request: Request, table_id: str) -> dict[str, Any]:
        hit_rate("create", request)
        player = await required(request)
        return await invite_friend(request, player, table_id, await body_of(request))

    return router


def _shared_tables(storage: Storage, player_id: str, other_id: str) -> list[str]:
    """The open tables where both players sit."""
    with storage.session() as s:
        mine = select(TableSeatRow.table_id).where(TableSeatRow.player_id == player_id)
        return list(
            s.scalars(
                select(TableRow.id)
                .join(TableSeatRow, TableSeatRow.table_id == TableRow.id)
                .where(
                    TableSeatRow.player_id == other_id,
                    TableRow.status == OPEN,
                    TableRow.id.in_(mine),
                )
            )
        )


async def _leave_shared_tables(request: Request, player: Player, other_id: str) -> None:
    """After ``player`` blocked ``other_id``: ``player`` leaves the open tables where both
    sit, so that the pair is never seated together in a game (the other is not told why;
    a host's seat passes on, :meth:`.tables.Tables.leave`)."""
    storage = storage_of(request)
    for table_id in await asyncio.to_thread(_shared_tables, storage, player.id, other_id):
        try:
            await tables_of(request).leave(player, table_id)
        except Conflict:
            pass  # started or left meanwhile


def _check_invitable(
    storage: Storage, player: Player, table: dict[str, Any], friend_id: Any
) -> str:
    """The friend's id, once the invitation is allowed (blocking: run in a thread).

    Raises:
        Forbidden, NotFound, BadRequest, Conflict: see the module docstring.
    """
    seated = [s["player_id"] for s in table["seats"] if s["player_id"] is not None]
    if table["status"] != OPEN:
        raise Conflict(N_("this table is not open any more"))
    if player.id not in seated:
        raise Forbidden(N_("only a player seated at a table may invite to it"))
    friend = social.check_other(storage, player.id, friend_id).id
    if friend in seated:
        raise Conflict(N_("this player sits at this table already"))
    if not any(s["free"] for s in table["seats"]):
        raise Conflict(N_("this table has no free seat left"))
    if not social.are_friends(storage, player.id, friend):
        raise Forbidden(
            N_("you may invite only your friends: players you follow who follow you back")
        )
    if social.blocked_between(storage, [friend, *seated]) & {
        frozenset((friend, p)) for p in seated
    }:
        raise Forbidden(
            N_(
                "this player cannot sit at this table: "
                "a block stands between them and a player seated there"
            )
        )
    return friend


def _checked_code(storage: Storage, table: dict[str, Any], code: Any) -> str | None:
    """The invitation code of an invitation table, checked (None for an open table).

    Raises:
        Forbidden: a missing or wrong code.
    """
    if table["visibility"] != "invite":
        return None
    with storage.session() as s:
        expected = s.get(TableRow, table["id"])
        stored = None if expected is None else expected.invite_hash
    if (
        not isinstance(code, str)
        or stored is None
        or not secrets.compare_digest(invite_hash(code), stored)
    ):
        raise Forbidden(
            N_("this table is by invitation: send its invitation code with the invitation")
        )
    return code


async def invite_friend(
    request: Request, player: Player, table_id: str, body: dict[str, Any]
) -> dict[str, Any]:
    """Invite ``body["player_id"]`` to the table ``table_id`` (module docstring)."""
    storage = storage_of(request)
    table = await asyncio.to_thread(tables_of(request).get, table_id)
    friend = await asyncio.to_thread(
        _check_invitable, storage, player, table, body.get("player_id")
    )
    code = await asyncio.to_thread(_checked_code, storage, table, body.get("code"))
    url = f"/tables/{table['id']}" + ("" if code is None else f"#code={code}")
    message = {
        "type": "invite",
        "url": url,
        "from": {"id": player.id, "name": player.name},
        "table": {
            k: table[k] for k in ("id", "game", "num_players", "clock", "rated", "visibility")
        },
    }
    online = send_to_player(hub_of(request), friend, message) > 0
    await _tell_notifier(request, friend, message)
    return {"invited": friend, "online": online, "url": url}


async def _tell_notifier(request: Request, player_id: str, message: dict[str, Any]) -> None:
    """Hand an invitation to the app's notifier (``app.state.notifier``,
    :meth:`.notifications.Notifier.notify`, kind ``"invite"``, one notice per table and
    inviter), if the app has one; its failure is logged and does not undo the invitation."""
    notifier = getattr(request.app.state, "notifier", None)
    notify = getattr(notifier, "notify", None)
    if notify is None:
        return
    table, sender = message["table"], message["from"]
    try:
        title = get_game(table["game"]).title
    except ValueError:
        title = str(table["game"])
    try:
        done = notify(
            player_id,
            "invite",
            f"{table['id']}:{sender['id']}",
            Text(N_("{name} invites you to a table"), {"name": sender["name"]}),
            Text(
                N_("{name} invites you to a table of {game}: open the link to join it."),
                {"name": sender["name"], "game": title},
            ),
            message["url"],
        )
        if inspect.isawaitable(done):
            await done
    except Exception:
        log.warning("the notifier failed to tell %s of an invitation", player_id, exc_info=True)


__all__ = ["invite_friend", "required", "social_router", "storage_of"]
