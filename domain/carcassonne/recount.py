"""A second, independent scorer: replays the placements of a game on a plain board and
recounts every score from scratch (docs/carcassonne.md, "Placing", "Deploying",
"Scoring a completed feature", "Final scoring").

It shares nothing with the engine but the raw catalogue (:mod:`domain.carcassonne.catalogue`):
its own rotation of edge and half-edge names, its own flood fill over the placed tiles
instead of the engine's incremental features. :func:`recount` also reports any placement or
deployment the rules forbid. The invariants compare its totals with the engine's at the end
of every game (:mod:`domain.carcassonne.invariants`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from domain.carcassonne.catalogue import CATALOGUE
from domain.carcassonne.expansion.castles import recount as book
from domain.carcassonne.expansion.castles.recount import CastleBook, Done, pay_farms, settle

_SIDES = "NESW"
_HALVES = ("NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW")
_STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
_ACROSS = {"N": "S", "S": "N", "E": "W", "W": "E"}
_HALF_ACROSS = {"NNW": "SSW", "NNE": "SSE", "ENE": "WNW", "ESE": "WSW"}
_HALF_ACROSS.update({b: a for a, b in list(_HALF_ACROSS.items())})
_DATA = {tile["type"]: tile for tile in CATALOGUE}

Node = tuple[int, int, str]
"""A segment on the board: (x, y, segment id)."""


class Placement(NamedTuple):
    """One placed tile of the history: where, what, how turned (degrees), by whom (-1 for
    the start tile) and the segment a follower was deployed on (``None``)."""

    x: int
    y: int
    tile: str
    rotation: int
    player: int
    follower: str | None
    bridge: tuple[int, int, str] | None = None
    """The bridge laid in this turn (expansion): the square of its tile and ``"NS"`` or
    ``"WE"`` as on the table."""
    castles: tuple[Node, ...] = ()
    """Cities turned into castles this turn (a segment of each; rules, "Castles")."""
    fiefs: tuple[Node, ...] = ()
    """The features castles chose to score this turn, in order (a segment of each)."""


@dataclass
class _Turned:
    """A tile as it lies: for every segment, its kind, the edges and half-edges it touches
    (turned), pennants and bordering cities."""

    edges: str
    kind: dict[str, str] = field(default_factory=dict)
    sides: dict[str, list[str]] = field(default_factory=dict)
    pennants: dict[str, int] = field(default_factory=dict)
    cities: dict[str, list[str]] = field(default_factory=dict)
    by_side: dict[str, str] = field(default_factory=dict)
    by_half: dict[str, str] = field(default_factory=dict)
    monastery: bool = False


def turned(letter: str, degrees: int) -> _Turned:
    """Tile ``letter`` as it lies when turned ``degrees`` clockwise."""
    data = _DATA[letter]
    q = degrees // 90
    edges = "".join(data["edges"][(i - q) % 4] for i in range(4))
    out = _Turned(edges)
    for kind, key in (("city", "cities"), ("road", "roads")):
        for seg in data[key]:
            sides = [_SIDES[(_SIDES.index(s) + q) % 4] for s in seg["edges"]]
            out.kind[seg["id"]] = kind
            out.sides[seg["id"]] = sides
            out.pennants[seg["id"]] = seg.get("pennants", 0)
            for side in sides:
                out.by_side[side] = seg["id"]
    for seg in data["fields"]:
        halves = [_HALVES[(_HALVES.index(h) + 2 * q) % 8] for h in seg["halves"]]
        out.kind[seg["id"]] = "field"
        out.sides[seg["id"]] = halves
        out.cities[seg["id"]] = list(seg["adj_cities"])
        for half in halves:
            out.by_half[half] = seg["id"]
    if data["monastery"]:
        out.kind["m0"] = "monastery"
        out.sides["m0"] = []
        out.monastery = True
    return out


def bridged(tile: _Turned, axis: str) -> bool:
    """Lay a bridge (rules, "Bridges") across ``axis`` of a tile as it lies: a road ``b0``
    over two field edges, which become road edges; the fields keep their halves. False
    (and nothing laid) when an end is not a field edge or the tile has a bridge."""
    ends = ["N", "S"] if axis == "NS" else ["E", "W"]
    if "b0" in tile.kind or any(tile.edges[_SIDES.index(end)] != "F" for end in ends):
        return False
    tile.kind["b0"] = "road"
    tile.sides["b0"] = ends
    tile.pennants["b0"] = 0
    for end in ends:
        tile.by_side[end] = "b0"
    tile.edges = "".join(
        "R" if side in ends else e for side, e in zip(_SIDES, tile.edges, strict=True)
    )
    return True


class Recount:
    """A board replayed placement by placement: tiles, followers still standing, scores."""

    def __init__(self, players: int, farmers: str, small_city: int) -> None:
        self.board: dict[tuple[int, int], _Turned] = {}
        self.followers: dict[Node, int] = {}
        self.scores = [0] * players
        self.farmers = farmers
        self.small_city = small_city
        self.problems: list[str] = []
        self.book = CastleBook()

    def flood(self, start: Node) -> tuple[set[Node], bool]:
        """Every segment of the feature of ``start``, and whether it is closed (no road or
        city end leads off the board)."""
        seen = {start}
        todo = [start]
        closed = True
        while todo:
            x, y, seg = todo.pop()
            tile = self.board[(x, y)]
            for part in tile.sides[seg]:
                side = part[0]
                dx, dy = _STEP[side]
                other = self.board.get((x + dx, y + dy))
                if other is None:
                    closed = False
                    continue
                if tile.kind[seg] == "field":
                    nxt = other.by_half.get(_HALF_ACROSS[part])
                else:
                    nxt = other.by_side.get(_ACROSS[side])
                if nxt is not None and (x + dx, y + dy, nxt) not in seen:
                    seen.add((x + dx, y + dy, nxt))
                    todo.append((x + dx, y + dy, nxt))
        return seen, closed

    def around(self, x: int, y: int) -> int:
        """How many of the eight squares around ``(x, y)`` hold a tile."""
        return sum(
            (x + dx, y + dy) in self.board for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy
        )

    def award(self, nodes: Iterable[Node], points: int) -> None:
        """The majority of the followers on ``nodes`` score ``points``; they return."""
        owners = [self.followers.pop(n) for n in sorted(nodes) if n in self.followers]
        if owners:
            top = max(owners.count(p) for p in owners)
            for player in set(owners):
                if owners.count(player) == top:
                    self.scores[player] += points

    def place(self, step: Placement, first: bool) -> None:
        """Lay one tile of the history (checking it fits unless it is the start tile),
        stand its follower (checking the feature was free), then score the roads and
        cities it closes and the monasteries it surrounds."""
        tile = turned(step.tile, step.rotation)
        where = (step.x, step.y)
        if step.bridge is not None:
            self._bridge(step, tile)
        if not first:
            self._check_fit(step, tile)
        self.board[where] = tile
        if step.follower is not None:
            node = (step.x, step.y, step.follower)
            nodes = {node} if tile.kind[step.follower] == "monastery" else self.flood(node)[0]
            if nodes & set(self.followers):
                self.problems.append(f"A follower was deployed on an occupied feature at {where}.")
            if list(self.followers.values()).count(step.player) >= 7:
                self.problems.append(f"Seat {step.player} deployed an eighth follower.")
            self.followers[node] = step.player
        seen: set[Node] = set()
        done: list[Done] = []
        for seg, kind in tile.kind.items():
            if kind in ("road", "city") and (step.x, step.y, seg) not in seen:
                nodes, closed = self.flood((step.x, step.y, seg))
                seen |= nodes
                if closed:
                    done.append((kind, nodes, self.value(kind, nodes, True)))
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                at = (step.x + dx, step.y + dy)
                if at in self.board and self.board[at].monastery and self.around(*at) == 8:
                    done.append(("monastery", {(at[0], at[1], "m0")}, 9))
        self.book.letters[where] = step.tile
        index = len(self.book.letters) - 1
        done = settle(
            self.book, done, set(step.castles), self.award, followers=self.followers, index=index
        )
        self.book.trigger(done, index, list(step.fiefs), self.followers, self.scores)

    def _bridge(self, step: Placement, tile: _Turned) -> None:
        """The turn's bridge: on the new tile, or on a placed tile beside it whose bridge
        ends face no placed tile."""
        assert step.bridge is not None
        x, y, axis = step.bridge
        if (x, y) == (step.x, step.y):
            target = tile
        else:
            target = self.board.get((x, y), _Turned("CCCC"))
            ends = "NS" if axis == "NS" else "EW"
            if abs(x - step.x) + abs(y - step.y) != 1 or any(
                (x + _STEP[e][0], y + _STEP[e][1]) in self.board for e in ends
            ):
                self.problems.append(f"The bridge at {(x, y)} was laid illegally.")
        if not bridged(target, axis):
            self.problems.append(f"The bridge at {(x, y)} is not between two field edges.")

    def _check_fit(self, step: Placement, tile: _Turned) -> None:
        touching = 0
        for i, side in enumerate(_SIDES):
            dx, dy = _STEP[side]
            other = self.board.get((step.x + dx, step.y + dy))
            if other is not None:
                touching += 1
                if other.edges[_SIDES.index(_ACROSS[side])] != tile.edges[i]:
                    self.problems.append(f"The tile at {(step.x, step.y)} does not match.")
        if (step.x, step.y) in self.board or not touching:
            self.problems.append(f"The tile at {(step.x, step.y)} was placed illegally.")

    def value(self, kind: str, nodes: set[Node], complete: bool) -> int:
        """What a road or city made of ``nodes`` is worth, complete or at the end."""
        tiles = len({(x, y) for x, y, _ in nodes})
        pennants = sum(self.board[(x, y)].pennants.get(s, 0) for x, y, s in nodes)
        if kind == "road":
            return tiles
        if not complete:
            return tiles + pennants
        if tiles == 2:
            return self.small_city + 2 * pennants
        return 2 * tiles + 2 * pennants

    def finish(self) -> None:
        """The final scoring: occupied castles emptied, incomplete features, then the
        farms."""
        self.book.vacate(self.followers)
        for node in sorted(set(self.followers)):
            if node not in self.followers:
                continue
            x, y, seg = node
            kind = self.board[(x, y)].kind[seg]
            if kind == "monastery":
                self.award([node], 1 + self.around(x, y))
            elif kind != "field":
                nodes, _ = self.flood(node)
                self.award(nodes, self.value(kind, nodes, False))
        self.farms()

    def farms(self) -> None:
        """Each farm with farmers, the completed cities it supplies, paid by variant."""
        cities: dict[Node, tuple[Node, bool]] = {}
        farms: list[tuple[list[int], list[Node]]] = []
        seen: set[Node] = set()
        for node in sorted(self.followers):
            if node in seen:
                continue
            nodes, _ = self.flood(node)
            seen |= nodes
            supplied: set[Node] = set()
            for x, y, seg in nodes:
                for city in self.board[(x, y)].cities.get(seg, []):
                    if (x, y, city) not in cities:
                        members, closed = self.flood((x, y, city))
                        for member in members:
                            cities[member] = (min(members), closed)
                    name, closed = cities[(x, y, city)]
                    if closed:
                        supplied.add(name)
            owners = [self.followers[n] for n in nodes if n in self.followers]
            farms.append((owners, sorted(supplied)))
        pay_farms(farms, self.farmers, self.scores, self.book.names())


def recount(
    players: int, farmers: str, small_city: int, history: Iterable[Placement], paid: book.Pay = ()
) -> tuple[list[int], list[str]]:
    """The final scores of a game replayed from its placements (the first one is the start
    tile) and its recorded auction payments (rules "Bazaars"), and the rule violations."""
    work = Recount(players, farmers, small_city)
    for index, step in enumerate(history):
        work.place(step, index == 0)
    work.finish()
    book.pay_auctions(work.scores, paid)
    return work.scores, work.problems + work.book.problems
