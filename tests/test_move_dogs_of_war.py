"""Movement under Dogs of War (ACTION POINTS): walk, run and crawl rates, standing up,
rubble, climbing walls and hedges, doorways, and models in the way. Each test names the
rule text's heading it checks; "project's choice" marks a reading of our own where the
text is silent (see movement.yaml).

Costs are in fifths of an action point (``scale`` 5: a walked inch is 5, a run inch 3,
a crawled inch 10); ``reach.points`` gives action points. Most boards are one column of
a flat-top map, a straight line of hexes one inch apart (0101, 0102, ...), so a
distance is a row difference and there is no way round anything.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from helpers import small_map

from tabletop.board import load_map
from tabletop.engine.movement import Reach, plan_move
from tabletop.engine.pieces import MapState, Piece
from tabletop.games import move_policy
from tabletop.games.dogs_of_war.movement import DogsOfWarMovePolicy, load_table
from tabletop.hexgrid import hexside
from tabletop.yamlfile import DataError

GROUND = """\
name: Dogs of War test ground
rules: dogs_of_war
grid: {{orientation: flat, offset: odd-q, columns: {columns}, rows: {rows}}}
terrain:
  open:   {{symbol: ".", colour: "#b8c27f", properties: {{kind: open, cover: none}}}}
  rubble: {{symbol: "%", colour: "#9e7f7f", properties: {{kind: rubble, movement: rubble, cover: hard}}}}
  swamp:  {{symbol: ",", colour: "#6e8a63", properties: {{kind: swamp, cover: none}}}}
  trees:  {{symbol: "T", colour: "#3d6b34", properties: {{kind: trees, cover: soft}}}}
  house:  {{symbol: "s", colour: "#a9a295", properties: {{kind: building, structure: stone, levels: 1, cover: hard}}}}
default_terrain: open
"""


def ground(
    rows: int = 20,
    columns: int = 1,
    hexes: dict[str, str] | None = None,
    sides: dict[str, list[str]] | None = None,
) -> MapState:
    """Open ground with some hexes' terrain set and hexside features (wall, hedge, doorway)."""
    text = GROUND.format(columns=columns, rows=rows)
    if hexes:
        text += "hexes: {" + ", ".join(f'"{label}": {kind}' for label, kind in hexes.items()) + "}\n"
    if sides:
        text += "hexsides:\n"
        for key, between in sides.items():
            text += f"  {key}: {{colour: '#5b5048', between: [{', '.join(between)}]}}\n"
    return MapState.of(small_map(text))


def put(state: MapState, piece_id: str, label: str, side: str = "us", **kw: object) -> Piece:
    piece = Piece(piece_id, "rifleman", state.board.hex_of(label), side=side, **kw)  # type: ignore[arg-type]
    state.place(piece)
    return piece


def move(state: MapState, unit: Piece, order: str | None = None, budget: int | None = None) -> Reach:
    return plan_move(state, move_policy(state), unit, order, budget)


def cost(state: MapState, r: Reach, label: str) -> int:
    return r.costs[state.board.hex_of(label)]


def farthest(state: MapState, r: Reach) -> int:
    """How many inches down the column the move reaches."""
    return max(state.board.grid.offset_of(h)[1] for h in r.costs) - state.board.grid.offset_of(r.start)[1]


def test_the_registry_gives_the_dogs_of_war_movement_policy() -> None:
    assert isinstance(move_policy(ground()), DogsOfWarMovePolicy)


# --- orders ---------------------------------------------------------------------------


def test_a_walk_costs_one_action_point_an_inch_from_ten() -> None:
    # ACTION POINTS: ten action points; Walk 1 AP / inch.
    state = ground()
    r = move(state, put(state, "a", "0101"), "walk")
    assert r.scale == 5
    assert cost(state, r, "0102") == 5
    assert cost(state, r, "0111") == 50 and r.points(state.board.hex_of("0111")) == 10
    assert farthest(state, r) == 10


def test_a_run_costs_three_action_points_for_five_inches_in_whole_blocks() -> None:
    # ACTION POINTS: Run 3 AP for up to 5 inches; 10 AP buy three runs, 15 inches.
    state = ground()
    unit = put(state, "a", "0101")
    r = move(state, unit, "run")
    assert cost(state, r, "0102") == 3
    assert cost(state, r, "0116") == 45 and r.points(state.board.hex_of("0116")) == 9
    assert farthest(state, r) == 15
    assert any("blocks of 3 AP" in note for note in r.notes)
    assert farthest(state, move(state, unit, "run", budget=5)) == 5  # one block, 2 AP unused


def test_a_crawl_costs_two_action_points_an_inch() -> None:
    # ACTION POINTS: Crawl 2 AP / inch.
    state = ground()
    r = move(state, put(state, "a", "0101"), "crawl")
    assert cost(state, r, "0102") == 10
    assert farthest(state, r) == 5


def test_walk_run_and_crawl_reach_ten_fifteen_and_five_inches() -> None:
    # ACTION POINTS: the three rates side by side, from the same ten action points.
    state = ground()
    unit = put(state, "a", "0101")
    assert [farthest(state, move(state, unit, order)) for order in ("walk", "run", "crawl")] == [10, 15, 5]


def test_a_prone_model_crawls_unless_ordered_up() -> None:
    # ACTION POINTS: Prone is free, Stand costs 3 AP; a prone model crawls.
    state = ground()
    unit = put(state, "a", "0101", status=frozenset({"prone"}))
    assert farthest(state, move(state, unit)) == 5  # no order: crawls
    walk = move(state, unit, "walk")
    assert farthest(state, walk) == 7  # stands (3 AP), walks 7
    assert any("stands up" in note for note in walk.notes)
    assert farthest(state, move(state, unit, "run")) == 10  # stands, 6 of 7 AP in runs
    assert farthest(state, move(state, unit, "walk", budget=2)) == 0  # cannot stand


def test_a_standing_model_with_no_order_walks() -> None:
    state = ground()
    assert farthest(state, move(state, put(state, "a", "0101"))) == 10


def test_an_order_the_table_does_not_know_is_refused() -> None:
    state = ground()
    with pytest.raises(ValueError, match="'sprint'"):
        move(state, put(state, "a", "0101"), "sprint")


def test_turning_to_face_another_way_costs_nothing() -> None:
    # Misc Actions: Change Facing is free, so facing plays no part in the reach.
    state = ground(rows=12, columns=5)
    facing = move(state, put(state, "a", "0306", facing=3))
    state.remove("a")
    plain = move(state, put(state, "a", "0306"))
    assert facing.costs == plain.costs


@pytest.mark.parametrize("status", ["immobilized", "unconscious"])
def test_an_immobilized_or_unconscious_model_does_not_move(status: str) -> None:
    # IMMOBILIZED, UNCONSCIOUS: the model lies prone and may not move.
    state = ground()
    r = move(state, put(state, "a", "0101", status=frozenset({status})))
    assert set(r.costs) == {r.start}


def test_a_severely_wounded_model_pays_double_and_cannot_run() -> None:
    # DAMAGE ASSESSMENT (location/wound chart): movement costs doubled, impossible to run.
    state = ground()
    unit = put(state, "a", "0101", status=frozenset({"severely-wounded"}))
    assert cost(state, move(state, unit, "walk"), "0102") == 10
    assert farthest(state, move(state, unit, "run")) == 0


# --- terrain --------------------------------------------------------------------------


@pytest.mark.parametrize(("order", "per_inch"), [("walk", 10), ("run", 5), ("crawl", 10)])
def test_rubble_costs_its_own_rates(order: str, per_inch: int) -> None:
    # ACTION POINTS: Walk in Rubble 2 AP / inch; Run in Rubble 5 AP / 5 inches (the
    # table's figure); crawling in rubble 2 AP / inch (project's choice).
    state = ground(hexes={"0102": "rubble", "0103": "rubble"})
    r = move(state, put(state, "a", "0101"), order)
    assert cost(state, r, "0102") == per_inch
    assert cost(state, r, "0103") == 2 * per_inch


def test_swamp_is_moved_through_at_the_rubble_rates() -> None:
    # OBSTACLE EFFECTS names swamps but gives no cost: the rubble rates (project's choice).
    state = ground(hexes={"0102": "swamp"})
    assert cost(state, move(state, put(state, "a", "0101")), "0102") == 10


def test_climbing_a_wall_costs_two_action_points_an_inch_of_it() -> None:
    # ACTION POINTS: Climb 2 AP / inch; a wall stands one inch (los.yaml), on top of the
    # inch walked beyond it (project's choice).
    state = ground(sides={"wall": ["0102/0103"]})
    r = move(state, put(state, "a", "0101"), "walk")
    assert cost(state, r, "0102") == 5
    assert cost(state, r, "0103") == 5 + 5 + 10
    assert farthest(state, r) == 8  # 2 AP of the 10 went on the climb


def test_a_crawler_climbs_at_the_same_rate() -> None:
    # ACTION POINTS: Climb 2 AP / inch whatever the order.
    state = ground(sides={"hedge": ["0102/0103"]})
    r = move(state, put(state, "a", "0101"), "crawl")
    assert cost(state, r, "0103") == 10 + 10 + 10


def test_a_hedge_is_climbed_like_a_wall_both_ways() -> None:
    # ACTION POINTS: Climb (hedges too: project's choice).
    state = ground(sides={"hedge": ["0102/0103"]})
    r = move(state, put(state, "a", "0104"), "walk")
    assert cost(state, r, "0102") == 5 + 10 + 5


def test_a_wall_higher_than_twice_a_figure_cannot_be_climbed() -> None:
    # ACTION POINTS: Climb, no higher than twice the model's height.
    state = ground(sides={"wall": ["0102/0103"]})
    unit = put(state, "a", "0101")
    r = plan_move(state, DogsOfWarMovePolicy(hexside_height=3), unit)
    assert farthest(state, r) == 1


# --- doorways -------------------------------------------------------------------------

# A one-hex house at 0303 on a 5 x 5 board, its only doorway on its south side (0304).
HOUSE = {"hexes": {"0303": "house"}, "sides": {"doorway": ["0303/0304"]}}


def test_a_building_is_entered_only_through_a_doorway() -> None:
    # Buildings are entered through doorways (project's choice; the map marks them).
    state = ground(rows=5, columns=5, **HOUSE)  # type: ignore[arg-type]
    unit = put(state, "a", "0302")  # north of the house, against its wall
    model = move_policy(state).model(state, unit)
    house, door = state.board.hex_of("0303"), state.board.hex_of("0304")
    assert model.step[(unit.hex, house)] is None
    r = move(state, unit)
    assert cost(state, r, "0303") == 20  # round the house to the door: 4 inches
    assert r.path_to(house)[-2] == door


def test_a_building_is_left_only_through_a_doorway() -> None:
    state = ground(rows=5, columns=5, **HOUSE)  # type: ignore[arg-type]
    r = move(state, put(state, "a", "0303"))
    assert cost(state, r, "0304") == 5
    assert cost(state, r, "0302") == 20


def test_a_building_without_a_doorway_cannot_be_entered() -> None:
    state = ground(rows=5, columns=5, hexes={"0303": "house"})
    r = move(state, put(state, "a", "0302"))
    assert state.board.hex_of("0303") not in r.costs


# --- models in the way ----------------------------------------------------------------


@pytest.mark.parametrize("side", ["us", "them"])
def test_a_model_cannot_move_through_another_model(side: str) -> None:
    # MOVING AND SHOOTING THROUGH MODELS: models may not move through one another.
    state = ground()
    put(state, "b", "0104", side=side)
    unit = put(state, "a", "0101")
    r = move(state, unit)
    assert farthest(state, r) == 2
    assert "may not move through" in move_policy(state).model(state, unit).why_not[state.board.hex_of("0104")]


@pytest.mark.parametrize("status", ["prone", "unconscious", "severely-wounded"])
def test_a_wounded_or_lying_model_cannot_be_passed_either(status: str) -> None:
    # MOVING AND SHOOTING THROUGH MODELS: not through models that are wounded.
    state = ground()
    put(state, "b", "0104", status=frozenset({status}))
    assert farthest(state, move(state, put(state, "a", "0101"))) == 2


def test_a_dead_model_may_be_passed_over_but_not_ended_on() -> None:
    # MOVING AND SHOOTING THROUGH MODELS: models may pass over dead models ("pass over":
    # not end there, project's reading).
    state = ground()
    put(state, "b", "0104", side="them", status=frozenset({"dead"}))
    r = move(state, put(state, "a", "0101"))
    dead = state.board.hex_of("0104")
    assert dead in r.passed and dead not in r.costs
    assert cost(state, r, "0105") == 20
    assert farthest(state, r) == 10


# --- the table file -------------------------------------------------------------------


def test_a_mistake_in_the_table_file_names_the_file_key_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "movement.yaml"
    text = (Path(__file__).parent.parent / "tabletop/games/dogs_of_war/movement.yaml").read_text()
    bad.write_text(text.replace("run: {ap: 3, inches: 5}", "run: {ap: 3, inches: 0}"))
    with pytest.raises(DataError, match=r"movement\.yaml:\d+: orders\.run\.inches"):
        load_table(bad)


# --- the shipped map ------------------------------------------------------------------


def test_plan_move_on_the_shipped_map_goes_in_by_the_door() -> None:
    # The stone house 1513-1816 has doorways at 1616/1617 and 1413/1513 (the map).
    state = MapState.of(load_map("dogs-of-war"))
    board = state.board
    policy = move_policy(state)
    assert isinstance(policy, DogsOfWarMovePolicy)
    unit = put(state, "a", "1617")
    r = plan_move(state, policy, unit, "walk")
    assert cost(state, r, "1616") == 5
    inside = [h for h in r.costs if policy.is_enclosed(state, h)]
    assert inside
    for h in inside:  # every way in crosses a doorway
        path = r.path_to(h)
        for a, b in pairwise(path):
            if board.terrain[a] != board.terrain[b] and (
                policy.is_enclosed(state, a) or policy.is_enclosed(state, b)
            ):
                assert "doorway" in board.hexside_features(a, b), (board.label(a), board.label(b))


def test_plan_move_on_the_shipped_map_climbs_the_free_standing_wall() -> None:
    # ACTION POINTS: Climb; the low wall 2538-2542 between the main street and the copse.
    state = MapState.of(load_map("dogs-of-war"))
    board = state.board
    unit = put(state, "a", "2539")
    model = move_policy(state).model(state, unit, "walk")
    beyond = board.hex_of("2639")
    assert "wall" in board.hexside_features(unit.hex, beyond)
    assert hexside(unit.hex, beyond) in board.hexsides["wall"].sides
    assert model.step[(unit.hex, beyond)] == 5 + 10  # the inch into the trees, the climb
