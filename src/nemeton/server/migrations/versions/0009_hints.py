"""hints: whether a room's people may ask the search for hints during play (``hints``), chosen
by the room's creator; rooms stored before it have none (docs/server.md, "Hints")

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("rooms", recreate="never") as batch:
        batch.drop_column("hints")
