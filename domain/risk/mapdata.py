# ruff: noqa: E501
"""The classic world map of Risk as data (docs/risk.md, "Map" and "Reinforcement phase"
item 3): the project's own statement of the classic map (seed 003, Art. 1: 42 territories in
six continents), one continent or territory per line, embedded as a module so that the domain
reads no file; tests/unit/risk/test_worldmap.py checks it against the facts docs/risk.md lists.

42 territories, 6 continents with their bonuses, 83 borders (each listed from both sides),
a card symbol per territory (14 infantry, 14 cavalry, 14 artillery) and 2 wild cards.
:func:`domain.risk.worldmap.load_map` validates it and builds the :class:`WorldMap`.
"""

from __future__ import annotations

import json
from typing import Any, Final

WORLD_MAP_JSON: Final = """{"continents": [
{"code": "NA", "name": "North America", "bonus": 5, "territories": ["Alaska", "Northwest Territory", "Greenland", "Alberta", "Ontario", "Quebec", "Western United States", "Eastern United States", "Central America"]},
{"code": "SA", "name": "South America", "bonus": 2, "territories": ["Venezuela", "Peru", "Brazil", "Argentina"]},
{"code": "EU", "name": "Europe", "bonus": 5, "territories": ["Iceland", "Scandinavia", "Great Britain", "Northern Europe", "Western Europe", "Southern Europe", "Ukraine"]},
{"code": "AF", "name": "Africa", "bonus": 3, "territories": ["North Africa", "Egypt", "East Africa", "Congo", "South Africa", "Madagascar"]},
{"code": "AS", "name": "Asia", "bonus": 7, "territories": ["Ural", "Siberia", "Yakutsk", "Kamchatka", "Irkutsk", "Mongolia", "Japan", "Afghanistan", "China", "Middle East", "India", "Siam"]},
{"code": "AU", "name": "Australia", "bonus": 2, "territories": ["Indonesia", "New Guinea", "Western Australia", "Eastern Australia"]}
],
"territories": [
{"name": "Alaska", "continent": "NA", "card_symbol": "infantry", "neighbours": ["Northwest Territory", "Alberta", "Kamchatka"]},
{"name": "Northwest Territory", "continent": "NA", "card_symbol": "artillery", "neighbours": ["Alaska", "Greenland", "Alberta", "Ontario"]},
{"name": "Greenland", "continent": "NA", "card_symbol": "cavalry", "neighbours": ["Northwest Territory", "Ontario", "Quebec", "Iceland"]},
{"name": "Alberta", "continent": "NA", "card_symbol": "infantry", "neighbours": ["Alaska", "Northwest Territory", "Ontario", "Western United States"]},
{"name": "Ontario", "continent": "NA", "card_symbol": "cavalry", "neighbours": ["Northwest Territory", "Greenland", "Alberta", "Quebec", "Western United States", "Eastern United States"]},
{"name": "Quebec", "continent": "NA", "card_symbol": "artillery", "neighbours": ["Greenland", "Ontario", "Eastern United States"]},
{"name": "Western United States", "continent": "NA", "card_symbol": "infantry", "neighbours": ["Alberta", "Ontario", "Eastern United States", "Central America"]},
{"name": "Eastern United States", "continent": "NA", "card_symbol": "artillery", "neighbours": ["Ontario", "Quebec", "Western United States", "Central America"]},
{"name": "Central America", "continent": "NA", "card_symbol": "cavalry", "neighbours": ["Western United States", "Eastern United States", "Venezuela"]},
{"name": "Venezuela", "continent": "SA", "card_symbol": "artillery", "neighbours": ["Central America", "Peru", "Brazil"]},
{"name": "Peru", "continent": "SA", "card_symbol": "cavalry", "neighbours": ["Venezuela", "Brazil", "Argentina"]},
{"name": "Brazil", "continent": "SA", "card_symbol": "artillery", "neighbours": ["Venezuela", "Peru", "Argentina", "North Africa"]},
{"name": "Argentina", "continent": "SA", "card_symbol": "infantry", "neighbours": ["Peru", "Brazil"]},
{"name": "Iceland", "continent": "EU", "card_symbol": "infantry", "neighbours": ["Greenland", "Scandinavia", "Great Britain"]},
{"name": "Scandinavia", "continent": "EU", "card_symbol": "artillery", "neighbours": ["Iceland", "Great Britain", "Northern Europe", "Ukraine"]},
{"name": "Great Britain", "continent": "EU", "card_symbol": "cavalry", "neighbours": ["Iceland", "Scandinavia", "Northern Europe", "Western Europe"]},
{"name": "Northern Europe", "continent": "EU", "card_symbol": "cavalry", "neighbours": ["Scandinavia", "Great Britain", "Western Europe", "Southern Europe", "Ukraine"]},
{"name": "Western Europe", "continent": "EU", "card_symbol": "infantry", "neighbours": ["Great Britain", "Northern Europe", "Southern Europe", "North Africa"]},
{"name": "Southern Europe", "continent": "EU", "card_symbol": "cavalry", "neighbours": ["Northern Europe", "Western Europe", "Ukraine", "North Africa", "Egypt", "Middle East"]},
{"name": "Ukraine", "continent": "EU", "card_symbol": "artillery", "neighbours": ["Scandinavia", "Northern Europe", "Southern Europe", "Ural", "Afghanistan", "Middle East"]},
{"name": "North Africa", "continent": "AF", "card_symbol": "infantry", "neighbours": ["Brazil", "Western Europe", "Southern Europe", "Egypt", "East Africa", "Congo"]},
{"name": "Egypt", "continent": "AF", "card_symbol": "infantry", "neighbours": ["Southern Europe", "North Africa", "East Africa", "Middle East"]},
{"name": "East Africa", "continent": "AF", "card_symbol": "artillery", "neighbours": ["North Africa", "Egypt", "Congo", "South Africa", "Madagascar", "Middle East"]},
{"name": "Congo", "continent": "AF", "card_symbol": "cavalry", "neighbours": ["North Africa", "East Africa", "South Africa"]},
{"name": "South Africa", "continent": "AF", "card_symbol": "artillery", "neighbours": ["East Africa", "Congo", "Madagascar"]},
{"name": "Madagascar", "continent": "AF", "card_symbol": "infantry", "neighbours": ["East Africa", "South Africa"]},
{"name": "Ural", "continent": "AS", "card_symbol": "cavalry", "neighbours": ["Ukraine", "Siberia", "Afghanistan", "China"]},
{"name": "Siberia", "continent": "AS", "card_symbol": "artillery", "neighbours": ["Ural", "Yakutsk", "Irkutsk", "Mongolia", "China"]},
{"name": "Yakutsk", "continent": "AS", "card_symbol": "cavalry", "neighbours": ["Siberia", "Kamchatka", "Irkutsk"]},
{"name": "Kamchatka", "continent": "AS", "card_symbol": "cavalry", "neighbours": ["Alaska", "Yakutsk", "Irkutsk", "Mongolia", "Japan"]},
{"name": "Irkutsk", "continent": "AS", "card_symbol": "infantry", "neighbours": ["Siberia", "Yakutsk", "Kamchatka", "Mongolia"]},
{"name": "Mongolia", "continent": "AS", "card_symbol": "artillery", "neighbours": ["Siberia", "Kamchatka", "Irkutsk", "Japan", "China"]},
{"name": "Japan", "continent": "AS", "card_symbol": "infantry", "neighbours": ["Kamchatka", "Mongolia"]},
{"name": "Afghanistan", "continent": "AS", "card_symbol": "infantry", "neighbours": ["Ukraine", "Ural", "China", "Middle East", "India"]},
{"name": "China", "continent": "AS", "card_symbol": "cavalry", "neighbours": ["Ural", "Siberia", "Mongolia", "Afghanistan", "India", "Siam"]},
{"name": "Middle East", "continent": "AS", "card_symbol": "artillery", "neighbours": ["Southern Europe", "Ukraine", "Egypt", "East Africa", "Afghanistan", "India"]},
{"name": "India", "continent": "AS", "card_symbol": "infantry", "neighbours": ["Afghanistan", "China", "Middle East", "Siam"]},
{"name": "Siam", "continent": "AS", "card_symbol": "artillery", "neighbours": ["China", "India", "Indonesia"]},
{"name": "Indonesia", "continent": "AU", "card_symbol": "cavalry", "neighbours": ["Siam", "New Guinea", "Western Australia"]},
{"name": "New Guinea", "continent": "AU", "card_symbol": "cavalry", "neighbours": ["Indonesia", "Western Australia", "Eastern Australia"]},
{"name": "Western Australia", "continent": "AU", "card_symbol": "artillery", "neighbours": ["Indonesia", "New Guinea", "Eastern Australia"]},
{"name": "Eastern Australia", "continent": "AU", "card_symbol": "infantry", "neighbours": ["New Guinea", "Western Australia"]}
],
"wild_cards": 2}"""

WORLD_MAP_DATA: Final[dict[str, Any]] = json.loads(WORLD_MAP_JSON)
"""The map parsed: the JSON-like dict that :func:`domain.risk.worldmap.load_map` takes."""
