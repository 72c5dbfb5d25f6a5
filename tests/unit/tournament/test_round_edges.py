"""Edge cases of rounds and results in the tournament aggregate (docs/tournaments.md, "Rounds
and tables", "Results and standings", "Elimination", "The arbiter"): rounds that seat nobody,
corrections in a bracket, a drawn final, forfeits at larger tables."""

from __future__ import annotations

import random

import pytest

from domain.errors import GameError
from domain.randomness import commitment
from domain.tournament.aggregate import Tournament
from domain.tournament.invariants import check_invariants
from domain.tournament.rounds import round_over
from domain.tournament.standings import standing_rows
from tests.unit.tournament.test_rounds import SEED, code, play_round, running


def test_a_round_that_seats_nobody_does_not_stop_an_automatic_tournament() -> None:
    """Round robin of four: two entrants withdraw during round 1, and their round-2 opponents
    both have a bye (a withdrawn entrant keeps its place as an empty seat). That round has no
    table, so no result will ever end it: the tournament goes on to round 3 at once, and
    finishes after its last round, without the organiser."""
    t = running({"kind": "round-robin"}, 4)
    t.withdraw("e0")
    t.withdraw("e1")
    play_round(t, random.Random(1))
    empty = t.rounds[1]
    assert empty["tables"] == [] and sorted(empty["byes"]) == ["e2", "e3"]
    assert t.phase == "finished" or not round_over(t.rounds[-1])
    while t.phase == "running":
        play_round(t, random.Random(2))
        assert t.phase == "finished" or not round_over(t.rounds[-1])
    assert len(t.rounds) == 3 and check_invariants(t) == []


def test_a_correction_may_not_change_who_went_on_once_the_bracket_moved_on() -> None:
    """Elimination: once the next round is paired, the winner of a round-1 table is seated
    in it. A correction that would put the other entrant through is refused
    (``next-round-paired``): accepted, it left the bracket with two entrants still in one
    block, so the last result of round 2 was refused for ever (``round-not-finished``) and
    the tournament — and the results manager, retrying that game — stuck. A correction that
    keeps who went on (the scores) is taken."""
    t = running({"kind": "elimination"}, 8)
    play_round(t, random.Random(1))
    first = t.rounds[0]["tables"][0]
    ranks = first["result"]["ranks"]
    flipped = [2, 1] if ranks == [1, 2] else [1, 2]
    version = t.version
    assert code(lambda: t.correct_result(first["game"], flipped, None, "wrong winner")) == (
        "next-round-paired"
    )
    assert t.version == version and first["result"]["ranks"] == ranks
    t.correct_result(first["game"], ranks, [7, 7], "the scores were misread")
    assert first["result"]["scores"] == [7, 7]
    while t.phase == "running":
        play_round(t, random.Random(2))
    assert len(t.rounds) == 3 and check_invariants(t) == []


def test_a_correction_before_the_next_round_may_change_who_goes_on() -> None:
    t = running({"kind": "elimination", "pairing": "organiser"}, 4)
    play_round(t, random.Random(1))
    first = t.rounds[0]["tables"][0]
    flipped = [2, 1] if first["result"]["ranks"] == [1, 2] else [1, 2]
    t.correct_result(first["game"], flipped, None, "wrong winner")
    winner = first["seats"][flipped.index(1)]
    t.pair_next_round()
    assert winner in t.rounds[1]["tables"][0]["seats"]


def test_multi_player_elimination_keeps_who_went_on_once_the_next_round_is_paired() -> None:
    t = running({"kind": "elimination", "table_size": 4, "min_table_size": 3, "advance": 2}, 12)
    play_round(t, random.Random(3))
    first = t.rounds[0]["tables"][0]
    ranks = first["result"]["ranks"]
    reversed_ranks = [len(ranks) + 1 - r for r in ranks]
    assert code(lambda: t.correct_result(first["game"], reversed_ranks, None, "x")) == (
        "next-round-paired"
    )
    top_two = sorted(range(4), key=lambda s: ranks[s])[:2]
    swapped = list(ranks)
    swapped[top_two[0]], swapped[top_two[1]] = 2, 1  # the two who went on, their order swapped
    t.correct_result(first["game"], swapped, None, "first and second swapped")
    assert first["result"]["ranks"] == swapped


def test_a_drawn_final_is_won_by_the_entrant_the_draw_puts_through() -> None:
    """A drawn two-player final: the shared first place goes to the lower pairing number,
    as at every table of the bracket (docs/tournaments.md, "Elimination"), so that entrant
    won the final and is first; the other is knocked out there and second — whatever the
    game scores or other tie-breaks say."""
    t = running({"kind": "elimination"}, 2)
    (final,) = t.rounds[0]["tables"]
    numbers = {key: t.entrants[key]["number"] for key in final["seats"]}
    better = min(final["seats"], key=lambda key: numbers[key])
    scores = [1 if key == better else 10 for key in final["seats"]]
    t.record_result(final["game"], [1, 1], scores, 9, "")
    assert t.phase == "finished"
    other = next(key for key in final["seats"] if key != better)
    assert t.ranking == [better, other]
    rows = standing_rows(t)
    assert [r["entrant"] for r in rows] == [better, other]
    assert rows[0]["eliminated_in"] is None and rows[1]["eliminated_in"] == 1


def test_a_forfeit_is_a_walkover_for_every_entrant_present() -> None:
    """docs/tournaments.md, "The arbiter": the entrants present at a forfeited table each get
    first-place points (a walkover, worth what a bye is), the no-shows share the last places;
    once the arbiter corrects the table, its corrected ranks score as any table's."""
    t = running({"kind": "swiss", "table_size": 4, "min_table_size": 3, "rounds": 3}, 8)
    first, second = t.rounds[0]["tables"]
    absent = first["seats"][2]
    t.forfeit(first["game"], [absent], "did not come to the table")
    points = {r["entrant"]: r["points"] for r in standing_rows(t)}
    assert [points[key] for key in first["seats"]] == [60, 60, 0, 60]
    assert t.format["bye_points"] == 60
    two_absent = second["seats"][1:3]
    t.forfeit(second["game"], two_absent, "two no-shows")
    points = {r["entrant"]: r["points"] for r in standing_rows(t)}
    assert [points[key] for key in second["seats"]] == [60, 0, 0, 60]  # no-shows: last place
    t.correct_result(first["game"], [1, 2, 4, 3], None, "they played after all")
    points = {r["entrant"]: r["points"] for r in standing_rows(t)}
    assert [points[key] for key in first["seats"]] == [60, 40, 0, 20]
    assert check_invariants(t) == []


def test_a_table_where_nobody_came_scores_nothing_for_anyone() -> None:
    """FIDE's double forfeit: both no-shows score a loss, not a draw."""
    t = running({"kind": "swiss", "rounds": 3}, 4)
    table = t.rounds[0]["tables"][0]
    t.forfeit(table["game"], list(table["seats"]), "neither came")
    points = {r["entrant"]: r["points"] for r in standing_rows(t)}
    assert [points[key] for key in table["seats"]] == [0, 0]


def test_a_number_of_rounds_beyond_any_event_is_refused_at_creation() -> None:
    """A multi-player round robin computes its whole schedule when round 1 is paired (about
    5 ms a round for nine entrants, far more for larger fields): a format asking for a
    million rounds pinned a core for hours on ``start``. ``rounds`` is at most 100; the
    schedule's own count (``rounds`` null) is not limited."""
    for kind in ("swiss", "round-robin"):
        fmt = {"kind": kind, "table_size": 3, "rounds": 10**6}
        assert code(lambda fmt=fmt: running(fmt, 9)) == "invalid-format"
        assert running({**fmt, "rounds": 100}, 3).format["rounds"] == 100


def test_a_bracket_round_of_walkovers_only_does_not_refuse_the_last_result() -> None:
    """Five entrants in a bracket of eight: round 1 is #4 against #5, the top three have byes.
    #1 and #2 withdraw. Round 2 then holds no match (the winner of round 1 and #3 each face
    an empty slot), and pairing it refused the command recording round 1's last result for
    ever (``tournament-finished`` from the bracket): the tournament, and the results manager
    retrying that game, stuck. Round 2 is now a round of walkovers (no table, a bye each),
    and the final follows at once."""
    t = running({"kind": "elimination"}, 5)
    by_number = {e["number"]: key for key, e in t.entrants.items()}
    (table,) = t.rounds[0]["tables"]
    assert sorted(table["seats"]) == sorted([by_number[4], by_number[5]])
    t.withdraw(by_number[1])
    t.withdraw(by_number[2])
    t.record_result(table["game"], [1, 2], [3, 1], 9, "")
    winner = table["seats"][0]
    walkovers = t.rounds[1]
    assert walkovers["tables"] == [] and sorted(walkovers["byes"]) == sorted([winner, by_number[3]])
    (final,) = t.rounds[2]["tables"]
    assert sorted(final["seats"]) == sorted([winner, by_number[3]])
    t.record_result(final["game"], [2, 1], [0, 5], 9, "")
    assert t.phase == "finished" and t.ranking[0] == final["seats"][1]
    assert check_invariants(t) == []


def test_a_swiss_whose_entrants_no_table_split_seats_does_not_start() -> None:
    """2 checked in at tables of 4 (min 2): tables seat 4 or 3, so round 1 could not be
    paired; the start is refused before anything is recorded."""
    t = Tournament.create(
        game="azul",
        options={},
        settings=None,
        format={"kind": "swiss", "table_size": 4, "min_table_size": 2},
        name="Too small",
        seed=SEED,
        seed_sha256=commitment(SEED),
        organiser_sha256="0" * 64,
        table_secret="7a" * 32,
    )
    for name in ("a", "b"):
        t.register(name, name * 64, entrant_id=name)
    t.open_check_in()
    for name in ("a", "b"):
        t.check_in(name)
    pending = len(t.pending_events)
    with pytest.raises(GameError) as refused:
        t.start()
    assert refused.value.code == "too-few-entrants"
    assert len(t.pending_events) == pending and t.phase == "check-in"
