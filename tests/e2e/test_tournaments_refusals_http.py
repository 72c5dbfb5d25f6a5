"""Every refusal of the tournaments' API over HTTP (issue 15, part 7; docs/api.md,
"Tournaments"; docs/tournaments.md, "Refusals"): each code reached by a real request, with
its status, as problem+json; tokens missing, malformed or of someone else; bodies that do
not match their schema (400) or that the rules refuse (422); and each refused request leaves
the tournament as it was (its version unchanged). The answers are checked against the
OpenAPI document too (tests/e2e/openapi_check.py), so each status is one its operation
declares."""

from __future__ import annotations

import random
import uuid
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from api.app import create_app
from api.errors import PROBLEM
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
    register,
    seats_of,
)

SWISS = {"kind": "swiss", "rounds": 2}


def refused(answer: TestResponse, status: int, code: str) -> None:
    assert (answer.status_code, answer.mimetype) == (status, PROBLEM), answer.get_data()[:300]
    assert answer.json["code"] == code, answer.json


def version(client: FlaskClient, organised: Organised) -> int:
    found: int = client.get(organised.path).json["version"]
    return found


def post(
    client: FlaskClient, organised: Organised, verb: str, token: str | None, body: Any = None
) -> TestResponse:
    headers = bearer(token) if token else {}
    return client.post(f"{organised.path}/{verb}", json=body, headers=headers)


def test_creation_refusals(client: FlaskClient, http_services: Services) -> None:
    def made(body: Any) -> TestResponse:
        return client.post(f"{API}/tournaments", json=body)

    base = {"game": "azul", "name": "Open", "format": SWISS}
    refused(made({**base, "game": "chess"}), 404, "unknown-game")
    for fmt in (
        {"kind": "swiss", "table_size": 7},
        {"kind": "swiss", "table_size": 5},  # Azul seats 2 to 4
        {"kind": "swiss", "cycles": 2},
        {"kind": "round-robin", "late_entry": True},
        {"kind": "swiss", "rounds": 0},
        {"kind": "swiss", "tie_breaks": ["score", "score"]},
        {"kind": "elimination", "table_size": 3, "advance": 3},
    ):
        refused(made({**base, "format": fmt}), 422, "invalid-format")
    refused(made({**base, "options": {"nope": 1}}), 422, "invalid-options")
    refused(made({**base, "settings": {"clock": {"type": "sundial"}}}), 422, "invalid-clock")
    refused(made({**base, "name": "Open\u202e"}), 422, "not-plain-text")
    for body in (
        {"game": "azul", "name": "Open"},
        {**base, "format": {"kind": "knockout"}},
        {**base, "format": {"kind": "swiss", "rounds": "2"}},
        {**base, "format": {"kind": "swiss", "late_entry": 1}},
        {**base, "format": {"kind": "swiss", "bye_points": "1"}},
        {**base, "format": {"kind": "swiss", "colour": "white"}},
        {**base, "name": ""},
        {**base, "seed": "mine"},
    ):
        refused(made(body), 400, "invalid-request")
    raw = client.post(f"{API}/tournaments", data="{", content_type="application/json")
    refused(raw, 400, "malformed-json")
    text = client.post(f"{API}/tournaments", data="x", content_type="text/plain")
    refused(text, 415, "unsupported-media-type")
    http_services.wait()
    assert client.get(f"{API}/tournaments").json["items"] == []  # nothing was created


def test_registration_refusals(client: FlaskClient) -> None:
    refused(client.post(f"{API}/tournaments/{uuid.uuid4()}/entrants", json={"name": "a"}), 404,
            "tournament-not-found")  # fmt: skip
    refused(client.get(f"{API}/tournaments/NOT-AN-ID"), 404, "tournament-not-found")
    organised = create(client, {**SWISS, "max_entrants": 2})
    register(client, organised, "Ann")
    before = version(client, organised)
    refused(post(client, organised, "entrants", None, {"name": "ANN"}), 409, "name-taken")
    refused(post(client, organised, "entrants", None, {"name": "A\u200bnn"}), 422,
            "not-plain-text")  # fmt: skip
    refused(post(client, organised, "entrants", None, {}), 400, "invalid-request")
    refused(post(client, organised, "entrants", None, {"name": "Bo", "entrant": "x"}), 400,
            "invalid-request")  # fmt: skip
    assert version(client, organised) == before
    register(client, organised, "Bo")
    refused(post(client, organised, "entrants", None, {"name": "Cy"}), 409, "tournament-full")

    running = organise(client, SWISS, 2)
    refused(post(client, running, "entrants", None, {"name": "Late"}), 409, "registration-closed")


def test_a_registration_retried_with_its_key_registers_once(client: FlaskClient) -> None:
    organised = create(client, SWISS)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.post(f"{organised.path}/entrants", json={"name": "Ann"}, headers=key)
    again = client.post(f"{organised.path}/entrants", json={"name": "Ann"}, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true" and again.json == first.json
    assert len(client.get(organised.path).json["entrants_list"]) == 1


def test_tokens_missing_malformed_or_of_someone_else(client: FlaskClient) -> None:
    organised = create(client, SWISS)
    ann = register(client, organised, "Ann")
    other = create(client, SWISS)
    stranger = other.organiser
    before = version(client, organised)
    refused(post(client, organised, "open-check-in", None), 401, "token-required")
    answer = client.post(f"{organised.path}/start", headers={"Authorization": "Basic eA=="})
    refused(answer, 401, "invalid-authorization")
    refused(post(client, organised, "open-check-in", organised.entrants[ann]), 403, "invalid-token")
    refused(post(client, organised, "open-check-in", stranger), 403, "invalid-token")
    refused(post(client, organised, "check-in", None), 401, "token-required")
    refused(post(client, organised, "check-in", organised.organiser), 403, "invalid-token")
    refused(post(client, organised, "withdraw", stranger), 403, "invalid-token")
    refused(post(client, organised, "withdraw", organised.entrants[ann], {"entrant": "x"}), 403,
            "invalid-token")  # fmt: skip
    for verb in ("remove", "arbiter/disqualify"):
        body = {"entrant": ann, "reason": "r"}
        refused(post(client, organised, verb, organised.entrants[ann], body), 403, "invalid-token")
    for path in ("tables/mine", "arbiter/tokens"):
        refused(client.get(f"{organised.path}/{path}"), 401, "token-required")
        refused(client.get(f"{organised.path}/{path}", headers=bearer(stranger)), 403,
                "invalid-token")  # fmt: skip
    mine = client.get(f"{organised.path}/tables/mine", headers=bearer(organised.organiser))
    refused(mine, 403, "invalid-token")
    tokens = client.get(f"{organised.path}/arbiter/tokens", headers=bearer(organised.entrants[ann]))
    refused(tokens, 403, "invalid-token")
    assert version(client, organised) == before


def test_refusals_before_the_start(client: FlaskClient) -> None:
    organised = create(client, SWISS)
    ann, bo, cy = (register(client, organised, name) for name in ("Ann", "Bo", "Cy"))
    token = organised.entrants
    org = organised.organiser
    before = version(client, organised)
    refused(post(client, organised, "check-in", token[ann]), 409, "check-in-not-open")
    refused(post(client, organised, "start", org), 409, "check-in-not-open")
    for verb, body in (("rounds", None), ("finish", None)):
        refused(post(client, organised, verb, org, body), 409, "tournament-not-running")
    refused(post(client, organised, "arbiter/disqualify", org, {"entrant": ann, "reason": "r"}),
            409, "tournament-not-running")  # fmt: skip
    refused(post(client, organised, "remove", org, {"entrant": "nobody", "reason": "r"}), 404,
            "no-such-entrant")  # fmt: skip
    refused(post(client, organised, "withdraw", org, {"entrant": "nobody"}), 404,
            "no-such-entrant")  # fmt: skip
    refused(post(client, organised, "remove", org, {"entrant": ann, "reason": " "}), 422,
            "not-plain-text")  # fmt: skip
    refused(post(client, organised, "remove", org, {"entrant": ann}), 400, "invalid-request")
    for verb, body in (
        ("arbiter/penalty", {"entrant": ann, "points": 1, "reason": "r"}),
        ("arbiter/correct", {"game": str(uuid.uuid4()), "ranks": [1, 2], "reason": "r"}),
    ):
        refused(post(client, organised, verb, org, body), 409, "tournament-not-running")
    refused(client.get(f"{organised.path}/record"), 409, "tournament-not-finished")
    assert version(client, organised) == before

    command(client, organised, "open-check-in")
    refused(post(client, organised, "open-check-in", org), 409, "check-in-open")
    assert post(client, organised, "check-in", token[ann]).status_code == 200
    refused(post(client, organised, "check-in", token[ann]), 409, "checked-in")
    refused(post(client, organised, "start", org), 409, "too-few-entrants")
    assert post(client, organised, "withdraw", token[bo]).status_code == 200
    refused(post(client, organised, "withdraw", token[bo]), 409, "entrant-left")
    refused(post(client, organised, "check-in", token[bo]), 409, "entrant-left")
    refused(post(client, organised, "remove", org, {"entrant": bo, "reason": "r"}), 409,
            "entrant-left")  # fmt: skip
    assert post(client, organised, "check-in", token[cy]).status_code == 200
    command(client, organised, "start")
    refused(post(client, organised, "start", org), 409, "tournament-started")
    refused(post(client, organised, "open-check-in", org), 409, "check-in-open")
    refused(post(client, organised, "check-in", token[cy]), 409, "check-in-not-open")


def test_refusals_while_running_and_after_the_end(client: FlaskClient) -> None:
    organised = organise(client, {**SWISS, "pairing": "organiser"}, 4)
    org = organised.organiser
    first = client.get(f"{organised.path}/rounds/1").json["tables"]
    game, seats = first[0]["game"], [s["entrant"] for s in first[0]["seats"]]
    other = first[1]["game"]
    before = version(client, organised)
    refused(client.get(f"{organised.path}/rounds/2"), 404, "no-such-round")
    refused(client.get(f"{organised.path}/rounds/0"), 404, "no-such-round")
    refused(post(client, organised, "rounds", org), 409, "round-not-over")
    refused(post(client, organised, "finish", org), 409, "round-not-over")

    def act(verb: str, body: dict[str, Any], status: int, code: str) -> None:
        refused(post(client, organised, f"arbiter/{verb}", org, body), status, code)

    reason = {"reason": "r"}
    act(
        "forfeit", {"game": str(uuid.uuid4()), "absent": [seats[0]], **reason}, 404, "no-such-table"
    )
    act("forfeit", {"game": game, "absent": ["nobody"], **reason}, 422, "bad-forfeit")
    act("forfeit", {"game": game, "absent": [], **reason}, 422, "bad-forfeit")
    act("forfeit", {"game": game, "absent": [seats[0], seats[0]], **reason}, 422, "bad-forfeit")
    act("forfeit", {"game": game, "absent": [seats[0]], "reason": "\x07"}, 422, "not-plain-text")
    act("adjudicate", {"game": game, "ranks": [1, 1, 1], **reason}, 422, "bad-ranks")
    act("adjudicate", {"game": game, "ranks": [2, 2], **reason}, 422, "bad-ranks")
    act("adjudicate", {"game": game, "ranks": [1, 2], "scores": [3], **reason}, 422, "bad-scores")
    act("adjudicate", {"game": game, "ranks": ["1", 2], **reason}, 400, "invalid-request")
    act("adjudicate", {"game": game, "ranks": [1, 2]}, 400, "invalid-request")
    act("correct", {"game": game, "ranks": [1, 2], **reason}, 409, "table-not-decided")
    act("penalty", {"entrant": seats[0], "points": 0, **reason}, 422, "bad-penalty")
    act("penalty", {"entrant": seats[0], "points": 1001, **reason}, 422, "bad-penalty")
    act("penalty", {"entrant": seats[0], "points": "1", **reason}, 400, "invalid-request")
    act("penalty", {"entrant": seats[0], "points": True, **reason}, 400, "invalid-request")
    act("disqualify", {"entrant": "nobody", **reason}, 404, "no-such-entrant")
    act("penalty", {"entrant": "nobody", "points": 1, **reason}, 404, "no-such-entrant")
    for verb in ("forfeit", "adjudicate"):  # the tournament's own id, a game's: no table
        body = {"game": organised.tournament_id, "absent": [seats[0]], "ranks": [1, 2], **reason}
        body.pop("ranks" if verb == "forfeit" else "absent")
        act(verb, body, 404, "no-such-table")
    assert version(client, organised) == before

    command(client, organised, "arbiter/adjudicate", {"game": game, "ranks": [1, 2], **reason})
    act("adjudicate", {"game": game, "ranks": [1, 2], **reason}, 409, "table-decided")
    act("forfeit", {"game": game, "absent": [seats[1]], **reason}, 409, "table-decided")
    command(client, organised, "arbiter/disqualify", {"entrant": seats[1], **reason})
    act("disqualify", {"entrant": seats[1], **reason}, 409, "entrant-left")
    command(client, organised, "arbiter/adjudicate", {"game": other, "ranks": [1, 1], **reason})
    # round 1 is over; with three of the four gone, no table can be seated any more
    for entrant in (seats[0], first[1]["seats"][0]["entrant"]):
        command(client, organised, "withdraw", {"entrant": entrant})
    refused(post(client, organised, "rounds", org), 409, "no-round-left")

    command(client, organised, "finish")
    refused(post(client, organised, "finish", org), 409, "tournament-not-running")
    act("correct", {"game": game, "ranks": [2, 1], **reason}, 409, "tournament-not-running")
    act("penalty", {"entrant": seats[0], "points": 1, **reason}, 409, "tournament-not-running")
    refused(client.get(f"{organised.path}/record?tree_size=99999"), 404, "tree-head-not-found")
    refused(client.get(f"{organised.path}/record?tree_size=x"), 400, "invalid-request")
    refused(post(client, organised, "entrants", None, {"name": "Late"}), 409, "tournament-finished")
    remaining = first[1]["seats"][1]["entrant"]
    refused(post(client, organised, "withdraw", organised.entrants[remaining]), 409,
            "tournament-finished")  # fmt: skip
    refused(post(client, organised, "remove", org, {"entrant": remaining, **reason}), 409,
            "tournament-finished")  # fmt: skip


def test_bad_queries(client: FlaskClient) -> None:
    refused(client.get(f"{API}/tournaments?cursor=bm90LWEtY3Vyc29y"), 400, "invalid-cursor")
    for query in ("phase=over", "limit=0", "limit=201", "limit=x", "offset=3", "game=a%00b"):
        refused(client.get(f"{API}/tournaments?{query}"), 400, "invalid-request")
    refused(client.get(f"{API}/ratings?game=chess"), 404, "unknown-game")
    refused(client.get(f"{API}/ratings"), 400, "invalid-request")
    refused(client.get(f"{API}/ratings?game=azul&limit=0"), 400, "invalid-request")


def test_a_table_whose_game_has_ended_is_decided_by_its_outcome(
    http_services: Services,
) -> None:
    """No follower runs here, so the game's outcome is not recorded yet: the arbiter still
    may not decide the table (its outcome will)."""
    client = create_app(http_services, follow=False).test_client()
    organised = organise(client, SWISS, 4)
    tables = seats_of(client, organised)
    game = sorted(tables)[0]
    play_game(client, game, tables[game], random.Random(3))
    before = version(client, organised)
    [table] = [
        t for t in client.get(f"{organised.path}/tables").json["tables"] if t["game"] == game
    ]
    assert table["result"] is None
    reason = {"reason": "too late"}
    for verb, body in (
        ("forfeit", {"game": game, "absent": [table["seats"][0]["entrant"]], **reason}),
        ("adjudicate", {"game": game, "ranks": [1, 2], **reason}),
    ):
        answer = post(client, organised, f"arbiter/{verb}", organised.organiser, body)
        refused(answer, 409, "table-game-ended")
    assert version(client, organised) == before


def test_a_forfeit_of_an_entrant_who_has_played_and_a_correction_that_changes_who_went_on(
    http_services: Services,
) -> None:
    """``no-show-moved``: the entrant named absent has moved at its table (adjudicate instead);
    ``next-round-paired``: an elimination result corrected after the next round was paired,
    changing who went on."""
    client = create_app(http_services, follow=False).test_client()
    organised = organise(client, SWISS, 4)
    tables = seats_of(client, organised)
    game = sorted(tables)[0]
    seat, moved = first_move(client, game, tables[game])
    assert moved.status_code == 200
    [table] = [
        t for t in client.get(f"{organised.path}/tables").json["tables"] if t["game"] == game
    ]
    before = version(client, organised)
    body = {"game": game, "absent": [table["seats"][seat]["entrant"]], "reason": "gone"}
    refused(post(client, organised, "arbiter/forfeit", organised.organiser, body), 409,
            "no-show-moved")  # fmt: skip
    assert version(client, organised) == before

    bracket = organise(client, {"kind": "elimination"}, 4)
    first = client.get(f"{bracket.path}/rounds/1").json["tables"]
    for table in first:
        command(client, bracket, "arbiter/adjudicate",
                {"game": table["game"], "ranks": [1, 2], "reason": "r"})  # fmt: skip
    assert client.get(f"{bracket.path}/rounds/2").status_code == 200
    before = version(client, bracket)
    body = {"game": first[0]["game"], "ranks": [2, 1], "reason": "wrong winner"}
    refused(post(client, bracket, "arbiter/correct", bracket.organiser, body), 409,
            "next-round-paired")  # fmt: skip
    assert version(client, bracket) == before
