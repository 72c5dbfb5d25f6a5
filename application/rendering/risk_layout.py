"""A drawing of the classic Risk world map (docs/api.md, "Rendering data"): the project's own
hand-placed approximate centre of each territory on a canvas of :data:`WIDTH` by :data:`HEIGHT`
(``x`` to the east, ``y`` to the south, the origin at the north-west corner, the Americas on
the left and Australia at the bottom right, as on the board), and which borders cross the
sea.

The engine has no layout (docs/risk.md, "Map": the map is territories, continents and
borders); this is presentation only, and no rule reads it. ``tests/unit/test_rendering_risk.py``
checks that every territory of the engine's map has a centre on the canvas, that no two
centres are closer than :data:`MIN_GAP`, and that every sea crossing is a border of the map.
"""

from __future__ import annotations

from typing import Final

WIDTH: Final = 1000
HEIGHT: Final = 600
MIN_GAP: Final = 40
"""The least distance between two centres, in canvas units (room for a label and a count)."""

CENTRES: Final[dict[str, tuple[int, int]]] = {
    "Alaska": (60, 90),
    "Northwest Territory": (160, 85),
    "Greenland": (330, 50),
    "Alberta": (145, 150),
    "Ontario": (225, 155),
    "Quebec": (300, 160),
    "Western United States": (150, 225),
    "Eastern United States": (240, 240),
    "Central America": (175, 305),
    "Venezuela": (250, 355),
    "Peru": (250, 435),
    "Brazil": (320, 410),
    "Argentina": (270, 515),
    "Iceland": (430, 105),
    "Scandinavia": (515, 85),
    "Great Britain": (425, 170),
    "Northern Europe": (505, 175),
    "Western Europe": (435, 250),
    "Southern Europe": (520, 240),
    "Ukraine": (595, 140),
    "North Africa": (465, 345),
    "Egypt": (545, 315),
    "East Africa": (595, 395),
    "Congo": (530, 430),
    "South Africa": (545, 515),
    "Madagascar": (635, 505),
    "Ural": (690, 120),
    "Siberia": (750, 80),
    "Yakutsk": (830, 65),
    "Kamchatka": (920, 80),
    "Irkutsk": (815, 140),
    "Mongolia": (830, 205),
    "Japan": (935, 215),
    "Afghanistan": (665, 205),
    "China": (790, 265),
    "Middle East": (620, 295),
    "India": (720, 315),
    "Siam": (800, 345),
    "Indonesia": (810, 430),
    "New Guinea": (905, 415),
    "Western Australia": (840, 525),
    "Eastern Australia": (930, 510),
}
"""Each territory's centre (a hand-placed approximation of the classic board)."""

SEA_BORDERS: Final[tuple[tuple[str, str], ...]] = (
    ("Alaska", "Kamchatka"),
    ("Northwest Territory", "Greenland"),
    ("Greenland", "Ontario"),
    ("Greenland", "Quebec"),
    ("Greenland", "Iceland"),
    ("Iceland", "Scandinavia"),
    ("Iceland", "Great Britain"),
    ("Scandinavia", "Great Britain"),
    ("Great Britain", "Northern Europe"),
    ("Great Britain", "Western Europe"),
    ("Brazil", "North Africa"),
    ("Western Europe", "North Africa"),
    ("Southern Europe", "North Africa"),
    ("Southern Europe", "Egypt"),
    ("East Africa", "Middle East"),
    ("East Africa", "Madagascar"),
    ("South Africa", "Madagascar"),
    ("Kamchatka", "Japan"),
    ("Mongolia", "Japan"),
    ("Siam", "Indonesia"),
    ("Indonesia", "New Guinea"),
    ("Indonesia", "Western Australia"),
    ("New Guinea", "Western Australia"),
    ("New Guinea", "Eastern Australia"),
)
"""The borders drawn across water on the classic board (a dashed line, say); every other
border is a shared land frontier."""

WRAPPING: Final[tuple[tuple[str, str], ...]] = (("Alaska", "Kamchatka"),)
"""Borders that leave the canvas on one side and come back on the other (the Pacific):
drawn as two stubs towards the canvas edges rather than a line across the map."""
