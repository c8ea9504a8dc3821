"""The ``splendor`` command (typer): ``play``, ``replay``, ``analyse``, ``position``,
``conformance``, ``bench``, ``train``, ``distill``, ``arena``, ``serve``.

Every subcommand has ``--help``. The CLI is an interface: it reaches the games only through
the engine API (:mod:`splendor.game`, :mod:`splendor.record`, :mod:`splendor.bots`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer
from rich.console import Console

if TYPE_CHECKING:
    from rich.progress import Progress

app = typer.Typer(
    help="Splendor: play in the terminal, replay records, benchmark the engine.",
    no_args_is_help=True,
    add_completion=False,
)


def _failer(err: Console) -> Callable[[str, int], NoReturn]:
    """``fail(message, code)``: print ``error: message`` (one line) on ``err`` and exit
    with ``code``."""

    def fail(message: str, code: int) -> NoReturn:
        from rich.text import Text

        err.print(
            Text("error: ", style="bold red") + Text(" ".join(message.splitlines())), soft_wrap=True
        )
        raise typer.Exit(code)

    return fail


def _progress(err: Console, label: str, enabled: bool, unit: str | None = None) -> Progress:
    """A progress bar on ``err``: ``label``, the bar, done/total (and ``unit``), the time
    spent and the time left; ``enabled`` False shows nothing."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = [TextColumn(label), BarColumn(), MofNCompleteColumn()]
    if unit is not None:
        columns.append(TextColumn(unit))
    return Progress(
        *columns,
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=not enabled,
        transient=False,
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
        help="Comma-separated seats in seat order: human, random, greedy, "
        "mcts[:BUDGET[:PLAYOUT]] (e.g. mcts:1s, mcts:250ms, mcts:5000:random), net[:BUDGET], "
        "the levels easy, medium, hard, expert, or external:CMD (a program speaking the "
        "JSON-lines bot protocol, e.g. external:./examples/external_bot.py; see "
        "docs/protocol.md). Missing seats "
        "are filled with greedy bots. A bot that fails forfeits the game.",
    ),
    seed: int | None = typer.Option(None, "--seed", help="Deal seed (random if omitted)."),
    record: Path | None = typer.Option(
        None, "--record", "-r", help="Where to save the game record (default: records/<time>.json)."
    ),
    name: str | None = typer.Option(
        None,
        "--name",
        help="Your name in the record (human seats); default: 'you' in the game's language.",
    ),
    delay: float = typer.Option(
        0.0, "--delay", help="Seconds to pause after each bot decision (to watch bot games)."
    ),
    quiet: bool = typer.Option(
        False, "--quiet", "-q", help="Bots-only games: print only the result."
    ),
    turn_cap: int | None = typer.Option(
        None,
        "--turn-cap",
        help="Duel only (rule D25): end the game with no winner after N turns; 0 for none. "
        "Default: none when a person plays, 400 for bots-only games. Stored in the record.",
    ),
    resume: Path | None = typer.Option(
        None,
        "--resume",
        help="Play on an unfinished game saved by `splendor play` (on Ctrl-C, end of input or "
        "quit): its game, seats, names, seed and decisions come from the record, which is "
        "saved back to the same file unless --record is given.",
    ),
    lang: str | None = typer.Option(
        None,
        "--lang",
        help="Language of the game: fr (French), en (English) or nl (Dutch). Default: the "
        "terminal's locale (LC_ALL, LC_MESSAGES, then LANG), else English.",
    ),
) -> None:
    """Play a game in the terminal: people against bots, or bots against each other.

    Classic Splendor (2-4 players) by default; `--game duel` plays Splendor Duel (2
    players) on a 5x5 token board whose cells are named a1-e5 (columns a-e from the left,
    rows 1-5 from the top): `take c3 c4 c5`, `gold a1` then `reserve 2.3`, `buy 1.2`.
    On your turn type an action or its number from the list; `?` shows the notation.
    The record is saved at the end, and also on Ctrl-C or end of input (unfinished);
    `--resume RECORD` plays such a game on (in any language). `--lang fr` or `--lang nl`
    plays in French or Dutch (the notation stays the same).
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
        resume=resume,
        language=lang,
    )
    raise typer.Exit(code)


@app.command()
def replay(
    file: Path = typer.Argument(..., help="A game record (JSON) written by `splendor play`."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final scores."),
) -> None:
    """Re-play a game record, checking every action, and print the moves and final scores.

    A record that cannot be read or replayed: one line on stderr, exit code 1.
    """
    from rich.text import Text

    from .record import GameRecord, RecordError

    # the record's text (names, actions, reasons) is printed as it is, never as rich markup
    console = Console(highlight=False, markup=False, emoji=False)
    err = Console(stderr=True, highlight=False, markup=False, emoji=False)
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
        one_line = " ".join(str(e).splitlines())
        err.print(Text("invalid record", style="bold red") + Text(f": {one_line}"), soft_wrap=True)
        raise typer.Exit(1) from None
    if rec.result is not None and rec.result.get("end_reason") == "decision_cap":
        scores = ", ".join(f"{rec.players[p]} {s}" for p, s in enumerate(final.scores))
        console.print(f"scores: {scores}")
        console.print(
            f"no winner (stopped by the decision cap after {rec.result['decision_cap']} "
            f"decisions, {final.turn} turns)"
        )
        return
    if rec.result is not None and rec.result.get("end_reason") == "forfeit":
        from .tui.app import forfeit_lines

        console.print(f"forfeit: {rec.result['forfeit']['reason']}")
        for line in forfeit_lines(rec.result, rec.players):
            console.print(line)
        return
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
def analyse(
    file: Path = typer.Argument(..., help="A game record (JSON): from play, the arena or the web."),
    seat: list[int] | None = typer.Option(
        None, "--seat", "-s", help="Analyse this seat (0-based; repeat for several). Default: all."
    ),
    time_per_move: float = typer.Option(
        0.5, "--time-per-move", "-t", help="Search seconds per decision (one core)."
    ),
    iterations: int | None = typer.Option(
        None,
        "--iterations",
        "-i",
        help="Search iterations per decision instead of time: reproducible numbers.",
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the searches."),
    network: Path | None = typer.Option(
        None, "--network", help="A network file (.npz) instead of the shipped one."
    ),
    mix: float | None = typer.Option(
        None,
        "--mix",
        help="Weight in [0, 1] of playouts in the search's evaluations "
        "(default: 0.5 in classic, the network's own in Duel).",
    ),
    json_output: bool = typer.Option(
        False, "--json", help="Print the analysis as JSON on stdout (no tables)."
    ),
    plot: Path | None = typer.Option(
        None, "--plot", help="Save the win-probability chart as a PNG file."
    ),
    all_moves: bool = typer.Option(
        True, "--all/--errors", help="List every move, or only inaccuracies, mistakes, blunders."
    ),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Progress bar on stderr."),
) -> None:
    """Analyse a finished game: what each move cost, from what its player could know.

    Every decision is searched by the network bot from its player's own observation (the
    other players' hidden reserves and the decks' order are dealt at random, never read
    from the record). For each move: the win probability before and after it, the
    engine's preferred move, the loss and a label (best, good, inaccuracy, mistake,
    blunder); then a summary per player. A record that cannot be read or replayed: one
    line on stderr, exit code 1; bad options: exit code 2.
    """
    import json as _json
    import os

    from .analysis import Analyser, GameAnalysis, MoveAnalysis, Settings
    from .analysis.report import moves_table, summary_table
    from .record import GameRecord, RecordError

    console = Console(highlight=False, markup=False, emoji=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:  # a file or pipe
        console = Console(highlight=False, markup=False, emoji=False, width=120)
    err = Console(stderr=True, highlight=False, markup=False, emoji=False)
    fail = _failer(err)
    try:
        settings = Settings(
            seconds=time_per_move,
            iterations=iterations,
            seed=seed,
            network=None if network is None else str(network),
            mix=mix,
        )
        analyser = Analyser(settings)
    except ValueError as e:
        fail(str(e), 2)
    try:
        rec = GameRecord.load(file)
        total = len(rec.actions)
        analyser.network(rec.game, rec.num_players)
        with err.status("preparing the engine…"):
            rec.game_module().warm_up()
    except RecordError as e:
        fail(f"invalid record: {e}", 1)
    except ValueError as e:
        fail(str(e), 2)
    bar = _progress(err, "analysing", progress, "decisions")
    task_id = bar.add_task("analysis", total=total)
    try:
        with bar:

            def advanced(so_far: GameAnalysis, _move: MoveAnalysis) -> None:
                bar.update(task_id, total=so_far.total, advance=1)

            result = analyser.analyse(rec, seat or None, advanced)
    except RecordError as e:
        fail(f"invalid record: {e}", 1)
    except ValueError as e:
        fail(str(e), 2)
    except KeyboardInterrupt:
        err.print("interrupted")
        raise typer.Exit(130) from None
    if plot is not None:
        from .analysis.chart import plot_analysis

        try:
            plot_analysis(result, plot)
        except OSError as e:
            fail(f"cannot write the chart {plot}: {e}", 1)
    if json_output:
        typer.echo(_json.dumps(result.to_dict(), indent=2))
        return
    console.print(moves_table(result, all_moves))
    console.print(summary_table(result))
    turning = result.turning_points()
    if turning:
        points = ", ".join(f"turn {m.turn} {result.players[m.seat]} {m.label}" for m in turning)
        console.print(f"turning points: {points}")
    budget = f"{iterations} iterations" if iterations is not None else f"{time_per_move:g} s"
    console.print(
        f"win probability: the search's estimate for the player to move ({budget} a decision); "
        "loss in points of win probability" + (f" · chart: {plot}" if plot is not None else "")
    )


@app.command()
def position(
    text: str | None = typer.Argument(
        None,
        help="A position text (docs/notation.md), quoted as one argument; read from standard "
        "input when omitted or '-'.",
    ),
    new: bool = typer.Option(
        False, "--new", help="Print the text of a new game (see --game, --players, --seed)."
    ),
    game: str = typer.Option("classic", "--game", "-g", help="With --new: classic or duel."),
    players: int = typer.Option(2, "--players", "-p", help="With --new: number of seats."),
    seed: int | None = typer.Option(
        None, "--seed", help="With --new: deal seed (random if omitted)."
    ),
    seat: int | None = typer.Option(
        None, "--seat", help="Print that seat's observation (what it may see) instead."
    ),
    show: bool = typer.Option(
        False,
        "--show",
        help="Also draw the board as --seat sees it (default: the seat to play, or seat 0).",
    ),
) -> None:
    """Check a position text and print it back in canonical form, or print a new game's.

    The text is one line: the game's name (splendor or duel), then key=value fields
    (docs/notation.md). A text that cannot be read, or an impossible position: the reason
    on stderr, exit code 2.
    """
    import sys

    from .game import check_player_count, get_game

    err = Console(stderr=True, highlight=False, markup=False, emoji=False)
    try:
        if new:
            module = get_game(game)
            check_player_count(module, players)
            pos: object = module.new_game(players, seed)
        else:
            raw = sys.stdin.read() if text in (None, "-") else text
            words = raw.split()
            if not words:
                raise ValueError("no position text (give it as an argument or on stdin)")
            module = get_game(words[0].lower())
            kind = module.Observation if "observer=" in raw else module.State
            pos = kind.from_text(raw)
        if seat is not None:
            if not hasattr(pos, "observation"):
                raise ValueError("--seat: this text is already one seat's observation")
            pos = pos.observation(seat)
    except ValueError as e:
        err.print(f"error: {e}", soft_wrap=True)
        raise typer.Exit(2) from None
    typer.echo(pos.to_text())  # type: ignore[attr-defined]
    if show:
        from .tui.games import ui_for

        view = pos
        if hasattr(view, "observation"):
            who = view.current_player  # type: ignore[attr-defined]
            view = view.observation(0 if who is None else who)
        Console(highlight=False).print(ui_for(view).render.render_board(view, you=False))


@app.command()
def conformance(
    game: str | None = typer.Option(
        None, "--game", "-g", help="Only this game's cases: classic (also splendor) or duel."
    ),
    rule: list[str] = typer.Option(
        [],
        "--rule",
        "-r",
        help="Only the cases citing this rule id (C1-C18, D1-D25); repeat it or give a "
        "comma-separated list: --rule C8,C11.",
    ),
    list_cases: bool = typer.Option(
        False, "--list", help="List the cases (id, rules, description) instead of running them."
    ),
    engine: str | None = typer.Option(
        None,
        "--engine",
        "-e",
        help="Run against another engine: a command speaking the adapter protocol "
        "(docs/conformance.md), e.g. 'examples/conformance_adapter.py' (a first word ending "
        "in .py runs with this Python). Default: this package's engine.",
    ),
    timeout: float = typer.Option(
        10.0, "--timeout", help="With --engine: seconds allowed for each answer."
    ),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Also print the cases passed."),
) -> None:
    """Run the conformance suite against this engine, or another one (docs/conformance.md).

    Each case is a position with the legal decisions or the outcome that the rules it cites
    call for. Prints each failure (case id, rules, expected and got), then 'N passed, M
    failed'. Exit code 0 when all pass, 1 when a case fails, 2 for bad options or an
    adapter that breaks the protocol (exits, answers what is not an answer, or is silent).
    """
    from .conformance import (
        CaseResult,
        Engine,
        ExternalEngine,
        LocalEngine,
        describe_failure,
        load_cases,
        rules_cited,
        run_cases,
    )

    err = Console(stderr=True, highlight=False, markup=False, emoji=False)
    rules = [r.strip().upper() for item in rule for r in item.split(",") if r.strip()]
    try:
        cases = load_cases(game=game, rules=rules or None)
    except ValueError as e:
        err.print(f"error: {e}", soft_wrap=True)
        raise typer.Exit(2) from None
    if not cases:
        err.print(f"error: no case cites {', '.join(rules)}", soft_wrap=True)
        raise typer.Exit(2)
    if list_cases:
        for c in cases:
            typer.echo(f"{c.id:7} {','.join(c.rules):16} {c.description}")
        counts = rules_cited(cases)
        typer.echo(f"{len(cases)} cases; " + " ".join(f"{r}:{n}" for r, n in counts.items()))
        return
    if timeout <= 0:
        err.print("error: --timeout must be positive", soft_wrap=True)
        raise typer.Exit(2)
    runner: Engine = LocalEngine() if engine is None else ExternalEngine(engine, timeout=timeout)
    typer.echo(f"conformance: {len(cases)} cases against {runner.name}")

    def show(result: CaseResult) -> None:
        if not result.ok:
            typer.echo(describe_failure(result))
        elif verbose:
            typer.echo(f"ok   {result.case.id} [{', '.join(result.case.rules)}]")

    try:
        report = run_cases(cases, runner, progress=show)  # keeps an adapter's failure
    finally:
        runner.close()
    typer.echo(report.summary())
    if report.error is not None:
        err.print(f"error: adapter failed {report.error}", soft_wrap=True)
        raise typer.Exit(2)
    raise typer.Exit(1 if report.failed else 0)


@app.command()
def bench(
    seconds: float = typer.Option(3.0, "--seconds", help="Time per measurement."),
    players: str = typer.Option("2,3,4", "--players", help="Classic player counts to measure."),
    games: str = typer.Option("classic,duel", "--games", help="Games to measure: classic, duel."),
    output: Path | None = typer.Option(None, "--output", "-o", help="Also write the JSON here."),
) -> None:
    """Random-playout speed of the engines, compiled and through the Python API (JSON)."""
    from .bench import main as bench_main

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


@app.command()
def train(
    game: str = typer.Option("classic", "--game", "-g", help="classic or duel."),
    players: int = typer.Option(2, "--players", "-p", help="Player count the network plays."),
    out: Path = typer.Option(..., "--out", "-o", help="The run's folder (resumed if it exists)."),
    rounds: int = typer.Option(100, "--rounds", help="Rounds of self-play and fitting to reach."),
    games: int = typer.Option(16, "--games", help="Self-play games per round."),
    search: int = typer.Option(200, "--search", help="Search iterations per decision."),
    steps: int = typer.Option(200, "--steps", help="Adam steps per round."),
    hidden: str = typer.Option("256,128", "--hidden", help="The two hidden layers' sizes."),
    eval_every: int = typer.Option(
        10, "--eval-every", help="Rounds between evaluations against the previous network and mcts."
    ),
    eval_games: int = typer.Option(20, "--eval-games", help="Games of each evaluation."),
    max_decisions: int = typer.Option(400, "--max-decisions", help="Cap of a self-play game."),
    seed: int = typer.Option(0, "--seed", help="The run's seed (the same seed, the same run)."),
    teacher: str = typer.Option(
        "", "--teacher", help="An mcts spec with iterations (mcts:800) playing the first rounds."
    ),
    teacher_rounds: int = typer.Option(0, "--teacher-rounds", help="Rounds the teacher plays."),
    noise: float = typer.Option(0.25, "--noise", help="Dirichlet noise share at the root."),
    explore: int = typer.Option(20, "--explore", help="Decisions per game sampled, not argmax."),
    holdout: int = typer.Option(8, "--holdout", help="Every N-th game is held out (0: none)."),
    batch: int = typer.Option(256, "--batch", help="Rows per Adam step."),
    lr: float = typer.Option(1e-3, "--lr", help="Adam's learning rate."),
    buffer: int = typer.Option(100_000, "--buffer", help="Most recent examples fitted."),
    workers: int = typer.Option(1, "--workers", "-j", help="Processes playing the games."),
    init: str = typer.Option("", "--init", help="A network file to start from (not random)."),
    mix: float = typer.Option(
        0.0, "--mix", help="Weight of playouts in the search's evaluation (0: the value alone)."
    ),
    exploration: float = typer.Option(1.5, "--exploration", help="The search's PUCT constant."),
    backend: str = typer.Option(
        "auto", "--backend", help="Where games run: auto (ray if installed), local, ray, serial."
    ),
    search_value: float = typer.Option(
        0.5, "--search-value", help="Weight of the search's value in the value target."
    ),
    eval_seconds: float = typer.Option(
        0.0, "--eval-seconds", help="Also score against mcts at this time per decision."
    ),
) -> None:
    """Train a policy + value network by self-play (torch, CPU); resumes an interrupted run.

    Writes OUT/network.npz (play it with --seats or --bots net:OUT/network.npz),
    OUT/log.jsonl (losses, scores against the previous network and mcts) and checkpoints.
    """
    import json as _json

    try:
        from .train.loop import TrainConfig
        from .train.loop import train as run_training

        sizes = tuple(int(x) for x in hidden.split(","))
        if len(sizes) != 2:
            raise ValueError(f"--hidden takes two sizes, got {hidden!r}")
        config = TrainConfig(
            game="duel" if game.lower() == "duel" else game.lower(),
            players=players,
            hidden=(sizes[0], sizes[1]),
            rounds=rounds,
            games=games,
            search=search,
            steps=steps,
            eval_every=eval_every,
            eval_games=eval_games,
            max_decisions=max_decisions,
            seed=seed,
            teacher=teacher,
            teacher_rounds=teacher_rounds,
            noise=noise,
            explore=explore,
            holdout=holdout,
            batch=batch,
            lr=lr,
            buffer=buffer,
            workers=workers,
            eval_seconds=eval_seconds,
            search_value=search_value,
            init=init,
            mix=mix,
            exploration=exploration,
            backend=backend,
        )
        config.check()
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None
    except ImportError as e:
        typer.echo(f"error: training needs torch: pip install -e '.[train]' ({e})", err=True)
        raise typer.Exit(2) from None
    try:
        run_training(config, out, report=lambda line: typer.echo(_json.dumps(line)))
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        typer.echo(f"interrupted; run the same command to resume from {out}", err=True)
        raise typer.Exit(130) from None


@app.command()
def distill(
    game: str = typer.Option("classic", "--game", "-g", help="classic or duel."),
    players: int = typer.Option(2, "--players", "-p", help="Player count the network plays."),
    out: Path = typer.Option(..., "--out", "-o", help="The run's folder (resumed if it exists)."),
    games: int = typer.Option(15_000, "--games", help="Games whose positions are labelled."),
    sample: float = typer.Option(0.5, "--sample", help="Share of their decisions kept."),
    playouts: int = typer.Option(8, "--playouts", help="Playouts averaged per position."),
    steps: int = typer.Option(12_000, "--steps", help="Adam steps of the fit."),
    hidden: str = typer.Option("256,128", "--hidden", help="The two hidden layers' sizes."),
    features: bool = typer.Option(
        True, "--features/--no-features", help="Read the reach features too."
    ),
    batch: int = typer.Option(512, "--batch", help="Rows per Adam step."),
    lr: float = typer.Option(1e-3, "--lr", help="Adam's learning rate (a third of it at the end)."),
    holdout: int = typer.Option(10, "--holdout", help="Every N-th game is held out."),
    seed: int = typer.Option(0, "--seed", help="The run's seed (the same seed, the same run)."),
    workers: int = typer.Option(1, "--workers", "-j", help="Processes labelling positions."),
    mix: float = typer.Option(0.5, "--mix", help="Weight of playouts when the network plays."),
    exploration: float = typer.Option(1.5, "--exploration", help="PUCT constant when it plays."),
    temperature: float = typer.Option(
        1.0, "--temperature", help="The priors' temperature when it plays."
    ),
    lookahead: int = typer.Option(
        0, "--lookahead", help="Playout decisions before the value is read, when it plays."
    ),
    teacher: Path | None = typer.Option(
        None, "--teacher", help="A network file whose search labels the positions instead."
    ),
    iterations: int = typer.Option(400, "--iterations", help="The teacher's search iterations."),
    positions: str = typer.Option(
        "greedy",
        "--positions",
        help="Who plays the position games: greedy, or teacher (its own games: self-play).",
    ),
    outcome: float = typer.Option(
        0.0, "--outcome", help="Weight in [0, 1] of each game's outcome in the value target."
    ),
) -> None:
    """Fit a network's value to the mean of the search's playouts over many positions.

    Positions come from greedy games with random decisions; each is labelled, from the
    mover's observation only, by the mean reward of --playouts determinized playouts of
    mcts, and its policy target is greedy's judgement. With --teacher NET, the network
    NET searches each position instead (--iterations): the root's value and visit shares
    are the targets (expert iteration); with --positions teacher, NET also plays the
    games (self-play). --outcome W mixes each game's result into the value target with
    weight W. Writes OUT/network.npz (play it with
    net:OUT/network.npz), OUT/log.jsonl and the labelled positions (resumed when cut off).
    """
    import json as _json

    try:
        from .train.distill import DistillConfig
        from .train.distill import distill as run_distill

        sizes = tuple(int(x) for x in hidden.split(","))
        if len(sizes) != 2:
            raise ValueError(f"--hidden takes two sizes, got {hidden!r}")
        config = DistillConfig(
            game="duel" if game.lower() == "duel" else game.lower(),
            players=players,
            games=games,
            sample=sample,
            playouts=playouts,
            hidden=(sizes[0], sizes[1]),
            features=features,
            steps=steps,
            batch=batch,
            lr=lr,
            holdout=holdout,
            seed=seed,
            workers=workers,
            mix=mix,
            exploration=exploration,
            temperature=temperature,
            lookahead=lookahead,
            teacher="" if teacher is None else str(teacher),
            iterations=iterations,
            positions=positions,
            outcome=outcome,
        )
        config.check()
        run_distill(config, out, report=lambda line: typer.echo(_json.dumps(line)))
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None
    except ImportError as e:
        typer.echo(f"error: distillation needs torch: pip install -e '.[train]' ({e})", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        typer.echo(f"interrupted; run the same command to resume from {out}", err=True)
        raise typer.Exit(130) from None


@app.command()
def arena(
    game: str = typer.Option(
        "classic", "--game", "-g", help="Which game: classic (2-4 players) or duel (2 players)."
    ),
    bots: str = typer.Option(
        "random,greedy",
        "--bots",
        "-b",
        help="Comma-separated bot specs: random, greedy, mcts, mcts:1s, mcts:250ms, "
        "mcts:5000 (iterations), mcts:1s:random, net, net:250ms, easy, medium, hard, expert, "
        "external:CMD. "
        "At least two; a repeated spec is labelled random-0, random-1…",
    ),
    games: int = typer.Option(
        100,
        "--games",
        "-n",
        help="Total number of games, rounded up to whole cycles (one cycle = every lineup "
        "of the bots, all on the same deal).",
    ),
    players: int = typer.Option(2, "--players", "-p", help="Seats per game: 2-4 classic, 2 duel."),
    seed: int = typer.Option(
        0, "--seed", help="Arena seed: the deals and bot seeds derive from it."
    ),
    backend: str = typer.Option(
        "local", "--backend", help="Where games run: local (process pool), serial, ray."
    ),
    workers: int | None = typer.Option(
        None, "--workers", "-j", help="Local processes (or CPUs of a local Ray); default all cores."
    ),
    address: str | None = typer.Option(
        None,
        "--address",
        help="Ray cluster address for --backend ray (e.g. auto, ray://host:10001); "
        "without it a local Ray instance is started.",
    ),
    out: Path | None = typer.Option(
        None,
        "--out",
        "-o",
        help="Output folder (default arena/<time>/): records, results.json, ratings.png.",
    ),
    turn_cap: int | None = typer.Option(
        None,
        "--turn-cap",
        help="Duel only (D25): games end with no winner after N turns (default 400; 0: none).",
    ),
    max_decisions: int | None = typer.Option(
        None,
        "--max-decisions",
        help="Classic only: the arena stops a game after N decisions with no winner "
        "(end reason decision_cap), since two bots can stall for ever; not a rule. "
        "Default 2000 (real games take 50-270); 0: none.",
    ),
    bootstrap: int = typer.Option(
        500, "--bootstrap", help="Bootstrap resamples for the Elo 95% intervals."
    ),
    json_output: bool = typer.Option(
        False, "--json", help="Print the results and ratings as JSON on stdout (no table)."
    ),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Progress bar on stderr."),
    resume: bool = typer.Option(
        False,
        "--resume",
        help="Continue an interrupted run in --out (same settings): games "
        "already recorded there are not played again.",
    ),
) -> None:
    """Play many bot-vs-bot games and rate the bots (Elo with 95% confidence intervals).

    Every bot plays every seat equally often; all lineups of a cycle share one deal. A bot
    that crashes, answers an illegal action or times out loses that game (the record says
    why) and the arena goes on. Results are the same on every backend for the same --seed
    (bots with a time budget, such as mcts:1s, are not deterministic).
    """
    import json as _json
    import os

    from .arena import ArenaError, default_out_dir, prepare_arena, run_arena
    from .arena.report import head_to_head_table, results_table, style_table
    from .arena.runner import check_backend
    from .record import RecordError

    console = Console(highlight=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(highlight=False, width=120)  # a file or pipe: room for the table
    err = Console(stderr=True, highlight=False)
    fail = _failer(err)
    try:
        setup = prepare_arena(
            bots,
            game=game,
            players=players,
            games=games,
            seed=seed,
            turn_cap=turn_cap,
            max_decisions=max_decisions,
        )
        check_backend(backend, address, workers)
        if bootstrap < 0:
            raise ValueError(f"--bootstrap must be 0 or more, got {bootstrap}")
        if resume and out is None:
            raise ValueError("--resume needs --out: the folder of the run to continue")
        if out is not None and not resume and any((out / "games").glob("*.json")):
            raise ValueError(
                f"{out} already holds game records of an earlier run; add --resume to "
                "continue it (same settings) or choose another --out"
            )
    except ValueError as e:
        fail(str(e), 2)
    sched = setup.schedule
    total = len(sched.tasks)
    folder = out if out is not None else default_out_dir()
    note = console if not json_output else err
    title = "Splendor Duel" if setup.game == "duel" else f"Splendor, {setup.players} players"
    cap = f" · turn cap {setup.options['turn_cap']}" if "turn_cap" in setup.options else ""
    if setup.max_decisions is not None:
        cap += f" · decision cap {setup.max_decisions}"
    note.print(
        f"{title}{cap} · {len(setup.labels)} bots: {', '.join(setup.labels)} · seed {setup.seed}"
    )
    per = len(sched.lineups)
    if sched.rounded:
        note.print(
            f"{total} games: {sched.requested} asked, rounded up to {sched.cycles} whole "
            f"cycle{'s' if sched.cycles != 1 else ''} of {per} lineups"
        )
    else:
        note.print(
            f"{total} games: {sched.cycles} "
            f"cycle{'s' if sched.cycles != 1 else ''} of {per} lineups"
        )
    if not setup.deterministic:
        note.print("note: some bots are not deterministic (time budgets, external programs)")

    bar = _progress(err, "games", progress)
    task_id = bar.add_task("games", total=total)
    try:
        with bar:
            results = run_arena(
                setup,
                backend=backend,
                workers=workers,
                address=address,
                out=folder,
                bootstrap=bootstrap,
                on_game=lambda done, _total, _summary: bar.update(task_id, completed=done),
                resume=resume,
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
    if json_output:
        typer.echo(_json.dumps(results, indent=2))
        return
    if results["run"].get("resumed_games"):
        console.print(
            f"resumed: {results['run']['resumed_games']} games were already recorded in {folder}"
        )
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
    run = results["run"]
    console.print(
        "Elo: Bradley-Terry fit, mean 1500, 95% bootstrap intervals "
        f"({results['ratings']['bootstrap']} resamples)"
    )
    console.print(
        f"records: {Path(run['out']) / 'games'} · results: {run['results']} · plot: {run['plot']} "
        f"· {run['elapsed_s']:.1f} s on {run['backend']}"
    )


@app.command()
def serve(
    host: str = typer.Option(
        "127.0.0.1", "--host", help="Address to listen on (0.0.0.0: every interface)."
    ),
    port: int = typer.Option(8000, "--port", help="TCP port."),
    database_url: str | None = typer.Option(
        None,
        "--database-url",
        help="SQLAlchemy database URL: sqlite:///path/games.db or "
        "postgresql+psycopg://user:password@host/db. "
        "Default: a SQLite file in your data directory.",
    ),
    bot_workers: int | None = typer.Option(
        None,
        "--bot-workers",
        help="Processes in which the searching bots (medium, hard, expert) think (default: "
        "CPU count, at most 4); random, greedy and easy think in one more process.",
    ),
    create_rate: str = typer.Option(
        "30/minute",
        "--create-rate",
        help="Games one client address may create (N/second|minute|hour|day, several joined "
        "with ';'); 'off': no limit.",
    ),
    action_rate: str = typer.Option(
        "30/second",
        "--action-rate",
        help="Actions, explanations, game-list lookups and WebSocket messages per client "
        "address; 'off': no limit.",
    ),
    min_clock: int = typer.Option(
        60,
        "--min-clock",
        help="The shortest time bank (real time) or turn (turn-based) a table's clock may "
        "have, in seconds.",
    ),
    evict_idle: float = typer.Option(
        600.0,
        "--evict-idle",
        help="Seconds after which an idle unfinished game (nobody connected, no request, no bot "
        "thinking) leaves memory; it is loaded again at its next request.",
    ),
    expire_unstarted_days: float = typer.Option(
        7.0,
        "--expire-unstarted-days",
        help="Days after which a game with no move is deleted; 0: never.",
    ),
    expire_abandoned_days: float = typer.Option(
        30.0,
        "--expire-abandoned-days",
        help="Days without a move after which a game waiting on a person ends as that person's "
        "forfeit (kept, with its moves and record); 0: never.",
    ),
    workers: int = typer.Option(
        1,
        "--workers",
        help="Server processes sharing the port (more than 1 needs a PostgreSQL "
        "--database-url: they tell each other every move with LISTEN/NOTIFY).",
    ),
    analysis_iterations: int = typer.Option(
        2000,
        "--analysis-iterations",
        help="Post-game analysis: search iterations per decision (at 2000: about 0.1 s "
        "a Duel decision, 0.4 s a classic one).",
    ),
    analyses_at_once: int = typer.Option(
        1,
        "--analyses-at-once",
        help="Post-game analyses searched at once by a server process (the others wait).",
    ),
) -> None:
    """Serve the web app: the API, a WebSocket per game and the browser client.

    Open http://HOST:PORT/ to create a game and share its invite links. Games are stored
    in the database (schema migrated at start-up); a restarted server resumes every game.
    """
    from .analysis import Settings
    from .server.analysis_jobs import AnalysisConfig
    from .server.app import Limits
    from .server.app import serve as serve_app
    from .server.service import DAY, Lifecycle

    if not 0 < port < 65536:
        typer.echo(f"--port must be 1..65535, got {port}", err=True)
        raise typer.Exit(2)
    if workers < 1:
        typer.echo(f"--workers must be 1 or more, got {workers}", err=True)
        raise typer.Exit(2)
    if workers > 1 and not (database_url or "").startswith(("postgresql", "postgres:")):
        typer.echo(
            "--workers above 1 needs a PostgreSQL --database-url (SQLite serves one process)",
            err=True,
        )
        raise typer.Exit(2)
    if bot_workers is not None and bot_workers < 1:
        typer.echo(f"--bot-workers must be 1 or more, got {bot_workers}", err=True)
        raise typer.Exit(2)
    for flag, days in (
        ("--expire-unstarted-days", expire_unstarted_days),
        ("--expire-abandoned-days", expire_abandoned_days),
    ):
        if not days >= 0:
            typer.echo(
                f"{flag} must be 0 (never) or a positive number of days, got {days}", err=True
            )
            raise typer.Exit(2)
    try:
        limits = Limits(create_rate=create_rate, action_rate=action_rate, min_clock=min_clock)
        lifecycle = Lifecycle(
            evict_idle=evict_idle,
            expire_unstarted=expire_unstarted_days * DAY or None,
            expire_abandoned=expire_abandoned_days * DAY or None,
        )
        analysis = AnalysisConfig(
            settings=Settings(iterations=analysis_iterations), running=analyses_at_once
        )
    except ValueError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2) from None
    typer.echo(f"splendor web app on http://{host}:{port}/")
    serve_app(
        database_url,
        host=host,
        port=port,
        bot_workers=bot_workers,
        limits=limits,
        lifecycle=lifecycle,
        workers=workers,
        analysis=analysis,
    )


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
