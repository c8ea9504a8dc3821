"""The web app's server: FastAPI + WebSocket over the engine, storage through SQLAlchemy.

Modules, one job each (``docs/layout.md`` lists every one with its first line):

- The application: :mod:`.app` (:func:`create_app` only assembles: settings, the service,
  :mod:`.middleware`, the exception handlers of :mod:`.answers`, the routers), one router per
  resource (:mod:`.games_api`, :mod:`.players_api`, :mod:`.tables_api`, :mod:`.pages`), the
  game's WebSocket (:mod:`.live_socket`), what a route reads from a request
  (:mod:`.request_context`), rate limits (:mod:`.rates`).
- A live game, on the model of lichess's round module: :mod:`.service` (``GameService``, the
  entry point, delegating to the parts), :mod:`.service_context` (what the parts share),
  :mod:`.proxy` (games in memory: load, sync between processes, evict), :mod:`.creation`,
  :mod:`.seats`, :mod:`.moves`, :mod:`.finisher` (resign, leave, forfeit),
  :mod:`.bot_turns`, :mod:`.timers` and :mod:`.clocks`, :mod:`.expiry`,
  :mod:`.rating_updates` and :mod:`.ratings`, :mod:`.views` (the JSON each viewer receives),
  :mod:`.live` (a loaded game), :mod:`.hub` (subscribers), :mod:`.writer` (group commit),
  :mod:`.bots` (bot decisions in worker processes), :mod:`.notify` (several processes).
- Storage: :mod:`.storage` (``Storage``, composed of :mod:`.game_writes` and
  :mod:`.game_queries` over the tables of :mod:`.rows`), schema migrations by Alembic
  (:mod:`.migrations`), applied at start-up; :mod:`.accounts`, :mod:`.chat`,
  :mod:`.rated_games`.
- The lobby: :mod:`.tables` (rematches, quick pairing) over :mod:`.table_seating` and
  :mod:`.table_forms`.
- Words: :mod:`.protocol` (the JSON messages, the public observation), :mod:`.errors`,
  :mod:`.language`; post-game analyses: :mod:`.analysis_jobs`.

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
