"""The leaderboard as one indexed query: ``ratings.value`` repeats the displayed rating.

``ratings.value`` (rating points) is the ``"value"`` of the JSON ``ratings.rating``,
written with it by every rated game; an index on ``(kind, value)`` lets the leaderboard
read only its top rows instead of ranking every rating of a kind in Python. Existing rows
are filled from their JSON (1500, a newcomer's rating, where it is unreadable: the next
rated game replaces such a row).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

from __future__ import annotations

import json
import math
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

NEWCOMER = 1500.0


def _value(rating: Any) -> float:
    """The displayed rating in a stored rating (JSON text or an object already decoded)."""
    try:
        if isinstance(rating, str):
            rating = json.loads(rating)
        value = float(rating["value"])
    except (TypeError, KeyError, ValueError):
        return NEWCOMER
    return value if math.isfinite(value) else NEWCOMER


def upgrade() -> None:
    with op.batch_alter_table("ratings") as batch:
        batch.add_column(sa.Column("value", sa.Float(), nullable=True))
    bind = op.get_bind()
    ratings = sa.table(
        "ratings",
        sa.column("player_id", sa.String),
        sa.column("kind", sa.String),
        sa.column("rating", sa.Text),  # read raw: a corrupt row must not stop the upgrade
        sa.column("value", sa.Float),
    )
    rows = bind.execute(sa.select(ratings.c.player_id, ratings.c.kind, ratings.c.rating)).all()
    for player_id, kind, rating in rows:
        bind.execute(
            ratings.update()
            .where(ratings.c.player_id == player_id, ratings.c.kind == kind)
            .values(value=_value(rating))
        )
    with op.batch_alter_table("ratings") as batch:
        batch.alter_column("value", existing_type=sa.Float(), nullable=False)
        batch.create_index("ix_ratings_kind_value", ["kind", "value"])


def downgrade() -> None:
    with op.batch_alter_table("ratings") as batch:
        batch.drop_index("ix_ratings_kind_value")
        batch.drop_column("value")
