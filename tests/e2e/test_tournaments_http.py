"""Whole tournaments over HTTP (issue 15, part 7; docs/api.md, "Tournaments";
docs/tournaments.md, "Running a tournament over HTTP"): an organiser creates a Swiss and keeps
its token, entrants register and check in, the organiser starts; entrants fetch their seat
tokens (``tables/mine``) and play their games through the games' endpoints with moves from
``legal-moves``; the service's followers record the results and pair the next round; the
standings carry a signed tree head that verifies with the published key and against which
every table's game proves its inclusion; ratings; the arbiter's acts, each in the standings'
history; reads show every command at once; every answer is checked against the OpenAPI
document (tests/e2e/openapi_check.py)."""

from __future__ import annotations

import base64
import hashlib
import random
from typing import Any
from uuid import UUID

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from flask.testing import FlaskClient

from application.audit_tournament import verify_tournament_record
from application.checkpoints import canonical_json, tree_head_bytes
from application.signing import PublicKey
from domain.merkle import leaf_hash, verify_inclusion
from infrastructure.container import Services
from tests.e2e.conftest import bearer
from tests.e2e.tournament_http import (
    API,
    Organised,
    command,
    create,
    first_move,
    organise,
    play_game,
    play_round,
    register,
    seats_of,
    until,
)


def rounds(client: FlaskClient, organised: Organised) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = client.get(f"{organised.path}/rounds").json["rounds"]
    return found


def verified_head(client: FlaskClient, head: dict[str, Any]) -> None:
    """The tree head is signed by a key ``GET /keys`` publishes (Ed25519 over the canonical
    JSON of its five other fields: docs/audit.md), checked with the cryptography library."""
    [key] = [k for k in client.get(f"{API}/keys").json["keys"] if k["key_id"] == head["key_id"]]
    public = Ed25519PublicKey.from_public_bytes(b64url(key["public_key"]))
    public.verify(b64url(head["signature"]), tree_head_bytes(head))  # raises if it does not


def b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def test_a_swiss_is_run_over_http_from_creation_to_its_ratings(
    client: FlaskClient, http_services: Services
) -> None:
    organised = create(client, {"kind": "swiss", "rounds": 2})
    created = client.get(organised.path)
    assert created.status_code == 200 and created.headers["ETag"] == '"1"'
    document = created.json
    assert (document["phase"], document["seed"], document["entrants"]) == ("registration", None, 0)
    assert document["format"]["pairing"] == "auto" and document["settings"]["tournament"]
    assert len(document["seed_sha256"]) == 64
    assert client.get(organised.path, headers={"If-None-Match": '"1"'}).status_code == 304

    for n in range(5):
        register(client, organised, f"player {n}")
    # each command is seen at once, whether or not the read model has followed it yet
    listed = client.get(organised.path).json["entrants_list"]
    assert [e["name"] for e in listed] == [f"player {n}" for n in range(5)]
    assert all(e["status"] == "registered" and e["number"] is None for e in listed)
    command(client, organised, "open-check-in")
    for token in organised.entrants.values():
        checked = client.post(f"{organised.path}/check-in", headers=bearer(token))
        assert (
            checked.status_code == 200 and checked.headers["ETag"] == f'"{checked.json["version"]}"'
        )
    started = command(client, organised, "start")
    assert client.get(organised.path).json["version"] == started["version"]

    first = rounds(client, organised)
    assert [len(r["tables"]) for r in first] == [2] and len(first[0]["byes"]) == 1
    # each entrant's tokens open its own seat of its own table's game
    for entrant, token in organised.entrants.items():
        mine = client.get(f"{organised.path}/tables/mine", headers=bearer(token)).json["tables"]
        byed = first[0]["byes"][0]["entrant"] == entrant
        assert len(mine) == (0 if byed else 1)
        for seat in mine:
            view = client.get(f"{API}/games/{seat['game']}", headers=bearer(seat["token"])).json
            assert view["viewer"]["seat"] == seat["seat"]
            assert view["seats"][seat["seat"]]["name"] == organised.names[entrant]
            assert view["lobby"]["tournament"] == organised.tournament_id
            assert view["status"] == "active"  # every seat taken: play starts at once

    bot = random.Random(15)
    assert play_round(client, organised, bot) == 2
    second = until(lambda: len(found := rounds(client, organised)) == 2 and found)
    assert all(t["result"]["how"] == "played" for t in second[0]["tables"])
    assert second[0]["byes"] != second[1]["byes"]  # at most one bye each

    # the arbiter between rounds: a penalty and a corrected result, each in the history
    loser = next(s["entrant"] for s in client.get(f"{organised.path}/standings").json["standings"])
    command(
        client, organised, "arbiter/penalty", {"entrant": loser, "points": 0.5, "reason": "late"}
    )
    table = second[0]["tables"][0]
    was = table["result"]["ranks"]
    command(
        client,
        organised,
        "arbiter/correct",
        {"game": table["game"], "ranks": was[::-1], "reason": "scoresheet misread"},
    )
    standings = client.get(f"{organised.path}/standings").json
    acts = [(a["act"], a["reason"]) for a in standings["history"]]
    assert acts == [("penalty", "late"), ("correct", "scoresheet misread")]
    assert standings["history"][1]["was"] == was and standings["history"][1]["ranks"] == was[::-1]
    row = next(r for r in standings["standings"] if r["entrant"] == loser)
    assert row["penalty"] == 0.5

    assert play_round(client, organised, bot) == 2
    final = until(lambda: (d := client.get(organised.path).json)["phase"] == "finished" and d)
    assert hashlib.sha256(final["seed"].encode()).hexdigest() == final["seed_sha256"]
    assert final["ranking"] == [r["entrant"] for r in final["standings"]]
    assert final["rounds_planned"] == 2 and len(final["rounds_list"]) == 2

    # the standings carry the log's latest signed tree head; every table's game is in it
    http_services.wait()
    standings = client.get(f"{organised.path}/standings")
    head = standings.json["tree_head"]
    assert standings.headers["ETag"] == f'"{final["version"]}-{head["size"]}"'
    assert standings.json["checkpointed"] is True  # the head holds the tournament's end
    verified_head(client, head)
    with pytest.raises(InvalidSignature):
        verified_head(client, {**head, "root_hash": "00" * 32})
    tables = client.get(f"{organised.path}/tables").json["tables"]
    assert len(tables) == 4 and [t["round"] for t in tables] == [1, 1, 2, 2]
    for each in tables:
        record = client.get(f"{API}/games/{each['game']}/record?tree_size={head['size']}").json
        proof = record["transparency"]
        assert proof["tree_head"] == head and proof["checkpoint"]["ended"]
        assert proof["checkpoint"]["chain_head"] == record["chain_head"]
        assert verify_inclusion(
            leaf_hash(canonical_json(proof["checkpoint"])),
            proof["leaf_index"],
            head["size"],
            [bytes.fromhex(h) for h in proof["inclusion_proof"]],
            bytes.fromhex(head["root_hash"]),
        )

    # the record, proved against the head kept with the standings, verifies with the key
    record = client.get(f"{organised.path}/record?tree_size={head['size']}")
    assert record.headers["ETag"] == f'"{final["version"]}-{head["size"]}"'
    [key] = [k for k in client.get(f"{API}/keys").json["keys"] if k["key_id"] == head["key_id"]]
    pinned = PublicKey(b64url(key["public_key"]), key["created_at"])
    report = verify_tournament_record(record.json, pinned_keys=[pinned], tree_head=head)
    assert report.ok, report.summary
    assert (report.rounds, report.tables, report.games_verified) == (2, 4, 4)
    assert record.json["transparency"]["tree_head"] == head
    forged = {**record.json, "standings": record.json["standings"][::-1]}
    assert not verify_tournament_record(forged, pinned_keys=[pinned], tree_head=head).ok

    # ratings: one tournament's, and the game kind's across tournaments (a read model)
    ratings = client.get(f"{organised.path}/ratings").json["ratings"]
    assert len(ratings) == 5 and all(r["game"] == "azul" for r in ratings)
    played = {r["entrant"]: r["games"] for r in ratings}
    assert sorted(played.values()) == [1, 1, 2, 2, 2]  # two byes; the corrected game counts
    ordinals = [r["ordinal"] for r in ratings]
    assert ordinals == sorted(ordinals, reverse=True)
    across = until(lambda: client.get(f"{API}/ratings?game=azul&limit=3").json["ratings"])
    assert [r["ordinal"] for r in across] == ordinals[:3]
    assert {r["tournament_id"] for r in across} == {organised.tournament_id}

    listed = until(lambda: client.get(f"{API}/tournaments?phase=finished").json["items"])
    assert [t["tournament_id"] for t in listed] == [organised.tournament_id]
    assert listed[0]["version"] == final["version"]
    assert client.get(f"{API}/tournaments?phase=running").json["items"] == []


def test_the_organiser_pairs_and_the_arbiter_decides_over_http(client: FlaskClient) -> None:
    fmt = {"kind": "swiss", "rounds": 3, "pairing": "organiser"}
    organised = organise(client, fmt, 6)
    tokens = client.get(f"{organised.path}/arbiter/tokens", headers=bearer(organised.organiser))
    arbiter = {t["game"]: t["arbiter_token"] for t in tokens.json["tables"]}
    assert len(arbiter) == 3
    tables = seats_of(client, organised)
    first, second, third = sorted(tables)

    # the arbiter's token of a table's game: its view as the arbiter, and the arbiter's undo
    game = f"{API}/games/{first}"
    assert client.get(game, headers=bearer(arbiter[first])).json["viewer"]["arbiter"]
    moved = first_move(client, first, tables[first])[1].json
    undone = client.post(
        f"{game}/arbiter/undo",
        json={"turn": 0, "reason": "wrong factory", "expected_version": moved["version"]},
        headers=bearer(arbiter[first]),
    )
    assert undone.status_code == 200, undone.json

    # round 1: a forfeit, an adjudication, a game played out
    seated = {t["game"]: t for t in rounds(client, organised)[0]["tables"]}
    absent = seated[first]["seats"][1]["entrant"]
    command(
        client,
        organised,
        "arbiter/forfeit",
        {"game": first, "absent": [absent], "reason": "no-show"},
    )
    command(
        client,
        organised,
        "arbiter/adjudicate",
        {"game": second, "ranks": [2, 1], "scores": [12, 30], "reason": "power cut"},
    )
    play_game(client, third, tables[third], random.Random(4))
    over = until(lambda: all(t["result"] for t in rounds(client, organised)[0]["tables"]))
    assert over and len(rounds(client, organised)) == 1  # pairing is the organiser's

    paired = client.post(f"{organised.path}/rounds", headers=bearer(organised.organiser))
    assert paired.status_code == 201, paired.json
    assert paired.headers["Location"] == f"{organised.path}/rounds/2"
    assert paired.json["number"] == 2 and len(paired.json["tables"]) == 3
    assert client.get(paired.headers["Location"]).json == {
        k: v for k, v in paired.json.items() if k != "version"
    }
    victim = paired.json["tables"][0]["seats"][0]["entrant"]
    command(client, organised, "arbiter/disqualify", {"entrant": victim, "reason": "conduct"})
    for table in paired.json["tables"]:
        command(
            client,
            organised,
            "arbiter/adjudicate",
            {"game": table["game"], "ranks": [1, 2], "reason": "time"},
        )
    finished = command(client, organised, "finish")
    document = client.get(organised.path).json
    assert document["phase"] == "finished" and document["version"] == finished["version"]
    history = [(a["act"], a["round"]) for a in document["history"]]
    assert (
        history == [("forfeit", 1), ("adjudicate", 1), ("disqualify", 2)] + [("adjudicate", 2)] * 3
    )
    assert document["standings"][-1]["entrant"] == victim
    assert document["standings"][-1]["status"] == "disqualified"
    forfeited = next(t for t in document["rounds_list"][0]["tables"] if t["game"] == first)
    assert forfeited["result"]["how"] == "forfeit" and forfeited["result"]["reason"] == "no-show"
    # the table played on after the forfeit's decision is left as decided
    assert client.get(f"{API}/games/{first}").json["status"] == "active"


def test_every_tournament_get_with_an_etag_answers_304(client: FlaskClient) -> None:
    organised = organise(client, {"kind": "swiss", "rounds": 2}, 2)
    paths = ["", "/rounds", "/rounds/1", "/tables", "/standings", "/ratings"]
    etags = {}
    for path in paths:
        first = client.get(organised.path + path)
        etag = etags[path] = first.headers["ETag"]
        again = client.get(organised.path + path, headers={"If-None-Match": etag})
        assert (again.status_code, again.data, again.headers["ETag"]) == (304, b"", etag), path
    [table] = rounds(client, organised)[0]["tables"]
    body = {"game": table["game"], "ranks": [1, 2], "reason": "the clock stopped"}
    command(client, organised, "arbiter/adjudicate", body)
    for path in paths:
        moved = client.get(organised.path + path, headers={"If-None-Match": etags[path]})
        assert moved.status_code == 200 and moved.headers["ETag"] != etags[path], path


def test_no_answer_holds_a_secret(client: FlaskClient, http_services: Services) -> None:
    """The tokens' digests, the tables' secret, the seed before the end, the arbiter's tokens
    and the other entrants' seat tokens are in no answer anyone gets — documents, lists,
    refusals, streams — and each entrant's own seats hold only its own tokens."""
    organised = organise(client, {"kind": "swiss", "rounds": 2}, 4)
    t = http_services.tournaments.load(UUID(organised.tournament_id))
    secrets = {t.organiser_sha256, t.table_secret, t.seed, organised.organiser}
    secrets |= {e["token_sha256"] for e in t.entrants.values()}
    secrets |= set(organised.entrants.values())
    arbiter = client.get(f"{organised.path}/arbiter/tokens", headers=bearer(organised.organiser))
    secrets |= {table["arbiter_token"] for table in arbiter.json["tables"]}
    mine = {
        entrant: client.get(f"{organised.path}/tables/mine", headers=bearer(token))
        for entrant, token in organised.entrants.items()
    }
    own = {e: {s["token"] for s in answer.json["tables"]} for e, answer in mine.items()}
    every_seat = set().union(*own.values())
    assert len(every_seat) == 4
    for entrant, answer in mine.items():  # one's own seats: none of the others' tokens
        others = every_seat - own[entrant]
        assert not any(token in answer.get_data(as_text=True) for token in others)
    http_services.wait()
    answers = [
        client.get(organised.path + path).get_data(as_text=True)
        for path in ("", "/rounds", "/rounds/1", "/tables", "/standings", "/ratings", "/record")
    ]
    answers += [client.get(f"{API}/tournaments").get_data(as_text=True)]
    answers += [client.get(f"{API}/ratings?game=azul").get_data(as_text=True)]
    refusals = [
        client.post(f"{organised.path}/entrants", json={"name": "player 0"}),
        client.post(f"{organised.path}/start", headers=bearer(organised.organiser)),
        client.get(f"{organised.path}/tables/mine", headers=bearer(organised.organiser)),
        client.post(f"{organised.path}/check-in", headers=bearer(t.organiser_sha256)),
    ]
    answers += [r.get_data(as_text=True) for r in refusals]
    lobby = client.get(f"{API}/games/stream", buffered=False)
    game = next(iter(seats_of(client, organised)))
    table = client.get(f"{API}/games/{game}/stream", buffered=False)
    for stream in (lobby, table):
        text = ""
        for chunk in stream.response:
            text += chunk.decode()
            if "event: tournament" in text:
                break
        stream.close()
        answers.append(text)
    for text in answers:
        for secret in secrets | every_seat:
            assert secret not in text
