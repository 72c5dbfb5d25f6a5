"""The catalogue of game types (docs/api.md, "Game types"): every registered game as a client
needs it to create one, and the JSON Schemas of a game's events, move, view and options and of
the ledger's own events, generated from their one typed definition
(:mod:`application.contract`). Read from the registry (:mod:`domain.registry`), never from
a game."""

from __future__ import annotations

from typing import Any

from application.contract import game_contract, ledger_event_schemas
from domain.registry import games, rules_for


def game_types() -> list[dict[str, Any]]:
    """Every registered game as a client needs it to create one (docs/api.md, "Game
    types"): the rules version, the player range per set of options (the first is the
    defaults'), every option with its values and default, the JSON Schema of the options
    a create takes (:func:`_create_options`), the event types."""
    return [
        {
            "name": rules.name,
            "rules_version": rules.rules_version,
            "min_players": min(r.min_players for r in rules.player_ranges),
            "max_players": max(r.max_players for r in rules.player_ranges),
            "player_ranges": [
                {
                    "options": r.options,
                    "min_players": r.min_players,
                    "max_players": r.max_players,
                }
                for r in rules.player_ranges
            ],
            "options": [option.to_json() for option in rules.options_info],
            "options_schema": _create_options(game_contract(rules).options),
            "event_types": list(rules.event_types),
            "capabilities": {
                "simultaneous_moves": rules.simultaneous_moves,
                "hides_information": rules.hides_information,
                "open_moves": rules.open_moves,
            },
        }
        for rules in games().values()
    ]


def _create_options(options: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of the ``options`` a create takes: the game's typed options (as a
    game's view shows them, every option set) with none required — an option left out takes
    its default (docs/api.md, "Game types")."""
    return {key: value for key, value in options.items() if key != "required"}


def game_schemas(name: str) -> dict[str, Any]:
    """The JSON Schemas of a game's events (by type), move, view and options, and of the
    ledger's own events, generated from their one typed definition (docs/api.md, "Game
    types"; :mod:`application.contract`). Raises ``unknown-game``."""
    contract = game_contract(rules_for(name))
    return {
        "game": contract.game,
        "events": contract.events,
        "move": contract.move,
        "view": contract.view,
        "options": contract.options,
        "outcome_details": contract.outcome_details,
        "ledger_events": ledger_event_schemas(),
    }
