"""The tournaments read model kept in SQLite, in its own database file
(:mod:`application.projections.tournaments`)."""

from __future__ import annotations

from eventsourcing.persistence import Tracking
from eventsourcing.sqlite import SQLiteDatastore

from application.projections.tournaments import TournamentRow
from infrastructure.readmodels import tracking

SCHEMA_VERSION = 2
"""Version 2 adds ``updated_at`` and its index (the lobby stream's tournaments changed last)."""


class SQLiteTournamentsView(tracking.SQLiteTracked):
    """Tournament rows, rating rows and the tracking position written in one SQLite
    transaction. ``suffix`` names a table set built beside the live one (a rebuild's)."""

    name = "tournaments"
    schema_version = SCHEMA_VERSION
    recreate_below = SCHEMA_VERSION

    def __init__(self, datastore: SQLiteDatastore, suffix: str = "") -> None:
        self.datastore = datastore
        self.suffix = suffix
        self.table = f"tournaments{suffix}"
        self.ratings_table = f"tournament_ratings{suffix}"
        self.tracking_name = f"tournaments_tracking{suffix}"

    def tables(self) -> list[str]:
        """The tables of this read model, rows first."""
        return [self.table, self.ratings_table, self.tracking_name]

    def ddl(self) -> list[str]:
        """Create the tables."""
        return [
            f"CREATE TABLE IF NOT EXISTS {self.table} (tournament_id TEXT NOT NULL PRIMARY KEY, "
            "game TEXT NOT NULL, phase TEXT NOT NULL, created_at TEXT NOT NULL, "
            "updated_at TEXT NOT NULL, version INTEGER NOT NULL, summary TEXT NOT NULL, "
            "document TEXT NOT NULL)",
            f"CREATE TABLE IF NOT EXISTS {self.ratings_table} (tournament_id TEXT NOT NULL, "
            "entrant TEXT NOT NULL, game TEXT NOT NULL, ordinal REAL, document TEXT NOT NULL, "
            "PRIMARY KEY (tournament_id, entrant))",
            *tracking.sqlite_tracking_ddl(self.tracking_name),
        ]

    def index_ddl(self) -> list[str]:
        """The indexes of the list's and the ratings' queries, by their names on the live
        tables."""
        return [
            "CREATE INDEX IF NOT EXISTS tournaments_newest ON "
            f"{self.table} (created_at DESC, tournament_id DESC)",
            "CREATE INDEX IF NOT EXISTS tournaments_recent ON "
            f"{self.table} (updated_at DESC, tournament_id DESC)",
            "CREATE INDEX IF NOT EXISTS tournament_ratings_best ON "
            f"{self.ratings_table} (game, ordinal DESC)",
        ]

    def apply_tournaments(self, rows: list[TournamentRow], position: Tracking) -> None:
        """Write and track, in one transaction (exactly once)."""
        with self.datastore.transaction(commit=True) as c:
            tracking.record_sqlite(c, self.tracking_name, position)
            for row in rows:
                c.execute(
                    f"INSERT OR REPLACE INTO {self.table} VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        row.tournament_id,
                        row.game,
                        row.phase,
                        row.created_at,
                        row.updated_at,
                        row.version,
                        row.summary,
                        row.document,
                    ),
                )
                c.execute(
                    f"DELETE FROM {self.ratings_table} WHERE tournament_id = ?",
                    (row.tournament_id,),
                )
                c.executemany(
                    f"INSERT INTO {self.ratings_table} VALUES (?, ?, ?, ?, ?)",
                    [
                        (r.tournament_id, r.entrant, r.game, r.ordinal, r.document)
                        for r in row.ratings
                    ],
                )

    def document(self, tournament_id: str) -> str | None:
        """A tournament's public document."""
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT document FROM {self.table} WHERE tournament_id = ?", (tournament_id,)
            )
            row = c.fetchone()
        return None if row is None else str(row[0])

    def summaries(
        self, limit: int, after: tuple[str, str] | None, game: str | None, phase: str | None
    ) -> list[tuple[str, str, str]]:
        """A page of summaries, newest first."""
        where, params = _filters(after, game, phase)
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT created_at, tournament_id, summary FROM {self.table} {where} "
                "ORDER BY created_at DESC, tournament_id DESC LIMIT ?",
                (*params, limit),
            )
            return [(str(a), str(b), str(s)) for a, b, s in c.fetchall()]

    def ratings(self, game: str, limit: int) -> list[str]:
        """The best ratings of a game kind."""
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT document FROM {self.ratings_table} WHERE game = ? AND ordinal IS NOT "
                "NULL ORDER BY ordinal DESC, tournament_id, entrant LIMIT ?",
                (game, limit),
            )
            return [str(r[0]) for r in c.fetchall()]

    def recent(self, limit: int) -> list[str]:
        """The summaries of the tournaments changed last."""
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT summary FROM {self.table} "
                "ORDER BY updated_at DESC, tournament_id DESC LIMIT ?",
                (limit,),
            )
            return [str(r[0]) for r in c.fetchall()]


def _filters(
    after: tuple[str, str] | None, game: str | None, phase: str | None
) -> tuple[str, list[object]]:
    clauses: list[str] = []
    params: list[object] = []
    if after is not None:
        clauses.append("(created_at < ? OR (created_at = ? AND tournament_id < ?))")
        params += [after[0], after[0], after[1]]
    if game is not None:
        clauses.append("game = ?")
        params.append(game)
    if phase is not None:
        clauses.append("phase = ?")
        params.append(phase)
    return ("WHERE " + " AND ".join(clauses) if clauses else ""), params
