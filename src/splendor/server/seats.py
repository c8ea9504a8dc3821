"""Who sits where in a live game: the seat of a seat token or of a logged-in player, a
seat claimed by the player who opened its token, and the games of a list of tokens."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from typing import Any

from .errors import N_, BadRequest, Forbidden, NotFound
from .live import LiveGame
from .proxy import GameProxy
from .service_context import ServiceContext
from .storage import hash_token
from .views import JsonView

log = logging.getLogger("splendor.server")

MAX_LOOKUP_TOKENS = 200
"""The most seat tokens one :meth:`Seats.list_games` may ask about."""

TOKEN_FORMAT = re.compile(r"[A-Za-z0-9_-]{1,128}")
"""What a seat token can look like (they are :func:`secrets.token_urlsafe` strings);
anything else is refused before it is hashed."""


class Seats:
    """The seats of live games and who holds them.

    Args:
        ctx: the service's shared pieces (the database writer, for claimed seats).
        games: the live games (:meth:`list_games` loads them).
    """

    def __init__(self, ctx: ServiceContext, games: GameProxy) -> None:
        self._ctx = ctx
        self._games = games

    @staticmethod
    def seat_for_token(live: LiveGame, token: str | None) -> int | None:
        """The viewer's seat: None without a token (spectator).

        Raises:
            Forbidden: a token that is not a seat token of this game.
            BadRequest: a token that is not a string.
        """
        if token is None or token == "":
            return None
        if not isinstance(token, str):
            raise BadRequest(f"a seat token is a string, got {type(token).__name__}")
        seat = live.seat_of_token(token) if TOKEN_FORMAT.fullmatch(token) else None
        if seat is None:
            raise Forbidden(
                N_(
                    "this token is not a seat token of game {game}; "
                    "open the game without a token to watch it"
                ),
                game=live.id,
            )
        return seat

    @staticmethod
    def seat_of_player(live: LiveGame, player_id: str | None) -> int | None:
        """The seat of ``player_id`` in ``live`` (None: not seated, no player, or the seat
        is played by a bot since the player left it)."""
        if player_id is None:
            return None
        for s in live.seats:
            if s.player_id == player_id:
                return s.seat if s.type == "human" else None
        return None

    async def viewer_seat(
        self, live: LiveGame, token: Any, player_id: str | None = None
    ) -> int | None:
        """Who is looking: the seat of ``token`` when one is given (and then, when the
        viewer is also the logged-in player ``player_id``, the seat becomes that player's:
        :meth:`claim_seat`), else the seat where ``player_id`` sits, else None (a
        spectator).

        Raises:
            Forbidden: a token that is not a seat token of this game.
            BadRequest: a token that is not a string.
        """
        if token is not None and token != "":
            seat = self.seat_for_token(live, token)
            if seat is not None and player_id is not None:
                await self.claim_seat(live, seat, player_id)
            return seat
        return self.seat_of_player(live, player_id)

    async def claim_seat(self, live: LiveGame, seat: int, player_id: str) -> None:
        """Record that ``player_id`` sits at ``seat`` (a seat token opened by a logged-in
        player), so the game is on the player's page and the player's session is enough to
        play it. Nothing happens for a seat already claimed, or a player who has another
        seat in this game; a database error is logged, not raised (the move or view that
        asked goes on)."""
        info = live.seats[seat]
        if info.player_id is not None or info.type != "human":
            return
        if self.seat_of_player(live, player_id) is not None:
            return
        ctx = self._ctx
        try:
            claimed = await ctx.writer.run(ctx.storage.claim_seat, live.id, seat, player_id)
            guests = await asyncio.to_thread(ctx.storage.guest_ids, [player_id] if claimed else [])
        except Exception:
            log.warning("seat %d of game %s was not claimed", seat, live.id, exc_info=True)
            return
        if claimed:
            live.seats[seat] = dataclasses.replace(
                info, player_id=player_id, guest=player_id in guests
            )

    async def list_games(self, tokens: Any) -> list[dict[str, Any]]:
        """Summaries (:meth:`.views.JsonView.summary`) of the games in which any of
        ``tokens`` (a list of at most :data:`MAX_LOOKUP_TOKENS` strings) holds a seat,
        newest first; a string that cannot be a token matches nothing.

        Raises:
            BadRequest: ``tokens`` is not a list of strings, or too long.
        """
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise BadRequest('"tokens" must be a list of seat tokens (strings)')
        if len(tokens) > MAX_LOOKUP_TOKENS:
            raise BadRequest(f'at most {MAX_LOOKUP_TOKENS} "tokens" at a time, got {len(tokens)}')
        hashes = [hash_token(t) for t in tokens if TOKEN_FORMAT.fullmatch(t)]
        found = await asyncio.to_thread(self._ctx.storage.games_for_token_hashes, hashes)
        out = []
        for stored, mine in found:
            try:
                live = await self._games.get(stored.id)
            except NotFound:
                continue
            out.append(JsonView.summary(live, mine))
        return out


__all__ = ["MAX_LOOKUP_TOKENS", "TOKEN_FORMAT", "Seats"]
