"""Run the benchmarks and print one JSON object: `python -m benchmarks [--range N]`."""

from __future__ import annotations

import argparse
import json
import platform
import sys

from benchmarks import traversal


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument(
        "--range", type=int, default=100, help="largest vector length for traversal (default 100)"
    )
    parser.add_argument(
        "--shapely-range", type=int, default=30, help="largest range checked against shapely (default 30)"
    )
    args = parser.parse_args()
    print(f"traversal: every vector up to range {args.range} ...", file=sys.stderr)
    result = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "traversal": traversal.run(args.range, args.shapely_range),
    }
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
