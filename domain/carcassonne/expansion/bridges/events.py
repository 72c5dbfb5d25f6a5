"""The bridge's event (docs/carcassonne.md, "The expansion", "Bridges"): a bridge laid on a
placed tile beside the one about to be placed. A bridge on the tile just placed is part of
its ``TilePlaced`` (``"bridge"``; :mod:`domain.carcassonne.events`)."""

from __future__ import annotations

from typing import Final

from typing_extensions import TypedDict

from domain.carcassonne.events import Axis
from domain.events import EventKind


class BridgePlaced(TypedDict):
    """``player`` lays a bridge across ``axis`` of the tile on ``(x, y)``, a bridge token
    used."""

    player: int
    x: int
    y: int
    axis: Axis


BRIDGE_PLACED: Final = EventKind(BridgePlaced)
