"""Offset coordinates (column, row), as printed maps count hexes, <-> axial.

Flat-top grids shift alternate columns ("odd-q", "even-q"); pointy-top grids shift
alternate rows ("odd-r", "even-r"). "odd" means the odd columns (rows) are pushed
down (right) by half a hex. Columns and rows here are 0-based; labels add the
printed first number.
"""

from __future__ import annotations

from typing import Literal

from .coords import Hex
from .layout import Orientation

OffsetSystem = Literal["odd-q", "even-q", "odd-r", "even-r"]
OFFSET_SYSTEMS: dict[Orientation, tuple[OffsetSystem, ...]] = {
    "flat": ("odd-q", "even-q"),
    "pointy": ("odd-r", "even-r"),
}


def check_offset(orientation: Orientation, value: object) -> OffsetSystem:
    """Return ``value`` as the offset system for ``orientation`` or raise ValueError."""
    allowed = OFFSET_SYSTEMS[orientation]
    if value not in allowed:
        raise ValueError(f"offset for {orientation}-top hexes must be {' or '.join(allowed)}, got {value!r}")
    return value  # type: ignore[return-value]


def offset_to_axial(system: OffsetSystem, col: int, row: int) -> Hex:
    """Axial hex of 0-based (col, row).

    >>> offset_to_axial("odd-q", 1, 0)
    Hex(q=1, r=0)
    >>> offset_to_axial("even-q", 1, 0)
    Hex(q=1, r=-1)
    """
    if system == "odd-q":
        return Hex(col, row - (col - (col & 1)) // 2)
    if system == "even-q":
        return Hex(col, row - (col + (col & 1)) // 2)
    if system == "odd-r":
        return Hex(col - (row - (row & 1)) // 2, row)
    if system == "even-r":
        return Hex(col - (row + (row & 1)) // 2, row)
    raise ValueError(f"unknown offset system {system!r}")


def axial_to_offset(system: OffsetSystem, h: Hex) -> tuple[int, int]:
    """0-based (col, row) of axial hex ``h``.

    >>> axial_to_offset("odd-q", Hex(3, -1))
    (3, 0)
    """
    q, r = h
    if system == "odd-q":
        return (q, r + (q - (q & 1)) // 2)
    if system == "even-q":
        return (q, r + (q + (q & 1)) // 2)
    if system == "odd-r":
        return (q + (r - (r & 1)) // 2, r)
    if system == "even-r":
        return (q + (r + (r & 1)) // 2, r)
    raise ValueError(f"unknown offset system {system!r}")
