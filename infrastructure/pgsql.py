"""Statements for psycopg rendered once (docs/performance.md, "Application"): psycopg turns a
composed statement (``psycopg.sql.Composed``, which quotes identifiers) into the bytes it sends
anew on every execution, about 50 µs here, where a statement given as bytes is converted once
and remembered. A store renders its statements when it is made and executes the bytes."""

from __future__ import annotations

from psycopg.sql import Composable


def rendered(statement: Composable) -> bytes:
    """A composed statement as the bytes psycopg sends (identifiers quoted once)."""
    return statement.as_string().encode()
