"""Axial coordinates against Red Blob Games' hex grid guide and as a metric space."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.hexgrid import (
    DIAGONALS,
    DIRECTIONS,
    Hex,
    Layout,
    direction_to,
    distance,
    hexes_within,
    hexside,
    neighbor,
    neighbors,
    reflect_q,
    reflect_r,
    reflect_s,
    ring,
    rotate,
    rotate_left,
    rotate_right,
    spiral,
)

coord = st.integers(-60, 60)
hexes = st.builds(Hex, coord, coord)


def test_cube_coordinates_sum_to_zero() -> None:
    # Red Blob Games, "Cube coordinates": q + r + s = 0
    for h in hexes_within(Hex(2, -5), 3):
        assert h.q + h.r + h.s == 0


def test_distance_matches_red_blob_examples() -> None:
    # Red Blob Games, "Distances": the larger of |dq|, |dr|, |ds|
    assert distance(Hex(0, 0), Hex(3, -3)) == 3
    assert distance(Hex(0, 0), Hex(-2, 3)) == 3
    assert distance(Hex(1, -2), Hex(-2, 2)) == 4
    assert distance(Hex(0, 0), Hex(0, 0)) == 0


def test_directions_are_red_blobs_order_and_diagonals_sit_between() -> None:
    assert (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1)) == DIRECTIONS
    for i, d in enumerate(DIAGONALS):
        assert d == DIRECTIONS[i] + DIRECTIONS[(i + 1) % 6]
        assert distance(Hex(0, 0), d) == 2


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes)
def test_neighbours_are_at_distance_one_and_know_their_direction(h: Hex) -> None:
    ns = neighbors(h)
    assert len(set(ns)) == 6
    for i, n in enumerate(ns):
        assert distance(h, n) == 1
        assert n == neighbor(h, i)
        assert direction_to(h, n) == i
        assert hexside(h, n) == hexside(n, h)
    assert direction_to(h, h) is None


def test_ring_starts_where_red_blob_starts_and_walks_neighbours() -> None:
    # Red Blob Games, "Rings": start at center + direction 4 * radius
    center = Hex(2, -1)
    for radius in range(1, 6):
        r = ring(center, radius)
        assert r[0] == center + DIRECTIONS[4].scale(radius)
        assert len(r) == len(set(r)) == 6 * radius
        assert all(distance(center, h) == radius for h in r)
        assert all(distance(r[i], r[(i + 1) % len(r)]) == 1 for i in range(len(r)))
    assert ring(center, 0) == [center]
    assert set(ring(center, 1)) == set(neighbors(center))


def test_spiral_covers_the_hexagon_of_hexes_in_ring_order() -> None:
    # Red Blob Games, "Range": 3 N (N + 1) + 1 hexes within N
    for radius in range(6):
        s = spiral(Hex(0, 0), radius)
        assert len(s) == len(set(s)) == 3 * radius * (radius + 1) + 1
        assert set(s) == set(hexes_within(Hex(0, 0), radius))
        assert [distance(Hex(0, 0), h) for h in s] == sorted(distance(Hex(0, 0), h) for h in s)


def test_negative_radius_is_refused_with_the_value() -> None:
    with pytest.raises(ValueError, match="-1"):
        ring(Hex(0, 0), -1)


def test_rotation_matches_red_blob_cube_rule() -> None:
    # Red Blob Games, "Rotation": right 60 deg is [q, r, s] -> [-r, -s, -q]
    v = Hex(2, -3)
    assert rotate_right(v) == Hex(-v.r, -v.s)
    assert rotate_left(v) == Hex(-v.s, -v.q)
    assert rotate(v, 6) == v
    assert rotate(v, -1) == rotate_right(v)


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@given(v=hexes)
def test_one_step_rotation_is_a_sixty_degree_turn_on_the_page(orientation: str, v: Hex) -> None:
    layout = Layout(orientation)  # type: ignore[arg-type]
    x, y = layout.center(v)
    rx, ry = layout.center(rotate_left(v))
    # Direction index order runs counter-clockwise on the page with y down: -60 deg.
    angle = -math.pi / 3
    assert rx == pytest.approx(x * math.cos(angle) - y * math.sin(angle), abs=1e-6)
    assert ry == pytest.approx(x * math.sin(angle) + y * math.cos(angle), abs=1e-6)


@given(hexes, st.integers(-12, 12))
def test_rotation_and_reflection_preserve_distance(v: Hex, steps: int) -> None:
    o = Hex(0, 0)
    for image in (rotate(v, steps), reflect_q(v), reflect_r(v), reflect_s(v)):
        assert distance(o, image) == distance(o, v)
    assert reflect_q(reflect_q(v)) == v
    assert reflect_q(v).q == v.q and reflect_r(v).r == v.r and reflect_s(v).s == v.s


def test_hexside_refuses_hexes_that_are_not_adjacent() -> None:
    with pytest.raises(ValueError, match="not adjacent"):
        hexside(Hex(0, 0), Hex(2, 0))
