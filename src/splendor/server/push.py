"""Web Push (RFC 8030, 8291, 8292): the browsers a player subscribed, and the messages
sent to them through their push services.

The server's VAPID key pair (P-256) is made once and kept in ``server_keys``
(:func:`.server_keys.server_key`); browsers subscribe with its public key
(:meth:`Push.public_key`, ``GET /api/push/key``). A subscription is what the browser's
``PushManager.subscribe()`` gives (:meth:`Push.subscribe` checks it strictly). A message is
encrypted for the browser (``aes128gcm``) and signed (``Authorization: vapid t=...,k=...``)
by ``pywebpush``, which posts it with ``requests``: blocking, so the notifier sends from a
thread. A push service that answers 404 or 410 says the subscription is gone: it is
deleted.

The endpoints are URLs the browsers' push services chose: ``https://`` on a public host
(``http://`` and local hosts only with ``local_endpoints``, for a push service on the same
machine, as the tests run one: :func:`check_endpoint`). The server only ever posts
encrypted messages to them and never shows what they answer.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import ipaddress
import json
import logging
import threading
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from .community_rows import PushSubscriptionRow
from .errors import BadRequest
from .rows import utcnow
from .server_keys import server_key
from .storage import Storage

log = logging.getLogger("splendor.server.push")

VAPID_KEY = "vapid"
"""The name of the VAPID private key in ``server_keys`` (its 32 bytes, base64url)."""

MAX_ENDPOINT = 2048
"""The longest endpoint URL accepted."""

MAX_SUBSCRIPTIONS = 10
"""Subscriptions kept per player (browsers, devices); a new one past it drops the oldest."""

TIMEOUT = 10.0
"""Seconds for one push service's answer."""


def b64url(data: bytes) -> str:
    """``data`` in unpadded base64url (the encoding of Web Push keys)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """The bytes of unpadded (or padded) base64url ``text``.

    Raises:
        ValueError: not base64url.
    """
    if not isinstance(text, str) or not text.isascii():
        raise ValueError("not base64url text")
    clean = text.rstrip("=")
    try:
        return base64.b64decode(clean + "=" * (-len(clean) % 4), altchars=b"-_", validate=True)
    except binascii.Error as e:
        raise ValueError(f"not base64url ({e})") from None


def _new_vapid_key() -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


@dataclass(frozen=True)
class Subscription:
    """A browser's push subscription: its endpoint and its keys (base64url: the P-256
    public key ``p256dh`` and the 16-byte ``auth`` secret)."""

    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, Any]:
        """As ``pywebpush`` takes it (``subscription_info``)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def check_endpoint(endpoint: Any, local: bool = False) -> str:
    """``endpoint`` if it can be a push service's URL.

    Browsers' push services are ``https://`` URLs on public hosts. Unless ``local``, any
    other endpoint is refused, so that no player can make the server post to an address
    of its own machine or network (``http://``, ``localhost``, a ``.local`` or
    ``.internal`` name, a loopback, private, link-local or reserved IP address). With
    ``local`` (tests; a push service of your own), ``http://`` and those hosts are taken.

    Raises:
        BadRequest: not text, too long, not ``https://host/...`` (as above), or with a
            user name, a password, a fragment or a control character.
    """
    if not isinstance(endpoint, str) or not endpoint:
        raise BadRequest("endpoint is the push service's URL (text)")
    if len(endpoint) > MAX_ENDPOINT:
        raise BadRequest(f"endpoint has at most {MAX_ENDPOINT} characters")
    if any(ord(ch) < 33 or ord(ch) == 127 for ch in endpoint) or not endpoint.isascii():
        raise BadRequest("endpoint cannot hold spaces or control characters")
    parts = urlsplit(endpoint)
    try:
        _ = parts.port
    except ValueError:
        raise BadRequest("endpoint has a malformed port") from None
    if parts.scheme not in (("https", "http") if local else ("https",)) or not parts.hostname:
        raise BadRequest("endpoint is an https:// URL of a push service")
    if parts.username is not None or parts.password is not None or parts.fragment:
        raise BadRequest("endpoint cannot hold a user name, a password or a fragment")
    if not local and _internal_host(parts.hostname):
        raise BadRequest("endpoint is a push service's public address, not a local one")
    return endpoint


def _internal_host(hostname: str) -> bool:
    """Whether ``hostname`` names this machine or a local network (see
    :func:`check_endpoint`)."""
    host = hostname.lower().rstrip(".")
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal", ".lan")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return "." not in host  # a bare name resolves on the local network
    return not address.is_global


def check_subscription(body: Any, local: bool = False) -> Subscription:
    """The subscription of a browser's ``PushSubscription.toJSON()``: ``{"endpoint",
    "keys": {"p256dh", "auth"}, "expirationTime"?}`` (``local``: as
    :func:`check_endpoint`).

    Raises:
        BadRequest: a malformed endpoint (:func:`check_endpoint`), ``p256dh`` that is not
            a P-256 public key (65 bytes, uncompressed point on the curve), or ``auth``
            that is not 16 bytes, in base64url.
    """
    if not isinstance(body, dict):
        raise BadRequest("a push subscription is an object {endpoint, keys: {p256dh, auth}}")
    endpoint = check_endpoint(body.get("endpoint"), local)
    keys = body.get("keys")
    if not isinstance(keys, dict):
        raise BadRequest("keys is an object {p256dh, auth}")
    p256dh, auth = str(keys.get("p256dh") or ""), str(keys.get("auth") or "")
    try:
        point = unb64url(p256dh)
        if len(point) != 65 or point[0] != 4:
            raise ValueError("not an uncompressed point")
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise BadRequest("keys.p256dh is a P-256 public key (65 bytes, base64url)") from None
    try:
        secret = unb64url(auth)
    except ValueError:
        raise BadRequest("keys.auth is 16 bytes in base64url") from None
    if len(secret) != 16:
        raise BadRequest("keys.auth is 16 bytes in base64url")
    return Subscription(endpoint, b64url(point), b64url(secret))


def endpoint_hash(endpoint: str) -> str:
    """The SHA-256 of an endpoint (its unique key in ``push_subscriptions``)."""
    return hashlib.sha256(endpoint.encode("utf-8")).hexdigest()


class Push:
    """The push subscriptions of the players, and sending to them.

    Args:
        storage: the server's storage (schema migrated).
        contact: the address push services may write to about this server (the VAPID
            ``sub`` claim, ``mailto:...``).
        local_endpoints: take endpoints on ``http://`` and on local addresses
            (:func:`check_endpoint`; tests, a push service of your own).
    """

    def __init__(self, storage: Storage, contact: str, local_endpoints: bool = False) -> None:
        self.storage = storage
        self.contact = contact
        self.local_endpoints = local_endpoints
        self.sent = 0
        self._vapid: Any = None
        self._lock = threading.Lock()

    def vapid(self) -> Any:
        """The server's ``py_vapid.Vapid`` key pair (made and stored the first time;
        blocking)."""
        with self._lock:
            if self._vapid is None:
                from py_vapid import Vapid  # type: ignore[import-untyped]  # no type information

                raw = server_key(self.storage, VAPID_KEY, _new_vapid_key)
                self._vapid = Vapid.from_raw(raw.encode("ascii"))
            return self._vapid

    def public_key(self) -> str:
        """The VAPID public key as browsers take it (``applicationServerKey``: the
        uncompressed P-256 point, 65 bytes, base64url; blocking)."""
        point = self.vapid().public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def subscribe(self, player_id: str, body: Any) -> Subscription:
        """Keep the subscription ``body`` (:func:`check_subscription`) for ``player_id``
        (the same endpoint subscribed before, by anyone, becomes theirs with its new keys);
        past :data:`MAX_SUBSCRIPTIONS` the player's oldest is dropped (blocking).

        Raises:
            BadRequest: a malformed subscription (nothing is stored).
        """
        sub = check_subscription(body, self.local_endpoints)
        key = endpoint_hash(sub.endpoint)
        values = {"player_id": player_id, "p256dh": sub.p256dh, "auth": sub.auth}
        with self.storage.engine.begin() as c:
            c.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint_hash == key))
            c.execute(
                insert(PushSubscriptionRow),
                {
                    **values,
                    "endpoint": sub.endpoint,
                    "endpoint_hash": key,
                    "created_at": utcnow(),
                },
            )
            ids = c.scalars(
                select(PushSubscriptionRow.id)
                .where(PushSubscriptionRow.player_id == player_id)
                .order_by(PushSubscriptionRow.id.desc())
            ).all()
            if len(ids) > MAX_SUBSCRIPTIONS:
                old = ids[MAX_SUBSCRIPTIONS:]
                c.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.id.in_(old)))
        return sub

    def unsubscribe(self, player_id: str, endpoint: Any) -> bool:
        """Forget ``player_id``'s subscription of ``endpoint``; False if they had none
        (blocking).

        Raises:
            BadRequest: a malformed endpoint.
        """
        key = endpoint_hash(check_endpoint(endpoint, self.local_endpoints))
        with self.storage.engine.begin() as c:
            gone = c.execute(
                delete(PushSubscriptionRow).where(
                    PushSubscriptionRow.endpoint_hash == key,
                    PushSubscriptionRow.player_id == player_id,
                )
            ).rowcount
        return bool(gone)

    def subscriptions(self, player_id: str) -> list[Subscription]:
        """``player_id``'s subscriptions, oldest first (blocking)."""
        with self.storage.engine.begin() as c:
            rows = c.execute(
                select(
                    PushSubscriptionRow.endpoint,
                    PushSubscriptionRow.p256dh,
                    PushSubscriptionRow.auth,
                )
                .where(PushSubscriptionRow.player_id == player_id)
                .order_by(PushSubscriptionRow.id)
            ).all()
        return [Subscription(r.endpoint, r.p256dh, r.auth) for r in rows]

    def count(self, player_id: str) -> int:
        """How many browsers ``player_id`` subscribed (blocking)."""
        with self.storage.engine.begin() as c:
            return int(
                c.execute(
                    select(func.count())
                    .select_from(PushSubscriptionRow)
                    .where(PushSubscriptionRow.player_id == player_id)
                ).scalar_one()
            )

    def send(self, player_id: str, message: dict[str, Any], ttl: int = 3600) -> int:
        """Send ``message`` (JSON: ``{"title", "body", "url", "kind", "tag"}``, what the
        service worker shows) to every subscription of ``player_id``; returns how many
        push services accepted it. A subscription answered 404 or 410 is deleted; other
        failures are logged and kept in its ``last_error`` (blocking, seconds: a push
        service's answer).

        Args:
            player_id: the player.
            message: the notification (JSON object, a few hundred bytes).
            ttl: seconds the push service may keep it for an offline browser.
        """
        from pywebpush import (  # type: ignore[import-untyped]  # no type information
            WebPushException,
            webpush,
        )

        data = json.dumps(message, ensure_ascii=False)
        accepted = 0
        for sub in self.subscriptions(player_id):
            try:
                webpush(
                    sub.info(),
                    data=data,
                    vapid_private_key=self.vapid(),
                    vapid_claims={"sub": self.contact},
                    ttl=max(0, int(ttl)),
                    timeout=TIMEOUT,
                    headers={"Urgency": "high" if message.get("kind") == "deadline" else "normal"},
                )
                accepted += 1
                self.sent += 1
            except WebPushException as e:
                status = e.response.status_code if e.response is not None else None
                self._failed(sub, status, str(e).splitlines()[0])
            except Exception as e:  # unreachable, timed out, refused
                self._failed(sub, None, f"{type(e).__name__}: {e}")
        return accepted

    def _failed(self, sub: Subscription, status: int | None, why: str) -> None:
        key = endpoint_hash(sub.endpoint)
        try:
            with self.storage.engine.begin() as c:
                if status in (404, 410):
                    c.execute(
                        delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint_hash == key)
                    )
                else:
                    c.execute(
                        update(PushSubscriptionRow)
                        .where(PushSubscriptionRow.endpoint_hash == key)
                        .values(last_error=why[:500])
                    )
        except IntegrityError:  # pragma: no cover - a race with a new subscription
            pass
        host = urlsplit(sub.endpoint).hostname
        if status in (404, 410):
            log.info("push subscription at %s is gone (%s): deleted", host, status)
        else:
            log.warning("push to %s failed: %s", host, why)


def contact_of(sender: str) -> str:
    """The VAPID ``sub`` claim of a mail sender (``"Splendor <noreply@example.org>"`` →
    ``mailto:noreply@example.org``)."""
    address = sender.rsplit("<", 1)[-1].strip(" >")
    return f"mailto:{address}" if "@" in address else "mailto:noreply@localhost"


__all__ = [
    "MAX_SUBSCRIPTIONS",
    "Push",
    "Subscription",
    "b64url",
    "check_endpoint",
    "check_subscription",
    "contact_of",
    "endpoint_hash",
    "unb64url",
]
