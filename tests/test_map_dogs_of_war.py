"""The shipped Dogs of War skirmish table, maps/dogs-of-war.yaml.

The Dogs of War rule text has no map, so this table is the project's own. These tests
check that it keeps to what the text does say (table size, deployment, the building
types of its Structure Points table, soft and hard cover, rubble) and that the town
hangs together as a place to fight through (every building can be entered, walls sit
on real hexsides). Comments name the rule text's section headings.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

import pytest
from helpers import groups

from tabletop.board import Map, load_map
from tabletop.hexgrid import Hex, distance, hexside, neighbors

# STRUCTURAL DAMAGE: the building types and their Structure Points per level.
STRUCTURE_POINTS_PER_LEVEL = {"wood": 4, "stone": 6, "concrete": 8, "steel": 9}
# COVER MODIFIER: cover is either soft or hard ("none" is the map's word for no cover).
COVER = {"none", "soft", "hard"}
# OBSTACLE EFFECTS lists trees, buildings, wreckage, bunkers, rivers and swamps;
# ACTION POINTS adds rubble; open ground and roads are the rest of the table.
OBSTACLE_KINDS = {"trees", "building", "wreckage", "bunker", "river", "swamp"}
KINDS = OBSTACLE_KINDS | {"rubble", "open", "road"}
BUILDING_KINDS = {"building", "bunker"}
OPEN_KINDS = {"open", "road"}


@pytest.fixture(scope="module")
def m() -> Map:
    return load_map("dogs-of-war")


def props(m: Map, h: Hex) -> dict:
    return dict(m.terrain_types[m.terrain[h]].properties)


def kind(m: Map, h: Hex) -> str:
    return props(m, h).get("kind", "")


def is_building(m: Map, h: Hex) -> bool:
    return kind(m, h) in BUILDING_KINDS


def rows_of(m: Map, hexes: Iterable[Hex]) -> set[int]:
    return {m.grid.offset_of(h)[1] for h in hexes}


def test_the_table_is_four_feet_square_at_one_hex_per_inch(m: Map) -> None:
    # BATTLEFIELD/TERRAIN: a game is usually played on a four foot by four foot area;
    # at one hex to the inch that is 48 x 48 hexes.
    assert m.rules == "dogs_of_war"
    assert (m.grid.columns, m.grid.rows) == (48, 48)
    assert m.grid.orientation == "flat"
    assert len(m.grid.hexes()) == 48 * 48
    assert "1 inch" in m.scale


def test_every_building_type_names_a_type_from_the_structural_damage_table(m: Map) -> None:
    # STRUCTURAL DAMAGE: players decide each structure's type before the game; the
    # table gives Wood, Stone, Concrete and Steel with their Structure Points per level.
    buildings = {k: t for k, t in m.terrain_types.items() if t.properties.get("kind") in BUILDING_KINDS}
    assert buildings, "the town has no buildings"
    for key, t in buildings.items():
        p = t.properties
        assert str(p.get("structure", "")).lower() in STRUCTURE_POINTS_PER_LEVEL, key
        assert p["structure_points_per_level"] == STRUCTURE_POINTS_PER_LEVEL[p["structure"].lower()], key
        assert isinstance(p.get("levels"), int) and p["levels"] >= 1, key
    # nothing that is not a building claims a structure type
    for key, t in m.terrain_types.items():
        if "structure" in t.properties:
            assert key in buildings, key
    used = {
        m.terrain_types[m.terrain[h]].properties["structure"] for h in m.grid.hexes() if is_building(m, h)
    }
    assert len(used) >= 3, f"only {used} on the table"


def test_terrain_uses_the_texts_kinds_and_soft_or_hard_cover(m: Map) -> None:
    # OBSTACLE EFFECTS names the kinds of terrain; COVER MODIFIER says cover is soft or hard.
    for key, t in m.terrain_types.items():
        assert t.properties.get("kind") in KINDS, key
        assert t.properties.get("cover") in COVER, key
    for key, side in m.hexsides.items():
        if "cover" in side.properties:
            assert side.properties["cover"] in COVER, key
    on_table = {kind(m, h) for h in m.grid.hexes()}
    assert on_table >= OBSTACLE_KINDS, f"missing {OBSTACLE_KINDS - on_table}"


def test_building_hexes_stand_as_high_as_their_levels(m: Map) -> None:
    # STRUCTURAL DAMAGE counts a building by its levels; HIGH GROUND and PRONE use height,
    # so a building hex's elevation is its number of levels (the map's convention).
    for h in m.grid.hexes():
        if is_building(m, h):
            assert m.elevation[h] == props(m, h)["levels"], m.label(h)
        assert m.elevation[h] >= 0, m.label(h)
    hill = [h for h in m.grid.hexes() if not is_building(m, h) and m.elevation[h] > 0]
    assert hill, "no high ground outside the buildings"


def test_every_building_touches_open_ground_and_has_a_doorway_onto_it(m: Map) -> None:
    # OBSTACLE EFFECTS: models enter terrain pieces such as a house or bunker;
    # GRENADES: buildings have doors and windows. Each building (a connected group of
    # one building type) must meet open ground and have a doorway out of it.
    doors = m.hexsides["doorway"].sides
    buildings = groups(
        [h for h in m.grid.hexes() if is_building(m, h)], lambda a, b: m.terrain[a] == m.terrain[b]
    )
    assert len(buildings) >= 8
    for b in buildings:
        where = m.label(min(b))
        outside = {n for h in b for n in neighbors(h) if m.grid.contains(n) and n not in b}
        assert any(kind(m, n) in OPEN_KINDS for n in outside), f"building at {where} is sealed off"
        exits = [s for s in doors if (s.a in b) != (s.b in b)]
        assert exits, f"building at {where} has no doorway"


def test_doorways_join_a_building_to_ground_outside_it(m: Map) -> None:
    # GRENADES: a doorway is an opening in a building's wall.
    doors = m.hexsides["doorway"].sides
    assert doors
    for s in doors:
        assert m.grid.contains(s.a) and m.grid.contains(s.b)
        assert distance(s.a, s.b) == 1
        assert is_building(m, s.a) != is_building(m, s.b), f"{m.label(s.a)}/{m.label(s.b)}"


def test_every_doorway_can_be_reached_on_foot_from_both_deployment_zones(m: Map) -> None:
    # ACTION POINTS (Walk): a model walks over ground; here it keeps off buildings,
    # wreckage, the stream and the swamp and does not cross walls or hedges (Climb
    # would allow it, but every yard must also have a gate). SETTING UP THE BATTLEFIELD:
    # each side starts in its deployment zone.
    blocked = BUILDING_KINDS | {"wreckage", "river", "swamp"}
    fences = {"wall", "hedge"}

    def walk(start: frozenset[Hex]) -> set[Hex]:
        seen = {h for h in start if kind(m, h) not in blocked}
        queue = deque(seen)
        while queue:
            h = queue.popleft()
            for n in neighbors(h):
                if n in seen or not m.grid.contains(n) or kind(m, n) in blocked:
                    continue
                if m.hexside_features(h, n) & fences:
                    continue
                seen.add(n)
                queue.append(n)
        return seen

    doorsteps = {s.b if is_building(m, s.a) else s.a for s in m.hexsides["doorway"].sides}
    for zone in ("setup-north", "setup-south"):
        reached = walk(m.regions[zone].hexes)
        missed = sorted(m.label(h) for h in doorsteps - reached)
        assert not missed, f"from {zone} no way on foot to the doorways at {missed}"


def test_walls_and_hedges_stand_on_hexsides_between_adjacent_hexes(m: Map) -> None:
    # COVER MODIFIER: a wall is hard cover, a shrub soft; GRENADES: a target behind a
    # wall. Walls are hexside features; a yard wall separates open ground from open ground.
    walls = m.hexsides["wall"].sides
    hedges = m.hexsides["hedge"].sides
    assert walls and hedges
    assert m.hexsides["wall"].properties.get("cover") == "hard"
    assert m.hexsides["hedge"].properties.get("cover") == "soft"
    for s in walls | hedges:
        assert m.grid.contains(s.a) and m.grid.contains(s.b)
        assert distance(s.a, s.b) == 1
        assert s.a < s.b
        assert hexside(s.b, s.a) == s
    # the map's convention: a yard wall stops where it meets a building's own wall
    for s in walls:
        assert not is_building(m, s.a) and not is_building(m, s.b), f"{m.label(s.a)}/{m.label(s.b)}"
    assert any(kind(m, s.a) == "open" and kind(m, s.b) == "open" for s in walls)


def test_walled_yards_have_gates_but_the_walls_still_bar_the_way(m: Map) -> None:
    # COVER MODIFIER / GRENADES: low walls make yards to fight over; ACTION POINTS
    # (Walk, Climb): crossing one means climbing. No yard may be sealed (every hex
    # beside a wall can be walked to from the north edge through a gate), yet the walls
    # must matter: somewhere a doorway is a longer walk with the walls than without.
    walls = m.hexsides["wall"].sides
    start = m.regions["setup-north"].hexes

    def steps(cross_walls: bool) -> dict[Hex, int]:
        dist = {h: 0 for h in start if not is_building(m, h)}
        queue = deque(dist)
        while queue:
            h = queue.popleft()
            for n in neighbors(h):
                if n in dist or not m.grid.contains(n) or is_building(m, n):
                    continue
                if not cross_walls and "wall" in m.hexside_features(h, n):
                    continue
                dist[n] = dist[h] + 1
                queue.append(n)
        return dist

    walled, free = steps(False), steps(True)
    beside = {h for s in walls for h in (s.a, s.b)}
    sealed = sorted(m.label(h) for h in beside - set(walled))
    assert not sealed, f"walled in with no gate: {sealed}"
    doorsteps = {s.b if is_building(m, s.a) else s.a for s in m.hexsides["doorway"].sides}
    assert any(walled[d] > free[d] for d in doorsteps), "no wall stands in anyone's way"


def test_deployment_zones_lie_on_opposite_edges_no_deeper_than_six_inches(m: Map) -> None:
    # SETTING UP THE BATTLEFIELD: in a standard engagement the players deploy on
    # opposite table edges, no further than 6 inches onto the table.
    north, south = m.regions["setup-north"], m.regions["setup-south"]
    assert north.kind == south.kind == "setup"
    last = m.grid.rows - 1
    assert rows_of(m, north.hexes) == set(range(0, 6))
    assert rows_of(m, south.hexes) == set(range(last - 5, last + 1))
    assert len(north.hexes) == len(south.hexes) == 6 * m.grid.columns
    gap = min(distance(a, b) for a in north.hexes for b in south.hexes)
    assert gap >= m.grid.rows - 2 * 6, gap


def test_deployment_zones_hold_no_buildings(m: Map) -> None:
    # SETTING UP THE BATTLEFIELD: models are placed on the table edge; the map keeps the
    # buildings in the town so neither side starts inside one (project's choice).
    for key in ("setup-north", "setup-south"):
        inside = sorted(m.label(h) for h in m.regions[key].hexes if is_building(m, h))
        assert not inside, f"{key} holds buildings at {inside}"


def test_rubble_lies_where_buildings_have_fallen(m: Map) -> None:
    # ACTION POINTS: Walk in Rubble and Run in Rubble; STRUCTURAL DAMAGE: a destroyed
    # building becomes a pile of rubble, so each rubble heap adjoins what still stands.
    rubble = [h for h in m.grid.hexes() if kind(m, h) == "rubble"]
    assert len(rubble) >= 10
    for h in rubble:
        assert props(m, h).get("movement") == "rubble"
    for heap in groups(rubble, lambda a, b: True):
        assert any(is_building(m, n) for h in heap for n in neighbors(h) if m.grid.contains(n)), (
            f"rubble at {m.label(min(heap))} lies away from any building"
        )


def test_the_stream_runs_from_a_table_edge_into_the_swamp(m: Map) -> None:
    # OBSTACLE EFFECTS: rivers and swamps are terrain; a stream is one unbroken line.
    stream = [h for h in m.grid.hexes() if kind(m, h) == "river"]
    assert stream
    assert len(groups(stream, lambda a, b: True)) == 1
    edge_cols, edge_rows = {0, m.grid.columns - 1}, {0, m.grid.rows - 1}
    assert any(m.grid.offset_of(h)[0] in edge_cols or m.grid.offset_of(h)[1] in edge_rows for h in stream)
    assert any(kind(m, n) == "swamp" for h in stream for n in neighbors(h) if m.grid.contains(n))
