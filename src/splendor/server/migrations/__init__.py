"""Alembic schema migrations of the server's database, shipped inside the package.

:func:`upgrade` brings a database to the newest revision; the server calls it at start-up
(:meth:`splendor.server.storage.Storage.migrate`). The scripts are in ``versions/``; a new
revision is written with the ``alembic`` command using this folder as ``script_location``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.engine import Engine

if TYPE_CHECKING:
    from alembic.config import Config

HERE = Path(__file__).resolve().parent


def alembic_config(url: str | None = None) -> Config:
    """An :class:`alembic.config.Config` for these migrations (no ``alembic.ini`` needed).

    Args:
        url: the database URL, for the ``alembic`` command line; the server passes a
            connection instead.
    """
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply every migration up to ``revision`` on ``engine``'s database, in one
    transaction where the database allows it (PostgreSQL and SQLite do)."""
    from alembic import command

    cfg = alembic_config()
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, revision)


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None for an empty database)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
