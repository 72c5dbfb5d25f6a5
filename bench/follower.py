"""Does the SQLite log follower keep up? (issue 2, part 7)

Writes games through the application layer on a SQLite file while a follower runs in the
background, and measures, in the same run:

* the write rate (events saved per second by the writers);
* the follower's catch-up rate (events applied per second from a cold start);
* the lag while writing (events behind, sampled) and the time to drain after the last write.

The figure that matters is the ratio catch-up rate / write rate: above 1 the follower keeps up.

    .venv/bin/python bench/follower.py [--games 30]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import threading
import time
from pathlib import Path

from application.simulation import play_out
from infrastructure.config import Settings
from infrastructure.container import build_services


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(store="sqlite", sqlite_path=Path(tmp) / "b.db", follow_interval=0.05)
        services = build_services(settings)
        model = services.read_models["games_list"]
        follower = model.follower
        follower.start()
        lags: list[int] = []
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set():
                head = services.app.stores[0].recorder.max_notification_id() or 0
                lags.append(head - follower.position(services.app.stores[0].name))
                time.sleep(0.02)

        sampler = threading.Thread(target=sample)
        sampler.start()
        bot = random.Random(1)
        started = time.perf_counter()
        for n in range(args.games):
            game_id = services.app.create_game("azul", 4, seed=f"bench-{n}")
            tokens = [services.app.join(game_id, f"p{k}", k).token for k in range(4)]
            play_out(services.app, game_id, tokens, bot)
        write_seconds = time.perf_counter() - started
        head = services.app.stores[0].recorder.max_notification_id() or 0
        drain_start = time.perf_counter()
        follower.wait(services.app.stores[0].name, head, timeout=120)
        drain = time.perf_counter() - drain_start
        stop.set()
        sampler.join()
        follower.stop()

        cold = time.perf_counter()
        applied = services.rebuild()  # every read model, from the first event
        catch_up_seconds = time.perf_counter() - cold
        services.close()

    write_rate = head / write_seconds
    catch_up_rate = applied / catch_up_seconds
    print(f"events written          {head} in {write_seconds:.2f} s = {write_rate:,.0f}/s")
    print(f"cold catch-up           {applied} in {catch_up_seconds:.2f} s = {catch_up_rate:,.0f}/s")
    print(f"catch-up / write rate   {catch_up_rate / write_rate:.1f}x (above 1: keeps up)")
    print(f"lag while writing       max {max(lags)} events, mean {sum(lags) / len(lags):.1f}")
    print(f"drain after last write  {drain * 1000:.0f} ms")


if __name__ == "__main__":
    main()
