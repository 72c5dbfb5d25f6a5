"""Carcassonne moves as small immutable values, with their JSON form and compact notation
(docs/carcassonne.md, "Base game": a turn places the drawn tile and optionally
deploys one follower on it).

* :class:`Place` — put the drawn tile ``tile`` on square ``(x, y)`` turned ``rotation``
  degrees clockwise (0, 90, 180, 270), and deploy a follower on its segment ``follower``
  (``"c0"``, ``"r1"``, ``"f2"``, ``"m0"`` for the monastery; ids as in the catalogue, the
  same whatever the rotation) or on none (``None``). Parsing gives a symmetric tile's
  look-alike rotations their :func:`canonical` form.
  JSON ``{"type": "place", "tile": "D", "x": 1, "y": 0, "rotation": 90, "follower": "c0"}``
  (``"follower": null`` for none); notation ``D@1,0r90+c0`` (``D@1,0r90`` for none).
"""

from __future__ import annotations

import re
from typing import Any, Final, NamedTuple

from domain.carcassonne.bazaar_moves import BazaarMove
from domain.carcassonne.grid import LIMIT, xy
from domain.carcassonne.tiles import AXES, LOOKALIKES, ROTATIONS, TYPE_INDEX, TYPES
from domain.protocol import InvalidMove


class Place(NamedTuple):
    """Place the drawn tile and maybe deploy a follower (module docstring)."""

    tile: str
    x: int
    y: int
    rotation: int
    follower: str | None


class Bridged(NamedTuple):
    """Place the drawn tile, maybe deploy a follower, and lay a bridge (expansion, rules
    "Bridges") across ``axis`` (``"NS"`` or ``"WE"``, as on the table) of the tile on square
    ``(bridge_x, bridge_y)``: the tile just placed or an orthogonal neighbour. A follower on
    the bridge of the tile just placed stands on segment ``b0``."""

    tile: str
    x: int
    y: int
    rotation: int
    follower: str | None
    bridge_x: int
    bridge_y: int
    axis: str


class CastleChoice(NamedTuple):
    """The answer to ``CastleOffered`` (expansion, rules "Castles"): turn the city into a
    castle (``build``) or score it. JSON ``{"type": "castle", "build": true}``; notation
    ``castle`` / ``no-castle``."""

    build: bool


class FiefChoice(NamedTuple):
    """The answer to ``FiefOffered`` (rules "Castles": the castle owner chooses which
    completed feature the castle scores), named by a segment of it (of the other castle's
    city in a chain). JSON ``{"type": "fief", "x": 1, "y": 0, "segment": "r0"}``; notation
    ``fief@1,0+r0``."""

    x: int
    y: int
    segment: str


Move = Place | Bridged | CastleChoice | FiefChoice | BazaarMove
"""Any Carcassonne move (the bazaar moves and their formats: :mod:`.bazaar_moves`)."""

SEGMENT_IDS: Final = frozenset(s.id for tile in TYPES for s in tile.segments)


def _malformed(detail: str) -> InvalidMove:
    return InvalidMove("malformed-move", detail)


def _coordinate(value: Any) -> bool:
    return type(value) is int and -LIMIT <= value <= LIMIT


def well_formed(move: object) -> bool:
    """Whether ``move`` is a :class:`Place` or :class:`Bridged` whose fields are in range (a
    move built in code rather than parsed may not be)."""
    if type(move) is Bridged:
        bridge = _coordinate(move.bridge_x) and _coordinate(move.bridge_y)
        return bridge and move.axis in AXES and well_formed(Place(*move[:5]))
    if type(move) is CastleChoice:
        return type(move.build) is bool
    if type(move) is FiefChoice:
        return (
            _coordinate(move.x)
            and _coordinate(move.y)
            and isinstance(move.segment, str)
            and move.segment in SEGMENT_IDS
        )
    if type(move) is not Place:
        return False
    tile, x, y, rotation, follower = move
    return (
        isinstance(tile, str)
        and tile in TYPE_INDEX
        and _coordinate(x)
        and _coordinate(y)
        and type(rotation) is int
        and rotation in ROTATIONS
        and (follower is None or (isinstance(follower, str) and follower in SEGMENT_IDS))
    )


def canonical(move: Move) -> Move:
    """:func:`canonical_place`, a bridge kept as it is (it lies on the table, whatever the
    tile's rotation)."""
    if isinstance(move, Bridged):
        return Bridged(*canonical_place(Place(*move[:5])), *move[5:])
    if isinstance(move, Place):
        return canonical_place(move)
    return move


def canonical_place(move: Place) -> Place:
    """The same placement as it is listed: a symmetric tile turned to a rotation that looks
    exactly like a smaller one (U at 180 like U at 0) is given that smaller rotation, and
    its follower the id of the segment lying in the same place. A segment id the tile does
    not have is left as it is (``apply`` refuses it)."""
    kind = TYPE_INDEX[move.tile]
    turns, same = LOOKALIKES[kind][move.rotation // 90]
    if turns * 90 == move.rotation:
        return move
    follower = move.follower
    if follower is not None:
        index = TYPES[kind].segment_index(follower)
        if index >= 0:
            follower = TYPES[kind].segments[same[index]].id
    return Place(move.tile, move.x, move.y, ROTATIONS[turns], follower)


def _checked(move: Move) -> Move:
    if not well_formed(move):
        raise _malformed(
            "A placement names a tile type (A..X), integer x and y, a rotation of 0, 90, "
            "180 or 270, and a follower segment id (c0, r1, f2, m0, ...) or null; a bridge "
            'integer x and y and an axis "NS" or "WE".'
        )
    return canonical(move)


PLACE_FIELDS: Final = frozenset({"type", "tile", "x", "y", "rotation", "follower"})


def parse_move(data: Any) -> Move:
    """A move from its JSON form (module docstring; with a bridge, one more field
    ``"bridge": {"x", "y", "axis"}``); raises ``InvalidMove`` (``malformed-move``) when it
    cannot be read as a Carcassonne move."""
    if isinstance(data, dict) and data.get("type") in ("castle", "fief"):
        return _choice(data)
    if not isinstance(data, dict) or data.get("type") != "place":
        raise _malformed('A move is a JSON object with "type": "place", "castle" or "fief".')
    if set(data) not in (PLACE_FIELDS, PLACE_FIELDS | {"bridge"}):
        raise _malformed(
            "A placement has exactly the fields type, tile, x, y, rotation, follower (and bridge)."
        )
    place = Place(data["tile"], data["x"], data["y"], data["rotation"], data["follower"])
    if "bridge" not in data:
        return _checked(place)
    bridge = data["bridge"]
    if not isinstance(bridge, dict) or set(bridge) != {"x", "y", "axis"}:
        raise _malformed('A bridge is {"x": .., "y": .., "axis": "NS" or "WE"}.')
    return _checked(Bridged(*place, bridge["x"], bridge["y"], bridge["axis"]))


def _choice(data: dict[str, Any]) -> Move:
    if data["type"] == "castle" and set(data) == {"type", "build"}:
        return _checked(CastleChoice(data["build"]))
    if data["type"] == "fief" and set(data) == {"type", "x", "y", "segment"}:
        return _checked(FiefChoice(data["x"], data["y"], data["segment"]))
    raise _malformed(
        'A castle choice is {"type": "castle", "build": true|false}; a fief choice '
        '{"type": "fief", "x": .., "y": .., "segment": ..}.'
    )


def move_to_json(move: Move) -> dict[str, Any]:
    """The JSON form of a move (read back by :func:`parse_move`)."""
    if type(move) is CastleChoice:
        return {"type": "castle", "build": move.build}
    if type(move) is FiefChoice:
        return {"type": "fief", "x": move.x, "y": move.y, "segment": move.segment}
    assert isinstance(move, Place | Bridged)
    out: dict[str, Any] = {
        "type": "place",
        "tile": move.tile,
        "x": move.x,
        "y": move.y,
        "rotation": move.rotation,
        "follower": move.follower,
    }
    if type(move) is Bridged:
        out["bridge"] = {"x": move.bridge_x, "y": move.bridge_y, "axis": move.axis}
    return out


_TEXT: Final = re.compile(
    r"([A-Z]+[0-9]*)@(-?[0-9]+),(-?[0-9]+)R([0-9]+)(?:\+([CRFMB][0-9]+))?"
    r"(?:\^(-?[0-9]+),(-?[0-9]+)(NS|WE))?"
)


_FIEF: Final = re.compile(r"FIEF@(-?[0-9]+),(-?[0-9]+)\+([CRFMB][0-9]+)")


def parse_notation(text: str) -> Move:
    """A move from its compact notation ``<tile>@<x>,<y>r<rotation>[+<segment>]``, e.g.
    ``D@1,0r90+c0``, ``V@-2,1r270``; with a bridge ``^<x>,<y><axis>`` after it, e.g.
    ``U@1,0r0+r0^2,0NS``. Case and surrounding spaces are ignored. Raises ``InvalidMove``
    (``malformed-move``)."""
    if not isinstance(text, str):
        raise _malformed("A move in notation is a string.")
    word = text.strip().upper()
    if word in ("CASTLE", "NO-CASTLE"):
        return CastleChoice(word == "CASTLE")
    fief = _FIEF.fullmatch(word)
    if fief:
        return _checked(FiefChoice(int(fief[1]), int(fief[2]), fief[3].lower()))
    found = _TEXT.fullmatch(text.strip().upper())
    if not found:
        raise _malformed(f"{text!r} is not a Carcassonne move (examples: D@1,0r90+c0, V@-2,1r0).")
    tile, x, y, rotation, follower, bx, by, axis = found.groups()
    place = Place(
        tile, int(x), int(y), int(rotation), None if follower is None else follower.lower()
    )
    if axis is None:
        return _checked(place)
    return _checked(Bridged(*place, int(bx), int(by), axis))


def notation(move: Move) -> str:
    """The compact notation of a move (read back by :func:`parse_notation`): a castle
    choice ``castle`` / ``no-castle``, a fief choice ``fief@<x>,<y>+<segment>``."""
    if type(move) is CastleChoice:
        return "castle" if move.build else "no-castle"
    if type(move) is FiefChoice:
        return f"fief@{move.x},{move.y}+{move.segment}"
    assert isinstance(move, Place | Bridged)
    text = f"{move.tile}@{move.x},{move.y}r{move.rotation}"
    text = text if move.follower is None else f"{text}+{move.follower}"
    if type(move) is Bridged:
        text += f"^{move.bridge_x},{move.bridge_y}{move.axis}"
    return text


MOVES: dict[int, tuple[Place, ...]] = {}
"""The memo of :func:`placements`, keyed ``((pos << 8 | kind << 2 | turns) << 16) | free``."""
MOVES_LIMIT: Final = 200_000


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
    """Forget every memoised placement (benchmarks use it to time a cold start)."""
    MOVES.clear()
