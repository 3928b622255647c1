"""announce every change of a room on PostgreSQL: a trigger NOTIFYs "room version" when a
room's version moves on (sent at commit, in the same transaction, without a round trip)

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("""
        CREATE OR REPLACE FUNCTION nemeton_room_changed() RETURNS trigger AS $$
        BEGIN
            PERFORM pg_notify('nemeton_rooms', NEW.id || ' ' || NEW.version);
            RETURN NEW;
        END;
        $$ LANGUAGE plpgsql
    """)
    op.execute("DROP TRIGGER IF EXISTS nemeton_room_changed ON rooms")
    op.execute("""
        CREATE TRIGGER nemeton_room_changed AFTER UPDATE OF version ON rooms
        FOR EACH ROW WHEN (NEW.version IS DISTINCT FROM OLD.version)
        EXECUTE FUNCTION nemeton_room_changed()
    """)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS nemeton_room_changed ON rooms")
    op.execute("DROP FUNCTION IF EXISTS nemeton_room_changed()")
