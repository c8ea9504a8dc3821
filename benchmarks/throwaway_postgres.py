"""A throwaway PostgreSQL cluster for tests and benchmarks.

:func:`throwaway_postgres` runs ``initdb`` and ``pg_ctl`` from ``/usr/lib/postgresql/*/bin``
(Debian's ``postgresql`` package; as the ``postgres`` user when run as root) in a temporary
folder, listening only on a unix socket there, with ``fsync=off`` (a throwaway cluster
need not survive a power loss), and removes it all at the end.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class PostgresUnavailable(RuntimeError):
    """PostgreSQL is not installed, or the cluster did not start (the message says why)."""


def pg_bin() -> Path | None:
    """The folder of PostgreSQL's server programs (``initdb``, ``pg_ctl``), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def throwaway_postgres(max_connections: int = 100) -> Iterator[str]:
    """A running throwaway cluster; yields the SQLAlchemy URL of its ``postgres`` database.

    Raises:
        PostgresUnavailable: PostgreSQL is not installed (``make system-deps`` installs
            it) or ``initdb``/``pg_ctl`` failed (with their output).
    """
    bindir = pg_bin()
    if bindir is None:
        raise PostgresUnavailable(
            "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run "
            "`make system-deps` (apt-get install postgresql)"
        )
    root = Path(tempfile.mkdtemp(prefix="splendor-pg-"))
    prefix: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
        prefix = ["runuser", "-u", "postgres", "--"]
    data = root / "data"
    port = _free_port()
    log = root / "server.log"

    def run(*args: str) -> None:
        proc = subprocess.run([*prefix, *args], capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise PostgresUnavailable(f"{' '.join(args)} failed: {proc.stdout}{proc.stderr}{tail}")

    try:
        run(
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        run(
            str(bindir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(log),
            "-w",
            "-t",
            "60",
            "-o",
            f"-p {port} -k {root} -c listen_addresses='' -c fsync=off "
            f"-c max_connections={max_connections}",
            "start",
        )
        yield f"postgresql+psycopg://postgres@/postgres?host={root}&port={port}"
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run(
                [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                capture_output=True,
                timeout=60,
            )
        shutil.rmtree(root, ignore_errors=True)
