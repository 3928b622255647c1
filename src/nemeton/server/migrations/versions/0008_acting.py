"""one name per concept: the seats to act after the last stored action are ``acting``, as
everywhere else (docs/engine.md, "Glossary"); the column was ``to_move`` (migration 0007)

The column is renamed in place (``ALTER TABLE ... RENAME COLUMN``, SQLite 3.25 or later and
PostgreSQL), never by copying the table: on SQLite a copy drops the old ``rooms`` table, and
with foreign keys on that deletes every room's seats and actions (``ON DELETE CASCADE``).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", recreate="never") as batch:
        batch.alter_column("to_move", new_column_name="acting")


def downgrade() -> None:
    with op.batch_alter_table("rooms", recreate="never") as batch:
        batch.alter_column("acting", new_column_name="to_move")
