"""Ratings (issue 15, part 3; docs/tournaments.md, "Ratings"): every entrant's skill estimate
after a sequence of rated games, by OpenSkill's Plackett-Luce model (Weng & Lin 2011,
Algorithm 4), through the ``openskill`` package with its default parameters.

A rating is a normal belief about skill: ``mu`` (the mean) and ``sigma`` (the uncertainty).
Every entrant starts at the model's default, mu 25 and sigma 25/3, unless ``start`` says
otherwise. A game is a ranking of its entrants (1 = first; equal ranks share the place); each
entrant is a one-member team. Games are applied one after another, in the order given, so the
same games in the same order always give the same ratings: no randomness, no clock.

>>> ratings = rate([RatedGame(entrants=("ann", "bob"), ranks=(1, 2))])
>>> ratings["ann"].mu > 25 > ratings["bob"].mu
True
>>> ratings["ann"].to_json()
{'mu': 27.635389, 'sigma': 8.065901, 'ordinal': 3.437685, 'games': 1}
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

from domain.tournament.errors import InvalidTournament

#: How many standard deviations the ordinal (the conservative display value) subtracts.
ORDINAL_Z = 3.0

#: The decimal places of the floats in ``Rating.to_json``.
JSON_DIGITS = 6


@dataclass(frozen=True)
class RatedGame:
    """One rated game: entrant ids in seat order and their 1-based ranks (equal = shared place).

    Refused with ``InvalidTournament("bad-rated-game", ...)``: fewer than two entrants, an
    entrant twice, a rank list of another length, a rank that is not a whole number >= 1.
    Lists are accepted and kept as tuples.
    """

    entrants: tuple[str, ...]
    ranks: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "entrants", tuple(self.entrants))
        object.__setattr__(self, "ranks", tuple(self.ranks))
        _check_game(self)


def _check_game(game: RatedGame) -> None:
    """Refuse a rated game that cannot be read as a ranking (``RatedGame``'s docstring)."""
    if len(game.entrants) < 2:
        raise InvalidTournament("bad-rated-game", "a rated game needs at least two entrants")
    if not all(isinstance(entrant, str) for entrant in game.entrants):
        raise InvalidTournament("bad-rated-game", "entrant ids must be strings")
    if len(set(game.entrants)) != len(game.entrants):
        raise InvalidTournament("bad-rated-game", "an entrant appears twice in one game")
    if len(game.ranks) != len(game.entrants):
        raise InvalidTournament(
            "bad-rated-game",
            f"{len(game.entrants)} entrants but {len(game.ranks)} ranks",
        )
    for rank in game.ranks:
        if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
            raise InvalidTournament("bad-rated-game", f"a rank must be an integer >= 1: {rank!r}")


@dataclass(frozen=True)
class Rating:
    """One entrant's rating: the model's ``mu`` and ``sigma``, and ``games``, the rated games
    it is based on. Refused with ``InvalidTournament("bad-rating", ...)``: a mu that is not
    finite, a sigma that is not finite and positive, a negative game count."""

    mu: float
    sigma: float
    games: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "mu", float(self.mu))
        object.__setattr__(self, "sigma", float(self.sigma))
        if not math.isfinite(self.mu):
            raise InvalidTournament("bad-rating", f"mu must be finite: {self.mu!r}")
        if not (math.isfinite(self.sigma) and self.sigma > 0):
            raise InvalidTournament("bad-rating", f"sigma must be finite and > 0: {self.sigma!r}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 0:
            raise InvalidTournament("bad-rating", f"games must be an integer >= 0: {self.games!r}")

    @classmethod
    def initial(cls) -> Rating:
        """The model's default rating for an entrant with no rated game: mu 25, sigma 25/3."""
        model = PlackettLuce()
        return cls(mu=model.mu, sigma=model.sigma, games=0)

    @property
    def ordinal(self) -> float:
        """The conservative display value ``mu - 3 * sigma``: the true skill is above it with
        about 99.7% belief, so it rises as games shrink the uncertainty (docs/tournaments.md,
        "Ratings"). Sort and show by this; a new entrant's is 0."""
        return self.mu - ORDINAL_Z * self.sigma

    def to_json(self) -> dict[str, float | int]:
        """``{"mu", "sigma", "ordinal", "games"}`` as JSON-safe values, floats rounded to six
        decimal places (for display: rate from the unrounded ratings)."""
        return {
            "mu": round(self.mu, JSON_DIGITS),
            "sigma": round(self.sigma, JSON_DIGITS),
            "ordinal": round(self.ordinal, JSON_DIGITS),
            "games": self.games,
        }


def rate(
    games: Iterable[RatedGame], start: Mapping[str, Rating] | None = None
) -> dict[str, Rating]:
    """Every entrant's rating after the games, in order, starting from `start` (default: the
    model's default rating, mu 25, sigma 25/3).

    The result holds every entrant of ``start`` (unchanged if it played no game) and of the
    games, in that order of first appearance; each played game adds one to ``games``. Each
    game is one call of Plackett-Luce's update with every entrant a one-member team and the
    game's ranks (docs/tournaments.md, "Ratings").
    """
    model = PlackettLuce()
    fresh = Rating(mu=model.mu, sigma=model.sigma, games=0)
    ratings: dict[str, Rating] = dict(start or {})
    for game in games:
        if not isinstance(game, RatedGame):
            raise InvalidTournament("bad-rated-game", f"not a RatedGame: {game!r}")
        before = [ratings.get(entrant, fresh) for entrant in game.entrants]
        teams = [[model.rating(mu=prior.mu, sigma=prior.sigma)] for prior in before]
        after = model.rate(teams, ranks=[float(rank) for rank in game.ranks])
        for entrant, prior, (updated,) in zip(game.entrants, before, after, strict=True):
            ratings[entrant] = Rating(
                mu=float(updated.mu), sigma=float(updated.sigma), games=prior.games + 1
            )
    return ratings
