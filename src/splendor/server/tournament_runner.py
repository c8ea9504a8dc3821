"""How a tournament runs (:class:`Runner`): it starts (at its time, when full, or when its
creator says so), pairs its rounds and makes their games through the game service,
records each game's result when the event bus says the game finished
(``game.finished``), pairs the next round when the round is over (the arena: whenever
players wait), and finishes. After every change its standings are saved and pushed to
the page's WebSockets (hub key :func:`channel`), the paired players are told on their own
channel (:func:`.player_feed.send_to_player`, ``{"type": "tournament.round", ...}``) and
the bus gets a ``tournament.round`` event (:class:`.events.TournamentEvent`).

A **maintenance check** (every ``tick`` seconds, and at start-up) starts the tournaments
whose time has come, closes the arenas past their end, and records the results a missed
event left out (a game that finished while the server was down, say).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from ..game import get_game
from .errors import N_, Conflict
from .events import GameEvent, TournamentEvent
from .hub import Hub
from .player_feed import send_to_player
from .service import GameService
from .social import blocked_between
from .storage import Storage, utcnow
from .tournament_groups import table_sizes
from .tournament_logic import game_result, next_pairings, round_over, standings
from .tournament_store import (
    CANCELLED,
    FINISHED,
    REGISTERING,
    RUNNING,
    Snapshot,
    claim_round,
    due,
    link_game,
    load,
    record_result,
    save_standings,
    set_status,
)

log = logging.getLogger("splendor.server.tournaments")

TICK = 5.0
"""Seconds between two maintenance checks."""


def channel(tournament_id: str) -> str:
    """The hub key of a tournament page's WebSockets."""
    return f"tournament:{tournament_id}"


class Runner:
    """The running of tournaments (module docstring).

    Args:
        storage: the server's storage (schema migrated).
        service: the game service (makes the games; its bus says when they finish).
        hub: the app's hub (the pages' and players' connections).
        tick: seconds between maintenance checks.
        now: the clock (UTC).
    """

    def __init__(
        self,
        storage: Storage,
        service: GameService,
        hub: Hub,
        tick: float = TICK,
        now: Callable[[], datetime] = utcnow,
    ) -> None:
        self.storage = storage
        self.service = service
        self.hub = hub
        self.tick = tick
        self.now = now
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop_task: asyncio.Task[None] | None = None
        self.publish: Callable[[str], None] = lambda _tid: None

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        """Listen to ``game.finished`` and start the maintenance check (on the loop)."""
        self.service.events.subscribe("game.finished", self._on_finished)
        self._loop_task = asyncio.get_running_loop().create_task(self._maintain())

    async def close(self) -> None:
        """Stop the maintenance check and the work under way."""
        tasks = [*self._tasks, *([self._loop_task] if self._loop_task else [])]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _lock(self, tournament_id: str) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    async def _maintain(self) -> None:
        while True:
            try:
                await self.check()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database is down, say: the next check tries again
                log.warning("the tournaments' maintenance check failed", exc_info=True)
            await asyncio.sleep(self.tick)

    async def check(self) -> None:
        """The maintenance check (module docstring)."""
        found = await asyncio.to_thread(due, self.storage, self.now())
        for game_id, result in found["results"]:
            await self.record(game_id, result)
        for tid in found["start"]:
            await self.start_tournament(tid)
        for tid in found["end"]:
            await self.advance(tid)

    # ------------------------------------------------------------------ results

    def _on_finished(self, event: GameEvent) -> None:
        if event.result is not None:
            self._spawn(self.record(event.game_id, event.result))

    async def record(self, game_id: str, result: dict[str, Any]) -> None:
        """Record a finished game's result if it is a tournament's, then advance it."""
        at = self.now()

        def make(fmt: str, size: int) -> dict[str, Any]:
            return game_result(fmt, size, result, at)

        tid = await asyncio.to_thread(record_result, self.storage, game_id, make)
        if tid is not None:
            await self.advance(tid)

    # ------------------------------------------------------------------ the rounds

    async def start_tournament(self, tournament_id: str, *, asked: bool = False) -> None:
        """Start a registering tournament: pair its first round (the arena: its first
        games). With too few players it is cancelled, or (``asked``: its creator asked)
        refused.

        Raises:
            Conflict: ``asked`` and too few players.
        """
        async with self._lock(tournament_id):
            snap = await asyncio.to_thread(load, self.storage, tournament_id)
            if snap.row["status"] != REGISTERING:
                return
            row, n = snap.row, len(snap.active)
            game = get_game(row["game"])
            enough = n >= 2
            if row["format"] == "groups":
                enough = bool(table_sizes(n, row["num_players"], game.min_players)[0])
            if not enough:
                if asked:
                    raise Conflict(N_("too few players to start: {n}"), n=n)
                await asyncio.to_thread(
                    set_status, self.storage, tournament_id, REGISTERING, CANCELLED
                )
                self.publish(tournament_id)
                return
            now = self.now()
            start: dict[str, Any] = {"status": RUNNING, "starts_at": now}
            if row["format"] == "swiss":  # no more rounds than a round robin has
                start["rounds"] = min(row["rounds"], n - 1 if n % 2 == 0 else n)
            if row["format"] == "arena":
                start["ends_at"] = now + timedelta(seconds=int(row["options"]["duration"]))
            await self._pair(snap, start)
        await self._refresh(tournament_id)

    async def advance(self, tournament_id: str) -> None:
        """After a result (or a change of players): pair the next round when the round
        is over, or finish after the last; the arena pairs whoever waits, and closes
        past its end once no game is under way."""
        async with self._lock(tournament_id):
            snap = await asyncio.to_thread(load, self.storage, tournament_id)
            row = snap.row
            if row["status"] == RUNNING:
                await self._advance(snap)
        await self._refresh(tournament_id)

    async def _advance(self, snap: Snapshot) -> None:
        row = snap.row
        if row["format"] == "arena":
            ends_at = row["ends_at"]
            if ends_at is not None and ends_at.tzinfo is None:
                ends_at = ends_at.replace(tzinfo=self.now().tzinfo)
            if ends_at is None or self.now() < ends_at:
                await self._pair(snap)
            elif all(g["result"] is not None for g in snap.games):
                await self._finish(snap)
            return
        if not round_over(snap):
            return
        if row["current_round"] >= (row["rounds"] or 0) or len(snap.active) < 2:
            await self._finish(snap)
        else:
            await self._pair(snap)

    async def _finish(self, snap: Snapshot) -> None:
        values = {} if snap.row["format"] == "arena" else {"ends_at": self.now()}
        await asyncio.to_thread(
            set_status, self.storage, snap.row["id"], RUNNING, FINISHED, **values
        )

    async def _pair(self, snap: Snapshot, start: dict[str, Any] | None = None) -> None:
        """Pair the next round of ``snap`` (claiming it in the database) and make its
        games."""
        row = snap.row
        ids = [p["id"] for p in snap.active]
        blocked = await asyncio.to_thread(blocked_between, self.storage, ids)
        tables, byes, notes = next_pairings(snap, blocked)
        if start is None and row["format"] == "arena" and not tables:
            return
        if notes.get("repeats") or notes.get("blocked"):
            log.warning(
                "tournament %s round %s: unavoidable %s", row["id"], row["current_round"] + 1, notes
            )
        rows = await asyncio.to_thread(
            claim_round, self.storage, row["id"], row["current_round"], tables, byes, start
        )
        if rows is None:
            return  # another writer paired it
        names = {p["id"]: p["name"] for p in snap.players}
        games: dict[str, tuple[str, ...]] = {}
        for row_id, table in zip(rows, tables, strict=True):
            game_id = await self._make_game(row, row_id, table, names)
            if game_id is not None:
                games[game_id] = table
        event = TournamentEvent(
            row["id"], row["name"], row["current_round"] + 1, games, tuple(b for b, _ in byes)
        )
        self.service.events.emit("tournament.round", event)
        for game_id, table in games.items():
            for pid in table:
                send_to_player(self.hub, pid, self._told(event, game_id))
        for pid in event.byes:
            send_to_player(self.hub, pid, self._told(event, None))

    @staticmethod
    def _told(event: TournamentEvent, game_id: str | None) -> dict[str, Any]:
        return {
            "type": "tournament.round",
            "tournament_id": event.tournament_id,
            "name": event.name,
            "round": event.round,
            "game_id": game_id,
        }

    async def _make_game(
        self, row: dict[str, Any], row_id: int, table: tuple[str, ...], names: dict[str, str]
    ) -> str | None:
        """Make one table's game (its id), or record it void (None) when it cannot be."""
        try:
            made = await self.service.create(
                row["game"],
                [{"type": "human", "name": names[pid]} for pid in table],
                None,
                players=list(table),
                rated=bool(row["rated"]),
                clock=row["clock"],
            )
        except Exception:
            log.exception("tournament %s: a game could not be made", row["id"])
            void = {"void": True, "points": [0.0] * len(table), "outcomes": ["loss"] * len(table)}
            await asyncio.to_thread(link_game, self.storage, row_id, None, void)
            return None
        await asyncio.to_thread(link_game, self.storage, row_id, made.live.id)
        return made.live.id

    async def _refresh(self, tournament_id: str) -> None:
        """Save the standings and push the page."""
        snap = await asyncio.to_thread(load, self.storage, tournament_id)
        lines = standings(snap)
        await asyncio.to_thread(save_standings, self.storage, tournament_id, lines)
        self.publish(tournament_id)


__all__ = ["TICK", "Runner", "channel"]
