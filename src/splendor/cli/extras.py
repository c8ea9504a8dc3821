"""The optional parts of the package (``pip install 'splendor[web]'``): which modules each
extra brings, and :func:`require`, which turns a missing one into one clear line.

The core install (numpy, numba, typer, rich, Babel) plays, replays, analyses, rates bots
(``arena``), benchmarks, checks positions and runs the conformance suite. The extras:

- ``web``: ``splendor serve`` (FastAPI, uvicorn, SQLAlchemy, Alembic, psycopg, argon2,
  limits, glicko2, openskill, websockets, platformdirs);
- ``train``: ``splendor train`` and ``splendor distill`` (torch);
- ``analysis``: charts (matplotlib): ``splendor analyse --plot``, the arena's
  ``ratings.png``;
- ``rl``: the Gymnasium, PettingZoo and OpenSpiel adapters (no command);
- ``ray``: ``--backend ray`` of the arena and of training.

Every command imports what it needs inside itself, so that ``splendor --help`` and the
core commands never import an extra.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import typer

EXTRAS: dict[str, tuple[str, ...]] = {
    "web": (
        "fastapi",
        "starlette",
        "uvicorn",
        "sqlalchemy",
        "alembic",
        "psycopg",
        "argon2",
        "limits",
        "glicko2",
        "openskill",
        "websockets",
        "platformdirs",
    ),
    "train": ("torch",),
    "analysis": ("matplotlib",),
    "rl": ("gymnasium", "pettingzoo", "pyspiel"),
    "ray": ("ray",),
}
"""The top-level modules each extra installs, by extra (``pyproject.toml``'s
``[project.optional-dependencies]``)."""

PROBES: dict[str, tuple[str, ...]] = {
    "web": ("fastapi", "uvicorn", "sqlalchemy"),
    "train": ("torch",),
    "analysis": ("matplotlib",),
    "rl": ("gymnasium", "pettingzoo"),
    "ray": ("ray",),
}
"""The modules imported up front to tell whether an extra is installed (some of its
modules are imported only once a command is under way: torch by the first fit)."""


def missing_extra(extra: str, command: str) -> NoReturn:
    """Print ``error: splendor COMMAND needs the EXTRA extra: pip install
    'splendor[EXTRA]'`` on stderr and exit with code 1."""
    from rich.console import Console
    from rich.text import Text

    err = Console(stderr=True, highlight=False, markup=False, emoji=False)
    err.print(
        Text("error: ", style="bold red")
        + Text(f"splendor {command} needs the {extra} extra: pip install 'splendor[{extra}]'"),
        soft_wrap=True,
    )
    raise typer.Exit(1)


def is_missing(error: ImportError, extra: str) -> bool:
    """Whether ``error`` says that a module of ``extra`` is not installed."""
    name = getattr(error, "name", None) or ""
    return name.partition(".")[0] in EXTRAS[extra]


def installed(extra: str) -> bool:
    """Whether every module :data:`PROBES` lists for ``extra`` imports."""
    try:
        for module in PROBES[extra]:
            importlib.import_module(module)
    except ImportError as e:
        if is_missing(e, extra):
            return False
        raise
    return True


def ensure(extra: str, command: str) -> None:
    """End the command with :func:`missing_extra` unless ``extra`` is :func:`installed`
    (a check made before long work that needs it at the end).

    Raises:
        typer.Exit: code 1, the extra is not installed.
    """
    if not installed(extra):
        missing_extra(extra, command)


@contextmanager
def require(extra: str, command: str) -> Iterator[None]:
    """Run the block (a command's imports of ``extra``) only when ``extra`` is installed:
    on entry its :data:`PROBES` are imported, and a module of :data:`EXTRAS` ``[extra]``
    missing there or inside the block ends the command with :func:`missing_extra` (one
    line on stderr, exit code 1, no traceback). Other import errors go through.

    Raises:
        KeyError: an unknown ``extra``.
        typer.Exit: code 1, the extra is not installed.
    """
    ensure(extra, command)
    try:
        yield
    except ImportError as e:
        if not is_missing(e, extra):
            raise
        missing_extra(extra, command)


__all__ = ["EXTRAS", "PROBES", "ensure", "installed", "missing_extra", "require"]
