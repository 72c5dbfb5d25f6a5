"""What each viewer sees of Risk (domain/risk/view.py; issue 6 part 7): hands only by their
owner (counts by all), hidden facts of events only by the players concerned, everything by an
arbiter and by everyone once the game is over; and hiding twice hides nothing more (the hash
chain relies on it)."""

from __future__ import annotations

import pytest

from domain.protocol import Event, Viewer
from domain.risk.options import normalise_options
from domain.risk.state import EXCHANGE, OVER, RiskState, new_state
from domain.risk.view import event_view, outcome, summary, view
from domain.risk.worldmap import WORLD_MAP

SPECTATOR = Viewer.spectator()
ARBITER = Viewer(arbiter=True)


def table() -> RiskState:
    state = new_state(3, normalise_options({}))
    state.order = [2, 0, 1]
    state.colours = ["red", "blue", "green"]
    state.owner = {t.name: i % 3 for i, t in enumerate(WORLD_MAP.territories)}
    state.units = dict.fromkeys(state.owner, 1)
    state.hands = [["Alaska", "wild-1"], [], ["Peru"]]
    state.purse, state.fund = [1000, 900, 1000], 3100
    state.phase = EXCHANGE
    state.proposals = [
        {
            "id": 4,
            "by": 0,
            "kind": "deal",
            "to": [1],
            "accepted": [],
            "transfers": [{"from": 0, "to": 1, "cards": ["Alaska"], "card_count": 1}],
        }
    ]
    return state


def test_a_hand_is_seen_by_its_owner_only() -> None:
    state = table()
    for viewer, shown in [
        (Viewer(0), {0}),
        (Viewer(2), {2}),
        (SPECTATOR, set()),
        (ARBITER, {0, 1, 2}),
    ]:
        players = view(state, viewer)["players"]
        assert {p["seat"] for p in players if p["hand"] is not None} == shown
        assert [p["cards"] for p in players] == [2, 0, 1]


def test_a_deal_shows_its_cards_to_its_parties_only() -> None:
    state = table()
    for seat in (0, 1):
        assert view(state, Viewer(seat))["exchange"]["proposals"][0]["transfers"][0]["cards"] == [
            "Alaska"
        ]
    hidden = view(state, Viewer(2))["exchange"]["proposals"][0]["transfers"][0]
    assert "cards" not in hidden and hidden["card_count"] == 1


def test_everything_is_shown_once_the_game_is_over() -> None:
    state = table()
    state.phase = OVER
    state.result = {"reason": "settlement", "shares": {"0": 2000, "2": 1000}}
    assert all(p["hand"] is not None for p in view(state, SPECTATOR)["players"])
    result = outcome(state)
    assert result is not None
    assert result.scores == [2000, 0, 1000] and result.ranks == [1, 3, 2]
    assert result.winners == [0, 2]
    assert summary(state)["scores"] == [2000, 0, 1000]


@pytest.mark.parametrize(
    ("event", "concerned", "hidden"),
    [
        (Event("CardDrawn", {"seat": 1, "card": "Peru", "random_position": 9}), {1}, "card"),
        (
            Event("PlayerEliminated", {"seat": 2, "by": 0, "cards": ["Peru"], "card_count": 1}),
            {0, 2},
            "cards",
        ),
    ],
)
def test_hidden_fields_of_events(event: Event, concerned: set[int], hidden: str) -> None:
    for seat in range(3):
        assert (hidden in event_view(event, Viewer(seat))) == (seat in concerned)
    spectator = event_view(event, SPECTATOR)
    assert hidden not in spectator
    assert event_view(Event(event.type, spectator), SPECTATOR) == spectator
    assert event_view(event, ARBITER) == event.data


def test_a_proposed_deal_and_its_move_hide_cards_from_outsiders() -> None:
    transfers = [{"from": 0, "to": 1, "cards": ["Alaska"], "card_count": 1, "money": 50}]
    proposed = Event("DealProposed", {"id": 4, "by": 0, "to": [1], "transfers": transfers})
    outsider = event_view(proposed, Viewer(2))
    assert outsider["transfers"] == [{"from": 0, "to": 1, "card_count": 1, "money": 50}]
    assert event_view(proposed, Viewer(1)) == proposed.data
    move = {"type": "propose", "to": [1], "transfers": [{"from": 0, "to": 1, "cards": ["Alaska"]}]}
    made = Event("MoveMade", {"seat": 0, "move": move, "notation": "propose {...Alaska...}"})
    seen = event_view(made, Viewer(2))
    assert "Alaska" not in str(seen)
    assert seen["move"]["transfers"][0]["card_count"] == 1
    assert event_view(Event("MoveMade", seen), Viewer(2)) == seen
    assert event_view(made, Viewer(1)) == made.data
    plain = Event("MoveMade", {"seat": 0, "move": {"type": "roll"}, "notation": "roll"})
    assert event_view(plain, SPECTATOR) == plain.data


def test_a_signed_deal_shows_its_signature_only_with_its_cards() -> None:
    """A signature verifies against the player's public key, so whoever held it could test
    every guess of the hidden cards: outsiders see neither (docs/risk.md, "Hidden
    information"); a move without hidden cards keeps its signature for everyone."""
    move = {"type": "propose", "to": [1], "transfers": [{"from": 0, "to": 1, "cards": ["Alaska"]}]}
    data = {"seat": 0, "move": move, "notation": "propose", "signature": "c2ln"}
    made = Event("MoveMade", data)
    assert "signature" not in event_view(made, Viewer(2))
    assert "signature" not in event_view(made, SPECTATOR)
    assert event_view(made, Viewer(1)) == data
    assert event_view(made, ARBITER) == data
    plain = {"seat": 0, "move": {"type": "roll"}, "notation": "roll", "signature": "c2ln"}
    assert event_view(Event("MoveMade", plain), SPECTATOR) == plain
