"""Cost of the transparency log at 10 million checkpoints (issue 14, part 6; docs/performance.md,
"The transparency log at 10 million checkpoints"), as ratios to one plain SHA-256 of a finished
game's record (a 4-player Azul game played by bots and exported), timed in the same run.

A real log store — the service's own tables, on an SQLite file and in a PostgreSQL database of
the bench's own — is bulk-filled with simulated, really signed checkpoints (bench/tlog_fill.py,
after checking on a small log that the bulk rows equal the append path's), to 1,000, 100,000
and ``--entries`` entries in turn; at each size, through the service's code:

- a checkpoint: ``sign_checkpoint`` alone, and signed and appended with its new signed tree head
  (``application.tlog.append`` in one store transaction, committed); the same per checkpoint
  in appends of 32 (the checkpointer logs every game that ended in a batch of events, and the
  schedule every pending game, in one append); and, for scale, a one-row write committed in
  the same store (the schedule's time: ``mark_scheduled``), the floor of any durable append;
- an inclusion proof of a random entry in the latest tree (``application.transparency.
  inclusion``, the API's) and its verification (``verify_inclusion``, from the hex);
- a tree head's signature checked (Ed25519);
- a consistency proof between two random stored heads (``consistency``) and its verification;
- a record's ``transparency`` field: ``transparency_of`` of a random logged game and
  ``with_transparency`` on the record; and the whole field checked as ``gameledger verify``
  does with a pinned key (``check_transparency``).

The reads are measured first, at exactly that size; then the writes, interleaved so that each
meets the same moments of the shared disk. Medians and 99th percentiles, each also as a ratio
to the median SHA-256 of the record (measured before and after each size's operations).
PostgreSQL's tables get ``VACUUM (ANALYZE)`` after each fill, as autovacuum would have.

    .venv/bin/python bench/transparency.py [--entries 10000000] [--store both|sqlite|postgres]
        [--samples 2000] [--appends 300] [--workdir DIR] [--keep] [--quick] [--json FILE]

Without ``--workdir`` the files live in a temporary directory; without ``--keep`` the files
and the PostgreSQL database (``--pg-db``, default gameledger_bench_tbench) are deleted at the
end. With ``--workdir DIR --keep`` a stopped run continues its fill when run again (the smaller
sizes already passed are not measured again; the last is, at the store's size, so a second run
over a full store measures it again).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID

from pgdb import connect, exit_on_sigterm
from psycopg import sql
from tlog_fill import CHUNK, check, fill
from tlog_stores import BenchStore, postgres_store, sqlite_store

from application.audit_keys import KeyPolicy
from application.audit_transparency import check_transparency
from application.checkpoints import (
    SignedCheckpoint,
    TreeHead,
    sign_checkpoint,
    tree_head_signed_by,
)
from application.records import export_record
from application.service import serialised
from application.signing import Keyring
from application.simulation import simulate
from application.tlog import append
from application.transparency import (
    consistency,
    inclusion,
    transparency_of,
    with_transparency,
)
from domain.merkle import verify_consistency, verify_inclusion
from infrastructure.config import Settings
from infrastructure.container import build_services

OPS = {
    "sign": "checkpoint: sign (Ed25519)",
    "checkpoint": "checkpoint: sign + append + signed head, committed",
    "batched": "checkpoint in an append of 32, per checkpoint",
    "commit": "for scale: a one-row write committed",
    "inclusion": "inclusion proof: make (API)",
    "verify_inclusion": "inclusion proof: verify",
    "verify_head": "tree head signature: verify",
    "consistency": "consistency proof: make (API)",
    "verify_consistency": "consistency proof: verify",
    "transparency": "record's transparency field: make",
    "check_record": "record's transparency field: check (pinned key)",
}
BATCH = 32
"""Checkpoints in one append of the batched measurement."""
_T = TypeVar("_T")


class BenchSigner:
    """The bench's keyring as the service's ``Signer``."""

    def __init__(self, keyring: Keyring) -> None:
        self._keyring = keyring

    def keyring(self) -> Keyring:
        """The keyring."""
        return self._keyring


def bench_keyring(workdir: Path) -> Keyring:
    """The bench's own key, kept in the work directory (a continued fill signs with it)."""
    path = workdir / "keyring.json"
    if path.exists():
        return Keyring.from_json(json.loads(path.read_text()))
    keyring = Keyring.generate()
    path.write_text(json.dumps(keyring.to_json()))
    return keyring


def azul_record() -> tuple[dict[str, Any], bytes]:
    """A finished 4-player Azul game played by bots, exported: its record and its bytes."""
    services = build_services(Settings(store="memory", embedded_projections=False))
    try:
        report = simulate(services.app, "azul", games=1, players=4, seed=1)
        record = export_record(services.app, UUID(report["game_ids"][0]))
        return record, serialised(record)
    finally:
        services.close()


def times(run: Callable[[_T], object], args: Sequence[_T]) -> list[float]:
    """Seconds of ``run(arg)`` for each argument."""
    found = []
    for arg in args:
        started = time.perf_counter()
        run(arg)
        found.append(time.perf_counter() - started)
    return found


def figure(samples: list[float]) -> dict[str, float]:
    """Median and 99th percentile (nearest rank), in µs."""
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, -(-99 * len(ordered) // 100) - 1)]
    return {"median": statistics.median(ordered) * 1e6, "p99": p99 * 1e6, "n": len(ordered)}


def must(ok: bool, what: str) -> None:
    """Stop the bench when a proof or signature does not verify."""
    if not ok:
        raise SystemExit(f"{what} did not verify")


def measure(
    bench: BenchStore, keyring: Keyring, record: dict[str, Any], body: bytes, args: Any
) -> dict[str, Any]:
    """Every operation of the module docstring at the store's present size: the reads first
    (at exactly that size), then the appends."""
    head = bench.store.latest_head()
    assert head is not None
    rng = random.Random(f"{args.seed}:measure:{head['size']}")  # new picks at every size
    sha = times(lambda _: hashlib.sha256(body).digest(), range(args.samples))
    ops, proofs = reads(bench, keyring, record, body, head=head, rng=rng, n=args.samples)
    ops |= writes(bench, keyring, rng, args.appends)
    sha += times(lambda _: hashlib.sha256(body).digest(), range(args.samples))
    return {
        "size": head["size"],
        "baseline": figure(sha),
        "ops": {name: figure(samples) for name, samples in ops.items()},
        "proof_hashes": proofs,
    }


def reads(
    bench: BenchStore,
    keyring: Keyring,
    record: dict[str, Any],
    body: bytes,
    *,
    head: TreeHead,
    rng: random.Random,
    n: int,
) -> tuple[dict[str, list[float]], int]:
    """Proofs made and verified, and a record's ``transparency``, in the tree of ``head``; the
    seconds of each, and the hashes in an inclusion proof."""
    store, signer, size = bench.store, BenchSigner(keyring), head["size"]
    proofs: list[dict[str, Any]] = []
    ops = {
        "inclusion": times(
            lambda i: proofs.append(inclusion(store, signer, i, size)),
            [rng.randrange(size) for _ in range(n)],
        )
    }

    def check_inclusion(p: dict[str, Any]) -> None:
        leaf, root = bytes.fromhex(p["leaf_hash"]), bytes.fromhex(p["tree_head"]["root_hash"])
        path = [bytes.fromhex(h) for h in p["proof"]]
        ok = verify_inclusion(leaf, p["leaf_index"], p["tree_size"], path, root)
        must(ok, "an inclusion proof")

    ops["verify_inclusion"] = times(check_inclusion, proofs)
    ops["verify_head"] = times(
        lambda p: must(tree_head_signed_by(p["tree_head"], keyring.current), "a tree head"),
        proofs,
    )
    sizes = [s for s in bench.head_sizes() if 0 < s <= size]
    pairs = [tuple(sorted(rng.sample(sizes, 2))) for _ in range(n)]
    made: list[dict[str, Any]] = []
    ops["consistency"] = times(lambda p: made.append(consistency(store, signer, *p)), pairs)

    def check_consistency(c: dict[str, Any]) -> None:
        old = bytes.fromhex(c["first_head"]["root_hash"])
        new = bytes.fromhex(c["second_head"]["root_hash"])
        path = [bytes.fromhex(h) for h in c["proof"]]
        must(verify_consistency(c["first"], c["second"], old, new, path), "a consistency proof")

    ops["verify_consistency"] = times(check_consistency, made)
    logged = [store.entries(rng.randrange(size), 1)[0]["checkpoint"] for _ in range(n)]

    def field(c: Any) -> None:
        found, _ = transparency_of(store, signer, c["game"], c["version"], size)
        with_transparency(body, found)

    ops["transparency"] = times(field, logged)
    game, version = record["game"]["id"], len(record["events"])
    found, _ = transparency_of(store, signer, game, version, size)
    must(found is not None, "the Azul game's checkpoint")
    carried = json.loads(with_transparency(body, found))
    policy = KeyPolicy.of([keyring.current])
    ops["check_record"] = times(lambda r: check_transparency(r, policy), [carried] * n)
    return ops, len(proofs[0]["proof"])


def writes(
    bench: BenchStore, keyring: Keyring, rng: random.Random, n: int
) -> dict[str, list[float]]:
    """Checkpoints of new games signed (alone, in a loop), and appended alone or 32 at a time,
    and one-row writes: the writes interleaved (every tenth round an append of 32 too), so
    that each kind meets the same moments of the shared disk, whose commits vary tenfold from
    minute to minute."""
    store = bench.store

    def fresh(_: int) -> SignedCheckpoint:
        game = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        head = rng.getrandbits(256).to_bytes(32, "big").hex()
        return sign_checkpoint(keyring, game, rng.randint(5, 400), head, ended=True)

    def checkpoint(_: int) -> None:
        signed = fresh(0)
        with store.transaction() as tx:
            append(tx, keyring, [signed])

    def batch(_: int) -> None:
        signed = [fresh(0) for _ in range(BATCH)]
        with store.transaction() as tx:
            append(tx, keyring, signed)

    def commit(_: int) -> None:
        with store.transaction() as tx:
            tx.mark_scheduled(time.time())

    found = {"sign": times(fresh, range(n)), "checkpoint": [], "batched": [], "commit": []}
    for round_ in range(n):
        found["checkpoint"] += times(checkpoint, [round_])
        found["commit"] += times(commit, [round_])
        if round_ % 10 == 0:
            found["batched"] += [t / BATCH for t in times(batch, [round_])]
    return found


def log_the_game(bench: BenchStore, keyring: Keyring, record: dict[str, Any]) -> None:
    """The exported game's end, checkpointed through the append path (once)."""
    game = record["game"]["id"]
    if bench.store.entries_of(game):
        return
    signed = sign_checkpoint(keyring, game, len(record["events"]), record["chain_head"],
                             ended=True)  # fmt: skip
    with bench.store.transaction() as tx:
        append(tx, keyring, [signed])


def print_stage(kind: str, result: dict[str, Any]) -> None:
    """One size's figures."""
    base = result["baseline"]["median"]
    p99 = result["baseline"]["p99"]
    print(f"\n{kind}, {result['size']:,} entries ({result['proof_hashes']} hashes in a proof); "
          f"SHA-256 of the record: {base:.1f} µs median, {p99:.1f} p99")  # fmt: skip
    print(f"{'operation':<52} {'median µs':>10} {'p99 µs':>10} {'x med':>8} {'x p99':>8}")
    for name, label in OPS.items():
        f = result["ops"][name]
        print(f"{label:<52} {f['median']:>10.1f} {f['p99']:>10.1f} "
              f"{f['median'] / base:>8.2f} {f['p99'] / base:>8.2f}")  # fmt: skip


def run_store(
    bench: BenchStore, keyring: Keyring, record: dict[str, Any], body: bytes, args: Any
) -> dict[str, Any]:
    """Fill to each size in turn and measure there; the results and the fill's figures."""
    stages = [s for s in (1_000, 100_000) if s < args.entries] + [args.entries]
    results: dict[str, Any] = {"kind": bench.kind, "stages": [], "fill_seconds": 0.0}
    last = [time.monotonic()]

    def report(line: str) -> None:
        if time.monotonic() - last[0] > 60:
            last[0] = time.monotonic()
            print(line, flush=True)

    for stage in stages:
        writer = bench.writer()
        try:
            if writer.size() > stage and stage < args.entries:
                print(f"{bench.kind}: already past {stage:,} entries, not measured there")
                continue
            print(f"{bench.kind}: filling to {stage:,} entries", flush=True)
            logged = bool(bench.store.entries_of(record["game"]["id"]))
            target = stage if logged else stage - 1  # the game's end: the last entry
            results["fill_seconds"] += fill(bench.store, writer, keyring, target, args.seed,
                                            report=report)  # fmt: skip
        finally:
            writer.close()
        log_the_game(bench, keyring, record)
        started = time.perf_counter()
        bench.settle()
        results["settle_seconds"] = results.get("settle_seconds", 0.0) + (
            time.perf_counter() - started
        )
        result = measure(bench, keyring, record, body, args)
        result["disk"] = bench.disk()
        grown = bench.store.latest_head()
        assert grown is not None
        result["entries_on_disk"] = grown["size"]
        results["stages"].append(result)
        print_stage(bench.kind, result)
        print(f"on disk: {result['disk']['total'] / grown['size']:.0f} bytes per entry "
              f"({result['disk']})", flush=True)  # fmt: skip
    return results


def check_fill(kind: str, workdir: Path, pg_db: str, keyring: Keyring) -> None:
    """tlog_fill.check on two small stores of the kind, deleted afterwards."""
    names = [f"{pg_db}_check_bulk", f"{pg_db}_check_real"]
    if kind == "sqlite":
        for path in workdir.glob("check-*"):  # a check stopped before it cleaned up
            path.unlink()
        bulk = sqlite_store(workdir / "check-bulk.db")
        real = sqlite_store(workdir / "check-real.db")
    else:
        with connect() as conn:
            for name in names:
                conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                    sql.Identifier(name)))  # fmt: skip
        bulk, real = postgres_store(names[0]), postgres_store(names[1])
    try:
        problems = check(bulk.side(), real.side(), keyring)
    finally:
        bulk.drop()
        real.drop()
    if problems:
        raise SystemExit(f"{kind}: the bulk fill is not the append path's: {problems}")
    print(f"{kind}: a bulk-filled log of 3,000 entries equals the append path's, and its heads "
          "MemoryTree's tree_hash")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, help="default 10,000,000 (--quick: 100,000)")
    parser.add_argument("--store", choices=("both", "sqlite", "postgres"), default="both")
    parser.add_argument("--samples", type=int, default=2_000)
    parser.add_argument("--appends", type=int, default=300)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--pg-db", default="gameledger_bench_tbench")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--quick", action="store_true", help="100,000 entries, fewer samples")
    parser.add_argument("--no-check", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.quick:
        args.samples, args.appends = 300, 50
    args.entries = args.entries or (100_000 if args.quick else 10_000_000)
    exit_on_sigterm()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="tbench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    continued = (workdir / "keyring.json").exists()
    keyring = bench_keyring(workdir)
    record, body = azul_record()
    print(f"baseline: SHA-256 of a finished 4-player Azul record, {len(body):,} bytes "
          f"({len(record['events'])} events); fill chunks of {CHUNK:,} entries")  # fmt: skip
    kinds = ("sqlite", "postgres") if args.store == "both" else (args.store,)
    results = []
    try:
        for kind in kinds:
            if not args.no_check:
                check_fill(kind, workdir, args.pg_db, keyring)
            if kind == "sqlite":
                bench = sqlite_store(workdir / "bench.db")
            else:
                bench = postgres_store(args.pg_db, continued=continued)
            try:
                results.append(run_store(bench, keyring, record, body, args))
            finally:
                bench.close()
                if not args.keep:
                    bench.drop()
            print(f"{kind}: fill took {results[-1]['fill_seconds']:.0f} s")
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps({"record_bytes": len(body), "results": results}, indent=1))


if __name__ == "__main__":
    main()
