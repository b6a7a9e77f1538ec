"""The shipped Belleau Wood map, maps/belleau-wood.yaml, for the DEVIL DOGS rules.

The DEVIL DOGS rule text prints no map, so this map is the project's own rendering.
These tests check the structure the rules lean on: sectors A-F that each run from one
side's map edge to the other's and share only their bisected border hexes, a German
edge and an Allied edge on opposite sides of the map, the kinds of hex the line-of-sight
and damage rules name (woods, urban, slope, open), contour lines that follow changes of
level, and a rail line. Comments cite the rule text by section.
"""

from __future__ import annotations

import re
from itertools import combinations, pairwise

import pytest
from helpers import col, groups, of, on_map, row

from tabletop.board import load_map
from tabletop.board.model import Map
from tabletop.hexgrid import Hex, hexside, neighbors

SECTORS = [f"sector-{letter}" for letter in "ABCDEF"]
OPEN = {"open", "wheat", "slope"}
COVER = {"woods", "urban"}


@pytest.fixture(scope="module")
def m() -> Map:
    return load_map("belleau-wood")


def test_the_map_is_belleau_wood_for_the_devil_dogs_rules_on_flat_top_hexes(m: Map) -> None:
    # Devil Dogs 3: one map of the battlefield at about 180 m a hex; company units
    # (1.1) need room for a few kilometres each way.
    assert m.name == "Belleau Wood"
    assert m.rules == "devil_dogs"
    assert m.grid.orientation == "flat"
    assert 25 <= m.grid.columns <= 40
    assert 18 <= m.grid.rows <= 30
    assert "180" in m.scale


def test_the_file_says_it_is_the_projects_own_rendering(m: Map) -> None:
    # Design notes: where a rule text has no map, the map says it is the project's own.
    assert m.path is not None
    head = m.path.read_text(encoding="utf-8").split("\nname:")[0]
    assert re.search(r"project's own rendering", head, re.IGNORECASE)
    assert "own rendering" in m.notes


def test_sectors_a_to_f_are_the_six_sector_regions(m: Map) -> None:
    # Devil Dogs 1.2 SECTOR: sections of the map labelled A-F.
    sectors = sorted(k for k, r in m.regions.items() if r.kind == "sector")
    assert sectors == SECTORS
    for key in SECTORS:
        assert m.regions[key].name == f"Sector {key[-1]}"


def test_every_hex_is_in_one_sector_or_on_the_border_of_two(m: Map) -> None:
    # Devil Dogs 5.2-5.10: every unit on the battlefield obeys the orders of a sector;
    # 5.8 and 6: a hex bisected by a sector border obeys both sectors, never more.
    for h in m.grid.hexes():
        count = sum(h in m.regions[s].hexes for s in SECTORS)
        assert 1 <= count <= 2, (m.label(h), count)


def test_only_neighbouring_sectors_share_hexes_and_only_one_bisected_column(m: Map) -> None:
    # Devil Dogs 5.8 and 6: a border bisects one line of hexes between two sectors.
    for (i, a), (j, b) in combinations(enumerate(SECTORS), 2):
        shared = m.regions[a].hexes & m.regions[b].hexes
        if j == i + 1:
            assert shared, (a, b)
            assert len({col(m, h) for h in shared}) == 1, (a, b)
            assert len(shared) == m.grid.rows, (a, b)
        else:
            assert not shared, (a, b)


def test_sectors_lie_west_to_east_in_letter_order_as_strips_of_columns(m: Map) -> None:
    # Devil Dogs 3: the Allies attack north, the Germans south, so the front runs west
    # to east and each sector is a slice of it.
    spans = []
    for key in SECTORS:
        hexes = m.regions[key].hexes
        cols = {col(m, h) for h in hexes}
        assert cols == set(range(min(cols), max(cols) + 1)), key
        assert len(hexes) == len(cols) * m.grid.rows, key  # whole columns
        assert len(cols) >= 4, key
        spans.append((min(cols), max(cols)))
    assert spans[0][0] == 0
    assert spans[-1][1] == m.grid.columns - 1
    for (_, east), (west, _) in pairwise(spans):
        assert west == east  # the shared, bisected column


def test_the_german_edge_is_the_north_edge_and_the_allied_edge_the_south_edge(m: Map) -> None:
    # Devil Dogs 3: Germans advance south and retreat north; Allies advance north and
    # retreat south. 5.8 ADV/RET and 6 measure moves against these edges.
    german = m.regions["edge-german"]
    allied = m.regions["edge-allied"]
    assert german.kind == allied.kind == "edge"
    assert {row(m, h) for h in german.hexes} == {0}
    assert {row(m, h) for h in allied.hexes} == {m.grid.rows - 1}
    assert {col(m, h) for h in german.hexes} == set(range(m.grid.columns))
    assert {col(m, h) for h in allied.hexes} == set(range(m.grid.columns))


def test_every_sector_reaches_both_sides_map_edges(m: Map) -> None:
    # Devil Dogs 5.8 ADV/RET: units in any sector must be able to move nearer the enemy
    # edge or further from it, and both sides fight in every sector (5.3.2).
    for key in SECTORS:
        hexes = m.regions[key].hexes
        assert hexes & m.regions["edge-german"].hexes, key
        assert hexes & m.regions["edge-allied"].hexes, key


def test_woods_urban_slope_and_open_hexes_all_appear(m: Map) -> None:
    # Devil Dogs 1.2 (WOODS, URBAN, SLOPE and OPEN HEX), 7.1 and 8.2 name these kinds.
    counts = {k: len(of(m, k)) for k in m.terrain_types}
    assert set(counts) == {"open", "wheat", "woods", "urban", "slope"}
    assert counts["woods"] >= 60
    assert counts["urban"] >= 10
    assert counts["slope"] >= 15
    assert counts["wheat"] >= 100


def test_belleau_wood_is_one_large_wood_in_the_middle_of_the_map(m: Map) -> None:
    # Devil Dogs 1: the battle is for the wood itself; 7.1: woods block LOS.
    wood = max(groups(of(m, "woods")), key=len)
    assert len(wood) >= 50
    cols = {col(m, h) for h in wood}
    rows = {row(m, h) for h in wood}
    assert max(rows) - min(rows) >= 10  # longer north-south than a sector is wide
    middle = m.grid.columns / 2
    assert min(cols) < middle < max(cols)
    # the wood is fought over by several sectors, not hidden inside one
    assert sum(bool(wood & m.regions[s].hexes) for s in SECTORS) >= 2


def test_the_wood_is_approached_across_open_wheat_fields(m: Map) -> None:
    # Devil Dogs 1: the Marines were cut down crossing the wheat before the wood;
    # 1.2 and 8.2: wheat is open ground.
    wood = max(groups(of(m, "woods")), key=len)
    wheat = of(m, "wheat")
    fringe = {n for h in wood for n in on_map(m, h)} - wood
    assert len(fringe & wheat) >= 10
    assert max(len(g) for g in groups(wheat)) >= 40


def test_villages_are_several_separate_urban_clusters(m: Map) -> None:
    # Devil Dogs 1.2 URBAN HEX; 3: the wood and the surrounding objectives.
    villages = groups(of(m, "urban"))
    assert len(villages) >= 5
    assert all(len(v) <= 6 for v in villages)
    # villages on both sides of the front
    rows = [sum(row(m, h) for h in v) / len(v) for v in villages]
    assert min(rows) < m.grid.rows / 3
    assert max(rows) > m.grid.rows * 2 / 3


def test_every_slope_hex_lies_above_a_lower_neighbour(m: Map) -> None:
    # Devil Dogs 1.2 SLOPE HEX: its hash-marks show where the ground falls to the
    # adjacent hex; 7.1 slope LOS.
    for h in of(m, "slope"):
        assert any(m.elevation[n] < m.elevation[h] for n in on_map(m, h)), m.label(h)


def test_contour_lines_lie_exactly_where_the_level_changes(m: Map) -> None:
    # Devil Dogs 1.2 CONTOUR LINES show the rise and fall of the land.
    contour = m.hexsides["contour"].sides
    changes = {
        hexside(h, n) for h in m.grid.hexes() for n in on_map(m, h) if m.elevation[h] != m.elevation[n]
    }
    assert contour == changes
    assert len(contour) >= 50


def test_contour_lines_are_not_terrain_that_could_block_line_of_sight(m: Map) -> None:
    # Devil Dogs 7.1: contour lines never interfere with LOS, so they are hexside lines
    # only; no hex kind of their own.
    assert "contour" not in m.terrain_types
    assert set(m.hexsides) == {"contour"}
    assert {f for side in m.hexsides["contour"].sides for f in m.hexside_features(*side)} == {"contour"}


def test_the_ground_rises_in_steps_of_one_level(m: Map) -> None:
    # Devil Dogs 1.2: contour lines mark minor rises, so no cliff of two levels at once.
    levels = set(m.elevation.values())
    assert {0, 1, 2} <= levels
    for h in m.grid.hexes():
        for n in on_map(m, h):
            assert abs(m.elevation[h] - m.elevation[n]) <= 1, (m.label(h), m.label(n))


def test_the_rail_line_is_one_unbranched_line_between_two_map_edges(m: Map) -> None:
    # Devil Dogs 8.1 and 8.2: rail hexes are defensive hexes.
    rail = set(m.features["rail"].hexes)
    assert len(groups(rail)) == 1
    degree = {h: sum(n in rail for n in neighbors(h)) for h in rail}
    ends = [h for h, d in degree.items() if d == 1]
    assert len(ends) == 2
    assert all(d <= 2 for d in degree.values())

    def on_edge(h: Hex) -> bool:
        c, r = m.grid.offset_of(h)
        return c in (0, m.grid.columns - 1) or r in (0, m.grid.rows - 1)

    assert all(on_edge(h) for h in ends)
    assert len(rail) >= m.grid.rows // 2


def test_every_sector_holds_both_cover_and_open_ground(m: Map) -> None:
    # Devil Dogs 7.1 and 8.2: target priority and damage depend on open versus woods or
    # urban hexes, so each sector gives both choices.
    for key in SECTORS:
        kinds = {m.terrain[h] for h in m.regions[key].hexes}
        assert kinds & COVER, key
        assert kinds & OPEN, key


def test_terrain_colours_and_symbols_are_distinct(m: Map) -> None:
    # maps/FORMAT.md (symbols unique) and readability: each kind of hex can be told
    # apart on screen and in the rows text.
    types = list(m.terrain_types.values())
    assert len({t.colour.lower() for t in types}) == len(types)
    assert len({t.symbol for t in types}) == len(types)
    assert m.features["rail"].colour.lower() not in {t.colour.lower() for t in types}
