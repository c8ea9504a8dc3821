"""Idempotent game creation: the idempotency keys games were created with.

``idempotency_keys`` holds, per game created with an ``Idempotency-Key`` header, the key's
SHA-256 (primary key: a key makes one game), the game (deleted with it), the SHA-256 of
the request (a key reused with another request is refused) and the random salt from which,
with the key, the game's seat tokens were derived (a retry gets the same tokens; the
database alone cannot give them).

Revision ID: 0003
Revises: 0002
Create Date: 2026-05-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "idempotency_keys",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column(
            "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("salt", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_idempotency_keys_game_id", "idempotency_keys", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_idempotency_keys_game_id", table_name="idempotency_keys")
    op.drop_table("idempotency_keys")
