"""Dogs of War structural damage (STRUCTURAL DAMAGE l.690-700): the structure points
table, the collapse example, a blast inside a building wearing it down and the collapse
to rubble through the engine's terrain change."""

from __future__ import annotations

from test_dogs_of_war_rules import Faces, clear_field, game, put

from tabletop.games.dogs_of_war import structures
from tabletop.games.dogs_of_war.data import data
from tabletop.games.dogs_of_war.ruleset import DogsOfWarRules, models

HOUSE = "1918"  # the wooden house 1918-2120 of maps/dogs-of-war.yaml (1 level, 4 SP)


def test_the_structure_points_table_per_material_and_level() -> None:
    # STRUCTURAL DAMAGE table l.696-700: wood 4, stone 6, concrete 8, steel 9 per level
    g = game()
    types = g.state.board.terrain_types
    per_level = {
        t.properties["structure"]: t.properties["structure_points_per_level"]
        for t in types.values()
        if t.properties.get("kind") in ("building", "bunker")
    }
    assert per_level == {"wood": 4, "stone": 6, "concrete": 8, "steel": 9}
    assert structures.structure_points(types["stone-house-2"].properties) == 12  # 6 a level, 2 levels
    assert structures.structure_points(types["concrete-block"].properties) == 24


def test_the_collapse_example_two_storey_concrete_gives_dpr_8() -> None:
    # l.694: "the ground floor of a two story concrete building ... a DPR of 8"
    assert structures.collapse_dpr(2 * 8) == 8
    assert structures.collapse_dpr(4) == 2  # a wooden house: half of 4
    assert structures.collapse_dpr(9) == 5  # rounded up


def test_structure_points_lost_read_on_the_wound_charts_columns() -> None:
    # l.692 "done the same way as described earlier" (project's reading, rules.yaml structural)
    assert data().rules["structural"]["loss"] == [3, 2, 1, 0]
    assert [structures.points_lost(m) for m in (-5, 0, 1, 2, 3, 5, 6, 9)] == [3, 3, 2, 2, 1, 1, 0, 0]


def test_a_building_is_its_joined_hexes_of_one_terrain() -> None:
    g = game()
    state = g.state
    house = structures.building_at(state, state.board.hex_of(HOUSE))
    assert sorted(state.board.label(h) for h in house) == [
        "1918", "1919", "1920", "2018", "2019", "2020", "2118", "2119", "2120",
    ]  # fmt: skip
    assert structures.building_at(state, state.board.hex_of("2424")) == frozenset()  # the crossroads


def test_a_grenade_inside_a_house_wears_it_down_and_it_collapses_to_rubble() -> None:
    # l.692: a blast from the interior damages the structure; l.694: at 0 it collapses,
    # the models inside take a hit at half the collapsed points (4 / 2 = DPR 2)
    g = game()
    state = g.state
    red = next(p for p in models(state, "red") if p.type == "scout")
    clear_field(state, {red.id})
    put(state, red.id, "2019")
    rules = DogsOfWarRules()
    grenade = data().weapon("m67")  # structural DPR 3
    inside = state.board.hex_of("2019")
    # first blast: the scout's wound rolls (kill zone: two; location, damage each), then
    # the house's structural roll 3 - 3 = 0: 3 SP lost, 1 left
    first = Faces(9, 10, 9, 10, 3)
    lines = rules._explode(state, inside, "frag_grenade", grenade, first)  # type: ignore[arg-type]
    assert any("loses 3 SP (1 of 4 left" in x for x in lines), lines
    assert state.map.terrain_at(inside) == "wood-house"
    assert structures.points_left(state, inside) == 1
    # second blast: structural roll 6 - 3 = 3: 1 SP lost, 0 left -> collapse; the
    # scout under the rubble: location 2 (chest), damage 8 - 2 = 6: a near miss
    second = Faces(9, 10, 9, 10, 6, 2, 8, 10)
    lines = rules._explode(state, inside, "frag_grenade", grenade, second)  # type: ignore[arg-type]
    assert any("collapses into rubble" in x and "DPR 2" in x for x in lines), lines
    assert any(f"{red.id} is caught in the collapse (chest)" in x for x in lines), lines
    assert "damage on" in " ".join(second.asked) and "DPR 2" in second.asked[-2]
    for label in ("1918", "2019", "2120"):
        assert state.map.terrain_at(state.board.hex_of(label)) == "rubble"
    assert state.map.terrain_at(state.board.hex_of("1513")) == "stone-house-2"  # other buildings stand
    assert structures.building_at(state, inside) == frozenset()


def test_a_blast_in_the_open_does_no_structural_damage() -> None:
    # l.692: only a direct hit or a blast inside the building damages it
    g = game()
    state = g.state
    clear_field(state, set())
    rules = DogsOfWarRules()
    beside = state.board.hex_of("2218")  # open ground next to the wooden house
    assert state.map.terrain_at(beside) == "open"
    dice = Faces()
    lines = rules._explode(state, beside, "frag_grenade", data().weapon("m67"), dice)  # type: ignore[arg-type]
    assert not any("SP" in x for x in lines)
    assert dice.asked == []
    assert structures.points_left(state, state.board.hex_of(HOUSE)) == 4
