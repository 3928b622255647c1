"""analyses: a finished game's analysis (nemeton.teacher.analyse_record, its JSON), stored with
the game once worked out, so that it is served again without searching (docs/server.md,
"Analysis")

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("analysis", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
