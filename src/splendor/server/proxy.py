"""The games in memory, loaded and kept in step with the database (lichess's
``GameProxy``): a game loads on first access (replayed from its seed and moves, C18/D24),
catches up with what another server process stored (:mod:`.notify`), and is reloaded
from the database, which is the truth, when it disagrees."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..game import get_game
from ..move_text import MoveFacts, move_facts
from .clocks import ClockState
from .errors import DB_DOWN, N_, NotFound, ServiceError, Unavailable, first_line
from .live import LiveGame, final_result, replay
from .protocol import move_effects
from .service_context import Round, ServiceContext
from .storage import StoredGame

log = logging.getLogger("splendor.server")

Loaded = tuple[StoredGame, Any, dict[str, Any] | None, dict[int, list[dict[str, Any]]]]
"""A stored game, the state after its moves, its result and its moves' effects."""


class GameProxy:
    """The live games of one service, by id.

    Args:
        ctx: the service's shared pieces.
        round: what a change of a game asks of the service (publish, bot turn, timer).
    """

    def __init__(self, ctx: ServiceContext, round: Round) -> None:
        self._ctx = ctx
        self._round = round
        self._games: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._told_while_loading: set[str] = set()
        """Games another process changed while this one was reading them (:meth:`get`)."""

    @property
    def loaded(self) -> int:
        """How many games are in memory now."""
        return len(self._games)

    def is_loaded(self, game_id: str) -> bool:
        """Whether the game ``game_id`` is in memory now."""
        return game_id in self._games

    def is_loading(self, game_id: str) -> bool:
        """Whether the game ``game_id`` is being read now."""
        return game_id in self._loading

    def find(self, game_id: str) -> LiveGame | None:
        """The game ``game_id`` if it is in memory (without loading it)."""
        return self._games.get(game_id)

    def live_games(self) -> list[LiveGame]:
        """The games in memory now."""
        return list(self._games.values())

    def add(self, live: LiveGame) -> None:
        """Keep a game just created in memory."""
        self._games[live.id] = live

    def drop(self, live: LiveGame) -> None:
        """Forget ``live`` (evicted or deleted) and stop its timer and bot task."""
        if self._games.get(live.id) is live:
            del self._games[live.id]
        live.evicted = True
        if live.clock_task is not None and live.clock_task is not asyncio.current_task():
            live.clock_task.cancel()
        task = live.bot_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()

    # ------------------------------------------------------------------ loading

    async def get(self, game_id: str) -> LiveGame:
        """The live game: in memory, or loaded from the database and replayed (in a
        thread) on first use, which also starts its bot turn if a bot is to move.

        Raises:
            NotFound: no such game.
            Unavailable: the database could not be read.
            RuntimeError: the stored moves do not replay (a corrupt database).
        """
        live = self._games.get(game_id)
        if live is not None:
            live.accessed = self._ctx.clock()
            return live
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                live = self._games.get(game_id)
                if live is not None:
                    live.accessed = self._ctx.clock()
                    return live
                return await self._load(game_id)
        finally:
            self._told_while_loading.discard(game_id)
            if self._loading.get(game_id) is lock:  # a waiter still holds it and checks _games
                del self._loading[game_id]

    async def _load(self, game_id: str) -> LiveGame:
        """Read and replay ``game_id``, keep it, resume its clock, and start its bot turn
        (or, when another process changed it while it was read, catch up first)."""
        loaded = await self.read(game_id)
        if loaded is None:
            raise NotFound(N_("no game {game}"), game=repr(game_id))
        live = self._live(*loaded)
        self._games[game_id] = live
        self._ctx.counters["loaded"] += 1
        if game_id in self._told_while_loading:  # cleared by get, in finally
            # another process changed the game after it was read: catch up now
            # (its notification came while the game was not in memory yet)
            self._ctx.spawn(self.sync(live), f"sync:{game_id}")
        else:
            self._round.schedule_bot(live)
        return live

    def _live(
        self,
        stored: StoredGame,
        state: Any,
        result: dict[str, Any] | None,
        effects: dict[int, list[dict[str, Any]]],
    ) -> LiveGame:
        """The live game of a stored one, its clock resumed (from now) and armed."""
        live = LiveGame(
            id=stored.id,
            game=stored.game,
            num_players=stored.num_players,
            seed=stored.seed,
            options=stored.options,
            seats=stored.seats,
            created_at=stored.created_at,
            updated_at=stored.updated_at,
            state=state,
            moves=list(stored.moves),
            result=result,
            notes=dict(stored.notes),
            effects=effects,
            accessed=self._ctx.clock(),
            rated=stored.rated,
            clock=stored.clock,
            dropped=list(stored.dropped),
        )
        if stored.clock is not None and not live.finished:
            live.clock_state = ClockState.resume(
                stored.clock,
                stored.clock_after,
                stored.num_players,
                state.current_player,
                self._ctx.wall(),
            )
            self._round.arm_clock(live)
        return live

    async def read(self, game_id: str) -> Loaded | None:
        """The stored game, its state, result and moves' effects (read and replayed in a
        thread), or None.

        Raises:
            Unavailable, RuntimeError: as :meth:`get`.
        """

        def load() -> Loaded | None:
            stored = self._ctx.storage.load_game(game_id)
            return None if stored is None else (stored, *replay(stored))

        try:
            return await asyncio.to_thread(load)
        except DB_DOWN as e:
            raise Unavailable(
                N_("the database is unavailable ({error}); try again"), error=first_line(e)
            ) from e

    # ------------------------------------------------------------------ in step with the database

    async def reconcile(self, live: LiveGame) -> None:
        """Reload ``live`` in place from the database, which is the truth, and publish it
        (the caller holds ``live.lock``).

        Raises:
            NotFound: the game is not stored any more (it is dropped from memory).
            Unavailable: the database could not be read (``live`` is unchanged).
        """
        loaded = await self.read(live.id)
        if loaded is None:
            self.drop(live)
            raise NotFound(N_("no game {game}"), game=repr(live.id))
        stored, state, result, effects = loaded
        live.state, live.result = state, result
        live.moves, live.notes, live.effects = list(stored.moves), dict(stored.notes), effects
        live.reset_log()
        self._adopt(live, stored, moved=True)

    def _adopt(self, live: LiveGame, stored: StoredGame, *, moved: bool) -> None:
        """After ``live``'s state, moves and result were brought up to ``stored`` (the
        database's game, or the tail of it): take its seats, dropped seats, rated flag and
        time, set the clock (stopped once the game is over; when ``moved``, resumed from
        the clock stored with the last move, from now), and publish, start a bot's turn and
        arm the timer as the game now needs."""
        live.updated_at = stored.updated_at
        live.seats, live.dropped, live.rated = (
            list(stored.seats),
            list(stored.dropped),
            stored.rated,
        )
        if stored.clock is not None:
            if live.finished:
                if live.clock_state is not None:
                    live.clock_state = live.clock_state.stopped(self._ctx.wall())
            elif moved:
                live.clock_state = ClockState.resume(
                    stored.clock,
                    stored.clock_after,
                    stored.num_players,
                    live.state.current_player,
                    self._ctx.wall(),
                )
        self._round.changed(live, remote=True)

    def on_game_changed(self, game_id: str) -> None:
        """Another server process changed ``game_id``: reload it if it is loaded, and
        catch up once loaded if it is being read (the read may predate the change)."""
        live = self._games.get(game_id)
        if live is not None:
            self._ctx.spawn(self.sync(live), f"sync:{game_id}")
        elif game_id in self._loading:
            self._told_while_loading.add(game_id)

    def resync(self) -> None:
        """Reload every loaded game (notifications may have been lost)."""
        for live in list(self._games.values()):
            self._ctx.spawn(self.sync(live), f"sync:{live.id}")

    async def sync(self, live: LiveGame) -> None:
        """Bring ``live`` up to the database (its new moves, else a full reload); an
        error is logged."""
        try:
            async with live.lock:
                if not live.evicted and not await self._catch_up(live):
                    await self.reconcile(live)
        except ServiceError as e:
            log.warning("game %s was not reloaded: %s", live.id, e.message)

    async def _catch_up(self, live: LiveGame) -> bool:
        """Apply the moves another process stored since ``live``'s last one (and its seats,
        result and clock) and publish; the caller holds ``live.lock``. Returns False when
        a full reload is needed instead (a move that does not follow on, say)."""
        try:
            tail = await asyncio.to_thread(
                self._ctx.storage.load_game_since, live.id, len(live.moves)
            )
        except DB_DOWN:
            return False
        if tail is None:
            return False
        followed = _follow(live, tail.moves)
        if followed is None:
            return False
        state, effects, facts = followed
        base = len(live.moves)
        live.state = state
        for k, (seat, text) in enumerate(tail.moves):
            live.add_move(seat, text, tail.notes.get(base + k), effects[k], facts[k])
        live.result = final_result(tail.result, state)
        self._adopt(live, tail, moved=bool(tail.moves))
        return True


def _follow(
    live: LiveGame, moves: list[tuple[int, str]]
) -> tuple[Any, list[list[dict[str, Any]]], list[MoveFacts]] | None:
    """The state of ``live`` after ``moves`` (a copy; ``live`` is unchanged), each
    move's effects and its sentence's facts, or None when a move does not follow on (not
    the seat to play, the game over, or not legal)."""
    state = live.state
    effects: list[list[dict[str, Any]]] = []
    facts: list[MoveFacts] = []
    if not moves:
        return state, effects, facts
    action_type: Any = get_game(live.game).action_type
    state = state.copy()
    for seat, text in moves:
        if state.is_terminal or state.current_player != seat:
            return None
        before = state.copy()
        try:
            action = action_type.parse(text)
            state.apply(action)
        except ValueError:
            return None
        effects.append(move_effects(live.game, before, action, state))
        facts.append(move_facts(before, action))
    return state, effects, facts


__all__ = ["GameProxy", "Loaded"]
