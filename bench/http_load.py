"""A load generator in Python: several processes, each with several threads, each thread one
keep-alive connection (``http.client``), all started together and timed over the same window.

Two kinds of work:

* **scripts** — each connection plays its own prepared games in order
  (``bench/move_scripts.py``): one ``POST .../moves`` per recorded move, the seat's token as
  the bearer, the next move sent only once the previous one is answered. Against the service
  every answer must be 200 with the version the recording saw, else the game is abandoned (its
  later moves would be stale) and the error counted. With ``cycle`` (the hello world, which
  keeps no games) the same requests are sent round and round and any 200 counts;
* **a fixed request** — the same GET again and again (when wrk is not installed).

Only requests answered inside the window count; the one in flight at its end does not.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from move_scripts import PreparedGame

HEADERS = {"Content-Type": "application/json", "Accept": "application/json"}
SAMPLES = 5


@dataclass(frozen=True)
class FixedRequest:
    """One request sent again and again."""

    method: str
    path: str
    headers: tuple[tuple[str, str], ...] = ()


@dataclass
class ConnectionResult:
    """What one connection did inside the window."""

    ok: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    games_finished: int = 0
    games_abandoned: int = 0
    exhausted: bool = False

    def error(self, kind: str, detail: str) -> None:
        """Count a failed request and keep the first few for the report."""
        self.statuses[kind] += 1
        if len(self.samples) < SAMPLES:
            self.samples.append(f"{kind}: {detail[:200]}")


@dataclass
class LoadResult:
    """Every connection's result, summed."""

    seconds: float
    connections: int
    ok: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    games_finished: int = 0
    games_abandoned: int = 0
    exhausted: int = 0

    @property
    def rate(self) -> float:
        """Successful requests per second."""
        return self.ok / self.seconds

    @property
    def errors(self) -> int:
        """Requests that failed (a status other than 200, or no answer)."""
        return sum(self.statuses.values())

    def percentile(self, fraction: float) -> float:
        """A latency percentile in ms (0 when nothing succeeded)."""
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]

    def add(self, part: ConnectionResult) -> None:
        """Sum one connection in."""
        self.ok += part.ok
        self.statuses.update(part.statuses)
        self.samples.extend(part.samples[: SAMPLES - len(self.samples)])
        self.latencies.extend(part.latencies)
        self.games_finished += part.games_finished
        self.games_abandoned += part.games_abandoned
        self.exhausted += part.exhausted


def _send(
    conn: http.client.HTTPConnection, method: str, path: str, body: bytes | None, token: str | None
) -> tuple[int, bytes]:
    headers = dict(HEADERS)
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, body=body, headers=headers)
    answer = conn.getresponse()
    return answer.status, answer.read()


def _play_scripts(
    conn: http.client.HTTPConnection,
    games: list[PreparedGame],
    deadline: float,
    cycle: bool,
    result: ConnectionResult,
) -> None:
    """Play each game's script in order until the deadline (or the games run out)."""
    while games:
        for game in games:
            path = game.moves_path
            for step in game.script.steps:
                started = time.perf_counter()
                if started >= deadline:
                    return
                try:
                    status, data = _send(conn, "POST", path, step.body, game.tokens[step.seat])
                except (OSError, http.client.HTTPException) as error:
                    result.error(type(error).__name__, str(error))
                    conn.close()
                    if not cycle:
                        result.games_abandoned += 1
                        break
                    continue
                done = time.perf_counter()
                if done > deadline:
                    return
                if status == 200 and (cycle or json.loads(data)["version"] == step.version_after):
                    result.ok += 1
                    result.latencies.append(done - started)
                    continue
                result.error(str(status), data.decode(errors="replace"))
                if not cycle:
                    result.games_abandoned += 1
                    break
            else:
                result.games_finished += not cycle
        if not cycle:
            result.exhausted = True
            return


def _repeat(
    conn: http.client.HTTPConnection,
    request: FixedRequest,
    deadline: float,
    result: ConnectionResult,
) -> None:
    """Send ``request`` again and again until the deadline."""
    headers = dict(request.headers)
    while True:
        started = time.perf_counter()
        if started >= deadline:
            return
        try:
            conn.request(request.method, request.path, headers=headers)
            answer = conn.getresponse()
            data = answer.read()
        except (OSError, http.client.HTTPException) as error:
            result.error(type(error).__name__, str(error))
            conn.close()
            continue
        done = time.perf_counter()
        if done > deadline:
            return
        if answer.status == 200:
            result.ok += 1
            result.latencies.append(done - started)
        else:
            result.error(str(answer.status), data.decode(errors="replace"))


def _process(
    port: int,
    work: list[list[PreparedGame]] | list[FixedRequest],
    start_at: float,
    seconds: float,
    cycle: bool,
) -> list[ConnectionResult]:
    """One process of the generator: a thread per connection, all starting at ``start_at``
    (wall clock) and stopping ``seconds`` later."""
    results = [ConnectionResult() for _ in work]

    def connection(index: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.connect()
        time.sleep(max(0.0, start_at - time.time()))
        deadline = time.perf_counter() + seconds
        item = work[index]
        if isinstance(item, FixedRequest):
            _repeat(conn, item, deadline, results[index])
        else:
            _play_scripts(conn, item, deadline, cycle, results[index])
        conn.close()

    threads = [threading.Thread(target=connection, args=(n,)) for n in range(len(work))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def run(
    port: int,
    work: list[list[PreparedGame]] | list[FixedRequest],
    *,
    processes: int,
    seconds: float,
    cycle: bool = False,
) -> LoadResult:
    """Run one connection per item of ``work``, spread over ``processes`` processes, for
    ``seconds``; the summed result."""
    total = LoadResult(seconds=seconds, connections=len(work))
    shares = [work[n::processes] for n in range(processes)]
    start_at = time.time() + 0.5 + 0.05 * len(work)
    with ProcessPoolExecutor(max_workers=processes) as pool:
        futures = [
            pool.submit(_process, port, share, start_at, seconds, cycle)
            for share in shares
            if share
        ]
        for future in futures:
            for part in future.result():
                total.add(part)
    return total
