"""Verifying game records (issue 3, part 5): finished Azul games verify; every kind of
tampering is caught and named — with the chain left broken, and with the chain recomputed
so that only the rules can catch it; undo follows the game's policy; replay gives the
state after any turn."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest

from application.errors import BadRequest, NotFound
from application.records import export_record
from application.service import GameLedger
from application.verification import VerificationReport, replay_record, verify_record
from domain import chain
from domain.randomness import commitment
from infrastructure.config import Settings
from infrastructure.container import build_services
from tests.helpers import Table, start_game

ARBITER = "arbiter-token"
SHAPES = [(players, wall) for players in (2, 3, 4) for wall in ("colored", "gray")]


# Helpers shared with test_records.py and tests/e2e/test_cli_audit.py


def finished(app: GameLedger, players: int = 2, wall: str = "colored", seed: str = "v") -> Table:
    """A finished Azul game played by random bots."""
    table = start_game(app, players, {"wall": wall}, seed=f"{seed}-{players}-{wall}")
    table.play_out()
    return table


def casual(app: GameLedger, settings: dict[str, Any], players: int = 2) -> Table:
    """A started game with ledger settings (a tournament game gets the arbiter token)."""
    tournament = bool(settings.get("tournament"))
    game_id = app.create_game(
        "azul",
        players,
        settings=settings,
        seed="undo-seed",
        arbiter_token=ARBITER if tournament else None,
    )
    tokens = [app.join(game_id, f"p{n}", n).token for n in range(players)]
    return Table(app, game_id, tokens)


def until_moved(t: Table, seat: int) -> None:
    """Random moves until ``seat`` has just moved."""
    while True:
        _, acting = t.app.whose_turn(t.game_id)
        t.step()
        if acting == [seat]:
            return


def rehash(record: dict[str, Any]) -> dict[str, Any]:
    """Number the events 1, 2, … and recompute every link and the chain head, as a forger
    who changed something would."""
    previous = chain.GENESIS
    for version, item in enumerate(record["events"], start=1):
        item["version"] = version
        item["prev_hash"] = previous
        content = chain.canonical(
            item["type"], record["game"]["id"], version, item["timestamp"], item["data"]
        )
        item["hash"] = previous = chain.link(previous, content)
    record["chain_head"] = previous
    return record


def first(record: dict[str, Any], type_name: str, last: bool = False) -> dict[str, Any]:
    """The first (or last) event of a type."""
    found: list[dict[str, Any]] = [e for e in record["events"] if e["type"] == type_name]
    return found[-1] if last else found[0]


def insert(record: dict[str, Any], after: int, type_name: str, data: dict[str, Any]) -> int:
    """Forge an event after version ``after``; its version."""
    events = record["events"]
    stamp = events[after - 1]["timestamp"]
    events.insert(after, {"type": type_name, "timestamp": stamp, "data": data})
    rehash(record)
    return after + 1


def failed_at(report: VerificationReport, version: int | None, type_name: str | None) -> str:
    """The discrepancy of a failed report, checked to be at that event."""
    assert not report.ok, report.summary
    assert (report.version, report.event_type) == (version, type_name), report.discrepancy
    assert report.discrepancy is not None and report.summary == f"INVALID: {report.discrepancy}"
    return report.discrepancy


@pytest.fixture(scope="module")
def app() -> Iterator[GameLedger]:
    """One in-memory service for the module (verification needs no store)."""
    services = build_services(Settings(store="memory", embedded_projections=False))
    yield services.app
    services.close()


@pytest.fixture(scope="module")
def records(app: GameLedger) -> dict[tuple[int, str], dict[str, Any]]:
    """A finished game's record for every player count and wall."""
    return {shape: export_record(app, finished(app, *shape).game_id) for shape in SHAPES}


@pytest.fixture
def record(records: dict[tuple[int, str], dict[str, Any]]) -> dict[str, Any]:
    """A copy of a finished 3-player coloured-wall game's record, free to alter."""
    return copy.deepcopy(records[(3, "colored")])


# Sound records


@pytest.mark.parametrize(("players", "wall"), SHAPES)
def test_finished_games_verify(
    app: GameLedger, records: dict[tuple[int, str], dict[str, Any]], players: int, wall: str
) -> None:
    record = records[(players, wall)]
    report = verify_record(record)
    assert report.ok, report.discrepancy
    game = app.view(UUID(record["game"]["id"]))
    assert report.moves == game["moves"] and report.events == game["version"]
    assert report.moves_redecided == report.moves == len(record["moves"])
    assert f"{report.moves} moves ({report.moves} re-decided by the rules)" in report.summary
    assert report.turns_undone == 0 and report.draws_checked
    assert report.outcome == game["outcome"] is not None
    assert report.summary.startswith(f"OK: game {game['id']} (azul, {players} players)")
    assert "every draw re-derived from the seed" in report.summary


def test_an_unfinished_game_verifies_except_its_draws(app: GameLedger) -> None:
    table = start_game(app, 2, seed="unfinished")
    for _ in range(12):
        table.step()
    record = export_record(app, table.game_id)
    assert record["seed"] is None and record["outcome"] is None
    report = verify_record(record)
    assert report.ok and not report.draws_checked
    assert "secret seed and can be checked once the game ends" in report.summary

    taken = first(record, "TilesTaken")  # the first take never ends a round: no draw
    taken["data"]["count"] += 1
    message = failed_at(verify_record(rehash(record)), taken["version"], "TilesTaken")
    assert message.startswith(f"event {taken['version']} (TilesTaken): data.count recorded")


def test_a_forked_analysis_game_verifies(app: GameLedger) -> None:
    source = start_game(app, 2, seed="fork-source")
    for _ in range(9):
        source.step()
    fork_id = app.fork(source.game_id, 5)
    fork = Table(app, fork_id, [app.join(fork_id, f"a{n}", n).token for n in range(2)])
    fork.play_out()
    record = export_record(app, fork_id)
    assert record["game"]["analysis"]["turn"] == 5
    assert verify_record(record).ok


def unfinished_with_sealed_events(app: GameLedger) -> dict[str, Any]:
    """A spectator's record of a running Risk game some moves past its first sealed event
    (a card drawn): the moves after it cannot be decided again until the game ends."""
    game_id = app.create_game("risk", 3, seed="sealed-moves")
    tokens = [app.join(game_id, f"p{n}", n).token for n in range(3)]
    bot, after_sealed = random.Random(5), 0
    while after_sealed < 3:
        version, acting = app.whose_turn(game_id)
        seat = bot.choice(acting)
        app.play(game_id, tokens[seat], app.bot_move(game_id, tokens[seat], bot), version)
        log = app.event_log(game_id, limit=500, types=frozenset({"CardDrawn"}))["items"]
        after_sealed += 1 if log else 0
    return export_record(app, game_id)


def test_an_unfinished_record_gives_its_moves_and_those_re_decided(app: GameLedger) -> None:
    """Issue 10, part 7: the report gave the moves it re-decided as the record's moves."""
    record = unfinished_with_sealed_events(app)
    report = verify_record(record)
    assert report.ok, report.discrepancy
    made = [item for item in record["events"] if item["type"] == "MoveMade"]
    assert report.moves == len(record["moves"]) == len(made)
    assert 0 < report.moves_redecided < report.moves
    assert f"{report.moves} moves ({report.moves_redecided} re-decided by the rules)" in (
        report.summary
    )


# Tampering: every kind is caught, and named


@pytest.mark.parametrize(
    ("type_name", "field"), [("WallTiled", "points"), ("FloorPenalised", "score")]
)
def test_a_score_altered_breaks_the_chain(
    record: dict[str, Any], type_name: str, field: str
) -> None:
    item = first(record, type_name)
    item["data"][field] += 1
    message = failed_at(verify_record(record), item["version"], type_name)
    assert "hash recorded" in message and "recomputed" in message


@pytest.mark.parametrize(
    ("type_name", "field"), [("WallTiled", "points"), ("FloorPenalised", "score")]
)
def test_a_score_altered_with_the_chain_recomputed_is_caught_by_the_rules(
    record: dict[str, Any], type_name: str, field: str
) -> None:
    item = first(record, type_name, last=True)
    true_value = item["data"][field]
    item["data"][field] = true_value + 5
    message = failed_at(verify_record(rehash(record)), item["version"], type_name)
    assert message == (
        f"event {item['version']} ({type_name}): "
        f"data.{field} recorded {true_value + 5}, the rules give {true_value}"
    )


def test_final_scores_altered_are_caught_by_the_rules(record: dict[str, Any]) -> None:
    ended = first(record, "GameEnded")
    ended["data"]["scores"][0] += 10
    record["outcome"]["scores"][0] += 10
    message = failed_at(verify_record(rehash(record)), ended["version"], "GameEnded")
    assert "data.scores[0] recorded" in message


def test_a_move_altered_is_caught(record: dict[str, Any]) -> None:
    move = next(
        item
        for item in record["events"]
        if item["type"] == "MoveMade" and item["data"]["move"].get("line") not in (None, "floor")
    )
    data = move["data"]
    line = data["move"]["line"]
    data["move"]["line"] = "floor"
    data["notation"] = data["notation"][:-1] + "-"
    message = failed_at(verify_record(rehash(record)), move["version"] + 1, "TilesTaken")
    assert message.endswith(f'data.line recorded {line}, the rules give "floor"')


def test_an_illegal_move_is_caught_at_the_move(record: dict[str, Any]) -> None:
    move = first(record, "MoveMade")
    factory = first(record, "FactoriesFilled")["data"]["factories"][0]
    absent = next(colour for colour in "BYRKW" if colour not in factory)
    move["data"]["move"] = {"type": "take", "source": 1, "colour": absent, "line": "floor"}
    move["data"]["notation"] = f"F1{absent}-"
    message = failed_at(verify_record(rehash(record)), move["version"], "MoveMade")
    assert message.endswith(f"F1{absent}- is not legal for seat 0 now")


def test_a_move_by_the_wrong_seat_is_caught(record: dict[str, Any]) -> None:
    move = first(record, "MoveMade")
    move["data"]["seat"] = 1
    message = failed_at(verify_record(rehash(record)), move["version"], "MoveMade")
    assert message.endswith("seat 1 may not move now: seat(s) [0] may act now")


def test_a_notation_that_is_not_the_move_is_caught(record: dict[str, Any]) -> None:
    move = first(record, "MoveMade", last=True)
    move["data"]["notation"] = "F9B5"
    message = failed_at(verify_record(rehash(record)), move["version"], "MoveMade")
    assert 'data.notation recorded "F9B5", the rules give' in message


@pytest.mark.parametrize("last", [False, True], ids=["opening", "later refill"])
def test_a_draw_altered_is_caught(record: dict[str, Any], last: bool) -> None:
    filled = first(record, "FactoriesFilled", last=last)
    tile = filled["data"]["factories"][0][1]
    forged = "B" if tile != "B" else "Y"
    filled["data"]["factories"][0][1] = forged
    message = failed_at(verify_record(rehash(record)), filled["version"], "FactoriesFilled")
    assert message.endswith(f'data.factories[0][1] recorded "{forged}", the rules give "{tile}"')


@pytest.mark.parametrize("where", [1, 40, -1], ids=["first", "middle", "last"])
def test_a_hash_altered_is_caught(record: dict[str, Any], where: int) -> None:
    item = record["events"][where]
    item["hash"] = "0" * 64
    message = failed_at(verify_record(record), item["version"], item["type"])
    assert f"hash recorded {'0' * 64}, recomputed" in message


def test_the_chain_head_altered_is_caught(record: dict[str, Any]) -> None:
    record["chain_head"] = "f" * 64
    assert failed_at(verify_record(record), None, None).startswith("record: chain_head recorded")


def test_an_event_dropped_is_caught(record: dict[str, Any]) -> None:
    dropped = record["events"].pop(30)
    follower = record["events"][30]
    message = failed_at(verify_record(record), follower["version"], follower["type"])
    assert f"the chain expects {dropped['version']}" in message
    # renumbered and relinked, the rules still miss it
    assert not verify_record(rehash(record)).ok


def test_an_event_dropped_and_relinked_is_caught_by_the_rules(record: dict[str, Any]) -> None:
    taken = first(record, "TilesTaken", last=True)
    record["events"].remove(taken)
    rehash(record)
    instead = record["events"][taken["version"] - 1]
    message = failed_at(verify_record(record), taken["version"], instead["type"])
    assert message.endswith(f"the rules give TilesTaken here, not {instead['type']}")


def test_a_game_event_that_nothing_caused_is_caught(record: dict[str, Any]) -> None:
    penalty = copy.deepcopy(first(record, "FloorPenalised"))
    move = first(record, "MoveMade")
    version = insert(record, move["version"] + 1, "FloorPenalised", penalty["data"])
    message = failed_at(verify_record(record), version, "FloorPenalised")
    assert message.endswith("a game event that no begin or move before it produces")


def test_the_revealed_seed_altered_is_caught(record: dict[str, Any]) -> None:
    record["seed"] = "another seed"
    message = failed_at(verify_record(record), None, None)
    assert message == (
        f"record: the revealed seed's SHA-256 is {commitment('another seed')}, but the game "
        f"committed to {record['seed_sha256']} when it was created"
    )


def test_the_seed_in_game_ended_altered_is_caught(record: dict[str, Any]) -> None:
    ended = first(record, "GameEnded")
    ended["data"]["seed"] = "another seed"
    message = failed_at(verify_record(rehash(record)), ended["version"], "GameEnded")
    assert 'data.seed recorded "another seed", the rules give' in message


def test_another_seed_with_a_matching_commitment_fails_at_the_first_draw(
    record: dict[str, Any],
) -> None:
    record["seed"] = "forged"
    record["seed_sha256"] = record["events"][0]["data"]["seed_sha256"] = commitment("forged")
    first(record, "GameEnded")["data"]["seed"] = "forged"
    opening = first(record, "FactoriesFilled")
    message = failed_at(verify_record(rehash(record)), opening["version"], "FactoriesFilled")
    assert "data.factories" in message


def test_a_finished_record_without_its_seed_is_caught(record: dict[str, Any]) -> None:
    record["seed"] = None
    assert "must reveal the seed" in failed_at(verify_record(record), None, None)


def test_the_record_summary_must_match_its_events(record: dict[str, Any]) -> None:
    altered = copy.deepcopy(record)
    altered["outcome"]["winners"] = [9]
    assert "outcome.winners[0] recorded 9" in failed_at(verify_record(altered), None, None)
    altered = copy.deepcopy(record)
    altered["moves"][3]["notation"] = "F1B1"
    assert "moves[3].notation" in failed_at(verify_record(altered), None, None)
    altered = copy.deepcopy(record)
    altered["seats"][0]["name"] = "someone else"
    assert "seats[0].name" in failed_at(verify_record(altered), None, None)
    altered = copy.deepcopy(record)
    altered["game"]["rules_version"] = "azul-0"
    assert "made under the rules 'azul-0'" in failed_at(verify_record(altered), None, None)


@pytest.mark.parametrize(
    "garbage",
    [None, [], "text", {}, {"format": "gameledger-record", "format_version": 1}],
)
def test_malformed_records_are_reported_never_raised(garbage: Any) -> None:
    report = verify_record(garbage)
    assert not report.ok and report.discrepancy and report.discrepancy.startswith("record: ")


def test_malformed_events_are_reported(record: dict[str, Any]) -> None:
    record["events"][5]["data"] = "not an object"
    assert "events[5].data must be dict" in failed_at(verify_record(record), None, None)


# Undo


def test_a_consent_undo_accepted_verifies(app: GameLedger) -> None:
    t = casual(app, {"undo": "consent"}, players=3)
    for _ in range(4):
        t.step()
    until_moved(t, 1)
    app.request_undo(t.game_id, t.tokens[1])
    app.answer_undo(t.game_id, t.tokens[0], True)
    app.answer_undo(t.game_id, t.tokens[2], True)
    t.play_out()
    report = verify_record(export_record(app, t.game_id))
    assert report.ok and report.turns_undone == 1, report.discrepancy


def test_a_consent_undo_refused_verifies(app: GameLedger) -> None:
    t = casual(app, {})
    until_moved(t, 0)
    app.request_undo(t.game_id, t.tokens[0])
    app.answer_undo(t.game_id, t.tokens[1], False)
    t.play_out()
    report = verify_record(export_record(app, t.game_id))
    assert report.ok and report.turns_undone == 0, report.discrepancy


def test_a_free_undo_verifies(app: GameLedger) -> None:
    t = casual(app, {"undo": "free"})
    for _ in range(3):
        t.step()
    until_moved(t, 1)
    app.request_undo(t.game_id, t.tokens[1])  # its own last turn: at once
    t.play_out()
    report = verify_record(export_record(app, t.game_id))
    assert report.ok and report.turns_undone == 1, report.discrepancy


@pytest.fixture(scope="module")
def free_game(app: GameLedger) -> tuple[list[list[int]], dict[str, Any]]:
    """An unfinished 3-player ``undo: free`` game: a seat took back its own last turn at
    once, then another took back 3 turns with the consent of the seats they belonged to.
    Its line of play (``[version, seat]`` per turn) and its record."""
    t = casual(app, {"undo": "free"}, players=3)
    for _ in range(6):
        t.step()
    turns = app.games.at(t.game_id, app.view(t.game_id)["version"], whole_line=True).line.turns
    app.request_undo(t.game_id, t.tokens[turns[-1][1]])
    for _ in range(4):
        t.step()
    turns = app.games.at(t.game_id, app.view(t.game_id)["version"], whole_line=True).line.turns
    app.request_undo(t.game_id, t.tokens[turns[-3][1]], turns=3)
    for seat in app.view(t.game_id)["undo_request"]["waiting"]:
        app.answer_undo(t.game_id, t.tokens[seat], True)
    for _ in range(3):
        t.step()
    version = app.view(t.game_id)["version"]
    return app.games.at(t.game_id, version, whole_line=True).line.turns, export_record(
        app, t.game_id
    )


def test_free_undos_own_and_consented_verify(
    free_game: tuple[list[list[int]], dict[str, Any]],
) -> None:
    report = verify_record(free_game[1])
    assert report.ok and report.turns_undone == 4, report.discrepancy
    types = [item["type"] for item in free_game[1]["events"]]
    assert types.count("UndoRequested") == 1 and types.count("TurnsUndone") == 2


def forged_free_undo(
    free_game: tuple[list[list[int]], dict[str, Any]], type_name: str, waiting: list[int]
) -> tuple[int, str]:
    """Append to the free game's record an undo by the seat of the second-to-last turn,
    taking back its turn and the last (another seat's); the version and discrepancy."""
    turns, record = free_game[0], copy.deepcopy(free_game[1])
    (start, seat), (_, other) = turns[-2], turns[-1]
    assert seat != other
    data: dict[str, Any] = {"to_version": start - 1, "turns": 2, "seat": seat}
    if type_name == "TurnsUndone":
        data |= {"by": "player", "reason": ""}
    else:
        data |= {"waiting": waiting}
    version = insert(record, len(record["events"]), type_name, data)
    return version, failed_at(verify_record(record), version, type_name)


def test_a_free_undo_of_another_seats_turn_without_consent_is_caught(
    free_game: tuple[list[list[int]], dict[str, Any]],
) -> None:
    other = free_game[0][-1][1]
    _, message = forged_free_undo(free_game, "TurnsUndone", [])
    assert message.endswith(
        f"with undo: free this undo needs the consent of seat(s) [{other}] first"
    )


def test_a_free_undo_request_asking_the_wrong_seats_is_caught(
    free_game: tuple[list[list[int]], dict[str, Any]],
) -> None:
    seat, other = free_game[0][-2][1], free_game[0][-1][1]
    everyone = [s for s in range(3) if s != seat]
    assert everyone != [other]  # three seats: asking all is asking one too many
    _, message = forged_free_undo(free_game, "UndoRequested", everyone)
    assert "(UndoRequested): data.waiting" in message and "the undo policy gives" in message


def test_a_free_undo_request_for_own_turns_only_is_caught(
    free_game: tuple[list[list[int]], dict[str, Any]],
) -> None:
    turns, record = free_game[0], copy.deepcopy(free_game[1])
    start, seat = turns[-1]
    data = {"seat": seat, "to_version": start - 1, "turns": 1, "waiting": [(seat + 1) % 3]}
    version = insert(record, len(record["events"]), "UndoRequested", data)
    message = failed_at(verify_record(record), version, "UndoRequested")
    assert message.endswith("nobody must consent to this undo, so it takes effect at once")


@pytest.fixture(scope="module")
def tournament(app: GameLedger) -> tuple[UUID, dict[str, Any]]:
    """A finished tournament game in which the arbiter took back turns 4 onwards."""
    t = casual(app, {"tournament": True})
    for _ in range(8):
        t.step()
    app.arbiter_undo(t.game_id, ARBITER, 3, "a tile was knocked off the table")
    t.play_out()
    return t.game_id, export_record(app, t.game_id)


def test_an_arbiter_undo_in_a_tournament_game_verifies(
    tournament: tuple[UUID, dict[str, Any]],
) -> None:
    report = verify_record(tournament[1])
    assert report.ok and report.turns_undone == 5, report.discrepancy


def test_a_turns_undone_forged_by_a_player_in_a_tournament_game_is_caught(
    tournament: tuple[UUID, dict[str, Any]],
) -> None:
    record = copy.deepcopy(tournament[1])
    move = first(record, "MoveMade", last=True)
    seat = move["data"]["seat"]
    data = {"to_version": move["version"] - 1, "turns": 1, "by": "player", "seat": seat}
    version = insert(record, move["version"] - 1, "TurnsUndone", {**data, "reason": ""})
    message = failed_at(verify_record(record), version, "TurnsUndone")
    assert message.endswith("In a tournament game only the arbiter may undo.")


def test_an_arbiter_undo_without_a_reason_is_caught(
    tournament: tuple[UUID, dict[str, Any]],
) -> None:
    record = copy.deepcopy(tournament[1])
    undone = first(record, "TurnsUndone")
    undone["data"]["reason"] = " "
    message = failed_at(verify_record(rehash(record)), undone["version"], "TurnsUndone")
    assert message.endswith("the undo policy refuses it: An arbiter's undo needs a reason.")


def test_an_undo_request_in_a_tournament_game_is_caught(
    tournament: tuple[UUID, dict[str, Any]],
) -> None:
    record = copy.deepcopy(tournament[1])
    move = first(record, "MoveMade", last=True)
    data = {"seat": move["data"]["seat"], "to_version": move["version"] - 1, "turns": 1}
    version = insert(record, move["version"] - 1, "UndoRequested", {**data, "waiting": [1]})
    message = failed_at(verify_record(record), version, "UndoRequested")
    assert message.endswith("In a tournament game only the arbiter may undo.")


def test_an_undo_after_the_end_is_caught(record: dict[str, Any]) -> None:
    move = first(record, "MoveMade", last=True)
    data = {"to_version": move["version"] - 1, "turns": 1, "by": "arbiter", "seat": -1}
    version = insert(record, len(record["events"]), "TurnsUndone", {**data, "reason": "oops"})
    message = failed_at(verify_record(record), version, "TurnsUndone")
    assert message.endswith("the undo policy refuses it: A finished game is never undone.")


def test_a_consent_undo_without_every_acceptance_is_caught(app: GameLedger) -> None:
    t = casual(app, {"undo": "consent"}, players=3)
    until_moved(t, 0)
    app.request_undo(t.game_id, t.tokens[0])
    app.answer_undo(t.game_id, t.tokens[1], True)
    app.answer_undo(t.game_id, t.tokens[2], True)
    record = export_record(app, t.game_id)
    answer = first(record, "UndoAnswered", last=True)
    record["events"].remove(answer)
    message = failed_at(verify_record(rehash(record)), answer["version"], "TurnsUndone")
    assert message.endswith("the undo policy refuses it: An undo request is already waiting.")


def test_a_player_undo_forged_into_a_consent_game_is_caught(record: dict[str, Any]) -> None:
    moves = [item for item in record["events"] if item["type"] == "MoveMade"]
    earlier, last = moves[-2], moves[-1]
    data = {"to_version": earlier["version"] - 1, "turns": 1, "by": "player"}
    data |= {"seat": earlier["data"]["seat"], "reason": ""}
    version = insert(record, last["version"] - 1, "TurnsUndone", data)
    message = failed_at(verify_record(record), version, "TurnsUndone")
    assert "with undo: consent this undo needs the consent of seat(s)" in message


# Replay


def test_replay_gives_the_state_after_every_turn(
    app: GameLedger, tournament: tuple[UUID, dict[str, Any]]
) -> None:
    game_id, record = tournament
    moves = app.view(game_id)["moves"]
    for turn in range(moves + 1):
        replayed = replay_record(record, turn)
        seen = app.view_after_turn(game_id, turn, ARBITER)
        assert replayed["state"] == seen["state"], turn
        assert (replayed["turn"], replayed["version"]) == (turn, seen["version"])
        assert replayed["outcome"] == seen["outcome"]
    end = replay_record(record)
    assert end["turn"] == moves and end["version"] == len(record["events"])
    assert end["outcome"] == record["outcome"] is not None


def test_replay_refuses_a_turn_off_the_line_and_an_invalid_record(
    records: dict[tuple[int, str], dict[str, Any]],
) -> None:
    record = copy.deepcopy(records[(2, "gray")])
    with pytest.raises(NotFound) as missing:
        replay_record(record, 10_000)
    assert missing.value.code == "no-such-turn"
    first(record, "WallTiled")["data"]["score"] += 1
    with pytest.raises(BadRequest) as refused:
        replay_record(rehash(record))
    assert refused.value.code == "invalid-record"
