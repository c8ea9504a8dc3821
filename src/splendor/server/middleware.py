"""What wraps every HTTP request of the app: the security headers of every response and
the refusal of bodies over the size limit (:class:`Guard`, ASGI middleware)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi.responses import JSONResponse
from starlette.datastructures import MutableHeaders

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The client's policy: its own scripts, styles and connections only (it has no inline
script or style attribute), ``data:`` images (the favicon), never framed."""

DOCS_CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: https:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
"""FastAPI's API pages (``/docs``, ``/redoc``) load Swagger UI / ReDoc from a CDN with an
inline script: they get this looser policy, and are still never framed."""

DOCS_PATHS = ("/docs", "/redoc")

SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Headers on every HTTP response, with ``Content-Security-Policy`` (and ``Cache-Control:
no-store`` on ``/api/`` answers, which may hold seat tokens)."""


class BodyTooLarge(Exception):
    """A chunked request body grew past the limit while it was being read (answered 413
    by the app's exception handler, :func:`.answers.body_too_large`)."""


ASGIApp = Callable[
    [MutableMapping[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]],
    Awaitable[None],
]


class Guard:
    """ASGI middleware for HTTP requests: refuses bodies over ``max_body_bytes`` (413) by
    their ``Content-Length`` before reading, or by counting the bytes of a chunked body as
    they arrive (:class:`BodyTooLarge`, answered 413 by the app), and adds the security
    headers to every response.

    Args:
        app: the application it wraps.
        max_body_bytes: the largest request body (:attr:`.rates.Limits.max_body_bytes`).
    """

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send_secured = _secured(scope, send)
        limit = self.max_body_bytes
        declared = None
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                declared = value
        if declared is not None:
            if not declared.isdigit():
                await JSONResponse(
                    {"detail": "the Content-Length header must be a whole number of bytes"},
                    status_code=400,
                )(scope, receive, send_secured)
                return
            if int(declared) > limit:
                await too_large(limit)(scope, receive, send_secured)
                return
        received = 0

        async def receive_limited() -> Any:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge()
            return message

        await self.app(scope, receive_limited, send_secured)


def _secured(scope: MutableMapping[str, Any], send: Any) -> Callable[[Any], Awaitable[None]]:
    """``send`` adding the security headers (:data:`SECURITY_HEADERS`, the policy of the
    path, ``Cache-Control: no-store`` under ``/api/``) to the response's start."""
    path: str = scope.get("path", "")
    csp = DOCS_CONTENT_SECURITY_POLICY if path.startswith(DOCS_PATHS) else CONTENT_SECURITY_POLICY
    api = path.startswith("/api/")

    async def send_secured(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            headers = MutableHeaders(scope=message)
            headers.setdefault("Content-Security-Policy", csp)
            for name, value in SECURITY_HEADERS.items():
                headers.setdefault(name, value)
            if api:
                headers.setdefault("Cache-Control", "no-store")
        await send(message)

    return send_secured


def too_large(limit: int) -> JSONResponse:
    """The 413 answer to a body over ``limit`` bytes."""
    return JSONResponse(
        {"detail": f"the request body is too large: at most {limit} bytes"},
        status_code=413,
    )


__all__ = [
    "CONTENT_SECURITY_POLICY",
    "DOCS_CONTENT_SECURITY_POLICY",
    "SECURITY_HEADERS",
    "BodyTooLarge",
    "Guard",
    "too_large",
]
