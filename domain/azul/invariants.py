"""Conservation laws of Azul, checked by the conformance run (docs/azul.md,
"Setup": 100 tiles, 20 per colour; "Factory offer" and "Floor line": one first-player
marker, 7 floor spaces, pattern line ``i`` holds at most ``i`` tiles of one colour not on
that wall row, scores never below 0; "Coloured wall" and "Gray wall": a colour at most once
in a wall row and column)."""

from __future__ import annotations

from domain.azul.state import OFFER, TILING, AzulState, allowed_lines, next_complete_line
from domain.azul.tiles import (
    COLOURS,
    FLOOR_SPACES,
    LETTERS,
    MARKER,
    SIZE,
    TILES_PER_COLOUR,
    wall_colour,
)


def tile_counts(state: AzulState) -> list[int]:
    """Tiles of each colour found in the bag, lid, factories, centre, pattern lines, floor
    lines and walls together (each should be 20)."""
    counts = [sum(column) for column in zip(state.bag, state.lid, *state.sources, strict=True)]
    for seat in range(state.players):
        for colour, count in zip(state.line_colour[seat], state.line_count[seat], strict=True):
            if count:
                counts[colour] += count
        for item in state.floor[seat]:
            if item != MARKER:
                counts[item] += 1
        for colour in range(COLOURS):
            counts[colour] += state.wall[seat].count(colour)
    return counts


def _tiles(state: AzulState) -> list[str]:
    """100 tiles, 20 of each colour, none negative (docs/azul.md, "Setup")."""
    problems = []
    for colour, count in enumerate(tile_counts(state)):
        if count != TILES_PER_COLOUR:
            problems.append(f"There are {count} {LETTERS[colour]} tiles, not 20.")
    places = [*state.bag, *state.lid, *(n for s in state.sources for n in s)]
    if any(n < 0 for n in places):
        problems.append("A negative tile count in the bag, lid, a factory or the centre.")
    if state.tiles_left != sum(sum(s) for s in state.sources):
        problems.append("The count of tiles left on the table is wrong.")
    return problems


def _marker(state: AzulState) -> list[str]:
    """Exactly one first-player marker (docs/azul.md, "Factory offer" and "Floor line")."""
    on_floors = [seat for seat in range(state.players) if MARKER in state.floor[seat]]
    tokens = sum(floor.count(MARKER) for floor in state.floor)
    places = int(state.marker_in_centre) + tokens
    if not on_floors and state.marker_holder >= 0:
        places += 1  # held beside a full floor, or after the floor was cleared
    if places != 1:
        return [f"The first-player marker is in {places} places."]
    if on_floors and on_floors[0] != state.marker_holder:
        return ["The marker is on a floor line of a player who does not hold it."]
    return []


def _wall(state: AzulState, seat: int) -> list[str]:
    """A colour at most once per wall row and column, on its printed space on the coloured
    wall (docs/azul.md, "Coloured wall" and "Gray wall")."""
    rows = [0] * SIZE
    columns = [0] * SIZE
    twice = misplaced = False
    for index, cell in enumerate(state.wall[seat]):
        if cell >= 0:
            row, column = divmod(index, SIZE)
            bit = 1 << cell
            twice = twice or bool(rows[row] & bit or columns[column] & bit)
            rows[row] |= bit
            columns[column] |= bit
            misplaced = misplaced or (not state.gray and cell != wall_colour(row, column))
    problems = []
    if twice:
        problems.append(f"Seat {seat}'s wall holds a colour twice in a row or column.")
    if misplaced:
        problems.append(f"Seat {seat}'s coloured wall has a tile on a space of another colour.")
    if rows != state.row_colours[seat] or columns != state.col_colours[seat]:
        problems.append(f"Seat {seat}'s row or column cache is stale.")
    return problems


def _board(state: AzulState, seat: int) -> list[str]:
    """One seat's wall, score, pattern lines and floor line (docs/azul.md, "Invariants")."""
    problems = _wall(state, seat)
    if state.scores[seat] < 0:
        problems.append(f"Seat {seat} has a negative score.")
    if len(state.floor[seat]) > FLOOR_SPACES:
        problems.append(f"Seat {seat}'s floor line holds more than 7 items.")
    for row in range(SIZE):
        colour = state.line_colour[seat][row]
        count = state.line_count[seat][row]
        if not 0 <= count <= row + 1 or (count == 0) != (colour < 0):
            problems.append(f"Seat {seat}'s pattern line {row + 1} is inconsistent.")
        elif count and state.row_colours[seat][row] >> colour & 1:
            problems.append(f"Seat {seat}'s line {row + 1} holds a colour of its wall row.")
    if state.allowed[seat] != allowed_lines(state, seat):
        problems.append(f"Seat {seat}'s allowed-lines cache is stale.")
    return problems


def check_invariants(state: AzulState) -> list[str]:
    """Every violated law as one sentence; empty when the state is sound: all 100 tiles
    accounted for, no negative count or score, the marker in exactly one place, pattern
    lines and walls consistent, the caches consistent with what they summarise."""
    problems = _tiles(state) + _marker(state)
    for seat in range(state.players):
        problems += _board(state, seat)
        if state.phase == TILING and next_complete_line(state, seat, 0) != state.pending[seat]:
            problems.append(f"Seat {seat}'s pending wall-tiling row is wrong.")
    if state.phase == OFFER and state.tiles_left == 0:
        problems.append("The factory offer goes on with no tile on the table.")
    return problems
