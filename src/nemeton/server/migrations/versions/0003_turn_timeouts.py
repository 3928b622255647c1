"""turn timeouts: a room's time per decision, and stand-ins that last until the person returns

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("turn_timeout_s", sa.Float, nullable=True))
    op.add_column("seats", sa.Column("stand_in_auto", sa.Boolean, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats", recreate="never") as batch:
        batch.drop_column("stand_in_auto")
    with op.batch_alter_table("rooms", recreate="never") as batch:
        batch.drop_column("turn_timeout_s")
