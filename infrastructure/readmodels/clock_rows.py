"""What both SQL stores keep of the clocks read model (application/projections/clocks.py):
its schema version."""

from __future__ import annotations

SCHEMA_VERSION = 2
"""Version 2: a game whose undo request waits for answers has its due row (its clocks run on,
and its flag, which ends the request, is recorded as any other; docs/api.md, "Clocks").
Version 1 rows were built by rules that left such games out, or (before that) kept them while
no flag could be recorded; an upgrade from version 1 makes the tables anew — rows and
position — and the follower fills them again from the log (docs/operations.md, "Clocks")."""
