"""The options of a Carcassonne game, validated and fixed at creation (docs/carcassonne.md,
"Final scoring" for the farmer variants and the two-tile city; docs/carcassonne.md,
"Options" and "Scenario games").

A *scenario* (option ``stack``) draws given tile types first, in the given order, without
consuming random numbers; with ``stack-only`` those are the only tiles in the game, so that
it ends — and is finally scored — once they are used up. A scenario is not a fair game: the
service records it as an analysis game (:func:`is_scenario`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal, NotRequired, cast

from typing_extensions import TypedDict

from domain.carcassonne.expansion import ALL_COUNTS, EXPANSION, EXPANSIONS, tokens_each
from domain.carcassonne.farms import PER_FIELD, VARIANTS
from domain.carcassonne.state import CarcassonneState
from domain.carcassonne.tiles import BASE_COUNTS, START, TYPE_INDEX, TYPES
from domain.protocol import InvalidOptions, OptionInfo

BAZAAR_VARIANTS: Final = ("auction", "no-auction")
"""Values of ``bazaar`` (expansion): bazaars hold auctions, or each player picks a tile."""
SMALL_CITY_POINTS: Final = (4, 2)
"""Values of ``small-city-points``: what the tiles of a completed two-tile city score."""
DEFAULT_OPTIONS: Final = {"farmers": PER_FIELD, "small-city-points": 4}
SCENARIO_OPTIONS: Final = ("stack", "stack-only")
"""Options that make a game a scenario (present in the normalised options only when given)."""
OPTIONAL: Final = (*SCENARIO_OPTIONS, "expansions", "bazaar", "first_player")
"""Options present in the normalised options only when given (a base game's stay as they were)."""


Farmers = Literal["per-field", "per-city", "per-field-once"]
"""The farmer variants (:data:`~domain.carcassonne.farms.VARIANTS`)."""
SmallCityPoints = Literal[4, 2]
"""The values of ``small-city-points`` (:data:`SMALL_CITY_POINTS`)."""
ExpansionName = Literal["bridges-castles-bazaars"]
"""The expansions (:data:`~domain.carcassonne.expansion.EXPANSIONS`)."""
BazaarVariant = Literal["auction", "no-auction"]
"""The values of ``bazaar`` (:data:`BAZAAR_VARIANTS`)."""

CarcassonneOptions = TypedDict(
    "CarcassonneOptions",
    {
        "farmers": Farmers,
        "small-city-points": SmallCityPoints,
        "expansions": NotRequired[list[ExpansionName]],
        "bazaar": NotRequired[BazaarVariant],
        "first_player": NotRequired[int],
        "stack": NotRequired[list[str]],
        "stack-only": NotRequired[bool],
    },
)
"""The options as fixed at creation (:func:`normalise_options`; docs/carcassonne.md,
"Options"): the keys with hyphens make it a functional ``TypedDict``."""


OPTIONS_INFO: Final = (
    OptionInfo(
        "farmers",
        "string",
        PER_FIELD,
        'How farms score at the end (docs/carcassonne.md, "Final scoring").',
        values=VARIANTS,
    ),
    OptionInfo(
        "small-city-points",
        "integer",
        4,
        "What each tile of a completed two-tile city scores.",
        values=SMALL_CITY_POINTS,
    ),
    OptionInfo(
        "expansions",
        "array",
        None,
        "Expansions played: Bridges, Castles & Bazaars seats up to 6 players.",
        values=EXPANSIONS,
    ),
    OptionInfo(
        "bazaar",
        "string",
        None,
        "With the expansion: bazaars hold auctions (default) or each player picks "
        "and places a tile in turn.",
        values=BAZAAR_VARIANTS,
    ),
    OptionInfo(
        "first_player",
        "integer",
        None,
        "The seat that starts; absent: drawn at random from the game's seed.",
        minimum=0,
        maximum=5,
    ),
    OptionInfo(
        "stack",
        "array",
        None,
        "A scenario: tile letters drawn first, in order (an analysis game).",
        values=tuple(dict.fromkeys(tile.letter for tile in TYPES)),  # each letter once
    ),
    OptionInfo(
        "stack-only",
        "boolean",
        None,
        "With stack: those are the only tiles of the game.",
        values=(True, False),
    ),
)
"""Every option as ``GET /game-types`` shows it (docs/api.md, "Game types")."""


def stack_counts(expansion: bool) -> list[int]:
    """Per type, the copies in the stack once the start tile lies on the table: the base
    game's 71, with the expansion its 12 tiles as well (rules, "Base game"; "Bridges,
    Castles & Bazaars")."""
    counts = ALL_COUNTS if expansion else BASE_COUNTS
    return [n - (kind == START) for kind, n in enumerate(counts)]


def _invalid(detail: str) -> InvalidOptions:
    return InvalidOptions("invalid-options", detail)


def _stack(value: Any, limits: list[int]) -> list[str]:
    """The ``stack`` option: a non-empty list of tile letters of the game (base, and with
    the expansion BB1-BB11), no type more often than ``limits`` (the stack after the start
    tile: rules, "Base game": 72 tiles, one D laid)."""
    if not isinstance(value, list) or not value:
        raise _invalid("Option 'stack' is a non-empty list of tile letters.")
    counts = [0] * len(TYPES)
    for letter in value:
        kind = TYPE_INDEX.get(letter) if isinstance(letter, str) else None
        if kind is None or not limits[kind]:
            raise _invalid(f"Option 'stack': {letter!r} is not a tile of this game.")
        counts[kind] += 1
        if counts[kind] > limits[kind]:
            raise _invalid(
                f"Option 'stack' lists {letter} more than the {limits[kind]} in the stack."
            )
    return list(value)


def _expansions(value: Any) -> list[ExpansionName]:
    """The ``expansions`` option: a list of distinct expansion names; only
    ``bridges-castles-bazaars`` exists."""
    if not isinstance(value, list) or any(name not in EXPANSIONS for name in value):
        raise _invalid(f"Option 'expansions' is a list of expansions: [\"{EXPANSION}\"].")
    if len(set(value)) != len(value):
        raise _invalid("Option 'expansions' names an expansion twice.")
    return list(value)


def normalise_options(options: Mapping[str, Any]) -> CarcassonneOptions:
    """``farmers``: ``per-field`` (default), ``per-city`` or ``per-field-once``;
    ``small-city-points``: 4 (default) or 2 (rules, "Final scoring"); ``expansions``:
    ``["bridges-castles-bazaars"]`` or none; ``stack``: tile letters drawn first, in order;
    ``stack-only`` (with ``stack``): ``true`` when those are the only tiles of the game;
    ``first_player``: the seat that starts (else drawn at random; a scenario: seat 0).
    Anything else raises ``InvalidOptions`` (``invalid-options``)."""
    if not isinstance(options, Mapping):
        raise _invalid("Options are a JSON object.")
    known = (*DEFAULT_OPTIONS, *OPTIONAL)
    unknown = sorted(str(key) for key in options if key not in known)
    if unknown:
        raise _invalid(f"Carcassonne has no option {unknown[0]!r}.")
    farmers = options.get("farmers", DEFAULT_OPTIONS["farmers"])
    if not isinstance(farmers, str) or farmers not in VARIANTS:
        raise _invalid('Option \'farmers\' is "per-field", "per-city" or "per-field-once".')
    small = options.get("small-city-points", DEFAULT_OPTIONS["small-city-points"])
    if type(small) is not int or small not in SMALL_CITY_POINTS:
        raise _invalid("Option 'small-city-points' is 4 or 2.")
    fixed: CarcassonneOptions = {
        "farmers": cast(Farmers, farmers),
        "small-city-points": cast(SmallCityPoints, small),
    }
    expansions = _expansions(options.get("expansions", []))
    if expansions:
        fixed["expansions"] = expansions
    if "bazaar" in options:
        if not expansions or options["bazaar"] not in BAZAAR_VARIANTS:
            raise _invalid('Option \'bazaar\' ("auction" or "no-auction") needs the expansion.')
        fixed["bazaar"] = cast(BazaarVariant, options["bazaar"])
    if "first_player" in options:
        first = options["first_player"]
        if type(first) is not int or first < 0:
            raise _invalid("Option 'first_player' is a seat: 0 to the number of players - 1.")
        fixed["first_player"] = first
    if "stack" in options:
        only = options.get("stack-only", False)
        if type(only) is not bool:
            raise _invalid("Option 'stack-only' is true or false.")
        fixed["stack"] = _stack(options["stack"], stack_counts(has_expansion(fixed)))
        fixed["stack-only"] = only
    elif "stack-only" in options:
        raise _invalid("Option 'stack-only' needs option 'stack'.")
    return fixed


def has_expansion(options: Mapping[str, Any]) -> bool:
    """True when the (normalised) options play Bridges, Castles & Bazaars."""
    return EXPANSION in options.get("expansions", [])


def is_scenario(options: Mapping[str, Any]) -> bool:
    """True when the (normalised) options give a ``stack``: a scenario, never a result."""
    return bool(options.get("stack"))


def configure(state: CarcassonneState, options: Mapping[str, Any]) -> None:
    """Fit a new table (:func:`domain.carcassonne.board.new_state`) to the normalised
    options: with the expansion its 12 tiles join the stack and every seat gets its bridge
    and castle tokens ("Tokens"); a scenario's listed types are drawn first, and with
    ``stack-only`` they are the whole stack; the first player as fixed (-1: drawn at
    ``begin``; rules, "Base game")."""
    if has_expansion(options):
        state.expansion = True
        state.stack = stack_counts(True)
        state.total = sum(ALL_COUNTS)
        state.bridges = [tokens_each(state.players)] * state.players
        state.castles = [tokens_each(state.players)] * state.players
        state.bazaar_variant = options.get("bazaar", "auction")
    state.first_player = options.get("first_player", 0 if is_scenario(options) else -1)
    state.script = [TYPE_INDEX[letter] for letter in options.get("stack", [])]
    if options.get("stack-only", False):
        state.stack = [0] * len(TYPES)
        for kind in state.script:
            state.stack[kind] += 1
        state.total = 1 + len(state.script)
