"""Ratings from rated games: once a rated game is finished, its players' ratings in its
kind (:func:`.ratings.game_kind`) change by its result, exactly once.

:func:`apply_ratings` does it in one transaction that first stamps the game's
``rated_at`` by a conditional ``UPDATE`` (only where it is still null): a game is rated once
even if two server processes, two threads, or a retry after a crash try it together (the
one whose stamp took rates it; PostgreSQL also locks the game row, ``SELECT ... FOR
UPDATE``; SQLite has one writer at a time, from its first write on). The service calls it
when a rated game ends, and its maintenance task retries every finished rated game not
rated yet (:func:`games_to_rate`), so a database outage at the end of a game loses nothing.

Rules: a game is rated only if it was marked rated (a lobby table without bots) and every
seat is a known player. A shared victory (C15) is a draw between the winners. A game
without a winner (a Duel turn cap, D25) changes nothing. The seats in the result's
``"dropped"`` (their player resigned a 3-4 player game and a bot played on) rank last.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from . import ratings
from .ratings import Rating, game_kind, initial_rating
from .storage import STATUS_FINISHED, GameRow, PlayerRow, RatingRow, SeatRow, Storage, utcnow

log = logging.getLogger(__name__)


def _standing(result: dict[str, Any], n: int) -> tuple[list[int], list[int] | None]:
    """The winners and ranks (lower is better; None: winners first, the rest tied) of a
    result for the ratings. Seats in ``"dropped"`` (their player resigned; a bot played
    on) rank last even if their bot won; the best of the others are the winners then."""
    winners = [w for w in result.get("winners") or [] if isinstance(w, int)]
    dropped = {d for d in result.get("dropped") or [] if isinstance(d, int)}
    if not dropped:
        return winners, None
    staying = [p for p in range(n) if p not in dropped]
    if not staying:
        return [], None
    top = [w for w in winners if w not in dropped] or staying
    ranks = [1 if p in top else 2 if p not in dropped else 3 for p in range(n)]
    return top, ranks


def games_to_rate(storage: Storage, limit: int = 100) -> list[str]:
    """Finished rated games whose ratings were not applied yet (oldest first)."""
    with storage.session() as s:
        return list(
            s.scalars(
                select(GameRow.id)
                .where(
                    GameRow.rated.is_(True),
                    GameRow.status == STATUS_FINISHED,
                    GameRow.rated_at.is_(None),
                )
                .order_by(GameRow.updated_at)
                .limit(limit)
            )
        )


def _accounts_only(c: Connection, players: list[str | None]) -> bool:
    """Whether every seat is an account's (rated games are for accounts: a guest, or a
    seat without a player, is never rated)."""
    if any(p is None for p in players):
        return False
    accounts = c.scalar(
        select(func.count())
        .select_from(PlayerRow)
        .where(PlayerRow.id.in_(players), PlayerRow.name_key.is_not(None))
    )
    return accounts == len(set(players))


def apply_ratings(storage: Storage, game_id: str) -> dict[str, dict[str, Any]] | None:
    """Change the ratings of a finished rated game's players by its result, once.

    Returns:
        ``{player_id: {"kind", "before", "after"}}`` (ratings as
        :meth:`.ratings.Rating.to_dict`), or None when there was nothing to do (not rated,
        not finished, already applied, a seat not an account's (guests: casual), or no winner).
    """
    with storage.engine.begin() as c:
        game = c.execute(
            select(GameRow.__table__).where(GameRow.id == game_id).with_for_update()
        ).first()
        if (
            game is None
            or not game.rated
            or game.status != STATUS_FINISHED
            or game.rated_at is not None
        ):
            return None
        now = utcnow()
        # The claim: only one transaction stamps the game (SQLite starts its transaction
        # here, at the first write, so the read above may be stale; PostgreSQL locked the
        # row). The ratings are read after it, under the write lock.
        claimed = c.execute(
            update(GameRow)
            .where(GameRow.id == game_id, GameRow.rated_at.is_(None))
            .values(rated_at=now)
        ).rowcount
        if claimed != 1:
            return None
        players = list(
            c.scalars(
                select(SeatRow.player_id).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
            )
        )
        result = game.result or {}
        winners, ranks = _standing(result, len(players))
        if not winners or len(set(players)) != len(players) or not _accounts_only(c, players):
            return None
        kind = game_kind(game.game, game.num_players)
        stored = {
            r.player_id: r
            for r in c.execute(
                select(RatingRow.__table__)
                .where(RatingRow.kind == kind, RatingRow.player_id.in_(players))
                .with_for_update()
            )
        }
        before: list[Rating] = []
        for p in players:
            row = stored.get(p)
            try:
                before.append(initial_rating(kind) if row is None else Rating.from_dict(row.rating))
            except ValueError:
                log.error("player %s: corrupt %s rating %r; starting again", p, kind, row)
                before.append(initial_rating(kind))
        try:
            after = ratings.update(kind, before, winners, ranks)
        except ValueError as e:
            log.error("game %s cannot be rated: %s", game_id, e)
            return None
        changes: dict[str, dict[str, Any]] = {}
        for p, old, new in zip(players, before, after, strict=True):
            assert p is not None
            values = {
                "rating": new.to_dict(),
                "value": new.value,
                "games": new.games,
                "updated_at": now,
            }
            if p in stored:
                c.execute(
                    update(RatingRow)
                    .where(RatingRow.player_id == p, RatingRow.kind == kind)
                    .values(**values)
                )
            else:
                c.execute(insert(RatingRow), {"player_id": p, "kind": kind, **values})
            changes[p] = {"kind": kind, "before": old.to_dict(), "after": new.to_dict()}
        return changes
