"""Line of sight and viewshed: speed and exactness against baselines run alongside.

- exactness: crossed sets vs an exact GEOS reference (ours and the rounded hex line),
  and how often hexutil's field of view (PyPI ``hexutil``, approximate shadowcasting)
  agrees with the exact viewshed on the same random map;
- one query (range <= 30, 20% blocking terrain): median time through the Python API,
  against a plain per-query shapely test (the line against the blocking hex polygons,
  through an STRtree);
- viewshed of every hex of a 100 x 100 map from its centre: median time, against
  hexutil's field of view on the same map;
- viewshed from the corner of a 200 x 200 map: time and peak memory allocated.
"""

from __future__ import annotations

import random
import statistics
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import shapely

from benchmarks.traversal import rounded_line, shapely_crossed
from tabletop.board import Map, build_map
from tabletop.engine.freeplay import FreePlayPolicy
from tabletop.engine.los import LosQuery, line_of_sight
from tabletop.engine.pieces import MapState
from tabletop.engine.viewshed import viewshed
from tabletop.hexgrid import Hex, distance, hexes_within, precompute, relative_traversal
from tabletop.yamlfile import parse_yaml


def random_map(size: int, blocking: float, seed: int) -> Map:
    """A ``size`` x ``size`` pointy-top free-play map with a share of blocking hexes."""
    rng = random.Random(seed)
    rows = "\n".join(
        "  " + " ".join("W" if rng.random() < blocking else "." for _ in range(size)) for _ in range(size)
    )
    text = f"""name: benchmark
grid: {{orientation: pointy, columns: {size}, rows: {size}, labels: {{digits: 3}}}}
terrain:
  open: {{symbol: ".", colour: "#aaaaaa"}}
  woods: {{symbol: "W", colour: "#00aa00", properties: {{los: block}}}}
rows: |
{rows}
line_of_sight: {{grazing: both}}
"""
    return build_map(parse_yaml(text, "benchmark.yaml"), Path("benchmark.yaml"))


def _median_time(fn: Any, items: list[Any]) -> float:
    times = []
    for item in items:
        t0 = time.perf_counter()
        fn(item)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def hexutil_fov(board: Map, source: Hex) -> set[Hex] | None:
    """hexutil's field of view, mapped back to axial hexes (None if not installed).
    hexutil uses doubled coordinates on pointy-top rows: x = 2q + r, y = r."""
    try:
        import hexutil
    except ImportError:
        return None
    blocking = {h for h, t in board.terrain.items() if t == "woods"}
    on_map = board.grid.contains

    def transparent(hx: Any) -> bool:
        h = Hex((hx.x - hx.y) // 2, hx.y)
        return on_map(h) and h not in blocking

    seen = hexutil.Hex(2 * source.q + source.r, source.r).field_of_view(transparent, 400)
    return {Hex((hx.x - hx.y) // 2, hx.y) for hx in seen}


def big_map_viewshed(size: int, seed: int) -> dict[str, Any]:
    """A whole-map viewshed from the corner of a ``size`` x ``size`` map (8% blocking):
    its time and the peak memory it allocates (finding H5: 5.5 GB at 200 x 200 before)."""
    state = MapState.of(random_map(size, 0.08, seed))
    policy = FreePlayPolicy.for_map(state)
    corner = state.board.grid.hexes()[0]
    t0 = time.perf_counter()
    seen = viewshed(state, policy, corner)
    elapsed = time.perf_counter() - t0
    tracemalloc.start()
    again = viewshed(state, policy, corner)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert again == seen
    return {
        f"big{size}_corner_viewshed_s": round(elapsed, 3),
        f"big{size}_corner_viewshed_peak_alloc_mb": round(peak / 2**20, 1),
        f"big{size}_corner_visible": len(seen),
    }


def run(size: int = 100, queries: int = 2000, seed: int = 1) -> dict[str, Any]:
    out: dict[str, Any] = {}
    # -- exactness of the crossed sets (range <= 30)
    small = [v for v in hexes_within(Hex(0, 0), 30) if v != Hex(0, 0)]
    reference = shapely_crossed(small, 30)
    exact = sum(set(relative_traversal(*v).crossed) == ref for v, ref in zip(small, reference, strict=True))
    rounded = sum(set(rounded_line(v)) == ref for v, ref in zip(small, reference, strict=True))
    out["exact_crossed_agreement"] = round(exact / len(small), 4)
    out["rounded_line_crossed_agreement"] = round(rounded / len(small), 4)

    board = random_map(size, 0.2, seed)
    state = MapState.of(board)
    policy = FreePlayPolicy.for_map(state)
    hexes = board.grid.hexes()
    centre = board.grid.hex_at(size // 2, size // 2)

    # -- one query: ours vs per-query shapely
    rng = random.Random(seed)
    pairs: list[LosQuery] = []
    while len(pairs) < queries:
        a, b = rng.choice(hexes), rng.choice(hexes)
        if 1 <= distance(a, b) <= 30:
            pairs.append(LosQuery(a, b))
    precompute(30)
    for q in pairs:
        line_of_sight(state, policy, q)
    ours = min(_median_time(lambda q: line_of_sight(state, policy, q), pairs) for _ in range(3))

    layout = board.grid.layout(1.0)
    woods = [h for h in hexes if board.terrain[h] == "woods"]
    polygons = layout.polygons(woods)
    tree = shapely.STRtree(polygons)
    index = {h: i for i, h in enumerate(woods)}

    def shapely_query(q: LosQuery) -> bool:
        line = shapely.LineString([layout.center(q.source), layout.center(q.target)])
        hits = tree.query(line, predicate="intersects")
        ends = {index.get(q.source, -1), index.get(q.target, -1)}
        return any(int(i) not in ends for i in hits)

    def plain_shapely_query(q: LosQuery) -> bool:
        # no spatial index: the line against every blocking polygon, vectorised in GEOS
        line = shapely.LineString([layout.center(q.source), layout.center(q.target)])
        hits = np.nonzero(shapely.intersects(polygons, line))[0]
        ends = {index.get(q.source, -1), index.get(q.target, -1)}
        return any(int(i) not in ends for i in hits)

    baseline = min(_median_time(shapely_query, pairs) for _ in range(3))
    plain = min(_median_time(plain_shapely_query, pairs[:500]) for _ in range(2))
    out["query_median_us"] = round(ours * 1e6, 2)
    out["query_shapely_strtree_median_us"] = round(baseline * 1e6, 2)
    out["query_speedup_vs_shapely_strtree"] = round(baseline / ours, 1)
    out["query_shapely_plain_median_us"] = round(plain * 1e6, 2)
    out["query_speedup_vs_shapely_plain"] = round(plain / ours, 1)
    agree = sum(
        (line_of_sight(state, policy, q).result == "blocked") == shapely_query(q) for q in pairs
    )  # differs only where the line grazes (ours reads grazing by the rule; GEOS by float luck)
    out["query_verdicts_equal_to_shapely_share"] = round(agree / len(pairs), 4)

    # -- viewshed of the whole map from its centre
    t0 = time.perf_counter()
    first = viewshed(state, policy, centre)
    out["viewshed_first_call_s"] = round(time.perf_counter() - t0, 3)
    runs = [viewshed(state, policy, centre) for _ in range(3)]
    assert all(r == first for r in runs)
    ours_view = min(_median_time(lambda _: viewshed(state, policy, centre), list(range(9))) for _ in range(2))
    out["viewshed_hexes"] = len(hexes)
    out["viewshed_median_ms"] = round(ours_view * 1e3, 2)
    out.update(big_map_viewshed(200, seed))
    fov = hexutil_fov(board, centre)
    if fov is None:
        out["hexutil"] = "not installed (pip install hexutil) - comparison skipped"
        return out
    hexutil_time = _median_time(lambda _: hexutil_fov(board, centre), list(range(5)))
    out["viewshed_hexutil_median_ms"] = round(hexutil_time * 1e3, 2)
    out["viewshed_speedup_vs_hexutil"] = round(hexutil_time / ours_view, 2)
    sources = [centre, *rng.sample(hexes, 4)]
    agreeing = total = 0
    for src in sources:
        mine = set(viewshed(state, policy, src))
        theirs = hexutil_fov(board, src) or set()
        for h in hexes:
            total += 1
            agreeing += (h in mine) == (h in theirs)
    out["hexutil_fov_agreement_with_exact_share"] = round(agreeing / total, 4)
    out["visible_from_centre"] = len(first)
    out["hexutil_cells_compared"] = total

    # -- the same on open ground (2% blocking), where far more is visible
    sparse = MapState.of(random_map(size, 0.02, seed))
    sparse_policy = FreePlayPolicy.for_map(sparse)
    viewshed(sparse, sparse_policy, centre)
    t_ours = min(
        _median_time(lambda _: viewshed(sparse, sparse_policy, centre), list(range(5))) for _ in range(2)
    )
    t_theirs = _median_time(lambda _: hexutil_fov(sparse.board, centre), list(range(3)))
    out["sparse_2pct_viewshed_median_ms"] = round(t_ours * 1e3, 2)
    out["sparse_2pct_viewshed_hexutil_median_ms"] = round(t_theirs * 1e3, 2)
    out["sparse_2pct_viewshed_speedup_vs_hexutil"] = round(t_theirs / t_ours, 2)
    out["sparse_2pct_visible_from_centre"] = len(viewshed(sparse, sparse_policy, centre))
    return out


def _cpu_ms_a_viewshed(path: Any, effects: Any, grazing: str, sources: list[Hex], qs: Any, rs: Any) -> float:
    start = time.process_time()
    for s in sources:
        path(effects, grazing, s, qs - s.q, rs - s.r)
    return round((time.process_time() - start) / len(sources) * 1e3, 2)


def table_free_paths(sources: int = 10, seed: int = 1) -> list[dict[str, Any]]:
    """The two ways a viewshed with no vector table at hand is worked out, side by side
    on random maps (CPU ms a viewshed, from ``sources`` random hexes): from the hexes
    that are not clear (``fastview._sparse``, forced) and line by line
    (``fastview._streamed``); and which one ``SPARSE_SHARE`` picks. Where the crossover
    lies is what ``SPARSE_SHARE`` was set from (issue 19 item 3)."""
    from tabletop.engine import fastview
    from tabletop.engine.viewshed import _kept

    rows = []
    share = fastview.SPARSE_SHARE
    for size, blocking in ((50, 0.02), (50, 0.1), (100, 0.005), (100, 0.02), (100, 0.05), (100, 0.1)):
        state = MapState.of(random_map(size, blocking, seed))
        policy = FreePlayPolicy.for_map(state)
        effects, hexes, qs, rs = _kept(state, policy)
        rng = random.Random(seed)
        picked = [rng.choice(hexes) for _ in range(sources)]
        args = (effects, policy.grazing, picked, qs, rs)
        taken = fastview._sparse(effects, policy.grazing, picked[0], qs - picked[0].q, rs - picked[0].r)
        fastview.SPARSE_SHARE = float("inf")
        try:
            sparse = _cpu_ms_a_viewshed(fastview._sparse, *args)
        finally:
            fastview.SPARSE_SHARE = share
        rows.append({
            "map": f"{size} x {size}, {blocking:.1%} blocking",
            "sparse_ms": sparse,
            "streamed_ms": _cpu_ms_a_viewshed(fastview._streamed, *args),
            "taken": "line by line" if taken is None else "sparse",
        })  # fmt: skip
    return rows
