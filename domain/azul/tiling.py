"""The end of a round: wall tiling, gray-wall placements and lines that cannot be placed,
floor penalties, then the next refill or the end of the game (docs/azul.md, "Wall tiling and
scoring", "Floor line", "Next round", "End of game", "Gray wall" and "Rules decisions").

Each function emits its events into the move's :class:`~domain.turn.Turn` and reads
``turn.state`` again after each one, so every event is computed from the state the previous
one left behind (docs/architecture.md, "One way to decide a move"). Each event is built in
exactly one function here, with its kind.
"""

from __future__ import annotations

from domain.azul.events import (
    FACTORIES_FILLED,
    FLOOR_PENALISED,
    GAME_ENDED,
    LINE_FLOORED,
    WALL_TILED,
    Reason,
)
from domain.azul.moves import Place
from domain.azul.refill import by_letter, draw_factories
from domain.azul.scoring import bonuses, floor_loss, penalised, placement_points, ranking
from domain.azul.stalemate import stalemate
from domain.azul.state import AzulState, complete_rows
from domain.azul.tiles import FLOOR_SPACES, LETTERS, MARKER, SIZE, factory_count, wall_column
from domain.protocol import IllegalMove
from domain.randomness import RandomStream
from domain.turn import Turn

AzulTurn = Turn[AzulState]
"""The events of one Azul move and the state they lead to."""


def free_columns(state: AzulState, player: int, row: int) -> list[int]:
    """Gray wall: the columns (0-based) of ``row`` where its complete line may go — an
    empty space whose column does not hold that colour yet (docs/azul.md, "Gray wall")."""
    colour_bit = 1 << state.line_colour[player][row]
    wall = state.wall[player]
    columns = state.col_colours[player]
    base = row * SIZE
    return [
        column
        for column in range(SIZE)
        if wall[base + column] < 0 and not columns[column] & colour_bit
    ]


def place(turn: AzulTurn, state: AzulState, player: int, move: Place, rng: RandomStream) -> None:
    """Gray wall: ``player`` puts the tile of their topmost complete line on a free space of
    that wall row (docs/azul.md, "Gray wall"), then tiling goes on as far as it can without
    a choice, and the round ends once nobody has a choice left. ``state`` is ``turn.state``
    before the placement. Raises ``IllegalMove`` (``wrong-row``, ``space-occupied``,
    ``colour-already-in-column``) before emitting."""
    row = state.pending[player]
    if move.row != row + 1:
        raise IllegalMove("wrong-row", f"Wall tiling goes top down: place line {row + 1} first.")
    column = move.column - 1
    if state.wall[player][row * SIZE + column] >= 0:
        raise IllegalMove("space-occupied", "That wall space already has a tile.")
    if state.col_colours[player][column] >> state.line_colour[player][row] & 1:
        raise IllegalMove("colour-already-in-column", "That column already has this colour.")
    tile(turn, state, player, row, column)
    settle(turn, player)
    if tiling_done(turn.state):
        end_round(turn, rng)


def tile(turn: AzulTurn, state: AzulState, player: int, row: int, column: int) -> None:
    """``WallTiled``: the complete line ``row`` (0-based) moves one tile to ``column`` and
    scores at once; its other ``row`` tiles go to the lid (docs/azul.md, "Wall tiling and
    scoring"). ``state`` is ``turn.state`` as the caller has just read it."""
    colour = state.line_colour[player][row]
    points = placement_points(state.wall[player], row, column)
    turn.emit(
        WALL_TILED(
            {
                "player": player,
                "row": row + 1,
                "column": column + 1,
                "colour": LETTERS[colour],
                "points": points,
                "score": state.scores[player] + points,
                "to_lid": row,
            }
        )
    )


def floor_line(turn: AzulTurn, state: AzulState, player: int, row: int) -> None:
    """``LineFloored``: a gray-wall line with no legal space goes to the floor line, what
    does not fit to the lid (docs/azul.md, "Gray wall"). ``state`` is ``turn.state`` as the
    caller has just read it."""
    count = row + 1
    to_floor = min(count, FLOOR_SPACES - len(state.floor[player]))
    turn.emit(
        LINE_FLOORED(
            {
                "player": player,
                "row": row + 1,
                "colour": LETTERS[state.line_colour[player][row]],
                "count": count,
                "to_floor": to_floor,
                "to_lid": count - to_floor,
            }
        )
    )


def settle(turn: AzulTurn, player: int) -> None:
    """Everything ``player``'s wall tiling does without a decision, top to bottom
    (docs/azul.md, "Wall tiling and scoring" and "Gray wall"): on the coloured wall every
    complete line is tiled; on the gray wall each line with no legal space goes to the
    floor, stopping at the first line that needs a choice."""
    state = turn.state
    row = state.pending[player]
    while row >= 0:
        if not state.gray:
            tile(turn, state, player, row, wall_column(row, state.line_colour[player][row]))
        elif free_columns(state, player, row):
            return
        else:
            floor_line(turn, state, player, row)
        state = turn.state
        row = state.pending[player]


def tiling_done(state: AzulState) -> bool:
    """Whether no player has a wall-tiling choice left (docs/azul.md, "Gray wall")."""
    return all(row < 0 for row in state.pending)


def end_round(turn: AzulTurn, rng: RandomStream) -> None:
    """Floor penalties for every player, then ``GameEnded`` if a horizontal row is complete
    (or, a rules decision, no row can ever be completed: :mod:`domain.azul.stalemate`), else
    ``FactoriesFilled`` for the next round (docs/azul.md, "Floor line", "Next round", "End
    of game")."""
    for player in range(turn.state.players):
        penalise_floor(turn, player)
    state = turn.state
    rows = [complete_rows(state, player) for player in range(state.players)]
    if any(rows):
        end_game(turn, rows, "row-completed", rng.seed)
    elif stalemate(state):
        end_game(turn, rows, "no-row-possible", rng.seed)
    else:
        refill(turn, rng)


def penalise_floor(turn: AzulTurn, player: int) -> None:
    """``FloorPenalised``: ``player`` loses the points of their occupied floor spaces (never
    below 0) and the floor tiles go to the lid (docs/azul.md, "Floor line")."""
    state = turn.state
    floor = state.floor[player]
    spaces = len(floor)
    turn.emit(
        FLOOR_PENALISED(
            {
                "player": player,
                "spaces": spaces,
                "penalty": -floor_loss(spaces),
                "score": penalised(state.scores[player], spaces),
                "to_lid": spaces - (MARKER in floor),
                "marker": player == state.marker_holder,
            }
        )
    )


def refill(turn: AzulTurn, rng: RandomStream) -> None:
    """``FactoriesFilled``: the refill of a new round (docs/azul.md, "Setup" and "Next
    round"), drawn as :mod:`domain.azul.refill` defines. The marker holder starts; decision:
    when nobody took from the centre, this round's first player starts again."""
    state = turn.state
    factories, poured = draw_factories(state.bag, state.lid, factory_count(state.players), rng)
    holder = state.marker_holder
    turn.emit(
        FACTORIES_FILLED(
            {
                "round": state.round + 1,
                "factories": factories,
                "bag_before": by_letter(state.bag),
                "lid_poured": poured,
                "first_player": holder if holder >= 0 else state.first_player,
                "random_position": rng.position,
            }
        )
    )


def end_game(turn: AzulTurn, rows: list[int], reason: Reason, seed: str) -> None:
    """``GameEnded`` (docs/azul.md, "End of game"): bonuses added, ranks by score then complete
    rows, every rank-1 seat a winner; the seed is revealed."""
    state = turn.state
    extra = [bonuses(wall) for wall in state.wall]
    scores = [score + bonus["points"] for score, bonus in zip(state.scores, extra, strict=True)]
    ranks, winners = ranking(scores, rows)
    turn.emit(
        GAME_ENDED(
            {
                "reason": reason,
                "bonuses": extra,
                "scores": scores,
                "complete_rows": rows,
                "ranks": ranks,
                "winners": winners,
                "seed": seed,
            }
        )
    )
