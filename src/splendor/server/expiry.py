"""Maintenance of the live games and expiry of old ones (lichess's ``Titivate``).

Every ``sweep_every`` seconds (:meth:`Expiry.maintain`): start the bot turn of any loaded
game whose bot is to move and has no task, evict the idle games from memory, retry the
start-up resume if it could not finish, apply pending ratings, and run the service's other
maintenance hooks. A game leaves memory when nobody is connected, no bot of it is thinking
and nobody asked for it for ``evict_idle`` seconds (``evict_finished`` once it is over).

Every ``expire_every`` seconds (:meth:`Expiry.expire`): a game with no move is deleted
``expire_unstarted`` seconds after its creation; a game whose person to move has not played
for ``expire_abandoned`` seconds ends as that seat's forfeit (the record's ``"forfeit"``
result, :func:`splendor.record.forfeit_result`): a game with moves is kept, with its moves
and its record. The times are :class:`.live.Lifecycle`'s.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from .bot_turns import BotTurns
from .errors import DB_DOWN, N_, NotFound, Unavailable, first_line
from .finisher import Finisher
from .live import DAY, LiveGame
from .proxy import GameProxy
from .rating_updates import RatingUpdates
from .service_context import ServiceContext

log = logging.getLogger("splendor.server")


class Expiry:
    """Sweeps the live games and expires old ones.

    Args:
        ctx: the service's shared pieces (the life cycle's times, the counters).
        games: the live games.
        bots: starts the bot turns that have no task, and retries the start-up resume.
        finisher: ends abandoned games.
        ratings: applies pending ratings.
        hooks: more work of each maintenance run (the service's ``maintenance`` list,
            shared: hooks added later run too).
    """

    def __init__(
        self,
        ctx: ServiceContext,
        games: GameProxy,
        bots: BotTurns,
        finisher: Finisher,
        ratings: RatingUpdates,
        hooks: list[Callable[[], Awaitable[Any]]],
    ) -> None:
        self._ctx = ctx
        self._games = games
        self._bots = bots
        self._finisher = finisher
        self._ratings = ratings
        self._hooks = hooks

    async def run(self) -> None:
        """Every ``sweep_every`` seconds :meth:`maintain`, every ``expire_every``
        seconds :meth:`expire`, until the service closes; errors are logged."""
        loop = asyncio.get_running_loop()
        lifecycle = self._ctx.lifecycle
        next_expiry = loop.time() + lifecycle.expire_every
        while not self._ctx.closed:
            await asyncio.sleep(lifecycle.sweep_every)
            try:
                await self.maintain()
                if loop.time() >= next_expiry:
                    next_expiry = loop.time() + lifecycle.expire_every
                    await self.expire()
            except asyncio.CancelledError:
                raise
            except Unavailable as e:
                log.warning("maintenance: %s", e.message)
            except Exception:
                log.exception("maintenance failed")

    async def maintain(self) -> dict[str, int]:
        """One maintenance run (see the module docstring); the hooks' errors are logged.

        Returns:
            ``{"resumed": n, "evicted": n}`` of this run.

        Raises:
            Unavailable: the start-up resume had to be retried and the database is down.
        """
        ctx = self._ctx
        resumed = evicted = 0
        now = ctx.clock()
        for live in self._games.live_games():
            if self._bots.schedule(live):
                resumed += 1
            elif self._evictable(live, now):
                self._games.drop(live)
                evicted += 1
        ctx.counters["evicted"] += evicted
        ctx.counters["resumed"] += resumed
        if resumed:
            log.warning("resumed %d bot turn(s) that had no task", resumed)
        if self._bots.resume_pending and not ctx.closed:
            ctx.counters["resumed"] += await self._bots.resume()
        await self._ratings.rate_pending()
        for more in list(self._hooks):
            try:
                await more()
            except asyncio.CancelledError:
                raise
            except Unavailable as e:
                log.warning("maintenance: %s", e.message)
            except Exception:
                log.exception("maintenance (%s) failed", getattr(more, "__qualname__", more))
        return {"resumed": resumed, "evicted": evicted}

    def _evictable(self, live: LiveGame, now: float) -> bool:
        """Nobody connected, no decision under way, no bot thinking, no clock running, and
        idle long enough."""
        if live.lock.locked() or self._ctx.hub.has_subscribers(live.id):
            return False
        if live.clock_state is not None and not live.finished:
            return False
        if live.bot_task is not None and not live.bot_task.done():
            return False
        lifecycle = self._ctx.lifecycle
        ttl = lifecycle.evict_finished if live.finished else lifecycle.evict_idle
        return now - live.accessed >= ttl

    # ------------------------------------------------------------------ expiry

    async def expire(self, limit: int = 1000) -> dict[str, int]:
        """Expire games (see the module docstring): delete the games with no move created
        more than ``expire_unstarted`` ago, and end as a forfeit of the seat to move the
        games whose person to move has not played for ``expire_abandoned`` (kept, with
        their moves). A game with someone connected, or a decision under way, is left
        alone. At most ``limit`` games of each kind per call.

        Returns:
            ``{"deleted": n, "forfeited": n}``.

        Raises:
            Unavailable: the database could not be reached (what was done stays done).
        """
        lifecycle = self._ctx.lifecycle
        now = self._ctx.now()
        done = {"deleted": 0, "forfeited": 0}
        try:
            if lifecycle.expire_unstarted is not None:
                cutoff = now - timedelta(seconds=lifecycle.expire_unstarted)
                await self._delete_unstarted(cutoff, limit, done)
            if lifecycle.expire_abandoned is not None:
                await self._forfeit_abandoned(now, lifecycle.expire_abandoned, limit, done)
        except DB_DOWN as e:
            raise Unavailable(
                N_("the database is unavailable ({error})"), error=first_line(e)
            ) from e
        finally:
            for name, n in done.items():
                self._ctx.counters[name] += n
        return done

    async def _delete_unstarted(self, cutoff: datetime, limit: int, done: dict[str, int]) -> None:
        """Delete the games with no move created before ``cutoff`` (counted in
        ``done["deleted"]`` as they go)."""
        ctx = self._ctx
        for game_id in await asyncio.to_thread(ctx.storage.unstarted_games, cutoff, limit):
            if ctx.hub.has_subscribers(game_id) or self._games.is_loading(game_id):
                continue
            live = self._games.find(game_id)
            if live is None:
                gone = await ctx.writer.run(ctx.storage.delete_unstarted_game, game_id, cutoff)
            elif live.lock.locked() or live.moves:
                continue
            else:
                async with live.lock:
                    gone = not live.moves and await ctx.writer.run(
                        ctx.storage.delete_unstarted_game, game_id, cutoff
                    )
                    if gone:
                        self._games.drop(live)
            done["deleted"] += bool(gone)

    async def _forfeit_abandoned(
        self, now: datetime, seconds: float, limit: int, done: dict[str, int]
    ) -> None:
        """End as the forfeit of the person to move the games with no move for
        ``seconds`` (counted in ``done["forfeited"]`` as they go)."""
        cutoff = now - timedelta(seconds=seconds)
        days = seconds / DAY
        span = f"{days:g} days" if days >= 1 else f"{seconds:g} s"
        for game_id in await asyncio.to_thread(self._ctx.storage.idle_games, cutoff, limit):
            if self._ctx.hub.has_subscribers(game_id):
                continue
            try:
                live = await self._games.get(game_id)
            except NotFound:
                continue
            async with live.lock:
                if live.finished or live.updated_at >= cutoff:
                    continue
                seat = live.state.current_player
                if live.seats[seat].type == "bot":  # not waiting for a person
                    self._bots.schedule(live)
                    continue
                reason = (
                    f"{live.seats[seat].name} (seat {seat}) made no move for {span}: "
                    "the game expired"
                )
                if await self._finisher.forfeit(live, seat, reason, now):
                    done["forfeited"] += 1


__all__ = ["Expiry"]
