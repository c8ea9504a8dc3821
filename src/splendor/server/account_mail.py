"""An account's e-mail address and the password reset by e-mail.

**The address** (optional, an account's only: a guest has none). Setting it
(:meth:`AccountMail.set_email`) stores it *unverified* and mails a verification link; the
link's page confirms it (:meth:`AccountMail.verify`). Only a verified address receives
password resets and notifications.

**Password reset.** :meth:`AccountMail.request_reset` takes a name or an address and
answers at once, the same whatever exists: the lookup, the token and the mail happen in a
background task, so neither the answer nor its time tells whether a name or an address is
known. A mail goes only to a **verified** address, at most :data:`RESET_PER_HOUR` a
player per hour (and every request counts against the client address's ``auth`` rate,
:class:`.rates.Limits`). :meth:`AccountMail.confirm_reset` sets the new password, spends
the token and logs out every session of the player but the one that reset it.

**Tokens** (``email_tokens``, :class:`.community_rows.EmailTokenRow`): 256-bit random
strings, single-use (``used_at``), with an expiry (:data:`VERIFY_TTL`,
:data:`RESET_TTL`); the table stores their SHA-256 only. The links carry them as
``?token=`` (the server's access log redacts that, :func:`.app.redact_tokens`, and the
page removes it from the address bar). A forged token is 404, a used one 409, an expired
one 410, and none changes anything.

The mails are in the player's language (``players.language``, taken from the request
when the address is set and at each log-in), from the ``server`` catalogue.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Row, delete, func, insert, select, update
from sqlalchemy.engine import Connection

from ..i18n import DEFAULT_LANGUAGE, LANGUAGES, messages
from .accounts import Accounts, Player, check_password
from .community_rows import EmailTokenRow
from .errors import N_, BadRequest, Conflict, Forbidden, NotFound, ServiceError
from .mailer import MAX_ADDRESS, Mail, Mailer, clean_address
from .names import name_key
from .protocol import MAX_NAME, BadNameError, clean_name
from .storage import PlayerRow, SessionRow, hash_token, storable, utcnow

log = logging.getLogger("splendor.server.accounts")

VERIFY = "verify"
RESET = "reset"

VERIFY_TTL = timedelta(hours=48)
"""How long a verification link works."""

RESET_TTL = timedelta(hours=1)
"""How long a password reset link works."""

VERIFY_PER_HOUR = 5
"""Verification mails a player may ask for in an hour (429 past it)."""

RESET_PER_HOUR = 3
"""Password reset mails a player receives at most in an hour (more requests are answered
as usual and send nothing)."""

RESET_ACCOUNTS = 3
"""Accounts at most that one reset request by address mails (one address may be verified
on several accounts)."""


class Gone(ServiceError):
    """A link that expired (410)."""

    status = 410


@dataclass(frozen=True)
class Outgoing:
    """A mail to send once the database work is done: the recipient, the player's name and
    language, the link's token and the token's purpose."""

    to: str
    name: str
    language: str
    token: str
    purpose: str


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=utcnow().tzinfo)


def _language(language: str | None) -> str:
    return language if language in LANGUAGES else DEFAULT_LANGUAGE


def _issue(c: Connection, player_id: str, purpose: str, email: str, ttl: timedelta) -> str:
    """Store a new token of ``purpose`` for ``player_id``; return it (only its hash is
    stored)."""
    token = secrets.token_urlsafe(32)
    now = utcnow()
    c.execute(
        insert(EmailTokenRow),
        {
            "token_hash": hash_token(token),
            "player_id": player_id,
            "purpose": purpose,
            "email": email,
            "created_at": now,
            "expires_at": now + ttl,
        },
    )
    return token


def _issued_lately(c: Connection, player_id: str, purpose: str) -> int:
    """Tokens of ``purpose`` made for ``player_id`` in the last hour."""
    return int(
        c.execute(
            select(func.count())
            .select_from(EmailTokenRow)
            .where(
                EmailTokenRow.player_id == player_id,
                EmailTokenRow.purpose == purpose,
                EmailTokenRow.created_at > utcnow() - timedelta(hours=1),
            )
        ).scalar_one()
    )


def _retire(c: Connection, player_id: str, purpose: str) -> None:
    """Spend every unused token of ``purpose`` of ``player_id``."""
    c.execute(
        update(EmailTokenRow)
        .where(
            EmailTokenRow.player_id == player_id,
            EmailTokenRow.purpose == purpose,
            EmailTokenRow.used_at.is_(None),
        )
        .values(used_at=utcnow())
    )


def _usable(c: Connection, token: Any, purpose: str) -> Row[Any]:
    """The unused, unexpired token row of ``token`` for ``purpose``.

    Raises:
        BadRequest: ``token`` is not a string. NotFound: no such token (forged, or made
            for another purpose). Conflict: used already. Gone: expired.
    """
    if not isinstance(token, str):
        raise BadRequest(f'"token" must be a string, got {type(token).__name__}')
    unknown = NotFound(N_("this link is not valid: ask for a new one"))
    if not token or len(token) > 128 or not storable(token):
        raise unknown
    row = c.execute(
        select(EmailTokenRow.__table__).where(
            EmailTokenRow.token_hash == hash_token(token), EmailTokenRow.purpose == purpose
        )
    ).first()
    if row is None:
        raise unknown
    if row.used_at is not None:
        raise Conflict(N_("this link was used already: ask for a new one"))
    if _aware(row.expires_at) <= utcnow():
        raise Gone(N_("this link has expired: ask for a new one"))
    return row


def _spend(c: Connection, row: Row[Any]) -> None:
    """Mark ``row`` used, once (a second request racing for it gets Conflict)."""
    done = c.execute(
        update(EmailTokenRow)
        .where(EmailTokenRow.token_hash == row.token_hash, EmailTokenRow.used_at.is_(None))
        .values(used_at=utcnow())
    )
    if done.rowcount != 1:
        raise Conflict(N_("this link was used already: ask for a new one"))


def check_address(value: Any) -> str:
    """``value`` as an e-mail address (:func:`.mailer.clean_address`).

    Raises:
        BadRequest: not a string, or not a single well-formed address (a line break, a
            control character, a lone surrogate, no ``@domain.tld``, longer than 254
            characters).
    """
    if not isinstance(value, str):
        raise BadRequest(f'"email" must be a string, got {type(value).__name__}')
    try:
        if not storable(value):
            raise ValueError("not storable")
        return clean_address(value)
    except ValueError:
        raise BadRequest(
            N_("this is not an e-mail address (one address, as name@example.org)")
        ) from None


def mail_for(outgoing: Outgoing, base_url: str) -> Mail:
    """The mail of ``outgoing`` in its player's language, its link on ``base_url`` (the
    site's address, as ``https://splendor.example.org``)."""
    say = messages(_language(outgoing.language), "server").gettext
    base = base_url.rstrip("/")
    if outgoing.purpose == VERIFY:
        link = f"{base}/verify-email?token={outgoing.token}"
        subject = say(N_("Confirm your e-mail address for Splendor"))
        body = say(
            N_(
                "Hello {name},\n\nto confirm this address for your Splendor account, open "
                "this link within {hours} hours:\n\n{link}\n\nIf you did not ask for it, "
                "ignore this message: the address will not be used."
            ),
            name=outgoing.name,
            hours=int(VERIFY_TTL.total_seconds() // 3600),
            link=link,
        )
    else:
        link = f"{base}/reset?token={outgoing.token}"
        subject = say(N_("Reset your Splendor password"))
        body = say(
            N_(
                "Hello {name},\n\nto choose a new password for your Splendor account, "
                "open this link within {minutes} minutes:\n\n{link}\n\nIf you did not ask "
                "for it, ignore this message: your password stays as it is."
            ),
            name=outgoing.name,
            minutes=int(RESET_TTL.total_seconds() // 60),
            link=link,
        )
    return Mail(outgoing.to, subject, body + "\n")


class AccountMail:
    """E-mail addresses and password resets (module docstring).

    Args:
        accounts: the app's players (its storage and password hasher).
        mailer: the app's :class:`.mailer.Mailer`.
    """

    def __init__(self, accounts: Accounts, mailer: Mailer) -> None:
        self.accounts = accounts
        self.storage = accounts.storage
        self.mailer = mailer
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ the address

    def _row(self, c: Connection, player_id: str) -> Row[Any]:
        row = c.execute(select(PlayerRow.__table__).where(PlayerRow.id == player_id)).first()
        if row is None or row.name_key is None:
            raise Forbidden(N_("make an account to add an e-mail address"))
        return row

    def _set_email(
        self, player_id: str, address: str, language: str
    ) -> tuple[Player, Outgoing | None]:
        key = address.casefold()
        outgoing = None
        with self.storage.engine.begin() as c:
            row = self._row(c, player_id)
            if row.email_key == key and row.email_verified_at is not None:
                c.execute(
                    update(PlayerRow)
                    .where(PlayerRow.id == player_id)
                    .values(email=address, language=language)
                )
            else:
                outgoing = self._new_address(c, row, address, language)
        return self.accounts.get(player_id), outgoing

    def _new_address(self, c: Connection, row: Row[Any], address: str, language: str) -> Outgoing:
        """Store ``address`` unverified on ``row``'s player, with a new verification token
        (the earlier ones retired); the mail to send. Raises ServiceError 429 past the
        hourly cap."""
        player_id, key = row.id, address.casefold()
        if _issued_lately(c, player_id, VERIFY) >= VERIFY_PER_HOUR:
            raise ServiceError(
                N_("at most {n} verification mails an hour: try again later"),
                429,
                n=VERIFY_PER_HOUR,
            )
        c.execute(
            update(PlayerRow)
            .where(PlayerRow.id == player_id)
            .values(email=address, email_key=key, email_verified_at=None, language=language)
        )
        _retire(c, player_id, VERIFY)
        token = _issue(c, player_id, VERIFY, key, VERIFY_TTL)
        return Outgoing(address, row.name, language, token, VERIFY)

    async def set_email(
        self, player: Player, value: Any, language: str, base_url: str
    ) -> tuple[Player, bool]:
        """Set ``player``'s address to ``value`` (unverified) and mail it a verification
        link (nothing is mailed when it is the player's verified address already).
        ``language``: the request's, remembered for the player's mails. Returns the player
        and whether a mail went out.

        Raises:
            BadRequest: not an e-mail address (:func:`check_address`).
            Forbidden: a guest (only accounts have addresses).
            ServiceError: 429, :data:`VERIFY_PER_HOUR` mails in the last hour already;
                503, the mail could not be handed to the SMTP server (the address is
                kept: resend later).
        """
        address = check_address(value)
        updated, outgoing = await asyncio.to_thread(
            self._set_email, player.id, address, _language(language)
        )
        if outgoing is not None:
            await self._send(outgoing, base_url)
        return updated, outgoing is not None

    def _pending(self, player_id: str) -> tuple[str, str, str | None]:
        with self.storage.session() as s:
            row = s.get(PlayerRow, player_id)
        if row is None or row.name_key is None:
            raise Forbidden(N_("make an account to add an e-mail address"))
        if row.email is None or row.email_verified_at is not None:
            raise Conflict(N_("there is no e-mail address waiting to be verified"))
        return row.email, row.name, row.language

    async def resend(self, player: Player, base_url: str) -> Player:
        """Mail a new verification link to ``player``'s unverified address (the earlier
        links stop working).

        Raises:
            Forbidden: a guest. Conflict: no address, or it is verified already.
            ServiceError: 429 or 503 as :meth:`set_email`.
        """
        address, _, language = await asyncio.to_thread(self._pending, player.id)
        updated, _sent = await self.set_email(player, address, _language(language), base_url)
        return updated

    def remove_email(self, player_id: str) -> Player:
        """Forget the player's address (and its unused links). Blocking.

        Raises:
            Forbidden: a guest.
        """
        with self.storage.engine.begin() as c:
            self._row(c, player_id)
            c.execute(
                update(PlayerRow)
                .where(PlayerRow.id == player_id)
                .values(email=None, email_key=None, email_verified_at=None)
            )
            _retire(c, player_id, VERIFY)
            _retire(c, player_id, RESET)
        return self.accounts.get(player_id)

    def verify(self, token: Any) -> str:
        """Confirm the address of a verification token; returns the address. Blocking.

        Raises:
            BadRequest, NotFound, Conflict, Gone: as :func:`_usable` (nothing changes).
            Conflict: the player has changed its address since the link was sent.
        """
        with self.storage.engine.begin() as c:
            row = _usable(c, token, VERIFY)
            player = c.execute(
                select(PlayerRow.__table__).where(PlayerRow.id == row.player_id)
            ).first()
            if player is None or player.email_key != row.email or player.email is None:
                raise Conflict(N_("this link is for an address that is not yours any more"))
            _spend(c, row)
            c.execute(
                update(PlayerRow)
                .where(PlayerRow.id == row.player_id)
                .values(email_verified_at=utcnow())
            )
            return str(player.email)

    # ------------------------------------------------------------------ password reset

    def _issue_resets(self, text: str) -> list[Outgoing]:
        """The reset mails for ``text`` (a name or an address): one per account found
        with a verified address, under its hourly cap. Blocking; never raises for an
        unknown name or address."""
        query = select(PlayerRow.__table__).where(
            PlayerRow.name_key.is_not(None),
            PlayerRow.email.is_not(None),
            PlayerRow.email_verified_at.is_not(None),
        )
        if "@" in text:
            try:
                query = query.where(PlayerRow.email_key == clean_address(text).casefold())
            except ValueError:
                return []
        else:
            try:
                query = query.where(PlayerRow.name_key == name_key(clean_name(text, MAX_NAME)))
            except BadNameError:
                return []
        out: list[Outgoing] = []
        with self.storage.engine.begin() as c:
            for row in c.execute(query.limit(RESET_ACCOUNTS)).all():
                if _issued_lately(c, row.id, RESET) >= RESET_PER_HOUR:
                    continue
                token = _issue(c, row.id, RESET, row.email_key or "", RESET_TTL)
                out.append(Outgoing(row.email or "", row.name, row.language or "", token, RESET))
        return out

    async def _resets(self, text: str, base_url: str) -> None:
        try:
            for outgoing in await asyncio.to_thread(self._issue_resets, text):
                await self._send(outgoing, base_url)
        except Exception:
            log.exception("a password reset request failed")

    def request_reset(self, value: Any, base_url: str) -> None:
        """Start the reset of the account named ``value`` or with the address ``value``
        (background task: the caller answers at once, the same whatever exists).

        Raises:
            BadRequest: ``value`` is not a string of 1 to 254 characters (nothing else is
                said about it).
        """
        if not isinstance(value, str):
            raise BadRequest(f'"name_or_email" must be a string, got {type(value).__name__}')
        text = value.strip()
        if not text or len(text) > MAX_ADDRESS or not storable(text):
            raise BadRequest(N_("give your account's name or e-mail address"))
        task = asyncio.get_running_loop().create_task(self._resets(text, base_url))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def confirm_reset(self, token: Any, password: Any, keep_session: str | None = None) -> Player:
        """Set the password of a reset token's account to ``password``, spend the token
        (and the player's other reset links), and log out every session of the player
        but ``keep_session``. Blocking (Argon2). Returns the player.

        Raises:
            BadRequest: a bad password (:func:`.accounts.check_password`) or token type.
            NotFound, Conflict, Gone: as :func:`_usable` (nothing changes).
            Conflict: the account's address changed since the link was mailed to it.
        """
        check_password(password)
        with self.storage.session() as s:
            _usable(s.connection(), token, RESET)
        pw_hash = self.accounts.hasher.hash(password)
        keep = hash_token(keep_session) if keep_session and storable(keep_session) else ""
        with self.storage.engine.begin() as c:
            row = _usable(c, token, RESET)
            player = c.execute(
                select(PlayerRow.__table__).where(PlayerRow.id == row.player_id)
            ).first()
            if player is None or player.name_key is None:
                raise NotFound(N_("this link is not valid: ask for a new one"))
            if player.email_key != row.email:  # mailed to an address the account left
                raise Conflict(N_("this link is for an address that is not yours any more"))
            _spend(c, row)
            _retire(c, row.player_id, RESET)
            c.execute(
                update(PlayerRow).where(PlayerRow.id == row.player_id).values(password_hash=pw_hash)
            )
            c.execute(
                delete(SessionRow).where(
                    SessionRow.player_id == row.player_id, SessionRow.token_hash != keep
                )
            )
        return self.accounts.get(row.player_id)

    # ------------------------------------------------------------------ sending

    async def _send(self, outgoing: Outgoing, base_url: str) -> None:
        """Hand ``outgoing`` to the mailer.

        Raises:
            ServiceError: 503, the SMTP server refused it or could not be reached.
        """
        try:
            await self.mailer.send(mail_for(outgoing, base_url))
        except Exception:
            log.warning("a %s mail could not be sent", outgoing.purpose, exc_info=True)
            raise ServiceError(
                N_("the mail could not be sent just now: try again in a few minutes"), 503
            ) from None


__all__ = [
    "RESET_ACCOUNTS",
    "RESET_PER_HOUR",
    "RESET_TTL",
    "VERIFY_PER_HOUR",
    "VERIFY_TTL",
    "AccountMail",
    "Gone",
    "Outgoing",
    "check_address",
    "mail_for",
]
