"""The ledger's own events as the event log shows them: one ``TypedDict`` per event, named as
the event (docs/architecture.md, "Events are the record" and "Typed events, moves and
views"; docs/audit.md, "Undo").

The game aggregate (:class:`domain.game.Game`) stores these events around the games' own:
``Created``, ``SeatJoined``, ``MoveMade``, and the undo protocol's ``UndoRequested``,
``UndoAnswered`` and ``TurnsUndone``, the clocks' ``SeatFlagged`` (docs/api.md, "Clocks"),
and the lobby's ``SeatLeft``, ``SeatResigned``,
``GameAborted``, ``GameExpired`` and ``RematchCreated`` (docs/api.md, "Lobby"). Each
definition here is the event's *public* data —
what ``Game.Event.public_data`` gives, the event log presents and the hash chain covers —
so the secret fields (``domain.chain.SECRET_FIELDS``: ``Created``'s ``seed`` and
``arbiter_sha256``, ``SeatJoined``'s ``token_sha256``) and the chain's own fields
(``prev_hash``, ``hash``, ``sealed``: the envelope of a presented event) are not in them.
:mod:`application.contract` generates the JSON Schema of each (``LEDGER_EVENTS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired

from typing_extensions import TypedDict

from domain.clocks import CorrespondenceClock, FischerClock


class LedgerSettings(TypedDict):
    """The ledger settings fixed at creation (docs/api.md, "Ledger settings: undo and
    tournaments"; :func:`domain.undo.normalise_settings`)."""

    undo: Literal["none", "consent", "free"]
    tournament: bool
    clock: NotRequired[FischerClock | CorrespondenceClock]
    """Only in a game with a clock: its time control, fixed at creation (docs/api.md,
    "Clocks"; :mod:`domain.clocks`)."""


class ScenarioAnalysis(TypedDict):
    """An analysis game made by a scenario's options (the rules' ``is_scenario``)."""

    scenario: bool


class ForkAnalysis(TypedDict):
    """An analysis game forked from ``source`` after its turn ``turn`` (at its ``version``;
    docs/api.md, "forks")."""

    source: str
    turn: int
    version: int


class Created(TypedDict):
    """The game was created: its kind, seats, options (the game's ``options`` shape), ledger
    settings, the SHA-256 commitment to its secret seed, and for an analysis game what it
    analyses and its ``prelude``: the game's events it starts from, each ``[type, data]``
    (docs/architecture.md, "Randomness")."""

    game: str
    players: int
    options: dict[str, Any]
    settings: LedgerSettings
    seed_sha256: str
    analysis: ScenarioAnalysis | ForkAnalysis | None
    prelude: list[list[Any]]
    private: NotRequired[bool]
    """Only in a private game (``true``): its seats need the join secret (docs/api.md,
    "Lobby")."""
    rematch_of: NotRequired[str]
    """Only in a rematch: the finished game it replays (docs/api.md, "Lobby")."""
    tournament: NotRequired[str]
    """Only in a tournament's table: the tournament's id (docs/tournaments.md)."""


class SeatJoined(TypedDict):
    """A seat was taken by a player of that name (plain text)."""

    seat: int
    name: str
    public_key: NotRequired[str]
    """Only when the player registered one: their Ed25519 public key, unpadded base64url of
    its 32 bytes; every move of the seat is then signed (docs/api.md, "Signed moves")."""


class MoveMade(TypedDict):
    """A seat made a move: its JSON form (the game's ``move`` shape; a Risk deal's cards are
    shown to its parties only, the others see ``card_count``: docs/risk.md, "Hidden
    information") and its notation. It starts a turn."""

    seat: int
    move: dict[str, Any]
    notation: str
    signature: NotRequired[str]
    """Only from a seat that registered a public key: the player's Ed25519 signature (unpadded
    base64url of 64 bytes) of ``{"game", "version": this event's version - 1, "move"}`` in
    canonical JSON (docs/api.md, "Signed moves"; :mod:`domain.move_signatures`). Shown only to
    a viewer who sees the whole move (docs/risk.md, "Hidden information")."""
    elapsed_ms: NotRequired[int]
    """Only in a game with a clock, and only for a move the player sent (not the bot's for a
    resigned or flagged seat): the milliseconds from the seat getting the turn to the move's
    arrival, measured by the service (docs/api.md, "Clocks")."""


class UndoRequested(TypedDict):
    """``seat`` asked to take back the last ``turns`` turns, back to ``to_version``; the
    seats in ``waiting`` must answer (docs/audit.md, "Undo")."""

    seat: int
    to_version: int
    turns: int
    waiting: list[int]


class UndoAnswered(TypedDict):
    """A seat asked accepted or refused the pending request."""

    seat: int
    accepted: bool


class TurnsUndone(TypedDict):
    """The game went back to ``to_version``, ``turns`` turns taken back: by a ``player``
    (``seat``) at once, by ``consent`` of those asked (``seat`` the asker), or by the
    ``arbiter`` (``seat`` -1) with a ``reason`` (empty otherwise)."""

    to_version: int
    turns: int
    by: Literal["player", "consent", "arbiter"]
    seat: int
    reason: str


class SeatLeft(TypedDict):
    """A seat's holder left before the game started: the seat is free again, its token dead
    (docs/api.md, "Lobby")."""

    seat: int


class SeatResigned(TypedDict):
    """A seat resigned from a running game (docs/api.md, "Lobby"; :mod:`domain.lobby`)."""

    seat: int


class SeatFlagged(TypedDict):
    """A seat's time ran out (docs/api.md, "Clocks"; :mod:`domain.clocks`): flagged ``by``
    the service's ``scheduler`` that follows the clocks (``claimant`` -1), by a player's
    ``claim`` (``claimant`` the claiming seat), or by the seat's own ``move`` that arrived
    too late (``claimant`` the seat). It is then out of play as if it had resigned."""

    seat: int
    by: Literal["scheduler", "claim", "move"]
    claimant: int


class GameAborted(TypedDict):
    """The game was called off before it started, ``by`` its creator."""

    by: Literal["creator"]


class GameExpired(TypedDict):
    """The game expired waiting for players, ``after_seconds`` after its creation."""

    after_seconds: int


class RematchCreated(TypedDict):
    """The finished game's rematch is the game ``rematch``."""

    rematch: str


LEDGER_EVENTS: tuple[type[Mapping[str, object]], ...] = (
    Created,
    SeatJoined,
    MoveMade,
    UndoRequested,
    UndoAnswered,
    TurnsUndone,
    SeatLeft,
    SeatResigned,
    SeatFlagged,
    GameAborted,
    GameExpired,
    RematchCreated,
)
"""Every ledger event's definition, in the order a game records them first."""
