"""Where players and designers wait (issue 19): games per CPU-second.

DOG SECTOR games played headless by the autoplayer (``tabletop.sim.play_one``: seeded
dice, no history) are the workload, timed in CPU seconds (``time.process_time``: the
machine is shared). The baseline is a pure-Python calibration loop timed the same way
in the same run, so ``games_per_calibration`` compares runs on different machines or
on a busy one: it is the figure to compare before and after a change.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

CALIBRATION_LOOPS = 200_000


def calibration(loops: int = CALIBRATION_LOOPS) -> float:
    """CPU seconds of a fixed pure-Python loop (dict, tuple and int work, like a rule
    system's), the best of three."""

    def once() -> float:
        start = time.process_time()
        table: dict[tuple[int, int], int] = {}
        total = 0
        for i in range(loops):
            key = (i % 97, i % 89)
            table[key] = table.get(key, 0) + i
            total += len(key) + (i & 7)
        assert total > 0
        return time.process_time() - start

    return min(once() for _ in range(3))


def games(count: int = 10, seed: int = 1) -> dict[str, Any]:
    """DOG SECTOR games per CPU-second (``count`` games, seeds ``seed``... under light
    and heavy bombardment alike), against the calibration loop."""
    plays = [({"bombardment": b}, seed + i) for i in range(count // 2) for b in ("light", "heavy")]
    return _timed("dog-sector", plays)


def dogfaces_games(count: int = 4, seed: int = 1) -> dict[str, Any]:
    """Dogfaces in Space games per CPU-second (the tactical bot on both sides: its move
    search is the two-sided games' largest cost), against the calibration loop."""
    return _timed("dogfaces", [({}, seed + i) for i in range(count)])


def dogs_of_war_games(count: int = 2, seed: int = 1) -> dict[str, Any]:
    """Dogs of War games per CPU-second (its default bots on both sides), against the
    calibration loop; a game takes seconds, so no game is played first to warm up."""
    return _timed("dogs-of-war", [({}, seed + i) for i in range(count)], warm=False)


def omaha_games(count: int = 2, seed: int = 1) -> dict[str, Any]:
    """D-Day at Omaha Beach games per CPU-second (its autoplayer, the standard length),
    against the calibration loop; no warm-up game (a game takes seconds)."""
    return _timed("omaha", [({"length": "standard"}, seed + i) for i in range(count)], warm=False)


def all_games() -> dict[str, Any]:
    """Games per CPU-second of every rule system measured here (``--only games``)."""
    parts = (
        ("dog_sector", lambda: games(20), "DOG SECTOR (20 games)"),
        ("dogfaces", dogfaces_games, "Dogfaces (4 games)"),
        ("dogs_of_war", dogs_of_war_games, "Dogs of War (2 games)"),
        ("omaha", omaha_games, "Omaha (2 games)"),
    )
    return _announced("games", parts)


def _timed(scenario: str, plays: list[tuple[dict[str, Any], int]], warm: bool = True) -> dict[str, Any]:
    from tabletop import sim

    if warm:
        sim.play_one(scenario, plays[0][0], plays[0][1])  # the scenario and the rule tables, read once
    base = calibration()
    start = time.process_time()
    actions = 0
    for options, s in plays:
        out = sim.play_one(scenario, options, s)
        assert "error" not in out, out
        actions += out["actions"]
    cpu = time.process_time() - start
    base = min(base, calibration())
    per_second = len(plays) / cpu
    return {
        "games": len(plays),
        "actions_per_game": round(actions / len(plays), 1),
        "cpu_seconds_per_game": round(cpu / len(plays), 4),
        "games_per_cpu_second": round(per_second, 2),
        "calibration_loops_per_cpu_second": round(1 / base, 2),
        "games_per_calibration": round(per_second * base, 4),
    }


_COLD = """
import json, sys, time
from benchmarks.los import hexutil_fov, random_map
from tabletop.engine.freeplay import FreePlayPolicy
from tabletop.engine.pieces import MapState
from tabletop.engine.viewshed import viewshed
size = int(sys.argv[1])
state = MapState.of(random_map(size, 0.02, 1))
policy = FreePlayPolicy.for_map(state)
centre = state.board.grid.hex_at(size // 2, size // 2)
start = time.process_time()
first = viewshed(state, policy, centre)
cold = time.process_time() - start
start = time.process_time()
second = viewshed(state, policy, centre)
later = time.process_time() - start
assert first == second
start = time.process_time()
fov = hexutil_fov(state.board, centre)
theirs = time.process_time() - start if fov is not None else None
print(json.dumps({"first": cold, "second": later, "hexutil": theirs, "visible": len(first)}))
"""


def _fresh_process(size: int, home: str) -> dict[str, Any]:
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "TABLETOP_HOME": home, "PYTHONPATH": root}
    done = subprocess.run(
        [sys.executable, "-c", _COLD, str(size)],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def cold_viewshed(size: int = 100) -> dict[str, Any]:
    """The first viewshed in a fresh process on a ``size`` x ``size`` map with 2%
    blocking hexes, from its centre (CPU seconds), against hexutil's field of view on
    the same map in the same process: once with an empty cache folder (the first
    process ever), once with the vector table the first one left there."""
    import tempfile

    with tempfile.TemporaryDirectory() as home:
        empty = _fresh_process(size, home)
        kept = _fresh_process(size, home)
    out: dict[str, Any] = {"map": f"{size} x {size}, 2% blocking", "visible": empty["visible"]}
    out["first_viewshed_empty_cache_ms"] = round(empty["first"] * 1e3, 1)
    out["second_viewshed_builds_table_ms"] = round(empty["second"] * 1e3, 1)
    out["first_viewshed_table_on_disk_ms"] = round(kept["first"] * 1e3, 1)
    out["later_viewshed_ms"] = round(kept["second"] * 1e3, 1)
    if empty["hexutil"] is None:
        out["hexutil"] = "not installed (pip install hexutil) - comparison skipped"
        return out
    hexutil = min(empty["hexutil"], kept["hexutil"])
    out["hexutil_fov_ms"] = round(hexutil * 1e3, 1)
    out["first_viewshed_empty_cache_vs_hexutil"] = round(empty["first"] / hexutil, 3)
    out["first_viewshed_table_on_disk_vs_hexutil"] = round(kept["first"] / hexutil, 3)
    return out


def batch_los(size: int = 100, queries: int = 2000, seed: int = 1) -> dict[str, Any]:
    """Many lines at once (``viewshed.sight_lines``: 2,000 source-target pairs of range 1
    to 30 on a ``size`` x ``size`` map with 20% blocking hexes) per pair, against a
    plain per-pair shapely test (the line against every blocking hex polygon,
    vectorised in GEOS, no index) and against single queries, in the same run; the
    batch's verdicts are checked equal to the single queries'."""
    import random

    import numpy as np
    import shapely

    from benchmarks.los import random_map
    from tabletop.engine.freeplay import FreePlayPolicy
    from tabletop.engine.los import LosQuery, line_of_sight
    from tabletop.engine.pieces import MapState
    from tabletop.engine.viewshed import sight_lines
    from tabletop.hexgrid import distance

    board = random_map(size, 0.2, seed)
    state = MapState.of(board)
    policy = FreePlayPolicy.for_map(state)
    hexes = board.grid.hexes()
    rng = random.Random(seed)
    pairs = []
    while len(pairs) < queries:
        a, b = rng.choice(hexes), rng.choice(hexes)
        if 1 <= distance(a, b) <= 30:
            pairs.append((a, b))
    first_start = time.process_time()
    batch = sight_lines(state, policy, pairs)  # builds the range-30 table if none is kept
    first = time.process_time() - first_start

    def timed(fn: Any, repeat: int = 3) -> float:
        best = float("inf")
        for _ in range(repeat):
            start = time.process_time()
            fn()
            best = min(best, time.process_time() - start)
        return best

    ours = timed(lambda: sight_lines(state, policy, pairs)) / len(pairs)
    single = [line_of_sight(state, policy, LosQuery(a, b)).result for a, b in pairs]
    assert batch == single, "batch verdicts differ from single queries"
    one = timed(lambda: [line_of_sight(state, policy, LosQuery(a, b)) for a, b in pairs]) / len(pairs)

    layout = board.grid.layout(1.0)
    woods = [h for h in hexes if board.terrain[h] == "woods"]
    polygons = layout.polygons(woods)
    index = {h: i for i, h in enumerate(woods)}

    def plain(a: Any, b: Any) -> bool:
        line = shapely.LineString([layout.center(a), layout.center(b)])
        hits = np.nonzero(shapely.intersects(polygons, line))[0]
        ends = {index.get(a, -1), index.get(b, -1)}
        return any(int(i) not in ends for i in hits)

    sample = pairs[:500]
    theirs = timed(lambda: [plain(a, b) for a, b in sample], 2) / len(sample)
    return {
        "pairs": len(pairs),
        "batch_us_per_pair": round(ours * 1e6, 2),
        "batch_first_call_ms": round(first * 1e3, 1),
        "single_query_us": round(one * 1e6, 2),
        "shapely_plain_us_per_pair": round(theirs * 1e6, 2),
        "batch_speedup_vs_shapely_plain": round(theirs / ours, 1),
        "batch_speedup_vs_single_queries": round(one / ours, 1),
        "batch_equal_to_single_queries": True,
    }


def jobs_scaling(games: int = 24, seed: int = 1) -> dict[str, Any]:
    """``tabletop sim --jobs N``: wall seconds of the same DOG SECTOR run (``games`` a
    group, three groups: about 3 s in one process on a quiet machine; with 8 a group,
    once games became twice as fast in issue 19's session 4, a worker's start was a
    fifth of the run and the figure measured the start) in one process and in two,
    alternated twice and the best of each kept; the figures are checked equal. The
    machine's load average is reported with them: on a shared machine two processes
    cannot scale past the cores left, so the CPU seconds of each run (workers included)
    are given too, and the speedup two idle cores would allow (twice the one-process CPU
    over the two-process CPU)."""
    import os

    from tabletop import sim

    def strip(report: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in report.items() if k != "seconds"}

    def cpu() -> float:  # this process and its finished workers
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system

    best = {1: float("inf"), 2: float("inf")}
    work = {1: float("inf"), 2: float("inf")}
    reports: dict[int, dict[str, Any]] = {}
    load = os.getloadavg()[0]
    for _ in range(2):
        for jobs in (1, 2):
            start, used = time.perf_counter(), cpu()
            reports[jobs] = strip(sim.simulate("dog-sector", games, seed, jobs=jobs))
            best[jobs] = min(best[jobs], time.perf_counter() - start)
            work[jobs] = min(work[jobs], cpu() - used)
    assert reports[1] == reports[2], "--jobs 2 changed the figures"
    return {
        "games": 3 * games,
        "cores": os.cpu_count(),
        "load_average_before": round(load, 2),
        "load_average_after": round(os.getloadavg()[0], 2),
        "one_process_s": round(best[1], 2),
        "two_processes_s": round(best[2], 2),
        "speedup_two_vs_one": round(best[1] / best[2], 2),
        "cpu_seconds_one_process": round(work[1], 2),
        "cpu_seconds_two_processes": round(work[2], 2),
        # the speedup two idle cores would give: the work is split, not grown
        "speedup_bound_on_idle_cores": round(2 * work[1] / work[2], 2),
    }


def run() -> dict[str, Any]:
    """Every issue 19 figure, each part announced on stderr as it starts (stdout is JSON)."""
    parts = (
        ("games", games, "DOG SECTOR games per CPU-second (10 games)"),
        ("dogfaces_games", dogfaces_games, "Dogfaces games per CPU-second (4 games)"),
        ("dogs_of_war_games", dogs_of_war_games, "Dogs of War games per CPU-second (2 games)"),
        ("omaha_games", omaha_games, "Omaha games per CPU-second (2 games)"),
        ("cold_viewshed", cold_viewshed, "first viewshed in fresh processes"),
        ("batch_los", batch_los, "2,000 lines at once"),
        ("jobs", jobs_scaling, "sim --jobs 1 and 2 (72 games, twice each)"),
    )
    return _announced("speed", parts)


def _announced(label: str, parts: tuple[tuple[str, Callable[[], Any], str], ...]) -> dict[str, Any]:
    """Run each part, announcing it on stderr as it starts (stdout is JSON)."""
    import sys

    out: dict[str, Any] = {}
    for i, (key, part, what) in enumerate(parts, start=1):
        print(f"  {label} {i}/{len(parts)}: {what} ...", file=sys.stderr, flush=True)
        out[key] = part()
    return out
