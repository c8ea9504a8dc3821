"""Players of the web app: guests, accounts and their browser sessions.

Anyone can play at once as a **guest**: a name, no password. The browser keeps the guest's
session in an HTTP-only cookie (the app sets it; see :mod:`splendor.server.players_api`).
A guest can become an **account** by choosing a password; it keeps its id, so its games and
ratings stay its own. Accounts log in from any browser with their name and password.

- Names are cleaned like seat names (:func:`splendor.server.protocol.clean_name`). One
  namespace for names (:mod:`.names`): an account's name cannot be the same
  (:func:`.names.name_key`: case and Unicode width aside) as or confusable with
  (:func:`.names.name_skeleton`: ``Alice``, ``ALICE``, ``Аlice`` with a Cyrillic А)
  another account's, and a guest cannot take a name an account holds; guests' names are
  not reserved among guests (a guest is shown as one).
- Passwords are hashed with Argon2id (``argon2-cffi``'s :class:`~argon2.PasswordHasher`,
  its default parameters); only the hash is stored. A hash made with older parameters is
  replaced at the next log-in.
- A log-in that fails says "wrong name or password" whether or not the name exists, and an
  unknown name costs the same Argon2 verification as a known one: the only way to learn
  whether a name is taken is to try to take it.
- Session tokens are 256-bit random strings; the database stores their SHA-256
  (:func:`splendor.server.storage.hash_token`), as for seat tokens.

Every method is blocking (database and Argon2 work): the app calls them through
:func:`asyncio.to_thread`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .errors import N_, BadRequest, Conflict, Forbidden, NotFound, ServiceError
from .moderation import check_log_in, is_banned
from .my_games import open_games_of
from .names import name_key, name_skeleton
from .protocol import MAX_NAME, BadNameError, clean_name
from .ratings import KINDS, Rating
from .storage import (
    GameRow,
    PlayerRow,
    RatingRow,
    SeatRow,
    SessionRow,
    Storage,
    hash_token,
    storable,
    utcnow,
)

MIN_PASSWORD = 8
MAX_PASSWORD = 256
"""Password lengths in characters (a longer one only costs the server hashing time)."""

SESSION_TOUCH = timedelta(minutes=10)
"""A session's ``last_used_at`` is written at most this often (not on every request)."""

RECENT_GAMES = 20
"""How many games a player page lists per group (open, finished)."""

LEADERBOARD_SIZE = 100
"""Players per leaderboard."""

PROVISIONAL_DEVIATION = 110.0
"""A rating with a larger deviation is provisional (Glickman's guideline for Glicko)."""


class BadCredentials(ServiceError):
    """A log-in with a wrong name or password (401); the message never says which."""

    status = 401


@dataclass(frozen=True)
class Player:
    """A player as the API shows it.

    Attributes:
        id: random URL-safe id (the player page is ``/players/{id}``).
        name: display name.
        account: True for an account (name and password), False for a guest (or a deleted
            account).
        created_at: when the player was made (UTC).
        role: ``"player"`` or ``"admin"`` (granted by ``splendor admin``).
        email: the player's e-mail address, or None (shown to the player only).
        email_verified: whether ``email`` was confirmed by its link.
        language: the language of the player's mails (``"en"``, ``"fr"``, ``"nl"``), or
            None (not known yet).
        deleted: the account was deleted (its games stay under an anonymous name).
    """

    id: str
    name: str
    account: bool
    created_at: datetime
    role: str = "player"
    email: str | None = None
    email_verified: bool = False
    language: str | None = None
    deleted: bool = False

    @property
    def guest(self) -> bool:
        """A guest: neither an account nor a deleted one."""
        return not self.account and not self.deleted

    def to_json(self, private: bool = False) -> dict[str, Any]:
        """``{"id", "name", "account", "guest", "created_at"}`` (ISO 8601 time), plus
        ``"deleted": true`` for a deleted account; ``private`` (the player's own view) adds
        ``"role", "email", "email_verified", "language"``."""
        out: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "account": self.account,
            "guest": self.guest,
            "created_at": self.created_at.isoformat(),
        }
        if self.deleted:
            out["deleted"] = True
        if private:
            out.update(
                role=self.role,
                email=self.email,
                email_verified=self.email_verified,
                language=self.language,
            )
        return out


def check_may_play_rated(player: Player, rated: bool) -> None:
    """Rated games are for accounts: refuse a guest at a rated table.

    Raises:
        Forbidden: ``rated`` and ``player`` is not an account (403).
    """
    if rated and not player.account:
        raise Forbidden(
            N_(
                "rated games are for accounts: make an account (a guest keeps its games "
                "when it becomes one), or play a casual game"
            )
        )


def check_password(password: Any) -> str:
    """``password`` if it is acceptable.

    Raises:
        BadRequest: not a string, shorter than :data:`MIN_PASSWORD` or longer than
            :data:`MAX_PASSWORD` characters, or holding a NUL or a lone surrogate.
    """
    if not isinstance(password, str):
        raise BadRequest(f'"password" must be a string, got {type(password).__name__}')
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise BadRequest(
            N_("a password is {min} to {max} characters, got {length}"),
            min=MIN_PASSWORD,
            max=MAX_PASSWORD,
            length=len(password),
        )
    if not storable(password):
        raise BadRequest(N_("a password cannot hold a NUL or a lone surrogate"))
    return password


def _clean(name: Any) -> str:
    if not isinstance(name, str):
        raise BadRequest(f'"name" must be a string, got {type(name).__name__}')
    try:
        return clean_name(name, MAX_NAME)
    except BadNameError as e:
        raise BadRequest(e.text) from None


def _player(row: PlayerRow) -> Player:
    created = row.created_at
    if created.tzinfo is None:  # SQLite gives naive datetimes back: they were stored as UTC
        created = created.replace(tzinfo=utcnow().tzinfo)
    return Player(
        row.id,
        row.name,
        row.name_key is not None,
        created,
        role=row.role or "player",
        email=row.email,
        email_verified=row.email is not None and row.email_verified_at is not None,
        language=row.language,
        deleted=row.deleted_at is not None,
    )


def name_taken(c: Connection, name: str, exclude: str | None = None) -> bool:
    """Whether an account other than ``exclude`` holds ``name`` or a name confusable with
    it (:mod:`.names`: the same key or the same skeleton; one indexed query)."""
    query = (
        select(PlayerRow.id)
        .where(
            PlayerRow.name_key.is_not(None),
            or_(
                PlayerRow.name_skeleton == name_skeleton(name),
                PlayerRow.name_key == name_key(name),
            ),
        )
        .limit(1)
    )
    if exclude is not None:
        query = query.where(PlayerRow.id != exclude)
    return c.execute(query).first() is not None


class Accounts:
    """Guests, accounts and sessions over the server's database.

    Args:
        storage: the server's :class:`~splendor.server.storage.Storage` (its schema
            migrated: tables ``players``, ``player_sessions``, ``ratings``).
        hasher: the Argon2 hasher (tests pass cheaper parameters); default Argon2id with
            ``argon2-cffi``'s default parameters.
    """

    def __init__(self, storage: Storage, hasher: PasswordHasher | None = None) -> None:
        self.storage = storage
        self.hasher = hasher if hasher is not None else PasswordHasher()
        # verified when the name is unknown, so that a wrong name costs a right name's time
        self._dummy_hash = self.hasher.hash(secrets.token_urlsafe(16))

    # ------------------------------------------------------------------ sessions

    def _new_session(self, player_id: str) -> str:
        token = secrets.token_urlsafe(32)
        now = utcnow()
        with self.storage.engine.begin() as c:
            c.execute(
                insert(SessionRow),
                {
                    "token_hash": hash_token(token),
                    "player_id": player_id,
                    "created_at": now,
                    "last_used_at": now,
                },
            )
        return token

    def player_for_session(self, token: str | None) -> Player | None:
        """The player of a session token, or None (no token, unknown or logged out)."""
        if not token or not storable(token) or len(token) > 128:
            return None
        th = hash_token(token)
        now = utcnow()
        with self.storage.session() as s:
            found = s.execute(
                select(PlayerRow, SessionRow.last_used_at)
                .join(SessionRow, SessionRow.player_id == PlayerRow.id)
                .where(SessionRow.token_hash == th)
            ).first()
            if found is None:
                return None
            row, last = found
            if is_banned(row):  # a ban deletes the sessions; this covers a race with it
                return None
            player = _player(row)
            if last.tzinfo is None:
                last = last.replace(tzinfo=now.tzinfo)
            if now - last > SESSION_TOUCH:
                s.execute(
                    update(SessionRow).where(SessionRow.token_hash == th).values(last_used_at=now)
                )
                s.execute(
                    update(PlayerRow).where(PlayerRow.id == player.id).values(last_seen_at=now)
                )
                s.commit()
        return player

    def log_out(self, token: str | None) -> None:
        """End a session (nothing happens for an unknown token)."""
        if token and storable(token):
            with self.storage.engine.begin() as c:
                c.execute(delete(SessionRow).where(SessionRow.token_hash == hash_token(token)))

    # ------------------------------------------------------------------ players

    def create_guest(self, name: Any) -> tuple[Player, str]:
        """A new guest called ``name`` and a session token for it.

        Raises:
            BadRequest: the name is not a string or not a valid name.
            Conflict: an account holds that name or one confusable with it (409).
        """
        clean = _clean(name)
        now = utcnow()
        pid = secrets.token_urlsafe(9)
        with self.storage.engine.begin() as c:
            if name_taken(c, clean):
                raise Conflict(
                    N_("the name {name} belongs to an account; choose another, or log in"),
                    name=repr(clean),
                )
            c.execute(
                insert(PlayerRow),
                {
                    "id": pid,
                    "name": clean,
                    "name_key": None,
                    "password_hash": None,
                    "created_at": now,
                    "last_seen_at": now,
                },
            )
        return Player(pid, clean, False, now), self._new_session(pid)

    def sign_up(self, name: Any, password: Any, session: str | None = None) -> tuple[Player, str]:
        """Make an account: the guest of ``session`` becomes one (same id: its games and
        ratings stay), or a new player when there is no guest session. Returns the player
        and a fresh session token (the guest's other sessions stay logged in).

        Raises:
            BadRequest: a bad name or password.
            Conflict: the name, or one confusable with it (:mod:`.names`), is taken by
                another account (409).
            Forbidden: the session is already an account's (log out first).
        """
        clean = _clean(name)
        check_password(password)
        key = name_key(clean)
        pw_hash = self.hasher.hash(password)
        current = self.player_for_session(session)
        if current is not None and current.account:
            raise Forbidden(N_("you are logged in to an account already; log out to make another"))
        now = utcnow()
        pid = current.id if current is not None else secrets.token_urlsafe(9)
        taken = Conflict(N_("the name {name} is taken; choose another"), name=repr(clean))
        try:
            with self.storage.engine.begin() as c:
                if name_taken(c, clean, exclude=pid):
                    raise taken
                if current is None:
                    c.execute(
                        insert(PlayerRow),
                        {
                            "id": pid,
                            "name": clean,
                            "name_key": key,
                            "name_skeleton": name_skeleton(clean),
                            "password_hash": pw_hash,
                            "created_at": now,
                            "last_seen_at": now,
                        },
                    )
                else:
                    c.execute(
                        update(PlayerRow)
                        .where(PlayerRow.id == pid)
                        .values(
                            name=clean,
                            name_key=key,
                            name_skeleton=name_skeleton(clean),
                            password_hash=pw_hash,
                            last_seen_at=now,
                        )
                    )
        except IntegrityError:
            raise taken from None
        if current is not None:
            return replace(current, name=clean, account=True), self._new_session(pid)
        return Player(pid, clean, True, now), self._new_session(pid)

    def log_in(self, name: Any, password: Any) -> tuple[Player, str]:
        """Log in to an account; returns the player and a new session token.

        Raises:
            BadCredentials: the name or the password is wrong (the message does not say
                which, and both cost one Argon2 verification).
            BadRequest: the name or password is not a string.
        """
        if not isinstance(name, str) or not isinstance(password, str):
            raise BadRequest('"name" and "password" must be strings')
        wrong = BadCredentials(N_("wrong name or password"))
        try:
            key = name_key(clean_name(name, MAX_NAME))
        except BadNameError:
            key = None
        row = None
        if key is not None and storable(password):
            with self.storage.session() as s:
                row = s.scalars(select(PlayerRow).where(PlayerRow.name_key == key)).first()
        stored = row.password_hash if row is not None and row.password_hash else None
        try:  # a password that cannot be encoded (a lone surrogate) is a wrong one
            self.hasher.verify(stored or self._dummy_hash, password if storable(password) else "")
        except (VerificationError, InvalidHashError):
            raise wrong from None
        if row is None or stored is None:
            raise wrong
        check_log_in(row)  # a banned account: 403, told only to who knows the password
        if self.hasher.check_needs_rehash(stored):
            with self.storage.engine.begin() as c:
                c.execute(
                    update(PlayerRow)
                    .where(PlayerRow.id == row.id)
                    .values(password_hash=self.hasher.hash(password))
                )
        return _player(row), self._new_session(row.id)

    def verify_password(self, player_id: str, password: Any) -> None:
        """Check the password of ``player_id`` (one Argon2 verification, also for a player
        without a password).

        Raises:
            BadRequest: ``password`` is not a string.
            BadCredentials: it is wrong, or the player has no password (401).
        """
        if not isinstance(password, str):
            raise BadRequest(N_("type your current password"))
        with self.storage.session() as s:
            stored = s.scalar(select(PlayerRow.password_hash).where(PlayerRow.id == player_id))
        try:  # a password that cannot be encoded (a lone surrogate) is a wrong one
            self.hasher.verify(stored or self._dummy_hash, password if storable(password) else "")
        except (VerificationError, InvalidHashError):
            raise BadCredentials(N_("wrong password")) from None
        if not stored:
            raise BadCredentials(N_("wrong password"))

    def set_language(self, player_id: str, language: str) -> None:
        """Remember ``language`` (``"en"``, ``"fr"``, ``"nl"``) as the language of the
        player's mails (at log-in and when an address is set)."""
        with self.storage.engine.begin() as c:
            c.execute(
                update(PlayerRow)
                .where(PlayerRow.id == player_id, PlayerRow.language.is_distinct_from(language))
                .values(language=language)
            )

    def get(self, player_id: str) -> Player:
        """The player with id ``player_id``.

        Raises:
            NotFound: there is none.
        """
        if not storable(player_id) or len(player_id) > 32:
            raise NotFound(N_("no player {player}"), player=repr(player_id))
        with self.storage.session() as s:
            row = s.get(PlayerRow, player_id)
        if row is None:
            raise NotFound(N_("no player {player}"), player=repr(player_id))
        return _player(row)

    def leaderboard(self, kind: Any, limit: int = LEADERBOARD_SIZE) -> dict[str, Any]:
        """The best ratings of a game kind among accounts (guests and deleted accounts
        are not ranked): ``{"kind", "players": [{"rank", "player",
        "rating", "deviation", "games", "provisional"}]}``, highest displayed rating first
        (ties: more games first), at most ``limit``. A rating whose deviation is over
        :data:`PROVISIONAL_DEVIATION` is marked provisional (too few games to trust it).

        Raises:
            BadRequest: ``kind`` is not one of :data:`.ratings.KINDS`.
        """
        if kind not in KINDS:
            raise BadRequest(f'"kind" must be one of {", ".join(KINDS)}')
        with self.storage.session() as s:
            # one indexed query (ratings.kind, ratings.value): the top rows only
            rows = s.execute(
                select(RatingRow, PlayerRow)
                .join(PlayerRow, PlayerRow.id == RatingRow.player_id)
                .where(RatingRow.kind == kind, RatingRow.games > 0, PlayerRow.name_key.is_not(None))
                .order_by(RatingRow.value.desc(), RatingRow.games.desc(), PlayerRow.name)
                .limit(limit)
            ).all()
        entries = []
        for r, p in rows:
            try:
                rating = Rating.from_dict(r.rating)
            except ValueError:
                continue  # a corrupt row is not shown (rated_games logs and replaces it)
            entries.append((rating, _player(p)))
        return {
            "kind": kind,
            "players": [
                {
                    "rank": i + 1,
                    "player": player.to_json(),
                    "rating": round(rating.value, 1),
                    "deviation": round(rating.deviation, 1),
                    "games": rating.games,
                    "provisional": rating.deviation > PROVISIONAL_DEVIATION,
                }
                for i, (rating, player) in enumerate(entries)
            ],
        }

    def profile(self, player_id: str) -> dict[str, Any]:
        """What a player page shows: the player, its rating per game kind, its open games
        and its finished games (newest first, at most :data:`RECENT_GAMES` each, with the
        links to play or watch and to the replay), and its results in them.

        Raises:
            NotFound: no such player.
        """
        player = self.get(player_id)
        with self.storage.session() as s:
            ratings = s.scalars(select(RatingRow).where(RatingRow.player_id == player_id)).all()
            rows = s.execute(
                select(GameRow, SeatRow.seat)
                .join(SeatRow, SeatRow.game_id == GameRow.id)
                .where(SeatRow.player_id == player_id)
                .order_by(GameRow.updated_at.desc(), GameRow.id)
            ).all()
        finished: list[dict[str, Any]] = []
        for game, seat in rows:
            entry: dict[str, Any] = {
                "id": game.id,
                "game": game.game,
                "num_players": game.num_players,
                "seat": seat,
                "url": f"/games/{game.id}",
            }
            if game.status == "finished" and game.result is not None:
                winners = list(game.result.get("winners") or [])
                entry["replay"] = f"/games/{game.id}/replay"
                entry["outcome"] = (
                    ("shared" if len(winners) > 1 else "won") if seat in winners else "lost"
                )
                entry["scores"] = game.result.get("scores")
                if len(finished) < RECENT_GAMES:
                    finished.append(entry)
        open_games = open_games_of(self.storage, player_id, RECENT_GAMES)  # :mod:`.my_games`
        return {
            "player": player.to_json(),
            "ratings": {
                r.kind: {
                    "rating": r.rating,
                    "games": r.games,
                    "updated_at": r.updated_at.isoformat(),
                }
                for r in ratings
            },
            "open_games": open_games,
            "finished_games": finished,
        }
