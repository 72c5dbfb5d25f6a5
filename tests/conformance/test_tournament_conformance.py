"""The tournament aggregate's conformance run (issue 15, part 1: "with the same care as a game";
docs/tournaments.md, "The tournament aggregate"), as tests/conformance/test_random_play.py is
the games': random walks of every command — valid and refused, by organiser and entrants, in
every format — checking after each step that

* a refused command changes nothing (same version, same state);
* an accepted one keeps every invariant (``check_invariants``);

and at the end of each walk that every event is JSON-safe, a link of the hash chain over its
public data, free of secrets, and that the events replayed through a real event store (the
library's transcoder, with a snapshot half way) rebuild the very same tournament."""

from __future__ import annotations

import copy
import json
import random
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.application import Application

from domain.errors import GameError
from domain.randomness import commitment
from domain.tournament.aggregate import Tournament
from domain.tournament.chain import GENESIS, event_link
from domain.tournament.invariants import check_invariants

FORMATS: list[dict[str, Any]] = [
    {"kind": "swiss", "rounds": 3, "late_entry": True},
    {"kind": "swiss", "table_size": 4, "min_table_size": 3, "pairing": "organiser"},
    {"kind": "swiss", "table_size": 3, "min_table_size": 2, "tie_breaks": ["seat", "score"]},
    {"kind": "round-robin", "max_entrants": 7},
    {"kind": "round-robin", "table_size": 3},
    {"kind": "elimination"},
    {"kind": "elimination", "table_size": 4, "min_table_size": 3, "advance": 2},
]

SEED = "c0ffee" * 10 + "abcd"
SECRETS = ("organiser-digest", "token-", "table-secret")


def state_of(t: Tournament) -> dict[str, Any]:
    return copy.deepcopy({k: v for k, v in vars(t).items() if k != "_pending_events"})


def ranks_for(rng: random.Random, players: int) -> list[int]:
    """A random competition ranking (ties included), or now and then a bad one."""
    if rng.random() < 0.1:
        return [rng.randint(0, players + 1) for _ in range(players)]
    scores = [rng.randint(0, 3) for _ in range(players)]
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


def step(t: Tournament, rng: random.Random, names: list[str]) -> None:
    """One random command (which may well be refused)."""
    entrants = list(t.entrants)
    someone = rng.choice(entrants) if entrants else "nobody"
    tables = [tb for rnd in t.rounds for tb in rnd["tables"]]
    open_tables = [tb for tb in tables if tb["result"] is None]
    table = rng.choice(open_tables or tables) if tables else {"game": "none", "seats": ["x"]}
    players = len(table["seats"])
    choice = rng.choices(
        [
            "register", "withdraw", "remove", "open", "check_in", "start", "result",
            "forfeit", "adjudicate", "correct", "penalty", "disqualify", "pair", "finish",
        ],
        weights=[12, 1, 1, 2, 8, 1, 30, 2, 2, 3, 2, 1, 4, 0.2],
    )[0]  # fmt: skip
    if choice == "register":
        name = rng.choice(names) + str(rng.randint(0, 40))
        t.register(name, f"token-{len(t.entrants):08d}".ljust(64, "0"))
    elif choice == "withdraw":
        t.withdraw(someone)
    elif choice == "remove":
        t.remove(someone, rng.choice(["no-show", "", "\u202e"]))
    elif choice == "open":
        t.open_check_in()
    elif choice == "check_in":
        t.check_in(someone)
    elif choice == "start":
        t.start()
    elif choice == "result":
        t.record_result(table["game"], ranks_for(rng, players), [0] * players, 9, "ab" * 32)
    elif choice == "forfeit":
        t.forfeit(table["game"], rng.sample(table["seats"], 1), "did not show")
    elif choice == "adjudicate":
        t.adjudicate(table["game"], ranks_for(rng, players), None, "power cut")
    elif choice == "correct":
        t.correct_result(table["game"], ranks_for(rng, players), None, "typo")
    elif choice == "penalty":
        t.penalise(someone, rng.choice([1, 0.5, -1, 0]), "late")
    elif choice == "disqualify":
        t.disqualify(someone, "collusion")
    elif choice == "pair":
        t.pair_next_round()
    else:
        t.finish()


def walk_of(walk: int) -> tuple[Tournament, int, int]:
    """Walk ``walk``: the tournament after it, and how many commands were accepted and
    refused; a refused command is checked to change nothing, an accepted one to keep every
    invariant."""
    rng = random.Random(walk)
    fmt = FORMATS[walk % len(FORMATS)]
    t = Tournament.create(
        game=rng.choice(["azul", "carcassonne"]),
        options={},
        settings=None,
        format=fmt,
        name=f"Walk {walk}",
        seed=SEED,
        seed_sha256=commitment(SEED),
        organiser_sha256="organiser-digest".ljust(64, "0"),
        table_secret="table-secret".ljust(64, "0"),
        tournament_id=UUID(int=walk + 1),
    )
    names = ["ann", "bo", "cé", "dai", "eve", "fay", "gus", "hal", "ivy"]
    accepted = refused = 0
    for _ in range(400):
        before = state_of(t)
        pending = len(t.pending_events)
        try:
            step(t, rng, names)
        except GameError:
            refused += 1
            assert len(t.pending_events) == pending
            assert state_of(t) == before
            continue
        accepted += 1
        assert check_invariants(t) == []
        if t.phase == "finished":
            break
    return t, accepted, refused


@pytest.mark.parametrize("walk", range(28))
def test_a_random_walk_of_commands_keeps_every_invariant(walk: int) -> None:
    t, accepted, refused = walk_of(walk)
    assert accepted > 10 and refused > 0
    events = t.collect_events()
    head = GENESIS
    for event in events:
        data = event.public_data()
        json.dumps(data)
        assert not any(secret in json.dumps(data) for secret in SECRETS)
        envelope = (type(event).__name__, event.originator_id, event.originator_version,
                    event.timestamp)  # fmt: skip
        assert event.prev_hash == head and event.hash == event_link(head, envelope, data)
        head = event.hash
    app: Application[UUID] = Application({"IS_SNAPSHOTTING_ENABLED": "y"})
    half = len(events) // 2
    app.events.put(events[:half])
    if half:
        app.take_snapshot(t.id)
    app.events.put(events[half:])
    replayed = app.repository.get(t.id)
    assert isinstance(replayed, Tournament)
    assert state_of(replayed) == {**state_of(t)}


def test_the_walks_reach_rounds_results_and_the_arbiter() -> None:
    """The walks exercise what they claim to: most finish, with rounds and arbiter's acts."""
    walked = [walk_of(walk)[0] for walk in range(28)]
    assert sum(1 for t in walked if t.phase == "finished") >= 10
    assert sum(len(t.rounds) for t in walked) >= 60
    assert sum(len(t.acts) for t in walked) >= 20
