"""Movement reach: speed against networkx's Dijkstra and tcod's pathfinder, same graph.

A 100 x 100 map with mixed entry costs (1-3, some impassable), a dozen enemy units
whose hexes may not be entered and whose neighbours stop a move (zones of control),
and a budget of 20 from the centre. Each side gets its graph prebuilt, and only the
search is timed; building our move model (what a rule system does per unit and map
state) is reported apart. The answers are checked equal.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import numpy as np

from tabletop.engine.movement import MoveModel, reach
from tabletop.hexgrid import Hex, LabelFormat, RectGrid, neighbors


def scene(size: int, seed: int) -> tuple[RectGrid, dict[Hex, int], dict[Hex, str], Hex]:
    rng = random.Random(seed)
    grid = RectGrid("flat", "odd-q", size, size, LabelFormat(digits=3))
    hexes = grid.hexes()
    enter = {h: rng.choice((1, 1, 1, 2, 2, 3)) for h in hexes if rng.random() > 0.05}
    start = grid.hex_at(size // 2, size // 2)
    enter[start] = 1
    enemies = [h for h in rng.sample(hexes, 40) if h != start and h not in neighbors(start)][:12]
    stop: dict[Hex, str] = {}
    for e in enemies:
        enter.pop(e, None)
        for n in neighbors(e):
            if n != start:
                stop[n] = "zone of control"
    return grid, enter, stop, start


def _median(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def run(size: int = 100, budget: int = 20, seed: int = 1) -> dict[str, Any]:
    grid, enter, stop, start = scene(size, seed)
    out: dict[str, Any] = {"map": f"{size}x{size}", "budget": budget, "zoc_hexes": len(stop)}

    t0 = time.perf_counter()
    model = MoveModel(budget, dict(enter), stop=dict(stop))
    out["model_build_ms"] = round((time.perf_counter() - t0) * 1e3, 3)
    ours = reach(model, start)
    out["reached"] = len(ours.costs)
    t_ours = min(_median(lambda: reach(model, start), 25) for _ in range(3))
    out["ours_median_ms"] = round(t_ours * 1e3, 3)

    try:
        import networkx as nx
    except ImportError:
        out["networkx"] = "not installed (pip install networkx)"
    else:

        def nx_graph() -> Any:
            g = nx.DiGraph()
            for h in enter:
                if h in stop and h != start:
                    continue  # a move ends on entering: no way out
                for n in neighbors(h):
                    if n in enter:
                        g.add_edge(h, n, weight=enter[n])
            g.add_node(start)
            return g

        t0 = time.perf_counter()
        g = nx_graph()
        out["networkx_graph_build_ms"] = round((time.perf_counter() - t0) * 1e3, 1)

        def nx_reach() -> dict[Hex, int]:
            return nx.single_source_dijkstra_path_length(g, start, cutoff=budget, weight="weight")  # type: ignore[no-any-return]

        theirs = nx_reach()
        out["networkx_same_answers"] = dict(theirs) == dict(ours.costs)
        t_nx = _median(nx_reach, 9)
        out["networkx_median_ms"] = round(t_nx * 1e3, 3)
        out["speedup_vs_networkx_search_only"] = round(t_nx / t_ours, 2)
        # a unit moving or a marker placed changes costs and zones: each move needs a
        # fresh graph there, where ours needs a fresh model
        out["speedup_vs_networkx_build_and_search"] = round(
            (out["networkx_graph_build_ms"] / 1e3 + t_nx) / (out["model_build_ms"] / 1e3 + t_ours), 1
        )

    try:
        import tcod.path
    except ImportError:
        out["tcod"] = "not installed (pip install tcod)"
        return out
    hexes = grid.hexes()
    q0 = min(h.q for h in hexes)
    r0 = min(h.r for h in hexes)
    shape = (max(h.q for h in hexes) - q0 + 1, max(h.r for h in hexes) - r0 + 1)
    cost = np.zeros(shape, dtype=np.int32)
    leaves = np.ones(shape, dtype=bool)
    for h, c in enter.items():
        cost[h.q - q0, h.r - r0] = c
    for h in stop:
        leaves[h.q - q0, h.r - r0] = False
    axial = [[0, 1, 1], [1, 0, 1], [1, 1, 0]]  # tcod's AXIAL edge map, indexed [q][r]
    graph = tcod.path.CustomGraph(shape)
    graph.add_edges(edge_map=axial, cost=cost, condition=leaves)

    def tcod_reach() -> np.ndarray:
        pf = tcod.path.Pathfinder(graph)
        pf.add_root((start.q - q0, start.r - r0))
        pf.resolve()
        return pf.distance  # type: ignore[no-any-return]

    dist = tcod_reach()
    within = {
        Hex(int(i) + q0, int(j) + r0): int(dist[i, j])
        for i, j in zip(*np.nonzero(dist <= budget), strict=True)
    }
    out["tcod_same_answers"] = within == dict(ours.costs)
    t_tcod = _median(tcod_reach, 9)
    out["tcod_median_ms"] = round(t_tcod * 1e3, 3)
    out["ours_vs_tcod_time_ratio"] = round(t_ours / t_tcod, 2)
    return out
