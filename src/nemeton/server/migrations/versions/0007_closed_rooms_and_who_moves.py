"""closed rooms and who moves next: a room ended before its game did (by the operator, or
expired after days untouched) has the status "closed" and says why (``closed_reason``); each
stored action also stores the seats to act after it (``to_move``, JSON), so that at start the
server loads only the rooms an agent or a turn timer must move (docs/server.md, "Expiry and
loading")

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("closed_reason", sa.String(200), nullable=True))
    op.add_column("rooms", sa.Column("to_move", sa.Text, nullable=True))
    op.create_index("ix_rooms_updated_at", "rooms", ["updated_at"])


def downgrade() -> None:
    op.drop_index("ix_rooms_updated_at", "rooms")
    with op.batch_alter_table("rooms", recreate="never") as batch:
        batch.drop_column("to_move")
        batch.drop_column("closed_reason")
