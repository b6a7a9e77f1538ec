"""Reading map YAML into a validated Map: all problems reported, nothing half-loaded.

The format is described for people in ``maps/FORMAT.md``. Every error names the file,
the line and the fix; the whole file is checked in one pass so a player sees every
problem at once, and a map with any problem is not returned at all.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType
from typing import Any

from tabletop.datareader import Collector
from tabletop.hexgrid import (
    OFFSET_SYSTEMS,
    Hex,
    Hexside,
    LabelError,
    LabelFormat,
    RectGrid,
    distance,
    hexside,
)
from tabletop.inputfile import picture_beside
from tabletop.shipped import open_data
from tabletop.yamlfile import DataErrors, LineDict, LineList

from .model import Background, HexFeature, HexsideFeature, Map, Region, TerrainType

KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")

TOP_KEYS = (
    "name", "rules", "notes", "grid", "terrain", "default_terrain", "rows", "hexes",
    "elevation", "features", "hexsides", "regions", "line_of_sight", "background",
)  # fmt: skip
BACKGROUND_KEYS = ("image", "origin", "scale")
LOS_KEYS = ("grazing", "markers")
LOS_EFFECTS = ("clear", "hinder", "block")
GRAZING = ("both", "either", "never")
GRID_KEYS = ("orientation", "offset", "columns", "rows", "labels", "scale")
LABEL_KEYS = ("first_column", "first_row", "digits")
TERRAIN_KEYS = ("symbol", "colour", "name", "properties")
FEATURE_KEYS = ("colour", "name", "properties", "hexes")
HEXSIDE_KEYS = ("colour", "name", "properties", "between")
REGION_KEYS = ("kind", "name", "hexes", "columns", "rows")
ELEVATION_KEYS = ("default", "rows", "hexes")
ELEVATION = 99  # levels above or below 0 an elevation may give
DEFAULT_OFFSET = {"flat": "odd-q", "pointy": "odd-r"}


def load_map(source: str | Path) -> Map:
    """Load a map from a path or a shipped bare name; DataErrors lists every problem."""
    path, data = open_data(
        source, "maps", "no such map file, nor a shipped map of that name (shipped maps: {known})"
    )
    return build_map(data, path)


class _Check(Collector):
    """Collects problems for one map file; helpers return None where a value is unusable."""

    def text(self, d: LineDict, key: str, where: str, required: bool = False,
             lines: bool = False) -> str | None:  # fmt: skip
        """Text at ``key``: one line of printable text unless ``lines`` (notes)."""
        value = d.get(key)
        if value is None:
            if required:
                self.fail(self.line_of(d, key), f"{where} needs `{key}:` (text)")
            return None
        if not isinstance(value, str):
            self.fail(self.line_of(d, key), f"`{key}` in {where} must be text, got {value!r}")
            return None
        return value if lines else self.one_line(d, key, where, value)

    def properties(self, spec: LineDict, where: str) -> dict[Any, Any] | None:
        """The free ``properties:`` mapping of a terrain, feature or hexside ({} if absent)."""
        props = spec.get("properties", {})
        if not isinstance(props, dict):
            self.fail(
                self.line_of(spec, "properties"),
                f"`properties` of {where} must be a mapping of `name: value` lines, got {props!r}",
            )
            return None
        return dict(props)

    def terrain_key(self, value: Any, line: int | None, types: dict[str, TerrainType]) -> str | None:
        """``value`` if it names a declared terrain type; else reported."""
        if not isinstance(value, str):
            self.fail(
                line, f"a terrain must be named by its key (text), got {value!r}; known: {', '.join(types)}"
            )
            return None
        if value not in types:
            self.fail(line, _unknown("terrain", value, types))
            return None
        return value

    def integer(self, d: LineDict, key: str, where: str, low: int, high: int | None = None,
                default: int | None = None) -> int | None:  # fmt: skip
        value = d.get(key, default)
        if value is None:
            self.fail(self.line_of(d, key), f"{where} needs `{key}:` (a whole number)")
            return None
        if type(value) is not int or value < low or (high is not None and value > high):
            span = f"{low} to {high}" if high is not None else f"at least {low}"
            self.fail(
                self.line_of(d, key), f"`{key}` in {where} must be a whole number {span}, got {value!r}"
            )
            return None
        return value

    def key_name(self, container: LineDict, key: Any, what: str) -> bool:
        if isinstance(key, str) and KEY.match(key):
            return True
        self.fail(
            self.line_of(container, key),
            f"{what} name {key!r} must be a word of letters, digits, '-' or '_'",
        )
        return False

    def label(self, grid: RectGrid, value: Any, line: int | None, where: str) -> Hex | None:
        if type(value) is int:
            value = str(value)
        if not isinstance(value, str):
            self.fail(line, f'{where}: expected a hex label like "0504", got {value!r}')
            return None
        try:
            return grid.hex_of(value)
        except LabelError as exc:
            self.fail(line, f"{where}: {exc}")
            return None

    def labels(self, grid: RectGrid, d: LineDict, key: str, where: str) -> frozenset[Hex] | None:
        value = d.get(key)
        if not isinstance(value, LineList):
            self.fail(
                self.line_of(d, key),
                f'`{key}` in {where} must be a list of hex labels, e.g. ["0101", "0102"]',
            )
            return None
        out = set()
        for i, item in enumerate(value):
            h = self.label(grid, item, value.item_lines[i], where)
            if h is not None:
                out.add(h)
        return frozenset(out)


def build_map(data: Any, path: Path) -> Map:
    """Validate parsed YAML ``data`` read from ``path`` and build the Map."""
    c = _Check(path)
    if not isinstance(data, LineDict):
        c.fail(1, "a map file must be a mapping with at least `name:`, `grid:` and `terrain:`")
        raise DataErrors(c.errors)
    c.known_keys(data, TOP_KEYS, "a map")
    name = c.text(data, "name", "a map", required=True)
    rules = c.text(data, "rules", "a map")
    notes = c.text(data, "notes", "a map", lines=True) or ""
    grid, scale = _grid(c, data)
    types = _terrain_types(c, data)
    if grid is None or types is None:
        raise DataErrors(c.errors)

    terrain = _terrain(c, data, grid, types)
    elevation = _elevation(c, data, grid)
    features = _placed(c, data, "features", FEATURE_KEYS, "hexes", grid, _feature)
    sides = _placed(c, data, "hexsides", HEXSIDE_KEYS, "between", grid, _hexside_feature)
    regions = _placed(c, data, "regions", REGION_KEYS, None, grid, _region)
    los = _line_of_sight(c, data, types)
    background = _background(c, data, path)
    if c.errors:
        raise DataErrors(c.errors)
    assert name is not None and terrain is not None and elevation is not None
    return Map(
        name=name,
        grid=grid,
        terrain_types=MappingProxyType(types),
        terrain=MappingProxyType(terrain),
        elevation=MappingProxyType(elevation),
        features=MappingProxyType(features),  # type: ignore[arg-type]
        hexsides=MappingProxyType(sides),  # type: ignore[arg-type]
        regions=MappingProxyType(regions),  # type: ignore[arg-type]
        rules=rules,
        line_of_sight=MappingProxyType(los),
        notes=notes,
        scale=scale or "",
        path=path,
        background=background,
    )


def _grid(c: _Check, data: LineDict) -> tuple[RectGrid | None, str | None]:
    g = c.mapping(data, "grid", "a map", required=True)
    if g is None:
        return None, None
    c.known_keys(g, GRID_KEYS, "grid")
    orientation = g.get("orientation", "flat")
    if orientation not in ("flat", "pointy"):
        c.fail(c.line_of(g, "orientation"), f"grid orientation must be flat or pointy, got {orientation!r}")
        return None, None
    offset = g.get("offset", DEFAULT_OFFSET[orientation])
    if offset not in OFFSET_SYSTEMS[orientation]:
        allowed = " or ".join(OFFSET_SYSTEMS[orientation])
        c.fail(
            c.line_of(g, "offset"),
            f"grid offset for {orientation}-top hexes must be {allowed}, got {offset!r}",
        )
        return None, None
    columns = c.integer(g, "columns", "grid", 1, 999)
    rows = c.integer(g, "rows", "grid", 1, 999)
    scale = c.text(g, "scale", "grid")
    fmt = LabelFormat()
    lab = c.mapping(g, "labels", "grid")
    if lab is not None:
        c.known_keys(lab, LABEL_KEYS, "grid labels")
        first_column = c.integer(lab, "first_column", "grid labels", 0, default=1)
        first_row = c.integer(lab, "first_row", "grid labels", 0, default=1)
        digits = c.integer(lab, "digits", "grid labels", 1, 4, default=2)
        if first_column is None or first_row is None or digits is None:
            return None, None
        fmt = LabelFormat(first_column, first_row, digits)
    if columns is None or rows is None:
        return None, None
    try:
        return RectGrid(orientation, offset, columns, rows, fmt), scale
    except ValueError as exc:
        c.fail(g.line, f"grid: {exc}")
        return None, None


def _terrain_types(c: _Check, data: LineDict) -> dict[str, TerrainType] | None:
    t = c.mapping(data, "terrain", "a map", required=True)
    if t is None:
        return None
    if not t:
        c.fail(t.line, "`terrain` must declare at least one terrain type")
        return None
    out: dict[str, TerrainType] = {}
    by_symbol: dict[str, str] = {}
    before = len(c.errors)
    for key, spec in t.items():
        where = f"terrain {key!r}"
        if not c.key_name(t, key, "terrain"):
            continue
        if not isinstance(spec, LineDict):
            c.fail(c.line_of(t, key), f'{where} must be a mapping like {{symbol: ".", colour: "#e6d59a"}}')
            continue
        c.known_keys(spec, TERRAIN_KEYS, where)
        symbol = spec.get("symbol")
        if type(symbol) is int and 0 <= symbol <= 9:
            symbol = str(symbol)
        if not isinstance(symbol, str) or len(symbol) != 1 or symbol.isspace():
            c.fail(c.line_of(spec, "symbol"), f"{where} needs `symbol:` of exactly one non-space character")
            continue
        if symbol in by_symbol:
            c.fail(
                c.line_of(spec, "symbol"),
                f"{where} uses symbol {symbol!r}, already used by {by_symbol[symbol]!r}; pick another",
            )
            continue
        by_symbol[symbol] = key
        colour = c.colour(spec, "colour", where)
        name = c.text(spec, "name", where) or key
        props = c.properties(spec, where)
        if colour is not None and props is not None:
            out[key] = TerrainType(key, name, symbol, colour, MappingProxyType(props))
    return out if len(c.errors) == before else None


def _symbol_rows(c: _Check, data: LineDict, key: str, where: str, grid: RectGrid,
                 cell: Callable[[str, int], Any]) -> dict[Hex, Any]:  # fmt: skip
    """Read a block of rows (one line per map row, one token per column) through ``cell``,
    which returns the cell's value or None after reporting a problem."""
    value = data.get(key)
    first_line = data.text_lines.get(key) if isinstance(data, LineDict) else None
    if isinstance(value, str):
        lines = value.split("\n")
        numbers = [(first_line or 0) + i for i in range(len(lines))]
    elif isinstance(value, LineList) and all(isinstance(v, str) for v in value):
        lines, numbers = list(value), list(value.item_lines)
    else:
        c.fail(c.line_of(data, key), f"`{key}` in {where} must be a block of text lines (`{key}: |`)")
        return {}
    while lines and not lines[-1].strip():
        lines.pop()
        numbers.pop()
    if len(lines) != grid.rows:
        c.fail(
            c.line_of(data, key),
            f"`{key}` in {where} has {len(lines)} lines but the grid has {grid.rows} rows; give one line per row",
        )
    out: dict[Hex, Any] = {}
    for row, (text, number) in enumerate(zip(lines, numbers, strict=True)):
        if row >= grid.rows:
            break
        tokens = text.split()
        if len(tokens) != grid.columns:
            c.fail(
                number,
                f"row {row + grid.labels.first_row} of `{key}` has {len(tokens)} entries but the grid has {grid.columns} columns",
            )
            continue
        for col, token in enumerate(tokens):
            v = cell(token, number)
            if v is not None:
                out[grid.hex_at(col, row)] = v
    return out


def _terrain(
    c: _Check, data: LineDict, grid: RectGrid, types: dict[str, TerrainType]
) -> dict[Hex, str] | None:
    by_symbol = {t.symbol: k for k, t in types.items()}
    default = data.get("default_terrain")
    if default is not None:
        default = c.terrain_key(default, c.line_of(data, "default_terrain"), types)
    terrain: dict[Hex, str] = {}
    if "rows" in data:

        def cell(token: str, line: int) -> str | None:
            if token in by_symbol:
                return by_symbol[token]
            legend = ", ".join(f"{s}={k}" for s, k in by_symbol.items())
            c.fail(line, f"unknown terrain symbol {token!r}; the terrain block declares {legend}")
            return None

        terrain = _symbol_rows(c, data, "rows", "the map", grid, cell)
    elif default is None:
        c.fail(data.line, "give the terrain as a `rows: |` block or name a `default_terrain:`")
        return None
    hexes = data.get("hexes")
    if hexes is not None:
        if not isinstance(hexes, LineDict):
            c.fail(c.line_of(data, "hexes"), '`hexes` must map labels to terrain, e.g. "0504": woods')
        else:
            for label, kind in hexes.items():
                h = c.label(grid, label, c.line_of(hexes, label), "hexes")
                if h is None:
                    continue
                if c.terrain_key(kind, c.line_of(hexes, label), types) is not None:
                    terrain[h] = kind
    if default is not None:
        for h in grid.hexes():
            terrain.setdefault(h, default)
    return terrain


def _elevation(c: _Check, data: LineDict, grid: RectGrid) -> dict[Hex, int] | None:
    e = c.mapping(data, "elevation", "a map")
    base = 0
    levels: dict[Hex, int] = {}
    if e is not None:
        c.known_keys(e, ELEVATION_KEYS, "elevation")
        base = c.integer(e, "default", "elevation", -ELEVATION, ELEVATION, default=0) or 0
        if "rows" in e:

            def cell(token: str, line: int) -> int | None:
                try:
                    level = int(token)
                except ValueError:
                    level = None
                if level is None or abs(level) > ELEVATION:
                    c.fail(line, f"elevation {token!r} is not a whole number {-ELEVATION} to {ELEVATION}")
                    return None
                return level

            levels = _symbol_rows(c, e, "rows", "elevation", grid, cell)
        overrides = c.mapping(e, "hexes", "elevation")
        for label, level in (overrides or {}).items():
            h = c.label(grid, label, c.line_of(overrides, label), "elevation hexes")
            if h is None:
                continue
            if type(level) is not int or abs(level) > ELEVATION:
                c.fail(
                    c.line_of(overrides, label),
                    f"elevation of {label} must be a whole number {-ELEVATION} to {ELEVATION}, got {level!r}",
                )
                continue
            levels[h] = level
    return {h: levels.get(h, base) for h in grid.hexes()}


def _placed(c: _Check, data: LineDict, block: str, allowed: tuple[str, ...], where_key: str | None,
            grid: RectGrid, make: Callable[..., Any]) -> dict[str, Any]:  # fmt: skip
    """Read a block of named, placed things (features, hexsides, regions)."""
    d = c.mapping(data, block, "a map")
    out: dict[str, Any] = {}
    if d is None:
        return out
    for key, spec in d.items():
        where = f"{block} {key!r}"
        if not c.key_name(d, key, block.rstrip("s")):
            continue
        if not isinstance(spec, LineDict):
            c.fail(c.line_of(d, key), f"{where} must be a mapping (see maps/FORMAT.md)")
            continue
        c.known_keys(spec, allowed, where)
        if where_key is not None and where_key not in spec:
            c.fail(spec.line, f"{where} needs `{where_key}:` saying where it lies")
            continue
        thing = make(c, grid, key, spec, where)
        if thing is not None:
            out[key] = thing
    return out


def _feature(c: _Check, grid: RectGrid, key: str, spec: LineDict, where: str) -> HexFeature | None:
    colour = c.colour(spec, "colour", where)
    hexes = c.labels(grid, spec, "hexes", where)
    props = c.properties(spec, where)
    name = c.text(spec, "name", where) or key
    if colour is None or hexes is None or props is None:
        return None
    return HexFeature(key, name, colour, MappingProxyType(props), hexes)


def _hexside_feature(
    c: _Check, grid: RectGrid, key: str, spec: LineDict, where: str
) -> HexsideFeature | None:
    colour = c.colour(spec, "colour", where)
    between = spec.get("between")
    if not isinstance(between, LineList):
        c.fail(c.line_of(spec, "between"), f'`between` in {where} must be a list like ["0504/0505"]')
        return None
    sides: set[Hexside] = set()
    for i, pair in enumerate(between):
        line = between.item_lines[i]
        parts = pair.split("/") if isinstance(pair, str) else []
        if len(parts) != 2:
            c.fail(line, f"{where}: {pair!r} is not two labels joined by '/', like \"0504/0505\"")
            continue
        a = c.label(grid, parts[0], line, where)
        b = c.label(grid, parts[1], line, where)
        if a is None or b is None:
            continue
        if distance(a, b) != 1:
            c.fail(line, f"{where}: {parts[0]} and {parts[1]} are not adjacent, so they share no hexside")
            continue
        sides.add(hexside(a, b))
    props = c.properties(spec, where)
    name = c.text(spec, "name", where) or key
    if colour is None or props is None:
        return None
    return HexsideFeature(key, name, colour, MappingProxyType(props), frozenset(sides))


def _region(c: _Check, grid: RectGrid, key: str, spec: LineDict, where: str) -> Region | None:
    kind = c.text(spec, "kind", where, required=True)
    name = c.text(spec, "name", where) or key
    if "hexes" in spec:
        if "columns" in spec or "rows" in spec:
            c.fail(spec.line, f"{where}: give either `hexes` or `columns`/`rows`, not both")
            return None
        hexes = c.labels(grid, spec, "hexes", where)
    else:
        cols = _span(c, spec, "columns", where, grid.labels.first_column, grid.columns)
        rows = _span(c, spec, "rows", where, grid.labels.first_row, grid.rows)
        if cols is None or rows is None:
            return None
        hexes = frozenset(grid.hex_at(col, row) for col in cols for row in rows)
    if kind is None or hexes is None:
        return None
    if not hexes:  # nothing could be drawn, set up in or left by: surely a mistake
        c.fail(c.line_of(spec, "hexes"), f"region {key!r} has no hexes; give it hexes or remove it")
        return None
    return Region(key, name, kind, hexes)


def _span(c: _Check, spec: LineDict, key: str, where: str, first: int, count: int) -> range | None:
    """0-based indices of an inclusive [from, to] span of printed numbers (default: all)."""
    if key not in spec:
        return range(count)
    value = spec[key]
    last = first + count - 1
    if (not isinstance(value, LineList) or len(value) != 2 or any(type(v) is not int for v in value)
            or not first <= value[0] <= value[1] <= last):  # fmt: skip
        c.fail(
            c.line_of(spec, key),
            f"`{key}` in {where} must be [from, to] with {first} <= from <= to <= {last}, got {value!r}",
        )
        return None
    return range(value[0] - first, value[1] - first + 1)


def _line_of_sight(c: _Check, data: LineDict, types: dict[str, TerrainType]) -> dict[str, Any]:
    """The free-play line-of-sight settings, and each terrain's `los` property checked."""
    for key, t in types.items():
        effect = t.properties.get("los", "clear")
        if effect not in LOS_EFFECTS:
            spec = data["terrain"][key]
            c.fail(
                c.line_of(spec, "properties"),
                f"terrain {key!r}: properties.los must be clear, hinder or block, got {effect!r}",
            )
    block = c.mapping(data, "line_of_sight", "a map")
    if block is None:
        return {"grazing": "both", "markers": {"smoke": "hinder"}}
    c.known_keys(block, LOS_KEYS, "line_of_sight")
    grazing = block.get("grazing", "both")
    if grazing not in GRAZING:
        c.fail(
            c.line_of(block, "grazing"),
            f"line_of_sight grazing must be both, either or never, got {grazing!r}",
        )
    markers = block.get("markers", {"smoke": "hinder"})
    if (not isinstance(markers, dict) or any(v not in LOS_EFFECTS for v in markers.values())
            or not all(isinstance(k, str) and KEY.match(k) for k in markers)):  # fmt: skip
        c.fail(
            c.line_of(block, "markers"),
            "line_of_sight markers must map marker types to clear, hinder or block",
        )
        markers = {}
    return {"grazing": grazing, "markers": dict(markers)}


def _background(c: _Check, data: LineDict, path: Path) -> Background | None:
    """The printed map's picture: a PNG or JPEG inside the map's folder (a map file
    never reads outside its folder), where the first hex's centre lies on it and its
    pixels per hex size."""
    block = c.mapping(data, "background", "a map")
    if block is None:
        return None
    c.known_keys(block, BACKGROUND_KEYS, "background")
    line = c.line_of(block, "image") or c.line_of(data, "background")
    image, why = picture_beside(path.parent, block.get("image"), "background image")
    if why is not None:
        c.fail(line, why)
    origin = _pair(c, block, "origin", "the image pixel (x, y) where the first hex's centre lies", 0)
    scale = _pair(c, block, "scale", "image pixels per hex size (centre to corner), across and down", 1e-6)
    if image is None or origin is None or scale is None:
        return None
    return Background(image, origin, scale)


def _pair(c: _Check, block: LineDict, key: str, meaning: str, least: float) -> tuple[float, float] | None:
    """Two numbers ``[x, y]`` (or one number for both) of at least ``least``."""
    value = block.get(key)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = [value, value]
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) and least <= v < 1e7 for v in value)
    )
    if not ok or not isinstance(value, list):
        low = "0 or more" if least == 0 else "above 0"
        line = c.line_of(block, key) or c.line_of(block, "image")
        c.fail(line, f"background `{key}` must be [x, y], numbers {low}: {meaning}")
        return None
    return (float(value[0]), float(value[1]))


def _unknown(what: str, value: Any, known: dict[str, Any]) -> str:
    close = difflib.get_close_matches(str(value), list(known), n=1)
    hint = f"did you mean {close[0]!r}?" if close else f"known: {', '.join(known)}"
    return f"unknown {what} {value!r}; {hint}"
