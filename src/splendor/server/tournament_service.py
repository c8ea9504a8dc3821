"""Tournaments as the API offers them (:class:`Tournaments`): create one, register and
withdraw, start it, read the list, one tournament with its live standings and rounds, and
a player's tournaments. How they run is :class:`.tournament_runner.Runner`; the formats'
rules are :mod:`.swiss`, :mod:`.tournament_groups` and :mod:`.tournament_arena`
(``docs/tournaments.md``).

**Who may play.** Any player with a session (a guest will do) creates tournaments and
plays unrated ones; rated tournaments are for accounts, as rated games are. A player
may have at most :data:`MAX_REGISTERING` tournaments of their own waiting to start.

**Registering.** Before the start, anyone may register (up to ``max_players``) and
withdraw. A Swiss or groups tournament takes nobody once started; a player who
withdraws then is not paired again (their game under way stays theirs to finish). In an
arena, players may join while it runs, and withdrawing pauses: they are not paired
again until they join again (their points stay).
"""

from __future__ import annotations

import asyncio
import json
import secrets
from datetime import datetime, timedelta
from typing import Any

from .accounts import Player
from .errors import N_, Conflict, Forbidden
from .hub import Hub
from .service import GameService
from .storage import Storage
from .table_forms import MIN_CLOCK
from .tournament_forms import read_tournament_request
from .tournament_logic import standings
from .tournament_runner import TICK, Runner, channel
from .tournament_store import (
    REGISTERING,
    RUNNING,
    Snapshot,
    add_player,
    checked_id,
    count_registering,
    insert_tournament,
    load,
    of_player,
    remove_player,
    summaries,
)

MAX_REGISTERING = 3
"""Tournaments one player may have created that have not started yet."""

_PUBLIC = (
    "id",
    "name",
    "game",
    "num_players",
    "format",
    "clock",
    "rated",
    "status",
    "starts_at",
    "ends_at",
    "max_players",
    "rounds",
    "current_round",
    "created_by",
    "created_at",
)


def _when(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def public(row: dict[str, Any]) -> dict[str, Any]:
    """A tournament's columns as JSON (times in ISO 8601), with ``"duration"`` (an
    arena's seconds, else None) and ``"entrants"`` when the row has it."""
    out = {k: _when(row[k]) for k in _PUBLIC}
    out["duration"] = (row.get("options") or {}).get("duration")
    if "entrants" in row:
        out["entrants"] = row["entrants"]
    return out


def detail_json(snap: Snapshot, now: datetime) -> dict[str, Any]:
    """One tournament as ``GET /api/tournaments/{id}`` answers it: its columns
    (:func:`public`), ``"players"`` (``{"id", "name", "account", "rating",
    "withdrawn"}``), ``"standings"`` (:func:`.tournament_logic.standings`), ``"pairings"``
    (``[{"round", "tables": [{"game_id", "players", "result"}]}]``, a bye is a table of
    one player without a game) and ``"now"`` (the server's time, for countdowns)."""
    rounds: dict[int, list[dict[str, Any]]] = {}
    for g in snap.games:
        rounds.setdefault(g["round"], []).append(
            {"game_id": g["game_id"], "players": g["players"], "result": g["result"]}
        )
    return {
        **public({**snap.row, "entrants": len(snap.active)}),
        "players": [
            {k: p[k] for k in ("id", "name", "account", "rating", "withdrawn")}
            for p in snap.players
        ],
        "standings": standings(snap),
        "pairings": [{"round": r, "tables": t} for r, t in sorted(rounds.items())],
        "now": now.isoformat(),
    }


class Tournaments(Runner):
    """The tournaments of the app (module docstring; arguments as
    :class:`.tournament_runner.Runner`, and ``min_clock`` the shortest clock allowed)."""

    def __init__(
        self,
        storage: Storage,
        service: GameService,
        hub: Hub,
        tick: float = TICK,
        min_clock: int = MIN_CLOCK,
    ) -> None:
        super().__init__(storage, service, hub, tick)
        self.min_clock = min_clock
        self._dirty: set[str] = set()
        self._push_task: asyncio.Task[None] | None = None
        self.publish = self._changed

    # ------------------------------------------------------------------ reading

    async def listing(self) -> list[dict[str, Any]]:
        """The tournaments registering or running, then the latest finished ones."""
        return [public(r) for r in await asyncio.to_thread(summaries, self.storage)]

    async def detail(self, tournament_id: str) -> dict[str, Any]:
        """One tournament (:func:`detail_json`). Raises NotFound."""
        snap = await asyncio.to_thread(load, self.storage, checked_id(tournament_id))
        return detail_json(snap, self.now())

    async def of_player(self, player_id: str) -> list[dict[str, Any]]:
        """The tournaments ``player_id`` entered, newest first, each with the player's
        ``"place"`` (their rank; None before the start), ``"score"`` and
        ``"withdrawn"``."""
        rows = await asyncio.to_thread(of_player, self.storage, player_id)
        return [
            {**public(r), "place": r["place"], "score": r["score"], "withdrawn": r["withdrawn"]}
            for r in rows
        ]

    # ------------------------------------------------------------------ changes

    async def create(self, player: Player, body: dict[str, Any]) -> dict[str, Any]:
        """Create a tournament (body: :func:`.tournament_forms.read_tournament_request`);
        its creator is not registered by it. Returns it (:func:`detail_json`).

        Raises:
            BadRequest: a malformed body. Forbidden: a guest asks for a rated one.
            Conflict: the player has :data:`MAX_REGISTERING` tournaments waiting already.
        """
        now = self.now()
        request = read_tournament_request(body, now, self.min_clock)
        if request.rated and not player.account:
            raise Forbidden(N_("rated tournaments are for accounts: make an account first"))
        tid = secrets.token_urlsafe(9)
        ends_at = None
        if request.starts_at is not None and request.duration is not None:
            ends_at = request.starts_at + timedelta(seconds=request.duration)
        values = {
            "id": tid,
            "name": request.name,
            "game": request.game,
            "num_players": request.num_players,
            "format": request.format,
            "clock": request.clock,
            "rated": request.rated,
            "status": REGISTERING,
            "starts_at": request.starts_at,
            "ends_at": ends_at,
            "max_players": request.max_players,
            "rounds": request.rounds,
            "current_round": 0,
            "created_by": player.id,
            "options": {} if request.duration is None else {"duration": request.duration},
            "created_at": now,
            "updated_at": now,
        }

        def write() -> None:
            waiting = count_registering(self.storage, player.id)
            if waiting >= MAX_REGISTERING:
                raise Conflict(
                    N_("you have {n} tournaments waiting to start already (at most {max})"),
                    n=waiting,
                    max=MAX_REGISTERING,
                )
            insert_tournament(self.storage, values)

        await asyncio.to_thread(write)
        self._changed(tid)
        return await self.detail(tid)

    async def join(self, player: Player, tournament_id: str) -> dict[str, Any]:
        """Register ``player`` (an arena: also while it runs, or back from a pause). A
        tournament with ``max_players`` starts when the last place is taken.

        Raises:
            NotFound: no such tournament. Forbidden: a guest and a rated tournament.
            Conflict: registered already, full, or started (not an arena).
        """
        snap = await asyncio.to_thread(load, self.storage, checked_id(tournament_id))
        row = snap.row
        if row["rated"] and not player.account:
            raise Forbidden(N_("rated tournaments are for accounts: make an account first"))
        if any(p["id"] == player.id and not p["withdrawn"] for p in snap.players):
            raise Conflict(N_("you are registered in this tournament already"))
        late = row["format"] == "arena" and row["status"] == RUNNING
        if row["status"] != REGISTERING and not late:
            raise Conflict(N_("this tournament has started: registration is closed"))
        await asyncio.to_thread(add_player, self.storage, row["id"], player.id, late)
        if late:
            await self.advance(row["id"])
        elif row["max_players"] is not None and len(snap.active) + 1 >= row["max_players"]:
            await self.start_tournament(row["id"])
        else:
            self._changed(row["id"])
        return await self.detail(row["id"])

    async def leave(self, player: Player, tournament_id: str) -> dict[str, Any]:
        """Withdraw ``player``: before the start, off the list; while it runs, not
        paired again (an arena: paused until they join again).

        Raises:
            NotFound: no such tournament. Conflict: not registered, or it is over.
        """
        snap = await asyncio.to_thread(load, self.storage, checked_id(tournament_id))
        status = snap.row["status"]
        if status not in (REGISTERING, RUNNING):
            raise Conflict(N_("this tournament is over"))
        done = await asyncio.to_thread(
            remove_player, self.storage, snap.row["id"], player.id, status == RUNNING
        )
        if not done:
            raise Conflict(N_("you are not registered in this tournament"))
        self._changed(snap.row["id"])
        return await self.detail(snap.row["id"])

    async def begin(self, player: Player, tournament_id: str) -> dict[str, Any]:
        """Start a registering tournament now (its creator only).

        Raises:
            NotFound: no such tournament. Forbidden: not its creator. Conflict: it is not
                registering any more, or too few players are registered.
        """
        snap = await asyncio.to_thread(load, self.storage, checked_id(tournament_id))
        if snap.row["created_by"] != player.id:
            raise Forbidden(N_("only the tournament's creator may start it"))
        if snap.row["status"] != REGISTERING:
            raise Conflict(N_("this tournament has started already"))
        await self.start_tournament(snap.row["id"], asked=True)
        return await self.detail(snap.row["id"])

    # ------------------------------------------------------------------ pushing

    def _changed(self, tournament_id: str) -> None:
        """A tournament changed: push it to its page's WebSockets (coalesced)."""
        self._dirty.add(tournament_id)
        if self._push_task is None or self._push_task.done():
            self._push_task = asyncio.get_running_loop().create_task(self._push())

    async def _push(self) -> None:
        while self._dirty:
            changed, self._dirty = self._dirty, set()
            for tid in changed:
                subs = self.hub.subscribers(channel(tid))
                if not subs:
                    continue
                try:
                    text = json.dumps(
                        {"type": "tournament", "tournament": await self.detail(tid)},
                        ensure_ascii=False,
                    )
                except Exception:  # the database is down, say: the next change sends
                    continue
                for sub in subs:
                    sub.send_text(text)


__all__ = ["MAX_REGISTERING", "Tournaments", "detail_json", "public"]
