"""A tournament's format, fixed at creation (docs/tournaments.md, "The tournament aggregate",
"Format"): the pairing settings of one of the formats of ``domain.tournament.pairing`` and the
registration options, as the JSON the ``Created`` event records.

The JSON, every field but ``kind`` optional::

    {"kind": "swiss" | "round-robin" | "elimination",
     "table_size": 2, "min_table_size": <table_size>,
     "rounds": null,          # swiss: the organiser's number of rounds; round robin: see pairing
     "cycles": 1,             # round robin only
     "advance": 1,            # elimination only
     "late_entry": false,     # swiss only: entrants may register after the start
     "max_entrants": null,    # null: no limit
     "points": {"2": [1, 0]}, # per table size, the points of each rank (domain.tournament.scoring)
     "bye_points": 1, "tie_breaks": ["score", "buchholz", "head-to-head", "seat"],
     "pairing": "auto"}       # or "organiser": who pairs the next round

``normalise_format`` fills the defaults in and refuses what cannot be played: a table size
outside 2..6 or outside the game's player range with the tournament's options (every size
from ``min_table_size`` to ``table_size`` is set up once with the game's rules), late entry in
a format whose schedule is fixed at the start (docs/tournaments.md, "Pairing numbers").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import GameError
from domain.protocol import Rules
from domain.tournament.errors import InvalidTournament
from domain.tournament.pairing import (
    EliminationSettings,
    FormatSettings,
    RoundRobinSettings,
    SwissSettings,
)
from domain.tournament.pairing.model import MAX_TABLE_SIZE
from domain.tournament.scoring import normalise_scoring

KINDS = ("swiss", "round-robin", "elimination")
"""The format kinds, as the JSON names them."""

FIELDS: dict[str, frozenset[str]] = {
    "swiss": frozenset({"rounds"}),
    "round-robin": frozenset({"rounds", "cycles"}),
    "elimination": frozenset({"advance"}),
}
"""The fields each kind takes beyond the common ones."""

COMMON = frozenset(
    {
        "kind",
        "table_size",
        "min_table_size",
        "late_entry",
        "max_entrants",
        "points",
        "bye_points",
        "tie_breaks",
        "pairing",
    }
)


MAX_ROUNDS = 100
"""The most rounds a format may ask for (``rounds``): more than any event plays, and a bound
on the work of pairing (a multi-player round robin computes its whole schedule at round 1)."""


def _integer(
    given: Mapping[str, Any], name: str, default: int | None, low: int, high: int | None = None
) -> int | None:
    """The field ``name`` of ``given``: an integer >= ``low`` (and <= ``high``), or
    ``default`` when absent."""
    value = given.get(name, default)
    if value is None and default is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < low
        or (high is not None and value > high)
    ):
        within = f"from {low} to {high}" if high is not None else f">= {low}"
        raise InvalidTournament("invalid-format", f"'{name}' must be an integer {within}.")
    return value


def normalise_format(
    given: Mapping[str, Any], rules: Rules[Any, Any], options: Any
) -> dict[str, Any]:
    """The format JSON with its defaults filled in (module docstring); raises
    :class:`InvalidTournament` (``invalid-format``) for anything that cannot be played."""
    if not isinstance(given, Mapping):
        raise InvalidTournament("invalid-format", "The format must be an object.")
    kind = given.get("kind")
    if kind not in KINDS:
        raise InvalidTournament("invalid-format", f"'kind' must be one of {', '.join(KINDS)}.")
    unknown = set(given) - COMMON - FIELDS[kind]
    if unknown:
        raise InvalidTournament(
            "invalid-format", f"Unknown format fields: {', '.join(sorted(unknown))}."
        )
    size = _integer(given, "table_size", 2, 2)
    assert size is not None
    smallest = _integer(given, "min_table_size", size, 2)
    assert smallest is not None
    if size > MAX_TABLE_SIZE or smallest > size:
        raise InvalidTournament(
            "invalid-format", f"Tables seat 2 to {MAX_TABLE_SIZE}: min_table_size <= table_size."
        )
    late = given.get("late_entry", False)
    if not isinstance(late, bool) or (late and kind != "swiss"):
        raise InvalidTournament(
            "invalid-format", "'late_entry' is true or false, and only a Swiss takes it."
        )
    fixed: dict[str, Any] = {
        "kind": kind,
        "table_size": size,
        "min_table_size": smallest,
        "late_entry": late,
        "max_entrants": _integer(given, "max_entrants", None, 2),
        **normalise_scoring(given, smallest, size),
    }
    if kind in ("swiss", "round-robin"):
        fixed["rounds"] = _integer(given, "rounds", None, 1, MAX_ROUNDS)
    if kind == "round-robin":
        fixed["cycles"] = _integer(given, "cycles", 1, 1)
    if kind == "elimination":
        advance = _integer(given, "advance", 1, 1)
        assert advance is not None
        if size > 2 and advance >= smallest:
            raise InvalidTournament("invalid-format", "'advance' must be below min_table_size.")
        fixed["advance"] = advance
    for players in range(smallest, size + 1):
        try:
            rules.setup(players, options)
        except GameError as refused:
            raise InvalidTournament(
                "invalid-format",
                f"A table of {players} cannot play {rules.name}: {refused.message}",
            ) from None
    return fixed


def pairing_settings(fixed: Mapping[str, Any]) -> FormatSettings:
    """The pairing settings of a normalised format (``domain.tournament.pairing``)."""
    size, smallest = fixed["table_size"], fixed["min_table_size"]
    if fixed["kind"] == "swiss":
        return SwissSettings(table_size=size, min_table_size=smallest)
    if fixed["kind"] == "round-robin":
        return RoundRobinSettings(
            table_size=size, min_table_size=smallest, cycles=fixed["cycles"], rounds=fixed["rounds"]
        )
    return EliminationSettings(table_size=size, min_table_size=smallest, advance=fixed["advance"])
