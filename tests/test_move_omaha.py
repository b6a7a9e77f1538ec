"""D-Day at Omaha Beach: US movement, US control and German communication.

"omaha 6.1" in the comments is section 6.1 of dday_at_omaha_beach_summary.txt (cited in
reasons as "D-Day at Omaha Beach 6.1"); "project's choice" marks a default of
tabletop/games/omaha/movement.yaml where the summary is silent.

Most maps here are one row of hexes: on a flat odd-q grid the hexes of the first row
follow one another, each next to the one before and after only, so a move along it has
one path.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources

import pytest
from helpers import on_map, small_map

from tabletop.board import Map, load_map
from tabletop.engine.counters import counters_for
from tabletop.engine.movement import Reach, must_stop_overlay, plan_move
from tabletop.engine.pieces import MapState, Piece
from tabletop.games import move_policy
from tabletop.games.omaha import fields_of_fire
from tabletop.games.omaha.control import communication_path, in_communication, us_control
from tabletop.games.omaha.movement import DATA, OmahaMovePolicy, default_rules, read_rules
from tabletop.hexgrid import Hex, distance
from tabletop.yamlfile import DataError

TERRAIN = {
    ".": "beach",
    "p": "pavillon",
    "x": "rough",
    "v": "draw",
    "^": "high-ground",
    "%": "bocage",
    "B": "buildings",
    "~": "sea",
}
LEVELS = {"^": 2, "%": 2, "B": 2, "v": 1}  # elevation on the small maps; others 0
COLOURS = ["#e6d59a", "#cf9f86", "#6d8b8f", "#b7a26a", "#a8bf6a", "#3f6e34", "#8a6258", "#2f5f8a"]

INFANTRY = ["infantry", "ranger", "heavy-infantry"]
LEADERS = ["hq", "general"]
OTHERS = ["tank", "artillery", "anti-tank", "anti-aircraft"]
EVERY_TYPE = INFANTRY + LEADERS + OTHERS


def omaha_map(
    rows: str,
    *,
    sides: dict[str, list[str]] | None = None,
    roads: dict[str, list[str]] | None = None,
    regions: dict[str, tuple[str, list[str]]] | None = None,
) -> Map:
    """A small Omaha map: rows of the symbols in TERRAIN; ``sides``: hexside key ->
    ["AAAA/BBBB", ...]; ``roads``: road key -> labels; ``regions``: key -> (kind, labels)."""
    lines = [r.split() for r in rows.strip().splitlines()]
    terrain = "".join(
        f'  {name}: {{symbol: "{sym}", colour: "{colour}"}}\n'
        for (sym, name), colour in zip(TERRAIN.items(), COLOURS, strict=True)
    )
    text = f"""
name: test omaha
rules: omaha
grid: {{orientation: flat, columns: {len(lines[0])}, rows: {len(lines)}}}
terrain:
{terrain}rows: |
{"".join(f"  {' '.join(r)}" + chr(10) for r in lines)}elevation:
  default: 0
  rows: |
{"".join("    " + " ".join(str(LEVELS.get(s, 0)) for s in r) + chr(10) for r in lines)}"""
    if roads:
        text += "features:\n" + "".join(
            f'  {k}: {{colour: "#b03a2e", hexes: [{", ".join(repr(h) for h in v)}]}}\n'
            for k, v in roads.items()
        )
    if sides:
        text += "hexsides:\n" + "".join(
            f'  {k}: {{colour: "#6b4226", between: [{", ".join(repr(s) for s in v)}]}}\n'
            for k, v in sides.items()
        )
    if regions:
        text += "regions:\n" + "".join(
            f"  {k}: {{kind: {kind}, hexes: [{', '.join(repr(h) for h in hexes)}]}}\n"
            for k, (kind, hexes) in regions.items()
        )
    return small_map(text)


def unit(
    board: Map, pid: str, kind: str, label: str, *status: str, side: str = "us", steps: int | None = None
) -> Piece:
    """A unit at ``steps`` (default: its counter's full steps, counters/omaha.yaml)."""
    full = counters_for("omaha").unit(kind).steps or 1
    return Piece(pid, kind, board.hex_of(label), side=side, status=frozenset(status), steps=steps or full)


def german(board: Map, pid: str, label: str, *status: str) -> Piece:
    return unit(board, pid, "infantry", label, *status, side="german")


def move(
    board: Map, mover: Piece, *others: Piece, order: str | None = None, budget: int | None = None
) -> Reach:
    state = MapState.of(board, [mover, *others])
    return plan_move(state, OmahaMovePolicy(), mover, order, budget)


def ends(board: Map, r: Reach) -> dict[str, float]:
    """Labels of the hexes the move may end in, with the cost in hexes."""
    return {board.label(h): r.points(h) for h in r.costs}


def labels(board: Map, hexes: Iterable[Hex]) -> set[str]:
    return {board.label(h) for h in hexes}


def why_not(board: Map, mover: Piece, a: str, b: str, *others: Piece, order: str | None = None) -> str | None:
    state = MapState.of(board, [mover, *others])
    return OmahaMovePolicy().why_not_step(state, mover, board.hex_of(a), board.hex_of(b), order)


# ------------------------------------------------------------------ 9.4: terrain


@pytest.mark.parametrize("kind", EVERY_TYPE)
@pytest.mark.parametrize("symbol", [".", "B", "v", "^", "p"])
def test_open_terrain_costs_one_hex_for_every_class(kind: str, symbol: str) -> None:
    # omaha 9.4: beach, buildings, draw, high ground, pavillon: no effect for any class.
    board = omaha_map(f". {symbol} {symbol}")
    r = move(board, unit(board, "u", kind, "0101"), budget=2)
    assert ends(board, r) == {"0101": 0, "0201": 1, "0301": 2}


@pytest.mark.parametrize("kind", EVERY_TYPE)
def test_rough_is_never_entered(kind: str) -> None:
    # omaha 9.4: rough, "No" for every class.
    board = omaha_map(". x .")
    r = move(board, unit(board, "u", kind, "0101"), budget=2)
    assert ends(board, r) == {"0101": 0}
    assert (
        "rough"
        in OmahaMovePolicy()
        .model(MapState.of(board), unit(board, "u", kind, "0101"))
        .why_not[board.hex_of("0201")]
    )


def test_a_unit_leaves_the_sea_but_no_unit_moves_into_it() -> None:
    # Project's choice (movement.yaml): the 9.4 table has no sea row; a Beach Landing Box
    # is entered by landing, and a unit in one moves out onto the beach.
    board = omaha_map("~ . ~")
    assert ends(board, move(board, unit(board, "u", "infantry", "0101"))) == {"0101": 0, "0201": 1}
    assert ends(board, move(board, unit(board, "u", "tank", "0201"))) == {"0201": 0}


@pytest.mark.parametrize("kind", INFANTRY + LEADERS)
def test_bocage_is_open_to_infantry_and_leaders(kind: str) -> None:
    # omaha 9.4: bocage, no effect for infantry and leaders.
    board = omaha_map(". % %")
    assert ends(board, move(board, unit(board, "u", kind, "0101"), budget=2)) == {
        "0101": 0,
        "0201": 1,
        "0301": 2,
    }


@pytest.mark.parametrize("kind", OTHERS)
def test_others_enter_bocage_only_along_a_road(kind: str) -> None:
    # omaha 9.4: bocage, "only via roads" for others: a step between two road hexes.
    board = omaha_map(". % %")
    assert ends(board, move(board, unit(board, "u", kind, "0101"), budget=2)) == {"0101": 0}
    assert "only along a road" in str(why_not(board, unit(board, "u", kind, "0101"), "0101", "0201"))
    road = omaha_map(". % %", roads={"secondary-road": ["0101", "0201", "0301"]})
    assert ends(road, move(road, unit(road, "u", kind, "0101"), budget=2)) == {
        "0101": 0,
        "0201": 1,
        "0301": 2,
    }
    # a road that starts in the bocage hex does not lead into it
    stub = omaha_map(". % %", roads={"secondary-road": ["0201", "0301"]})
    assert ends(stub, move(stub, unit(stub, "u", kind, "0101"), budget=2)) == {"0101": 0}


# ------------------------------------------------------------------ 9.4: hexsides


@pytest.mark.parametrize("side", ["slope", "seawall", "hedge"])
def test_slope_seawall_and_hedge_are_crossed_by_others_only_along_a_road(side: str) -> None:
    # omaha 9.4: hedge, seawall, slope: no effect for infantry and leaders, "only via
    # roads" for others.
    board = omaha_map(". . .", sides={side: ["0101/0201"]})
    for kind in INFANTRY + LEADERS:
        assert "0201" in ends(board, move(board, unit(board, "u", kind, "0101")))
    for kind in OTHERS:
        assert ends(board, move(board, unit(board, "u", kind, "0101"))) == {"0101": 0}
        assert side in str(why_not(board, unit(board, "u", kind, "0101"), "0101", "0201"))
    road = omaha_map(". . .", sides={side: ["0101/0201"]}, roads={"major-road": ["0101", "0201"]})
    for kind in OTHERS:
        assert "0201" in ends(road, move(road, unit(road, "u", kind, "0101")))


def test_shingle_is_crossed_by_infantry_and_leaders_but_never_by_others() -> None:
    # omaha 9.4: shingle: no effect for infantry and leaders, "No" for others, road or not.
    board = omaha_map(". . .", sides={"shingle": ["0101/0201"]}, roads={"major-road": ["0101", "0201"]})
    for kind in INFANTRY + LEADERS:
        assert "0201" in ends(board, move(board, unit(board, "u", kind, "0101")))
    for kind in OTHERS:
        assert ends(board, move(board, unit(board, "u", kind, "0101"))) == {"0101": 0}


@pytest.mark.parametrize("kind", EVERY_TYPE)
def test_a_sheer_cliff_is_never_crossed(kind: str) -> None:
    # omaha 9.4: sheer cliff, "No" for every class, even with a climb-cliff marker.
    board = omaha_map(". ^ ^", sides={"sheer-cliff": ["0101/0201"]})
    assert ends(board, move(board, unit(board, "u", kind, "0101"))) == {"0101": 0}
    assert ends(board, move(board, unit(board, "u", kind, "0101", "climb-cliff"))) == {"0101": 0}


# ------------------------------------------------------- 6.1: bluffs and climb markers

BLUFF = {"bluff": ["0101/0201"]}


def test_infantry_cross_a_bluff_and_the_climb_marker_ends_the_move_at_the_top() -> None:
    # omaha 6.1: to cross a bluff, infantry take a climb marker and move across; a unit
    # with a climb marker may only remove it. So a longer move stops at the top.
    board = omaha_map(". ^ ^", sides=BLUFF)
    assert ends(board, move(board, unit(board, "u", "infantry", "0101"))) == {"0101": 0, "0201": 1}
    r = move(board, unit(board, "u", "infantry", "0101"), budget=2)
    assert ends(board, r) == {"0101": 0, "0201": 1}
    assert "climb marker" in r.refused[board.hex_of("0301")]


def test_a_unit_with_a_climb_marker_cannot_move() -> None:
    # omaha 6 and 6.1: a unit with a climb marker removes it as its only possible action.
    board = omaha_map("^ ^ ^")
    r = move(board, unit(board, "u", "infantry", "0201", "climb"))
    assert ends(board, r) == {"0201": 0}
    assert any("climb marker" in n for n in r.notes)


@pytest.mark.parametrize("kind", LEADERS)
def test_leaders_cross_a_bluff_with_no_marker_and_go_on(kind: str) -> None:
    # omaha 9.4: bluff, no effect for leaders; 6.1: the climb marker is for infantry
    # "not the Leaders".
    board = omaha_map(". ^ ^", sides=BLUFF)
    assert ends(board, move(board, unit(board, "u", kind, "0101"), budget=2)) == {
        "0101": 0,
        "0201": 1,
        "0301": 2,
    }


@pytest.mark.parametrize("kind", OTHERS)
def test_others_cross_a_bluff_only_along_a_road(kind: str) -> None:
    # omaha 9.4: bluff, "only via roads" for others.
    board = omaha_map(". ^ ^", sides=BLUFF)
    assert ends(board, move(board, unit(board, "u", kind, "0101"))) == {"0101": 0}
    road = omaha_map(". ^ ^", sides=BLUFF, roads={"secondary-road": ["0101", "0201"]})
    assert ends(road, move(road, unit(road, "u", kind, "0101"))) == {"0101": 0, "0201": 1}


CLIFF = {"scaleable-cliff": ["0201/0301"]}


def test_a_scaleable_cliff_needs_a_climb_cliff_marker_placed_first() -> None:
    # omaha 6.1: to cross a scaleable cliff, add a climb-cliff marker without moving; 9.4:
    # scaleable cliff is "climb cliff" for infantry.
    board = omaha_map(". . ^", sides=CLIFF)
    for kind in INFANTRY:
        assert ends(board, move(board, unit(board, "u", kind, "0201"))) == {"0201": 0, "0101": 1}
        assert "climb-cliff marker" in str(why_not(board, unit(board, "u", kind, "0201"), "0201", "0301"))


def test_with_a_climb_cliff_marker_the_only_move_is_across_the_cliff() -> None:
    # omaha 6.1: a unit with a climb-cliff marker may cross the scaleable cliff (flipping
    # the marker to climb), or remove the marker and stay put; nothing else.
    board = omaha_map(". . ^", sides=CLIFF)
    r = move(board, unit(board, "u", "ranger", "0201", "climb-cliff"), budget=3)
    assert ends(board, r) == {"0201": 0, "0301": 1}
    assert "climb" in r.stops[board.hex_of("0301")]
    # away from a cliff the marker holds the unit in place
    assert ends(board, move(board, unit(board, "u", "ranger", "0101", "climb-cliff"))) == {"0101": 0}
    # and it does not help across a bluff
    bluff = omaha_map(". . ^", sides={"bluff": ["0201/0301"]})
    assert ends(bluff, move(bluff, unit(bluff, "u", "ranger", "0201", "climb-cliff"))) == {"0201": 0}


@pytest.mark.parametrize("kind", LEADERS + OTHERS)
def test_leaders_and_others_never_cross_a_scaleable_cliff(kind: str) -> None:
    # omaha 9.4: scaleable cliff, "No" for leaders and others.
    board = omaha_map(". . ^", sides=CLIFF, roads={"major-road": ["0201", "0301"]})
    assert ends(board, move(board, unit(board, "u", kind, "0201"))) == {"0201": 0, "0101": 1}


def test_in_an_extended_turn_a_bluff_needs_no_climb_marker_but_a_cliff_still_does() -> None:
    # omaha 6.1 EXT: infantry need 1 less step to climb a bluff or scaleable cliff; read
    # (project's choice) as no climb marker for a bluff, and a climb-cliff crossing that
    # removes the marker, still ending the move.
    board = omaha_map(". ^ ^", sides=BLUFF)
    r = move(board, unit(board, "u", "infantry", "0101"), order="EXT")
    assert ends(board, r) == {"0101": 0, "0201": 1, "0301": 2} and not r.refused
    cliff = omaha_map(". . ^ ^", sides=CLIFF)
    assert ends(cliff, move(cliff, unit(cliff, "u", "infantry", "0201"), order="EXT")) == {
        "0201": 0,
        "0101": 1,
    }
    r = move(cliff, unit(cliff, "u", "infantry", "0201", "climb-cliff"), order="EXT")
    assert ends(cliff, r) == {"0201": 0, "0301": 1}
    assert "removes the marker" in r.stops[cliff.hex_of("0301")]


# ------------------------------------------------------------------ 6.1: speeds

STRIP = ". . . . . . ."


@pytest.mark.parametrize("kind", EVERY_TYPE)
def test_a_standard_move_is_one_hex(kind: str) -> None:
    # Project's choice (movement.yaml): the summary gives multi-hex moves only for EXT
    # turns (6.1), so a standard move is one hex.
    board = omaha_map("\n".join([". . . . ."] * 5))
    r = move(board, unit(board, "u", kind, "0303"))
    assert set(r.costs) == {board.hex_of("0303"), *on_map(board, board.hex_of("0303"))}
    assert not r.stops


@pytest.mark.parametrize(("kind", "hexes"), [(k, 2) for k in INFANTRY + LEADERS] + [(k, 1) for k in OTHERS])
def test_in_an_extended_turn_infantry_and_leaders_move_two_hexes_others_one_off_road(
    kind: str, hexes: int
) -> None:
    # omaha 6.1 EXT: infantry, rangers, HQs and Generals move 2 hexes; project's choice:
    # one hex for the others off road (the text gives them no EXT speed).
    board = omaha_map(STRIP)
    r = move(board, unit(board, "u", kind, "0101"), order="EXT")
    assert max(r.points(h) for h in r.costs) == hexes and len(r.costs) == hexes + 1


def test_the_policy_can_default_to_extended_turns() -> None:
    # omaha EXT: turns 17-32; the policy's `extended` makes EXT the default order.
    board = omaha_map(STRIP)
    mover = unit(board, "u", "infantry", "0101")
    state = MapState.of(board, [mover])
    assert len(plan_move(state, OmahaMovePolicy(extended=True), mover).costs) == 3
    assert len(plan_move(state, OmahaMovePolicy(extended=True), mover, "STD").costs) == 2


def test_in_an_extended_turn_tanks_move_four_hexes_along_a_major_road_and_two_along_a_secondary() -> None:
    # omaha 6.1 EXT: tanks move 2 and 4 hexes along secondary and major roads.
    major = omaha_map(STRIP, roads={"major-road": ["0101", "0201", "0301", "0401", "0501", "0601"]})
    r = move(major, unit(major, "t", "tank", "0101"), order="EXT")
    assert ends(major, r) == {"0101": 0, "0201": 0.25, "0301": 0.5, "0401": 0.75, "0501": 1}
    secondary = omaha_map(STRIP, roads={"secondary-road": ["0101", "0201", "0301", "0401"]})
    assert ends(secondary, move(secondary, unit(secondary, "t", "tank", "0101"), order="EXT")) == {
        "0101": 0,
        "0201": 0.5,
        "0301": 1,
    }
    # a move that mixes them spends each step's share; a junction counts at the slower
    mixed = omaha_map(
        STRIP, roads={"major-road": ["0101", "0201"], "secondary-road": ["0301", "0401", "0501"]}
    )
    assert ends(mixed, move(mixed, unit(mixed, "t", "tank", "0101"), order="EXT")) == {
        "0101": 0,
        "0201": 0.25,
        "0301": 0.75,
    }
    # where both roads run, the faster counts
    both = omaha_map(STRIP, roads={"major-road": ["0101", "0201"], "secondary-road": ["0101", "0201"]})
    assert ends(both, move(both, unit(both, "t", "tank", "0101"), order="EXT"))["0201"] == 0.25
    # other units are not faster on roads
    assert ends(major, move(major, unit(major, "a", "artillery", "0101"), order="EXT")) == {
        "0101": 0,
        "0201": 1,
    }


def test_a_tank_leaving_the_road_spends_its_whole_move() -> None:
    # omaha 6.1 EXT and project's choice: off road a tank moves one hex, the whole move.
    board = omaha_map(STRIP, roads={"major-road": ["0201", "0301"]})
    assert ends(board, move(board, unit(board, "t", "tank", "0101"), order="EXT")) == {"0101": 0, "0201": 1}


def test_a_budget_override_is_in_hexes_off_road() -> None:
    board = omaha_map(STRIP, roads={"major-road": ["0101", "0201", "0301", "0401", "0501", "0601", "0701"]})
    r = move(board, unit(board, "t", "tank", "0101"), order="EXT", budget=2)
    assert r.scale == 4 and r.points(board.hex_of("0701")) == 1.5


# ------------------------------------------------------------------ 6.1: must stop


def test_in_an_extended_turn_infantry_must_stop_in_bocage_off_road() -> None:
    # omaha 6.1 EXT: infantry must stop in bocage (not road).
    board = omaha_map(". % . .")
    r = move(board, unit(board, "u", "infantry", "0101"), order="EXT")
    assert ends(board, r) == {"0101": 0, "0201": 1} and board.hex_of("0201") in r.stops
    road = omaha_map(". % . .", roads={"secondary-road": ["0201"]})
    r = move(road, unit(road, "u", "infantry", "0101"), order="EXT")
    assert ends(road, r) == {"0101": 0, "0201": 1, "0301": 2} and not r.stops
    # leaders are not told to stop there
    assert "0301" in ends(board, move(board, unit(board, "u", "hq", "0101"), order="EXT"))


OPEN = "\n".join([" ".join(["."] * 9)] * 9)
WN = {"wn-1": ("german-position", ["0502"])}


def stops_of(state: MapState, mover: Piece, order: str | None = "EXT") -> dict[Hex, str]:
    return dict(OmahaMovePolicy().model(state, mover, order).stop)


def test_in_an_extended_turn_infantry_stop_in_intense_and_steady_fire_tanks_in_intense_only() -> None:
    # omaha 6.1 EXT: tanks must stop in intense (●) fields of fire; infantry and rangers in
    # intense and steady (●, ⊕); leaders are given no stop.
    board = omaha_map(OPEN, regions=WN)
    field = fields_of_fire(board)["wn-1"]
    gun = german(board, "g", "0502")
    for kind, wanted in (
        ("infantry", {"intense", "steady"}),
        ("ranger", {"intense", "steady"}),
        ("tank", {"intense"}),
    ):
        mover = unit(board, "u", kind, "0509")
        stops = stops_of(MapState.of(board, [mover, gun]), mover)
        assert set(stops) == {h for h, v in field.items() if v in wanted}
        assert all("wn-1" in why for why in stops.values())
    hq = unit(board, "u", "hq", "0509")
    assert stops_of(MapState.of(board, [hq, gun]), hq) == {}


def test_a_must_stop_in_fire_cuts_the_move_short() -> None:
    # omaha 6.1 EXT: from sporadic fire (range 5), the steady hexes at range 4 stop the
    # infantry, so none at range 3 is reached.
    board = omaha_map(OPEN, regions=WN)
    r = move(board, unit(board, "u", "infantry", "0507"), german(board, "g", "0502"), order="EXT")
    wn = board.hex_of("0502")
    assert board.hex_of("0506") in r.stops
    assert min(distance(wn, h) for h in r.costs) == 4


@pytest.mark.parametrize("status", [(), ("disrupted",)])
def test_fields_of_unoccupied_or_disrupted_positions_do_not_stop(status: tuple[str, ...]) -> None:
    # omaha 3: unoccupied positions do not fire; 3, 4: Disrupted units neither act nor
    # fire; 6.1: infiltration is past an Undisrupted position. So (project's reading)
    # only a position holding a German unit that is not Disrupted stops a move.
    board = omaha_map(OPEN, regions=WN)
    mover = unit(board, "u", "infantry", "0509")
    pieces = [mover, german(board, "g", "0502", *status)] if status else [mover]
    assert stops_of(MapState.of(board, pieces), mover) == {}


def test_a_standard_turn_has_no_must_stops() -> None:
    # omaha 6.1: the must-stops are EXT rules; a standard move is one hex.
    board = omaha_map(OPEN, regions=WN)
    mover = unit(board, "u", "infantry", "0509")
    state = MapState.of(board, [mover, german(board, "g", "0502")])
    assert stops_of(state, mover, None) == {}
    assert must_stop_overlay(state, OmahaMovePolicy(), mover) == {}
    assert must_stop_overlay(state, OmahaMovePolicy(extended=True), mover)


def test_hqs_and_generals_may_not_infiltrate_on_their_own() -> None:
    # omaha 6.1: infiltration is a move from a hex adjacent to and in the field of fire
    # of an Undisrupted position to a similar hex; HQs and Generals may not attempt it.
    board = omaha_map(OPEN, regions=WN)
    gun = german(board, "g", "0502")
    for kind in LEADERS:
        r = move(board, unit(board, "u", kind, "0402"), gun)
        assert "0503" not in ends(board, r) and "0403" in ends(board, r)
        assert "infiltrat" in str(why_not(board, unit(board, "u", kind, "0402"), "0402", "0503", gun))
        assert "0503" in ends(
            board, move(board, unit(board, "u", kind, "0402"), german(board, "g", "0502", "disrupted"))
        )
    assert "0503" in ends(board, move(board, unit(board, "u", "infantry", "0402"), gun))


# ------------------------------------------------------------------ 6: stacking


def test_stacking_allows_two_units_a_hex_and_hqs_and_generals_are_free() -> None:
    # omaha 6: at most 2 units per hex, HQs and Generals do not count; the project
    # refuses a move that would end over the limit (it may pass through).
    board = omaha_map(". . . .")
    a, b = unit(board, "a", "infantry", "0301"), unit(board, "b", "tank", "0301")
    r = move(board, unit(board, "u", "infantry", "0101"), a, b, budget=3)
    assert "0301" not in ends(board, r) and board.hex_of("0301") in r.passed
    assert ends(board, r)["0401"] == 3
    for leader in LEADERS:  # a leader may join a full stack
        assert "0301" in ends(board, move(board, unit(board, "u", leader, "0101"), a, b, budget=3))
    hq, gen = unit(board, "h", "hq", "0301"), unit(board, "g", "general", "0301")
    assert "0301" in ends(board, move(board, unit(board, "u", "infantry", "0101"), a, hq, gen, budget=3))


def test_a_unit_does_not_count_against_the_stack_it_stands_in() -> None:
    board = omaha_map(". . . .")
    a, b = unit(board, "a", "infantry", "0201"), unit(board, "b", "infantry", "0201")
    assert "0201" in ends(board, move(board, a, b))


# ------------------------------------------------------------------ who moves


def test_a_german_occupied_hex_cannot_be_entered() -> None:
    # Project's choice (movement.yaml): a US unit enters a German hex only by defeating
    # the Germans there (an attack, omaha 6.2), not by moving.
    board = omaha_map(". . .")
    r = move(board, unit(board, "u", "infantry", "0101"), german(board, "g", "0201"), budget=2)
    assert ends(board, r) == {"0101": 0}


@pytest.mark.parametrize(
    ("piece", "word"),
    [
        (("infantry", "disrupted"), "Disrupted"),  # omaha 6: removing the marker is its only action
        (("command-post",), "Command Post"),  # omaha 8: reverts to an HQ to move
    ],
)
def test_units_that_may_not_move_stay_put_and_say_why(piece: tuple[str, ...], word: str) -> None:
    board = omaha_map(". . .")
    r = move(board, unit(board, "u", piece[0], "0201", *piece[1:]))
    assert ends(board, r) == {"0201": 0} and any(word in n for n in r.notes)


def test_german_units_do_not_move_by_the_us_table() -> None:
    # omaha 3: German units move only by the German action procedures.
    board = omaha_map(". . .")
    r = move(board, german(board, "g", "0201"))
    assert ends(board, r) == {"0201": 0} and any("German" in n for n in r.notes)


def test_bad_input_is_refused_by_name() -> None:
    board = omaha_map(". . .")
    state = MapState.of(board)
    policy = OmahaMovePolicy()
    with pytest.raises(ValueError, match="'cavalry'"):
        policy.model(state, unit(board, "u", "cavalry", "0101"))
    with pytest.raises(ValueError, match="'ADV'"):
        policy.model(state, unit(board, "u", "infantry", "0101"), "ADV")
    with pytest.raises(ValueError, match="marker"):
        policy.model(state, Piece("m", "smoke", board.hex_of("0101"), kind="marker"))
    with pytest.raises(ValueError, match="-1"):
        policy.model(state, unit(board, "u", "infantry", "0101"), budget=-1)


# ------------------------------------------------------------------ 2: US control

HEIGHTS = """
^ % ^
^ ^ v
. p .
"""


def controlled(board: Map, *pieces: Piece) -> set[str]:
    return labels(board, us_control(MapState.of(board, pieces)))


def test_infantry_with_two_steps_or_more_and_tanks_control_the_six_adjacent_hexes() -> None:
    # omaha 2: US units control their hex; infantry with 2+ steps and tanks also the 6
    # adjacent hexes. Full strength is the counter's (9.1); Piece.steps is the strength.
    board = omaha_map("\n".join([". . . . ."] * 5))
    ring = {board.label(h) for h in on_map(board, board.hex_of("0303"))} | {"0303"}
    for piece in (
        unit(board, "u", "infantry", "0303"),
        unit(board, "u", "ranger", "0303"),
        unit(board, "u", "infantry", "0303", steps=2),
        unit(board, "u", "tank", "0303"),
        unit(board, "u", "tank", "0303", steps=1),
    ):
        assert controlled(board, piece) == ring, piece


def test_reduced_infantry_and_other_units_control_only_their_own_hex() -> None:
    # omaha 2: only infantry with 2+ steps (and tanks) reach the adjacent hexes; a reduced
    # unit has 1 step left (Piece.steps).
    board = omaha_map("\n".join([". . . . ."] * 5))
    for piece in (
        unit(board, "u", "infantry", "0303", steps=1),
        unit(board, "u", "infantry", "0303", steps=1),
        unit(board, "u", "artillery", "0303"),
        unit(board, "u", "hq", "0303"),
    ):
        assert controlled(board, piece) == {"0303"}, piece


def test_generals_and_germans_control_nothing() -> None:
    # omaha 2: US units "(not Generals)" control their hex.
    board = omaha_map(HEIGHTS)
    assert controlled(board, unit(board, "u", "general", "0202")) == set()
    assert controlled(board, german(board, "g", "0202")) == set()


def test_a_unit_on_high_ground_controls_the_adjacent_beach_pavillon_and_draw() -> None:
    # omaha 2: US units on high ground control adjacent beach, pavillon or draw hexes.
    board = omaha_map(HEIGHTS)  # 0202 is high ground; around it 0201 bocage, 0102 high
    # ground, 0302 draw, 0103 beach, 0203 pavillon, 0303 beach
    assert controlled(board, unit(board, "u", "hq", "0202")) == {"0202", "0302", "0103", "0203", "0303"}
    assert controlled(board, unit(board, "u", "infantry", "0202", steps=1)) == {
        "0202",
        "0302",
        "0103",
        "0203",
        "0303",
    }


def test_a_unit_below_does_not_control_the_high_ground_above_it() -> None:
    # omaha 2: "the opposite is not true", read (project's choice) as: from beach,
    # pavillon or draw, not even infantry of 2+ steps controls the adjacent high ground.
    board = omaha_map(HEIGHTS)
    assert controlled(board, unit(board, "u", "infantry", "0203")) == {"0203", "0103", "0303"}
    assert controlled(board, unit(board, "u", "tank", "0302")) == {"0302", "0303", "0201"}


def test_a_unit_still_afloat_controls_nothing() -> None:
    # Project's choice (movement.yaml): a unit in a sea hex (a Beach Landing Box).
    board = omaha_map("~ . .")
    assert controlled(board, unit(board, "u", "infantry", "0101")) == set()


# -------------------------------------------------------------- 2: communication

PLATEAU = "\n".join([" ".join(["^"] * 5)] * 5)
PLATEAU_REGIONS = {"wn-1": ("german-position", ["0305"]), "exit-A": ("exit", ["0301"])}


def test_a_position_traces_a_path_to_an_exit_until_us_control_cuts_it() -> None:
    # omaha 2: a German unit is in communication if it can trace a path to an exit hex;
    # US controlled hexes block the path.
    board = omaha_map(PLATEAU, regions=PLATEAU_REGIONS)
    gun = german(board, "g", "0305")
    state = MapState.of(board, [gun])
    path = communication_path(state, "wn-1")
    assert path is not None and board.label(path[0]) == "0305" and board.label(path[-1]) == "0301"
    assert len(path) == 5  # straight up the column
    state.place(unit(board, "a", "infantry", "0203"))
    detour = communication_path(state, "wn-1")
    assert detour is not None and not set(detour) & set(us_control(state))
    assert in_communication(state, "wn-1")
    state.place(unit(board, "b", "infantry", "0403"))
    assert communication_path(state, "wn-1") is None and not in_communication(state, "wn-1")
    # a reduced company controls only its own hex: the path is open again
    state.update(unit(board, "b", "infantry", "0403", steps=1))
    assert in_communication(state, "wn-1")


def test_the_position_traces_from_its_own_hex_even_when_it_is_us_controlled() -> None:
    # Project's choice (movement.yaml): the position's own hexes never block its path.
    board = omaha_map(PLATEAU, regions=PLATEAU_REGIONS)
    state = MapState.of(board, [german(board, "g", "0305"), unit(board, "t", "tank", "0204")])
    assert board.hex_of("0305") in us_control(state)
    assert in_communication(state, "wn-1")


@pytest.mark.parametrize(
    ("band", "open_"),
    [
        ("x", False),  # rough blocks
        (".", False),  # beach blocks
        ("p", True),  # pavillon not next to the beach does not
        ("~", False),  # the sea: project's choice
    ],
)
def test_rough_beach_and_the_sea_block_a_path(band: str, open_: bool) -> None:
    # omaha 2: the path is blocked by rough, beach, pavillon adjacent to the beach.
    rows = "\n".join(["^ ^ ^", f"{band} {band} {band}", "^ ^ ^"])
    board = omaha_map(rows, regions={"wn-1": ("german-position", ["0203"]), "exit-A": ("exit", ["0201"])})
    assert in_communication(MapState.of(board), "wn-1") is open_


REGIONS_3 = {"wn-1": ("german-position", ["0304"]), "exit-A": ("exit", ["0301"])}


def test_pavillon_next_to_the_beach_blocks_a_path() -> None:
    # omaha 2: pavillon adjacent to the beach blocks.
    rows = "\n".join(["^ ^ ^ ^ ^", "p p p p p", ". ^ . ^ .", "^ ^ ^ ^ ^"])  # every pavillon by a beach
    board = omaha_map(rows, regions=REGIONS_3)
    assert not in_communication(MapState.of(board), "wn-1")
    inland = omaha_map(rows.replace(".", "^"), regions=REGIONS_3)
    assert in_communication(MapState.of(inland), "wn-1")


COLUMN = "\n".join(["%", "%", "%", "%"])


def test_an_occupied_reinforcement_position_passes_one_adjacent_us_controlled_bocage_hex() -> None:
    # omaha 2: an occupied Reinforcement position may trace through 1 adjacent US
    # controlled bocage hex.
    regions = {"reinforcement-1": ("reinforcement-position", ["0103"]), "exit-A": ("exit", ["0101"])}
    board = omaha_map(COLUMN, regions=regions)
    hq = unit(board, "h", "hq", "0102")  # controls its own hex only
    assert in_communication(MapState.of(board, [hq, german(board, "g", "0103")]), "reinforcement-1")
    assert not in_communication(MapState.of(board, [hq]), "reinforcement-1")  # unoccupied
    # not a WN
    wn = omaha_map(COLUMN, regions={"wn-1": ("german-position", ["0103"]), "exit-A": ("exit", ["0101"])})
    assert not in_communication(
        MapState.of(wn, [unit(wn, "h", "hq", "0102"), german(wn, "g", "0103")]), "wn-1"
    )
    # not high ground
    high = omaha_map(COLUMN.replace("%", "^"), regions=regions)
    assert not in_communication(
        MapState.of(high, [unit(high, "h", "hq", "0102"), german(high, "g", "0103")]), "reinforcement-1"
    )
    # only 1 hex, next to the position
    far = omaha_map(
        COLUMN,
        regions={"reinforcement-1": ("reinforcement-position", ["0104"]), "exit-A": ("exit", ["0101"])},
    )
    state = MapState.of(far, [unit(far, "h", "hq", "0103"), german(far, "g", "0104")])
    assert in_communication(state, "reinforcement-1")
    state.place(unit(far, "k", "hq", "0102"))
    assert not in_communication(state, "reinforcement-1")


def test_communication_refuses_a_key_that_is_not_a_position() -> None:
    board = omaha_map(PLATEAU, regions=PLATEAU_REGIONS)
    with pytest.raises(ValueError, match="'exit-A'"):
        in_communication(MapState.of(board), "exit-A")


# ------------------------------------------------------------- the shipped game


@pytest.fixture(scope="module")
def omaha() -> Map:
    return load_map("omaha")


def test_the_registry_plans_omaha_moves_on_the_shipped_map(omaha: Map) -> None:
    # omaha 9.4 on maps/omaha.yaml: infantry on Dog beach cross the seawall onto the
    # pavillon, tanks may not (no road on the beach side); up the bluff with a climb
    # marker in a standard turn; tanks run along the pavillon road in an EXT turn.
    infantry = Piece("E/2/116", "infantry", omaha.hex_of("2112"), side="us")
    tank = Piece("1/B/743", "tank", omaha.hex_of("2012"), side="us")
    state = MapState.of(omaha, [infantry, tank])
    policy = move_policy(state)
    assert isinstance(policy, OmahaMovePolicy)
    assert omaha.hex_of("2111") in plan_move(state, policy, infantry).costs
    assert omaha.hex_of("2011") not in plan_move(state, policy, tank).costs
    state.move("E/2/116", omaha.hex_of("2111"))
    climber = state.piece("E/2/116")
    r = plan_move(state, policy, climber, budget=2)
    assert omaha.hex_of("2110") in r.costs and "bluff" in r.refused[omaha.hex_of("2109")]
    state.move("1/B/743", omaha.hex_of("2011"))
    r = plan_move(state, policy, state.piece("1/B/743"), "EXT")
    assert r.points(omaha.hex_of("2211")) == 1 and omaha.hex_of("2311") not in r.costs


def test_movement_yaml_has_a_row_for_every_terrain_and_hexside_of_the_shipped_map(omaha: Map) -> None:
    rules = default_rules()
    assert set(omaha.terrain_types) <= set(rules.terrain)
    assert set(omaha.hexsides) <= set(rules.hexsides)
    assert set(rules.roads) <= set(omaha.features)


def test_the_shipped_map_has_its_positions_in_communication_before_the_landing(omaha: Map) -> None:
    # omaha 2 on maps/omaha.yaml: with no US unit ashore every position reaches an exit.
    state = MapState.of(omaha)
    keys = [k for k, r in omaha.regions.items() if r.kind in ("german-position", "reinforcement-position")]
    assert all(in_communication(state, k) for k in keys)


def test_movement_yaml_errors_name_the_line() -> None:
    text = resources.files("tabletop.games.omaha").joinpath(DATA).read_text(encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("  rough:"))
    bad = text.replace("  rough:       {infantry: prohibited", "  rough:       {infantry: forbidden")
    with pytest.raises(DataError, match=rf"{DATA}:{line}: .*forbidden"):
        read_rules(bad, DATA)
    assert read_rules(text, DATA).stacking_limit == 2
