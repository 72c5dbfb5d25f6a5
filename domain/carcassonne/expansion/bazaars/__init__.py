"""Bazaars (expansion Bridges, Castles & Bazaars; docs/carcassonne.md, "Bazaars"):
``events`` the auction's events, ``evolve`` their handlers, ``moves`` bids, passes, deals and
picks, ``auction`` who acts and the legal bids, ``turn`` the auction and the bazaar turns.
"""
