"""The lobby's tables as the database holds them (:class:`TableBook`: reading them as
JSON) and who sits where (:class:`Seating`: open a table, join it, leave it, start its game
when it is full). :class:`.tables.Tables` adds rematches and quick pairing. Every change is
one conditional ``UPDATE`` or one transaction, so racing requests cannot both win (see
:mod:`.tables`)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

from sqlalchemy import Exists, and_, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from .accounts import Player, check_may_play_rated
from .community_rows import BlockRow
from .errors import N_, Conflict, Forbidden, NotFound
from .events import TableEvent
from .notify import notify
from .ratings import game_kind, initial_rating
from .rows import guest_ids
from .service import GameService
from .social import block_between, check_may_sit
from .storage import (
    PlayerRow,
    RatingRow,
    SeatRow,
    Storage,
    TableRow,
    TableSeatRow,
    storable,
    utcnow,
)
from .table_forms import (
    CLOSED,
    MAX_OPEN_TABLES,
    MAX_TABLES_PER_HOST,
    MIN_CLOCK,
    OPEN,
    STARTED,
    TableRequest,
    invite_hash,
    read_table_request,
)


def table_row(table_id: str, host_id: str, **fields: Any) -> dict[str, Any]:
    """The values of a new open table's row: ``fields`` are ``game``, ``num_players``,
    ``options``, ``rated``, ``visibility``, ``invite_hash``, ``clock`` (and
    ``rematch_of``)."""
    now = utcnow()
    return {
        "id": table_id,
        **fields,
        "status": OPEN,
        "game_id": None,
        "host_id": host_id,
        "created_at": now,
        "updated_at": now,
    }


def insert_table(c: Connection, row: dict[str, Any], seats: list[dict[str, Any]]) -> None:
    """Insert a table and its seats in the transaction ``c``, and tell the other processes."""
    c.execute(insert(TableRow), row)
    c.execute(insert(TableSeatRow), seats)
    notify(c, "table", row["id"])


def _block_at_table(table_id: str, player_id: str) -> Exists:
    """Whether a block stands between ``player_id`` and a player seated at ``table_id``
    (either way), as a SQL condition."""
    other = aliased(TableSeatRow)
    return (
        select(BlockRow.blocker_id)
        .where(other.table_id == table_id, block_between(player_id, other.player_id))
        .exists()
    )


def table_event(table: dict[str, Any], player_id: str) -> TableEvent:
    """The ``table.joined`` event (:mod:`.events`) of ``player_id`` sitting at ``table``
    (a table as :meth:`TableBook.get` gives it)."""
    return TableEvent(
        table_id=table["id"],
        host_id=table["host"],
        player_id=player_id,
        seated=tuple(s["player_id"] for s in table["seats"] if s["player_id"] is not None),
        free=sum(1 for s in table["seats"] if s["free"]),
        game=table["game"],
        num_players=table["num_players"],
    )


def host_ratings(s: Any, rows: Iterable[TableRow]) -> dict[str, dict[str, Any]]:
    """The rating of each table's host in the table's kind (:func:`.ratings.game_kind`),
    by table id: ``{"kind", "value" (rounded), "games", "provisional" (no rated game or a
    deviation over 110)}``, in one query in the session ``s``; a host without a rating of
    that kind has a newcomer's."""
    rows = list(rows)
    kinds = {r.id: game_kind(r.game, r.num_players) for r in rows}
    found = {
        (r.player_id, r.kind): r
        for r in s.scalars(
            select(RatingRow).where(
                RatingRow.player_id.in_({r.host_id for r in rows}),
                RatingRow.kind.in_(set(kinds.values())),
            )
        )
    }
    out: dict[str, dict[str, Any]] = {}
    for r in rows:
        kind = kinds[r.id]
        stored = found.get((r.host_id, kind))
        if stored is None:
            value, games, deviation = initial_rating(kind).value, 0, None
        else:
            value, games = float(stored.value), int(stored.games)
            deviation = (stored.rating or {}).get("deviation")
        provisional = games == 0 or not isinstance(deviation, (int, float)) or deviation > 110
        out[r.id] = {
            "kind": kind,
            "value": round(value),
            "games": games,
            "provisional": provisional,
        }
    return out


class TableBook:
    """The tables read from the database, as JSON.

    Args:
        storage: the server's storage (schema migrated).
        service: the game service, which makes a table's game when it starts.
        changed: called (from the event loop) after every change of a table, with the
            table's id: the app pushes the new lobby to its WebSockets.
        min_clock: the shortest time bank or turn a table's clock may have (seconds).
    """

    def __init__(
        self,
        storage: Storage,
        service: GameService,
        changed: Callable[[str], None],
        min_clock: int = MIN_CLOCK,
    ) -> None:
        self.storage = storage
        self.service = service
        self.changed = changed
        self.min_clock = min_clock

    def _table_json(
        self,
        row: TableRow,
        seats: Sequence[tuple[TableSeatRow, str | None]],
        host_rating: dict[str, Any] | None = None,
        guests: Collection[str] = (),
    ) -> Any:
        return {
            "id": row.id,
            "game": row.game,
            "num_players": row.num_players,
            "options": dict(row.options or {}),
            "rated": bool(row.rated),
            "visibility": row.visibility,
            "clock": row.clock,
            "status": row.status,
            "game_id": row.game_id,
            "host": row.host_id,
            "host_rating": host_rating,
            "rematch_of": row.rematch_of,
            "seats": [
                {
                    "seat": s.seat,
                    "player_id": s.player_id,
                    "name": name if s.player_id is not None else (s.bot or None),
                    "bot": s.bot,
                    "guest": s.player_id in guests,  # labelled "guest" by clients
                    "free": s.player_id is None and s.bot is None,
                }
                for s, name in seats
            ],
            "created_at": row.created_at.isoformat(),
        }

    def _load(self, ids: Sequence[str]) -> list[dict[str, Any]]:
        if not ids:
            return []
        with self.storage.session() as s:
            rows = {r.id: r for r in s.scalars(select(TableRow).where(TableRow.id.in_(ids)))}
            seats = s.execute(
                select(TableSeatRow, PlayerRow.name)
                .outerjoin(PlayerRow, PlayerRow.id == TableSeatRow.player_id)
                .where(TableSeatRow.table_id.in_(ids))
                .order_by(TableSeatRow.table_id, TableSeatRow.seat)
            ).all()
            ratings = host_ratings(s, rows.values())
            guests = guest_ids(s, (seat.player_id for seat, _ in seats))
        by_table: dict[str, list[tuple[TableSeatRow, str | None]]] = {}
        for seat, name in seats:
            by_table.setdefault(seat.table_id, []).append((seat, name))
        return [
            self._table_json(rows[i], by_table.get(i, []), ratings.get(i), guests)
            for i in ids
            if i in rows
        ]

    def get(self, table_id: str) -> dict[str, Any]:
        """The table ``table_id`` as JSON (an invitation table too: its id is secret enough
        to show it, joining it needs the code).

        Raises:
            NotFound: no such table.
        """
        if not storable(table_id) or len(table_id) > 32:
            raise NotFound(N_("no table {table}"), table=repr(table_id))
        found = self._load([table_id])
        if not found:
            raise NotFound(N_("no table {table}"), table=repr(table_id))
        return found[0]

    def lobby(self, player_id: str | None = None) -> list[dict[str, Any]]:
        """The open public tables (oldest first, at most :data:`MAX_OPEN_TABLES`), and the
        open tables where ``player_id`` sits (invitation ones included)."""
        with self.storage.session() as s:
            ids = list(
                s.scalars(
                    select(TableRow.id)
                    .where(TableRow.status == OPEN, TableRow.visibility == "open")
                    .order_by(TableRow.created_at, TableRow.id)
                    .limit(MAX_OPEN_TABLES)
                )
            )
            if player_id is not None:
                mine = s.scalars(
                    select(TableRow.id)
                    .join(TableSeatRow, TableSeatRow.table_id == TableRow.id)
                    .where(TableRow.status == OPEN, TableSeatRow.player_id == player_id)
                )
                ids += [i for i in mine if i not in ids]
        return self._load(ids)

    def _players_of(self, game_id: str) -> list[str | None]:
        """The player at each seat of a stored game (None: a bot or an unknown person)."""
        with self.storage.session() as s:
            return list(
                s.scalars(
                    select(SeatRow.player_id)
                    .where(SeatRow.game_id == game_id)
                    .order_by(SeatRow.seat)
                )
            )

    def _invite_hash(self, table_id: str) -> str | None:
        """The SHA-256 of an invitation table's code (None: none stored)."""
        with self.storage.session() as s:
            return s.scalar(select(TableRow.invite_hash).where(TableRow.id == table_id))

    def _full(self, table_id: str) -> bool:
        with self.storage.session() as s:
            free = s.scalar(
                select(func.count())
                .select_from(TableSeatRow)
                .where(
                    TableSeatRow.table_id == table_id,
                    TableSeatRow.player_id.is_(None),
                    TableSeatRow.bot.is_(None),
                )
            )
        return free == 0


class Seating(TableBook):
    """Open a table, join it, leave it; a full table starts its game (arguments as
    :class:`TableBook`)."""

    async def open(self, host: Player, body: dict[str, Any]) -> dict[str, Any]:
        """Open a table; ``host`` sits at seat 0. ``body``: ``{"game": a game's name,
        "num_players": the game's player range, "bots": [spec, ...] (the last seats;
        default none), "rated": bool (default true, false with bots; a guest's tables are
        casual: default false, and true is Forbidden), "visibility":
        "open" | "invite" (default "open"), "clock": clock or null, "options": the game's
        options (:attr:`splendor.descriptor.Game.options`; Duel: ``{"turn_cap": N}``)}``.

        Returns:
            The table as JSON, with ``"invite_code"`` for an invitation table (shown once:
            only its hash is stored). When every seat is taken already (the host and
            bots), the game starts at once and ``"game_id"`` names it.

        Raises:
            BadRequest: anything malformed (the message says what is allowed).
            Conflict: the host has :data:`MAX_TABLES_PER_HOST` open tables already.
            Forbidden: a guest asked for a rated table
                (:func:`.accounts.check_may_play_rated`).
        """
        if not host.account and "rated" not in body:
            body = {**body, "rated": False}  # a guest's tables are casual
        request = read_table_request(body, self.min_clock)
        check_may_play_rated(host, request.rated)
        code = secrets.token_urlsafe(12) if request.visibility == "invite" else None
        table_id = secrets.token_urlsafe(9)
        await asyncio.to_thread(self._write_open, host, table_id, request, code)
        if request.free == 0:
            await self._start(table_id)
        self.changed(table_id)
        table = await asyncio.to_thread(self.get, table_id)
        if code is not None:
            table["invite_code"] = code
        return table

    def _write_open(
        self, host: Player, table_id: str, request: TableRequest, code: str | None
    ) -> None:
        """Store a new table unless its host has too many open (Conflict)."""
        row = table_row(
            table_id,
            host.id,
            game=request.game.name,
            num_players=request.num_players,
            options=dict(request.options),
            rated=request.rated,
            visibility=request.visibility,
            invite_hash=None if code is None else invite_hash(code),
            clock=request.clock,
        )
        with self.storage.engine.begin() as c:
            hosted = c.execute(
                select(func.count())
                .select_from(TableRow)
                .where(TableRow.host_id == host.id, TableRow.status == OPEN)
            ).scalar_one()
            if hosted >= MAX_TABLES_PER_HOST:
                raise Conflict(
                    N_("you host {hosted} open tables already (at most {max}); close one first"),
                    hosted=hosted,
                    max=MAX_TABLES_PER_HOST,
                )
            insert_table(c, row, request.seat_rows(table_id, host.id))

    async def join(self, player: Player, table_id: str, code: Any = None) -> dict[str, Any]:
        """Seat ``player`` at the first free seat of an open table (``code``: the
        invitation code of an invitation table). The game starts when it was the last
        free seat. Returns the table.

        Raises:
            NotFound: no such table. Forbidden: a wrong or missing invitation code, a
                block stands between the player and a player seated there (either way,
                :func:`.social.check_may_sit`), or a guest at a rated table.
            Conflict: the table is not open any more, it has no free seat, or the player
                sits there already.
        """
        table = await asyncio.to_thread(self.get, table_id)
        if table["status"] != OPEN:
            raise Conflict(N_("this table is not open any more"))
        if any(s["player_id"] == player.id for s in table["seats"]):
            raise Conflict(N_("you sit at this table already"))
        check_may_play_rated(player, table["rated"])
        seated = [s["player_id"] for s in table["seats"]]
        await asyncio.to_thread(check_may_sit, self.storage, player.id, seated)
        order = await self._seats_for(player, table, code)
        if not await asyncio.to_thread(self._take_seat, table_id, player.id, order):
            raise Conflict(N_("this table has no free seat left"))
        full = await asyncio.to_thread(self._full, table_id)
        if full:
            await self._start(table_id)
        self.changed(table_id)
        joined = await asyncio.to_thread(self.get, table_id)
        self.service.events.emit("table.joined", table_event(joined, player.id))
        return joined

    async def _seats_for(self, player: Player, table: dict[str, Any], code: Any) -> list[int]:
        """The seats ``player`` may take at ``table``, in order: the free ones, or at a
        rematch the seat they had. Raises Forbidden (not a player of the rematched game,
        or a wrong invitation code)."""
        order = [s["seat"] for s in table["seats"] if s["free"]]
        if table["rematch_of"] is not None:
            former = await asyncio.to_thread(self._players_of, table["rematch_of"])
            if player.id not in former:
                raise Forbidden(N_("only the players of the last game may sit at its rematch"))
            order = [former.index(player.id)]  # the seat they had
        elif table["visibility"] == "invite":
            expected = await asyncio.to_thread(self._invite_hash, table["id"])
            if (
                not isinstance(code, str)
                or expected is None
                or not secrets.compare_digest(invite_hash(code), expected)
            ):
                raise Forbidden(N_("this table is by invitation: open the host's invitation link"))
        return order

    def _take_seat(self, table_id: str, player_id: str, order: list[int]) -> bool:
        """Take the first free seat of ``order``; False when none is left (a race lost).
        The seat is taken only while no block stands between the player and a player
        seated there, checked in the same statement, and the joins of one table are
        serialized (its row locked on PostgreSQL; SQLite writes one at a time), so two
        players who block each other joining at once cannot both sit.

        Raises:
            Conflict: the player was seated meanwhile by another request.
            Forbidden: a block stands between the player and one seated meanwhile.
        """
        with self.storage.engine.begin() as c:
            c.execute(select(TableRow.id).where(TableRow.id == table_id).with_for_update())
            for seat in order:
                try:
                    done = c.execute(
                        update(TableSeatRow)
                        .where(
                            TableSeatRow.table_id == table_id,
                            TableSeatRow.seat == seat,
                            TableSeatRow.player_id.is_(None),
                            TableSeatRow.bot.is_(None),
                            select(TableRow.id)
                            .where(and_(TableRow.id == table_id, TableRow.status == OPEN))
                            .exists(),
                            ~_block_at_table(table_id, player_id),
                        )
                        .values(player_id=player_id)
                    )
                except IntegrityError:  # seated meanwhile by another request of theirs
                    raise Conflict(N_("you sit at this table already")) from None
                if done.rowcount == 1:
                    c.execute(
                        update(TableRow).where(TableRow.id == table_id).values(updated_at=utcnow())
                    )
                    notify(c, "table", table_id)
                    return True
        seated = [s["player_id"] for s in self.get(table_id)["seats"]]
        check_may_sit(self.storage, player_id, seated)  # a block, rather than no seat
        return False

    async def leave(self, player: Player, table_id: str) -> dict[str, Any]:
        """Take ``player`` off an open table. The host's seat passes to the next player
        seated; a table nobody sits at any more is closed. Returns the table.

        Raises:
            NotFound: no such table. Conflict: the game has started (resign it instead),
                or the player does not sit there.
        """
        table = await asyncio.to_thread(self.get, table_id)
        if table["status"] != OPEN:
            raise Conflict(N_("the game has started: leaving is resigning it now"))
        mine = [s for s in table["seats"] if s["player_id"] == player.id]
        if not mine:
            raise Conflict(N_("you do not sit at this table"))
        others = [
            s["player_id"]
            for s in table["seats"]
            if s["player_id"] is not None and s["player_id"] != player.id
        ]

        def write() -> None:
            with self.storage.engine.begin() as c:
                c.execute(
                    update(TableSeatRow)
                    .where(TableSeatRow.table_id == table_id, TableSeatRow.player_id == player.id)
                    .values(player_id=None)
                )
                values: dict[str, Any] = {"updated_at": utcnow()}
                if not others:
                    values["status"] = CLOSED
                elif table["host"] == player.id:
                    values["host_id"] = others[0]
                c.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id, TableRow.status == OPEN)
                    .values(**values)
                )
                notify(c, "table", table_id)

        await asyncio.to_thread(write)
        self.changed(table_id)
        return await asyncio.to_thread(self.get, table_id)

    async def _start(self, table_id: str) -> None:
        """Make the game of a full table, if this call wins the race to start it."""

        def claim() -> bool:
            with self.storage.engine.begin() as c:
                done = c.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id, TableRow.status == OPEN)
                    .values(status=STARTED, updated_at=utcnow())
                )
                return done.rowcount == 1

        if not await asyncio.to_thread(claim):
            return
        table = await asyncio.to_thread(self.get, table_id)
        seats = [
            {"type": "bot", "bot": s["bot"]}
            if s["bot"] is not None
            else {"type": "human", "name": s["name"]}
            for s in table["seats"]
        ]
        players = [s["player_id"] for s in table["seats"]]
        made = await self.service.create(
            table["game"],
            seats,
            table["options"],
            players=players,
            rated=table["rated"],
            clock=table["clock"],
        )

        def link() -> None:
            with self.storage.engine.begin() as c:
                c.execute(
                    update(TableRow).where(TableRow.id == table_id).values(game_id=made.live.id)
                )
                notify(c, "table", table_id)

        await asyncio.to_thread(link)


__all__ = ["Seating", "TableBook", "insert_table", "table_row"]
