"""Several server processes on one PostgreSQL database: PostgreSQL's LISTEN/NOTIFY tells
every process what the others changed, so each one's WebSockets get every move.

Every transaction that changes what a client sees also sends a notification on the channel
:data:`CHANNEL` (:func:`notify`, a ``pg_notify`` in the same transaction: PostgreSQL
delivers it at the commit, never for a rolled-back change). Its payload is JSON:
``{"from": <process id>, "kind": "game" | "table" | "chat", "id": <game or table id>,
"data": ...}``. Each process listens (:class:`Listener`) and, for another process's
notification, reloads the game from the database if it has it in memory (and pushes it to
its WebSockets), pushes the lobby for a table, or forwards a chat message. The database
stays the only truth: a move number can be taken once (the moves' primary key), so two
processes never both play a decision.

SQLite has one process (``make serve``'s default): :func:`notify` does nothing there.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.engine import Connection, make_url

log = logging.getLogger(__name__)

CHANNEL = "splendor"
PROCESS_ID = secrets.token_hex(8)
"""This process's id in the notifications it sends (it ignores its own)."""

MAX_PAYLOAD = 7900
"""PostgreSQL's notification payloads are shorter than 8,000 bytes."""


def notify(c: Connection, kind: str, key: str, data: Any = None) -> None:
    """Send a notification in the transaction of ``c`` (PostgreSQL only; nothing on SQLite).
    ``data`` too large for a payload is left out (listeners reload from the database)."""
    if c.dialect.name != "postgresql":
        return
    payload = json.dumps({"from": PROCESS_ID, "kind": kind, "id": key, "data": data})
    if len(payload.encode("utf-8")) > MAX_PAYLOAD:
        payload = json.dumps({"from": PROCESS_ID, "kind": kind, "id": key, "data": None})
    c.execute(
        select(text("pg_notify(:channel, :payload)")), {"channel": CHANNEL, "payload": payload}
    )


def libpq_url(sqlalchemy_url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as a libpq connection URI (for psycopg)."""
    return (
        make_url(sqlalchemy_url).set(drivername="postgresql").render_as_string(hide_password=False)
    )


class Listener:
    """Listens on :data:`CHANNEL` and hands every other process's notification to
    ``handle(kind, key, data)`` (from the event loop). Reconnects after a lost connection
    (every second) and then calls ``resync()``: notifications sent meanwhile were lost.

    Args:
        url: the SQLAlchemy URL of the PostgreSQL database.
        handle: called for each notification of another process.
        resync: called after every (re)connection.
    """

    def __init__(
        self,
        url: str,
        handle: Callable[[str, str, Any], None],
        resync: Callable[[], None],
    ) -> None:
        self.url = libpq_url(url)
        self.handle = handle
        self.resync = resync
        self.connected = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start listening in a task of the running loop."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name="splendor-listen")

    async def close(self) -> None:
        """Stop listening."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        import psycopg

        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    if not first:
                        self.resync()
                    first = False
                    async for n in conn.notifies():
                        self._dispatch(n.payload)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self.connected.clear()
                log.warning("listening for other processes' changes failed (%s); retrying", e)
                await asyncio.sleep(1.0)

    def _dispatch(self, payload: str) -> None:
        try:
            message = json.loads(payload)
            if message.get("from") == PROCESS_ID:
                return
            self.handle(str(message["kind"]), str(message["id"]), message.get("data"))
        except Exception:
            log.exception("a notification could not be handled: %.200s", payload)
