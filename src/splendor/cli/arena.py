"""``splendor arena``: many bot-vs-bot games and the bots' ratings (:mod:`splendor.arena`);
no extra needed (the ``ray`` backend needs the ``ray`` extra, the ``ratings.png`` chart
the ``analysis`` extra: without it the chart is left out)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from .common import Progress_, app, failer, progress_bar, table_console
from .extras import installed

if TYPE_CHECKING:
    from ..arena import ArenaSetup

_Game = Annotated[
    str,
    typer.Option("--game", "-g", help="Which game: classic (2-4 players) or duel (2 players)."),
]
_Bots = Annotated[
    str,
    typer.Option(
        "--bots",
        "-b",
        help="Comma-separated bot specs: random, greedy, mcts, mcts:1s, mcts:250ms, "
        "mcts:5000 (iterations), mcts:1s:random, net, net:250ms, easy, medium, hard, expert, "
        "external:CMD. "
        "At least two; a repeated spec is labelled random-0, random-1…",
    ),
]
_Games = Annotated[
    int,
    typer.Option(
        "--games",
        "-n",
        help="Total number of games, rounded up to whole cycles (one cycle = every lineup "
        "of the bots, all on the same deal).",
    ),
]
_Players = Annotated[
    int, typer.Option("--players", "-p", help="Seats per game: 2-4 classic, 2 duel.")
]
_Seed = Annotated[
    int, typer.Option("--seed", help="Arena seed: the deals and bot seeds derive from it.")
]
_Backend = Annotated[
    str, typer.Option("--backend", help="Where games run: local (process pool), serial, ray.")
]
_Workers = Annotated[
    int | None,
    typer.Option(
        "--workers", "-j", help="Local processes (or CPUs of a local Ray); default all cores."
    ),
]
_Address = Annotated[
    str | None,
    typer.Option(
        "--address",
        help="Ray cluster address for --backend ray (e.g. auto, ray://host:10001); "
        "without it a local Ray instance is started.",
    ),
]
_Out = Annotated[
    Path | None,
    typer.Option(
        "--out",
        "-o",
        help="Output folder (default arena/<time>/): records, results.json, ratings.png.",
    ),
]
_TurnCap = Annotated[
    int | None,
    typer.Option(
        "--turn-cap",
        help="Duel only (D25): games end with no winner after N turns (default 400; 0: none).",
    ),
]
_MaxDecisions = Annotated[
    int | None,
    typer.Option(
        "--max-decisions",
        help="Classic only: the arena stops a game after N decisions with no winner "
        "(end reason decision_cap), since two bots can stall for ever; not a rule. "
        "Default 2000 (real games take 50-270); 0: none.",
    ),
]
_Bootstrap = Annotated[
    int, typer.Option("--bootstrap", help="Bootstrap resamples for the Elo 95% intervals.")
]
_Json = Annotated[
    bool,
    typer.Option("--json", help="Print the results and ratings as JSON on stdout (no table)."),
]
_Resume = Annotated[
    bool,
    typer.Option(
        "--resume",
        help="Continue an interrupted run in --out (same settings): games "
        "already recorded there are not played again.",
    ),
]


@dataclass(frozen=True)
class ArenaRun:
    """One ``splendor arena``'s options, as given on the command line."""

    game: str
    bots: str
    games: int
    players: int
    seed: int
    backend: str
    workers: int | None
    address: str | None
    out: Path | None
    turn_cap: int | None
    max_decisions: int | None
    bootstrap: int
    json_output: bool
    progress: bool
    resume: bool


@app.command()
def arena(
    game: _Game = "classic",
    bots: _Bots = "random,greedy",
    games: _Games = 100,
    players: _Players = 2,
    seed: _Seed = 0,
    backend: _Backend = "local",
    workers: _Workers = None,
    address: _Address = None,
    out: _Out = None,
    turn_cap: _TurnCap = None,
    max_decisions: _MaxDecisions = None,
    bootstrap: _Bootstrap = 500,
    json_output: _Json = False,
    progress: Progress_ = True,
    resume: _Resume = False,
) -> None:
    """Play many bot-vs-bot games and rate the bots (Elo with 95% confidence intervals).

    Every bot plays every seat equally often; all lineups of a cycle share one deal. A bot
    that crashes, answers an illegal action or times out loses that game (the record says
    why) and the arena goes on. Results are the same on every backend for the same --seed
    (bots with a time budget, such as mcts:1s, are not deterministic).
    """
    run = ArenaRun(**locals())
    from ..arena import default_out_dir

    console = table_console()  # a file or pipe: room for the table
    err = Console(stderr=True, highlight=False)
    fail = failer(err)
    setup = _prepare(run, fail)
    folder = run.out if run.out is not None else default_out_dir()
    _announce(setup, console if not run.json_output else err)
    results = _play(run, setup, folder, err, fail)
    if run.json_output:
        typer.echo(json.dumps(results, indent=2))
        return
    _report(results, setup, folder, console)


def _prepare(run: ArenaRun, fail: Callable[[str, int], NoReturn]) -> ArenaSetup:
    """The arena's setup, every option checked before a game is played; a bad one: a line
    on stderr, exit code 2."""
    from ..arena import prepare_arena
    from ..arena.runner import check_backend

    try:
        setup = prepare_arena(
            run.bots,
            game=run.game,
            players=run.players,
            games=run.games,
            seed=run.seed,
            turn_cap=run.turn_cap,
            max_decisions=run.max_decisions,
        )
        check_backend(run.backend, run.address, run.workers)
        if run.bootstrap < 0:
            raise ValueError(f"--bootstrap must be 0 or more, got {run.bootstrap}")
        if run.resume and run.out is None:
            raise ValueError("--resume needs --out: the folder of the run to continue")
        if run.out is not None and not run.resume and any((run.out / "games").glob("*.json")):
            raise ValueError(
                f"{run.out} already holds game records of an earlier run; add --resume to "
                "continue it (same settings) or choose another --out"
            )
    except ValueError as e:
        fail(str(e), 2)
    return setup


def _announce(setup: ArenaSetup, note: Console) -> None:
    """What is about to be played: the game, its options, the bots, the seed and how many
    games (rounded up to whole cycles)."""
    from ..game import get_game

    sched = setup.schedule
    total = len(sched.tasks)
    title = get_game(setup.game).label(setup.players)
    cap = "".join(f" · {k.replace('_', ' ')} {v}" for k, v in setup.options.items())
    if setup.max_decisions is not None:
        cap += f" · decision cap {setup.max_decisions}"
    note.print(
        f"{title}{cap} · {len(setup.labels)} bots: {', '.join(setup.labels)} · seed {setup.seed}"
    )
    per = len(sched.lineups)
    cycles = f"cycle{'s' if sched.cycles != 1 else ''} of {per} lineups"
    if sched.rounded:
        note.print(
            f"{total} games: {sched.requested} asked, rounded up to {sched.cycles} whole {cycles}"
        )
    else:
        note.print(f"{total} games: {sched.cycles} {cycles}")
    if not setup.deterministic:
        note.print("note: some bots are not deterministic (time budgets, external programs)")


def _play(
    run: ArenaRun,
    setup: ArenaSetup,
    folder: Path,
    err: Console,
    fail: Callable[[str, int], NoReturn],
) -> dict[str, Any]:
    """Every game of the arena with a progress bar; the results document. The chart
    (``ratings.png``) only when matplotlib is installed (the ``analysis`` extra)."""
    from ..arena import ArenaError, run_arena
    from ..record import RecordError

    bar = progress_bar(err, "games", run.progress)
    task_id = bar.add_task("games", total=len(setup.schedule.tasks))
    try:
        with bar:
            return run_arena(
                setup,
                backend=run.backend,
                workers=run.workers,
                address=run.address,
                out=folder,
                bootstrap=run.bootstrap,
                plot=installed("analysis"),
                on_game=lambda done, _total, _summary: bar.update(task_id, completed=done),
                resume=run.resume,
            )
    except RecordError as e:  # resume: a saved record that does not replay
        fail(f"cannot resume: {e}", 1)
    except ValueError as e:  # resume: records of another arena in --out
        fail(str(e), 2)
    except ArenaError as e:
        fail(f"{e} (records of the finished games are in {folder})", 1)
    except KeyboardInterrupt:
        err.print(f"interrupted; records of the finished games are in {folder}")
        raise typer.Exit(130) from None


def _report(results: dict[str, Any], setup: ArenaSetup, folder: Path, console: Console) -> None:
    """The tables (results, styles, head to head), the wins by seat, the game ends, the
    forfeits and where everything was written."""
    from ..arena.report import head_to_head_table, results_table, style_table

    run = results["run"]
    if run.get("resumed_games"):
        console.print(f"resumed: {run['resumed_games']} games were already recorded in {folder}")
    console.print(results_table(results))
    console.print(style_table(results))
    if len(setup.labels) > 2:
        console.print(head_to_head_table(results))
    seats = " · ".join(f"seat {s['seat']} {100 * s['win_share']:.1f}%" for s in results["seats"])
    ends = ", ".join(f"{k} {v}" for k, v in results["end_reasons"].items())
    console.print(f"wins by seat: {seats}")
    console.print(f"game ends: {ends}")
    forfeits = [g for g in results["game_results"] if g["forfeit"]]
    for g in forfeits[:5]:
        who = g["names"][g["forfeit"]["seat"]]
        console.print(f"forfeit in {g['record']}: {who}: {g['forfeit']['reason']}")
    if len(forfeits) > 5:
        console.print(f"… and {len(forfeits) - 5} more forfeits (see results.json)")
    console.print(
        "Elo: Bradley-Terry fit, mean 1500, 95% bootstrap intervals "
        f"({results['ratings']['bootstrap']} resamples)"
    )
    plot = run["plot"] or escape("none (pip install 'splendor[analysis]' to draw it)")
    console.print(
        f"records: {Path(run['out']) / 'games'} · results: {run['results']} · plot: {plot} "
        f"· {run['elapsed_s']:.1f} s on {run['backend']}"
    )


__all__ = ["ArenaRun", "arena"]
