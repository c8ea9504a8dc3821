"""The game service: create games, load them (replay), accept actions, run the bots.

The service holds the authoritative state of every game it has loaded (a :class:`LiveGame`
per game, built by replaying the stored moves from the stored seed, C18/D24) and is the only
writer of the database. Accepting an action (:meth:`GameService.act`):

1. the seat token must be the seat's (403), the game active and the decision that seat's
   (409), the client's move number current when given (409 stale), the action legal (422,
   with the reason from ``why_illegal`` and the legal notations); a malformed action is
   400. A rejected request changes nothing.
2. the action is applied to a copy of the state, the move is **committed to the database**
   (with the result when it ends the game), and only then does the live state advance and
   the hub broadcast each subscriber its own view.

Every write goes through one :class:`MoveWriter`: one database thread, so writers never
wait on each other's locks, and a group commit: the moves that arrive while a transaction
is being written are committed together in the next one (one move alone when the server is
quiet, many under load). A move's request is answered only once its transaction commits.

A seat's decisions are serialized by one :class:`asyncio.Lock` per game. After every
accepted move, and for every unfinished game at start-up, a bot whose decision it is gets
a task that asks a worker process (:mod:`.bots`) for its action.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Sequence, TypeVar

from ..game import get_game
from ..record import GameRecord, result_of
from . import bots as server_bots
from .hub import Hub, Subscriber
from .protocol import (
    MalformedActionError,
    explain,
    log_entry_json,
    log_json,
    parse_action,
    state_message,
    state_message_json,
)
from .storage import (
    STATUS_ACTIVE,
    STATUS_FINISHED,
    MoveToStore,
    SeatInfo,
    StaleMoveError,
    Storage,
    StoredGame,
    hash_token,
)

T = TypeVar("T")

log = logging.getLogger("splendor.server")

MAX_NAME = 40


class ServiceError(Exception):
    """A rejected request: ``status`` is the HTTP status, the message says what was wrong
    (and what is allowed)."""

    status = 400

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        if status is not None:
            self.status = status

    @property
    def message(self) -> str:
        return str(self.args[0])


class BadRequest(ServiceError):
    status = 400


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class Illegal(ServiceError):
    status = 422


@dataclass
class LiveGame:
    """A loaded game: what is stored plus the authoritative state.

    Attributes:
        moves: ``(seat, notation)`` of every committed decision (the state is their replay).
        state: the full state after ``moves`` (hidden information included: never sent).
        lock: serializes the decisions of this game.
        log_json: the state messages' ``log`` entries as JSON text
            (:func:`.protocol.log_json` of ``moves``), grown by :meth:`add_move`.
    """

    id: str
    game: str
    num_players: int
    seed: int
    options: dict[str, Any]
    seats: list[SeatInfo]
    created_at: datetime
    updated_at: datetime
    state: Any
    moves: list[tuple[int, str]]
    result: dict[str, Any] | None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    log_json: str = ""

    def __post_init__(self) -> None:
        if self.moves and not self.log_json:
            self.log_json = log_json(self.moves)

    def add_move(self, seat: int, notation: str) -> None:
        """Append a committed decision to ``moves`` and ``log_json``."""
        entry = log_entry_json(len(self.moves), seat, notation)
        self.log_json = f"{self.log_json},{entry}" if self.moves else entry
        self.moves.append((seat, notation))

    @property
    def finished(self) -> bool:
        return self.result is not None or self.state.is_terminal

    @property
    def status(self) -> str:
        return STATUS_FINISHED if self.finished else STATUS_ACTIVE

    @property
    def current_player(self) -> int | None:
        return None if self.finished else self.state.current_player

    def seat_of_token(self, token: str) -> int | None:
        """The seat whose token is ``token``, or None."""
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return s.seat
        return None


def _replay(stored: StoredGame) -> tuple[Any, dict[str, Any] | None]:
    """The state after the stored moves, and the result if it is over.

    Raises:
        RuntimeError: a stored move does not replay (a corrupt database).
    """
    module = get_game(stored.game)
    state = module.new_game(stored.num_players, stored.seed, **stored.options)
    for i, (seat, text) in enumerate(stored.moves):
        if state.current_player != seat:
            raise RuntimeError(f"game {stored.id}: stored move {i} ({text!r}) is by seat {seat}, not the seat to play")
        try:
            state.apply(text)
        except ValueError as e:
            raise RuntimeError(f"game {stored.id}: stored move {i} ({text!r}) does not replay: {e}") from None
    result = stored.result if stored.result is not None else (result_of(state) if state.is_terminal else None)
    return state, result


def _retrieve(task: "asyncio.Future[Any]") -> None:
    """Mark the exception of a task nobody awaits any more as seen."""
    if not task.cancelled():
        task.exception()


class MoveWriter:
    """Every database write of the service, in one thread, with group commit.

    :meth:`append` queues a move and waits for its commit; a drain task hands everything
    queued to :meth:`.Storage.append_moves` (one transaction) and, while that runs, the
    moves that arrive wait for the next transaction. :meth:`run` runs any other write
    (creating a game) in the same thread. One thread means that writes never wait on each
    other's database locks (SQLite has one writer at a time).

    Args:
        storage: the database.
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="splendor-db-writer")
        self._pending: list[tuple[MoveToStore, asyncio.Future[datetime]]] = []
        self._drain_task: asyncio.Task[None] | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the writer thread; returns or raises what it does."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, fn, *args)

    async def append(self, move: MoveToStore) -> datetime:
        """Commit ``move`` (with the moves queued with it); returns the commit time (UTC).

        Raises:
            StaleMoveError: the move is not the next one of its game (nothing written).
            Exception: what the database raised (nothing of that transaction written).
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[datetime] = loop.create_future()
        self._pending.append((move, done))
        if self._drain_task is None or self._drain_task.done():
            self._drain_task = loop.create_task(self._drain(), name="splendor-db-writer")
        return await done

    async def _drain(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            outcomes: list[Any]
            try:
                outcomes = await self.run(self.storage.append_moves, [m for m, _ in batch])
            except Exception as e:  # the transaction failed: none of the batch is stored
                outcomes = [e] * len(batch)
            for (_, done), outcome in zip(batch, outcomes):
                if done.done():  # its waiter was cancelled (shutting down)
                    continue
                if isinstance(outcome, BaseException):
                    done.set_exception(outcome)
                else:
                    done.set_result(outcome)

    async def close(self) -> None:
        """Finish the queued writes, then stop the thread."""
        while self._drain_task is not None and not self._drain_task.done():
            await asyncio.shield(self._drain_task)
        await asyncio.to_thread(self._thread.shutdown, wait=True)


class GameService:
    """Creates, loads and plays games; one per app (no global state).

    Args:
        storage: the database (migrated by :meth:`start`).
        hub: the WebSocket subscribers, told of every accepted move.
        pools: where bots think (process pools, :func:`.bots.make_executor`).
    """

    def __init__(self, storage: Storage, hub: Hub, pools: server_bots.BotPools) -> None:
        self.storage = storage
        self.hub = hub
        self.pools = pools
        self.writer = MoveWriter(storage)
        self._games: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._closed = False

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Migrate the database, then load every unfinished game and schedule the bots
        whose decision is next (a restarted server resumes every game)."""
        await asyncio.to_thread(self.storage.migrate)
        # load the engines in the quick bots' worker now, not at the first bot decision
        loop = asyncio.get_running_loop()
        for game in ("splendor", "duel"):
            loop.run_in_executor(self.pools.quick, server_bots.warm, game).add_done_callback(_retrieve)
        for game_id in await asyncio.to_thread(self.storage.game_ids, STATUS_ACTIVE):
            try:
                live = await self.get(game_id)
            except Exception:  # a corrupt game must not stop the others
                log.exception("cannot resume game %s", game_id)
                continue
            self._schedule_bot(live)

    async def close(self) -> None:
        """Stop the bot tasks (their games resume at the next start)."""
        self._closed = True
        tasks = [g.bot_task for g in self._games.values() if g.bot_task is not None and not g.bot_task.done()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.writer.close()

    # ------------------------------------------------------------------ creating

    async def create(
        self, game: Any, seats: Any, options: Any = None
    ) -> tuple[LiveGame, dict[int, str]]:
        """Create a game with a deal seed from :mod:`secrets`.

        Args:
            game: ``"splendor"`` (or ``"classic"``) or ``"duel"``.
            seats: ``[{"type": "human", "name": str} | {"type": "bot", "bot": spec}]``,
                2-4 for classic, 2 for Duel, at least one human.
            options: game settings for ``new_game`` (Duel: ``{"turn_cap": N}``, D25).

        Returns:
            The live game and ``{seat: token}`` for the human seats (the only time the
            tokens exist outside the players' hands).

        Raises:
            BadRequest: anything malformed (the message says what is allowed).
        """
        if not isinstance(game, str):
            raise BadRequest('"game" must be "splendor" or "duel"')
        try:
            module = get_game(game)
        except ValueError as e:
            raise BadRequest(str(e)) from None
        name = module.GAME_NAME
        if not isinstance(seats, list):
            raise BadRequest('"seats" must be a list of seats: {"type": "human", "name": "Ann"} or {"type": "bot", "bot": "greedy"}')
        if not module.MIN_PLAYERS <= len(seats) <= module.MAX_PLAYERS:
            raise BadRequest(
                f"{name} is for {module.MIN_PLAYERS} to {module.MAX_PLAYERS} players, got {len(seats)} seats"
            )
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise BadRequest('"options" must be an object')
        allowed = {"turn_cap"} if name == "duel" else set()
        unknown = set(options) - allowed
        if unknown:
            raise BadRequest(
                f"unknown option(s) {', '.join(sorted(unknown))} for {name}; allowed: {', '.join(sorted(allowed)) or 'none'}"
            )
        if "turn_cap" in options and options["turn_cap"] is not None:
            cap = options["turn_cap"]
            if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
                raise BadRequest('"turn_cap" must be a whole number >= 0 (0: no cap, D25)')
        infos: list[SeatInfo] = []
        tokens: dict[int, str] = {}
        for i, s in enumerate(seats):
            if not isinstance(s, dict) or s.get("type") not in ("human", "bot"):
                raise BadRequest(f'seat {i}: must be {{"type": "human", "name": ...}} or {{"type": "bot", "bot": ...}}')
            if s["type"] == "human":
                label = s.get("name") or f"Player {i + 1}"
                if not isinstance(label, str) or len(label.strip()) == 0 or len(label) > MAX_NAME:
                    raise BadRequest(f"seat {i}: a name is 1 to {MAX_NAME} characters")
                token = secrets.token_urlsafe(32)
                tokens[i] = token
                infos.append(SeatInfo(i, "human", label.strip(), None, hash_token(token)))
            else:
                spec = s.get("bot")
                if spec not in server_bots.SERVER_BOTS:
                    raise BadRequest(f"seat {i}: unknown bot {spec!r}; bots: {', '.join(server_bots.SERVER_BOTS)}")
                infos.append(SeatInfo(i, "bot", str(s.get("name") or spec)[:MAX_NAME], spec, None))
        if not tokens:
            raise BadRequest("a game needs at least one human seat")
        seed = secrets.randbits(63)
        try:
            state = module.new_game(len(seats), seed, **options)
        except (TypeError, ValueError) as e:
            raise BadRequest(f"bad options: {e}") from None
        game_id = secrets.token_urlsafe(9)
        stored = await self.writer.run(self.storage.create_game, game_id, name, len(seats), seed, options, infos)
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
        )
        self._games[game_id] = live
        self._schedule_bot(live)
        return live, tokens

    # ------------------------------------------------------------------ loading

    async def get(self, game_id: str) -> LiveGame:
        """The live game (loaded and replayed from the database on first use).

        Raises:
            NotFound: no such game.
        """
        live = self._games.get(game_id)
        if live is not None:
            return live
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            live = self._games.get(game_id)
            if live is not None:
                return live
            stored = await asyncio.to_thread(self.storage.load_game, game_id)
            if stored is None:
                self._loading.pop(game_id, None)
                raise NotFound(f"no game {game_id!r}")
            state, result = _replay(stored)
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
            )
            self._games[game_id] = live
            self._loading.pop(game_id, None)
            return live

    def seat_for_token(self, live: LiveGame, token: str | None) -> int | None:
        """The viewer's seat: None without a token (spectator).

        Raises:
            Forbidden: a token that is not a seat token of this game.
        """
        if token is None or token == "":
            return None
        seat = live.seat_of_token(token)
        if seat is None:
            raise Forbidden(f"this token is not a seat token of game {live.id}; open the game without a token to watch it")
        return seat

    # ------------------------------------------------------------------ views

    def seats_json(self, live: LiveGame) -> list[dict[str, Any]]:
        """``[{"seat", "type", "name", "bot", "connected"}]`` (bots are always connected)."""
        connected = self.hub.connected_seats(live.id)
        return [
            {"seat": s.seat, "type": s.type, "name": s.name, "bot": s.bot,
             "connected": s.type == "bot" or s.seat in connected}
            for s in live.seats
        ]

    def message(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        """The state message for ``seat`` (None: spectator), see :func:`.protocol.state_message`."""
        return state_message(
            game_id=live.id,
            game=live.game,
            state=live.state,
            seat=seat,
            moves=live.moves,
            seats=self.seats_json(live),
            result=live.result,
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
            log=live.log_json,
        )

    def summary(self, live: LiveGame, your_seats: Sequence[int]) -> dict[str, Any]:
        """A game list entry: ``{"game_id", "game", "status", "seats", "your_seats",
        "current_player", "turn", "moves", "result", "created_at", "updated_at"}``."""
        return {
            "game_id": live.id,
            "game": live.game,
            "status": live.status,
            "seats": [{"seat": s.seat, "type": s.type, "name": s.name, "bot": s.bot} for s in live.seats],
            "your_seats": list(your_seats),
            "current_player": live.current_player,
            "turn": int(live.state.turn),
            "moves": len(live.moves),
            "result": live.result,
            "created_at": live.created_at.isoformat(),
            "updated_at": live.updated_at.isoformat(),
        }

    async def list_games(self, tokens: Sequence[str]) -> list[dict[str, Any]]:
        """Summaries of the games in which any of ``tokens`` holds a seat, newest first."""
        found = await asyncio.to_thread(self.storage.games_for_token_hashes, [hash_token(t) for t in tokens])
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

    async def act(self, game_id: str, token: Any, action: Any, move: Any = None) -> tuple[LiveGame, int]:
        """Play ``action`` for the seat of ``token`` (see the module docstring).

        Returns:
            The game and the seat that played.

        Raises:
            NotFound (404), BadRequest (400), Forbidden (403), Conflict (409), Illegal (422).
        """
        live = await self.get(game_id)
        if not isinstance(token, str) or not token:
            raise Forbidden('a seat token is required to act ("token": the token of your invite link)')
        seat = self.seat_for_token(live, token)
        assert seat is not None
        await self.act_as(live, seat, action, move)
        return live, seat

    async def act_as(self, live: LiveGame, seat: int, action: Any, move: Any = None) -> None:
        """Play ``action`` for ``seat`` (already authenticated). Raises as :meth:`act`."""
        if move is not None and (isinstance(move, bool) or not isinstance(move, int)):
            raise BadRequest(f'"move" must be the number of moves you have seen (a whole number), got {move!r}')
        try:
            parsed = parse_action(live.game, action)
        except MalformedActionError as e:
            raise BadRequest(str(e)) from None
        # A request cancelled mid-way (the client left) must not cut a commit in two (stored
        # but not applied): the decision runs in its own task, shielded from cancellation.
        task = asyncio.get_running_loop().create_task(self._act_locked(live, seat, parsed, move))
        task.add_done_callback(_retrieve)
        await asyncio.shield(task)

    async def _act_locked(self, live: LiveGame, seat: int, parsed: Any, move: int | None) -> None:
        async with live.lock:
            self._check_turn(live, seat, move)
            legal = live.state.legal_actions()
            if parsed not in legal:
                reason = explain(live.game, live.state.observation(seat), parsed)
                raise Illegal(
                    f"illegal action {str(parsed)!r}: {reason}. Legal now: {', '.join(str(a) for a in legal)}"
                )
            await self._commit(live, seat, parsed)

    def _check_turn(self, live: LiveGame, seat: int, move: int | None) -> None:
        if live.finished:
            raise Conflict(f"game {live.id} is over; no more actions are accepted")
        current = live.state.current_player
        if current != seat:
            who = live.seats[current]
            raise Conflict(
                f"not your turn: the decision is seat {current}'s ({who.name}); you are seat {seat}"
            )
        if move is not None and move != len(live.moves):
            raise Conflict(
                f"stale move number {move}: {len(live.moves)} moves have been played; "
                "reload the game state and decide again"
            )

    async def _commit(self, live: LiveGame, seat: int, action: Any) -> None:
        """Apply, store, then publish one legal decision (caller holds ``live.lock``)."""
        new = live.state.copy()
        new.apply(action)
        result = result_of(new) if new.is_terminal else None
        idx = len(live.moves)
        notation = str(action)
        try:
            live.updated_at = await self.writer.append(MoveToStore(live.id, idx, seat, notation, result))
        except StaleMoveError as e:  # another writer on the same database
            self._games.pop(live.id, None)
            raise Conflict(f"{e}; reload the game") from None
        live.state = new
        live.add_move(seat, notation)
        live.result = result
        self.publish(live)
        self._schedule_bot(live)

    async def explain(self, game_id: str, token: Any, action: Any) -> dict[str, Any]:
        """``{"action": notation, "legal": bool, "reason": str}`` for the viewer of
        ``token``. Only the seat to move gets the engine's answer; for anyone else the
        action is not legal (it is not their decision), so nothing about hidden cards is
        revealed.

        Raises:
            NotFound, Forbidden (bad token), BadRequest (malformed action, with a hint).
        """
        live = await self.get(game_id)
        if token is not None and not isinstance(token, str):
            raise BadRequest('"token" must be a string')
        seat = self.seat_for_token(live, token)
        try:
            parsed = parse_action(live.game, action)
        except MalformedActionError as e:
            raise BadRequest(str(e)) from None
        out = {"action": str(parsed), "legal": False, "reason": ""}
        current = live.current_player
        if live.finished:
            out["reason"] = "the game is over"
        elif seat is None:
            out["reason"] = "spectators cannot act; open your invite link to play your seat"
        elif current != seat:
            out["reason"] = f"it is not your decision: seat {current} ({live.seats[current].name}) is to play"
        elif parsed in live.state.legal_actions():
            out["legal"] = True
        else:
            out["reason"] = explain(live.game, live.state.observation(seat), parsed)
        return out

    # ------------------------------------------------------------------ bots

    def _schedule_bot(self, live: LiveGame) -> None:
        if self._closed or live.finished:
            return
        seat = live.state.current_player
        if live.seats[seat].type != "bot":
            return
        if live.bot_task is not None and not live.bot_task.done():
            return
        live.bot_task = asyncio.get_running_loop().create_task(self._bot_turns(live), name=f"bot:{live.id}")

    async def _bot_turns(self, live: LiveGame) -> None:
        """Play the bot decisions of ``live`` while the seat to move is a bot."""
        while not self._closed and not live.finished:
            seat = live.state.current_player
            info = live.seats[seat]
            if info.type != "bot":
                return
            idx = len(live.moves)
            obs = live.state.observation(seat)
            try:
                action_id = await server_bots.decide(self.pools, live.game, str(info.bot), obs)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot %s failed in game %s; playing a random legal action instead", info.bot, live.id)
                action_id = secrets.choice(obs.legal_actions()).id
            async with live.lock:
                if len(live.moves) != idx or live.finished:
                    continue
                action = get_game(live.game).Action.from_id(action_id)
                if action not in live.state.legal_actions():
                    log.error("bot %s answered illegal %s in game %s", info.bot, action, live.id)
                    action = secrets.choice(live.state.legal_actions())
                live.bot_task = None  # _commit may schedule the next bot turn itself
                await self._commit(live, seat, action)
                return

    # ------------------------------------------------------------------ records

    def record(self, live: LiveGame) -> GameRecord:
        """The game record (with the seed), for a finished game only.

        Raises:
            Conflict: the game is still being played.
        """
        if not live.finished:
            raise Conflict(f"game {live.id} is still being played; its record (with the deal seed) is available once it is over")
        return GameRecord(
            game=live.game,
            num_players=live.num_players,
            players=[s.name for s in live.seats],
            seed=live.seed,
            options=dict(live.options),
            actions=[text for _, text in live.moves],
            result=live.result,
            started_at=live.created_at.isoformat(),
            metadata={"game_id": live.id, "seats": [{"seat": s.seat, "type": s.type, "bot": s.bot} for s in live.seats]},
        )

    def replay(self, live: LiveGame) -> dict[str, Any]:
        """``{"game", "num_players", "seats", "frames", "result"}`` of a finished game;
        frame ``k`` is ``{"move": k, "notation", "seat", "observation"}`` after ``k``
        moves (the full position: everything of a finished game may be shown).

        Raises:
            Conflict: the game is still being played.
        """
        record = self.record(live)
        state = record.new_state()
        frames = [{"move": 0, "notation": None, "seat": None, "observation": state.to_dict()}]
        for k, (seat, text) in enumerate(live.moves, start=1):
            state.apply(text)
            frames.append({"move": k, "notation": text, "seat": seat, "observation": state.to_dict()})
        return {
            "game": live.game,
            "num_players": live.num_players,
            "seats": [{"seat": s.seat, "type": s.type, "name": s.name, "bot": s.bot} for s in live.seats],
            "frames": frames,
            "result": live.result,
        }


__all__ = [
    "BadRequest",
    "Conflict",
    "Forbidden",
    "GameService",
    "Illegal",
    "LiveGame",
    "NotFound",
    "ServiceError",
]
