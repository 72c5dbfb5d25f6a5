"""Farmers at the end of the game, in the three variants of the option ``farmers``
(docs/carcassonne.md, "Final scoring", 2; seed 000 "Очки за поля", seed 002
"Фермеры получают баллы за снабжение городов" and "Альтернативный оценка фермера").

A farm is a field feature; it supplies the *completed* cities it borders. The majority
player(s) of the farmers concerned score:

* ``per-field`` (default): each farm alone, 3 points per completed city it borders; a city
  bordering several farms pays through each of them.
* ``per-city`` (the 2000 edition): each completed city once; the farmers on every farm
  bordering it are counted together; 4 points to the majority.
* ``per-field-once``: like ``per-field``, farms taken in order, but a city pays a given
  player at most once.

Each ``FarmScored`` event has the same fields in every variant: ``variant``, ``farms`` and
``cities`` (segments naming them), ``farmers``, ``scorers`` (the majority) and ``awards``
(``[{"player", "points"}]``). Farmers stay on the board.
"""

from __future__ import annotations

from typing import Any, Final

from domain.carcassonne.events import FARM_SCORED
from domain.carcassonne.scoring import follower_refs, majority, ref
from domain.carcassonne.state import CarcassonneState, Feature
from domain.carcassonne.tiles import FIELD
from domain.protocol import Event

PER_FIELD: Final = "per-field"
PER_CITY: Final = "per-city"
PER_FIELD_ONCE: Final = "per-field-once"
VARIANTS: Final = (PER_FIELD, PER_CITY, PER_FIELD_ONCE)
CITY_POINTS: Final = {PER_FIELD: 3, PER_CITY: 4, PER_FIELD_ONCE: 3}
"""What one supplied city pays in each variant."""
CASTLE_POINTS: Final = 4
"""What one bordering castle pays in every variant (expansion, rules "Castles": 4 per
castle instead of 3 per city, occupied or not; docs/carcassonne.md, "Castles")."""


def _farms(state: CarcassonneState) -> list[tuple[int, Feature, list[int]]]:
    """Every field with farmers, in the order of its first segment: (first node, field,
    the ids of the completed cities it borders, in the order of their first segment)."""
    feat = state.features
    found = []
    for field in feat.values():
        if field.kind != FIELD or not field.followers:
            continue
        cities = {state.feat[node] for node in field.cities}
        done = sorted((min(feat[c].nodes), c) for c in cities if feat[c].complete)
        found.append((min(field.nodes), field, [c for _, c in done]))
    found.sort(key=lambda item: item[0])
    return found


def _event(
    state: CarcassonneState,
    farms: list[int],
    cities: list[int],
    farmers: list[int],
    awards: dict[int, int],
) -> Event:
    features = state.features
    return FARM_SCORED(
        {
            "variant": state.farmers,
            "farms": [ref(state, node) for node in farms],
            "cities": [ref(state, min(features[c].nodes)) for c in cities],
            "farmers": follower_refs(state, farmers),
            "scorers": majority([state.followers[pos][0] for pos in farmers]),
            "awards": [{"player": seat, "points": n} for seat, n in sorted(awards.items())],
        },
    )


def farm_events(state: CarcassonneState) -> list[Event]:
    """The ``FarmScored`` events of the final scoring, after the incomplete features were
    scored (module docstring)."""
    farms = _farms(state)
    castles = {site.fid for site in state.sites}
    base = CITY_POINTS[state.farmers]

    def points(cities: list[int]) -> int:
        return sum(CASTLE_POINTS if city in castles else base for city in cities)

    owner = state.followers
    events = []
    if state.farmers == PER_CITY:
        by_city: dict[int, list[tuple[int, Feature]]] = {}
        for first, field, cities in farms:
            for city in cities:
                by_city.setdefault(city, []).append((first, field))
        features = state.features
        for city in sorted(by_city, key=lambda c: min(features[c].nodes)):
            fields = by_city[city]
            farmers = [pos for _, field in fields for pos in field.followers]
            scorers = majority([owner[pos][0] for pos in farmers])
            awards = {seat: points([city]) for seat in scorers}
            events.append(_event(state, [first for first, _ in fields], [city], farmers, awards))
        return events
    paid: dict[int, set[int]] = {}
    for first, field, cities in farms:
        scorers = majority([owner[pos][0] for pos in field.followers])
        awards = {}
        for seat in scorers:
            if state.farmers == PER_FIELD_ONCE:
                done = paid.setdefault(seat, set())
                unpaid = [c for c in cities if c not in done]
                done.update(unpaid)
                awards[seat] = points(unpaid)
            else:
                awards[seat] = points(cities)
        events.append(_event(state, [first], cities, field.followers, awards))
    return events


def describe(variant: str) -> dict[str, Any]:
    """The variant as the view shows it: its name and what a supplied city pays."""
    return {"variant": variant, "city_points": CITY_POINTS[variant]}
