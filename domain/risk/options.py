"""Game options of Risk (docs/risk.md, the **Decision** lines and
"Options"): the numbers the players may agree to change, with the Constitution's defaults.

* ``ruleset`` -- ``"constitution"`` (default) or ``"classic"``;
* ``starting_units`` -- units per player besides the one on each dealt territory; ``null``
  takes the table by player count (2: 40, 3: 35, 4: 30, 5: 25, 6: 20);
* ``placement_step`` -- units placed per turn while setting up (3);
* ``stake`` -- kopecks each player pays into the prize fund (1000 = 10 hryvnia);
* ``purse`` -- kopecks each player keeps as own money (1000; a decision: docs/risk.md, "Money");
* ``unit_price`` -- kopecks per bought unit (50), paid into the prize fund ("Money");
* ``buy_from_round`` -- the first round in which units may be bought (3: "after 2 rounds");
* ``golden_horse`` -- the golden horse track (4, 6, 8, 10, 12, 15; from the end back to 4;
  the seed gives 4 and 15, the steps between are a decision: "Reinforcement phase" item 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from domain.protocol import InvalidOptions

STARTING_UNITS: Final = {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}
"""Starting units by player count (seed 003, Art. 7; 25 for five players is our decision:
the seed's 45 is a misprint in a falling series)."""

RULESETS: Final = ("constitution", "classic")

DEFAULTS: Final[dict[str, Any]] = {
    "ruleset": "constitution",
    "starting_units": None,
    "placement_step": 3,
    "stake": 1000,
    "purse": 1000,
    "unit_price": 50,
    "buy_from_round": 3,
    "golden_horse": [4, 6, 8, 10, 12, 15],
}


def _count(options: Mapping[str, Any], key: str, minimum: int) -> int:
    value = options[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise InvalidOptions("invalid-options", f"Option {key} must be an integer >= {minimum}.")
    return value


def normalise_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options with defaults filled in; ``InvalidOptions`` names the first bad one."""
    unknown = sorted(set(options) - set(DEFAULTS))
    if unknown:
        raise InvalidOptions("invalid-options", f"Risk has no option {unknown[0]!r}.")
    out = {**DEFAULTS, **options}
    if out["ruleset"] not in RULESETS:
        raise InvalidOptions(
            "invalid-options", f"Option ruleset must be one of {', '.join(RULESETS)}."
        )
    if out["starting_units"] is not None:
        _count(out, "starting_units", 0)
    for key, minimum in (
        ("placement_step", 1),
        ("stake", 0),
        ("purse", 0),
        ("unit_price", 1),
        ("buy_from_round", 1),
    ):
        _count(out, key, minimum)
    track = out["golden_horse"]
    if (
        not isinstance(track, list)
        or not track
        or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in track)
    ):
        raise InvalidOptions(
            "invalid-options", "Option golden_horse must be a non-empty list of positive integers."
        )
    out["golden_horse"] = list(track)
    return out


def starting_units(options: Mapping[str, Any], players: int) -> int:
    """Units each player places at setup besides those on dealt territories."""
    chosen = options["starting_units"]
    return STARTING_UNITS[players] if chosen is None else int(chosen)
