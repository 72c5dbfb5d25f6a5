"""The factory offer: a take judged against the table and the ``TilesTaken`` it records, with
the end of the round when it empties the table (docs/azul.md, "Factory offer", "Floor line"
and "Wall tiling and scoring").
"""

from __future__ import annotations

from domain.azul.events import TILES_TAKEN
from domain.azul.moves import CENTRE, Take
from domain.azul.state import AzulState
from domain.azul.tiles import FLOOR_SPACES, LETTERS, NAMES, Letter
from domain.azul.tiling import AzulTurn, end_round, settle, tiling_done
from domain.protocol import IllegalMove
from domain.randomness import RandomStream


def take(turn: AzulTurn, state: AzulState, player: int, move: Take, rng: RandomStream) -> None:
    """``TilesTaken`` (docs/azul.md, "Factory offer"): every tile of the colour leaves its
    source, the rest of a factory goes to the centre, the first take from the centre takes
    the marker; the tiles fill the chosen pattern line, the overflow goes to the floor line
    and what does not fit there to the lid ("Floor line"). The take that empties the table
    goes on with wall tiling and the end of the round ("Wall tiling and scoring"). ``state``
    is ``turn.state`` before the take (the caller has read it). Raises ``IllegalMove`` before
    emitting anything."""
    source, colour, line = move
    if source >= len(state.sources):
        raise IllegalMove("no-such-source", f"There is no factory {source}.")
    counts = state.sources[source]
    count = counts[colour]
    if not count:
        raise IllegalMove("colour-not-in-source", f"There is no {NAMES[colour]} tile there.")
    to_line = 0
    if line:
        row = line - 1
        held = state.line_count[player][row]
        if held and state.line_colour[player][row] != colour:
            raise IllegalMove("line-holds-other-colour", f"Line {line} holds another colour.")
        if state.row_colours[player][row] >> colour & 1:
            raise IllegalMove("colour-already-on-wall", f"Wall row {line} has that colour.")
        if held == line:
            raise IllegalMove("line-full", f"Line {line} is full; put the tiles on the floor.")
        room = line - held
        to_line = count if count < room else room
    marker = source == CENTRE and state.marker_in_centre
    free = FLOOR_SPACES - len(state.floor[player])
    if marker and free:
        free -= 1
    overflow = count - to_line
    to_floor = overflow if overflow < free else free
    to_centre: list[Letter] = []
    if source != CENTRE:
        for other, n in enumerate(counts):
            if n and other != colour:
                to_centre += [LETTERS[other]] * n
    turn.emit(
        TILES_TAKEN(
            {
                "player": player,
                "source": "centre" if source == CENTRE else source,
                "colour": LETTERS[colour],
                "count": count,
                "line": line if line else "floor",
                "to_line": to_line,
                "to_floor": to_floor,
                "to_lid": overflow - to_floor,
                "marker": marker,
                "to_centre": to_centre,
            }
        )
    )
    if state.tiles_left > count:
        return
    for seat in range(state.players):
        settle(turn, seat)
    if tiling_done(turn.state):
        end_round(turn, rng)
