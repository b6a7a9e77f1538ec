"""Movement under Dogfaces in Space (Dogfaces II and V): move units, the terrain table,
roads, bridges, stacking and the LCV, zones of control, and Larry's jet pack.

Most grounds are one row of a flat-top, odd-q map: neighbouring columns of one row are
always adjacent, so the row 0101, 0201, 0301, ... is a corridor one hex wide, and a
second row of water beside it (``SHORE``) leaves room for an enemy to stand off the
corridor. Costs are in half move units (``scale`` 2): ``reach.points`` gives move units.
The last tests use the shipped map, maps/dogfaces.yaml, through the registry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import small_map

from tabletop.board import load_map
from tabletop.engine.movement import Reach, plan_move
from tabletop.engine.pieces import MapState, Piece
from tabletop.games import move_policy
from tabletop.games.dogfaces.movement import (
    DogfacesMovePolicy,
    default_table,
    jet_pack_targets,
    load_table,
)
from tabletop.hexgrid import DIRECTIONS, distance
from tabletop.yamlfile import DataError

TERRAIN = """\
terrain:
  grassland: {symbol: ".", colour: "#9cc46a"}
  desert:    {symbol: ":", colour: "#ead59b"}
  swamp:     {symbol: "%", colour: "#5f8a78"}
  forest:    {symbol: "F", colour: "#2c6630"}
  hill:      {symbol: "^", colour: "#a7774a"}
  water:     {symbol: "~", colour: "#3a78c2"}
  bridge:    {symbol: "=", colour: "#8f8f8f"}
  town:      {symbol: "T", colour: "#b3473a"}
"""


def ground(rows: list[str], road: Sequence[str] = ()) -> MapState:
    """A map drawn row by row with the terrain symbols above, and road hexes."""
    text = (
        "name: Dogfaces test ground\nrules: dogfaces\n"
        f"grid: {{orientation: flat, offset: odd-q, columns: {len(rows[0].split())}, rows: {len(rows)}}}\n"
        + TERRAIN
        + "rows: |\n"
        + "".join(f"  {row}\n" for row in rows)
    )
    if road:
        text += "features:\n  road: {colour: '#6e5230', hexes: [" + ", ".join(f'"{h}"' for h in road) + "]}\n"
    return MapState.of(small_map(text))


CORRIDOR = [". . . . . . . . ."]  # 0101 ... 0901
SHORE = [". . . . . . . . .", "~ ~ ~ ~ ~ ~ ~ ~ ~"]  # the corridor, water beside it


def put(state: MapState, piece_id: str, type_: str, label: str, side: str = "blue", **kw: object) -> Piece:
    piece = Piece(piece_id, type_, state.board.hex_of(label), side=side, **kw)  # type: ignore[arg-type]
    state.place(piece)
    return piece


def move(state: MapState, unit: Piece, budget: int | None = None) -> Reach:
    return plan_move(state, move_policy(state), unit, budget=budget)


def labels(state: MapState, hexes: object) -> set[str]:
    return {state.board.label(h) for h in hexes}  # type: ignore[attr-defined]


def points(state: MapState, r: Reach, label: str) -> float:
    return r.points(state.board.hex_of(label))


# --- move units -----------------------------------------------------------------------


def test_the_registry_gives_the_dogfaces_movement_policy_for_a_dogfaces_map() -> None:
    assert isinstance(move_policy(ground(CORRIDOR)), DogfacesMovePolicy)


def test_a_soldier_has_two_move_units_counted_in_halves() -> None:
    # Dogfaces II: a soldier has 2 move units per turn unless his ability says otherwise.
    state = ground(CORRIDOR)
    r = move(state, put(state, "a", "andy", "0101"))
    assert labels(state, r.costs) == {"0101", "0201", "0301"}
    assert r.scale == 2
    assert r.costs[state.board.hex_of("0301")] == 4
    assert points(state, r, "0301") == 2


@pytest.mark.parametrize(
    ("kind", "move_units"),
    [("andy", 2), ("brett", 3), ("lcv", 4), ("LCV 2", 4), ("mcv", 3), ("larry", 2)],
)
def test_some_soldiers_and_the_vehicles_have_their_own_move_units(kind: str, move_units: int) -> None:
    # Dogfaces II: Brett moves 3; the LCV at a speed of 4, the MCV of 3; Larry's jet
    # pack is his own move, so he walks 2 (project's choice, movement.yaml).
    state = ground(CORRIDOR)
    r = move(state, put(state, "u", kind, "0101"))
    assert max(r.costs.values()) == move_units * r.scale
    assert len(r.costs) == move_units + 1


# --- the terrain table ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("symbol", "soldier", "vehicle"),
    [
        (".", 1, 1),  # grassland
        (":", 1, 1),  # desert/beach
        ("%", 2, None),  # swamp: 2, vehicles cannot enter
        ("F", 1, 2),  # forest: 1, 2 for vehicles
        ("^", 2, 2),  # hill
        ("~", None, None),  # water/river: cannot enter
        ("=", 1, 1),  # bridge
        ("T", 1, 1),  # town
    ],
)
def test_each_terrain_costs_what_the_table_says(
    symbol: str, soldier: int | None, vehicle: int | None
) -> None:
    # Dogfaces V, the terrain table: movement cost to enter.
    for kind, expected in (("andy", soldier), ("mcv", vehicle)):
        state = ground([f". {symbol} ."])
        unit = put(state, "u", kind, "0101")
        r = move(state, unit, budget=4)
        target = state.board.hex_of("0201")
        if expected is None:
            assert target not in r.costs and target not in r.passed
            why = move_policy(state).model(state, unit).why_not[target]
            assert "cannot enter" in why
        else:
            assert r.points(target) == expected


def test_water_cannot_be_crossed_on_foot() -> None:
    # Dogfaces V, the terrain table: Water/River, cannot enter.
    state = ground([". ~ . . ."])
    r = move(state, put(state, "u", "andy", "0101"), budget=9)
    assert labels(state, r.costs) == {"0101"}


def test_a_terrain_the_table_does_not_know_is_an_error_naming_it() -> None:
    text = (
        "name: odd\nrules: dogfaces\ngrid: {orientation: flat, offset: odd-q, columns: 2, rows: 1}\n"
        "terrain:\n  lava: {symbol: '!', colour: '#ff0000'}\ndefault_terrain: lava\n"
    )
    state = MapState.of(small_map(text))
    with pytest.raises(ValueError, match="'lava'"):
        move(state, put(state, "u", "andy", "0101"))


# --- roads ----------------------------------------------------------------------------


def test_a_road_step_from_road_to_road_costs_half_a_move_unit() -> None:
    # Dogfaces V, the terrain table: Road 1/2 if already on a road.
    state = ground(CORRIDOR, road=["0101", "0201", "0301", "0401", "0501", "0601"])
    r = move(state, put(state, "a", "andy", "0101"))
    assert points(state, r, "0201") == 0.5
    assert points(state, r, "0501") == 2
    assert labels(state, r.costs) == {"0101", "0201", "0301", "0401", "0501"}


def test_the_road_is_half_price_only_when_already_on_it() -> None:
    # Dogfaces V, the terrain table: entering the road from off it is not a road step.
    state = ground(CORRIDOR, road=["0201", "0301", "0401"])
    r = move(state, put(state, "a", "andy", "0101"))
    assert points(state, r, "0201") == 1  # onto the road: the terrain's 1
    assert points(state, r, "0301") == 1.5  # along it: 1/2
    assert points(state, r, "0401") == 2
    r = move(state, put(state, "b", "andy", "0401"), budget=1)
    assert points(state, r, "0501") == 1  # off the road again: the terrain's 1


def test_a_vehicle_follows_a_road_through_forest_and_swamp_at_the_road_rate() -> None:
    # Dogfaces V, the terrain table: forest 2 and swamp closed for vehicles; the road
    # step ignores the terrain under the road (project's choice, movement.yaml).
    state = ground([". F % F ."], road=["0101", "0201", "0301", "0401"])
    r = move(state, put(state, "v", "mcv", "0101"))
    assert points(state, r, "0201") == 0.5
    assert points(state, r, "0301") == 1  # swamp, but along the road
    assert points(state, r, "0401") == 1.5
    state = ground([". F % F ."], road=["0201", "0301"])
    r = move(state, put(state, "v", "mcv", "0101"))
    assert points(state, r, "0201") == 2  # onto a forest road from off it: forest, 2


# --- units in the way -----------------------------------------------------------------


def test_a_friend_may_be_passed_through_but_not_ended_on() -> None:
    # Dogfaces V (Movement, Stacking): through friendly units, ending in an empty hex;
    # only one soldier to a hex.
    state = ground(CORRIDOR)
    put(state, "f", "brett", "0201")
    r = move(state, put(state, "a", "andy", "0101"))
    hex_of = state.board.hex_of
    assert hex_of("0201") in r.passed and hex_of("0201") not in r.costs
    assert points(state, r, "0301") == 2


def test_an_enemy_hex_cannot_be_entered() -> None:
    # Dogfaces V (Movement): only friendly units may be passed through.
    state = ground(CORRIDOR)
    put(state, "e", "kyle", "0301", side="red")
    unit = put(state, "a", "andy", "0101")
    r = move(state, unit, budget=9)
    assert labels(state, r.costs) == {"0101", "0201"}
    why = move_policy(state).model(state, unit).why_not[state.board.hex_of("0301")]
    assert "occupied by e" in why


def test_a_soldier_may_board_a_friendly_lcv_until_it_carries_two() -> None:
    # Dogfaces II (Foxtrot): an LCV carries two soldiers stacked with it; moving into its
    # hex costs nothing extra.
    state = ground(CORRIDOR)
    put(state, "lcv", "lcv", "0201")
    r = move(state, put(state, "a", "andy", "0101"))
    assert points(state, r, "0201") == 1
    put(state, "b", "brett", "0201")
    r = move(state, state.piece("a"))
    assert state.board.hex_of("0201") in r.costs  # one rider: room for another
    put(state, "c", "chuck", "0201")
    r = move(state, state.piece("a"))
    assert state.board.hex_of("0201") in r.passed  # two riders: full


def test_a_vehicle_may_not_stack_with_an_lcv() -> None:
    # Dogfaces V (Stacking): one unit to a hex; only soldiers ride an LCV.
    state = ground(CORRIDOR)
    put(state, "lcv", "lcv", "0201")
    r = move(state, put(state, "m", "mcv", "0101"))
    assert state.board.hex_of("0201") in r.passed


def test_an_lcv_moving_names_the_soldiers_riding_with_it() -> None:
    # Dogfaces II (Foxtrot): soldiers starting the turn in the LCV's hex ride with it.
    state = ground(CORRIDOR)
    put(state, "a", "andy", "0101")
    r = move(state, put(state, "lcv", "lcv", "0101"))
    assert any("a" in note and "riding" in note for note in r.notes)


# --- bridges --------------------------------------------------------------------------

RIVER = [". . . . .", ". . . . .", "~ ~ = ~ ~", ". . . . .", ". . . . ."]  # bridge 0303


def test_a_bridge_costs_one_and_carries_the_only_way_over() -> None:
    # Dogfaces V, the terrain table: Bridge 1.
    state = ground(RIVER)
    r = move(state, put(state, "a", "andy", "0301"), budget=4)
    assert points(state, r, "0303") == 2
    assert points(state, r, "0305") == 4
    assert state.board.hex_of("0303") in r.path_to(state.board.hex_of("0305"))


def test_a_unit_on_a_bridge_blocks_it_even_to_friends() -> None:
    # Dogfaces V, the terrain table: Bridge, other units cannot pass through.
    state = ground(RIVER)
    put(state, "f", "brett", "0303")
    unit = put(state, "a", "andy", "0301")
    r = move(state, unit, budget=9)
    bridge = state.board.hex_of("0303")
    assert bridge not in r.costs and bridge not in r.passed
    assert {state.board.label(h)[2:] for h in r.costs} == {"01", "02"}
    assert "bridge" in move_policy(state).model(state, unit).why_not[bridge]


def test_a_unit_may_end_its_move_on_an_empty_bridge() -> None:
    # Dogfaces V, the terrain table: the bridge rule is about passing through others.
    state = ground(RIVER)
    r = move(state, put(state, "a", "andy", "0302"))
    assert state.board.hex_of("0303") in r.costs


# --- zones of control -----------------------------------------------------------------


def test_moving_next_to_an_enemy_ends_the_move() -> None:
    # Dogfaces V (Zones of Control): a unit that moves adjacent to an enemy must stop.
    state = ground(SHORE)
    free = move(state, put(state, "a", "andy", "0101"), budget=6)
    assert "0701" in labels(state, free.costs)
    put(state, "e", "kyle", "0502", side="red")  # next to 0401, 0501 and 0601
    r = move(state, state.piece("a"), budget=6)
    assert labels(state, r.costs) == {"0101", "0201", "0301", "0401"}
    assert labels(state, r.stops) == {"0401"}
    assert "next to enemy e" in r.stops[state.board.hex_of("0401")]


def test_a_unit_starting_next_to_an_enemy_may_move_away() -> None:
    # Dogfaces V (Zones of Control): only moving adjacent stops; leaving does not.
    state = ground(SHORE)
    put(state, "e", "kyle", "0402", side="red")  # next to 0401 only, in the corridor
    r = move(state, put(state, "a", "andy", "0401"), budget=3)
    assert labels(state, r.costs) == {"0101", "0201", "0301", "0401", "0501", "0601", "0701"}
    assert not r.stops


def test_a_unit_starting_next_to_an_enemy_stops_in_the_next_hex_next_to_one() -> None:
    # Dogfaces V (Zones of Control): moving from one hex next to the enemy to another.
    state = ground(SHORE)
    put(state, "e", "kyle", "0502", side="red")  # next to 0401, 0501 and 0601
    r = move(state, put(state, "a", "andy", "0501"), budget=6)
    assert labels(state, r.costs) == {"0401", "0501", "0601"}
    assert labels(state, r.stops) == {"0401", "0601"}


def test_a_stunned_soldier_does_not_move() -> None:
    # Dogfaces IV/VI: a Stunned counter is turned over until it recovers (project's
    # choice: it does not move meanwhile; movement.yaml cannot_move).
    state = ground(CORRIDOR)
    r = move(state, put(state, "a", "andy", "0101", status=frozenset({"stunned"})))
    assert labels(state, r.costs) == {"0101"}


def test_the_policy_refuses_an_order_and_a_marker() -> None:
    state = ground(CORRIDOR)
    policy = move_policy(state)
    with pytest.raises(ValueError, match="no move orders"):
        policy.model(state, put(state, "a", "andy", "0101"), "run")
    with pytest.raises(ValueError, match="marker"):
        policy.model(state, put(state, "m", "smoke", "0201", kind="marker"))


# --- the jet pack ---------------------------------------------------------------------

# Rows 04 and 05 are water; a column of a flat-top map is a straight line of hexes.
LAKE = [". . . . . . . . ."] * 3 + ["~ ~ ~ ~ ~ ~ ~ ~ ~"] * 2 + [". . . . . . . . ."] * 4


def test_the_jet_pack_flies_larry_over_water_four_or_five_hexes() -> None:
    # Dogfaces II (Charlie): Larry's jet pack moves him 4-5 hexes in a straight line,
    # across any terrain.
    state = ground(LAKE)
    larry = put(state, "l", "larry", "0502")
    targets = jet_pack_targets(state, larry)
    assert {"0506", "0507"} <= labels(state, targets)
    assert "0504 water" in targets[state.board.hex_of("0506")]
    assert "0505 water" in targets[state.board.hex_of("0507")]
    walk = move(state, larry)
    assert not any(state.board.label(h)[2:] > "05" for h in walk.costs)


def test_jet_pack_targets_lie_four_or_five_hexes_along_a_hex_direction() -> None:
    # Dogfaces II (Charlie): "straight line" read as a row of hexes (project's choice,
    # movement.yaml jet_pack.lines: rows).
    state = ground(LAKE)
    larry = put(state, "l", "larry", "0502")
    start = larry.hex
    for h in jet_pack_targets(state, larry):
        k = distance(start, h)
        assert k in (4, 5)
        assert any(start + d.scale(k) == h for d in DIRECTIONS)


def test_the_jet_pack_does_not_land_in_water_or_on_a_unit() -> None:
    # Dogfaces V: water cannot be entered; stacking: one soldier to a hex.
    state = ground(LAKE)
    larry = put(state, "l", "larry", "0501")
    put(state, "f", "brett", "0506")
    targets = labels(state, jet_pack_targets(state, larry))
    assert "0505" not in targets  # 4 hexes south: water
    assert "0506" not in targets  # 5 hexes south: a friend there


def test_the_jet_pack_may_land_next_to_an_enemy_and_says_so() -> None:
    # Dogfaces II (Charlie) and V (Zones of Control): the flight crosses any terrain;
    # landing next to an enemy ends the move there, which a jet pack move does anyway.
    state = ground(LAKE)
    larry = put(state, "l", "larry", "0502")
    put(state, "e", "kyle", "0508", side="red")
    targets = jet_pack_targets(state, larry)
    assert "lands next to enemy e" in targets[state.board.hex_of("0507")]


def test_any_straight_line_reading_gives_every_land_hex_four_or_five_away() -> None:
    # Dogfaces II (Charlie): the other reading, any centre-to-centre line (traverse).
    state = ground(LAKE)
    larry = put(state, "l", "larry", "0502")
    rows = jet_pack_targets(state, larry)
    anyline = jet_pack_targets(state, larry, table=replace(default_table(), jet_lines="any"))
    assert set(rows) < set(anyline)
    board = state.board
    expected = {
        h for h in board.grid.hexes() if distance(larry.hex, h) in (4, 5) and board.terrain[h] != "water"
    }
    assert set(anyline) == expected


def test_only_a_jet_pack_wearer_has_jet_pack_targets() -> None:
    state = ground(LAKE)
    with pytest.raises(ValueError, match="no jet pack"):
        jet_pack_targets(state, put(state, "a", "andy", "0502"))
    stunned = put(state, "l", "larry", "0102", status=frozenset({"stunned"}))
    assert jet_pack_targets(state, stunned) == {}


# --- the table file -------------------------------------------------------------------


def test_a_mistake_in_the_table_file_names_the_file_key_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "movement.yaml"
    text = (Path(__file__).parent.parent / "tabletop/games/dogfaces/movement.yaml").read_text()
    bad.write_text(text.replace("  hill: 2\n", "  hill: two\n"))
    with pytest.raises(DataError, match=r"movement\.yaml:\d+: terrain\.hill"):
        load_table(bad)


# --- the shipped map ------------------------------------------------------------------


def test_plan_move_on_the_shipped_map_crosses_the_centre_bridge_by_road() -> None:
    # Dogfaces V: along the highway at 1/2 a hex, over the centre bridge 1111.
    state = MapState.of(load_map("dogfaces"))
    unit = put(state, "a", "andy", "1109")
    r = plan_move(state, move_policy(state), unit)
    assert [points(state, r, label) for label in ("1110", "1111", "1112", "1113")] == [0.5, 1, 1.5, 2]
    assert [state.board.label(h) for h in r.path_to(state.board.hex_of("1113"))] == [
        "1109",
        "1110",
        "1111",
        "1112",
        "1113",
    ]
    assert state.board.hex_of("1011") not in r.costs  # water beside the bridge


def test_plan_move_on_the_shipped_map_keeps_vehicles_out_of_the_swamp() -> None:
    # Dogfaces V, the terrain table: swamp, vehicles cannot enter.
    state = MapState.of(load_map("dogfaces"))
    board = state.board
    unit = put(state, "v", "lcv", "0409")  # swamp all round, off the road
    r = plan_move(state, move_policy(state), unit)
    assert all(board.terrain[h] != "swamp" for h in r.costs if h != unit.hex)
