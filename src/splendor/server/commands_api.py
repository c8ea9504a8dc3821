"""Moves typed in the reader's language, turned into notation (:mod:`splendor.commands`),
for the screen-reader mode's input box and anyone who types moves.

- ``POST /api/commands`` ``{"game": "splendor"|"duel", "text": "prendre blanc bleu vert"}``:
  ``{"notation": "take W U G"}`` (200): the move in the notation the game's routes and
  socket read (``"action"``). Only its shape is checked; whether it is legal is the
  game's business when it is played. The English notation is accepted in every language.
  400 ``{"detail"}`` in the request's language (the ``lang`` cookie, else
  ``Accept-Language``: :func:`.language.language_of`) when the text is no move (an unknown
  verb or colour, a verb with the wrong arguments: the detail says what is allowed), is
  empty, is not a string or is longer than :data:`splendor.commands.MAX_TEXT` (200)
  characters, or when ``game`` is missing or no game. Never 422.
- ``GET /api/commands/{game}``: the words the request's language accepts for ``game``
  (:func:`splendor.commands.command_words`: verbs, letters, colour names, examples), for
  help texts; 404 for no such game.

Both count against the client's ``action`` rate; a body is at most the app's body limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..commands import MAX_TEXT, CommandError, command_words, to_notation
from ..descriptor import Game
from ..game import game_names, get_game
from .errors import N_, BadRequest, NotFound
from .language import language_of
from .request_context import body_of, hit_rate

router = APIRouter(prefix="/api/commands")
"""The routes of this module; the app includes them with :func:`commands_router`."""


def commands_router() -> APIRouter:
    """The routes above (module docstring)."""
    return router


@dataclass(frozen=True)
class CommandProblem:
    """Why ``text`` is no move of ``game``, said in a reader's language (a field of a
    :class:`.errors.Text`: :func:`splendor.commands.to_notation`'s refusal)."""

    game: str
    text: str

    def translated(self, language: str) -> str:
        """The refusal in ``language`` (empty if the text turns out to be a move)."""
        try:
            to_notation(self.game, self.text, language)
        except CommandError as e:
            return str(e)
        return ""


def _game(value: Any) -> Game:
    """The game a request names (any name :func:`splendor.game.get_game` knows).

    Raises:
        BadRequest: missing, not a string or no such game (400, the games listed).
    """
    if isinstance(value, str) and len(value) <= 40:
        try:
            return get_game(value)
        except ValueError:
            pass
    raise BadRequest(
        N_('"game" must be one of {games}'),
        games=", ".join(f'"{name}"' for name in game_names()),
    )


def _text(value: Any) -> str:
    """The typed move of a request.

    Raises:
        BadRequest: missing, not a string, or longer than ``MAX_TEXT`` characters (400).
    """
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise BadRequest(
            N_('"text" must be a move written as text, at most {n} characters long'),
            n=MAX_TEXT,
        )
    return value


@router.post("")
async def read_command(request: Request) -> JSONResponse:
    """The notation of a move typed in the request's language (module docstring)."""
    hit_rate("action", request)
    body = await body_of(request)
    game = _game(body.get("game"))
    text = _text(body.get("text"))
    try:
        notation = to_notation(game, text, language_of(request))
    except CommandError:
        raise BadRequest("{problem}", problem=CommandProblem(game.name, text)) from None
    return JSONResponse({"notation": notation})


@router.get("/{game}")
async def words(request: Request, game: str) -> JSONResponse:
    """The words of the request's language for ``game`` (module docstring)."""
    hit_rate("action", request)
    try:
        descriptor = get_game(game[:40])
    except ValueError:
        raise NotFound(
            N_("no game {game}: the games are {games}"),
            game=repr(game[:20]),
            games=", ".join(game_names()),
        ) from None
    language = language_of(request)
    response = JSONResponse(command_words(descriptor, language))
    response.headers["Vary"] = "Cookie, Accept-Language"
    response.headers["Content-Language"] = language
    return response


__all__ = ["CommandProblem", "commands_router", "router"]
