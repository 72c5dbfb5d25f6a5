"""The state of a game of Carcassonne: the table after every event (docs/carcassonne.md,
"Base game": the start tile, the stack, 7 followers each, the features as they grow).

Everything here is derived from events by :mod:`domain.carcassonne.evolve` (and the start
tile by :func:`new_state`); nothing here draws random numbers. The stack is a count per tile
type, never an order: tiles are drawn on demand (docs/carcassonne.md, "Draw on demand").

The state's JSON form for snapshots (:func:`state_to_json` / :func:`state_from_json`, the
protocol's) is at the end of this module: squares, tile types and feature ids stay the
engine's own integers; dictionaries become lists of pairs in their order (the order of the
frontier is the order of the legal moves), sets become sorted lists, and
``state_from_json(state_to_json(s)) == s`` for every state.

Features are tracked incrementally. Every segment of a placed tile is a *node*
``k * 16 + i`` (tile ``k`` in placement order, segment ``i`` of its type); ``feat[node]`` is
the id of the feature it belongs to, and ``features[id]`` the feature itself. When a tile
joins features, the smaller ones are relabelled into the largest, so a lookup is one index.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from domain.carcassonne.decisions import Bazaar, Decision
from domain.carcassonne.tiles import BASE_COUNTS, TYPES
from domain.jsonvalue import copy_json

FOLLOWERS: Final = 7
"""Followers per player in supply at the start (rules, "Base game")."""
SETUP: Final = 0
"""The start tile lies on the table; nothing has been drawn yet."""
PLAY: Final = 1
"""A player holds a drawn tile and must place it."""
OVER: Final = 2
"""``GameEnded`` has been recorded."""
PHASE_NAMES: Final = ("setup", "play", "over")
NODE_BITS: Final = 4
"""``node = k << NODE_BITS | segment`` (at most 16 segments per tile)."""
NO_FEATURE: Final = -1
TILES: Final = sum(BASE_COUNTS)
"""Tiles of the base game, the start tile included (rules, "Base game": 72)."""


@dataclass(slots=True)
class Feature:
    """One road, city, field or monastery as it stands (rules, "Scoring a completed
    feature"; "Final scoring").

    ``open`` counts the road or city ends that still lead off the placed tiles (0 means
    complete); ``tiles`` are the squares it covers (a tile counts once even when two of its
    segments belong to the feature); ``followers`` the squares whose follower stands on it;
    ``cities`` (fields) the city nodes it borders."""

    kind: int
    nodes: list[int]
    tiles: set[int]
    open: int
    pennants: int
    followers: list[int]
    cities: list[int]
    complete: bool
    stamp: int = 0
    """The state's ``clock`` when the feature last merged with another or its followers
    went from none to some or back (caches of :mod:`domain.carcassonne.placement` check it)."""
    owner: object = field(default=None, compare=False, repr=False)
    """The :attr:`CarcassonneState.key` of the one state that may change this feature in
    place (:func:`writable`); any other state holding it shares it with a copy, and a
    feature made without one (``None``) is no state's own. Not part of the feature."""

    def clone(self, owner: object = None) -> Feature:
        """An independent copy, the own feature of the state whose key is ``owner``."""
        return Feature(
            self.kind,
            self.nodes.copy(),
            self.tiles.copy(),
            self.open,
            self.pennants,
            self.followers.copy(),
            self.cities.copy(),
            self.complete,
            self.stamp,
            owner,
        )


@dataclass(slots=True)
class Castle:
    """A castle (expansion, rules "Castles"): the city of two caps it stands on (feature
    ``fid``, first node ``node``), its owner, its two squares and its fief (6 squares),
    the turn it was built in, the square of its follower (-1 once it returned), and the
    turn it scored in (-1: not yet) with the points it scored."""

    owner: int
    fid: int
    node: int
    squares: tuple[int, int]
    fief: tuple[int, ...]
    built: int
    follower: int
    scored: int = -1
    points: int = 0

    def clone(self) -> Castle:
        """An independent copy (every field is an int or a tuple)."""
        return Castle(
            self.owner,
            self.fid,
            self.node,
            self.squares,
            self.fief,
            self.built,
            self.follower,
            self.scored,
            self.points,
        )


CASTLE_FIELDS: Final = (
    "owner",
    "fid",
    "node",
    "squares",
    "fief",
    "built",
    "follower",
    "scored",
    "points",
)


@dataclass(slots=True)
class CarcassonneState:
    """The whole state of one game; per-player lists are indexed by seat."""

    players: int
    farmers: str
    """The farmer scoring variant: ``per-field``, ``per-city`` or ``per-field-once``."""
    small_city: int
    """Points for the tiles of a completed two-tile city (4 normally, 2 in the 2000
    edition; option ``small-city-points``)."""
    phase: int
    turn: int
    """Tiles placed by players so far (the start tile not counted)."""
    current: int
    """The seat holding the drawn tile (-1 before the first draw and at the end)."""
    in_hand: int
    """The type of the drawn tile, or -1."""
    stack: list[int]
    """Tiles not yet drawn, per type (catalogue order)."""
    discarded: list[int]
    """Types of the tiles discarded because they fitted nowhere, in order."""
    board: dict[int, int]
    """Square -> index ``k`` of the tile on it."""
    tiles: list[tuple[int, int, int, int]]
    """Per placed tile ``k``: (square, type, quarter turns, seat that placed it; -1 for the
    start tile)."""
    deployed: list[int]
    """Per placed tile ``k``: the segment its player deployed a follower on, or -1 (kept
    after the follower returns: the history the recount replays)."""
    frontier: dict[int, int]
    """Every empty square next to a placed tile -> its constraint code
    (:mod:`domain.carcassonne.tiles`)."""
    feat: list[int]
    features: dict[int, Feature]
    monasteries: dict[int, int]
    """Square -> feature id of every monastery not yet surrounded."""
    followers: dict[int, tuple[int, int]]
    """Square -> (owner, segment) of the follower standing on that tile (at most one)."""
    supply: list[int]
    scores: list[int]
    random_position: int
    clock: int
    """Counts the feature changes that stamp features (see :attr:`Feature.stamp`)."""
    result: dict[str, Any] | None
    """The data of ``GameEnded`` once the game is over."""
    script: list[int] = field(default_factory=list)
    """Scenario games (option ``stack``): the listed types still to be drawn, in order; the
    next draw takes the first of them and no random number (docs/carcassonne.md)."""
    total: int = TILES
    """Tiles in the game: 72 (84 with the expansion), or the start tile and the listed ones
    with ``stack-only``."""
    expansion: bool = False
    """Bridges, Castles & Bazaars is played (option ``expansions``)."""
    bridges: list[int] = field(default_factory=list)
    """With the expansion: bridge tokens per seat in supply (empty without)."""
    castles: list[int] = field(default_factory=list)
    """With the expansion: castle tokens per seat in supply (empty without)."""
    bridge_log: list[tuple[int, int, int]] = field(default_factory=list)
    """Every bridge in the order laid: (tiles placed before the turn's tile, square, axis
    0 N-S / 1 W-E as on the table); the history the recount replays."""
    sites: list[Castle] = field(default_factory=list)
    """With the expansion: every castle built, in order (rules, "Castles")."""
    pending: Decision | None = None
    """A castle decision the game waits for (JSON-safe; :class:`Decision`)."""
    fief_log: list[tuple[int, int, int, str]] = field(default_factory=list)
    """Every fief choice made: (tiles placed, x, y, segment of the chosen feature); the
    history the recount replays."""
    bazaar: Bazaar | None = None
    """A bazaar under way (expansion, rules "Bazaars"; JSON-safe; :class:`Bazaar`)."""
    bazaar_variant: str = "auction"
    """Option ``bazaar``: ``"auction"`` or ``"no-auction"``."""
    payments: list[tuple[int, int, int]] = field(default_factory=list)
    """Every auction payment: (payer, payee or -1 for nobody, points); the recount adds them."""
    first_player: int = -1
    """The seat that plays first (rules, "Base game"): fixed by the option ``first_player``
    (a scenario: seat 0 unless given), else -1 until ``FirstPlayerChosen`` records the draw."""
    memo: Any = field(default=None, compare=False, repr=False)
    """The last placement analysed (:func:`domain.carcassonne.board.analyse`) with its
    key, so that ``evolve`` does not redo what ``apply`` just did; not part of the state."""
    slot_cache: dict[int, Any] = field(default_factory=dict, compare=False, repr=False)
    """Per frontier square, what :func:`domain.carcassonne.placement.square_slots` found,
    with the stamps of the features it depends on; not part of the state."""
    bridge_memo: Any = field(default=None, compare=False, repr=False)
    """With the expansion, the bridges placed tiles beside the frontier can take, with its
    key (:func:`domain.carcassonne.expansion.bridges.placement.bridge_placements`); not part
    of the state, and never given to a copy."""
    feat_shared: bool = field(default=False, compare=False, repr=False)
    """``feat`` is the list of a copy too (:meth:`clone`): a handler copies it before
    changing it (:func:`writable_feat`). Not part of the state."""
    key: object = field(default_factory=object, compare=False, repr=False)
    """This state's key: a feature whose :attr:`Feature.owner` it is may be changed in place
    by this state's handlers; any other is shared with a copy (:func:`writable`). Not part
    of the state."""

    def clone(self) -> CarcassonneState:
        """An independent copy (docs/carcassonne.md, "Performance": copy on write). Its
        lists and dicts are copied, castles and decisions too; the features are shared
        until changed: both this state and the copy get a new :attr:`key`, so neither owns
        a feature any more, and whichever changes one first changes a clone of it
        (:func:`writable`); ``feat``, the longest list, is shared the same way
        (:func:`writable_feat`)."""
        self.key = object()
        self.feat_shared = True
        return CarcassonneState(
            self.players,
            self.farmers,
            self.small_city,
            self.phase,
            self.turn,
            self.current,
            self.in_hand,
            self.stack.copy(),
            self.discarded.copy(),
            self.board.copy(),
            self.tiles.copy(),
            self.deployed.copy(),
            self.frontier.copy(),
            self.feat,
            self.features.copy(),
            self.monasteries.copy(),
            self.followers.copy(),
            self.supply.copy(),
            self.scores.copy(),
            self.random_position,
            self.clock,
            None if self.result is None else copy_json(self.result),
            self.script.copy(),
            self.total,
            self.expansion,
            self.bridges.copy(),
            self.castles.copy(),
            self.bridge_log.copy(),
            [site.clone() for site in self.sites],
            None if self.pending is None else copy_decision(self.pending),
            self.fief_log.copy(),
            None if self.bazaar is None else copy_bazaar(self.bazaar),
            self.bazaar_variant,
            self.payments.copy(),
            self.first_player,
            self.memo,
            self.slot_cache.copy(),
            feat_shared=True,
        )

    @property
    def tiles_left(self) -> int:
        """Tiles still in the stack."""
        return sum(self.stack)


def writable(state: CarcassonneState, fid: int) -> Feature:
    """Feature ``fid`` of ``state``, for a handler to change in place (docs/carcassonne.md,
    "Performance": copy on write): the state's own, or else (shared with a copy since
    :meth:`CarcassonneState.clone`) replaced in ``state`` by a clone that is its own first.
    Every change to a feature goes through here; reading needs nothing."""
    feature = state.features[fid]
    if feature.owner is not state.key:
        feature = feature.clone(state.key)
        state.features[fid] = feature
    return feature


def writable_feat(state: CarcassonneState) -> list[int]:
    """``state.feat``, for a handler to change in place (docs/carcassonne.md, "Performance":
    copy on write): copied first when it is shared with a copy since
    :meth:`CarcassonneState.clone`. Every change to ``feat`` goes through here."""
    if state.feat_shared:
        state.feat = state.feat.copy()
        state.feat_shared = False
    return state.feat


def copy_decision(decision: Decision) -> Decision:
    """An independent copy of a castle decision (:class:`Decision`): its square and its
    options, each with its own square."""
    copy = decision.copy()
    copy["at"] = decision["at"].copy()
    if "options" in decision:
        options = []
        for option in decision["options"]:
            part = option.copy()
            part["at"] = option["at"].copy()
            options.append(part)
        copy["options"] = options
    return copy


def copy_bazaar(bazaar: Bazaar) -> Bazaar:
    """An independent copy of a bazaar under way (:class:`Bazaar`): its lists copied."""
    copy = bazaar.copy()
    copy["tiles"] = bazaar["tiles"].copy()
    copy["won"] = bazaar["won"].copy()
    copy["queue"] = bazaar["queue"].copy()
    copy["turns"] = bazaar["turns"].copy()
    return copy


def stamp(state: CarcassonneState, feature: Feature) -> None:
    """Mark ``feature`` (one of ``state``'s own, :func:`writable`) as changed for the caches
    (:attr:`Feature.stamp`)."""
    state.clock += 1
    feature.stamp = state.clock


def empty_state(players: int, farmers: str, small_city: int) -> CarcassonneState:
    """A table with nothing on it and the 72 base tiles in the stack."""
    return CarcassonneState(
        players=players,
        farmers=farmers,
        small_city=small_city,
        phase=SETUP,
        turn=0,
        current=-1,
        in_hand=-1,
        stack=list(BASE_COUNTS),
        discarded=[],
        board={},
        tiles=[],
        deployed=[],
        frontier={},
        feat=[],
        features={},
        monasteries={},
        followers={},
        supply=[FOLLOWERS] * players,
        scores=[0] * players,
        random_position=0,
        clock=0,
        result=None,
    )


FORMAT = 1
"""Bumped whenever the layout below changes."""


def _feature_to_json(fid: int, f: Feature) -> list[Any]:
    return [
        fid,
        f.kind,
        list(f.nodes),
        sorted(f.tiles),
        f.open,
        f.pennants,
        list(f.followers),
        list(f.cities),
        f.complete,
        f.stamp,
    ]


def state_to_json(state: CarcassonneState) -> dict[str, Any]:
    """Every field of the state as JSON-safe primitives."""
    return {
        "format": FORMAT,
        "players": state.players,
        "farmers": state.farmers,
        "small_city": state.small_city,
        "phase": state.phase,
        "turn": state.turn,
        "current": state.current,
        "in_hand": state.in_hand,
        "stack": list(state.stack),
        "discarded": list(state.discarded),
        "tiles": [list(tile) for tile in state.tiles],
        "deployed": list(state.deployed),
        "frontier": [[pos, code] for pos, code in state.frontier.items()],
        "feat": list(state.feat),
        "features": [_feature_to_json(fid, f) for fid, f in state.features.items()],
        "monasteries": [[pos, fid] for pos, fid in state.monasteries.items()],
        "followers": [[pos, owner, seg] for pos, (owner, seg) in state.followers.items()],
        "supply": list(state.supply),
        "scores": list(state.scores),
        "random_position": state.random_position,
        "clock": state.clock,
        "result": None if state.result is None else copy_json(state.result),
        "script": list(state.script),
        "total": state.total,
        "expansion": state.expansion,
        "bridges": list(state.bridges),
        "castles": list(state.castles),
        "bridge_log": [list(entry) for entry in state.bridge_log],
        "sites": [
            [
                getattr(site, name)
                if name not in ("squares", "fief")
                else list(getattr(site, name))
                for name in CASTLE_FIELDS
            ]
            for site in state.sites
        ],
        "pending": None if state.pending is None else copy_json(state.pending),
        "fief_log": [list(entry) for entry in state.fief_log],
        "bazaar": None if state.bazaar is None else copy_json(state.bazaar),
        "bazaar_variant": state.bazaar_variant,
        "payments": [list(entry) for entry in state.payments],
        "first_player": state.first_player,
    }


def _padded(stack: list[int]) -> list[int]:
    """A stack saved before the bridged variants joined the tile types, given their (zero)
    counts."""
    return list(stack) + [0] * (len(TYPES) - len(stack))


def state_from_json(data: dict[str, Any]) -> CarcassonneState:
    """The state that :func:`state_to_json` gave ``data`` for."""
    tiles = [(pos, kind, turns, player) for pos, kind, turns, player in data["tiles"]]
    return CarcassonneState(
        players=data["players"],
        farmers=data["farmers"],
        small_city=data["small_city"],
        phase=data["phase"],
        turn=data["turn"],
        current=data["current"],
        in_hand=data["in_hand"],
        stack=_padded(data["stack"]),
        discarded=list(data["discarded"]),
        board={tile[0]: k for k, tile in enumerate(tiles)},
        tiles=tiles,
        deployed=list(data["deployed"]),
        frontier={pos: code for pos, code in data["frontier"]},
        feat=list(data["feat"]),
        features={
            fid: Feature(
                kind, list(nodes), set(squares), ends, pennants, list(on), list(cities), done, stamp
            )
            for fid, kind, nodes, squares, ends, pennants, on, cities, done, stamp in data[
                "features"
            ]
        },
        monasteries={pos: fid for pos, fid in data["monasteries"]},
        followers={pos: (owner, seg) for pos, owner, seg in data["followers"]},
        supply=list(data["supply"]),
        scores=list(data["scores"]),
        random_position=data["random_position"],
        clock=data["clock"],
        result=None if data["result"] is None else copy_json(data["result"]),
        script=list(data.get("script", [])),
        total=data.get("total", TILES),
        expansion=data.get("expansion", False),
        bridges=list(data.get("bridges", [])),
        castles=list(data.get("castles", [])),
        bridge_log=[(k, pos, axis) for k, pos, axis in data.get("bridge_log", [])],
        sites=[_site(entry) for entry in data.get("sites", [])],
        pending=None if data.get("pending") is None else copy_json(data["pending"]),
        fief_log=[(k, x, y, seg) for k, x, y, seg in data.get("fief_log", [])],
        bazaar=None if data.get("bazaar") is None else copy_json(data["bazaar"]),
        bazaar_variant=data.get("bazaar_variant", "auction"),
        payments=[(a, b, n) for a, b, n in data.get("payments", [])],
        first_player=data.get("first_player", 0),
    )


def _site(entry: list[Any]) -> Castle:
    owner, fid, node, squares, fief, built, follower, scored, points = entry
    return Castle(
        owner, fid, node, (squares[0], squares[1]), tuple(fief), built, follower, scored, points
    )
