"""How the app answers what went wrong: a refusal of the service (:class:`.errors.
ServiceError`, its status and its sentence in the reader's language), a body over the size
limit (413), an unavailable database (503 with ``Retry-After``). :func:`.app.create_app`
installs these as the app's exception handlers; the WebSocket handler words the same
errors as messages (:mod:`.live_socket`)."""

from __future__ import annotations

import logging

from fastapi import Request
from fastapi.responses import JSONResponse
from sqlalchemy import exc as sa_exc

from .errors import N_, ServiceError, Text
from .language import language_of
from .middleware import too_large
from .rates import RateLimited

log = logging.getLogger("splendor.server")

DB_UNAVAILABLE: tuple[type[Exception], ...] = (
    sa_exc.OperationalError,
    sa_exc.InterfaceError,
    sa_exc.DisconnectionError,
    sa_exc.TimeoutError,
)
"""Database errors that mean "unreachable, down or overloaded" (answered 503), as
opposed to a bug (500)."""

DB_RETRY_AFTER_S = 5


def printable(message: str) -> str:
    """``message`` made encodable as UTF-8 (a lone surrogate that came from the client
    becomes a ``\\udXXX`` escape instead of breaking the response)."""
    return message.encode("utf-8", "backslashreplace").decode("utf-8")


async def service_error(request: Request, exc: Exception) -> JSONResponse:
    """A refusal: ``{"detail"}`` in the reader's language with its status (and
    ``Retry-After`` for 429 and 503)."""
    assert isinstance(exc, ServiceError)
    headers = {"Content-Language": language_of(request)}
    if isinstance(exc, RateLimited):
        headers["Retry-After"] = str(exc.retry_after)
    elif exc.status == 503:  # the database is unavailable (the service says so)
        headers["Retry-After"] = str(DB_RETRY_AFTER_S)
    return JSONResponse(
        {"detail": printable(exc.translated(language_of(request)))},
        status_code=exc.status,
        headers=headers,
    )


async def body_too_large(request: Request, _exc: Exception) -> JSONResponse:
    """A chunked body that grew past the limit: 413."""
    return too_large(request.app.state.limits.max_body_bytes)


async def db_unavailable(request: Request, exc: Exception) -> JSONResponse:
    """The database did not answer: 503 with ``Retry-After``; logged."""
    log.error("database unavailable (%s %s): %s", request.method, request.url.path, exc)
    text = Text(
        N_("the database is unavailable; nothing was changed, try again in {seconds} s"),
        {"seconds": DB_RETRY_AFTER_S},
    )
    return JSONResponse(
        {"detail": text.translated(language_of(request))},
        status_code=503,
        headers={"Retry-After": str(DB_RETRY_AFTER_S)},
    )


__all__ = [
    "DB_RETRY_AFTER_S",
    "DB_UNAVAILABLE",
    "body_too_large",
    "db_unavailable",
    "printable",
    "service_error",
]
