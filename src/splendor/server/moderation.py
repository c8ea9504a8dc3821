"""Moderation: the admin role, mutes, bans, renames and the audit log, and where a ban or
a mute is enforced.

**Roles.** A player's ``role`` is ``"player"`` or ``"admin"`` (``players.role``). Only an
account (a name and a password) can be an admin; the role is granted and revoked with the
command line (``splendor admin grant NAME``, :mod:`splendor.cli.admin`), never through the
web. An admin sees the moderation page (``/moderation``, :mod:`.moderation_api`).

**Acts** (:class:`Moderation`; each one writes a row of the audit log, ``audit_log``: who
(``actor_id``, None for the command line), what (``action``), on whom (``target_id``), the
details, when):

- *mute* for some minutes (``players.muted_until``): the player's chat messages are refused
  (403) until then (:func:`check_can_chat`); *unmute* ends it now;
- *ban* (``players.banned_at``, ``ban_reason``): every session of the player is deleted at
  once, the SHA-256 of the addresses those sessions came from go to ``banned_addresses``
  (no new guest from them for :data:`ADDRESS_BAN`: :func:`check_address`), the reports
  still open about the player are closed; a banned account cannot log in
  (:func:`check_log_in`), a banned player's session is worth nothing
  (:func:`is_banned`, checked on every request) and Play now refuses it
  (:func:`check_active`); *unban* lifts all of it;
- *rename*: an offensive name becomes another one, cleaned and checked like any name (an
  account's name stays unique), in the player's row and its game seats and chat lines;
- *grant*/*revoke* the admin role.

From the web an admin cannot act on itself nor on another admin (revoke the role first with
the command line); the command line can act on anyone.

Every function and method is blocking (database work): the app calls them through
:func:`asyncio.to_thread`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, and_, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from .community_rows import AuditRow, BannedAddressRow, ReportRow
from .errors import N_, BadRequest, Conflict, Forbidden, NotFound
from .names import name_key, name_skeleton
from .protocol import MAX_NAME, BadNameError, clean_name
from .storage import ChatRow, PlayerRow, SeatRow, SessionRow, Storage, hash_token, storable, utcnow

ROLE_PLAYER = "player"
ROLE_ADMIN = "admin"
ROLES = (ROLE_PLAYER, ROLE_ADMIN)
"""The roles a player can have."""

ADDRESS_BAN = timedelta(days=30)
"""How long an address a banned player used cannot make new guests (addresses change
hands: a household, a school, a mobile network)."""

MAX_MUTE_MINUTES = 366 * 24 * 60
"""The longest mute, in minutes (a year); longer is a ban."""

MAX_REASON = 500
"""Characters in a ban's or mute's reason."""

AUDIT_PAGE = 100
"""The most audit rows one call returns."""


class Banned(Forbidden):
    """The player is banned (403): log-in, Play now."""


def address_hash(address: str) -> str:
    """The SHA-256 hex digest of a client address (what ``player_sessions.address_hash``
    and ``banned_addresses`` keep: never the address itself)."""
    return hashlib.sha256(address.encode("utf-8", "backslashreplace")).hexdigest()


def aware(when: datetime | None) -> datetime | None:
    """``when`` as a timezone-aware UTC time (SQLite gives naive ones back), or None."""
    if when is not None and when.tzinfo is None:
        return when.replace(tzinfo=utcnow().tzinfo)
    return when


# ---------------------------------------------------------------------- enforcement


def is_banned(row: PlayerRow) -> bool:
    """Whether the player of ``row`` is banned (its sessions count for nothing)."""
    return row.banned_at is not None


def check_log_in(row: PlayerRow) -> None:
    """Refuse the log-in of a banned account (called once its password was verified, so
    that the refusal tells nothing to someone who does not know the password).

    Raises:
        Banned: the account is banned (403).
    """
    if is_banned(row):
        raise Banned(N_("this account is banned"))


def check_active(storage: Storage, player_id: str) -> None:
    """Refuse a banned (or vanished) player (Play now, and anything that must not start
    for one).

    Raises:
        Banned: the player is banned or no longer exists (403).
    """
    with storage.session() as s:
        found = s.execute(select(PlayerRow.banned_at).where(PlayerRow.id == player_id)).first()
    if found is None or found[0] is not None:
        raise Banned(N_("this account is banned"))


def check_can_chat(storage: Storage, player_id: str | None) -> None:
    """Refuse the chat message of a muted or banned player (a seat not known as a player,
    ``player_id`` None, is not checked).

    Raises:
        Forbidden: the player is muted (until when, UTC) or banned (403).
    """
    if player_id is None:
        return
    with storage.session() as s:
        found = s.execute(
            select(PlayerRow.banned_at, PlayerRow.muted_until).where(PlayerRow.id == player_id)
        ).first()
    if found is None:
        return
    banned, muted = found
    if banned is not None:
        raise Banned(N_("this account is banned"))
    until = aware(muted)
    if until is not None and until > utcnow():
        raise Forbidden(
            N_("a moderator muted you: you can chat again after {time} UTC"),
            time=until.strftime("%Y-%m-%d %H:%M"),
        )


def check_address(storage: Storage, address: str, account: bool = False) -> None:
    """Refuse a new guest (``account``: a new account) from an address a banned player
    used less than :data:`ADDRESS_BAN` ago.

    Raises:
        Forbidden: the address is banned (403).
    """
    since = utcnow() - ADDRESS_BAN
    with storage.session() as s:
        hit = s.scalar(
            select(BannedAddressRow.address_hash).where(
                BannedAddressRow.address_hash == address_hash(address),
                BannedAddressRow.created_at > since,
            )
        )
    if hit is not None and account:
        raise Forbidden(
            N_("no new account can be made from your address for now; log in to your account")
        )
    if hit is not None:
        raise Forbidden(
            N_("no new guest can be made from your address for now; log in to your account")
        )


def note_session_address(storage: Storage, token: str, address: str) -> None:
    """Remember the SHA-256 of the address that opened the session ``token`` (a ban
    reaches the guests made from it)."""
    with storage.engine.begin() as c:
        c.execute(
            update(SessionRow)
            .where(SessionRow.token_hash == hash_token(token))
            .values(address_hash=address_hash(address))
        )


def role_of(storage: Storage, player_id: str | None) -> str | None:
    """The role of a player (``"player"``, ``"admin"``), None for an unknown or banned
    one."""
    if player_id is None:
        return None
    with storage.session() as s:
        found = s.execute(
            select(PlayerRow.role, PlayerRow.banned_at).where(PlayerRow.id == player_id)
        ).first()
    if found is None or found[1] is not None:
        return None
    return str(found[0])


def require_admin(storage: Storage, player_id: str | None) -> str:
    """``player_id`` if it is an admin's.

    Raises:
        Forbidden: nobody logged in, or not an admin (403).
    """
    if player_id is None or role_of(storage, player_id) != ROLE_ADMIN:
        raise Forbidden(N_("only moderators can see or do this"))
    return player_id


# ---------------------------------------------------------------------- helpers


def player_json(row: PlayerRow | None) -> dict[str, Any] | None:
    """``{"id", "name", "account"}`` of a player row (None for None)."""
    if row is None:
        return None
    return {"id": row.id, "name": row.name, "account": row.name_key is not None}


def status_json(row: PlayerRow) -> dict[str, Any]:
    """What the moderators see of a player: :func:`player_json` and ``role``,
    ``banned_at``, ``ban_reason``, ``muted_until`` (ISO 8601 times or None; a past mute is
    None)."""
    muted = aware(row.muted_until)
    banned = aware(row.banned_at)
    return {
        **(player_json(row) or {}),
        "role": row.role,
        "banned_at": banned.isoformat() if banned is not None else None,
        "ban_reason": row.ban_reason,
        "muted_until": muted.isoformat() if muted is not None and muted > utcnow() else None,
    }


def clean_reason(text: Any, limit: int = MAX_REASON) -> str:
    """A reason or report text as stored: cleaned like a chat message, at most ``limit``
    characters; None or blank gives ``""``.

    Raises:
        BadRequest: not a string, or longer than ``limit`` characters once cleaned.
    """
    if text is None:
        return ""
    if not isinstance(text, str):
        raise BadRequest(f'"reason" and "text" must be strings, got {type(text).__name__}')
    try:
        return clean_name(text, limit)
    except BadNameError as e:
        if e.reason == "empty":
            return ""
        if e.reason == "length":
            raise BadRequest(
                N_("a text here is at most {max} characters, got {length}"),
                max=limit,
                length=e.length,
            ) from None
        raise BadRequest(e.text) from None


def audit(
    c: Connection,
    actor_id: str | None,
    action: str,
    target_id: str | None,
    details: dict[str, Any] | None = None,
) -> None:
    """Write one row of the audit log in the transaction of ``c``."""
    c.execute(
        insert(AuditRow),
        {
            "actor_id": actor_id,
            "action": action,
            "target_id": target_id,
            "details": details,
            "created_at": utcnow(),
        },
    )


class Moderation:
    """The moderators' acts over the server's database (see the module's docstring).

    ``actor_id`` is the admin acting from the web, or None for the command line (which may
    act on anyone, itself and other admins included).

    Args:
        storage: the server's :class:`~splendor.server.storage.Storage` (schema migrated).
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # ------------------------------------------------------------------ lookups

    def find(self, name_or_id: str) -> PlayerRow:
        """The account whose name is ``name_or_id`` (compared as account names are: case
        and width do not matter), else the player whose id it is.

        Raises:
            NotFound: neither.
        """
        if not isinstance(name_or_id, str) or not storable(name_or_id) or not name_or_id:
            raise NotFound(N_("no player {player}"), player=repr(name_or_id))
        try:
            key: str | None = name_key(clean_name(name_or_id, MAX_NAME))
        except BadNameError:
            key = None
        with self.storage.session() as s:
            row = None
            if key is not None:
                row = s.scalars(select(PlayerRow).where(PlayerRow.name_key == key)).first()
            if row is None and len(name_or_id) <= 32:
                row = s.get(PlayerRow, name_or_id)
        if row is None:
            raise NotFound(N_("no player {player}"), player=repr(name_or_id))
        return row

    def get(self, player_id: str) -> PlayerRow:
        """The player with id ``player_id``.

        Raises:
            NotFound: there is none.
        """
        if not isinstance(player_id, str) or not storable(player_id) or len(player_id) > 32:
            raise NotFound(N_("no player {player}"), player=repr(player_id))
        with self.storage.session() as s:
            row = s.get(PlayerRow, player_id)
        if row is None:
            raise NotFound(N_("no player {player}"), player=repr(player_id))
        return row

    def status(self, player_id: str) -> dict[str, Any]:
        """:func:`status_json` of a player and ``open_reports`` (reports still open about
        it).

        Raises:
            NotFound: no such player.
        """
        row = self.get(player_id)
        with self.storage.session() as s:
            count = len(
                s.scalars(
                    select(ReportRow.id).where(
                        ReportRow.reported_id == row.id, ReportRow.status == "open"
                    )
                ).all()
            )
        return {**status_json(row), "open_reports": count}

    def search(self, text: str, limit: int = 20) -> list[dict[str, Any]]:
        """Players whose name starts with ``text`` (case-insensitively), or whose id it is:
        :func:`status_json` each, accounts first, at most ``limit``."""
        if not isinstance(text, str) or not storable(text) or not text.strip():
            return []
        needle = text.strip()[:MAX_NAME]
        escaped = needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        with self.storage.session() as s:
            rows = s.scalars(
                select(PlayerRow)
                .where(
                    or_(PlayerRow.id == needle, PlayerRow.name.ilike(escaped + "%", escape="\\"))
                )
                .order_by(PlayerRow.name_key.is_(None), PlayerRow.name, PlayerRow.id)
                .limit(limit)
            ).all()
        return [status_json(r) for r in rows]

    def admins(self) -> list[dict[str, Any]]:
        """Every admin: :func:`status_json`, by name."""
        with self.storage.session() as s:
            rows = s.scalars(
                select(PlayerRow).where(PlayerRow.role == ROLE_ADMIN).order_by(PlayerRow.name)
            ).all()
        return [status_json(r) for r in rows]

    # ------------------------------------------------------------------ roles

    def set_role(self, player_id: str, role: str, actor_id: str | None = None) -> dict[str, Any]:
        """Grant (``role`` ``"admin"``) or revoke (``"player"``) the admin role.

        Raises:
            BadRequest: an unknown role.
            NotFound: no such player.
            Conflict: a guest cannot be an admin; the player has the role already.
        """
        if role not in ROLES:
            raise BadRequest(f'"role" must be one of {", ".join(ROLES)}')
        row = self.get(player_id)
        if role == ROLE_ADMIN and row.name_key is None:
            raise Conflict(N_("only an account can be a moderator, not a guest"))
        if row.role == role:
            raise Conflict(N_("{name} has that role already"), name=row.name)
        with self.storage.engine.begin() as c:
            c.execute(update(PlayerRow).where(PlayerRow.id == row.id).values(role=role))
            audit(c, actor_id, "grant" if role == ROLE_ADMIN else "revoke", row.id, {"role": role})
        return self.status(row.id)

    # ------------------------------------------------------------------ acts

    def _target(self, player_id: str, actor_id: str | None) -> PlayerRow:
        """The player an act is about; from the web, neither the actor nor an admin.

        Raises:
            NotFound: no such player.
            Forbidden: the actor itself, or an admin (from the web).
        """
        row = self.get(player_id)
        if actor_id is not None:
            if row.id == actor_id:
                raise Forbidden(N_("a moderator cannot act on their own account"))
            if row.role == ROLE_ADMIN:
                raise Forbidden(
                    N_("another moderator is acted on only from the command line (splendor admin)")
                )
        return row

    def mute(
        self, player_id: str, minutes: Any, reason: Any = None, actor_id: str | None = None
    ) -> dict[str, Any]:
        """Mute a player for ``minutes`` (1 to :data:`MAX_MUTE_MINUTES`); returns its
        :meth:`status`.

        Raises:
            BadRequest: ``minutes`` not a whole number in range, a bad reason.
            NotFound, Forbidden: see :meth:`_target`.
        """
        if isinstance(minutes, bool) or not isinstance(minutes, int):
            raise BadRequest(f'"minutes" must be a whole number, got {type(minutes).__name__}')
        if not 1 <= minutes <= MAX_MUTE_MINUTES:
            raise BadRequest(
                N_("a mute lasts 1 to {max} minutes, got {minutes}"),
                max=MAX_MUTE_MINUTES,
                minutes=minutes,
            )
        why = clean_reason(reason)
        row = self._target(player_id, actor_id)
        until = utcnow() + timedelta(minutes=minutes)
        with self.storage.engine.begin() as c:
            c.execute(update(PlayerRow).where(PlayerRow.id == row.id).values(muted_until=until))
            audit(
                c,
                actor_id,
                "mute",
                row.id,
                {"minutes": minutes, "until": until.isoformat(), "reason": why},
            )
        return self.status(row.id)

    def unmute(self, player_id: str, actor_id: str | None = None) -> dict[str, Any]:
        """End a player's mute now; returns its :meth:`status`.

        Raises:
            NotFound: no such player.
        """
        row = self.get(player_id)
        with self.storage.engine.begin() as c:
            c.execute(update(PlayerRow).where(PlayerRow.id == row.id).values(muted_until=None))
            audit(c, actor_id, "unmute", row.id)
        return self.status(row.id)

    def ban(
        self, player_id: str, reason: Any = None, actor_id: str | None = None
    ) -> dict[str, Any]:
        """Ban a player: ``banned_at``, ``ban_reason``, its sessions deleted, their
        addresses' hashes banned (:data:`ADDRESS_BAN`), its open reports closed
        (resolution ``"banned"``). Returns its :meth:`status`.

        Raises:
            BadRequest: a bad reason.
            NotFound, Forbidden: see :meth:`_target`.
            Conflict: the player is banned already.
        """
        why = clean_reason(reason)
        row = self._target(player_id, actor_id)
        if row.banned_at is not None:
            raise Conflict(N_("{name} is banned already"), name=row.name)
        now = utcnow()
        with self.storage.engine.begin() as c:
            hashes = _session_addresses(c, row.id)
            sessions = c.execute(delete(SessionRow).where(SessionRow.player_id == row.id)).rowcount
            _ban_addresses(c, row.id, hashes, now)
            c.execute(
                update(PlayerRow)
                .where(PlayerRow.id == row.id)
                .values(banned_at=now, ban_reason=why or None)
            )
            closed = c.execute(
                update(ReportRow)
                .where(ReportRow.reported_id == row.id, ReportRow.status == "open")
                .values(status="closed", resolution="banned", resolved_by=actor_id, resolved_at=now)
            ).rowcount
            audit(
                c,
                actor_id,
                "ban",
                row.id,
                {
                    "reason": why,
                    "sessions": sessions,
                    "addresses": len(hashes),
                    "reports_closed": closed,
                },
            )
        return self.status(row.id)

    def unban(self, player_id: str, actor_id: str | None = None) -> dict[str, Any]:
        """Lift a player's ban (and its addresses'); returns its :meth:`status`.

        Raises:
            NotFound: no such player.
            Conflict: the player is not banned.
        """
        row = self.get(player_id)
        if row.banned_at is None:
            raise Conflict(N_("{name} is not banned"), name=row.name)
        with self.storage.engine.begin() as c:
            c.execute(
                update(PlayerRow)
                .where(PlayerRow.id == row.id)
                .values(banned_at=None, ban_reason=None)
            )
            c.execute(delete(BannedAddressRow).where(BannedAddressRow.player_id == row.id))
            audit(c, actor_id, "unban", row.id)
        return self.status(row.id)

    def rename(self, player_id: str, name: Any, actor_id: str | None = None) -> dict[str, Any]:
        """Give a player another name, cleaned and checked like any name (no account other
        than this one may hold it or a name confusable with it: :mod:`.names`); its game
        seats and chat lines show the new name. Returns its :meth:`status`.

        Raises:
            BadRequest: a bad name.
            NotFound, Forbidden: see :meth:`_target`.
            Conflict: another account holds the name, or one confusable with it.
        """
        from .accounts import name_taken  # accounts imports this module

        if not isinstance(name, str):
            raise BadRequest(f'"name" must be a string, got {type(name).__name__}')
        try:
            clean = clean_name(name, MAX_NAME)
        except BadNameError as e:
            raise BadRequest(e.text) from None
        row = self._target(player_id, actor_id)
        taken = Conflict(N_("the name {name} is taken; choose another"), name=repr(clean))
        values: dict[str, Any] = {"name": clean}
        if row.name_key is not None:
            values.update(name_key=name_key(clean), name_skeleton=name_skeleton(clean))
        try:
            with self.storage.engine.begin() as c:
                if name_taken(c, clean, exclude=row.id):
                    raise taken
                c.execute(update(PlayerRow).where(PlayerRow.id == row.id).values(**values))
                _rename_seats(c, row.id, clean)
                audit(c, actor_id, "rename", row.id, {"from": row.name, "to": clean})
        except IntegrityError:
            raise taken from None
        return self.status(row.id)

    # ------------------------------------------------------------------ the log

    def audit_log(self, before: Any = None, limit: int = AUDIT_PAGE) -> list[dict[str, Any]]:
        """The audit log, newest first: ``[{"id", "action", "actor", "target", "details",
        "at"}]`` (``actor`` None: the command line; players as :func:`player_json`), at
        most ``limit`` rows with ids below ``before`` (a whole number, or None: the newest).

        Raises:
            BadRequest: ``before`` is not a whole number (of at most 31 bits, as the ids).
        """
        query = select(AuditRow).order_by(AuditRow.id.desc()).limit(min(limit, AUDIT_PAGE))
        if before is not None:
            try:
                value = int(before)
                if abs(value) >= 2**31:  # past the databases' integer column
                    raise ValueError(value)
                query = query.where(AuditRow.id < value)
            except (TypeError, ValueError):
                raise BadRequest('"before" must be a whole number (an audit row id)') from None
        with self.storage.session() as s:
            rows = s.scalars(query).all()
            ids = {r.actor_id for r in rows} | {r.target_id for r in rows}
            players = _players(s, sorted(i for i in ids if i is not None))
        return [
            {
                "id": r.id,
                "action": r.action,
                "actor": player_json(players.get(r.actor_id or "")),
                "target": player_json(players.get(r.target_id or ""))
                or ({"id": r.target_id, "name": None, "account": None} if r.target_id else None),
                "details": r.details,
                "at": (aware(r.created_at) or r.created_at).isoformat(),
            }
            for r in rows
        ]


def _players(s: Any, ids: Sequence[str]) -> dict[str, PlayerRow]:
    """The player rows of ``ids``, by id."""
    if not ids:
        return {}
    return {p.id: p for p in s.scalars(select(PlayerRow).where(PlayerRow.id.in_(ids))).all()}


def _session_addresses(c: Connection, player_id: str) -> list[str]:
    """The distinct address hashes of a player's sessions."""
    rows = c.execute(
        select(SessionRow.address_hash)
        .where(SessionRow.player_id == player_id, SessionRow.address_hash.is_not(None))
        .distinct()
    ).all()
    return [r[0] for r in rows if r[0] is not None]


def _ban_addresses(c: Connection, player_id: str, hashes: list[str], now: datetime) -> None:
    """Add (or renew, for this player) the banned address hashes."""
    if not hashes:
        return
    c.execute(delete(BannedAddressRow).where(BannedAddressRow.address_hash.in_(hashes)))
    c.execute(
        insert(BannedAddressRow),
        [{"address_hash": h, "player_id": player_id, "created_at": now} for h in hashes],
    )


def _rename_seats(c: Connection, player_id: str, name: str) -> None:
    """The player's game seats and their chat lines take the new name."""
    c.execute(update(SeatRow).where(SeatRow.player_id == player_id).values(name=name))
    seats = select(SeatRow.game_id, SeatRow.seat).where(SeatRow.player_id == player_id)
    pairs = [(g, n) for g, n in c.execute(seats).all()]
    for game_id, seat in pairs:
        c.execute(
            update(ChatRow)
            .where(and_(ChatRow.game_id == game_id, ChatRow.seat == seat))
            .values(name=name)
        )


__all__ = [
    "ADDRESS_BAN",
    "AUDIT_PAGE",
    "MAX_MUTE_MINUTES",
    "MAX_REASON",
    "ROLES",
    "ROLE_ADMIN",
    "ROLE_PLAYER",
    "Banned",
    "Moderation",
    "address_hash",
    "audit",
    "aware",
    "check_active",
    "check_address",
    "check_can_chat",
    "check_log_in",
    "clean_reason",
    "is_banned",
    "note_session_address",
    "player_json",
    "require_admin",
    "role_of",
    "status_json",
]
