"""Reading games (a stored game with its moves, the games of seat tokens, the ids of
games) and the queries of their life cycle (bot turns to resume, games with a clock,
unstarted and abandoned games to expire). A part of :class:`.storage.Storage`."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, or_, select, update

from .notify import notify
from .rows import (
    GAMES,
    HAS_MOVES,
    MOVES,
    SEATS,
    STATUS_ACTIVE,
    STATUS_FINISHED,
    GameRow,
    IdempotencyRecord,
    IdempotencyRow,
    MoveRow,
    Repository,
    SeatRow,
    StoredGame,
    guest_ids,
    storable,
    stored_game,
    utcnow,
)


class GameReads(Repository):
    """Reading stored games (module docstring)."""

    def guest_ids(self, player_ids: Iterable[str | None]) -> set[str]:
        """Those of ``player_ids`` that are guests (:func:`.rows.guest_ids`)."""
        with self._sessions() as s:
            return guest_ids(s, player_ids)

    def load_game_since(self, game_id: str, since: int) -> StoredGame | None:
        """The stored game as :meth:`load_game`, but with only the moves from number
        ``since`` on in ``moves`` (and ``notes`` keyed by their absolute numbers): what a
        process that holds the first ``since`` moves needs to catch up. None if there is no
        such game."""
        if not storable(game_id):
            return None
        with self._sessions() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            seats = s.scalars(
                select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
            ).all()
            moves = s.execute(
                select(MoveRow.idx, MoveRow.seat, MoveRow.notation, MoveRow.note)
                .where(MoveRow.game_id == game_id, MoveRow.idx >= since)
                .order_by(MoveRow.idx)
            ).all()
            guests = guest_ids(s, (x.player_id for x in seats))
            stored = stored_game(
                row, seats, [(int(m.seat), str(m.notation)) for m in moves], guests
            )
            stored.notes = {int(m.idx): str(m.note) for m in moves if m.note}
            if row.clock is not None and moves:  # the clock after the last move only
                stored.clock_after = s.scalar(
                    select(MoveRow.clock)
                    .where(MoveRow.game_id == game_id)
                    .order_by(MoveRow.idx.desc())
                    .limit(1)
                )
            return stored

    def load_game(self, game_id: str) -> StoredGame | None:
        """The stored game with its seats and moves, or None if there is no such game
        (an id that is not :func:`storable` names none)."""
        return self.load_game_since(game_id, 0)

    def find_idempotency_key(self, key_hash: str) -> tuple[str, IdempotencyRecord] | None:
        """The game created with the idempotency key whose SHA-256 is ``key_hash``, and
        what was stored with it; None if there is none."""
        q = select(IdempotencyRow).where(IdempotencyRow.key_hash == key_hash)
        with self._sessions() as s:
            row = s.scalars(q).first()
            if row is None:
                return None
            return row.game_id, IdempotencyRecord(row.key_hash, row.request_hash, row.salt)

    def game_ids(self, status: str | None = None) -> list[str]:
        """Ids of every game (or those with ``status``), oldest first."""
        q = select(GameRow.id).order_by(GameRow.created_at, GameRow.id)
        if status is not None:
            q = q.where(GameRow.status == status)
        with self._sessions() as s:
            return list(s.scalars(q).all())

    def games_for_token_hashes(self, hashes: Iterable[str]) -> list[tuple[StoredGame, list[int]]]:
        """Games in which any of ``hashes`` is a seat's token hash, newest first, each with
        the seats those tokens hold. Moves are not loaded (``moves`` is empty)."""
        hashes = list(set(hashes))
        if not hashes:
            return []
        with self._sessions() as s:
            hits = s.execute(
                select(SeatRow.game_id, SeatRow.seat).where(SeatRow.token_hash.in_(hashes))
            ).all()
            mine: dict[str, list[int]] = {}
            for gid, seat in hits:
                mine.setdefault(gid, []).append(int(seat))
            if not mine:
                return []
            rows = s.scalars(
                select(GameRow)
                .where(GameRow.id.in_(list(mine)))
                .order_by(GameRow.created_at.desc(), GameRow.id)
            ).all()
            out = []
            for row in rows:
                seats = s.scalars(
                    select(SeatRow).where(SeatRow.game_id == row.id).order_by(SeatRow.seat)
                ).all()
                guests = guest_ids(s, (x.player_id for x in seats))
                out.append((stored_game(row, seats, [], guests), sorted(mine[row.id])))
            return out


class GameLifecycle(Repository):
    """The queries of the games' life cycle: what a restarted server resumes, what the
    expiry sweeps delete or forfeit (module docstring)."""

    def games_with_bot_to_move(self) -> list[str]:
        """Ids of the active games whose next decision is a bot seat's, oldest first (what a
        restarted server must resume). A game stored before migration 0002 (next seat
        unknown) is listed when it has a bot seat."""
        q = (
            select(GameRow.id)
            .join(SeatRow, SeatRow.game_id == GameRow.id)
            .where(
                GameRow.status == STATUS_ACTIVE,
                SeatRow.type == "bot",
                or_(GameRow.next_seat == SeatRow.seat, GameRow.next_seat.is_(None)),
            )
            .group_by(GameRow.id, GameRow.created_at)
            .order_by(GameRow.created_at, GameRow.id)
        )
        with self._sessions() as s:
            return list(s.scalars(q).all())

    def active_clock_games(self, limit: int = 10000) -> list[str]:
        """Ids of the games in progress that have a clock (their timers run in memory)."""
        q = (
            select(GameRow.id)
            .where(GameRow.status == STATUS_ACTIVE, GameRow.clock.is_not(None))
            .order_by(GameRow.updated_at)
            .limit(limit)
        )
        with self._sessions() as s:
            return list(s.scalars(q).all())

    def unstarted_games(self, created_before: datetime, limit: int = 1000) -> list[str]:
        """Ids of the active games created before ``created_before`` (UTC) that hold no
        move, oldest first, at most ``limit``."""
        q = (
            select(GameRow.id)
            .where(GameRow.status == STATUS_ACTIVE, GameRow.created_at < created_before, ~HAS_MOVES)
            .order_by(GameRow.created_at, GameRow.id)
            .limit(limit)
        )
        with self._sessions() as s:
            return list(s.scalars(q).all())

    def delete_unstarted_game(self, game_id: str, created_before: datetime) -> bool:
        """Delete the game ``game_id`` with its seats if it is still active, holds no move
        and was created before ``created_before``; True if it was deleted (nothing is
        written otherwise)."""
        with self.engine.begin() as c:
            gone = c.execute(
                delete(GAMES).where(
                    GAMES.c.id == game_id,
                    GAMES.c.status == STATUS_ACTIVE,
                    GAMES.c.created_at < created_before,
                    ~HAS_MOVES,
                )
            ).rowcount
            if gone:
                c.execute(delete(SEATS).where(SEATS.c.game_id == game_id))
            return bool(gone)

    def idle_games(self, updated_before: datetime, limit: int = 1000) -> list[str]:
        """Ids of the active games with at least one move and none since
        ``updated_before`` (UTC), whose next decision is a person's (or unknown), oldest
        move first, at most ``limit``: the candidates for expiry as abandoned."""
        q = (
            select(GameRow.id)
            .outerjoin(
                SeatRow, (SeatRow.game_id == GameRow.id) & (SeatRow.seat == GameRow.next_seat)
            )
            .where(
                GameRow.status == STATUS_ACTIVE,
                GameRow.updated_at < updated_before,
                HAS_MOVES,
                or_(SeatRow.type.is_(None), SeatRow.type != "bot"),
            )
            .order_by(GameRow.updated_at, GameRow.id)
            .limit(limit)
        )
        with self._sessions() as s:
            return list(s.scalars(q).all())

    def finish_game(self, game_id: str, num_moves: int, result: dict[str, Any]) -> bool:
        """Finish an active game that holds exactly ``num_moves`` moves with ``result``
        (a forfeit, say) without a move; True if it was finished (nothing is written
        otherwise: the game is over already or a move came in since)."""
        now = utcnow()
        moves = (
            select(func.count())
            .select_from(MOVES)
            .where(MOVES.c.game_id == game_id)
            .scalar_subquery()
        )
        with self.engine.begin() as c:
            done = c.execute(
                update(GAMES)
                .where(GAMES.c.id == game_id, GAMES.c.status == STATUS_ACTIVE, moves == num_moves)
                .values(updated_at=now, status=STATUS_FINISHED, result=result, next_seat=None)
            ).rowcount
            if done:
                notify(c, "game", game_id)
            return bool(done)
