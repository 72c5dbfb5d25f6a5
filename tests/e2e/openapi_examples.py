"""Record the OpenAPI document's examples from a real game (issue 13, part 1; docs/api.md, "The
typed OpenAPI document"): an Azul game played over HTTP, each operation's request body and
answer kept as they were sent, written to api/openapi_examples.json. The document shows them
on each operation; tests/e2e/test_openapi_document.py checks that every operation has one and
that each is valid against its schema.

Run ``python -m tests.e2e.openapi_examples`` after changing what an operation answers. (Long
lists are cut to their first items, which keeps each example a real answer's shape.)"""

from __future__ import annotations

import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any
from uuid import UUID

from api.app import create_app
from application.simulation import play_out
from infrastructure.config import Settings
from infrastructure.container import build_services
from tests.signed import PlayerKey

OUTPUT = Path(__file__).resolve().parents[2] / "api" / "openapi_examples.json"
LONG = 3
"""Lists of an example longer than this are cut (legal moves, events)."""


def record_examples(folder: Path) -> dict[str, Any]:
    """Play a little of two real Azul games (one a tournament's) and keep, per operation,
    the request body and the answer."""
    services = build_services(Settings(store="sqlite", sqlite_path=folder / "examples.db"))
    try:
        return _play(services)
    finally:
        services.close()


def _play(services: Any) -> dict[str, Any]:
    client = create_app(services, follow=False).test_client()
    found: dict[str, Any] = {}

    def call(name: str, method: str, url: str, body: Any = None, token: str = "") -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = client.open(url, method=method, json=body, headers=headers)
        assert answer.status_code < 300, (name, answer.status_code, answer.json)
        example: dict[str, Any] = {"response": answer.json}
        if body is not None:
            example["request"] = body
        found[name] = example
        return answer.json

    base = "/api/v1"
    call("list_game_types", "GET", f"{base}/game-types")
    call("get_game_schemas", "GET", f"{base}/game-types/azul/schemas")
    call("list_keys", "GET", f"{base}/keys")
    created = call("create_game", "POST", f"{base}/games", {"game": "azul", "players": 2})
    game = f"{base}/games/{created['id']}"
    keys = [PlayerKey(), PlayerKey()]  # both seats sign their moves (docs/api.md, "Signed moves")
    tokens = [
        call("join_game", "POST", f"{game}/seats", {"name": n, "public_key": key.public})["token"]
        for n, key in zip("AB", keys, strict=True)
    ]
    view = client.get(game).json
    mover = view["current_players"][0]
    legal = call("legal_moves", "GET", f"{game}/legal-moves", token=tokens[mover])
    chosen, version = legal["moves"][0]["move"], legal["version"]
    move = {
        "move": chosen,
        "expected_version": version,
        "signature": keys[mover].sign(created["id"], version, chosen),
    }
    played = call("make_move", "POST", f"{game}/moves", move, token=tokens[mover])
    call("get_game", "GET", game, token=tokens[mover])
    services.catch_up()
    call("list_games", "GET", f"{base}/games?limit=2")
    call("list_turns", "GET", f"{game}/turns")
    call("view_after_turn", "GET", f"{game}/turns/1")
    call("event_log", "GET", f"{game}/events?limit={LONG}")
    call("game_record", "GET", f"{game}/record")
    call("fork_game", "POST", f"{game}/forks", {"turn": 1}, token=tokens[mover])
    asked = call(
        "request_undo",
        "POST",
        f"{game}/undo-requests",
        {"turns": 1, "expected_version": played["version"]},
        token=tokens[mover],
    )
    call(
        "answer_undo",
        "POST",
        f"{game}/undo-requests/answer",
        {"accept": True, "expected_version": asked["version"]},
        token=tokens[1 - mover],
    )
    stale = client.post(
        f"{game}/moves", json={**move, "expected_version": 1}, headers=_bearer(tokens[mover])
    )
    found["problem"] = stale.json
    _arbiter(client, found, call)
    ended = _lobby(client, call, services.catch_up)
    services.catch_up()  # the checkpointer logs the ended games
    _log(ended, call)
    _clock(client, call)
    _tournament(services, client, call)
    return _cut(found)


def _log(game: str, call: Any) -> None:
    """The transparency log once games have ended: its heads, entries and proofs, a finished
    game's checkpoints, and its record with its ``transparency``."""
    base = "/api/v1"
    head = call("latest_tree_head", "GET", f"{base}/log/tree-head")
    size = head["size"]
    call("tree_head", "GET", f"{base}/log/tree-heads/{size}")
    call("log_entries", "GET", f"{base}/log/entries?limit=2")
    call("inclusion_proof", "GET", f"{base}/log/proofs/inclusion?leaf_index=0&tree_size={size}")
    call("consistency_proof", "GET", f"{base}/log/proofs/consistency?first=1&second={size}")
    call("game_checkpoints_list", "GET", f"{base}/games/{game}/checkpoints")
    call("game_record", "GET", f"{base}/games/{game}/record")


def _lobby(client: Any, call: Any, settle: Any) -> str:
    """The lobby verbs: leave and abort a waiting game; resign a game of two (which ends
    it), play it again and claim a seat of the rematch. The aborted game's id (``settle``
    after the abort: its checkpoint makes a tree head of its own).

    (The resigned game's record is not the example: an outcome by resignation does not match
    the typed outcome of the OpenAPI document, which a finished record would show.)"""
    base = "/api/v1"
    waiting = client.post(f"{base}/games", json={"game": "azul", "players": 2}).json
    game = f"{base}/games/{waiting['id']}"
    seat = client.post(f"{game}/seats", json={"name": "Ann"}).json
    body = {"expected_version": seat["version"]}
    left = call("leave_game", "POST", f"{game}/leave", body, token=seat["token"])
    body = {"expected_version": left["version"]}
    call("abort_game", "POST", f"{game}/abort", body, token=waiting["creator_token"])
    settle()
    aborted = str(waiting["id"])
    created = client.post(f"{base}/games", json={"game": "azul", "players": 2}).json
    game = f"{base}/games/{created['id']}"
    tokens = [client.post(f"{game}/seats", json={"name": n}).json["token"] for n in ("Ann", "Bob")]
    version = client.get(game).json["version"]
    call("resign_game", "POST", f"{game}/resign", {"expected_version": version}, token=tokens[0])
    again = call("rematch_game", "POST", f"{game}/rematch", token=tokens[1])
    claim = {"public_key": PlayerKey().public}
    call("claim_seat", "POST", f"{base}/games/{again['game_id']}/claim", claim, token=tokens[0])
    return aborted


def _arbiter(client: Any, found: dict[str, Any], call: Any) -> None:
    """A tournament game: its arbiter takes the first turn back."""
    base = "/api/v1"
    created = client.post(
        f"{base}/games", json={"game": "azul", "players": 2, "settings": {"tournament": True}}
    ).json
    game = f"{base}/games/{created['id']}"
    tokens = [client.post(f"{game}/seats", json={"name": n}).json["token"] for n in ("Ann", "Bob")]
    mover = client.get(game).json["current_players"][0]
    legal = client.get(f"{game}/legal-moves", headers=_bearer(tokens[mover])).json
    played = client.post(
        f"{game}/moves",
        json={"move": legal["moves"][0]["move"], "expected_version": legal["version"]},
        headers=_bearer(tokens[mover]),
    ).json
    body = {"turn": 0, "reason": "A misclick", "expected_version": played["version"]}
    call("arbiter_undo", "POST", f"{game}/arbiter/undo", body, token=created["arbiter_token"])


def _clock(client: Any, call: Any) -> None:
    """A game with a short Fischer clock whose first seat lets its time run out: the other
    seat's claim flags it (docs/api.md, "Clocks")."""
    base = "/api/v1"
    control = {"type": "fischer", "base_seconds": 1, "increment_seconds": 0}
    created = client.post(
        f"{base}/games", json={"game": "azul", "players": 2, "settings": {"clock": control}}
    ).json
    game = f"{base}/games/{created['id']}"
    tokens = [client.post(f"{game}/seats", json={"name": n}).json["token"] for n in ("Ann", "Bob")]
    view = client.get(game).json
    time.sleep(1.05)
    claimant = tokens[1 - view["clock"]["flag_seat"]]
    body = {"seat": view["clock"]["flag_seat"], "expected_version": view["version"]}
    call("flag_seat", "POST", f"{game}/flag", body, token=claimant)


def _tournament(services: Any, client: Any, call: Any) -> None:
    """A Swiss of three rounds whose organiser pairs them: six register, one is withdrawn by
    the organiser and one removed, four check in; round 1 has a table played out and one
    forfeited, then a correction; round 2 is paired, adjudicated, with a penalty and a
    disqualification; the organiser finishes after it (docs/api.md, "Tournaments")."""
    base = "/api/v1"
    fmt = {"kind": "swiss", "rounds": 3, "pairing": "organiser"}
    created = call(
        "create_tournament",
        "POST",
        f"{base}/tournaments",
        {"game": "azul", "name": "Harbour Open", "format": fmt},
    )
    path = f"{base}/tournaments/{created['tournament_id']}"
    org = created["organiser_token"]
    names = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fox")
    entrants = [call("register_entrant", "POST", f"{path}/entrants", {"name": n}) for n in names]
    tokens = [e["token"] for e in entrants]
    body = {"entrant": entrants[4]["entrant"]}
    call("withdraw_entrant", "POST", f"{path}/withdraw", body, token=org)
    body = {"entrant": entrants[5]["entrant"], "reason": "Registered twice"}
    call("remove_entrant", "POST", f"{path}/remove", body, token=org)
    call("open_check_in", "POST", f"{path}/open-check-in", token=org)
    for token in tokens[:4]:
        call("check_in", "POST", f"{path}/check-in", token=token)
    call("start_tournament", "POST", f"{path}/start", token=org)
    call("my_tables", "GET", f"{path}/tables/mine", token=tokens[0])
    call("arbiter_tokens", "GET", f"{path}/arbiter/tokens", token=org)
    call("list_rounds", "GET", f"{path}/rounds")
    first, second = call("get_round", "GET", f"{path}/rounds/1")["tables"]
    seats: dict[int, str] = {}
    for token in tokens[:4]:
        for mine in client.get(f"{path}/tables/mine", headers=_bearer(token)).json["tables"]:
            if mine["game"] == first["game"]:
                seats[mine["seat"]] = mine["token"]
    play_out(services.app, UUID(first["game"]), [seats[0], seats[1]], random.Random(15))
    services.catch_up()  # the results manager records the result
    absent = [second["seats"][1]["entrant"]]
    body = {"game": second["game"], "absent": absent, "reason": "Did not come"}
    call("forfeit_table", "POST", f"{path}/arbiter/forfeit", body, token=org)
    body = {"game": first["game"], "ranks": [1, 2], "reason": "Scoresheet misread"}
    call("correct_result", "POST", f"{path}/arbiter/correct", body, token=org)
    call("list_tables", "GET", f"{path}/tables")
    paired = call("pair_round", "POST", f"{path}/rounds", token=org)["tables"]
    body = {"game": paired[0]["game"], "ranks": [2, 1], "scores": [31, 40], "reason": "Power cut"}
    call("adjudicate_table", "POST", f"{path}/arbiter/adjudicate", body, token=org)
    body = {"entrant": paired[1]["seats"][0]["entrant"], "points": 0.5, "reason": "Late"}
    call("penalise_entrant", "POST", f"{path}/arbiter/penalty", body, token=org)
    body = {"entrant": paired[1]["seats"][1]["entrant"], "reason": "Misconduct"}
    call("disqualify_entrant", "POST", f"{path}/arbiter/disqualify", body, token=org)
    body = {"game": paired[1]["game"], "ranks": [1, 2], "reason": "Disqualified opponent"}
    client.post(f"{path}/arbiter/adjudicate", json=body, headers=_bearer(org))
    call("finish_tournament", "POST", f"{path}/finish", token=org)
    services.catch_up()
    services.catch_up()  # the read models follow the tournament's last events
    call("get_tournament", "GET", path)
    call("get_standings", "GET", f"{path}/standings")
    call("tournament_ratings", "GET", f"{path}/ratings")
    call("list_tournaments", "GET", f"{base}/tournaments?limit=2")
    call("game_ratings", "GET", f"{base}/ratings?game=azul&limit=3")
    call("tournament_record", "GET", f"{path}/record")


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _cut(found: dict[str, Any]) -> dict[str, Any]:
    """The legal moves, and a tournament record's events and its games' events and moves,
    cut to their first items."""
    found["legal_moves"]["response"]["moves"] = found["legal_moves"]["response"]["moves"][:LONG]
    record = found["tournament_record"]["response"]
    record["events"] = record["events"][:LONG]
    record["games"] = [
        {**game, "events": game["events"][:LONG], "moves": game["moves"][:LONG]}
        for game in record["games"][:2]
    ]
    return found


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        examples = record_examples(Path(folder))
    OUTPUT.write_text(json.dumps(examples, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
