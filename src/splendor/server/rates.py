"""What one client may send, and how often: :class:`Limits` (sizes, nesting, rates) and
the per-address counters that enforce the rates (:class:`RateLimiter`, the ``limits``
package's moving windows). A request over a rate is refused with :class:`RateLimited`
(429, with ``Retry-After``); see docs/server.md, "Limits and hostile input"."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from .errors import N_, ServiceError
from .protocol import MAX_JSON_DEPTH
from .table_forms import MIN_CLOCK


@dataclass(frozen=True)
class Limits:
    """What one client may send (see docs/server.md, "Limits and hostile input").

    Attributes:
        max_body_bytes: the largest request body (bytes); a larger one is refused with 413
            as soon as its ``Content-Length`` says so, or once that many bytes of a
            chunked body have arrived (it is never read whole).
        max_ws_message_bytes: the largest WebSocket message (bytes): uvicorn closes the
            connection on a bigger frame (1009, :func:`.app.serve`); under any other server
            the app answers an error message (413) and stays open.
        max_json_depth: the deepest nesting of arrays/objects in a body or a message (400).
        create_rate: game creations per client address, ``limits`` notation
            (``"30/minute"``, several with ``;``); None or ``"off"``: unlimited.
        action_rate: actions, explanations, game-list lookups, chat and analysis requests
            (REST) and WebSocket messages per client address; None or ``"off"``:
            unlimited.
        auth_rate: guest sessions, sign-ups and log-ins per client address (each costs an
            Argon2 hash; guessing passwords stays slow); None or ``"off"``: unlimited.
        min_clock: the shortest time bank (real time) or turn (turn-based) a table's clock
            may have, in seconds (default 60; tests and demonstrations use a few seconds).

    Raises:
        ValueError: a size below 1, or a rate the ``limits`` package cannot parse.
    """

    max_body_bytes: int = 64 * 1024
    max_ws_message_bytes: int = 64 * 1024
    max_json_depth: int = MAX_JSON_DEPTH
    create_rate: str | None = "30/minute"
    action_rate: str | None = "30/second"
    auth_rate: str | None = "10/minute;100/day"
    min_clock: int = MIN_CLOCK

    def __post_init__(self) -> None:
        for name in ("max_body_bytes", "max_ws_message_bytes", "max_json_depth", "min_clock"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
        for name in ("create_rate", "action_rate", "auth_rate"):
            if getattr(self, name) == "off":
                object.__setattr__(self, name, None)
            _parse_rate(name, getattr(self, name))

    @classmethod
    def unlimited_rates(cls, **kwargs: Any) -> Limits:
        """Limits without rate limits (load tests, benchmarks), sizes as given or default."""
        return cls(create_rate=None, action_rate=None, auth_rate=None, **kwargs)


def _parse_rate(name: str, rate: str | None) -> list[Any]:
    """The ``limits`` items of a rate string (empty for None). Raises ValueError."""
    if rate is None:
        return []
    import limits

    try:
        items = limits.parse_many(rate)
    except ValueError as e:
        raise ValueError(
            f"{name}: {rate!r} is not a rate such as '30/minute' or '5/second;100/hour' ({e})"
        ) from None
    if not items:
        raise ValueError(f"{name}: {rate!r} is not a rate such as '30/minute'")
    return items


class RateLimited(ServiceError):
    """Too many requests from one client address (429); ``retry_after`` in seconds.

    Args:
        message: the English template (see :class:`.errors.ServiceError`).
        retry_after: seconds until the next request may pass.
        fields: the template's fields.
    """

    status = 429

    def __init__(self, message: str, retry_after: int, /, **fields: Any) -> None:
        super().__init__(message, None, **fields)
        self.retry_after = retry_after


_RATE_MESSAGES = {
    "create": N_(
        "too many game creations from your address: at most {amount} per {period} s; "
        "try again in {wait} s"
    ),
    "action": N_(
        "too many actions and messages from your address: at most {amount} per {period} s; "
        "try again in {wait} s"
    ),
    "auth": N_(
        "too many guest sessions, sign-ups and log-ins from your address: at most {amount} "
        "per {period} s; try again in {wait} s"
    ),
}


class RateLimiter:
    """Moving-window counters per client address, in memory (the ``limits`` package);
    one per app.

    Args:
        limits: the rates (:attr:`Limits.create_rate`, :attr:`Limits.action_rate`).
    """

    def __init__(self, limits: Limits) -> None:
        from limits.storage import MemoryStorage
        from limits.strategies import MovingWindowRateLimiter

        self._items = {
            "create": _parse_rate("create_rate", limits.create_rate),
            "action": _parse_rate("action_rate", limits.action_rate),
            "auth": _parse_rate("auth_rate", limits.auth_rate),
        }
        self._limiter = (
            MovingWindowRateLimiter(MemoryStorage()) if any(self._items.values()) else None
        )

    def hit(self, kind: str, client: str) -> None:
        """Count one ``kind`` (``"create"``, ``"action"`` or ``"auth"``) request of ``client``.

        Raises:
            RateLimited: over a rate (the request must be refused; it was still counted).
        """
        items = self._items[kind]
        if self._limiter is None:
            return
        for item in items:
            if not self._limiter.hit(item, kind, client):
                reset = self._limiter.get_window_stats(item, kind, client).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                raise RateLimited(
                    _RATE_MESSAGES[kind],
                    wait,
                    amount=item.amount,
                    period=item.get_expiry(),
                    wait=wait,
                )


__all__ = ["Limits", "RateLimited", "RateLimiter"]
