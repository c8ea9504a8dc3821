"""``splendor analyse``: what each move of a finished game cost (:mod:`splendor.analysis`);
no extra needed, but ``--plot`` needs matplotlib (the ``analysis`` extra)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from .common import Progress_, app, failer, plain_console, progress_bar, table_console
from .extras import ensure, require

if TYPE_CHECKING:
    from ..analysis import GameAnalysis
    from ..record import GameRecord

_File = Annotated[
    Path, typer.Argument(help="A game record (JSON): from play, the arena or the web.")
]
_Seat = Annotated[
    list[int] | None,
    typer.Option(
        "--seat", "-s", help="Analyse this seat (0-based; repeat for several). Default: all."
    ),
]
_TimePerMove = Annotated[
    float,
    typer.Option("--time-per-move", "-t", help="Search seconds per decision (one core)."),
]
_Iterations = Annotated[
    int | None,
    typer.Option(
        "--iterations",
        "-i",
        help="Search iterations per decision instead of time: reproducible numbers.",
    ),
]
_Seed = Annotated[int, typer.Option("--seed", help="Seed of the searches.")]
_Network = Annotated[
    Path | None,
    typer.Option("--network", help="A network file (.npz) instead of the shipped one."),
]
_Mix = Annotated[
    float | None,
    typer.Option(
        "--mix",
        help="Weight in [0, 1] of playouts in the search's evaluations "
        "(default: 0.5 in classic, the network's own in Duel).",
    ),
]
_Json = Annotated[
    bool, typer.Option("--json", help="Print the analysis as JSON on stdout (no tables).")
]
_Plot = Annotated[
    Path | None, typer.Option("--plot", help="Save the win-probability chart as a PNG file.")
]
_AllMoves = Annotated[
    bool,
    typer.Option(
        "--all/--errors", help="List every move, or only inaccuracies, mistakes, blunders."
    ),
]


@dataclass(frozen=True)
class AnalyseRun:
    """One ``splendor analyse``'s options, as given on the command line."""

    file: Path
    seats: list[int] | None
    time_per_move: float
    iterations: int | None
    seed: int
    network: Path | None
    mix: float | None
    json_output: bool
    plot: Path | None
    all_moves: bool
    progress: bool


@app.command()
def analyse(
    file: _File,
    seat: _Seat = None,
    time_per_move: _TimePerMove = 0.5,
    iterations: _Iterations = None,
    seed: _Seed = 0,
    network: _Network = None,
    mix: _Mix = None,
    json_output: _Json = False,
    plot: _Plot = None,
    all_moves: _AllMoves = True,
    progress: Progress_ = True,
) -> None:
    """Analyse a finished game: what each move cost, from what its player could know.

    Every decision is searched by the network bot from its player's own observation (the
    other players' hidden reserves and the decks' order are dealt at random, never read
    from the record). For each move: the win probability before and after it, the
    engine's preferred move, the loss and a label (best, good, inaccuracy, mistake,
    blunder); then a summary per player. A record that cannot be read or replayed: one
    line on stderr, exit code 1; bad options: exit code 2.
    """
    run = AnalyseRun(
        file=file,
        seats=seat or None,
        time_per_move=time_per_move,
        iterations=iterations,
        seed=seed,
        network=network,
        mix=mix,
        json_output=json_output,
        plot=plot,
        all_moves=all_moves,
        progress=progress,
    )
    fail = failer(plain_console(stderr=True))
    result = _analysis(run, fail)
    if run.plot is not None:
        _plot(result, run.plot, fail)
    if run.json_output:
        typer.echo(json.dumps(result.to_dict(), indent=2))
        return
    _report(result, run)


def _analysis(run: AnalyseRun, fail: Callable[[str, int], NoReturn]) -> GameAnalysis:
    """The analysis of ``run.file``, with a progress bar; on a bad record or option, a
    line on stderr and exit code 1 or 2 (130 on Ctrl-C)."""
    from ..analysis import Analyser, MoveAnalysis, Settings
    from ..record import GameRecord, RecordError

    err = plain_console(stderr=True)
    try:
        settings = Settings(
            seconds=run.time_per_move,
            iterations=run.iterations,
            seed=run.seed,
            network=None if run.network is None else str(run.network),
            mix=run.mix,
        )
        analyser = Analyser(settings)
    except ValueError as e:
        fail(str(e), 2)
    if run.plot is not None:
        ensure("analysis", "analyse --plot")  # before the search, not after it
    try:
        rec: GameRecord = GameRecord.load(run.file)
        analyser.network(rec.game, rec.num_players)
        with err.status("preparing the engine…"):
            rec.game_module().warm_up()
    except RecordError as e:
        fail(f"invalid record: {e}", 1)
    except ValueError as e:
        fail(str(e), 2)
    bar = progress_bar(err, "analysing", run.progress, "decisions")
    task_id = bar.add_task("analysis", total=len(rec.actions))
    try:
        with bar:

            def advanced(so_far: GameAnalysis, _move: MoveAnalysis) -> None:
                bar.update(task_id, total=so_far.total, advance=1)

            return analyser.analyse(rec, run.seats, advanced)
    except RecordError as e:
        fail(f"invalid record: {e}", 1)
    except ValueError as e:
        fail(str(e), 2)
    except KeyboardInterrupt:
        err.print("interrupted")
        raise typer.Exit(130) from None


def _plot(result: GameAnalysis, path: Path, fail: Callable[[str, int], NoReturn]) -> None:
    """Save the win-probability chart (the ``analysis`` extra) at ``path``."""
    with require("analysis", "analyse --plot"):
        from ..analysis.chart import plot_analysis

        try:
            plot_analysis(result, path)
        except OSError as e:
            fail(f"cannot write the chart {path}: {e}", 1)


def _report(result: Any, run: AnalyseRun) -> None:
    """The tables of the moves and players, the turning points and how to read them."""
    from ..analysis.report import moves_table, summary_table

    console = table_console(plain=True)
    console.print(moves_table(result, run.all_moves))
    console.print(summary_table(result))
    turning = result.turning_points()
    if turning:
        points = ", ".join(f"turn {m.turn} {result.players[m.seat]} {m.label}" for m in turning)
        console.print(f"turning points: {points}")
    if run.iterations is not None:
        budget = f"{run.iterations} iterations"
    else:
        budget = f"{run.time_per_move:g} s"
    chart = f" · chart: {run.plot}" if run.plot is not None else ""
    console.print(
        f"win probability: the search's estimate for the player to move ({budget} a decision); "
        "loss in points of win probability" + chart
    )


__all__ = ["AnalyseRun", "analyse"]
