"""The service's refusals, as HTTP statuses with a message saying what was wrong and what
is allowed (:class:`ServiceError` and its kinds), and what an unreachable database raises.

Every layer of the server (the game service, accounts, the lobby, the HTTP routes) raises
these; the app turns them into answers (``{"detail": message}`` with ``status``).

**Languages.** A refusal keeps its sentence as an English template and its fields
(:class:`Text`): ``BadRequest(N_("no table {table}"), table="x")``. Its
:attr:`ServiceError.message` is the English sentence (logs, API clients); the app's
exception handlers answer :meth:`ServiceError.translated` in the reader's language (the
``lang`` cookie, else ``Accept-Language``: :func:`.language.language_of`), from the
``server`` catalogue (``locale/<lang>/LC_MESSAGES/server.po``). :func:`N_` marks a template
for extraction (``make messages MESSAGE_DOMAINS=server``). A field may itself be a
:class:`Text` (or anything with a ``translated(language)`` method, such as an explanation
of an illegal move): it is put in the same language.

The refusals a person can meet through the web client (accounts, tables, the lobby, chat,
game actions, rematch, rate limits, an unavailable database) are marked and translated.
Those only a programmer calling the API by hand can meet (a JSON field of the wrong type, a
malformed header, an unknown WebSocket message) are plain f-strings and stay English in
every language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from sqlalchemy.exc import InterfaceError, OperationalError

from ..i18n import DEFAULT_LANGUAGE, messages

DOMAIN = "server"
"""The catalogue of the server's sentences (:data:`splendor.i18n.DOMAINS`)."""


def N_(message: str) -> str:
    """``message`` as it is: marks an English template for the ``server`` catalogue (Babel
    extracts ``N_`` calls); it is translated when shown (:meth:`Text.translated`)."""
    return message


@runtime_checkable
class Localized(Protocol):
    """Something that can be said in a language (``"en"``, ``"fr"``, ``"nl"``)."""

    def translated(self, language: str) -> str:
        """The text in ``language``."""
        ...


@dataclass(frozen=True)
class Text:
    """A sentence of the server's: an English ``str.format`` template and its fields,
    said in a reader's language when shown.

    Attributes:
        template: the English sentence, ``{name}`` fields included (a template without
            fields is shown as it is: its braces need no doubling).
        fields: the values of the fields; a :class:`Localized` value is translated too.
    """

    template: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def translated(self, language: str = DEFAULT_LANGUAGE) -> str:
        """The sentence in ``language`` (its translation in the ``server`` catalogue, or
        the English template when it has none), fields filled in.

        Raises:
            ValueError: an unknown language.
            KeyError: a field of the template has no value.
        """
        values = {
            k: v.translated(language) if isinstance(v, Localized) else v
            for k, v in self.fields.items()
        }
        return messages(language, DOMAIN).gettext(self.template, **values)

    def __str__(self) -> str:
        return self.translated(DEFAULT_LANGUAGE)


class ServiceError(Exception):
    """A rejected request: ``status`` is the HTTP status, the message says what was wrong
    (and what is allowed).

    Args:
        message: the English template (marked with :func:`N_` when a person may meet it),
            or a :class:`Text`.
        status: the HTTP status, when not the class's.
        fields: the template's fields (see :class:`Text`).
    """

    status = 400

    def __init__(self, message: str | Text, status: int | None = None, /, **fields: Any) -> None:
        self.text = message if isinstance(message, Text) else Text(message, fields)
        super().__init__(str(self.text))
        if status is not None:
            self.status = status

    @property
    def message(self) -> str:
        """The sentence in English."""
        return str(self.args[0])

    def translated(self, language: str) -> str:
        """The sentence in ``language`` (English where the catalogue has no translation).

        Raises:
            ValueError: an unknown language.
        """
        return self.text.translated(language)


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
    "DOMAIN",
    "BadRequest",
    "Conflict",
    "Forbidden",
    "Illegal",
    "Localized",
    "N_",
    "NotFound",
    "ServiceError",
    "Text",
    "Unavailable",
    "first_line",
]
