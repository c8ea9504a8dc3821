"""Rematches: a lobby table may be the rematch of a finished game.

``tables.rematch_of`` names the game a table replays with the same players, seats and
settings (null: an ordinary table); only that game's players may sit at it.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("rematch_of", sa.String(32), nullable=True))
        batch.create_index("ix_tables_rematch_of", ["rematch_of"])


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_rematch_of")
        batch.drop_column("rematch_of")
