"""A tournament run by the service's own followers, on every store (issue 15, part 3;
docs/tournaments.md, "Results", "Standings and ratings read model"): bots play the tables
with the entrants' seat tokens; the results manager — not the test — records each result and
the next round is paired and seated; the tournaments read model has the standings and ratings
the aggregate computes, a rebuild from zero gives the same rows, and a results manager that
starts again from an earlier position applies nothing twice."""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Tracking

from application.simulation import play_out
from application.tournament_views import document_of
from domain.game import Game
from domain.randomness import commitment
from domain.registry import rules_for
from domain.undo import normalise_settings
from infrastructure.container import Services
from tests.helpers import started_tournament


def organised(services: Services, fmt: dict[str, Any], count: int) -> tuple[UUID, dict[str, str]]:
    created, tokens = started_tournament(services.tournaments, fmt, count, "Harbour Open")
    return created.tournament_id, tokens


def play_tables(services: Services, tid: UUID, tokens: dict[str, str], bot: random.Random) -> int:
    """Play out every running table of the last round with the entrants' own seat tokens;
    how many were played."""
    desk = services.tournaments
    played = 0
    t = desk.load(tid)
    for table in t.rounds[-1]["tables"]:
        if table["result"] is not None:
            continue
        seats = [""] * len(table["seats"])
        for entrant in table["seats"]:
            for mine in desk.my_tables(tid, tokens[entrant]):
                if mine["game"] == table["game"]:
                    seats[mine["seat"]] = mine["token"]
        assert play_out(services.app, UUID(table["game"]), seats, bot)
        played += 1
    return played


def test_the_followers_run_a_tournament_to_its_end(services: Services) -> None:
    tid, tokens = organised(services, {"kind": "swiss", "rounds": 3, "table_size": 3,
                                       "min_table_size": 2}, 7)  # fmt: skip
    bot = random.Random(4)
    rounds_seen = []
    for _ in range(6):
        t = services.tournaments.load(tid)
        if t.phase == "finished":
            break
        rounds_seen.append(len(t.rounds))
        assert play_tables(services, tid, tokens, bot) > 0
        services.catch_up()  # the results manager records them; then the read model follows
        services.catch_up()
    t = services.tournaments.load(tid)
    assert t.phase == "finished" and rounds_seen == [1, 2, 3]
    assert all(tb["result"]["how"] == "played" for rnd in t.rounds for tb in rnd["tables"])
    document = services.tournament_reads.document(tid)
    assert document == document_of(t)
    assert document["seed"] == t.seed and document["ranking"] == t.ranking
    assert [r["entrant"] for r in document["standings"]] == t.ranking
    assert len(document["ratings"]) == 7 and all(r["games"] == 3 for r in document["ratings"])
    items, cursor = services.tournament_reads.page(10, None)
    assert [i["tournament_id"] for i in items] == [str(tid)] and cursor is None
    assert services.tournament_reads.page(10, None, phase="running")[0] == []
    best = services.tournament_reads.top_ratings("azul", 3)
    assert [r["ordinal"] for r in best] == [r["ordinal"] for r in document["ratings"][:3]]

    before = services.tournament_reads.document(tid)
    services.rebuild()
    assert services.tournament_reads.document(tid) == before


def test_a_correction_re_rates_and_the_read_model_follows(services: Services) -> None:
    desk = services.tournaments
    fmt = {"kind": "swiss", "rounds": 3}
    created, tokens = started_tournament(desk, fmt, 4, "Correction Cup", "entrant {}")
    tid = created.tournament_id
    bot = random.Random(8)
    play_tables(services, tid, tokens, bot)
    services.catch_up()
    services.catch_up()
    play_tables(services, tid, tokens, bot)
    services.catch_up()
    services.catch_up()
    t = desk.load(tid)
    first = t.rounds[0]["tables"][0]
    flipped = [2, 1] if first["result"]["ranks"] == [1, 2] else [1, 2]
    desk.organiser(
        tid,
        created.organiser_token,
        lambda t: t.correct_result(first["game"], flipped, None, "score sheet misread"),
    )
    services.catch_up()
    t = desk.load(tid)
    document = services.tournament_reads.document(tid)
    assert document == document_of(t)  # the ratings re-rated from the corrected game on
    assert document["history"][-1]["act"] == "correct"
    assert document["history"][-1]["reason"] == "score sheet misread"


def test_a_results_manager_started_again_from_zero_applies_nothing_twice(
    services: Services,
) -> None:
    tid, tokens = organised(services, {"kind": "swiss", "rounds": 2}, 4)
    play_tables(services, tid, tokens, random.Random(2))
    services.catch_up()
    t = services.tournaments.load(tid)
    assert len(t.rounds) == 2
    version = t.version
    manager = services.managers["tournament_results"]
    events = [
        event
        for store in services.app.stores
        for event in store.events.get(UUID(t.rounds[0]["tables"][0]["game"]))
    ]
    # The same events applied again (a manager that stopped before recording its position):
    manager.projection.process_batch(events, _tracking(services, 10**9))
    assert services.tournaments.load(tid).version == version


def _tracking(services: Services, notification_id: int) -> Tracking:
    return Tracking(services.app.stores[0].name, notification_id)


def test_a_result_the_tournament_refuses_never_stops_the_results_manager(
    services: Services, caplog: Any
) -> None:
    """A table's game whose tournament refuses its result for good (here: a game naming a
    tournament that does not exist) is logged and skipped; the other tournaments' results
    still come in."""
    orphan = Game.create(
        game="azul",
        players=2,
        options=rules_for("azul").normalise_options({}),
        settings=normalise_settings({"tournament": True}),
        seed="ab" * 32,
        seed_sha256=commitment("ab" * 32),
        arbiter_sha256=commitment("arbiter"),
        game_id=services.app.games.new_id(),
        lobby_fields={"tournament": str(UUID(int=404))},
    )
    tokens = ["s0", "s1"]
    for seat, token in enumerate(tokens):
        orphan.join(seat, f"p{seat}", commitment(token))
    services.app.games.add(orphan)
    assert play_out(services.app, orphan.id, tokens, random.Random(1))
    tid, entrants = organised(services, {"kind": "swiss", "rounds": 1}, 2)
    play_tables(services, tid, entrants, random.Random(2))
    services.catch_up()
    services.catch_up()
    assert services.tournaments.load(tid).phase == "finished"
    assert services.failures() == []
    assert any("tournament-not-found" in record.getMessage() for record in caplog.records)
