"""Drawing from the stack on demand (docs/carcassonne.md, "Draw on demand"; "Scenario
games"): the stack is a count per tile type, never an order; a draw takes ``rng.below(n)``
over the ``n`` tiles left, listed type by type in catalogue order (A, A, B, B, B, B, C, D,
...); a scenario's listed tiles come first and take no number. Nothing here changes a state:
the draw is recorded by ``TileDrawn`` or ``AuctionOpened``, whose handlers take the tiles.
"""

from __future__ import annotations

from domain.randomness import RandomStream


def pick(stack: list[int], rng: RandomStream) -> int:
    """The type of one tile drawn uniformly from ``stack`` (counts per type, not changed):
    the ``rng.below(n)``-th of the ``n`` tiles left in catalogue order."""
    index = rng.below(sum(stack))
    for kind, count in enumerate(stack):
        if index < count:
            return kind
        index -= count
    raise AssertionError("unreachable: the index is below the stack size")


def next_tile(stack: list[int], script: list[int], rng: RandomStream) -> int:
    """The type of the next tile drawn: a scenario's first listed one (``script``, no
    random number), else :func:`pick`. ``stack`` must not be empty; nothing is changed."""
    return script[0] if script else pick(stack, rng)


def draw_tiles(stack: list[int], script: list[int], count: int, rng: RandomStream) -> list[int]:
    """The types of ``count`` tiles drawn one after the other (an auction's revealed tiles,
    rules "Bazaars"); ``stack`` and ``script`` are not changed."""
    stack, script, kinds = list(stack), list(script), []
    for _ in range(count):
        kind = next_tile(stack, script, rng)
        if script:
            del script[0]
        stack[kind] -= 1
        kinds.append(kind)
    return kinds
