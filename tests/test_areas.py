"""Areas that attacks cover (tabletop.engine.areas): rings, blast bands, splashes, cones,
fire corridors, deviation, who stands in an area, and clipping to a map.

The rule each test stands for is cited in a comment; the engine itself knows no game.
Cones and corridors are also checked against a plain-arithmetic reference (each hex
centre's angle, or its distance along and across the line of fire), so the shapely
construction is tested by something that does not share its code.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

import pytest
from helpers import small_map

from tabletop.engine.areas import (
    EDGE_TOLERANCE,
    adjacent_choice,
    banded,
    blast_rings,
    clip,
    cone,
    corridor,
    deviate,
    friendly_fire_candidates,
    friends_inside,
    pick,
    radius,
    roll,
    splash,
    units_inside,
)
from tabletop.engine.pieces import MapState, Piece
from tabletop.hexgrid import DIRECTIONS, Hex, Layout, distance, hexes_within, rotate

MAP = """
name: areas test ground
grid: {orientation: flat, offset: odd-q, columns: 9, rows: 7}
terrain:
  clear: {symbol: ".", colour: "#9cc46a"}
default_terrain: clear
"""

T = TypeVar("T")

LAYOUTS = [Layout("flat"), Layout("pointy"), Layout("pointy", (12.0, 12.0), (300.0, -40.0))]


def ground(*units: tuple[str, str, str], markers: tuple[tuple[str, str], ...] = ()) -> MapState:
    """The 9x7 test map with units (id, label, side) and markers (id, label) on it."""
    state = MapState.of(small_map(MAP))
    for piece_id, label, side in units:
        state.place(Piece(piece_id, "rifleman", state.board.hex_of(label), side=side))
    for piece_id, label in markers:
        state.place(Piece(piece_id, "smoke", state.board.hex_of(label), kind="marker"))
    return state


class Scripted:
    """Dice that roll the given numbers in order (and fail loudly if rolled once more)."""

    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)
        self.asked: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.asked.append((a, b))
        return self.rolls.pop(0)


class ChoiceOnly:
    """Dice with only ``choice`` (always the last item)."""

    def choice(self, seq: Sequence[T]) -> T:
        return seq[-1]


# --- radius -------------------------------------------------------------------------------


def test_a_radius_has_rings_of_1_6_12_and_18_hexes() -> None:
    # Dog Sector, Friendly Fire: "within 3 hexes" is a radius of rings 0-3 around a hex.
    area = radius(Hex(2, -1), 3)
    assert sorted(Counter(area.values()).items()) == [(0, 1), (1, 6), (2, 12), (3, 18)]
    assert all(distance(Hex(2, -1), h) == ring for h, ring in area.items())


def test_a_radius_of_zero_is_the_hex_alone_and_a_negative_one_is_refused() -> None:
    assert radius(Hex(4, 4), 0) == {Hex(4, 4): 0}
    with pytest.raises(ValueError, match="radius must be a whole number >= 0"):
        radius(Hex(0, 0), -1)


def test_a_radius_is_clipped_to_the_map() -> None:
    # Dog Sector, Friendly Fire: only hexes of the map can be hit.
    board = small_map(MAP)
    corner = board.hex_of("0101")
    area = radius(corner, 2, board=board)
    assert all(board.grid.contains(h) for h in area)
    assert set(area) == {h for h in hexes_within(corner, 2) if board.grid.contains(h)}
    assert len(area) < 19
    assert area[corner] == 0


# --- friendly fire ------------------------------------------------------------------------


def test_friendly_fire_candidates_are_own_side_units_within_the_radius_sorted() -> None:
    # Dog Sector, Friendly Fire: a target within 3 hexes of an American-occupied hex hits
    # that hex instead; several such hexes: one is determined randomly.
    state = ground(
        ("us-1", "0504", "american"),
        ("us-2", "0304", "american"),
        ("us-3", "0502", "american"),
        ("us-far", "0204", "american"),  # 4 hexes from the target
        ("de-1", "0604", "german"),
    )
    target = state.board.hex_of("0604")
    candidates = friendly_fire_candidates(state, target, 3, "american")
    expected = sorted(state.board.hex_of(label) for label in ("0504", "0304", "0502"))
    assert candidates == expected
    assert distance(target, state.board.hex_of("0204")) == 4
    assert friendly_fire_candidates(state, target, 3, "german") == [target]


def test_friendly_fire_candidates_ignore_markers_and_list_a_stacked_hex_once() -> None:
    # Dog Sector, Friendly Fire: an American-*occupied* hex; a marker occupies nothing.
    state = ground(("us-1", "0504", "american"), ("us-2", "0504", "american"), markers=(("smoke", "0505"),))
    target = state.board.hex_of("0604")
    assert friendly_fire_candidates(state, target, 3, "american") == [state.board.hex_of("0504")]


def test_a_seeded_pick_among_friendly_fire_candidates_is_reproducible_and_reaches_each() -> None:
    # Dog Sector, Friendly Fire: "determine the hit hex randomly" among the candidates.
    candidates = [Hex(0, 0), Hex(1, 0), Hex(2, 0)]
    assert [pick(candidates, random.Random(seed)) for seed in range(30)] == [
        pick(candidates, random.Random(seed)) for seed in range(30)
    ]
    assert {pick(candidates, random.Random(seed)) for seed in range(30)} == set(candidates)


def test_pick_rolls_one_die_face_per_candidate() -> None:
    dice = Scripted(2)
    assert pick(["a", "b", "c"], dice) == "b"
    assert dice.asked == [(1, 3)]
    assert pick(["a", "b", "c"], ChoiceOnly()) == "c"


def test_pick_with_one_candidate_does_not_roll_and_with_none_is_refused() -> None:
    # Dog Sector, Friendly Fire: randomly only "if more than one" hex qualifies.
    dice = Scripted()
    assert pick(["only"], dice) == "only"
    assert dice.asked == []
    with pytest.raises(ValueError, match="empty"):
        pick([], dice)


def test_a_scripted_roll_outside_the_die_is_refused() -> None:
    with pytest.raises(ValueError, match="6-sided die rolled 7"):
        roll(Scripted(7), 6)
    with pytest.raises(TypeError, match="randint"):
        roll(object(), 6)  # type: ignore[arg-type]


# --- splash and flame ---------------------------------------------------------------------


def test_a_frag_grenade_splash_is_the_hex_and_its_six_neighbours_friend_or_foe() -> None:
    # Dogfaces II (Ernie): 1 point to the soldier in the target hex and in each
    # surrounding hex (friend or foe).
    state = ground(("foe", "0504", "red"), ("pal", "0505", "blue"), ("ernie", "0303", "blue"))
    target = state.board.hex_of("0504")
    area = splash(target)
    assert area[target] == 0
    assert sorted(area.values()) == [0, 1, 1, 1, 1, 1, 1]
    assert [p.id for p in units_inside(state, area)] == ["foe", "pal"]
    assert [p.id for p in friends_inside(state, area, "blue")] == ["pal"]


def test_a_flamethrower_splashes_one_adjacent_hex_of_the_attackers_choice() -> None:
    # Dogfaces II (Zack): 2 points to the target hex and 1 point of splash in one
    # adjacent hex, which Zack chooses.
    target = Hex(3, 2)
    assert adjacent_choice(target, Hex(3, 3)) == {target: 0, Hex(3, 3): 1}
    with pytest.raises(ValueError, match="not adjacent"):
        adjacent_choice(target, Hex(5, 2))
    with pytest.raises(ValueError, match="not adjacent"):
        adjacent_choice(target, target)


def test_a_flame_splash_chosen_off_the_map_is_refused() -> None:
    board = small_map(MAP)
    with pytest.raises(ValueError, match="not on the map"):
        adjacent_choice(board.hex_of("0101"), board.hex_of("0101") + DIRECTIONS[3], board=board)


# --- blast rings --------------------------------------------------------------------------


def test_blast_rings_give_each_ring_its_band() -> None:
    # Dogs of War, Grenades: a frag grenade's 1-, 2- and 3-inch radii are three bands.
    area = blast_rings(Hex(0, 0), [1, 2, 3])
    assert sorted(Counter(area.values()).items()) == [(0, 7), (1, 12), (2, 18)]
    assert area[Hex(0, 0)] == area[Hex(0, 1)] == 0
    assert area[Hex(2, -1)] == 1
    assert area[Hex(-3, 3)] == 2
    assert Hex(4, 0) not in area


def test_a_blast_ring_can_be_several_hexes_deep() -> None:
    # Dogs of War, C4: a quarter pound kills within 2 inches, wounds out to 4.
    area = blast_rings(Hex(0, 0), [2, 3, 4])
    assert sorted(Counter(area.values()).items()) == [(0, 19), (1, 18), (2, 24)]


@pytest.mark.parametrize("radii", [[], [2, 2], [3, 1], [-1, 2]])
def test_blast_radii_must_grow_outward(radii: list[int]) -> None:
    with pytest.raises(ValueError):
        blast_rings(Hex(0, 0), radii)


def test_banded_regroups_rings_and_drops_what_lies_beyond() -> None:
    rings = radius(Hex(0, 0), 6)
    bands = banded(rings, [2, 5])
    assert {h for h, b in bands.items() if b == 0} == {h for h, d in rings.items() if d <= 2}
    assert {h for h, b in bands.items() if b == 1} == {h for h, d in rings.items() if 3 <= d <= 5}
    assert len(bands) == len(rings) - 36


# --- cones --------------------------------------------------------------------------------


def mirror(v: Hex) -> Hex:
    """``v`` reflected across the line of direction 0 (cube (x, y, z) -> (-z, -y, -x))."""
    return Hex(-v.s, -v.r)


def _screen_angle(layout: Layout, apex: Hex, h: Hex) -> float:
    ax, ay = layout.center(apex)
    x, y = layout.center(h)
    return math.atan2(y - ay, x - ax)


def cone_reference(apex: Hex, facing: int, half: float, reach: int, layout: Layout) -> dict[Hex, int]:
    """Hexes within reach whose centre is within ``half`` degrees of the facing (edge in)."""
    axis = _screen_angle(layout, apex, apex + DIRECTIONS[facing])
    out = {}
    for h in hexes_within(apex, reach):
        if h == apex:
            out[h] = 0
            continue
        off = abs((_screen_angle(layout, apex, h) - axis + math.pi) % (2 * math.pi) - math.pi)
        if math.degrees(off) <= half + 1e-7:
            out[h] = distance(apex, h)
    return out


def test_a_60_degree_cone_of_reach_2_holds_the_hexes_on_its_edges() -> None:
    # Dogs of War, Claymore: a cone-shaped blast. The edges of a 60-degree fan run
    # through the centres of the diagonal hexes; a centre on an edge is inside.
    assert cone(Hex(0, 0), 0, 30, 2) == {
        Hex(0, 0): 0,
        Hex(1, 0): 1,
        Hex(2, -1): 2,
        Hex(2, 0): 2,
        Hex(1, 1): 2,
    }


@pytest.mark.parametrize("layout", LAYOUTS, ids=["flat", "pointy", "pointy-scaled"])
@pytest.mark.parametrize("half", [10, 30, 45, 60, 90, 135])
def test_a_cone_is_the_same_in_all_six_facings_and_mirror_symmetric(layout: Layout, half: float) -> None:
    # Dogs of War, Claymore: the mine may face any way; the blast is the same turned.
    apex = Hex(3, -2)
    base = {h - apex: d for h, d in cone(apex, 0, half, 7, layout).items()}
    assert base == {mirror(v): d for v, d in base.items()}  # symmetric about its axis
    for facing in range(6):
        turned = cone(apex, facing, half, 7, layout)
        assert turned == {rotate(v, facing) + apex: d for v, d in base.items()}


@pytest.mark.parametrize("layout", LAYOUTS, ids=["flat", "pointy", "pointy-scaled"])
@pytest.mark.parametrize(("facing", "half"), [(0, 30), (2, 37.5), (5, 60), (1, 89), (4, 100)])
def test_a_cone_matches_the_angle_of_each_hex_centre(layout: Layout, facing: int, half: float) -> None:
    assert cone(Hex(1, 1), facing, half, 9, layout) == cone_reference(Hex(1, 1), facing, half, 9, layout)


def test_an_overlap_cone_adds_hexes_the_fan_only_partly_covers() -> None:
    centre = cone(Hex(0, 0), 0, 10, 6)
    overlap = cone(Hex(0, 0), 0, 10, 6, inside="overlap")
    assert set(centre) < set(overlap)
    # A 60-degree fan's edges run along hexsides and through centres: nothing is only
    # touched, so both meanings agree.
    assert cone(Hex(0, 0), 0, 30, 6) == cone(Hex(0, 0), 0, 30, 6, inside="overlap")


def test_a_cone_is_clipped_to_the_map() -> None:
    board = small_map(MAP)
    apex = board.hex_of("0804")
    full = cone(apex, 0, 30, 5)
    clipped = cone(apex, 0, 30, 5, board=board)
    assert clipped == {h: d for h, d in full.items() if board.grid.contains(h)}
    assert 0 < len(clipped) < len(full)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((6, 30, 3), "facing_direction"),
        ((0, 0, 3), "half_angle_degrees"),
        ((0, 180, 3), "below 180"),
        ((0, 30, -1), "reach"),
    ],
)
def test_a_cone_refuses_bad_arguments(args: tuple[int, float, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        cone(Hex(0, 0), *args)


def test_a_cone_needs_a_regular_layout() -> None:
    with pytest.raises(ValueError, match="regular layout"):
        cone(Hex(0, 0), 0, 30, 3, Layout("flat", (1.0, 2.0)))


# --- corridors ----------------------------------------------------------------------------


def corridor_reference(
    source: Hex, target: Hex, width: float, beyond: float, layout: Layout
) -> dict[Hex, int]:
    """Hexes whose centre is ahead of the source, within width/2 of the line of fire and
    no farther along it than ``beyond`` past the target (lengths in centre spacings)."""
    spacing = math.sqrt(3) * layout.size[0]
    sx, sy = layout.center(source)
    tx, ty = layout.center(target)
    length = math.hypot(tx - sx, ty - sy)
    ux, uy = (tx - sx) / length, (ty - sy) / length
    tol = 1e-7 * spacing
    out = {}
    for h in hexes_within(source, distance(source, target) + math.ceil(beyond) + math.ceil(width) + 2):
        x, y = layout.center(h)
        along = (x - sx) * ux + (y - sy) * uy
        across = abs(-(x - sx) * uy + (y - sy) * ux)
        if tol < along <= length + beyond * spacing + tol and across <= width / 2 * spacing + tol:
            out[h] = distance(source, h)
    return out


@pytest.mark.parametrize("layout", LAYOUTS[:2], ids=["flat", "pointy"])
def test_a_3_wide_corridor_along_a_hex_row_is_three_rows_to_its_reach(layout: Layout) -> None:
    # Dogs of War, Roll "To Hit" Dice: full auto makes a three-inch wide corridor, an
    # inch and a half each side; rows of hexes beside a line of hexes lie 0.87 inches
    # off it, the next rows 1.73: three rows are in.
    area = corridor(Hex(0, 0), Hex(3, 0), 3, 2, layout=layout)
    on_line = {Hex(q, 0) for q in range(1, 6)}
    beside = {Hex(q, -1) for q in range(1, 6)} | {Hex(q - 1, 1) for q in range(1, 6)}
    assert set(area) == on_line | beside
    assert max(area.values()) == 5  # 2 past the target, no farther
    assert Hex(0, 0) not in area  # not the firer
    assert Hex(6, 0) not in area


@pytest.mark.parametrize("layout", LAYOUTS[:2], ids=["flat", "pointy"])
def test_a_corridor_1_wide_is_the_line_of_hexes_itself(layout: Layout) -> None:
    assert corridor(Hex(0, 0), Hex(0, 4), 1, 3, layout=layout) == {Hex(0, r): r for r in range(1, 8)}


@pytest.mark.parametrize("layout", LAYOUTS, ids=["flat", "pointy", "pointy-scaled"])
@pytest.mark.parametrize("target", [Hex(2, -1), Hex(5, -2), Hex(7, 3), Hex(-4, 9), Hex(1, -6)])
@pytest.mark.parametrize(("width", "beyond"), [(3, 0), (3, 4), (2, 2.5), (1.732, 1)])
def test_a_corridor_matches_each_centres_distance_along_and_across_the_line(
    layout: Layout, target: Hex, width: float, beyond: float
) -> None:
    # Dogs of War, Roll "To Hit" Dice: models in front of or behind the target within
    # the corridor are subject to the fire.
    source = Hex(-1, 2)
    got = corridor(source, target + source, width, beyond, layout=layout)
    assert got == corridor_reference(source, target + source, width, beyond, layout)


def test_a_corridor_turned_with_its_target_turns_with_it() -> None:
    base = corridor(Hex(0, 0), Hex(5, -2), 3, 3)
    for steps in range(6):
        turned = corridor(Hex(0, 0), rotate(Hex(5, -2), steps), 3, 3, layout=Layout("pointy"))
        assert turned == {rotate(h, steps): d for h, d in base.items()}


def test_an_overlap_corridor_holds_every_hex_it_covers_any_part_of() -> None:
    centre = corridor(Hex(0, 0), Hex(4, -1), 3, 2)
    overlap = corridor(Hex(0, 0), Hex(4, -1), 3, 2, inside="overlap")
    assert set(centre) < set(overlap)
    assert Hex(0, 0) not in overlap


def test_a_corridor_is_clipped_to_the_map() -> None:
    board = small_map(MAP)
    source, target = board.hex_of("0104"), board.hex_of("0504")
    full = corridor(source, target, 3, 10)
    clipped = corridor(source, target, 3, 10, board=board)
    assert clipped == {h: d for h, d in full.items() if board.grid.contains(h)}
    assert 0 < len(clipped) < len(full)


def test_a_corridor_refuses_a_target_in_the_firers_hex_and_bad_sizes() -> None:
    with pytest.raises(ValueError, match="no direction"):
        corridor(Hex(1, 1), Hex(1, 1), 3, 2)
    with pytest.raises(ValueError, match="width"):
        corridor(Hex(0, 0), Hex(2, 0), 0, 2)
    with pytest.raises(ValueError, match="beyond"):
        corridor(Hex(0, 0), Hex(2, 0), 3, -1)
    with pytest.raises(ValueError, match="inside"):
        corridor(Hex(0, 0), Hex(2, 0), 3, 1, inside="touch")  # type: ignore[arg-type]


def test_the_edge_tolerance_is_far_below_any_real_gap() -> None:
    # The nearest a centre can come to a fan's or band's edge without lying on it, in
    # these tests' shapes, is orders of magnitude above the tolerance.
    assert EDGE_TOLERANCE < 1e-6


# --- deviation ----------------------------------------------------------------------------


def test_deviation_moves_the_point_along_a_hexside_direction() -> None:
    # Devil Dogs 5.5 (Mortar Fire and Gas Drift): move the marker one space in the
    # compass direction; Dogs of War, Grenades: a direction and a distance in inches.
    assert deviate(Hex(2, 2), 0, 1) == Hex(3, 2)
    assert deviate(Hex(2, 2), 4, 3) == Hex(-1, 5)
    assert deviate(Hex(2, 2), 5, 0) == Hex(2, 2)
    for d in range(6):
        assert distance(deviate(Hex(0, 0), d, 4), Hex(0, 0)) == 4


@pytest.mark.parametrize(("direction", "dist"), [(6, 1), (-1, 1), (0, -2), (True, 1)])
def test_deviation_refuses_a_direction_outside_0_to_5_or_a_negative_distance(
    direction: int, dist: int
) -> None:
    with pytest.raises(ValueError):
        deviate(Hex(0, 0), direction, dist)


# --- who is inside ------------------------------------------------------------------------


def test_units_inside_an_area_list_friends_and_foes_nearest_band_first() -> None:
    # Dogs of War, Grenades: every model in the blast rolls, whoever's it is; the UI
    # warns "this shot may hit your own men" from friends_inside.
    state = ground(
        ("far-friend", "0502", "blue"),
        ("foe", "0504", "red"),
        ("near-friend", "0505", "blue"),
        ("outside", "0904", "blue"),
        markers=(("smoke", "0504"),),
    )
    area = blast_rings(state.board.hex_of("0504"), [1, 2, 3], board=state.board)
    assert [p.id for p in units_inside(state, area)] == ["foe", "near-friend", "far-friend"]
    assert [p.id for p in friends_inside(state, area, "blue")] == ["near-friend", "far-friend"]
    assert friends_inside(state, area, "green") == []


def test_a_fire_corridor_warns_of_a_friend_behind_the_target() -> None:
    # Dogs of War, Roll "To Hit" Dice: models behind the target model are also subject.
    state = ground(("firer", "0104", "blue"), ("foe", "0404", "red"), ("pal", "0604", "blue"))
    board = state.board
    lane = corridor(board.hex_of("0104"), board.hex_of("0404"), 3, 4, board=board)
    assert [p.id for p in friends_inside(state, lane, "blue")] == ["pal"]  # not the firer
    short = corridor(board.hex_of("0104"), board.hex_of("0404"), 3, 1, board=board)
    assert friends_inside(state, short, "blue") == []


def test_clip_without_a_map_keeps_everything() -> None:
    area = {Hex(-50, 0): 0, Hex(0, 0): 1}
    assert clip(area, None) == area
    assert clip(area, small_map(MAP)) == {Hex(0, 0): 1}
