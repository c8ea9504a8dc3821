"""The lobby: tables where players meet before a game, and quick pairing ("play now").

A **table** is opened by a logged-in player (a guest will do), its host, who sits at seat
0. It says which game (Splendor with 2-4 seats, or Splendor Duel), its game options, its
clock, whether it is **rated**, and who may join: ``open`` tables are listed in the lobby;
``invite`` tables are not, and joining one needs its invitation code (the link the host
shares). Seats may be given to bots (then the table is never rated: games with a bot seat
are unrated). Players join a free seat and may leave before the game starts; the game
starts by itself when the last seat is taken, and the table then points to it. A table
that everyone left is closed.

**Play now** (:meth:`Tables.play_now`) seats a player at an open, public, rated table of the
same game, number of seats and clock, choosing the one whose host's rating in that kind
is closest to the player's; with none, it opens such a table for others to join.

Every change is decided by the database, so two requests (or two server processes)
racing for the last seat cannot both take it: a seat is taken by one conditional
``UPDATE`` (``... WHERE player_id IS NULL``), and a table starts by one conditional
``UPDATE`` of its status (``... WHERE status = 'open'``); whoever wins makes the game.

Clocks (validated here, run by the game service): ``{"kind": "realtime", "base": s,
"increment": s}`` (a time bank per player plus an increment per turn, in seconds:
``base`` 60-7200, ``increment`` 0-600) or ``{"kind": "turn", "per_move": s}`` (a deadline
per move, 60 s to 14 days), or None (no clock).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..descriptor import Game
from . import bots as server_bots
from .accounts import Player
from .errors import N_, BadRequest, Conflict, Forbidden, NotFound
from .notify import notify
from .ratings import game_kind, initial_rating
from .service import GameService, game_module
from .storage import (
    GameRow,
    PlayerRow,
    RatingRow,
    SeatRow,
    Storage,
    TableRow,
    TableSeatRow,
    storable,
    utcnow,
)

OPEN, STARTED, CLOSED = "open", "started", "closed"
VISIBILITIES = ("open", "invite")
MAX_OPEN_TABLES = 200
"""The lobby lists at most this many open tables (oldest first)."""
MAX_TABLES_PER_HOST = 5
"""Open tables one player may host at once."""


MIN_CLOCK = 60
"""The shortest time bank (real time) or turn (turn-based) a table may have by default, in
seconds (:attr:`.app.Limits.min_clock`)."""


def check_clock(clock: Any, min_seconds: int = MIN_CLOCK) -> dict[str, Any] | None:
    """A clock as stored (see the module docstring), or None.

    Args:
        clock: the request's ``"clock"``.
        min_seconds: the shortest time bank or turn allowed (seconds, at least 1).

    Raises:
        BadRequest: not one of the two clock shapes, or a time out of its range (a bank
            ``min_seconds``..7200 s, an increment 0..600 s, a turn ``min_seconds`` s..14 days).
    """
    if clock is None:
        return None
    if not isinstance(clock, dict):
        raise BadRequest('"clock" must be null, {"kind": "realtime", ...} or {"kind": "turn", ...}')

    def seconds(name: str, low: int, high: int) -> int:
        value = clock.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise BadRequest(
                N_('clock "{name}" must be a whole number of seconds {low}..{high}'),
                name=name,
                low=low,
                high=high,
            )
        return value

    kind = clock.get("kind")
    if kind == "realtime":
        if set(clock) != {"kind", "base", "increment"}:
            raise BadRequest('a realtime clock is {"kind": "realtime", "base": s, "increment": s}')
        return {
            "kind": "realtime",
            "base": seconds("base", min_seconds, 7200),
            "increment": seconds("increment", 0, 600),
        }
    if kind == "turn":
        if set(clock) != {"kind", "per_move"}:
            raise BadRequest('a turn-based clock is {"kind": "turn", "per_move": s}')
        return {"kind": "turn", "per_move": seconds("per_move", min_seconds, 14 * 24 * 3600)}
    raise BadRequest('clock "kind" must be "realtime" or "turn"')


def _game_and_size(body: dict[str, Any]) -> tuple[Game, int]:
    """The game module and number of seats a request names (``"game"``, ``"num_players"``,
    default the game's smallest).

    Raises:
        BadRequest: an unknown game, or a number of seats the game does not allow.
    """
    module = game_module(body.get("game"))
    n = body.get("num_players", module.MIN_PLAYERS)
    if isinstance(n, bool) or not isinstance(n, int):
        raise BadRequest('"num_players" must be a whole number')
    if not module.MIN_PLAYERS <= n <= module.MAX_PLAYERS:
        raise BadRequest(
            N_("{game} is for {min} to {max} players"),
            game=module.GAME_NAME,
            min=module.MIN_PLAYERS,
            max=module.MAX_PLAYERS,
        )
    return module, n


def _hash(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


class Tables:
    """The lobby's tables over the server's database.

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

    # ------------------------------------------------------------------ reading

    def _table_json(self, row: TableRow, seats: Sequence[tuple[TableSeatRow, str | None]]) -> Any:
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
            "rematch_of": row.rematch_of,
            "seats": [
                {
                    "seat": s.seat,
                    "player_id": s.player_id,
                    "name": name if s.player_id is not None else (s.bot or None),
                    "bot": s.bot,
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
        by_table: dict[str, list[tuple[TableSeatRow, str | None]]] = {}
        for seat, name in seats:
            by_table.setdefault(seat.table_id, []).append((seat, name))
        return [self._table_json(rows[i], by_table.get(i, [])) for i in ids if i in rows]

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

    # ------------------------------------------------------------------ writing

    async def open(self, host: Player, body: dict[str, Any]) -> dict[str, Any]:
        """Open a table; ``host`` sits at seat 0. ``body``: ``{"game": "splendor" | "duel",
        "num_players": 2-4 (Duel: 2), "bots": [spec, ...] (the last seats; default none),
        "rated": bool (default true; false with bots), "visibility": "open" | "invite"
        (default "open"), "clock": clock or null, "options": game options (Duel:
        ``{"turn_cap": N}``)}``.

        Returns:
            The table as JSON, with ``"invite_code"`` for an invitation table (shown once:
            only its hash is stored). When every seat is taken already (the host and
            bots), the game starts at once and ``"game_id"`` names it.

        Raises:
            BadRequest: anything malformed (the message says what is allowed).
            Conflict: the host has :data:`MAX_TABLES_PER_HOST` open tables already.
        """
        module, n = _game_and_size(body)
        bots = body.get("bots", [])
        if not isinstance(bots, list) or len(bots) > n - 1:
            raise BadRequest(f'"bots" must be a list of at most {n - 1} bot levels')
        for b in bots:
            if b not in server_bots.SERVER_BOTS:
                raise BadRequest(
                    f"unknown bot {str(b)[:40]!r}; bots: {', '.join(server_bots.SERVER_BOTS)}"
                )
        rated = body.get("rated", not bots)
        if not isinstance(rated, bool):
            raise BadRequest('"rated" must be true or false')
        if rated and bots:
            raise BadRequest(N_("a table with a bot seat cannot be rated"))
        visibility = body.get("visibility", "open")
        if visibility not in VISIBILITIES:
            raise BadRequest('"visibility" must be "open" or "invite"')
        clock = check_clock(body.get("clock"), self.min_clock)
        options = body.get("options") or {}
        if not isinstance(options, dict) or set(options) - (
            {"turn_cap"} if module.GAME_NAME == "duel" else set()
        ):
            raise BadRequest('"options" may only hold "turn_cap", for Splendor Duel')
        code = secrets.token_urlsafe(12) if visibility == "invite" else None
        table_id = secrets.token_urlsafe(9)
        now = utcnow()
        seats = [{"table_id": table_id, "seat": 0, "player_id": host.id, "bot": None}]
        free = n - 1 - len(bots)
        seats += [
            {"table_id": table_id, "seat": i, "player_id": None, "bot": None}
            for i in range(1, 1 + free)
        ]
        seats += [
            {"table_id": table_id, "seat": 1 + free + k, "player_id": None, "bot": b}
            for k, b in enumerate(bots)
        ]

        def write() -> None:
            with self.storage.engine.begin() as c:
                hosted = c.execute(
                    select(func.count())
                    .select_from(TableRow)
                    .where(TableRow.host_id == host.id, TableRow.status == OPEN)
                ).scalar_one()
                if hosted >= MAX_TABLES_PER_HOST:
                    raise Conflict(
                        N_(
                            "you host {hosted} open tables already (at most {max}); close one first"
                        ),
                        hosted=hosted,
                        max=MAX_TABLES_PER_HOST,
                    )
                c.execute(
                    insert(TableRow),
                    {
                        "id": table_id,
                        "game": module.GAME_NAME,
                        "num_players": n,
                        "options": dict(options),
                        "rated": rated,
                        "visibility": visibility,
                        "invite_hash": None if code is None else _hash(code),
                        "clock": clock,
                        "status": OPEN,
                        "game_id": None,
                        "host_id": host.id,
                        "created_at": now,
                        "updated_at": now,
                    },
                )
                c.execute(insert(TableSeatRow), seats)
                notify(c, "table", table_id)

        await asyncio.to_thread(write)
        if free == 0:
            await self._start(table_id)
        self.changed(table_id)
        table = await asyncio.to_thread(self.get, table_id)
        if code is not None:
            table["invite_code"] = code
        return table

    async def join(self, player: Player, table_id: str, code: Any = None) -> dict[str, Any]:
        """Seat ``player`` at the first free seat of an open table (``code``: the
        invitation code of an invitation table). The game starts when it was the last
        free seat. Returns the table.

        Raises:
            NotFound: no such table. Forbidden: a wrong or missing invitation code.
            Conflict: the table is not open any more, it has no free seat, or the player
                sits there already.
        """
        table = await asyncio.to_thread(self.get, table_id)
        if table["status"] != OPEN:
            raise Conflict(N_("this table is not open any more"))
        if any(s["player_id"] == player.id for s in table["seats"]):
            raise Conflict(N_("you sit at this table already"))
        order = [s["seat"] for s in table["seats"] if s["free"]]
        if table["rematch_of"] is not None:
            former = await asyncio.to_thread(self._players_of, table["rematch_of"])
            if player.id not in former:
                raise Forbidden(N_("only the players of the last game may sit at its rematch"))
            order = [former.index(player.id)]  # the seat they had
        elif table["visibility"] == "invite":
            expected = await asyncio.to_thread(self._invite_hash, table_id)
            if (
                not isinstance(code, str)
                or expected is None
                or not secrets.compare_digest(_hash(code), expected)
            ):
                raise Forbidden(N_("this table is by invitation: open the host's invitation link"))

        def take() -> bool:
            """Take the first free seat; False when none is left (a race lost)."""
            with self.storage.engine.begin() as c:
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
                            )
                            .values(player_id=player.id)
                        )
                    except IntegrityError:  # seated meanwhile by another request of theirs
                        raise Conflict(N_("you sit at this table already")) from None
                    if done.rowcount == 1:
                        c.execute(
                            update(TableRow)
                            .where(TableRow.id == table_id)
                            .values(updated_at=utcnow())
                        )
                        notify(c, "table", table_id)
                        return True
            return False

        if not await asyncio.to_thread(take):
            raise Conflict(N_("this table has no free seat left"))
        full = await asyncio.to_thread(self._full, table_id)
        if full:
            await self._start(table_id)
        self.changed(table_id)
        return await asyncio.to_thread(self.get, table_id)

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

    # ------------------------------------------------------------------ rematches

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

    def rematch_table(self, game_id: str) -> dict[str, Any] | None:
        """The rematch of a game as a table (:meth:`get`): the newest table replaying
        ``game_id`` that is open or started, or None (none offered, or it was closed). Lets
        a page loaded after the offer show "Accept rematch"."""
        if not storable(game_id) or len(game_id) > 32:
            return None
        with self.storage.session() as s:
            table_id = s.scalar(
                select(TableRow.id)
                .where(TableRow.rematch_of == game_id, TableRow.status.in_((OPEN, STARTED)))
                .order_by(TableRow.created_at.desc(), TableRow.id)
                .limit(1)
            )
        if table_id is None:
            return None
        found = self._load([table_id])
        return found[0] if found else None

    async def rematch(self, player: Player, game_id: str) -> dict[str, Any]:
        """Offer or accept a rematch of a finished game: the first of its players to ask
        opens a table with the same game, seats, bots, clock and rating as the game (only
        its players may sit, each at their own seat); the others accept by asking too. The
        rematch starts when every person is back. The game's WebSockets are told
        (``{"type": "rematch", "table"}``) at every change. Returns the table.

        Raises:
            NotFound: no such game. Conflict: the game is not over. Forbidden: the player
                did not play it.
        """

        def load() -> tuple[GameRow | None, list[SeatRow], str | None]:
            with self.storage.session() as s:
                game = s.get(GameRow, game_id) if storable(game_id) else None
                seats = list(
                    s.scalars(
                        select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
                    )
                )
                open_id = s.scalar(
                    select(TableRow.id).where(
                        TableRow.rematch_of == game_id, TableRow.status == OPEN
                    )
                )
                return game, seats, open_id

        game, seats, open_id = await asyncio.to_thread(load)
        if game is None:
            raise NotFound(N_("no game {game}"), game=repr(game_id))
        if game.status != "finished":
            raise Conflict(N_("the game is not over: a rematch is offered once it ends"))
        if player.id not in [s.player_id for s in seats]:
            raise Forbidden(N_("only the players of a game may offer or accept its rematch"))
        if open_id is not None:
            return await self.join(player, open_id)
        table_id = secrets.token_urlsafe(9)
        now = utcnow()
        rows = [
            {
                "table_id": table_id,
                "seat": s.seat,
                "player_id": player.id if s.player_id == player.id else None,
                "bot": s.bot if s.player_id is None else None,
            }
            for s in seats
        ]

        def write() -> None:
            with self.storage.engine.begin() as c:
                c.execute(
                    insert(TableRow),
                    {
                        "id": table_id,
                        "game": game.game,
                        "num_players": game.num_players,
                        "options": dict(game.options or {}),
                        "rated": bool(game.rated),
                        "visibility": "invite",
                        "invite_hash": None,
                        "clock": game.clock,
                        "status": OPEN,
                        "game_id": None,
                        "host_id": player.id,
                        "created_at": now,
                        "updated_at": now,
                        "rematch_of": game_id,
                    },
                )
                c.execute(insert(TableSeatRow), rows)
                notify(c, "table", table_id)

        await asyncio.to_thread(write)
        if all(r["player_id"] is not None or r["bot"] is not None for r in rows):
            await self._start(table_id)
        self.changed(table_id)
        return await asyncio.to_thread(self.get, table_id)

    def announce(self, table: dict[str, Any]) -> None:
        """Tell the WebSockets of the game a rematch table replays about its change
        (``{"type": "rematch", "table"}``; its ``game_id`` names the new game once
        started)."""
        game_id = table.get("rematch_of")
        if game_id is None or not self.service.hub.has_subscribers(game_id):
            return
        text = json.dumps({"type": "rematch", "table": table}, ensure_ascii=False)
        self.service.hub.publish(game_id, lambda _seat: text)

    # ------------------------------------------------------------------ pairing

    def _ratings(self, player_ids: Sequence[str], kind: str) -> dict[str, float]:
        """The displayed rating of each player in ``kind`` (``ratings.value``; a newcomer's
        rating for a player without one), in one query."""
        with self.storage.session() as s:
            stored = dict(
                s.execute(
                    select(RatingRow.player_id, RatingRow.value).where(
                        RatingRow.player_id.in_(set(player_ids)), RatingRow.kind == kind
                    )
                ).all()
            )
        newcomer = initial_rating(kind).value
        return {p: float(stored.get(p, newcomer)) for p in player_ids}

    async def play_now(self, player: Player, body: dict[str, Any]) -> dict[str, Any]:
        """Quick pairing: ``body`` is ``{"game", "num_players", "clock"}``. Joins the open,
        public, rated table of that game, size and clock whose host's rating is closest
        to the player's, or opens one (rated, public) for others to join. Returns the table.

        Raises:
            BadRequest: a malformed body (as :meth:`open`).
        """
        module, n = _game_and_size(body)
        clock = check_clock(body.get("clock"), self.min_clock)
        kind = game_kind(module.GAME_NAME, n)
        candidates = [
            t
            for t in await asyncio.to_thread(self.lobby)
            if t["game"] == module.GAME_NAME
            and t["num_players"] == n
            and t["clock"] == clock
            and t["rated"]
            and not t["options"]
            and all(s["bot"] is None for s in t["seats"])
            and all(s["player_id"] != player.id for s in t["seats"])
            and any(s["free"] for s in t["seats"])
        ]
        ratings = await asyncio.to_thread(
            self._ratings, [player.id, *(t["host"] for t in candidates)], kind
        )
        mine = ratings[player.id]
        by_distance = sorted(
            candidates, key=lambda t: (abs(ratings[t["host"]] - mine), t["created_at"])
        )
        for t in by_distance:
            try:
                return await self.join(player, t["id"])
            except Conflict:
                continue  # taken meanwhile: the next one
        return await self.open(
            player,
            {"game": module.GAME_NAME, "num_players": n, "rated": True, "clock": clock},
        )
