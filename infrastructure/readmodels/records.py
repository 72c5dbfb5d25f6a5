"""The records of finished games, built once and kept (application/records.py,
``record_document``; docs/audit.md, "Record format"): a table of game id, the version the
record covers, and its JSON — in PostgreSQL beside the event store, in SQLite in a file of its
own beside it (``<stem>-records.db``)."""

from __future__ import annotations

from uuid import UUID

from eventsourcing.postgres import PostgresDatastore
from eventsourcing.sqlite import SQLiteDatastore
from psycopg.sql import SQL, Composed, Identifier

TABLE = "gameledger_records"


class PostgresRecordStore:
    """Finished games' records in PostgreSQL."""

    name = "records"

    def __init__(self, datastore: PostgresDatastore) -> None:
        self.datastore = datastore
        self.table = Identifier(datastore.schema, TABLE)

    def ddl(self) -> list[Composed]:
        """Create the table."""
        return [
            SQL(
                "CREATE TABLE IF NOT EXISTS {} (game_id uuid PRIMARY KEY, "
                "version integer NOT NULL, body bytea NOT NULL)"
            ).format(self.table)
        ]

    def get(self, game_id: UUID) -> tuple[int, bytes] | None:
        """The stored record of a game and the version it covers."""
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL("SELECT version, body FROM {} WHERE game_id = %s").format(self.table),
                (game_id,),
            )
            row = curs.fetchone()
        return None if row is None else (int(row["version"]), bytes(row["body"]))

    def put(self, game_id: UUID, version: int, body: bytes) -> None:
        """Keep a record (one already kept stays)."""
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                SQL("INSERT INTO {} VALUES (%s, %s, %s) ON CONFLICT (game_id) DO NOTHING").format(
                    self.table
                ),
                (game_id, version, body),
            )


class SQLiteRecordStore:
    """Finished games' records in SQLite."""

    name = "records"

    def __init__(self, datastore: SQLiteDatastore) -> None:
        self.datastore = datastore

    def ddl(self) -> list[str]:
        """Create the table."""
        return [
            f"CREATE TABLE IF NOT EXISTS {TABLE} (game_id TEXT PRIMARY KEY, "
            "version INTEGER NOT NULL, body BLOB NOT NULL)"
        ]

    def get(self, game_id: UUID) -> tuple[int, bytes] | None:
        """The stored record of a game and the version it covers."""
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT version, body FROM {TABLE} WHERE game_id = ?", (game_id.hex,))
            row = c.fetchone()
        return None if row is None else (int(row[0]), bytes(row[1]))

    def put(self, game_id: UUID, version: int, body: bytes) -> None:
        """Keep a record (one already kept stays)."""
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                f"INSERT OR IGNORE INTO {TABLE} VALUES (?, ?, ?)", (game_id.hex, version, body)
            )
