"""``splendor serve``: the web app (:mod:`splendor.server`); needs the ``web`` extra."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

import typer

from .common import app, usage_error
from .extras import require

_Host = Annotated[
    str, typer.Option("--host", help="Address to listen on (0.0.0.0: every interface).")
]
_Port = Annotated[int, typer.Option("--port", help="TCP port.")]
_DatabaseUrl = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        help="SQLAlchemy database URL: sqlite:///path/games.db or "
        "postgresql+psycopg://user:password@host/db. "
        "Default: a SQLite file in your data directory.",
    ),
]
_BotWorkers = Annotated[
    int | None,
    typer.Option(
        "--bot-workers",
        help="Processes in which the searching bots (medium, hard, expert) think (default: "
        "CPU count, at most 4); random, greedy and easy think in one more process.",
    ),
]
_CreateRate = Annotated[
    str,
    typer.Option(
        "--create-rate",
        help="Games one client address may create (N/second|minute|hour|day, several joined "
        "with ';'); 'off': no limit.",
    ),
]
_ActionRate = Annotated[
    str,
    typer.Option(
        "--action-rate",
        help="Actions, explanations, game-list lookups and WebSocket messages per client "
        "address; 'off': no limit.",
    ),
]
_MinClock = Annotated[
    int,
    typer.Option(
        "--min-clock",
        help="The shortest time bank (real time) or turn (turn-based) a table's clock may "
        "have, in seconds.",
    ),
]
_EvictIdle = Annotated[
    float,
    typer.Option(
        "--evict-idle",
        help="Seconds after which an idle unfinished game (nobody connected, no request, no bot "
        "thinking) leaves memory; it is loaded again at its next request.",
    ),
]
_ExpireUnstarted = Annotated[
    float,
    typer.Option(
        "--expire-unstarted-days",
        help="Days after which a game with no move is deleted; 0: never.",
    ),
]
_ExpireAbandoned = Annotated[
    float,
    typer.Option(
        "--expire-abandoned-days",
        help="Days without a move after which a game waiting on a person ends as that person's "
        "forfeit (kept, with its moves and record); 0: never.",
    ),
]
_Workers = Annotated[
    int,
    typer.Option(
        "--workers",
        help="Server processes sharing the port (more than 1 needs a PostgreSQL "
        "--database-url: they tell each other every move with LISTEN/NOTIFY).",
    ),
]
_AnalysisIterations = Annotated[
    int,
    typer.Option(
        "--analysis-iterations",
        help="Post-game analysis: search iterations per decision (at 2000: about 0.1 s "
        "a Duel decision, 0.4 s a classic one).",
    ),
]
_AnalysesAtOnce = Annotated[
    int,
    typer.Option(
        "--analyses-at-once",
        help="Post-game analyses searched at once by a server process (the others wait).",
    ),
]
_SmtpUrl = Annotated[
    str | None,
    typer.Option(
        "--smtp-url",
        help="Where e-mail goes (verification, password resets, notifications): "
        "smtp://host:25, smtp+starttls://user:password@host:587 or "
        "smtps://user:password@host:465. Default: mails are written to the log.",
    ),
]
_MailFrom = Annotated[
    str,
    typer.Option(
        "--mail-from", help="The From of every mail, as 'Splendor <noreply@example.org>'."
    ),
]
_PublicUrl = Annotated[
    str | None,
    typer.Option(
        "--public-url",
        help="The site's address as players reach it (https://splendor.example.org), for the "
        "links in mails and push notifications. Default: the address of the request that "
        "caused them (set it on a public server).",
    ),
]


@dataclass(frozen=True)
class ServeOptions:
    """One ``splendor serve``'s options, as given on the command line."""

    host: str
    port: int
    database_url: str | None
    bot_workers: int | None
    create_rate: str
    action_rate: str
    min_clock: int
    evict_idle: float
    expire_unstarted_days: float
    expire_abandoned_days: float
    workers: int
    analysis_iterations: int
    analyses_at_once: int
    smtp_url: str | None = None
    mail_from: str = "Splendor <noreply@localhost>"
    public_url: str | None = None


@app.command()
def serve(
    host: _Host = "127.0.0.1",
    port: _Port = 8000,
    database_url: _DatabaseUrl = None,
    bot_workers: _BotWorkers = None,
    create_rate: _CreateRate = "30/minute",
    action_rate: _ActionRate = "30/second",
    min_clock: _MinClock = 60,
    evict_idle: _EvictIdle = 600.0,
    expire_unstarted_days: _ExpireUnstarted = 7.0,
    expire_abandoned_days: _ExpireAbandoned = 30.0,
    workers: _Workers = 1,
    analysis_iterations: _AnalysisIterations = 2000,
    analyses_at_once: _AnalysesAtOnce = 1,
    smtp_url: _SmtpUrl = None,
    mail_from: _MailFrom = "Splendor <noreply@localhost>",
    public_url: _PublicUrl = None,
) -> None:
    """Serve the web app: the API, a WebSocket per game and the browser client.

    Open http://HOST:PORT/ to create a game and share its invite links. Games are stored
    in the database (schema migrated at start-up); a restarted server resumes every game.
    """
    options = ServeOptions(**locals())
    with require("web", "serve"):
        from ..server.app import serve as serve_app

        _check(options)
        settings = _settings(options)
        typer.echo(f"splendor web app on http://{host}:{port}/")
        serve_app(
            database_url, host=host, port=port, bot_workers=bot_workers, workers=workers, **settings
        )


def _check(o: ServeOptions) -> None:
    """Exit with code 2 and the reason on stderr when an option is out of range (the
    port, the process counts, the expiry days)."""
    if not 0 < o.port < 65536:
        usage_error(f"--port must be 1..65535, got {o.port}")
    if o.workers < 1:
        usage_error(f"--workers must be 1 or more, got {o.workers}")
    if o.workers > 1 and not (o.database_url or "").startswith(("postgresql", "postgres:")):
        usage_error(
            "--workers above 1 needs a PostgreSQL --database-url (SQLite serves one process)"
        )
    if o.bot_workers is not None and o.bot_workers < 1:
        usage_error(f"--bot-workers must be 1 or more, got {o.bot_workers}")
    for flag, days in (
        ("--expire-unstarted-days", o.expire_unstarted_days),
        ("--expire-abandoned-days", o.expire_abandoned_days),
    ):
        if not days >= 0:
            usage_error(f"{flag} must be 0 (never) or a positive number of days, got {days}")


def _settings(o: ServeOptions) -> dict[str, Any]:
    """The server's ``limits``, ``lifecycle`` and ``analysis`` settings; a bad one: the
    reason on stderr, exit code 2."""
    from ..analysis import Settings
    from ..server.analysis_jobs import AnalysisConfig
    from ..server.app import Limits
    from ..server.service import DAY, Lifecycle

    try:
        return {
            "mail": _mail(o),
            "limits": Limits(
                create_rate=o.create_rate, action_rate=o.action_rate, min_clock=o.min_clock
            ),
            "lifecycle": Lifecycle(
                evict_idle=o.evict_idle,
                expire_unstarted=o.expire_unstarted_days * DAY or None,
                expire_abandoned=o.expire_abandoned_days * DAY or None,
            ),
            "analysis": AnalysisConfig(
                settings=Settings(iterations=o.analysis_iterations), running=o.analyses_at_once
            ),
        }
    except ValueError as e:
        usage_error(str(e))


def _mail(o: ServeOptions) -> Any:
    """The server's :class:`~splendor.server.app.MailConfig`.

    Raises:
        ValueError: a malformed SMTP URL, sender or public URL.
    """
    from urllib.parse import urlsplit

    from ..server.app import MailConfig
    from ..server.mailer import parse_smtp_url

    if o.smtp_url is not None:
        parse_smtp_url(o.smtp_url)
    address = o.mail_from.rsplit("<", 1)[-1].rstrip(" >")
    if not address.isprintable() or " " in address or "@" not in address:
        raise ValueError(
            f"--mail-from is an address, as 'Splendor <noreply@example.org>'; got {o.mail_from!r}"
        )
    if o.public_url is not None:
        parts = urlsplit(o.public_url)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
            raise ValueError(
                f"--public-url is the site's address, as https://splendor.example.org; "
                f"got {o.public_url!r}"
            )
    return MailConfig(
        smtp_url=o.smtp_url,
        sender=o.mail_from,
        public_url=o.public_url.rstrip("/") if o.public_url else None,
    )


__all__ = ["ServeOptions", "serve"]
