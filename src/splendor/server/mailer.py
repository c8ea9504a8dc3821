"""Sending e-mail: verification links, password resets, notifications.

One :class:`Mailer` per app, configured by an SMTP URL (``splendor serve --smtp-url``):

- ``smtp://host:port`` (plain, as a local relay or a test server speaks it),
- ``smtp+starttls://user:password@host:587`` (STARTTLS after connecting),
- ``smtps://user:password@host:465`` (TLS from the start).

The messages go out through ``aiosmtplib`` (a maintained asyncio SMTP client). Without an
SMTP URL the mailer writes each message to the server's log instead (``make serve`` on a
developer's machine: the links can be followed from the log), and says so once.

Header injection cannot happen: every address goes through :func:`clean_address` and every
subject through :func:`clean_header` (no CR, LF or other control characters), and the
message is built by the standard library's :class:`email.message.EmailMessage`.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any
from urllib.parse import unquote, urlsplit

log = logging.getLogger("splendor.server.mail")

MAX_ADDRESS = 254
"""The longest e-mail address (RFC 5321's path limit less its brackets)."""

_ADDRESS = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,253}$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def clean_address(text: Any) -> str:
    """``text`` as an e-mail address (surrounding spaces removed).

    Raises:
        ValueError: not a string, longer than :data:`MAX_ADDRESS`, holding a control
            character (CR and LF included: no header injection), or not of the form
            ``local@domain`` with a dot in the domain.
    """
    if not isinstance(text, str):
        raise ValueError(f"an e-mail address is text, got {type(text).__name__}")
    address = text.strip()
    if _CONTROL.search(address):
        raise ValueError("an e-mail address cannot hold a line break or a control character")
    if len(address) > MAX_ADDRESS:
        raise ValueError(f"an e-mail address has at most {MAX_ADDRESS} characters")
    if not _ADDRESS.match(address) or "." not in address.rsplit("@", 1)[1]:
        raise ValueError("an e-mail address looks like name@example.org")
    try:
        local, domain = address.rsplit("@", 1)
        Address(username=local, domain=domain)
    except (ValueError, IndexError) as e:
        raise ValueError(f"not an e-mail address ({e})") from None
    return address


def clean_header(text: str) -> str:
    """``text`` for a header such as the subject: control characters (CR and LF
    included) replaced by spaces."""
    return _CONTROL.sub(" ", text).strip()


@dataclass(frozen=True)
class SmtpSettings:
    """Where and how to hand messages over (:func:`parse_smtp_url`)."""

    hostname: str
    port: int
    username: str | None = None
    password: str | None = None
    use_tls: bool = False
    start_tls: bool = False


def parse_smtp_url(url: str) -> SmtpSettings:
    """The settings of an SMTP URL (module docstring).

    Raises:
        ValueError: another scheme, or no host.
    """
    parts = urlsplit(url)
    schemes = {
        "smtp": (25, False, False),
        "smtp+starttls": (587, False, True),
        "smtps": (465, True, False),
    }
    if parts.scheme not in schemes:
        raise ValueError(
            f"an SMTP URL starts with {', '.join(s + '://' for s in schemes)}; got {url!r}"
        )
    if not parts.hostname:
        raise ValueError(f"an SMTP URL names a host, as smtp://localhost:25; got {url!r}")
    port, tls, starttls = schemes[parts.scheme]
    return SmtpSettings(
        hostname=parts.hostname,
        port=parts.port or port,
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        use_tls=tls,
        start_tls=starttls,
    )


@dataclass(frozen=True)
class Mail:
    """One message: the recipient, the subject, the plain-text body, and more headers
    (``List-Unsubscribe`` for a notification, say)."""

    to: str
    subject: str
    text: str
    headers: tuple[tuple[str, str], ...] = ()


class Mailer:
    """Hands messages to an SMTP server (or to the log without one).

    Args:
        smtp_url: the SMTP server (:func:`parse_smtp_url`), or None: log the messages.
        sender: the ``From`` address (``"Splendor <noreply@example.org>"``).
        timeout: seconds for one message's whole SMTP exchange.

    Attributes:
        sent: messages handed over so far.

    Raises:
        ValueError: a malformed ``smtp_url`` or ``sender``.
    """

    def __init__(
        self,
        smtp_url: str | None = None,
        sender: str = "Splendor <noreply@localhost>",
        timeout: float = 30.0,
    ) -> None:
        self.settings = parse_smtp_url(smtp_url) if smtp_url else None
        if _CONTROL.search(sender):
            raise ValueError("the sender address cannot hold a control character")
        self.sender = sender
        self.timeout = timeout
        self.sent = 0
        self._warned = False

    @property
    def enabled(self) -> bool:
        """Whether messages go to an SMTP server (not only to the log)."""
        return self.settings is not None

    def build(self, mail: Mail) -> EmailMessage:
        """The message of ``mail`` (UTF-8 plain text).

        Raises:
            ValueError: a malformed recipient (:func:`clean_address`) or extra header.
        """
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = clean_address(mail.to)
        message["Subject"] = clean_header(mail.subject)
        domain = self.sender.rsplit("@", 1)[-1].strip(" >") or "localhost"
        message["Message-ID"] = make_msgid(domain=domain)
        message.set_content(mail.text)  # first: it drops the Content-* headers set before
        for name, value in mail.headers:
            if _CONTROL.search(name) or _CONTROL.search(value):
                raise ValueError(f"header {name!r} cannot hold a control character")
            message[name] = value
        return message

    async def send(self, mail: Mail) -> None:
        """Hand ``mail`` over (or log it without an SMTP server).

        Raises:
            ValueError: a malformed recipient or header (nothing is sent).
            aiosmtplib.SMTPException, OSError: the SMTP server refused it or could not be
                reached.
        """
        message = self.build(mail)
        if self.settings is None:
            if not self._warned:
                log.warning("no --smtp-url: e-mail is written to this log instead of being sent")
                self._warned = True
            log.info("e-mail to %s: %s\n%s", message["To"], message["Subject"], mail.text)
            self.sent += 1
            return
        import aiosmtplib

        s = self.settings
        await aiosmtplib.send(
            message,
            hostname=s.hostname,
            port=s.port,
            username=s.username,
            password=s.password,
            use_tls=s.use_tls,
            start_tls=s.start_tls,
            timeout=self.timeout,
        )
        self.sent += 1


__all__ = [
    "MAX_ADDRESS",
    "Mail",
    "Mailer",
    "SmtpSettings",
    "clean_address",
    "clean_header",
    "parse_smtp_url",
]
