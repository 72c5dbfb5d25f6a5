"""Bridges (expansion Bridges, Castles & Bazaars; docs/carcassonne.md, "The expansion"):
``events`` the ``BridgePlaced`` event, ``evolve`` its handler, ``moves`` the placement with
a bridge, ``placement`` where bridges may lie, ``turn`` laying one in a turn.
"""
