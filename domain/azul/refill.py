"""Refilling the factories from the bag, and the lid poured into the bag when the bag runs
out (docs/azul.md, "Setup", "Next round" and "Refill draws").

The canonical draw procedure, so that an auditor holding the revealed seed can re-derive
every tile. Factories are filled in order 1, 2, ...; each gets up to 4 tiles:

1. If the bag is empty, the whole lid is poured into the bag first. If the bag is still
   empty (bag and lid both empty), filling stops: this and every later factory stay partly
   filled or empty.
2. Let ``t`` be the tiles in the bag and ``k = min(4 - tiles already on this factory, t)``.
   One number ``x = rng.below(t * (t-1) * ... * (t-k+1))`` is taken from the stream.
3. The ``k`` tiles are drawn one after another: the ``j``-th (j = 0..k-1) is the tile at
   index ``x mod (t-j)`` (0-based) of the tiles left in the bag counted in colour order
   B, Y, R, K, W; then ``x = x div (t-j)`` and the tile leaves the bag.
4. If the factory still has fewer than 4 tiles, go back to step 1.

Step 3 reads ``x`` as the mixed-radix number of ``k`` successive uniform draws, so every
ordered draw is exactly as likely as with one ``below`` per tile, at a quarter of the cost
(each number of the stream is a SHA-256).
"""

from __future__ import annotations

from domain.azul.events import ColourCounts, LidPoured
from domain.azul.tiles import FACTORY_SIZE, LETTERS, Letter
from domain.randomness import RandomStream


def by_letter(counts: list[int]) -> ColourCounts:
    """Colour counts as ``{"B": n, "Y": n, "R": n, "K": n, "W": n}`` (for event payloads)."""
    blue, yellow, red, black, white = counts
    return {"B": blue, "Y": yellow, "R": red, "K": black, "W": white}


def _pool(counts: list[int]) -> list[Letter]:
    """The tiles of ``counts`` as letters in colour order (docs/azul.md, "Refill draws")."""
    pool: list[Letter] = []
    for colour, count in enumerate(counts):
        pool += [LETTERS[colour]] * count
    return pool


def draw_factories(
    bag: list[int], lid: list[int], factories: int, rng: RandomStream
) -> tuple[list[list[Letter]], LidPoured | None]:
    """Draw the tiles of a refill (module docstring) without changing ``bag`` or ``lid``.
    Returns the letters put on each factory, in draw order, and ``None`` or, when the lid
    was poured, ``{"after_draws": tiles drawn before the pour, "count": tiles poured,
    "tiles": {letter: count}}``."""
    pool = _pool(bag)  # the bag's tiles in colour order; popping keeps that order
    poured: LidPoured | None = None
    drawn = 0
    filled: list[list[Letter]] = []
    below = rng.below
    for _ in range(factories):
        tiles: list[Letter] = []
        filled.append(tiles)
        total = len(pool)
        if total >= FACTORY_SIZE:  # the usual case, step 3 with k = 4 written out
            x = below(total * (total - 1) * (total - 2) * (total - 3))
            tiles.append(pool.pop(x % total))
            x //= total
            tiles.append(pool.pop(x % (total - 1)))
            x //= total - 1
            tiles.append(pool.pop(x % (total - 2)))
            tiles.append(pool.pop(x // (total - 2) % (total - 3)))
            drawn += FACTORY_SIZE
            continue
        while len(tiles) < FACTORY_SIZE:
            total = len(pool)
            if total == 0:
                if poured is not None or not any(lid):
                    filled += [[] for _ in range(factories - len(filled))]
                    return filled, poured
                poured = {"after_draws": drawn, "count": sum(lid), "tiles": by_letter(lid)}
                pool = _pool(lid)
                total = len(pool)
            k = min(FACTORY_SIZE - len(tiles), total)
            span = total
            for j in range(1, k):
                span *= total - j
            x = below(span)
            for j in range(k):
                left = total - j
                tiles.append(pool.pop(x % left))
                x //= left
            drawn += k
    return filled, poured
