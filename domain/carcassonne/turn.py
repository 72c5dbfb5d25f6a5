"""The events of a turn, emitted into a :class:`~domain.turn.Turn` (docs/carcassonne.md,
"Base game": place the drawn tile, optionally deploy one follower, score what it completed —
after the follower step —, then the next player draws; "The game ends after the turn in
which the last tile is placed"; "Final scoring"). With the expansion the turn sequence also
runs the castle, bridge and bazaar steps of :mod:`domain.carcassonne.expansion`.

Every later step reads ``turn.state``, the table after the events emitted so far, evolved by
the game's own handlers (docs/architecture.md, "One way to decide a move"). A drawn tile
that fits nowhere is discarded (``TileDiscarded``) and the same player draws again
(docs/carcassonne.md, "Draw on demand").
"""

from __future__ import annotations

from domain.carcassonne.board import Group, analyse
from domain.carcassonne.completion import Completion, completions
from domain.carcassonne.events import (
    FEATURE_SCORED,
    FOLLOWER_DEPLOYED,
    GAME_ENDED,
    TILE_DISCARDED,
    TILE_DRAWN,
    TILE_PLACED,
    Breakdown,
    Segment,
    TilePlaced,
)
from domain.carcassonne.expansion.bazaars.auction import is_bazaar
from domain.carcassonne.expansion.bazaars.turn import bazaar_turns, bid, opening
from domain.carcassonne.expansion.bridges.moves import Bridged
from domain.carcassonne.expansion.bridges.placement import placeable
from domain.carcassonne.expansion.bridges.turn import lay_bridge
from domain.carcassonne.expansion.castles.turn import answer, resolve, vacated_events
from domain.carcassonne.farms import farm_events
from domain.carcassonne.grid import pos_of, xy
from domain.carcassonne.moves import Place
from domain.carcassonne.placement import has_placement_apart
from domain.carcassonne.scoring import (
    completed_value,
    feature_scored,
    final_feature_events,
    follower_refs,
    ranking,
    ref,
)
from domain.carcassonne.stack import next_tile
from domain.carcassonne.state import NODE_BITS, CarcassonneState
from domain.carcassonne.tiles import (
    ALL_FITS,
    AXES,
    BRIDGE_AXIS,
    ORIENTATIONS,
    ROLES,
    TYPE_INDEX,
    TYPES,
)
from domain.errors import IllegalMove
from domain.events import Event
from domain.randomness import RandomStream
from domain.turn import Turn


def draw_tile(
    turn: Turn[CarcassonneState], player: int, rng: RandomStream, placed: int = -1
) -> bool:
    """``player`` draws (``TileDrawn``) until a tile can be placed — with the expansion
    maybe only with a bridge (rules, "Bridges") — each other one discarded
    (``TileDiscarded``); False when the stack ran out first. A scenario's listed tiles come
    first, without random numbers (docs/carcassonne.md, "Scenario games").

    ``placed``: the square of the tile placed in this turn of the base game, whose events
    take no tile from the stack: the stack is then read before the turn, and a drawn tile
    that fits a square of the frontier away from ``placed`` (where the placement changed
    nothing) fits after it too, without looking at the table after the turn; only otherwise
    is ``turn.state`` read."""
    table = turn.before if placed >= 0 else turn.state
    while any(table.stack):
        kind = next_tile(table.stack, table.script, rng)
        letter = TYPES[kind].letter
        drawn = TILE_DRAWN(
            {
                "player": player,
                "tile": letter,
                "tiles_left": table.tiles_left - 1,
                "random_position": rng.position,
            }
        )
        turn.emit(drawn)
        if placed >= 0 and has_placement_apart(table.frontier, kind, placed):
            return True
        if placeable(turn.state):
            return True
        turn.emit(TILE_DISCARDED({"player": player, "tile": letter}))
        table, placed = turn.state, -1
    return False


def check_place(
    state: CarcassonneState, player: int, move: Place, kind: int
) -> tuple[int, int, int]:
    """The square, quarter turns and follower segment (-1: none) of a legal placement of
    the tile in hand as type ``kind`` (itself, or its bridged variant); raises
    ``IllegalMove`` (codes in docs/carcassonne.md, "Moves")."""
    if TYPE_INDEX[move.tile] != state.in_hand:
        raise IllegalMove("wrong-tile", f"The tile in hand is {TYPES[state.in_hand].letter}.")
    pos = pos_of(move.x, move.y)
    if pos in state.board:
        raise IllegalMove("square-occupied", f"({move.x}, {move.y}) already holds a tile.")
    code = state.frontier.get(pos)
    if code is None:
        raise IllegalMove("not-adjacent", "A tile must touch a placed tile edge to edge.")
    turns = move.rotation // 90
    if turns not in ALL_FITS[kind][code]:
        raise IllegalMove("tile-does-not-fit", "An edge does not match its neighbour's edge.")
    segment = -1
    if move.follower is not None:
        segment = TYPES[kind].segment_index(move.follower)
        if segment < 0:
            raise IllegalMove("no-such-segment", f"Tile {move.tile} has no {move.follower}.")
        if state.supply[player] <= 0:
            raise IllegalMove("no-followers-left", "All your followers are on the board.")
    return pos, turns, segment


def _occupied(state: CarcassonneState, groups: list[Group], segment: int) -> bool:
    """Whether the feature ``segment`` of the new tile joins already holds a follower
    (rules, "Deploying")."""
    for group in groups:
        if segment in group.segments:
            return any(state.features[f].followers for f in group.features)
    return False


def play(
    turn: Turn[CarcassonneState], player: int, move: Place, rng: RandomStream, kind: int = -1
) -> None:
    """``player`` places the drawn tile: ``TilePlaced``, maybe ``FollowerDeployed``, a
    ``FeatureScored`` per completed feature with followers, then the next draw (or the final
    scoring and ``GameEnded``); with the expansion the castle steps and the bazaar come
    between. ``kind``: the tile's bridged variant when it gets a bridge (``TilePlaced`` then
    says ``"bridge"``: its axis on the table; rules, "Bridges"). Raises ``IllegalMove``
    before emitting the placement.

    What the placement completes is foreseen on the table before it where that table is
    ``turn.state`` (:func:`_foreseen`); with the expansion a placement that completes
    nothing then has no castle step, and the turn goes on as in the base game
    (docs/carcassonne.md, "Foreseeing completions")."""
    state = turn.state
    kind = state.in_hand if kind < 0 else kind
    pos, turns, segment = check_place(state, player, move, kind)
    orientation = ORIENTATIONS[kind][turns]
    groups = analyse(state, pos, orientation)
    if segment >= 0 and _occupied(state, groups, segment):
        raise IllegalMove("feature-occupied", "That feature already holds a follower.")
    x, y = xy(pos)
    placed: TilePlaced = {
        "player": player,
        "tile": move.tile,
        "x": x,
        "y": y,
        "rotation": move.rotation,
    }
    if kind != state.in_hand:
        placed["bridge"] = AXES[BRIDGE_AXIS[kind] ^ (turns & 1)]
    foreseen = _foreseen(turn, state, kind)
    scored = completions(state, pos, orientation, groups) if foreseen else []
    turn.emit(TILE_PLACED(placed))
    if segment >= 0:
        piece = TYPES[kind].segments[segment]
        role = ROLES[piece.kind]
        deployed = FOLLOWER_DEPLOYED(
            {"player": player, "x": x, "y": y, "segment": piece.id, "role": role}
        )
        turn.emit(deployed)
    if state.expansion and (scored or not foreseen):
        resolve(turn)
        if turn.state.pending is None:
            next_turn(turn, player, rng)
        return
    for done in scored:
        event = _scored(state, done, pos, player, segment, kind=kind)
        if event is not None:
            turn.emit(event)
    next_turn(turn, player, rng, placed=pos)


def _foreseen(turn: Turn[CarcassonneState], state: CarcassonneState, kind: int) -> bool:
    """Whether the placement of a tile of type ``kind`` on ``state`` foresees what it
    completes (docs/carcassonne.md, "Foreseeing completions"): always in the base game;
    with the expansion when nothing was emitted before it (no bridge laid on a neighbour:
    ``state`` is the table before the move) and the tile shows no bazaar (it opens no
    auction). Such a placement that completes nothing leaves the castle steps nothing to
    score or trigger (no completed feature, no castle that scored this turn): the turn goes
    on from the table before it (:func:`next_turn` with ``placed``)."""
    if not state.expansion:
        return True
    return not turn.events and not is_bazaar(kind)


def play_bridged(
    turn: Turn[CarcassonneState], player: int, move: Bridged, rng: RandomStream
) -> None:
    """A placement with a bridge (rules, "Bridges"): ``BridgePlaced`` first for a bridge on
    a neighbour, then the turn as usual (:func:`play`); a bridge on the tile itself is in
    its ``TilePlaced``. Raises ``IllegalMove`` before emitting anything."""
    play(turn, player, move.place, rng, lay_bridge(turn, player, move))


def answer_castle(
    turn: Turn[CarcassonneState], player: int, move: object, rng: RandomStream
) -> None:
    """``player`` answers the pending castle or fief decision (rules, "Castles"), and once
    no decision is pending the turn sequence resumes after the turn of the last placed
    tile's player (:func:`next_turn`)."""
    answer(turn, player, move)
    state = turn.state
    if state.pending is None:
        next_turn(turn, state.tiles[-1][3], rng)


def auction(turn: Turn[CarcassonneState], player: int, move: object, rng: RandomStream) -> None:
    """``player``'s auction move (rules, "Bazaars"), and once every revealed tile has an
    owner the first bazaar turn (:func:`next_turn` of the active player)."""
    bid(turn, player, move)
    bazaar = turn.state.bazaar
    if bazaar is not None and bazaar["stage"] == "play":
        next_turn(turn, bazaar["active"], rng)


def next_turn(
    turn: Turn[CarcassonneState], player: int, rng: RandomStream, placed: int = -1
) -> None:
    """After ``player``'s turn: with the expansion the auction a bazaar opens or the next
    bazaar turn (:mod:`domain.carcassonne.expansion.bazaars.turn`); else the next seat's
    draw, or the final scoring when the stack is empty.

    ``placed``: the square of a placement foreseen on the table before the move whose
    events changed no bazaar, stack or hand (:func:`_foreseen`): that table is read instead
    of ``turn.state``, its tile (no bazaar) opens no auction, and the next tile is checked as
    :func:`draw_tile` and :func:`~domain.carcassonne.expansion.bazaars.turn.bazaar_turns`
    check it with ``placed``."""
    state = turn.before if placed >= 0 else turn.state
    if state.expansion:
        if placed < 0 and opening(turn, player, rng):
            return
        if state.bazaar is not None:
            active = bazaar_turns(turn, rng, draw_tile, placed)
            if active >= 0:
                ordinary(turn, active, rng)
            return
    ordinary(turn, player, rng, placed)


def ordinary(
    turn: Turn[CarcassonneState], player: int, rng: RandomStream, placed: int = -1
) -> None:
    """The seat after ``player`` draws (:func:`draw_tile`; ``placed`` as there); when the
    stack runs out, the final scoring (:func:`end_game`)."""
    following = (player + 1) % turn.before.players
    if not draw_tile(turn, following, rng, placed):
        end_game(turn, rng.seed)


def _scored(
    state: CarcassonneState, done: Completion, pos: int, player: int, segment: int, *, kind: int
) -> Event | None:
    """``FeatureScored`` for a feature the placement on ``pos`` completes (foreseen on the
    table before it, ``state``), with followers — the one deployed this turn included
    (rules, "Scoring a completed feature"); else nothing."""
    followers = follower_refs(state, done.followers)
    if segment >= 0 and segment in done.segments:
        x, y = xy(pos)
        piece = TYPES[kind].segments[segment]
        followers.append({"player": player, "x": x, "y": y, "segment": piece.id})
        followers.sort(key=lambda f: (f["x"], f["y"]))
    if not followers:
        return None
    new = done.ref >> NODE_BITS >= len(state.tiles)
    return FEATURE_SCORED(
        feature_scored(
            kind=done.kind,
            at=_new_ref(done.ref, pos, kind) if new else ref(state, done.ref),
            tiles=done.tiles,
            pennants=done.pennants,
            points=completed_value(done.kind, done.tiles, done.pennants, state.small_city),
            followers=followers,
        )
    )


def _new_ref(node: int, pos: int, kind: int) -> Segment:
    """A segment of the tile being placed on ``pos``, as events name it."""
    x, y = xy(pos)
    return {"x": x, "y": y, "segment": TYPES[kind].segments[node & 15].id}


def end_game(turn: Turn[CarcassonneState], seed: str) -> None:
    """The final scoring after the last turn (rules, "Final scoring"): the
    ``FinalFeatureScored`` events (and, with the expansion, ``CastleVacated``), the
    ``FarmScored`` events, and ``GameEnded`` with the final scores, ranks, winners, a
    breakdown and the revealed seed."""
    state = turn.state
    during_play = list(state.scores)
    for event in final_feature_events(state) + vacated_events(state):
        turn.emit(event)
    after_features = list(turn.state.scores)
    for event in farm_events(turn.state):
        turn.emit(event)
    scores = list(turn.state.scores)
    ranks, winners = ranking(scores)
    breakdown: Breakdown = {
        "play": during_play,
        "features": [a - b for a, b in zip(after_features, during_play, strict=True)],
        "farms": [a - b for a, b in zip(scores, after_features, strict=True)],
    }
    ended = GAME_ENDED(
        {"scores": scores, "ranks": ranks, "winners": winners, "breakdown": breakdown, "seed": seed}
    )
    turn.emit(ended)
