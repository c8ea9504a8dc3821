"""Life cycle: the seat to decide next on each game, and a note on a move.

``games.next_seat`` (null: the game is over, or a game stored before this revision) lets a
restarted server find the games whose bot is to move without replaying every game, and
the expiry find the games that wait for a person. ``moves.note`` (null: none) is a remark
shown with the move in the game log, e.g. that a random legal action was played for a bot
that kept failing.

Revision ID: 0002
Revises: 0001
Create Date: 2026-05-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("next_seat", sa.Integer, nullable=True))
    with op.batch_alter_table("moves") as batch:
        batch.add_column(sa.Column("note", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("note")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("next_seat")
