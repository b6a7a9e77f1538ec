"""The shipped river-crossing map, maps/dogfaces.yaml, for the DOGFACES IN SPACE rules.

The DOGFACES text ships no map (it points to the author's separate map sets), so this
map is the project's own rendering in the style of his M6 terrain. These tests check
the structure the rules lean on: every kind of the terrain table present, a continuous
river that cuts the map in two except at the bridges, bridges that really span it on a
road, one connected road network, hills higher than the ground around them, and two
opposing setup edges. Comments cite the rule text by section.
"""

from __future__ import annotations

import re

import pytest
from helpers import col, groups, of, on_map, row

from tabletop.board import load_map
from tabletop.board.model import Map
from tabletop.hexgrid import Hex

# Dogfaces V, terrain table: key -> the name printed in the table.
TABLE = {
    "grassland": "Grassland",
    "desert": "Desert/Beach",
    "swamp": "Swamp",
    "forest": "Forest",
    "hill": "Hill",
    "water": "Water/River",
    "bridge": "Bridge",
    "town": "Town",
}
# Road is the one table row drawn as a feature over other terrain.
ROAD = "road"


@pytest.fixture(scope="module")
def m() -> Map:
    return load_map("dogfaces")


def group_of(hexes: set[Hex], h: Hex) -> set[Hex]:
    return next(g for g in groups(hexes) if h in g)


def test_the_map_is_for_the_dogfaces_rules_at_a_skirmish_size(m: Map) -> None:
    # Dogfaces I and III: a two-player skirmish map; about 20-30 by 15-20 hexes.
    assert m.rules == "dogfaces"
    assert m.grid.orientation == "flat"
    assert 20 <= m.grid.columns <= 30
    assert 15 <= m.grid.rows <= 20


def test_the_file_says_it_is_the_projects_own_rendering(m: Map) -> None:
    # Design notes: where a rule text has no map, the map says it is the project's own.
    assert m.path is not None
    head = m.path.read_text(encoding="utf-8").split("\nname:")[0]
    assert re.search(r"project's own rendering", head, re.IGNORECASE)
    assert "own rendering" in m.notes


def test_every_terrain_kind_of_the_terrain_table_appears(m: Map) -> None:
    # Dogfaces V, Terrain Rules: the table's rows, each on the map at least once.
    assert set(m.terrain_types) == set(TABLE)
    for key, name in TABLE.items():
        assert m.terrain_types[key].name == name
        assert of(m, key), key
    assert m.features[ROAD].hexes
    assert m.features[ROAD].name == "Road"


def test_no_terrain_kind_is_a_token_patch(m: Map) -> None:
    # Dogfaces V: every row of the table should matter in play, so each area kind covers
    # a real area (bridges and towns are small by nature).
    minimum = {"grassland": 150, "desert": 15, "swamp": 10, "forest": 25, "hill": 20, "water": 20}
    for key, least in minimum.items():
        assert len(of(m, key)) >= least, key
    assert len(of(m, "town")) >= 4


def test_the_river_is_one_body_of_water_crossing_the_map_west_to_east(m: Map) -> None:
    # Dogfaces V: water cannot be entered, so a river is a barrier; here it spans the map.
    water = of(m, "water", "bridge")
    assert len(groups(water)) == 1
    assert any(col(m, h) == 0 for h in water)
    assert any(col(m, h) == m.grid.columns - 1 for h in water)
    assert not any(row(m, h) in (0, m.grid.rows - 1) for h in water)


def test_the_river_cuts_the_map_in_two_except_at_the_bridges(m: Map) -> None:
    # Dogfaces V: water cannot be entered; only bridges (and jet packs, II Larry) cross.
    north = m.regions["edge-north"].hexes
    south = m.regions["edge-south"].hexes
    dry = set(m.grid.hexes()) - of(m, "water", "bridge")
    sides = groups(dry)
    assert len(sides) == 2
    assert not any(north & g and south & g for g in sides)
    bridged = dry | of(m, "bridge")
    assert len(groups(bridged)) == 1


def test_every_bridge_spans_the_river_between_water_on_two_sides(m: Map) -> None:
    # Dogfaces V: a bridge is the crossing over water/river.
    bridges = of(m, "bridge")
    assert len(bridges) >= 2
    for b in bridges:
        wet = [n for n in on_map(m, b) if m.terrain[n] == "water"]
        assert len(wet) >= 2, m.label(b)
        # water upstream and downstream, not one patch beside the bridge
        assert len(groups(set(wet))) >= 2, m.label(b)
        dry = [n for n in on_map(m, b) if m.terrain[n] not in ("water", "bridge")]
        assert len(groups(set(dry))) == 2, m.label(b)  # one bank each side


def test_every_bridge_carries_a_road_from_one_bank_to_the_other(m: Map) -> None:
    # Dogfaces V: bridge and road rows; a bridge is where the road crosses the river.
    road = m.features[ROAD].hexes
    dry = set(m.grid.hexes()) - of(m, "water", "bridge")
    for b in of(m, "bridge"):
        assert b in road, m.label(b)
        ends = [n for n in on_map(m, b) if n in road and n in dry]
        assert len(ends) == 2, m.label(b)
        assert ends[1] not in group_of(dry, ends[0]), m.label(b)


def test_the_roads_form_one_connected_network_reaching_the_map_edges(m: Map) -> None:
    # Dogfaces V: road movement is cheaper only from road hex to road hex, so the
    # roads are continuous.
    road = set(m.features[ROAD].hexes)
    assert len(groups(road)) == 1
    last_col, last_row = m.grid.columns - 1, m.grid.rows - 1
    edges = set()
    for h in road:
        c, r = m.grid.offset_of(h)
        edges |= {"north"} if r == 0 else set()
        edges |= {"south"} if r == last_row else set()
        edges |= {"west"} if c == 0 else set()
        edges |= {"east"} if c == last_col else set()
    assert {"north", "south"} <= edges
    assert len(edges) >= 3


def test_roads_run_over_other_terrain_but_never_over_water(m: Map) -> None:
    # Dogfaces V: the road row gives movement along the road; the terrain under it
    # (forest, town, hill) still counts for shooting, so a road is drawn over terrain.
    under = {m.terrain[h] for h in m.features[ROAD].hexes}
    assert "water" not in under
    assert {"grassland", "bridge", "town", "forest"} <= under


def test_every_town_stands_on_the_road_network(m: Map) -> None:
    # Dogfaces V: town and road rows; towns are where the roads lead.
    road = m.features[ROAD].hexes
    towns = groups(of(m, "town"))
    assert len(towns) >= 2
    for town in towns:
        assert town & road, sorted(m.label(h) for h in town)


def test_hills_stand_higher_than_all_other_ground(m: Map) -> None:
    # Dogfaces V: a hill gives -1 to attacks from lower down, so height is recorded.
    for h in m.grid.hexes():
        if m.terrain[h] == "hill":
            assert m.elevation[h] >= 1, m.label(h)
        else:
            assert m.elevation[h] == 0, m.label(h)
    assert max(m.elevation.values()) >= 2  # a hilltop above the hillside


def test_beaches_lie_on_the_water(m: Map) -> None:
    # Dogfaces V: the desert/beach row; some of it is shoreline.
    beach = {h for h in of(m, "desert") if any(m.terrain[n] == "water" for n in on_map(m, h))}
    assert len(beach) >= 3


def test_the_setup_edges_are_opposite_map_edges_of_dry_ground(m: Map) -> None:
    # Dogfaces III: soldiers set up on opposing sides of the map, edge row first.
    north = m.regions["edge-north"]
    south = m.regions["edge-south"]
    assert north.kind == south.kind == "edge"
    assert {row(m, h) for h in north.hexes} == {0}
    assert {row(m, h) for h in south.hexes} == {m.grid.rows - 1}
    for edge in (north, south):
        assert len(edge.hexes) == m.grid.columns
        assert not any(m.terrain[h] in ("water", "swamp") for h in edge.hexes)


def test_terrain_colours_and_symbols_are_distinct(m: Map) -> None:
    # maps/FORMAT.md (symbols unique) and readability: each kind of ground can be told
    # apart on screen and in the rows text.
    types = list(m.terrain_types.values())
    assert len({t.colour.lower() for t in types}) == len(types)
    assert len({t.symbol for t in types}) == len(types)
    assert m.features[ROAD].colour.lower() not in {t.colour.lower() for t in types}
