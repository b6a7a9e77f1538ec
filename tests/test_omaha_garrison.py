"""D-Day at Omaha Beach 7 EXT, the engineer bases' garrison benefit (issue 18 item 3;
the project's reading, attacks.yaml ``engineer_bases.garrison``): US units in a hex of
a German position with no German unit, in a base's range and in no field of fire of a
position holding German units, may not be targeted by German mortar fire (omaha 3
MORTAR) nor German artillery fire (omaha 5); a German advance is unchanged.
Hexes: WN 70 (2410) mortars 2811, a hex of the empty WN 72 outside WN 70's field;
0711 is a beach hex of WN 61.
"""

from __future__ import annotations

from test_omaha_actions import card, de, fresh, us

from tabletop.engine.dice import Dice
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.games.omaha import actions, engineers, german
from tabletop.games.omaha.common import sector_of
from tabletop.games.omaha.fields import position_keys
from tabletop.games.omaha.usdata import attacks
from tabletop.hexgrid import distance

WN70 = "wn-70"


def base(state: GameState, label: str) -> None:
    state.map.place(Piece(engineers.base_id("1st"), engineers.BASE, state.board.hex_of(label), kind="marker"))


def test_the_garrison_is_the_projects_reading_in_yaml() -> None:
    """7 EXT garrison: settled as data, shown as the project's choice."""
    g = attacks()["engineer_bases"]["garrison"]
    assert list(g["shields_from"]) == ["mortar", "artillery"] and g["advance"] == "unchanged"


def test_mortar_spares_a_garrisoned_unit() -> None:
    """omaha 3 MORTAR against 7 EXT garrison: without a base the unit in WN 72 loses a
    step; with a base in range it is no target."""
    for with_base, steps in ((False, 2), (True, 3)):
        state = fresh()
        de(state, "A8a", "2410")
        us(state, "A-1-116", "2811", steps=3)
        if with_base:
            base(state, "2811")
            assert engineers.garrisoned(state, state.board.hex_of("2811"))
        lines, _ = actions.play(state, WN70, card(action="M"), Dice(1))
        assert state.map.piece("A-1-116").steps == steps, lines


def test_no_garrison_in_a_field_of_fire_or_out_of_range_or_with_germans() -> None:
    """7 EXT garrison: "unoccupied position, not in the field of fire of a German unit",
    "within an Engineer Base's range of operations" (range 2, gap G10)."""
    state = fresh()
    h = state.board.hex_of("2811")
    assert not engineers.garrisoned(state, h)  # no base
    base(state, "2811")
    assert engineers.garrisoned(state, h)
    de(state, "T1", "2811")  # the position occupied by a German unit
    assert not engineers.garrisoned(state, h)
    state = fresh()
    base(state, "2811")
    field_of = next(k for k in position_keys(state.board) if k != "wn-72" and h in german.field(state.board, k))
    de(state, "T1", state.board.label(min(state.board.regions[field_of].hexes, key=state.board.label)))
    assert not engineers.garrisoned(state, h)  # in the field of an occupied position
    state = fresh()
    far = next(x for x in state.board.grid.hexes() if distance(x, h) == int(engineers.cfg()["range"]) + 1)
    state.map.place(Piece(engineers.base_id("1st"), engineers.BASE, far, kind="marker"))
    assert not engineers.garrisoned(state, h)


def test_artillery_spares_a_garrisoned_unit() -> None:
    """omaha 5 artillery target classes (a beach hex) against 7 EXT garrison: the unit in
    WN 61's beach hex is the target without a base, no target with one."""
    state = fresh()
    unit = us(state, "A-1-116", "0711", steps=3)
    sector = sector_of(state.board, unit.hex)
    target, _ = german.artillery_target(state, sector, card())
    assert target is not None and target.id == "A-1-116"
    base(state, "0711")
    target, why = german.artillery_target(state, sector, card())
    assert target is None, why
