"""The ``splendor`` command (typer): ``play``, ``replay``, ``analyse``, ``position``,
``conformance``, ``bench``, ``train``, ``distill``, ``arena``, ``serve``, ``admin``.

Every subcommand has ``--help``. The CLI is an interface: it reaches the games only through
the engine API (:mod:`splendor.game`, :mod:`splendor.record`, :mod:`splendor.bots`). One
module per command or pair of commands adds them to :data:`app`; each command imports what
it needs inside itself, so that the core install runs every command but ``serve``, ``admin``,
``train`` and ``distill``, which name the extra to install when it is missing
(:mod:`.extras`).
"""

from __future__ import annotations

import importlib

from .common import app

COMMAND_MODULES = (
    "play",  # play, replay
    "analyse",
    "position",
    "conformance",
    "bench",
    "train",  # train, distill
    "arena",
    "serve",
    "admin",  # admin grant, revoke, list, ban, unban
)
"""The modules of the commands, in the order ``splendor --help`` lists them."""

for _module in COMMAND_MODULES:
    importlib.import_module(f"{__name__}.{_module}")


def main() -> None:
    """Console-script entry point."""
    app()


__all__ = ["COMMAND_MODULES", "app", "main"]
