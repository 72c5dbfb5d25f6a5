"""Risk by the "Constitution" house rules (shared/rules/risk.md; docs/risk.md) -- foundation only.

Not yet registered as a game. Modules: ``mapdata`` the classic world map as embedded data,
``worldmap`` the validated :class:`~domain.risk.worldmap.WorldMap` value, ``dice`` one roll of
a battle (shared/rules/risk.md, "Invasion phase").
"""
