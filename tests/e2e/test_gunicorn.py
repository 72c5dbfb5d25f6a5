"""The servers as they run (issue 10, part 2; docs/operations.md, "Production
server"): gunicorn with ``-c python:api.gunicorn_conf``, in its own process, over a real
socket. The errors gunicorn answers itself (414, 431, 400) are problem+json like the app's,
and a 20 MB chunked body is a 413, not a malformed-json."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_cli import free_port

GUNICORN = Path(sys.executable).with_name("gunicorn")


@contextmanager
def running(command: list[str], data: Path) -> Iterator[tuple[str, int]]:
    """``command`` (given the port to bind) in its own process, its data in ``data``; its
    address once it answers its health check."""
    port = free_port()
    env = {**os.environ, "GAMELEDGER_DATA_DIR": str(data)}
    process = subprocess.Popen(
        [arg.replace("{port}", str(port)) for arg in command],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(port)
        yield "127.0.0.1", port
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """gunicorn with the project's configuration, one worker."""
    command = [
        str(GUNICORN),
        "-c",
        "python:api.gunicorn_conf",
        "--workers",
        "1",
        "--bind",
        "127.0.0.1:{port}",
        "api.app:create_app()",
    ]
    with running(command, tmp_path_factory.mktemp("gunicorn")) as address:
        yield address


def wait_for(port: int) -> None:
    """Wait until the server on ``port`` answers its health check."""
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=1)
            return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"the server on port {port} did not start")


JSON = "application/json"
GAME = json.dumps({"game": "azul", "players": 2})


def exchange(
    address: tuple[str, int], head: bytes, body_chunks: Any = ()
) -> tuple[int, dict[str, str], bytes]:
    """Send raw bytes; the status, headers and body of the answer."""
    with socket.create_connection(address, timeout=10) as sock:
        sock.sendall(head)
        try:
            for chunk in body_chunks:
                sock.sendall(chunk)
        except OSError:
            pass  # the server answered and closed before the whole body was sent
        received = b""
        while True:
            try:
                part = sock.recv(65536)
            except ConnectionResetError:
                break
            if not part:
                break
            received += part
    header_bytes, _, body = received.partition(b"\r\n\r\n")
    lines = header_bytes.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    return status, headers, body


def assert_problem(answer: tuple[int, dict[str, str], bytes], status: int, code: str) -> None:
    got, headers, body = answer
    assert got == status, body[:300]
    assert headers["content-type"].startswith("application/problem+json")
    problem = json.loads(body[: int(headers["content-length"])])
    assert problem["status"] == status and problem["code"] == code and problem["title"]


def test_a_request_line_too_long_is_414_problem_json(server: tuple[str, int]) -> None:
    head = b"GET /api/v1/games?x=" + b"a" * 8000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    assert_problem(exchange(server, head), 414, "uri-too-long")


def test_headers_too_large_are_431_problem_json(server: tuple[str, int]) -> None:
    head = b"GET /api/v1/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n"
    assert_problem(exchange(server, head), 431, "headers-too-large")


def test_an_unparseable_request_is_400_problem_json(server: tuple[str, int]) -> None:
    assert_problem(exchange(server, b"NOT HTTP AT ALL\r\n\r\n"), 400, "bad-request")


def test_a_20mb_chunked_body_is_413(server: tuple[str, int]) -> None:
    head = (
        b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    piece = b"a" * 65536
    chunk = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    chunks = [chunk] * (20 * 16) + [b"0\r\n\r\n"]
    assert_problem(exchange(server, head, chunks), 413, "payload-too-large")


def test_a_refused_large_body_closes_its_connection_and_says_so(
    server: tuple[str, int],
) -> None:
    """A body over the limit is refused unread; gunicorn cannot drain it, so the answer says
    ``Connection: close`` (it said ``keep-alive`` and then dropped the connection, and a
    client's next request on it failed unanswered). A small one keeps the connection."""
    client = http.client.HTTPConnection(*server, timeout=10)
    big = json.dumps({"game": "azul", "players": 2, "x": "a" * 600_000})
    client.request("POST", "/api/v1/games", body=big, headers={"Content-Type": JSON})
    refused = client.getresponse()
    assert refused.status == 413 and refused.getheader("Connection") == "close"
    refused.read()
    client.request("POST", "/api/v1/games", body=GAME, headers={"Content-Type": JSON})
    created = client.getresponse()  # http.client reconnects, as told
    assert created.status == 201 and created.getheader("Connection") != "close"
    created.read()
    client.request("POST", "/api/v1/games", body="{", headers={"Content-Type": JSON})
    malformed = client.getresponse()
    assert malformed.status == 400 and malformed.getheader("Connection") != "close"
    malformed.read()
    client.request("POST", "/api/v1/games", body=GAME, headers={"Content-Type": JSON})
    assert client.getresponse().status == 201  # the same connection, kept alive
    client.close()


def test_an_app_error_through_gunicorn_is_problem_json(server: tuple[str, int]) -> None:
    head = b"DELETE /api/v1/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    status, headers, _ = exchange(server, head)
    assert status == 405 and "GET" in headers["allow"]
    assert headers["content-type"].startswith("application/problem+json")


@pytest.fixture(scope="module")
def dev_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """``gameledger serve`` (werkzeug's development server) in its own process."""
    command = [str(GUNICORN.with_name("gameledger")), "serve", "--port", "{port}"]
    with running(command, tmp_path_factory.mktemp("serve")) as address:
        yield address


def test_the_development_servers_own_errors_are_problem_json(
    dev_server: tuple[str, int],
) -> None:
    # A request line it cannot read is answered with a status line and headers too.
    unreadable = b"GET /api/v1/health HTTP/2.7\r\nHost: x\r\n\r\n"
    assert_problem(exchange(dev_server, unreadable), 505, "http-version-not-supported")
    assert_problem(exchange(dev_server, b"HELLO\r\n\r\n"), 400, "bad-request")
    head = b"GET /api/v1/games?x=" + b"a" * 70000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    assert_problem(exchange(dev_server, head), 414, "uri-too-long")


def dates(address: tuple[str, int], path: str) -> list[str]:
    """The ``Date`` headers of a GET's answer, as sent (http.client keeps repeated headers)."""
    client = http.client.HTTPConnection(*address, timeout=10)
    try:
        client.request("GET", path)
        answer = client.getresponse()
        assert answer.status == 200, answer.read()[:300]
        answer.read()
        return [value for name, value in answer.getheaders() if name.lower() == "date"]
    finally:
        client.close()


CACHED = ["/api/v1/keys", "/api/v1/log/tree-head", "/api/v1/log/tree-heads/0"]
"""Answers with an ETag and Cache-Control of their own (api/resources/common.py
``cached_answer``): they once set a Date as well, and the server added its own."""


@pytest.mark.parametrize("path", CACHED)
def test_one_date_header_under_gunicorn(server: tuple[str, int], path: str) -> None:
    assert len(dates(server, path)) == 1


@pytest.mark.parametrize("path", CACHED)
def test_one_date_header_under_the_development_server(
    dev_server: tuple[str, int], path: str
) -> None:
    """``make serve`` runs it."""
    assert len(dates(dev_server, path)) == 1
