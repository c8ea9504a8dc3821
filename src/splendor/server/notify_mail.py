"""The e-mail of a notification: its text in the player's language, the link to the game,
and the unsubscribe link (a token signed by the server, :class:`Unsubscribe`).

An unsubscribe token is ``{player id}.{signature}``: the signature is the first 16 bytes
of an HMAC-SHA256 of the player's id under a key the server made once and keeps
(``server_keys``), in base64url. It does not expire (a link in an old mail still works),
cannot be made for another player without the key, and only turns e-mail notifications
off. Every mail carries it twice: in its text, and in the ``List-Unsubscribe`` header
(with ``List-Unsubscribe-Post: List-Unsubscribe=One-Click``, RFC 8058: mail clients may
offer a one-click button that posts to it).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading

from ..i18n import messages
from .errors import N_, Forbidden, Text
from .mailer import Mail
from .notify_texts import Notice
from .server_keys import server_key
from .storage import Storage

UNSUBSCRIBE_KEY = "unsubscribe"
"""The name of the signing key in ``server_keys``."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class Unsubscribe:
    """Signs and checks unsubscribe tokens (module docstring).

    Args:
        storage: the server's storage, where the key is kept.
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._key: bytes | None = None
        self._lock = threading.Lock()

    def key(self) -> bytes:
        """The signing key (made and stored the first time; blocking)."""
        with self._lock:
            if self._key is None:
                text = server_key(self.storage, UNSUBSCRIBE_KEY, lambda: secrets.token_hex(32))
                self._key = text.encode("ascii")
            return self._key

    def _signature(self, player_id: str) -> str:
        mac = hmac.new(self.key(), b"email-notifications:" + player_id.encode(), hashlib.sha256)
        return _b64(mac.digest()[:16])

    def token(self, player_id: str) -> str:
        """The unsubscribe token of ``player_id`` (blocking the first time)."""
        return f"{player_id}.{self._signature(player_id)}"

    def player_of(self, token: str) -> str:
        """The player id a token was made for.

        Raises:
            Forbidden: a malformed or forged token.
        """
        player_id, dot, signature = token.rpartition(".")
        if (
            not dot
            or not player_id
            or len(token) > 200
            or not hmac.compare_digest(signature.encode(), self._signature(player_id).encode())
        ):
            raise Forbidden(N_("this unsubscribe link is not valid; change your settings instead"))
        return player_id


def join_url(base: str, path: str) -> str:
    """``path`` on the site ``base`` (a full URL is kept as it is)."""
    if path.startswith(("http://", "https://")):
        return path
    return base.rstrip("/") + "/" + path.lstrip("/")


def notice_mail(to: str, language: str, notice: Notice, base: str, unsubscribe_token: str) -> Mail:
    """The mail of ``notice`` to ``to`` in ``language`` (``"en"``, ``"fr"``, ``"nl"``):
    its title as the subject; its text, the link to its page, the unsubscribe link and
    the settings' link as the body; ``Content-Language`` and the unsubscribe headers.

    Args:
        to: the recipient (a verified address).
        language: the recipient's language.
        notice: what to say.
        base: the site's address (``https://splendor.example.org``).
        unsubscribe_token: the recipient's :meth:`Unsubscribe.token`.
    """
    t = messages(language, "server")
    link = join_url(base, notice.url)
    unsubscribe = join_url(base, f"/unsubscribe/{unsubscribe_token}")
    lines = [
        notice.body.translated(language),
        "",
        t.gettext("Open the game: {link}", link=link)
        if notice.url.startswith("/games/")
        else t.gettext("Open the page: {link}", link=link),
        "",
        "-- ",
        t.gettext("You get this e-mail because you turned on e-mail notifications on Splendor."),
        t.gettext("Turn off every e-mail notification: {link}", link=unsubscribe),
        t.gettext("Choose which ones you get: {link}", link=join_url(base, "/settings")),
    ]
    return Mail(
        to=to,
        subject=notice.title.translated(language),
        text="\n".join(lines) + "\n",
        headers=(
            ("Content-Language", language),
            ("List-Unsubscribe", f"<{unsubscribe}>"),
            ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
            ("Auto-Submitted", "auto-generated"),
        ),
    )


def unsubscribed_text(language: str) -> tuple[str, str]:
    """The title and sentence of the page an unsubscribe link opens, in ``language``."""
    return (
        Text(N_("E-mail notifications are off")).translated(language),
        Text(
            N_(
                "You will get no more e-mail notifications. You can turn them on again in "
                "your settings."
            )
        ).translated(language),
    )


__all__ = ["UNSUBSCRIBE_KEY", "Unsubscribe", "join_url", "notice_mail", "unsubscribed_text"]
