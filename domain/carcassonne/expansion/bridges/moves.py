"""The placement with a bridge, :class:`Bridged` (expansion, docs/carcassonne.md, "Bridges"
and "Moves"): the placement of :class:`~domain.carcassonne.moves.Place` and a bridge across
``axis`` (``"NS"`` or ``"WE"``, as on the table) of the tile on square
``(bridge_x, bridge_y)``: the tile just placed or an orthogonal neighbour. A follower on the
bridge of the tile just placed stands on segment ``b0``.

>>> move = Bridged.from_notation("U@1,0r0+r0^2,0NS")
>>> move
Bridged(tile='U', x=1, y=0, rotation=0, follower='r0', bridge_x=2, bridge_y=0, axis='NS')
>>> move.notation()
'U@1,0r0+r0^2,0NS'
>>> move.to_json()["bridge"]
{'x': 2, 'y': 0, 'axis': 'NS'}
>>> Bridged.from_json(move.to_json()) == move
True
"""

from __future__ import annotations

import re
from typing import Any, Final, NamedTuple, cast

from typing_extensions import TypedDict

from domain.carcassonne.events import Axis
from domain.carcassonne.moves import (
    FIELDS_MESSAGE,
    PLACE_FIELDS,
    PLACE_MESSAGE,
    PLACE_TEXT,
    Place,
    PlaceJSON,
    coordinate,
    malformed,
    place_of,
)
from domain.carcassonne.tiles import AXES

_BRIDGED: Final = re.compile(PLACE_TEXT + r"\^(-?[0-9]+),(-?[0-9]+)(NS|WE)")


class BridgeJSON(TypedDict):
    """Where the bridge lies: the square of its tile and its axis on the table."""

    x: int
    y: int
    axis: Axis


class BridgedJSON(PlaceJSON):
    """The JSON form of :class:`Bridged`: a placement with one more field, ``bridge``."""

    bridge: BridgeJSON


class Bridged(NamedTuple):
    """Place the drawn tile, maybe deploy a follower, and lay a bridge (module
    docstring)."""

    tile: str
    x: int
    y: int
    rotation: int
    follower: str | None
    bridge_x: int
    bridge_y: int
    axis: Axis

    @property
    def place(self) -> Place:
        """The placement without the bridge."""
        return Place(self.tile, self.x, self.y, self.rotation, self.follower)

    def notation(self) -> str:
        """The placement's notation, then ``^<x>,<y><axis>``."""
        return f"{self.place.notation()}^{self.bridge_x},{self.bridge_y}{self.axis}"

    def to_json(self) -> BridgedJSON:
        """The placement's JSON form with ``"bridge": {"x", "y", "axis"}``."""
        place = self.place.to_json()
        return {
            **place,
            "bridge": {"x": self.bridge_x, "y": self.bridge_y, "axis": self.axis},
        }

    @classmethod
    def from_notation(cls, text: str) -> Bridged:
        """The placement with a bridge written ``text`` (case and surrounding spaces
        ignored), canonical; raises ``InvalidMove`` (``malformed-move``)."""
        found = _BRIDGED.fullmatch(text.strip().upper())
        if not found:
            raise malformed(
                f"{text!r} is not a Carcassonne move (examples: D@1,0r90+c0, U@1,0r0^2,0NS)."
            )
        groups = found.groups()
        bx, by, axis = groups[5:]
        return checked(cls(*place_of(groups), int(bx), int(by), cast(Axis, axis)))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Bridged:
        """The placement with a bridge of a JSON object with exactly the fields of
        :class:`BridgedJSON`, canonical; raises ``InvalidMove`` (``malformed-move``)."""
        if set(data) != PLACE_FIELDS | {"bridge"} or data.get("type") != "place":
            raise malformed(FIELDS_MESSAGE)
        bridge = data["bridge"]
        if not isinstance(bridge, dict) or set(bridge) != {"x", "y", "axis"}:
            raise malformed('A bridge is {"x": .., "y": .., "axis": "NS" or "WE"}.')
        place = Place(data["tile"], data["x"], data["y"], data["rotation"], data["follower"])
        return checked(cls(*place, bridge["x"], bridge["y"], bridge["axis"]))

    def well_formed(self) -> bool:
        """Whether every field is in range: the placement's, the bridge's square and axis."""
        bridge = coordinate(self.bridge_x) and coordinate(self.bridge_y)
        return bridge and self.axis in AXES and self.place.well_formed()

    def canonical(self) -> Bridged:
        """The placement canonical (:meth:`Place.canonical`), the bridge kept as it is (it
        lies on the table, whatever the tile's rotation)."""
        return Bridged(*self.place.canonical(), self.bridge_x, self.bridge_y, self.axis)


def checked(move: Bridged) -> Bridged:
    """``move`` canonical, or ``InvalidMove`` when a field is out of range."""
    if not move.well_formed():
        raise malformed(PLACE_MESSAGE)
    return move.canonical()
