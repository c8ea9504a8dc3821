"""``splendor conformance``: the conformance suite against this engine or another one
(:mod:`splendor.conformance`, docs/conformance.md); no extra needed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from .common import app, plain_console

if TYPE_CHECKING:
    from ..conformance import Case, Engine

_Game = Annotated[
    str | None,
    typer.Option("--game", "-g", help="Only this game's cases: classic (also splendor) or duel."),
]
_Rule = Annotated[
    list[str],
    typer.Option(
        "--rule",
        "-r",
        help="Only the cases citing this rule id (C1-C18, D1-D25); repeat it or give a "
        "comma-separated list: --rule C8,C11.",
    ),
]
_List = Annotated[
    bool,
    typer.Option("--list", help="List the cases (id, rules, description) instead of running them."),
]
_Engine = Annotated[
    str | None,
    typer.Option(
        "--engine",
        "-e",
        help="Run against another engine: a command speaking the adapter protocol "
        "(docs/conformance.md), e.g. 'examples/conformance_adapter.py' (a first word ending "
        "in .py runs with this Python). Default: this package's engine.",
    ),
]
_Timeout = Annotated[
    float, typer.Option("--timeout", help="With --engine: seconds allowed for each answer.")
]
_Verbose = Annotated[bool, typer.Option("--verbose", "-v", help="Also print the cases passed.")]


def _usage(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr; the exit (code 2) to raise."""
    plain_console(stderr=True).print(f"error: {message}", soft_wrap=True)
    return typer.Exit(2)


@app.command()
def conformance(
    game: _Game = None,
    rule: _Rule = [],  # noqa: B006 (typer reads the default; it is never changed)
    list_cases: _List = False,
    engine: _Engine = None,
    timeout: _Timeout = 10.0,
    verbose: _Verbose = False,
) -> None:
    """Run the conformance suite against this engine, or another one (docs/conformance.md).

    Each case is a position with the legal decisions or the outcome that the rules it cites
    call for, and checks either the rulebook or one of this project's rulings. Prints each
    failure (case id, rules, expected and got), the counts per source, then 'N passed, M
    failed' (and 'K unsupported': cases the engine says it does not model, neither passed
    nor failed). Exit code 0 when none fails, 1 when a case fails, 2 for bad options or an
    adapter that breaks the protocol (exits, answers what is not an answer, or is silent).
    """
    from ..conformance import ExternalEngine, LocalEngine, load_cases, rules_cited

    rules = [r.strip().upper() for item in rule for r in item.split(",") if r.strip()]
    try:
        cases = load_cases(game=game, rules=rules or None)
    except ValueError as e:
        raise _usage(str(e)) from None
    if not cases:
        raise _usage(f"no case cites {', '.join(rules)}")
    if list_cases:
        for c in cases:
            typer.echo(f"{c.id:7} {c.source:8} {','.join(c.rules):16} {c.description}")
        counts = rules_cited(cases)
        typer.echo(f"{len(cases)} cases; " + " ".join(f"{r}:{n}" for r, n in counts.items()))
        return
    if timeout <= 0:
        raise _usage("--timeout must be positive")
    runner: Engine = LocalEngine() if engine is None else ExternalEngine(engine, timeout=timeout)
    raise typer.Exit(_run(cases, runner, verbose))


def _run(cases: list[Case], runner: Engine, verbose: bool) -> int:
    """Run ``cases`` on ``runner`` (closed at the end), printing each failure (and each
    pass when ``verbose``) and the summary; the exit code: 0 all pass, 1 a case failed, 2
    the adapter broke the protocol."""
    from ..conformance import CaseResult, describe_failure, run_cases

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
    for line in report.by_source().splitlines():
        typer.echo(f"  {line}")
    typer.echo(report.summary())
    if report.error is not None:
        plain_console(stderr=True).print(f"error: adapter failed {report.error}", soft_wrap=True)
        return 2
    return 1 if report.failed else 0


__all__ = ["conformance"]
