"""The shipped Omaha beach, maps/omaha.yaml, for the D-Day at Omaha Beach rules.

The rules summary prints no map, so this map is the project's own rendering. These
tests check the structure the procedures lean on: landing boxes in the sea pointing at
the beach, the Charlie and Dog beaches and the two sectors, bluff and cliff hexsides
between the low ground and the high ground with draws as the only open way up, exits
A-G on the map edge that every German position can reach, numbered reinforcement
positions, and roads. Comments cite the summary by section number ("omaha 6.1").
"""

from __future__ import annotations

import pytest
from helpers import col, groups, of, on_map, reach, row

from tabletop.board import load_map
from tabletop.board.model import Map
from tabletop.hexgrid import Hex, distance, neighbors

LOW = {"sea", "beach", "pavillon", "rough"}
HIGH = {"high-ground", "bocage", "buildings"}
CLIMB = {"bluff", "scaleable-cliff", "sheer-cliff"}
EXITS = [f"exit-{letter}" for letter in "ABCDEFG"]
# Distance from the sea, for the sea-to-land order of a column.
RANK = {"sea": 0, "beach": 1, "pavillon": 1, "rough": 1, "draw": 2}
RANK.update(dict.fromkeys(HIGH, 3))


@pytest.fixture(scope="module")
def m() -> Map:
    return load_map("omaha")


def of_kind(m: Map, kind: str) -> dict[str, frozenset[Hex]]:
    return {k: r.hexes for k, r in m.regions.items() if r.kind == kind}


def roads(m: Map) -> set[Hex]:
    return set(m.features["major-road"].hexes | m.features["secondary-road"].hexes)


def test_map_is_omaha_beach_for_the_omaha_rules(m: Map) -> None:
    # omaha (project's rendering): flat-top hexes, a whole-beach board.
    assert m.rules == "omaha"
    assert m.grid.orientation == "flat"
    assert 30 <= m.grid.columns <= 40
    assert 12 <= m.grid.rows <= 20


def test_every_kind_of_ground_the_rules_name_is_on_the_map(m: Map) -> None:
    # omaha 2 (beach, pavillon, draw, high ground, bocage, rough), 2 and 9.4 (buildings).
    present = {m.terrain[h] for h in m.grid.hexes()}
    assert set(RANK) <= present


def test_terrain_colours_are_distinct(m: Map) -> None:
    # Readability: no two kinds of ground may look alike on the board.
    colours = [t.colour.lower() for t in m.terrain_types.values()]
    assert len(colours) == len(set(colours))


def test_the_sea_is_at_the_bottom_and_each_column_climbs_inland_towards_the_top(
    m: Map,
) -> None:
    # omaha 1 and 9.2: units come in from the sea and drift left or right along it, so
    # the coast runs across the map; down every column the ground only falls to the sea.
    for c in range(m.grid.columns):
        ranks = [RANK[m.terrain[m.grid.hex_at(c, r)]] for r in range(m.grid.rows)]
        assert ranks == sorted(ranks, reverse=True), f"column {c + 1} rises towards the sea"
        assert ranks[0] == RANK["bocage"] and ranks[-1] == RANK["sea"]


def test_landing_boxes_are_one_full_row_of_sea(m: Map) -> None:
    # omaha 1: units are placed in Beach Landing Boxes and drift left or right of them.
    region = m.regions["landing-boxes"]
    assert region.kind == "landing-row"
    assert len({row(m, h) for h in region.hexes}) == 1
    assert len(region.hexes) == m.grid.columns
    assert all(m.terrain[h] == "sea" for h in region.hexes)


def test_most_landing_boxes_point_at_a_beach_hex_but_not_all(m: Map) -> None:
    # omaha 1: at high tide a unit in a box that does not point toward a beach hex is
    # delayed. A box points at the hex next inland in its column.
    pointed = []
    for h in m.regions["landing-boxes"].hexes:
        c, r = m.grid.offset_of(h)
        pointed.append(m.terrain[m.grid.hex_at(c, r - 1)])
    on_beach = pointed.count("beach")
    assert on_beach >= 0.75 * len(pointed)
    assert on_beach < len(pointed)


def test_beaches_are_bands_of_columns_including_charlie_and_dog(m: Map) -> None:
    # omaha 1 (Charlie Beach Landing Boxes, CH) and 9.2 (DG & CH): which beach a landing
    # box belongs to must be defined for every box.
    beaches = of_kind(m, "beach-sector")
    assert {"beach-charlie", "beach-dog"} <= set(beaches)
    seen: set[Hex] = set()
    for key, hexes in beaches.items():
        assert not hexes & seen, f"{key} overlaps another beach"
        seen |= hexes
        columns = {col(m, h) for h in hexes}
        assert len(hexes) == len(columns) * m.grid.rows, f"{key} misses part of a column"
        assert m.regions["landing-boxes"].hexes & hexes, f"{key} has no landing box"
    assert seen == set(m.grid.hexes())


def test_charlie_lies_at_the_west_end_under_cliffs_next_to_dog(m: Map) -> None:
    # omaha 1: only rangers land at Charlie; 6.1: rangers climb cliffs. Charlie is the
    # end beach, beside Dog, and its high ground faces the sea with cliffs.
    charlie, dog = m.regions["beach-charlie"].hexes, m.regions["beach-dog"].hexes
    columns = {col(m, h) for h in charlie}
    assert min(columns) == 0 or max(columns) == m.grid.columns - 1
    assert any(n in dog for h in charlie for n in neighbors(h))
    cliffs = m.hexsides["scaleable-cliff"].sides | m.hexsides["sheer-cliff"].sides
    assert sum(1 for s in cliffs if s.a in charlie or s.b in charlie) >= 3


def test_the_east_and_west_sectors_split_the_map_and_charlie_and_dog_are_west(
    m: Map,
) -> None:
    # omaha 6 (actions per Sector) and 9.1 (East and West Sector arrivals; the rangers of
    # the West Sector land only at Charlie, omaha 1).
    east, west = m.regions["sector-east"], m.regions["sector-west"]
    assert east.kind == west.kind == "sector"
    assert not east.hexes & west.hexes
    assert east.hexes | west.hexes == set(m.grid.hexes())
    assert m.regions["beach-charlie"].hexes <= west.hexes
    assert m.regions["beach-dog"].hexes <= west.hexes
    # Both sectors have a stretch of beach to land on.
    boxes = m.regions["landing-boxes"].hexes
    assert len(boxes & east.hexes) >= 5 and len(boxes & west.hexes) >= 5


def test_exits_a_to_g_are_land_hexes_on_the_map_edge(m: Map) -> None:
    # omaha 2: German units are in communication if they can trace a path to an exit
    # hex (A-G).
    assert sorted(k for k, r in m.regions.items() if r.kind == "exit") == EXITS
    last_col, last_row = m.grid.columns - 1, m.grid.rows - 1
    for key in EXITS:
        hexes = m.regions[key].hexes
        assert hexes, key
        for h in hexes:
            c, r = m.grid.offset_of(h)
            assert c in (0, last_col) or r in (0, last_row), f"{key} is not on the edge"
            assert m.terrain[h] in HIGH | {"draw"}, f"{key} is not inland"


def test_every_german_position_can_trace_communication_to_an_exit(m: Map) -> None:
    # omaha 2: the path to an exit is blocked by rough, beach, and pavillon adjacent to
    # the beach (and by US control, absent at the start).
    exits = set().union(*(m.regions[k].hexes for k in EXITS))

    def open_ground(h: Hex) -> bool:
        t = m.terrain[h]
        if t in {"sea", "beach", "rough"}:
            return False
        return not (t == "pavillon" and any(m.terrain[n] == "beach" for n in on_map(m, h)))

    positions = of_kind(m, "german-position") | of_kind(m, "reinforcement-position")
    assert positions
    for key, hexes in positions.items():
        reached = reach(m, hexes, lambda h, n: open_ground(n))
        assert reached & exits, f"{key} is cut off from every exit"


def test_german_positions_hold_one_or_two_adjacent_hexes_near_the_beach(m: Map) -> None:
    # omaha 4: WN positions of 2 hexes count as 1 position; 3 (mortar) and 6.2 (ranged
    # fire into the beach): the positions overlook the beach.
    positions = of_kind(m, "german-position")
    assert len(positions) >= 8
    beach = of(m, "beach")
    taken: set[Hex] = set()
    for key, hexes in positions.items():
        assert 1 <= len(hexes) <= 2, key
        if len(hexes) == 2:
            a, b = sorted(hexes)
            assert b in neighbors(a), f"{key}: its two hexes are not adjacent"
        assert not hexes & taken, f"{key} overlaps another position"
        taken |= hexes
        assert not any(m.terrain[h] == "sea" for h in hexes), key
        near = min(distance(h, b) for h in hexes for b in beach)
        assert near <= 3, f"{key} is {near} hexes from the beach"
    # Every draw mouth is watched: each draw has a German position next to it.
    for group in groups(of(m, "draw")):
        assert any(n in taken for h in group for n in on_map(m, h)), m.label(min(group))


def test_reinforcement_positions_are_numbered_from_one_and_lie_inland(m: Map) -> None:
    # omaha 2: reinforcements go to the lowest-numbered empty position; those in
    # buildings draw on the Building Depth pool, the others on the Mobile pool.
    positions = of_kind(m, "reinforcement-position")
    numbers = sorted(int(k.rsplit("-", 1)[1]) for k in positions)
    assert numbers == list(range(1, len(numbers) + 1))
    assert len(numbers) >= 4
    kinds = set()
    for key, hexes in positions.items():
        assert all(m.terrain[h] in HIGH for h in hexes), key
        kinds |= {m.terrain[h] == "buildings" for h in hexes}
    assert kinds == {True, False}


def test_bluff_and_cliff_hexsides_separate_the_low_ground_from_the_high_ground(
    m: Map,
) -> None:
    # omaha 6.1 and 9.4: bluff, scaleable cliff and sheer cliff are hexsides climbed
    # from the beach side up to the high ground; 9.6: "bluff up" and "bluff down".
    for key in CLIMB:
        sides = m.hexsides[key].sides
        assert sides, key
        for s in sides:
            pair = {m.terrain[s.a], m.terrain[s.b]}
            assert pair & LOW and pair & HIGH, f"{key} on {m.label(s.a)}/{m.label(s.b)}"
    # ... and no low hex meets a high one without a climb between them.
    for h in of(m, *LOW):
        for n in on_map(m, h):
            if m.terrain[n] in HIGH:
                assert m.hexside_features(h, n) & CLIMB, f"{m.label(h)}/{m.label(n)}"


def test_the_only_way_up_without_climbing_is_through_a_draw(m: Map) -> None:
    # omaha 6.1: crossing a bluff or cliff hexside needs a climb marker; draws are the
    # ways up for everything else.
    beach = of(m, "beach")

    def walk(through_draws: bool) -> set[Hex]:
        def step(h: Hex, n: Hex) -> bool:
            if m.terrain[n] == "sea" or m.hexside_features(h, n) & CLIMB:
                return False
            return through_draws or m.terrain[n] != "draw"

        return reach(m, beach, step)

    assert not walk(through_draws=False) & of(m, *HIGH)
    assert of(m, *HIGH) <= walk(through_draws=True)


def test_every_draw_opens_onto_the_beach_and_the_high_ground_and_carries_a_road(
    m: Map,
) -> None:
    # omaha 7 (road clearing in draws) and 9.4 (draws cost nothing; slopes are crossed
    # by vehicles only via roads): a draw is a road cut from the beach to the top.
    draws = groups(of(m, "draw"))
    assert len(draws) >= 4
    road = roads(m)
    blocked = CLIMB | {"slope"}
    for group in draws:
        label = m.label(min(group))
        bottom = [(h, n) for h in group for n in on_map(m, h) if m.terrain[n] in LOW - {"sea"}]
        top = [(h, n) for h in group for n in on_map(m, h) if m.terrain[n] in HIGH]
        assert any(not m.hexside_features(h, n) & blocked for h, n in bottom), label
        assert any(not m.hexside_features(h, n) & blocked for h, n in top), label
        assert group & road, f"draw at {label} has no road"


def test_slopes_line_the_flanks_of_the_draws(m: Map) -> None:
    # omaha 6.2 and 9.6: slope hexsides (defence x2); here the sides of the draws.
    sides = m.hexsides["slope"].sides
    assert sides
    for s in sides:
        pair = {m.terrain[s.a], m.terrain[s.b]}
        assert "draw" in pair and pair & HIGH, f"slope on {m.label(s.a)}/{m.label(s.b)}"


def test_shingle_and_seawall_lie_at_the_top_of_the_beach(m: Map) -> None:
    # omaha 7 (shingle lanes) and 9.4/9.6 (shingle, seawall): protecting hexsides
    # between the open beach and the strip behind it; the pavillon is behind the seawall.
    for key in ("shingle", "seawall"):
        sides = m.hexsides[key].sides
        assert sides, key
        for s in sides:
            pair = [m.terrain[s.a], m.terrain[s.b]]
            assert "beach" in pair and set(pair) <= {"beach", "pavillon", "rough"}, key
            lower = max(s.a, s.b, key=lambda h: row(m, h))
            assert m.terrain[lower] == "beach", f"{key} faces the wrong way"
    for h in of(m, "pavillon"):
        for n in on_map(m, h):
            if m.terrain[n] == "beach" and row(m, n) > row(m, h):
                assert "seawall" in m.hexside_features(h, n), m.label(h)


def test_pavillon_lies_between_the_beach_and_the_high_ground(m: Map) -> None:
    # omaha 2 and 3: pavillon hexes adjacent to the beach; high ground above controls them.
    pavillon = of(m, "pavillon")
    assert len(pavillon) >= 5
    for h in pavillon:
        kinds = {m.terrain[n] for n in on_map(m, h)}
        assert "beach" in kinds, m.label(h)
        assert kinds & (HIGH | {"draw"}), m.label(h)


def test_roads_form_one_network_that_reaches_every_exit(m: Map) -> None:
    # omaha 6.1: tanks move along secondary and major roads; 2: exits A-G.
    assert m.features["major-road"].hexes and m.features["secondary-road"].hexes
    road = roads(m)
    assert len(groups(road)) == 1
    for key in EXITS:
        assert m.regions[key].hexes <= road, f"{key} is not on a road"
    assert not any(m.terrain[h] in {"sea", "beach", "rough"} for h in road)
