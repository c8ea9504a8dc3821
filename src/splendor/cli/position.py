"""``splendor position``: a position text (docs/notation.md) checked and printed back in
canonical form, or a new game's; no extra needed."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console

from .common import app, plain_console

_Text = Annotated[
    str | None,
    typer.Argument(
        help="A position text (docs/notation.md), quoted as one argument; read from standard "
        "input when omitted or '-'.",
    ),
]
_New = Annotated[
    bool,
    typer.Option("--new", help="Print the text of a new game (see --game, --players, --seed)."),
]
_Game = Annotated[str, typer.Option("--game", "-g", help="With --new: classic or duel.")]
_Players = Annotated[int, typer.Option("--players", "-p", help="With --new: number of seats.")]
_Seed = Annotated[
    int | None, typer.Option("--seed", help="With --new: deal seed (random if omitted).")
]
_Seat = Annotated[
    int | None,
    typer.Option("--seat", help="Print that seat's observation (what it may see) instead."),
]
_Show = Annotated[
    bool,
    typer.Option(
        "--show",
        help="Also draw the board as --seat sees it (default: the seat to play, or seat 0).",
    ),
]


@app.command()
def position(
    text: _Text = None,
    new: _New = False,
    game: _Game = "classic",
    players: _Players = 2,
    seed: _Seed = None,
    seat: _Seat = None,
    show: _Show = False,
) -> None:
    """Check a position text and print it back in canonical form, or print a new game's.

    The text is one line: the game's name (splendor or duel), then key=value fields
    (docs/notation.md). A text that cannot be read, or an impossible position: the reason
    on stderr, exit code 2.
    """
    try:
        pos = _new_position(game, players, seed) if new else _read_position(text)
        if seat is not None:
            if not hasattr(pos, "observation"):
                raise ValueError("--seat: this text is already one seat's observation")
            pos = pos.observation(seat)
    except ValueError as e:
        plain_console(stderr=True).print(f"error: {e}", soft_wrap=True)
        raise typer.Exit(2) from None
    typer.echo(pos.to_text())
    if show:
        _show(pos)


def _new_position(name: str, players: int, seed: int | None) -> Any:
    """A new game of ``name`` (C1, D1: the player count checked).

    Raises:
        ValueError: an unknown game or a bad player count.
    """
    from ..game import get_game

    game = get_game(name)
    game.check_players(players)
    return game.new_game(players, seed)


def _read_position(text: str | None) -> Any:
    """The position (a state, or an observation when it names its ``observer=``) of
    ``text``, or of standard input when ``text`` is None or ``-``.

    Raises:
        ValueError: no text, an unknown game, or a text that is no sound position.
    """
    import sys

    from ..game import get_game

    raw = sys.stdin.read() if text in (None, "-") else text
    assert raw is not None
    words = raw.split()
    if not words:
        raise ValueError("no position text (give it as an argument or on stdin)")
    game = get_game(words[0].lower())
    kind: Any = game.observation_type if "observer=" in raw else game.state_type
    return kind.from_text(raw)


def _show(pos: Any) -> None:
    """Draw the board of ``pos`` as its seat sees it (a state: the seat to play, or 0)."""
    from ..tui.games import ui_for

    view = pos
    if hasattr(view, "observation"):
        who = view.current_player
        view = view.observation(0 if who is None else who)
    Console(highlight=False).print(ui_for(view).render.render_board(view, you=False))


__all__ = ["position"]
