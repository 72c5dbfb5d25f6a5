"""Azul moves as small immutable values, with their JSON form and compact notation
(docs/azul.md, "Factory offer" for taking tiles; "Gray wall" for placing one; "Moves").

* :class:`Take` — take every tile of ``colour`` from ``source`` (0 = the centre, ``k`` =
  factory ``k``, 1-based) and put them on pattern line ``line`` (1..5) or, with ``line``
  0, straight on the floor line.
  JSON ``{"type": "take", "source": 3, "colour": "R", "line": 2}`` (``"source": "centre"``,
  ``"line": "floor"``); notation ``F3R2``, ``CR2``, ``F3R-``, ``CB-``.
* :class:`Place` — gray wall only: the tile of complete pattern line ``row`` goes to wall
  ``column`` of that row (both 1..5). JSON ``{"type": "place", "row": 2, "column": 4}``;
  notation ``2>4``.
"""

from __future__ import annotations

import re
from typing import Any, Final, NamedTuple

from domain.azul.tiles import COLOUR_INDEX, COLOURS, LETTERS, SIZE
from domain.protocol import InvalidMove

CENTRE: Final = 0
"""``Take.source`` of the centre of the table."""
FLOOR: Final = 0
"""``Take.line`` meaning "everything straight to the floor line"."""
MAX_FACTORIES: Final = 9


class Take(NamedTuple):
    """Take all tiles of one colour from one source onto one pattern line or the floor
    (docs/azul.md, "Factory offer"). ``source``: 0 centre, 1..9 factory; ``colour``: 0..4;
    ``line``: 1..5, or 0 for the floor."""

    source: int
    colour: int
    line: int


class Place(NamedTuple):
    """Gray wall: move the tile of complete pattern line ``row`` to ``column`` of that wall
    row (docs/azul.md, "Gray wall"); both 1-based."""

    row: int
    column: int


Move = Take | Place
"""Any Azul move."""


def _takes_for(source: int, colour: int, mask: int) -> tuple[Take, ...]:
    lines = [Take(source, colour, line + 1) for line in range(SIZE) if mask >> line & 1]
    return (*lines, Take(source, colour, FLOOR))


TAKES: Final = tuple(
    tuple(
        _takes_for(source, colour, mask) for colour in range(COLOURS) for mask in range(1 << SIZE)
    )
    for source in range(MAX_FACTORIES + 1)
)
"""``TAKES[source][colour * 32 + allowed-lines mask]``: the prebuilt legal takes, lines in
ascending order and the floor last (so listing legal moves allocates no move objects)."""

PLACES: Final = tuple(
    tuple(Place(row, column) for column in range(SIZE + 1)) for row in range(SIZE + 1)
)
"""``PLACES[row][column]`` (1-based) prebuilt."""


def _malformed(detail: str) -> InvalidMove:
    return InvalidMove("malformed-move", detail)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_move(data: Any) -> Move:
    """A move from its JSON form (module docstring); raises ``InvalidMove``
    (``malformed-move``) when it cannot be read as an Azul move."""
    if not isinstance(data, dict):
        raise _malformed("A move is a JSON object with a 'type'.")
    kind = data.get("type")
    if kind == "take":
        if set(data) != {"type", "source", "colour", "line"}:
            raise _malformed("A take has exactly the fields type, source, colour and line.")
        source, colour, line = data["source"], data["colour"], data["line"]
        if source == "centre":
            source = CENTRE
        elif not (_int(source) and source >= 1):
            raise _malformed("'source' is a factory number (1, 2, ...) or \"centre\".")
        if not (isinstance(colour, str) and colour in COLOUR_INDEX):
            raise _malformed("'colour' is one of B, Y, R, K, W.")
        if line == "floor":
            line = FLOOR
        elif not (_int(line) and 1 <= line <= SIZE):
            raise _malformed("'line' is a pattern line 1..5 or \"floor\".")
        return Take(source, COLOUR_INDEX[colour], line)
    if kind == "place":
        if set(data) != {"type", "row", "column"}:
            raise _malformed("A place has exactly the fields type, row and column.")
        row, column = data["row"], data["column"]
        if not (_int(row) and _int(column) and 1 <= row <= SIZE and 1 <= column <= SIZE):
            raise _malformed("'row' and 'column' are 1..5.")
        return PLACES[row][column]
    raise _malformed('A move\'s \'type\' is "take" or "place".')


def move_to_json(move: Move) -> dict[str, Any]:
    """The JSON form of a move (read back by :func:`parse_move`)."""
    if isinstance(move, Take):
        return {
            "type": "take",
            "source": "centre" if move.source == CENTRE else move.source,
            "colour": LETTERS[move.colour],
            "line": "floor" if move.line == FLOOR else move.line,
        }
    return {"type": "place", "row": move.row, "column": move.column}


_TAKE_TEXT: Final = re.compile(r"(?:F([1-9][0-9]*)|(C))([BYRKW])([1-5]|-)")
_PLACE_TEXT: Final = re.compile(r"([1-5])>([1-5])")


def parse_notation(text: str) -> Move:
    """A move from its compact notation: ``F<factory><colour><line>`` or
    ``C<colour><line>`` with line ``1``..``5`` or ``-`` (floor), e.g. ``F3R2``, ``CK-``;
    ``<row>><column>`` for a gray-wall placement, e.g. ``2>4``. Case and surrounding
    spaces are ignored. Raises ``InvalidMove`` (``malformed-move``)."""
    if not isinstance(text, str):
        raise _malformed("A move in notation is a string.")
    cleaned = text.strip().upper()
    found = _TAKE_TEXT.fullmatch(cleaned)
    if found:
        factory, _centre, colour, line = found.groups()
        return Take(
            CENTRE if factory is None else int(factory),
            COLOUR_INDEX[colour],
            FLOOR if line == "-" else int(line),
        )
    found = _PLACE_TEXT.fullmatch(cleaned)
    if found:
        return PLACES[int(found.group(1))][int(found.group(2))]
    raise _malformed(f"{text!r} is not an Azul move (examples: F3R2, CR-, 2>4).")


def notation(move: Move) -> str:
    """The compact notation of a move (read back by :func:`parse_notation`)."""
    if isinstance(move, Take):
        source = "C" if move.source == CENTRE else f"F{move.source}"
        line = "-" if move.line == FLOOR else str(move.line)
        return f"{source}{LETTERS[move.colour]}{line}"
    return f"{move.row}>{move.column}"


def well_formed(move: object) -> bool:
    """Whether ``move`` is a :class:`Take` or :class:`Place` with values in range (a move
    built in code rather than parsed may not be)."""
    if type(move) is Take:
        source, colour, line = move
        return (
            type(source) is int
            and source >= 0
            and type(colour) is int
            and 0 <= colour < COLOURS
            and type(line) is int
            and 0 <= line <= SIZE
        )
    if type(move) is Place:
        row, column = move
        return type(row) is int and type(column) is int and 1 <= row <= SIZE and 1 <= column <= SIZE
    return False
