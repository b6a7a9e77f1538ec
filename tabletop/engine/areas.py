"""The areas attacks cover: distance rings, blast rings, splashes, cones, fire corridors.

Every area is an ``Area``: a dict from each hex it covers to its ring or band index
(0 is the centre ring or the nearest band). Given a map (``board=``), an area is
clipped to it. Distances are hex distances: on a map where one hex is one inch, a
radius of ``n`` inches covers the hexes within ``n`` hexes.

Cones and corridors are drawn on the table with shapely 2: the hex polygons of every
candidate hex are made in one call (``Layout.polygons``), an STRtree query finds those
that meet the shape, and one vectorised test decides which are *inside*. Two meanings
of inside, chosen per call:

- ``"centre"`` (the default): the hex's centre lies in the closed shape; a centre on an
  edge counts. A piece stands at its hex's centre, so this is "is the man in it".
- ``"overlap"``: the hex and the shape share some area; a hex that only touches an edge
  or a corner of the shape is not inside.

The hex polygons and the shape are floats, so "on an edge" is judged to within
``EDGE_TOLERANCE`` of a hex's width (and a shared area must exceed that fraction of a
hex): round-off never decides. Lengths given to cones and corridors are in hexes
(centre to centre), so a layout must be regular (its x and y sizes equal).

Randomness comes only from a dice object passed in (``Dice``): anything with
``randint(a, b)`` or ``choice(seq)``, such as a seeded ``random.Random``.

Knows hexes, maps, pieces and sides as data; knows no rule system's names or figures.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal, Protocol, TypeVar

import numpy as np
import shapely

from tabletop.board import Map
from tabletop.hexgrid import DIRECTIONS, Hex, Layout, distance, hexes_within

from .pieces import MapState, Piece

#: hex -> ring or band index
Area = dict[Hex, int]

Inside = Literal["centre", "overlap"]
INSIDE: tuple[Inside, ...] = ("centre", "overlap")

#: How near an edge (as a fraction of the distance between neighbouring hex centres)
#: counts as on it, and how small a shared area (as a fraction of a hex) counts as none.
EDGE_TOLERANCE = 1e-9

_T = TypeVar("_T")


class RandIntDice(Protocol):
    """Dice that give a whole number from ``a`` to ``b`` inclusive (``random.Random``)."""

    def randint(self, a: int, b: int) -> int: ...


class ChoiceDice(Protocol):
    """Dice that pick one item of a sequence."""

    def choice(self, seq: Sequence[_T]) -> _T: ...


Dice = RandIntDice | ChoiceDice


# --- dice ------------------------------------------------------------------------------


def roll(dice: Dice, sides: int) -> int:
    """One roll of a ``sides``-sided die numbered 1 to ``sides``; the result is checked.

    >>> import random
    >>> roll(random.Random(1), 10) in range(1, 11)
    True
    """
    if isinstance(sides, bool) or not isinstance(sides, int) or sides < 1:
        raise ValueError(f"a die needs at least 1 side, got {sides!r}")
    randint = getattr(dice, "randint", None)
    if callable(randint):
        value = randint(1, sides)
    else:
        choice = getattr(dice, "choice", None)
        if not callable(choice):
            raise TypeError(f"dice must have randint(a, b) or choice(seq); {type(dice).__name__} has neither")
        value = choice(range(1, sides + 1))
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
        raise ValueError(f"a {sides}-sided die rolled {value!r}; it must be a whole number 1-{sides}")
    return value


def pick(candidates: Sequence[_T], dice: Dice) -> _T:
    """One of ``candidates`` at random: a roll of a die with one face per candidate.

    A single candidate is returned without rolling (nothing to choose); none is a
    ValueError.

    >>> import random
    >>> pick(["a", "b", "c"], random.Random(5)) == pick(["a", "b", "c"], random.Random(5))
    True
    >>> pick(["only"], random.Random(5))
    'only'
    """
    if not candidates:
        raise ValueError("nothing to pick from: the candidates are empty")
    if len(candidates) == 1:
        return candidates[0]
    return candidates[roll(dice, len(candidates)) - 1]


# --- rings -----------------------------------------------------------------------------


def _check_whole(name: str, value: object, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    return value


def clip(area: Mapping[Hex, int], board: Map | None) -> Area:
    """``area`` without the hexes that are not on ``board`` (all of it if no board)."""
    if board is None:
        return dict(area)
    contains = board.grid.contains
    return {h: band for h, band in area.items() if contains(h)}


def _within(center: Hex, n: int, board: Map | None) -> Area:
    _check_whole("radius", n)
    cq, cr = center
    out: Area = {}
    for h in hexes_within(center, n):
        dq, dr = h.q - cq, h.r - cr
        out[h] = max(abs(dq), abs(dr), abs(dq + dr))
    return clip(out, board)


def radius(center: Hex, n: int, *, board: Map | None = None) -> Area:
    """Every hex within ``n`` of ``center``, each with its distance (its ring).

    >>> area = radius(Hex(0, 0), 2)
    >>> len(area), area[Hex(0, 0)], area[Hex(2, -1)]
    (19, 0, 2)
    """
    return _within(center, n, board)


def banded(area: Mapping[Hex, int], radii: Sequence[int]) -> Area:
    """Rings regrouped into bands: a hex of ring ``d`` goes to the first band ``i`` with
    ``d <= radii[i]``; hexes beyond the last radius are left out.

    >>> banded({Hex(0, 0): 0, Hex(1, 0): 1, Hex(2, 0): 2, Hex(4, 0): 4}, [1, 3])
    {Hex(q=0, r=0): 0, Hex(q=1, r=0): 0, Hex(q=2, r=0): 1}
    """
    radii = _check_radii(radii)
    last = radii[-1]
    return {h: bisect_left(radii, d) for h, d in area.items() if d <= last}


def _check_radii(radii: Sequence[int]) -> list[int]:
    out = list(radii)
    if not out:
        raise ValueError("a blast needs at least one radius")
    for i, r in enumerate(out):
        _check_whole(f"radius {i}", r)
        if i and r <= out[i - 1]:
            raise ValueError(f"radii must grow outward, got {out}")
    return out


def blast_rings(center: Hex, radii: Sequence[int], *, board: Map | None = None) -> Area:
    """A blast of concentric rings: band ``i`` holds the hexes farther than
    ``radii[i - 1]`` and within ``radii[i]`` (band 0: within ``radii[0]``, centre included).

    >>> from collections import Counter
    >>> sorted(Counter(blast_rings(Hex(0, 0), [1, 2, 3]).values()).items())
    [(0, 7), (1, 12), (2, 18)]
    """
    radii = _check_radii(radii)
    return banded(_within(center, radii[-1], board), radii)


def splash(center: Hex, *, board: Map | None = None) -> Area:
    """The hex (band 0) and its six neighbours (band 1), whoever is in them.

    >>> sorted(splash(Hex(0, 0)).values())
    [0, 1, 1, 1, 1, 1, 1]
    """
    return _within(center, 1, board)


def adjacent_choice(center: Hex, chosen: Hex, *, board: Map | None = None) -> Area:
    """The hex (band 0) and one neighbour the attacker chose (band 1).

    ValueError if ``chosen`` is not adjacent to ``center``, or is off ``board``.

    >>> adjacent_choice(Hex(0, 0), Hex(0, 1))
    {Hex(q=0, r=0): 0, Hex(q=0, r=1): 1}
    """
    if distance(center, chosen) != 1:
        raise ValueError(f"{chosen} is not adjacent to {center}: choose one of its six neighbours")
    if board is not None and not board.grid.contains(chosen):
        raise ValueError(f"{chosen} is not on the map: choose a neighbour of {center} on the map")
    return clip({center: 0, chosen: 1}, board)


def deviate(point: Hex, direction: int, distance: int) -> Hex:
    """The hex ``distance`` hexes from ``point`` in hexside direction ``direction`` (0-5,
    as ``tabletop.hexgrid.DIRECTIONS``). The result may be off the map: callers decide.

    >>> deviate(Hex(2, 2), 3, 2)
    Hex(q=0, r=2)
    """
    if isinstance(direction, bool) or not isinstance(direction, int) or not 0 <= direction < 6:
        raise ValueError(f"direction must be a hexside direction 0-5, got {direction!r}")
    _check_whole("deviation distance", distance)
    return point + DIRECTIONS[direction].scale(distance)


# --- shapes on the table ---------------------------------------------------------------


def _regular(layout: Layout | None) -> tuple[Layout, float]:
    """The layout (flat, unit size by default) and the distance between neighbouring centres."""
    lay = layout if layout is not None else Layout("flat")
    sx, sy = lay.size
    if sx != sy or sx <= 0:
        raise ValueError(
            f"areas need a regular layout (equal positive x and y sizes) so lengths are hexes; got size {lay.size}"
        )
    return lay, math.sqrt(3.0) * sx


def _check_inside(inside: object) -> Inside:
    if inside not in INSIDE:
        raise ValueError(f"inside must be 'centre' or 'overlap', got {inside!r}")
    return inside  # type: ignore[return-value]


def _disc(center: Hex, n: int) -> np.ndarray:
    """Axial coordinates (an int array of rows q, r) of the hexes within ``n`` of ``center``."""
    span = np.arange(-n, n + 1)
    dq, dr = (a.ravel() for a in np.meshgrid(span, span, indexing="ij"))
    keep = np.abs(dq + dr) <= n
    qr: np.ndarray = np.stack([dq[keep] + center.q, dr[keep] + center.r], axis=1)
    return qr


def _centres(layout: Layout, qr: np.ndarray) -> np.ndarray:
    """The centre points of many hexes (the layout is affine in q and r)."""
    ox, oy = layout.center(Hex(0, 0))
    ex, ey = layout.center(Hex(1, 0))
    fx, fy = layout.center(Hex(0, 1))
    basis = np.array([[ex - ox, ey - oy], [fx - ox, fy - oy]])
    xy: np.ndarray = qr @ basis + np.array([ox, oy])
    return xy


def _select(
    shape: object, qr: np.ndarray, centres: np.ndarray, layout: Layout, spacing: float, inside: Inside
) -> np.ndarray:
    """Indices into ``qr`` (with their ``centres``) of the hexes inside ``shape`` (see the
    module docstring): one STRtree query on the hex polygons, then one vectorised test."""
    if len(qr) == 0:
        return np.empty(0, dtype=np.intp)
    polygons = layout.polygons([Hex(int(q), int(r)) for q, r in qr])
    tol = EDGE_TOLERANCE * spacing
    met = shapely.STRtree(polygons).query(shape, predicate="dwithin", distance=tol)
    if inside == "centre":
        keep = shapely.dwithin(shape, shapely.points(centres[met]), tol)
    else:
        hex_area = float(shapely.area(polygons[0]))
        keep = shapely.area(shapely.intersection(polygons[met], shape)) > EDGE_TOLERANCE * hex_area
    chosen: np.ndarray = np.sort(met[keep])
    return chosen


def _area(center: Hex, qr: np.ndarray, chosen: np.ndarray, board: Map | None) -> Area:
    """The chosen hexes, each with its distance from ``center``, clipped to ``board``."""
    out: Area = {}
    for q, r in qr[chosen].tolist():
        h = Hex(q, r)
        out[h] = distance(center, h)
    return clip(out, board)


def _check_length(name: str, value: object, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if value < 0 or (positive and value == 0):
        raise ValueError(f"{name} must be {'> 0' if positive else '>= 0'}, got {value!r}")
    return float(value)


def cone(
    apex: Hex,
    facing_direction: int,
    half_angle_degrees: float,
    reach: int,
    layout: Layout | None = None,
    *,
    board: Map | None = None,
    inside: Inside = "centre",
) -> Area:
    """A fan from ``apex`` toward hexside direction ``facing_direction``, each hex with
    its distance from the apex.

    The wedge is drawn on the table: its axis runs from the apex's centre through the
    centre of the neighbour across hexside ``facing_direction`` and it opens
    ``half_angle_degrees`` to each side. A hex is in the cone when it is within ``reach``
    hexes of the apex and inside the wedge (``inside``: see the module docstring). The
    apex's own hex is inside (band 0). Flat and pointy layouts give the same hexes,
    since each is a rotation of the other.

    >>> sorted(cone(Hex(0, 0), 0, 30, 2).items())  # doctest: +NORMALIZE_WHITESPACE
    [(Hex(q=0, r=0), 0), (Hex(q=1, r=0), 1), (Hex(q=1, r=1), 2), (Hex(q=2, r=-1), 2),
     (Hex(q=2, r=0), 2)]
    """
    if (
        isinstance(facing_direction, bool)
        or not isinstance(facing_direction, int)
        or not 0 <= facing_direction < 6
    ):
        raise ValueError(f"facing_direction must be a hexside direction 0-5, got {facing_direction!r}")
    half = _check_length("half_angle_degrees", half_angle_degrees, positive=True)
    if half >= 180:
        raise ValueError(f"half_angle_degrees must be below 180 (use radius for a full circle), got {half}")
    _check_whole("reach", reach)
    inside = _check_inside(inside)
    lay, spacing = _regular(layout)

    qr = _disc(apex, reach)
    centres = _centres(lay, qr)
    ax, ay = lay.center(apex)
    fx, fy = lay.center(apex + DIRECTIONS[facing_direction])
    axis = math.atan2(fy - ay, fx - ax)
    # The fan's outer edge: arc points far enough out that the chords between them clear
    # every candidate hex; the reach itself is the hex-distance limit of the candidates.
    steps = max(2, math.ceil(2 * half / 15))
    angles = axis + np.radians(np.linspace(-half, half, steps + 1))
    far = (reach * spacing + lay.size[0]) / math.cos(math.radians(2 * half / steps) / 2) + spacing
    ring = np.empty((steps + 2, 2))
    ring[0] = (ax, ay)
    ring[1:, 0] = ax + far * np.cos(angles)
    ring[1:, 1] = ay + far * np.sin(angles)
    wedge = shapely.polygons(ring)
    return _area(apex, qr, _select(wedge, qr, centres, lay, spacing, inside), board)


def corridor(
    source: Hex,
    target: Hex,
    width: float,
    beyond: float,
    *,
    layout: Layout | None = None,
    board: Map | None = None,
    inside: Inside = "centre",
) -> Area:
    """A band of fire ``width`` hexes wide, centred on the line from the centre of
    ``source`` through the centre of ``target`` and running ``beyond`` hexes past it,
    each hex with its distance from ``source``.

    The band is the segment buffered by ``width / 2`` with flat caps (shapely), so it
    starts level with the firer and ends square ``beyond`` past the target's centre.
    ``inside`` says what counts (see the module docstring). In "centre" mode the band
    is closed along its sides and at its far end but open at the firer's end: a hex
    level with the firer, beside him, is not down range. The source hex is never part
    of its own corridor. Lengths are in hexes (centre to centre).

    >>> sorted(corridor(Hex(0, 0), Hex(2, 0), 1, 1))
    [Hex(q=1, r=0), Hex(q=2, r=0), Hex(q=3, r=0)]
    """
    if source == target:
        raise ValueError(f"a corridor needs a target other than its source {source}: no direction to fire in")
    w = _check_length("width", width, positive=True)
    past = _check_length("beyond", beyond)
    inside = _check_inside(inside)
    lay, spacing = _regular(layout)

    sx, sy = lay.center(source)
    tx, ty = lay.center(target)
    dx, dy = tx - sx, ty - sy
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    end = length + past * spacing
    line = shapely.linestrings([(sx, sy), (sx + ux * end, sy + uy * end)])
    band = shapely.buffer(line, w / 2 * spacing, cap_style="flat")

    # Every hex of the band is within this many hexes of the source (a hex step covers
    # at most 2/sqrt(3) centre-to-centre lengths of straight-line distance).
    far = math.ceil((end / spacing + w / 2) * 2 / math.sqrt(3.0)) + 1
    qr = _disc(source, far)
    centres = _centres(lay, qr)
    along = (centres[:, 0] - sx) * ux + (centres[:, 1] - sy) * uy
    across = np.abs((centres[:, 0] - sx) * -uy + (centres[:, 1] - sy) * ux)
    # Cheap cut before any polygon is made: hexes whose centre is more than a hex's size
    # outside the band cannot meet it.
    size = lay.size[0]
    near = (along >= -size) & (along <= end + size) & (across <= w / 2 * spacing + size)
    near &= (qr[:, 0] != source.q) | (qr[:, 1] != source.r)
    idx = np.flatnonzero(near)
    chosen = idx[_select(band, qr[idx], centres[idx], lay, spacing, inside)]
    if inside == "centre":
        chosen = chosen[along[chosen] > EDGE_TOLERANCE * spacing]
    return _area(source, qr, chosen, board)


# --- who is in an area -----------------------------------------------------------------


def units_inside(state: MapState, area: Mapping[Hex, int]) -> list[Piece]:
    """The units (not markers) standing in ``area``, nearest band first, then by hex,
    then in the order placed."""
    found = [
        (area[p.hex], p.hex, i, p) for i, p in enumerate(state.pieces()) if p.kind == "unit" and p.hex in area
    ]
    found.sort(key=lambda t: (t[0], t[1], t[2]))
    return [p for *_, p in found]


def friends_inside(state: MapState, area: Mapping[Hex, int], side: str) -> list[Piece]:
    """The units of ``side`` in ``area`` (as ``units_inside``): "this may hit your own men"."""
    return [p for p in units_inside(state, area) if p.side == side]


def occupied_by(pieces: Iterable[Piece]) -> list[Hex]:
    """The distinct hexes of ``pieces``, sorted."""
    return sorted({p.hex for p in pieces})


def friendly_fire_candidates(state: MapState, target: Hex, radius: int, side: str) -> list[Hex]:
    """The hexes within ``radius`` of ``target`` (on the map) holding a unit of ``side``,
    sorted: where fire aimed at ``target`` may land instead. Pick one with ``pick``."""
    return occupied_by(friends_inside(state, _within(target, radius, state.board), side))
