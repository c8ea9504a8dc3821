"""Writing games: a new game with its seats (:meth:`GameWrites.create_game`), a seat's
player or its bot (:meth:`GameWrites.claim_seat`, :meth:`GameWrites.drop_seat`), and the
moves, committed many games at once (:meth:`GameWrites.append_moves`, the group commit of
:class:`.writer.MoveWriter`). A part of :class:`.storage.Storage`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .notify import notify
from .rows import (
    FINISH_GAME,
    GAMES,
    IDEMPOTENCY,
    LAST_IDX,
    MOVES,
    SEATS,
    STATUS_ACTIVE,
    TOUCH_GAME,
    IdempotencyRecord,
    MoveToStore,
    Repository,
    SeatInfo,
    StaleMoveError,
    StoredGame,
    guest_ids,
    storable,
    utcnow,
)


class GameWrites(Repository):
    """The writes of games, seats and moves (module docstring)."""

    def create_game(
        self,
        game_id: str,
        game: str,
        num_players: int,
        seed: int,
        options: dict[str, Any],
        seats: Sequence[SeatInfo],
        next_seat: int | None = None,
        *,
        idempotency: IdempotencyRecord | None = None,
        rated: bool = False,
        clock: dict[str, Any] | None = None,
    ) -> StoredGame:
        """Store a new game and its seats in one transaction; return it. ``next_seat``:
        the seat whose decision is first (None: unknown). ``idempotency``: the key it was
        created with, stored in the same transaction. ``rated``: whether its result
        changes ratings; ``clock``: its clock (:mod:`splendor.server.tables`), or None.

        Raises:
            sqlalchemy.exc.IntegrityError: ``game_id`` already exists, or the idempotency
                key is stored already (nothing written).
            ValueError: a name is not :func:`storable` (nothing written).
        """
        for x in seats:
            if not storable(x.name):
                raise ValueError(
                    f"seat {x.seat}: the name holds a NUL or a lone surrogate; it cannot be stored"
                )
        now = utcnow()
        stored = StoredGame(
            id=game_id,
            game=game,
            num_players=num_players,
            seed=seed,
            options=dict(options),
            status=STATUS_ACTIVE,
            result=None,
            created_at=now,
            updated_at=now,
            seats=list(seats),
            next_seat=next_seat,
            rated=rated,
            clock=clock,
        )
        with self.engine.begin() as c:
            _insert_game(c, stored, idempotency)
            guests = guest_ids(c, (x.player_id for x in seats))
        stored.seats = [
            replace(x, guest=x.type == "human" and x.player_id in guests) for x in seats
        ]
        return stored

    def claim_seat(self, game_id: str, seat: int, player_id: str) -> bool:
        """Record that ``player_id`` sits at ``seat`` of ``game_id`` (a person who opened an
        invite link while logged in): only a seat nobody has claimed, and only if the player
        has no other seat in that game. Returns whether the seat is now the player's."""
        with self.engine.begin() as c:
            other = c.execute(
                select(SEATS.c.seat).where(
                    SEATS.c.game_id == game_id, SEATS.c.player_id == player_id
                )
            ).first()
            if other is not None:
                return int(other[0]) == seat
            done = c.execute(
                update(SEATS)
                .where(
                    SEATS.c.game_id == game_id,
                    SEATS.c.seat == seat,
                    SEATS.c.type == "human",
                    SEATS.c.player_id.is_(None),
                )
                .values(player_id=player_id)
            )
            if done.rowcount == 1:
                notify(c, "game", game_id)
            return done.rowcount == 1

    def drop_seat(self, game_id: str, seat: int, bot: str, name: str) -> bool:
        """A person leaves an active game for good: ``seat`` becomes the bot ``bot`` named
        ``name`` (its token no longer plays; its player stays, for the ratings) and joins
        the game's ``dropped`` seats. False if the game is not active or the seat is not a
        person's."""
        with self.engine.begin() as c:
            game = c.execute(
                select(GAMES.c.status, GAMES.c.dropped)
                .where(GAMES.c.id == game_id)
                .with_for_update()
            ).first()
            if game is None or game.status != STATUS_ACTIVE:
                return False
            done = c.execute(
                update(SEATS)
                .where(SEATS.c.game_id == game_id, SEATS.c.seat == seat, SEATS.c.type == "human")
                .values(type="bot", bot=bot, name=name, token_hash=None)
            ).rowcount
            if done != 1:
                return False
            dropped = sorted({*(game.dropped or []), seat})
            c.execute(
                update(GAMES)
                .where(GAMES.c.id == game_id)
                .values(dropped=dropped, updated_at=utcnow())
            )
            notify(c, "game", game_id)
            return True

    def append_move(
        self,
        game_id: str,
        idx: int,
        seat: int,
        notation: str,
        result: dict[str, Any] | None = None,
    ) -> datetime:
        """Commit move number ``idx`` (0-based) of a game; with ``result`` the game is
        finished in the same transaction. Returns the commit time (UTC).

        Raises:
            StaleMoveError: ``idx`` is not the number of moves stored (nothing written).
        """
        (outcome,) = self.append_moves([MoveToStore(game_id, idx, seat, notation, result)])
        if isinstance(outcome, StaleMoveError):
            raise outcome
        return outcome

    def append_moves(self, moves: Sequence[MoveToStore]) -> list[datetime | StaleMoveError]:
        """Commit several moves (of different games) in one transaction: a group commit.

        Each move is stored only if its ``idx`` is the number of moves its game has
        stored (the moves before it in ``moves`` included); a move with a ``result``
        finishes its game. Stale moves are skipped; the others are all committed together
        (on a race with another writer on the same database, which the primary key
        rejects, each move is retried in its own transaction).

        Returns:
            For each move, in order: the commit time (UTC), or the :class:`StaleMoveError`
            saying why it was not stored.
        """
        now = utcnow()
        if not moves:
            return []
        try:
            with self.engine.begin() as c:
                return self._store_moves(c, moves, now)
        except IntegrityError:
            if len(moves) == 1:
                m = moves[0]
                return [
                    StaleMoveError(
                        f"move {m.idx} of game {m.game_id} is stale: "
                        "it was stored by another writer"
                    )
                ]
        return [self.append_moves([m])[0] for m in moves]

    @staticmethod
    def _store_moves(
        c: Connection, moves: Sequence[MoveToStore], now: datetime
    ) -> list[datetime | StaleMoveError]:
        """Three statements whatever the number of moves: the last stored move number of
        each game, one multi-row INSERT, one executemany UPDATE (plus one per finished game)."""
        stored = {
            gid: int(last) + 1
            for gid, last in c.execute(LAST_IDX, {"game_ids": sorted({m.game_id for m in moves})})
        }
        outcomes: list[datetime | StaleMoveError] = []
        rows: list[dict[str, Any]] = []
        touched: dict[str, MoveToStore] = {}
        for m in moves:
            expected = stored.get(m.game_id, 0)
            if m.idx != expected:
                outcomes.append(
                    StaleMoveError(
                        f"move {m.idx} of game {m.game_id} is stale: {expected} moves are stored"
                    )
                )
                continue
            stored[m.game_id] = expected + 1
            rows.append(
                {
                    "game_id": m.game_id,
                    "idx": m.idx,
                    "seat": m.seat,
                    "notation": m.notation,
                    "created_at": now,
                    "note": m.note,
                    "clock": m.clock,
                }
            )
            prev = touched.get(
                m.game_id
            )  # the last move of each game (its next seat), or the one that ends it
            touched[m.game_id] = prev if prev is not None and prev.result is not None else m
            outcomes.append(now)
        if rows:
            c.execute(insert(MOVES), rows)
            touch = [
                {"gid": gid, "now": now, "next_seat": m.next_seat}
                for gid, m in touched.items()
                if m.result is None
            ]
            if touch:
                c.execute(TOUCH_GAME, touch)
            for gid, m in touched.items():
                if m.result is not None:
                    c.execute(FINISH_GAME, {"gid": gid, "now": now, "final": m.result})
            for gid in touched:
                notify(c, "game", gid)
        return outcomes


def _insert_game(c: Connection, game: StoredGame, idempotency: IdempotencyRecord | None) -> None:
    """Insert a new game's row, its seats and its idempotency key (if any) in the
    transaction ``c``."""
    c.execute(
        insert(GAMES),
        {
            "id": game.id,
            "game": game.game,
            "num_players": game.num_players,
            "seed": game.seed,
            "options": dict(game.options),
            "status": game.status,
            "result": None,
            "created_at": game.created_at,
            "updated_at": game.updated_at,
            "next_seat": game.next_seat,
            "rated": game.rated,
            "clock": game.clock,
        },
    )
    if game.seats:
        c.execute(
            insert(SEATS),
            [
                {
                    "game_id": game.id,
                    "seat": x.seat,
                    "type": x.type,
                    "name": x.name,
                    "bot": x.bot,
                    "token_hash": x.token_hash,
                    "player_id": x.player_id,
                }
                for x in game.seats
            ],
        )
    if idempotency is not None:
        c.execute(
            insert(IDEMPOTENCY),
            {
                "key_hash": idempotency.key_hash,
                "game_id": game.id,
                "request_hash": idempotency.request_hash,
                "salt": idempotency.salt,
                "created_at": game.created_at,
            },
        )
