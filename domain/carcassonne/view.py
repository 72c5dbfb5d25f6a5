"""What players and spectators see of a game of Carcassonne, its summary and its outcome
(docs/carcassonne.md, "Base game": the table, the followers and the drawn tile are
public — "draw a tile, show it". The stack is a count per type and never an order, so there
is nothing hidden to redact: every viewer sees the same; docs/carcassonne.md, "View").
"""

from __future__ import annotations

from typing import Any, NotRequired

from typing_extensions import TypedDict

from domain.carcassonne.board import surrounded
from domain.carcassonne.events import Segment, Square
from domain.carcassonne.expansion import EXPANSION
from domain.carcassonne.expansion.bazaars.auction import deciding
from domain.carcassonne.expansion.castles.events import FiefOption
from domain.carcassonne.expansion.castles.sites import squares_json
from domain.carcassonne.farms import CASTLE_POINTS, describe
from domain.carcassonne.grid import xy
from domain.carcassonne.scoring import incomplete_value, ref
from domain.carcassonne.state import (
    NODE_BITS,
    OVER,
    PHASE_NAMES,
    PLAY,
    CarcassonneState,
    Feature,
)
from domain.carcassonne.tiles import (
    AXES,
    CITY,
    FIELD,
    KIND_NAMES,
    MONASTERY,
    ORIENTATIONS,
    ROLES,
    ROTATIONS,
    TYPES,
)
from domain.jsonvalue import copy_json
from domain.protocol import Outcome, Viewer


class FeatureView(TypedDict):
    """An incomplete road, city or monastery, or a field with farmers: its segments, the
    seats of its followers and what it would score at the end as it stands."""

    kind: str
    segments: list[Segment]
    followers: list[int]
    value: int
    tiles: NotRequired[int]
    open_ends: NotRequired[int]
    pennants: NotRequired[int]
    completed_cities: NotRequired[int]


class TileView(TypedDict):
    """A tile on the table; with the expansion its ``bridge`` axis (``null``: none)."""

    x: int
    y: int
    tile: str
    rotation: int
    edges: str
    placed_by: int | None
    bridge: NotRequired[str | None]


class FollowerView(TypedDict):
    """A follower on the table and its role (knight, thief, farmer, monk)."""

    player: int
    x: int
    y: int
    segment: str
    role: str


class PlayerView(TypedDict):
    """A seat's score and supply; with the expansion its bridge and castle tokens."""

    seat: int
    score: int
    followers: int
    bridges: NotRequired[int]
    castles: NotRequired[int]


OptionsView = TypedDict(
    "OptionsView",
    {"farmers": str, "small-city-points": int, "expansions": NotRequired[list[str]]},
)
"""The options that shape the table."""


class CastleView(TypedDict):
    """A castle (expansion, rules "Castles"): a segment of its city, its owner, its squares
    and fief, whether its follower still stands, the points it scored (``null``: not yet)."""

    at: Segment
    player: int
    tiles: list[Square]
    fief: list[Square]
    occupied: bool
    points: int | None


class DecisionView(TypedDict):
    """The castle decision the game waits for: ``kind`` (``castle`` or ``fief``), who
    decides, the city or castle, and for a fief the features it may score."""

    kind: str
    player: int
    at: Segment
    options: NotRequired[list[FiefOption]]


class BazaarView(TypedDict):
    """The bazaar under way (expansion, rules "Bazaars"; docs/carcassonne.md, "View")."""

    active: int
    variant: str
    stage: str
    tiles: list[str]
    won: list[str | None]
    auctioneer: int
    lot: str | None
    bid: int
    bidder: int
    queue: list[int]
    turns: list[int]


class CarcassonneView(TypedDict):
    """What every viewer sees (docs/carcassonne.md, "View"); with the expansion also the
    castles, the pending castle decision and the bazaar."""

    game: str
    options: OptionsView
    phase: str
    turn: int
    current_players: list[int]
    viewer: int | None
    tile_in_hand: str | None
    tiles_left: int
    stack: dict[str, int]
    discarded: list[str]
    board: list[TileView]
    followers: list[FollowerView]
    features: list[FeatureView]
    players: list[PlayerView]
    scores: list[int]
    castles: NotRequired[list[CastleView]]
    decision: NotRequired[DecisionView | None]
    bazaar: NotRequired[BazaarView | None]


def _feature(state: CarcassonneState, first: int, feature: Feature) -> dict[str, Any]:
    seats = sorted(state.followers[pos][0] for pos in feature.followers)
    out: dict[str, Any] = {
        "kind": KIND_NAMES[feature.kind],
        "segments": [ref(state, node) for node in sorted(feature.nodes)],
        "followers": seats,
    }
    if feature.kind == FIELD:
        cities = {state.feat[node] for node in feature.cities}
        castles = {site.fid for site in state.sites}
        done = [c for c in cities if state.features[c].complete]
        out["completed_cities"] = len(done)
        points = describe(state.farmers)["city_points"]
        out["value"] = sum(CASTLE_POINTS if c in castles else points for c in done)
        return out
    if feature.kind == MONASTERY:
        tiles = 1 + surrounded(state, state.tiles[first >> NODE_BITS][0])
    else:
        tiles = len(feature.tiles)
        out["open_ends"] = feature.open
    out["tiles"] = tiles
    if feature.kind == CITY:
        out["pennants"] = feature.pennants
    out["value"] = incomplete_value(feature.kind, tiles, feature.pennants)
    return out


def open_features(state: CarcassonneState) -> list[dict[str, Any]]:
    """Every incomplete road, city and monastery, and every field with farmers, with its
    segments, the seats of its followers and what it would score at the end as it stands."""
    found = sorted(
        (min(f.nodes), f)
        for f in state.features.values()
        if not f.complete and (f.kind != FIELD or f.followers)
    )
    return [_feature(state, first, feature) for first, feature in found]


def _board(state: CarcassonneState) -> list[dict[str, Any]]:
    """Every tile; with the expansion also its ``bridge`` axis (``null``: none; its edges
    show the bridged field edges as road edges)."""
    bridges = {pos: AXES[axis] for _, pos, axis in state.bridge_log}
    out = []
    for pos, kind, turns, player in state.tiles:
        x, y = xy(pos)
        tile = {
            "x": x,
            "y": y,
            "tile": TYPES[kind].letter,
            "rotation": ROTATIONS[turns],
            "edges": ORIENTATIONS[kind][turns].edges,
            "placed_by": None if player < 0 else player,
        }
        if state.expansion:
            tile["bridge"] = bridges.get(pos)
        out.append(tile)
    return out


def _followers(state: CarcassonneState) -> list[dict[str, Any]]:
    out = []
    for pos, (player, segment) in sorted(state.followers.items()):
        x, y = xy(pos)
        piece = TYPES[state.tiles[state.board[pos]][1]].segments[segment]
        out.append(
            {"player": player, "x": x, "y": y, "segment": piece.id, "role": ROLES[piece.kind]}
        )
    return out


def _options(state: CarcassonneState) -> dict[str, Any]:
    options: dict[str, Any] = {"farmers": state.farmers, "small-city-points": state.small_city}
    if state.expansion:
        options["expansions"] = [EXPANSION]
    return options


def _player(state: CarcassonneState, seat: int) -> dict[str, Any]:
    """A seat's score and supply; with the expansion its bridge and castle tokens too."""
    out = {"seat": seat, "score": state.scores[seat], "followers": state.supply[seat]}
    if state.expansion:
        out |= {"bridges": state.bridges[seat], "castles": state.castles[seat]}
    return out


def view(state: CarcassonneState, viewer: Viewer) -> dict[str, Any]:
    """The table as JSON-ready data (docs/carcassonne.md, "View"). Every viewer sees the
    same, apart from the echoed ``viewer`` seat."""
    in_hand = TYPES[state.in_hand].letter if state.in_hand >= 0 else None
    return {
        "game": "carcassonne",
        "options": _options(state),
        "phase": PHASE_NAMES[state.phase],
        "turn": state.turn,
        "current_players": acting(state),
        "viewer": viewer.seat,
        "tile_in_hand": in_hand,
        "tiles_left": state.tiles_left,
        "stack": {TYPES[k].letter: n for k, n in enumerate(state.stack) if n},
        "discarded": [TYPES[k].letter for k in state.discarded],
        "board": _board(state),
        "followers": _followers(state),
        "features": open_features(state),
        "players": [_player(state, seat) for seat in range(state.players)],
        "scores": list(state.scores),
    } | (castles_view(state) if state.expansion else {})


def acting(state: CarcassonneState) -> list[int]:
    """Who must act: the seat deciding a castle question, the seat acting in an auction
    (:func:`domain.carcassonne.expansion.bazaars.auction.deciding`), else the seat holding
    the drawn tile; nobody before the first draw or after the end."""
    if state.pending is not None:
        return [state.pending["player"]]
    seat = deciding(state)
    if seat >= 0:
        return [seat]
    return [state.current] if state.phase == PLAY else []


def castles_view(state: CarcassonneState) -> dict[str, Any]:
    """With the expansion: every castle (``at`` a segment of its city, ``player``,
    ``tiles``, ``fief``, ``occupied``, ``points`` once it scored, else ``null``) and the
    pending castle ``decision`` (``null`` when none): ``kind``, ``player``, ``at`` and the
    fief ``options``."""
    castles = [
        {
            "at": ref(state, site.node),
            "player": site.owner,
            "tiles": squares_json(site.squares),
            "fief": squares_json(site.fief),
            "occupied": site.follower >= 0,
            "points": site.points if site.scored >= 0 else None,
        }
        for site in state.sites
    ]
    bazaar = None if state.bazaar is None else copy_json(state.bazaar)
    return {"castles": castles, "decision": copy_json(state.pending), "bazaar": bazaar}


def summary(state: CarcassonneState) -> dict[str, Any]:
    """``scores`` (per seat), ``turn``, ``tiles_left``, ``phase`` and ``finished``."""
    return {
        "scores": list(state.scores),
        "turn": state.turn,
        "tiles_left": state.tiles_left,
        "phase": PHASE_NAMES[state.phase],
        "finished": state.phase == OVER,
    }


def outcome(state: CarcassonneState) -> Outcome | None:
    """``None`` until ``GameEnded``; then final scores, ranks and winners, with the points
    per seat from play, from incomplete features and from farms as details."""
    result = state.result
    if state.phase != OVER or result is None:
        return None
    return Outcome(
        scores=list(state.scores),
        ranks=list(result["ranks"]),
        winners=list(result["winners"]),
        details={"breakdown": {k: list(v) for k, v in result["breakdown"].items()}},
    )
