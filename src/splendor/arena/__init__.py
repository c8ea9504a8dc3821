"""The arena: many games between bots, with results, Elo ratings and records.

``run_arena(["random", "greedy"], game="classic", players=2, games=100)`` plays a
tournament and returns its results document (:mod:`splendor.arena.report`); ``splendor
arena`` is the command around it.

- :mod:`~splendor.arena.schedule`: lineups (every bot in every seat equally), cycles of
  games sharing one deal, and the seeds;
- :mod:`~splendor.arena.runner`: one game per task, on the ``serial``, ``local`` (process
  pool) or ``ray`` backend; a failing bot forfeits;
- :mod:`~splendor.arena.ratings`: Elo (Bradley-Terry) with bootstrap 95% intervals;
- :mod:`~splendor.arena.report`: the table, the JSON document and the plot.

Outputs in the ``out`` folder: ``games/NNNNN.json`` (every game's record, replayable with
``splendor replay``), ``results.json`` and ``ratings.png``.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ..descriptor import Game
from ..game import games as all_games
from .ratings import BOOTSTRAP, Ratings, rate
from .report import build_results, ms_per_decision, plot_ratings
from .runner import BACKENDS, ArenaError, check_backend, play_task, run_tasks, summary_from_record
from .schedule import GameTask, Schedule, lineups, make_schedule

CLASSIC_DECISION_CAP = 2000
"""Default decision cap of arena games of a game without a turn cap (classic Splendor).
Classic Splendor has no turn limit (C17 ends a game only when a whole round passes), and two
bots can take and return one token for ever (all coloured tokens held, nothing affordable).
The arena, not the rules, stops such a game after this many decisions with no winner
(``end_reason == "decision_cap"``). Games between random bots take about 70-270 decisions
(2-4 players), between greedy bots about 50-170, so 2,000 (several times the longest) never
cuts a real game short and ends a deadlock within seconds."""


@dataclass(frozen=True)
class ArenaSetup:
    """A checked arena: what :func:`prepare_arena` returns.

    Attributes:
        game: registered game name (``"splendor"`` or ``"duel"``).
        players: seats per game.
        specs: bot specs as given (stripped), one per bot.
        labels: distinct bot labels (a repeated spec gets ``-0``, ``-1``… suffixes).
        deterministic: True when every bot is (random, greedy, MCTS with an iteration
            budget), so the same seed gives the same results.
        schedule: the games.
        seed: the arena seed.
        options: game options of every game.
        max_decisions: the host's decision cap of every game (classic; None: none).
    """

    game: str
    players: int
    specs: tuple[str, ...]
    labels: tuple[str, ...]
    deterministic: bool
    schedule: Schedule
    seed: int
    options: dict[str, Any]
    max_decisions: int | None = None


def parse_bots(bots: str | Sequence[str]) -> list[str]:
    """Split a comma-separated list of bot specs (or check a list of them).

    Raises:
        ValueError: an empty entry or a bad spec (the message lists what is allowed), or
            fewer than two bots.
    """
    from ..bots import parse_bot_spec

    items = bots.split(",") if isinstance(bots, str) else list(bots)
    specs = [str(s).strip() for s in items]
    if any(not s for s in specs):
        raise ValueError(f"empty bot in {bots!r}: give comma-separated bot specs")
    for s in specs:
        try:
            parse_bot_spec(s)
        except ValueError as e:
            raise ValueError(f"bad bot {s!r}: {e}") from None
    if len(specs) < 2:
        raise ValueError(f"an arena needs at least two bots, got {len(specs)}")
    return specs


def prepare_arena(
    bots: str | Sequence[str],
    *,
    game: str = "classic",
    players: int = 2,
    games: int = 100,
    seed: int = 0,
    turn_cap: int | None = None,
    max_decisions: int | None = None,
) -> ArenaSetup:
    """Check the settings and build the schedule, without playing.

    Args:
        bots: bot specs (see :mod:`splendor.bots`), a list or comma-separated.
        game: ``classic`` (or ``splendor``) or ``duel`` (or ``splendor-duel``).
        players: seats per game.
        games: games wanted; rounded up to whole cycles (see :mod:`.schedule`).
        seed: arena seed, ``>= 0``.
        turn_cap: the turn cap of a game that has one (its ``turn_option``; Duel's, D25):
            None for the option's default between bots (400), 0 for none. Classic has its
            own stall rule (C17) and takes no turn cap.
        max_decisions: for a game without a turn cap (classic): the arena stops a game
            that no rule has ended after this many decisions, with no winner
            (``end_reason == "decision_cap"``); None for :data:`CLASSIC_DECISION_CAP`, 0
            for none. Not a rule: the engine never sees it. Duel takes none (its games end
            by ``turn_cap``).

    Raises:
        ValueError: unknown game, bad player count, bad bot spec, fewer than two bots,
            ``games < 1``, negative seed, a turn cap for classic or a negative one, a
            decision cap for Duel or a negative one.
    """
    from ..bots import parse_bot_spec
    from ..game import get_game

    found = get_game(game)
    found.check_players(players)
    specs = parse_bots(bots)
    if games < 1:
        raise ValueError(f"--games must be at least 1, got {games}")
    if seed < 0:
        raise ValueError(f"--seed must be >= 0, got {seed}")
    options = _arena_options(found, turn_cap)
    decision_cap = _decision_cap(found, max_decisions)
    parsed = [parse_bot_spec(s) for s in specs]
    base = [p.label for p in parsed]
    labels = [f"{b}-{i}" if base.count(b) > 1 else b for i, b in enumerate(base)]
    deterministic = all(
        p.kind in ("random", "greedy") or (p.kind == "mcts" and p.iterations is not None)
        for p in parsed
    )
    schedule = make_schedule(
        specs,
        labels,
        game=found.name,
        num_players=players,
        games=games,
        seed=seed,
        options=options,
        max_decisions=decision_cap,
    )
    return ArenaSetup(
        game=found.name,
        players=players,
        specs=tuple(specs),
        labels=tuple(labels),
        deterministic=deterministic,
        schedule=schedule,
        seed=seed,
        options=options,
        max_decisions=decision_cap,
    )


def _arena_options(found: Game, turn_cap: int | None) -> dict[str, Any]:
    """The options of every game of an arena of ``found``: its defaults between bots
    (:meth:`~splendor.descriptor.Game.check_options`), the turn cap given if any.

    Raises:
        ValueError: a turn cap for a game without one, or a negative or too large one.
    """
    if found.turn_option is None:
        if turn_cap is not None:
            capped = " and ".join(g.title for g in all_games() if g.turn_option is not None)
            raise ValueError(
                f"--turn-cap is for {capped} only ({found.title} has no turn cap; "
                "its stall rule ends a game)"
            )
        return found.check_options({}, bots_only=True)
    if turn_cap is not None and turn_cap < 0:
        raise ValueError(f"--turn-cap must be >= 0, got {turn_cap}")
    given = {} if turn_cap is None else {found.turn_option: turn_cap}
    return found.check_options(given, bots_only=True)


def _decision_cap(found: Game, max_decisions: int | None) -> int | None:
    """The arena's decision cap of a game of ``found`` (None: none): for a game without
    a turn cap only (:data:`CLASSIC_DECISION_CAP` by default).

    Raises:
        ValueError: a decision cap for a game with a turn cap, or not a whole number >= 0.
    """
    if found.turn_option is not None:
        if max_decisions is not None:
            uncapped = " and ".join(g.title for g in all_games() if g.turn_option is None)
            rule = found.options[found.turn_option].rule
            raise ValueError(
                f"--max-decisions is for {uncapped} only; {found.title} games are capped in "
                f"turns by --turn-cap ({rule})"
            )
        return None
    cap = CLASSIC_DECISION_CAP if max_decisions is None else max_decisions
    if isinstance(cap, bool) or not isinstance(cap, int):
        raise ValueError(f"--max-decisions must be a whole number, got {cap!r}")
    if cap < 0:
        raise ValueError(f"--max-decisions must be >= 0 (0: no cap), got {cap}")
    return int(cap) or None


def default_out_dir(now: datetime | None = None) -> Path:
    """``arena/<YYYYmmdd-HHMMSS>`` (with a ``-2``, ``-3``… suffix if it exists)."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    path = Path("arena") / stamp
    k = 1
    while path.exists():
        k += 1
        path = Path("arena") / f"{stamp}-{k}"
    return path


def _resume(
    tasks: Sequence[GameTask], folder: Path, summaries: list[dict[str, Any]]
) -> list[GameTask]:
    """Load the finished games of an earlier run in ``folder`` into ``summaries``; return
    the tasks still to play (see :func:`run_arena`)."""
    from ..record import GameRecord

    left = []
    for task in tasks:
        path = folder / "games" / f"{task.index:05d}.json"
        if not path.exists():
            left.append(task)
            continue
        summary = summary_from_record(task, GameRecord.load(path))
        if summary is None:
            left.append(task)
            continue
        summary["record"] = str(Path("games") / path.name)
        summaries.append(summary)
    return left


def run_arena(
    bots: str | Sequence[str] | ArenaSetup,
    *,
    game: str = "classic",
    players: int = 2,
    games: int = 100,
    seed: int = 0,
    turn_cap: int | None = None,
    max_decisions: int | None = None,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    out: str | Path | None = None,
    bootstrap: int = BOOTSTRAP,
    plot: bool = True,
    on_game: Callable[[int, int, Mapping[str, Any]], None] | None = None,
    resume: bool = False,
) -> dict[str, Any]:
    """Play an arena and return its results document (:mod:`splendor.arena.report`).

    Args:
        bots: bot specs (list or comma-separated), or an :class:`ArenaSetup` (then
            ``game``, ``players``, ``games``, ``seed``, ``turn_cap`` and
            ``max_decisions`` are ignored).
        game, players, games, seed, turn_cap, max_decisions: see :func:`prepare_arena`.
        backend: ``local`` (process pool), ``serial`` (this process) or ``ray``. The local
            pool *spawns* its workers, which import the main module: call ``run_arena``
            from under ``if __name__ == "__main__":`` in a script.
        workers: processes of the local pool, or CPUs of a local Ray instance; default
            ``os.cpu_count()``.
        address: Ray cluster address (``ray`` only); without one a local Ray instance is
            started for the run (unless Ray is already initialised in this process).
        out: output folder (default :func:`default_out_dir`): ``games/NNNNN.json`` records,
            ``results.json``, ``ratings.png``.
        bootstrap: bootstrap resamples for the Elo intervals (0: none).
        plot: write ``ratings.png``.
        on_game: called as ``on_game(done, total, summary)`` after each game (in order of
            completion; ``done`` counts resumed games too).
        resume: continue an interrupted run in ``out``: every game whose finished record
            is already in ``out/games`` counts as played (its summary is rebuilt from the
            record, which is replayed and checked) and only the others are played. Without
            it, an ``out`` folder that already holds game records is refused.

    Returns:
        the results document; ``results["run"]["out"]`` is the output folder. Apart from
        ``run``, it depends only on the settings when the bots are deterministic.

    Raises:
        ValueError: bad settings (before any game is played); ``out`` already holds game
            records and ``resume`` is False, or (with ``resume``) records of another arena
            (other bots, seed, game, options or decision cap).
        splendor.record.RecordError: with ``resume``, a saved record that does not replay.
        ArenaError: a game failed for a reason that is not a bot's, or Ray is unreachable.
    """
    arena: dict[str, Any] = {"game": game, "players": players, "games": games, "seed": seed}
    arena.update(turn_cap=turn_cap, max_decisions=max_decisions)
    setup = bots if isinstance(bots, ArenaSetup) else prepare_arena(bots, **arena)
    check_backend(backend, address, workers)
    if bootstrap < 0:
        raise ValueError(f"bootstrap must be >= 0, got {bootstrap}")
    n_workers = workers if workers is not None else (os.cpu_count() or 1)
    folder = Path(out) if out is not None else default_out_dir()
    summaries: list[dict[str, Any]] = []
    tasks = _tasks_left(setup, folder, summaries, resume)
    resumed = len(summaries)
    started = time.perf_counter()
    total = len(setup.schedule.tasks)
    with closing(_play(tasks, folder, backend=backend, workers=n_workers, address=address)) as it:
        for summary in it:  # (closed at once, workers and all, if on_game raises)
            summaries.append(summary)
            if on_game is not None:
                on_game(len(summaries), total, summary)
    run = {
        "backend": backend,
        "workers": n_workers if backend != "serial" else 1,
        "address": address,
        "elapsed_s": round(time.perf_counter() - started, 3),
        "resumed_games": resumed,
    }
    return _finish(setup, summaries, folder, run, bootstrap=bootstrap, plot=plot)


def _finish(
    setup: ArenaSetup,
    summaries: list[dict[str, Any]],
    folder: Path,
    run: dict[str, Any],
    *,
    bootstrap: int,
    plot: bool,
) -> dict[str, Any]:
    """Rate the games, write ``results.json`` (and ``ratings.png`` with ``plot``) in
    ``folder`` and return the results document; ``run`` holds how the games were played."""
    summaries.sort(key=lambda s: s["index"])
    ratings = rate(summaries, len(setup.labels), bootstrap=bootstrap, seed=setup.seed)
    results = build_results(
        settings=_settings(setup),
        labels=setup.labels,
        games=summaries,
        ratings=ratings,
        run={
            **run,
            "ms_per_decision": ms_per_decision(summaries, len(setup.labels)),
            "out": str(folder),
            "results": str(folder / "results.json"),
            "plot": str(folder / "ratings.png") if plot else None,
        },
    )
    (folder / "results.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    if plot:
        plot_ratings(results, folder / "ratings.png")
    return results


def _tasks_left(
    setup: ArenaSetup, folder: Path, summaries: list[dict[str, Any]], resume: bool
) -> Sequence[GameTask]:
    """Make ``folder/games`` and return the games still to play: all of them, or with
    ``resume`` those without a finished record there (the others' summaries go into
    ``summaries``).

    Raises:
        ValueError: the folder holds game records and ``resume`` is False.
    """
    (folder / "games").mkdir(parents=True, exist_ok=True)
    tasks: Sequence[GameTask] = setup.schedule.tasks
    saved = sorted((folder / "games").glob("*.json"))
    if saved and not resume:
        raise ValueError(
            f"{folder} already holds {len(saved)} game record(s) of an earlier run; resume that "
            "run (--resume, with the same settings) or choose another output folder"
        )
    if resume:
        tasks = _resume(tasks, folder, summaries)
    return tasks


def _play(
    tasks: Sequence[GameTask], folder: Path, *, backend: str, workers: int, address: str | None
) -> Generator[dict[str, Any], None, None]:
    """Play ``tasks`` (:func:`run_tasks`), save each record in ``folder/games`` and yield
    each game's summary, in order of completion."""
    from ..record import GameRecord

    it = run_tasks(tasks, backend=backend, workers=workers, address=address)
    try:
        for done in it:
            summary = done["summary"]
            path = folder / "games" / f"{summary['index']:05d}.json"
            GameRecord.from_dict(done["record"]).save(path)
            summary["record"] = str(Path("games") / path.name)
            yield summary
    finally:
        close = getattr(it, "close", None)
        if close is not None:
            close()


def _settings(setup: ArenaSetup) -> dict[str, Any]:
    """The ``settings`` of the results document (:func:`build_results`)."""
    sched = setup.schedule
    return {
        "game": setup.game,
        "players": setup.players,
        "specs": setup.specs,
        "seed": setup.seed,
        "requested_games": sched.requested,
        "cycles": sched.cycles,
        "lineups": sched.lineups,
        "options": setup.options,
        "max_decisions": setup.max_decisions,
        "deterministic": setup.deterministic,
    }


__all__ = [
    "BACKENDS",
    "CLASSIC_DECISION_CAP",
    "ArenaError",
    "ArenaSetup",
    "GameTask",
    "Ratings",
    "Schedule",
    "default_out_dir",
    "lineups",
    "make_schedule",
    "parse_bots",
    "play_task",
    "prepare_arena",
    "rate",
    "run_arena",
    "run_tasks",
    "summary_from_record",
]
