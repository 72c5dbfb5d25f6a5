"""Decision: the game also ends when no player can ever complete a horizontal wall row
(docs/azul.md, "End of game" only ends the game after a completed row; without this a game
whose rows have all become impossible would never end — docs/azul.md, "Rules decisions").

The test is *sound*: it only says "stalemate" when no sequence of moves whatsoever could
complete a row. It is checked after the floor penalties of every round, when factories,
centre and floors are empty and every complete pattern line has been dealt with. It
over-estimates what is possible, using three facts that only ever get worse over time:

* Tiles of a colour that may still move ("supply") are at most those in the bag and lid
  plus those in pattern lines that could still be completed; a pattern line whose missing
  tiles exceed that supply is stuck for ever (computed as a fixed point per colour).
* A wall row needs, for each missing colour, its pattern line filled with that colour: the
  line must not be stuck with another colour, and the supply must cover what it lacks.
* Gray wall: the missing colours must fit the row's empty spaces one to one with no colour
  in a column that already holds it (columns only ever gain colours).
"""

from __future__ import annotations

from domain.azul.state import AzulState
from domain.azul.tiles import COLOURS, SIZE


def _supply(state: AzulState) -> tuple[list[int], set[tuple[int, int]]]:
    """Per colour, the most tiles that could ever still move; and the stuck lines."""
    supply = [b + t for b, t in zip(state.bag, state.lid, strict=True)]
    waiting: list[list[tuple[int, int, int, int]]] = [[] for _ in range(COLOURS)]
    for seat in range(state.players):
        for row in range(SIZE):
            count = state.line_count[seat][row]
            if count:
                colour = state.line_colour[seat][row]
                waiting[colour].append((row + 1 - count, count, seat, row))
    stuck: set[tuple[int, int]] = set()
    for colour in range(COLOURS):
        lines = sorted(waiting[colour])
        for lacking, count, _seat, _row in lines:
            if lacking > supply[colour]:
                break
            supply[colour] += count
        stuck.update(
            (seat, row) for lacking, _count, seat, row in lines if lacking > supply[colour]
        )
    return supply, stuck


def _fits(state: AzulState, seat: int, row: int, missing: list[int]) -> bool:
    """Gray wall: a one-to-one fit of ``missing`` colours to the row's empty spaces."""
    wall = state.wall[seat]
    columns = state.col_colours[seat]
    free = [c for c in range(SIZE) if wall[row * SIZE + c] < 0]

    def place(index: int, used: int) -> bool:
        """Whether ``missing[index:]`` fit the free columns not in ``used``."""
        if index == len(missing):
            return True
        bit = 1 << missing[index]
        return any(
            not used >> k & 1 and not columns[column] & bit and place(index + 1, used | 1 << k)
            for k, column in enumerate(free)
        )

    return place(0, 0)


def _missing(state: AzulState, seat: int, row: int) -> list[int]:
    """The colours wall row ``row`` of ``seat`` still lacks."""
    present = state.row_colours[seat][row]
    return [c for c in range(COLOURS) if not present >> c & 1]


def _row_possible(
    state: AzulState, seat: int, row: int, supply: list[int], stuck: set[tuple[int, int]]
) -> bool:
    """Whether wall row ``row`` of ``seat`` could still be completed (module docstring)."""
    missing = _missing(state, seat, row)
    count = state.line_count[seat][row]
    held = state.line_colour[seat][row] if count else -1
    if count and (seat, row) in stuck:
        return False
    for colour in missing:
        lacking = row + 1 - (count if colour == held else 0)
        if lacking > supply[colour]:
            return False
    return not state.gray or _fits(state, seat, row, missing)


def stalemate(state: AzulState) -> bool:
    """True when no player can ever complete a horizontal wall row (module docstring)."""
    if min(b + t for b, t in zip(state.bag, state.lid, strict=True)) >= SIZE:
        # No line lacks more than 4 tiles: nothing is stuck and every colour is plentiful.
        return state.gray and not any(
            _fits(state, seat, row, _missing(state, seat, row))
            for seat in range(state.players)
            for row in range(SIZE)
        )
    supply, stuck = _supply(state)
    return not any(
        _row_possible(state, seat, row, supply, stuck)
        for seat in range(state.players)
        for row in range(SIZE)
    )
