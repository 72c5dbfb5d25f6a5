"""The base game's move, :class:`Place`, a small immutable value with its JSON form and
compact notation (docs/carcassonne.md, "Base game": a turn places the drawn tile and
optionally deploys one follower on it; "Moves"), and the memo of the placements
:mod:`domain.carcassonne.placement` lists.

:class:`Place` puts the drawn tile ``tile`` on square ``(x, y)`` turned ``rotation`` degrees
clockwise (0, 90, 180, 270), and deploys a follower on its segment ``follower`` (``"c0"``,
``"r1"``, ``"f2"``, ``"m0"`` for the monastery; ids as in the catalogue, the same whatever
the rotation) or on none (``None``). Parsing gives a symmetric tile's look-alike rotations
their canonical form (:meth:`Place.canonical`).

>>> move = Place.from_notation("D@1,0r90+c0")
>>> move
Place(tile='D', x=1, y=0, rotation=90, follower='c0')
>>> move.notation()
'D@1,0r90+c0'
>>> move.to_json()
{'type': 'place', 'tile': 'D', 'x': 1, 'y': 0, 'rotation': 90, 'follower': 'c0'}
>>> Place.from_json(move.to_json()) == move
True
>>> Place.from_notation(" v@-2,1R0 ").notation()
'V@-2,1r0'
>>> Place.from_notation("U@0,1r180+f1").notation()  # U turned 180 looks like U unturned
'U@0,1r0+f0'

Every move of the game, the expansion's too, is read and written by
:mod:`domain.carcassonne.every_move`.
"""

from __future__ import annotations

import re
from typing import Any, Final, Literal, NamedTuple

from typing_extensions import TypedDict

from domain.carcassonne.grid import LIMIT, xy
from domain.carcassonne.tiles import LOOKALIKES, ROTATIONS, TYPE_INDEX, TYPES
from domain.errors import InvalidMove

SEGMENT_IDS: Final = frozenset(s.id for tile in TYPES for s in tile.segments)
"""Every segment id of every tile type (``c0``, ``r1``, ``f2``, ``m0``, ``b0``, ...)."""
PLACE_FIELDS: Final = frozenset({"type", "tile", "x", "y", "rotation", "follower"})
PLACE_TEXT: Final = r"([A-Z]+[0-9]*)@(-?[0-9]+),(-?[0-9]+)R([0-9]+)(?:\+([CRFMB][0-9]+))?"
"""The notation of a placement, upper case (the expansion's bridge follows it)."""
_PLACE: Final = re.compile(PLACE_TEXT)
FIELDS_MESSAGE: Final = (
    "A placement has exactly the fields type, tile, x, y, rotation, follower (and bridge)."
)
PLACE_MESSAGE: Final = (
    "A placement names a tile type (A..X), integer x and y, a rotation of 0, 90, "
    "180 or 270, and a follower segment id (c0, r1, f2, m0, ...) or null; a bridge "
    'integer x and y and an axis "NS" or "WE".'
)


def malformed(detail: str) -> InvalidMove:
    """The error of a move that cannot be read (docs/carcassonne.md, "Moves")."""
    return InvalidMove("malformed-move", detail)


def coordinate(value: Any) -> bool:
    """Whether ``value`` is a square coordinate in range (an ``int``, not a ``bool``)."""
    return type(value) is int and -LIMIT <= value <= LIMIT


class PlaceJSON(TypedDict):
    """The JSON form of :class:`Place` (``"follower": null`` for none)."""

    type: Literal["place"]
    tile: str
    x: int
    y: int
    rotation: int
    follower: str | None


class Place(NamedTuple):
    """Place the drawn tile and maybe deploy a follower (module docstring)."""

    tile: str
    x: int
    y: int
    rotation: int
    follower: str | None

    def notation(self) -> str:
        """``<tile>@<x>,<y>r<rotation>[+<segment>]`` (docs/carcassonne.md, "Moves")."""
        text = f"{self.tile}@{self.x},{self.y}r{self.rotation}"
        return text if self.follower is None else f"{text}+{self.follower}"

    def to_json(self) -> PlaceJSON:
        """The JSON form (docs/carcassonne.md, "Moves")."""
        return {
            "type": "place",
            "tile": self.tile,
            "x": self.x,
            "y": self.y,
            "rotation": self.rotation,
            "follower": self.follower,
        }

    @classmethod
    def from_notation(cls, text: str) -> Place:
        """The placement written ``text`` (case and surrounding spaces ignored), canonical;
        raises ``InvalidMove`` (``malformed-move``)."""
        found = _PLACE.fullmatch(text.strip().upper())
        if not found:
            raise malformed(
                f"{text!r} is not a Carcassonne move (examples: D@1,0r90+c0, V@-2,1r0)."
            )
        return checked(place_of(found.groups()))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Place:
        """The placement of a JSON object with exactly the fields of :class:`PlaceJSON`,
        canonical; raises ``InvalidMove`` (``malformed-move``)."""
        if set(data) != PLACE_FIELDS or data.get("type") != "place":
            raise malformed(FIELDS_MESSAGE)
        return checked(cls(data["tile"], data["x"], data["y"], data["rotation"], data["follower"]))

    def well_formed(self) -> bool:
        """Whether every field is in range (a move built in code rather than parsed may not
        be): a tile type, coordinates, a rotation and a segment id or ``None``."""
        tile, x, y, rotation, follower = self
        return (
            isinstance(tile, str)
            and tile in TYPE_INDEX
            and coordinate(x)
            and coordinate(y)
            and type(rotation) is int
            and rotation in ROTATIONS
            and (follower is None or (isinstance(follower, str) and follower in SEGMENT_IDS))
        )

    def canonical(self) -> Place:
        """The same placement as it is listed: a symmetric tile turned to a rotation that
        looks exactly like a smaller one (U at 180 like U at 0) is given that smaller
        rotation, and its follower the id of the segment lying in the same place. A segment
        id the tile does not have is left as it is (``apply`` refuses it)."""
        kind = TYPE_INDEX[self.tile]
        turns, same = LOOKALIKES[kind][self.rotation // 90]
        if turns * 90 == self.rotation:
            return self
        follower = self.follower
        if follower is not None:
            index = TYPES[kind].segment_index(follower)
            if index >= 0:
                follower = TYPES[kind].segments[same[index]].id
        return Place(self.tile, self.x, self.y, ROTATIONS[turns], follower)


def place_of(groups: tuple[str | Any, ...]) -> Place:
    """The placement of the first five groups of a match of :data:`PLACE_TEXT`."""
    tile, x, y, rotation, follower = groups[:5]
    return Place(
        tile, int(x), int(y), int(rotation), None if follower is None else follower.lower()
    )


def checked(move: Place) -> Place:
    """``move`` canonical, or ``InvalidMove`` when a field is out of range."""
    if not move.well_formed():
        raise malformed(PLACE_MESSAGE)
    return move.canonical()


MOVES: dict[int, tuple[Place, ...]] = {}
"""The memo of :func:`placements`, keyed ``((pos << 8 | kind << 2 | turns) << 16) | free``
(``bench/carcassonne_engine.py --cold`` empties it, with every other memo of :data:`MEMOS`,
before every game; docs/performance.md)."""
MOVES_LIMIT: Final = 200_000
MEMOS: Final[list[dict[int, Any]]] = [MOVES]
"""Every memo of ready-made moves (the expansion adds its placements with a bridge), which
:func:`clear_memo` empties."""


def _spot_table(kind: int) -> tuple[tuple[str | None, ...], ...]:
    segments = TYPES[kind].segments
    return tuple(
        (None, *(s.id for index, s in enumerate(segments) if free >> index & 1))
        for free in range(1 << len(segments))
    )


SPOTS: Final = tuple(_spot_table(kind) for kind in range(len(TYPES)))
"""``SPOTS[kind][free]``: ``None`` (no follower), then the ids of the segments whose bit
is set in ``free``."""
LETTERS: Final = tuple(tile.letter for tile in TYPES)


def placements(kind: int, pos: int, turns: int, free: int) -> tuple[Place, ...]:
    """The moves of one placement of tile type ``kind`` on square ``pos``: without a
    follower, then one per segment whose bit is set in ``free`` (segment order). Memoised
    (a pure function of its arguments), so that listing legal moves allocates little."""
    key = ((pos << 8 | kind << 2 | turns) << 16) | free
    found = MOVES.get(key)
    return build_placements(key, kind, pos, turns, free) if found is None else found


def build_placements(key: int, kind: int, pos: int, turns: int, free: int) -> tuple[Place, ...]:
    """:func:`placements` when ``key`` is not in the memo yet: make the moves, keep them."""
    x, y = xy(pos)
    letter = LETTERS[kind]
    rotation = ROTATIONS[turns]
    make = tuple.__new__
    found = tuple([make(Place, (letter, x, y, rotation, spot)) for spot in SPOTS[kind][free]])
    if len(MOVES) >= MOVES_LIMIT:
        MOVES.clear()
    MOVES[key] = found
    return found


def clear_memo() -> None:
    """Forget every memoised placement, of the base game and of the expansion (only
    ``bench/carcassonne_engine.py --cold`` uses it, to time a cold start)."""
    for memo in MEMOS:
        memo.clear()
