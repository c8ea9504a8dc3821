"""The web app's server: FastAPI + WebSocket over the engine, storage through SQLAlchemy.

Modules, one job each:

- :mod:`.storage`   SQLAlchemy models and repository functions (SQLite file or PostgreSQL),
  schema migrations by Alembic (:mod:`.migrations`), applied at start-up.
- :mod:`.protocol`  the JSON messages: action JSON, the public observation, the state view.
- :mod:`.bots`      bot decisions in worker processes (off the event loop).
- :mod:`.service`   the game service: create, load (replay), act, schedule bots.
- :mod:`.hub`       WebSocket subscribers per game and per-seat broadcasts.
- :mod:`.analysis_jobs` post-game analyses: asked for, run in the bots' search pool,
  stored and pushed live, supervised.
- :mod:`.app`       :func:`create_app`, the FastAPI application (REST, WebSocket, client).

Start it with ``splendor serve`` (or ``make serve``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["create_app"]


def create_app(*args: Any, **kwargs: Any) -> FastAPI:
    """Lazy alias of :func:`splendor.server.app.create_app` (keeps ``import splendor.server``
    light)."""
    from .app import create_app as _create_app

    return _create_app(*args, **kwargs)
