"""The options of a game of Azul: their typed definition, defaults and normalisation
(docs/azul.md, "Options"; "Gray wall").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal

from typing_extensions import TypedDict

from domain.protocol import InvalidOptions, OptionInfo

Wall = Literal["colored", "gray"]
"""The wall side everyone plays (docs/azul.md, "Setup" and "Gray wall")."""


class AzulOptions(TypedDict):
    """The options as fixed at creation (docs/azul.md, "Options")."""

    wall: Wall


WALLS: Final[tuple[Wall, Wall]] = ("colored", "gray")
"""Values of the ``wall`` option (docs/azul.md, "Setup": the same wall side for everyone)."""

DEFAULT_OPTIONS: Final[AzulOptions] = {"wall": "colored"}
"""The options a game without any gets (docs/azul.md, "Options")."""

OPTIONS_INFO: Final[tuple[OptionInfo, ...]] = (
    OptionInfo(
        "wall",
        "string",
        DEFAULT_OPTIONS["wall"],
        'The wall side everyone plays (docs/azul.md, "Gray wall").',
        values=WALLS,
    ),
)
"""Every option, as ``GET /game-types`` describes it (docs/azul.md, "Options")."""


def normalise_options(options: Mapping[str, object]) -> AzulOptions:
    """``{"wall": "colored"}`` (default) or ``{"wall": "gray"}`` (docs/azul.md, "Options" and
    "Gray wall"); anything else raises ``InvalidOptions`` (``invalid-options``)."""
    if not isinstance(options, Mapping):
        raise InvalidOptions("invalid-options", "Options are a JSON object.")
    unknown = sorted(str(key) for key in options if key not in DEFAULT_OPTIONS)
    if unknown:
        raise InvalidOptions("invalid-options", f"Azul has no option {unknown[0]!r}.")
    wall = options.get("wall", DEFAULT_OPTIONS["wall"])
    for side in WALLS:
        if wall == side:
            return {"wall": side}
    raise InvalidOptions("invalid-options", 'Option \'wall\' is "colored" or "gray".')
