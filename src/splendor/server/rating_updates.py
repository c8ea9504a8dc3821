"""The ratings changed by finished rated games (lichess's ``PerfsUpdater``): applied once
per game when it ends (:func:`.rated_games.apply_ratings`), and retried by the maintenance
task for every finished rated game not rated yet."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from .rated_games import apply_ratings, games_to_rate
from .service_context import ServiceContext

log = logging.getLogger("splendor.server")


class RatingUpdates:
    """Applies the results of rated games to their players' ratings.

    Args:
        ctx: the service's shared pieces (the database, the background tasks).
    """

    def __init__(self, ctx: ServiceContext) -> None:
        self._ctx = ctx

    def rate_later(self, game_id: str) -> None:
        """:meth:`rate` ``game_id`` in a background task."""
        self._ctx.spawn(self.rate(game_id), f"rate:{game_id}")

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


__all__ = ["RatingUpdates"]
