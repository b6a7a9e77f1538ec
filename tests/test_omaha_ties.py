"""D-Day at Omaha Beach: the tie-break chains of omaha 2 not covered elsewhere (the
Depth recipient, event reinforcements, the omaha 4 target order and the omaha 5 classes
are in test_omaha_german.py; REDEPLOY's in test_omaha_actions.py).

omaha 2, Reinforcements triggered by a WN Depth marker: "Placed faced down in the
nearest empty Reinforcement position -> closest to US unit -> lowest number". Hex 1804
is 2 hexes from both reinforcement-2 (1604) and reinforcement-8 (2004).
"""

from __future__ import annotations

from functools import cache

from tabletop.board import Map, load_map
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.games.omaha import data, german
from tabletop.games.omaha.fields import position_keys


@cache
def board() -> Map:
    return load_map("omaha")


def fresh() -> GameState:
    state = GameState(MapState.of(board()), turn=2, phase="german")
    state.marks[german.COMM] = position_keys(board())
    return state


def us(state: GameState, uid: str, label: str) -> None:
    info = data.us_units()[uid]
    state.map.place(Piece(uid, info.type, board().hex_of(label), side="us", steps=info.steps))


def test_wn_depth_reinforcement_nearest_empty_position_first() -> None:
    """omaha 2: the nearest empty Reinforcement position wins over one closer to a US unit."""
    state = fresh()
    us(state, "A-1-116", "2104")  # next to reinforcement-8
    assert german.depth_position(state, board().hex_of("1704"))[0] == "reinforcement-2"


def test_wn_depth_reinforcement_then_closest_to_a_us_unit() -> None:
    """omaha 2: equally near, the position closer to a US unit."""
    state = fresh()
    us(state, "A-1-116", "2104")
    assert german.depth_position(state, board().hex_of("1804"))[0] == "reinforcement-8"


def test_wn_depth_reinforcement_then_the_lowest_number() -> None:
    """omaha 2: equally near and equally close to US units (none), the lowest number."""
    state = fresh()
    assert german.depth_position(state, board().hex_of("1804"))[0] == "reinforcement-2"
    us(state, "A-1-116", "1803")  # 2 hexes from both positions
    assert german.depth_position(state, board().hex_of("1804"))[0] == "reinforcement-2"


def test_wn_depth_reinforcement_only_empty_positions() -> None:
    """omaha 2: an occupied Reinforcement position is passed over."""
    state = fresh()
    state.map.place(Piece("T1", "grenadier", board().hex_of("1604"), side="german"))
    assert german.depth_position(state, board().hex_of("1804"))[0] == "reinforcement-8"
