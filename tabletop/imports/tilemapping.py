"""The mapping from a Tiled map's tile ids to tabletop terrain: read from a mapping file
(every problem with its line), or guessed as a skeleton for the player to edit.

Tile ids are the GIDs Tiled writes in the layer data (a tile set's firstgid plus the
tile's ID in Tiled). A tile with a ``terrain``, ``type`` or ``class`` property names its
terrain in the skeleton; every other tile starts as ``open``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.imports.common import TerrainType, slug, yaml_quote
from tabletop.yamlfile import DataError, DataErrors, LineDict, read_yaml

SKELETON = "tiled-mapping.yaml"
_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")  # as maps/FORMAT.md spells terrain and feature keys
MAPPING_KEYS = ("default", "terrain", "tiles", "layers", "features")
OPEN = TerrainType("open", ".", "#c8d89a", "Open ground")
#: symbols and colours given to terrain a skeleton guesses from tile properties
_SYMBOLS = "WH~T#^%=+*ox" + "ABCDEFGIJKLMNOPQRSUVYZ" + "abcdefghijklmnpqrstuvwyz"
_COLOURS = ("#3f7a3a", "#b39b6b", "#4a7fb5", "#9a8f87", "#6b4f3a", "#8a8a5c", "#5c7f8a", "#a35a4a")


@dataclass
class Mapping:
    """How tiles become terrain: terrain types, tile GID -> terrain key, the default for
    empty cells and unmapped tiles, and what each named layer is ("terrain", "ignore"
    or ("feature", key)); features by key -> (colour, name)."""

    default: str
    terrain: list[TerrainType]
    tiles: dict[int, str]
    layers: dict[str, Any] | None = None
    features: dict[str, tuple[str, str]] = field(default_factory=dict)


def _tile_info(tm: Any, gid: int) -> tuple[str, int, str]:
    """The tile set name, local tile id and guessed terrain word of a Tiled GID."""
    owner = None
    for ts in tm.tilesets:
        if ts.firstgid <= gid and (owner is None or ts.firstgid > owner.firstgid):
            owner = ts
    props: dict[str, Any] = {}
    for pg, _flags in tm.gidmap.get(gid, []):
        props = tm.get_tile_properties_by_gid(pg) or {}
        break
    word = next((str(props[k]) for k in ("terrain", "type", "class") if props.get(k)), "")
    name = str(getattr(owner, "name", "") or "") if owner else ""
    return name, gid - (owner.firstgid if owner else 1), word


def skeleton_mapping(tm: Any, grids: dict[str, list[list[int]]], names: list[str], source: str) -> tuple[Mapping, str]:
    """The mapping a player starts from, as data and as the YAML file written beside
    the map: every GID the layers use, mapped to the terrain its properties name, else
    to ``open``."""
    used = sorted({g for grid in grids.values() for row in grid for g in row if g})
    terrain = [OPEN]
    keys = {OPEN.key}
    tiles: dict[int, str] = {}
    comments: dict[int, str] = {}
    for gid in used:
        tileset, local, word = _tile_info(tm, gid)
        key = slug(word, OPEN.key) if word else OPEN.key
        if key not in keys:
            n = len(terrain) - 1
            symbol = next((s for s in (key[0].upper(), *_SYMBOLS) if s not in {t.symbol for t in terrain}), None)
            if symbol is None:  # more kinds than symbols: the rest start as the default
                key = OPEN.key
            else:
                terrain.append(TerrainType(key, symbol, _COLOURS[n % len(_COLOURS)], word))
                keys.add(key)
        tiles[gid] = key
        comments[gid] = f"tile set {tileset!r}, tile {local}" + (f", {word!r}" if word else "")
    mapping = Mapping(OPEN.key, terrain, tiles, {names[0]: "terrain", **{n: "ignore" for n in names[1:]}})
    lines = [
        f"# Tiled tile ids -> tabletop terrain for {source}, written by `tabletop import tiled`.",
        "# Tile ids are the GIDs in the layer data: a tile set's firstgid + the tile's ID in Tiled.",
        "# Edit it (terrain types as in maps/FORMAT.md) and import again with --mapping THIS_FILE.",
        f"default: {OPEN.key}                 # empty cells and tiles not listed under tiles:",
        "terrain:",
    ]
    lines += [f"  {t.key}: {{symbol: {yaml_quote(t.symbol)}, colour: {yaml_quote(t.colour)}, name: {yaml_quote(t.name or t.key)}}}" for t in terrain]
    lines.append("tiles:" if tiles else "tiles: {}")
    lines += [f"  {gid}: {tiles[gid]}    # {comments[gid]}" for gid in used]
    lines.append("layers:                        # terrain | ignore | {feature: KEY} (KEY under features:)")
    lines += [f"  {yaml_quote(n)}: {v}" for n, v in (mapping.layers or {}).items()]
    lines.append("features: {}                   # e.g. road: {colour: \"#8a6d3b\", name: Road}")
    return mapping, "\n".join(lines) + "\n"


def read_mapping(path: Path, layers: list[str]) -> Mapping:
    """A mapping file, every problem reported at once with its line (DataErrors)."""
    from tabletop.datareader import Collector

    data = read_yaml(path)
    c = Collector(path)
    if not isinstance(data, LineDict):
        raise DataErrors([DataError(path, 1, "a mapping file is a mapping with terrain:, tiles: and default:")])
    c.known_keys(data, MAPPING_KEYS, "a Tiled mapping file")
    terrain: list[TerrainType] = []
    block = c.mapping(data, "terrain", "a Tiled mapping file", required=True) or LineDict()
    for key, spec in block.items():
        where = f"terrain {key!r}"
        if not isinstance(key, str) or not _KEY.match(key):
            c.fail(c.line_of(block, key), f"{where}: a terrain key is a word of letters, digits, '-' or '_'")
            continue
        if not isinstance(spec, LineDict):
            c.fail(c.line_of(block, key), f'{where} must be {{symbol: "W", colour: "#rrggbb"}}')
            continue
        c.known_keys(spec, ("symbol", "colour", "name"), where)
        symbol, colour, name = spec.get("symbol"), c.colour(spec, "colour", where), spec.get("name", key)
        if not isinstance(symbol, str) or len(symbol) != 1 or symbol.isspace():
            c.fail(c.line_of(spec, "symbol"), f"{where} needs `symbol:`, one character that is not a space")
        elif symbol in {t.symbol for t in terrain}:
            c.fail(c.line_of(spec, "symbol"), f"{where}: symbol {symbol!r} is taken by another terrain; pick another")
        elif colour is not None:
            terrain.append(TerrainType(key, symbol, colour, str(name)))
    known = {t.key for t in terrain}
    default = data.get("default", OPEN.key)
    if default not in known and block:
        c.fail(c.line_of(data, "default"), f"default terrain {default!r} is not under terrain:; add it or pick one of {sorted(known)}")
    tiles: dict[int, str] = {}
    tblock = c.mapping(data, "tiles", "a Tiled mapping file") or LineDict()
    for gid, key in tblock.items():
        number = int(gid) if isinstance(gid, str) and gid.isdigit() else gid
        if type(number) is not int or number < 1:
            c.fail(c.line_of(tblock, gid), f"tile id {gid!r} must be a whole number from 1 (a GID in the layer data)")
        elif key not in known:
            c.fail(c.line_of(tblock, gid), f"tile {gid} maps to {key!r}, which is not under terrain:; add it there")
        else:
            tiles[number] = key
    features: dict[str, tuple[str, str]] = {}
    fblock = c.mapping(data, "features", "a Tiled mapping file") or LineDict()
    for key, spec in fblock.items():
        if not isinstance(key, str) or not _KEY.match(key):
            c.fail(c.line_of(fblock, key), f"feature {key!r}: a feature key is a word of letters, digits, '-' or '_'")
            continue
        if not isinstance(spec, LineDict):
            c.fail(c.line_of(fblock, key), f'feature {key!r} must be {{colour: "#rrggbb", name: ...}}')
            continue
        c.known_keys(spec, ("colour", "name"), f"feature {key!r}")
        colour = c.colour(spec, "colour", f"feature {key!r}")
        if colour is not None:
            features[str(key)] = (colour, str(spec.get("name", key)))
    chosen = _layers(c, data, layers, features)
    if c.errors:
        raise DataErrors(c.errors)
    return Mapping(str(default), terrain, tiles, chosen, features)


def _layers(c: Any, data: LineDict, layers: list[str], features: dict[str, Any]) -> dict[str, Any] | None:
    block = c.mapping(data, "layers", "a Tiled mapping file")
    if block is None:
        return None
    out: dict[str, Any] = {}
    for name, what in block.items():
        line = c.line_of(block, name)
        if name not in layers:
            c.fail(line, f"the map has no tile layer {name!r}; its layers: {', '.join(map(repr, layers))}")
        elif what in ("terrain", "ignore"):
            out[name] = what
        elif isinstance(what, dict) and set(what) == {"feature"} and what["feature"] in features:
            out[name] = ("feature", what["feature"])
        else:
            c.fail(line, f"layer {name!r} must be terrain, ignore or {{feature: KEY}} with KEY under features:")
    return out
