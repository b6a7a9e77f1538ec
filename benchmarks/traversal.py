"""How long the exact traversal takes, against the usual approximations, in one run.

Measures, for every axial vector up to ``max_range``:
- exact traversal from cold caches (the 1/12 wedge, then every vector oriented), one
  call a vector and through ``precompute`` (which pauses the cyclic GC);
- the usual "lerp and round" hex line (Red Blob Games, with a nudge) for the same
  vectors: the fast, approximate baseline;
- a per-vector exact shapely test (integer frame, STRtree) on vectors up to
  ``shapely_range``: the slow, exact baseline;
and how often the rounded line's hexes equal the exact crossed set.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import shapely

from tabletop.hexgrid import Hex, distance, hexes_within, lattice_point, precompute, round_hex
from tabletop.hexgrid import traversal as tr


def rounded_line(v: Hex) -> list[Hex]:
    """Red Blob Games' hex line: lerp N + 1 points, nudged, rounded to hexes."""
    n = distance(Hex(0, 0), v)
    if n == 0:
        return [Hex(0, 0)]
    return [round_hex(v.q * i / n + 1e-6, v.r * i / n + 2e-6) for i in range(n + 1)]


def shapely_crossed(vectors: list[Hex], reach: int) -> list[set[Hex]]:
    """Exact crossed sets from GEOS in the integer frame, one query per vector."""
    cells = list(hexes_within(Hex(0, 0), reach + 1))
    rings = np.array(
        [[(3 * h.q + ox, 2 * h.r + h.q + oy) for ox, oy in tr.CORNER_OFFSETS] for h in cells], dtype=float
    )
    polygons = shapely.polygons(rings)
    tree = shapely.STRtree(polygons)
    out = []
    for v in vectors:
        line = shapely.LineString([(0, 0), lattice_point(v)])
        met = tree.query(line, predicate="intersects")
        inside = shapely.relate_pattern(polygons[met], line, "T********")
        out.append({cells[i] for i, hit in zip(met, inside, strict=True) if hit})
    return out


def run(max_range: int = 100, shapely_range: int = 30) -> dict[str, Any]:
    vectors = list(hexes_within(Hex(0, 0), max_range))
    tr._wedge_traversal.cache_clear()
    tr.relative_traversal.cache_clear()

    t0 = time.perf_counter()
    for v in vectors:
        tr._wedge_traversal(*tr._canonical(v)[2])
    t1 = time.perf_counter()
    exact = [tr.relative_traversal(*v) for v in vectors]
    t2 = time.perf_counter()
    wedge_vectors = tr._wedge_traversal.cache_info().currsize
    tr._wedge_traversal.cache_clear()
    tr.relative_traversal.cache_clear()
    tp = time.perf_counter()
    precompute(max_range)
    tq = time.perf_counter()
    rounded = [rounded_line(v) for v in vectors]
    t3 = time.perf_counter()

    small = [v for v in vectors if distance(Hex(0, 0), v) <= shapely_range]
    t4 = time.perf_counter()
    reference = shapely_crossed(small, shapely_range)
    t5 = time.perf_counter()
    tr._wedge_traversal.cache_clear()
    tr.relative_traversal.cache_clear()
    t6 = time.perf_counter()
    for v in small:
        tr.relative_traversal(*v)
    t7 = time.perf_counter()
    small_exact = [set(tr.relative_traversal(*v).crossed) for v in small]
    agree_exact = sum(a == b for a, b in zip(small_exact, reference, strict=True))
    agree_rounded = sum(set(rounded_line(v)) == ref for v, ref in zip(small, reference, strict=True))
    misses = sum(not set(e.crossed) <= set(r) for e, r in zip(exact, rounded, strict=True))

    exact_all = t2 - t0
    return {
        "vectors": len(vectors),
        "max_range": max_range,
        "wedge_vectors": wedge_vectors,
        "crossed_hexes_total": sum(len(e.crossed) for e in exact),
        "exact_wedge_s": round(t1 - t0, 3),
        "exact_orient_all_s": round(t2 - t1, 3),
        "exact_all_vectors_s": round(exact_all, 3),
        "precompute_all_vectors_s": round(tq - tp, 3),
        "rounded_line_all_vectors_s": round(t3 - t2, 3),
        "exact_vs_rounded_time_ratio": round(exact_all / (t3 - t2), 2),
        "shapely_reference_small_s": round(t5 - t4, 3),
        "exact_cold_small_s": round(t7 - t6, 3),
        "exact_vs_shapely_speedup_cold": round((t5 - t4) / (t7 - t6), 2),
        "agreement_with_shapely_exact": f"{agree_exact}/{len(small)} (range <= {shapely_range})",
        "agreement_with_shapely_rounded_line": f"{agree_rounded}/{len(small)} (range <= {shapely_range})",
        "rounded_line_omits_a_crossed_hex_share": round(misses / len(vectors), 3),
    }
