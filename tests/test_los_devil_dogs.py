"""Line of sight under The Devil Dogs of Belleau Wood (Devil Dogs 7.1; 8.1 repeats it).

Small maps drawn here put one piece of ground between a firer and a target; the last
tests use the shipped map, maps/belleau-wood.yaml. The test grid is 9 columns by 7 rows,
flat-top, odd-q; every line below was chosen by printing its traversal
(``tabletop.hexgrid.traverse``): which hexes it crosses and which it only grazes.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from helpers import small_map

from tabletop.board import load_map
from tabletop.engine.los import Finding, LineContext, LosQuery, LosResult, line_of_sight
from tabletop.engine.pieces import MapState, Piece
from tabletop.games import los_policy
from tabletop.games.devil_dogs.los import DevilDogsPolicy, LosTable, default_table
from tabletop.hexgrid import traverse

HEADER = """
name: Devil Dogs test ground
rules: devil_dogs
grid: {orientation: flat, offset: odd-q, columns: 9, rows: 7}
terrain:
  open:  {symbol: ".", colour: "#b7cf8a"}
  woods: {symbol: "W", colour: "#2d6a2f"}
  urban: {symbol: "U", colour: "#9b4a3c"}
  slope: {symbol: "/", colour: "#a88b5c"}
default_terrain: open
"""


def ground(hexes: dict[str, str] | None = None, contours: tuple[str, ...] = ()) -> MapState:
    """Open ground with the given hexes overridden and contour lines on the given sides."""
    text = HEADER
    if hexes:
        text += "hexes: {" + ", ".join(f'"{label}": {kind}' for label, kind in hexes.items()) + "}\n"
    if contours:
        sides = ", ".join(f'"{side}"' for side in contours)
        text += f'hexsides:\n  contour: {{colour: "#7a5230", between: [{sides}]}}\n'
    return MapState.of(small_map(text))


def unit(state: MapState, piece_id: str, label: str, side: str = "US") -> Piece:
    piece = Piece(piece_id, "rifle company", state.board.hex_of(label), side=side)
    state.place(piece)
    return piece


def los(state: MapState, source: str, target: str) -> LosResult:
    board = state.board
    return line_of_sight(state, los_policy(state), LosQuery(board.hex_of(source), board.hex_of(target)))


def blocking(state: MapState, result: LosResult) -> list[str]:
    return [state.board.label(f.hex) for f in result.blocking if f.hex is not None]


def test_the_registry_gives_the_devil_dogs_policy_for_a_devil_dogs_map() -> None:
    assert isinstance(los_policy(ground()), DevilDogsPolicy)


def test_open_ground_between_leaves_the_line_clear() -> None:
    # Devil Dogs 7.1: only woods, urban, occupied and (some) slope hexes block.
    state = ground()
    result = los(state, "0401", "0404")
    assert result.result == "clear"
    assert [state.board.label(h) for h in result.crossed] == ["0401", "0402", "0403", "0404"]


@pytest.mark.parametrize("kind", ["woods", "urban"])
def test_a_woods_or_urban_hex_crossed_blocks_the_line(kind: str) -> None:
    # Devil Dogs 7.1: any portion of a woods or urban hex crossed blocks.
    state = ground({"0403": kind})
    result = los(state, "0401", "0405")
    assert result.result == "blocked"
    (finding,) = result.blocking
    assert blocking(state, result) == ["0403"]
    assert finding.cause == f"{kind} 0403"
    assert finding.rule == "Devil Dogs 7.1"
    assert not finding.grazed


@pytest.mark.parametrize("side", ["US", "German"])
def test_an_occupied_hex_crossed_blocks_whichever_side_holds_it(side: str) -> None:
    # Devil Dogs 7.1 and 1.2 (OCCUPIED HEX): any hex holding a combat unit blocks.
    state = ground()
    unit(state, "2/5 Marines", "0402", side=side)
    result = los(state, "0401", "0404")
    assert result.result == "blocked"
    assert blocking(state, result) == ["0402"]
    assert "occupied 0402 (2/5 Marines)" in result.blocking[0].cause


def test_a_marker_in_a_hex_does_not_make_it_occupied() -> None:
    # Devil Dogs 1.2: an occupied hex holds a combat unit; a marker is not one
    # (the project's reading).
    state = ground()
    state.place(Piece("gas-1", "gas", state.board.hex_of("0402"), kind="marker"))
    assert los(state, "0401", "0404").result == "clear"


def test_units_in_the_firers_and_the_targets_own_hexes_do_not_block() -> None:
    # Devil Dogs 7.1: the line runs from the firing hex to the target hex; both are
    # occupied by definition, so only the hexes between count.
    state = ground({"0401": "woods", "0404": "urban"})
    unit(state, "firer", "0401")
    unit(state, "target", "0404", side="German")
    assert los(state, "0401", "0404").result == "clear"


def test_moving_a_unit_into_the_line_blocks_it_at_once_and_moving_it_away_clears_it() -> None:
    # Devil Dogs 7.1: occupied hexes block; the verdict follows the live map state.
    state = ground()
    policy = los_policy(state)
    source, target = state.board.hex_of("0401"), state.board.hex_of("0404")
    unit(state, "runner", "0601")
    assert line_of_sight(state, policy, LosQuery(source, target)).result == "clear"
    state.move("runner", state.board.hex_of("0403"))
    assert line_of_sight(state, policy, LosQuery(source, target)).result == "blocked"
    state.move("runner", state.board.hex_of("0603"))
    assert line_of_sight(state, policy, LosQuery(source, target)).result == "clear"


def test_the_grazing_reading_is_either_side() -> None:
    # Devil Dogs 7.1 "if no portion ... is crossed": touching counts (project's reading).
    assert DevilDogsPolicy().grazing == "either"


@pytest.mark.parametrize(("kind", "occupied"), [("woods", False), ("urban", False), ("open", True)])
def test_a_line_running_along_a_hexside_of_a_blocking_hex_is_blocked(kind: str, occupied: bool) -> None:
    # Devil Dogs 7.1: "any portion" - a line along the hexside between 0303 and 0304
    # touches 0303 without entering it; with only 0303 blocking (0304 open) the line is
    # blocked (grazing rule "either").
    state = ground({"0303": kind})
    if occupied:
        unit(state, "German MG", "0303", side="German")
    t = traverse(state.board.hex_of("0203"), state.board.hex_of("0403"))
    assert [state.board.label(h) for h in t.crossed] == ["0203", "0403"]
    assert sorted((state.board.label(g.hex), g.side is not None) for g in t.grazed) == [
        ("0303", True),
        ("0304", True),
    ]
    result = los(state, "0203", "0403")
    assert result.result == "blocked"
    assert blocking(state, result) == ["0303"]
    assert all(f.grazed for f in result.blocking)


def test_a_line_through_a_corner_of_a_woods_hex_is_blocked() -> None:
    # Devil Dogs 7.1: "any portion" - touching a single corner of a woods hex blocks
    # (grazing rule "either").
    state = ground({"0304": "woods"})
    t = traverse(state.board.hex_of("0104"), state.board.hex_of("0605"))
    corner_touches = [state.board.label(g.hex) for g in t.grazed if g.corner is not None]
    assert "0304" in corner_touches
    assert "0304" not in [state.board.label(h) for h in t.crossed]
    result = los(state, "0104", "0605")
    assert result.result == "blocked"
    assert blocking(state, result) == ["0304"]
    assert result.blocking[0].grazed


def test_a_slope_hex_closer_to_the_firer_does_not_block() -> None:
    # Devil Dogs 7.1: a crossed slope hex closer to the firer than to the target leaves
    # LOS. 0402 is 1 hex from the firer at 0401 and 2 from the target at 0404.
    state = ground({"0402": "slope"})
    assert los(state, "0401", "0404").result == "clear"


def test_the_same_slope_hex_closer_to_the_target_blocks() -> None:
    # Devil Dogs 7.1: the same line fired the other way: 0402 is now 2 hexes from the
    # firer at 0404 and 1 from the target at 0401.
    state = ground({"0402": "slope"})
    result = los(state, "0404", "0401")
    assert result.result == "blocked"
    assert blocking(state, result) == ["0402"]
    assert result.blocking[0].cause == "slope 0402 not closer to the firer than to the target"
    assert result.blocking[0].rule == "Devil Dogs 7.1"


def test_a_slope_hex_halfway_between_firer_and_target_blocks() -> None:
    # Devil Dogs 7.1 says "closer to the firing unit"; a hex exactly halfway is not
    # closer, so it blocks (the project's choice for "equally close").
    state = ground({"0402": "slope"})
    assert los(state, "0401", "0403").result == "blocked"
    assert los(state, "0403", "0401").result == "blocked"


def test_a_slope_hex_only_grazed_follows_the_slope_rule_both_ways() -> None:
    # Devil Dogs 7.1 with grazing "either": the line 0203-0603 runs along the hexside
    # 0303/0304 next to the firer at 0203.
    state = ground({"0303": "slope"})
    assert los(state, "0203", "0603").result == "clear"
    result = los(state, "0603", "0203")
    assert result.result == "blocked"
    assert blocking(state, result) == ["0303"]
    assert result.blocking[0].grazed


def test_adjacent_hexes_always_see_each_other_even_into_occupied_woods() -> None:
    # Devil Dogs 7.1: adjacent hexes always have line of sight to each other.
    state = ground({"0402": "woods", "0403": "woods"})
    unit(state, "firer", "0402")
    unit(state, "target", "0403", side="German")
    result = los(state, "0402", "0403")
    assert result.range == 1
    assert result.result == "clear"


def test_judging_a_line_between_adjacent_hexes_drops_every_finding() -> None:
    # Devil Dogs 7.1: whatever a rule found on the line, adjacent hexes see each other;
    # at range 2 the same finding stands.
    state = ground()
    policy = DevilDogsPolicy()
    found = [Finding("block", "anything", "test", None, Fraction(1, 2))]
    a, b, c = (state.board.hex_of(label) for label in ("0402", "0403", "0404"))
    adjacent = LineContext(LosQuery(a, b), traverse(a, b), 1, 0, 0)
    two_away = LineContext(LosQuery(a, c), traverse(a, c), 2, 0, 0)
    assert policy.judge(state, adjacent, found) == []
    assert policy.judge(state, two_away, found) == found


def test_contour_lines_crossed_never_block() -> None:
    # Devil Dogs 1.2 and 7.1: contour lines do not interfere with LOS.
    state = ground(contours=("0401/0402", "0402/0403", "0403/0404"))
    query = LosQuery(state.board.hex_of("0401"), state.board.hex_of("0404"))
    ctx = LineContext(query, traverse(query.source, query.target), 3, 0, 0)
    assert len(ctx.crossed_hexsides()) == 3
    assert los(state, "0401", "0404").result == "clear"


def test_a_line_running_along_a_contour_line_is_clear() -> None:
    # Devil Dogs 7.1: with grazing "either" a hexside run along is asked about too;
    # a contour line still does not block.
    state = ground(contours=("0303/0304",))
    assert los(state, "0203", "0403").result == "clear"


def test_the_shipped_table_names_terrain_keys_of_the_belleau_wood_map() -> None:
    # Devil Dogs 7.1: woods and urban block, slope follows the slope rule.
    table = default_table()
    assert table.blocking_terrain == {"woods", "urban"}
    assert table.slope_terrain == {"slope"}
    keys = set(load_map("belleau-wood").terrain_types)
    assert table.blocking_terrain | table.slope_terrain <= keys


def test_a_table_naming_a_terrain_as_both_blocking_and_slope_is_refused() -> None:
    with pytest.raises(ValueError, match="both blocking and slope"):
        LosTable.from_data({"blocking_terrain": ["woods"], "slope_terrain": ["woods"]})


def test_on_the_shipped_map_hill_142_sees_down_its_slope_but_not_up_it() -> None:
    # Devil Dogs 7.1: the line 0608-0307 crosses the slope hex 0508 next to 0608 (on
    # Hill 142) and the contour line 0407/0508. From the hilltop the slope is closer to
    # the firer: clear. From the foot of the hill it is closer to the target: blocked.
    m = load_map("belleau-wood")
    state = MapState.of(m)
    assert m.terrain[m.hex_of("0508")] == "slope"
    assert "contour" in m.hexside_features(m.hex_of("0407"), m.hex_of("0508"))
    down = los(state, "0608", "0307")
    assert down.result == "clear"
    assert m.hex_of("0508") in down.crossed
    up = los(state, "0307", "0608")
    assert up.result == "blocked"
    assert blocking(state, up) == ["0508"]
    # and a unit standing on the open ground 0407 blocks even the downhill line
    unit(state, "German outpost", "0407", side="German")
    assert los(state, "0608", "0307").result == "blocked"


def test_on_the_shipped_map_belleau_wood_blocks_a_line_across_it() -> None:
    # Devil Dogs 7.1: the wheat field at 1310 cannot see the open ground at 1910 through
    # the wood; the woods 1409 and 1809 are only grazed and block too.
    m = load_map("belleau-wood")
    state = MapState.of(m)
    result = los(state, "1310", "1910")
    assert result.result == "blocked"
    assert set(blocking(state, result)) == {"1409", "1510", "1609", "1610", "1710", "1809"}
    assert {state.board.label(f.hex) for f in result.blocking if f.grazed and f.hex} == {
        "1409",
        "1609",
        "1610",
        "1809",
    }
