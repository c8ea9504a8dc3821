"""Post-game analyses: one per finished game, asked for by one of its players.

``analyses`` holds the analysis of a game (``game_id``, its primary key, deleted with the
game): who asked for it (``requested_by``, a player, or null for a seat token without a
player), its status (``queued`` while it waits for a worker, ``running``, ``done``,
``failed``), the analysis so far as JSON (``data``, rewritten after every analysed
decision, so a restarted server resumes where it was), the reason of a failure
(``error``) and its created and updated times (:mod:`splendor.server.analysis_jobs`).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "requested_by",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("data", sa.JSON(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_analyses_requested_by", "analyses", ["requested_by"])
    op.create_index("ix_analyses_status", "analyses", ["status"])


def downgrade() -> None:
    op.drop_index("ix_analyses_status", table_name="analyses")
    op.drop_index("ix_analyses_requested_by", table_name="analyses")
    op.drop_table("analyses")
