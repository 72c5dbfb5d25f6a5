"""Carcassonne (base game) as a :class:`domain.protocol.Rules` implementation: options,
setup, whose turn, legal moves and the events a move causes (docs/carcassonne.md,
"Base game" and "Final scoring"; the details live in the modules this one calls).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final, cast

from domain.carcassonne import bazaar_moves
from domain.carcassonne import moves as move_formats
from domain.carcassonne.bazaar_moves import BazaarMove
from domain.carcassonne.bazaar_turn import play_auction
from domain.carcassonne.bazaars import auction_moves, deciding
from domain.carcassonne.board import new_state
from domain.carcassonne.bot import bot_move as bot_policy
from domain.carcassonne.bridges import bridge_placements, play_bridged
from domain.carcassonne.castle_turn import choice_moves, play_choice
from domain.carcassonne.evolve import EVENT_TYPES, HANDLERS
from domain.carcassonne.evolve import evolve as evolve_event
from domain.carcassonne.expansion import EXPANSION, MAX_PLAYERS
from domain.carcassonne.invariants import check_invariants
from domain.carcassonne.moves import (
    Bridged,
    CastleChoice,
    FiefChoice,
    Move,
    Place,
    canonical,
    well_formed,
)
from domain.carcassonne.options import (
    OPTIONS_INFO,
    configure,
    has_expansion,
    is_scenario,
    normalise_options,
)
from domain.carcassonne.placement import legal_placements
from domain.carcassonne.snapshot import state_from_json, state_to_json
from domain.carcassonne.state import OVER, PLAY, SETUP, CarcassonneState
from domain.carcassonne.turn import draw_events, next_turn, play
from domain.carcassonne.view import acting, outcome, summary, view
from domain.protocol import (
    Event,
    IllegalMove,
    InvalidMove,
    InvalidOptions,
    OptionInfo,
    Outcome,
    PlayerRange,
    RulesBase,
    Viewer,
)
from domain.randomness import RandomStream

BASE_MAX_PLAYERS: Final = 5
"""The base game seats 2 to 5 (docs/carcassonne.md); the expansion 6 (``MAX_PLAYERS``)."""
RULES_VERSION: Final = "carcassonne-4"
"""Changes whenever the rules' decisions change (docs/carcassonne.md, "Rules decisions")."""


class CarcassonneRules(RulesBase[CarcassonneState, Move]):
    """The rules of the Carcassonne base game for 2-5 players (docs/carcassonne.md)."""

    def __init__(self) -> None:
        self.name = "carcassonne"
        self.min_players = 2
        self.max_players = BASE_MAX_PLAYERS
        self.event_types: tuple[str, ...] = EVENT_TYPES
        self.rules_version = RULES_VERSION
        self.options_info: tuple[OptionInfo, ...] = OPTIONS_INFO
        self.player_ranges: tuple[PlayerRange, ...] = (
            PlayerRange({}, self.min_players, self.max_players),
            PlayerRange({"expansions": [EXPANSION]}, self.min_players, MAX_PLAYERS),
        )

    # -- creation -------------------------------------------------------------------

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options fixed (:func:`domain.carcassonne.options.normalise_options`): the
        farmer variant, the two-tile city value and, for a scenario, the stack."""
        return normalise_options(options)

    def is_scenario(self, options: Mapping[str, Any]) -> bool:
        """True when normalised ``options`` give a ``stack``: a scenario game, which the
        service records as an analysis game (never a result)."""
        return is_scenario(options)

    def setup(self, players: int, options: Mapping[str, Any]) -> CarcassonneState:
        """The start tile on the table, 71 tiles in the stack, 7 followers each (rules,
        "Base game"); 2-5 players. With Bridges, Castles & Bazaars 83 tiles, 2-6 players and
        each player's tokens (:func:`domain.carcassonne.options.configure`). A scenario's
        listed tiles are drawn first; with ``stack-only`` they are the whole stack
        (docs/carcassonne.md, "Scenario games")."""
        fixed = self.normalise_options(options)
        most = MAX_PLAYERS if has_expansion(fixed) else self.max_players
        if type(players) is not int or not self.min_players <= players <= most:
            raise InvalidOptions(
                "invalid-player-count",
                f"Carcassonne is played by {self.min_players} to {most} players"
                + (" with the expansion." if most == MAX_PLAYERS else "."),
            )
        if fixed.get("first_player", 0) >= players:
            raise InvalidOptions(
                "invalid-options", f"Option 'first_player' is a seat: 0 to {players - 1}."
            )
        state = new_state(players, fixed["farmers"], fixed["small-city-points"])
        configure(state, fixed)
        return state

    def begin(self, state: CarcassonneState, rng: RandomStream) -> list[Event]:
        """The first player draws the first tile (``TileDrawn``). Unless an option fixed
        them, they are drawn first, ``rng.below(players)``, and recorded in
        ``FirstPlayerChosen`` (rules, "Base game"; seed 000)."""
        if state.phase != SETUP:
            raise IllegalMove("already-begun", "The game has already begun.")
        first, events = state.first_player, []
        if first < 0:
            first = rng.below(state.players)
            data = {"player": first, "random_position": rng.position}
            events.append(Event("FirstPlayerChosen", data))
        stack, script = list(state.stack), list(state.script)
        return events + draw_events(stack, script, state.frontier, first, rng)

    # -- turns ----------------------------------------------------------------------

    def current_players(self, state: CarcassonneState) -> list[int]:
        """The seat holding the drawn tile, deciding a castle question or acting in an
        auction (:func:`domain.carcassonne.view.acting`); nobody before the first draw or
        after the end."""
        return acting(state)

    def legal_moves(self, state: CarcassonneState, player: int) -> list[Move]:
        """Every legal placement of the drawn tile, each without a follower and with one on
        every free segment (:mod:`domain.carcassonne.placement`), and with the expansion
        every placement with a bridge (:mod:`domain.carcassonne.bridges`); during an auction
        the bids (:func:`domain.carcassonne.bazaars.auction_moves`); empty when it is not
        ``player``'s turn."""
        if state.pending is not None:
            return choice_moves(state) if player == state.pending["player"] else []
        if deciding(state) >= 0:
            return auction_moves(state, player)
        if state.phase != PLAY or player != state.current or state.in_hand < 0:
            return []
        placements = legal_placements(state, player)
        if not state.expansion:
            return cast(list[Move], placements)
        return [*placements, *bridge_placements(state, player)]

    def apply(
        self, state: CarcassonneState, player: int, move: Move, rng: RandomStream
    ) -> list[Event]:
        """The events of ``player`` making ``move``, with everything that follows (scoring,
        the next draw, the end of the game). Raises ``IllegalMove``/``InvalidMove``; never
        changes ``state``."""
        if not (well_formed(move) or bazaar_moves.well_formed(move)):
            raise InvalidMove("malformed-move", "That is not a Carcassonne move.")
        if state.phase == OVER:
            raise IllegalMove("game-over", "The game is over.")
        if state.phase != PLAY:
            raise IllegalMove("not-started", "The game has not begun.")
        if type(player) is not int or not 0 <= player < state.players:
            raise IllegalMove("no-such-player", f"There is no seat {player!r}.")
        if state.pending is not None:
            if player != state.pending["player"]:
                raise IllegalMove("not-your-turn", f"Seat {state.pending['player']} decides.")
            return play_choice(state, player, canonical(move), rng)
        if deciding(state) >= 0:
            return play_auction(state, player, canonical(move), rng, next_turn)
        if isinstance(move, CastleChoice | FiefChoice):
            raise IllegalMove("no-decision", "No castle decision is pending.")
        if player != state.current:
            raise IllegalMove("not-your-turn", f"It is seat {state.current}'s turn.")
        if state.in_hand < 0:
            raise IllegalMove("no-tile-in-hand", "No tile has been drawn.")
        if not isinstance(move, Place | Bridged):
            raise IllegalMove("no-bazaar", "No auction is under way.")
        move = canonical(move)
        if isinstance(move, Bridged):
            return play_bridged(state, player, move, rng)
        assert isinstance(move, Place)
        return play(state, player, move, rng)

    def bot_move(self, state: CarcassonneState, player: int, bot: random.Random) -> Move:
        """The random bot's move (:mod:`domain.carcassonne.bot`): uniform over the legal
        moves, bidding at most its score + 10 in auctions."""
        return cast(Move, bot_policy(self.legal_moves(state, player), state.scores[player], bot))

    def copy_state(self, state: CarcassonneState) -> CarcassonneState:
        """An independent copy of ``state``."""
        return state.clone()

    def state_to_json(self, state: CarcassonneState) -> dict[str, Any]:
        """The whole state as JSON-safe primitives (:mod:`domain.carcassonne.snapshot`)."""
        return state_to_json(state)

    def state_from_json(self, data: dict[str, Any]) -> CarcassonneState:
        """The state that :meth:`state_to_json` gave ``data`` for."""
        return state_from_json(data)

    def evolve(self, state: CarcassonneState, event: Event) -> CarcassonneState:
        """The state after ``event``, changed in place (:mod:`domain.carcassonne.evolve`)."""
        handler = HANDLERS.get(event.type)
        if handler is None:
            return evolve_event(state, event)  # raises unknown-event
        handler(state, event.data)
        return state

    # -- reading --------------------------------------------------------------------

    def view(self, state: CarcassonneState, viewer: Viewer) -> dict[str, Any]:
        """The table (:mod:`domain.carcassonne.view`); no viewer sees a stack order, for
        none exists."""
        return view(state, viewer)

    def outcome(self, state: CarcassonneState) -> Outcome | None:
        """Scores, ranks and winners once ``GameEnded`` was recorded."""
        return outcome(state)

    def summary(self, state: CarcassonneState) -> dict[str, Any]:
        """Scores, turn, tiles left and whether the game is over."""
        return summary(state)

    def check_invariants(self, state: CarcassonneState) -> list[str]:
        """Conservation laws, and at the end the independent recount
        (:mod:`domain.carcassonne.invariants`)."""
        return check_invariants(state)

    # -- move formats ---------------------------------------------------------------

    def parse_move(self, data: Any) -> Move:
        """A move from JSON (:func:`domain.carcassonne.moves.parse_move`; the bazaar moves:
        :func:`domain.carcassonne.bazaar_moves.parse_bazaar`)."""
        if isinstance(data, dict) and data.get("type") in bazaar_moves.KINDS:
            return bazaar_moves.parse_bazaar(data)
        return move_formats.parse_move(data)

    def move_to_json(self, move: Move) -> dict[str, Any]:
        """The JSON form of a move."""
        if isinstance(move, BazaarMove):
            return bazaar_moves.bazaar_to_json(move)
        return move_formats.move_to_json(move)

    def parse_notation(self, text: str) -> Move:
        """A move from compact notation (``D@1,0r90+c0``)."""
        if isinstance(text, str):
            bazaar = bazaar_moves.parse_bazaar_notation(text.strip().upper())
            if bazaar is not None:
                return bazaar
        return move_formats.parse_notation(text)

    def notation(self, move: Move) -> str:
        """The compact notation of a move."""
        if isinstance(move, BazaarMove):
            return bazaar_moves.bazaar_notation(move)
        return move_formats.notation(move)
