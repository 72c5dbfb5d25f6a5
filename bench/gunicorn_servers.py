"""Start and stop the servers of an HTTP benchmark: gunicorn with the service's settings file
(``-c python:api.gunicorn_conf``) and the workers and threads given, on a free local port,
its log kept in a file so the run can report what went wrong under load.

With more than one worker the service runs as docs/operations.md says ("Production server"):
``GAMELEDGER_PROJECTIONS=external`` and one ``gameledger projections run`` beside it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
SERVICE_APP = "api.app:create_app()"
HELLO_APP = "hello_app:create_app()"
LOG_MARKERS = ("Traceback", "[ERROR]", "[CRITICAL]", "WORKER TIMEOUT", "Worker exiting")


@dataclass
class Server:
    """A running gunicorn (and, for the service with several workers, its runner)."""

    name: str
    port: int
    log: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    runner: subprocess.Popen[bytes] | None = None
    """The ``gameledger projections run`` beside gunicorn, if any (also in ``processes``)."""

    @property
    def base(self) -> str:
        """``http://127.0.0.1:port``."""
        return f"http://127.0.0.1:{self.port}"

    def log_problems(self, limit: int = 8) -> list[str]:
        """Lines of the log that tell of an error (tracebacks, worker timeouts, exits)."""
        found: list[str] = []
        for path in sorted(self.log.parent.glob(f"{self.log.stem}*.log")):
            for line in path.read_text(errors="replace").splitlines():
                if any(marker in line for marker in LOG_MARKERS):
                    found.append(f"{path.name}: {line.strip()[:300]}")
        return found[:limit] + ([f"... {len(found) - limit} more"] if len(found) > limit else [])

    def stop(self) -> None:
        """SIGTERM to each process this object started, then wait (SIGKILL after 20 s)."""
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def gunicorn_command(app: str, port: int, workers: int, threads: int) -> list[str]:
    """The command line every server of a run shares but for the app."""
    return [
        str(BIN / "gunicorn"),
        "-c",
        "python:api.gunicorn_conf",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--bind",
        f"127.0.0.1:{port}",
        "--pythonpath",
        str(ROOT / "bench"),
        app,
    ]


NEVER_LIMITED = {
    "GAMELEDGER_RATE_LIMIT_READS": "100000000 per minute",
    "GAMELEDGER_RATE_LIMIT_WRITES": "100000000 per minute",
    "GAMELEDGER_RATE_LIMIT_CREATES": "100000000 per minute",
}
"""Rate limits a load from one address never reaches (docs/operations.md, "Rate limits"): the
limiter still counts every request, as in production, but refuses none. With the defaults
(6,000 reads a minute per address) a benchmark's GETs are refused with 429 after a few
seconds and the rates measured are the refusals'."""


def start(
    name: str,
    app: str,
    *,
    workers: int,
    threads: int,
    env: dict[str, str],
    log_dir: Path,
    ready_path: str = "/api/v1/health",
    runner: bool | None = None,
) -> Server:
    """Start gunicorn serving ``app`` with ``env`` added to this process's environment, and
    wait until ``ready_path`` answers 200. The service's read models are followed by a
    ``gameledger projections run`` of their own when ``runner`` (by default: with more than
    one worker), else in the worker."""
    port = free_port()
    log = log_dir / f"{name}.log"
    server = Server(name, port, log)
    full_env = {**os.environ, **env}
    if app == SERVICE_APP and (workers > 1 if runner is None else runner):
        full_env["GAMELEDGER_PROJECTIONS"] = "external"
        with (log_dir / f"{name}-projections.log").open("wb") as out:
            server.runner = subprocess.Popen(
                [str(BIN / "gameledger"), "projections", "run"],
                cwd=ROOT,
                env=full_env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
            server.processes.append(server.runner)
    with log.open("wb") as out:
        server.processes.append(
            subprocess.Popen(
                gunicorn_command(app, port, workers, threads),
                cwd=ROOT,
                env=full_env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        )
    try:
        wait_ready(server, ready_path)
    except BaseException:
        server.stop()
        raise
    return server


def wait_ready(server: Server, path: str, timeout: float = 60.0) -> None:
    """Poll ``path`` until it answers 200 (or fail, with the end of the server's log)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(process.poll() is not None for process in server.processes):
            break
        try:
            with urllib.request.urlopen(server.base + path, timeout=2) as answer:
                if answer.status == 200:
                    return
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(0.2)
    tail = server.log.read_text(errors="replace")[-2000:]
    raise RuntimeError(f"{server.name} did not start on port {server.port}:\n{tail}")
