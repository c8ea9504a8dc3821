"""The bots' turns in live games: after every accepted move, and whenever a game is
loaded, a bot whose decision it is gets a task that asks a worker process (:mod:`.bots`)
for its action and commits it (:meth:`.moves.Moves.commit`).

Supervision:

- A bot turn whose move does not commit (the database is down) is retried with a capped
  exponential back-off, for as long as it takes; the first commit that succeeds again wakes
  every waiting bot turn at once (:meth:`.service_context.ServiceContext.wait_retry`). A commit
  that did succeed although it reported an error is found at the next attempt (a stale
  move number) and the game is reloaded from the database, which is the truth.
- A bot whose worker process died gets a new pool (:meth:`.bots.BotPools.replace`) and is
  asked again; a bot that fails ``bot_attempts`` times in a row (it raised, answered an
  illegal action, or its worker died each time) has a random legal action played for it,
  and that move carries a note in the game log saying so (stored with the move).
- After a restart, the games whose bot is to move are loaded in the background
  (:meth:`BotTurns.resume`), a few at a time, so that their bots go on.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from ..game import get_game
from . import bots as server_bots
from .errors import DB_DOWN, N_, Conflict, NotFound, ServiceError, Unavailable, first_line
from .live import LiveGame
from .moves import Moves
from .proxy import GameProxy
from .service_context import ServiceContext, retrieve
from .storage import SeatInfo

log = logging.getLogger("splendor.server")


class BotTurns:
    """Runs the bot turns of live games.

    Args:
        ctx: the service's shared pieces (the bot pools, the life cycle's retry settings).
        games: the live games (:meth:`resume` loads them).
        moves: commits the bots' decisions.

    Attributes:
        resume_pending: the start-up resume has to be run (again) by the maintenance task.
    """

    def __init__(self, ctx: ServiceContext, games: GameProxy, moves: Moves) -> None:
        self._ctx = ctx
        self._games = games
        self._moves = moves
        self.resume_pending = False
        self._resuming = False

    def schedule(self, live: LiveGame) -> bool:
        """Start the bot-turn task of ``live`` if a bot is to move and none is running;
        True if one was started."""
        if self._ctx.closed or live.finished or live.evicted:
            return False
        seat = live.state.current_player
        if live.seats[seat].type != "bot":
            return False
        if live.bot_task is not None and not live.bot_task.done():
            return False
        live.bot_task = asyncio.get_running_loop().create_task(
            self._turns(live), name=f"bot:{live.id}"
        )
        live.bot_task.add_done_callback(retrieve)
        return True

    async def _turns(self, live: LiveGame) -> None:
        """Play the bot decisions of ``live`` while the seat to move is a bot. A turn that
        fails (its move is not stored) is retried after a back-off
        (:meth:`.live.Lifecycle.backoff`) with the same decision, for as long as it takes."""
        failures = 0
        decided: tuple[int, Any, str | None] | None = None
        while not self._ctx.closed and not live.finished and not live.evicted:
            seat = live.state.current_player
            info = live.seats[seat]
            if info.type != "bot":
                return
            idx = len(live.moves)
            try:
                if decided is None or decided[0] != idx:
                    decided = (idx, *await self._decision(live, seat, info))
                _, action, note = decided
                async with live.lock:
                    if len(live.moves) != idx or live.finished or live.evicted:
                        continue
                    await self._moves.commit(live, seat, action, note)
                failures = 0
            except asyncio.CancelledError:
                raise
            except Conflict:  # reloaded from the database: decide on what is stored
                decided = None
            except Exception as e:
                failures += 1
                self._ctx.counters["bot_retries"] += 1
                why = e.message if isinstance(e, ServiceError) else first_line(e)
                log.warning(
                    "bot turn (move %d) of game %s failed: %s; retry %d within %.1f s",
                    idx,
                    live.id,
                    why,
                    failures,
                    self._ctx.lifecycle.backoff(failures),
                )
                await self._ctx.wait_retry(failures)

    async def _decision(self, live: LiveGame, seat: int, info: SeatInfo) -> tuple[Any, str | None]:
        """The bot's action for the decision of ``seat`` now, and None; or, after
        ``bot_attempts`` failures in a row (the bot raised, answered an illegal action, or
        its worker died), a random legal action and the note that says so. A dead worker's
        pool is replaced (:func:`.bots.decide`) and the bot asked again at once."""
        obs = live.state.observation(seat)
        legal = obs.legal_actions()
        action_type: Any = get_game(live.game).action_type
        spec = str(info.bot)
        attempts = self._ctx.lifecycle.bot_attempts
        problems: list[str] = []
        for attempt in range(1, attempts + 1):
            try:
                action = action_type.from_id(
                    await server_bots.decide(self._ctx.pools, live.game, spec, obs)
                )
                if action in legal:
                    return action, None
                problems.append(f"it answered {str(action)!r}, which is not legal")
                log.error("bot %s answered the illegal action %s in game %s", spec, action, live.id)
            except asyncio.CancelledError:
                raise
            except server_bots.PoolReplaced as e:
                problems.append("its worker process died")
                log.warning("game %s: %s; asking again", live.id, e)
                continue
            except Exception as e:
                # the type only: the message may quote the bot's own hidden cards (blind reserves)
                problems.append(f"it failed ({type(e).__name__})")
                log.exception(
                    "bot %s failed in game %s (attempt %d of %d)", spec, live.id, attempt, attempts
                )
            if attempt < attempts:
                await self._ctx.wait_retry(attempt)
        self._ctx.counters["random_moves"] += 1
        action = secrets.choice(legal)
        note = (
            f"bot {spec} could not decide ({'; '.join(problems)}): "
            f"a random legal action ({action}) was played for it"
        )
        log.error("game %s: %s", live.id, note)
        return action, note

    # ------------------------------------------------------------------ after a restart

    async def resume(self) -> int:
        """Load every active game whose bot is to move (``resume_concurrency`` at a time),
        which starts its bot turn. Returns how many were loaded; a game that cannot be
        loaded now is tried again by the next maintenance run.

        Raises:
            Unavailable: the database could not be read (nothing loaded; retried by the
                maintenance task).
        """
        if self._resuming:  # one resume at a time (start-up's may take a while)
            return 0
        self._resuming = True
        try:
            return await self._resume()
        finally:
            self._resuming = False

    async def _resume(self) -> int:
        try:
            ids = await asyncio.to_thread(self._ctx.storage.games_with_bot_to_move)
        except DB_DOWN as e:
            raise Unavailable(
                N_("the database is unavailable ({error})"), error=first_line(e)
            ) from e
        gate = asyncio.Semaphore(self._ctx.lifecycle.resume_concurrency)
        failed = False

        async def one(game_id: str) -> bool:
            nonlocal failed
            async with gate:
                if self._ctx.closed:
                    return False
                try:
                    await self._games.get(game_id)
                except NotFound:
                    return False
                except Unavailable:
                    failed = True
                    return False
                except Exception:  # a corrupt game must not stop the others
                    log.exception("cannot resume game %s", game_id)
                    return False
                return True

        done = sum(await asyncio.gather(*(one(g) for g in ids)))
        self.resume_pending = failed
        return done


__all__ = ["BotTurns"]
