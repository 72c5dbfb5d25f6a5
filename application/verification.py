"""Verifying and replaying a game record (issue 3, part 5; docs/audit.md, "Verifying a
game"). Anyone holding a record can check it without the service's store:

1. its shape (:func:`application.audit_format.check_structure`);
2. the hash chain, every link recomputed (:mod:`application.audit_chain`);
3. the seed against the commitment made at creation;
4. the rules themselves: every begin and move decided again from the state before it, the
   draws from the revealed seed, every undo against the game's policy, and the outcome
   (:mod:`application.audit_rules`, :mod:`application.audit_undo`), and the players'
   signatures of their moves (:mod:`application.audit_signatures`);
5. the record's own summary fields (game, seats, moves) against its events;
6. its checkpoint in the service's transparency log, when it carries one or when keys are
   pinned (:mod:`application.audit_transparency`; docs/audit.md, "Verifying a record's
   checkpoint").

The first discrepancy found is reported, naming the event and what differs."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from application.audit_chain import check_chain, check_seals, check_seed
from application.audit_format import Discrepancy, check_structure, first_difference, moves_of
from application.audit_keys import KeyPolicy
from application.audit_rules import Referee
from application.audit_transparency import TransparencyReport, check_transparency, no_checkpoint
from application.errors import BadRequest, NotFound
from application.signing import PublicKey
from domain.protocol import Viewer


@dataclass(frozen=True)
class VerificationReport:
    """The verdict on a record: ``ok``, a short ``summary`` (game, events, moves, turns
    undone, outcome, what was checked) and, when not ok, the first ``discrepancy``: the
    event (``version``, ``event_type``; ``None`` for the record's own fields) and what
    differs. ``moves`` is the record's moves (every ``MoveMade``, later undone or not);
    ``moves_redecided`` how many of them the rules decided again — fewer in an unfinished
    record that holds sealed events, which are checked once the game ends (docs/audit.md).
    ``signatures_checked``: how many moves carried a player's signature, each checked
    against the public key the seat registered (docs/audit.md, "Player signatures").
    ``transparency``: what its checkpoint check found (``None``: the record has none)."""

    ok: bool
    summary: str
    game_id: str | None = None
    events: int = 0
    moves: int = 0
    moves_redecided: int = 0
    turns_undone: int = 0
    outcome: dict[str, Any] | None = None
    draws_checked: bool = True
    signatures_checked: int = 0
    discrepancy: str | None = None
    version: int | None = None
    event_type: str | None = None
    transparency: TransparencyReport | None = None

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready primitives."""
        return asdict(self)


def verify_record(
    record: Any, *, pinned_keys: Iterable[PublicKey] | None = None, tree_head: Any = None
) -> VerificationReport:
    """Check a game record completely (the module docstring lists the checks, in their
    order); never raises on a malformed record — that is a discrepancy too. ``pinned_keys``:
    the service's public keys the user trusts (none: a checkpoint's key is taken from the
    record and reported as unpinned); ``tree_head``: a signed tree head document the user
    kept, which the record's checkpoint must be under (docs/audit.md, "Verifying a record's
    checkpoint")."""
    try:
        referee = audit(record)
        transparency = check_transparency(record, KeyPolicy.of(pinned_keys), tree_head)
    except Discrepancy as found:
        game = record.get("game") if isinstance(record, dict) else None
        return VerificationReport(
            ok=False,
            summary=f"INVALID: {found}",
            game_id=str(game.get("id")) if isinstance(game, dict) else None,
            discrepancy=str(found),
            version=found.version,
            event_type=found.type_name,
        )
    events = len(record["events"])
    sentence = no_checkpoint(record) if transparency is None else transparency.sentence(events)
    return VerificationReport(
        ok=True,
        summary=f"{_summary(record, referee)} {sentence}",
        game_id=record["game"]["id"],
        events=len(record["events"]),
        moves=len(record["moves"]),
        moves_redecided=referee.moves,
        turns_undone=referee.undone,
        outcome=record["outcome"],
        draws_checked=referee.unchecked == 0,
        signatures_checked=referee.signed,
        transparency=transparency,
    )


def audit(record: Any) -> Referee:
    """Every check in order; the referee that followed the record to its end (its final
    line of play), or :class:`Discrepancy` at the first thing that does not hold."""
    check_structure(record)
    check_chain(record)
    check_seed(record)
    check_seals(record)
    referee = Referee(record)
    referee.run()
    _check_summary(record, referee)
    return referee


def replay_record(record: Any, to_turn: int | None = None) -> dict[str, Any]:
    """The state after turn ``to_turn`` of the record's line of play (0: before the first
    move; default: the end) as ``{"turn", "version", "state", "outcome"}``, the state as the
    rules show it to an arbiter. A record that does not verify is refused (``BadRequest``
    ``invalid-record``); a turn outside the line of play is ``NotFound`` ``no-such-turn``."""
    try:
        referee = audit(record)
    except Discrepancy as found:
        raise BadRequest("invalid-record", f"The record does not verify: {found}") from None
    last = len(referee.turns)
    turn = last if to_turn is None else to_turn
    if not 0 <= turn <= last:
        raise NotFound("no-such-turn", f"The line of play has turns 0 to {last}.")
    version = referee.version_after_turn(turn)
    state = referee.state_at(version)
    outcome = referee.outcome() if turn == last else referee.rules.outcome(state)
    return {
        "turn": turn,
        "version": version,
        "state": referee.rules.view(state, Viewer(arbiter=True)),
        "outcome": outcome.to_json() if outcome is not None else None,
    }


def _check_summary(record: dict[str, Any], referee: Referee) -> None:
    """The record's ``game``, ``seats`` and ``moves`` must be what its events say."""
    events = record["events"]
    created = events[0]
    data = created["data"]
    game = {
        "id": record["game"]["id"],
        "kind": data["game"],
        "rules_version": referee.rules.rules_version,
        "players": data["players"],
        "options": data["options"],
        "settings": data["settings"],
        "analysis": data["analysis"],
        "created_at": created["timestamp"],
    }
    names: list[str | None] = [None] * referee.players
    for item in events:
        if item["type"] == "SeatJoined":
            names[item["data"]["seat"]] = item["data"]["name"]
        elif item["type"] == "SeatLeft":
            names[item["data"]["seat"]] = None
    seats = [{"seat": seat, "name": name} for seat, name in enumerate(names)]
    for field, expected in (("game", game), ("seats", seats), ("moves", moves_of(events))):
        difference = first_difference(field, record[field], expected, "the events give")
        if difference:
            raise Discrepancy(difference)


def _summary(record: dict[str, Any], referee: Referee) -> str:
    game = record["game"]
    head = (
        f"OK: game {game['id']} ({game['kind']}, {game['players']} players): "
        f"{len(record['events'])} events, {len(record['moves'])} moves "
        f"({referee.moves} re-decided by the rules), {referee.undone} turns undone"
    )
    if referee.signed:
        head += f", {referee.signed} moves signed by their players (every signature checked)"
    if referee.clock is not None:
        flags = len(referee.flagged)
        head += (
            f", a clock (every move's time checked against the timestamps, {flags} seat(s) "
            "flagged, each flag decided again)"
        )
    outcome = record["outcome"]
    if outcome is None:
        result = "not finished"
    else:
        winners = ", ".join(str(seat) for seat in outcome["winners"])
        scores = ", ".join(str(score) for score in outcome["scores"])
        result = f"finished: scores {scores}; won by seat {winners}"
    rules = f"the rules ({game['rules_version']})"
    if record["seed"] is not None:
        checked = f"hash chain, seed commitment, every move re-decided by {rules}, every draw"
        return f"{head}; {result}. Checked: {checked} re-derived from the seed."
    checked = f"hash chain, every move re-decided by {rules}"
    if referee.hidden_from is not None:
        checked = (
            f"hash chain, the moves before event {referee.hidden_from} re-decided by "
            f"{rules}; from there on the record holds facts hidden from its viewer "
            "(sealed events), which are checked once the game has ended and reveals them"
        )
    if referee.unchecked:
        checked += (
            f", except the draws of {referee.unchecked} begin/move(s): they come from the "
            "secret seed and can be checked once the game ends and reveals it"
        )
    return f"{head}; {result}. Checked: {checked}."
