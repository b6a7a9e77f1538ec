"""Exact segment traversal against an exact shapely reference, and its properties.

The reference: the hexes drawn by ``Layout`` (flat and pointy), mapped into an integer
frame where every corner has integer coordinates, then asked of GEOS, whose predicates
are exact on integer input. A hex is *crossed* when the segment meets its interior and
*grazed* when it meets only its boundary (DESIGN.md, "Geometry facts").
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
import shapely
from hypothesis import given
from hypothesis import strategies as st

from tabletop.hexgrid import (
    Hex,
    Layout,
    distance,
    hexes_within,
    neighbor,
    reflect_q,
    relative_traversal,
    rotate,
    traverse,
)

RANGE = 20
S3 = math.sqrt(3)
ORIENTATIONS = ["flat", "pointy"]
coord = st.integers(-30, 30)
hexes = st.builds(Hex, coord, coord)


def integer_frame(orientation: str, x: float, y: float) -> tuple[int, int]:
    """The affine map that puts every centre and corner of this orientation on integers."""
    fx, fy = (2 * x, 2 * y / S3) if orientation == "flat" else (2 * x / S3, 2 * y)
    ix, iy = round(fx), round(fy)
    assert abs(fx - ix) < 1e-6 and abs(fy - iy) < 1e-6
    return ix, iy


@cache
def reference_board(orientation: str) -> tuple[list[Hex], np.ndarray, shapely.STRtree]:
    layout = Layout(orientation)  # type: ignore[arg-type]
    cells = list(hexes_within(Hex(0, 0), RANGE + 1))
    rings = [[integer_frame(orientation, *c) for c in layout.corners(h)] for h in cells]
    polygons = shapely.polygons(np.array(rings, dtype=float))
    return cells, polygons, shapely.STRtree(polygons)


def reference(orientation: str, v: Hex) -> tuple[set[Hex], set[Hex]]:
    cells, polygons, tree = reference_board(orientation)
    layout = Layout(orientation)  # type: ignore[arg-type]
    line = shapely.LineString(
        [integer_frame(orientation, *layout.center(Hex(0, 0))), integer_frame(orientation, *layout.center(v))]
    )
    met = tree.query(line, predicate="intersects")
    inside = shapely.relate_pattern(polygons[met], line, "T********")
    crossed = {cells[i] for i, hit in zip(met, inside, strict=True) if hit}
    grazed = {cells[i] for i, hit in zip(met, inside, strict=True) if not hit}
    return crossed, grazed


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_every_vector_up_to_range_20_matches_the_exact_reference(orientation: str) -> None:
    mismatches = []
    vectors = [v for v in hexes_within(Hex(0, 0), RANGE) if v != Hex(0, 0)]
    for v in vectors:
        t = relative_traversal(*v)
        crossed, grazed = reference(orientation, v)
        if set(t.crossed) != crossed or {g.hex for g in t.grazed} != grazed:
            mismatches.append(v)
    assert len(vectors) == 1260
    assert mismatches == []


def test_grazing_is_common_enough_that_the_reference_really_tests_it() -> None:
    # Measured: 324 of the 1260 vectors within range 20 graze (60 along a hexside,
    # 264 through a corner), so the reference comparison exercises both kinds.
    vectors = [v for v in hexes_within(Hex(0, 0), RANGE) if v != Hex(0, 0)]
    sides = [v for v in vectors if any(g.side is not None for g in relative_traversal(*v).grazed)]
    corners = [v for v in vectors if any(g.corner is not None for g in relative_traversal(*v).grazed)]
    assert (len(sides), len(corners)) == (60, 264)


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_each_graze_names_the_hexside_or_corner_it_touches(orientation: str) -> None:
    cells, polygons, _ = reference_board(orientation)
    index = {h: i for i, h in enumerate(cells)}
    layout = Layout(orientation)  # type: ignore[arg-type]
    checked = 0
    for v in hexes_within(Hex(0, 0), 12):
        line = shapely.LineString(
            [
                integer_frame(orientation, *layout.center(Hex(0, 0))),
                integer_frame(orientation, *layout.center(v)),
            ]
        )
        for g in relative_traversal(*v).grazed:
            touch = shapely.intersection(polygons[index[g.hex]], line)
            assert (g.side is None) != (g.corner is None)
            if g.side is not None:
                # along a hexside: the touch is the whole edge shared with that neighbour
                edge = shapely.intersection(
                    polygons[index[g.hex]].boundary, polygons[index[neighbor(g.hex, g.side)]].boundary
                )
                assert shapely.equals(shapely.line_merge(edge), touch)
            else:
                # through a corner: the point shared with neighbours across sides k and k+1
                assert g.corner is not None
                a, b = neighbor(g.hex, g.corner), neighbor(g.hex, g.corner + 1)
                point = shapely.intersection_all(
                    [polygons[index[g.hex]], polygons[index[a]], polygons[index[b]]]
                )
                assert shapely.equals(point, touch)
            checked += 1
    assert checked > 50


def test_a_line_along_a_hexside_grazes_both_hexes_and_crosses_neither() -> None:
    t = traverse(Hex(0, 0), Hex(2, -1))
    assert t.crossed == (Hex(0, 0), Hex(2, -1))
    assert {(g.hex, g.side) for g in t.grazed} == {(Hex(1, -1), 5), (Hex(1, 0), 2)}
    assert all(
        t.position(g.start) == pytest.approx(1 / 3) and t.position(g.end) == pytest.approx(2 / 3)
        for g in t.grazed
    )


def test_a_line_through_a_corner_grazes_the_third_hex_at_that_corner() -> None:
    # (0,0) -> (-4,5) passes exactly through two corners, at 1/3 and 2/3 of the way:
    # it goes from (-1,1) into (-2,2) through the corner they share with (-1,2).
    t = traverse(Hex(0, 0), Hex(-4, 5))
    assert t.crossed == (Hex(0, 0), Hex(-1, 1), Hex(-2, 2), Hex(-2, 3), Hex(-3, 4), Hex(-4, 5))
    assert [(g.hex, g.corner, t.position(g.start)) for g in t.grazed] == [
        (Hex(-1, 2), 2, Fraction(1, 3)),
        (Hex(-3, 3), 5, Fraction(2, 3)),
    ]
    assert all(g.start == g.end and g.side is None for g in t.grazed)


def test_straight_lines_along_a_direction_cross_only_the_hexes_on_the_line() -> None:
    for d in range(6):
        end = rotate(Hex(7, 0), d)
        t = traverse(Hex(0, 0), end)
        assert t.crossed == tuple(rotate(Hex(k, 0), d) for k in range(8))
        assert t.grazed == ()


@given(hexes, hexes)
def test_traversal_is_symmetric(a: Hex, b: Hex) -> None:
    forward, backward = traverse(a, b), traverse(b, a)
    assert forward.crossed == tuple(reversed(backward.crossed))
    assert {g.hex for g in forward.grazed} == {g.hex for g in backward.grazed}
    d = forward.denominator
    assert [(s, e) for s, e in forward.spans] == [(d - e, d - s) for s, e in reversed(backward.spans)]


@given(hexes, hexes)
def test_crossed_hexes_run_in_order_and_gaps_are_bridged_by_grazed_hexes(a: Hex, b: Hex) -> None:
    t = traverse(a, b)
    assert t.crossed[0] == a and t.crossed[-1] == b
    gaps = sum(distance(h, n) == 2 for h, n in zip(t.crossed, t.crossed[1:], strict=False))
    assert len(t.crossed) + gaps >= distance(a, b) + 1
    assert [s for s, _ in t.spans] == sorted(s for s, _ in t.spans)
    grazed = {g.hex for g in t.grazed}
    assert not grazed & set(t.crossed)
    for (h, (_, leave)), (nxt, (enter, _)) in zip(
        zip(t.crossed, t.spans, strict=True), zip(t.crossed[1:], t.spans[1:], strict=True), strict=False
    ):
        if distance(h, nxt) == 1:
            assert leave == enter  # leaves one hex exactly where it enters the next
        else:
            # The only gap: the line runs along a hexside between two grazed hexes.
            assert distance(h, nxt) == 2
            between = {g.hex for g in t.grazed if g.side is not None and g.start == leave and g.end == enter}
            assert len(between) == 2
            assert all(distance(h, g) == 1 == distance(g, nxt) for g in between)


@given(hexes, st.integers(0, 5), st.booleans())
def test_traversal_commutes_with_the_grids_symmetries(v: Hex, steps: int, mirrored: bool) -> None:
    def image(h: Hex) -> Hex:
        w = rotate(h, steps)
        return reflect_q(w) if mirrored else w

    base = relative_traversal(*v)
    moved = relative_traversal(*image(v))
    assert moved.crossed == tuple(image(h) for h in base.crossed)
    assert {g.hex for g in moved.grazed} == {image(g.hex) for g in base.grazed}


def test_crossed_set_depends_only_on_the_vector() -> None:
    v = Hex(5, -2)
    for start in (Hex(0, 0), Hex(3, 7), Hex(-10, 4)):
        t = traverse(start, start + v)
        assert tuple(h - start for h in t.crossed) == relative_traversal(*v).crossed


def test_the_zero_vector_is_the_hex_itself() -> None:
    t = traverse(Hex(4, 4), Hex(4, 4))
    assert t.crossed == (Hex(4, 4),) and t.grazed == ()
