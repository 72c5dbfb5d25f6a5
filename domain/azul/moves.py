"""Azul moves as small immutable values, with their JSON form and compact notation both ways
(docs/azul.md, "Factory offer" for taking tiles; "Gray wall" for placing one; "Moves").

* :class:`Take` — take every tile of ``colour`` from ``source`` (0 = the centre, ``k`` =
  factory ``k``, 1-based) and put them on pattern line ``line`` (1..5) or, with ``line``
  0, straight on the floor line.
  JSON ``{"type": "take", "source": 3, "colour": "R", "line": 2}`` (``"source": "centre"``,
  ``"line": "floor"``); notation ``F3R2``, ``CR2``, ``F3R-``, ``CB-``.
* :class:`Place` — gray wall only: the tile of complete pattern line ``row`` goes to wall
  ``column`` of that row (both 1..5). JSON ``{"type": "place", "row": 2, "column": 4}``;
  notation ``2>4``.

Both round-trip through their notation and their JSON form:

>>> Take.from_notation("F3R2").notation()
'F3R2'
>>> Take.from_notation("ck-")
Take(source=0, colour=3, line=0)
>>> Take.from_json(Take(0, 3, 0).to_json()) == Take(0, 3, 0)
True
>>> Take(0, 3, 0).to_json()
{'type': 'take', 'source': 'centre', 'colour': 'K', 'line': 'floor'}
>>> Place.from_notation("2>4").to_json()
{'type': 'place', 'row': 2, 'column': 4}
>>> Place.from_json({"type": "place", "row": 2, "column": 4}).notation()
'2>4'
>>> move_from_notation("F9B5"), move_from_notation("5>1")
(Take(source=9, colour=0, line=5), Place(row=5, column=1))
>>> move_from_json({"type": "take", "source": 9, "colour": "B", "line": 5}).notation()
'F9B5'
"""

from __future__ import annotations

import re
from typing import Final, Literal, NamedTuple

from typing_extensions import TypedDict

from domain.azul.tiles import COLOUR_INDEX, COLOURS, LETTERS, SIZE, Letter
from domain.protocol import InvalidMove

CENTRE: Final = 0
"""``Take.source`` of the centre of the table."""
FLOOR: Final = 0
"""``Take.line`` meaning "everything straight to the floor line"."""
MAX_FACTORIES: Final = 9


class TakeJson(TypedDict):
    """The JSON form of a :class:`Take` (docs/azul.md, "Moves")."""

    type: Literal["take"]
    source: int | Literal["centre"]
    colour: Letter
    line: int | Literal["floor"]


class PlaceJson(TypedDict):
    """The JSON form of a :class:`Place` (docs/azul.md, "Moves")."""

    type: Literal["place"]
    row: int
    column: int


_TAKE_TEXT: Final = re.compile(r"(?:F([1-9][0-9]*)|(C))([BYRKW])([1-5]|-)")
_PLACE_TEXT: Final = re.compile(r"([1-5])>([1-5])")


class Take(NamedTuple):
    """Take all tiles of one colour from one source onto one pattern line or the floor
    (docs/azul.md, "Factory offer"). ``source``: 0 centre, 1..9 factory; ``colour``: 0..4;
    ``line``: 1..5, or 0 for the floor."""

    source: int
    colour: int
    line: int

    def notation(self) -> str:
        """``F<factory><colour><line>`` or ``C<colour><line>``, ``<line>`` ``1``..``5`` or
        ``-`` for the floor (docs/azul.md, "Moves"), e.g. ``F3R2``, ``CK-``."""
        source = "C" if self.source == CENTRE else f"F{self.source}"
        line = "-" if self.line == FLOOR else str(self.line)
        return f"{source}{LETTERS[self.colour]}{line}"

    def to_json(self) -> TakeJson:
        """``{"type": "take", "source": 3 or "centre", "colour": "R", "line": 2 or "floor"}``
        (docs/azul.md, "Moves")."""
        return {
            "type": "take",
            "source": "centre" if self.source == CENTRE else self.source,
            "colour": LETTERS[self.colour],
            "line": "floor" if self.line == FLOOR else self.line,
        }

    @classmethod
    def from_notation(cls, text: str) -> Take:
        """The take written ``text`` (:meth:`notation`; case and surrounding spaces are
        ignored, docs/azul.md, "Moves"); raises ``InvalidMove`` (``malformed-move``)."""
        found = _TAKE_TEXT.fullmatch(_cleaned(text))
        if not found:
            raise _malformed(f"{text!r} is not a take (examples: F3R2, CR-).")
        factory, _centre, colour, line = found.groups()
        return cls(
            CENTRE if factory is None else int(factory),
            COLOUR_INDEX[colour],
            FLOOR if line == "-" else int(line),
        )

    @classmethod
    def from_json(cls, data: object) -> Take:
        """The take whose JSON form is ``data`` (:meth:`to_json`; exactly those fields,
        docs/azul.md, "Moves"); raises ``InvalidMove`` (``malformed-move``)."""
        if not (isinstance(data, dict) and data.get("type") == "take"):
            raise _malformed('A take is a JSON object with "type": "take".')
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
        return cls(source, COLOUR_INDEX[colour], line)


class Place(NamedTuple):
    """Gray wall: move the tile of complete pattern line ``row`` to ``column`` of that wall
    row (docs/azul.md, "Gray wall"); both 1-based."""

    row: int
    column: int

    def notation(self) -> str:
        """``<row>><column>`` (docs/azul.md, "Moves"), e.g. ``2>4``."""
        return f"{self.row}>{self.column}"

    def to_json(self) -> PlaceJson:
        """``{"type": "place", "row": 2, "column": 4}`` (docs/azul.md, "Moves")."""
        return {"type": "place", "row": self.row, "column": self.column}

    @classmethod
    def from_notation(cls, text: str) -> Place:
        """The placement written ``text`` (:meth:`notation`; surrounding spaces are ignored,
        docs/azul.md, "Moves"); raises ``InvalidMove`` (``malformed-move``)."""
        found = _PLACE_TEXT.fullmatch(_cleaned(text))
        if not found:
            raise _malformed(f"{text!r} is not a placement (example: 2>4).")
        return PLACES[int(found.group(1))][int(found.group(2))]

    @classmethod
    def from_json(cls, data: object) -> Place:
        """The placement whose JSON form is ``data`` (:meth:`to_json`; exactly those
        fields, docs/azul.md, "Moves"); raises ``InvalidMove`` (``malformed-move``)."""
        if not (isinstance(data, dict) and data.get("type") == "place"):
            raise _malformed('A placement is a JSON object with "type": "place".')
        if set(data) != {"type", "row", "column"}:
            raise _malformed("A place has exactly the fields type, row and column.")
        row, column = data["row"], data["column"]
        if not (_int(row) and _int(column) and 1 <= row <= SIZE and 1 <= column <= SIZE):
            raise _malformed("'row' and 'column' are 1..5.")
        return PLACES[row][column]


Move = Take | Place
"""Any Azul move."""


def _takes_for(source: int, colour: int, mask: int) -> tuple[Take, ...]:
    """The takes of ``colour`` from ``source`` onto the lines in ``mask``, floor last
    (docs/azul.md, "Factory offer")."""
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
    """The error of a move that cannot be read (docs/azul.md, "Moves": ``malformed-move``)."""
    return InvalidMove("malformed-move", detail)


def _int(value: object) -> bool:
    """Whether a JSON value is an integer (``true`` is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _cleaned(text: object) -> str:
    """Notation with case and surrounding spaces ignored (docs/azul.md, "Moves")."""
    if not isinstance(text, str):
        raise _malformed("A move in notation is a string.")
    return text.strip().upper()


def move_from_json(data: object) -> Move:
    """A move from its JSON form, by its ``type`` (docs/azul.md, "Moves"); raises
    ``InvalidMove`` (``malformed-move``) when it cannot be read as an Azul move."""
    if not isinstance(data, dict):
        raise _malformed("A move is a JSON object with a 'type'.")
    kind = data.get("type")
    if kind == "take":
        return Take.from_json(data)
    if kind == "place":
        return Place.from_json(data)
    raise _malformed('A move\'s \'type\' is "take" or "place".')


def move_from_notation(text: str) -> Move:
    """A move from its compact notation: a take (``F3R2``, ``CK-``) or a gray-wall placement
    (``2>4``), docs/azul.md, "Moves"; raises ``InvalidMove`` (``malformed-move``)."""
    cleaned = _cleaned(text)
    if _TAKE_TEXT.fullmatch(cleaned):
        return Take.from_notation(cleaned)
    if _PLACE_TEXT.fullmatch(cleaned):
        return Place.from_notation(cleaned)
    raise _malformed(f"{text!r} is not an Azul move (examples: F3R2, CR-, 2>4).")


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
