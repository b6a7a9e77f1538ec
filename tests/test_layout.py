"""Layouts, offsets and labels: pixel conversion as in Red Blob Games' guide."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given
from hypothesis import strategies as st

from tabletop.hexgrid import (
    Hex,
    LabelError,
    LabelFormat,
    Layout,
    RectGrid,
    axial_to_offset,
    neighbors,
    offset_to_axial,
)

S3 = math.sqrt(3)
coord = st.integers(-40, 40)
hexes = st.builds(Hex, coord, coord)
ORIENTATIONS = ["flat", "pointy"]


@pytest.mark.parametrize(
    ("orientation", "h", "expected"),
    [
        # Red Blob Games, "Hex to pixel": flat x = 3/2 q, y = sqrt3/2 q + sqrt3 r
        ("flat", Hex(1, 0), (1.5, S3 / 2)),
        ("flat", Hex(0, 1), (0.0, S3)),
        ("flat", Hex(2, -1), (3.0, 0.0)),
        # pointy x = sqrt3 q + sqrt3/2 r, y = 3/2 r
        ("pointy", Hex(1, 0), (S3, 0.0)),
        ("pointy", Hex(0, 1), (S3 / 2, 1.5)),
        ("pointy", Hex(-1, 2), (0.0, 3.0)),
    ],
)
def test_hex_to_pixel_matches_red_blob_formulas(
    orientation: str, h: Hex, expected: tuple[float, float]
) -> None:
    assert Layout(orientation).center(h) == pytest.approx(expected)  # type: ignore[arg-type]


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_corners_sit_at_the_orientations_angles(orientation: str) -> None:
    # flat-top corners at 0, 60, ...; pointy-top at 30, 90, ...
    layout = Layout(orientation)  # type: ignore[arg-type]
    start = 0 if orientation == "flat" else 30
    for i, (x, y) in enumerate(layout.corners(Hex(0, 0))):
        angle = math.radians(start + 60 * i)
        assert (x, y) == pytest.approx((math.cos(angle), math.sin(angle)))


@pytest.mark.parametrize("orientation", ORIENTATIONS)
@given(h=hexes)
def test_neighbouring_centres_are_sqrt3_apart_and_share_an_edge(orientation: str, h: Hex) -> None:
    layout = Layout(orientation)  # type: ignore[arg-type]
    a = layout.polygon(h)
    assert a.area == pytest.approx(3 * S3 / 2)
    for n in neighbors(h):
        assert math.dist(layout.center(h), layout.center(n)) == pytest.approx(S3)
        shared = [c for c in layout.corners(h) if any(math.dist(c, d) < 1e-9 for d in layout.corners(n))]
        assert len(shared) == 2 and math.dist(*shared) == pytest.approx(1.0)


@pytest.mark.parametrize("orientation", ORIENTATIONS)
@given(h=hexes, fx=st.floats(-0.84, 0.84), fy=st.floats(-0.84, 0.84))
def test_pixel_to_hex_finds_the_hex_containing_the_point(
    orientation: str, h: Hex, fx: float, fy: float
) -> None:
    layout = Layout(orientation, size=(7.0, 7.0), origin=(3.0, -2.0))  # type: ignore[arg-type]
    cx, cy = layout.center(h)
    point = shapely.Point(cx + 7 * fx * 0.8, cy + 7 * fy * 0.8)
    if layout.polygon(h).contains(point):
        assert layout.hex_at(point.x, point.y) == h
    assert layout.hex_at(cx, cy) == h


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_vectorised_polygons_equal_one_by_one(orientation: str) -> None:
    layout = Layout(orientation, size=(2.0, 3.0))  # type: ignore[arg-type]
    hs = [Hex(0, 0), Hex(3, -1), Hex(-2, 5)]
    many = layout.polygons(hs)
    assert all(shapely.equals(p, layout.polygon(h)) for p, h in zip(many, hs, strict=True))
    assert isinstance(many, np.ndarray)


def test_layout_refuses_bad_orientation_and_size() -> None:
    with pytest.raises(ValueError, match="orientation"):
        Layout("sideways")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="positive"):
        Layout("flat", size=(0.0, 1.0))


@pytest.mark.parametrize("system", ["odd-q", "even-q", "odd-r", "even-r"])
@given(h=hexes)
def test_offset_round_trips(system: str, h: Hex) -> None:
    col, row = axial_to_offset(system, h)  # type: ignore[arg-type]
    assert offset_to_axial(system, col, row) == h  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("system", "orientation", "lower"),
    [
        ("odd-q", "flat", True),
        ("even-q", "flat", False),
        ("odd-r", "pointy", True),
        ("even-r", "pointy", False),
    ],
)
def test_odd_offset_shoves_odd_lines_down_or_right(system: str, orientation: str, lower: bool) -> None:
    # Red Blob Games, "Offset coordinates": "odd" shoves odd columns (rows) by half a hex
    layout = Layout(orientation)  # type: ignore[arg-type]
    first = layout.center(offset_to_axial(system, 0, 0))  # type: ignore[arg-type]
    if orientation == "flat":
        second = layout.center(offset_to_axial(system, 1, 0))  # type: ignore[arg-type]
        assert (second[1] > first[1]) == lower
    else:
        second = layout.center(offset_to_axial(system, 0, 1))  # type: ignore[arg-type]
        assert (second[0] > first[0]) == lower


def test_labels_print_column_then_row_zero_padded() -> None:
    grid = RectGrid("flat", "odd-q", 24, 16)
    assert grid.label(grid.hex_at(4, 3)) == "0504"
    assert grid.hex_of("0504") == grid.hex_at(4, 3)
    assert grid.hex_of(" 2416 ") == grid.hex_at(23, 15)
    custom = RectGrid("pointy", "even-r", 120, 5, LabelFormat(first_column=0, first_row=1, digits=3))
    assert custom.label(custom.hex_at(100, 0)) == "100001"


def test_every_hex_of_a_grid_has_a_unique_label_that_parses_back() -> None:
    grid = RectGrid("flat", "even-q", 13, 9)
    labels = [grid.label(h) for h in grid.hexes()]
    assert len(labels) == len(set(labels)) == 13 * 9
    assert [grid.hex_of(lab) for lab in labels] == grid.hexes()


@pytest.mark.parametrize(
    ("label", "message"),
    [
        ("2501", "columns run 01-24, rows 01-16"),
        ("0017", "not on the map"),
        ("05x4", "not 4 digits"),
        ("504", "not 4 digits"),
    ],
)
def test_a_bad_label_says_why(label: str, message: str) -> None:
    grid = RectGrid("flat", "odd-q", 24, 16)
    with pytest.raises(LabelError, match=message):
        grid.hex_of(label)


def test_grid_refuses_labels_too_short_for_its_size() -> None:
    with pytest.raises(ValueError, match=r"raise labels\.digits"):
        RectGrid("flat", "odd-q", 120, 10)
    with pytest.raises(ValueError, match="odd-r or even-r"):
        RectGrid("pointy", "odd-q", 10, 10)
