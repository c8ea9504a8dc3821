"""The lobby: tables where players meet before a game, and quick pairing ("play now").

A **table** is opened by a logged-in player (a guest will do, for a casual table), its
host, who sits at seat 0. It says which game (Splendor with 2-4 seats, or Splendor
Duel), its game options, its clock, whether it is **rated**, and who may join: ``open``
tables are listed in the lobby; ``invite`` tables are not, and joining one needs its
invitation code (the link the host shares). Seats may be given to bots (then the table
is never rated: games with a bot seat are unrated). Players join a free seat and may
leave before the game starts; the game starts by itself when the last seat is taken, and
the table then points to it. A table that everyone left is closed.

**Play now** (:meth:`Tables.play_now`) seats a player at an open, public, rated table of the
same game, number of seats and clock, choosing the one whose host's rating in that kind
is closest to the player's; with none, it opens such a table for others to join. Rated
games are for accounts: a guest's tables, Play now and rematches are casual, and a guest
cannot sit at a rated table (:func:`.accounts.check_may_play_rated`).

Every change is decided by the database, so two requests (or two server processes)
racing for the last seat cannot both take it: a seat is taken by one conditional
``UPDATE`` (``... WHERE player_id IS NULL``), and a table starts by one conditional
``UPDATE`` of its status (``... WHERE status = 'open'``); whoever wins makes the game.

Clocks (validated here, run by the game service): ``{"kind": "realtime", "base": s,
"increment": s}`` (a time bank per player plus an increment per turn, in seconds:
``base`` 60-7200, ``increment`` 0-600) or ``{"kind": "turn", "per_move": s}`` (a deadline
per move, 60 s to 14 days), or None (no clock).

The work is in three modules: :mod:`.table_forms` checks what a request says (clocks, the
game and its seats, the options), :mod:`.table_seating` reads the tables and seats the
players (:class:`.table_seating.Seating`: open, join, leave, start), and :class:`Tables`
here adds rematches and quick pairing.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from .accounts import Player
from .errors import N_, Conflict, Forbidden, NotFound
from .moderation import check_active
from .ratings import game_kind, initial_rating
from .social import blocked_with
from .storage import GameRow, RatingRow, SeatRow, TableRow, storable
from .table_forms import (
    CLOSED,
    MAX_OPEN_TABLES,
    MAX_TABLES_PER_HOST,
    MIN_CLOCK,
    OPEN,
    STARTED,
    VISIBILITIES,
    check_clock,
    game_and_size,
)
from .table_seating import Seating, insert_table, table_row


class Tables(Seating):
    """The lobby's tables over the server's database: reading and seating
    (:class:`.table_seating.Seating`), rematches and quick pairing.

    Args:
        storage: the server's storage (schema migrated).
        service: the game service, which makes a table's game when it starts.
        changed: called (from the event loop) after every change of a table, with the
            table's id: the app pushes the new lobby to its WebSockets.
        min_clock: the shortest time bank or turn a table's clock may have (seconds).
    """

    # ------------------------------------------------------------------ rematches

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
        game, seats, open_id = await asyncio.to_thread(self._rematched, game_id)
        if game is None:
            raise NotFound(N_("no game {game}"), game=repr(game_id))
        if game.status != "finished":
            raise Conflict(N_("the game is not over: a rematch is offered once it ends"))
        if player.id not in [s.player_id for s in seats]:
            raise Forbidden(N_("only the players of a game may offer or accept its rematch"))
        if open_id is not None:
            return await self.join(player, open_id)
        table_id = secrets.token_urlsafe(9)
        rows = [
            {
                "table_id": table_id,
                "seat": s.seat,
                "player_id": player.id if s.player_id == player.id else None,
                "bot": s.bot if s.player_id is None else None,
            }
            for s in seats
        ]
        row = table_row(
            table_id,
            player.id,
            game=game.game,
            num_players=game.num_players,
            options=dict(game.options or {}),
            rated=bool(game.rated) and player.account,  # a guest's rematch is casual
            visibility="invite",
            invite_hash=None,
            clock=game.clock,
            rematch_of=game_id,
        )
        await asyncio.to_thread(self._insert, row, rows)
        if all(r["player_id"] is not None or r["bot"] is not None for r in rows):
            await self._start(table_id)
        self.changed(table_id)
        return await asyncio.to_thread(self.get, table_id)

    def _rematched(self, game_id: str) -> tuple[GameRow | None, list[SeatRow], str | None]:
        """The game a rematch replays (None: no such game), its seats, and its open
        rematch table's id (None: none yet)."""
        with self.storage.session() as s:
            game = s.get(GameRow, game_id) if storable(game_id) else None
            seats = list(
                s.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat))
            )
            open_id = s.scalar(
                select(TableRow.id).where(TableRow.rematch_of == game_id, TableRow.status == OPEN)
            )
            return game, seats, open_id

    def _insert(self, row: dict[str, Any], seats: list[dict[str, Any]]) -> None:
        with self.storage.engine.begin() as c:
            insert_table(c, row, seats)

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
        to the player's, or opens one (rated, public) for others to join; for a guest,
        the same with casual (unrated) tables: rated games are for accounts. A table where a
        player sits with whom a block stands (either way, :mod:`.social`) is never chosen.
        Returns the table.

        Raises:
            BadRequest: a malformed body (as :meth:`open`).
            Banned: the player is banned (:func:`.moderation.check_active`).
        """
        await asyncio.to_thread(check_active, self.storage, player.id)
        game, n = game_and_size(body)
        clock = check_clock(body.get("clock"), self.min_clock)
        kind = game_kind(game.name, n)
        rated = player.account  # rated games are for accounts: a guest's are casual
        blocked = await asyncio.to_thread(blocked_with, self.storage, player.id)
        candidates = [
            t
            for t in await asyncio.to_thread(self.lobby)
            if not blocked.intersection(s["player_id"] for s in t["seats"])  # never paired
            and t["game"] == game.name
            and t["num_players"] == n
            and t["clock"] == clock
            and t["rated"] == rated
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
            except (Conflict, Forbidden):
                continue  # taken meanwhile, or a block came meanwhile: the next one
        return await self.open(
            player, {"game": game.name, "num_players": n, "rated": rated, "clock": clock}
        )


__all__ = [
    "CLOSED",
    "MAX_OPEN_TABLES",
    "MAX_TABLES_PER_HOST",
    "MIN_CLOCK",
    "OPEN",
    "STARTED",
    "VISIBILITIES",
    "Tables",
    "check_clock",
]
