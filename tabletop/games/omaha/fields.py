"""D-Day at Omaha Beach fields of fire: the hexes each German position fires into.

The rules use fields of fire (intense, steady, sporadic hexes) throughout but give no
rule for drawing them: the printed map shows them. This module draws them by the
project's own default, kept as data in ``fields.yaml`` beside it: bands of intensity by
hex range from each hex of a position, inside a cone facing the beach, limited by the
ground (no field climbs a bluff or cliff hexside; crests hide the lower ground behind
them; bocage and buildings screen). See ``fields.yaml`` for the figures and choices.

The fields are areas: hex-range balls (exact hex-metric hexagons), cones, and the
shadows that masking ground casts from each projecting hex, built as arrays of shapely
geometries and matched against the hex centres with one STRtree query per kind of
area; nothing loops over polygon objects. Shadows have integer corners in the axial
lattice (below), so GEOS decides exactly whether a centre lies inside one or only on
its edge (a line that only grazes). ``fields_of_fire_exact`` computes the same fields
the slow way, one exact traversal per pair of hexes, as a check.

Knows the map (terrain, elevation, hexsides, regions) and ``fields.yaml``; knows nothing
of units, dice or which position is occupied: callers decide which fields count.

>>> from tabletop.board import load_map
>>> omaha = load_map("omaha")
>>> fields_of_fire(omaha)["wn-70"][omaha.hex_of("2411")]
'intense'
>>> field_at(omaha, omaha.hex_of("2412"))[:2]
[('wn-70', 'intense'), ('wn-68', 'steady')]
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal

import numpy as np
import shapely

from tabletop.board import Map
from tabletop.datareader import Reader
from tabletop.hexgrid import DIRECTIONS, Hex, LabelError, Layout, Traversal, distance, neighbors, traverse
from tabletop.yamlfile import DataError, LineDict, LineList, parse_yaml

GAME = "D-Day at Omaha Beach"
DATA = "fields.yaml"

Intensity = Literal["intense", "steady", "sporadic"]
#: strongest first: the order of the rules' target priority (omaha 4)
INTENSITIES: tuple[Intensity, ...] = ("intense", "steady", "sporadic")
SYMBOLS: Mapping[Intensity, str] = MappingProxyType({"intense": "●", "steady": "⊕", "sporadic": "○"})

# Added to each side of a cone (radians) so that hexes exactly on its edges are inside.
_EDGE = 1e-6
_ARC_STEPS = 48


# --------------------------------------------------------------------------- the data


@dataclass(frozen=True)
class PositionOverride:
    """One position's own settings in ``fields.yaml`` (None/empty: the defaults)."""

    key: str
    line: int
    bands: tuple[int, int, int] | None = None
    arc: float | None = None
    toward: str | None = None
    add: tuple[tuple[str, Intensity], ...] = ()
    remove: tuple[str, ...] = ()


@dataclass(frozen=True)
class FieldsConfig:
    """Everything ``fields.yaml`` holds, validated. ``bands`` are the largest hex range
    of intense, steady and sporadic fire; ``arc`` the cone's width in degrees."""

    projected_by: tuple[str, ...]
    bands: tuple[int, int, int]
    arc: float
    all_round: int
    climb: frozenset[str]
    crest: frozenset[str]
    screen: frozenset[str]
    beach: frozenset[str]
    high_ground: frozenset[str]
    german_side: str
    overrides: tuple[PositionOverride, ...] = ()
    path: str = DATA

    def override(self, key: str) -> PositionOverride | None:
        """The overrides for position ``key``, if ``fields.yaml`` gives any."""
        return next((o for o in self.overrides if o.key == key), None)


class _Reader(Reader):
    """Validation of ``fields.yaml``; every DataError names the line."""

    def arc(self, node: LineDict, where: str) -> float:
        value = node["arc"]
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 360:
            raise self.error(
                node.key_lines["arc"], f"{where}.arc must be a number of degrees above 0, at most 360"
            )
        return float(value)

    def bands(self, node: Any, where: str, line: int | None) -> tuple[int, int, int]:
        node = self.mapping(node, where, line, INTENSITIES, INTENSITIES)
        intense, steady, sporadic = (self.whole_in(node, k, where, 0) for k in INTENSITIES)
        if not intense <= steady <= sporadic or sporadic < 1:
            raise self.error(
                line, f"{where}: need intense <= steady <= sporadic and sporadic >= 1 (ranges in hexes)"
            )
        return intense, steady, sporadic

    def label(self, value: Any, where: str, line: int | None) -> str:
        if not isinstance(value, str) or not value.isdigit():
            raise self.error(line, f'{where}: {value!r} is not a hex label such as "3512" (quote it)')
        return value

    def override(self, key: str, node: Any, line: int | None) -> PositionOverride:
        where = f"positions.{key}"
        node = self.mapping(node, where, line, ("bands", "arc", "toward", "add", "remove"))
        bands = (
            self.bands(node["bands"], f"{where}.bands", node.key_lines["bands"]) if "bands" in node else None
        )
        arc = self.arc(node, where) if "arc" in node else None
        toward = (
            self.label(node["toward"], f"{where}.toward", node.key_lines["toward"])
            if "toward" in node
            else None
        )
        add: list[tuple[str, Intensity]] = []
        if "add" in node:
            table = self.mapping(node["add"], f"{where}.add", node.key_lines["add"], None)
            for label, value in table.items():
                at = table.key_lines[label]
                if value not in INTENSITIES:
                    raise self.error(at, f"{where}.add: {value!r} must be one of {', '.join(INTENSITIES)}")
                add.append((self.label(label, f"{where}.add", at), value))
        remove: list[str] = []
        if "remove" in node:
            items = node["remove"]
            if not isinstance(items, LineList):
                raise self.error(node.key_lines["remove"], f"{where}.remove must be a list of hex labels")
            remove = [
                self.label(v, f"{where}.remove", at) for v, at in zip(items, items.item_lines, strict=True)
            ]
        return PositionOverride(key, line or 0, bands, arc, toward, tuple(add), tuple(remove))

    def config(self) -> FieldsConfig:
        keys = (
            "projected_by",
            "bands",
            "arc",
            "all_round",
            "masking",
            "terrain",
            "line_of_sight",
            "positions",
        )
        top = self.mapping(self.data, "the file", 1, keys, keys[:-1])

        def block(key: str, keys: tuple[str, ...]) -> LineDict:
            return self.mapping(top[key], key, top.key_lines[key], keys, keys)

        masking = block("masking", ("climb", "crest", "screen"))
        terrain = block("terrain", ("beach", "high_ground"))
        los = block("line_of_sight", ("german_side",))
        if not isinstance(los["german_side"], str) or not los["german_side"]:
            raise self.error(los.key_lines["german_side"], "line_of_sight.german_side must be a word")
        positions = self.mapping(
            top.get("positions", LineDict()), "positions", top.key_lines.get("positions"), None
        )
        return FieldsConfig(
            projected_by=self.words_in(top, "projected_by", "the file"),
            bands=self.bands(top["bands"], "bands", top.key_lines["bands"]),
            arc=self.arc(top, "the file"),
            all_round=self.whole_in(top, "all_round", "the file", 0),
            climb=frozenset(self.words_in(masking, "climb", "masking")),
            crest=frozenset(self.words_in(masking, "crest", "masking")),
            screen=frozenset(self.words_in(masking, "screen", "masking")),
            beach=frozenset(self.words_in(terrain, "beach", "terrain")),
            high_ground=frozenset(self.words_in(terrain, "high_ground", "terrain")),
            german_side=los["german_side"],
            overrides=tuple(self.override(k, v, positions.key_lines[k]) for k, v in positions.items()),
            path=str(self.path),
        )


def read_config(text: str, path: str = DATA) -> FieldsConfig:
    """Validate the text of a ``fields.yaml``; DataError names the line of any problem."""
    return _Reader(path, parse_yaml(text, path), line=1).config()


@cache
def default_config() -> FieldsConfig:
    """The shipped ``fields.yaml`` beside this module, read once."""
    text = resources.files(__package__).joinpath(DATA).read_text(encoding="utf-8")
    return read_config(text, f"tabletop/games/omaha/{DATA}")


# ------------------------------------------------------------------ the ground rules
#
# Exact geometry works in the axial lattice: hex (q, r) has its centre at (3q, 3r), and
# a corner, the centroid of the three hexes meeting there, at the sum of their axial
# coordinates. The layout on screen (flat or pointy) is a linear image of this frame,
# and a linear map keeps which side of a line a point is on, so every test of sides,
# crossings and shadows below is exact integer arithmetic.

Point = tuple[int, int]


def lattice(h: Hex) -> Point:
    """The centre of ``h`` in the axial lattice."""
    return (3 * h.q, 3 * h.r)


def side_ends(a: Hex, b: Hex) -> tuple[Point, Point]:
    """The two corners that end the hexside between adjacent ``a`` and ``b``."""
    c1, c2 = sorted(set(neighbors(a)) & set(neighbors(b)))
    return (a.q + b.q + c1.q, a.r + b.r + c1.r), (a.q + b.q + c2.q, a.r + b.r + c2.r)


def _turn(o: Point, p: Point, q: Point) -> int:
    """Sign of the turn o -> p -> q: +1 left, -1 right, 0 in line."""
    v = (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])
    return (v > 0) - (v < 0)


def ground_mask(
    board: Map, h: Hex, ends: tuple[Hex, Hex], levels: tuple[int, int], config: FieldsConfig
) -> str | None:
    """Why hex ``h``, crossed between the two ``ends`` of a line (at ground ``levels``),
    hides one end from the other (None: it does not). ``fields.yaml`` masking: screening
    terrain always; crest terrain when higher than both ends, or as high as the higher
    end and higher than the lower one while at least as near the lower end as the higher
    (dead ground behind a crest; a position still sees down past the high ground around
    it)."""
    kind = board.terrain[h]
    if kind in config.screen:
        return f"{kind} screens the line"
    if kind not in config.crest:
        return None
    level = board.elevation[h]
    high, low = max(levels), min(levels)
    if level > high:
        return f"{kind} at level {level} is higher than both ends"
    if level == high > low:
        lower_end = ends[0] if levels[0] < levels[1] else ends[1]
        higher_end = ends[1] if lower_end is ends[0] else ends[0]
        if distance(h, lower_end) <= distance(h, higher_end):
            return f"{kind} at level {level} hides the lower ground behind it"
    return None


def climbs(board: Map, before: Hex, after: Hex, config: FieldsConfig) -> str | None:
    """The climb hexside feature (bluff, cliff) crossed going UP from ``before`` to
    adjacent ``after``, if any (None when the side has none or goes down or level)."""
    if board.elevation[after] <= board.elevation[before]:
        return None
    return next(iter(sorted(board.hexside_features(before, after) & config.climb)), None)


@dataclass(frozen=True)
class CornerPair:
    """Two climb hexsides (bluff, cliff) that meet at a corner: the corner, the far end
    of each, a point on each side's low and high side (the hexes' centres), and the
    feature keys. A line through the corner that separates the two far ends passes the
    bluff line there; it goes up if it comes from the low side of both hexsides."""

    corner: Point
    far: tuple[Point, Point]
    low: tuple[Point, Point]
    high: tuple[Point, Point]
    keys: tuple[str, str]


def corner_pairs(board: Map, config: FieldsConfig | None = None) -> tuple[CornerPair, ...]:
    """Every pair of climb hexsides (between hexes of different levels) sharing a corner,
    on ``board``; cached with the map's fields."""
    return _ground(board, default_config() if config is None else config).pairs


def _corner_pairs(board: Map, cfg: FieldsConfig) -> tuple[CornerPair, ...]:
    at: dict[Point, list[tuple[Point, Point, Point, str]]] = {}
    on_map = board.grid.contains
    for key in sorted(cfg.climb & set(board.hexsides)):
        for side in sorted(board.hexsides[key].sides):
            a, b = side
            if not (on_map(a) and on_map(b)) or board.elevation[a] == board.elevation[b]:
                continue
            low, high = (a, b) if board.elevation[a] < board.elevation[b] else (b, a)
            e1, e2 = side_ends(a, b)
            at.setdefault(e1, []).append((e2, lattice(low), lattice(high), key))
            at.setdefault(e2, []).append((e1, lattice(low), lattice(high), key))
    out = []
    for corner, listed in sorted(at.items()):
        ends = list({far: (far, low, high, key) for far, low, high, key in reversed(listed)}.values())
        for i, (f1, l1, h1, k1) in enumerate(ends):  # a hexside under two features counts once
            for f2, l2, h2, k2 in ends[i + 1 :]:
                out.append(CornerPair(corner, (f1, f2), (l1, l2), (h1, h2), (k1, k2)))
    return tuple(out)


def corner_passages(board: Map, s: Hex, t: Hex, config: FieldsConfig) -> list[tuple[str, str, Fraction]]:
    """Where the segment from the centre of ``s`` to that of ``t`` passes through a
    corner of the bluff/cliff line from one side to the other: (feature key, "up" or
    "down", fraction along the line). The engine reads a line through a corner as
    crossing no hexside; this is the ground rule for bluffs and cliffs on top of that:
    a line that goes through a corner between two bluff hexsides that both face it from
    below climbs the bluff there."""
    S, T = lattice(s), lattice(t)
    dx, dy = T[0] - S[0], T[1] - S[1]
    norm = dx * dx + dy * dy
    out: list[tuple[str, str, Fraction]] = []
    seen: set[Point] = set()
    for p in corner_pairs(board, config):
        v = p.corner
        along = (v[0] - S[0]) * dx + (v[1] - S[1]) * dy
        if v in seen or _turn(S, T, v) != 0 or not 0 < along < norm:
            continue
        if _turn(S, v, p.far[0]) * _turn(S, v, p.far[1]) >= 0:
            continue  # both hexsides on one side of the line: it only touches the corner
        sides = [_turn(v, f, S) for f in p.far]
        if 0 in sides:
            continue
        for way, side_point in (("up", p.low), ("down", p.high)):
            if all(sides[i] == _turn(v, p.far[i], side_point[i]) for i in (0, 1)):
                out.append((p.keys[0], way, Fraction(along, norm)))
                seen.add(v)
    return out


# ------------------------------------------------------------------------ the fields


@dataclass(frozen=True)
class Fields:
    """A map's fields of fire: per position key, hex -> intensity (in hex label order);
    per hex, the (position, intensity) pairs strongest first."""

    by_position: Mapping[str, Mapping[Hex, Intensity]]
    by_hex: Mapping[Hex, tuple[tuple[str, Intensity], ...]]


@dataclass
class _Ground:
    """Per map and config: the bluff-line corners, and the fields once computed."""

    pairs: tuple[CornerPair, ...]
    fields: Fields | None = None


_CACHE: dict[tuple[int, FieldsConfig], tuple[weakref.ref[Map], _Ground]] = {}


def _ground(board: Map, cfg: FieldsConfig) -> _Ground:
    if not isinstance(board, Map):
        raise TypeError(f"fields of fire need a Map, got {type(board).__name__}")
    key = (id(board), cfg)
    hit = _CACHE.get(key)
    if hit is not None and hit[0]() is board:
        return hit[1]
    ground = _Ground(_corner_pairs(board, cfg))
    _CACHE[key] = (weakref.ref(board), ground)
    weakref.finalize(board, _CACHE.pop, key, None)
    return ground


def fields(board: Map, config: FieldsConfig | None = None) -> Fields:
    """The fields of fire of ``board``'s positions, computed once per map and config."""
    cfg = default_config() if config is None else config
    ground = _ground(board, cfg)
    if ground.fields is None:
        ground.fields = _compute(board, cfg)
    return ground.fields


def fields_of_fire(board: Map, *, config: FieldsConfig | None = None) -> dict[str, dict[Hex, Intensity]]:
    """Each position's field of fire: position key -> {hex: "intense"|"steady"|"sporadic"}.

    Every region whose kind ``fields.yaml`` lists under ``projected_by`` has an entry,
    perhaps empty. The result is a fresh copy; the computation is cached per map.
    """
    return {k: dict(v) for k, v in fields(board, config).by_position.items()}


def field_at(board: Map, h: Hex, *, config: FieldsConfig | None = None) -> list[tuple[str, Intensity]]:
    """The fields covering hex ``h``: (position key, intensity), intense first, then in
    the map's order of positions. ValueError if ``h`` is off the map."""
    if not isinstance(board, Map):
        raise TypeError(f"fields of fire need a Map, got {type(board).__name__}")
    if not isinstance(h, Hex) or not board.grid.contains(h):
        raise ValueError(f"{h!r} is not a hex on the map {board.name!r}")
    return list(fields(board, config).by_hex.get(h, ()))


def position_keys(board: Map, config: FieldsConfig | None = None) -> list[str]:
    """The keys of the regions that project a field, in the map's order."""
    cfg = default_config() if config is None else config
    return [k for k, r in board.regions.items() if r.kind in cfg.projected_by]


@dataclass(frozen=True)
class _Setup:
    """What both computations share: per position its hexes, bands, cone and facing."""

    keys: list[str]
    own: list[list[Hex]]
    bands: list[tuple[int, int, int]]
    half: list[float]  # half the cone, radians (pi: all round)
    facing: list[float]  # angle of the cone's axis, in layout coordinates
    all_round: int


def _hex_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hex distance between matching rows of ``a`` and ``b`` (axial q, r)."""
    dq, dr = a[..., 0] - b[..., 0], a[..., 1] - b[..., 1]
    d: np.ndarray = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    return d


def _setup(board: Map, cfg: FieldsConfig, layout: Layout, hexes: list[Hex], centres: np.ndarray) -> _Setup:
    """Each position's hexes, bands, and cone: facing the middle of the beach hexes in
    reach, or the nearest ones if none is in reach, or all round if the map has none."""
    keys = position_keys(board, cfg)
    qr = np.asarray(hexes, dtype=np.int64)
    beach = np.array([board.terrain[h] in cfg.beach for h in hexes], dtype=bool)
    index = {h: i for i, h in enumerate(hexes)}
    own, bands, half, facing = [], [], [], []
    for key in keys:
        region_hexes = sorted(board.regions[key].hexes)
        o = cfg.override(key)
        b = o.bands if o is not None and o.bands is not None else cfg.bands
        arc = o.arc if o is not None and o.arc is not None else cfg.arc
        own_idx = np.array([index[h] for h in region_hexes])
        origin = centres[own_idx].mean(axis=0)
        target: np.ndarray | None = None
        if o is not None and o.toward is not None:
            target = np.asarray(layout.center(_hex_of(board, o.toward, cfg, o)))
        else:
            d = _hex_distance(qr[:, None, :], qr[None, own_idx, :]).min(axis=1)
            candidates = beach.copy()
            candidates[own_idx] = False
            near = candidates & (d <= b[2])
            if not near.any() and candidates.any():
                near = candidates & (d == d[candidates].min())
            if near.any():
                target = centres[near].mean(axis=0)
        angle = None
        if target is not None and math.hypot(*(target - origin)) > 1e-9:
            angle = math.atan2(target[1] - origin[1], target[0] - origin[0])
        own.append(region_hexes)
        bands.append(b)
        half.append(math.radians(arc) / 2 if angle is not None else math.pi)
        facing.append(angle or 0.0)
    return _Setup(keys, own, bands, half, facing, cfg.all_round)


def _hex_of(board: Map, label: str, cfg: FieldsConfig, o: PositionOverride) -> Hex:
    try:
        return board.hex_of(label)
    except LabelError as exc:
        raise DataError(cfg.path, o.line, f"positions.{o.key}: {exc} (map {board.name!r})") from None


_DIRS = np.array(DIRECTIONS, dtype=np.int64)  # axial unit steps, in order round a hex


def _balls(centre: np.ndarray, radius: np.ndarray) -> np.ndarray:
    """Hex-range balls in the lattice: for ``radius`` k + 1/2 (in hexes) the hexagon
    holding exactly the centres within hex range k of ``centre`` (a lattice point)."""
    balls: np.ndarray = shapely.polygons(centre[:, None, :] + 3.0 * radius[:, None, None] * _DIRS[None, :, :])
    return balls


def _cones(
    apex: np.ndarray, facing: np.ndarray, half: np.ndarray, reach: float, to_lattice: np.ndarray
) -> np.ndarray:
    """Cones (circular sectors, drawn in layout coordinates where angles are true, then
    mapped into the lattice) from each apex, reaching past ``reach`` layout units; rows
    whose ``half`` is pi or more are whole discs."""
    out = np.empty(len(apex), dtype=object)
    t = np.linspace(-1.0, 1.0, _ARC_STEPS + 1)
    r = reach / math.cos(math.pi / _ARC_STEPS)  # the arc's chords stay beyond ``reach``
    cone = half < math.pi
    for rows, ang, tip in (
        (cone, facing[cone, None] + t[None, :] * (half[cone, None] + _EDGE), True),
        (~cone, np.broadcast_to(t[:-1] * math.pi, (int((~cone).sum()), _ARC_STEPS)), False),
    ):
        if not rows.any():
            continue
        arc = r * np.stack([np.cos(ang), np.sin(ang)], axis=-1) @ to_lattice.T + apex[rows, None, :]
        ring = np.concatenate([apex[rows, None, :], arc], axis=1) if tip else arc
        out[rows] = shapely.polygons(ring)
    return out


def _compute(board: Map, cfg: FieldsConfig) -> Fields:
    layout = board.grid.layout()
    hexes = board.grid.hexes()
    n = len(hexes)
    qr = np.asarray(hexes, dtype=np.int64)
    centres = np.array([layout.center(h) for h in hexes])  # layout units: for angles only
    setup = _setup(board, cfg, layout, hexes, centres)
    if not setup.keys:
        return Fields(MappingProxyType({}), MappingProxyType({}))
    index = {h: i for i, h in enumerate(hexes)}
    # layout vector -> lattice vector: the inverse of the layout's axial basis, times 3
    basis = np.array([layout.center(Hex(1, 0)), layout.center(Hex(0, 1))]).T
    to_lattice = 3.0 * np.linalg.inv(basis)
    points = shapely.STRtree(shapely.points(3.0 * qr))

    # The projecting hexes: one row per hex of every position.
    src_pos = np.array([p for p, own in enumerate(setup.own) for _ in own])
    src_hex = np.array([index[h] for own in setup.own for h in own])
    src = 3.0 * qr[src_hex]
    bands = np.array(setup.bands, dtype=float)[src_pos]  # (sources, 3)
    reach = float(bands.max())

    # Band areas: (ball of the band's range, clipped to the cone) + the all-round ball.
    nb = len(INTENSITIES)
    cones = _cones(
        src,
        np.array(setup.facing)[src_pos],
        np.array(setup.half)[src_pos],
        (reach + 1.0) * math.sqrt(3.0) * layout.size[0],
        to_lattice,
    )
    apex, radii = np.repeat(src, nb, axis=0), bands.reshape(-1)
    areas = shapely.union(
        shapely.intersection(_balls(apex, radii + 0.5), np.repeat(cones, nb)),
        _balls(apex, np.minimum(radii, setup.all_round) + 0.5),
    )
    area_idx, hit = points.query(areas, predicate="contains")
    source, band = area_idx // nb, area_idx % nb
    own_mask = np.zeros((len(setup.keys), n), dtype=bool)
    for p, own in enumerate(setup.own):
        own_mask[p, [index[h] for h in own]] = True
    keep = ~own_mask[src_pos[source], hit]
    source, band, hit = source[keep], band[keep], hit[keep]

    keep = ~_hidden(board, cfg, hexes, qr, src_hex, source, hit, reach)
    source, band, hit = source[keep], band[keep], hit[keep]

    # Per position, each hex at its strongest band over the position's hexes.
    pos = src_pos[source]
    order = np.lexsort((band, hit, pos))
    pos, hit, band = pos[order], hit[order], band[order]
    first = np.ones(len(pos), dtype=bool)
    first[1:] = (pos[1:] != pos[:-1]) | (hit[1:] != hit[:-1])
    by_position: dict[str, dict[Hex, Intensity]] = {k: {} for k in setup.keys}
    for p, h, b in zip(pos[first].tolist(), hit[first].tolist(), band[first].tolist(), strict=True):
        by_position[setup.keys[p]][hexes[h]] = INTENSITIES[b]
    _apply_overrides(board, cfg, by_position)
    return _freeze(by_position, setup.keys)


def _hidden(
    board: Map,
    cfg: FieldsConfig,
    hexes: list[Hex],
    qr: np.ndarray,
    src_hex: np.ndarray,
    cand_src: np.ndarray,
    cand_hex: np.ndarray,
    reach: float,
) -> np.ndarray:
    """Which candidates (projecting hex ``src_hex[cand_src[i]]``, target
    ``cand_hex[i]``) the ground hides. Shadows cast from each projecting hex, all with
    integer lattice corners so that GEOS decides containment exactly:

    - crest and screen hexes: the cone past the hex's two outermost corners; a target on
      its edge (the line only grazes the hex) is not inside;
    - climb hexsides seen from their low side: the cone past the hexside;
    - corners of the bluff line passed from below: the ray past the corner.

    Each projecting hex gets its own lane of the plane (everything shifted along x by
    lane * width), so one STRtree query of every shadow against every candidate only
    pairs a shadow with candidates of its own source.
    """
    n_src = len(src_hex)
    S = 3 * qr[src_hex]  # (sources, 2) lattice, integers
    ball = _balls(S.astype(float), np.full(n_src, reach + 0.5))
    k_far = 6 * (int(reach) + 2)  # a shadow's far end: corner + k_far * (corner - source)
    span = 3 * (qr.max(axis=0) - qr.min(axis=0)) + 2 * k_far * 3 * (int(reach) + 2)
    width = int(span.max()) + 10
    lane = np.stack([np.arange(n_src, dtype=np.int64) * width, np.zeros(n_src, dtype=np.int64)], axis=1)
    targets = shapely.STRtree(shapely.points(3 * qr[cand_hex] + lane[cand_src]))
    level = np.array([board.elevation[h] for h in hexes], dtype=np.int64)
    terrain = [board.terrain[h] for h in hexes]
    shadows, s_src, s_hex, s_kind = [], [], [], []  # kind 0: screen, 1: crest, 2: climb

    def cone(a: np.ndarray, b: np.ndarray, j: np.ndarray) -> np.ndarray:
        """The shadow past segment a-b as seen from source j, in j's lane."""
        s = S[j]
        quad = np.stack([a, b, b + k_far * (b - s), a + k_far * (a - s)], axis=1) + lane[j][:, None, :]
        out: np.ndarray = shapely.polygons(quad.astype(float))
        return out

    # Hex shadows.
    m_idx = np.array([i for i, t in enumerate(terrain) if t in cfg.screen or t in cfg.crest], dtype=np.int64)
    if len(m_idx):
        corner = 3 * qr[m_idx][:, None, :] + _DIRS[None, :, :] + np.roll(_DIRS, -1, axis=0)[None, :, :]
        j, k = shapely.STRtree(shapely.polygons(corner.astype(float))).query(ball, predicate="intersects")
        ok = m_idx[k] != src_hex[j]
        j, k = j[ok], k[ok]
        v = corner[k] - S[j][:, None, :]
        c = (3 * qr[m_idx[k]] - S[j])[:, None, :]
        turn = np.arctan2(c[..., 0] * v[..., 1] - c[..., 1] * v[..., 0], (c * v).sum(-1))
        rows = np.arange(len(j))
        a, b = corner[k][rows, turn.argmin(axis=1)], corner[k][rows, turn.argmax(axis=1)]
        shadows.append(cone(a, b, j))
        s_src.append(j)
        s_hex.append(m_idx[k])
        s_kind.append(np.array([0 if terrain[i] in cfg.screen else 1 for i in m_idx[k]], dtype=np.int64))

    # Hexside shadows, from below.
    index = {h: i for i, h in enumerate(hexes)}
    sides = sorted({s for key in cfg.climb & set(board.hexsides) for s in board.hexsides[key].sides})
    rows_ = [(index[s.a], index[s.b], *side_ends(s.a, s.b)) for s in sides if s.a in index and s.b in index]
    rows_ = [r for r in rows_ if level[r[0]] != level[r[1]]]
    if rows_:
        ia = np.array([r[0] for r in rows_])
        ib = np.array([r[1] for r in rows_])
        e1 = np.array([r[2] for r in rows_], dtype=np.int64)
        e2 = np.array([r[3] for r in rows_], dtype=np.int64)
        low = 3 * qr[np.where(level[ia] < level[ib], ia, ib)]
        segs = shapely.linestrings(np.stack([e1, e2], axis=1).astype(float))
        j, k = shapely.STRtree(segs).query(ball, predicate="intersects")
        below = _turns(e1[k], e2[k], S[j])
        ok = (below != 0) & (below == _turns(e1[k], e2[k], low[k]))
        j, k = j[ok], k[ok]
        shadows.append(cone(e1[k], e2[k], j))
        s_src.append(j)
        s_hex.append(np.full(len(j), -1, dtype=np.int64))
        s_kind.append(np.full(len(j), 2, dtype=np.int64))

    hidden = np.zeros(len(cand_hex), dtype=bool)
    if shadows:
        sj, sh, kind = np.concatenate(s_src), np.concatenate(s_hex), np.concatenate(s_kind)
        which, cand = targets.query(np.concatenate(shadows), predicate="contains")
        j, mh, kind, t = sj[which], sh[which], kind[which], cand_hex[cand]
        assert (j == cand_src[cand]).all(), "a shadow left its source's lane"
        ls, lt, lm = level[src_hex[j]], level[t], level[np.maximum(mh, 0)]
        # the crest rule of ground_mask: higher than both ends, or as high as the higher
        # end, higher than the lower, and at least as near the lower end as the higher
        to_src, to_t = _hex_distance(qr[mh], qr[src_hex[j]]), _hex_distance(qr[mh], qr[t])
        to_low, to_high = np.where(ls < lt, to_src, to_t), np.where(ls < lt, to_t, to_src)
        high, low_level = np.maximum(ls, lt), np.minimum(ls, lt)
        crest = (lm > high) | ((lm == high) & (high > low_level) & (to_low <= to_high))
        hides = (t != mh) & ((kind != 1) | crest)
        hidden[cand[hides]] = True

    # Corner rays: through a corner of the bluff line, between its two hexsides, from the
    # low side of both (corner_passages, "up").
    pairs = corner_pairs(board, cfg)
    if pairs:
        v = np.array([p.corner for p in pairs], dtype=np.int64)
        f1, f2 = (np.array([p.far[i] for p in pairs], dtype=np.int64) for i in (0, 1))
        l1, l2 = (np.array([p.low[i] for p in pairs], dtype=np.int64) for i in (0, 1))
        j, k = shapely.STRtree(shapely.points(v.astype(float))).query(ball, predicate="intersects")
        s = S[j]
        apart = _turns(s, v[k], f1[k]) * _turns(s, v[k], f2[k]) < 0
        side1, side2 = _turns(v[k], f1[k], s), _turns(v[k], f2[k], s)
        up = (
            (side1 != 0)
            & (side1 == _turns(v[k], f1[k], l1[k]))
            & (side2 != 0)
            & (side2 == _turns(v[k], f2[k], l2[k]))
        )
        j, k = j[apart & up], k[apart & up]
        if len(j):
            a = v[k]
            ray = np.stack([a, a + k_far * (a - S[j])], axis=1) + lane[j][:, None, :]
            which, cand = targets.query(shapely.linestrings(ray.astype(float)), predicate="intersects")
            assert (j[which] == cand_src[cand]).all(), "a ray left its source's lane"
            hidden[cand] = True
    return hidden


def _turns(o: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Row-wise sign of the turn o -> p -> q (integer arrays): +1 left, -1 right, 0 in line."""
    v = (p[:, 0] - o[:, 0]) * (q[:, 1] - o[:, 1]) - (p[:, 1] - o[:, 1]) * (q[:, 0] - o[:, 0])
    out: np.ndarray = np.sign(v)
    return out


def _apply_overrides(board: Map, cfg: FieldsConfig, by_position: dict[str, dict[Hex, Intensity]]) -> None:
    for key, field in by_position.items():
        o = cfg.override(key)
        if o is None:
            continue
        for label in o.remove:
            field.pop(_hex_of(board, label, cfg, o), None)
        for label, intensity in o.add:
            field[_hex_of(board, label, cfg, o)] = intensity
        ordered = sorted(field.items(), key=lambda kv: board.grid.offset_of(kv[0]))
        field.clear()
        field.update(ordered)


def _freeze(by_position: dict[str, dict[Hex, Intensity]], keys: list[str]) -> Fields:
    rank = {k: i for i, k in enumerate(keys)}
    by_hex: dict[Hex, list[tuple[str, Intensity]]] = {}
    for key, field in by_position.items():
        for h, intensity in field.items():
            by_hex.setdefault(h, []).append((key, intensity))
    return Fields(
        MappingProxyType({k: MappingProxyType(v) for k, v in by_position.items()}),
        MappingProxyType(
            {
                h: tuple(sorted(v, key=lambda kv: (INTENSITIES.index(kv[1]), rank[kv[0]])))
                for h, v in by_hex.items()
            }
        ),
    )


# ------------------------------------------------------------------- the exact check


def fields_of_fire_exact(
    board: Map, *, config: FieldsConfig | None = None
) -> dict[str, dict[Hex, Intensity]]:
    """The same fields as ``fields_of_fire``, computed the slow exact way: for every
    projecting hex and every hex in reach, the exact centre-to-centre traversal read
    with the same ground rules (``ground_mask``, ``climbs``, ``corner_passages``).
    Not cached; for checks and tests."""
    cfg = default_config() if config is None else config
    layout = board.grid.layout()
    hexes = board.grid.hexes()
    centres = np.array([layout.center(h) for h in hexes])
    setup = _setup(board, cfg, layout, hexes, centres)
    out: dict[str, dict[Hex, Intensity]] = {}
    for key, own, bands, half in zip(setup.keys, setup.own, setup.bands, setup.half, strict=True):
        facing = setup.facing[setup.keys.index(key)]
        field: dict[Hex, int] = {}
        for s in own:
            sx, sy = layout.center(s)
            for t in hexes:
                d = distance(s, t)
                if t in own or d > bands[2]:
                    continue
                if d > setup.all_round and half < math.pi:
                    tx, ty = layout.center(t)
                    off = abs((math.atan2(ty - sy, tx - sx) - facing + math.pi) % (2 * math.pi) - math.pi)
                    if off > half + _EDGE:
                        continue
                if _masked_exact(board, s, t, cfg):
                    continue
                b = next(i for i, top in enumerate(bands) if d <= top)
                field[t] = min(b, field.get(t, b))
        out[key] = {h: INTENSITIES[field[h]] for h in sorted(field, key=board.grid.offset_of)}
    _apply_overrides(board, cfg, out)
    return out


def _masked_exact(board: Map, s: Hex, t: Hex, cfg: FieldsConfig) -> bool:
    trav = traverse(s, t)
    ls, lt = board.elevation[s], board.elevation[t]
    on_map = board.grid.contains
    for h in trav.crossed[1:-1]:
        if on_map(h) and ground_mask(board, h, (s, t), (ls, lt), cfg) is not None:
            return True
    for before, after in crossings(trav):
        if on_map(before) and on_map(after) and climbs(board, before, after, cfg) is not None:
            return True
    return any(way == "up" for _key, way, _at in corner_passages(board, s, t, cfg))


def crossings(trav: Traversal) -> list[tuple[Hex, Hex]]:
    """The hexsides whose interior a traversal crosses, as (hex before, hex after) in
    order along the line: consecutive crossed hexes that the line leaves and enters at
    the same point, not at a corner (the engine's ``LineContext.crossed_hexsides``,
    with the direction kept)."""
    corners = {g.start for g in trav.grazed if g.corner is not None}
    out = []
    for i in range(len(trav.crossed) - 1):
        a, b = trav.crossed[i], trav.crossed[i + 1]
        leave, enter = trav.spans[i][1], trav.spans[i + 1][0]
        if leave == enter and leave not in corners and distance(a, b) == 1:
            out.append((a, b))
    return out
