"""Creating games: a request checked (:func:`check_request`), dealt from a seed of
:mod:`secrets` (:func:`deal`), its seats given tokens (only their hashes are stored), stored,
and kept in memory (:class:`Creation`). A create may carry an idempotency key: a retry with
the same key and request makes nothing and answers the same game and tokens
(:func:`derive_token`)."""

from __future__ import annotations

import asyncio
import base64
import functools
import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy.exc import IntegrityError

from ..descriptor import Game
from ..game import get_game
from . import bots as server_bots
from .clocks import ClockState
from .errors import (
    DB_DOWN,
    N_,
    BadRequest,
    Conflict,
    Illegal,
    NotFound,
    Unavailable,
    first_line,
)
from .live import LiveGame
from .protocol import MAX_NAME, BadNameError, clean_name, dumps
from .proxy import GameProxy
from .service_context import Round, ServiceContext
from .storage import IdempotencyRecord, SeatInfo, StoredGame, hash_token

IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9._:+/=-]{16,255}")
"""What an ``Idempotency-Key`` may look like."""

Plan = list[tuple[str, str, str | None]]
"""``(type, name, bot)`` of each seat: ``("human", name, None)`` or ``("bot", name, spec)``."""


class Created(NamedTuple):
    """What :meth:`Creation.create` answers: the game, ``{seat: token}`` of its human
    seats, and ``replayed`` (True: an earlier create with the same idempotency key made
    this game; the tokens are the same as then)."""

    live: LiveGame
    tokens: dict[int, str]
    replayed: bool = False


@dataclass(frozen=True)
class NewGame:
    """A create request, checked (:func:`check_request`).

    Attributes:
        game: the game.
        plan: each seat's ``(type, name, bot)``, names cleaned.
        options: the game's options, checked, as ``new_game`` takes them
            (:meth:`splendor.descriptor.Game.check_options`).
        players: the player id at each seat (None: a bot or an unknown person), or None.
        rated: whether the result changes ratings.
        clock: the clock (validated by the lobby), or None.
    """

    game: Game
    plan: Plan
    options: dict[str, int]
    players: Sequence[str | None] | None = None
    rated: bool = False
    clock: dict[str, Any] | None = None

    @property
    def num_players(self) -> int:
        """How many seats the game has."""
        return len(self.plan)


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


def _idempotency(key: Any, request: NewGame) -> _Idempotency:
    """Check an ``Idempotency-Key`` and digest the request it comes with (the game, the
    seats after their names were cleaned, the options). Raises BadRequest."""
    if not isinstance(key, str) or not IDEMPOTENCY_KEY.fullmatch(key):
        raise BadRequest(
            "the Idempotency-Key header must be 16 to 255 characters among letters, digits and "
            "- _ . : + / = (a random UUID, say)"
        )
    text = dumps(
        {
            "game": request.game.name,
            "seats": [list(p) for p in request.plan],
            "options": request.options,
        }
    )
    return _Idempotency(
        key=key,
        key_hash=hashlib.sha256(key.encode("ascii")).hexdigest(),
        request_hash=hashlib.sha256(text.encode("utf-8")).hexdigest(),
    )


# ---------------------------------------------------------------------- checking a request


def game_module(game: Any) -> Game:
    """The game a request names (``"splendor"`` or ``"duel"``, or another name the
    registry knows: :func:`splendor.game.get_game`).

    Raises:
        BadRequest: not a string, or no such game (the message lists the games).
    """
    if not isinstance(game, str):
        raise BadRequest('"game" must be "splendor" or "duel"')
    try:
        return get_game(game)
    except ValueError as e:
        raise BadRequest(str(e)) from None


def check_request(
    game: Any,
    seats: Any,
    options: Any = None,
    players: Sequence[str | None] | None = None,
    *,
    rated: bool = False,
    clock: dict[str, Any] | None = None,
) -> NewGame:
    """A create request checked (the arguments as :meth:`Creation.create`'s).

    Raises:
        BadRequest: an unknown game, a number of seats it does not allow, options it does
            not have or out of range (the message of
            :meth:`splendor.descriptor.Game.check_options`), a malformed seat, a bad name,
            no human seat, or as many player ids as seats.
    """
    found = game_module(game)
    if not isinstance(seats, list):
        raise BadRequest(
            '"seats" must be a list of seats: {"type": "human", "name": "Ann"} '
            'or {"type": "bot", "bot": "greedy"}'
        )
    if not found.min_players <= len(seats) <= found.max_players:
        raise BadRequest(
            N_("{game} is for {min} to {max} players, got {seats} seats"),
            game=found.name,
            min=found.min_players,
            max=found.max_players,
            seats=len(seats),
        )
    checked = _check_options(found, options)
    plan = [_plan_seat(i, s) for i, s in enumerate(seats)]
    if all(kind != "human" for kind, _, _ in plan):
        raise BadRequest(N_("a game needs at least one human seat"))
    if players is not None and len(players) != len(seats):
        raise BadRequest(f"{len(players)} player ids for {len(seats)} seats")
    return NewGame(found, plan, checked, players, rated, clock)


def _check_options(game: Game, options: Any) -> dict[str, int]:
    """``options`` (None: none) as ``game.new_game`` takes them. Raises BadRequest."""
    given = {} if options is None else options
    if not isinstance(given, dict):
        raise BadRequest('"options" must be an object')
    try:
        return game.check_options(given)
    except ValueError as e:
        raise BadRequest(str(e)) from None


def _plan_seat(i: int, seat: Any) -> tuple[str, str, str | None]:
    """Seat ``i``'s ``(type, name, bot)``: a person's default name is ``"Player N"``, a
    bot's its level. Raises BadRequest."""
    if not isinstance(seat, dict) or seat.get("type") not in ("human", "bot"):
        raise BadRequest(
            f'seat {i}: must be {{"type": "human", "name": ...}} or {{"type": "bot", "bot": ...}}'
        )
    given = seat.get("name")
    if seat["type"] == "human":
        return ("human", f"Player {i + 1}" if given in (None, "") else _seat_name(i, given), None)
    spec = seat.get("bot")
    if not isinstance(spec, str) or spec not in server_bots.SERVER_BOTS:
        shown = (
            repr(spec)[:60]
            if isinstance(spec, (str, int, float, type(None)))
            else type(spec).__name__
        )
        raise BadRequest(
            f"seat {i}: unknown bot {shown}; bots: {', '.join(server_bots.SERVER_BOTS)}"
        )
    return ("bot", spec if given in (None, "") else _seat_name(i, given), spec)


def _seat_name(i: int, value: Any) -> str:
    """Seat ``i``'s name as :func:`.protocol.clean_name` makes it. Raises BadRequest."""
    try:
        return clean_name(value, MAX_NAME)
    except BadNameError as e:
        # seats are numbered from 1 for people (the lobby's form shows "seat 1")
        raise BadRequest(N_("seat {seat}: {error}"), seat=i + 1, error=e.text) from None


# ---------------------------------------------------------------------- dealing


def deal(request: NewGame) -> tuple[int, Any]:
    """A seed from :mod:`secrets` and the state it deals.

    Raises:
        BadRequest: the engine refused the options.
    """
    seed = secrets.randbits(63)
    try:
        state = request.game.new_game(request.num_players, seed, **request.options)
    except (TypeError, ValueError, OverflowError) as e:
        raise BadRequest(f"bad options: {e}") from None
    return seed, state


def seat_infos(
    request: NewGame, idem: _Idempotency | None, salt: bytes
) -> tuple[list[SeatInfo], dict[int, str]]:
    """The seats to store and ``{seat: token}`` of the human ones: random tokens, or
    derived from the idempotency key and ``salt`` (:func:`derive_token`)."""
    infos: list[SeatInfo] = []
    tokens: dict[int, str] = {}
    for i, (kind, label, spec) in enumerate(request.plan):
        if kind == "human":
            token = (
                derive_token(idem.key, salt, i) if idem is not None else secrets.token_urlsafe(32)
            )
            tokens[i] = token
            pid = None if request.players is None else request.players[i]
            infos.append(SeatInfo(i, "human", label, None, hash_token(token), pid))
        else:
            infos.append(SeatInfo(i, "bot", label, spec, None))
    return infos, tokens


# ---------------------------------------------------------------------- creating


class Creation:
    """Creates games, stores them and keeps them in memory.

    Args:
        ctx: the service's shared pieces.
        games: the live games (a new game joins them; an earlier one is loaded).
        round: what a new game asks of the service (its bot turn, its timer).
    """

    def __init__(self, ctx: ServiceContext, games: GameProxy, round: Round) -> None:
        self._ctx = ctx
        self._games = games
        self._round = round

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
        """Create a game (the arguments and errors: :meth:`.service.GameService.create`)."""
        request = check_request(game, seats, options, players, rated=rated, clock=clock)
        idem = None
        if idempotency_key is not None:
            idem = _idempotency(idempotency_key, request)
            earlier = await self._created_earlier(idem)
            if earlier is not None:
                return earlier
        seed, state = deal(request)
        salt = secrets.token_bytes(16)
        infos, tokens = seat_infos(request, idem, salt)
        game_id = secrets.token_urlsafe(9)
        try:
            stored = await self._store(game_id, request, seed, state, infos, idem, salt)
        except IntegrityError:  # the same key, committed meanwhile by another request
            earlier = None if idem is None else await self._created_earlier(idem)
            if earlier is None:
                raise
            return earlier
        return Created(self._keep(stored, request, state), tokens)

    async def _store(
        self,
        game_id: str,
        request: NewGame,
        seed: int,
        state: Any,
        infos: list[SeatInfo],
        idem: _Idempotency | None,
        salt: bytes,
    ) -> StoredGame:
        """Store the new game (and its idempotency key's digests).

        Raises:
            IntegrityError: the key was stored meanwhile by another request.
        """
        record = (
            None
            if idem is None
            else IdempotencyRecord(idem.key_hash, idem.request_hash, salt.hex())
        )
        storage = self._ctx.storage
        return await self._ctx.writer.run(
            functools.partial(
                storage.create_game, idempotency=record, rated=request.rated, clock=request.clock
            ),
            game_id,
            request.game.name,
            request.num_players,
            seed,
            request.options,
            infos,
            state.current_player,
        )

    def _keep(self, stored: StoredGame, request: NewGame, state: Any) -> LiveGame:
        """The live game of a game just stored, kept in memory, its clock started, its
        bot turn and timer started."""
        live = LiveGame(
            id=stored.id,
            game=request.game.name,
            num_players=request.num_players,
            seed=stored.seed,
            options=dict(request.options),
            seats=stored.seats,
            created_at=stored.created_at,
            updated_at=stored.updated_at,
            state=state,
            moves=[],
            result=None,
            accessed=self._ctx.clock(),
            rated=request.rated,
            clock=request.clock,
        )
        if request.clock is not None:
            live.clock_state = ClockState.start(
                request.clock, request.num_players, state.current_player, self._ctx.wall()
            )
        self._games.add(live)
        self._round.schedule_bot(live)
        self._round.arm_clock(live)
        self._ctx.emit_game("game.started", live)
        return live

    async def _created_earlier(self, idem: _Idempotency) -> Created | None:
        """The game made earlier with ``idem``'s key, with its seat tokens derived again;
        None if the key is new (or its game was deleted).

        Raises:
            Illegal: the key came with another request then.
            Unavailable: the database did not answer.
        """
        try:
            found = await asyncio.to_thread(self._ctx.storage.find_idempotency_key, idem.key_hash)
        except DB_DOWN as e:
            raise Unavailable(
                N_("the database is unavailable ({error}); nothing was created: try again"),
                error=first_line(e),
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
            live = await self._games.get(game_id)
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


__all__ = [
    "IDEMPOTENCY_KEY",
    "Created",
    "Creation",
    "NewGame",
    "check_request",
    "deal",
    "derive_token",
    "game_module",
    "seat_infos",
]
