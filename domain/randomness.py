"""The game's random stream: every random outcome derives from a secret seed and a counter
(docs/architecture.md, "Randomness"; docs/audit.md explains how anyone checks it).

Definition, stable and language-independent so that anyone can re-derive every draw:

* The seed is a string (the service makes 64 lowercase hex digits). Its public commitment
  is ``SHA-256(seed as UTF-8)`` in lowercase hex (:func:`commitment`).
* Number ``k`` of the stream (k = 0, 1, 2, ...) is the first 8 bytes of
  ``SHA-256(seed + ":" + str(k))`` read as a big-endian unsigned 64-bit integer.
* ``below(n)`` takes numbers in turn and returns the first ``x mod n`` whose ``x`` is below
  ``n * floor(2**64 / n)`` (rejection sampling: every result is exactly equally likely).
* ``shuffle`` is Fisher-Yates from the last index down: for ``i = len-1 .. 1`` swap item
  ``i`` with item ``below(i + 1)``.

``position`` counts the numbers used so far; a game state stores it, so the stream
continues (or, after an undo, rewinds) exactly where that state left it.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import TypeVar

T = TypeVar("T")

_SPAN = 1 << 64


def new_seed() -> str:
    """A fresh secret seed: 32 random bytes from the operating system, in hex."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The public SHA-256 commitment to ``seed``."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class RandomStream:
    """Numbers derived from a seed and a counter; see the module docstring."""

    __slots__ = ("_prefix", "position", "seed")

    def __init__(self, seed: str, position: int = 0) -> None:
        self.seed = seed
        self.position = position
        self._prefix = seed.encode("utf-8") + b":"

    def number(self) -> int:
        """The next 64-bit number of the stream."""
        digest = hashlib.sha256(self._prefix + str(self.position).encode("ascii")).digest()
        self.position += 1
        return int.from_bytes(digest[:8], "big")

    def below(self, n: int) -> int:
        """A uniformly drawn integer in ``0 .. n-1`` (``n`` >= 1)."""
        if n < 1:
            raise ValueError("below() needs n >= 1")
        limit = _SPAN - (_SPAN % n)
        while True:
            x = self.number()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> list[T]:
        """A new list with ``items`` in an order drawn by Fisher-Yates."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
