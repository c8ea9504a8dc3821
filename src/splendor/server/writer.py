"""Every database write of the game service, in one thread, with group commit
(:class:`MoveWriter`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any, TypeVar

from .errors import DB_DOWN, N_, Unavailable, first_line
from .storage import MoveToStore, Storage

T = TypeVar("T")


class MoveWriter:
    """Every database write of the service, in one thread, with group commit.

    :meth:`append` queues a move and waits for its commit; a drain task hands everything
    queued to :meth:`.Storage.append_moves` (one transaction) and, while that runs, the
    moves that arrive wait for the next transaction. :meth:`run` runs any other write
    (creating a game) in the same thread. One thread means that writes never wait on each
    other's database locks (SQLite has one writer at a time).

    Args:
        storage: the database.
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="splendor-db-writer")
        self._pending: list[tuple[MoveToStore, asyncio.Future[datetime]]] = []
        self._drain_task: asyncio.Task[None] | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the writer thread; returns or raises what it does.

        Raises:
            Unavailable: the database could not be reached (nothing of it written).
        """
        try:
            return await asyncio.get_running_loop().run_in_executor(self._thread, fn, *args)
        except DB_DOWN as e:
            raise Unavailable(
                N_("the database is unavailable ({error}); nothing was changed: try again"),
                error=first_line(e),
            ) from e

    async def append(self, move: MoveToStore) -> datetime:
        """Commit ``move`` (with the moves queued with it); returns the commit time (UTC).

        Raises:
            StaleMoveError: the move is not the next one of its game (nothing written).
            Exception: what the database raised (nothing of that transaction written).
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[datetime] = loop.create_future()
        self._pending.append((move, done))
        if self._drain_task is None or self._drain_task.done():
            self._drain_task = loop.create_task(self._drain(), name="splendor-db-writer")
        return await done

    async def _drain(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            outcomes: Sequence[datetime | BaseException]
            try:
                outcomes = await self.run(self.storage.append_moves, [m for m, _ in batch])
            except Exception as e:  # the transaction failed: none of the batch is stored
                outcomes = [e] * len(batch)
            # append_moves answers one outcome per move, in order
            for (_, done), outcome in zip(batch, outcomes, strict=True):
                if done.done():  # its waiter was cancelled (shutting down)
                    continue
                if isinstance(outcome, BaseException):
                    done.set_exception(outcome)
                else:
                    done.set_result(outcome)

    async def close(self) -> None:
        """Finish the queued writes, then stop the thread."""
        while self._drain_task is not None and not self._drain_task.done():
            await asyncio.shield(self._drain_task)
        await asyncio.to_thread(self._thread.shutdown, wait=True)


__all__ = ["MoveWriter"]
