"""No event the store can hold stops a read model (docs/architecture.md, "Read side"; issue
12, part 1). The API refuses a NUL or an invisible character in a name, but a store may hold
older events, or events written by other means: such an event is written here past the API's
check, and both read models, and a rebuild from zero, still complete on every store."""

from __future__ import annotations

import pytest

import domain.game
from infrastructure.container import Services
from tests.helpers import listed, start_game

ODD_NAMES = ["nul\x00name", "bidi\u202eeman", "zero\u200bwidth", "bell\x07"]


def test_a_stored_name_no_text_column_can_hold_stops_nothing(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = services.app
    monkeypatch.setattr(domain.game, "plain_text", lambda field, text: text)
    odd = app.create_game("azul", len(ODD_NAMES))
    tokens = [app.join(odd, name).token for name in ODD_NAMES]
    monkeypatch.undo()
    assert [seat["name"] for seat in app.view(odd)["seats"]] == ODD_NAMES
    version, seats = app.whose_turn(odd)
    legal = app.legal_moves(odd, tokens[seats[0]])["moves"]
    app.play(odd, tokens[seats[0]], legal[0]["move"], version)
    after = start_game(app, seed="after the odd one")
    after.step()
    services.catch_up()

    rows = listed(services.games_list)
    assert len(rows) == 2, "the games after the odd one are listed"
    by_id = {row.game_id: row for row in rows}
    shown = [seat["name"] for seat in by_id[str(odd)].seats]
    assert shown == ["nul\ufffdname", "bidi\u202eeman", "zero\u200bwidth", "bell\x07"]
    assert [t.turn for t in services.turns.turns_of(str(odd), include_undone=True)] == [1]
    assert [t.turn for t in services.turns.turns_of(str(after.game_id), include_undone=True)] == [1]

    before = services.games_list.all_rows()
    services.rebuild()
    assert services.games_list.all_rows() == before
