"""The ``splendor`` command (typer): ``play``, ``replay``, ``bench``.

Every subcommand has ``--help``. The CLI is an interface: it reaches the games only through
the engine API (:mod:`splendor.game`, :mod:`splendor.record`, :mod:`splendor.bots`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

app = typer.Typer(
    help="Splendor: play in the terminal, replay records, benchmark the engine.",
    no_args_is_help=True,
    add_completion=False,
)


@app.command()
def play(
    players: int = typer.Option(2, "--players", "-p", help="Number of seats, 2 to 4."),
    seats: str = typer.Option(
        "human,greedy",
        "--seats",
        "-s",
        help="Comma-separated seat kinds in seat order: human, greedy, random. "
        "Missing seats are filled with greedy bots.",
    ),
    seed: Optional[int] = typer.Option(None, "--seed", help="Deal seed (random if omitted)."),
    record: Optional[Path] = typer.Option(
        None, "--record", "-r", help="Where to save the game record (default: records/<time>.json)."
    ),
    name: str = typer.Option("you", "--name", help="Your name in the record (human seats)."),
    delay: float = typer.Option(
        0.0, "--delay", help="Seconds to pause after each bot decision (to watch bot games)."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Bots-only games: print only the result."),
) -> None:
    """Play a game in the terminal: people against bots, or bots against each other."""
    from .tui.app import run_play

    code = run_play(
        players=players,
        seats=seats,
        seed=seed,
        record_path=record,
        human_name=name,
        delay=delay,
        quiet=quiet,
    )
    raise typer.Exit(code)


@app.command()
def replay(
    file: Path = typer.Argument(..., help="A game record (JSON) written by `splendor play`."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final scores."),
) -> None:
    """Re-play a game record, checking every action, and print the moves and final scores."""
    from .record import GameRecord, RecordError

    console = Console(highlight=False)
    err = Console(stderr=True, highlight=False)
    try:
        rec = GameRecord.load(file)
        with err.status("preparing the engine…"):
            rec.game_module().warm_up()

        def show(i: int, state: object, action: object, seat: int) -> None:
            if not quiet:
                console.print(f"{i + 1:4d}  seat {seat} {rec.players[seat]:>10}  {action}")

        final = rec.replay(show)
    except RecordError as e:
        err.print(f"[bold red]invalid record[/]: {e}")
        raise typer.Exit(1)
    scores = ", ".join(f"{rec.players[p]} {s}" for p, s in enumerate(final.scores))
    console.print(f"scores: {scores}")
    if final.is_terminal:
        winners = " and ".join(rec.players[w] for w in final.winners)
        console.print(f"winner: {winners} ({final.end_reason}, {final.turn} turns)")
    else:
        console.print(f"unfinished game after {len(rec.actions)} decisions ({final.turn} turns)")


@app.command()
def bench(
    seconds: float = typer.Option(3.0, "--seconds", help="Time per measurement."),
    players: str = typer.Option("2,3,4", "--players", help="Player counts to measure."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Also write the JSON here."),
) -> None:
    """Random-playout speed of the engine, compiled and through the Python API (JSON)."""
    from .bench import main as bench_main

    bench_main(seconds=seconds, player_counts=[int(x) for x in players.split(",")], output=output)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
