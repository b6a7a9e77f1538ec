"""A Tiled hex map (``.tmx``, read through pytmx) as a tabletop map.

Tiled's hexagonal maps are staggered grids: ``staggeraxis`` x staggers columns
(flat-top hexes), y staggers rows (pointy-top); ``staggerindex`` odd or even says which
ones are pushed down (right). Those are exactly tabletop's odd-/even- offset systems,
with Tiled's column 0 row 0 as hex 0101. Tile ids (the GIDs in the layer data) become
terrain through a mapping file; without one, a skeleton mapping is written beside the
map (tiles with a ``terrain``, ``type`` or ``class`` property guess their terrain from
it) and the map is imported through it. The tile layers are drawn into a picture that
becomes the map's background, aligned hex for hex.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from tabletop.imports.common import (
    INSTALL_HINT,
    BackgroundDraft,
    MapDraft,
    checked_size,
    load_pygame,
    map_yaml,
    slug,
    write_folder,
)
from tabletop.imports.tilemapping import SKELETON, Mapping, read_mapping, skeleton_mapping
from tabletop.imports.xmlsafe import parse_xml
from tabletop.inputfile import NotAFile, read_bounded
from tabletop.limits import BUILDFILE_BYTES, IMAGE_SIDE, MAP_SIDE
from tabletop.yamlfile import DataError

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class Geometry:
    """Where Tiled draws hex (column, row): the pixel of its cell's top-left corner."""

    flat: bool
    staggered_even: bool
    tile: tuple[int, int]
    side: int

    @property
    def step(self) -> tuple[float, float]:
        """Pixels between neighbouring columns across and rows down."""
        w, h = self.tile
        if self.flat:
            return ((w - self.side) / 2 + self.side, h)
        return (w, (h - self.side) / 2 + self.side)

    def staggered(self, col: int, row: int) -> bool:
        index = col if self.flat else row
        return bool((index & 1) ^ self.staggered_even)

    def corner(self, col: int, row: int) -> tuple[float, float]:
        """Top-left of the cell's tile (Tiled's HexagonalRenderer tileToScreenCoords)."""
        sx, sy = self.step
        x, y = col * sx, row * sy
        if self.staggered(col, row):
            if self.flat:
                y += self.tile[1] / 2
            else:
                x += self.tile[0] / 2
        return (x, y)

    def centre(self, col: int, row: int) -> tuple[float, float]:
        """The picture pixel of the hex's centre."""
        x, y = self.corner(col, row)
        return (x + self.tile[0] / 2, y + self.tile[1] / 2)

    def picture(self, columns: int, rows: int) -> tuple[int, int]:
        """The whole map's picture size, as Tiled reports it."""
        w, h = self.tile
        sx, sy = self.step
        if self.flat:
            return (int(sx * columns + (w - self.side) / 2), int(h * rows + (h / 2 if columns > 1 else 0)))
        return (int(w * columns + (w / 2 if rows > 1 else 0)), int(sy * rows + (h - self.side) / 2))

    def scale(self) -> tuple[float, float]:
        """Picture pixels per hex size across and down: flat columns lie 1.5 sizes apart
        and rows sqrt(3); pointy the other way round."""
        sx, sy = self.step
        if self.flat:
            return (sx / 1.5, sy / SQRT3)
        return (sx / SQRT3, sy / 1.5)


def import_tiled(path: Path, out: Path, mapping_path: Path | None) -> list[str]:
    """Import ``path`` into the new folder ``out``; the lines to print. DataError (or
    DataErrors for a mapping file) for anything that cannot be mapped, nothing written."""
    where = str(path)
    root = parse_xml(_read(path, "a Tiled map"), where)
    geometry, columns, rows = _check_map(root, where, path)
    pytmx = _pytmx(where)
    try:
        tm = pytmx.TiledMap(str(path))
    except Exception as exc:  # pytmx raises bare Exception for several file problems
        raise DataError(where, None, f"pytmx cannot read it ({exc}); open and save it again in Tiled") from None
    ordered = _in_file_order(root, tm.layers)
    layers = [layer for layer in ordered if isinstance(layer, pytmx.TiledTileLayer)]
    if not layers:
        raise DataError(where, None, "has no tile layer; paint the terrain in a tile layer in Tiled")
    grids = {layer.name: _gids(tm, layer, columns, rows) for layer in layers}
    names = [layer.name for layer in layers]
    skeleton: str | None = None
    if mapping_path is None:
        mapping, skeleton = skeleton_mapping(tm, grids, names, path.name)
    else:
        mapping = read_mapping(mapping_path, names)
    draft = _draft(path.stem, geometry, columns, rows, mapping, grids, names)
    files: dict[str, bytes | str] = {}
    notes = []
    picture, why = _picture(tm, ordered, geometry, columns, rows)
    if picture is not None:
        image = f"{slug(path.stem, 'map')}.png"
        files[image] = picture
        draft.background = BackgroundDraft(image, geometry.centre(0, 0), geometry.scale())
    else:
        notes.append(f"no background picture: {why}")
    map_name = f"{slug(path.stem, 'map')}.yaml"
    files[map_name] = map_yaml(draft, f"Imported from the Tiled map {path.name} by `tabletop import tiled`.\n"
                               "Terrain comes from the tile ids through the mapping; paint over it freely.")  # fmt: skip
    if skeleton is not None:
        files[SKELETON] = skeleton
    write_folder(out, files, lambda folder: _loads(folder / map_name))
    lines = [f"wrote {out / map_name}: {columns} x {rows} {draft.orientation}-top hexes ({draft.offset})"]
    if picture is not None:
        lines.append(f"wrote {out / draft.background.image}: the tiles drawn as the map's background")  # type: ignore[union-attr]
    if skeleton is not None:
        lines.append(f"wrote {out / SKELETON}: tile ids -> terrain; edit it and import again with --mapping")
    return lines + notes


def _read(path: Path, what: str) -> bytes:
    try:
        data = read_bounded(path, BUILDFILE_BYTES)
    except FileNotFoundError:
        raise DataError(path, None, "no such file; check the name") from None
    except NotAFile as exc:
        raise DataError(path, None, f"{exc.why}; give {what}") from None
    except OSError as exc:
        raise DataError(path, None, f"cannot read: {exc.strerror}") from None
    if len(data) > BUILDFILE_BYTES:
        raise DataError(path, None, f"is over {BUILDFILE_BYTES} bytes (limits.BUILDFILE_BYTES); is it {what}?")
    return data


def _pytmx(where: str) -> Any:
    try:
        import pytmx  # type: ignore[import-untyped]
    except ImportError:
        raise DataError(
            where, None, f"reading Tiled maps needs pytmx, which is not installed; {INSTALL_HINT} (or pip install pytmx)"
        ) from None
    return pytmx


def _check_map(root: ElementTree.Element, where: str, path: Path) -> tuple[Geometry, int, int]:
    """The grid a Tiled map file describes, checked before pytmx reads it: only
    hexagonal, finite maps of a size tabletop takes, whose compressed layers unpack to
    no more than their cells, and whose tile sets hold no DOCTYPE either."""
    if root.tag != "map":
        raise DataError(where, None, f"is not a Tiled map (its root is <{root.tag}>, not <map>); give a .tmx file")
    orientation = root.get("orientation", "")
    if orientation != "hexagonal":
        raise DataError(
            where, None, f"orientation is {orientation or 'missing'}; only hexagonal Tiled maps import (in Tiled: "
            "Map > Map Properties > Orientation: Hexagonal)",
        )  # fmt: skip
    if root.get("infinite", "0") == "1":
        raise DataError(where, None, "is an infinite map; in Tiled untick Map > Map Properties > Infinite and save")
    axis, index = root.get("staggeraxis", "y"), root.get("staggerindex", "odd")
    if axis not in ("x", "y") or index not in ("odd", "even"):
        raise DataError(where, None, f"staggeraxis {axis!r} / staggerindex {index!r}: expected x or y / odd or even")
    try:
        columns, rows = int(root.get("width", "")), int(root.get("height", ""))
        tile = (int(root.get("tilewidth", "")), int(root.get("tileheight", "")))
        side = int(root.get("hexsidelength", "0"))
    except ValueError:
        raise DataError(where, None, "width, height, tilewidth, tileheight must be whole numbers; save it again in Tiled") from None
    if not (1 <= columns <= MAP_SIDE and 1 <= rows <= MAP_SIDE):
        raise DataError(where, None, f"is {columns} x {rows} tiles; a map has 1 to {MAP_SIDE} columns and rows (limits.MAP_SIDE)")
    if not (2 <= tile[0] <= IMAGE_SIDE and 2 <= tile[1] <= IMAGE_SIDE and 0 <= side < tile[0 if axis == "x" else 1]):
        raise DataError(where, None, f"tile size {tile[0]} x {tile[1]} with hex side {side} is not a hex; check Map Properties")
    for data in root.iter("data"):
        _check_unpacked(data, columns * rows, where)
    for tileset in root.iter("tileset"):
        source = tileset.get("source")
        if source:
            parse_xml(_read(path.parent / source, "a Tiled tile set"), str(path.parent / source))
    geometry = Geometry(axis == "x", index == "even", (tile[0] & ~1, tile[1] & ~1), side)
    return geometry, columns, rows


def _check_unpacked(data: ElementTree.Element, cells: int, where: str) -> None:
    """A compressed layer unpacks to at most 4 bytes a cell (a zip bomb stops here)."""
    compression = data.get("compression")
    if compression is None:
        return
    if compression not in ("zlib", "gzip"):
        raise DataError(where, None, f"a layer is compressed with {compression}; save with CSV, Base64 or zlib layers")
    import base64
    import binascii

    try:
        packed = base64.b64decode((data.text or "").strip(), validate=False)
        unpacked = zlib.decompressobj(47).decompress(packed, 4 * cells + 1)
    except (binascii.Error, zlib.error) as exc:
        raise DataError(where, None, f"a layer's data cannot be unpacked ({exc}); save it again in Tiled") from None
    if len(unpacked) > 4 * cells:
        raise DataError(where, None, "a layer unpacks to more tiles than the map has cells; save it again in Tiled")


def _in_file_order(root: ElementTree.Element, layers: list[Any]) -> list[Any]:
    """pytmx's layers in the order the file gives them (pytmx lists tile layers before
    image layers; Tiled draws the first layer at the bottom)."""
    order = {int(e.get("id", "0")): i for i, e in enumerate(root.iter()) if e.tag in ("layer", "imagelayer")}
    return sorted(layers, key=lambda layer: order.get(int(getattr(layer, "id", 0) or 0), len(order)))


def _gids(tm: Any, layer: Any, columns: int, rows: int) -> list[list[int]]:
    """The layer's Tiled GIDs (flip flags dropped), ``[row][column]``, 0 for empty."""
    data = layer.data
    return [[tm.tiledgidmap.get(data[r][c], 0) if r < len(data) and c < len(data[r]) else 0
             for c in range(columns)] for r in range(rows)]  # fmt: skip


def _draft(stem: str, geometry: Geometry, columns: int, rows: int, mapping: Mapping,
           grids: dict[str, list[list[int]]], names: list[str]) -> MapDraft:  # fmt: skip
    """The map: terrain from the terrain layers in order (a later layer's tiles over an
    earlier one's), features from the feature layers (every hex with a tile)."""
    layers = mapping.layers if mapping.layers is not None else {names[0]: "terrain"}
    cells = [[mapping.default] * columns for _ in range(rows)]
    features: dict[str, tuple[str, str, list[tuple[int, int]]]] = {}
    for name in names:
        what = layers.get(name, "ignore")
        grid = grids[name]
        if what == "terrain":
            for r, c, gid in _cells(grid):
                cells[r][c] = mapping.tiles.get(gid, mapping.default)
        elif isinstance(what, tuple):
            colour, label = mapping.features[what[1]]
            hexes = features.setdefault(what[1], (colour, label, []))[2]
            hexes += [(c, r) for r, c, _gid in _cells(grid)]
    flat = geometry.flat
    parity = "even" if geometry.staggered_even else "odd"
    return MapDraft(
        name=stem, orientation="flat" if flat else "pointy", offset=f"{parity}-{'q' if flat else 'r'}",
        columns=columns, rows=rows, terrain=mapping.terrain, default=mapping.default, cells=cells,
        features={k: (v[0], v[1], sorted(set(v[2]))) for k, v in features.items()},
    )  # fmt: skip


def _cells(grid: list[list[int]]) -> Iterable[tuple[int, int, int]]:
    for r, row in enumerate(grid):
        for c, gid in enumerate(row):
            if gid:
                yield r, c, gid


def _picture(tm: Any, ordered: list[Any], geometry: Geometry, columns: int, rows: int) -> tuple[bytes | None, str]:
    """The visible tile and image layers drawn in order as Tiled draws them (a tile's
    picture with its bottom-left on its cell's, an image layer at its offset), as PNG
    bytes; or None and why not (a tile with no picture, a picture missing or unreadable:
    the map still imports, without background)."""
    import io

    import pytmx  # type: ignore[import-untyped]  # present: the map was read with it

    pygame = load_pygame()
    width, height = geometry.picture(columns, rows)
    if not (0 < width <= IMAGE_SIDE and 0 < height <= IMAGE_SIDE):
        return None, f"the map's picture would be {width} x {height} pixels, over {IMAGE_SIDE} a side"
    sheets: dict[str, Any] = {}
    canvas = pygame.Surface((width, height), pygame.SRCALPHA)
    try:
        for layer in ordered:
            if not getattr(layer, "visible", True):
                continue
            shift = (float(getattr(layer, "offsetx", 0) or 0), float(getattr(layer, "offsety", 0) or 0))
            if isinstance(layer, pytmx.TiledImageLayer):
                found = tm.images[layer.gid] if getattr(layer, "gid", 0) else None
                if found:
                    canvas.blit(_tile_image(found, sheets), (round(shift[0]), round(shift[1])))
                continue
            if not isinstance(layer, pytmx.TiledTileLayer):
                continue
            for r, row in enumerate(layer.data[:rows]):
                for c, pg in enumerate(row[:columns]):
                    if not pg:
                        continue
                    found = tm.images[pg] if pg < len(tm.images) else None
                    if not found:
                        return None, "a tile has no picture in its tile set"
                    tile = _tile_image(found, sheets)
                    x, y = geometry.corner(c, r)
                    at = (round(x + shift[0]), round(y + shift[1] + geometry.tile[1] - tile.get_height()))
                    canvas.blit(tile, at)
    except DataError as exc:
        return None, str(exc)
    out = io.BytesIO()
    pygame.image.save(canvas, out, "board.png")
    return out.getvalue(), ""


def _tile_image(found: tuple[Any, Any, Any], sheets: dict[str, Any]) -> Any:
    """One tile's picture from pytmx's (file, rect, flags), flipped as the map says."""
    pygame = load_pygame()

    filename, rect, flags = found
    sheet = sheets.get(filename)
    if sheet is None:
        data = _read(Path(filename), "a tile set picture")
        checked_size(data, filename)
        try:
            sheet = sheets[filename] = pygame.image.load(io_bytes(data), Path(filename).name)
        except pygame.error as exc:
            raise DataError(filename, None, f"the picture cannot be read ({exc}); save it as PNG") from None
    try:
        tile = sheet.subsurface(pygame.Rect(rect)).copy() if rect else sheet.copy()
    except ValueError:
        raise DataError(filename, None, f"the tile at {rect} lies outside the picture; check the tile set's size") from None
    if flags is not None and getattr(flags, "flipped_diagonally", False):
        tile = pygame.transform.flip(pygame.transform.rotate(tile, -90), True, False)
    if flags is not None and (flags.flipped_horizontally or flags.flipped_vertically):
        tile = pygame.transform.flip(tile, bool(flags.flipped_horizontally), bool(flags.flipped_vertically))
    return tile


def io_bytes(data: bytes) -> Any:
    import io

    return io.BytesIO(data)


def _loads(map_path: Path) -> None:
    """The written map must load before anything is moved into place."""
    from tabletop.board.loader import load_map

    load_map(map_path)
