"""Re-run the whole case table of the reliability findings and print the counts table
(per category and in all, as in the findings file) and the ids that still fail.

    python tests/reliability/recount.py [--long] [--jobs 2] [--only PREFIX] [--keep DIR]

Exit 0 when every case passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reliability.cases import all_cases
from reliability.runner import (
    ACCEPTED,
    BROKEN,
    CATEGORIES,
    CLEAN,
    HANG,
    LOST,
    SKIPPED,
    TRACEBACK,
    WEAK,
    WRONG,
    Outcome,
    make_mid,
    run_all,
)

COLUMNS = ("tried", ACCEPTED, CLEAN, TRACEBACK, "hang", WRONG, LOST, "weak message*")


def counts(outcomes: list[Outcome]) -> list[int]:
    """One row: weak messages count as clean errors too, as in the findings."""
    tried = [o for o in outcomes if o.verdict not in (SKIPPED, BROKEN)]
    n = {v: sum(o.verdict == v for o in tried) for v in (ACCEPTED, CLEAN, TRACEBACK, HANG, WRONG, LOST, WEAK)}
    return [len(tried), n[ACCEPTED], n[CLEAN] + n[WEAK], n[TRACEBACK], n[HANG], n[WRONG], n[LOST], n[WEAK]]


def table(outcomes: list[Outcome]) -> str:
    lines = ["| category | " + " | ".join(COLUMNS) + " |", "|---" * (len(COLUMNS) + 1) + "|"]
    for cat, name in CATEGORIES.items():
        row = counts([o for o in outcomes if o.case.category == cat])
        lines.append(f"| {name} | " + " | ".join(map(str, row)) + " |")
    lines.append("| **all** | " + " | ".join(f"**{x}**" for x in counts(outcomes)) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--long", action="store_true", help="also the slow cases (big maps, 150 kills, every command)")
    ap.add_argument("--jobs", type=int, default=1, help="cases run at a time (each is a child process)")
    ap.add_argument("--only", default="", help="only case ids that start with one of these (comma-separated)")
    ap.add_argument("--keep", type=Path, help="keep each case's scratch folder under this folder")
    args = ap.parse_args(argv)
    cases = [c for c in all_cases() if (args.long or not c.slow) and c.id.startswith(tuple(args.only.split(",")))]
    with tempfile.TemporaryDirectory(prefix="rel-mid-") as tmp:
        outcomes = run_all(cases, make_mid(Path(tmp)), jobs=args.jobs, keep=args.keep)
    print(table(outcomes))
    print("\n* also counted as clean errors. A case passes when its verdict is the one the issue demands.")
    failing = [o for o in outcomes if not o.ok and o.verdict != SKIPPED]
    skipped = [o for o in outcomes if o.verdict == SKIPPED]
    passed = len(outcomes) - len(failing) - len(skipped)
    print(f"\n{passed} of {len(outcomes)} cases pass; {len(failing)} fail; {len(skipped)} skipped")
    for o in failing:
        print(f"FAIL {o.case.id}: {o.verdict}: {o.detail}")
    for o in skipped:
        print(f"SKIP {o.case.id}: {o.detail}")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
