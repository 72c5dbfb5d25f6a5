"""How each recorded event changes the state: the only code replay runs, and the code every
look-ahead of a :class:`~domain.turn.Turn` runs (docs/architecture.md, "Events are the
record" and "One way to decide a move"; docs/azul.md, "Events", for the rule each event
records; the events' definitions are in :mod:`domain.azul.events`).

Every handler changes the given state in place, reads only the state and the event's data,
never keeps a reference to the event's lists, and never draws random numbers. A recorded
``random_position`` is stored by the catalogue (:data:`EVENTS`), not here.
"""

from __future__ import annotations

from domain.azul.events import (
    FACTORIES_FILLED,
    FLOOR_PENALISED,
    GAME_ENDED,
    LINE_FLOORED,
    TILES_TAKEN,
    WALL_TILED,
    FactoriesFilled,
    FloorPenalised,
    GameEnded,
    LineFloored,
    TilesTaken,
    WallTiled,
)
from domain.azul.state import (
    EMPTY_LINE_ALLOWS,
    LINE_BITS,
    OFFER,
    OVER,
    TILING,
    AzulState,
    next_complete_line,
)
from domain.azul.tiles import COLOUR_INDEX, COLOURS, FLOOR_SPACES, MARKER, SIZE
from domain.events import EventCatalogue


def factories_filled(state: AzulState, data: FactoriesFilled) -> None:
    """``FactoriesFilled``: a new round starts (docs/azul.md, "Next round" and "Factory
    offer"): the lid is poured into the bag if it was, the drawn tiles leave the bag for the
    factories, the marker goes to the centre and ``first_player`` is to move (the catalogue
    stores ``random_position``)."""
    bag = state.bag
    if data["lid_poured"] is not None:
        lid = state.lid
        for colour in range(COLOURS):
            bag[colour] += lid[colour]
            lid[colour] = 0
    sources = state.sources
    total = 0
    for number, tiles in enumerate(data["factories"], start=1):
        counts = [0] * COLOURS
        for letter in tiles:
            colour = COLOUR_INDEX[letter]
            counts[colour] += 1
            bag[colour] -= 1
        sources[number] = counts
        total += len(tiles)
    state.tiles_left = total
    state.round = data["round"]
    state.phase = OFFER
    state.first_player = state.current = data["first_player"]
    state.marker_in_centre = True
    state.marker_holder = -1


def tiles_taken(state: AzulState, data: TilesTaken) -> None:
    """``TilesTaken`` (docs/azul.md, "Factory offer"): the colour leaves its source, the rest of
    a factory goes to the centre, the marker (first take from the centre) goes to the
    leftmost free floor space if there is one, tiles go to the line, floor and lid as
    recorded. When no tile is left on the table, wall tiling starts."""
    player = data["player"]
    source = data["source"]
    colour = COLOUR_INDEX[data["colour"]]
    sources = state.sources
    centre = sources[0]
    if source == "centre":
        centre[colour] = 0
    else:
        counts = sources[source]
        counts[colour] = 0
        blue, yellow, red, black, white = counts
        centre[0] += blue
        centre[1] += yellow
        centre[2] += red
        centre[3] += black
        centre[4] += white
        sources[source] = [0, 0, 0, 0, 0]
    state.tiles_left -= data["count"]
    to_line = data["to_line"]
    line = data["line"]
    if to_line and line != "floor":
        row = line - 1
        state.line_colour[player][row] = colour
        counts = state.line_count[player]
        counts[row] += to_line
        kept = state.allowed[player] & ~LINE_BITS[row]
        state.allowed[player] = kept if counts[row] > row else kept | 1 << (colour * SIZE + row)
    floor = state.floor[player]
    if data["marker"]:
        state.marker_in_centre = False
        state.marker_holder = player
        if len(floor) < FLOOR_SPACES:
            floor.append(MARKER)
    if data["to_floor"]:
        floor.extend([colour] * data["to_floor"])
    if data["to_lid"]:
        state.lid[colour] += data["to_lid"]
    state.current = (player + 1) % state.players
    if state.tiles_left == 0:
        state.phase = TILING
        state.pending = [next_complete_line(state, p, 0) for p in range(state.players)]


def _clear_line(state: AzulState, player: int, row: int) -> None:
    """A pattern line emptied after wall tiling (docs/azul.md, "Wall tiling and scoring"):
    it may take any colour its wall row lacks again, and tiling goes on below it."""
    state.line_colour[player][row] = -1
    state.line_count[player][row] = 0
    empty = EMPTY_LINE_ALLOWS[row][state.row_colours[player][row]]
    state.allowed[player] = state.allowed[player] & ~LINE_BITS[row] | empty
    state.pending[player] = next_complete_line(state, player, row + 1)


def wall_tiled(state: AzulState, data: WallTiled) -> None:
    """``WallTiled`` (docs/azul.md, "Wall tiling and scoring"): the tile goes to the wall,
    the player scores, the rest of the line goes to the lid; tiling goes on below."""
    player = data["player"]
    row = data["row"] - 1
    column = data["column"] - 1
    colour = COLOUR_INDEX[data["colour"]]
    state.wall[player][row * SIZE + column] = colour
    state.row_colours[player][row] |= 1 << colour
    state.col_colours[player][column] |= 1 << colour
    state.lid[colour] += data["to_lid"]
    state.scores[player] += data["points"]
    _clear_line(state, player, row)


def line_floored(state: AzulState, data: LineFloored) -> None:
    """``LineFloored`` (docs/azul.md, "Gray wall"): a complete line with no legal wall space goes
    to the floor line, the overflow to the lid."""
    player = data["player"]
    row = data["row"] - 1
    colour = COLOUR_INDEX[data["colour"]]
    state.floor[player].extend([colour] * data["to_floor"])
    state.lid[colour] += data["to_lid"]
    _clear_line(state, player, row)


def floor_penalised(state: AzulState, data: FloorPenalised) -> None:
    """``FloorPenalised`` (docs/azul.md, "Floor line"): the new score (never below 0), the
    floor tiles to the lid; the marker, if on this floor, stays with its holder."""
    player = data["player"]
    state.scores[player] = data["score"]
    lid = state.lid
    for item in state.floor[player]:
        if item != MARKER:
            lid[item] += 1
    state.floor[player] = []
    state.pending[player] = -1


def game_ended(state: AzulState, data: GameEnded) -> None:
    """``GameEnded`` (docs/azul.md, "End of game"): final scores with bonuses, ranks, winners."""
    state.phase = OVER
    state.scores = list(data["scores"])
    state.result = {
        "reason": data["reason"],
        "bonuses": [dict(b) for b in data["bonuses"]],
        "complete_rows": list(data["complete_rows"]),
        "ranks": list(data["ranks"]),
        "winners": list(data["winners"]),
    }


EVENTS = EventCatalogue[AzulState]("Azul")
"""Every event of Azul bound to its handler: the game's ``evolve`` (docs/azul.md, "Events")."""
EVENTS.on(FACTORIES_FILLED, factories_filled)
EVENTS.on(TILES_TAKEN, tiles_taken)
EVENTS.on(WALL_TILED, wall_tiled)
EVENTS.on(LINE_FLOORED, line_floored)
EVENTS.on(FLOOR_PENALISED, floor_penalised)
EVENTS.on(GAME_ENDED, game_ended)
