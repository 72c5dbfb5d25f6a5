"""Data for renderers (docs/api.md, "Rendering data"; issue 13, part 5): what a client needs
to draw a game that no game view repeats — the Carcassonne tile catalogue with each tile's
segments and follower spots (:mod:`.carcassonne_tiles`, :mod:`.tile_spots`) and the Risk map
with its borders and a layout (:mod:`.risk_map`, :mod:`.risk_layout`).

Each document is built once per process from the engine's own data and served as the same
bytes with a strong entity tag computed from them (:class:`Cacheable`), so a client caches it
and revalidates with ``If-None-Match``; the tag changes exactly when the content does.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache

import orjson

from application.rendering.carcassonne_tiles import tile_catalogue
from application.rendering.risk_map import risk_map


@dataclass(frozen=True, slots=True)
class Cacheable:
    """A document as it is sent: its JSON bytes and their strong entity tag (the quoted
    SHA-256 of the bytes, RFC 9110 8.8.3)."""

    body: bytes
    etag: str


def cacheable(document: object) -> Cacheable:
    """``document`` serialised (UTF-8 JSON, keys in the order built) with its entity tag."""
    body = orjson.dumps(document)
    return Cacheable(body, f'"{hashlib.sha256(body).hexdigest()}"')


@cache
def carcassonne_tiles_document() -> Cacheable:
    """The Carcassonne tile catalogue, serialised once."""
    return cacheable(tile_catalogue())


@cache
def risk_map_document() -> Cacheable:
    """The Risk map, serialised once."""
    return cacheable(risk_map())
