"""Alembic environment: runs the migrations on the connection the server hands over
(``config.attributes["connection"]``), or on ``sqlalchemy.url`` from the command line."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from splendor.server.storage import Base

target_metadata = Base.metadata


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        context.configure(
            connection=connection, target_metadata=target_metadata, render_as_batch=True
        )
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if url is None:
        raise RuntimeError(
            "no database to migrate: pass a connection in config.attributes['connection'] "
            "or set the sqlalchemy.url option"
        )
    engine = create_engine(url)
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run_migrations_online()
