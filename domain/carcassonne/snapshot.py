"""The whole state as JSON-safe primitives and back (protocol: ``state_to_json`` /
``state_from_json``; snapshots store it, docs/architecture.md "Events are the record").

Squares, tile types and feature ids stay the engine's own integers; dictionaries become
lists of pairs in their order (the order of the frontier is the order of the legal moves),
sets become sorted lists. ``state_from_json(state_to_json(s)) == s`` for every state.
"""

from __future__ import annotations

from typing import Any

from domain.carcassonne.state import (
    CASTLE_FIELDS,
    TILES,
    CarcassonneState,
    Castle,
    Feature,
)
from domain.carcassonne.tiles import TYPES
from domain.jsonvalue import copy_json

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
