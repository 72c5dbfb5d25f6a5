"""The service behind PgBouncer (issue 12, part 2; docs/operations.md, "PgBouncer"), a real
PgBouncer started for the test: in session pooling as it is, and in transaction pooling with
``GAMELEDGER_POSTGRES_PREPARED=no`` (PgBouncer before 1.21 cannot carry prepared statements from
one transaction to the next) and the LISTEN connection going to the server itself. The schema
upgrade (a transaction-level advisory lock), games, moves, the read models' followers and the
event log by type all work."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from infrastructure.config import PostgresSettings, Settings
from infrastructure.container import build_services
from tests.e2e.test_cli import free_port
from tests.helpers import listed, start_game

pytestmark = pytest.mark.postgres

PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"


@pytest.fixture(params=["session", "transaction"])
def bouncer(
    request: pytest.FixtureRequest, postgres_database: dict[str, str]
) -> Iterator[tuple[str, int]]:
    """A PgBouncer in front of the test server, in the given pool mode; its mode and port."""
    if not Path(PGBOUNCER).exists():
        pytest.fail(
            "PgBouncer is not installed (Debian: apt-get install pgbouncer); .ci/run installs it"
        )
    mode: str = request.param
    # Its own folder, readable by the user PgBouncer switches to when the tests run as root.
    folder = Path(tempfile.mkdtemp(prefix="gameledger-pgbouncer-"))
    folder.chmod(0o755)
    port = free_port()
    users = folder / "users.txt"
    users.write_text(f'"{postgres_database["user"]}" "{postgres_database["password"]}"\n')
    config = folder / "pgbouncer.ini"
    config.write_text(
        "[databases]\n"
        f"* = host={postgres_database['host']} port={postgres_database['port']}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {users}\npool_mode = {mode}\n"
        "max_client_conn = 200\ndefault_pool_size = 10\n"
    )
    for path in (users, config):
        path.chmod(0o644)
    command = [PGBOUNCER, str(config)]
    if os.geteuid() == 0:  # PgBouncer refuses to run as root
        command = [PGBOUNCER, "-u", "postgres", str(config)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                with psycopg.connect(
                    **{**postgres_database, "port": port}, connect_timeout=2
                ) as conn:
                    conn.execute("SELECT 1")
                break
            except psycopg.OperationalError:
                time.sleep(0.1)
        else:
            pytest.fail(
                f"PgBouncer did not start: {process.stderr.read() if process.stderr else ''}"
            )
        yield mode, port
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def empty_schema(postgres_database: dict[str, str]) -> Iterator[str]:
    schema = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(**postgres_database, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    yield schema
    with psycopg.connect(**postgres_database, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


def test_the_service_behind_pgbouncer(
    bouncer: tuple[str, int], empty_schema: str, postgres_database: dict[str, str]
) -> None:
    mode, port = bouncer
    server_port = int(postgres_database["port"])
    pg = PostgresSettings(
        dbname=postgres_database["dbname"],
        host=postgres_database["host"],
        port=port,
        user=postgres_database["user"],
        password=postgres_database["password"],
        schema=empty_schema,
        listen_port=server_port,  # LISTEN needs a session: straight to the server
        prepared=mode == "session",
    )
    services = build_services(
        Settings(store="postgres", postgres=pg, embedded_projections=False, shards=2)
    )
    try:
        services.start_following()
        tables = [start_game(services.app, players=3, seed=f"bouncer {n}") for n in range(4)]
        for table in tables:
            for _ in range(40):
                table.step()
        assert services.wait(timeout=30)
        rows = {row.game_id: row for row in listed(services.games_list)}
        for table in tables:
            view = services.app.view(table.game_id)
            assert rows[str(table.game_id)].version == view["version"]
            taken = services.app.event_log(
                table.game_id, types=frozenset({"TilesTaken"}), limit=200
            )["items"]
            assert len(taken) == 40
    finally:
        services.close()
