"""Every Carcassonne move, the base game's and the expansion's, read from and written to its
JSON form and its notation (docs/carcassonne.md, "Moves"; docs/architecture.md, "Typed
events, moves and views"): :class:`~domain.carcassonne.moves.Place`, and with Bridges,
Castles & Bazaars :class:`~domain.carcassonne.expansion.bridges.moves.Bridged`, the castle
answers (:mod:`domain.carcassonne.expansion.castles.moves`) and the bazaar moves
(:mod:`domain.carcassonne.expansion.bazaars.moves`). Each move writes itself
(``notation()``, ``to_json()``); this module reads any of them.

>>> parse_notation("D@1,0r90+c0")
Place(tile='D', x=1, y=0, rotation=90, follower='c0')
>>> notation(parse_notation("U@1,0r0^2,0ns"))
'U@1,0r0^2,0NS'
>>> parse_move({"type": "castle", "build": True})
CastleChoice(build=True)
>>> [notation(parse_notation(text)) for text in ("no-castle", "fief@0,1+c0", "bid BB6 2")]
['no-castle', 'fief@0,1+c0', 'bid BB6 2']
>>> move_to_json(parse_notation("pass"))
{'type': 'pass'}
"""

from __future__ import annotations

from typing import Any, Final

from domain.carcassonne.expansion.bazaars import moves as bazaar_moves
from domain.carcassonne.expansion.bazaars.moves import BazaarJSON, BazaarMove
from domain.carcassonne.expansion.bridges.moves import Bridged, BridgedJSON
from domain.carcassonne.expansion.castles.moves import (
    CastleChoice,
    CastleJSON,
    FiefChoice,
    FiefJSON,
)
from domain.carcassonne.moves import Place, PlaceJSON, malformed

Move = Place | Bridged | CastleChoice | FiefChoice | BazaarMove
"""Any Carcassonne move."""
MoveJSON = BridgedJSON | PlaceJSON | CastleJSON | FiefJSON | BazaarJSON
"""The JSON form of any Carcassonne move (the game's move shape). A bridged placement comes
before a plain one: both are ``"type": "place"``, and a client generated from the OpenAPI
document that tries the branches of the union in order (openapi-python-client does) must not
read a bridged placement as a plain one and drop its ``bridge``."""
MOVE_TYPES: Final = (Place, Bridged, CastleChoice, FiefChoice, *bazaar_moves.MOVE_TYPES)


def well_formed(move: object) -> bool:
    """Whether ``move`` is a Carcassonne move whose fields are in range (a move built in
    code rather than parsed may not be)."""
    if type(move) not in MOVE_TYPES:
        return False
    assert isinstance(move, MOVE_TYPES)
    return bool(move.well_formed())


def canonical(move: Move) -> Move:
    """A placement (with a bridge or not) as it is listed (:meth:`Place.canonical`); any
    other move as it is."""
    if isinstance(move, Place | Bridged):
        return move.canonical()
    return move


def parse_move(data: Any) -> Move:
    """A move from its JSON form; raises ``InvalidMove`` (``malformed-move``) when it cannot
    be read as a Carcassonne move."""
    if not isinstance(data, dict):
        raise malformed('A move is a JSON object with "type": "place", "castle" or "fief".')
    kind = data.get("type")
    if kind in bazaar_moves.KINDS:
        return bazaar_moves.from_json(data)
    if kind == "castle":
        return CastleChoice.from_json(data)
    if kind == "fief":
        return FiefChoice.from_json(data)
    if kind != "place":
        raise malformed('A move is a JSON object with "type": "place", "castle" or "fief".')
    return Bridged.from_json(data) if "bridge" in data else Place.from_json(data)


def move_to_json(move: Move) -> MoveJSON:
    """The JSON form of a move (read back by :func:`parse_move`)."""
    return move.to_json()


def parse_notation(text: Any) -> Move:
    """A move from its notation (``D@1,0r90+c0``, ``U@1,0r0+r0^2,0NS``, ``castle``,
    ``no-castle``, ``fief@1,0+r0``, ``bid K 2``, ``bid 3``, ``pass``, ``buy``, ``sell``,
    ``pick K``); case and surrounding spaces are ignored. Raises ``InvalidMove``
    (``malformed-move``)."""
    if not isinstance(text, str):
        raise malformed("A move in notation is a string.")
    word = text.strip().upper()
    bazaar = bazaar_moves.parse_notation(word)
    if bazaar is not None:
        return bazaar
    if word in ("CASTLE", "NO-CASTLE"):
        return CastleChoice.from_notation(word)
    if word.startswith("FIEF@"):
        return FiefChoice.from_notation(word)
    if "^" in word:
        return Bridged.from_notation(word)
    return Place.from_notation(text)


def notation(move: Move) -> str:
    """The notation of a move (read back by :func:`parse_notation`)."""
    return move.notation()
