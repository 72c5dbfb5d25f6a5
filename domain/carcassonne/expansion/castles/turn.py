"""The castle part of a turn (expansion; docs/carcassonne.md, "Castles"): after the
placement and the deployment, the completed features are scored in order, each city of two
caps with one follower stopping for its owner's choice (``CastleOffered``; the move
:class:`~domain.carcassonne.expansion.castles.moves.CastleChoice`); then every castle built
in an earlier turn with a completed feature in its fief — or, in a chain, a castle that
scored this turn with a tile in it — scores, its owner choosing when there are several
(``FiefOffered``; the move :class:`~domain.carcassonne.expansion.castles.moves.FiefChoice`).
The turn sequence then resumes with the next draw (:mod:`domain.carcassonne.turn`).

Every step reads the turn's state (:class:`~domain.turn.Turn`) after the events emitted so
far, so a decision is resumed from the state alone (docs/carcassonne.md, "Castles").
"""

from __future__ import annotations

from domain.carcassonne.completion import scored_event, turn_features, value_of
from domain.carcassonne.decisions import FiefOption
from domain.carcassonne.events import Segment
from domain.carcassonne.expansion.castles.events import (
    CASTLE_BUILT,
    CASTLE_DECLINED,
    CASTLE_OFFERED,
    CASTLE_SCORED,
    CASTLE_VACATED,
    FIEF_OFFERED,
)
from domain.carcassonne.expansion.castles.moves import CastleChoice, FiefChoice
from domain.carcassonne.expansion.castles.sites import (
    fief_of,
    options_for,
    owner_if_castle,
    site_of,
    squares_json,
)
from domain.carcassonne.grid import pos_of
from domain.carcassonne.scoring import follower_refs, ref
from domain.carcassonne.state import NODE_BITS, CarcassonneState
from domain.carcassonne.tiles import TYPES
from domain.errors import IllegalMove
from domain.events import Event
from domain.turn import Turn

Choice = CastleChoice | FiefChoice
"""An answer to a castle decision."""


def resolve(turn: Turn[CarcassonneState], after: int = -1) -> None:
    """Emit the scoring of the last placed tile's completed features from the one after
    feature ``after`` (-1: from the first), then the castle triggers (rules, "Castles");
    stop at a decision (then ``turn.state.pending`` is set)."""
    done = turn_features(turn.state)
    for fid in done[done.index(after) + 1 if after >= 0 else 0 :]:
        state = turn.state
        owner = owner_if_castle(state, fid)
        if owner >= 0:
            feature = state.features[fid]
            offer = CASTLE_OFFERED(
                {
                    "player": owner,
                    "at": ref(state, min(feature.nodes)),
                    "follower": follower_refs(state, feature.followers)[0],
                    "points": value_of(state, fid),
                }
            )
            turn.emit(offer)
            return
        scored = scored_event(state, fid)
        if scored is not None:
            turn.emit(scored)
    triggers(turn)


def _next(state: CarcassonneState, direct: list[int]) -> tuple[int, list[FiefOption]] | None:
    """The next castle to trigger: the first, in the order built, with a completed feature
    in its fief; else the first a chain triggers."""
    chained = None
    for index, site in enumerate(state.sites):
        if site.follower < 0 or site.built >= state.turn:
            continue
        options = options_for(state, index, direct)
        if any(option["feature"] != "castle" for option in options):
            return index, options
        if options and chained is None:
            chained = (index, options)
    return chained


def triggers(turn: Turn[CarcassonneState]) -> None:
    """Emit every castle triggered this turn, in the order built — those with a completed
    feature in their fief first, then chains — until one needs its owner's choice
    (``FiefOffered``; rules, "Castles")."""
    state = turn.state
    castles = {site.fid for site in state.sites}
    direct = [fid for fid in turn_features(state) if fid not in castles]
    while (pick := _next(state, direct)) is not None:
        index, options = pick
        site = state.sites[index]
        if len(options) > 1:
            castle = ref(state, site.node)
            turn.emit(FIEF_OFFERED({"player": site.owner, "castle": castle, "options": options}))
            return
        turn.emit(castle_scored(state, index, options[0]))
        state = turn.state


def castle_scored(state: CarcassonneState, index: int, option: FiefOption) -> Event:
    """``CastleScored``: castle ``index`` scores the full value of ``option``."""
    site = state.sites[index]
    return CASTLE_SCORED(
        {
            "player": site.owner,
            "castle": ref(state, site.node),
            "points": option["points"],
            "source": {"feature": option["feature"], "at": option["at"]},
            "follower": follower_refs(state, [site.follower])[0],
        }
    )


def choice_moves(state: CarcassonneState) -> list[Choice]:
    """The legal answers to the pending decision: castle or points; or one per feature the
    castle may score."""
    pending = state.pending
    if pending is None:
        return []
    if pending["kind"] == "castle":
        return [CastleChoice(True), CastleChoice(False)]
    return [FiefChoice(o["at"]["x"], o["at"]["y"], o["at"]["segment"]) for o in pending["options"]]


def _fid(state: CarcassonneState, at: Segment) -> int:
    """The feature of the segment ``at``."""
    k = state.board[pos_of(at["x"], at["y"])]
    return state.feat[k << NODE_BITS | TYPES[state.tiles[k][1]].segment_index(at["segment"])]


def answer(turn: Turn[CarcassonneState], player: int, move: object) -> None:
    """Emit ``player``'s answer to the pending decision and the rest of the castle steps
    (scoring, triggers; rules, "Castles"). The turn sequence resumes when
    ``turn.state.pending`` is clear. Raises ``IllegalMove`` before emitting anything."""
    state = turn.state
    pending = state.pending
    assert pending is not None
    if move not in choice_moves(state):
        raise IllegalMove(
            "castle-decision" if pending["kind"] == "castle" else "fief-decision",
            "Answer the castle decision: " + ", ".join(map(str, choice_moves(state))) + ".",
        )
    assert isinstance(move, CastleChoice | FiefChoice)
    at = pending["at"]
    if isinstance(move, CastleChoice):
        fid = _fid(state, at)
        feature = state.features[fid]
        if move.build:
            squares = tuple(sorted(feature.tiles))
            built = CASTLE_BUILT(
                {
                    "player": player,
                    "at": at,
                    "follower": follower_refs(state, feature.followers)[0],
                    "tiles": squares_json(squares),
                    "fief": squares_json(fief_of(*squares)),
                }
            )
            turn.emit(built)
        else:
            turn.emit(CASTLE_DECLINED({"player": player, "at": at}))
            scored = scored_event(turn.state, fid)
            if scored is not None:
                turn.emit(scored)
        resolve(turn, fid)
        return
    option = next(
        o
        for o in pending["options"]
        if (o["at"]["x"], o["at"]["y"], o["at"]["segment"]) == tuple(move)
    )
    turn.emit(castle_scored(state, site_of(state, at), option))
    triggers(turn)


def vacated_events(state: CarcassonneState) -> list[Event]:
    """``CastleVacated`` for every occupied castle at the end of the game, in the order
    built (rules, "End of game": no points; the follower is removed)."""
    return [
        CASTLE_VACATED(
            {
                "player": site.owner,
                "castle": ref(state, site.node),
                "follower": follower_refs(state, [site.follower])[0],
            }
        )
        for site in state.sites
        if site.follower >= 0
    ]
