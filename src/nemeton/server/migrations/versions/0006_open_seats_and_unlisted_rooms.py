"""open seats and unlisted rooms: a room may be left out of the lobby (reachable only by its
links), and a person's seat may wait for anyone to take it (no token yet; the room's status
is "waiting" until every seat is taken)

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("rooms", recreate="never") as batch:
        batch.drop_column("listed")
