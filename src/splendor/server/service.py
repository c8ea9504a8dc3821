"""The game service: create games, load them (replay), accept actions, run the bots.

The service holds the authoritative state of every game it has loaded (a :class:`LiveGame`
per game, built by replaying the stored moves from the stored seed, C18/D24) and is the only
writer of the database. It is the entry point the routes call (:mod:`.app`, :mod:`.tables`,
:mod:`.chat`, :mod:`.analysis_jobs`); like lichess's ``RoundAsyncActor``, it does no job
itself but hands each to a part (``lila/modules/round``):

- :class:`.proxy.GameProxy` (lichess's ``GameProxy``): the games in memory, loaded on
  first access, kept in step with the other server processes, reloaded from the database
  (the truth) when it disagrees;
- :class:`.creation.Creation`: a create request checked, dealt, stored, kept;
- :class:`.seats.Seats`: who sits where (seat tokens, logged-in players);
- :class:`.moves.Moves`: a seat's action checked, committed, then applied and published
  (the steps are in :mod:`.moves`);
- :class:`.finisher.Finisher` (``Finisher``): a resignation, a time-out, an abandoned game;
- :class:`.bot_turns.BotTurns`: the bots' decisions, supervised and retried;
- :class:`.timers.Timers`: the game clocks' timers;
- :class:`.expiry.Expiry` (``Titivate``): the maintenance sweep, eviction and expiry;
- :class:`.rating_updates.RatingUpdates` (``PerfsUpdater``): the ratings of rated games;
- :class:`.views.JsonView` (``JsonView``): what each viewer receives.

The parts share one :class:`.service_context.ServiceContext` (the database and its writer, the hub,
the bot pools, the clocks, the counters) and ask the service, through
:class:`.service_context.Round`, for what a change of a game needs of the others (publish it, start
its bot turn, arm its timer, rate it).

Every write goes through one :class:`MoveWriter`: one database thread, so writers never
wait on each other's locks, and a group commit: the moves that arrive while a transaction
is being written are committed together in the next one (one move alone when the server is
quiet, many under load). A move's request is answered only once its transaction commits.
A seat's decisions are serialized by one :class:`asyncio.Lock` per game.

Life cycle: :meth:`GameService.start` answers once the schema is migrated; games load on
first access (:meth:`GameService.get`), and the games whose bot is to move are loaded in
the background (a few at a time) so that their bots go on after a restart. Eviction and
expiry: :mod:`.expiry`; retries of failed bot turns: :mod:`.bot_turns`; the numbers:
:class:`Lifecycle`.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any

from ..game import games
from ..i18n import DEFAULT_LANGUAGE
from ..record import GameRecord
from . import bots as server_bots
from .bot_turns import BotTurns
from .creation import Created, Creation, derive_token, game_module
from .errors import BadRequest, Conflict, Forbidden, Illegal, NotFound, ServiceError, Unavailable
from .events import Events
from .expiry import Expiry
from .finisher import RESIGNED_BOT, Finisher
from .hub import Hub, Subscriber
from .live import DAY, Lifecycle, LiveGame
from .moves import Moves
from .proxy import GameProxy
from .rating_updates import RatingUpdates, shown_changes
from .seats import MAX_LOOKUP_TOKENS, Seats
from .service_context import Round, ServiceContext, retrieve
from .storage import Storage, utcnow
from .timers import Timers
from .views import JsonView
from .writer import MoveWriter

SeatsJson = Sequence[dict[str, Any]]
"""The seats of a state message (:meth:`.views.JsonView.seats_json`)."""


class GameService:
    """Creates, loads and plays games; one per app (no global state). Each job is done
    by a part (module docstring), reachable as an attribute; the methods below are the
    entry points the rest of the server calls.

    Args:
        storage: the database (migrated by :meth:`start`).
        hub: the WebSocket subscribers, told of every accepted move.
        pools: where bots think (process pools, :func:`.bots.make_executor`).
        lifecycle: eviction, expiry and retry settings (default :class:`Lifecycle`).
        clock: seconds for eviction (default :func:`time.monotonic`; tests pass their own).
        now: the current UTC time for expiry (default :func:`.storage.utcnow`).
        wall: wall-clock seconds for game clocks (default :func:`time.time`; tests pass
            their own).
        events: the app's event bus (:mod:`.events`), on which the service emits
            ``game.started``, ``game.moved`` and ``game.finished``; default a bus of its own.

    Attributes:
        counters: what supervision did so far: ``bot_retries`` (failed bot turns retried),
            ``random_moves`` (random actions played for a failing bot, each noted),
            ``resumed`` (bot turns started by the sweeper or the start-up resume),
            ``loaded``, ``evicted``, ``deleted`` (unstarted games expired),
            ``forfeited`` (abandoned games ended).
        maintenance: more work of each maintenance run (:meth:`maintain`), such as resuming
            the post-game analyses (:meth:`.analysis_jobs.Analyses.maintain`).
        games, creation, seats, moves, finisher, bots, timers, expiry, ratings, views: the
            parts (module docstring).
    """

    def __init__(
        self,
        storage: Storage,
        hub: Hub,
        pools: server_bots.BotPools,
        lifecycle: Lifecycle | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        now: Callable[[], datetime] = utcnow,
        wall: Callable[[], float] = time.time,
        events: Events | None = None,
    ) -> None:
        ctx = ServiceContext(
            storage,
            hub,
            pools,
            lifecycle if lifecycle is not None else Lifecycle(),
            clock=clock,
            now=now,
            wall=wall,
            events=events,
        )
        self.ctx = ctx
        self.events: Events = ctx.events
        self.storage = storage
        self.hub = hub
        self.pools = pools
        self.lifecycle = ctx.lifecycle
        self.writer: MoveWriter = ctx.writer
        self.counters: dict[str, int] = ctx.counters
        self.maintenance: list[Callable[[], Awaitable[Any]]] = []
        round: Round = self
        self.views = JsonView(hub, wall)
        self.games = GameProxy(ctx, round)
        self.seats = Seats(ctx, self.games)
        self.ratings = RatingUpdates(ctx)
        self.creation = Creation(ctx, self.games, round)
        self.moves = Moves(ctx, self.games, self.seats, round)
        self.finisher = Finisher(ctx, self.games, round)
        self.timers = Timers(ctx, self.games, self.finisher)
        self.bots = BotTurns(ctx, self.games, self.moves)
        self.expiry = Expiry(
            ctx, self.games, self.bots, self.finisher, self.ratings, self.maintenance
        )

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Migrate the database and return: games load on first access (:meth:`get`).
        In the background: the games whose bot is to move are loaded (their bots go on
        after a restart), the games with a clock are loaded (their timers run), and the
        maintenance task starts (:mod:`.expiry`)."""
        await asyncio.to_thread(self.storage.migrate)
        # load the engines in the quick bots' worker now, not at the first bot decision
        loop = asyncio.get_running_loop()
        for game in games():
            loop.run_in_executor(self.pools.quick, server_bots.warm, game.name).add_done_callback(
                retrieve
            )
        self.bots.resume_pending = True
        self.ctx.spawn(self.resume_bots(), "splendor-resume")
        self.ctx.spawn(self.resume_clocks(), "splendor-clocks")
        self.ctx.spawn(self.expiry.run(), "splendor-maintenance")

    async def close(self) -> None:
        """Stop the background and bot tasks (the bots' games resume at the next start),
        finish the queued writes, shut down the bot pools made to replace broken ones."""
        self.ctx.closed = True
        tasks = [t for t in self.ctx.background if not t.done()]
        tasks += [
            g.bot_task
            for g in self.games.live_games()
            if g.bot_task is not None and not g.bot_task.done()
        ]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.writer.close()
        await asyncio.to_thread(self.pools.close)

    @property
    def loaded(self) -> int:
        """How many games are in memory now."""
        return self.games.loaded

    def is_loaded(self, game_id: str) -> bool:
        """Whether the game ``game_id`` is in memory now."""
        return self.games.is_loaded(game_id)

    async def resume_clocks(self) -> int:
        """:meth:`.timers.Timers.resume_clocks`: load the games in progress with a clock."""
        return await self.timers.resume_clocks()

    async def resume_bots(self) -> int:
        """:meth:`.bot_turns.BotTurns.resume`: load the active games whose bot is to move.

        Raises:
            Unavailable: the database could not be read (retried by the maintenance task).
        """
        return await self.bots.resume()

    # ------------------------------------------------------------------ what a change needs

    def publish(self, live: LiveGame, exclude: Subscriber | None = None) -> None:
        """Send every subscriber of the game (but ``exclude``) its own fresh state
        (:meth:`.views.JsonView.publish`)."""
        self.views.publish(live, exclude)

    def schedule_bot(self, live: LiveGame) -> bool:
        """Start ``live``'s bot turn if a bot is to move and none is running
        (:meth:`.bot_turns.BotTurns.schedule`); True if one was started."""
        return self.bots.schedule(live)

    def arm_clock(self, live: LiveGame) -> None:
        """(Re)start the timer of ``live``'s running seat (:meth:`.timers.Timers.arm`)."""
        self.timers.arm(live)

    def changed(self, live: LiveGame, *, ended: bool = False, remote: bool = False) -> None:
        """``live`` changed: publish it, start its bot turn, arm its timer and, when it
        ``ended`` here and is rated, apply its ratings in the background. Unless
        ``remote`` (another process made the change), emit ``game.finished`` (it
        ``ended``) or ``game.moved`` on the event bus (:mod:`.events`)."""
        self.views.publish(live)
        self.bots.schedule(live)
        self.timers.arm(live)
        if ended and live.rated:
            self.ratings.rate_later(live.id, functools.partial(shown_changes, self.views, live))
        if not remote:
            self.ctx.emit_game("game.finished" if ended else "game.moved", live)

    # ------------------------------------------------------------------ creating, loading

    async def create(
        self,
        game: Any,
        seats: Any,
        options: Any = None,
        *,
        idempotency_key: Any = None,
        players: Sequence[str | None] | None = None,
        rated: bool = False,
        clock: dict[str, Any] | None = None,
    ) -> Created:
        """Create a game with a deal seed from :mod:`secrets` (:mod:`.creation`).

        Args:
            game: ``"splendor"`` (or ``"classic"``) or ``"duel"``.
            seats: ``[{"type": "human", "name": str} | {"type": "bot", "bot": spec}]``,
                as many as the game allows (2-4 for classic, 2 for Duel), at least one
                human. Names (a person's default ``"Player N"``, a bot's its level) are
                cleaned by :func:`.protocol.clean_name` (control, bidi and zero-width
                characters removed), 1 to :data:`.protocol.MAX_NAME` characters.
            options: the game's options (:attr:`splendor.descriptor.Game.options`; Duel:
                ``{"turn_cap": N}``, D25), checked by
                :meth:`splendor.descriptor.Game.check_options`.
            players: the player id sitting at each seat (None for a bot or an unknown
                person), from the lobby; default none.
            rated: whether the result changes ratings (the lobby checks who may be rated).
            clock: the clock (validated by the lobby), or None.
            idempotency_key: the client's ``Idempotency-Key`` (16-255 characters among
                letters, digits and ``- _ . : + / =``; a random UUID), or None. The first
                create with a key makes the game; another with the same key and the same
                request (game, cleaned seats, options) makes nothing and answers that
                game with the same tokens (:func:`derive_token`), so a retry after a lost
                answer leaves no orphan game.

        Returns:
            :class:`Created`: the live game, ``{seat: token}`` for the human seats (the
            tokens are never stored, only their hashes), and whether it was made earlier.

        Raises:
            BadRequest: anything malformed, a bad name or key included (the message says
                what is allowed).
            Illegal: (422) the idempotency key was used before with another request.
            Unavailable: (503) the database did not answer (nothing was created).
        """
        return await self.creation.create(
            game,
            seats,
            options,
            idempotency_key=idempotency_key,
            players=players,
            rated=rated,
            clock=clock,
        )

    async def get(self, game_id: str) -> LiveGame:
        """The live game, loaded and replayed on first use (:meth:`.proxy.GameProxy.get`).

        Raises:
            NotFound: no such game.
            Unavailable: the database could not be read.
            RuntimeError: the stored moves do not replay (a corrupt database).
        """
        return await self.games.get(game_id)

    def on_notification(self, kind: str, key: str, data: Any) -> None:
        """Another server process changed something (:mod:`.notify`): a loaded game is
        reloaded from the database and pushed to its WebSockets (``"game"``), and a game
        being loaded catches up once loaded (what it read may predate the change); a chat
        message is forwarded to the game's WebSockets (``"chat"``), and so is the
        progress of a post-game analysis (``"analysis"``, :mod:`.analysis_jobs`)."""
        if kind == "game":
            self.games.on_game_changed(key)
        elif kind == "chat" and isinstance(data, dict):
            self.views.forward_chat(key, data)
        elif kind == "analysis" and isinstance(data, dict):
            self.views.forward_analysis(key, data)

    def resync(self) -> None:
        """Reload every loaded game (notifications may have been lost)."""
        self.games.resync()

    # ------------------------------------------------------------------ seats

    def seat_for_token(self, live: LiveGame, token: str | None) -> int | None:
        """:meth:`.seats.Seats.seat_for_token`. Raises Forbidden, BadRequest."""
        return self.seats.seat_for_token(live, token)

    def seat_of_player(self, live: LiveGame, player_id: str | None) -> int | None:
        """:meth:`.seats.Seats.seat_of_player`."""
        return self.seats.seat_of_player(live, player_id)

    async def viewer_seat(
        self, live: LiveGame, token: Any, player_id: str | None = None
    ) -> int | None:
        """:meth:`.seats.Seats.viewer_seat`. Raises Forbidden, BadRequest."""
        return await self.seats.viewer_seat(live, token, player_id)

    async def claim_seat(self, live: LiveGame, seat: int, player_id: str) -> None:
        """:meth:`.seats.Seats.claim_seat`."""
        await self.seats.claim_seat(live, seat, player_id)

    async def list_games(self, tokens: Any) -> list[dict[str, Any]]:
        """:meth:`.seats.Seats.list_games` (at most :data:`MAX_LOOKUP_TOKENS` tokens).

        Raises:
            BadRequest: ``tokens`` is not a list of strings, or too long.
        """
        return await self.seats.list_games(tokens)

    # ------------------------------------------------------------------ views

    def seats_json(self, live: LiveGame) -> list[dict[str, Any]]:
        """:meth:`.views.JsonView.seats_json`."""
        return self.views.seats_json(live)

    def clock_json(self, live: LiveGame) -> dict[str, Any] | None:
        """:meth:`.views.JsonView.clock_json`."""
        return self.views.clock_json(live)

    def spectators_json(self, live: LiveGame) -> dict[str, Any]:
        """:meth:`.views.JsonView.spectators_json`."""
        return self.views.spectators_json(live)

    def message(self, live: LiveGame, seat: int | None, language: str = "en") -> dict[str, Any]:
        """The state message for ``seat`` in ``language`` (:meth:`.views.JsonView.message`)."""
        return self.views.message(live, seat, language)

    def message_json(
        self, live: LiveGame, seat: int | None, seats: SeatsJson | None = None, language: str = "en"
    ) -> str:
        """:meth:`message` as JSON text (:meth:`.views.JsonView.message_json`)."""
        return self.views.message_json(live, seat, seats, language)

    def summary(self, live: LiveGame, your_seats: Sequence[int]) -> dict[str, Any]:
        """A game list entry (:meth:`.views.JsonView.summary`)."""
        return self.views.summary(live, your_seats)

    def record(self, live: LiveGame) -> GameRecord:
        """The game record of a finished game (:meth:`.views.JsonView.record`).

        Raises:
            Conflict: the game is still being played.
        """
        return self.views.record(live)

    def replay(self, live: LiveGame, language: str = "en") -> dict[str, Any]:
        """Every position of a finished game (:meth:`.views.JsonView.replay`).

        Raises:
            Conflict: the game is still being played.
        """
        return self.views.replay(live, language)

    # ------------------------------------------------------------------ acting

    async def act(
        self, game_id: str, token: Any, action: Any, move: Any, player_id: str | None = None
    ) -> tuple[LiveGame, int]:
        """Play ``action`` for the seat of ``token`` or of the logged-in ``player_id``;
        ``move``: the number of moves of the state decided on (:meth:`.moves.Moves.act`).

        Returns:
            The game and the seat that played.

        Raises:
            NotFound (404), BadRequest (400), Forbidden (403), Conflict (409), Illegal (422).
        """
        return await self.moves.act(game_id, token, action, move, player_id)

    async def act_as(self, live: LiveGame, seat: int, action: Any, move: Any) -> None:
        """Play ``action`` for ``seat`` (already authenticated). Raises as :meth:`act`."""
        await self.moves.act_as(live, seat, action, move)

    async def explain(
        self,
        game_id: str,
        token: Any,
        action: Any,
        player_id: str | None = None,
        language: str = DEFAULT_LANGUAGE,
    ) -> dict[str, Any]:
        """``{"action", "legal", "reason"}`` for the viewer (:meth:`.moves.Moves.explain`).

        Raises:
            NotFound, Forbidden (bad token), BadRequest (malformed action, with a hint).
            ValueError: an unknown language.
        """
        return await self.moves.explain(game_id, token, action, player_id, language)

    async def resign(self, live: LiveGame, seat: int) -> None:
        """The player of ``seat`` resigns (:meth:`.finisher.Finisher.resign`).

        Raises:
            Conflict: the game is over. Forbidden: the seat is a bot's already.
            Unavailable: the database did not answer (nothing changed).
        """
        await self.finisher.resign(live, seat)

    async def time_out(self, live: LiveGame, seat: int, idx: int) -> bool:
        """The timer of ``live`` fired for ``seat`` at move ``idx``
        (:meth:`.timers.Timers.time_out`); returns whether the player timed out."""
        return await self.timers.time_out(live, seat, idx)

    # ------------------------------------------------------------------ ratings, upkeep

    async def rate(self, game_id: str) -> dict[str, dict[str, Any]] | None:
        """:meth:`.rating_updates.RatingUpdates.rate`: apply a rated game's result once."""
        return await self.ratings.rate(game_id)

    async def rate_pending(self) -> int:
        """Apply the ratings of every finished rated game not rated yet; returns how many
        games changed ratings."""
        return await self.ratings.rate_pending()

    async def maintain(self) -> dict[str, int]:
        """One maintenance run (:meth:`.expiry.Expiry.maintain`).

        Returns:
            ``{"resumed": n, "evicted": n}`` of this run.

        Raises:
            Unavailable: the start-up resume had to be retried and the database is down.
        """
        return await self.expiry.maintain()

    async def expire(self, limit: int = 1000) -> dict[str, int]:
        """Expire old games (:meth:`.expiry.Expiry.expire`).

        Returns:
            ``{"deleted": n, "forfeited": n}``.

        Raises:
            Unavailable: the database could not be reached (what was done stays done).
        """
        return await self.expiry.expire(limit)


__all__ = [
    "DAY",
    "MAX_LOOKUP_TOKENS",
    "RESIGNED_BOT",
    "BadRequest",
    "Conflict",
    "Created",
    "Forbidden",
    "GameService",
    "Illegal",
    "Lifecycle",
    "LiveGame",
    "MoveWriter",
    "NotFound",
    "ServiceError",
    "Unavailable",
    "derive_token",
    "game_module",
]
