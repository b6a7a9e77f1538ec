"""Exact traversal of a centre-to-centre segment: which hexes it crosses, which it grazes.

Why exact: a line of sight that runs along a hexside or through a vertex is where
players argue and where float "lerp and round" lines pick a side by luck. Here it is
integer arithmetic throughout.

How: in the lattice frame X = 3q, Y = 2r + q (the affine image of flat-top unit hexes
under X = 2x, Y = 2y/sqrt(3)), every hex centre and corner has integer coordinates and
the hex centred at (cx, cy) is the closed set

    |Y - cy| <= 1,   |(X - cx) + (Y - cy)| <= 2,   |(X - cx) - (Y - cy)| <= 2.

Along the segment P(t) = t * (X, Y), t in [0, 1], each of those three slabs is an
interval of t; the intersection tells whether the segment meets the hex's interior
(an open interval: *crossed*), only its boundary (a point or a stretch of hexside:
*grazed*), or nothing. Scaling t by the product of the slab slopes keeps every bound
an integer. Affine maps preserve incidence, and the pointy-top layout is a rotation of
the flat-top one in axial terms, so the answer depends on the axial vector alone.

The contacted hexes form a connected set (their closures cover the segment), so a
flood fill from the start hex through contacted hexes finds them all (lines longer
than ``NUMPY_FROM`` put the same test to every candidate hex at once, in numpy). Results are
computed once per vector in a 1/12 wedge and rotated/reflected to the others (the
grid's 12 symmetries are exact), then cached per vector: every vector up to
``CACHE_REACH`` for good, longer ones in small LRUs, so a sweep over a big map never
keeps every line it drew (finding H5). Whole-map work in bulk uses the numpy version of
the same test in ``tabletop.engine.fastview``.

Knows nothing of terrain, units or rules: what a graze *means* is a rule system's call.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from .coords import DIRECTIONS, Hex

#: Corner k of every hex, relative to its centre in the lattice frame; corner k is the
#: one shared with the neighbours across hexsides k and k + 1.
CORNER_OFFSETS: tuple[tuple[int, int], ...] = ((2, 0), (1, -1), (-1, -1), (-2, 0), (-1, 1), (1, 1))


_new = tuple.__new__  # Hex(q, r) without NamedTuple's Python-level __new__: hot loops


def lattice_point(h: Hex) -> tuple[int, int]:
    """Integer lattice-frame coordinates (X, Y) of the centre of ``h``.

    >>> lattice_point(Hex(1, 0))
    (3, 1)
    """
    return (3 * h.q, 2 * h.r + h.q)


@dataclass(frozen=True, slots=True)
class Graze:
    """A hex whose boundary the segment touches without entering its interior.

    ``side`` is the hexside run along (a direction index, 0-5) or None;
    ``corner`` is the corner touched (corner k lies between hexsides k and k+1) or None.
    ``start``/``end`` give the stretch of contact as numerators over the traversal's
    ``denominator`` (equal for a corner).
    """

    hex: Hex
    side: int | None
    corner: int | None
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Traversal:
    """Hexes met by the segment from ``start`` to ``end`` (both hex centres).

    ``crossed``: hexes whose interior the segment enters, in order from start to end,
    ends included. ``spans[i]`` is the (enter, leave) stretch of ``crossed[i]``, as
    integer numerators over ``denominator`` (0 = start centre, denominator = end centre).
    ``grazed``: hexes touched only on their boundary, ordered along the segment.
    """

    start: Hex
    end: Hex
    crossed: tuple[Hex, ...]
    spans: tuple[tuple[int, int], ...]
    grazed: tuple[Graze, ...]
    denominator: int

    def position(self, numerator: int) -> Fraction:
        """A span numerator as the exact fraction of the way from start to end."""
        return Fraction(numerator, self.denominator)


def traverse(a: Hex, b: Hex) -> Traversal:
    """The exact traversal of the segment from the centre of ``a`` to that of ``b``.

    >>> t = traverse(Hex(0, 0), Hex(2, -1))   # runs along a hexside
    >>> t.crossed
    (Hex(q=0, r=0), Hex(q=2, r=-1))
    >>> sorted((g.hex, g.side) for g in t.grazed)
    [(Hex(q=1, r=-1), 5), (Hex(q=1, r=0), 2)]
    """
    rel = relative_traversal(b.q - a.q, b.r - a.r)
    if a.q == 0 and a.r == 0:
        return Traversal(a, b, rel.crossed, rel.spans, rel.grazed, rel.denominator)
    aq, ar = a
    crossed = tuple(_new(Hex, (q + aq, r + ar)) for q, r in rel.crossed)
    grazed = tuple(
        Graze(_new(Hex, (g.hex[0] + aq, g.hex[1] + ar)), g.side, g.corner, g.start, g.end) for g in rel.grazed
    )
    return Traversal(a, b, crossed, rel.spans, grazed, rel.denominator)


#: Vectors up to this length (in hexes) are kept once worked out: the lines a game asks
#: again and again. About 60 MB when every one of them is kept.
CACHE_REACH = 64
#: Canonical (1/12 wedge) vectors up to this length are kept: each serves 12 vectors.
#: About 80 MB when every one of them is kept.
WEDGE_REACH = 128
#: Longer vectors kept, most recently used first: a whole-map sweep of a big map must not
#: keep every line it draws (a line across a 999 x 999 map is about 400 KB of objects).
FAR_ENTRIES = 128


def relative_traversal(dq: int, dr: int) -> Traversal:
    """Traversal from Hex(0, 0) along the axial vector (dq, dr); cached per vector, with
    the memory the caches hold bounded (``CACHE_REACH``, ``WEDGE_REACH``, ``FAR_ENTRIES``)."""
    t = _NEAR.get((dq, dr))
    if t is not None:
        return t
    if max(abs(dq), abs(dr), abs(dq + dr)) > CACHE_REACH:
        return _far(dq, dr)
    t = _NEAR[(dq, dr)] = _oriented(dq, dr)
    return t


#: Every vector up to CACHE_REACH once asked (at most 12,481 of them): a plain dict,
#: bounded by what may enter it, is the cheapest lookup on the hot path of a query.
_NEAR: dict[tuple[int, int], Traversal] = {}


def _clear_caches() -> None:
    """Empty every traversal cache (benchmarks measure cold starts with this)."""
    _NEAR.clear()
    _far.cache_clear()
    _far_wedge.cache_clear()
    _wedge_traversal.cache_clear()


relative_traversal.cache_clear = _clear_caches  # type: ignore[attr-defined]


@lru_cache(maxsize=FAR_ENTRIES)
def _far(dq: int, dr: int) -> Traversal:
    return _oriented(dq, dr)


def _wedge(dq: int, dr: int) -> Traversal:
    """The wedge traversal, from the kept ones when the vector is short enough."""
    if dq <= WEDGE_REACH:  # in the wedge the length is dq
        return _wedge_traversal(dq, dr)
    return _far_wedge(dq, dr)


def _oriented(dq: int, dr: int) -> Traversal:
    """The traversal of (dq, dr): its wedge image's, mapped back by the grid's symmetry."""
    steps, mirrored, canon = _canonical(Hex(dq, dr))
    base = _wedge(canon.q, canon.r)
    if steps == 0 and not mirrored:
        return base

    # The inverse symmetry is linear: q' = a q + b r, r' = c q + d r.
    e1 = _rotate(_mirror(Hex(1, 0)) if mirrored else Hex(1, 0), -steps)
    e2 = _rotate(_mirror(Hex(0, 1)) if mirrored else Hex(0, 1), -steps)
    a, c, b, d = e1.q, e1.r, e2.q, e2.r

    def back(h: Hex) -> Hex:
        q, r = h
        return _new(Hex, (a * q + b * r, c * q + d * r))

    def back_dir(i: int) -> int:
        return ((1 - i) if mirrored else i) - steps

    grazed = [
        Graze(
            back(g.hex),
            None if g.side is None else back_dir(g.side) % 6,
            None if g.corner is None else (back_dir(g.corner) - (1 if mirrored else 0)) % 6,
            g.start,
            g.end,
        )
        for g in base.grazed
    ]
    grazed.sort(key=_graze_order)
    return Traversal(
        Hex(0, 0),
        Hex(dq, dr),
        tuple([_new(Hex, (a * q + b * r, c * q + d * r)) for q, r in base.crossed]),
        base.spans,
        tuple(grazed),
        base.denominator,
    )


def precompute(max_range: int) -> int:
    """Work out every vector up to ``max_range``; returns how many vectors. Those up to
    ``CACHE_REACH`` stay cached (and their wedge images up to ``WEDGE_REACH``).

    For bulk work (a viewshed over a whole map, a bot's survey). The objects made are
    acyclic, so the cyclic garbage collector is paused meanwhile: with it running,
    its passes over millions of new tuples cost more than the traversal itself.
    """
    if max_range < 0:
        raise ValueError(f"max_range must be >= 0, got {max_range}")
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        count = 0
        for dq in range(-max_range, max_range + 1):
            for dr in range(max(-max_range, -dq - max_range), min(max_range, -dq + max_range) + 1):
                relative_traversal(dq, dr)
                count += 1
        return count
    finally:
        if was_enabled:
            gc.enable()


def _graze_order(g: Graze) -> tuple[int, int, int, int]:
    return (g.start, g.end, g.hex.q, g.hex.r)


def _rotate(h: Hex, steps: int) -> Hex:
    q, r = h
    for _ in range(steps % 6):
        q, r = -(-q - r), -q  # one step forward: (q, r, s) -> (-s, -q, -r)
    return Hex(q, r)


def _mirror(h: Hex) -> Hex:
    """Reflection that swaps directions 0 and 1 (keeps q): direction i -> 1 - i."""
    return Hex(h.q, -h.q - h.r)


def _canonical(v: Hex) -> tuple[int, bool, Hex]:
    """(steps, mirrored, w): w = mirror?(rotate(v, steps)) lies in the wedge
    q > 0, r <= 0, q + 2r >= 0 (between directions 0 and diagonal 0)."""
    if v.q == 0 and v.r == 0:
        return (0, False, v)
    for steps in range(6):
        w = _rotate(v, steps)
        if w.r <= 0 and w.q + w.r > 0:  # the sextant spanned by directions 0 and 1
            if w.q + 2 * w.r >= 0:
                return (steps, False, w)
            return (steps, True, _mirror(w))
    raise AssertionError(f"no sextant holds {v}")  # unreachable for a nonzero vector


@lru_cache(maxsize=1 << 13)  # holds every wedge vector up to WEDGE_REACH (about 4,200)
def _wedge_traversal(dq: int, dr: int) -> Traversal:
    """The traversal for a vector of the canonical wedge (or the zero vector)."""
    return _wedge_compute(dq, dr)


@lru_cache(maxsize=FAR_ENTRIES)
def _far_wedge(dq: int, dr: int) -> Traversal:
    return _wedge_compute(dq, dr)


#: Wedge vectors longer than this are worked out in numpy, over every candidate hex at
#: once, rather than by the flood fill in Python: the same integer test, several times
#: faster on long lines (a line across a big map is asked uncached: see FAR_ENTRIES).
NUMPY_FROM = 8


def _wedge_compute(dq: int, dr: int) -> Traversal:
    """The traversal for a vector of the canonical wedge, worked out (no cache)."""
    if dq > NUMPY_FROM:
        return _wedge_numpy(dq, dr)
    return _wedge_flood(dq, dr)


def _wedge_numpy(dq: int, dr: int) -> Traversal:
    """``_wedge_flood``'s answer for a wedge vector with dq > 0, by testing candidates.

    A wedge line has slope 0 <= Y/X <= 1/3, so in column c (0..dq) it meets only hexes
    whose centre lies within 5/3 of its height there: rows r0(c) .. r0(c) + 2. Each is
    put to the same three-slab test as ``contact`` below, in int64 (the bounds stay far
    below 2**63 for any vector a 999 x 999 map holds)."""
    X, Y = 3 * dq, 2 * dr + dq
    s1, s2 = X + Y, X - Y
    denominator = (Y if Y else 1) * s1 * s2
    col = np.arange(dq + 1, dtype=np.int64)
    r0 = (Y * col - 2 * dq - col * dq) // (2 * dq)
    col = np.repeat(col, 3)
    row = np.repeat(r0, 3) + np.tile(np.arange(3, dtype=np.int64), dq + 1)
    cx, cy = 3 * col, 2 * row + col
    sc1, sc2 = denominator // s1, denominator // s2
    lo = np.maximum(np.maximum((cx + cy - 2) * sc1, (cx - cy - 2) * sc2), 0)
    hi = np.minimum(np.minimum((cx + cy + 2) * sc1, (cx - cy + 2) * sc2), denominator)
    if Y:
        lo = np.maximum(lo, (cy - 1) * (denominator // Y))
        hi = np.minimum(hi, (cy + 1) * (denominator // Y))
        met = lo <= hi
        side = np.zeros(len(lo), dtype=bool)
    else:  # the line runs along hexsides: slab 0 is parallel to it
        met = (lo <= hi) & (np.abs(cy) <= 1)
        side = np.abs(cy) == 1
    crossed_at = np.nonzero(met & ~side & (lo < hi))[0]
    crossed_at = crossed_at[np.argsort(lo[crossed_at], kind="stable")]
    grazed: list[Graze] = []
    for i in np.nonzero(met & (side | (lo == hi)))[0].tolist():
        h = Hex(int(col[i]), int(row[i]))
        start, end = int(lo[i]), int(hi[i])
        if side[i]:
            grazed.append(Graze(h, _PARALLEL_SIDE[0][0 if cy[i] == -1 else 1], None, start, end))
        else:
            grazed.append(Graze(h, None, _corner_at(h, start, X, Y, denominator), start, end))
    grazed.sort(key=_graze_order)
    qs, rs = col[crossed_at].tolist(), row[crossed_at].tolist()
    return Traversal(
        Hex(0, 0),
        Hex(dq, dr),
        tuple([_new(Hex, (q, r)) for q, r in zip(qs, rs, strict=True)]),
        tuple(zip(lo[crossed_at].tolist(), hi[crossed_at].tolist(), strict=True)),
        tuple(grazed),
        denominator,
    )


def _wedge_flood(dq: int, dr: int) -> Traversal:
    """The traversal for a vector of the canonical wedge (or the zero vector), by a flood
    fill from the start hex through the hexes the segment meets."""
    X, Y = 3 * dq, 2 * dr + dq
    slopes = (Y, X + Y, X - Y)
    denominator = 1
    for a in slopes:
        if a:
            denominator *= abs(a)
    # Each slab: (slope a, scale D/|a|, half-width k, which constant of the centre).
    scale = tuple(denominator // abs(a) if a else 0 for a in slopes)

    def contact(cx: int, cy: int) -> tuple[int, int, int | None] | None:
        """(lo, hi, parallel-side) of the closed contact interval, or None."""
        lo, hi = 0, denominator
        on_side: int | None = None
        for slab in range(3):
            a = slopes[slab]
            if slab == 0:
                b, k = cy, 1
            elif slab == 1:
                b, k = cx + cy, 2
            else:
                b, k = cx - cy, 2
            if a == 0:
                if b > k or b < -k:
                    return None
                if b == k or b == -k:
                    on_side = _PARALLEL_SIDE[slab][0 if -b == k else 1]
                continue
            if a < 0:
                a, b = -a, -b
            s = scale[slab]
            low, high = (b - k) * s, (b + k) * s
            if low > lo:
                lo = low
            if high < hi:
                hi = high
            if lo > hi:
                return None
        return (lo, hi, on_side)

    found: dict[Hex, tuple[int, int, int | None]] = {}
    seen = {Hex(0, 0)}
    todo = [Hex(0, 0)]
    while todo:
        h = todo.pop()
        c = contact(3 * h.q, 2 * h.r + h.q)
        if c is None:
            continue
        found[h] = c
        for d in DIRECTIONS:
            n = Hex(h.q + d.q, h.r + d.r)
            if n not in seen:
                seen.add(n)
                todo.append(n)

    crossed: list[tuple[int, int, Hex]] = []
    grazed: list[Graze] = []
    for h, (lo, hi, on_side) in found.items():
        if lo < hi and on_side is None:
            crossed.append((lo, hi, h))
        elif on_side is not None:
            grazed.append(Graze(h, on_side, None, lo, hi))
        else:
            grazed.append(Graze(h, None, _corner_at(h, lo, X, Y, denominator), lo, hi))
    crossed.sort()
    grazed.sort(key=_graze_order)
    return Traversal(
        Hex(0, 0),
        Hex(dq, dr),
        tuple(h for _, _, h in crossed),
        tuple((lo, hi) for lo, hi, _ in crossed),
        tuple(grazed),
        denominator,
    )


#: For each slab (Y, X+Y, X-Y): the hexside at its +k bound and at its -k bound,
#: where the constant offset of the segment from the centre is +k / -k.
_PARALLEL_SIDE: tuple[tuple[int, int], ...] = ((5, 2), (0, 3), (1, 4))


def _corner_at(h: Hex, t: int, X: int, Y: int, denominator: int) -> int:
    """Which corner of ``h`` the segment touches at t = t/denominator."""
    cx, cy = 3 * h.q, 2 * h.r + h.q
    for k, (ox, oy) in enumerate(CORNER_OFFSETS):
        if t * X == (cx + ox) * denominator and t * Y == (cy + oy) * denominator:
            return k
    raise AssertionError(f"segment touches {h} at a point that is not a corner")
