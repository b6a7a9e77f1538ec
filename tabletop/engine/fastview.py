"""Whole-map viewsheds in a few numpy passes, for policies with fixed hex effects.

Why: a viewshed asks one line of sight per hex of the map (10,000 on a 100 x 100
map); asked one by one in Python that is a second or more. When a policy's hex effects
do not depend on the query (``static_obstacles``), has no whole-line rules and no
hexside effects, every line's verdict is the worst effect among its crossed hexes and
its grazes read by the grazing rule. So the per-vector traversals are laid out once as
flat integer arrays (a ragged "CSR" table), and a viewshed is a gather from the map's
effect grid followed by a per-line maximum.

Exactness is unchanged: the tables are the exact traversals; the tests compare this
path with ``line_of_sight`` hex by hex.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass

import numpy as np

from tabletop.hexgrid import Hex, RectGrid, relative_traversal

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


def vector_table(reach: int) -> VectorTable:
    """The table for vectors up to ``reach`` (built once, then shared)."""
    for have, table in _TABLES.items():
        if have >= reach:
            return table
    table = _build(reach)
    _TABLES.clear()
    _TABLES[reach] = table
    return table


def _build(reach: int) -> VectorTable:
    size = 2 * reach + 1
    ids = np.full((size, size), -1, dtype=np.int32)
    rows: dict[str, tuple[list[int], list[int], list[int]]] = {
        k: ([], [], [0]) for k in ("crossed", "corners", "run_a", "run_b")
    }
    was_enabled = gc.isenabled()
    gc.disable()  # millions of small acyclic objects: see hexgrid.traversal.precompute
    try:
        vid = 0
        for dq in range(-reach, reach + 1):
            for dr in range(max(-reach, -dq - reach), min(reach, -dq + reach) + 1):
                t = relative_traversal(dq, dr)
                ids[dq + reach, dr + reach] = vid
                vid += 1
                _extend(rows["crossed"], t.crossed[1:-1])
                _extend(rows["corners"], [g.hex for g in t.grazed if g.corner is not None])
                runs: dict[tuple[int, int], list[Hex]] = {}
                for g in t.grazed:
                    if g.side is not None:
                        runs.setdefault((g.start, g.end), []).append(g.hex)
                pairs = [p for p in runs.values() if len(p) == 2]
                _extend(rows["run_a"], [p[0] for p in pairs])
                _extend(rows["run_b"], [p[1] for p in pairs])
    finally:
        if was_enabled:
            gc.enable()

    def ragged(key: str) -> _Ragged:
        q, r, ptr = rows[key]
        return _Ragged(
            np.asarray(q, dtype=np.int32), np.asarray(r, dtype=np.int32), np.asarray(ptr, dtype=np.int64)
        )

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


def _extend(row: tuple[list[int], list[int], list[int]], hexes: list[Hex] | tuple[Hex, ...]) -> None:
    qs, rs, ptr = row
    for h in hexes:
        qs.append(h[0])
        rs.append(h[1])
    ptr.append(len(qs))


@dataclass(frozen=True)
class EffectGrid:
    """The map's hex effects (0 clear, 1 hinder, 2 block) on an axial box padded by one
    hex of nothing, so lines that touch just outside the map read "clear" there."""

    levels: np.ndarray
    q0: int
    r0: int

    @classmethod
    def of(cls, grid: RectGrid, obstacles: dict[Hex, Obstacle]) -> EffectGrid:
        hexes = grid.hexes()
        qs = [h.q for h in hexes]
        rs = [h.r for h in hexes]
        q0, r0 = min(qs) - 1, min(rs) - 1
        levels = np.zeros((max(qs) - q0 + 2, max(rs) - r0 + 2), dtype=np.int8)
        for h, ob in obstacles.items():
            levels[h.q - q0, h.r - r0] = _LEVEL.get(ob.severity, 0)
        return cls(levels, q0, r0)


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
    table = vector_table(reach)
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
