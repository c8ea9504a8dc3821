"""The service's refusals, as HTTP statuses with a message saying what was wrong and what
is allowed (:class:`ServiceError` and its kinds), and what an unreachable database raises.

Every layer of the server (the game service, accounts, the lobby, the HTTP routes) raises
these; the app turns them into answers (``{"detail": message}`` with ``status``).
"""

from __future__ import annotations

from sqlalchemy.exc import InterfaceError, OperationalError


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


class Unavailable(ServiceError):
    """The database did not answer (503): nothing was changed; try again."""

    status = 503


DB_DOWN = (OperationalError, InterfaceError)
"""What SQLAlchemy raises when the database cannot be reached (or is locked too long)."""


def first_line(e: BaseException) -> str:
    """The first line of an exception's message (database errors run on for lines)."""
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0][:200]}" if text else type(e).__name__


__all__ = [
    "DB_DOWN",
    "BadRequest",
    "Conflict",
    "Forbidden",
    "Illegal",
    "NotFound",
    "ServiceError",
    "Unavailable",
    "first_line",
]
