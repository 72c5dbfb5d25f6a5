"""Rounds, results, standings and the arbiter in the tournament aggregate (issue 15, parts 3
and 4; docs/tournaments.md, "Rounds", "Results and standings", "The arbiter"): every command,
its refusals, the worked examples of the points and tie-breaks, and whole tournaments of every
format played to their end with the invariants checked after every command."""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.application import Application

from domain.errors import GameError
from domain.randomness import commitment
from domain.tournament.aggregate import Tournament
from domain.tournament.invariants import check_invariants
from domain.tournament.rounds import table_game_id
from domain.tournament.standings import head_to_head, standing_order, standing_rows

SEED = "5eed" * 16


def running(fmt: dict[str, Any], count: int, game: str = "azul") -> Tournament:
    t = Tournament.create(
        game=game,
        options={},
        settings=None,
        format=fmt,
        name="Spring Cup",
        seed=SEED,
        seed_sha256=commitment(SEED),
        organiser_sha256="0" * 64,
        table_secret="7a" * 32,
        tournament_id=UUID(int=21),
    )
    for i in range(count):
        t.register(f"e{i}", f"{i:064x}", entrant_id=f"e{i}")
    t.open_check_in()
    for i in range(count):
        t.check_in(f"e{i}")
    t.start()
    return t


def code(call: Any) -> str:
    with pytest.raises(GameError) as refused:
        call()
    return refused.value.code


def play_round(t: Tournament, rng: random.Random) -> None:
    """Give every undecided table of the last round a random result."""
    number = len(t.rounds)
    for table in list(t.rounds[number - 1]["tables"]):
        if table["result"] is None and t.phase == "running":
            ranks = list(range(1, len(table["seats"]) + 1))
            rng.shuffle(ranks)
            t.record_result(table["game"], ranks, [10 * (9 - r) for r in ranks], 40, "ab" * 32)
            assert check_invariants(t) == []


def row(t: Tournament, entrant: str) -> dict[str, Any]:
    return next(r for r in standing_rows(t) if r["entrant"] == entrant)


def test_the_start_pairs_round_one_with_each_tables_game_at_its_fixed_id() -> None:
    t = running({"kind": "swiss", "rounds": 3}, 5)
    first = t.rounds[0]
    assert first["number"] == 1 and len(first["tables"]) == 2 and len(first["byes"]) == 1
    for table in first["tables"]:
        assert table["game"] == str(table_game_id(t.id, 1, table["table"]))
        assert table["result"] is None and len(table["seats"]) == 2
    assert (
        table_game_id(t.id, 1, 1) != table_game_id(t.id, 2, 1) != table_game_id(UUID(int=1), 2, 1)
    )
    assert check_invariants(t) == []


def test_a_result_is_recorded_once_and_the_next_round_is_paired_when_the_last_table_ends() -> None:
    t = running({"kind": "swiss", "rounds": 3}, 4)
    one, two = t.rounds[0]["tables"]
    t.record_result(one["game"], [1, 2], [50, 40], 30, "c" * 64)
    assert one["result"]["how"] == "played" and one["result"]["chain_head"] == "c" * 64
    assert code(lambda: t.record_result(one["game"], [2, 1], [0, 0], 30, "c" * 64)) == (
        "table-decided"
    )
    assert len(t.rounds) == 1
    assert code(t.pair_next_round) == "round-not-over"
    t.record_result(two["game"], [1, 1], [45, 45], 31, "d" * 64)
    assert len(t.rounds) == 2 and t.rounds[1]["number"] == 2
    winner = one["seats"][0]
    assert row(t, winner)["points"] == 1 and row(t, two["seats"][0])["points"] == 0.5


@pytest.mark.parametrize(
    ("ranks", "scores", "expected"),
    [
        ([1], [0, 0], "bad-ranks"),
        ([1, 3], [0, 0], "bad-ranks"),
        ([0, 1], [0, 0], "bad-ranks"),
        ([1, 2], [0], "bad-scores"),
        ([1, 2], [True, 0], "bad-scores"),
        ([1, True], [0, 0], "bad-ranks"),
    ],
)
def test_a_result_that_is_no_ranking_is_refused_and_changes_nothing(
    ranks: list[Any], scores: list[Any], expected: str
) -> None:
    t = running({"kind": "swiss", "rounds": 3}, 4)
    game = t.rounds[0]["tables"][0]["game"]
    version = t.version
    assert code(lambda: t.record_result(game, ranks, scores, 1, "")) == expected
    assert t.version == version and t.rounds[0]["tables"][0]["result"] is None
    assert code(lambda: t.record_result(str(UUID(int=5)), [1, 2], [0, 0], 1, "")) == (
        "no-such-table"
    )


def test_organiser_pairing_waits_for_the_organiser_and_a_swiss_ends_after_its_rounds() -> None:
    t = running({"kind": "swiss", "rounds": 2, "pairing": "organiser"}, 4)
    rng = random.Random(3)
    play_round(t, rng)
    assert len(t.rounds) == 1 and t.phase == "running"
    t.pair_next_round()
    play_round(t, rng)
    assert t.phase == "finished"
    finished = t.collect_events()[-1]
    assert type(finished).__name__ == "TournamentFinished"
    assert finished.public_data()["seed"] == SEED and commitment(SEED) == t.seed_sha256
    assert finished.public_data()["ranking"] == [r["entrant"] for r in standing_rows(t)]
    assert code(t.pair_next_round) == "tournament-not-running"
    assert code(lambda: t.register("late", "f" * 64)) == "tournament-finished"
    assert code(lambda: t.withdraw("e1")) == "tournament-finished"


def test_the_organiser_may_finish_early_once_a_round_is_over() -> None:
    t = running({"kind": "swiss", "rounds": 5, "pairing": "organiser"}, 4)
    assert code(t.finish) == "round-not-over"
    play_round(t, random.Random(1))
    t.finish()
    assert t.phase == "finished" and len(t.rounds) == 1


def test_multi_player_points_share_the_places_a_tie_spans() -> None:
    # Tables of 4 (min 3): first 60, then 40, 20, 0; a tie for 2nd and 3rd shares 40 and 20.
    t = running({"kind": "swiss", "table_size": 4, "min_table_size": 3, "rounds": 2}, 4)
    table = t.rounds[0]["tables"][0]
    t.record_result(table["game"], [1, 2, 2, 4], [90, 70, 70, 10], 10, "")
    points = [row(t, e)["points"] for e in table["seats"]]
    assert points == [60, 30, 30, 0]
    assert t.format["points"] == {"3": [60, 30, 0], "4": [60, 40, 20, 0]}


def test_a_configured_points_table_and_bye_points_are_used() -> None:
    fmt = {"kind": "swiss", "rounds": 1, "points": {"2": [3, 1]}, "bye_points": 2}
    t = running(fmt, 3)
    (table,) = t.rounds[0]["tables"]
    (bye,) = t.rounds[0]["byes"]
    t.record_result(table["game"], [1, 1], [0, 0], 5, "")
    assert [row(t, e)["points"] for e in table["seats"]] == [2, 2]
    assert row(t, bye)["points"] == 2 and row(t, bye)["byes"] == 1


@pytest.mark.parametrize(
    "fmt",
    [
        {"kind": "swiss", "points": {"2": [0, 1]}},
        {"kind": "swiss", "points": {"3": [1, 0, 0]}},
        {"kind": "swiss", "points": {"2": [1]}},
        {"kind": "swiss", "bye_points": "1"},
        {"kind": "swiss", "bye_points": -5},
        {"kind": "swiss", "bye_points": 1e-300},
        {"kind": "swiss", "points": {"2": [0.3, 0.1]}},
        {"kind": "swiss", "points": {"2": [2000, 0]}},
        {"kind": "swiss", "tie_breaks": ["score", "score"]},
        {"kind": "swiss", "tie_breaks": ["sonneborn"]},
        {"kind": "swiss", "pairing": "manual"},
    ],
)
def test_a_bad_scoring_format_is_refused(fmt: dict[str, Any]) -> None:
    with pytest.raises(GameError) as refused:
        running(fmt, 2)
    assert refused.value.code == "invalid-format"


def test_tie_breaks_apply_in_the_configured_order() -> None:
    # Four entrants, one round of two tables: both winners on 1 point. With "score" first the
    # higher game score ranks first; with "seat" first the one who sat second does.
    results = {}
    for order in (["score"], ["seat"]):
        t = running({"kind": "swiss", "rounds": 2, "tie_breaks": order}, 4)
        one, two = t.rounds[0]["tables"]
        t.record_result(one["game"], [1, 2], [30, 0], 1, "")  # seat 0 wins with 30
        t.record_result(two["game"], [2, 1], [0, 10], 1, "")  # seat 1 wins with 10
        results[order[0]] = standing_order(t)[:2]
        winners = (one["seats"][0], two["seats"][1])
    assert results["score"] == [winners[0], winners[1]]
    assert results["seat"] == [winners[1], winners[0]]


def test_buchholz_sums_the_opponents_points_and_head_to_head_counts_only_the_tied_run() -> None:
    t = running({"kind": "round-robin", "table_size": 2}, 3)
    rng = random.Random(7)
    while t.phase == "running":
        play_round(t, rng)
    rows = {r["entrant"]: r for r in standing_rows(t)}
    for key, r in rows.items():
        met = [
            o
            for rnd in t.rounds
            for tb in rnd["tables"]
            if key in tb["seats"]
            for o in tb["seats"]
            if o != key
        ]
        assert r["buchholz"] == sum(rows[o]["points"] for o in met)
    a, b, _ = sorted(rows)
    duel = next(tb for rnd in t.rounds for tb in rnd["tables"] if set(tb["seats"]) == {a, b})
    mine = duel["result"]["ranks"][duel["seats"].index(a)]
    theirs = duel["result"]["ranks"][duel["seats"].index(b)]
    assert head_to_head(t, a, [a, b]) == (mine < theirs) - (mine > theirs)
    assert head_to_head(t, a, [a]) == 0


def test_the_arbiter_forfeits_a_no_show_and_every_act_is_in_the_history() -> None:
    t = running({"kind": "swiss", "table_size": 4, "min_table_size": 3, "rounds": 3}, 8)
    first, second = t.rounds[0]["tables"]
    absent = first["seats"][2]
    t.forfeit(first["game"], [absent], "did not come to the table")
    assert first["result"]["ranks"] == [1, 1, 4, 1] and first["result"]["how"] == "forfeit"
    assert row(t, absent)["points"] == 0 and row(t, first["seats"][0])["points"] == 60
    assert code(lambda: t.forfeit(first["game"], [absent], "again")) == "table-decided"
    assert code(lambda: t.forfeit(second["game"], ["nobody"], "x")) == "bad-forfeit"
    t.adjudicate(second["game"], [2, 1, 3, 4], None, "the power went out")
    assert second["result"]["how"] == "adjudicated" and len(t.rounds) == 2
    t.correct_result(first["game"], [1, 2, 4, 3], [5, 4, 3, 2], "the score sheet was misread")
    assert first["result"]["corrections"] == 1 and row(t, absent)["points"] == 0
    t.penalise(first["seats"][0], 10, "slow play")
    assert row(t, first["seats"][0])["points"] == 50 and row(t, first["seats"][0])["penalty"] == 10
    assert code(lambda: t.penalise(first["seats"][0], 0, "x")) == "bad-penalty"
    assert code(lambda: t.penalise(first["seats"][0], 1e-300, "x")) == "bad-penalty"
    assert code(lambda: t.penalise(first["seats"][0], 0.25, "x")) == "bad-penalty"
    assert code(lambda: t.penalise("nobody", 1, "x")) == "no-such-entrant"
    cheat = second["seats"][0]
    t.disqualify(cheat, "collusion")
    assert [a["act"] for a in t.acts] == [
        "forfeit",
        "adjudicate",
        "correct",
        "penalty",
        "disqualify",
    ]
    assert all(a["reason"] for a in t.acts)
    assert standing_order(t)[-1] == cheat
    rng = random.Random(2)
    play_round(t, rng)
    assert all(cheat not in tb["seats"] for tb in t.rounds[2]["tables"])
    assert cheat not in t.rounds[2]["byes"]
    assert check_invariants(t) == []


def test_a_correction_moves_the_standings_but_not_a_round_already_paired() -> None:
    t = running({"kind": "swiss", "rounds": 3}, 4)
    rng = random.Random(5)
    play_round(t, rng)
    second = [list(tb["seats"]) for tb in t.rounds[1]["tables"]]
    table = t.rounds[0]["tables"][0]
    flipped = [2, 1] if table["result"]["ranks"] == [1, 2] else [1, 2]
    before = row(t, table["seats"][0])["points"]
    t.correct_result(table["game"], flipped, None, "wrong winner entered")
    assert row(t, table["seats"][0])["points"] != before
    assert [tb["seats"] for tb in t.rounds[1]["tables"]] == second
    assert code(lambda: t.correct_result(t.rounds[1]["tables"][0]["game"], [1, 2], None, "x")) == (
        "table-not-decided"
    )


def test_no_arbiters_act_after_the_end() -> None:
    """The final ranking is recorded at the end; a penalty or a correction after it would
    leave the standings disagreeing with it (docs/tournaments.md, "Refusals")."""
    t = running({"kind": "swiss", "rounds": 1}, 2)
    (table,) = t.rounds[0]["tables"]
    t.record_result(table["game"], [1, 2], [3, 1], 9, "ab" * 32)
    assert t.phase == "finished"
    assert code(lambda: t.penalise(table["seats"][0], 1, "late")) == "tournament-not-running"
    assert code(lambda: t.correct_result(table["game"], [2, 1], None, "x")) == (
        "tournament-not-running"
    )
    assert code(lambda: t.disqualify(table["seats"][1], "x")) == "tournament-not-running"
    assert len(t.acts) == 0 and check_invariants(t) == []


def test_two_player_elimination_knocks_the_loser_out_and_a_draw_goes_to_the_better_seed() -> None:
    t = running({"kind": "elimination"}, 4)
    one, two = t.rounds[0]["tables"]
    t.record_result(one["game"], [2, 1], [0, 1], 9, "")
    t.record_result(two["game"], [1, 1], [5, 5], 9, "")
    numbers = {k: e["number"] for k, e in t.entrants.items()}
    drawn_out = max(two["seats"], key=lambda k: numbers[k])
    assert row(t, one["seats"][0])["eliminated_in"] == 1
    assert row(t, drawn_out)["eliminated_in"] == 1
    (final,) = t.rounds[1]["tables"]
    assert set(final["seats"]) == {one["seats"][1], min(two["seats"], key=lambda k: numbers[k])}
    t.record_result(final["game"], [1, 2], [1, 0], 9, "")
    assert t.phase == "finished" and t.ranking[0] == final["seats"][0]
    assert t.ranking[1] == final["seats"][1]


@pytest.mark.parametrize(
    "fmt",
    [
        {"kind": "swiss", "rounds": 4},
        {"kind": "swiss", "table_size": 4, "min_table_size": 3},
        {"kind": "swiss", "table_size": 3, "late_entry": True, "rounds": 3},
        {"kind": "round-robin"},
        {"kind": "round-robin", "table_size": 3},
        {"kind": "elimination"},
        {"kind": "elimination", "table_size": 4, "min_table_size": 3, "advance": 2},
    ],
)
@pytest.mark.parametrize("count", [5, 9, 13])
def test_every_format_plays_to_its_end_with_the_invariants_kept(
    fmt: dict[str, Any], count: int
) -> None:
    t = running(fmt, count)
    rng = random.Random(count)
    while t.phase == "running":
        if fmt.get("late_entry") and len(t.rounds) == 2 and "late" not in t.entrants:
            t.register("late", "e" * 64, entrant_id="late")
        play_round(t, rng)
        assert len(t.rounds) <= count + 2
    assert check_invariants(t) == []
    assert sorted(t.ranking) == sorted(k for k, e in t.entrants.items() if e["number"])
    app: Application[UUID] = Application()
    app.save(t)
    loaded = app.repository.get(t.id)
    assert isinstance(loaded, Tournament)
    assert loaded.rounds == t.rounds and loaded.ranking == t.ranking
    assert loaded.chain_head == t.chain_head


def test_multi_player_elimination_keeps_the_top_of_each_table_until_the_final() -> None:
    t = running({"kind": "elimination", "table_size": 4, "min_table_size": 3, "advance": 2}, 12)
    rng = random.Random(11)
    play_round(t, rng)
    out = {r["entrant"] for r in standing_rows(t) if r["eliminated_in"] == 1}
    for table in t.rounds[0]["tables"]:
        ranks = table["result"]["ranks"]
        behind = [s for s, e in enumerate(table["seats"]) if sorted(ranks).index(ranks[s]) >= 2]
        assert {table["seats"][s] for s in behind} <= out
    assert len(out) == 12 - 6
    while t.phase == "running":
        play_round(t, rng)
    last = t.rounds[-1]
    assert len(last["tables"]) == 1 and not last["byes"]
    ranks = last["tables"][0]["result"]["ranks"]
    assert t.ranking[0] == last["tables"][0]["seats"][ranks.index(1)]


def test_multi_player_elimination_seats_a_final_table_smaller_than_one_less() -> None:
    # 8 at tables of 6 (min 4), the top 2 go on: a table of 6 and two byes, then 4 are left:
    # too few for a table of 6 or 5, enough for the final table (it used to be refused with
    # too-few-entrants when the last result of round 1 came in: the tournament was stuck).
    t = running(
        {"kind": "elimination", "table_size": 6, "min_table_size": 4, "advance": 2}, 8, "risk"
    )
    assert [len(tb["seats"]) for tb in t.rounds[0]["tables"]] == [6] and len(
        t.rounds[0]["byes"]
    ) == 2
    play_round(t, random.Random(4))
    (final,) = t.rounds[1]["tables"]
    assert len(final["seats"]) == 4 and not t.rounds[1]["byes"]
    play_round(t, random.Random(5))
    assert t.phase == "finished"
    ranks = final["result"]["ranks"]
    assert t.ranking[0] == final["seats"][ranks.index(1)]
    assert check_invariants(t) == []


@pytest.mark.parametrize(("size", "smallest", "count", "left"), [(6, 4, 12, 4), (4, 2, 6, 2)])
def test_a_swiss_whose_entrants_left_cannot_be_split_into_tables_ends(
    size: int, smallest: int, count: int, left: int
) -> None:
    # 4 left at tables of 6 (min 4), 2 at tables of 4 (min 2): no split into tables of the
    # target size or one less seats them, so the round's last result ends the tournament
    # (it used to be refused with too-few-entrants, and the tournament was stuck).
    fmt = {"kind": "swiss", "table_size": size, "min_table_size": smallest, "rounds": 4}
    t = running(fmt, count, "risk")
    for key in [k for k in t.entrants][: count - left]:
        t.withdraw(key)
    play_round(t, random.Random(6))
    assert t.phase == "finished" and len(t.rounds) == 1
    assert check_invariants(t) == []


@pytest.mark.parametrize("count", [5, 8, 20, 65])
def test_multi_player_elimination_always_ends_with_a_final_table_lucky_losers_filling_it(
    count: int,
) -> None:
    """5 left at tables of 4 (min 3, top 1) play a table and a bye, leaving 2: the best of
    those the table knocked out goes on with them, so the last round is a final table."""
    t = running({"kind": "elimination", "table_size": 4, "min_table_size": 3}, count)
    rng = random.Random(count)
    while t.phase == "running":
        play_round(t, rng)
    final = t.rounds[-1]
    assert len(final["tables"]) == 1 and not final["byes"]
    assert len(final["tables"][0]["seats"]) >= 3
    ranks = final["tables"][0]["result"]["ranks"]
    assert t.ranking[0] == final["tables"][0]["seats"][ranks.index(1)]
    if count == 5:
        (table,) = t.rounds[0]["tables"]
        (bye,) = t.rounds[0]["byes"]
        seats, first = table["seats"], table["result"]["ranks"]
        by_rank = sorted(range(4), key=lambda s: (first[s], t.entrants[seats[s]]["number"]))
        assert set(final["tables"][0]["seats"]) == {bye, seats[by_rank[0]], seats[by_rank[1]]}
