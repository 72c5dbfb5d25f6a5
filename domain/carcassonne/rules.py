"""Carcassonne (base game) as a :class:`domain.protocol.Rules` implementation: options,
setup, whose turn, legal moves and the events a move causes (docs/carcassonne.md,
"Base game" and "Final scoring"; the details live in the modules this one calls).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final, cast

from domain.carcassonne import every_move
from domain.carcassonne.board import new_state
from domain.carcassonne.bot import bot_move as bot_policy
from domain.carcassonne.events import FIRST_PLAYER_CHOSEN
from domain.carcassonne.every_move import Move, MoveJSON, canonical, well_formed
from domain.carcassonne.evolve import EVENTS
from domain.carcassonne.expansion import EXPANSION, MAX_PLAYERS
from domain.carcassonne.expansion.bazaars.auction import auction_moves, deciding
from domain.carcassonne.expansion.bridges.moves import Bridged
from domain.carcassonne.expansion.bridges.placement import bridge_placements
from domain.carcassonne.expansion.castles.moves import CastleChoice, FiefChoice
from domain.carcassonne.expansion.castles.turn import choice_moves
from domain.carcassonne.invariants import check_invariants
from domain.carcassonne.moves import Place
from domain.carcassonne.options import (
    OPTIONS_INFO,
    CarcassonneOptions,
    configure,
    is_scenario,
    normalise_options,
)
from domain.carcassonne.placement import legal_placements
from domain.carcassonne.state import (
    OVER,
    PLAY,
    SETUP,
    CarcassonneState,
    state_from_json,
    state_to_json,
)
from domain.carcassonne.turn import answer_castle, auction, draw_tile, play, play_bridged
from domain.carcassonne.view import (
    CarcassonneOutcomeDetails,
    CarcassonneView,
    acting,
    outcome,
    summary,
    view,
)
from domain.protocol import (
    IllegalMove,
    InvalidMove,
    InvalidOptions,
    OptionInfo,
    Outcome,
    PlayerRange,
    RulesBase,
    Shapes,
    Viewer,
)
from domain.randomness import RandomStream
from domain.turn import Turn

BASE_MAX_PLAYERS: Final = 5
"""The base game seats 2 to 5 (docs/carcassonne.md); the expansion 6 (``MAX_PLAYERS``)."""
RULES_VERSION: Final = "carcassonne-4"
"""Changes whenever the rules' decisions change (docs/carcassonne.md, "Rules decisions")."""


class CarcassonneRules(RulesBase[CarcassonneState, Move]):
    """The rules of the Carcassonne base game for 2-5 players, and 2-6 with the expansion
    Bridges, Castles & Bazaars (docs/carcassonne.md)."""

    events = EVENTS
    """Every event, its typed data and its handler (:mod:`domain.carcassonne.evolve`)."""
    shapes = Shapes(
        move=MoveJSON,
        view=CarcassonneView,
        options=CarcassonneOptions,
        outcome_details=CarcassonneOutcomeDetails,
    )
    """The typed definitions of a move, a view and the options."""

    name = "carcassonne"
    min_players = 2
    max_players = BASE_MAX_PLAYERS
    rules_version = RULES_VERSION
    options_info: tuple[OptionInfo, ...] = OPTIONS_INFO
    player_ranges: tuple[PlayerRange, ...] = (
        PlayerRange({}, 2, BASE_MAX_PLAYERS),
        PlayerRange({"expansions": [EXPANSION]}, 2, MAX_PLAYERS),
    )

    # -- creation -------------------------------------------------------------------

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options fixed (:func:`domain.carcassonne.options.normalise_options`): the
        farmer variant, the two-tile city value and, for a scenario, the stack (built and
        checked as :class:`~domain.carcassonne.options.CarcassonneOptions`; the protocol names
        a plain dict)."""
        return cast(dict[str, Any], normalise_options(options))

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
        fixed = normalise_options(options)
        seats = self.seats_for(fixed)
        if type(players) is not int or not seats.min_players <= players <= seats.max_players:
            raise InvalidOptions(
                "invalid-player-count",
                f"Carcassonne is played by {seats.min_players} to {seats.max_players} players"
                + (" with the expansion." if seats.options else "."),
            )
        if fixed.get("first_player", 0) >= players:
            raise InvalidOptions(
                "invalid-options", f"Option 'first_player' is a seat: 0 to {players - 1}."
            )
        state = new_state(players, fixed["farmers"], fixed["small-city-points"])
        configure(state, fixed)
        return state

    def seats_for(self, fixed: Mapping[str, Any]) -> PlayerRange:
        """The player range of the normalised options: the last of :attr:`player_ranges`
        whose options they all have (the base game's, or the expansion's)."""
        found = self.player_ranges[0]
        for seats in self.player_ranges:
            if all(fixed.get(key) == value for key, value in seats.options.items()):
                found = seats
        return found

    def open(self, turn: Turn[CarcassonneState], rng: RandomStream) -> None:
        """The first player draws the first tile (``TileDrawn``). Unless an option fixed
        them, they are drawn first, ``rng.below(players)``, and recorded in
        ``FirstPlayerChosen`` (rules, "Base game"; seed 000)."""
        state = turn.state
        if state.phase != SETUP:
            raise IllegalMove("already-begun", "The game has already begun.")
        first = state.first_player
        if first < 0:
            first = rng.below(state.players)
            turn.emit(FIRST_PLAYER_CHOSEN({"player": first, "random_position": rng.position}))
        draw_tile(turn, first, rng)

    # -- turns ----------------------------------------------------------------------

    def current_players(self, state: CarcassonneState) -> list[int]:
        """The seat holding the drawn tile, deciding a castle question or acting in an
        auction (:func:`domain.carcassonne.view.acting`); nobody before the first draw or
        after the end."""
        return acting(state)

    def legal_moves(self, state: CarcassonneState, player: int) -> list[Move]:
        """Every legal placement of the drawn tile, each without a follower and with one on
        every free segment (:mod:`domain.carcassonne.placement`), and with the expansion
        every placement with a bridge (:mod:`domain.carcassonne.expansion.bridges.placement`);
        the answers to a castle decision; during an auction the bids
        (:func:`domain.carcassonne.expansion.bazaars.auction.auction_moves`); empty when it is
        not ``player``'s turn."""
        if state.pending is not None:
            choices = choice_moves(state) if player == state.pending["player"] else []
            return cast(list[Move], choices)
        if deciding(state) >= 0:
            return cast(list[Move], auction_moves(state, player))
        if state.phase != PLAY or player != state.current or state.in_hand < 0:
            return []
        placements = cast(list[Move], legal_placements(state, player))  # a new list
        if state.expansion:
            placements += bridge_placements(state, player)
        return placements

    def decide(
        self, turn: Turn[CarcassonneState], player: int, move: Move, rng: RandomStream
    ) -> None:
        """Emit the events of ``player`` making ``move``, with everything that follows
        (scoring, the castle steps, the auction, the next draw, the end of the game;
        :mod:`domain.carcassonne.turn`). Raises ``IllegalMove``/``InvalidMove`` (codes in
        docs/carcassonne.md, "Moves") before emitting anything."""
        if not well_formed(move):
            raise InvalidMove("malformed-move", "That is not a Carcassonne move.")
        state = turn.state
        if state.phase == OVER:
            raise IllegalMove("game-over", "The game is over.")
        if state.phase != PLAY:
            raise IllegalMove("not-started", "The game has not begun.")
        if type(player) is not int or not 0 <= player < state.players:
            raise IllegalMove("no-such-player", f"There is no seat {player!r}.")
        if state.pending is not None:
            if player != state.pending["player"]:
                raise IllegalMove("not-your-turn", f"Seat {state.pending['player']} decides.")
            answer_castle(turn, player, canonical(move), rng)
        elif deciding(state) >= 0:
            auction(turn, player, canonical(move), rng)
        else:
            self._place(turn, player, canonical(move), rng)

    def _place(
        self, turn: Turn[CarcassonneState], player: int, move: Move, rng: RandomStream
    ) -> None:
        """A placement, with a bridge or not (rules, "Placing", "Bridges")."""
        state = turn.state
        if isinstance(move, CastleChoice | FiefChoice):
            raise IllegalMove("no-decision", "No castle decision is pending.")
        if player != state.current:
            raise IllegalMove("not-your-turn", f"It is seat {state.current}'s turn.")
        if state.in_hand < 0:
            raise IllegalMove("no-tile-in-hand", "No tile has been drawn.")
        if isinstance(move, Bridged):
            play_bridged(turn, player, move, rng)
        elif isinstance(move, Place):
            play(turn, player, move, rng)
        else:
            raise IllegalMove("no-bazaar", "No auction is under way.")

    def bot_move(self, state: CarcassonneState, player: int, bot: random.Random) -> Move:
        """The random bot's move (:mod:`domain.carcassonne.bot`): uniform over the legal
        moves, bidding at most its score + 10 in auctions."""
        moves = self.legal_moves(state, player)
        auction = deciding(state) >= 0
        return cast(Move, bot_policy(moves, state.scores[player], bot, auction=auction))

    def copy_state(self, state: CarcassonneState) -> CarcassonneState:
        """An independent copy of ``state``."""
        return state.clone()

    def state_to_json(self, state: CarcassonneState) -> dict[str, Any]:
        """The whole state as JSON-safe primitives
        (:func:`domain.carcassonne.state.state_to_json`)."""
        return state_to_json(state)

    def state_from_json(self, data: dict[str, Any]) -> CarcassonneState:
        """The state that :meth:`state_to_json` gave ``data`` for."""
        return state_from_json(data)

    # -- reading --------------------------------------------------------------------

    def view(self, state: CarcassonneState, viewer: Viewer) -> dict[str, Any]:
        """The table (:mod:`domain.carcassonne.view`, built and checked as
        :class:`~domain.carcassonne.view.CarcassonneView`; the protocol names a plain dict);
        no viewer sees a stack order, for none exists."""
        return cast(dict[str, Any], view(state, viewer))

    def outcome(self, state: CarcassonneState) -> Outcome | None:
        """Scores, ranks and winners once ``GameEnded`` was recorded."""
        return outcome(state)

    def summary(self, state: CarcassonneState) -> dict[str, Any]:
        """Scores, turn, tiles left and whether the game is over (built as
        :class:`~domain.carcassonne.view.SummaryView`; the protocol names a plain dict)."""
        return cast(dict[str, Any], summary(state))

    def check_invariants(self, state: CarcassonneState) -> list[str]:
        """Conservation laws, and at the end the independent recount
        (:mod:`domain.carcassonne.invariants`)."""
        return check_invariants(state)

    # -- move formats ---------------------------------------------------------------

    def parse_move(self, data: Any) -> Move:
        """A move from JSON (:func:`domain.carcassonne.every_move.parse_move`)."""
        return every_move.parse_move(data)

    def parse_notation(self, text: str) -> Move:
        """A move from compact notation (``D@1,0r90+c0``;
        :func:`domain.carcassonne.every_move.parse_notation`)."""
        return every_move.parse_notation(text)
