"""a room's creator token, and agents standing in for absent people

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("creator_hash", sa.String(64), nullable=True))
    op.add_column("seats", sa.Column("stand_in", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats", recreate="never") as batch:
        batch.drop_column("stand_in")
    with op.batch_alter_table("rooms", recreate="never") as batch:
        batch.drop_column("creator_hash")
