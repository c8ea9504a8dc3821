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


class ThrowawayPostgres:
    """A throwaway cluster in a new temporary folder (``initdb`` runs here), listening only
    on a unix socket in that folder; :meth:`start` and :meth:`stop` it (a test may stop it
    for an outage and start it again), :meth:`close` removes it all.

    Raises:
        PostgresUnavailable: PostgreSQL is not installed (``make system-deps`` installs
            it), or ``initdb`` failed (with its output).
    """

    def __init__(self, max_connections: int = 100) -> None:
        bindir = pg_bin()
        if bindir is None:
            raise PostgresUnavailable(
                "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run "
                "`make system-deps` (apt-get install postgresql)"
            )
        self.bindir = bindir
        self.max_connections = max_connections
        # a short folder: a unix socket's path has a length limit
        self.root = Path(tempfile.mkdtemp(prefix="splendor-pg-"))
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
            self.prefix = ["runuser", "-u", "postgres", "--"]
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = _free_port()
        try:
            self._run(
                "initdb",
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            )
        except PostgresUnavailable:
            shutil.rmtree(self.root, ignore_errors=True)
            raise

    def _run(self, tool: str, *args: str) -> None:
        proc = subprocess.run(
            [*self.prefix, str(self.bindir / tool), *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        if proc.returncode != 0:
            tail = self.log.read_text()[-2000:] if self.log.exists() else ""
            raise PostgresUnavailable(
                f"{tool} {' '.join(args)} failed: {proc.stdout}{proc.stderr}{tail}"
            )

    def start(self) -> None:
        """Start the server (waits until it answers, 60 s at most).

        Raises:
            PostgresUnavailable: ``pg_ctl start`` failed (with the server's log).
        """
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-w",
            "-t",
            "60",
            "-o",
            f"-p {self.port} -k {self.root} -c listen_addresses='' -c fsync=off "
            f"-c max_connections={self.max_connections}",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``mode``: ``fast``, ``smart`` or ``immediate``); the data stay.

        Raises:
            PostgresUnavailable: ``pg_ctl stop`` failed.
        """
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of ``database`` on this cluster."""
        return f"postgresql+psycopg://postgres@/{database}?host={self.root}&port={self.port}"

    def close(self) -> None:
        """Stop the server at once if it runs, and remove the cluster's folder."""
        if (self.data / "postmaster.pid").exists():
            subprocess.run(
                [*self.prefix, str(self.bindir / "pg_ctl"), "-D", str(self.data)]
                + ["-m", "immediate", "stop"],
                capture_output=True,
                timeout=60,
            )
        shutil.rmtree(self.root, ignore_errors=True)


@contextmanager
def throwaway_postgres(max_connections: int = 100) -> Iterator[str]:
    """A running throwaway cluster (:class:`ThrowawayPostgres`); yields the SQLAlchemy URL
    of its ``postgres`` database, and removes the cluster at the end.

    Raises:
        PostgresUnavailable: PostgreSQL is not installed (``make system-deps`` installs
            it) or ``initdb``/``pg_ctl`` failed (with their output).
    """
    cluster = ThrowawayPostgres(max_connections)
    try:
        cluster.start()
        yield cluster.url()
    finally:
        cluster.close()
