"""Helpers for the Azul rules tests: tables built directly, and seeded random play."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from domain.azul import AZUL, AzulState, Move
from domain.azul.state import OFFER, allowed_lines
from domain.azul.tiles import COLOUR_INDEX, LETTERS, MARKER, SIZE, TILES_PER_COLOUR
from domain.protocol import Event
from domain.randomness import RandomStream


def counts(letters: str) -> list[int]:
    """Colour counts of a string of tile letters, e.g. ``"RRB"``."""
    out = [0] * 5
    for letter in letters:
        out[COLOUR_INDEX[letter]] += 1
    return out


def started(players: int = 2, seed: str = "test", wall: str = "colored") -> AzulState:
    """A game after ``setup`` and ``begin`` with the given seed."""
    state = AZUL.setup(players, {"wall": wall})
    for event in AZUL.begin(state, RandomStream(seed)):
        AZUL.evolve(state, event)
    return state


def table(
    players: int = 2,
    *,
    gray: bool = False,
    factories: list[str] | None = None,
    centre: str = "",
    marker_in_centre: bool = True,
    walls: dict[int, list[str]] | None = None,
    lines: dict[int, dict[int, str]] | None = None,
    floors: dict[int, str] | None = None,
    scores: list[int] | None = None,
    current: int = 0,
    first_player: int = 0,
    marker_holder: int = -1,
    bag: str | None = None,
    lid: str = "",
) -> AzulState:
    """A state in the factory offer, built directly. Walls are 5 strings of letters and
    ``.``; lines map 1-based line numbers to letters; ``M`` on a floor is the marker. The
    tiles not placed anywhere go to the bag (or, when ``bag`` is given, to the lid), so
    that all 100 tiles are accounted for."""
    state = AZUL.setup(players, {"wall": "gray" if gray else "colored"})
    state.phase = OFFER
    state.round = 1
    state.current = current
    state.first_player = first_player
    state.marker_in_centre = marker_in_centre
    state.marker_holder = marker_holder
    factory_specs = factories if factories is not None else []
    for number in range(1, len(state.sources)):
        spec = factory_specs[number - 1] if number - 1 < len(factory_specs) else ""
        state.sources[number] = counts(spec)
    state.sources[0] = counts(centre)
    state.tiles_left = sum(sum(s) for s in state.sources)
    for seat, rows in (walls or {}).items():
        for r, text in enumerate(rows):
            for c, letter in enumerate(text):
                if letter != ".":
                    colour = COLOUR_INDEX[letter]
                    state.wall[seat][r * SIZE + c] = colour
                    state.row_colours[seat][r] |= 1 << colour
                    state.col_colours[seat][c] |= 1 << colour
    for seat, per_line in (lines or {}).items():
        for line, text in per_line.items():
            state.line_colour[seat][line - 1] = COLOUR_INDEX[text[0]]
            state.line_count[seat][line - 1] = len(text)
    for seat, text in (floors or {}).items():
        state.floor[seat] = [MARKER if ch == "M" else COLOUR_INDEX[ch] for ch in text]
    if scores is not None:
        state.scores = list(scores)
    for seat in range(players):
        state.allowed[seat] = allowed_lines(state, seat)
    used = _used(state)
    if bag is None:
        state.bag = [TILES_PER_COLOUR - n - m for n, m in zip(used, counts(lid), strict=True)]
        state.lid = counts(lid)
    else:
        state.bag = counts(bag)
        state.lid = [TILES_PER_COLOUR - n - b for n, b in zip(used, state.bag, strict=True)]
    return state


def _used(state: AzulState) -> list[int]:
    used = [0] * 5
    for source in state.sources:
        used = [u + s for u, s in zip(used, source, strict=True)]
    for seat in range(state.players):
        for colour, count in zip(state.line_colour[seat], state.line_count[seat], strict=True):
            if count:
                used[colour] += count
        for item in state.floor[seat]:
            if item != MARKER:
                used[item] += 1
        for cell in state.wall[seat]:
            if cell >= 0:
                used[cell] += 1
    return used


def wall_rows(state: AzulState, seat: int) -> list[str]:
    """A seat's wall as 5 strings of letters and ``.``."""
    cells = state.wall[seat]
    return [
        "".join("." if cells[r * SIZE + c] < 0 else LETTERS[cells[r * SIZE + c]] for c in range(5))
        for r in range(5)
    ]


def run(state: AzulState, events: list[Event]) -> AzulState:
    """Evolve ``state`` by ``events`` and return it."""
    for event in events:
        state = AZUL.evolve(state, event)
    return state


def play(state: AzulState, player: int, move: Move, seed: str = "test") -> list[Event]:
    """Apply ``move`` (continuing the stream ``seed``) and evolve ``state`` in place."""
    events = AZUL.apply(state, player, move, RandomStream(seed, state.random_position))
    run(state, events)
    return events


def of_type(events: list[Event], kind: str) -> list[dict[str, Any]]:
    """The data of the events of one type."""
    return [event.data for event in events if event.type == kind]


@dataclass
class Step:
    """One move of a random game: the state before it (a clone), who moved, what, and the
    events it caused."""

    before: AzulState
    player: int
    move: Move | None
    events: list[Event]


def random_game(
    players: int, seed: int, wall: str = "colored", secret: str | None = None
) -> Iterator[tuple[AzulState, Step]]:
    """Play one seeded random game; yields ``(live state, step)`` after ``begin`` (a step
    with player -1 and move ``None``) and after every move. The live state is evolved in
    place."""
    secret = secret or f"game-{seed}"
    state = AZUL.setup(players, {"wall": wall})
    opening = AZUL.begin(state, RandomStream(secret))
    run(state, opening)
    yield state, Step(AZUL.setup(players, {"wall": wall}), -1, None, opening)
    bot = random.Random(seed)
    while acting := AZUL.current_players(state):
        player = bot.choice(acting)
        move = bot.choice(AZUL.legal_moves(state, player))
        before = state.clone()
        events = AZUL.apply(state, player, move, RandomStream(secret, state.random_position))
        run(state, events)
        yield state, Step(before, player, move, events)
