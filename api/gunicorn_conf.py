"""gunicorn's settings for GameLedger (docs/operations.md, "Production server"):
``gunicorn -c python:api.gunicorn_conf 'api.app:create_app()'``.

Beside the defaults below (each can still be given on the command line), it makes the errors
gunicorn answers itself, before the app sees a request — a request line over
``limit_request_line`` (414), headers over ``limit_request_fields`` or
``limit_request_field_size`` (431), a request it cannot parse (400) — problem+json like
every other error of the service (docs/api.md, "Errors"), instead of gunicorn's HTML page.
gunicorn writes those through ``gunicorn.util.write_error``, which each worker replaces at
start with :func:`write_problem`; the status and reason stay gunicorn's own."""

from __future__ import annotations

import signal
import socket
import threading
from typing import Any

from gunicorn import util

from api.errors import PROBLEM, server_problem
from api.sse import close_all
from infrastructure.stream_settings import StreamSettings

REQUEST_THREADS = 4
"""Threads of a worker for requests other than streams (as many as before streams)."""

worker_class = "gthread"
threads = REQUEST_THREADS + StreamSettings.from_env().max_streams
"""An open stream (docs/api.md, "Live updates") holds one thread while it waits: each worker
has a thread for each stream it may keep open (``GAMELEDGER_STREAMS_MAX``; one more is a
503) beside the ones for other requests (docs/operations.md, "Streams")."""
worker_connections = threads + 1000
"""A gthread worker accepts no more connections than this (gunicorn's default is 1000): the
stream places, and as many for keep-alive connections and requests as gunicorn's default."""
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s "%(a)s"'
"""gunicorn's default without the query string (``%(U)s`` is the path alone) and the
referrer: a stream's ``?token=`` never reaches the access log (docs/api.md, "Live updates")."""
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
control_socket_disable = True
"""No control socket (gunicorn 27 opens one at ``~/.gunicorn/gunicorn.ctl`` by default): two
servers on one host would share that path. To use ``gunicornc``, give each server its own with
``--control-socket PATH`` (docs/operations.md, "Production server")."""
DRAINED_BYTES = 64 * 1024
"""How much of a request's unread body gunicorn reads away before it serves the next request
on the same connection (gunicorn 27's ``_DRAIN_MAX_BYTES``); past it, it drops the connection."""


def write_problem(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's error page as problem+json: the code from the status, gunicorn's message
    (cut to 200 characters) as the detail."""
    body = server_problem(status_int, mesg or reason)
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\n"
        "Connection: close\r\n"
        f"Content-Type: {PROBLEM}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode("latin-1")
    util.write_nonblock(sock, head + body)


def pre_request(worker: Any, req: Any) -> None:
    """gunicorn's hook, run before each request: a request whose body may be left partly
    unread — one declared larger than gunicorn drains (``DRAINED_BYTES``), such as a body
    over the limit, refused 413 unread, or a chunked one — is answered ``Connection:
    close``. gunicorn would otherwise answer ``keep-alive`` and then drop the connection
    while draining the body, and the client's next request on it would fail unanswered
    (docs/operations.md, "Production server")."""
    headers = {name.lower(): value for name, value in req.headers}
    chunked = "chunked" in headers.get("transfer-encoding", "").lower()
    length = headers.get("content-length", "").strip()
    if chunked or (length.isdigit() and int(length) > DRAINED_BYTES):
        req.must_close = True


def post_worker_init(worker: Any) -> None:
    """gunicorn's hook, run in each worker once it has started: gunicorn's errors as
    problem+json, and streams closed at once on a graceful shutdown (SIGTERM), so that the
    worker does not wait ``graceful_timeout`` for them (their clients reconnect elsewhere)."""
    util.write_error = write_problem
    graceful = worker.handle_exit

    def handle_exit(sig: int, frame: Any) -> None:
        threading.Thread(target=close_all, name="close-streams", daemon=True).start()
        graceful(sig, frame)

    signal.signal(signal.SIGTERM, handle_exit)
