"""Run wrk for one GET case and read its summary (``bench/wrk_report.lua`` prints it as JSON).

wrk is a C load generator (Debian: ``apt-get install -y wrk``); it keeps its connections
alive and sends the next request on a connection as soon as the previous answer arrives.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent / "wrk_report.lua"
MARK = "WRK_JSON "


@dataclass(frozen=True)
class WrkResult:
    """One wrk run: answers, failures, latencies."""

    requests: int
    seconds: float
    status_errors: int
    socket_errors: int
    p50_ms: float
    p99_ms: float

    @property
    def ok(self) -> int:
        """Answers with a 2xx or 3xx status."""
        return self.requests - self.status_errors

    @property
    def rate(self) -> float:
        """Successful requests per second."""
        return self.ok / self.seconds

    @property
    def errors(self) -> int:
        """Non-2xx/3xx answers, and connect, read, write errors and timeouts."""
        return self.status_errors + self.socket_errors


def available() -> bool:
    """Is wrk on the PATH?"""
    return shutil.which("wrk") is not None


def run(
    url: str, *, connections: int, threads: int, seconds: float, headers: dict[str, str]
) -> WrkResult:
    """``wrk`` against ``url`` with ``headers``."""
    command = [
        "wrk",
        f"-t{threads}",
        f"-c{connections}",
        f"-d{max(1, round(seconds))}s",
        "--timeout",
        "30s",
        "-s",
        str(SCRIPT),
    ]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    output = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    line = next(line for line in output.splitlines() if line.startswith(MARK))
    data = json.loads(line[len(MARK) :])
    return WrkResult(
        requests=data["requests"],
        seconds=data["duration_us"] / 1e6,
        status_errors=data["status"],
        socket_errors=data["connect"] + data["read"] + data["write"] + data["timeout"],
        p50_ms=data["p50_us"] / 1000,
        p99_ms=data["p99_us"] / 1000,
    )
