"""``splendor bench``: the engines' random-playout speed (:mod:`splendor.bench`); no extra
needed."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import app

_Seconds = Annotated[float, typer.Option("--seconds", help="Time per measurement.")]
_Players = Annotated[str, typer.Option("--players", help="Classic player counts to measure.")]
_Games = Annotated[str, typer.Option("--games", help="Games to measure: classic, duel.")]
_Output = Annotated[Path | None, typer.Option("--output", "-o", help="Also write the JSON here.")]


@app.command()
def bench(
    seconds: _Seconds = 3.0,
    players: _Players = "2,3,4",
    games: _Games = "classic,duel",
    output: _Output = None,
) -> None:
    """Random-playout speed of the engines, compiled and through the Python API (JSON)."""
    from ..bench import main as bench_main

    try:
        counts = [int(x) for x in players.split(",")]
    except ValueError:
        typer.echo(f"error: --players must be comma-separated numbers, got {players!r}", err=True)
        raise typer.Exit(2) from None
    try:
        bench_main(
            seconds=seconds,
            player_counts=counts,
            output=output,
            games=[g.strip() for g in games.split(",")],
        )
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None


__all__ = ["bench"]
