"""The tournaments read model kept in PostgreSQL, beside the event store, on the process's one
pool (:mod:`application.projections.tournaments`)."""

from __future__ import annotations

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore
from psycopg.sql import SQL, Composed, Identifier

from application.projections.tournaments import TournamentRow
from infrastructure.readmodels import tracking
from infrastructure.readmodels.sqlite_tournaments import SCHEMA_VERSION


class PostgresTournamentsView(tracking.PostgresTracked):
    """Tournament rows, rating rows and the tracking position written in one PostgreSQL
    transaction. ``suffix`` names a table set built beside the live one (a rebuild's)."""

    name = "tournaments"
    schema_version = SCHEMA_VERSION
    recreate_below = SCHEMA_VERSION

    def __init__(self, datastore: PostgresDatastore, suffix: str = "") -> None:
        self.datastore = datastore
        self.suffix = suffix
        self.table_name = f"tournaments{suffix}"
        self.ratings_name = f"tournament_ratings{suffix}"
        self.tracking_name = f"tournaments_tracking{suffix}"
        self.table = Identifier(datastore.schema, self.table_name)
        self.ratings_table = Identifier(datastore.schema, self.ratings_name)

    def tables(self) -> list[str]:
        """The tables of this read model, rows first."""
        return [self.table_name, self.ratings_name, self.tracking_name]

    def ddl(self) -> list[Composed]:
        """Create the tables."""
        return [
            SQL(
                "CREATE TABLE IF NOT EXISTS {} (tournament_id text NOT NULL, game text NOT NULL, "
                "phase text NOT NULL, created_at text NOT NULL, updated_at text NOT NULL, "
                "version integer NOT NULL, "
                "summary text NOT NULL, document text NOT NULL, CONSTRAINT {} PRIMARY KEY "
                "(tournament_id))"
            ).format(self.table, Identifier(f"{self.table_name}_pkey")),
            SQL(
                "CREATE TABLE IF NOT EXISTS {} (tournament_id text NOT NULL, entrant text NOT "
                "NULL, game text NOT NULL, ordinal double precision, document text NOT NULL, "
                "CONSTRAINT {} PRIMARY KEY (tournament_id, entrant))"
            ).format(self.ratings_table, Identifier(f"{self.ratings_name}_pkey")),
            *tracking.postgres_tracking_ddl(self.datastore.schema, self.tracking_name),
        ]

    def index_ddl(self) -> list[Composed]:
        """The indexes of the list's and the ratings' queries, by their names on the live
        tables."""
        return [
            SQL(
                "CREATE INDEX IF NOT EXISTS tournaments_newest ON {} "
                "(created_at DESC, tournament_id DESC)"
            ).format(self.table),
            SQL(
                "CREATE INDEX IF NOT EXISTS tournaments_recent ON {} "
                "(updated_at DESC, tournament_id DESC)"
            ).format(self.table),
            SQL(
                "CREATE INDEX IF NOT EXISTS tournament_ratings_best ON {} (game, ordinal DESC)"
            ).format(self.ratings_table),
        ]

    def apply_tournaments(self, rows: list[TournamentRow], position: Tracking) -> None:
        """Write and track, in one transaction (exactly once)."""
        upsert = SQL(
            "INSERT INTO {} VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT "
            "(tournament_id) DO UPDATE SET game = EXCLUDED.game, phase = EXCLUDED.phase, "
            "created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, "
            "version = EXCLUDED.version, "
            "summary = EXCLUDED.summary, document = EXCLUDED.document"
        ).format(self.table)
        clear = SQL("DELETE FROM {} WHERE tournament_id = %s").format(self.ratings_table)
        insert = SQL("INSERT INTO {} VALUES (%s, %s, %s, %s, %s)").format(self.ratings_table)
        with self.datastore.transaction(commit=True) as curs:
            tracking.unflushed_postgres(curs)
            tracking.record_postgres(curs, self.datastore.schema, self.tracking_name, position)
            for row in rows:
                curs.execute(
                    upsert,
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
                curs.execute(clear, (row.tournament_id,))
                for r in row.ratings:
                    curs.execute(
                        insert, (r.tournament_id, r.entrant, r.game, r.ordinal, r.document)
                    )
            tracking.notify_postgres(curs, self.datastore.schema, self.name)

    def document(self, tournament_id: str) -> str | None:
        """A tournament's public document."""
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL("SELECT document FROM {} WHERE tournament_id = %s").format(self.table),
                (tournament_id,),
            )
            row = curs.fetchone()
        return None if row is None else str(row["document"])

    def summaries(
        self, limit: int, after: tuple[str, str] | None, game: str | None, phase: str | None
    ) -> list[tuple[str, str, str]]:
        """A page of summaries, newest first."""
        clauses: list[SQL] = []
        params: list[object] = []
        if after is not None:
            clauses.append(SQL("(created_at, tournament_id) < (%s, %s)"))
            params += [after[0], after[1]]
        if game is not None:
            clauses.append(SQL("game = %s"))
            params.append(game)
        if phase is not None:
            clauses.append(SQL("phase = %s"))
            params.append(phase)
        where = SQL("WHERE ") + SQL(" AND ").join(clauses) if clauses else SQL("")
        query = SQL(
            "SELECT created_at, tournament_id, summary FROM {} {} "
            "ORDER BY created_at DESC, tournament_id DESC LIMIT %s"
        ).format(self.table, where)
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(query, (*params, limit))
            return [
                (str(r["created_at"]), str(r["tournament_id"]), str(r["summary"]))
                for r in curs.fetchall()
            ]

    def ratings(self, game: str, limit: int) -> list[str]:
        """The best ratings of a game kind."""
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL(
                    "SELECT document FROM {} WHERE game = %s AND ordinal IS NOT NULL "
                    "ORDER BY ordinal DESC, tournament_id, entrant LIMIT %s"
                ).format(self.ratings_table),
                (game, limit),
            )
            return [str(r["document"]) for r in curs.fetchall()]

    def recent(self, limit: int) -> list[str]:
        """The summaries of the tournaments changed last."""
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL(
                    "SELECT summary FROM {} ORDER BY updated_at DESC, tournament_id DESC LIMIT %s"
                ).format(self.table),
                (limit,),
            )
            return [str(r["summary"]) for r in curs.fetchall()]
