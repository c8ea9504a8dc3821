"""The FastAPI application: REST API, one WebSocket per game, and the browser client.

``create_app(database_url)`` builds an app that holds its own storage, hub, bot executor,
game service and rate-limit counters (``app.state``); nothing is global. Routes (errors
are ``{"detail": "<message>"}``: 400 malformed, 403 bad token / not your seat, 404 unknown
game, 409 not your turn / stale move / game over / record of an active game, 413 body too
large, 422 illegal action / idempotency key reused with another request, 429 too many
requests (with ``Retry-After``), 503 database unavailable (with ``Retry-After``)):

- ``GET /api/meta``: games (player counts, card tables) and bot levels.
- ``POST /api/games``: create a game (201, seat tokens and invite links). An
  ``Idempotency-Key`` header makes a retry return the same game and tokens.
- ``POST /api/games/mine``: ``{"tokens": [...]}``, the games those tokens hold seats in,
  newest first.
- ``GET /api/games/{id}``: the state message for the viewer of the ``Authorization:
  Bearer <seat token>`` header (none: spectator).
- ``POST /api/games/{id}/actions``: ``{"action", "move"}`` (``move`` required: the state's
  move number the client decided on), play a decision; the token in the header (or as
  ``"token"`` in the body).
- ``POST /api/games/{id}/explain``: ``{"action"}``, is it legal, and why not.
- ``GET /api/games/{id}/record``: the record (JSON attachment), finished games only.
- ``GET /api/games/{id}/replay``: every position of a finished game.
- ``POST /api/games/{id}/resign``: the seat (token or session) resigns
  (:meth:`.service.GameService.resign`); ``GET``/``POST /api/games/{id}/chat``: the table's
  chat (:mod:`.chat`; only seated players write).
- ``POST /api/games/{id}/analysis``: a seated player asks for the post-game analysis of a
  finished game (202 queued now, 200 the stored one; 403 not seated, 409 not over, 429 too
  many); ``GET /api/games/{id}/analysis``: ``{"status", "data", "error"}`` (status
  ``none`` while none is asked for); :mod:`.analysis_jobs`.
- ``WS /ws/games/{id}``: a spectator's state at once (the session's seat's for a logged-in
  player seated there); ``{"type": "auth", "token"}`` makes
  the connection its seat's (the seat's state follows); then state messages after every
  accepted move, and when a seat or a spectator comes or goes (``"spectators"``),
  ``{"type": "chat", "message"}``, and ``{"type": "analysis", "game_id", "status", "done",
  "total"}`` as a post-game analysis progresses. The client sends ``{"type": "action", "action",
  "move"}``, ``{"type": "chat", "text"}``, ``{"type": "resign"}`` or ``{"type": "ping"}``;
  a rejected message gets ``{"type": "error", "status", "message"}``
  and the connection stays open (a bad token too: 403, still a spectator). Close codes:
  4400 a token in the URL, 4404 unknown game, 1013 database unavailable or the client
  fell behind.
- ``GET /api/i18n/{lang}``, ``GET /api/i18n``: the client's catalogue of a language, or of
  the reader's (:mod:`.language`).
- ``GET /``, ``/games/{id}``, ``/games/{id}/replay``, ``/players/{id}``, ``/tables/{id}``,
  ``/leaderboard``, ``/howto/{game}`` (splendor, duel: how to play): the client's
  ``index.html``, its ``<html lang>`` the reader's language;
  ``/static/...``: the client's files (``src/splendor/web/``).

**Languages.** Refusals (``detail``, a WebSocket error's ``message``) and explanations of
illegal moves come in the reader's language: the ``lang`` cookie (a code of
``splendor.i18n.LANGUAGES``, set by the client's language switch), else the request's
``Accept-Language``, else English (:func:`.language.language_of`; :mod:`.errors` for how a
refusal is translated).

Seat tokens never travel in a URL: ``?token=`` is refused (400, WebSocket 4400), and
:func:`serve` redacts any ``token=`` from its logs (:class:`RedactTokens`). Every HTTP
response carries the security headers of :data:`SECURITY_HEADERS`. The limits (body and
WebSocket message sizes, JSON depth, rates per client address) are :class:`Limits`.

State messages are sent as JSON text built once per distinct viewer
(:meth:`.service.GameService.message_json`). :func:`serve` runs the app with uvicorn.

**Where the routes live.** :func:`create_app` only assembles the app; the routes are
``APIRouter`` objects, one module per resource: :mod:`.games_api` (``/api/games...``),
:mod:`.live_socket` (``WS /ws/games/{id}``), :mod:`.players_api`, :mod:`.tables_api` (the
lobby, rematches, ``WS /ws/lobby``), :mod:`.social_api` (my games, friends, blocks,
invitations), :mod:`.player_feed` (``WS /ws/me``), :mod:`.language` (``/api/i18n``) and
:mod:`.pages` (``/api/meta`` and the client's pages). What a route reads from its request (the app's
objects, the session's player, the seat token, the body) is :mod:`.request_context`; the limits and
rate counters :mod:`.rates`; the security headers and body-size guard :mod:`.middleware`;
how errors are answered :mod:`.answers`.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import gc
import json
import logging
import os
import re
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from . import answers
from . import bots as server_bots
from .account_api import account_router
from .accounts import Accounts
from .analysis_jobs import Analyses, AnalysisConfig
from .commands_api import commands_router
from .errors import ServiceError
from .events import Events
from .games_api import games_router
from .hub import Hub
from .language import i18n_router
from .live import Lifecycle
from .live_socket import send_loop, socket_router
from .mailer import Mailer
from .middleware import SECURITY_HEADERS, BodyTooLarge, Guard
from .moderation_api import moderation_router
from .notifications import Notifier, OriginMiddleware
from .notify import Listener
from .notify_api import notify_router
from .notify_delivery import Delivery
from .notify_mail import Unsubscribe
from .pages import meta_router, pages_router
from .player_feed import PlayerFeed, me_router
from .players_api import players_router
from .push import Push, contact_of
from .rates import Limits, RateLimited, RateLimiter
from .request_context import accounts_of, body_of, hit_rate, player_of, tables_of
from .service import GameService
from .social_api import social_router
from .storage import Storage
from .tables import Tables
from .tables_api import LobbyFeed, tables_router
from .tournament_service import Tournaments
from .tournaments_api import tournaments_router

log = logging.getLogger("splendor.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The browser client (``src/splendor/web/``: ``index.html`` and its modules)."""

_TOKEN_IN_TEXT = re.compile(r"(?i)(?<=[?&;])(token=)[^&;#\s\"']*")


def create_app(
    database_url: str | None = None,
    *,
    web_dir: str | Path | None = None,
    executor: Executor | None = None,
    search_executor: Executor | None = None,
    bot_workers: int | None = None,
    limits: Limits | None = None,
    lifecycle: Lifecycle | None = None,
    analysis: AnalysisConfig | None = None,
    mail: MailConfig | None = None,
) -> FastAPI:
    """Build the web app: its settings, its service (started by its lifespan), the
    middleware, the exception handlers (:mod:`.answers`) and the routers (:mod:`.games_api`,
    :mod:`.live_socket`, :mod:`.players_api`, :mod:`.tables_api`, :mod:`.language`,
    :mod:`.pages`).

    Args:
        database_url: SQLAlchemy URL (``sqlite:///file.db``,
            ``postgresql+psycopg://user@host/db``); None: a SQLite file in the user's data
            directory (:func:`.storage.default_database_url`). Migrated at start-up.
        web_dir: the client's folder (default :data:`WEB_DIR`).
        executor: where the quick bots (random, greedy, easy) think; default a spawn
            process pool of one process, owned (and shut down) by the app. Given
            executors are not shut down by the app.
        search_executor: where the searching bots (medium, hard, expert) think; default
            ``executor`` when one is given, else an owned pool of ``bot_workers`` processes.
        bot_workers: size of the default search pool (default: CPU count, at most 4).
        limits: sizes and rates (default :class:`Limits`).
        lifecycle: eviction, expiry and bot-turn retries (default
            :class:`.service.Lifecycle`).
        analysis: post-game analyses: the search budget per decision, how many run at
            once, the per-player limit (default :class:`.analysis_jobs.AnalysisConfig`:
            2,000 iterations a decision, seed 0, one at a time). They search in the
            ``search_executor`` pool.
        mail: where e-mail goes and the site's public address in its links (default
            :class:`MailConfig`: no SMTP server, mails are written to the log).

    Once started (schema migrated, unfinished games loaded), the app moves every object
    that exists to the garbage collector's permanent generation (:func:`gc.freeze`): the
    modules, engines and tables loaded at start-up live as long as the process, and
    without this a full collection scans them all (pauses of about 100-170 ms every few
    seconds under load, measured, which every game in flight waits for).
    """
    web = Path(web_dir) if web_dir is not None else WEB_DIR
    limits = limits if limits is not None else Limits()
    settings = _Settings(
        database_url,
        executor,
        search_executor,
        bot_workers,
        limits,
        lifecycle,
        analysis,
        mail if mail is not None else MailConfig(),
    )
    app = FastAPI(title="Splendor", lifespan=settings.lifespan)
    app.state.limits, app.state.rates = limits, RateLimiter(limits)
    app.add_middleware(Guard, max_body_bytes=limits.max_body_bytes)
    app.add_middleware(OriginMiddleware)  # the links of notifications (.notifications)
    app.add_exception_handler(ServiceError, answers.service_error)
    app.add_exception_handler(BodyTooLarge, answers.body_too_large)
    for kind in answers.DB_UNAVAILABLE:
        app.add_exception_handler(kind, answers.db_unavailable)
    app.include_router(i18n_router())
    app.include_router(commands_router())
    app.include_router(players_router(accounts_of, body_of, hit_rate))
    app.include_router(account_router())
    app.include_router(tables_router(tables_of, player_of, body_of, hit_rate, send_loop))
    app.include_router(meta_router())
    app.include_router(games_router())
    app.include_router(socket_router())
    app.include_router(me_router())
    app.include_router(social_router())
    app.include_router(moderation_router())
    app.include_router(notify_router(web))
    app.include_router(tournaments_router(player_of, body_of, hit_rate, send_loop))
    app.include_router(pages_router(web))
    app.mount("/static", StaticFiles(directory=web, check_dir=False), name="static")
    return app


@dataclasses.dataclass(frozen=True)
class MailConfig:
    """E-mail and notification settings (``splendor serve --smtp-url --mail-from --public-url``).

    Attributes:
        smtp_url: the SMTP server (:func:`.mailer.parse_smtp_url`); None: mails are
            written to the server's log.
        sender: the ``From`` of every mail.
        public_url: the site's address as its players reach it, for the links in mails
            (``https://splendor.example.org``); None: the address of the request that
            caused the mail.
        local_push_endpoints: take Web Push subscriptions whose endpoint is ``http://``
            or on a local address (tests, a push service of your own); off, only
            ``https://`` on a public host, so that no player can make the server post to
            its own network (:func:`.push.check_endpoint`).
    """

    smtp_url: str | None = None
    sender: str = "Splendor <noreply@localhost>"
    public_url: str | None = None
    local_push_endpoints: bool = False


@dataclasses.dataclass(frozen=True)
class _Settings:
    """What :func:`create_app` was given for the objects its lifespan makes."""

    database_url: str | None
    executor: Executor | None
    search_executor: Executor | None
    bot_workers: int | None
    limits: Limits
    lifecycle: Lifecycle | None
    analysis: AnalysisConfig | None
    mail: MailConfig

    def executors(self) -> tuple[Executor, Executor, list[Executor]]:
        """The quick and search bots' executors, and those of them the app owns."""
        owned: list[Executor] = []
        quick = self.executor
        if quick is None:
            quick = server_bots.make_executor(1)
            owned.append(quick)
        search = self.search_executor
        if search is None:
            if self.executor is not None:
                search = self.executor
            else:
                search = server_bots.make_executor(self.bot_workers)
                owned.append(search)
        return quick, search, owned

    @property
    def lifespan(self) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
        """The app's lifespan: makes its objects (``app.state``), starts them, and closes
        them when the app stops."""
        return asynccontextmanager(self._lifespan)

    async def _lifespan(self, app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(self.database_url)
        quick, search, owned = self.executors()
        hub = Hub()
        events = Events()
        service = GameService(
            storage, hub, server_bots.BotPools(quick, search), self.lifecycle, events=events
        )
        analyses = Analyses(service, self.analysis)
        tables = Tables(
            storage, service, lambda table_id: feed.changed(table_id), self.limits.min_clock
        )
        feed = LobbyFeed(hub, tables)
        listener = _listener(storage, service, feed)
        app.state.storage, app.state.hub, app.state.service = storage, hub, service
        app.state.events = events
        app.state.mail = self.mail
        app.state.mailer = Mailer(self.mail.smtp_url, self.mail.sender)
        notifier = _notifier(self.mail, storage, hub, events, app.state.mailer)
        tournaments = Tournaments(storage, service, hub, min_clock=self.limits.min_clock)
        app.state.notifier, app.state.tournaments = notifier, tournaments
        app.state.analyses, app.state.accounts = analyses, Accounts(storage)
        app.state.tables, app.state.listener = tables, listener
        app.state.player_feed = PlayerFeed(storage, hub, events)  # WS /ws/me's counts
        try:
            await service.start()
            await analyses.start()
            tournaments.start()
            if listener is not None:
                listener.start()
            gc.freeze()  # see create_app's docstring: no full-collection pauses
            yield
        finally:
            # this lifespan's own objects (app.state may hold a later lifespan's by now)
            await notifier.close()
            if listener is not None:
                await listener.close()
            await analyses.close()
            await tournaments.close()
            await service.close()
            for pool in owned:  # a decision under way ends within its time budget
                await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
            storage.close()


def _notifier(
    mail: MailConfig, storage: Storage, hub: Hub, events: Events, mailer: Mailer
) -> Notifier:
    """The notifications of the app (:mod:`.notifications`), subscribed to its events."""
    push = Push(storage, contact_of(mail.sender), mail.local_push_endpoints)
    delivery = Delivery(storage, hub, mailer, push, Unsubscribe(storage))
    return Notifier(events, delivery, mail.public_url)


def _listener(storage: Storage, service: GameService, feed: LobbyFeed) -> Listener | None:
    """The listener of other processes' changes on a PostgreSQL database (None on SQLite,
    which one process owns): tables to the lobby feed, games to the service."""
    if storage.engine.dialect.name != "postgresql":
        return None

    def handle(kind: str, key: str, data: Any) -> None:
        if kind == "table":
            feed.changed(key)
        else:
            service.on_notification(kind, key, data)

    return Listener(storage.url, handle, service.resync)


# ---------------------------------------------------------------------- serving


class RedactTokens(logging.Filter):
    """A logging filter that replaces the value of any ``token=`` query parameter in a
    record (its message and string arguments) with ``[redacted]``: uvicorn's access log
    and its WebSocket lines print the path with its query string."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact_tokens(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact_tokens(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {
                k: redact_tokens(v) if isinstance(v, str) else v for k, v in record.args.items()
            }
        return True


def redact_tokens(text: str) -> str:
    """``text`` with every ``token=VALUE`` after ``?``, ``&`` or ``;`` as ``token=[redacted]``."""
    return _TOKEN_IN_TEXT.sub(r"\1[redacted]", text)


def log_config() -> dict[str, Any]:
    """uvicorn's default logging configuration with :class:`RedactTokens` on its handlers."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_tokens"] = {"()": f"{__name__}.RedactTokens"}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact_tokens")
    return config


def serve(
    database_url: str | None = None,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    bot_workers: int | None = None,
    access_log: bool = True,
    log_level: str = "info",
    ws_per_message_deflate: bool = True,
    limits: Limits | None = None,
    lifecycle: Lifecycle | None = None,
    workers: int = 1,
    analysis: AnalysisConfig | None = None,
    mail: MailConfig | None = None,
) -> None:
    """Run the app with uvicorn until it is stopped (SIGINT/SIGTERM); blocks.

    uvicorn picks its fastest installed parts: the ``uvloop`` event loop, the
    ``httptools`` HTTP parser and the ``websockets`` (sans-I/O) WebSocket protocol.

    Args:
        database_url, bot_workers, lifecycle, analysis, mail: as :func:`create_app`.
        host, port: the address to listen on.
        access_log: log one line per HTTP request and WebSocket connection (off for load
            tests: it costs time on the event loop); seat tokens in URLs are redacted.
        log_level: uvicorn's log level (``"info"``, ``"warning"``, ...).
        ws_per_message_deflate: offer WebSocket compression (RFC 7692): smaller state
            messages (their move log repeats from one message to the next) for CPU time
            (about a sixth of the server's time when saturated on loopback; measured with
            ``benchmarks/bench_server.py``).
        limits: as :func:`create_app`; its ``max_ws_message_bytes`` is also uvicorn's
            ``ws_max_size`` (a bigger frame closes the connection with 1009).
        workers: server processes sharing the port (uvicorn's workers); above 1 the
            database must be PostgreSQL (:mod:`.notify`). Each process builds its app
            from the options passed in the environment (:func:`app_from_environment`).

    Raises:
        SystemExit: uvicorn could not start (the port is taken, for example).
    """
    import uvicorn

    limits = limits if limits is not None else Limits()
    target: Any = create_app(
        database_url,
        bot_workers=bot_workers,
        limits=limits,
        lifecycle=lifecycle,
        analysis=analysis,
        mail=mail,
    )
    extra: dict[str, Any] = {}
    if workers > 1:
        os.environ[SERVE_OPTIONS] = json.dumps(
            {
                "database_url": database_url,
                "bot_workers": bot_workers,
                "limits": dataclasses.asdict(limits),
                "lifecycle": None if lifecycle is None else dataclasses.asdict(lifecycle),
                "analysis": None
                if analysis is None
                else {
                    **dataclasses.asdict(analysis),
                    "settings": analysis.settings.to_dict(),
                },
                "mail": None if mail is None else dataclasses.asdict(mail),
            }
        )
        target = "splendor.server.app:app_from_environment"
        extra = {"factory": True, "workers": workers}
    uvicorn.run(
        target,
        **extra,
        host=host,
        port=port,
        log_level=log_level,
        access_log=access_log,
        ws_per_message_deflate=ws_per_message_deflate,
        ws_max_size=limits.max_ws_message_bytes,
        log_config=log_config(),
    )


SERVE_OPTIONS = "SPLENDOR_SERVE_OPTIONS"
"""The environment variable through which :func:`serve` passes its options to its worker
processes."""


def app_from_environment() -> FastAPI:
    """The app of one of :func:`serve`'s worker processes, built from the options in the
    environment variable :data:`SERVE_OPTIONS`."""
    options = json.loads(os.environ[SERVE_OPTIONS])
    lifecycle = options["lifecycle"]
    analysis = options.get("analysis")
    mail = options.get("mail")
    return create_app(
        options["database_url"],
        bot_workers=options["bot_workers"],
        limits=Limits(**options["limits"]),
        lifecycle=None if lifecycle is None else Lifecycle(**lifecycle),
        analysis=None if analysis is None else AnalysisConfig(**analysis),
        mail=None if mail is None else MailConfig(**mail),
    )


__all__ = [
    "SECURITY_HEADERS",
    "WEB_DIR",
    "Limits",
    "MailConfig",
    "app_from_environment",
    "RateLimited",
    "RateLimiter",
    "RedactTokens",
    "create_app",
    "log_config",
    "redact_tokens",
    "serve",
]
