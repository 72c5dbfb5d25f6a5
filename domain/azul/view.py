"""What players and spectators see of a game of Azul, its summary and its outcome
(docs/azul.md: every component named in "Setup" and "Factory offer" is public; the bag's
order is never stored, so there is nothing hidden to redact).

All numbers a person reads are 1-based (factories, pattern lines, wall rows and columns);
``factories[k - 1]`` is factory ``k``.
"""

from __future__ import annotations

from typing import Any, Final, Literal, cast

from typing_extensions import TypedDict

from domain.azul.events import Bonus, Reason
from domain.azul.options import AzulOptions
from domain.azul.state import OVER, PHASE_NAMES, AzulState, PhaseName, current_players
from domain.azul.tiles import LETTERS, MARKER, SIZE, Letter, letters, wall_colour
from domain.protocol import Outcome, Viewer

COLOURED_WALL: Final = [
    "".join(LETTERS[wall_colour(r, c)] for c in range(SIZE)) for r in range(SIZE)
]
"""The printed colours of the coloured wall, one string per row (docs/azul.md, "Coloured wall")."""


class LineView(TypedDict):
    """One pattern line (docs/azul.md, "View"): its colour while it holds tiles."""

    line: int
    colour: Letter | None
    count: int


class PlayerView(TypedDict):
    """One seat's board (docs/azul.md, "View")."""

    seat: int
    score: int
    lines: list[LineView]
    wall: list[list[Letter | None]]
    """5 rows of 5 spaces, each a letter or ``null`` when empty."""
    floor: list[Letter | Literal["marker"]]
    """The floor line left to right."""
    marker: bool
    pending_row: int | None
    """Gray wall: the line to place next."""


class CentreView(TypedDict):
    """The centre of the table (docs/azul.md, "View")."""

    tiles: list[Letter]
    marker: bool


class AzulOutcomeDetails(TypedDict):
    """An outcome's details (docs/azul.md, "End of game"): why the game ended, each seat's
    bonuses and complete rows."""

    reason: Reason
    bonuses: list[Bonus]
    complete_rows: list[int]


class AzulView(TypedDict):
    """The whole table, the same for every viewer but the echoed seat (docs/azul.md, "View")."""

    game: Literal["azul"]
    options: AzulOptions
    round: int
    phase: PhaseName
    current_players: list[int]
    first_player: int
    viewer: int | None
    factories: list[list[Letter]]
    """Factory ``k`` at index ``k - 1``, its letters sorted by colour."""
    centre: CentreView
    marker_holder: int | None
    bag: int
    lid: int
    wall_pattern: list[str] | None
    """Coloured wall: the printed colours, one string per row; gray: ``null``."""
    players: list[PlayerView]


def _player(state: AzulState, seat: int) -> PlayerView:
    """One seat's score, pattern lines, wall, floor line and marker (docs/azul.md, "View")."""
    wall = state.wall[seat]
    pending = state.pending[seat]
    return {
        "seat": seat,
        "score": state.scores[seat],
        "lines": [
            {
                "line": row + 1,
                "colour": None if count == 0 else LETTERS[colour],
                "count": count,
            }
            for row, (colour, count) in enumerate(
                zip(state.line_colour[seat], state.line_count[seat], strict=True)
            )
        ],
        "wall": [
            [None if cell < 0 else LETTERS[cell] for cell in wall[r * SIZE : r * SIZE + SIZE]]
            for r in range(SIZE)
        ],
        "floor": ["marker" if item == MARKER else LETTERS[item] for item in state.floor[seat]],
        "marker": state.marker_holder == seat,
        "pending_row": None if pending < 0 else pending + 1,
    }


def view(state: AzulState, viewer: Viewer) -> AzulView:
    """The table as JSON-ready data: round, phase, current players, factories, centre with
    the marker, bag and lid counts, options, and per player score, pattern lines, wall,
    floor line and marker (docs/azul.md, "View"). Every viewer sees the same."""
    return {
        "game": "azul",
        "options": {"wall": "gray" if state.gray else "colored"},
        "round": state.round,
        "phase": PHASE_NAMES[state.phase],
        "current_players": current_players(state),
        "first_player": state.first_player,
        "viewer": viewer.seat,
        "factories": [letters(counts) for counts in state.sources[1:]],
        "centre": {"tiles": letters(state.sources[0]), "marker": state.marker_in_centre},
        "marker_holder": None if state.marker_holder < 0 else state.marker_holder,
        "bag": sum(state.bag),
        "lid": sum(state.lid),
        "wall_pattern": None if state.gray else list(COLOURED_WALL),
        "players": [_player(state, seat) for seat in range(state.players)],
    }


def summary(state: AzulState) -> dict[str, Any]:
    """``scores`` (per seat), ``round``, ``phase`` and ``finished``."""
    return {
        "scores": list(state.scores),
        "round": state.round,
        "phase": PHASE_NAMES[state.phase],
        "finished": state.phase == OVER,
    }


def outcome(state: AzulState) -> Outcome | None:
    """``None`` until ``GameEnded``; then final scores, ranks and winners, with bonuses,
    complete rows and the reason the game ended as details (docs/azul.md, "End of game")."""
    result = state.result
    if state.phase != OVER or result is None:
        return None
    details: AzulOutcomeDetails = {
        "reason": result["reason"],
        "bonuses": [cast(Bonus, dict(b)) for b in result["bonuses"]],
        "complete_rows": list(result["complete_rows"]),
    }
    return Outcome(
        scores=list(state.scores),
        ranks=list(result["ranks"]),
        winners=list(result["winners"]),
        details=dict(details),
    )
