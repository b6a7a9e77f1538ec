"""Where players and designers wait (issue 19): games per CPU-second.

DOG SECTOR games played headless by the autoplayer (``tabletop.sim.play_one``: seeded
dice, no history) are the workload, timed in CPU seconds (``time.process_time``: the
machine is shared). The baseline is a pure-Python calibration loop timed the same way
in the same run, so ``games_per_calibration`` compares runs on different machines or
on a busy one: it is the figure to compare before and after a change.
"""

from __future__ import annotations

import time
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
    from tabletop import sim

    sim.play_one("dog-sector", {}, seed)  # the scenario and the rule tables, read once
    base = calibration()
    plays = [({"bombardment": b}, seed + i) for i in range(count // 2) for b in ("light", "heavy")]
    start = time.process_time()
    actions = 0
    for options, s in plays:
        out = sim.play_one("dog-sector", options, s)
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


def run() -> dict[str, Any]:
    return {"games": games()}
