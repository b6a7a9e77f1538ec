"""The shipped Dog sector beach, maps/dog-sector.yaml, for the DOG SECTOR rules.

The DOG SECTOR player aid prints no map, so this map is the project's own rendering.
These tests check the structure the procedures lean on: six trench sections that are
bands of columns, room in every section for the German set-up, a landing row in the sea,
rows of obstacles on the beach, bluffs between the beach and the top, and draws that
cut through them. Comments cite the player aid by phase.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise

import pytest
from helpers import col, groups, of, on_map, row

from tabletop.board import load_map
from tabletop.board.model import Map
from tabletop.hexgrid import Hex, neighbors

SECTIONS = [f"section-{i}" for i in range(1, 7)]
TOP = {"trench", "hilltop"}
# How far each kind of ground lies from the sea, for the sea-to-land order of a column.
RANK = {"sea": 0, "beach": 1, "bluff": 2, "draw": 2, "trench": 3, "hilltop": 3}


@pytest.fixture(scope="module")
def m() -> Map:
    return load_map("dog-sector")


def touches(m: Map, h: Hex, kinds: Iterable[str]) -> bool:
    kinds = set(kinds)
    return any(m.terrain[n] in kinds for n in on_map(m, h))


def test_map_is_the_dog_sector_beach_for_the_dog_sector_rules(m: Map) -> None:
    # DOG SECTOR (project's rendering): flat-top hexes, a beach-sized board.
    assert m.rules == "dog_sector"
    assert m.grid.orientation == "flat"
    assert 24 <= m.grid.columns <= 30
    assert 14 <= m.grid.rows <= 18


def test_every_kind_of_ground_the_rules_name_is_on_the_map(m: Map) -> None:
    # DOG SECTOR phases 2-6 name sea, beach, bluff, draw, trench and hilltop hexes.
    present = {m.terrain[h] for h in m.grid.hexes()}
    assert set(RANK) <= present


def test_terrain_colours_are_distinct(m: Map) -> None:
    # Readability: no two kinds of ground may look alike on the board.
    colours = [t.colour.lower() for t in m.terrain_types.values()]
    assert len(colours) == len(set(colours))


def test_each_column_runs_from_sea_through_beach_and_bluffs_to_the_top(m: Map) -> None:
    # DOG SECTOR phases 1-6: units land in the sea and fight up through beach and bluffs
    # to the trenches; down every column the ground never steps back towards the sea.
    for c in range(m.grid.columns):
        ranks = [RANK[m.terrain[m.grid.hex_at(c, r)]] for r in range(m.grid.rows)]
        assert ranks == sorted(ranks), f"column {c + 1} goes back towards the sea"
        assert ranks[0] == RANK["sea"] and ranks[-1] == RANK["trench"]


def test_six_sections_are_bands_of_columns_that_partition_the_map(m: Map) -> None:
    # DOG SECTOR phase 3: a section is a set of hex columns; setup: six trench sections.
    assert sorted(k for k, r in m.regions.items() if r.kind == "section") == SECTIONS
    seen: set[Hex] = set()
    next_column = 0
    for key in SECTIONS:
        hexes = m.regions[key].hexes
        assert not hexes & seen, f"{key} overlaps an earlier section"
        seen |= hexes
        columns = sorted({col(m, h) for h in hexes})
        assert columns[0] == next_column, f"{key} does not start where the last ended"
        assert columns == list(range(columns[0], columns[-1] + 1))
        assert len(hexes) == len(columns) * m.grid.rows, f"{key} misses part of a column"
        next_column = columns[-1] + 1
    assert seen == set(m.grid.hexes())


def test_sections_are_about_equally_wide(m: Map) -> None:
    # DOG SECTOR phase 3: a D6 picks the bombarded section, so none should dwarf another.
    widths = [len({col(m, h) for h in m.regions[k].hexes}) for k in SECTIONS]
    assert max(widths) - min(widths) <= 1


def test_only_neighbouring_sections_share_a_hexside(m: Map) -> None:
    # DOG SECTOR phases 4 and 6: "same or adjacent map section" must follow the order.
    for i, a in enumerate(SECTIONS):
        for j, b in enumerate(SECTIONS):
            if i >= j:
                continue
            ha, hb = m.regions[a].hexes, m.regions[b].hexes
            share = any(n in hb for h in ha for n in neighbors(h))
            assert share == (j == i + 1), f"{a} and {b}"


def test_every_section_holds_trench_and_hilltop_hexes(m: Map) -> None:
    # DOG SECTOR setup and phase 4: each trench section has trenches and hilltop behind.
    for key in SECTIONS:
        kinds = {m.terrain[h] for h in m.regions[key].hexes}
        assert {"trench", "hilltop"} <= kinds, key


def test_every_section_has_a_trench_hex_for_each_german_unit_set_up_there(m: Map) -> None:
    # DOG SECTOR setup: per section 1 infantry + 1 MG pillbox + 1 AT gun, and the 3
    # extra infantry and 3 panzerfaust teams each go to different sections, so one
    # section can hold up to 5 German units, and no trench hex holds more than one.
    most_per_section = 1 + 1 + 1 + 1 + 1
    for key in SECTIONS:
        trenches = [h for h in m.regions[key].hexes if m.terrain[h] == "trench"]
        assert len(trenches) >= most_per_section, f"{key} has {len(trenches)} trench hexes"
    german_units = 6 * 3 + 3 + 3
    assert len(of(m, "trench")) >= german_units


def test_trench_hexes_lie_at_the_top_of_the_bluffs(m: Map) -> None:
    # DOG SECTOR setup: trench sections sit on top of the bluffs, overlooking the beach.
    for h in of(m, "trench"):
        near = {n for a in on_map(m, h) for n in [a, *on_map(m, a)]}
        assert any(m.terrain[n] in {"bluff", "draw"} for n in near), m.label(h)
        assert not touches(m, h, {"sea", "beach"}), m.label(h)


def test_landing_row_is_one_full_row_of_sea(m: Map) -> None:
    # DOG SECTOR phase 1: American units land on the landing row.
    region = m.regions["landing-row"]
    assert region.kind == "landing-row"
    rows = {row(m, h) for h in region.hexes}
    assert len(rows) == 1
    assert len(region.hexes) == m.grid.columns
    assert all(m.terrain[h] == "sea" for h in region.hexes)


def test_units_left_in_the_landing_row_can_be_swamped_but_one_wade_reaches_safety(
    m: Map,
) -> None:
    # DOG SECTOR phase 2: only occupied sea hexes not adjacent to a beach hex are rolled
    # for; phase 5: sea costs 2 AP, so the beach must be near.
    for h in m.regions["landing-row"].hexes:
        assert not touches(m, h, {"beach"}), m.label(h)
        safe = [n for n in on_map(m, h) if m.terrain[n] == "sea" and touches(m, n, {"beach"})]
        assert safe, f"{m.label(h)} is more than one sea hex from the beach"


def test_landing_row_lies_between_open_sea_and_the_beach(m: Map) -> None:
    # DOG SECTOR phase 1: the landing row is the seaward start line, not the open sea edge.
    landing = row(m, next(iter(m.regions["landing-row"].hexes)))
    beach_rows = {row(m, h) for h in of(m, "beach")}
    assert 0 < landing < min(beach_rows)


def test_obstacle_rows_are_full_rows_of_beach_seaward_of_the_bluffs(m: Map) -> None:
    # DOG SECTOR setup, Table 2: obstacles are cleared "in any one row of obstacles".
    keys = sorted(k for k, r in m.regions.items() if r.kind == "obstacle-row")
    assert len(keys) >= 3
    landing = row(m, next(iter(m.regions["landing-row"].hexes)))
    first_bluff = min(row(m, h) for h in of(m, "bluff", "draw"))
    rows = []
    for key in keys:
        hexes = m.regions[key].hexes
        assert len({row(m, h) for h in hexes}) == 1, f"{key} is not one row"
        assert len(hexes) == m.grid.columns, f"{key} does not span the beach"
        assert all(m.terrain[h] == "beach" for h in hexes), key
        r = row(m, next(iter(hexes)))
        assert landing < r < first_bluff, key
        rows.append(r)
    assert len(set(rows)) == len(rows)


def test_neighbouring_obstacles_in_a_row_are_adjacent_hexes(m: Map) -> None:
    # DOG SECTOR setup, Table 2: "no more than 2 adjacent obstacles" cleared per row, and
    # phase 5: a bangalore clears two adjacent obstacles; a row must be a chain of hexes.
    for key, region in m.regions.items():
        if region.kind != "obstacle-row":
            continue
        by_col = sorted(region.hexes, key=lambda h: col(m, h))
        for a, b in pairwise(by_col):
            assert b in neighbors(a), f"{key}: {m.label(a)} and {m.label(b)}"


def test_some_beach_hexes_touch_the_bluffs_and_others_do_not(m: Map) -> None:
    # DOG SECTOR phases 3 and 4: beach hexes adjacent to bluffs are safe from bombardment
    # and trench fire; the others are exposed. Both kinds must exist.
    beach = of(m, "beach")
    by_bluff = {h for h in beach if touches(m, h, {"bluff"})}
    assert by_bluff
    assert beach - by_bluff
    # Every section has beach under its bluffs, so phase 6's rule bites everywhere.
    for key in SECTIONS:
        assert by_bluff & m.regions[key].hexes, key


def test_the_beach_never_touches_the_top_of_the_bluffs(m: Map) -> None:
    # DOG SECTOR phase 5: bluff hexes (2 AP) or draws lie between beach and trenches.
    for h in of(m, "sea", "beach"):
        assert not touches(m, h, TOP), m.label(h)


def test_every_draw_runs_from_the_beach_to_the_top_of_the_bluffs(m: Map) -> None:
    # DOG SECTOR phases 4-6: draw hexes are a way up through the bluffs.
    draws = groups(of(m, "draw"))
    assert len(draws) >= 2
    for group in draws:
        label = m.label(min(group))
        assert any(touches(m, h, {"beach"}) for h in group), f"draw at {label} misses the beach"
        assert any(touches(m, h, TOP) for h in group), f"draw at {label} misses the top"


def test_bluffs_stand_in_every_section(m: Map) -> None:
    # DOG SECTOR phases 4 and 6: bluff hexes and hexes next to them matter in each section.
    for key in SECTIONS:
        assert any(m.terrain[h] == "bluff" for h in m.regions[key].hexes), key


def test_the_sea_is_reached_only_from_the_beach(m: Map) -> None:
    # DOG SECTOR phase 2: a sea hex is next to the beach or not; nothing else borders it.
    for h in of(m, "sea"):
        assert {m.terrain[n] for n in on_map(m, h)} <= {"sea", "beach"}, m.label(h)
