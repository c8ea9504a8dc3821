"""``splendor train`` (self-play, :mod:`splendor.train.loop`) and ``splendor distill``
(:mod:`splendor.train.distill`): both need torch, the ``train`` extra.

Each command's options are the fields of its settings object (``TrainConfig``,
``DistillConfig``), under the same names, plus ``--out``; ``--hidden`` is written
``256,128`` on the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from .common import app
from .extras import require

_Game = Annotated[str, typer.Option("--game", "-g", help="classic or duel.")]
_Players = Annotated[int, typer.Option("--players", "-p", help="Player count the network plays.")]
_Out = Annotated[Path, typer.Option("--out", "-o", help="The run's folder (resumed if it exists).")]
_Hidden = Annotated[str, typer.Option("--hidden", help="The two hidden layers' sizes.")]
_Batch = Annotated[int, typer.Option("--batch", help="Rows per Adam step.")]
_Seed = Annotated[int, typer.Option("--seed", help="The run's seed (the same seed, the same run).")]


def _opt(name: str, help: str, *short: str) -> Any:
    """``typer.Option(name, *short, help=help)``: one option of one command."""
    return typer.Option(name, *short, help=help)


@app.command()
def train(
    game: _Game = "classic",
    players: _Players = 2,
    out: _Out = ...,  # type: ignore[assignment]
    rounds: Annotated[int, _opt("--rounds", "Rounds of self-play and fitting to reach.")] = 100,
    games: Annotated[int, _opt("--games", "Self-play games per round.")] = 16,
    search: Annotated[int, _opt("--search", "Search iterations per decision.")] = 200,
    steps: Annotated[int, _opt("--steps", "Adam steps per round.")] = 200,
    hidden: _Hidden = "256,128",
    eval_every: Annotated[
        int,
        _opt("--eval-every", "Rounds between evaluations against the previous network and mcts."),
    ] = 10,
    eval_games: Annotated[int, _opt("--eval-games", "Games of each evaluation.")] = 20,
    max_decisions: Annotated[int, _opt("--max-decisions", "Cap of a self-play game.")] = 400,
    seed: _Seed = 0,
    teacher: Annotated[
        str,
        _opt("--teacher", "An mcts spec with iterations (mcts:800) playing the first rounds."),
    ] = "",
    teacher_rounds: Annotated[int, _opt("--teacher-rounds", "Rounds the teacher plays.")] = 0,
    noise: Annotated[float, _opt("--noise", "Dirichlet noise share at the root.")] = 0.25,
    explore: Annotated[int, _opt("--explore", "Decisions per game sampled, not argmax.")] = 20,
    holdout: Annotated[int, _opt("--holdout", "Every N-th game is held out (0: none).")] = 8,
    batch: _Batch = 256,
    lr: Annotated[float, _opt("--lr", "Adam's learning rate.")] = 1e-3,
    buffer: Annotated[int, _opt("--buffer", "Most recent examples fitted.")] = 100_000,
    workers: Annotated[int, _opt("--workers", "Processes playing the games.", "-j")] = 1,
    init: Annotated[str, _opt("--init", "A network file to start from (not random).")] = "",
    mix: Annotated[
        float, _opt("--mix", "Weight of playouts in the search's evaluation (0: the value alone).")
    ] = 0.0,
    exploration: Annotated[float, _opt("--exploration", "The search's PUCT constant.")] = 1.5,
    backend: Annotated[
        str, _opt("--backend", "Where games run: auto (ray if installed), local, ray, serial.")
    ] = "auto",
    search_value: Annotated[
        float, _opt("--search-value", "Weight of the search's value in the value target.")
    ] = 0.5,
    eval_seconds: Annotated[
        float, _opt("--eval-seconds", "Also score against mcts at this time per decision.")
    ] = 0.0,
) -> None:
    """Train a policy + value network by self-play (torch, CPU); resumes an interrupted run.

    Writes OUT/network.npz (play it with --seats or --bots net:OUT/network.npz),
    OUT/log.jsonl (losses, scores against the previous network and mcts) and checkpoints.
    """
    options = dict(locals())  # the parameters only: TrainConfig's fields, and out
    from ..train.loop import TrainConfig
    from ..train.loop import train as run_training

    config = _config(TrainConfig, options)
    with require("train", "train"):
        _run(lambda report: run_training(config, out, report=report), out)


@app.command()
def distill(
    game: _Game = "classic",
    players: _Players = 2,
    out: _Out = ...,  # type: ignore[assignment]
    games: Annotated[int, _opt("--games", "Games whose positions are labelled.")] = 15_000,
    sample: Annotated[float, _opt("--sample", "Share of their decisions kept.")] = 0.5,
    playouts: Annotated[int, _opt("--playouts", "Playouts averaged per position.")] = 8,
    steps: Annotated[int, _opt("--steps", "Adam steps of the fit.")] = 12_000,
    hidden: _Hidden = "256,128",
    features: Annotated[
        bool, _opt("--features/--no-features", "Read the reach features too.")
    ] = True,
    batch: _Batch = 512,
    lr: Annotated[float, _opt("--lr", "Adam's learning rate (a third of it at the end).")] = 1e-3,
    holdout: Annotated[int, _opt("--holdout", "Every N-th game is held out.")] = 10,
    seed: _Seed = 0,
    workers: Annotated[int, _opt("--workers", "Processes labelling positions.", "-j")] = 1,
    mix: Annotated[float, _opt("--mix", "Weight of playouts when the network plays.")] = 0.5,
    exploration: Annotated[float, _opt("--exploration", "PUCT constant when it plays.")] = 1.5,
    temperature: Annotated[
        float, _opt("--temperature", "The priors' temperature when it plays.")
    ] = 1.0,
    lookahead: Annotated[
        int, _opt("--lookahead", "Playout decisions before the value is read, when it plays.")
    ] = 0,
    teacher: Annotated[
        Path | None,
        _opt("--teacher", "A network file whose search labels the positions instead."),
    ] = None,
    iterations: Annotated[int, _opt("--iterations", "The teacher's search iterations.")] = 400,
    positions: Annotated[
        str,
        _opt(
            "--positions",
            "Who plays the position games: greedy, or teacher (its own games: self-play).",
        ),
    ] = "greedy",
    outcome: Annotated[
        float,
        _opt("--outcome", "Weight in [0, 1] of each game's outcome in the value target."),
    ] = 0.0,
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
    options = dict(locals())  # the parameters only: DistillConfig's fields, and out
    from ..train.distill import DistillConfig
    from ..train.distill import distill as run_distill

    options["teacher"] = "" if teacher is None else str(teacher)
    config = _config(DistillConfig, options)
    with require("train", "distill"):
        _run(lambda report: run_distill(config, out, report=report), out)


def _config(kind: Any, options: dict[str, Any]) -> Any:
    """``kind(**options)`` checked, with ``--hidden`` as two sizes and ``--game`` in
    lower case (``out`` left out); a bad option: ``error: ...`` on stderr, exit code 2."""
    fields = {k: v for k, v in options.items() if k != "out"}
    try:
        sizes = tuple(int(x) for x in fields["hidden"].split(","))
        if len(sizes) != 2:
            raise ValueError(f"--hidden takes two sizes, got {fields['hidden']!r}")
        config = kind(**{**fields, "game": fields["game"].lower(), "hidden": sizes})
        config.check()
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None
    return config


def _run(work: Any, out: Path) -> None:
    """``work(report)``, printing each line it reports as JSON; a bad setting found on the
    way: exit code 2; Ctrl-C: exit code 130 with how to resume from ``out``."""
    try:
        work(lambda line: typer.echo(json.dumps(line)))
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        typer.echo(f"interrupted; run the same command to resume from {out}", err=True)
        raise typer.Exit(130) from None


__all__ = ["distill", "train"]
