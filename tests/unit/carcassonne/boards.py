"""Boards of the seeds' pictures, built through the engine (tests/unit/carcassonne/helpers.py):
seats stand for the colours of the pictures. Coordinates: x grows east, y grows south; the
start tile D lies at (0,0), its city to the north."""

from __future__ import annotations

from domain.carcassonne import CarcassonneState

from .helpers import build, spots, table

RED, YELLOW, BLUE, GREEN, BLACK = range(5)


def end_board() -> list[str | tuple[str, int]]:
    """The final-scoring picture: red's road of 3, yellow's monastery with 4 neighbours,
    blue's city of 2, and a city worth 6 where green has 2 knights and black 1."""
    return [
        ("U@-1,0r0+r0", RED),
        "U@-2,0r0",
        ("N@0,-1r270+c0", GREEN),
        ("E@-2,-1r90+c0", BLACK),
        ("E@0,-2r0+c0", BLUE),
        ("F@-1,-2r90+c0", GREEN),
        "R@-1,-1r0",  # joins green's two parts and black's
        "G@0,-3r90",
        ("B@0,1r0+m0", YELLOW),
        "E@-1,1r180",
        "E@0,2r180",
    ]


def farm_board(state_players: int = 4, farmers: str = "per-field") -> CarcassonneState:
    """The basic farm picture: blue's farmer on the field around a completed city (the
    start tile's city closed by a cap) that also borders an incomplete city; red's farmer on
    the strip between the start tile's road and that city."""
    state = table(state_players, farmers=farmers)
    build(
        state,
        ("E@0,-1r180+f0", BLUE),  # city A completed, blue's field around its cap
        ("U@1,0r0+f0", RED),  # red's strip beside city A
        "E@0,-2r0",  # a city that stays incomplete, on blue's field
    )
    return state


def two_city_board(
    state_players: int = 4, farmers: str = "per-field", *, tie: bool
) -> CarcassonneState:
    """The majority pictures: cities A (the start tile's, closed at (0,-1)) and B (closed
    at (0,-4)) both border the big field; blue's small strip borders A only. Red deploys
    on two separate parts of the big field and yellow on a third; a road curve joins two
    parts and a monastery at the road's end joins the rest. With ``tie`` red's second
    farmer is left out."""
    state = table(state_players, farmers=farmers)
    build(
        state,
        ("E@0,-1r180+f0", RED),
        ("U@1,0r0+f0", BLUE),
        ("U@0,-2r0+f0", YELLOW),
        "U@-1,-1r90" if tie else ("U@-1,-1r90+f1", RED),
        "V@-1,-2r270",
    )
    assert spots(state, "A@1,-2r90") == {None, "r0", "m0"}  # the fields hold farmers
    build(state, "A@1,-2r90", "E@0,-3r0", "E@0,-4r180")
    return state
