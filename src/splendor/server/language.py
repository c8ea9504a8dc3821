"""The reader's language (one of :data:`splendor.i18n.LANGUAGES`) and the browser client's
catalogues.

A request's language is the cookie :data:`LANGUAGE_COOKIE` (``lang``, set by the client's
language switch) when it names one of :data:`splendor.i18n.LANGUAGES`, else the first
supported language of its ``Accept-Language`` header (:func:`splendor.i18n.negotiate`),
else English. It picks the language of the server's refusals (:mod:`.errors`), of the
explanations of illegal moves, and of the client's page (:func:`localized_page`).

Routes (:func:`i18n_router`):

- ``GET /api/i18n/{lang}``: the ``web`` catalogue of ``lang`` as JSON
  (:func:`splendor.i18n.catalogue_json`: ``{"language", "plural", "messages"}``), cacheable
  for an hour and then revalidated by its ``ETag`` (304 when unchanged); an unknown language
  is 404 with a message listing en, fr, nl.
- ``GET /api/i18n``: the catalogue of the request's language (``Vary: Cookie,
  Accept-Language``).
"""

from __future__ import annotations

import hashlib
import re

from fastapi import APIRouter, Request, Response
from starlette.requests import HTTPConnection

from ..i18n import LANGUAGES, catalogue_json, negotiate
from .errors import N_, NotFound

LANGUAGE_COOKIE = "lang"
"""The cookie the client's language switch sets (``path=/``, ``SameSite=Lax``, a year)."""

CATALOGUE_MAX_AGE = 3600
"""Seconds a browser may keep a catalogue without asking again (then it revalidates it by
its ``ETag``: catalogues change only with a new version)."""

_HTML_LANG = re.compile(r'<html lang="[^"]*"')


def language_of(connection: HTTPConnection) -> str:
    """The language of a request or WebSocket handshake: ``"en"``, ``"fr"`` or ``"nl"``
    (the ``lang`` cookie, else ``Accept-Language``, else English)."""
    chosen = connection.cookies.get(LANGUAGE_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return negotiate(connection.headers.get("accept-language"))


def localized_page(html: str, language: str) -> str:
    """The client's ``index.html`` text with ``<html lang="...">`` set to ``language`` (the
    client reads it to load its catalogue)."""
    return _HTML_LANG.sub(f'<html lang="{language}"', html, count=1)


def i18n_router() -> APIRouter:
    """The catalogue routes of the module docstring."""
    router = APIRouter(prefix="/api/i18n")

    def answer(request: Request, language: str, cache_control: str) -> Response:
        text = catalogue_json(language, "web")
        etag = '"' + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32] + '"'
        headers = {"Cache-Control": cache_control, "Content-Language": language, "ETag": etag}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(content=text, media_type="application/json", headers=headers)

    @router.get("")
    async def negotiated(request: Request) -> Response:
        response = answer(request, language_of(request), "private, no-cache")
        response.headers["Vary"] = "Cookie, Accept-Language"
        return response

    @router.get("/{language}")
    async def catalogue(request: Request, language: str) -> Response:
        if language not in LANGUAGES:
            raise NotFound(
                N_("no language {language}: the languages are {languages}"),
                language=repr(language[:20]),
                languages=", ".join(LANGUAGES),
            )
        return answer(request, language, f"public, max-age={CATALOGUE_MAX_AGE}")

    return router


__all__ = [
    "CATALOGUE_MAX_AGE",
    "LANGUAGE_COOKIE",
    "i18n_router",
    "language_of",
    "localized_page",
]
