"""Rendering data (docs/api.md, "Rendering data"; issue 13, part 5): what a client needs to
draw a game and no game view repeats — the Carcassonne tile catalogue and the Risk map.

Each answer is the same bytes for every request of a process, with a strong ``ETag`` computed
from them, ``Cache-Control: public, max-age=`` :data:`MAX_AGE`, and ``304 Not Modified`` for
an ``If-None-Match`` that names the tag (``application.rendering``)."""

from __future__ import annotations

from typing import Any, Final

from werkzeug.wrappers import Response

from api.rendering_schemas import RiskMapSchema, TileCatalogueSchema
from api.requests import Blueprint
from api.resources.common import NOT_MODIFIED, PREFIX, cache_headers, cached_answer
from application.rendering import carcassonne_tiles_document, risk_map_document
from application.rendering.carcassonne_tiles import tile_catalogue
from application.rendering.risk_map import risk_map

blp = Blueprint(
    "rendering", __name__, url_prefix=PREFIX, description="Data for renderers: tiles, maps"
)

MAX_AGE: Final = 3600
"""Seconds a client or a shared cache may reuse the document without asking again; then it
revalidates with ``If-None-Match`` (a new release may change the data)."""
HEADERS: Final = cache_headers(MAX_AGE)


def tiles_example() -> dict[str, Any]:
    """The catalogue with only the start tile's type (D) and a bridgeable one (U): the
    OpenAPI document's example."""
    document: dict[str, Any] = dict(tile_catalogue())
    document["tiles"] = [t for t in document["tiles"] if t["id"] in ("D", "U")]
    return document


def map_example() -> dict[str, Any]:
    """The map with Australia only (its territories and the borders between them): the
    OpenAPI document's example."""
    document: dict[str, Any] = dict(risk_map())
    document["continents"] = [c for c in document["continents"] if c["id"] == "AU"]
    names = set(document["continents"][0]["territories"])
    document["territories"] = [t for t in document["territories"] if t["id"] in names]
    document["borders"] = [b for b in document["borders"] if set(b["between"]) <= names]
    return document


@blp.route("/game-types/carcassonne/tiles", methods=["GET"])
@blp.response(200, TileCatalogueSchema, headers=HEADERS, example=tiles_example())
@blp.alt_response(304, description=NOT_MODIFIED, headers=HEADERS, success=True)
def get_carcassonne_tiles() -> Response:
    """Every Carcassonne tile type, base game and expansion: edges, segments with the edges
    or half-edges they touch, follower spots, bridges, rotation, and each option set's deck
    (docs/api.md, "Rendering data")."""
    return cached_answer(carcassonne_tiles_document(), MAX_AGE)


@blp.route("/game-types/risk/map", methods=["GET"])
@blp.response(200, RiskMapSchema, headers=HEADERS, example=map_example())
@blp.alt_response(304, description=NOT_MODIFIED, headers=HEADERS, success=True)
def get_risk_map() -> Response:
    """The Risk map of both rulesets: territories with their centres on a canvas, continents
    with their members and bonuses, every border (sea crossings marked) (docs/api.md,
    "Rendering data")."""
    return cached_answer(risk_map_document(), MAX_AGE)
