"""analysis_jobs: a finished game's analysis while it is being worked out, as a row that every
server process on the database reads (its state, decisions done of total, the process that
runs it and that process's last heartbeat), so that they all answer the same progress, only
one runs it, and a job whose process died is taken over once its lease has run out
(docs/server.md, "Analysis")

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analysis_jobs",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("owner", sa.String(80), nullable=False),
        sa.Column("heartbeat", sa.DateTime(timezone=True), nullable=True),
        sa.Column("message", sa.String(200), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analysis_jobs")
