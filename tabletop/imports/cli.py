"""``tabletop import tiled|vassal FILE --out DIR``: the command line of the imports."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_import_parser(subparsers: Any) -> None:
    """Add ``import`` with its ``tiled`` and ``vassal`` subcommands to the main parser."""
    from tabletop.cli import _path  # the same checks as every path argument (no NUL, lengths)

    p = subparsers.add_parser(
        "import",
        help="make a map (with its picture as background) from a Tiled .tmx or a VASSAL .vmod",
        description="Import another tool's hex map into a new folder: a map YAML (maps/FORMAT.md) with the "
        "picture under the grid, ready to paint terrain over. The Tiled import reads .tmx through "
        "pytmx: pip install 'tabletop[import]'.",
    )
    kinds = p.add_subparsers(dest="kind", required=True, metavar="KIND")
    t = kinds.add_parser("tiled", help="a Tiled hexagonal map (.tmx), tile ids -> terrain through a mapping")
    t.add_argument("file", metavar="FILE.tmx", type=_path, help="the Tiled map")
    t.add_argument("--out", required=True, metavar="DIR", type=_path, help="new (or empty) folder to write the map into")
    t.add_argument(
        "--mapping", metavar="MAPPING.yaml", type=_path,
        help="tile ids -> terrain (default: write a skeleton tiled-mapping.yaml and use it)",
    )  # fmt: skip
    t.set_defaults(func=cmd_import)
    v = kinds.add_parser("vassal", help="a VASSAL module (.vmod): each board a map, each piece a counter face")
    v.add_argument("file", metavar="FILE.vmod", type=_path, help="the VASSAL module")
    v.add_argument("--out", required=True, metavar="DIR", type=_path, help="new (or empty) folder to write the maps into")
    v.set_defaults(func=cmd_import)


def cmd_import(args: argparse.Namespace) -> int:
    """Run one import and print what it wrote; errors are DataErrors (exit code 2)."""
    if args.kind == "tiled":
        from tabletop.imports.tiled import import_tiled

        lines = import_tiled(Path(args.file), Path(args.out), Path(args.mapping) if args.mapping else None)
    else:
        from tabletop.imports.vassal import import_vassal

        lines = import_vassal(Path(args.file), Path(args.out))
    for line in lines:
        print(line)
    return 0

