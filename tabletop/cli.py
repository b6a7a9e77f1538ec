"""The `tabletop` command line: one subcommand a job, JSON for tools, clear errors.

Errors go to stderr as ``file:line: what is wrong; how to fix it`` with exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from tabletop import __version__
from tabletop.atomicfile import write_atomic
from tabletop.board import Map, load_map
from tabletop.board.blank import blank_map_yaml
from tabletop.board.export import map_to_json
from tabletop.yamlfile import DataError, DataErrors, read_yaml

EXIT_BAD_INPUT = 2
DEFAULT_SCENARIO = "dog-sector"


class CliError(Exception):
    """A problem with what the user asked for; printed as one line, exit code 2."""


def _print_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=None, separators=(",", ":"))
    sys.stdout.write("\n")


def _open_map(source: str) -> Map:
    # Scenarios (issue: game state and scenarios) will name their map; until then a
    # MAP_OR_SCENARIO argument is a map.
    return load_map(source)


def cmd_play(args: argparse.Namespace) -> int:
    source = args.scenario or DEFAULT_SCENARIO
    m = _open_map(source)
    print(
        f"tabletop {__version__}: would open {source!r}: {m.name}, "
        f"{m.grid.columns} x {m.grid.rows} {m.grid.orientation}-top hexes ({m.path}).\n"
        "The game window is not built yet; meanwhile try:\n"
        f"  tabletop map {source}            a summary of the map\n"
        f"  tabletop map {source} --json     the grid as data"
    )
    return 0


def cmd_map(args: argparse.Namespace) -> int:
    m = _open_map(args.map)
    if args.json:
        _print_json(map_to_json(m))
        return 0
    grid = m.grid
    counts = Counter(m.terrain.values())
    print(f"{m.name}  ({m.path})")
    print(
        f"  grid: {grid.columns} columns x {grid.rows} rows, {grid.orientation}-top, {grid.offset}, "
        f"labels {grid.label(grid.hex_at(0, 0))}-{grid.label(grid.hex_at(grid.columns - 1, grid.rows - 1))}"
        + (f", {m.scale}" if m.scale else "")
    )
    if m.rules:
        print(f"  rules: {m.rules}")
    print("  terrain: " + ", ".join(f"{k} {counts.get(k, 0)}" for k in m.terrain_types))
    if m.features:
        print("  features: " + ", ".join(f"{k} {len(f.hexes)} hexes" for k, f in m.features.items()))
    if m.hexsides:
        print("  hexsides: " + ", ".join(f"{k} {len(f.sides)}" for k, f in m.hexsides.items()))
    if m.regions:
        kinds = Counter(r.kind for r in m.regions.values())
        print("  regions: " + ", ".join(f"{n} {k}" for k, n in kinds.items()))
        for r in m.regions.values():
            print(f"    {r.key:<16} {r.kind:<12} {len(r.hexes):>4} hexes  {r.name}")
    return 0


def cmd_map_new(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.exists() and not args.force:
        raise CliError(f"{out}: already exists; choose another --out or add --force to replace it")
    if not out.parent.is_dir():
        raise CliError(f"{out}: folder {out.parent} does not exist")
    text = blank_map_yaml(columns=args.columns, rows=args.rows, orientation=args.orientation, name=args.name)
    write_atomic(out, text)
    m = load_map(out)  # proves the written file loads
    print(f"wrote {out}: {m.grid.columns} x {m.grid.rows} {m.grid.orientation}-top hexes")
    return 0


def _validate_one(path: Path) -> tuple[str, list[DataError]]:
    try:
        data = read_yaml(path)
    except DataError as exc:
        return ("file", [exc])
    if hasattr(data, "get") and "grid" in data:
        try:
            m = load_map(path)
        except DataErrors as exc:
            return ("map", exc.errors)
        return (f"map: {m.name}, {m.grid.columns} x {m.grid.rows}", [])
    return (
        "file",
        [DataError(path, 1, "not a map (a map has a `grid:` block); counters and scenarios "
                   "are not checked yet")],
    )  # fmt: skip


def cmd_validate(args: argparse.Namespace) -> int:
    files: list[Path] = []
    for given in args.paths:
        p = Path(given)
        if p.is_dir():
            found = sorted(p.rglob("*.yaml"))
            if not found:
                raise CliError(f"{p}: no .yaml files in this folder")
            files.extend(found)
        elif p.is_file():
            files.append(p)
        else:
            raise CliError(f"{p}: no such file or folder")
    report = []
    failed = 0
    for path in files:
        what, errors = _validate_one(path)
        failed += bool(errors)
        report.append({"path": str(path), "ok": not errors, "what": what,
                       "errors": [{"file": e.path, "line": e.line, "message": e.message} for e in errors]})  # fmt: skip
        if not args.json:
            if errors:
                for e in errors:
                    print(e, file=sys.stderr)
            else:
                print(f"ok  {path}  ({what})")
    if args.json:
        _print_json(report)
    elif len(files) > 1:
        print(f"{len(files) - failed} of {len(files)} files valid", file=sys.stderr if failed else sys.stdout)
    return EXIT_BAD_INPUT if failed else 0


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= 999:
        raise argparse.ArgumentTypeError(f"{value} is out of range (1 to 999)")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tabletop",
        description="A hex-map tabletop simulator: maps, counters, exact line of sight.",
    )
    parser.add_argument("--version", action="version", version=f"tabletop {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("play", help="open a scenario (default: the solo DOG SECTOR scenario)")
    p.add_argument(
        "scenario", nargs="?", help=f"scenario or map, path or bare name (default {DEFAULT_SCENARIO})"
    )
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "map",
        help="show a map, or its grid as JSON; `tabletop map new` makes a blank map",
        description="Show a map (path or bare shipped name), or print it as JSON with --json. "
        "To make a blank free-play map: tabletop map new --columns C --rows R --out FILE.",
    )
    p.add_argument("map", help="map file path or bare name of a shipped map")
    p.add_argument("--json", action="store_true", help="print the grid as JSON")
    p.set_defaults(func=cmd_map)

    p = sub.add_parser("validate", help="check map files (and folders of them)")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders to check")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.set_defaults(func=cmd_validate)
    return parser


def build_map_new_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tabletop map new", description="Write a blank free-play map.")
    p.add_argument("--columns", type=_positive, required=True, help="number of hex columns")
    p.add_argument("--rows", type=_positive, required=True, help="number of hex rows")
    p.add_argument(
        "--orientation", choices=("flat", "pointy"), default="flat", help="hex orientation (default flat)"
    )
    p.add_argument("--name", default="Free-play map", help="the map's display name")
    p.add_argument("--out", required=True, help="YAML file to write")
    p.add_argument("--force", action="store_true", help="replace --out if it exists")
    p.set_defaults(func=cmd_map_new)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:2] == ["map", "new"]:
        args = build_map_new_parser().parse_args(argv[2:])
    else:
        args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except DataErrors as exc:
        for e in exc.errors:
            print(e, file=sys.stderr)
        return EXIT_BAD_INPUT
    except (DataError, CliError) as exc:
        print(exc, file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0
