"""The castle part of a turn (expansion; docs/carcassonne.md, "Castles"): after the
placement and the deployment, the completed features are scored in order, each city of two
caps with one follower stopping for its owner's choice (``CastleOffered``; the move
:class:`~domain.carcassonne.moves.CastleChoice`); then every castle built in an earlier
turn with a completed feature in its fief — or, in a chain, a castle that scored this turn
with a tile in it — scores, its owner choosing when there are several
(``FiefOffered``; the move :class:`~domain.carcassonne.moves.FiefChoice`). The turn
sequence then resumes with the next draw.

Everything is worked out on a clone of the state (``work``) with the turn's events evolved
as they are made, so a decision is resumed from the state alone (docs/carcassonne.md,
"Castles").
"""

from __future__ import annotations

from domain.carcassonne.castles import (
    fief_of,
    options_for,
    owner_if_castle,
    site_of,
    squares_json,
    turn_features,
    value_of,
)
from domain.carcassonne.evolve import evolve
from domain.carcassonne.grid import pos_of
from domain.carcassonne.moves import CastleChoice, FiefChoice, Move
from domain.carcassonne.scoring import feature_event, follower_refs, ref
from domain.carcassonne.state import NODE_BITS, CarcassonneState
from domain.carcassonne.tiles import MONASTERY, TYPES
from domain.protocol import Event, IllegalMove
from domain.randomness import RandomStream


def _emit(work: CarcassonneState, events: list[Event], event: Event) -> None:
    evolve(work, event)
    events.append(event)


def _score(work: CarcassonneState, fid: int) -> list[Event]:
    feature = work.features[fid]
    if not feature.followers:
        return []
    return [
        feature_event(
            "FeatureScored",
            kind=feature.kind,
            at=ref(work, min(feature.nodes)),
            tiles=9 if feature.kind == MONASTERY else len(feature.tiles),
            pennants=feature.pennants,
            points=value_of(work, fid),
            followers=follower_refs(work, feature.followers),
        )
    ]


def resolve(work: CarcassonneState, after: int = -1) -> list[Event]:
    """The scoring of the last placed tile's completed features from the one after feature
    ``after`` (-1: from the first), then the castle triggers; stops at a decision (then
    ``work.pending`` is set). ``work`` is changed: the events are evolved into it."""
    events: list[Event] = []
    done = turn_features(work)
    for fid in done[done.index(after) + 1 if after >= 0 else 0 :]:
        owner = owner_if_castle(work, fid)
        if owner >= 0:
            feature = work.features[fid]
            offer = {
                "player": owner,
                "at": ref(work, min(feature.nodes)),
                "follower": follower_refs(work, feature.followers)[0],
                "points": value_of(work, fid),
            }
            _emit(work, events, Event("CastleOffered", offer))
            return events
        for event in _score(work, fid):
            _emit(work, events, event)
    return events + triggers(work)


def _next(work: CarcassonneState, direct: list[int]) -> tuple[int, list[dict[str, object]]] | None:
    chained = None
    for index, site in enumerate(work.sites):
        if site.follower < 0 or site.built >= work.turn:
            continue
        options = options_for(work, index, direct)
        if any(option["feature"] != "castle" for option in options):
            return index, options
        if options and chained is None:
            chained = (index, options)
    return chained


def triggers(work: CarcassonneState) -> list[Event]:
    """Every castle triggered this turn, in the order built — those with a completed
    feature in their fief first, then chains — until one needs its owner's choice."""
    events: list[Event] = []
    castles = {site.fid for site in work.sites}
    direct = [fid for fid in turn_features(work) if fid not in castles]
    while (pick := _next(work, direct)) is not None:
        index, options = pick
        site = work.sites[index]
        if len(options) > 1:
            offer = {"player": site.owner, "castle": ref(work, site.node), "options": options}
            _emit(work, events, Event("FiefOffered", offer))
            return events
        _emit(work, events, castle_scored(work, index, options[0]))
    return events


def castle_scored(work: CarcassonneState, index: int, option: dict[str, object]) -> Event:
    """``CastleScored``: castle ``index`` scores the full value of ``option``."""
    site = work.sites[index]
    data = {
        "player": site.owner,
        "castle": ref(work, site.node),
        "points": option["points"],
        "source": {"feature": option["feature"], "at": option["at"]},
        "follower": follower_refs(work, [site.follower])[0],
    }
    return Event("CastleScored", data)


def choice_moves(state: CarcassonneState) -> list[Move]:
    """The legal answers to the pending decision: castle or points; or one per feature the
    castle may score."""
    pending = state.pending
    if pending is None:
        return []
    if pending["kind"] == "castle":
        return [CastleChoice(True), CastleChoice(False)]
    return [FiefChoice(o["at"]["x"], o["at"]["y"], o["at"]["segment"]) for o in pending["options"]]


def _fid(state: CarcassonneState, at: dict[str, object]) -> int:
    x, y, segment = at["x"], at["y"], at["segment"]
    assert isinstance(x, int) and isinstance(y, int) and isinstance(segment, str)
    k = state.board[pos_of(x, y)]
    return state.feat[k << NODE_BITS | TYPES[state.tiles[k][1]].segment_index(segment)]


def play_choice(state: CarcassonneState, player: int, move: Move, rng: RandomStream) -> list[Event]:
    """The events of ``player`` answering the pending decision with ``move``, and the rest
    of the turn (scoring, triggers, the next draw or the end). Never changes ``state``."""
    from domain.carcassonne.turn import next_turn  # noqa: PLC0415 - turn imports this module

    pending = state.pending
    assert pending is not None
    if move not in choice_moves(state):
        raise IllegalMove(
            "castle-decision" if pending["kind"] == "castle" else "fief-decision",
            "Answer the castle decision: " + ", ".join(map(str, choice_moves(state))) + ".",
        )
    work = state.clone()
    events: list[Event] = []
    at = pending["at"]
    if isinstance(move, CastleChoice):
        fid = _fid(work, at)
        feature = work.features[fid]
        if move.build:
            squares = tuple(sorted(feature.tiles))
            built = {
                "player": player,
                "at": at,
                "follower": follower_refs(work, feature.followers)[0],
                "tiles": squares_json(squares),
                "fief": squares_json(fief_of(*squares)),
            }
            _emit(work, events, Event("CastleBuilt", built))
        else:
            _emit(work, events, Event("CastleDeclined", {"player": player, "at": at}))
            for event in _score(work, fid):
                _emit(work, events, event)
        events += resolve(work, fid)
    else:
        assert isinstance(move, FiefChoice)
        option = next(
            o
            for o in pending["options"]
            if (o["at"]["x"], o["at"]["y"], o["at"]["segment"]) == tuple(move)
        )
        _emit(work, events, castle_scored(work, site_of(work, at), option))
        events += triggers(work)
    if work.pending is not None:
        return events
    return events + next_turn(work, work.tiles[-1][3], rng)
