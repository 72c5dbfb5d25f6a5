"""What players and spectators see of a game of Carcassonne, its summary and its outcome
(docs/carcassonne.md, "Base game": the table, the followers and the drawn tile are
public — "draw a tile, show it". The stack is a count per type and never an order, so there
is nothing hidden to redact: every viewer sees the same; docs/carcassonne.md, "View").
"""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from domain.carcassonne.board import surrounded
from domain.carcassonne.decisions import Bazaar, Decision, FiefOption
from domain.carcassonne.events import Breakdown, Segment, Square
from domain.carcassonne.expansion import EXPANSION
from domain.carcassonne.expansion.bazaars.auction import deciding
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


DecisionView = Decision
"""The castle decision the game waits for, shown with exactly the fields the state holds
(:class:`~domain.carcassonne.decisions.Decision`; :func:`decision_view` copies it)."""

BazaarView = Bazaar
"""The bazaar under way, shown with exactly the fields the state holds
(:class:`~domain.carcassonne.decisions.Bazaar`; :func:`bazaar_view` copies it)."""


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


class SummaryView(TypedDict):
    """The short public summary for lists (docs/carcassonne.md, "View")."""

    scores: list[int]
    turn: int
    tiles_left: int
    phase: str
    finished: bool


def _feature(state: CarcassonneState, first: int, feature: Feature) -> FeatureView:
    """One open feature as :class:`FeatureView`, its keys in the order shown: a field's
    completed cities and value; a monastery's tiles; a road's or city's open ends and tiles
    (a city's pennants too), then the value it would score at the end."""
    kind = KIND_NAMES[feature.kind]
    segments = [ref(state, node) for node in sorted(feature.nodes)]
    seats = sorted(state.followers[pos][0] for pos in feature.followers)
    if feature.kind == FIELD:
        cities = {state.feat[node] for node in feature.cities}
        castles = {site.fid for site in state.sites}
        done = [c for c in cities if state.features[c].complete]
        points = describe(state.farmers)["city_points"]
        value = sum(CASTLE_POINTS if c in castles else points for c in done)
        return {
            "kind": kind,
            "segments": segments,
            "followers": seats,
            "completed_cities": len(done),
            "value": value,
        }
    if feature.kind == MONASTERY:
        tiles = 1 + surrounded(state, state.tiles[first >> NODE_BITS][0])
        value = incomplete_value(feature.kind, tiles, feature.pennants)
        return {
            "kind": kind,
            "segments": segments,
            "followers": seats,
            "tiles": tiles,
            "value": value,
        }
    tiles = len(feature.tiles)
    value = incomplete_value(feature.kind, tiles, feature.pennants)
    if feature.kind == CITY:
        return {
            "kind": kind,
            "segments": segments,
            "followers": seats,
            "open_ends": feature.open,
            "tiles": tiles,
            "pennants": feature.pennants,
            "value": value,
        }
    return {
        "kind": kind,
        "segments": segments,
        "followers": seats,
        "open_ends": feature.open,
        "tiles": tiles,
        "value": value,
    }


def open_features(state: CarcassonneState) -> list[FeatureView]:
    """Every incomplete road, city and monastery, and every field with farmers, with its
    segments, the seats of its followers and what it would score at the end as it stands."""
    found = sorted(
        (min(f.nodes), f)
        for f in state.features.values()
        if not f.complete and (f.kind != FIELD or f.followers)
    )
    return [_feature(state, first, feature) for first, feature in found]


def _board(state: CarcassonneState) -> list[TileView]:
    """Every tile; with the expansion also its ``bridge`` axis (``null``: none; its edges
    show the bridged field edges as road edges)."""
    bridges = {pos: AXES[axis] for _, pos, axis in state.bridge_log}
    out: list[TileView] = []
    for pos, kind, turns, player in state.tiles:
        x, y = xy(pos)
        tile: TileView = {
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


def _followers(state: CarcassonneState) -> list[FollowerView]:
    """Every follower on the table, by square."""
    out: list[FollowerView] = []
    for pos, (player, segment) in sorted(state.followers.items()):
        x, y = xy(pos)
        piece = TYPES[state.tiles[state.board[pos]][1]].segments[segment]
        out.append(
            {"player": player, "x": x, "y": y, "segment": piece.id, "role": ROLES[piece.kind]}
        )
    return out


def _options(state: CarcassonneState) -> OptionsView:
    """The options that shape the table."""
    options: OptionsView = {"farmers": state.farmers, "small-city-points": state.small_city}
    if state.expansion:
        options["expansions"] = [EXPANSION]
    return options


def _player(state: CarcassonneState, seat: int) -> PlayerView:
    """A seat's score and supply; with the expansion its bridge and castle tokens too."""
    out: PlayerView = {"seat": seat, "score": state.scores[seat], "followers": state.supply[seat]}
    if state.expansion:
        out["bridges"] = state.bridges[seat]
        out["castles"] = state.castles[seat]
    return out


def view(state: CarcassonneState, viewer: Viewer) -> CarcassonneView:
    """The table as JSON-ready data (docs/carcassonne.md, "View"). Every viewer sees the
    same, apart from the echoed ``viewer`` seat."""
    in_hand = TYPES[state.in_hand].letter if state.in_hand >= 0 else None
    out: CarcassonneView = {
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
    }
    if state.expansion:
        out["castles"] = castles_view(state)
        out["decision"] = decision_view(state.pending)
        out["bazaar"] = bazaar_view(state.bazaar)
    return out


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


def castles_view(state: CarcassonneState) -> list[CastleView]:
    """With the expansion: every castle, in the order built (``at`` a segment of its city,
    ``player``, ``tiles``, ``fief``, ``occupied``, ``points`` once it scored, else
    ``null``)."""
    return [
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


def decision_view(pending: Decision | None) -> DecisionView | None:
    """The pending castle decision (``null`` when none): ``kind``, ``player``, ``at`` and,
    for a fief, the ``options`` (a copy: the view never shares the state's data)."""
    if pending is None:
        return None
    out: DecisionView = {
        "kind": pending["kind"],
        "player": pending["player"],
        "at": pending["at"].copy(),
    }
    if "options" in pending:
        out["options"] = [_option(option) for option in pending["options"]]
    return out


def _option(option: FiefOption) -> FiefOption:
    """A copy of a fief option."""
    copy = option.copy()
    copy["at"] = option["at"].copy()
    return copy


def bazaar_view(bazaar: Bazaar | None) -> BazaarView | None:
    """The bazaar under way (``null`` when none), copied field by field."""
    if bazaar is None:
        return None
    return {
        "active": bazaar["active"],
        "variant": bazaar["variant"],
        "stage": bazaar["stage"],
        "tiles": list(bazaar["tiles"]),
        "won": list(bazaar["won"]),
        "auctioneer": bazaar["auctioneer"],
        "lot": bazaar["lot"],
        "bid": bazaar["bid"],
        "bidder": bazaar["bidder"],
        "queue": list(bazaar["queue"]),
        "turns": list(bazaar["turns"]),
    }


def summary(state: CarcassonneState) -> SummaryView:
    """``scores`` (per seat), ``turn``, ``tiles_left``, ``phase`` and ``finished``."""
    return {
        "scores": list(state.scores),
        "turn": state.turn,
        "tiles_left": state.tiles_left,
        "phase": PHASE_NAMES[state.phase],
        "finished": state.phase == OVER,
    }


class CarcassonneOutcomeDetails(TypedDict):
    """An outcome's details: per seat, the points from play, from incomplete features and
    from farms (docs/carcassonne.md, "Final scoring")."""

    breakdown: Breakdown


def outcome(state: CarcassonneState) -> Outcome | None:
    """``None`` until ``GameEnded``; then final scores, ranks and winners, with the points
    per seat from play, from incomplete features and from farms as details."""
    result = state.result
    if state.phase != OVER or result is None:
        return None
    breakdown = result["breakdown"]
    details: CarcassonneOutcomeDetails = {
        "breakdown": {
            "play": list(breakdown["play"]),
            "features": list(breakdown["features"]),
            "farms": list(breakdown["farms"]),
        }
    }
    return Outcome(
        scores=list(state.scores),
        ranks=list(result["ranks"]),
        winners=list(result["winners"]),
        details=dict(details),
    )
