"""The game service: create games, load them (replay), accept actions, run the bots.

The service holds the authoritative state of every game it has loaded (a :class:`LiveGame`
per game, built by replaying the stored moves from the stored seed, C18/D24) and is the only
writer of the database. Accepting an action (:meth:`GameService.act`):

1. the seat token must be the seat's (403), the game active and the decision that seat's
   (409), the client's move number (required: a request sent twice plays once) current
   (409 stale), the action legal (422, with the reason from ``why_illegal`` and the legal
   notations); a malformed action or a missing move number is 400. A rejected request
   changes nothing.
2. the action is applied to a copy of the state, the move is **committed to the database**
   (with the result when it ends the game), and only then does the live state advance and
   the hub broadcast each subscriber its own view.

Every write goes through one :class:`MoveWriter`: one database thread, so writers never
wait on each other's locks, and a group commit: the moves that arrive while a transaction
is being written are committed together in the next one (one move alone when the server is
quiet, many under load). A move's request is answered only once its transaction commits.

A seat's decisions are serialized by one :class:`asyncio.Lock` per game. After every
accepted move, and whenever a game is loaded, a bot whose decision it is gets a task that
asks a worker process (:mod:`.bots`) for its action.

Supervision (what keeps every game moving, :class:`Lifecycle` has the numbers):

- A bot turn whose move does not commit (the database is down) is retried with a capped
  exponential back-off, for as long as it takes; the first commit that succeeds again wakes
  every waiting bot turn at once. A failed commit changes nothing in memory (the move is
  applied only after its commit), and a commit that did succeed although it reported an
  error is found at the next attempt (a stale move number) and the game is reloaded from
  the database, which is the truth.
- A bot whose worker process died gets a new pool (:meth:`.bots.BotPools.replace`) and is
  asked again; a bot that fails ``bot_attempts`` times in a row (it raised, answered an
  illegal action, or its worker died each time) has a random legal action played for it,
  and that move carries a note in the game log saying so (stored with the move).
- A maintenance task, every ``sweep_every`` seconds, starts the bot turn of any loaded
  game whose bot is to move and has no task, and evicts idle games from memory.

Life cycle: :meth:`GameService.start` answers once the schema is migrated; games load on
first access (:meth:`GameService.get`), and the games whose bot is to move are loaded in
the background (a few at a time) so that their bots go on after a restart. A game leaves
memory when nobody is connected, no bot of it is thinking and nobody asked for it for
``evict_idle`` seconds (``evict_finished`` once it is over). Expiry (every ``expire_every``
seconds): a game with no move is deleted ``expire_unstarted`` seconds after its creation;
a game whose person to move has not played for ``expire_abandoned`` seconds ends as that
seat's forfeit (the record's ``"forfeit"`` result, :func:`splendor.record.forfeit_result`):
a game with moves is kept, with its moves and its record.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import functools
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple, TypeVar

from sqlalchemy.exc import IntegrityError

from ..descriptor import Game
from ..game import get_game
from ..i18n import DEFAULT_LANGUAGE
from ..record import GameRecord, forfeit_result, result_of
from . import bots as server_bots
from .clocks import GRACE, ClockState
from .errors import DB_DOWN as _DB_DOWN
from .errors import (
    N_,
    BadRequest,
    Conflict,
    Forbidden,
    Illegal,
    NotFound,
    ServiceError,
    Text,
    Unavailable,
)
from .errors import first_line as _first_line
from .hub import Hub, Subscriber
from .live import DAY, Lifecycle, LiveGame
from .live import final_result as _final_result
from .live import replay as _replay
from .protocol import (
    MAX_NAME,
    BadNameError,
    Explanation,
    MalformedActionError,
    clean_name,
    dumps,
    explain,
    log_json,
    move_effects,
    parse_action,
    state_message,
    state_message_json,
)
from .rated_games import apply_ratings, games_to_rate
from .storage import (
    IdempotencyRecord,
    MoveToStore,
    SeatInfo,
    StaleMoveError,
    Storage,
    StoredGame,
    hash_token,
    utcnow,
)
from .writer import MoveWriter

T = TypeVar("T")

log = logging.getLogger("splendor.server")


RESIGNED_BOT = "greedy"
"""The bot that plays on for a player who resigned a 3-4 player game."""

MAX_LOOKUP_TOKENS = 200
"""The most seat tokens one :meth:`GameService.list_games` may ask about."""

_TOKEN_FORMAT = re.compile(r"[A-Za-z0-9_-]{1,128}")
"""What a seat token can look like (they are :func:`secrets.token_urlsafe` strings);
anything else is refused before it is hashed."""

_IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9._:+/=-]{16,255}")


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Mark the exception of a task nobody awaits any more as seen."""
    if not task.cancelled():
        task.exception()


class Created(NamedTuple):
    """What :meth:`GameService.create` answers: the game, ``{seat: token}`` of its human
    seats, and ``replayed`` (True: an earlier create with the same idempotency key made
    this game; the tokens are the same as then)."""

    live: LiveGame
    tokens: dict[int, str]
    replayed: bool = False


@dataclass(frozen=True)
class _Idempotency:
    """A validated idempotency key and the digests stored for it."""

    key: str
    key_hash: str
    request_hash: str


def derive_token(key: str, salt: bytes, seat: int) -> str:
    """The seat token of ``seat`` in a game created with the idempotency key ``key``:
    HMAC-SHA256 keyed by ``key`` over a per-game random ``salt`` and the seat, as 43
    URL-safe characters (256 bits, like :func:`secrets.token_urlsafe`).

    The database keeps the salt, the key's SHA-256 and the tokens' SHA-256 only, so the
    tokens can be given again to whoever presents the key, and to nobody else: a copy of
    the database without the key (a random UUID has 122 bits) yields none.
    """
    mac = hmac.new(
        key.encode("utf-8"), b"splendor seat token\0" + salt + bytes([seat]), hashlib.sha256
    )
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode("ascii")


def _idempotency(
    key: Any, game: str, plan: list[tuple[str, str, str | None]], options: dict[str, Any]
) -> _Idempotency:
    """Check an ``Idempotency-Key`` and digest the request it comes with (the game, the
    seats after their names were cleaned, the options). Raises BadRequest."""
    if not isinstance(key, str) or not _IDEMPOTENCY_KEY.fullmatch(key):
        raise BadRequest(
            "the Idempotency-Key header must be 16 to 255 characters among letters, digits and "
            "- _ . : + / = (a random UUID, say)"
        )
    request = dumps({"game": game, "seats": [list(p) for p in plan], "options": options})
    return _Idempotency(
        key=key,
        key_hash=hashlib.sha256(key.encode("ascii")).hexdigest(),
        request_hash=hashlib.sha256(request.encode("utf-8")).hexdigest(),
    )


def game_module(game: Any) -> Game:
    """The engine of the game a request names (``"splendor"`` or ``"duel"``, or another
    name the registry knows: :func:`splendor.game.get_game`).

    Raises:
        BadRequest: not a string, or no such game (the message lists the games).
    """
    if not isinstance(game, str):
        raise BadRequest('"game" must be "splendor" or "duel"')
    try:
        return get_game(game)
    except ValueError as e:
        raise BadRequest(str(e)) from None


def _seat_name(i: int, value: Any) -> str:
    """Seat ``i``'s name as :func:`.protocol.clean_name` makes it. Raises BadRequest."""
    try:
        return clean_name(value, MAX_NAME)
    except BadNameError as e:
        raise BadRequest(N_("seat {seat}: {error}"), seat=i, error=e.text) from None


class GameService:
    """Creates, loads and plays games; one per app (no global state).

    Args:
        storage: the database (migrated by :meth:`start`).
        hub: the WebSocket subscribers, told of every accepted move.
        pools: where bots think (process pools, :func:`.bots.make_executor`).
        lifecycle: eviction, expiry and retry settings (default :class:`Lifecycle`).
        clock: seconds for eviction (default :func:`time.monotonic`; tests pass their own).
        now: the current UTC time for expiry (default :func:`.storage.utcnow`).
        wall: wall-clock seconds for game clocks (default :func:`time.time`; tests pass
            their own).

    Attributes:
        counters: what supervision did so far: ``bot_retries`` (failed bot turns retried),
            ``random_moves`` (random actions played for a failing bot, each noted),
            ``resumed`` (bot turns started by the sweeper or the start-up resume),
            ``loaded``, ``evicted``, ``deleted`` (unstarted games expired),
            ``forfeited`` (abandoned games ended).
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
    ) -> None:
        self.storage = storage
        self.hub = hub
        self.pools = pools
        self.lifecycle = lifecycle if lifecycle is not None else Lifecycle()
        self._clock = clock
        self._now = now
        self._wall = wall
        self.writer = MoveWriter(storage)
        self._games: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._told_while_loading: set[str] = set()
        """Games another process changed while this one was reading them (:meth:`get`)."""
        self._closed = False
        self._background: set[asyncio.Task[Any]] = set()
        self._db_down = False
        self._recovered: asyncio.Event | None = None
        self._resume_pending = False
        self._resuming = False
        self.counters = dict.fromkeys(
            ("bot_retries", "random_moves", "resumed", "loaded", "evicted", "deleted", "forfeited"),
            0,
        )
        self.maintenance: list[Callable[[], Awaitable[Any]]] = []
        """More work of each maintenance run (:meth:`maintain`), such as resuming the
        post-game analyses (:meth:`.analysis_jobs.Analyses.maintain`)."""

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Migrate the database and return: games load on first access (:meth:`get`).
        In the background: the games whose bot is to move are loaded (their bots go on
        after a restart), and the maintenance task starts (see the module docstring)."""
        await asyncio.to_thread(self.storage.migrate)
        # load the engines in the quick bots' worker now, not at the first bot decision
        loop = asyncio.get_running_loop()
        for game in ("splendor", "duel"):
            loop.run_in_executor(self.pools.quick, server_bots.warm, game).add_done_callback(
                _retrieve
            )
        self._resume_pending = True
        self._spawn(self.resume_bots(), "splendor-resume")
        self._spawn(self.resume_clocks(), "splendor-clocks")
        self._spawn(self._maintenance(), "splendor-maintenance")

    def _spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> None:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_retrieve)

    async def close(self) -> None:
        """Stop the background and bot tasks (the bots' games resume at the next start),
        finish the queued writes, shut down the bot pools made to replace broken ones."""
        self._closed = True
        tasks = [t for t in self._background if not t.done()]
        tasks += [
            g.bot_task
            for g in self._games.values()
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
        return len(self._games)

    def is_loaded(self, game_id: str) -> bool:
        """Whether the game ``game_id`` is in memory now."""
        return game_id in self._games

    async def resume_clocks(self) -> int:
        """Load every game in progress with a clock, so its timer runs (from now: the time
        the server was down is charged to nobody). Returns how many were loaded; a database
        error is logged (the games load on their next request)."""
        try:
            ids = await asyncio.to_thread(self.storage.active_clock_games)
            for game_id in ids:
                await self.get(game_id)
        except Exception:
            log.warning("the clocks of the games in progress were not resumed", exc_info=True)
            return 0
        return len(ids)

    async def resume_bots(self) -> int:
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
            return await self._resume_bots()
        finally:
            self._resuming = False

    async def _resume_bots(self) -> int:
        try:
            ids = await asyncio.to_thread(self.storage.games_with_bot_to_move)
        except _DB_DOWN as e:
            raise Unavailable(
                N_("the database is unavailable ({error})"), error=_first_line(e)
            ) from e
        gate = asyncio.Semaphore(self.lifecycle.resume_concurrency)
        failed = False

        async def one(game_id: str) -> bool:
            nonlocal failed
            async with gate:
                if self._closed:
                    return False
                try:
                    await self.get(game_id)
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
        self._resume_pending = failed
        return done

    # ------------------------------------------------------------------ creating

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
        """Create a game with a deal seed from :mod:`secrets`.

        Args:
            game: ``"splendor"`` (or ``"classic"``) or ``"duel"``.
            seats: ``[{"type": "human", "name": str} | {"type": "bot", "bot": spec}]``,
                2-4 for classic, 2 for Duel, at least one human. Names (a person's
                default ``"Player N"``, a bot's its level) are cleaned by
                :func:`.protocol.clean_name` (control, bidi and zero-width characters
                removed), 1 to :data:`MAX_NAME` characters.
            options: game settings for ``new_game`` (Duel: ``{"turn_cap": N}``, D25).
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
        module = game_module(game)
        name = module.GAME_NAME
        if not isinstance(seats, list):
            raise BadRequest(
                '"seats" must be a list of seats: {"type": "human", "name": "Ann"} '
                'or {"type": "bot", "bot": "greedy"}'
            )
        if not module.MIN_PLAYERS <= len(seats) <= module.MAX_PLAYERS:
            raise BadRequest(
                N_("{game} is for {min} to {max} players, got {seats} seats"),
                game=name,
                min=module.MIN_PLAYERS,
                max=module.MAX_PLAYERS,
                seats=len(seats),
            )
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise BadRequest('"options" must be an object')
        allowed = {"turn_cap"} if name == "duel" else set()
        unknown = set(options) - allowed
        if unknown:
            raise BadRequest(
                f"unknown option(s) {', '.join(sorted(unknown))} for {name}; "
                f"allowed: {', '.join(sorted(allowed)) or 'none'}"
            )
        if "turn_cap" in options and options["turn_cap"] is not None:
            cap = options["turn_cap"]
            if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
                raise BadRequest('"turn_cap" must be a whole number >= 0 (0: no cap, D25)')
        plan: list[tuple[str, str, str | None]] = []  # (type, name, bot) of each seat
        for i, s in enumerate(seats):
            if not isinstance(s, dict) or s.get("type") not in ("human", "bot"):
                raise BadRequest(
                    f'seat {i}: must be {{"type": "human", "name": ...}} '
                    'or {"type": "bot", "bot": ...}'
                )
            given = s.get("name")
            if s["type"] == "human":
                plan.append(
                    (
                        "human",
                        f"Player {i + 1}" if given in (None, "") else _seat_name(i, given),
                        None,
                    )
                )
            else:
                spec = s.get("bot")
                if not isinstance(spec, str) or spec not in server_bots.SERVER_BOTS:
                    shown = (
                        repr(spec)[:60]
                        if isinstance(spec, (str, int, float, type(None)))
                        else type(spec).__name__
                    )
                    raise BadRequest(
                        f"seat {i}: unknown bot {shown}; bots: {', '.join(server_bots.SERVER_BOTS)}"
                    )
                plan.append(("bot", spec if given in (None, "") else _seat_name(i, given), spec))
        if all(kind != "human" for kind, _, _ in plan):
            raise BadRequest(N_("a game needs at least one human seat"))
        if players is not None and len(players) != len(seats):
            raise BadRequest(f"{len(players)} player ids for {len(seats)} seats")
        idem = None
        if idempotency_key is not None:
            idem = _idempotency(idempotency_key, name, plan, options)
            earlier = await self._created_earlier(idem)
            if earlier is not None:
                return earlier
        seed = secrets.randbits(63)
        try:
            state = module.new_game(len(seats), seed, **options)
        except (TypeError, ValueError, OverflowError) as e:
            raise BadRequest(f"bad options: {e}") from None
        salt = secrets.token_bytes(16)
        infos: list[SeatInfo] = []
        tokens: dict[int, str] = {}
        for i, (kind, label, spec) in enumerate(plan):
            if kind == "human":
                token = (
                    derive_token(idem.key, salt, i)
                    if idem is not None
                    else secrets.token_urlsafe(32)
                )
                tokens[i] = token
                pid = None if players is None else players[i]
                infos.append(SeatInfo(i, "human", label, None, hash_token(token), pid))
            else:
                infos.append(SeatInfo(i, "bot", label, spec, None))
        game_id = secrets.token_urlsafe(9)
        record = (
            None
            if idem is None
            else IdempotencyRecord(idem.key_hash, idem.request_hash, salt.hex())
        )
        try:
            stored = await self.writer.run(
                functools.partial(
                    self.storage.create_game, idempotency=record, rated=rated, clock=clock
                ),
                game_id,
                name,
                len(seats),
                seed,
                options,
                infos,
                state.current_player,
            )
        except IntegrityError:  # the same key, committed meanwhile by another request
            earlier = None if idem is None else await self._created_earlier(idem)
            if earlier is None:
                raise
            return earlier
        live = LiveGame(
            id=game_id,
            game=name,
            num_players=len(seats),
            seed=seed,
            options=dict(options),
            seats=infos,
            created_at=stored.created_at,
            updated_at=stored.updated_at,
            state=state,
            moves=[],
            result=None,
            accessed=self._clock(),
            rated=rated,
            clock=clock,
        )
        if clock is not None:
            live.clock_state = ClockState.start(
                clock, len(seats), state.current_player, self._wall()
            )
        self._games[game_id] = live
        self._schedule_bot(live)
        self._arm_clock(live)
        return Created(live, tokens)

    async def _created_earlier(self, idem: _Idempotency) -> Created | None:
        """The game made earlier with ``idem``'s key, with its seat tokens derived again;
        None if the key is new (or its game was deleted).

        Raises:
            Illegal: the key came with another request then.
            Unavailable: the database did not answer.
        """
        try:
            found = await asyncio.to_thread(self.storage.find_idempotency_key, idem.key_hash)
        except _DB_DOWN as e:
            raise Unavailable(
                N_("the database is unavailable ({error}); nothing was created: try again"),
                error=_first_line(e),
            ) from e
        if found is None:
            return None
        game_id, record = found
        if not hmac.compare_digest(record.request_hash, idem.request_hash):
            raise Illegal(
                "this Idempotency-Key was used before with another request "
                "(game, seats or options); "
                "send a new key to create another game"
            )
        try:
            live = await self.get(game_id)
        except NotFound:
            return None
        salt = bytes.fromhex(record.salt)
        tokens = {
            s.seat: derive_token(idem.key, salt, s.seat) for s in live.seats if s.type == "human"
        }
        if any(live.seats[seat].token_hash != hash_token(token) for seat, token in tokens.items()):
            raise Conflict(
                f"game {game_id} was not created with these tokens; send a new Idempotency-Key"
            )
        return Created(live, tokens, replayed=True)

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
            live.accessed = self._clock()
            return live
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                live = self._games.get(game_id)
                if live is not None:
                    live.accessed = self._clock()
                    return live
                loaded = await self._load(game_id)
                if loaded is None:
                    raise NotFound(N_("no game {game}"), game=repr(game_id))
                stored, state, result, effects = loaded
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
                    accessed=self._clock(),
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
                        self._wall(),
                    )
                    self._arm_clock(live)
                self._games[game_id] = live
                self.counters["loaded"] += 1
                if game_id in self._told_while_loading:  # cleared below, in finally
                    # another process changed the game after it was read: catch up now
                    # (its notification came while the game was not in memory yet)
                    self._spawn(self._sync(live), f"sync:{game_id}")
                else:
                    self._schedule_bot(live)
                return live
        finally:
            self._told_while_loading.discard(game_id)
            if (
                self._loading.get(game_id) is lock
            ):  # a waiter still holds it and checks _games first
                del self._loading[game_id]

    async def _load(
        self, game_id: str
    ) -> tuple[StoredGame, Any, dict[str, Any] | None, Any] | None:
        """The stored game, its state, result and moves' effects (read and replayed in a
        thread), or None.

        Raises:
            Unavailable, RuntimeError: as :meth:`get`.
        """

        def load() -> tuple[StoredGame, Any, dict[str, Any] | None, Any] | None:
            stored = self.storage.load_game(game_id)
            return None if stored is None else (stored, *_replay(stored))

        try:
            return await asyncio.to_thread(load)
        except _DB_DOWN as e:
            raise Unavailable(
                N_("the database is unavailable ({error}); try again"), error=_first_line(e)
            ) from e

    def seat_for_token(self, live: LiveGame, token: str | None) -> int | None:
        """The viewer's seat: None without a token (spectator).

        Raises:
            Forbidden: a token that is not a seat token of this game.
        """
        if token is None or token == "":
            return None
        if not isinstance(token, str):
            raise BadRequest(f"a seat token is a string, got {type(token).__name__}")
        seat = live.seat_of_token(token) if _TOKEN_FORMAT.fullmatch(token) else None
        if seat is None:
            raise Forbidden(
                N_(
                    "this token is not a seat token of game {game}; "
                    "open the game without a token to watch it"
                ),
                game=live.id,
            )
        return seat

    def seat_of_player(self, live: LiveGame, player_id: str | None) -> int | None:
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
        try:
            claimed = await self.writer.run(self.storage.claim_seat, live.id, seat, player_id)
        except Exception:
            log.warning("seat %d of game %s was not claimed", seat, live.id, exc_info=True)
            return
        if claimed:
            live.seats[seat] = dataclasses.replace(info, player_id=player_id)

    # ------------------------------------------------------------------ views

    def seats_json(self, live: LiveGame) -> list[dict[str, Any]]:
        """``[{"seat", "type", "name", "bot", "connected"}]`` (bots are always connected)."""
        connected = self.hub.connected_seats(live.id)
        return [
            {
                "seat": s.seat,
                "type": s.type,
                "name": s.name,
                "bot": s.bot,
                "connected": s.type == "bot" or s.seat in connected,
            }
            for s in live.seats
        ]

    def clock_json(self, live: LiveGame) -> dict[str, Any] | None:
        """The game's clock for clients (:meth:`.clocks.ClockState.to_json`), or None."""
        if live.clock_state is None:
            return None
        return live.clock_state.to_json(self._wall())

    def spectators_json(self, live: LiveGame) -> dict[str, Any]:
        """``{"count": n, "names": [...]}``: the connections watching ``live`` without a
        seat, and the names of the logged-in ones (sorted; the others are only counted)."""
        watching = [s for s in self.hub.subscribers(live.id) if s.seat is None]
        return {
            "count": len(watching),
            "names": sorted({s.player_name for s in watching if s.player_name}),
        }

    def message(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        """The state message for ``seat`` (None: spectator), see :func:`.protocol.state_message`;
        a ``log`` entry whose move has a note carries it as ``"note"``."""
        return state_message(
            game_id=live.id,
            game=live.game,
            state=live.state,
            seat=seat,
            moves=live.moves,
            seats=self.seats_json(live),
            result=live.result,
            notes=live.notes,
            spectators=self.spectators_json(live),
            clock=self.clock_json(live),
            effects=live.effects,
        )

    def message_json(
        self, live: LiveGame, seat: int | None, seats: Sequence[dict[str, Any]] | None = None
    ) -> str:
        """:meth:`message` as JSON text (:func:`.protocol.state_message_json`, with the
        game's cached log). ``seats``: :meth:`seats_json`, when the caller has it."""
        return state_message_json(
            game_id=live.id,
            game=live.game,
            state=live.state,
            seat=seat,
            moves=live.moves,
            seats=self.seats_json(live) if seats is None else seats,
            result=live.result,
            notes=live.notes,
            log=live.log_json,
            spectators=self.spectators_json(live),
            clock=self.clock_json(live),
            effects=live.effects,
        )

    def summary(self, live: LiveGame, your_seats: Sequence[int]) -> dict[str, Any]:
        """A game list entry: ``{"game_id", "game", "status", "seats", "your_seats",
        "current_player", "turn", "moves", "result", "created_at", "updated_at"}``."""
        return {
            "game_id": live.id,
            "game": live.game,
            "status": live.status,
            "seats": [
                {"seat": s.seat, "type": s.type, "name": s.name, "bot": s.bot} for s in live.seats
            ],
            "your_seats": list(your_seats),
            "current_player": live.current_player,
            "turn": int(live.state.turn),
            "moves": len(live.moves),
            "result": live.result,
            "created_at": live.created_at.isoformat(),
            "updated_at": live.updated_at.isoformat(),
        }

    async def list_games(self, tokens: Any) -> list[dict[str, Any]]:
        """Summaries of the games in which any of ``tokens`` (a list of at most
        :data:`MAX_LOOKUP_TOKENS` strings) holds a seat, newest first; a string that cannot
        be a token matches nothing.

        Raises:
            BadRequest: ``tokens`` is not a list of strings, or too long.
        """
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise BadRequest('"tokens" must be a list of seat tokens (strings)')
        if len(tokens) > MAX_LOOKUP_TOKENS:
            raise BadRequest(f'at most {MAX_LOOKUP_TOKENS} "tokens" at a time, got {len(tokens)}')
        hashes = [hash_token(t) for t in tokens if _TOKEN_FORMAT.fullmatch(t)]
        found = await asyncio.to_thread(self.storage.games_for_token_hashes, hashes)
        out = []
        for stored, mine in found:
            try:
                live = await self.get(stored.id)
            except NotFound:
                continue
            out.append(self.summary(live, mine))
        return out

    def publish(self, live: LiveGame, exclude: Subscriber | None = None) -> None:
        """Send every subscriber of the game (but ``exclude``) its own fresh state (each
        distinct view built and serialized once)."""
        seats = self.seats_json(live)
        self.hub.publish(live.id, lambda seat: self.message_json(live, seat, seats), exclude)

    # ------------------------------------------------------------------ acting

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
        live = await self.get(game_id)
        if token is not None and not isinstance(token, str):
            raise BadRequest(f"a seat token is a string, got {type(token).__name__}")
        seat = await self.viewer_seat(live, token, player_id)
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
        task.add_done_callback(_retrieve)
        await asyncio.shield(task)

    async def _act_locked(self, live: LiveGame, seat: int, parsed: Any, move: int) -> None:
        async with live.lock:
            self._check_turn(live, seat, move)
            legal = live.state.legal_actions()
            if parsed not in legal:
                raise Illegal(
                    N_("illegal action {action}: {reason}. Legal now: {legal}"),
                    action=repr(str(parsed)),
                    reason=Explanation(live.game, live.state.observation(seat), parsed),
                    legal=", ".join(str(a) for a in legal),
                )
            await self._commit(live, seat, parsed)

    def _check_turn(self, live: LiveGame, seat: int, move: int) -> None:
        if live.finished:
            raise Conflict(N_("game {game} is over; no more actions are accepted"), game=live.id)
        current = live.state.current_player
        if live.seats[seat].type == "bot":
            raise Forbidden(
                N_("seat {seat} is played by a bot since its player resigned"), seat=seat
            )
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

    async def _commit(
        self, live: LiveGame, seat: int, action: Any, note: str | None = None
    ) -> None:
        """Apply, store, then publish one legal decision (caller holds ``live.lock``); the
        live game changes only once the move is committed. ``note``: shown with the move
        in the game log.

        Raises:
            Conflict: the database holds that move number already (another writer, or an
                earlier commit that reported an error but was stored): the game has been
                reloaded from the database; decide again.
            Unavailable: the move was not stored (the database is down); nothing changed.
        """
        new = live.state.copy()
        new.apply(action)
        result = result_of(new) if new.is_terminal else None
        if result is not None and live.dropped:
            result["dropped"] = sorted(live.dropped)
        clock_after = None
        if live.clock_state is not None:
            now = self._wall()
            if live.seats[seat].type == "human" and live.clock_state.late(seat, now):
                raise Conflict(N_("your time has run out; the move was not played"))
            clock_after = live.clock_state.decided(
                seat, None if result is not None else new.current_player, now
            )
        idx = len(live.moves)
        notation = str(action)
        move = MoveToStore(
            live.id,
            idx,
            seat,
            notation,
            result,
            new.current_player if result is None else None,
            note,
            None if clock_after is None else clock_after.stored(),
        )
        try:
            live.updated_at = await self.writer.append(move)
        except StaleMoveError as e:
            self._database_back()
            log.info("game %s: %s", live.id, e)
            await self._reconcile(live)
            raise Conflict(
                N_(
                    "the move was not played: the game changed meanwhile and was reloaded; "
                    "decide again on its current state"
                )
            ) from None
        except Unavailable:
            self._database_down()
            raise
        except Exception as e:  # the transaction failed: nothing of it was stored
            self._database_down()
            log.warning("move %d of game %s was not stored", idx, live.id, exc_info=True)
            raise Unavailable(
                N_("the move was not stored ({error}); nothing changed: try again"),
                error=_first_line(e),
            ) from e
        self._database_back()
        effects = move_effects(live.game, live.state, action, new)
        live.state = new
        live.add_move(seat, notation, note, effects)
        live.result = result
        live.accessed = self._clock()
        live.clock_state = clock_after if clock_after is not None else live.clock_state
        self.publish(live)
        self._schedule_bot(live)
        self._arm_clock(live)
        if result is not None and live.rated:
            self._spawn(self.rate(live.id), f"rate:{live.id}")

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
            await self._leave_seat(live, seat, f"{info.name} resigned")

    async def time_out(self, live: LiveGame, seat: int, idx: int) -> bool:
        """The timer of ``live`` fired for ``seat`` at move ``idx``: if that decision is
        still ``seat``'s and its time is out, the player times out (2 players: loses by
        forfeit; 3-4 players: a bot plays on, the player ranks last). Returns whether it
        did."""
        async with live.lock:
            state = live.clock_state
            if (
                state is None
                or live.finished
                or len(live.moves) != idx
                or live.current_player != seat
                or live.seats[seat].type != "human"
            ):
                return False
            if not state.late(seat, self._wall()):
                self._arm_clock(live)  # woken early
                return False
            try:
                await self._leave_seat(live, seat, f"{live.seats[seat].name} ran out of time")
            except ServiceError as e:
                log.warning("game %s: the time-out of seat %d waits: %s", live.id, seat, e)
                return False
            return True

    def _arm_clock(self, live: LiveGame) -> None:
        """(Re)start the timer of ``live``'s running seat (a person's; bots are not timed)."""
        if live.clock_task is not None and live.clock_task is not asyncio.current_task():
            live.clock_task.cancel()
        live.clock_task = None
        state = live.clock_state
        if state is None or live.finished or live.evicted or self._closed:
            return
        seat = state.running
        deadline = state.deadline()
        if seat is None or deadline is None or live.seats[seat].type != "human":
            return
        idx = len(live.moves)

        async def ring() -> None:
            await asyncio.sleep(max(0.0, deadline - self._wall()) + GRACE + 0.05)
            await self.time_out(live, seat, idx)

        live.clock_task = asyncio.get_running_loop().create_task(ring(), name=f"clock:{live.id}")
        live.clock_task.add_done_callback(_retrieve)

    async def _leave_seat(self, live: LiveGame, seat: int, reason: str) -> None:
        """The person of ``seat`` leaves the game (resigned, or timed out); the caller holds
        ``live.lock``. With 2 players the game ends as their forfeit (``reason``); with 3-4
        a bot plays the seat on and it ranks last (``dropped``).

        Raises:
            Conflict: the game changed meanwhile. Unavailable: the database did not answer.
        """
        info = live.seats[seat]
        if live.num_players == 2:
            result = forfeit_result(live.state, seat, reason)
            try:
                done = await self.writer.run(
                    self.storage.finish_game, live.id, len(live.moves), result
                )
            except _DB_DOWN as e:
                raise Unavailable(
                    N_("leaving the seat was not stored ({error})"), error=_first_line(e)
                ) from e
            if not done:
                await self._reconcile(live)
                raise Conflict(
                    N_("the game changed meanwhile; look again and resign if you still want to")
                )
            live.result = result
            live.updated_at = self._now()
            if live.clock_state is not None:
                live.clock_state = live.clock_state.stopped(self._wall())
            self._arm_clock(live)  # stops the timer
            self.publish(live)
            if live.rated:
                self._spawn(self.rate(live.id), f"rate:{live.id}")
            return
        name = f"{info.name} (bot)"[:MAX_NAME]
        try:
            done = await self.writer.run(self.storage.drop_seat, live.id, seat, RESIGNED_BOT, name)
        except _DB_DOWN as e:
            raise Unavailable(
                N_("leaving the seat was not stored ({error})"), error=_first_line(e)
            ) from e
        if not done:
            raise Conflict(N_("the game changed meanwhile; look again"))
        live.seats[seat] = dataclasses.replace(
            info, type="bot", bot=RESIGNED_BOT, name=name, token_hash=None
        )
        live.dropped = sorted({*live.dropped, seat})
        self.publish(live)
        self._schedule_bot(live)
        self._arm_clock(live)

    async def rate(self, game_id: str) -> dict[str, dict[str, Any]] | None:
        """Apply a finished rated game's result to its players' ratings, once
        (:func:`.rated_games.apply_ratings`); a failure is logged and left to the
        maintenance task, which retries every finished rated game not rated yet."""
        try:
            return await asyncio.to_thread(apply_ratings, self.storage, game_id)
        except Exception:
            log.warning("game %s: ratings not applied yet", game_id, exc_info=True)
            return None

    async def rate_pending(self) -> int:
        """Apply the ratings of every finished rated game not rated yet; returns how many
        games changed ratings."""
        done = 0
        for game_id in await asyncio.to_thread(games_to_rate, self.storage):
            if await self.rate(game_id) is not None:
                done += 1
        return done

    async def _reconcile(self, live: LiveGame) -> None:
        """Reload ``live`` in place from the database, which is the truth, and publish it
        (the caller holds ``live.lock``).

        Raises:
            NotFound: the game is not stored any more (it is dropped from memory).
            Unavailable: the database could not be read (``live`` is unchanged).
        """
        loaded = await self._load(live.id)
        if loaded is None:
            self._drop(live)
            raise NotFound(N_("no game {game}"), game=repr(live.id))
        stored, state, result, effects = loaded
        live.state, live.result = state, result
        live.moves, live.notes, live.effects = list(stored.moves), dict(stored.notes), effects
        live.log_json = log_json(live.moves, live.notes, live.effects)
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
                    live.clock_state = live.clock_state.stopped(self._wall())
            elif moved:
                live.clock_state = ClockState.resume(
                    stored.clock,
                    stored.clock_after,
                    stored.num_players,
                    live.state.current_player,
                    self._wall(),
                )
        self.publish(live)
        self._schedule_bot(live)
        self._arm_clock(live)

    def on_notification(self, kind: str, key: str, data: Any) -> None:
        """Another server process changed something (:mod:`.notify`): a loaded game is
        reloaded from the database and pushed to its WebSockets (``"game"``), and a game
        being loaded catches up once loaded (what it read may predate the change); a chat
        message is forwarded to the game's WebSockets (``"chat"``), and so is the
        progress of a post-game analysis (``"analysis"``, :mod:`.analysis_jobs`)."""
        if kind == "game":
            live = self._games.get(key)
            if live is not None:
                self._spawn(self._sync(live), f"sync:{key}")
            elif key in self._loading:  # being read: the read may predate the change
                self._told_while_loading.add(key)
        elif kind == "chat" and isinstance(data, dict) and self.hub.has_subscribers(key):
            text = json.dumps({"type": "chat", "message": data}, ensure_ascii=False)
            self.hub.publish(key, lambda _seat: text)
        elif kind == "analysis" and isinstance(data, dict) and self.hub.has_subscribers(key):
            text = json.dumps({**data, "type": "analysis", "game_id": key})
            self.hub.publish(key, lambda _seat: text)

    def resync(self) -> None:
        """Reload every loaded game (notifications may have been lost)."""
        for live in list(self._games.values()):
            self._spawn(self._sync(live), f"sync:{live.id}")

    async def _sync(self, live: LiveGame) -> None:
        try:
            async with live.lock:
                if not live.evicted and not await self._catch_up(live):
                    await self._reconcile(live)
        except ServiceError as e:
            log.warning("game %s was not reloaded: %s", live.id, e.message)

    async def _catch_up(self, live: LiveGame) -> bool:
        """Apply the moves another process stored since ``live``'s last one (and its seats,
        result and clock) and publish; the caller holds ``live.lock``. Returns False when
        a full reload is needed instead (a move that does not follow on, say)."""
        try:
            tail = await asyncio.to_thread(self.storage.load_game_since, live.id, len(live.moves))
        except _DB_DOWN:
            return False
        if tail is None:
            return False
        state = live.state
        effects: list[list[dict[str, Any]]] = []
        if tail.moves:
            module = get_game(live.game)
            state = state.copy()
            for seat, text in tail.moves:
                if state.is_terminal or state.current_player != seat:
                    return False
                before = state.copy()
                try:
                    action = module.Action.parse(text)
                    state.apply(action)
                except ValueError:
                    return False
                effects.append(move_effects(live.game, before, action, state))
        base = len(live.moves)
        live.state = state
        for k, (seat, text) in enumerate(tail.moves):
            live.add_move(seat, text, tail.notes.get(base + k), effects[k])
        live.result = _final_result(tail.result, state)
        self._adopt(live, tail, moved=bool(tail.moves))
        return True

    def _database_down(self) -> None:
        self._db_down = True

    def _database_back(self) -> None:
        """A commit succeeded: after a failure, wake every bot turn waiting to retry."""
        if self._db_down:
            self._db_down = False
            log.info("the database is back: the waiting bot turns are retried now")
            if self._recovered is not None:
                self._recovered.set()
                self._recovered = None

    async def _wait_retry(self, failures: int) -> None:
        """Sleep the back-off of ``failures`` failures in a row (with jitter: 50-100 %),
        or less if a commit succeeds meanwhile (the database is back)."""
        delay = self.lifecycle.backoff(failures) * (0.5 + secrets.randbelow(501) / 1000)
        if self._recovered is None:
            self._recovered = asyncio.Event()
        try:
            await asyncio.wait_for(self._recovered.wait(), delay)
        except TimeoutError:
            pass

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
        live = await self.get(game_id)
        if token is not None and not isinstance(token, str):
            raise BadRequest('"token" must be a string')
        seat = await self.viewer_seat(live, token, player_id)
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
                {"seat": current, "name": live.seats[current].name},
            ).translated(language)
        elif parsed in live.state.legal_actions():
            out["legal"] = True
        else:
            out["reason"] = explain(live.game, live.state.observation(seat), parsed, language)
        return out

    # ------------------------------------------------------------------ bots

    def _schedule_bot(self, live: LiveGame) -> bool:
        """Start the bot-turn task of ``live`` if a bot is to move and none is running;
        True if one was started."""
        if self._closed or live.finished or live.evicted:
            return False
        seat = live.state.current_player
        if live.seats[seat].type != "bot":
            return False
        if live.bot_task is not None and not live.bot_task.done():
            return False
        live.bot_task = asyncio.get_running_loop().create_task(
            self._bot_turns(live), name=f"bot:{live.id}"
        )
        live.bot_task.add_done_callback(_retrieve)
        return True

    async def _bot_turns(self, live: LiveGame) -> None:
        """Play the bot decisions of ``live`` while the seat to move is a bot. A turn that
        fails (its move is not stored) is retried after a back-off
        (:meth:`Lifecycle.backoff`) with the same decision, for as long as it takes."""
        failures = 0
        decided: tuple[int, Any, str | None] | None = None
        while not self._closed and not live.finished and not live.evicted:
            seat = live.state.current_player
            info = live.seats[seat]
            if info.type != "bot":
                return
            idx = len(live.moves)
            try:
                if decided is None or decided[0] != idx:
                    decided = (idx, *await self._bot_decision(live, seat, info))
                _, action, note = decided
                async with live.lock:
                    if len(live.moves) != idx or live.finished or live.evicted:
                        continue
                    await self._commit(live, seat, action, note)
                failures = 0
            except asyncio.CancelledError:
                raise
            except Conflict:  # reloaded from the database: decide on what is stored
                decided = None
            except Exception as e:
                failures += 1
                self.counters["bot_retries"] += 1
                why = e.message if isinstance(e, ServiceError) else _first_line(e)
                log.warning(
                    "bot turn (move %d) of game %s failed: %s; retry %d within %.1f s",
                    idx,
                    live.id,
                    why,
                    failures,
                    self.lifecycle.backoff(failures),
                )
                await self._wait_retry(failures)

    async def _bot_decision(
        self, live: LiveGame, seat: int, info: SeatInfo
    ) -> tuple[Any, str | None]:
        """The bot's action for the decision of ``seat`` now, and None; or, after
        ``bot_attempts`` failures in a row (the bot raised, answered an illegal action, or
        its worker died), a random legal action and the note that says so. A dead worker's
        pool is replaced (:func:`.bots.decide`) and the bot asked again at once."""
        obs = live.state.observation(seat)
        legal = obs.legal_actions()
        module = get_game(live.game)
        spec = str(info.bot)
        attempts = self.lifecycle.bot_attempts
        problems: list[str] = []
        for attempt in range(1, attempts + 1):
            try:
                action = module.Action.from_id(
                    await server_bots.decide(self.pools, live.game, spec, obs)
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
                await self._wait_retry(attempt)
        self.counters["random_moves"] += 1
        action = secrets.choice(legal)
        note = (
            f"bot {spec} could not decide ({'; '.join(problems)}): "
            f"a random legal action ({action}) was played for it"
        )
        log.error("game %s: %s", live.id, note)
        return action, note

    # ------------------------------------------------------------------ maintenance

    async def _maintenance(self) -> None:
        """Every ``sweep_every`` seconds :meth:`maintain`, every ``expire_every``
        seconds :meth:`expire`, until the service closes; errors are logged."""
        loop = asyncio.get_running_loop()
        next_expiry = loop.time() + self.lifecycle.expire_every
        while not self._closed:
            await asyncio.sleep(self.lifecycle.sweep_every)
            try:
                await self.maintain()
                if loop.time() >= next_expiry:
                    next_expiry = loop.time() + self.lifecycle.expire_every
                    await self.expire()
            except asyncio.CancelledError:
                raise
            except Unavailable as e:
                log.warning("maintenance: %s", e.message)
            except Exception:
                log.exception("maintenance failed")

    async def maintain(self) -> dict[str, int]:
        """One maintenance run: start the bot turn of every loaded game whose bot is to
        move and has no task, evict the idle games (see :class:`Lifecycle`), retry the
        start-up resume if it could not finish, apply pending ratings, and run the
        :attr:`maintenance` hooks (their errors are logged).

        Returns:
            ``{"resumed": n, "evicted": n}`` of this run.

        Raises:
            Unavailable: the start-up resume had to be retried and the database is down.
        """
        resumed = evicted = 0
        now = self._clock()
        for live in list(self._games.values()):
            if self._schedule_bot(live):
                resumed += 1
            elif self._evictable(live, now):
                self._drop(live)
                evicted += 1
        self.counters["evicted"] += evicted
        self.counters["resumed"] += resumed
        if resumed:
            log.warning("resumed %d bot turn(s) that had no task", resumed)
        if self._resume_pending and not self._closed:
            self.counters["resumed"] += await self.resume_bots()
        await self.rate_pending()
        for more in list(self.maintenance):
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
        if live.lock.locked() or self.hub.has_subscribers(live.id):
            return False
        if live.clock_state is not None and not live.finished:
            return False
        if live.bot_task is not None and not live.bot_task.done():
            return False
        ttl = self.lifecycle.evict_finished if live.finished else self.lifecycle.evict_idle
        return now - live.accessed >= ttl

    def _drop(self, live: LiveGame) -> None:
        """Forget ``live`` (evicted or deleted) and stop its bot task."""
        if self._games.get(live.id) is live:
            del self._games[live.id]
        live.evicted = True
        if live.clock_task is not None and live.clock_task is not asyncio.current_task():
            live.clock_task.cancel()
        task = live.bot_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()

    async def expire(self, limit: int = 1000) -> dict[str, int]:
        """Expire games (see :class:`Lifecycle`): delete the games with no move created
        more than ``expire_unstarted`` ago, and end as a forfeit of the seat to move the
        games whose person to move has not played for ``expire_abandoned`` (kept, with
        their moves). A game with someone connected, or a decision under way, is left
        alone. At most ``limit`` games of each kind per call.

        Returns:
            ``{"deleted": n, "forfeited": n}``.

        Raises:
            Unavailable: the database could not be reached (what was done stays done).
        """
        lc = self.lifecycle
        now = self._now()
        deleted = forfeited = 0
        try:
            if lc.expire_unstarted is not None:
                cutoff = now - timedelta(seconds=lc.expire_unstarted)
                for game_id in await asyncio.to_thread(self.storage.unstarted_games, cutoff, limit):
                    if self.hub.has_subscribers(game_id) or game_id in self._loading:
                        continue
                    live = self._games.get(game_id)
                    if live is None:
                        gone = await self.writer.run(
                            self.storage.delete_unstarted_game, game_id, cutoff
                        )
                    elif live.lock.locked() or live.moves:
                        continue
                    else:
                        async with live.lock:
                            gone = not live.moves and await self.writer.run(
                                self.storage.delete_unstarted_game, game_id, cutoff
                            )
                            if gone:
                                self._drop(live)
                    deleted += bool(gone)
            if lc.expire_abandoned is not None:
                cutoff = now - timedelta(seconds=lc.expire_abandoned)
                days = lc.expire_abandoned / DAY
                span = f"{days:g} days" if days >= 1 else f"{lc.expire_abandoned:g} s"
                for game_id in await asyncio.to_thread(self.storage.idle_games, cutoff, limit):
                    if self.hub.has_subscribers(game_id):
                        continue
                    try:
                        live = await self.get(game_id)
                    except NotFound:
                        continue
                    async with live.lock:
                        if live.finished or live.updated_at >= cutoff:
                            continue
                        seat = live.state.current_player
                        if live.seats[seat].type == "bot":  # not waiting for a person
                            self._schedule_bot(live)
                            continue
                        reason = (
                            f"{live.seats[seat].name} (seat {seat}) made no move for {span}: "
                            "the game expired"
                        )
                        result = forfeit_result(live.state, seat, reason)
                        if await self.writer.run(
                            self.storage.finish_game, game_id, len(live.moves), result
                        ):
                            live.result = result
                            live.updated_at = now
                            if live.clock_state is not None:
                                live.clock_state = live.clock_state.stopped(self._wall())
                            forfeited += 1
                            self.publish(live)
                            if live.rated:
                                self._spawn(self.rate(live.id), f"rate:{live.id}")
        except _DB_DOWN as e:
            raise Unavailable(
                N_("the database is unavailable ({error})"), error=_first_line(e)
            ) from e
        finally:
            self.counters["deleted"] += deleted
            self.counters["forfeited"] += forfeited
        return {"deleted": deleted, "forfeited": forfeited}

    # ------------------------------------------------------------------ records

    def record(self, live: LiveGame) -> GameRecord:
        """The game record (with the seed), for a finished game only.

        Raises:
            Conflict: the game is still being played.
        """
        if not live.finished:
            raise Conflict(
                N_(
                    "game {game} is still being played; "
                    "its record (with the deal seed) is available once it is over"
                ),
                game=live.id,
            )
        return GameRecord(
            game=live.game,
            num_players=live.num_players,
            players=[s.name for s in live.seats],
            seed=live.seed,
            options=dict(live.options),
            actions=[text for _, text in live.moves],
            result=live.result,
            started_at=live.created_at.isoformat(),
            effects=[
                {"action": i, **{k: v for k, v in e.items() if k != "text"}}
                for i, found in sorted(live.effects.items())
                for e in found
            ],
            metadata={
                "game_id": live.id,
                "seats": [{"seat": s.seat, "type": s.type, "bot": s.bot} for s in live.seats],
                **(
                    {"notes": {str(i): n for i, n in sorted(live.notes.items())}}
                    if live.notes
                    else {}
                ),
            },
        )

    def replay(self, live: LiveGame) -> dict[str, Any]:
        """``{"game", "num_players", "seats", "frames", "result"}`` of a finished game;
        frame ``k`` is ``{"move": k, "notation", "seat", "observation"}`` after ``k``
        moves (the full position: everything of a finished game may be shown), with
        ``"effects"`` when move ``k`` did more than its notation says
        (:func:`.protocol.move_effects`).

        Raises:
            Conflict: the game is still being played.
        """
        record = self.record(live)
        state = record.new_state()
        frames = [{"move": 0, "notation": None, "seat": None, "observation": state.to_dict()}]
        for k, (seat, text) in enumerate(live.moves, start=1):
            state.apply(text)
            frames.append(
                {
                    "move": k,
                    "notation": text,
                    "seat": seat,
                    "observation": state.to_dict(),
                    **({"effects": live.effects[k - 1]} if k - 1 in live.effects else {}),
                }
            )
        return {
            "game": live.game,
            "num_players": live.num_players,
            "seats": [
                {"seat": s.seat, "type": s.type, "name": s.name, "bot": s.bot} for s in live.seats
            ],
            "frames": frames,
            "result": live.result,
        }


__all__ = [
    "DAY",
    "BadRequest",
    "Conflict",
    "Forbidden",
    "GameService",
    "Illegal",
    "Lifecycle",
    "LiveGame",
    "MoveWriter",
    "NotFound",
    "ServiceError",
    "Unavailable",
    "game_module",
]
