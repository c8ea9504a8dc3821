"""What every ``splendor`` command shares: the typer application, the one-line error, the
progress bar, the consoles, and the options several commands declare alike."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console

if TYPE_CHECKING:
    from rich.progress import Progress


def _plain_flags() -> None:
    """Show a flag (``--quiet``, ``--progress/--no-progress``, ``--help``) plainly in every
    command's ``--help``, without the ``<bool>`` that typer's rich panel gives any option:
    a flag takes no value. Done once here, for the ``splendor`` command and all its
    subcommands (typer builds each option from :class:`typer.core.TyperOption`)."""
    from typer.core import TyperOption

    typed = TyperOption.display_type_rich
    if getattr(typed, "plain_flags", False):
        return

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:
        if self.is_flag or self.count:
            return None
        return typed(self, ctx)

    display_type_rich.plain_flags = True  # type: ignore[attr-defined]  # marks the patch
    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_plain_flags()

app = typer.Typer(
    help="Splendor: play in the terminal, replay records, benchmark the engine.",
    no_args_is_help=True,
    add_completion=False,
)
"""The ``splendor`` command; each module of :mod:`splendor.cli` adds its commands to it."""

Progress_ = Annotated[
    bool, typer.Option("--progress/--no-progress", help="Progress bar on stderr.")
]
"""``--progress/--no-progress`` (analyse, arena)."""


def plain_console(*, stderr: bool = False) -> Console:
    """A console that prints text as it is: no markup, no highlighting, no emoji codes
    (names, actions and reasons from records are never rich markup)."""
    return Console(stderr=stderr, highlight=False, markup=False, emoji=False)


def table_console(*, plain: bool = False) -> Console:
    """A console on stdout for tables: 120 columns wide when it writes to a file or pipe
    (and ``COLUMNS`` is not set), the terminal's width otherwise; ``plain``: no markup
    nor emoji codes either (:func:`plain_console`)."""
    styled = not plain
    console = Console(highlight=False, markup=styled, emoji=styled)
    if not console.is_terminal and "COLUMNS" not in os.environ:  # a file or pipe
        console = Console(highlight=False, markup=styled, emoji=styled, width=120)
    return console


def failer(err: Console) -> Callable[[str, int], NoReturn]:
    """``fail(message, code)``: print ``error: message`` (one line) on ``err`` and exit
    with ``code``."""

    def fail(message: str, code: int) -> NoReturn:
        from rich.text import Text

        err.print(
            Text("error: ", style="bold red") + Text(" ".join(message.splitlines())), soft_wrap=True
        )
        raise typer.Exit(code)

    return fail


def progress_bar(err: Console, label: str, enabled: bool, unit: str | None = None) -> Progress:
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


def usage_error(message: str) -> NoReturn:
    """Print ``message`` on stderr as it is and exit with code 2 (a bad option)."""
    typer.echo(message, err=True)
    raise typer.Exit(2)


__all__ = [
    "Progress_",
    "app",
    "failer",
    "plain_console",
    "progress_bar",
    "table_console",
    "usage_error",
]
