"""The ratings changed by finished rated games (lichess's ``PerfsUpdater``): applied once
per game when it ends (:func:`.rated_games.apply_ratings`), and retried by the maintenance
task for every finished rated game not rated yet. Each seat's change
(:func:`seat_changes`) is told to the game's watchers once known (issue 33: the result
shows it)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any

from .live import LiveGame
from .rated_games import apply_ratings, games_to_rate
from .service_context import ServiceContext
from .views import JsonView

log = logging.getLogger("splendor.server")


class RatingUpdates:
    """Applies the results of rated games to their players' ratings.

    Args:
        ctx: the service's shared pieces (the database, the background tasks).
    """

    def __init__(self, ctx: ServiceContext) -> None:
        self._ctx = ctx

    def rate_later(
        self, game_id: str, on_rated: Callable[[dict[str, dict[str, Any]]], None] | None = None
    ) -> None:
        """:meth:`rate` ``game_id`` in a background task; then ``on_rated(changes)`` with
        :meth:`rate`'s answer when ratings changed (on the event loop)."""
        self._ctx.spawn(self._rate_and_tell(game_id, on_rated), f"rate:{game_id}")

    async def _rate_and_tell(
        self, game_id: str, on_rated: Callable[[dict[str, dict[str, Any]]], None] | None
    ) -> None:
        changes = await self.rate(game_id)
        if changes and on_rated is not None:
            on_rated(changes)

    async def rate(self, game_id: str) -> dict[str, dict[str, Any]] | None:
        """Apply a finished rated game's result to its players' ratings, once
        (:func:`.rated_games.apply_ratings`); a failure is logged and left to the
        maintenance task, which retries every finished rated game not rated yet."""
        try:
            return await asyncio.to_thread(apply_ratings, self._ctx.storage, game_id)
        except Exception:
            log.warning("game %s: ratings not applied yet", game_id, exc_info=True)
            return None

    async def rate_pending(self) -> int:
        """Apply the ratings of every finished rated game not rated yet; returns how many
        games changed ratings."""
        done = 0
        for game_id in await asyncio.to_thread(games_to_rate, self._ctx.storage):
            if await self.rate(game_id) is not None:
                done += 1
        return done


def seat_changes(
    players: Sequence[str | None], changes: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """Each seat's rating change, for a finished game's result as its watchers see it.

    Args:
        players: the player id of each seat (seat order).
        changes: :func:`.rated_games.apply_ratings`'s answer, ``{player_id: {"kind",
            "before", "after"}}`` (ratings as :meth:`.ratings.Rating.to_dict`).

    Returns:
        ``[{"seat", "kind", "before", "after", "delta"}]`` for the seats in ``changes``,
        seat order; ``before`` and ``after`` the displayed ratings (whole points),
        ``delta`` = ``after - before``.
    """
    out = []
    for seat, player in enumerate(players):
        change = changes.get(player) if player is not None else None
        if change is None:
            continue
        before = round(float(change["before"]["value"]))
        after = round(float(change["after"]["value"]))
        out.append(
            {
                "seat": seat,
                "kind": change["kind"],
                "before": before,
                "after": after,
                "delta": after - before,
            }
        )
    return out


def shown_changes(views: JsonView, live: LiveGame, changes: dict[str, dict[str, Any]]) -> None:
    """A rated game's ratings were applied: its result shows each seat's change
    (:func:`seat_changes`), sent at once to every watcher
    (:meth:`.views.JsonView.result_json`)."""
    live.rating_changes = seat_changes([s.player_id for s in live.seats], changes)
    views.publish(live)


__all__ = ["RatingUpdates", "seat_changes", "shown_changes"]
