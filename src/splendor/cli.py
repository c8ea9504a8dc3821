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
    game: str = typer.Option(
        "classic",
        "--game",
        "-g",
        help="Which game: classic (Splendor, 2-4 players; also 'splendor') or duel "
        "(Splendor Duel, 2 players; also 'splendor-duel').",
    ),
    players: int = typer.Option(
        2, "--players", "-p", help="Number of seats: 2 to 4 for classic, 2 for duel."
    ),
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
    quiet: bool = typer.Option(
        False, "--quiet", "-q", help="Bots-only games: print only the result."
    ),
    turn_cap: Optional[int] = typer.Option(
        None,
        "--turn-cap",
        help="Duel only (rule D25): end the game with no winner after N turns; 0 for none. "
        "Default: none when a person plays, 400 for bots-only games. Stored in the record.",
    ),
) -> None:
    """Play a game in the terminal: people against bots, or bots against each other.

    Classic Splendor (2-4 players) by default; `--game duel` plays Splendor Duel (2
    players) on a 5x5 token board whose cells are named a1-e5 (columns a-e from the left,
    rows 1-5 from the top): `take c3 c4 c5`, `gold a1` then `reserve 2.3`, `buy 1.2`.
    On your turn type an action or its number from the list; `?` shows the notation.
    The record is saved at the end, and also on Ctrl-C or end of input (unfinished).
    """
    from .tui.app import run_play

    code = run_play(
        game=game,
        players=players,
        seats=seats,
        seed=seed,
        record_path=record,
        human_name=name,
        delay=delay,
        quiet=quiet,
        turn_cap=turn_cap,
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
        module = rec.game_module()
        with err.status("preparing the engine…"):
            module.warm_up()
        if not quiet:
            options = "".join(f" · {k.replace('_', ' ')} {v}" for k, v in rec.options.items())
            seats = " ".join(f"{i}:{n}" for i, n in enumerate(rec.players))
            console.print(f"{module.GAME_NAME} · seed {rec.seed}{options} · {seats}")

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
        if final.winners:
            winners = " and ".join(rec.players[w] for w in final.winners)
            console.print(f"winner: {winners} ({final.end_reason}, {final.turn} turns)")
        else:  # a Duel game stopped by its turn cap (D25)
            console.print(f"no winner ({final.end_reason}, {final.turn} turns)")
    else:
        console.print(f"unfinished game after {len(rec.actions)} decisions ({final.turn} turns)")


@app.command()
def bench(
    seconds: float = typer.Option(3.0, "--seconds", help="Time per measurement."),
    players: str = typer.Option("2,3,4", "--players", help="Classic player counts to measure."),
    games: str = typer.Option("classic,duel", "--games", help="Games to measure: classic, duel."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Also write the JSON here."),
) -> None:
    """Random-playout speed of the engines, compiled and through the Python API (JSON)."""
    from .bench import main as bench_main

    try:
        counts = [int(x) for x in players.split(",")]
    except ValueError:
        typer.echo(f"error: --players must be comma-separated numbers, got {players!r}", err=True)
        raise typer.Exit(2)
    try:
        bench_main(
            seconds=seconds,
            player_counts=counts,
            output=output,
            games=[g.strip() for g in games.split(",")],
        )
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
