"""Axial hex coordinates and the arithmetic on them.

Knows integer axial/cube coordinates only: no pixels, no labels, no terrain, no units.
Axial ``(q, r)`` with the implied cube coordinate ``s = -q - r`` follows Red Blob
Games' conventions, so their published examples check this module directly.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple


class Hex(NamedTuple):
    """One hex in axial coordinates; immutable, ordered, hashable, integers only.

    >>> Hex(1, -2) + Hex(2, 1)
    Hex(q=3, r=-1)
    >>> Hex(1, -2).s
    1
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate (q + r + s == 0)."""
        return -self.q - self.r

    def __add__(self, other: object) -> Hex:  # type: ignore[override]
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def __neg__(self) -> Hex:
        return Hex(-self.q, -self.r)

    def scale(self, k: int) -> Hex:
        """This vector multiplied by an integer."""
        return Hex(self.q * k, self.r * k)


ORIGIN = Hex(0, 0)

#: The six neighbour directions in Red Blob Games' order; index i is hexside i.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)

#: The six diagonal vectors (distance 2, through a vertex); DIAGONALS[i] lies
#: between DIRECTIONS[i] and DIRECTIONS[i + 1].
DIAGONALS: tuple[Hex, ...] = (
    Hex(2, -1),
    Hex(1, -2),
    Hex(-1, -1),
    Hex(-2, 1),
    Hex(-1, 2),
    Hex(1, 1),
)


def direction(index: int) -> Hex:
    """The unit vector of direction ``index`` (any integer, taken modulo 6)."""
    return DIRECTIONS[index % 6]


def neighbor(h: Hex, index: int) -> Hex:
    """The hex adjacent to ``h`` across hexside ``index``."""
    d = DIRECTIONS[index % 6]
    return Hex(h.q + d.q, h.r + d.r)


def neighbors(h: Hex) -> tuple[Hex, ...]:
    """The six hexes sharing a hexside with ``h``, in direction order.

    >>> neighbors(Hex(0, 0))[0]
    Hex(q=1, r=0)
    """
    q, r = h
    return tuple(Hex(q + d.q, r + d.r) for d in DIRECTIONS)


def diagonal_neighbors(h: Hex) -> tuple[Hex, ...]:
    """The six hexes at distance 2 reached straight through a vertex of ``h``."""
    q, r = h
    return tuple(Hex(q + d.q, r + d.r) for d in DIAGONALS)


def length(v: Hex) -> int:
    """Number of hex steps of the vector ``v``.

    >>> length(Hex(3, -3))
    3
    """
    return max(abs(v.q), abs(v.r), abs(v.q + v.r))


def distance(a: Hex, b: Hex) -> int:
    """Hex distance between ``a`` and ``b`` (a metric on the grid).

    >>> distance(Hex(0, 0), Hex(3, -1))
    3
    """
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    # the largest of |dq|, |dr|, |dq + dr| is half their sum (cube coordinates sum to 0)
    return (abs(dq) + abs(dr) + abs(dq + dr)) >> 1


def direction_to(a: Hex, b: Hex) -> int | None:
    """The direction index from ``a`` to ``b`` when they are adjacent, else None."""
    try:
        return DIRECTIONS.index(Hex(b.q - a.q, b.r - a.r))
    except ValueError:
        return None


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes at exactly ``radius`` from ``center``, walked counter-clockwise.

    Starts at ``center + DIRECTIONS[4] * radius`` as in Red Blob Games' ring
    algorithm. Radius 0 is the centre alone.

    >>> len(ring(Hex(0, 0), 3))
    18
    """
    if radius < 0:
        raise ValueError(f"ring radius must be >= 0, got {radius}")
    if radius == 0:
        return [center]
    h = center + DIRECTIONS[4].scale(radius)
    out: list[Hex] = []
    for side in range(6):
        d = DIRECTIONS[side]
        for _ in range(radius):
            out.append(h)
            h = Hex(h.q + d.q, h.r + d.r)
    return out


def spiral(center: Hex, radius: int) -> list[Hex]:
    """All hexes within ``radius`` of ``center``: the centre, then ring 1, ring 2...

    >>> len(spiral(Hex(0, 0), 2))
    19
    """
    if radius < 0:
        raise ValueError(f"spiral radius must be >= 0, got {radius}")
    out: list[Hex] = []
    for k in range(radius + 1):
        out.extend(ring(center, k))
    return out


def hexes_within(center: Hex, radius: int) -> Iterator[Hex]:
    """All hexes within ``radius`` of ``center`` in (q, r) order (cheaper than spiral)."""
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Hex(center.q + dq, center.r + dr)


def rotate_left(v: Hex) -> Hex:
    """``v`` turned one direction step forward (DIRECTIONS[i] -> DIRECTIONS[i + 1]).

    Red Blob Games calls this "rotate left" (screen y pointing down).

    >>> rotate_left(Hex(1, 0))
    Hex(q=1, r=-1)
    """
    return Hex(-v.s, -v.q)


def rotate_right(v: Hex) -> Hex:
    """``v`` turned one direction step back (DIRECTIONS[i] -> DIRECTIONS[i - 1]).

    >>> rotate_right(Hex(1, -1))
    Hex(q=1, r=0)
    """
    return Hex(-v.r, -v.s)


def rotate(v: Hex, steps: int, center: Hex = ORIGIN) -> Hex:
    """``v`` turned ``steps`` direction steps forward (negative: back) about ``center``."""
    d = Hex(v.q - center.q, v.r - center.r)
    for _ in range(steps % 6):
        d = rotate_left(d)
    return Hex(d.q + center.q, d.r + center.r)


def reflect_q(v: Hex) -> Hex:
    """Mirror across the q axis (keeps q, swaps r and s)."""
    return Hex(v.q, v.s)


def reflect_r(v: Hex) -> Hex:
    """Mirror across the r axis (keeps r, swaps q and s)."""
    return Hex(v.s, v.r)


def reflect_s(v: Hex) -> Hex:
    """Mirror across the s axis (keeps s, swaps q and r)."""
    return Hex(v.r, v.q)


class Hexside(NamedTuple):
    """The edge between two adjacent hexes, stored with ``a < b`` so each edge has one key."""

    a: Hex
    b: Hex


def hexside(a: Hex, b: Hex) -> Hexside:
    """The hexside between adjacent hexes ``a`` and ``b`` (order does not matter).

    >>> hexside(Hex(1, 0), Hex(0, 0))
    Hexside(a=Hex(q=0, r=0), b=Hex(q=1, r=0))
    """
    if distance(a, b) != 1:
        raise ValueError(f"{a} and {b} are not adjacent, so they share no hexside")
    return Hexside(a, b) if a < b else Hexside(b, a)
