"""The client's side of the app: ``GET /api/meta`` (the games, their card tables and the
bot levels, what the client builds its forms and boards from) and the pages of the browser
client (``/``, ``/games/{id}``, ``/games/{id}/replay``, ``/players/{id}``,
``/tables/{id}``, ``/leaderboard``, ``/howto/{game}``, ``/settings``, ``/games`` (my
games), ``/friends``, and the pages of the
links in account mails, ``/reset?token=`` and ``/verify-email?token=``): its
``index.html`` with ``<html lang>`` the reader's language. Its files (``/static/...``)
are mounted by :func:`.app.create_app`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ..bots.external import game_tables
from ..game import game_names, games
from . import bots as server_bots
from .errors import N_, NotFound, ServiceError
from .language import language_of, localized_page

PAGES = (
    "/",
    "/games/{game_id}",
    "/games/{game_id}/replay",
    "/players/{player_id}",
    "/tables/{table_id}",
    "/leaderboard",
    "/games",
    "/friends",
    "/moderation",
    "/settings",
    "/reset",
    "/verify-email",
    "/tournaments",
    "/tournaments/{tournament_id}",
)
"""The client's paths that answer its page as it is (``/howto/{game}`` checks its game)."""


def meta_router() -> APIRouter:
    """``GET /api/meta``: ``{"games": {name: {"min_players", "max_players", "tables"}},
    "bots": [level, ...]}``, every game of :func:`splendor.game.games`."""
    router = APIRouter()

    @router.get("/api/meta")
    async def meta() -> dict[str, Any]:
        return {
            "games": {
                game.name: {
                    "min_players": game.min_players,
                    "max_players": game.max_players,
                    "tables": game_tables(game.name),
                }
                for game in games()
            },
            "bots": list(server_bots.SERVER_BOTS),
        }

    return router


def pages_router(web: Path) -> APIRouter:
    """The client's pages (module docstring), from the client's folder ``web``; left out
    of the API's schema."""
    router = APIRouter(include_in_schema=False)

    async def page(request: Request) -> HTMLResponse:
        return index(web, request)

    for path in PAGES:
        router.add_api_route(path, page, methods=["GET"])

    @router.get("/howto/{game}")
    async def howto_page(request: Request, game: str) -> HTMLResponse:
        if game not in game_names():
            raise NotFound(
                N_("no how-to page {page}: the games are splendor, duel"), page=repr(game[:20])
            )
        return index(web, request)

    return router


def index(web: Path, request: Request) -> HTMLResponse:
    """The client's page in the reader's language (``<html lang>``, read by the client to
    load its catalogue).

    Raises:
        ServiceError: 404, the client is not installed (no ``index.html`` in ``web``).
    """
    page = web / "index.html"
    if not page.is_file():
        raise ServiceError(f"the browser client is not installed ({page} is missing)", 404)
    html = localized_page(page.read_text(encoding="utf-8"), language_of(request))
    return HTMLResponse(
        html, headers={"Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"}
    )


__all__ = ["PAGES", "index", "meta_router", "pages_router"]
