"""Legal placements and follower spots (docs/carcassonne.md, "Placing",
"Deploying"), checked against a brute force built on the independent recount's board; the
draw on demand; discarding a tile that fits nowhere."""

from __future__ import annotations

from itertools import islice

from domain.carcassonne import CARCASSONNE, CarcassonneState
from domain.carcassonne.catalogue import CATALOGUE
from domain.carcassonne.grid import xy
from domain.carcassonne.invariants import history
from domain.carcassonne.recount import Recount, turned
from domain.carcassonne.tiles import BASE_COUNTS, TYPE_INDEX, TYPES
from domain.carcassonne.turn import draw_tile
from domain.randomness import RandomStream
from domain.turn import Turn

from .helpers import build, random_game, table

_SIDES = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
_ACROSS = {"N": 2, "E": 3, "S": 0, "W": 1}


def replayed(state: CarcassonneState) -> Recount:
    """The recount's own board of the game so far (followers that scored are gone)."""
    board = Recount(state.players, state.farmers, state.small_city)
    for index, step in enumerate(history(state)):
        board.place(step, index == 0)
    return board


def look(tile: str, rotation: int) -> frozenset[tuple[str, frozenset[str], int]]:
    """What a turned tile looks like, ids aside (from the raw catalogue)."""
    t = turned(tile, rotation)
    pennants = {c["id"]: c["pennants"] for d in CATALOGUE if d["type"] == tile for c in d["cities"]}
    return frozenset(
        (kind, frozenset(t.sides[seg]), pennants.get(seg, 0)) for seg, kind in t.kind.items()
    )


def brute_placements(board: Recount, tile: str) -> set[tuple[int, int, int]]:
    """Every (x, y, rotation) where ``tile`` fits, one rotation per distinct look."""
    empty = {(x + dx, y + dy) for x, y in board.board for dx, dy in _SIDES.values()} - set(
        board.board
    )
    found = set()
    for x, y in empty:
        looks = set()
        for rotation in (0, 90, 180, 270):
            t = turned(tile, rotation)
            ok = True
            for side, (dx, dy) in _SIDES.items():
                other = board.board.get((x + dx, y + dy))
                if other is not None and other.edges[_ACROSS[side]] != t.edges["NESW".index(side)]:
                    ok = False
            if ok and look(tile, rotation) not in looks:
                looks.add(look(tile, rotation))
                found.add((x, y, rotation))
    return found


def brute_spots(board: Recount, tile: str, x: int, y: int, rotation: int) -> set[str | None]:
    """The segments of the placed tile whose feature holds no follower (by flood fill)."""
    board.board[(x, y)] = turned(tile, rotation)
    try:
        free: set[str | None] = {None}
        for segment, kind in board.board[(x, y)].kind.items():
            nodes = {(x, y, segment)} if kind == "monastery" else board.flood((x, y, segment))[0]
            if not nodes & set(board.followers):
                free.add(segment)
        return free
    finally:
        del board.board[(x, y)]


def test_legal_placements_and_spots_match_a_brute_force() -> None:
    checked = 0
    for players, seed in [(2, 1), (3, 2), (4, 3), (5, 4), (2, 5), (4, 6)]:
        for state, _step in islice(random_game(players, seed), 0, None, 5):
            if not CARCASSONNE.current_players(state):
                break
            player = state.current
            tile = TYPES[state.in_hand].letter
            legal = CARCASSONNE.legal_moves(state, player)
            assert len(legal) == len(set(legal))
            board = replayed(state)
            assert board.followers == {
                (*xy(pos), TYPES[state.tiles[state.board[pos]][1]].segments[seg].id): owner
                for pos, (owner, seg) in state.followers.items()
            }
            placements = {(m.x, m.y, m.rotation) for m in legal}
            assert placements == brute_placements(board, tile)
            for x, y, rotation in sorted(placements)[::2]:
                listed = {m.follower for m in legal if (m.x, m.y, m.rotation) == (x, y, rotation)}
                expected = brute_spots(board, tile, x, y, rotation)
                assert listed == (expected if state.supply[player] else {None}), (x, y, rotation)
                checked += 1
    assert checked > 300


def test_the_follower_spot_cache_never_changes_the_answer() -> None:
    for seed in range(6):
        for state, _step in random_game(2 + seed % 4, seed):
            if not CARCASSONNE.current_players(state):
                break
            warm = CARCASSONNE.legal_moves(state, state.current)
            cold = state.clone()
            cold.slot_cache.clear()
            cold.memo = None
            assert CARCASSONNE.legal_moves(cold, cold.current) == warm


def test_apply_accepts_exactly_the_listed_spots() -> None:
    for state, _step in islice(random_game(3, 7), 0, 60, 4):
        if not CARCASSONNE.current_players(state):
            break
        player = state.current
        legal = set(CARCASSONNE.legal_moves(state, player))
        tile = TYPES[state.in_hand]
        for move in sorted({m._replace(follower=None) for m in legal})[:6]:
            for segment in tile.segments:
                attempt = move._replace(follower=segment.id)
                try:
                    CARCASSONNE.apply(state, player, attempt, RandomStream("x", 0))
                except Exception as error:
                    assert attempt not in legal, (attempt, error)
                else:
                    assert attempt in legal, attempt


def test_a_draw_takes_the_kth_tile_left_in_catalogue_order() -> None:
    state = CARCASSONNE.setup(2, {"first_player": 0})
    events = CARCASSONNE.begin(state, RandomStream("draw", 0))
    assert [e.type for e in events] == ["TileDrawn"]
    index = RandomStream("draw", 0).below(71)
    order = [t.letter for t in TYPES for _ in range(BASE_COUNTS[t.index] - (t.letter == "D"))]
    assert len(order) == 71
    assert events[0].data == {
        "player": 0,
        "tile": order[index],
        "tiles_left": 70,
        "random_position": 1,
    }


def test_a_tile_that_fits_nowhere_is_discarded_and_another_drawn() -> None:
    state = table(2)
    build(state, "E@0,-1r180")  # the only city edge is closed: C fits nowhere now
    stack = [0] * len(TYPES)
    stack[TYPE_INDEX["C"]] = 1
    stack[TYPE_INDEX["U"]] = 1
    seen = set()
    for seed in range(40):
        before = state.clone()
        before.stack = list(stack)
        turn = Turn(before, CARCASSONNE)
        draw_tile(turn, 1, RandomStream(f"d{seed}", 0))
        events = turn.events
        kinds = [(e.type, e.data["tile"]) for e in events]
        seen.add(tuple(kinds))
        if kinds[0] == ("TileDrawn", "C"):
            assert kinds == [("TileDrawn", "C"), ("TileDiscarded", "C"), ("TileDrawn", "U")]
            work = turn.state
            assert work.discarded == [TYPE_INDEX["C"]] and work.in_hand == TYPE_INDEX["U"]
            assert work.current == 1 and work.tiles_left == 0
        else:
            assert kinds == [("TileDrawn", "U")]
    assert len(seen) == 2


def test_the_game_ends_when_the_last_tile_is_discarded() -> None:
    state = table(2)
    build(state, "E@0,-1r180")
    state.stack = [0] * len(TYPES)
    state.stack[TYPE_INDEX["C"]] = 1
    state.stack[TYPE_INDEX["U"]] = 1
    state.in_hand, state.current, state.phase = TYPE_INDEX["U"], 0, 1
    state.stack[TYPE_INDEX["U"]] -= 1
    events = CARCASSONNE.apply(
        state, 0, CARCASSONNE.parse_notation("U@1,0r0+r0"), RandomStream("e")
    )
    assert [e.type for e in events] == [
        "TilePlaced",
        "FollowerDeployed",
        "TileDrawn",
        "TileDiscarded",
        "FinalFeatureScored",
        "GameEnded",
    ]
    for event in events:
        CARCASSONNE.evolve(state, event)
    outcome = CARCASSONNE.outcome(state)
    assert outcome is not None and outcome.scores == [2, 0] and outcome.winners == [0]
    assert CARCASSONNE.current_players(state) == []
