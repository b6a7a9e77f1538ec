"""D-Day at Omaha Beach, part 2: the American side's authored data, read once and checked.

``attacks.yaml`` (the action budget, the free-action classes, command ranges, the 9.8
weapons, 9.6 multipliers, the 9.7 and 9.5 result tables, naval markers, the section 7
clearing bands) and ``victory.yaml`` (gap G2). A problem is reported as
``file:line: what is wrong``. Knows nothing of a game in play.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from tabletop.yamlfile import DataError, LineDict

from .data import _fail, _read

ATTACK_RESULTS = frozenset(
    {"us-disrupted", "add-depth", "unreveal", "disrupted", "defeated", "reveal-again", "drop-depth", "none"}
)
BARRAGE_RESULTS = frozenset({"none", "disrupted", "disrupted-if-no-depth"})
NO_DELTAS = ("le", "gt", "x2")
YES_DELTAS = ("lt", "eq", "gt", "x2")
COLUMNS = ("alone", "hidden", "revealed")
BARRAGE_ROWS = ("sym", "color", "color+sym")


def _check_cells(path: Any, table: Any, deltas: tuple[str, ...], row: str, allowed: frozenset[str]) -> None:
    for delta in deltas:
        cells = table.get(delta)
        if not isinstance(cells, dict):
            raise _fail(path, table, delta, f"9.7 row {row} needs the delta {delta!r}")
        for col in COLUMNS:
            for word in cells.get(col) or []:
                if word not in allowed:
                    raise _fail(path, cells, col, f"9.7 result {word!r} is not one of {', '.join(sorted(allowed))}")


@cache
def attacks() -> LineDict:
    """attacks.yaml, checked where the code reads words from it."""
    path, data = _read("attacks.yaml")
    results = data.get("results")
    if not isinstance(results, dict) or set(results) != {"no", "yes"}:
        raise DataError("tabletop/games/omaha/attacks.yaml", 1, "`results:` needs the rows \"no\" and \"yes\" (9.7)")
    _check_cells(path, results["no"], NO_DELTAS, "no", ATTACK_RESULTS)
    _check_cells(path, results["yes"], YES_DELTAS, "yes", ATTACK_RESULTS)
    rows = data["barrage"]["rows"]
    for row in BARRAGE_ROWS:
        cells = rows.get(row)
        if not isinstance(cells, list) or len(cells) != len(data["barrage"]["columns"]):
            raise _fail(path, rows, row, f"9.5 row {row!r} needs one cell per column")
        for word in cells:
            if word not in BARRAGE_RESULTS:
                raise _fail(path, rows, row, f"9.5 result {word!r} is not one of {', '.join(sorted(BARRAGE_RESULTS))}")
    return data


@cache
def victory() -> LineDict:
    path, data = _read("victory.yaml")
    for length in ("standard", "extended"):
        ranks = (data.get("ranks") or {}).get(length)
        if not isinstance(ranks, list) or not ranks:
            raise DataError("tabletop/games/omaha/victory.yaml", 1, f"`ranks:` needs a list for {length}")
        leasts = [int(r["least"]) for r in ranks]
        if leasts != sorted(leasts):
            raise _fail(path, data["ranks"], length, "ranks must go from the lowest score needed up")
        for need in ("vp_positions", "positions"):
            counts = [int(r.get(need, 0)) for r in ranks]
            if counts != sorted(counts):
                raise _fail(path, data["ranks"], length, f"ranks must go from the fewest {need} needed up")
    return data


def band(key: str, turn: int) -> Any | None:
    """The entry of attacks.yaml list ``key`` whose turns hold ``turn``."""
    for entry in attacks()[key]:
        a, b = entry["turns"]
        if int(a) <= turn <= int(b):
            return entry
    return None
