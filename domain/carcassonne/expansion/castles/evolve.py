"""How the castle and fief events change the state (docs/carcassonne.md, "Castles"; the
handlers the game's catalogue binds, :mod:`domain.carcassonne.evolve`). A castle stays the
city feature it was (complete, its follower on it); the state lists it in ``sites``
(:class:`~domain.carcassonne.state.Castle`)."""

from __future__ import annotations

from domain.carcassonne.decisions import FiefOption
from domain.carcassonne.expansion.castles.events import (
    CastleBuilt,
    CastleDeclined,
    CastleOffered,
    CastleScored,
    CastleVacated,
    FiefOffered,
)
from domain.carcassonne.expansion.castles.sites import fief_of, site_of
from domain.carcassonne.grid import pos_of
from domain.carcassonne.state import NODE_BITS, CarcassonneState, Castle, stamp, writable
from domain.carcassonne.tiles import TYPES


def _option(option: FiefOption) -> FiefOption:
    """An independent copy of a fief option (the state never shares the event's data)."""
    copy = option.copy()
    copy["at"] = option["at"].copy()
    return copy


def castle_offered(state: CarcassonneState, data: CastleOffered) -> None:
    """``CastleOffered``: the city's owner must choose, castle or points."""
    state.pending = {"kind": "castle", "player": data["player"], "at": data["at"].copy()}


def fief_offered(state: CarcassonneState, data: FiefOffered) -> None:
    """``FiefOffered``: the castle's owner must choose which feature it scores."""
    state.pending = {
        "kind": "fief",
        "player": data["player"],
        "at": data["castle"].copy(),
        "options": [_option(o) for o in data["options"]],
    }


def castle_declined(state: CarcassonneState, data: CastleDeclined) -> None:
    """``CastleDeclined``: the city is scored as usual (the ``FeatureScored`` after it)."""
    del data
    state.pending = None


def castle_built(state: CarcassonneState, data: CastleBuilt) -> None:
    """``CastleBuilt``: a castle token on the city; its follower stays; no points."""
    at = data["at"]
    k = state.board[pos_of(at["x"], at["y"])]
    fid = state.feat[k << NODE_BITS | TYPES[state.tiles[k][1]].segment_index(at["segment"])]
    feature = state.features[fid]
    a, b = sorted(feature.tiles)
    follower = data["follower"]
    state.sites.append(
        Castle(
            data["player"],
            fid,
            min(feature.nodes),
            (a, b),
            fief_of(a, b),
            state.turn,
            pos_of(follower["x"], follower["y"]),
        )
    )
    state.castles[data["player"]] -= 1
    state.pending = None


def _release(state: CarcassonneState, site: Castle) -> None:
    player, _ = state.followers.pop(site.follower)
    feature = writable(state, site.fid)
    feature.followers.remove(site.follower)
    stamp(state, feature)
    state.supply[player] += 1
    site.follower = -1


def castle_scored(state: CarcassonneState, data: CastleScored) -> None:
    """``CastleScored``: the owner gains the points; the follower returns; the token stays."""
    site = state.sites[site_of(state, data["castle"])]
    site.scored, site.points = state.turn, data["points"]
    state.scores[data["player"]] += data["points"]
    _release(state, site)
    if state.pending is not None:
        chosen = data["source"]["at"]
        state.fief_log.append((len(state.tiles), chosen["x"], chosen["y"], chosen["segment"]))
    state.pending = None


def castle_vacated(state: CarcassonneState, data: CastleVacated) -> None:
    """``CastleVacated`` (end of the game): an occupied castle scores nothing; its follower
    is removed."""
    _release(state, state.sites[site_of(state, data["castle"])])
