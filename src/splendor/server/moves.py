"""Moves of live games: a seat's action checked (the seat, the turn, the move number, the
rules), committed to the database, and only then applied and published; and what the
engine says of an action a viewer is thinking of (:meth:`Moves.explain`).

Accepting an action (:meth:`Moves.act`):

1. the seat token must be the seat's (403), the game active and the decision that seat's
   (409), the client's move number (required: a request sent twice plays once) current
   (409 stale), the action legal (422, with the reason from ``why_illegal`` and the legal
   notations); a malformed action or a missing move number is 400. A rejected request
   changes nothing.
2. the action is applied to a copy of the state, the move is **committed to the database**
   (with the result when it ends the game), and only then does the live state advance and
   the hub broadcast each subscriber its own view.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..i18n import DEFAULT_LANGUAGE
from ..move_text import move_facts
from ..record import result_of
from .clocks import ClockState
from .errors import N_, BadRequest, Conflict, Forbidden, Illegal, Text, Unavailable, first_line
from .live import LiveGame
from .protocol import (
    Explanation,
    MalformedActionError,
    explain,
    move_effects,
    parse_action,
)
from .proxy import GameProxy
from .seats import Seats
from .service_context import Round, ServiceContext, retrieve
from .storage import MoveToStore, StaleMoveError

log = logging.getLogger("splendor.server")


class Moves:
    """Plays the decisions of live games (people's and bots').

    Args:
        ctx: the service's shared pieces.
        games: the live games (loaded by id; reloaded when the database disagrees).
        seats: who sits where.
        round: what a move asks of the service once committed.
    """

    def __init__(self, ctx: ServiceContext, games: GameProxy, seats: Seats, round: Round) -> None:
        self._ctx = ctx
        self._games = games
        self._seats = seats
        self._round = round

    async def act(
        self, game_id: str, token: Any, action: Any, move: Any, player_id: str | None = None
    ) -> tuple[LiveGame, int]:
        """Play ``action`` for the seat of ``token``, or without a token for the seat of the
        logged-in player ``player_id`` (see the module docstring). ``move`` (required) is
        the number of moves of the state the client decided on: a request that arrives
        twice plays once (the second is stale, 409).

        Returns:
            The game and the seat that played.

        Raises:
            NotFound (404), BadRequest (400), Forbidden (403), Conflict (409), Illegal (422).
        """
        live = await self._games.get(game_id)
        if token is not None and not isinstance(token, str):
            raise BadRequest(f"a seat token is a string, got {type(token).__name__}")
        seat = await self._seats.viewer_seat(live, token, player_id)
        if seat is None:
            raise Forbidden(
                N_(
                    'a seat token is required to act ("token": the token of your invite link), '
                    "or a session of the player sitting there"
                )
            )
        await self.act_as(live, seat, action, move)
        return live, seat

    async def act_as(self, live: LiveGame, seat: int, action: Any, move: Any) -> None:
        """Play ``action`` for ``seat`` (already authenticated). Raises as :meth:`act`."""
        if isinstance(move, bool) or not isinstance(move, int):
            shown = (
                repr(move)[:60]
                if isinstance(move, (str, float, type(None)))
                else type(move).__name__
            )
            raise BadRequest(
                '"move" is required: the "move" number of the state you decided on '
                f"(a whole number), got {shown}"
            )
        try:
            parsed = parse_action(live.game, action)
        except MalformedActionError as e:
            raise BadRequest(e.text) from None
        # A request cancelled mid-way (the client left) must not cut a commit in two (stored
        # but not applied): the decision runs in its own task, shielded from cancellation.
        task = asyncio.get_running_loop().create_task(self._act_locked(live, seat, parsed, move))
        task.add_done_callback(retrieve)
        await asyncio.shield(task)

    async def _act_locked(self, live: LiveGame, seat: int, parsed: Any, move: int) -> None:
        async with live.lock:
            _check_turn(live, seat, move)
            legal = live.state.legal_actions()
            if parsed not in legal:
                raise Illegal(
                    N_("illegal action {action}: {reason}. Legal now: {legal}"),
                    action=repr(str(parsed)),
                    reason=Explanation(live.game, live.state.observation(seat), parsed),
                    legal=", ".join(str(a) for a in legal),
                )
            await self.commit(live, seat, parsed)

    async def commit(self, live: LiveGame, seat: int, action: Any, note: str | None = None) -> None:
        """Apply, store, then publish one legal decision (caller holds ``live.lock``); the
        live game changes only once the move is committed. ``note``: shown with the move
        in the game log.

        Raises:
            Conflict: the database holds that move number already (another writer, or an
                earlier commit that reported an error but was stored): the game has been
                reloaded from the database; decide again. Also: a person's time ran out.
            Unavailable: the move was not stored (the database is down); nothing changed.
        """
        new = live.state.copy()
        new.apply(action)
        result = result_of(new) if new.is_terminal else None
        if result is not None and live.dropped:
            result["dropped"] = sorted(live.dropped)
        clock_after = self._clock_after(live, seat, new, result)
        notation = str(action)
        move = MoveToStore(
            live.id,
            len(live.moves),
            seat,
            notation,
            result,
            new.current_player if result is None else None,
            note,
            None if clock_after is None else clock_after.stored(),
        )
        await self._store(live, move)
        effects = move_effects(live.game, live.state, action, new)
        facts = move_facts(live.state, action)
        live.state = new
        live.add_move(seat, notation, note, effects, facts)
        live.result = result
        live.accessed = self._ctx.clock()
        live.clock_state = clock_after if clock_after is not None else live.clock_state
        self._round.changed(live, ended=result is not None)

    def _clock_after(
        self, live: LiveGame, seat: int, new: Any, result: dict[str, Any] | None
    ) -> ClockState | None:
        """The clock once ``seat`` decided (None: the game has no clock).

        Raises:
            Conflict: ``seat`` is a person whose time has run out.
        """
        if live.clock_state is None:
            return None
        now = self._ctx.wall()
        if live.seats[seat].type == "human" and live.clock_state.late(seat, now):
            raise Conflict(N_("your time has run out; the move was not played"))
        return live.clock_state.decided(
            seat, None if result is not None else new.current_player, now
        )

    async def _store(self, live: LiveGame, move: MoveToStore) -> None:
        """Commit ``move`` (the group commit of :class:`.writer.MoveWriter`) and note the
        time of ``live``'s change. Raises as :meth:`commit`."""
        ctx = self._ctx
        try:
            live.updated_at = await ctx.writer.append(move)
        except StaleMoveError as e:
            ctx.database_back()
            log.info("game %s: %s", live.id, e)
            await self._games.reconcile(live)
            raise Conflict(
                N_(
                    "the move was not played: the game changed meanwhile and was reloaded; "
                    "decide again on its current state"
                )
            ) from None
        except Unavailable:
            ctx.database_down()
            raise
        except Exception as e:  # the transaction failed: nothing of it was stored
            ctx.database_down()
            log.warning("move %d of game %s was not stored", move.idx, live.id, exc_info=True)
            raise Unavailable(
                N_("the move was not stored ({error}); nothing changed: try again"),
                error=first_line(e),
            ) from e
        ctx.database_back()

    async def explain(
        self,
        game_id: str,
        token: Any,
        action: Any,
        player_id: str | None = None,
        language: str = DEFAULT_LANGUAGE,
    ) -> dict[str, Any]:
        """``{"action": notation, "legal": bool, "reason": str}`` for the viewer of
        ``token`` (or the seat of the logged-in player ``player_id``), the reason in
        ``language`` (``"en"``, ``"fr"``, ``"nl"``). Only the seat to move gets the engine's
        answer (C6-C17, D6-D20); for anyone else the action is not legal (it is not their
        decision), so nothing about hidden cards is revealed.

        Raises:
            NotFound, Forbidden (bad token), BadRequest (malformed action, with a hint).
            ValueError: an unknown language.
        """
        live = await self._games.get(game_id)
        if token is not None and not isinstance(token, str):
            raise BadRequest('"token" must be a string')
        seat = await self._seats.viewer_seat(live, token, player_id)
        try:
            parsed = parse_action(live.game, action)
        except MalformedActionError as e:
            raise BadRequest(e.text) from None
        out = {"action": str(parsed), "legal": False, "reason": ""}
        current = live.current_player
        if current is None:  # None exactly when the game is over
            out["reason"] = Text(N_("the game is over")).translated(language)
        elif seat is None:
            out["reason"] = Text(
                N_("spectators cannot act; open your invite link to play your seat")
            ).translated(language)
        elif current != seat:
            out["reason"] = Text(
                N_("it is not your decision: seat {seat} ({name}) is to play"),
                {"seat": current + 1, "name": live.seats[current].name},  # 1-based for people
            ).translated(language)
        elif parsed in live.state.legal_actions():
            out["legal"] = True
        else:
            out["reason"] = explain(live.game, live.state.observation(seat), parsed, language)
        return out


def _check_turn(live: LiveGame, seat: int, move: int) -> None:
    """Refuse a decision of ``seat`` on the state after ``move`` moves unless it is that
    seat's to make now.

    Raises:
        Conflict: the game is over, it is another seat's decision, or ``move`` is stale.
        Forbidden: a bot plays the seat (its player resigned).
    """
    if live.finished:
        raise Conflict(N_("game {game} is over; no more actions are accepted"), game=live.id)
    current = live.state.current_player
    if live.seats[seat].type == "bot":
        raise Forbidden(N_("seat {seat} is played by a bot since its player resigned"), seat=seat)
    if current != seat:
        who = live.seats[current]
        raise Conflict(
            N_("not your turn: the decision is seat {current}'s ({name}); you are seat {seat}"),
            current=current,
            name=who.name,
            seat=seat,
        )
    if move != len(live.moves):
        raise Conflict(
            N_(
                "stale move number {move}: {played} moves have been played; "
                "reload the game state and decide again"
            ),
            move=move,
            played=len(live.moves),
        )


__all__ = ["Moves"]
