"""Ratings (docs/tournaments.md, "Ratings"; domain/tournament/ratings.py): OpenSkill
Plackett-Luce per entrant over a sequence of rated games.

Checked here: the direction of the updates (winner up, loser down, a table ordered by rank),
shared places, sigma shrinking, the game count, a cross-check against calling openskill's
``PlackettLuce`` directly, values worked out by hand from Weng & Lin's Algorithm 4 and the
figures printed in openskill's README, the refusals, determinism, JSON safety, and
properties over random games (hypothesis, derandomized).
"""

from __future__ import annotations

import itertools
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce, PlackettLuceRating

from domain.tournament.errors import InvalidTournament
from domain.tournament.ratings import RatedGame, Rating, rate

MU = 25.0
SIGMA = 25.0 / 3.0
TAU = 25.0 / 300.0
BETA = 25.0 / 6.0


def game(*placings: tuple[str, int]) -> RatedGame:
    """A rated game from (entrant, rank) pairs in seat order."""
    return RatedGame(
        entrants=tuple(entrant for entrant, _ in placings),
        ranks=tuple(rank for _, rank in placings),
    )


# --- Direction of the updates ---------------------------------------------------------------


def test_a_winner_rises_and_a_loser_falls() -> None:
    ratings = rate([game(("ann", 1), ("bob", 2))])
    assert ratings["ann"].mu > MU > ratings["bob"].mu
    # Two new entrants: the same uncertainty, so the same step either way.
    assert ratings["ann"].mu - MU == pytest.approx(MU - ratings["bob"].mu, abs=1e-12)


def test_the_loser_in_the_first_seat_falls_all_the_same() -> None:
    ratings = rate([game(("ann", 2), ("bob", 1))])
    assert ratings["bob"].mu > MU > ratings["ann"].mu


def test_a_four_player_game_orders_mu_by_rank() -> None:
    ratings = rate([game(("a", 3), ("b", 1), ("c", 4), ("d", 2))])
    by_rank = [ratings[e].mu for e in ("b", "d", "a", "c")]
    assert by_rank == sorted(by_rank, reverse=True)
    assert len(set(by_rank)) == 4
    assert ratings["b"].mu > MU > ratings["c"].mu


def test_beating_a_stronger_entrant_gains_more_than_beating_a_weaker_one() -> None:
    strong = Rating(mu=35.0, sigma=4.0, games=10)
    weak = Rating(mu=15.0, sigma=4.0, games=10)
    upset = rate([game(("new", 1), ("s", 2))], start={"s": strong})
    expected = rate([game(("new", 1), ("w", 2))], start={"w": weak})
    assert upset["new"].mu - MU > expected["new"].mu - MU > 0


# --- Shared places --------------------------------------------------------------------------


def test_entrants_sharing_a_place_get_equal_updates() -> None:
    ratings = rate([game(("a", 1), ("b", 3), ("c", 1))])
    assert ratings["a"] == ratings["c"]
    assert ratings["a"].mu > MU > ratings["b"].mu


def test_a_draw_between_equal_ratings_moves_no_mu_and_shrinks_sigma() -> None:
    ratings = rate([game(("a", 1), ("b", 1))])
    assert ratings["a"] == ratings["b"]
    assert ratings["a"].mu == pytest.approx(MU, abs=1e-12)
    assert ratings["a"].sigma < SIGMA


def test_a_draw_between_unequal_ratings_moves_them_towards_each_other() -> None:
    start = {"s": Rating(30.0, 4.0, 5), "w": Rating(20.0, 4.0, 5)}
    ratings = rate([game(("s", 1), ("w", 1))], start=start)
    assert 30.0 > ratings["s"].mu > ratings["w"].mu > 20.0


def test_ranks_need_not_be_dense() -> None:
    """Only the order of the ranks counts: (1, 3, 3) is (1, 2, 2)."""
    sparse = rate([game(("a", 1), ("b", 3), ("c", 3))])
    dense = rate([game(("a", 1), ("b", 2), ("c", 2))])
    assert sparse == dense


# --- Sigma and the game count ---------------------------------------------------------------


def test_sigma_shrinks_with_games() -> None:
    games = [game(("me", 1 + k % 2), (f"opponent{k}", 2 - k % 2)) for k in range(10)]
    sigmas = [SIGMA] + [rate(games[: k + 1])["me"].sigma for k in range(10)]
    assert all(later < earlier for earlier, later in itertools.pairwise(sigmas))


def test_games_are_counted_and_start_ratings_carried() -> None:
    start = {"ann": Rating(30.0, 5.0, 7), "idle": Rating(20.0, 3.0, 2)}
    ratings = rate(
        [game(("ann", 1), ("bob", 2)), game(("bob", 1), ("cat", 2), ("ann", 3))], start=start
    )
    assert {e: r.games for e, r in ratings.items()} == {"ann": 9, "idle": 2, "bob": 2, "cat": 1}
    assert ratings["idle"] == start["idle"]
    assert list(ratings) == ["ann", "idle", "bob", "cat"]


def test_no_games_gives_the_start_back() -> None:
    start = {"ann": Rating(30.0, 5.0, 7)}
    assert rate([]) == {}
    assert rate([], start=start) == start
    assert rate(iter([]), start=start) is not start


def test_the_default_start_is_the_models_default() -> None:
    fresh = Rating.initial()
    assert (fresh.mu, fresh.sigma, fresh.games) == (MU, SIGMA, 0)
    assert fresh.ordinal == pytest.approx(0.0, abs=1e-12)
    explicit = rate([game(("a", 1), ("b", 2))], start={"a": fresh, "b": fresh})
    assert explicit == rate([game(("a", 1), ("b", 2))])


# --- Cross-checks ---------------------------------------------------------------------------


def direct(games: list[tuple[list[str], list[int]]]) -> dict[str, PlackettLuceRating]:
    """The same games through openskill's own API, one-member teams, default model."""
    model = PlackettLuce()
    ratings: dict[str, PlackettLuceRating] = {}
    for entrants, ranks in games:
        teams = [[ratings.get(e, model.rating())] for e in entrants]
        result = model.rate(teams, ranks=[float(r) for r in ranks])
        for entrant, (updated,) in zip(entrants, result, strict=True):
            ratings[entrant] = updated
    return ratings


def test_matches_openskill_called_directly() -> None:
    played: list[tuple[list[str], list[int]]] = [
        (["a", "b"], [1, 2]),
        (["c", "a", "d", "b"], [2, 1, 4, 3]),
        (["b", "c", "d"], [1, 1, 3]),
        (["d", "a"], [1, 2]),
        (["a", "b", "c", "d", "e", "f"], [6, 5, 4, 3, 2, 1]),
        (["e", "c"], [1, 1]),
    ]
    ours = rate(RatedGame(tuple(e), tuple(r)) for e, r in played)
    theirs = direct(played)
    assert set(ours) == set(theirs)
    for entrant, rating in ours.items():
        assert rating.mu == theirs[entrant].mu
        assert rating.sigma == theirs[entrant].sigma


def test_two_new_entrants_by_hand_from_weng_and_lin() -> None:
    """Algorithm 4 of Weng & Lin (2011) worked by hand for a win between two new entrants:
    sigma^2 grows by tau^2 first; c^2 = sum(sigma_i^2 + beta^2); both have e^(mu/c) equal, so
    the winner's probability term is 1/2; mu moves by sigma^2/c * 1/2; sigma^2 shrinks by the
    factor 1 - gamma * sigma^2/c^2 * 1/4 with gamma = sigma/c."""
    variance = SIGMA**2 + TAU**2
    c = math.sqrt(2 * (variance + BETA**2))
    step = variance / c * 0.5
    shrink = 1 - (math.sqrt(variance) / c) * (variance / c**2) * 0.25
    ratings = rate([game(("w", 1), ("l", 2))])
    assert ratings["w"].mu == pytest.approx(MU + step, abs=1e-12)
    assert ratings["l"].mu == pytest.approx(MU - step, abs=1e-12)
    assert ratings["w"].sigma == pytest.approx(math.sqrt(variance * shrink), abs=1e-12)
    assert ratings["l"].sigma == pytest.approx(math.sqrt(variance * shrink), abs=1e-12)
    assert (round(ratings["w"].mu, 6), round(ratings["w"].sigma, 6)) == (27.635389, 8.065901)


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        # openskill.py's README, "Artificial Ranks": four default ratings, rank=[4, 1, 3, 2].
        (
            (4, 1, 3, 2),
            [
                (20.96265504062538, 8.083731307186588),
                (27.795084971874736, 8.263160757613477),
                (24.68943500312503, 8.083731307186588),
                (26.552824984374855, 8.179213704945203),
            ],
        ),
        # The README's ties: score=[37, 19, 37, 42], i.e. ranks 2, 4, 2, 1.
        (
            (2, 4, 2, 1),
            [
                (24.68943500312503, 8.179213704945203),
                (22.826045021875203, 8.179213704945203),
                (24.68943500312503, 8.179213704945203),
                (27.795084971874736, 8.263160757613477),
            ],
        ),
    ],
)
def test_matches_the_figures_in_openskills_readme(
    ranks: tuple[int, ...], expected: list[tuple[float, float]]
) -> None:
    """The README's figures were printed before openskill added tau (25/300 added in
    quadrature to each sigma before a game), which moves them by less than 5e-4; a wrong
    model, a rank read upside down or a seat mixed up moves them by more than 0.5."""
    entrants = ("a1", "b1", "c1", "d1")
    ratings = rate([RatedGame(entrants, ranks)])
    for entrant, (mu, sigma) in zip(entrants, expected, strict=True):
        assert ratings[entrant].mu == pytest.approx(mu, abs=1e-3)
        assert ratings[entrant].sigma == pytest.approx(sigma, abs=1e-3)


# --- Refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entrants", "ranks"),
    [
        (("a", "b", "c"), (1, 2)),
        (("a", "b"), (1, 2, 3)),
        (("a",), (1,)),
        ((), ()),
        (("a", "b", "a"), (1, 2, 3)),
        (("a", "b"), (0, 1)),
        (("a", "b"), (1, -2)),
        (("a", "b"), (1, 1.5)),
        (("a", "b"), (True, 2)),
        (("a", 7), (1, 2)),
    ],
)
def test_malformed_games_are_refused(
    entrants: tuple[object, ...], ranks: tuple[object, ...]
) -> None:
    with pytest.raises(InvalidTournament) as refused:
        RatedGame(entrants, ranks)  # type: ignore[arg-type]
    assert refused.value.code == "bad-rated-game"


def test_rate_refuses_what_is_not_a_rated_game() -> None:
    with pytest.raises(InvalidTournament) as refused:
        rate([(("a", "b"), (1, 2))])  # type: ignore[list-item]
    assert refused.value.code == "bad-rated-game"


def test_rate_leaves_its_start_unchanged() -> None:
    start = {"a": Rating(25.0, 8.0, 1)}
    after = rate([game(("a", 1), ("b", 2))], start=start)
    assert after["a"].games == 2
    assert start == {"a": Rating(25.0, 8.0, 1)}
    with pytest.raises(InvalidTournament):
        rate([game(("a", 1), ("b", 2)), "a beat b"], start=start)  # type: ignore[list-item]
    assert start == {"a": Rating(25.0, 8.0, 1)}


@pytest.mark.parametrize(
    ("mu", "sigma", "games"),
    [
        (math.nan, 8.0, 0),
        (math.inf, 8.0, 0),
        (25.0, 0.0, 0),
        (25.0, -1.0, 0),
        (25.0, math.inf, 0),
        (25.0, 8.0, -1),
    ],
)
def test_bad_ratings_are_refused(mu: float, sigma: float, games: int) -> None:
    with pytest.raises(InvalidTournament) as refused:
        Rating(mu, sigma, games)
    assert refused.value.code == "bad-rating"


def test_lists_are_kept_as_tuples() -> None:
    rated = RatedGame(["a", "b"], [2, 1])  # type: ignore[arg-type]
    assert rated == RatedGame(("a", "b"), (2, 1))
    assert hash(rated) == hash(RatedGame(("a", "b"), (2, 1)))


# --- Determinism and JSON -------------------------------------------------------------------


SEQUENCE = [
    game(("a", 1), ("b", 2)),
    game(("b", 1), ("c", 2), ("a", 2)),
    game(("c", 1), ("a", 2)),
]


def test_same_games_same_ratings() -> None:
    first = rate(SEQUENCE)
    assert rate(list(SEQUENCE)) == first
    assert {e: r.to_json() for e, r in rate(SEQUENCE).items()} == {
        e: r.to_json() for e, r in first.items()
    }


def test_the_order_of_games_matters() -> None:
    assert rate(SEQUENCE) != rate(list(reversed(SEQUENCE)))


def test_to_json_is_json_safe_and_rounded() -> None:
    rating = rate(SEQUENCE)["a"]
    data = rating.to_json()
    assert list(data) == ["mu", "sigma", "ordinal", "games"]
    assert [type(v) for v in data.values()] == [float, float, float, int]
    assert data["mu"] == round(rating.mu, 6)
    assert data["ordinal"] == round(rating.mu - 3 * rating.sigma, 6)
    assert data["games"] == 3
    assert json.loads(json.dumps(data)) == data


def test_ordinal_is_mu_less_three_sigma() -> None:
    assert Rating(30.0, 2.0, 4).ordinal == pytest.approx(24.0)
    assert Rating(25, 5).mu == 25.0
    assert type(Rating(25, 5).mu) is float


# --- Properties -----------------------------------------------------------------------------

POOL = [f"e{k}" for k in range(8)]


@st.composite
def rated_games(draw: st.DrawFn) -> RatedGame:
    size = draw(st.integers(2, 6))
    entrants = draw(st.lists(st.sampled_from(POOL), min_size=size, max_size=size, unique=True))
    ranks = draw(st.lists(st.integers(1, size), min_size=size, max_size=size))
    return RatedGame(tuple(entrants), tuple(ranks))


ratings_st = st.builds(
    Rating,
    mu=st.floats(-50.0, 100.0),
    sigma=st.floats(0.05, 20.0),
    games=st.integers(0, 50),
)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(rated_games(), max_size=40))
def test_ratings_of_random_games_are_finite_and_counted(games: list[RatedGame]) -> None:
    ratings = rate(games)
    assert set(ratings) == {e for g in games for e in g.entrants}
    for entrant, rating in ratings.items():
        assert math.isfinite(rating.mu)
        assert math.isfinite(rating.sigma) and rating.sigma > 0
        assert rating.games == sum(entrant in g.entrants for g in games)
        assert all(math.isfinite(v) for v in rating.to_json().values())
    assert rate(games) == ratings


@settings(max_examples=200, deadline=None, derandomize=True)
@given(rated_games(), st.lists(ratings_st, min_size=6, max_size=6))
def test_precision_weighted_mu_changes_sum_to_zero(rated: RatedGame, priors: list[Rating]) -> None:
    """What holds for every game (measured before asserting; ties too): the mu changes weighted
    by 1 / (sigma^2 + tau^2) sum to zero, since Plackett-Luce's update is the likelihood's
    gradient scaled by each player's variance, and the likelihood only sees differences of
    mu. The plain sum of the changes is zero only where every sigma is the same."""
    start = dict(zip(rated.entrants, priors, strict=False))
    after = rate([rated], start=start)
    weighted = sum(
        (after[e].mu - start[e].mu) / (start[e].sigma ** 2 + TAU**2) for e in rated.entrants
    )
    assert weighted == pytest.approx(0.0, abs=1e-9)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.floats(-50.0, 100.0), st.floats(-50.0, 100.0), st.floats(0.05, 20.0))
def test_two_player_mu_changes_sum_to_zero_at_equal_sigma(
    mu_a: float, mu_b: float, sigma: float
) -> None:
    start = {"a": Rating(mu_a, sigma, 3), "b": Rating(mu_b, sigma, 3)}
    after = rate([game(("a", 1), ("b", 2))], start=start)
    change_a = after["a"].mu - mu_a
    change_b = after["b"].mu - mu_b
    assert change_a > 0 > change_b
    assert change_a + change_b == pytest.approx(0.0, abs=1e-9)


def test_two_player_mu_changes_do_not_sum_to_zero_at_unequal_sigma() -> None:
    """The newcomer (wide sigma) moves more than the veteran (narrow sigma) it beats."""
    start = {"vet": Rating(25.0, 2.0, 40)}
    after = rate([game(("new", 1), ("vet", 2))], start=start)
    gain = after["new"].mu - MU
    loss = 25.0 - after["vet"].mu
    assert gain > 10 * loss > 0
