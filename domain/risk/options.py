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
from typing import Any, Final, Literal

from typing_extensions import TypedDict

from domain.protocol import InvalidOptions, OptionInfo


class RiskOptions(TypedDict):
    """The options of a game of Risk as fixed at creation (:func:`normalise_options`)."""

    ruleset: Literal["constitution", "classic"]
    starting_units: int | None
    placement_step: int
    stake: int
    purse: int
    unit_price: int
    buy_from_round: int
    golden_horse: list[int]


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


BOUNDS: Final[dict[str, tuple[int, int]]] = {
    "starting_units": (0, 200),
    "placement_step": (1, 50),
    "stake": (0, 1_000_000),
    "purse": (0, 1_000_000),
    "unit_price": (1, 100_000),
    "buy_from_round": (1, 100),
}
"""The range of each integer option (a decision: docs/risk.md, "Options"; wide enough for
any table, narrow enough that no sum of them leaves what a record can hold)."""
HORSE_STEPS: Final = (1, 12)
HORSE_VALUE: Final = (1, 100)
"""The golden-horse track: 1 to 12 steps, each worth 1 to 100 units."""

OPTIONS_INFO: Final = (
    OptionInfo(
        "ruleset", "string", "constitution", "The Constitution or classic Risk.", values=RULESETS
    ),
    OptionInfo(
        "starting_units",
        "integer",
        None,
        "Units per player besides one on each dealt territory; null: the table by "
        "player count (40/35/30/25/20).",
        minimum=0,
        maximum=200,
    ),
    OptionInfo(
        "placement_step",
        "integer",
        3,
        "Units placed per turn while setting up.",
        minimum=1,
        maximum=50,
    ),
    OptionInfo(
        "stake",
        "integer",
        1000,
        "Kopecks each player pays into the prize fund.",
        minimum=0,
        maximum=1_000_000,
    ),
    OptionInfo(
        "purse",
        "integer",
        1000,
        "Kopecks each player keeps as own money.",
        minimum=0,
        maximum=1_000_000,
    ),
    OptionInfo(
        "unit_price",
        "integer",
        50,
        "Kopecks per bought unit (paid into the fund).",
        minimum=1,
        maximum=100_000,
    ),
    OptionInfo(
        "buy_from_round",
        "integer",
        3,
        "The first round in which units may be bought.",
        minimum=1,
        maximum=100,
    ),
    OptionInfo(
        "golden_horse",
        "array",
        [4, 6, 8, 10, 12, 15],
        "The golden horse track: units per set turned in, 1 to 12 steps.",
        minimum=1,
        maximum=100,
    ),
)
"""Every option as ``GET /game-types`` shows it (docs/api.md, "Game types")."""


def _count(options: Mapping[str, Any], key: str) -> int:
    value = options[key]
    low, high = BOUNDS[key]
    if type(value) is not int or not low <= value <= high:
        raise InvalidOptions(
            "invalid-options", f"Option {key} must be an integer from {low} to {high}."
        )
    return value


def normalise_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options with defaults filled in; ``InvalidOptions`` names the first bad one."""
    if not isinstance(options, Mapping):
        raise InvalidOptions("invalid-options", "Options are a JSON object.")
    unknown = sorted(str(key) for key in options if key not in DEFAULTS)
    if unknown:
        raise InvalidOptions("invalid-options", f"Risk has no option {unknown[0]!r}.")
    out = {**DEFAULTS, **options}
    if not isinstance(out["ruleset"], str) or out["ruleset"] not in RULESETS:
        raise InvalidOptions(
            "invalid-options", f"Option ruleset must be one of {', '.join(RULESETS)}."
        )
    for key in BOUNDS:
        if key != "starting_units" or out[key] is not None:
            _count(out, key)
    track = out["golden_horse"]
    steps, value = HORSE_STEPS, HORSE_VALUE
    if (
        not isinstance(track, list)
        or not steps[0] <= len(track) <= steps[1]
        or not all(type(v) is int and value[0] <= v <= value[1] for v in track)
    ):
        raise InvalidOptions(
            "invalid-options",
            f"Option golden_horse must be a list of {steps[0]} to {steps[1]} integers "
            f"from {value[0]} to {value[1]}.",
        )
    out["golden_horse"] = list(track)
    return out


def starting_units(options: Mapping[str, Any], players: int) -> int:
    """Units each player places at setup besides those on dealt territories."""
    chosen = options["starting_units"]
    return STARTING_UNITS[players] if chosen is None else int(chosen)
