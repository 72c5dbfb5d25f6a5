"""The end of a round: wall tiling, gray-wall lines that cannot be placed, floor penalties,
then the next refill or the end of the game (docs/azul.md, "Wall tiling and scoring",
"Floor line", "Next round", "End of game", "Gray wall" and "Rules decisions").

These functions build events on a *working copy* of the state (``work``), evolving it as
they go, so that each event is computed from the state the previous one left behind.
"""

from __future__ import annotations

from domain.azul.evolve import evolve
from domain.azul.refill import by_letter, draw_factories
from domain.azul.scoring import bonuses, floor_loss, penalised, placement_points, ranking
from domain.azul.stalemate import stalemate
from domain.azul.state import AzulState, complete_rows
from domain.azul.tiles import FLOOR_SPACES, LETTERS, MARKER, SIZE, factory_count, wall_column
from domain.protocol import Event
from domain.randomness import RandomStream


def wall_tiled(state: AzulState, player: int, row: int, column: int) -> Event:
    """``WallTiled``: the complete line ``row`` (0-based) moves one tile to ``column`` and
    scores at once; its other ``row`` tiles go to the lid (docs/azul.md, "Wall tiling and
    scoring")."""
    colour = state.line_colour[player][row]
    points = placement_points(state.wall[player], row, column)
    return Event(
        "WallTiled",
        {
            "player": player,
            "row": row + 1,
            "column": column + 1,
            "colour": LETTERS[colour],
            "points": points,
            "score": state.scores[player] + points,
            "to_lid": row,
        },
    )


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


def line_floored(state: AzulState, player: int, row: int) -> Event:
    """``LineFloored``: a gray-wall line with no legal space goes to the floor line, what
    does not fit to the lid (docs/azul.md, "Gray wall")."""
    count = row + 1
    to_floor = min(count, FLOOR_SPACES - len(state.floor[player]))
    return Event(
        "LineFloored",
        {
            "player": player,
            "row": row + 1,
            "colour": LETTERS[state.line_colour[player][row]],
            "count": count,
            "to_floor": to_floor,
            "to_lid": count - to_floor,
        },
    )


def settle(work: AzulState, player: int) -> list[Event]:
    """Everything ``player``'s wall tiling does without a decision, top to bottom: on the
    coloured wall every complete line is tiled; on the gray wall each line with no legal
    space goes to the floor, stopping at the first line that needs a choice."""
    events: list[Event] = []
    row = work.pending[player]
    while row >= 0:
        if not work.gray:
            event = wall_tiled(work, player, row, wall_column(row, work.line_colour[player][row]))
        elif free_columns(work, player, row):
            break
        else:
            event = line_floored(work, player, row)
        events.append(event)
        evolve(work, event)
        row = work.pending[player]
    return events


def tiling_done(work: AzulState) -> bool:
    """Whether no player has a wall-tiling choice left."""
    return all(row < 0 for row in work.pending)


def end_round(work: AzulState, rng: RandomStream) -> list[Event]:
    """Floor penalties for every player, then ``GameEnded`` if a horizontal row is complete
    (or, a rules decision, no row can ever be completed: :mod:`domain.azul.stalemate`), else
    ``FactoriesFilled`` for the next round (docs/azul.md, "Floor line", "Next round", "End
    of game")."""
    events: list[Event] = []
    for player in range(work.players):
        floor = work.floor[player]
        tiles = len(floor) - (MARKER in floor)
        score = penalised(work.scores[player], len(floor))
        event = Event(
            "FloorPenalised",
            {
                "player": player,
                "spaces": len(floor),
                "penalty": -floor_loss(len(floor)),
                "score": score,
                "to_lid": tiles,
                "marker": player == work.marker_holder,
            },
        )
        events.append(event)
        evolve(work, event)
    rows = [complete_rows(work, player) for player in range(work.players)]
    if any(rows):
        events.append(game_ended(work, rows, "row-completed", rng.seed))
    elif stalemate(work):
        events.append(game_ended(work, rows, "no-row-possible", rng.seed))
    else:
        events.append(factories_filled(work, rng))
    return events


def factories_filled(state: AzulState, rng: RandomStream) -> Event:
    """``FactoriesFilled``: the refill of a new round (docs/azul.md, "Next round"), drawn as
    :mod:`domain.azul.refill` defines. The marker holder starts; decision: when nobody took
    from the centre, this round's first player starts again."""
    factories, poured = draw_factories(state.bag, state.lid, factory_count(state.players), rng)
    holder = state.marker_holder
    return Event(
        "FactoriesFilled",
        {
            "round": state.round + 1,
            "factories": factories,
            "bag_before": by_letter(state.bag),
            "lid_poured": poured,
            "first_player": holder if holder >= 0 else state.first_player,
            "random_position": rng.position,
        },
    )


def game_ended(state: AzulState, rows: list[int], reason: str, seed: str) -> Event:
    """``GameEnded`` (docs/azul.md, "End of game"): bonuses added, ranks by score then complete
    rows, every rank-1 seat a winner; the seed is revealed."""
    extra = [bonuses(wall) for wall in state.wall]
    scores = [score + bonus["points"] for score, bonus in zip(state.scores, extra, strict=True)]
    ranks, winners = ranking(scores, rows)
    return Event(
        "GameEnded",
        {
            "reason": reason,
            "bonuses": [dict(bonus) for bonus in extra],
            "scores": scores,
            "complete_rows": rows,
            "ranks": ranks,
            "winners": winners,
            "seed": seed,
        },
    )
