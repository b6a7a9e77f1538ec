"""Run the benchmarks and print one JSON object: `python -m benchmarks [--only NAME]`.

Every figure that compares is a ratio against a baseline measured in the same run, on
the same machine, so a busy machine slows both sides alike.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # stdout is JSON

from benchmarks import frames, game, idle, los, reach, speed, traversal

NAMES = ("traversal", "los", "reach", "frames", "idle", "game", "speed", "games")


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument(
        "--only", choices=NAMES,
        help="run one benchmark (default: all)",
    )
    parser.add_argument(
        "--range", type=int, default=100, help="largest vector length for traversal (default 100)"
    )
    parser.add_argument("--size", type=int, default=100, help="map size for LOS and viewshed (default 100)")
    args = parser.parse_args()
    result: dict[str, object] = {"python": platform.python_version(), "machine": platform.machine()}
    todo = [args.only] if args.only else list(NAMES)
    done = [0]

    def stage() -> str:
        """The progress prefix of the next benchmark's line on stderr: "[3/7] "."""
        done[0] += 1
        return f"[{done[0]}/{len(todo)}] "

    if args.only in (None, "traversal"):
        print(f"{stage()}traversal: every vector up to range {args.range} ...", file=sys.stderr)
        result["traversal"] = traversal.run(args.range)
    if args.only in (None, "los"):
        print(f"{stage()}los: queries and viewsheds on a {args.size} x {args.size} map ...", file=sys.stderr)
        result["los"] = los.run(args.size)
    if args.only in (None, "reach"):
        print(f"{stage()}reach: budget 20 on a {args.size} x {args.size} map ...", file=sys.stderr)
        result["reach"] = reach.run(args.size)
    if args.only in (None, "frames"):
        print(f"{stage()}frames: the table at 1600 x 1000 with 2,500 hexes and 200 counters, overlays, a 40,000-hex map ...", file=sys.stderr)
        result["frames"] = frames.run()
    if args.only in (None, "idle"):
        print(f"{stage()}idle: CPU share of DOG SECTOR's window waiting for the player, against 60 fps redraws ...", file=sys.stderr)
        result["idle"] = idle.run()
    if args.only in (None, "game"):
        print(f"{stage()}game: DOG SECTOR games by the autoplayer, with and without the log's snapshots ...", file=sys.stderr)
        result["game"] = game.run()
    if args.only in (None, "speed"):
        print(f"{stage()}speed: games per CPU-second, batch lines, cold viewsheds (issue 19) ...", file=sys.stderr)
        result["speed"] = speed.run()
    if args.only == "games":  # (part of "speed": not run twice by default)
        print(f"{stage()}games: games per CPU-second of each rule system (issue 19) ...", file=sys.stderr)
        result["games"] = speed.all_games()
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
