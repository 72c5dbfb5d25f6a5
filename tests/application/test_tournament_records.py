"""Tournament records and their verification (issue 15, part 6; docs/tournaments.md, "The
tournament record", "Verifying a tournament"): a record of every format verifies; the arbiter's
acts verify; a swapped pairing, an altered result, a moved bye, a forged forfeit and the
other tampers are each caught with a message naming the round, the table or the field — the
forger recomputing every hash of the tournament's chain, as anyone can."""

from __future__ import annotations

import contextlib
import copy
import json
import random
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest

from application.audit_tournament import TournamentReport, verify_tournament_record
from application.checkpointer import checkpoint_running
from application.checkpoints import tournament_log_name
from application.errors import Conflict
from application.service import GameLedger
from application.signing import PublicKey
from application.simulation import play_out
from application.tournament_records import LogProofs, tournament_record
from application.tournament_simulation import simulate_tournament
from application.tournament_tables import seat_token
from application.tournaments import Tournaments
from domain import chain
from domain.tournament.results import forfeit_ranks
from infrastructure.config import Settings
from infrastructure.container import Services, build_services

SWISS = {"kind": "swiss", "rounds": 3, "tie_breaks": ["buchholz", "head-to-head", "seat"]}
"""Five entrants (a bye each round), three rounds; no game-score tie-break, so that a forfeit
forged with the played ranks leaves the ranking as it was (the forger's best case)."""


@pytest.fixture(scope="module")
def services() -> Iterator[Services]:
    built = build_services(Settings(store="memory", embedded_projections=False))
    yield built
    built.close()


def keys_of(services: Services) -> list[PublicKey]:
    return list(services.keys.keyring().keys())


def exported(services: Services, tournament_id: UUID) -> dict[str, Any]:
    """The record with its checkpoints (the checkpointer having followed the log and the
    schedule logged the heads of running games: a forfeited table's), as JSON read back."""
    services.catch_up()
    checkpoint_running(services.tlog.store, services.keys, 0)
    desk = Tournaments(services.app.games)
    proofs = LogProofs(services.tlog.store, services.keys)
    record = tournament_record(services.app, desk, tournament_id, proofs=proofs)
    loaded: dict[str, Any] = json.loads(json.dumps(record))
    return loaded


@pytest.fixture(scope="module")
def swiss(services: Services) -> dict[str, Any]:
    report = simulate_tournament(services.app, "azul", entrants=5, format=SWISS, seed=11)
    return exported(services, UUID(report["tournament_id"]))


@pytest.fixture
def record(swiss: dict[str, Any]) -> dict[str, Any]:
    """A copy to tamper with, without its checkpoint (a forger drops what it cannot redo)."""
    found = copy.deepcopy(swiss)
    found["transparency"] = None
    for game in found["games"]:
        game["transparency"] = None
    return found


def rechain(record: dict[str, Any]) -> dict[str, Any]:
    """Every version, link and the chain head recomputed: the forger's first step."""
    previous = chain.GENESIS
    for version, item in enumerate(record["events"], start=1):
        item["version"] = version
        item["prev_hash"] = previous
        content = chain.canonical(
            item["type"],
            record["tournament"]["id"],
            version,
            item["timestamp"],
            item["data"],
            subject="tournament",
        )
        item["hash"] = previous = chain.link(previous, content)
    record["chain_head"] = previous
    return record


def refused(report: TournamentReport) -> str:
    assert not report.ok, report.summary
    assert report.summary == f"INVALID: {report.discrepancy}"
    assert report.discrepancy is not None
    return report.discrepancy


def events_of(record: dict[str, Any], type_name: str) -> list[dict[str, Any]]:
    return [item for item in record["events"] if item["type"] == type_name]


def names(record: dict[str, Any]) -> dict[str, str]:
    return {e["entrant"]: e["name"] for e in record["entrants"]}


def game_of(record: dict[str, Any], game_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(g for g in record["games"] if g["game"]["id"] == game_id)
    return found


# Clean records


@pytest.mark.parametrize(
    "fmt",
    [
        {"kind": "swiss", "rounds": 3},
        {"kind": "swiss", "table_size": 3, "min_table_size": 2, "rounds": 2},
        {"kind": "round-robin"},
        {"kind": "round-robin", "table_size": 3, "rounds": 2},
        {"kind": "elimination"},
        {"kind": "elimination", "table_size": 3, "min_table_size": 2},
        {"kind": "swiss", "rounds": 2, "pairing": "organiser"},
    ],
    ids=lambda f: "-".join(str(v) for v in f.values()),
)
def test_a_record_of_every_format_verifies(services: Services, fmt: dict[str, Any]) -> None:
    report = simulate_tournament(services.app, "azul", entrants=6, format=fmt, seed=2)
    record = exported(services, UUID(report["tournament_id"]))
    verdict = verify_tournament_record(record, pinned_keys=keys_of(services))
    assert verdict.ok, verdict.discrepancy
    assert verdict.rounds == report["rounds"] and verdict.tables == report["tables"]
    assert verdict.games_verified == verdict.played == report["tables"]
    assert verdict.winner == report["winner"]
    assert len(record["rounds"]) == report["rounds"]
    assert verdict.transparency is not None and verdict.transparency.pinned
    assert verdict.summary.startswith(f"OK: tournament {report['tournament_id']} (")
    assert verdict.summary.endswith(f"signed by pinned key {verdict.transparency.key_id}.")


def test_the_record_holds_no_secret(swiss: dict[str, Any]) -> None:
    created = swiss["events"][0]["data"]
    assert set(created) == {"game", "options", "settings", "format", "name", "seed_sha256"}
    for item in events_of(swiss, "EntrantRegistered"):
        assert set(item["data"]) == {"entrant", "name"}
    text = json.dumps(swiss)
    assert "token_sha256" not in text and "table_secret" not in text


def test_the_tournaments_chain_is_checkpointed_like_a_games(services: Services) -> None:
    """Running: its head pending, logged ended: false by the schedule; at the end, ended: true
    of TournamentFinished at once."""
    desk = Tournaments(services.app.games)
    created = desk.create("azul", {}, None, {"kind": "swiss", "rounds": 1}, "Logged Open")
    tid = created.tournament_id
    tokens = [desk.register(tid, f"p{n}").token for n in range(2)]
    services.catch_up()
    assert checkpoint_running(services.tlog.store, services.keys, 0) >= 1
    name = tournament_log_name(str(tid))
    (running,) = services.tlog.store.entries_of(name)
    assert running["checkpoint"]["version"] == 3 and not running["checkpoint"]["ended"]
    desk.organiser(tid, created.organiser_token, lambda t: t.open_check_in())
    for token in tokens:
        desk.check_in(tid, token)
    desk.organiser(tid, created.organiser_token, lambda t: t.start())
    (table,) = desk.load(tid).rounds[0]["tables"]
    mine = [desk.my_tables(tid, token)[0] for token in tokens]
    seats = [m["token"] for m in sorted(mine, key=lambda m: m["seat"])]
    assert play_out(services.app, UUID(table["game"]), seats, random.Random(1))
    with services.app.games.reading(UUID(table["game"])) as game:
        assert desk.record_game(game)
    services.catch_up()
    *_, ended = services.tlog.store.entries_of(name)
    t = desk.load(tid)
    assert ended["checkpoint"]["ended"] and ended["checkpoint"]["version"] == t.version
    assert ended["checkpoint"]["chain_head"] == t.chain_head


def test_an_unfinished_tournament_has_no_record(services: Services) -> None:
    desk = Tournaments(services.app.games)
    created = desk.create("azul", {}, None, {"kind": "swiss", "rounds": 1}, "Not Yet")
    with pytest.raises(Conflict) as refused_export:
        tournament_record(services.app, desk, created.tournament_id)
    assert refused_export.value.code == "tournament-not-finished"


# The tampers of the issue


def test_a_swapped_pairing(record: dict[str, Any]) -> None:
    paired = events_of(record, "RoundPaired")[1]
    first, second = paired["data"]["tables"][:2]
    first["seats"][0], second["seats"][0] = second["seats"][0], first["seats"][0]
    report = verify_tournament_record(rechain(record))
    who = names(record)
    swapped = ", ".join(f"{who[e]} ({e})" for e in first["seats"])
    assert refused(report) == (
        f"event {paired['version']} (RoundPaired): round 2 is not the pairing of the standings "
        f"before it with the tournament seed: table 1 seats {swapped} recorded, the pairing "
        f"gives " + ", ".join(f"{who[e]} ({e})" for e in [second["seats"][0], first["seats"][1]])
    )
    assert report.version == paired["version"] and report.event_type == "RoundPaired"


def test_a_swapped_pairing_without_rehashing_breaks_the_chain(record: dict[str, Any]) -> None:
    paired = events_of(record, "RoundPaired")[1]
    first, second = paired["data"]["tables"][:2]
    first["seats"][0], second["seats"][0] = second["seats"][0], first["seats"][0]
    assert refused(verify_tournament_record(record)).startswith(
        f"event {paired['version']} (RoundPaired): hash recorded {paired['hash']}, recomputed "
    )


def test_a_moved_bye(record: dict[str, Any]) -> None:
    paired = events_of(record, "RoundPaired")[0]
    (bye,) = paired["data"]["byes"]
    table = paired["data"]["tables"][0]
    moved = table["seats"][1]
    table["seats"][1], paired["data"]["byes"] = bye, [moved]
    who = names(record)
    assert refused(verify_tournament_record(rechain(record))) == (
        f"event {paired['version']} (RoundPaired): round 1 is not the pairing of the standings "
        f"before it with the tournament seed: byes recorded {who[moved]} ({moved}), the "
        f"pairing gives {who[bye]} ({bye})"
    )


def decisive(record: dict[str, Any]) -> dict[str, Any]:
    """The first result with a winner and a loser."""
    found: dict[str, Any] = next(
        r for r in events_of(record, "ResultRecorded") if sorted(r["data"]["ranks"]) == [1, 2]
    )
    return found


def test_an_altered_result(record: dict[str, Any]) -> None:
    result = decisive(record)
    data = result["data"]
    real = list(data["ranks"])
    data["ranks"] = real[::-1]
    assert refused(verify_tournament_record(rechain(record))) == (
        f"event {result['version']} (ResultRecorded): round {data['round']}, table "
        f"{data['table']} (game {data['game']}): ranks recorded {json.dumps(real[::-1])}, the "
        f"game's outcome gives {json.dumps(real)}"
    )


def test_an_altered_result_with_its_games_record_altered_too(record: dict[str, Any]) -> None:
    result = decisive(record)
    result["data"]["ranks"] = result["data"]["ranks"][::-1]
    game = game_of(record, result["data"]["game"])
    game["outcome"]["ranks"] = result["data"]["ranks"]
    discrepancy = refused(verify_tournament_record(rechain(record)))
    data = result["data"]
    assert discrepancy.startswith(
        f"event {events_of(record, 'RoundPaired')[data['round'] - 1]['version']} (RoundPaired): "
        f"round {data['round']}, table {data['table']} (game {data['game']}): its game record "
        "does not verify: "
    )
    assert "outcome" in discrepancy


def forged_forfeit(record: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The last round's first decisive result replaced by a forfeit of its loser, with the
    same ranks (so no later pairing and no ranking changes), the standings' game scores
    mended and every hash recomputed; the forfeit and the loser."""
    last = len(events_of(record, "RoundPaired"))
    result = next(
        r
        for r in events_of(record, "ResultRecorded")
        if r["data"]["round"] == last and sorted(r["data"]["ranks"]) == [1, 2]
    )
    data = result["data"]
    paired = events_of(record, "RoundPaired")[last - 1]["data"]
    seats = paired["tables"][data["table"] - 1]["seats"]
    loser = seats[data["ranks"].index(2)]
    result["type"] = "TableForfeited"
    result["data"] = {
        "round": data["round"],
        "table": data["table"],
        "game": data["game"],
        "absent": [loser],
        "ranks": forfeit_ranks(seats, [loser]),
        "reason": "did not show",
    }
    assert result["data"]["ranks"] == data["ranks"]
    for seat, entrant in enumerate(seats):
        row = next(r for r in record["standings"] if r["entrant"] == entrant)
        row["score"] -= data["scores"][seat]
    return rechain(record), loser


def test_a_forged_forfeit_is_contradicted_by_the_games_record(record: dict[str, Any]) -> None:
    """Dated when the result was recorded: after the loser's moves."""
    forged, loser = forged_forfeit(record)
    forfeit = events_of(forged, "TableForfeited")[0]
    data = forfeit["data"]
    game = game_of(forged, data["game"])
    seat = [s["name"] for s in game["seats"]].index(names(forged)[loser])
    moves = [m for m in game["moves"] if m["seat"] == seat]
    assert refused(verify_tournament_record(forged)) == (
        f"event {forfeit['version']} (TableForfeited): round {data['round']}, table "
        f"{data['table']} (game {data['game']}): {names(forged)[loser]} ({loser}), named a "
        f"no-show, made {len(moves)} move(s) at seat {seat} of the table's game before the "
        f"forfeit (the first at event {moves[0]['version']}, {moves[0]['at']})"
    )


def test_a_forged_forfeit_dated_before_the_game_is_caught_by_the_checkpoint(
    swiss: dict[str, Any], services: Services
) -> None:
    """Dated before the game's first move, the forfeit is not contradicted by the game (which
    may run on after a forfeit): only the signed checkpoint of the real chain tells."""
    forged, _ = forged_forfeit(copy.deepcopy(swiss))
    forfeit = events_of(forged, "TableForfeited")[0]
    paired = events_of(forged, "RoundPaired")[forfeit["data"]["round"] - 1]
    forfeit["timestamp"] = paired["timestamp"]
    rechain(forged)
    for game in forged["games"]:
        game["transparency"] = None
    finished = forged["events"][-1]
    assert refused(verify_tournament_record(forged)) == (
        f"record: transparency.checkpoint.chain_head is {swiss['chain_head']}, the record's "
        f"event {finished['version']} (TournamentFinished) has hash {finished['hash']}: the "
        "service logged another history of this tournament"
    )
    forged["transparency"] = None
    assert verify_tournament_record(forged).ok  # consistent with itself, and nothing more


def test_a_no_show_who_moved(arbitrated: dict[str, Any]) -> None:
    """The forfeit's no-show swapped for the entrant who was there (ranks following)."""
    record = copy.deepcopy(arbitrated)
    (forfeit,) = events_of(record, "TableForfeited")
    data = forfeit["data"]
    seats = events_of(record, "RoundPaired")[0]["data"]["tables"][data["table"] - 1]["seats"]
    there = next(e for e in seats if e not in data["absent"])
    data["absent"], data["ranks"] = [there], forfeit_ranks(seats, [there])
    rechain(record)
    game = game_of(record, data["game"])
    seat = seats.index(there)
    moves = [m for m in game["moves"] if m["seat"] == seat]
    assert moves
    discrepancy = refused(verify_tournament_record(record))
    assert discrepancy == (
        f"event {forfeit['version']} (TableForfeited): round 1, table {data['table']} (game "
        f"{data['game']}): {names(record)[there]} ({there}), named a no-show, made 1 move(s) "
        f"at seat {seat} of the table's game before the forfeit (the first at event "
        f"{moves[0]['version']}, {moves[0]['at']})"
    )


def test_a_forged_forfeit_without_its_game_is_caught_by_the_checkpoint(
    swiss: dict[str, Any], services: Services
) -> None:
    """With the game's record left out, the record is consistent with itself: only the
    service's signed checkpoint of the tournament's real chain head tells."""
    forged, _ = forged_forfeit(copy.deepcopy(swiss))
    game = events_of(forged, "TableForfeited")[0]["data"]["game"]
    forged["games"] = [g for g in forged["games"] if g["game"]["id"] != game]
    finished = forged["events"][-1]
    assert refused(verify_tournament_record(forged, pinned_keys=keys_of(services))) == (
        f"record: transparency.checkpoint.chain_head is {swiss['chain_head']}, the record's "
        f"event {finished['version']} (TournamentFinished) has hash {finished['hash']}: the "
        "service logged another history of this tournament"
    )
    forged["transparency"] = None
    assert refused(verify_tournament_record(forged, pinned_keys=keys_of(services))).startswith(
        "record: no checkpoint: the record carries no checkpoint (transparency is null), so "
        "nothing shows it is the tournament the service logged (pinned keys were given; "
    )
    alone = verify_tournament_record(forged)  # unpinned, no checkpoint: nothing to tell by
    assert alone.ok and alone.forfeited == 1 and alone.games_verified == len(forged["games"])
    assert alone.arbiter_tables_without_game == 1
    assert "1 table(s) decided by the arbiter without its game's record: nothing in this " in (
        alone.summary
    )
    assert alone.summary.endswith("No checkpoint (not in the service's log).")


def test_forged_pairing_numbers(record: dict[str, Any]) -> None:
    (started,) = events_of(record, "TournamentStarted")
    numbers = started["data"]["numbers"]
    first, second = (k for k, v in sorted(numbers.items(), key=lambda kv: kv[1])[:2])
    numbers[first], numbers[second] = numbers[second], numbers[first]
    assert refused(verify_tournament_record(rechain(record))) == (
        f"event {started['version']} (TournamentStarted): the pairing numbers are not the "
        f"draw from the tournament seed: {names(record)[first]} ({first}) has number 2, the "
        "draw gives 1"
    )


def test_a_forged_ranking(record: dict[str, Any]) -> None:
    finished = record["events"][-1]
    ranking = finished["data"]["ranking"]
    real = list(ranking)
    ranking[0], ranking[1] = ranking[1], ranking[0]
    who = names(record)
    assert refused(verify_tournament_record(rechain(record))) == (
        f"event {finished['version']} (TournamentFinished): the final ranking recorded "
        + ", ".join(f"{who[e]} ({e})" for e in ranking)
        + "; the standings give "
        + ", ".join(f"{who[e]} ({e})" for e in real)
    )


def test_a_result_in_the_wrong_place(record: dict[str, Any]) -> None:
    """A result moved to another table of its round keeps its game: the tournament places it."""
    result = events_of(record, "ResultRecorded")[0]
    result["data"]["table"] += 1
    assert refused(verify_tournament_record(rechain(record))) == (
        f"event {result['version']} (ResultRecorded): data.table recorded "
        f"{result['data']['table']}, the tournament's rules give {result['data']['table'] - 1}"
    )


def test_a_dropped_round_is_missed(record: dict[str, Any]) -> None:
    """The events after round 1's last result are cut: the tournament goes on with round 2."""
    paired = events_of(record, "RoundPaired")[1]
    record["events"] = record["events"][: paired["version"] - 1]
    assert refused(verify_tournament_record(rechain(record))) == (
        "record: the record ends, but the tournament goes on: the tournament's rules give "
        "RoundPaired next (round 2)"
    )


def test_a_played_table_without_its_games_record(record: dict[str, Any]) -> None:
    result = events_of(record, "ResultRecorded")[0]
    data = result["data"]
    record["games"] = [g for g in record["games"] if g["game"]["id"] != data["game"]]
    assert refused(verify_tournament_record(record)) == (
        f"event {result['version']} (ResultRecorded): round {data['round']}, table "
        f"{data['table']} (game {data['game']}): the result was played at the table, but the "
        "record does not carry the game's record, which shows it"
    )


def test_a_game_that_is_not_a_table(record: dict[str, Any], services: Services) -> None:
    report = simulate_tournament(
        services.app, "azul", entrants=2, format={"kind": "swiss", "rounds": 1}, seed=5
    )
    other = exported(services, UUID(report["tournament_id"]))["games"][0]
    record["games"].append(other)
    assert refused(verify_tournament_record(record)) == (
        f"record: games[{len(record['games']) - 1}] is the record of game "
        f"{other['game']['id']}, which is not a table of this tournament"
    )


def test_the_informative_summaries_are_checked(record: dict[str, Any]) -> None:
    changed = copy.deepcopy(record)
    changed["rounds"][1]["entrants"][0]["points"] += 1
    was = record["rounds"][1]["entrants"][0]["points"]
    assert refused(verify_tournament_record(changed)) == (
        f"record: rounds[1].entrants[0].points recorded {was + 1}, the events give {was}"
    )
    changed = copy.deepcopy(record)
    changed["standings"][0]["points"] = 99
    was = record["standings"][0]["points"]
    assert refused(verify_tournament_record(changed)) == (
        f"record: standings[0].points recorded 99, the events give {was}"
    )


def test_a_seed_that_is_not_the_committed_one(record: dict[str, Any]) -> None:
    record["seed"] = "0" * 64
    assert refused(verify_tournament_record(record)).startswith(
        "record: the revealed seed's SHA-256 is "
    )


def test_not_a_tournament_record() -> None:
    assert refused(verify_tournament_record([])) == "record: a tournament record is a JSON object"
    assert refused(verify_tournament_record({"format": "gameledger-tournament-record"})) == (
        "record: not a gameledger-tournament-record of format_version 1"
    )


# The arbiter


def seats_of(desk: Tournaments, tid: UUID, table: dict[str, Any]) -> list[str]:
    t = desk.load(tid)
    return [seat_token(t.table_secret, table["game"], n) for n in range(len(table["seats"]))]


def play_some(app: GameLedger, game_id: UUID, tokens: list[str], moves: int) -> None:
    bot = random.Random(3)
    for _ in range(moves):
        version, seats = app.whose_turn(game_id)
        seat = bot.choice(seats)
        app.play(game_id, tokens[seat], app.bot_move(game_id, tokens[seat], bot), version)


@pytest.fixture(scope="module")
def arbitrated(services: Services) -> dict[str, Any]:
    """Round 1: a forfeit (the entrant there made the first move, the no-show none; the
    no-show turns up later and the game is played out, deciding nothing), an adjudication (a
    game stopped after four moves), a played table; round 2: a penalty, a
    disqualification and a correction of round 1's played result before its tables are
    played."""
    app = services.app
    desk = Tournaments(app.games)
    created = desk.create("azul", {}, None, {"kind": "swiss", "rounds": 2}, "Arbiter Cup")
    tid, organiser = created.tournament_id, created.organiser_token
    entrants = [desk.register(tid, f"player {n}") for n in range(6)]
    desk.organiser(tid, organiser, lambda t: t.open_check_in())
    for entrant in entrants:
        desk.check_in(tid, entrant.token)
    desk.organiser(tid, organiser, lambda t: t.start())
    forfeit, adjudicated, played = desk.load(tid).rounds[0]["tables"]
    _, (first,) = app.whose_turn(UUID(forfeit["game"]))
    play_some(app, UUID(forfeit["game"]), seats_of(desk, tid, forfeit), 1)
    no_show = forfeit["seats"][1 - first]
    desk.organiser(tid, organiser, lambda t: t.forfeit(forfeit["game"], [no_show], "no-show"))
    assert play_out(app, UUID(forfeit["game"]), seats_of(desk, tid, forfeit), random.Random(3))
    play_some(app, UUID(adjudicated["game"]), seats_of(desk, tid, adjudicated), 4)
    desk.organiser(
        tid,
        organiser,
        lambda t: t.adjudicate(adjudicated["game"], [2, 1], [3, 5], "venue closed"),
    )
    assert play_out(app, UUID(played["game"]), seats_of(desk, tid, played), random.Random(4))
    with app.games.reading(UUID(played["game"])) as game:
        assert desk.record_game(game)
    second = desk.load(tid).rounds[1]
    desk.organiser(tid, organiser, lambda t: t.penalise(played["seats"][0], 1, "late"))
    desk.organiser(tid, organiser, lambda t: t.disqualify(no_show, "never came"))
    desk.organiser(
        tid, organiser, lambda t: t.correct_result(played["game"], [1, 1], None, "scoresheet")
    )
    for table in second["tables"]:
        assert play_out(app, UUID(table["game"]), seats_of(desk, tid, table), random.Random(5))
        with app.games.reading(UUID(table["game"])) as game:
            assert desk.record_game(game)
    assert desk.load(tid).phase == "finished"
    return exported(services, tid)


def test_the_arbiters_acts_verify(arbitrated: dict[str, Any], services: Services) -> None:
    report = verify_tournament_record(arbitrated, pinned_keys=keys_of(services))
    assert report.ok, report.discrepancy
    assert (report.played, report.forfeited, report.adjudicated) == (4, 1, 1)
    assert report.arbiter_acts == 5 and report.games_verified == 6
    assert "6 tables (4 played, 1 forfeited, 1 adjudicated)" in report.summary


def test_an_arbiters_act_without_a_reason(arbitrated: dict[str, Any]) -> None:
    record = copy.deepcopy(arbitrated)
    (corrected,) = events_of(record, "ResultCorrected")
    corrected["data"]["reason"] = " "
    assert refused(verify_tournament_record(rechain(record))) == (
        f"event {corrected['version']} (ResultCorrected): the tournament refuses it: "
        "not-plain-text: The reason is blank."
    )


def test_a_forfeit_with_other_ranks(arbitrated: dict[str, Any]) -> None:
    record = copy.deepcopy(arbitrated)
    (forfeit,) = events_of(record, "TableForfeited")
    forfeit["data"]["ranks"] = [2, 1]
    assert refused(verify_tournament_record(rechain(record))) == (
        f"event {forfeit['version']} (TableForfeited): data.ranks[0] recorded 2, the "
        "tournament's rules give 1"
    )


def test_an_adjudication_of_a_game_that_was_played_out(services: Services) -> None:
    """The service takes it (the result was not recorded yet); the verifier does not: a game
    that ended has its result from its outcome, and the arbiter corrects that."""
    app = services.app
    desk = Tournaments(app.games)
    created = desk.create("azul", {}, None, {"kind": "swiss", "rounds": 1}, "Late Call")
    tid, organiser = created.tournament_id, created.organiser_token
    entrants = [desk.register(tid, f"p{n}") for n in range(2)]
    desk.organiser(tid, organiser, lambda t: t.open_check_in())
    for entrant in entrants:
        desk.check_in(tid, entrant.token)
    desk.organiser(tid, organiser, lambda t: t.start())
    (table,) = desk.load(tid).rounds[0]["tables"]
    assert play_out(app, UUID(table["game"]), seats_of(desk, tid, table), random.Random(6))
    desk.organiser(tid, organiser, lambda t: t.adjudicate(table["game"], [1, 2], None, "late"))
    record = exported(services, tid)
    (adjudicated,) = events_of(record, "TableAdjudicated")
    assert refused(verify_tournament_record(record)).startswith(
        f"event {adjudicated['version']} (TableAdjudicated): round 1, table 1 (game "
        f"{table['game']}): adjudicated, but the table's game had ended before (event "
    )


def test_verification_never_raises_on_a_mangled_record(record: dict[str, Any]) -> None:
    """Any value anywhere in the events (every hash recomputed) or the record's own fields is
    a discrepancy, never an exception."""
    rng = random.Random(15)
    values: list[Any] = [None, True, 0, -1, 10**30, 1.5, "", "bot-1", [], {}, [1], {"a": 1}]
    for _ in range(60):
        mangled = copy.deepcopy(record)
        holder, key = rng.choice(
            list(_slots(mangled["events"]) if rng.random() < 0.7 else _top(mangled))
        )
        holder[key] = rng.choice(values)
        if rng.random() < 0.8:
            with contextlib.suppress(TypeError, KeyError, AttributeError):  # not an event now
                rechain(mangled)
        report = verify_tournament_record(mangled)
        assert report.ok == (report.discrepancy is None)


def _slots(node: Any) -> Iterator[tuple[Any, Any]]:
    """Every (container, key) of a JSON value."""
    items = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else ()
    )
    for key, value in items:
        yield node, key
        yield from _slots(value)


def _top(record: dict[str, Any]) -> Iterator[tuple[Any, Any]]:
    for key, value in record.items():
        if key not in ("events", "games"):
            yield record, key
            yield from _slots(value)
