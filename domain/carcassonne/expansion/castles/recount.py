"""Castles for the independent recount (:mod:`domain.carcassonne.recount`, which the
invariants run at the end of a game; docs/carcassonne.md, "Castles"): which closed cities
became castles and which feature a castle scored are read from the history (the players'
decisions); everything else — that the city was two caps with one follower, the fief,
which completed features lie in it, the chains, the values, the end of the game, the 4
points a castle gives a farm — is worked out again here from the recount's own board.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from domain.carcassonne.catalogue import CATALOGUE

Node = tuple[int, int, str]
Done = tuple[str, set[Node], int]
"""A feature completed this turn: kind, segments, full value."""
_CAPS = {
    tile["type"]: {city["id"] for city in tile["cities"] if city["castle_base"]}
    for tile in CATALOGUE
}
CASTLE_FARM_POINTS = 4
_FARM_POINTS = {"per-field": 3, "per-city": 4, "per-field-once": 3}


@dataclass
class _Castle:
    owner: int
    nodes: set[Node]
    squares: set[tuple[int, int]]
    fief: set[tuple[int, int]]
    step: int
    follower: Node | None
    scored: int = -1
    points: int = 0


def _fief(squares: set[tuple[int, int]]) -> set[tuple[int, int]]:
    (ax, _), (bx, _) = sorted(squares)
    dx, dy = (1, 0) if ax == bx else (0, 1)
    return {(x + s * dx, y + s * dy) for x, y in squares for s in (-1, 0, 1)}


@dataclass
class CastleBook:
    """The castles of a replayed game and the letters of its tiles."""

    castles: list[_Castle] = field(default_factory=list)
    letters: dict[tuple[int, int], str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def build(self, nodes: set[Node], followers: dict[Node, int], index: int) -> None:
        """A closed city becomes a castle (checked: two caps on two tiles, one follower)."""
        on = [n for n in nodes if n in followers]
        squares = {(x, y) for x, y, _ in nodes}
        caps = all(seg in _CAPS[self.letters[(x, y)]] for x, y, seg in nodes)
        if len(nodes) != 2 or len(squares) != 2 or not caps or len(on) != 1:
            self.problems.append(f"A castle was built on an unfit city at {sorted(nodes)[0]}.")
            return
        owner = followers[on[0]]
        self.castles.append(_Castle(owner, nodes, squares, _fief(squares), index, on[0]))

    def names(self) -> set[Node]:
        """The first segment of every castle's city."""
        return {min(c.nodes) for c in self.castles}

    def trigger(
        self,
        done: list[Done],
        index: int,
        choices: list[Node],
        followers: dict[Node, int],
        scores: list[int],
    ) -> None:
        """Every castle of an earlier turn with a completed feature in its fief scores it,
        then chains; a castle with several candidates scores the one chosen."""
        while True:
            pick = self._pick(done, index)
            if pick is None:
                return
            castle, candidates = pick
            if len(candidates) > 1:
                chosen = choices.pop(0) if choices else None
                candidates = [c for c in candidates if chosen in c[1]]
                if not candidates:
                    self.problems.append("A castle scored a feature it could not choose.")
                    return
            castle.points = candidates[0][2]
            castle.scored = index
            scores[castle.owner] += castle.points
            if castle.follower is not None:
                followers.pop(castle.follower, None)
            castle.follower = None

    def _pick(self, done: list[Done], index: int) -> tuple[_Castle, list[Done]] | None:
        chained: tuple[_Castle, list[Done]] | None = None
        for castle in self.castles:
            if castle.follower is None or castle.step >= index:
                continue
            direct = [d for d in done if self._inside(d, castle.fief)]
            chain: list[Done] = [
                ("castle", other.nodes, other.points)
                for other in self.castles
                if other.scored == index and other.squares & castle.fief
            ]
            if direct:
                return castle, direct + chain
            if chain and chained is None:
                chained = (castle, chain)
        return chained

    @staticmethod
    def _inside(done: Done, fief: set[tuple[int, int]]) -> bool:
        nodes = done[1]
        return any((x, y) in fief for x, y, _ in nodes)

    def vacate(self, followers: dict[Node, int]) -> None:
        """The end: occupied castles score nothing; their followers leave."""
        for castle in self.castles:
            if castle.follower is not None:
                followers.pop(castle.follower, None)
                castle.follower = None


def settle(
    book: CastleBook,
    done: list[Done],
    built: set[Node],
    award: Callable[[set[Node], int], None],
    *,
    followers: dict[Node, int],
    index: int,
) -> list[Done]:
    """Score the features closed by placement ``index`` — a city named in ``built`` becomes
    a castle instead — and return those that count as completed for castles."""
    completed = []
    for kind, nodes, points in done:
        if kind == "city" and nodes & built:
            book.build(nodes, followers, index)
            continue
        award(nodes, points)
        completed.append((kind, nodes, points))
    return completed


def pay_farms(
    farms: list[tuple[list[int], list[Node]]], farmers: str, scores: list[int], castles: set[Node]
) -> None:
    """Pay each farm (its farmers' seats, the closed cities it borders) by variant
    (rules, "Final scoring", 2): 3 per city (4 per city in ``per-city``), 4 per castle."""
    base = _FARM_POINTS[farmers]
    if farmers == "per-city":
        by_city: dict[Node, list[int]] = {}
        for owners, supplied in farms:
            for city in supplied:
                by_city.setdefault(city, []).extend(owners)
        farms = [(owners, [city]) for city, owners in by_city.items()]
    paid: set[tuple[int, Node]] = set()
    for owners, supplied in farms:
        top = max(owners.count(p) for p in owners)
        for player in set(owners):
            if owners.count(player) != top:
                continue
            for city in supplied:
                if farmers != "per-field-once" or (player, city) not in paid:
                    scores[player] += CASTLE_FARM_POINTS if city in castles else base
                    paid.add((player, city))


Pay = Iterable[tuple[int, int, int]]
"""Auction payments as recorded: (payer, payee or -1 for nobody, points)."""


def pay_auctions(scores: list[int], payments: Pay) -> None:
    """Apply the auction payments of ``TileBought`` / ``TileSold`` (rules, "Bazaars": the
    payer loses the price, the payee — if any — gains it) to ``scores``."""
    for payer, payee, points in payments:
        scores[payer] -= points
        if payee >= 0:
            scores[payee] += points
