"""The transparency log (docs/api.md, "Transparency log"; docs/audit.md, "The transparency
log"): public, no token. The latest signed tree head (a short ``max-age``: it moves with every
append), any stored signed tree head by size (immutable: a long ``max-age``), pages of entries,
inclusion and consistency proofs against stored signed heads, and a game's checkpoints.
Sizes and indexes out of range are problems, never a 500."""

from __future__ import annotations

from typing import Any, Final

from werkzeug.wrappers import Response

from api import problems, tlog_schemas
from api.problems import Failure
from api.requests import Blueprint, game_uuid
from api.resources.common import NOT_MODIFIED, PREFIX, cache_headers, cached_answer, services
from application.rendering import cacheable
from application.transparency import (
    consistency,
    entries_page,
    game_checkpoints,
    inclusion,
    latest_head,
    stored_head,
)

blp = Blueprint(
    "transparency",
    __name__,
    url_prefix=PREFIX,
    description="The transparency log: signed tree heads, entries, proofs, checkpoints",
)

LATEST_MAX_AGE: Final = 10
"""Seconds a client may reuse the latest tree head: the log grows with every ended game."""
STORED_MAX_AGE: Final = 365 * 24 * 3600
"""A stored tree head, and a proof between stored heads, never change."""
HEAD_NOT_FOUND = Failure(404, "tree-head-not-found")


@blp.route("/log/tree-head", methods=["GET"])
@blp.response(200, tlog_schemas.TreeHeadSchema, headers=cache_headers(LATEST_MAX_AGE))
@blp.alt_response(
    304, description=NOT_MODIFIED, headers=cache_headers(LATEST_MAX_AGE), success=True
)
def latest_tree_head() -> Response:
    """The latest signed tree head (size, root hash, time, key id, signature); an empty log's
    has size 0 and the hash of nothing, signed too."""
    found = services()
    return cached_answer(cacheable(latest_head(found.tlog.store, found.keys)), LATEST_MAX_AGE)


@blp.route("/log/tree-heads/<turn:size>", methods=["GET"])
@blp.response(200, tlog_schemas.TreeHeadSchema, headers=cache_headers(STORED_MAX_AGE))
@blp.alt_response(
    304, description=NOT_MODIFIED, headers=cache_headers(STORED_MAX_AGE), success=True
)
@blp.problems(HEAD_NOT_FOUND)
def tree_head(size: int) -> Response:
    """The stored signed tree head of ``size`` entries (one is stored after each append);
    404 ``tree-head-not-found`` for a size the log never had as a head."""
    found = services()
    return cached_answer(cacheable(stored_head(found.tlog.store, found.keys, size)), STORED_MAX_AGE)


@blp.route("/log/entries", methods=["GET"])
@blp.arguments(tlog_schemas.EntriesQuery(), location="query")
@blp.response(200, tlog_schemas.EntriesSchema)
@blp.problems(problems.QUERY)
def log_entries(query: dict[str, Any]) -> dict[str, Any]:
    """Entries from ``start`` (at most ``limit``, up to 1000): each checkpoint with its index
    and signature; ``next_start`` is null after the last entry."""
    return entries_page(services().tlog.store, query["start"], query["limit"])


@blp.route("/log/proofs/inclusion", methods=["GET"])
@blp.arguments(tlog_schemas.InclusionQuery(), location="query")
@blp.response(200, tlog_schemas.InclusionProofSchema)
@blp.problems(problems.QUERY, HEAD_NOT_FOUND, Failure(422, "leaf-not-in-tree"))
def inclusion_proof(query: dict[str, Any]) -> dict[str, Any]:
    """RFC 9162's inclusion proof of entry ``leaf_index`` in the tree of ``tree_size`` entries
    (a stored signed head's size; default the latest), with that signed head."""
    found = services()
    size = query["tree_size"]
    if size is None:
        size = latest_head(found.tlog.store, found.keys)["size"]
    return inclusion(found.tlog.store, found.keys, query["leaf_index"], size)


@blp.route("/log/proofs/consistency", methods=["GET"])
@blp.arguments(tlog_schemas.ConsistencyQuery(), location="query")
@blp.response(200, tlog_schemas.ConsistencyProofSchema)
@blp.problems(problems.QUERY, HEAD_NOT_FOUND, Failure(422, "tree-sizes-out-of-order"))
def consistency_proof(query: dict[str, Any]) -> dict[str, Any]:
    """RFC 9162's consistency proof that the tree of ``first`` entries is a prefix of the tree
    of ``second`` (default the latest), with both stored signed heads."""
    found = services()
    second = query["second"]
    if second is None:
        second = latest_head(found.tlog.store, found.keys)["size"]
    return consistency(found.tlog.store, found.keys, query["first"], second)


@blp.route("/games/<game_id>/checkpoints", methods=["GET"])
@blp.response(200, tlog_schemas.CheckpointsSchema)
@blp.problems(problems.GAME)
def game_checkpoints_list(game_id: str) -> dict[str, Any]:
    """The game's checkpoints in the log, oldest first, each with its index and signature
    (none for a private game: the log is public)."""
    uuid = game_uuid(game_id)
    found = services()
    found.app.viewer(uuid, None)  # 404 for an unknown game
    return game_checkpoints(found.tlog.store, str(uuid))
