"""Rate limits (issue 13, part 6; docs/operations.md, "Rate limits"), with tiny limits set
through the settings: over a limit is 429 problem+json ``rate-limited`` with ``Retry-After``;
each class of request has its own count, per seat token where the request carries one, else
per address (``X-Forwarded-For`` only behind a trusted proxy); health and the docs are never
limited; with Redis, two app instances share one count.

The Redis tests need a Redis server at ``GAMELEDGER_TEST_REDIS_URI`` (default
``redis://127.0.0.1:6379``; .ci/run starts one): without it they fail, never skip."""

from __future__ import annotations

import dataclasses
import os
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask.testing import FlaskClient
from limits import parse

from api import ratelimit
from api.app import create_app
from api.errors import PROBLEM
from infrastructure.config import ConfigurationError, RateLimits, Settings
from infrastructure.container import Services, build_services
from tests.e2e.conftest import bearer

REDIS = os.environ.get("GAMELEDGER_TEST_REDIS_URI", "redis://127.0.0.1:6379")


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[Services]:
    """The service on SQLite with three reads, two writes and one create per minute."""
    limits = RateLimits(reads="3/minute", writes="2/minute", creates="1/minute")
    settings = Settings(store="sqlite", sqlite_path=tmp_path / "limited.db", rate_limits=limits)
    built = build_services(settings)
    yield built
    built.close()


def client_of(services: Services, **changes: object) -> FlaskClient:
    settings = dataclasses.replace(services.settings, **changes)  # type: ignore[arg-type]
    return create_app(dataclasses.replace(services, settings=settings), follow=False).test_client()


@pytest.fixture
def client(limited: Services) -> FlaskClient:
    return client_of(limited)


def assert_limited(answer: object) -> None:
    assert answer.status_code == 429, answer.json  # type: ignore[attr-defined]
    assert answer.mimetype == PROBLEM  # type: ignore[attr-defined]
    assert answer.json["code"] == "rate-limited"  # type: ignore[attr-defined]
    retry = answer.headers["Retry-After"]  # type: ignore[attr-defined]
    assert retry.isdigit() and 1 <= int(retry) <= 61  # the window, to the next whole second
    assert answer.headers["X-RateLimit-Remaining"] == "0"  # type: ignore[attr-defined]


def test_reads_over_their_limit_are_429_with_retry_after(client: FlaskClient) -> None:
    for _ in range(3):
        answer = client.get("/api/v1/games")
        assert answer.status_code == 200
        assert answer.headers["X-RateLimit-Limit"] == "3"
        assert "Retry-After" not in answer.headers
    assert_limited(client.get("/api/v1/games"))
    assert_limited(client.get("/api/v1/game-types"))  # one count for every read


def test_each_class_has_its_own_count(client: FlaskClient) -> None:
    game_id = client.post("/api/v1/games", json={"game": "azul", "players": 2}).json["id"]
    assert_limited(client.post("/api/v1/games", json={"game": "azul", "players": 2}))
    for n in range(2):  # writes: joins
        assert (
            client.post(f"/api/v1/games/{game_id}/seats", json={"name": f"p{n}"}).status_code == 201
        )
    assert_limited(client.post(f"/api/v1/games/{game_id}/seats", json={"name": "late"}))
    assert client.get(f"/api/v1/games/{game_id}").status_code == 200  # reads still free


def test_a_seat_token_has_its_own_count(client: FlaskClient) -> None:
    """A room behind one address: each seat is counted by its token, not by the address."""
    for _ in range(3):
        client.get("/api/v1/games")
    assert_limited(client.get("/api/v1/games"))
    for token in ("one", "two"):
        for _ in range(3):
            assert client.get("/api/v1/games", headers=bearer(token)).status_code == 200
        assert_limited(client.get("/api/v1/games", headers=bearer(token)))


def test_creates_are_counted_per_address_whatever_the_token(client: FlaskClient) -> None:
    body = {"game": "azul", "players": 2}
    assert client.post("/api/v1/games", json=body, headers=bearer("a")).status_code == 201
    assert_limited(client.post("/api/v1/games", json=body, headers=bearer("b")))


def test_health_and_docs_are_never_limited(client: FlaskClient) -> None:
    for _ in range(4):
        assert client.get("/api/v1/health").status_code == 200
        assert client.get("/api/v1/openapi.json").status_code == 200
        assert client.get("/api/v1/docs").status_code == 200
        assert "X-RateLimit-Limit" not in client.get("/api/v1/health").headers


def test_forwarded_for_counts_only_behind_a_trusted_proxy(limited: Services) -> None:
    def addresses(client: FlaskClient) -> list[int]:
        return [
            client.get("/api/v1/games", headers={"X-Forwarded-For": f"10.0.0.{n}"}).status_code
            for n in range(4)
        ]

    assert addresses(client_of(limited)) == [200, 200, 200, 429]  # the connection's address
    assert addresses(client_of(limited, trusted_proxies=1)) == [200, 200, 200, 200]


def test_limits_can_be_turned_off(limited: Services) -> None:
    off = dataclasses.replace(limited.settings.rate_limits, enabled=False)
    client = client_of(limited, rate_limits=off)
    assert all(client.get("/api/v1/games").status_code == 200 for _ in range(5))


def test_the_environment_sets_the_limits() -> None:
    settings = Settings.from_env(
        {
            "GAMELEDGER_RATE_LIMIT_READS": "10/second",
            "GAMELEDGER_RATE_LIMIT_WRITES": "5 per minute",
            "GAMELEDGER_RATE_LIMIT_CREATES": "1/hour",
            "GAMELEDGER_RATE_LIMIT_STORAGE_URI": "redis://example:6379",
            "GAMELEDGER_RATE_LIMIT_ENABLED": "no",
            "GAMELEDGER_TRUSTED_PROXIES": "2",
        }
    )
    assert settings.rate_limits == RateLimits(
        enabled=False,
        reads="10/second",
        writes="5 per minute",
        creates="1/hour",
        storage_uri="redis://example:6379",
    )
    assert settings.trusted_proxies == 2
    for name, value in [
        ("GAMELEDGER_RATE_LIMIT_READS", "often"),
        ("GAMELEDGER_RATE_LIMIT_ENABLED", "maybe"),
        ("GAMELEDGER_TRUSTED_PROXIES", "-1"),
    ]:
        with pytest.raises(ConfigurationError):
            Settings.from_env({name: value})


@pytest.fixture
def redis_uri() -> str:
    """The Redis server the shared-count tests use; fails (never skips) when it is down."""
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        pytest.fail(
            f"Redis is not reachable at {REDIS} ({error}): start redis-server (.ci/run does "
            "when CI is set; README, 'make test needs')"
        )
    return REDIS


def test_two_instances_share_one_count_in_redis(limited: Services, redis_uri: str) -> None:
    shared = dataclasses.replace(limited.settings.rate_limits, storage_uri=redis_uri)
    first, second = (client_of(limited, rate_limits=shared) for _ in range(2))
    token = bearer(uuid.uuid4().hex)  # a count no other run shares
    assert first.get("/api/v1/games", headers=token).status_code == 200
    assert second.get("/api/v1/games", headers=token).status_code == 200
    assert first.get("/api/v1/games", headers=token).status_code == 200
    assert_limited(first.get("/api/v1/games", headers=token))
    assert_limited(second.get("/api/v1/games", headers=token))


def test_an_unreachable_redis_falls_back_to_counting_in_memory(limited: Services) -> None:
    """Redis down is no 500: each process counts on its own meanwhile."""
    gone = dataclasses.replace(limited.settings.rate_limits, storage_uri="redis://127.0.0.1:1")
    client = client_of(limited, rate_limits=gone)
    assert [client.get("/api/v1/games").status_code for _ in range(4)] == [200, 200, 200, 429]


def test_browsers_may_send_a_key_and_read_the_limits(client: FlaskClient) -> None:
    """CORS: Idempotency-Key may be sent; Retry-After, Idempotent-Replayed and the limits'
    headers may be read."""
    origin = {"Origin": "https://front.example"}
    preflight = client.options(
        "/api/v1/games",
        headers={
            **origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Idempotency-Key, Content-Type",
        },
    )
    assert "idempotency-key" in preflight.headers["Access-Control-Allow-Headers"].lower()
    exposed = client.get("/api/v1/games", headers=origin).headers["Access-Control-Expose-Headers"]
    for name in ("Retry-After", "Idempotent-Replayed", "X-RateLimit-Limit", "X-RateLimit-Reset"):
        assert name.lower() in exposed.lower()


def test_of_several_limits_the_headers_give_the_tightest(limited: Services) -> None:
    several = dataclasses.replace(limited.settings.rate_limits, reads="2/second;5/minute")
    client = client_of(limited, rate_limits=several)
    first = client.get("/api/v1/games")
    assert (first.headers["X-RateLimit-Limit"], first.headers["X-RateLimit-Remaining"]) == (
        "2",
        "1",
    )
    assert client.get("/api/v1/games").status_code == 200
    assert_limited(client.get("/api/v1/games"))  # the second's limit, whatever the minute's


@pytest.mark.parametrize("uri", ["nosuch://somewhere", "async+redis://127.0.0.1:6379"])
def test_a_store_of_counts_it_cannot_use_stops_the_service(limited: Services, uri: str) -> None:
    unusable = dataclasses.replace(limited.settings.rate_limits, storage_uri=uri)
    with pytest.raises(ConfigurationError, match="GAMELEDGER_RATE_LIMIT_STORAGE_URI"):
        client_of(limited, rate_limits=unusable)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def redis_server(port: int) -> subprocess.Popen[bytes]:
    """A Redis server of the test's own on ``port`` (redis-server is on PATH where the
    shared-count tests run: .ci/run installs it)."""
    server = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", ""],
        stdout=subprocess.DEVNULL,
    )
    client = redis.Redis(port=port, socket_connect_timeout=0.5)
    for _ in range(100):
        try:
            client.ping()
            return server
        except redis.RedisError:
            time.sleep(0.05)
    server.kill()
    pytest.fail("redis-server did not start")


def test_counts_go_back_to_redis_when_it_returns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Redis stops: counting goes on in memory (no error); Redis is back: counting goes back
    to it after BACKEND_RETRY seconds."""
    monkeypatch.setattr(ratelimit, "BACKEND_RETRY", 0.0)
    port = free_port()
    server = redis_server(port)
    counts = ratelimit.Counts(f"redis://127.0.0.1:{port}")
    limit = parse("10/minute")
    peek = redis.Redis(port=port)
    try:
        window = counts.hit(limit, "test", "reads", "one")
        assert window is not None and window.remaining == 9
        assert len(peek.keys("*")) == 1  # counted in Redis
        server.kill()
        server.wait()
        window = counts.hit(limit, "test", "reads", "one")
        assert window is not None and window.remaining == 9  # a fresh count, in memory
        server = redis_server(port)
        window = counts.hit(limit, "test", "reads", "one")
        assert window is not None and window.remaining == 9  # a fresh count, in Redis again
        assert len(peek.keys("*")) == 1
        assert not counts._memory._counters  # the outage's counts forgotten (found by review)
    finally:
        server.kill()
        server.wait()


def test_a_redis_that_hangs_holds_no_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that takes the connection and never answers: after REDIS_TIMEOUT the counts
    fall back to memory, and the look for its return happens in one request at a time."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)  # connections wait in the backlog, never answered
        port = silent.getsockname()[1]
        counts = ratelimit.Counts(f"redis://127.0.0.1:{port}")
        windows: list[object] = []

        def hit() -> None:
            windows.append(counts.hit(parse("10/minute"), "test", "reads", "one"))

        worker = threading.Thread(target=hit)
        worker.start()
        worker.join(timeout=20)
        assert not worker.is_alive(), "a request waited on a Redis that never answers"
        [window] = windows
        assert isinstance(window, ratelimit.Window) and window.remaining == 9  # in memory
