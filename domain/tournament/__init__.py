"""Tournaments (issue 15): pure domain code, like a game's rules — no I/O, no clock, no global
random. ``pairing`` seats each round of every format (docs/tournaments.md, "Pairing")."""
