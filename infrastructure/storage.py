"""Where one process keeps its events and read models, and its connections to them
(docs/operations.md, "Connections").

* **PostgreSQL:** one pool of connections per process, shared by the event store, its
  snapshots and every read model: ``pool_size`` connections kept while idle, up to
  ``pool_size + max_overflow`` under load (those above ``pool_size`` close after ``max_idle``
  seconds unused); a connection is opened within ``connect_timeout`` seconds and a request
  waits at most ``pool_timeout`` seconds for a free one, so nothing hangs on a busy server.
  A process that follows the log holds one more connection, its LISTEN
  (:mod:`infrastructure.watcher`).
* **SQLite** (the embedded default): the event store in one file and each read model in a
  file beside it (``<stem>-games_list.db``, ``<stem>-turns.db``, ``<stem>-clocks.db``).
* **memory**: the library's in-memory recorders; read models in in-memory SQLite.

Nothing here creates a table: :mod:`infrastructure.schema` does, as one explicit step."""

from __future__ import annotations

import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol, Self
from uuid import UUID

from eventsourcing.persistence import AggregateRecorder, ApplicationRecorder, StoredEvent
from eventsourcing.popo import POPOAggregateRecorder, POPOApplicationRecorder
from eventsourcing.postgres import ConnectionPool, PostgresAggregateRecorder, PostgresDatastore
from eventsourcing.sqlite import (
    SQLiteAggregateRecorder,
    SQLiteApplicationRecorder,
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteDatastore,
)
from psycopg import Connection, Cursor
from psycopg.rows import DictRow, dict_row

from application.shards import store_name
from application.store import EventsByTopic
from infrastructure.config import PostgresSettings, Settings
from infrastructure.pgrecorder import RenderedPostgresRecorder
from infrastructure.readmodels.postgres_clocks import PostgresClocksView
from infrastructure.readmodels.postgres_games_list import PostgresGamesListView
from infrastructure.readmodels.postgres_tournaments import PostgresTournamentsView
from infrastructure.readmodels.postgres_turns import PostgresTurnsView
from infrastructure.readmodels.records import PostgresRecordStore, SQLiteRecordStore
from infrastructure.readmodels.sqlite_clocks import SQLiteClocksView
from infrastructure.readmodels.sqlite_games_list import SQLiteGamesListView
from infrastructure.readmodels.sqlite_tournaments import SQLiteTournamentsView
from infrastructure.readmodels.sqlite_turns import SQLiteTurnsView
from infrastructure.readmodels.tracking_only import PostgresTrackingView, SQLiteTrackingView
from infrastructure.tlog_postgres import PostgresLogStore
from infrastructure.tlog_sqlite import SQLiteLogStore

READ_MODELS = ("games_list", "turns", "clocks", "tournaments")
"""The read models: rebuilt from zero by ``projections rebuild``."""

MANAGERS = ("tournament_results",)
"""The process managers that follow the log with a tracking table of their own (no rows,
never rebuilt: application/tournament_results.py)."""
"""Every read model, by name (the projections of application/projections/)."""

SQLITE_LOCK_TIMEOUT = 10
"""Seconds an SQLite connection waits for another process's write lock."""


class ReadModelView(Protocol):
    """What the storage side of every read model offers (besides its own queries)."""

    name: str
    suffix: str

    def tables(self) -> list[str]:
        """Its tables, rows first, tracking last."""
        ...

    def ddl(self) -> list[Any]:
        """Statements creating its tables."""
        ...

    def index_ddl(self) -> list[Any]:
        """Statements creating its secondary indexes."""
        ...

    def max_tracking_id(self, application_name: str) -> int | None:
        """How far it has followed ``application_name``'s log."""
        ...


@dataclass(frozen=True)
class EventRecorders:
    """The event store of the games: the events and their snapshots, and the store's change
    token where it has one (:class:`application.store.EventStorage`)."""

    events: ApplicationRecorder
    snapshots: AggregateRecorder
    events_table: str
    snapshots_table: str
    change_token: Callable[[], object] | None = None
    by_topic: EventsByTopic | None = None
    service_ddl: list[Any] = field(default_factory=list)
    """The statements creating what the service adds to the library's tables: the index
    ``by_topic`` reads, and on PostgreSQL the function a save calls
    (:mod:`infrastructure.schema`)."""
    channel: str = ""
    """The channel a save NOTIFYs (PostgreSQL)."""


class SQLiteEventsByTopic:
    """A game's events of some topics, through the SQLite index of topics."""

    def __init__(self, datastore: SQLiteDatastore, table: str) -> None:
        self.datastore = datastore
        self.table = table

    def ddl(self) -> list[str]:
        """The index of a game's events by topic."""
        return [
            f"CREATE INDEX IF NOT EXISTS {self.table}_topic_idx ON {self.table} "
            "(originator_id, topic, originator_version)"
        ]

    def __call__(
        self, game_id: UUID, topics: Sequence[str], after: int, up_to: int, limit: int
    ) -> Sequence[StoredEvent]:
        marks = ", ".join("?" for _ in topics)
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT originator_id, originator_version, topic, state FROM {self.table} "
                f"WHERE originator_id = ? AND topic IN ({marks}) AND originator_version > ? "
                "AND originator_version <= ? ORDER BY originator_version LIMIT ?",
                (game_id.hex, *topics, after, up_to, limit),
            )
            return [StoredEvent(UUID(row[0]), row[1], row[2], row[3]) for row in c.fetchall()]


class SQLiteDataVersion:
    """SQLite's ``PRAGMA data_version`` on a connection of its own: a number that changes
    whenever any other connection, of this process or another, commits to the file — the
    store's change token (:class:`application.store.EventStorage`)."""

    def __init__(self, path: str) -> None:
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()

    def __call__(self) -> object:
        with self._lock:
            found = self._conn.execute("PRAGMA data_version").fetchone()
        return found[0]

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()


class SQLiteLastEvent:
    """The id of the last event stored in a SQLite file: a number that changes whenever a
    commit, of this process or another, stores events, and only then — the event store's
    exact change token (:class:`application.store.EventStorage`). Ids are never reused:
    events are never deleted and the file is never vacuumed.

    Asked on connections of its own, one per caller at once: a caller takes an idle one (or
    opens one) and gives it back, so readers of the WAL file never wait for each other nor
    for a lock of this process. (``PRAGMA data_version`` counts the commits one connection
    has seen: the threads of a server shared one, and queued for its lock;
    docs/performance.md, "HTTP".) There are never more connections than callers at once,
    whatever the threads (a server that starts one per request included), and a connection
    is only ever closed idle: :meth:`close` closes the idle ones, and each one in use when
    it is given back."""

    def __init__(self, path: str, table: str) -> None:
        self._path = path
        self._statement = f"SELECT MAX(rowid) FROM {table}"
        self._idle: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        self._closed = False

    def __call__(self) -> object:
        try:
            conn = self._idle.get_nowait()
        except queue.Empty:
            if self._closed:
                raise sqlite3.ProgrammingError("The store is closed.") from None
            conn = sqlite3.connect(self._path, check_same_thread=False, isolation_level=None)
        try:
            found = conn.execute(self._statement).fetchone()
        finally:
            self._idle.put(conn)
            if self._closed:
                self._close_idle()
        return found[0] or 0

    def close(self) -> None:
        """Close the connections (those in use as they are given back)."""
        self._closed = True
        self._close_idle()

    def _close_idle(self) -> None:
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return


class ReadModelConnections(SQLiteConnectionPool):
    """The connections of a read model's SQLite file, each with ``synchronous=NORMAL``: in WAL
    mode a commit then waits for no disk flush. A read model needs no more: its rows and its
    tracking position commit together, so a commit lost to a power failure is lost whole and
    its follower applies the same events again (the event store keeps the default, a flush
    at every commit: the events are the truth)."""

    def _create_connection(self) -> SQLiteConnection:
        connection = super()._create_connection()
        connection.cursor().execute("PRAGMA synchronous=NORMAL")
        return connection


class PooledDatastore(PostgresDatastore):
    """The library's PostgreSQL datastore on a pool configured as documented
    (docs/operations.md, "Connections"): a connection timeout on every connect, idle
    connections above ``pool_size`` closed after ``max_idle`` seconds, and every statement
    waiting at most ``lock_timeout`` seconds for a lock (so that a command never hangs
    behind a table another session has locked)."""

    def __init__(self, pg: PostgresSettings) -> None:
        super().__init__(
            dbname=pg.dbname,
            host=pg.host,
            port=pg.port,
            user=pg.user,
            password=pg.password,
            connect_timeout=pg.pool_timeout,
            idle_in_transaction_session_timeout=5,
            pool_size=pg.pool_size,
            max_overflow=pg.max_overflow,
            lock_timeout=pg.lock_timeout,
            schema=pg.schema,
        )
        # Unprepared: no statement is prepared on the server, whether asked for (the library's
        # ``prepare=True``: UnpreparedCursor) or by psycopg itself (``executemany`` prepares
        # after five rows; ``prepare_threshold=None`` turns that off).
        unprepared = (
            {} if pg.prepared else {"cursor_factory": UnpreparedCursor, "prepare_threshold": None}
        )
        self.pool = ConnectionPool(
            connection_class=Connection[DictRow],
            kwargs={**pg.conninfo(), "row_factory": dict_row, **unprepared},
            min_size=pg.pool_size,
            max_size=pg.pool_size + pg.max_overflow,
            open=False,
            configure=_configure(self.after_connect_func(), pg.lock_timeout),
            timeout=pg.pool_timeout,
            max_idle=pg.max_idle,
            reconnect_timeout=pg.pool_timeout,
            name="gameledger",
        )


class UnpreparedCursor(Cursor[DictRow]):
    """A cursor that never prepares a statement on the server, even when asked to (the
    event-store library asks for some): a transaction-pooling PgBouncer before 1.21 gives each
    transaction whatever server connection is free, where a prepared statement is unknown or
    already taken (``GAMELEDGER_POSTGRES_PREPARED=no``; docs/operations.md, "PgBouncer")."""

    def execute(
        self,
        query: Any,
        params: Any = None,
        *,
        prepare: bool | None = None,
        binary: bool | None = None,
    ) -> Self:
        """The statement, never prepared."""
        return super().execute(query, params, prepare=False, binary=binary)


def _configure(
    library: Callable[[Connection[Any]], None], lock_timeout: int
) -> Callable[[Connection[Any]], None]:
    """The library's set-up of a new connection, then this service's ``lock_timeout``."""

    def configure(conn: Connection[Any]) -> None:
        library(conn)
        conn.execute(f"SET lock_timeout = '{max(1, int(lock_timeout))}s'")

    return configure


class Storage:
    """The stores of one process, built from settings; :meth:`close` closes them all.

    The event store has ``settings.shards`` parts (:mod:`application.shards`): on PostgreSQL
    each part's tables are ``<name>_events`` and ``<name>_snapshots`` in its database (the main
    one unless ``GAMELEDGER_SHARD_<n>_POSTGRES_*`` says otherwise), parts in one database
    sharing its pool; on SQLite part ``n`` is the file ``<stem>-s<n>.db`` beside the first."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.postgres: PostgresDatastore | None = None
        self._pools: dict[tuple[str, int, str, str], PostgresDatastore] = {}
        self._sqlite: dict[str, SQLiteDatastore] = {}
        self._change_tokens: list[SQLiteDataVersion | SQLiteLastEvent] = []
        """SQLite's change tokens, each with connections of its own (closed with the store)."""
        if settings.store == "postgres":
            self.postgres = self.pool_for(settings.postgres)
        self.shards = [self._event_recorders(shard) for shard in range(settings.shards)]

    @property
    def recorders(self) -> EventRecorders:
        """The first part's recorders."""
        return self.shards[0]

    @property
    def kind(self) -> str:
        """``sqlite``, ``postgres`` or ``memory``."""
        return self.settings.store

    def pool_for(self, pg: PostgresSettings) -> PostgresDatastore:
        """The one datastore (and pool) of a PostgreSQL database."""
        found = self._pools.get(pg.server())
        if found is None:
            found = self._pools[pg.server()] = PooledDatastore(pg)
        return found

    def shard_datastore(self, shard: int) -> PostgresDatastore:
        """The PostgreSQL datastore holding part ``shard``'s events."""
        return self.pool_for(self.settings.shard_database(shard))

    def shard_file(self, shard: int) -> str:
        """The SQLite file part of part ``shard`` (``""``: the first, ``s<n>`` the others)."""
        return "" if shard == 0 else f"s{shard}"

    def sqlite(self, part: str = "") -> SQLiteDatastore:
        """The SQLite datastore of the event store (``part`` empty), one of its other parts
        (``s<n>``), or a read model."""
        found = self._sqlite.get(part)
        if found is None:
            if self.kind == "memory":
                name = f"file:{part}-{self.settings.memory_name}?mode=memory&cache=shared"
            else:
                path = self.settings.sqlite_file(part)
                path.parent.mkdir(parents=True, exist_ok=True)
                name = str(path)
            found = SQLiteDatastore(name, lock_timeout=SQLITE_LOCK_TIMEOUT)
            if part in (*READ_MODELS, *MANAGERS) and self.kind == "sqlite":
                found.pool = ReadModelConnections(db_name=name, lock_timeout=SQLITE_LOCK_TIMEOUT)
            self._sqlite[part] = found
        return found

    def _event_recorders(self, shard: int) -> EventRecorders:
        name = store_name(shard)
        if self.kind == "postgres":
            datastore = self.shard_datastore(shard)
            events, snapshots = f"{name}_events", f"{name}_snapshots"
            recorder = RenderedPostgresRecorder(datastore, events_table_name=events)
            return EventRecorders(
                recorder,
                PostgresAggregateRecorder(datastore, events_table_name=snapshots),
                events,
                snapshots,
                by_topic=recorder.select_by_topic,
                service_ddl=recorder.service_ddl(),
                channel=recorder.channel_name,
            )
        if self.kind == "sqlite":
            part = self.shard_file(shard)
            sqlite = self.sqlite(part)
            last_event = SQLiteLastEvent(str(self.settings.sqlite_file(part)), "stored_events")
            self._change_tokens.append(last_event)
            by_topic = SQLiteEventsByTopic(sqlite, "stored_events")
            return EventRecorders(
                SQLiteApplicationRecorder(sqlite, events_table_name="stored_events"),
                SQLiteAggregateRecorder(sqlite, events_table_name="stored_snapshots"),
                "stored_events",
                "stored_snapshots",
                last_event,
                by_topic,
                by_topic.ddl(),
            )
        return EventRecorders(
            POPOApplicationRecorder(), POPOAggregateRecorder(), "events", "snapshots"
        )

    @contextmanager
    def sqlite_connection(self, part: str = "") -> Iterator[sqlite3.Connection]:
        """A plain connection to one of the store's SQLite files (``part`` as in
        :meth:`sqlite`), in autocommit mode: transactions are begun explicitly (``BEGIN
        IMMEDIATE`` to change the schema)."""
        if self.kind == "memory":
            with self.sqlite(part).transaction(commit=False):
                pass  # the datastore's pool now holds the in-memory database open
            name = f"file:{part}-{self.settings.memory_name}?mode=memory&cache=shared"
            conn = sqlite3.connect(name, uri=True, isolation_level=None)
        else:
            path = self.settings.sqlite_file(part)
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(str(path), timeout=60, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
        try:
            yield conn
        finally:
            conn.close()

    def read_model(self, name: str, suffix: str = "") -> Any:
        """The view of read model ``name`` (``suffix``: a table set beside the live one)."""
        if self.postgres is not None:
            if name in MANAGERS:
                return PostgresTrackingView(self.postgres, suffix, name)
            postgres_class = {
                "games_list": PostgresGamesListView,
                "turns": PostgresTurnsView,
                "clocks": PostgresClocksView,
                "tournaments": PostgresTournamentsView,
            }
            return postgres_class[name](self.postgres, suffix)
        if name in MANAGERS:
            return SQLiteTrackingView(self.sqlite(name), suffix, name)
        sqlite_class = {
            "games_list": SQLiteGamesListView,
            "turns": SQLiteTurnsView,
            "clocks": SQLiteClocksView,
            "tournaments": SQLiteTournamentsView,
        }
        return sqlite_class[name](self.sqlite(name), suffix)

    def data_version(self, part: str) -> SQLiteDataVersion:
        """SQLite's change token of one of the store's files (``part`` as in :meth:`sqlite`)."""
        found = SQLiteDataVersion(str(self.settings.sqlite_file(part)))
        self._change_tokens.append(found)
        return found

    def record_store(self) -> Any:
        """Where finished games' records are kept (:mod:`infrastructure.readmodels.records`)."""
        if self.postgres is not None:
            return PostgresRecordStore(self.postgres)
        return SQLiteRecordStore(self.sqlite("records"))

    def tlog_store(self) -> Any:
        """The transparency log (:mod:`infrastructure.tlog_sqlite`,
        :mod:`infrastructure.tlog_postgres`): in PostgreSQL beside the event store, in SQLite
        in its own file ``<stem>-tlog.db``."""
        if self.postgres is not None:
            return PostgresLogStore(self.postgres)
        return SQLiteLogStore(self.sqlite("tlog"))

    def close(self) -> None:
        """Close every connection."""
        for pool in self._pools.values():
            pool.close()
        for datastore in self._sqlite.values():
            datastore.close()
        for token in self._change_tokens:
            token.close()
