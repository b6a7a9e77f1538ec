"""Layouts: where hexes sit on a plane (pixels, or hex-size units) and their shapes.

Knows flat-top and pointy-top orientation, hex size and origin; converts hex <->
point and gives corners and shapely polygons. Screen convention: y grows downward.
Knows nothing of labels, terrain or units.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import shapely

from .coords import Hex

Orientation = Literal["flat", "pointy"]
ORIENTATIONS: tuple[Orientation, ...] = ("flat", "pointy")

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class _Matrix:
    """Forward (hex -> point) and inverse (point -> hex) 2x2 matrices, plus corner phase."""

    f0: float
    f1: float
    f2: float
    f3: float
    b0: float
    b1: float
    b2: float
    b3: float
    start_angle: float  # in multiples of 60 degrees


_MATRICES: dict[str, _Matrix] = {
    "flat": _Matrix(1.5, 0.0, SQRT3 / 2, SQRT3, 2 / 3, 0.0, -1 / 3, SQRT3 / 3, 0.0),
    "pointy": _Matrix(SQRT3, SQRT3 / 2, 0.0, 1.5, SQRT3 / 3, -1 / 3, 0.0, 2 / 3, 0.5),
}


def check_orientation(value: object) -> Orientation:
    """Return ``value`` as an Orientation or raise ValueError naming the choices."""
    if value not in ORIENTATIONS:
        raise ValueError(f"orientation must be 'flat' or 'pointy', got {value!r}")
    return value  # type: ignore[return-value]


@dataclass(frozen=True)
class Layout:
    """A hex grid placed on a plane.

    ``size`` is the centre-to-corner distance (per axis, so hexes may be stretched);
    ``origin`` is where Hex(0, 0)'s centre lands.

    >>> Layout("flat").center(Hex(1, 0))
    (1.5, 0.8660254037844386)
    >>> Layout("pointy", size=(10.0, 10.0)).hex_at(17.3, 0.0)
    Hex(q=1, r=0)
    """

    orientation: Orientation = "flat"
    size: tuple[float, float] = (1.0, 1.0)
    origin: tuple[float, float] = (0.0, 0.0)
    _m: _Matrix = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_orientation(self.orientation)
        if self.size[0] <= 0 or self.size[1] <= 0:
            raise ValueError(f"hex size must be positive, got {self.size}")
        object.__setattr__(self, "_m", _MATRICES[self.orientation])

    def center(self, h: Hex) -> tuple[float, float]:
        """The centre point of hex ``h``."""
        m = self._m
        x = (m.f0 * h.q + m.f1 * h.r) * self.size[0] + self.origin[0]
        y = (m.f2 * h.q + m.f3 * h.r) * self.size[1] + self.origin[1]
        return (x, y)

    def fractional_hex(self, x: float, y: float) -> tuple[float, float]:
        """The fractional axial coordinates (q, r) of a point."""
        m = self._m
        px = (x - self.origin[0]) / self.size[0]
        py = (y - self.origin[1]) / self.size[1]
        return (m.b0 * px + m.b1 * py, m.b2 * px + m.b3 * py)

    def hex_at(self, x: float, y: float) -> Hex:
        """The hex containing the point (mouse picking: one rounding)."""
        return round_hex(*self.fractional_hex(x, y))

    def corner_offset(self, corner: int) -> tuple[float, float]:
        """Offset of corner ``corner`` (0-5) from a hex centre.

        Flat-top corner i is at 60*i degrees, pointy-top at 60*i + 30.
        """
        angle = math.pi / 3 * (corner + self._m.start_angle)
        return (self.size[0] * math.cos(angle), self.size[1] * math.sin(angle))

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        """The six corner points of ``h`` in order."""
        cx, cy = self.center(h)
        out = []
        for i in range(6):
            dx, dy = self.corner_offset(i)
            out.append((cx + dx, cy + dy))
        return out

    def polygon(self, h: Hex) -> shapely.Polygon:
        """The hex ``h`` as a shapely polygon."""
        return shapely.Polygon(self.corners(h))

    def polygons(self, hexes: list[Hex]) -> np.ndarray:
        """Shapely polygons for many hexes at once (vectorised; for STRtree and areas)."""
        if not hexes:
            return np.empty(0, dtype=object)
        qr = np.asarray(hexes, dtype=float)
        m = self._m
        cx = (m.f0 * qr[:, 0] + m.f1 * qr[:, 1]) * self.size[0] + self.origin[0]
        cy = (m.f2 * qr[:, 0] + m.f3 * qr[:, 1]) * self.size[1] + self.origin[1]
        offs = np.array([self.corner_offset(i) for i in range(6)])
        ring = np.empty((len(hexes), 6, 2))
        ring[:, :, 0] = cx[:, None] + offs[None, :, 0]
        ring[:, :, 1] = cy[:, None] + offs[None, :, 1]
        polygons: np.ndarray = shapely.polygons(ring)
        return polygons


def round_hex(fq: float, fr: float) -> Hex:
    """The hex containing fractional axial point (fq, fr) (cube rounding).

    >>> round_hex(0.6, -0.1)
    Hex(q=1, r=0)
    """
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))
