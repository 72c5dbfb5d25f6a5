"""A random stream for Risk tests that draws exactly what a test scripts (dice, cards)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.randomness import RandomStream


class Scripted(RandomStream):
    """Returns the scripted draws in order and refuses any other draw; with ``then_last``
    every draw after the script is ``n - 1`` instead (so a Fisher-Yates shuffle keeps the
    order)."""

    def __init__(self, draws: Sequence[int], *, then_last: bool = False) -> None:
        super().__init__("scripted")
        self.draws = list(draws)
        self.then_last = then_last

    def below(self, n: int) -> int:
        """The next scripted draw (it must be below ``n``)."""
        if not self.draws and self.then_last:
            value = n - 1
        else:
            assert self.draws, "an unexpected random draw"
            value = self.draws.pop(0)
        assert 0 <= value < n
        self.position += 1
        return value


def dice(*faces: int) -> list[int]:
    """The draws that make ``rng.below(6) + 1`` roll ``faces``."""
    return [face - 1 for face in faces]
