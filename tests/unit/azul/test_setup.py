"""Setup, options and the opening refill (docs/azul.md, "Setup"; "Refill draws")."""

from __future__ import annotations

import pytest

from domain.azul import AZUL
from domain.azul.evolve import EVENTS
from domain.azul.options import DEFAULT_OPTIONS, OPTIONS_INFO, WALLS, normalise_options
from domain.azul.refill import by_letter, draw_factories
from domain.protocol import InvalidOptions, Rules
from domain.randomness import RandomStream

from .helpers import counts, started


def test_azul_implements_the_protocol() -> None:
    assert isinstance(AZUL, Rules)
    assert (AZUL.name, AZUL.min_players, AZUL.max_players) == ("azul", 2, 4)
    assert set(AZUL.event_types) == {
        "FactoriesFilled",
        "TilesTaken",
        "WallTiled",
        "LineFloored",
        "FloorPenalised",
        "GameEnded",
    }
    assert AZUL.events is EVENTS and AZUL.event_types == EVENTS.types


def test_options_info_and_normalised_options() -> None:
    assert AZUL.options_info == OPTIONS_INFO
    assert [info.name for info in OPTIONS_INFO] == list(DEFAULT_OPTIONS)
    assert OPTIONS_INFO[0].values == WALLS
    assert normalise_options({"wall": "gray"}) == {"wall": "gray"}


@pytest.mark.parametrize(("players", "factories"), [(2, 5), (3, 7), (4, 9)])
def test_setup_counts(players: int, factories: int) -> None:
    state = AZUL.setup(players, {})
    assert state.scores == [0] * players
    assert state.bag == [20] * 5 and state.lid == [0] * 5
    assert AZUL.current_players(state) == []
    assert AZUL.check_invariants(state) == []
    [filled] = AZUL.begin(state, RandomStream("seed"))
    assert filled.type == "FactoriesFilled"
    assert len(filled.data["factories"]) == factories
    assert all(len(tiles) == 4 for tiles in filled.data["factories"])
    AZUL.evolve(state, filled)
    assert sum(state.bag) == 100 - 4 * factories
    assert state.sources[0] == [0] * 5 and state.marker_in_centre
    assert AZUL.current_players(state) == [0]
    assert state.round == 1
    assert AZUL.check_invariants(state) == []


def test_options_default_and_values() -> None:
    assert AZUL.normalise_options({}) == {"wall": "colored"}
    assert AZUL.normalise_options({"wall": "gray"}) == {"wall": "gray"}
    assert AZUL.setup(2, {"wall": "gray"}).gray
    assert not AZUL.setup(2, {}).gray


@pytest.mark.parametrize(
    "options", [{"wall": "grey"}, {"wall": None}, {"colour": "gray"}, {"wall": "gray", "x": 1}]
)
def test_unknown_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(InvalidOptions) as error:
        AZUL.normalise_options(options)
    assert error.value.code == "invalid-options"
    with pytest.raises(InvalidOptions):
        AZUL.setup(2, options)


@pytest.mark.parametrize("players", [0, 1, 5, True])
def test_player_count_is_checked(players: int) -> None:
    with pytest.raises(InvalidOptions):
        AZUL.setup(players, {})


def test_begin_is_deterministic_and_records_the_stream_position() -> None:
    one, two = started(seed="abc"), started(seed="abc")
    assert one == two
    assert one.random_position > 0
    assert started(seed="abd").sources != one.sources


def test_begin_twice_is_refused() -> None:
    state = started()
    with pytest.raises(Exception, match="already"):
        AZUL.begin(state, RandomStream("x"))


def audit_draws(seed: str, position: int, bag: list[int], factories: int) -> list[list[str]]:
    """The documented procedure (docs/azul.md, "Refill draws"), written out independently:
    one number per factory, read as mixed-radix digits indexing the bag in colour order."""
    stream = RandomStream(seed, position)
    pool = [letter for letter, n in zip("BYRKW", bag, strict=True) for _ in range(n)]
    out = []
    for _ in range(factories):
        k = min(4, len(pool))
        span = 1
        for j in range(k):
            span *= len(pool) - j
        x = stream.below(span) if k else 0
        tiles = []
        for _ in range(k):
            tiles.append(pool.pop(x % len(pool)))
            x //= len(pool) + 1
        out.append(tiles)
    return out


def test_refill_follows_the_documented_procedure() -> None:
    state = AZUL.setup(3, {})
    [filled] = AZUL.begin(state, RandomStream("audit-me", 7))
    assert filled.data["factories"] == audit_draws("audit-me", 7, [20] * 5, 7)
    assert filled.data["bag_before"] == {"B": 20, "Y": 20, "R": 20, "K": 20, "W": 20}
    assert filled.data["lid_poured"] is None
    # one stream number per factory (plus the rare rejection)
    assert 7 + 7 <= filled.data["random_position"] <= 7 + 8


def test_refill_pours_the_lid_when_the_bag_runs_out() -> None:
    bag, lid = counts("RRKKW"), counts("BBBBYYYYYYRRR")
    factories, poured = draw_factories(bag, lid, 5, RandomStream("pour"))
    assert [len(f) for f in factories] == [4, 4, 4, 4, 2]
    assert poured == {"after_draws": 5, "count": 13, "tiles": by_letter(lid)}
    drawn = "".join("".join(f) for f in factories)
    assert sorted(drawn[:5]) == sorted("RRKKW")
    assert counts(drawn) == [a + b for a, b in zip(bag, lid, strict=True)]


def test_refill_with_bag_and_lid_empty_leaves_factories_partly_filled() -> None:
    factories, poured = draw_factories(counts("RRKKW"), [0] * 5, 5, RandomStream("x"))
    assert [len(f) for f in factories] == [4, 1, 0, 0, 0]
    assert poured is None
    factories, poured = draw_factories(counts("RR"), counts("B"), 3, RandomStream("x"))
    assert factories[0] and sorted(factories[0]) == ["B", "R", "R"]
    assert factories[1:] == [[], []]
    assert poured == {"after_draws": 2, "count": 1, "tiles": by_letter(counts("B"))}
