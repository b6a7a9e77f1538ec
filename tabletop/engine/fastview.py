"""Whole-map viewsheds in a few numpy passes, for policies with fixed hex effects.

Why: a viewshed asks one line of sight per hex of the map (10,000 on a 100 x 100
map); asked one by one in Python that is a second or more. When a policy's hex effects
do not depend on the query (``static_obstacles``), has no whole-line rules and no
hexside effects, every line's verdict is the worst effect among its crossed hexes and
its grazes read by the grazing rule. So the per-vector traversals are laid out once as
flat integer arrays (a ragged "CSR" table), and a viewshed is a gather from the map's
effect grid followed by a per-line maximum.

Memory stays bounded on any map (finding H5): the traversals are worked out in numpy
passes of at most ``PASS_CELLS`` cells, a table is kept only for lines up to
``TABLE_REACH`` hexes, and a viewshed with longer lines works them out as it goes,
outward from the source, dropping each line once it is blocked. Where the map is open
(a few percent of its hexes hinder or block), a viewshed with no table at hand -- the
first of a process, or one with longer lines -- starts instead from those few hexes and
the lines that pass near them (``_sparse``): no cold start (issue 19 item 3).

Exactness is unchanged: the contacts come from the same integer test as
``hexgrid.traversal``; the tests compare both paths with ``line_of_sight`` hex by hex.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tabletop.hexgrid import Hex, RectGrid

from . import tablecache
from .los import GrazeRule, Obstacle

_LEVEL = {"hinder": 1, "block": 2}


@dataclass(frozen=True)
class _Ragged:
    """Rows of (dq, dr) offsets, one row per vector id: row v is q[ptr[v]:ptr[v + 1]]."""

    q: np.ndarray
    r: np.ndarray
    ptr: np.ndarray


@dataclass(frozen=True)
class VectorTable:
    """The exact traversal of every vector up to ``reach``, as flat arrays.

    ``ids[dq + reach, dr + reach]`` is a vector's row (-1 beyond reach). ``crossed``
    holds the crossed hexes between the ends; ``corners`` the hexes touched at a
    corner; ``run_a``/``run_b`` the two hexes on either side of each hexside run.
    """

    reach: int
    ids: np.ndarray
    crossed: _Ragged
    corners: _Ragged
    run_a: _Ragged
    run_b: _Ragged
    head_q: np.ndarray  # (vectors, HEAD): the first crossed hexes of each row, dense,
    head_r: np.ndarray  # padded with (0, 0), the source itself, where a row is shorter


_TABLES: dict[int, VectorTable] = {}
HEAD = 6  # crossed hexes per line read in the first, dense pass
#: Longest vector (in hexes) a kept table covers. A table grows as the cube of its reach
#: (about 20 MB at 100); beyond it each viewshed works its lines out as it goes.
TABLE_REACH = 100
#: The layout of a table file in the cache folder: a file of another layout is ignored
#: (and rebuilt over). Bump it whenever ``_build`` or ``VectorTable`` changes.
TABLE_FORMAT = 1


def vector_table(reach: int, build: bool = True, room: int = 0) -> VectorTable | None:
    """The table for vectors up to ``reach``: kept in memory once made, else read from
    the user's cache folder (``tablecache``), else built (and written there) unless
    ``build`` is False (then None). A table built here covers ``room`` too (at most
    ``TABLE_REACH``): the map's diameter, so a viewshed following the pointer builds it
    once rather than again at each longer line (five builds, a second, measured)."""
    for have, table in _TABLES.items():
        if have >= reach:
            return table
    made = tablecache.load(reach)
    if made is None:
        if not build:
            return None
        made = _build(max(reach, min(room, TABLE_REACH)))
        tablecache.save(made)
    _TABLES.clear()
    _TABLES[made.reach] = made
    return made


def _build(reach: int) -> VectorTable:
    """Every vector up to ``reach``: its exact contacts worked out in numpy passes of
    at most ``PASS_CELLS`` cells, kept as int32 rows (crossed hexes ordered by where the
    line enters them)."""
    grid_q, grid_r = np.meshgrid(np.arange(-reach, reach + 1), np.arange(-reach, reach + 1), indexing="ij")
    inside = np.abs(grid_q + grid_r) <= reach
    vq, vr = grid_q[inside], grid_r[inside]  # dq-major, dr-minor, as the ids below
    size = 2 * reach + 1
    ids = np.full((size, size), -1, dtype=np.int32)
    ids[vq + reach, vr + reach] = np.arange(len(vq), dtype=np.int32)
    parts: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {
        k: [] for k in ("crossed", "corners", "run_a", "run_b")
    }
    for lo, hi in _batches(np.maximum(np.maximum(np.abs(vq), np.abs(vr)), np.abs(vq + vr))):
        nonzero = np.nonzero((vq[lo:hi] != 0) | (vr[lo:hi] != 0))[0]
        w = _wedge(vq[lo:hi][nonzero], vr[lo:hi][nonzero])
        cells = _cells(w, np.arange(len(nonzero)), 0, w.cq + 1)
        vid = nonzero[cells.vector] + lo
        keep = np.nonzero(cells.interior)[0]
        keep = keep[np.lexsort((cells.enter[keep], vid[keep]))]
        parts["crossed"].append((vid[keep], cells.q[keep], cells.r[keep]))
        keep = np.nonzero(cells.corner)[0]
        parts["corners"].append((vid[keep], cells.q[keep], cells.r[keep]))
        a, b = _run_pairs(cells)
        parts["run_a"].append((vid[a], cells.q[a], cells.r[a]))
        parts["run_b"].append((vid[b], cells.q[b], cells.r[b]))

    def ragged(key: str) -> _Ragged:
        vid, q, r = (np.concatenate([p[i] for p in parts[key]]) for i in range(3))
        order = np.argsort(vid, kind="stable")  # batches come in vector order already
        ptr = np.zeros(len(vq) + 1, dtype=np.int64)
        np.cumsum(np.bincount(vid, minlength=len(vq)), out=ptr[1:])
        return _Ragged(q[order].astype(np.int32), r[order].astype(np.int32), ptr)

    crossed = ragged("crossed")
    lengths = np.diff(crossed.ptr)
    cols = np.arange(HEAD)
    ok = cols[None, :] < lengths[:, None]
    pick = np.where(ok, crossed.ptr[:-1, None] + cols[None, :], 0)
    head_q = np.where(ok, crossed.q[pick] if len(crossed.q) else 0, 0).astype(np.int32)
    head_r = np.where(ok, crossed.r[pick] if len(crossed.r) else 0, 0).astype(np.int32)
    return VectorTable(
        reach, ids, crossed, ragged("corners"), ragged("run_a"), ragged("run_b"), head_q, head_r
    )


def _batches(lengths: np.ndarray) -> list[tuple[int, int]]:
    """Consecutive slices of vectors whose candidate cells (3 a column, a vector's
    length in columns) stay within ``PASS_CELLS`` a slice."""
    cost = np.cumsum(3 * (lengths.astype(np.int64) + 1))
    out, lo = [], 0
    while lo < len(lengths):
        base = cost[lo - 1] if lo else 0
        hi = max(int(np.searchsorted(cost, base + PASS_CELLS, side="right")), lo + 1)
        out.append((lo, hi))
        lo = hi
    return out


@dataclass(frozen=True)
class EffectGrid:
    """The map's hex effects (0 clear, 1 hinder, 2 block) on an axial box padded by one
    hex of nothing, so lines that touch just outside the map read "clear" there."""

    levels: np.ndarray
    q0: int
    r0: int
    #: the longest line between two hexes of the map (the widest of its q, r and s
    #: spans): a vector table built for the map's first viewshed covers every later one
    diameter: int = 0

    @classmethod
    def of(cls, grid: RectGrid, obstacles: dict[Hex, Obstacle], hexes: list[Hex] | None = None) -> EffectGrid:
        """The grid of a map's effects; ``hexes``, if given, is ``grid.hexes()`` already
        listed (a million of them on the biggest maps: worth listing once)."""
        hexes = grid.hexes() if hexes is None else hexes
        qs = [h.q for h in hexes]
        rs = [h.r for h in hexes]
        ss = [q + r for q, r in zip(qs, rs, strict=True)]
        q0, r0 = min(qs) - 1, min(rs) - 1
        levels = np.zeros((max(qs) - q0 + 2, max(rs) - r0 + 2), dtype=np.int8)
        for h, ob in obstacles.items():
            levels[h.q - q0, h.r - r0] = _LEVEL.get(ob.severity, 0)
        diameter = max(max(qs) - min(qs), max(rs) - min(rs), max(ss) - min(ss))
        return cls(levels, q0, r0, diameter)


def _spans(starts: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Flat indices of the spans ``[starts[i], starts[i] + lengths[i])`` laid end to end,
    and where each span begins in that list (for ``maximum.reduceat``)."""
    first = np.cumsum(lengths) - lengths
    idx = np.repeat(starts - first, lengths) + np.arange(int(lengths.sum()))
    return idx, first


def _row_max(levels: np.ndarray, first: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Per span, the maximum of ``levels`` over it (0 for an empty span)."""
    out = np.zeros(len(lengths), dtype=np.int8)
    filled = lengths > 0
    if len(levels):
        out[filled] = np.maximum.reduceat(levels, first[filled])
    return out


def _worst(rag: _Ragged, vids: np.ndarray, sq: int, sr: int, effects: EffectGrid) -> np.ndarray:
    """For each vector id, the worst effect level along its row (0 for an empty row):
    the rows gathered end to end, then one ``maximum.reduceat``."""
    starts = rag.ptr[vids]
    lengths = rag.ptr[vids + 1] - starts
    idx, first = _spans(starts, lengths)
    lv = effects.levels[rag.q[idx] + (sq - effects.q0), rag.r[idx] + (sr - effects.r0)]
    return _row_max(lv, first, lengths)


def fast_viewshed(
    effects: EffectGrid, grazing: GrazeRule, source: Hex, tq: np.ndarray, tr: np.ndarray
) -> np.ndarray:
    """Effect level (0 clear, 1 hindered, 2 blocked) of the line from ``source`` to each
    target (axial arrays ``tq``, ``tr``), by the worst crossed hex and the grazes read by
    ``grazing``."""
    if len(tq) == 0:
        return np.zeros(0, dtype=np.int8)
    dq, dr = tq - source.q, tr - source.r
    reach = int(max(np.abs(dq).max(), np.abs(dr).max(), np.abs(dq + dr).max()))
    if reach > TABLE_REACH:
        return _without_table(effects, grazing, source, dq, dr)
    table = vector_table(reach, build=_asked[0] > 0, room=effects.diameter)
    _asked[0] += 1
    if table is None:  # the first viewshed of a process with no table at hand: only its own lines
        return _without_table(effects, grazing, source, dq, dr)
    vids = table.ids[dq + table.reach, dr + table.reach].astype(np.int64)
    worst = _crossed_worst(table, vids, source, effects)
    open_lines = np.nonzero(worst < 2)[0]  # grazes can only matter where nothing blocks yet
    if len(open_lines) == 0 or grazing == "never":
        return worst
    sub = vids[open_lines]
    if grazing == "either":
        extra = np.zeros(len(sub), dtype=np.int8)
        for rag in (table.corners, table.run_a, table.run_b):
            np.maximum(extra, _worst(rag, sub, source.q, source.r, effects), out=extra)
    else:
        extra = _both_sides(table, sub, source, effects)
    worst[open_lines] = np.maximum(worst[open_lines], extra)
    return worst


#: Viewsheds asked of the table path in this process: the first one with no table in
#: memory or in the cache folder works out only its own lines (no cold start, issue 19
#: item 3); the next builds the table, for every later one.
_asked = [0]


_HEAD_FLAT: dict[tuple[int, int], np.ndarray] = {}


def _head_flat(table: VectorTable, width: int) -> np.ndarray:
    """The head table as offsets into a flattened effect grid ``width`` cells wide;
    padding entries are (0, 0): the line's own source hex, zeroed while reading."""
    key = (id(table), width)
    if key not in _HEAD_FLAT:
        _HEAD_FLAT.clear()
        _HEAD_FLAT[key] = (table.head_q.astype(np.int64) * width + table.head_r).astype(np.int64)
    return _HEAD_FLAT[key]


def _crossed_worst(
    table: VectorTable, vids: np.ndarray, source: Hex, effects: EffectGrid, chunk: int = 3
) -> np.ndarray:
    """The worst crossed-hex level per line, read outward from the source: the first
    ``HEAD`` hexes of every line in one flat gather, then the lines still open in passes
    of ``chunk`` hexes (doubling each pass); a line leaves the work as soon as it is
    blocked. Exact: only the order of evaluation changes, and in dense terrain most lines
    are blocked near the source."""
    dq, dr = source.q - effects.q0, source.r - effects.r0
    width = effects.levels.shape[1]
    flat = effects.levels.reshape(-1)  # a view: the source cell is zeroed just below
    base = dq * width + dr
    own = flat[base]
    flat[base] = 0  # no crossed row holds the source itself, so padding reads "clear"
    try:
        worst: np.ndarray = flat[_head_flat(table, width)[vids] + base].max(axis=1)
    finally:
        flat[base] = own
    rag = table.crossed
    starts = rag.ptr[vids]
    lengths = rag.ptr[vids + 1] - starts
    done = HEAD
    active = np.nonzero((worst < 2) & (lengths > done))[0]
    while len(active):
        take = np.minimum(lengths[active] - done, chunk)
        idx, first = _spans(starts[active] + done, take)
        lv = flat[(rag.q[idx] + dq) * width + (rag.r[idx] + dr)]
        worst[active] = np.maximum(worst[active], np.maximum.reduceat(lv, first))
        done += chunk
        chunk *= 2  # the survivors are few and long: fewer, larger passes
        active = active[(worst[active] < 2) & (lengths[active] > done)]
    return worst


def _both_sides(table: VectorTable, vids: np.ndarray, source: Hex, effects: EffectGrid) -> np.ndarray:
    """Per line, the worst of (weaker of the two sides) over its hexside runs."""
    a, b = table.run_a, table.run_b  # rows in step: run_a and run_b rows have equal lengths
    starts = a.ptr[vids]
    lengths = a.ptr[vids + 1] - starts
    idx, first = _spans(starts, lengths)
    dq, dr = source.q - effects.q0, source.r - effects.r0
    weaker = np.minimum(
        effects.levels[a.q[idx] + dq, a.r[idx] + dr], effects.levels[b.q[idx] + dq, b.r[idx] + dr]
    )
    return _row_max(weaker, first, lengths)


# --- exact traversal of many vectors at once, in numpy -------------------------------
#
# The same integer test as ``hexgrid.traversal._wedge_traversal`` (three slabs in the
# lattice frame X = 3q, Y = 2r + q), asked of every candidate hex of many vectors in one
# pass instead of by a flood fill in Python. A canonical-wedge vector (q > 0, r <= 0,
# q + 2r >= 0) has slope 0 <= Y/X <= 1/3, so the hexes it meets lie in columns 0..q and,
# in column c, at rows r0(c) .. r0(c) + 2 (see ``_candidates``). The answers are mapped
# back to each vector's own orientation by the grid's exact symmetries.

#: Cells (candidate hexes) examined per numpy pass: bounds the working memory of a pass
#: (about 150 bytes a cell) whatever the map's size.
PASS_CELLS = 1 << 20


@dataclass(frozen=True)
class _Wedge:
    """Vectors brought into the canonical wedge: canonical (q, r), the lattice slopes and
    scales of the three slabs, and the inverse map (a, b, c, d): q' = a q + b r,
    r' = c q + d r, from the wedge back to each vector's own orientation."""

    cq: np.ndarray
    cr: np.ndarray
    y: np.ndarray
    denominator: np.ndarray
    scale: tuple[np.ndarray, np.ndarray, np.ndarray]
    back: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _rotated(q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One step of rotation, as ``hexgrid.traversal._rotate``: (q, r) -> (q + r, -q)."""
    return q + r, -q


def _inverse_maps() -> np.ndarray:
    """Row 2 * steps + mirrored: (a, b, c, d) taking a wedge vector back to the vector
    that ``steps`` rotations and then (if mirrored) the reflection brought into it."""
    rows = []
    for steps in range(6):
        for mirrored in (0, 1):
            cols = []
            for q, r in ((1, 0), (0, 1)):
                if mirrored:
                    q, r = q, -q - r
                for _ in range((-steps) % 6):
                    q, r = q + r, -q
                cols.append((q, r))
            (a, c), (b, d) = cols
            rows.append((a, b, c, d))
    return np.array(rows, dtype=np.int64)


_BACK = _inverse_maps()


def _wedge(dq: np.ndarray, dr: np.ndarray) -> _Wedge:
    """Bring nonzero vectors into the canonical wedge (as ``traversal._canonical``)."""
    q, r = dq.astype(np.int64), dr.astype(np.int64)
    steps = np.full(len(q), -1, dtype=np.int64)
    wq, wr = np.zeros_like(q), np.zeros_like(r)
    for k in range(6):
        hit = (steps < 0) & (r <= 0) & (q + r > 0)
        steps[hit], wq[hit], wr[hit] = k, q[hit], r[hit]
        q, r = _rotated(q, r)
    mirrored = wq + 2 * wr < 0
    cq = wq
    cr = np.where(mirrored, -wq - wr, wr)
    x, y = 3 * cq, 2 * cr + cq
    s1, s2 = x + y, x - y
    denominator = np.where(y != 0, y, 1) * s1 * s2
    scale = (denominator // np.where(y != 0, y, 1), denominator // s1, denominator // s2)
    back = _BACK[2 * steps + mirrored]
    return _Wedge(cq, cr, y, denominator, scale, (back[:, 0], back[:, 1], back[:, 2], back[:, 3]))


@dataclass(frozen=True)
class _Cells:
    """The hexes some vectors meet in a range of columns, one entry a hex: which vector
    (index into the vectors asked), its offset from the source in the vector's own
    orientation, where the line enters it, and what kind of contact it is."""

    vector: np.ndarray
    q: np.ndarray
    r: np.ndarray
    enter: np.ndarray
    leave: np.ndarray
    interior: np.ndarray  # crossed, not an end
    corner: np.ndarray  # grazed at a corner only
    side: np.ndarray  # grazed along a hexside


def _cells(w: _Wedge, which: np.ndarray, first: int, columns: np.ndarray) -> _Cells:
    """The contacts of vectors ``which`` (indices into ``w``) in columns
    ``first .. first + columns[i] - 1`` of the wedge frame."""
    total = int(columns.sum())
    start = np.cumsum(columns) - columns
    pos = np.repeat(which, columns)
    col = np.arange(total, dtype=np.int64) - np.repeat(start, columns) + first
    r0 = _lowest_row(w, pos, col)
    pos = np.repeat(pos, 3)
    col = np.repeat(col, 3)
    row = np.repeat(r0, 3) + np.tile(np.arange(3, dtype=np.int64), total)
    return _contacts(w, pos, col, row)


def _lowest_row(w: _Wedge, pos: np.ndarray, col: np.ndarray) -> np.ndarray:
    """The lowest row of column ``col`` that vector ``pos``'s line can touch; it touches
    none but that row and the two above it."""
    cq = w.cq[pos]
    lowest: np.ndarray = (w.y[pos] * col - 2 * cq - col * cq) // (2 * cq)
    return lowest


def _contacts(w: _Wedge, pos: np.ndarray, col: np.ndarray, row: np.ndarray) -> _Cells:
    """Of candidate hexes (``col``, ``row``) in the wedge frame of vectors ``pos``, the
    ones each line meets, with where it enters and leaves them and how it meets them,
    mapped back to the vectors' own orientation."""
    cx, cy = 3 * col, 2 * row + col
    y = w.y[pos]
    denominator = w.denominator[pos]
    s0, s1, s2 = (s[pos] for s in w.scale)
    flat = y == 0
    lo = np.maximum(np.maximum((cx + cy - 2) * s1, (cx - cy - 2) * s2), 0)
    hi = np.minimum(np.minimum((cx + cy + 2) * s1, (cx - cy + 2) * s2), denominator)
    lo = np.where(flat, lo, np.maximum(lo, (cy - 1) * s0))
    hi = np.where(flat, hi, np.minimum(hi, (cy + 1) * s0))
    met = (lo <= hi) & ~(flat & (np.abs(cy) > 1))
    side = met & flat & (np.abs(cy) == 1)
    crossed = met & ~side & (lo < hi)
    corner = met & ~side & (lo == hi)
    end = ((col == 0) & (row == 0)) | ((col == w.cq[pos]) & (row == w.cr[pos]))
    keep = np.nonzero(met)[0]
    pos, col, row = pos[keep], col[keep], row[keep]
    a, b, c, d = (m[pos] for m in w.back)
    return _Cells(
        pos,
        a * col + b * row,
        c * col + d * row,
        lo[keep],
        hi[keep],
        (crossed & ~end)[keep],
        corner[keep],
        side[keep],
    )


def _run_pairs(cells: _Cells) -> tuple[np.ndarray, np.ndarray]:
    """Indices (into ``cells``) of the two hexes of each hexside run: side grazes of one
    vector over the same stretch, where exactly two hexes share it."""
    idx = np.nonzero(cells.side)[0]
    if len(idx) == 0:
        return idx, idx
    order = np.lexsort((cells.leave[idx], cells.enter[idx], cells.vector[idx]))
    idx = idx[order]
    key = np.stack([cells.vector[idx], cells.enter[idx], cells.leave[idx]])
    new = np.ones(len(idx), dtype=bool)
    new[1:] = np.any(key[:, 1:] != key[:, :-1], axis=0)
    starts = np.nonzero(new)[0]
    sizes = np.diff(np.append(starts, len(idx)))
    pairs = starts[sizes == 2]
    return idx[pairs], idx[pairs + 1]


def _streamed(
    effects: EffectGrid, grazing: GrazeRule, source: Hex, dq: np.ndarray, dr: np.ndarray
) -> np.ndarray:
    """Effect level of each line, with no table: the lines' contacts are worked out a
    few columns at a time, outward from the source, and a line leaves the work once it
    is blocked. Memory stays within a pass of ``PASS_CELLS`` cells whatever the map's
    size; in most terrain the lines are blocked a few hexes out, so little is computed."""
    worst = np.zeros(len(dq), dtype=np.int8)
    moving = np.nonzero((dq != 0) | (dr != 0))[0]
    if len(moving) == 0:
        return worst
    w = _wedge(dq[moving], dr[moving])
    width = effects.levels.shape[1]
    flat = effects.levels.reshape(-1)
    base_q, base_r = source.q - effects.q0, source.r - effects.r0
    level = np.zeros(len(moving), dtype=np.int8)
    active = np.arange(len(moving))
    first, step = 0, HEAD
    while len(active):
        step = max(1, min(step, PASS_CELLS // (3 * len(active))))
        for part in np.array_split(active, max(1, (3 * step * len(active)) // PASS_CELLS + 1)):
            columns = np.clip(w.cq[part] + 1 - first, 0, step)
            cells = _cells(w, part, first, columns)
            lv = flat[(cells.q + base_q) * width + (cells.r + base_r)]
            counts = cells.interior | (cells.corner if grazing == "either" else False)
            _raise_to(level, cells.vector, np.where(counts, lv, 0))
            if grazing != "never":
                a, b = _run_pairs(cells)
                pair = np.minimum(lv[a], lv[b]) if grazing == "both" else np.maximum(lv[a], lv[b])
                _raise_to(level, cells.vector[a], pair)
        first += step
        step *= 2
        active = active[(level[active] < 2) & (w.cq[active] + 1 > first)]
    worst[moving] = level
    return worst


def _without_table(
    effects: EffectGrid, grazing: GrazeRule, source: Hex, dq: np.ndarray, dr: np.ndarray
) -> np.ndarray:
    """Effect level of each line with no table at hand: from the few hexes that are not
    clear where the map is open (``_sparse``), else line by line (``_streamed``)."""
    levels = _sparse(effects, grazing, source, dq, dr)
    return _streamed(effects, grazing, source, dq, dr) if levels is None else levels


#: ``_sparse`` is taken while its (line, hex) candidates number at most this share of
#: the hexes the streamed path would read: each line up to its length or to the mean
#: run between blocking hexes, where it stops. Measured crossover (``/benchmarks``
#: random maps, 30-200 hexes a side, 0.5-10% blocking): at about 0.35.
SPARSE_SHARE = 0.3
_SQRT3 = 3.0**0.5
_SLACK = 1e-9  # the angle and length tests below only drop pairs, never keep too few


def _sparse(
    effects: EffectGrid, grazing: GrazeRule, source: Hex, dq: np.ndarray, dr: np.ndarray
) -> np.ndarray | None:
    """Effect level of each line, from the hexes that are not clear rather than from
    every hex of every line (None where those are too many to be worth it). Why: on an
    open map (a few percent of hexes hinder or block) a first viewshed meets a few
    thousand (line, hex) pairs instead of a million candidate cells.

    A hex can be met only by a line that passes within one circumradius of its centre:
    its lines lie in an angular window seen from the source, found by a binary search
    over the lines sorted by angle. The window is a filter only; each pair is then put
    to the same exact integer test as ``_cells`` (``_contacts``), with the hex across
    a grazed hexside added so that hexside runs pair up as on the full line."""
    worst = np.zeros(len(dq), dtype=np.int8)
    moving = np.nonzero((dq != 0) | (dr != 0))[0]
    if len(moving) == 0:
        return worst
    tq, tr = dq[moving].astype(np.int64), dr[moving].astype(np.int64)
    bi, bj = np.nonzero(effects.levels)
    bq, br = bi + (effects.q0 - source.q), bj + (effects.r0 - source.r)
    other = (bq != 0) | (br != 0)
    bq, br = bq[other], br[other]
    # Euclidean centres (circumradius 1) of the lines' ends and of the hexes
    tx, ty = 1.5 * tq, _SQRT3 * (tr + tq / 2)
    angle, length = np.arctan2(ty, tx), np.hypot(tx, ty)
    order = np.argsort(angle, kind="stable")
    by_angle = angle[order]
    bx, by = 1.5 * bq, _SQRT3 * (br + bq / 2)
    away, towards = np.hypot(bx, by), np.arctan2(by, bx)
    half = np.arcsin(np.minimum(1.0, (1.0 + _SLACK) / away)) + _SLACK
    starts, counts, owners = _windows(by_angle, towards - half, towards + half)
    blocking = max(int(np.count_nonzero(effects.levels == 2)), 1) / effects.levels.size
    run = np.minimum((np.abs(tq) + np.abs(tr) + np.abs(tq + tr)) // 2, 1 / blocking)
    if int(counts.sum()) > SPARSE_SHARE * float(run.sum()):
        return None
    idx, _ = _spans(starts, counts)
    pos, hexno = order[idx], np.repeat(owners, counts)
    near = length[pos] >= away[hexno] - 1.0 - _SLACK
    pos, hexno = pos[near], hexno[near]
    w = _wedge(tq, tr)
    a, b, c, d = (m[pos] for m in w.back)
    det = a * d - b * c  # +1 or -1: the inverse of (a b; c d) is det * (d -b; -c a)
    col = det * (d * bq[hexno] - b * br[hexno])
    row = det * (a * br[hexno] - c * bq[hexno])
    # the hex across a grazed hexside: lines along a row edge (y == 0) only
    edge = (w.y[pos] == 0) & (np.abs(2 * row + col) == 1)
    pos = np.concatenate([pos, pos[edge]])
    row = np.concatenate([row, -row[edge] - col[edge]])
    col = np.concatenate([col, col[edge]])
    inside = (col >= 0) & (col <= w.cq[pos])
    pos, col, row = pos[inside], col[inside], row[inside]
    band = row - _lowest_row(w, pos, col)
    kept = (band >= 0) & (band <= 2)  # the rows ``_cells`` asks, no others
    key = np.unique(np.stack([pos[kept], col[kept], row[kept]]), axis=1)  # sorted by line
    cells = _contacts(w, key[0], key[1], key[2])
    width = effects.levels.shape[1]
    base_q, base_r = source.q - effects.q0, source.r - effects.r0
    lv = effects.levels.reshape(-1)[(cells.q + base_q) * width + (cells.r + base_r)]
    level = np.zeros(len(moving), dtype=np.int8)
    counted = cells.interior | (cells.corner if grazing == "either" else False)
    _raise_to(level, cells.vector, np.where(counted, lv, 0))
    if grazing != "never":
        ra, rb = _run_pairs(cells)
        pair = np.minimum(lv[ra], lv[rb]) if grazing == "both" else np.maximum(lv[ra], lv[rb])
        np.maximum.at(level, cells.vector[ra], pair)
    worst[moving] = level
    return worst


def _windows(
    by_angle: np.ndarray, lo: np.ndarray, hi: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The runs of ``by_angle`` (sorted, in [-pi, pi]) inside each window ``lo[k]..hi[k]``
    (closed), a window that wraps past +-pi split in two: (start, count, k) a run."""
    starts, counts, owners = [], [], []
    parts = (
        (0.0, lo, hi, np.ones(len(lo), dtype=bool)),  # the window within [-pi, pi]
        (2 * np.pi, lo, np.minimum(hi, -np.pi), lo < -np.pi),  # its part below -pi
        (-2 * np.pi, np.maximum(lo, np.pi), hi, hi > np.pi),  # its part above pi
    )
    for shift, lo_k, hi_k, wrapped in parts:
        first = np.searchsorted(by_angle, lo_k + shift, side="left")
        last = np.searchsorted(by_angle, hi_k + shift, side="right")
        take = wrapped & (last > first)
        starts.append(first[take])
        counts.append((last - first)[take])
        owners.append(np.nonzero(take)[0])
    return np.concatenate(starts), np.concatenate(counts), np.concatenate(owners)


def _raise_to(level: np.ndarray, vector: np.ndarray, seen: np.ndarray) -> None:
    """``level[v] = max(level[v], seen)`` for every entry, where ``vector`` comes in runs
    of equal values (the cells of a vector are contiguous): one ``maximum.reduceat``."""
    if len(vector) == 0:
        return
    starts = np.flatnonzero(np.concatenate(([True], vector[1:] != vector[:-1])))
    owners = vector[starts]
    level[owners] = np.maximum(level[owners], np.maximum.reduceat(seen, starts).astype(np.int8))


def fast_lines(
    effects: EffectGrid,
    grazing: GrazeRule,
    sq: np.ndarray,
    sr: np.ndarray,
    tq: np.ndarray,
    tr: np.ndarray,
    table: VectorTable,
) -> np.ndarray:
    """Effect level (0 clear, 1 hindered, 2 blocked) of many lines at once, each from its
    own source (``sq``, ``sr``) to its own target (``tq``, ``tr``), every vector within
    ``table.reach``: the rows of the lines' vectors gathered end to end, offset by each
    line's source, then one maximum per line (and the grazes, as ``fast_viewshed``)."""
    vids = table.ids[tq - sq + table.reach, tr - sr + table.reach].astype(np.int64)
    oq, orr = sq - effects.q0, sr - effects.r0
    worst = _rows_worst(table.crossed, vids, oq, orr, effects)
    open_lines = np.nonzero(worst < 2)[0]
    if len(open_lines) == 0 or grazing == "never":
        return worst
    sub, q, r = vids[open_lines], oq[open_lines], orr[open_lines]
    if grazing == "either":
        extra = np.zeros(len(sub), dtype=np.int8)
        for rag in (table.corners, table.run_a, table.run_b):
            np.maximum(extra, _rows_worst(rag, sub, q, r, effects), out=extra)
    else:
        a, b = table.run_a, table.run_b  # rows in step
        starts = a.ptr[sub]
        lengths = a.ptr[sub + 1] - starts
        idx, first = _spans(starts, lengths)
        line = np.repeat(np.arange(len(sub)), lengths)
        weaker = np.minimum(
            effects.levels[a.q[idx] + q[line], a.r[idx] + r[line]],
            effects.levels[b.q[idx] + q[line], b.r[idx] + r[line]],
        )
        extra = _row_max(weaker, first, lengths)
    worst[open_lines] = np.maximum(worst[open_lines], extra)
    return worst


def _rows_worst(
    rag: _Ragged, vids: np.ndarray, oq: np.ndarray, orr: np.ndarray, effects: EffectGrid
) -> np.ndarray:
    """For each line, the worst effect level along its vector's row placed at its own
    source (grid offsets ``oq``, ``orr``); 0 for an empty row."""
    starts = rag.ptr[vids]
    lengths = rag.ptr[vids + 1] - starts
    idx, first = _spans(starts, lengths)
    line = np.repeat(np.arange(len(vids)), lengths)
    lv = effects.levels[rag.q[idx] + oq[line], rag.r[idx] + orr[line]]
    return _row_max(lv, first, lengths)
