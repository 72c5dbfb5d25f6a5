"""A random stream that refuses to draw, for the tests that tell which moves need luck (Azul's
refill, Carcassonne's draw: the ``test_replay`` and wall-tiling tests; docs/architecture.md,
"Randomness"). Replay is tested otherwise: ``RandomStream.number`` patched to fail."""

from __future__ import annotations

from domain.randomness import RandomStream


class NoRandomness(RandomStream):
    """A stream that refuses to draw: given to ``apply`` for a move whose consequences must
    need no random number (a take that leaves tiles in the offer, a placement that draws no
    tile). Drawing from it raises ``RuntimeError``."""

    def __init__(self, position: int = 0) -> None:
        super().__init__("", position)

    def number(self) -> int:
        """Refuse: this code path must not use randomness."""
        raise RuntimeError("a random number was asked for where none may be drawn")
