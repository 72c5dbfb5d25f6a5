"""The tournament aggregate (issue 15, part 1; docs/tournaments.md, "The tournament
aggregate"): every command, every refusal's stable code, the hash chain, the secrets kept out
of the public data, the start's draw from the tournament's stream, and a round trip through a
real event store (the library's in-memory one, with its JSON transcoder and snapshots)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.application import Application

from domain.errors import GameError
from domain.randomness import RandomStream, commitment
from domain.tournament.aggregate import Tournament
from domain.tournament.chain import GENESIS, event_link
from domain.tournament.errors import (
    EntrantRefused,
    InvalidTournament,
    NoSuchEntrant,
    TournamentPhase,
)
from domain.tournament.format import pairing_settings
from domain.tournament.invariants import check_invariants
from domain.tournament.pairing import (
    EliminationSettings,
    RoundRobinSettings,
    SwissSettings,
    draw_numbers,
)

SEED = "5eed" * 16
ORGANISER = "0" * 64


def token(name: str) -> str:
    return name.encode().hex().ljust(64, "f")[:64]


def make(fmt: dict[str, Any] | None = None, game: str = "azul", **extra: Any) -> Tournament:
    return Tournament.create(
        game=game,
        options=extra.pop("options", {}),
        settings=extra.pop("settings", None),
        format=fmt or {"kind": "swiss"},
        name="Winter Open",
        seed=SEED,
        seed_sha256=commitment(SEED),
        organiser_sha256=ORGANISER,
        table_secret="7a" * 32,
        tournament_id=UUID(int=7),
    )


def register(t: Tournament, *names: str) -> None:
    for name in names:
        t.register(name, token(name), entrant_id=name)
        assert check_invariants(t) == []


def started(fmt: dict[str, Any] | None = None, names: str = "abcd") -> Tournament:
    t = make(fmt)
    register(t, *names)
    t.open_check_in()
    for name in names:
        t.check_in(name)
    t.start()
    assert check_invariants(t) == []
    return t


def refused(error: type[GameError], code: str, call: Any, *args: Any) -> None:
    with pytest.raises(error) as caught:
        call(*args)
    assert caught.value.code == code


# Creation


def test_creation_fixes_options_settings_and_format() -> None:
    t = make({"kind": "swiss", "table_size": 2, "rounds": 5})
    assert t.options == {"wall": "colored"}
    assert t.settings == {"undo": "none", "tournament": True}
    assert t.format == {
        "kind": "swiss",
        "table_size": 2,
        "min_table_size": 2,
        "rounds": 5,
        "late_entry": False,
        "max_entrants": None,
        "points": {"2": [1, 0]},
        "bye_points": 1,
        "tie_breaks": ["score", "buchholz", "head-to-head", "seat"],
        "pairing": "auto",
    }
    assert t.phase == "registration" and t.entrants == {} and check_invariants(t) == []


def test_the_tournament_setting_is_forced_on_and_undo_is_the_arbiters() -> None:
    t = make(settings={"tournament": False, "undo": "consent"})
    assert t.settings == {"undo": "consent", "tournament": True}


@pytest.mark.parametrize(
    "fmt",
    [
        {"kind": "knockout"},
        {"kind": "swiss", "table_size": 7},
        {"kind": "swiss", "table_size": 1},
        {"kind": "swiss", "table_size": 3, "min_table_size": 4},
        {"kind": "swiss", "table_size": "2"},
        {"kind": "swiss", "table_size": True},
        {"kind": "round-robin", "late_entry": True},
        {"kind": "elimination", "late_entry": True},
        {"kind": "elimination", "table_size": 4, "advance": 2, "min_table_size": 2},
        {"kind": "swiss", "advance": 1},
        {"kind": "swiss", "max_entrants": 1},
        {"kind": "swiss", "rounds": 0},
        {"kind": "swiss", "table_size": 5},  # Azul seats 2 to 4
    ],
)
def test_a_format_that_cannot_be_played_is_refused(fmt: dict[str, Any]) -> None:
    refused(InvalidTournament, "invalid-format", make, fmt)


def test_a_format_must_be_an_object() -> None:
    refused(InvalidTournament, "invalid-format", make, ["swiss"])  # type: ignore[list-item]


def test_every_table_size_is_set_up_by_the_game() -> None:
    t = make({"kind": "swiss", "table_size": 4, "min_table_size": 3})
    assert (t.format["table_size"], t.format["min_table_size"]) == (4, 3)
    t = make({"kind": "elimination", "table_size": 4, "min_table_size": 3, "advance": 2})
    assert t.format["advance"] == 2
    t = make({"kind": "round-robin", "cycles": 2})
    assert (t.format["cycles"], t.format["rounds"]) == (2, None)


def test_bad_game_options_and_names_are_refused() -> None:
    refused(GameError, "unknown-game", make, None, "chess")
    with pytest.raises(GameError):
        make(options={"wall": "purple"})
    with pytest.raises(GameError) as caught:
        Tournament.create(
            game="azul",
            options={},
            settings=None,
            format={"kind": "swiss"},
            name="\u202e",
            seed=SEED,
            seed_sha256=commitment(SEED),
            organiser_sha256=ORGANISER,
            table_secret="7a" * 32,
        )
    assert caught.value.code == "not-plain-text"


# The chain and the secrets


def test_every_event_is_a_link_of_the_chain_over_its_public_data() -> None:
    t = started()
    t.withdraw("d")
    events = t.collect_events()
    assert [type(e).__name__ for e in events] == [
        "Created",
        *["EntrantRegistered"] * 4,
        "CheckInOpened",
        *["EntrantCheckedIn"] * 4,
        "TournamentStarted",
        "RoundPaired",
        "EntrantWithdrew",
    ]
    head = GENESIS
    for e in events:
        assert e.class_version == 1
        assert e.prev_hash == head
        envelope = (type(e).__name__, e.originator_id, e.originator_version, e.timestamp)
        assert e.hash == event_link(head, envelope, e.public_data())
        head = e.hash
    assert t.chain_head == head
    tampered = {**events[1].public_data(), "name": "z"}
    assert event_link(GENESIS, ("EntrantRegistered", t.id, 2, events[1].timestamp), tampered) != (
        events[1].hash
    )


def test_secrets_stay_out_of_the_public_data() -> None:
    t = started({"kind": "swiss", "late_entry": True})
    t.register("late", token("late"), entrant_id="late")
    for e in t.collect_events():
        shown = repr(e.public_data())
        assert SEED not in shown and ORGANISER not in shown and "token_sha256" not in shown


def test_the_organiser_and_entrants_are_known_by_their_digests() -> None:
    t = make()
    register(t, "ann")
    assert t.is_organiser(ORGANISER) and not t.is_organiser(token("ann"))
    assert t.entrant_of(token("ann")) == "ann" and t.entrant_of(ORGANISER) is None


# Registration


def test_registration_gives_each_entrant_an_id() -> None:
    t = make()
    key = t.register("Émile", token("e"))
    assert str(UUID(key)) == key
    assert t.entrants[key]["name"] == "Émile" and t.entrants[key]["status"] == "registered"


def test_registration_refusals() -> None:
    t = make({"kind": "swiss", "max_entrants": 3})
    register(t, "ann", "bob")
    refused(EntrantRefused, "name-taken", t.register, "ANN", token("x"))
    refused(EntrantRefused, "entrant-exists", t.register, "cy", token("c"), "ann")
    refused(GameError, "not-plain-text", t.register, "  ", token("c"))
    register(t, "cy")
    refused(EntrantRefused, "tournament-full", t.register, "dee", token("d"))
    t.withdraw("cy")
    register(t, "dee")  # a place freed by a withdrawal
    t.withdraw("ann")
    register(t, "Ann")  # a name freed by its entrant leaving: a new entrant


def test_registration_stays_open_during_check_in_and_closes_at_the_start() -> None:
    t = make()
    register(t, "a", "b")
    t.open_check_in()
    register(t, "c")
    t.check_in("a")
    t.check_in("c")
    t.start()
    refused(TournamentPhase, "registration-closed", t.register, "d", token("d"))


def test_late_entry_gets_the_next_free_number() -> None:
    t = started({"kind": "swiss", "late_entry": True}, names="abc")
    t.withdraw("c")
    key = t.register("late", token("late"))
    assert t.entrants[key] == {
        "name": "late",
        "token_sha256": token("late"),
        "status": "checked-in",
        "number": 4,
        "late": True,
        "reason": "",
    }
    assert check_invariants(t) == []
    refused(EntrantRefused, "name-taken", t.register, "LATE", token("x"))


# Withdrawal and removal


def test_withdrawal_in_every_phase_and_only_once() -> None:
    t = make()
    register(t, "a", "b", "c", "d")
    t.withdraw("a")
    t.open_check_in()
    t.check_in("b")
    t.withdraw("b")
    t.check_in("c")
    t.check_in("d")
    t.start()
    t.withdraw("c")
    assert {k: e["status"] for k, e in t.entrants.items()} == {
        "a": "withdrawn",
        "b": "withdrawn",
        "c": "withdrawn",
        "d": "checked-in",
    }
    assert t.entrants["c"]["number"] is not None  # a drawn number stays
    refused(EntrantRefused, "entrant-left", t.withdraw, "c")
    refused(NoSuchEntrant, "no-such-entrant", t.withdraw, "nobody")
    assert check_invariants(t) == []


def test_removal_needs_a_reason_and_an_entrant_still_in() -> None:
    t = started()
    refused(GameError, "not-plain-text", t.remove, "a", "")
    t.remove("a", "left the venue")
    assert t.entrants["a"]["status"] == "removed" and t.entrants["a"]["reason"] == "left the venue"
    refused(EntrantRefused, "entrant-left", t.remove, "a", "again")
    refused(NoSuchEntrant, "no-such-entrant", t.remove, "zed", "who")
    assert check_invariants(t) == []


# Check-in and start


def test_check_in_refusals() -> None:
    t = make()
    register(t, "a", "b")
    refused(TournamentPhase, "check-in-not-open", t.check_in, "a")
    t.open_check_in()
    refused(TournamentPhase, "check-in-open", t.open_check_in)
    t.check_in("a")
    refused(EntrantRefused, "checked-in", t.check_in, "a")
    refused(NoSuchEntrant, "no-such-entrant", t.check_in, "x")
    t.withdraw("b")
    refused(EntrantRefused, "entrant-left", t.check_in, "b")


def test_start_refusals() -> None:
    t = make({"kind": "swiss", "table_size": 3, "min_table_size": 3})
    register(t, "a", "b", "c")
    refused(TournamentPhase, "check-in-not-open", t.start)
    t.open_check_in()
    t.check_in("a")
    t.check_in("b")
    refused(TournamentPhase, "too-few-entrants", t.start)
    t.check_in("c")
    t.start()
    refused(TournamentPhase, "tournament-started", t.start)
    refused(TournamentPhase, "check-in-open", t.open_check_in)
    refused(TournamentPhase, "check-in-not-open", t.check_in, "a")


def test_start_draws_numbers_from_the_tournament_stream() -> None:
    t = make()
    register(t, "d", "c", "b", "a", "e")
    t.open_check_in()
    for name in "abcd":
        t.check_in(name)
    t.start()
    rng = RandomStream(SEED)
    expected = draw_numbers(["a", "b", "c", "d"], rng)
    assert {k: e["number"] for k, e in t.entrants.items() if e["number"]} == expected
    started_event = t.collect_events()[-2]
    assert started_event.public_data()["random_position"] == rng.position > 0
    assert t.entrants["e"]["status"] == "absent" and t.entrants["e"]["number"] is None
    assert started_event.public_data()["absent"] == ["e"]
    assert t.rounds[0]["number"] == 1 and t.random_position >= rng.position


def test_a_different_seed_draws_different_numbers() -> None:
    numbers = []
    for seed in ("one", "two", "three"):
        t = Tournament.create(
            game="azul",
            options={},
            settings=None,
            format={"kind": "swiss"},
            name="T",
            seed=seed,
            seed_sha256=commitment(seed),
            organiser_sha256=ORGANISER,
            table_secret="7a" * 32,
        )
        register(t, *"abcdefgh")
        t.open_check_in()
        for name in "abcdefgh":
            t.check_in(name)
        t.start()
        numbers.append(tuple(t.entrants[k]["number"] for k in "abcdefgh"))
    assert len(set(numbers)) > 1


# Invariants


def test_the_invariant_check_catches_broken_states() -> None:
    t = started()
    t.entrants["a"]["number"] = 2
    t.entrants["b"]["status"] = "registered"
    t.entrants["c"]["late"] = True
    t.seed = "other"
    problems = check_invariants(t)
    assert "the seed does not match its commitment" in problems
    assert "the pairing numbers are not 1..n, each once" in problems
    assert any("neither checked in nor absent" in p for p in problems)
    assert any("late in a format without late entry" in p for p in problems)
    fresh = make()
    register(fresh, "a", "b")
    fresh.entrants["b"]["name"] = "A"
    fresh.entrants["a"]["number"] = 1
    assert {
        "two entrants who have not left share a name",
        "pairing numbers before the start",
    } <= set(check_invariants(fresh))


# A real event store


@pytest.mark.parametrize("snapshot", [False, True])
def test_the_tournament_round_trips_through_an_event_store(snapshot: bool) -> None:
    app: Application = Application(env={"IS_SNAPSHOTTING_ENABLED": "y"})
    t = started({"kind": "swiss", "late_entry": True})
    t.remove("b", "no-show")
    t.register("late", token("late"), entrant_id="late")
    app.save(t)
    if snapshot:
        app.take_snapshot(t.id)
    loaded = app.repository.get(t.id)
    assert isinstance(loaded, Tournament)
    assert vars(loaded) == vars(t) | {"_pending_events": []}
    assert check_invariants(loaded) == []
    loaded.withdraw("late")
    app.save(loaded)
    assert app.repository.get(t.id).entrants["late"]["status"] == "withdrawn"


# Every code is documented


def test_every_refusal_code_is_in_the_docs_table_and_every_listed_code_is_raised() -> None:
    root = Path(__file__).resolve().parents[3]
    classes = {
        "InvalidTournament",
        "TournamentPhase",
        "EntrantRefused",
        "NoSuchEntrant",
        "ResultRefused",
        "RoundRefused",
        "BadResult",
        "NoSuchTable",
    }
    raised = set()
    for path in sorted((root / "domain" / "tournament").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in classes:
                first = node.args[0]
                assert isinstance(first, ast.Constant), f"{path.name}: a code that is no literal"
                raised.add(first.value)
    doc = (root / "docs" / "tournaments.md").read_text(encoding="utf-8")
    section = doc[doc.index("## The tournament aggregate") : doc.index("## Pairing\n")]
    table = section[section.index("| code | class | when |") :]
    table = table[: table.index("\n\n")]
    listed = set(re.findall(r"^\| `([a-z-]+)` \|", table, flags=re.MULTILINE))
    assert raised == listed


def test_the_format_gives_the_pairing_interfaces_settings() -> None:
    assert pairing_settings(
        make({"kind": "swiss", "table_size": 4, "min_table_size": 3}).format
    ) == (SwissSettings(table_size=4, min_table_size=3))
    assert pairing_settings(make({"kind": "round-robin", "cycles": 2, "rounds": 3}).format) == (
        RoundRobinSettings(table_size=2, min_table_size=2, cycles=2, rounds=3)
    )
    fmt = {"kind": "elimination", "table_size": 4, "min_table_size": 3, "advance": 2}
    assert pairing_settings(make(fmt).format) == EliminationSettings(4, 3, 2)
