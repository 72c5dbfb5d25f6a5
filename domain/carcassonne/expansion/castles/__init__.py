"""Castles (expansion Bridges, Castles & Bazaars; docs/carcassonne.md, "Castles"):
``events`` the castle and fief events, ``evolve`` their handlers, ``moves`` the answers to
a castle or fief offer, ``sites`` where castles may stand and what triggers them, ``turn``
the castle steps of a turn.
"""
