"""How a live game ends other than by its last move (lichess's ``Finisher``): a player
resigns or runs out of time (2 players: the game ends as their forfeit; 3-4 players: a
greedy bot plays their seat on and they rank last), or the person to move abandoned it
(:mod:`.expiry`). The record's ``"forfeit"`` result is
:func:`splendor.record.forfeit_result`."""

from __future__ import annotations

import dataclasses
from datetime import datetime

from ..record import forfeit_result
from .errors import DB_DOWN, N_, Conflict, Forbidden, Unavailable, first_line
from .live import LiveGame
from .protocol import MAX_NAME
from .proxy import GameProxy
from .service_context import Round, ServiceContext

RESIGNED_BOT = "greedy"
"""The bot that plays on for a player who resigned a 3-4 player game."""


class Finisher:
    """Ends games, or takes a person out of one.

    Args:
        ctx: the service's shared pieces.
        games: the live games (reloaded when the database disagrees).
        round: what the end of a game asks of the service (publish, timer, ratings).
    """

    def __init__(self, ctx: ServiceContext, games: GameProxy, round: Round) -> None:
        self._ctx = ctx
        self._games = games
        self._round = round

    async def resign(self, live: LiveGame, seat: int) -> None:
        """The player of ``seat`` resigns. With 2 players the game ends at once, won by the
        other (a forfeit, reason "resigned"); with 3-4 players a greedy bot plays the seat
        to the end and the player ranks last in the ratings (:mod:`.rated_games`).

        Raises:
            Conflict: the game is over. Forbidden: the seat is a bot's already.
            Unavailable: the database did not answer (nothing changed).
        """
        async with live.lock:
            if live.finished:
                raise Conflict(N_("game {game} is over; there is nothing to resign"), game=live.id)
            info = live.seats[seat]
            if info.type != "human":
                raise Forbidden(N_("seat {seat} is played by a bot already"), seat=seat)
            await self.leave_seat(live, seat, f"{info.name} resigned")

    async def leave_seat(self, live: LiveGame, seat: int, reason: str) -> None:
        """The person of ``seat`` leaves the game (resigned, or timed out); the caller holds
        ``live.lock``. With 2 players the game ends as their forfeit (``reason``); with 3-4
        a bot plays the seat on and it ranks last (``dropped``).

        Raises:
            Conflict: the game changed meanwhile. Unavailable: the database did not answer.
        """
        if live.num_players == 2:
            try:
                done = await self.forfeit(live, seat, reason)
            except DB_DOWN as e:
                raise Unavailable(
                    N_("leaving the seat was not stored ({error})"), error=first_line(e)
                ) from e
            if not done:
                await self._games.reconcile(live)
                raise Conflict(
                    N_("the game changed meanwhile; look again and resign if you still want to")
                )
            return
        await self._hand_to_bot(live, seat)

    async def _hand_to_bot(self, live: LiveGame, seat: int) -> None:
        """A :data:`RESIGNED_BOT` plays the seat of the person who left a 3-4 player game
        on (the caller holds ``live.lock``). Raises as :meth:`leave_seat`."""
        info = live.seats[seat]
        name = f"{info.name} (bot)"[:MAX_NAME]
        ctx = self._ctx
        try:
            done = await ctx.writer.run(ctx.storage.drop_seat, live.id, seat, RESIGNED_BOT, name)
        except DB_DOWN as e:
            raise Unavailable(
                N_("leaving the seat was not stored ({error})"), error=first_line(e)
            ) from e
        if not done:
            raise Conflict(N_("the game changed meanwhile; look again"))
        live.seats[seat] = dataclasses.replace(
            info, type="bot", bot=RESIGNED_BOT, name=name, token_hash=None, guest=False
        )
        live.dropped = sorted({*live.dropped, seat})
        self._round.changed(live)

    async def forfeit(
        self, live: LiveGame, seat: int, reason: str, at: datetime | None = None
    ) -> bool:
        """End ``live`` as the forfeit of ``seat`` (``reason`` says why), stored first: the
        result is the record's (:func:`splendor.record.forfeit_result`), the clock stops,
        the game is published and rated; ``at``: the time of the change (default now).
        The caller holds ``live.lock``. Returns False,
        changing nothing, when the database holds another state of the game (a move of
        another writer).

        Raises:
            sqlalchemy.exc.OperationalError, sqlalchemy.exc.InterfaceError: the database
                did not answer (nothing changed).
        """
        result = forfeit_result(live.state, seat, reason)
        ctx = self._ctx
        if not await ctx.writer.run(ctx.storage.finish_game, live.id, len(live.moves), result):
            return False
        live.result = result
        live.updated_at = ctx.now() if at is None else at
        if live.clock_state is not None:
            live.clock_state = live.clock_state.stopped(ctx.wall())
        self._round.changed(live, ended=True)
        return True


__all__ = ["RESIGNED_BOT", "Finisher"]
