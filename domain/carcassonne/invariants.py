"""Conservation laws of Carcassonne, checked by the conformance run after every event
(docs/carcassonne.md, "Base game": 72 tiles, 7 followers per player; scores never
below 0), and at the end of a game the independent recount (:mod:`domain.carcassonne.recount`).
"""

from __future__ import annotations

from domain.carcassonne.expansion import tokens_each
from domain.carcassonne.expansion.bazaars.auction import held
from domain.carcassonne.grid import xy
from domain.carcassonne.recount import Placement, recount
from domain.carcassonne.scoring import ref
from domain.carcassonne.state import FOLLOWERS, NODE_BITS, OVER, PLAY, CarcassonneState
from domain.carcassonne.tiles import AXES, ROTATIONS, TYPES


def history(state: CarcassonneState) -> list[Placement]:
    """The placements of the game so far, in order, as the recount reads them."""
    out = []
    bridges = {k: (*xy(pos), AXES[axis]) for k, pos, axis in state.bridge_log}
    castles: dict[int, list[tuple[int, int, str]]] = {}
    for site in state.sites:
        at = ref(state, site.node)
        castles.setdefault(site.built, []).append((at["x"], at["y"], at["segment"]))
    fiefs: dict[int, list[tuple[int, int, str]]] = {}
    for placed, fx, fy, chosen in state.fief_log:
        fiefs.setdefault(placed - 1, []).append((fx, fy, chosen))
    for k, ((pos, kind, turns, player), segment) in enumerate(
        zip(state.tiles, state.deployed, strict=True)
    ):
        x, y = xy(pos)
        tile = TYPES[kind]
        follower = None if segment < 0 else tile.segments[segment].id
        out.append(
            Placement(
                x,
                y,
                tile.letter,
                ROTATIONS[turns],
                player,
                follower,
                bridges.get(k),
                tuple(castles.get(k, ())),
                tuple(fiefs.get(k, ())),
            )
        )
    return out


def auction_net(state: CarcassonneState) -> list[int]:
    """Per seat, the points it paid minus those it received at auctions (rules,
    "Bazaars": scores may go below 0 only by paying for tiles)."""
    net = [0] * state.players
    for payer, payee, points in state.payments:
        net[payer] += points
        if payee >= 0:
            net[payee] -= points
    return net


def _tiles(state: CarcassonneState) -> list[str]:
    problems = []
    in_hand = 1 if state.in_hand >= 0 else 0
    revealed = held(state)
    total = len(state.tiles) + len(state.discarded) + state.tiles_left + in_hand + revealed
    if total != state.total:
        problems.append(f"{total} tiles are accounted for, not {state.total}.")
    if any(n < 0 for n in state.stack):
        problems.append("A negative count in the stack.")
    if in_hand and state.phase != PLAY:
        problems.append("A tile is in hand outside a turn.")
    if len(state.board) != len(state.tiles) or len(state.deployed) != len(state.tiles):
        problems.append("The board and the list of placed tiles disagree.")
    if any(pos in state.board for pos in state.frontier):
        problems.append("A square of the frontier holds a tile.")
    return problems


def _followers(state: CarcassonneState) -> list[str]:
    problems = []
    on_board = [0] * state.players
    for pos, (player, segment) in state.followers.items():
        on_board[player] += 1
        k = state.board.get(pos)
        if k is None:
            problems.append(f"A follower stands on an empty square {xy(pos)}.")
            continue
        feature = state.features.get(state.feat[k << NODE_BITS | segment])
        if feature is None or pos not in feature.followers:
            problems.append(f"The follower at {xy(pos)} is missing from its feature.")
    listed = sum(len(f.followers) for f in state.features.values())
    if listed != len(state.followers):
        problems.append("Features list followers that are not on the board.")
    for seat in range(state.players):
        if state.supply[seat] < 0 or state.supply[seat] + on_board[seat] != FOLLOWERS:
            problems.append(
                f"Seat {seat} has {state.supply[seat]} followers in supply and "
                f"{on_board[seat]} on the board, not {FOLLOWERS} in all."
            )
        if state.scores[seat] + auction_net(state)[seat] < 0:
            problems.append(f"Seat {seat} has a negative score.")  # auctions aside
    if state.expansion and (len(state.bridges), len(state.castles)) != (state.players,) * 2:
        problems.append("Not every seat has its bridge and castle tokens.")
    if any(n < 0 for n in state.bridges + state.castles):
        problems.append("A negative count of tokens.")
    return problems + _castles(state)


def _castles(state: CarcassonneState) -> list[str]:
    """Castle tokens in supply and on the board add up; an occupied castle's follower is
    on its city; a decision is pending only for a seat."""
    problems = []
    if state.expansion:
        each = tokens_each(state.players)
        for seat in range(state.players):
            built = sum(1 for site in state.sites if site.owner == seat)
            if state.castles[seat] + built != each:
                problems.append(f"Seat {seat} has castle tokens missing.")
    for site in state.sites:
        feature = state.features[site.fid]
        standing = [site.follower] if site.follower >= 0 else []
        if feature.followers != standing or not feature.complete:
            problems.append(f"The castle at {xy(site.squares[0])} and its follower disagree.")
    if state.bazaar is not None and state.phase != PLAY:
        problems.append("A bazaar is under way outside play.")
    pending = state.pending
    if pending is not None and not (state.phase == PLAY and 0 <= pending["player"] < state.players):
        problems.append("A castle decision is pending outside a turn.")
    return problems


def _final(state: CarcassonneState) -> list[str]:
    scores, problems = recount(
        state.players, state.farmers, state.small_city, history(state), state.payments
    )
    if scores != state.scores:
        problems.append(f"The recount gives {scores}, the engine {state.scores}.")
    return problems


def check_invariants(state: CarcassonneState) -> list[str]:
    """Every violated law as one sentence; empty when the state is sound: all 72 tiles (a
    ``stack-only`` scenario: its tiles) accounted for (placed + discarded + in the stack +
    in hand), 7 followers per seat (supply + board), followers and features agreeing, no
    negative score or count; once the game is over, the engine's final scores equal the
    independent recount's and the recount found no illegal placement or deployment."""
    problems = _tiles(state) + _followers(state)
    if state.phase == OVER:
        problems += _final(state)
    return problems
