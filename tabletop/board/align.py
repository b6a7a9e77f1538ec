"""Aligning a printed map's picture with the grid: from hex centres clicked on the
picture to the ``background`` block's origin and scale.

Each click pairs a hex (its centre in world units, hex size 1) with the picture pixel
where the player sees that hex's centre. The picture maps world to pixels by an offset
and a scale per axis (``Background.pixel``), so each axis is a straight-line fit of
pixel against world coordinate: least squares over the clicks, exact for three clean
clicks on a picture printed to scale, forgiving of a pixel's slip.
"""

from __future__ import annotations

from collections.abc import Sequence

Point = tuple[float, float]


class AlignError(ValueError):
    """Clicks that cannot fix the alignment (too few, or all in one column or row)."""


def _axis(world: Sequence[float], pixel: Sequence[float], what: str) -> tuple[float, float]:
    """(pixel at world 0, pixels per world unit) for one axis, by least squares."""
    n = len(world)
    mw, mp = sum(world) / n, sum(pixel) / n
    spread = sum((w - mw) ** 2 for w in world)
    if spread < 1e-9:
        raise AlignError(f"the hexes clicked are all in one {what}; click hexes far apart across and down")
    scale = sum((w - mw) * (p - mp) for w, p in zip(world, pixel, strict=True)) / spread
    if scale <= 0:
        raise AlignError(f"the clicks run the wrong way {'across' if what == 'column' else 'down'}; click each named hex's centre")
    return mp - scale * mw, scale


def fit(pairs: Sequence[tuple[Point, Point]], first: Point) -> tuple[Point, Point]:
    """The background's ``origin`` (the picture pixel of the first hex's centre, whose
    world centre is ``first``) and ``scale`` from (hex centre in world units, clicked
    picture pixel) pairs. AlignError if they cannot fix it."""
    if len(pairs) < 2:
        raise AlignError("click at least two hex centres (three far apart is best)")
    xs = _axis([w[0] for w, _ in pairs], [p[0] for _, p in pairs], "column")
    ys = _axis([w[1] for w, _ in pairs], [p[1] for _, p in pairs], "row")
    origin = (xs[0] + xs[1] * first[0], ys[0] + ys[1] * first[1])
    return origin, (xs[1], ys[1])
