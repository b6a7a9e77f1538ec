"""A VASSAL module (``.vmod``) as tabletop maps and a counter sheet.

A module is a zip: ``buildFile.xml`` (``buildFile`` in old modules) describes the maps,
each with boards (a picture under ``images/``) carrying a HexGrid (``dx`` between
columns, ``dy`` between hexes down a column, ``x0``/``y0`` the centre of one hex,
``sideways`` for rows of pointy-top hexes), and the piece palette (PieceSlots whose
BasicPiece names the piece's picture). Every board with a hex grid becomes a map whose
background is the board picture, aligned hex for hex, with one terrain, ``open``, to
paint over; every piece picture becomes a counter face under ``counters/``.

The module is untrusted: it is read with the standard library (pywargame, the library
that writes modules, needs Python 3.12 to import), its member names are checked, its
sizes capped before anything is unpacked, its XML refused if it declares a DOCTYPE or
entities, and nothing in it is ever run.
"""

from __future__ import annotations

import math
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from xml.etree import ElementTree

from tabletop.imports.common import (
    BackgroundDraft,
    MapDraft,
    TerrainType,
    as_png_or_jpeg,
    checked_size,
    map_yaml,
    slug,
    write_folder,
    yaml_quote,
)
from tabletop.imports.xmlsafe import parse_xml
from tabletop.limits import BUILDFILE_BYTES, IMPORT_BYTES, IMPORT_MEMBERS, MAP_SIDE
from tabletop.yamlfile import DataError

SQRT3 = math.sqrt(3.0)
OPEN = TerrainType("open", ".", "#c8d89a", "Open ground")
BUILD_FILES = ("buildFile.xml", "buildFile")
#: the BasicPiece type at the end of a PieceSlot's trait list: piece;clone;delete;IMAGE;NAME
_BASIC = re.compile(r"(?:^|[\t/])piece;[^;\t]*;[^;\t]*;([^;\t]*);([^;\t/]*)")
_IMAGE_NAME = re.compile(r"[^;,\t\\/]+\.(?:png|gif|jpe?g)", re.IGNORECASE)


@dataclass(frozen=True)
class HexGrid:
    """A VASSAL HexGrid. In its own frame (x and y swapped when ``sideways``) hex
    columns lie ``dx`` apart from ``x0``; down column n the centres lie ``dy`` apart
    from ``y0``, half a hex lower in odd columns (VASSAL's HexGrid.hexY)."""

    dx: float
    dy: float
    x0: float
    y0: float
    sideways: bool

    def centre(self, column: int, row: int) -> tuple[float, float]:
        """The board pixel of the centre of raw column ``column``, row ``row``."""
        fx = self.x0 + column * self.dx
        fy = self.y0 + row * self.dy + (self.dy / 2 if column % 2 else 0)
        return (fy, fx) if self.sideways else (fx, fy)


@dataclass(frozen=True)
class Board:
    """A board: its name, picture member (or None), size, and hex grid."""

    name: str
    image: str | None
    size: tuple[int, int] | None
    grid: HexGrid | None
    why: str = ""
    numbering: dict[str, str] | None = None


def import_vassal(path: Path, out: Path) -> list[str]:
    """Import the module at ``path`` into the new folder ``out``; the lines to print.
    DataError for anything that cannot be read or mapped, with nothing written."""
    where = str(path)
    with _open_module(path) as zf:
        root = parse_xml(_member(zf, _build_file(zf, where), where, BUILDFILE_BYTES), f"{where}:buildFile.xml")
        module = root.get("name") or path.stem
        boards = list(_boards(root))
        usable = [b for b in boards if b.grid is not None]
        if not usable:
            listed = "; ".join(f"{b.name}: {b.why}" for b in boards) or "none found"
            raise DataError(where, None, f"no board with a hex grid ({listed}); only hex grids import")
        files: dict[str, bytes | str] = {}
        maps: list[str] = []
        lines: list[str] = []
        for board in usable:
            name, text, extra, note = _board_map(zf, board, module, where, {n.rsplit(".", 1)[0] for n in maps})
            files.update(extra)
            files[name] = text
            maps.append(name)
            lines.append(f"wrote {out / name}: {note}")
        skipped = [f"board {b.name}: {b.why}" for b in boards if b.grid is None]
        faces = _faces(zf, root, where, skipped)
        if faces:
            files.update({f"counters/{file}": data for _key, _label, file, data in faces})
            files["counters.yaml"] = _counters_yaml(module, faces)
            lines.append(f"wrote {out / 'counters.yaml'} and {len(faces)} counter faces in {out / 'counters'}")
        files["README.md"] = _readme(path.name, maps, faces, skipped)
    write_folder(out, files, lambda folder: _loads(folder, maps, bool(faces)))
    return lines + [f"skipped {s}" for s in skipped]


def _open_module(path: Path) -> zipfile.ZipFile:
    """The module's zip, once every member name is safe and the sizes are in bounds."""
    where = str(path)
    if not path.is_file():
        what = "not a file" if path.exists() else "no such file"
        raise DataError(where, None, f"{what}; give the .vmod file VASSAL saves")
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise DataError(where, None, f"not a VASSAL module: not a zip file ({exc}); give the .vmod VASSAL saves") from None
    infos = zf.infolist()
    problem = None
    if len(infos) > IMPORT_MEMBERS:
        problem = f"holds {len(infos)} files, over {IMPORT_MEMBERS} (limits.IMPORT_MEMBERS)"
    elif sum(i.file_size for i in infos) > IMPORT_BYTES:
        problem = f"unpacks to {sum(i.file_size for i in infos)} bytes, over {IMPORT_BYTES} (limits.IMPORT_BYTES)"
    else:
        bad = next((i.filename for i in infos if not _safe_name(i.filename)), None)
        if bad is not None:
            problem = f"holds a file named {bad!r}, which reaches outside the module; a module may be tampered with"
    if problem:
        zf.close()
        raise DataError(where, None, f"{problem}; refused, nothing read")
    return zf


def _safe_name(name: str) -> bool:
    """A member name that stays inside the module: relative, no '..', no backslash,
    no drive, no NUL."""
    if not name or "\\" in name or "\0" in name or name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        return False
    return ".." not in PurePosixPath(name).parts


def _build_file(zf: zipfile.ZipFile, where: str) -> str:
    names = set(zf.namelist())
    for name in BUILD_FILES:
        if name in names:
            return name
    raise DataError(where, None, "holds no buildFile.xml; is it a VASSAL module (.vmod)? extensions (.vmdx) do not import")


def _member(zf: zipfile.ZipFile, name: str, where: str, most: int) -> bytes:
    """A member's bytes, never more than ``most`` (a header may lie about the size)."""
    try:
        with zf.open(name) as f:
            data = f.read(most + 1)
    except (zipfile.BadZipFile, OSError, RuntimeError, EOFError) as exc:
        raise DataError(where, None, f"{name} in the module cannot be read ({exc}); the module is damaged") from None
    if len(data) > most:
        raise DataError(where, None, f"{name} in the module is over {most} bytes; refused")
    return data


def _tail(tag: str) -> str:
    return tag.rsplit(".", 1)[-1]


def _boards(root: ElementTree.Element) -> list[Board]:
    """Every board of every map, with the hex grid it carries (on the board, or the
    ZonedGrid's own, or its first zone's)."""
    out: list[Board] = []
    for element in root.iter():
        if element.tag != "VASSAL.build.module.map.boardPicker.Board":
            continue
        name = element.get("name") or f"board {len(out) + 1}"
        image = element.get("image") or None
        size = None
        if element.get("width") and element.get("height"):
            try:
                size = (int(float(element.get("width", "0"))), int(float(element.get("height", "0"))))
            except ValueError:
                size = None
        grid, why = _hex_grid(element)
        numbering = next((dict(n.attrib) for n in element.iter() if _tail(n.tag) == "HexGridNumbering"), None)
        out.append(Board(name, image, size if size and min(size) > 0 else None, grid, why, numbering))
    return out


def _hex_grid(board: ElementTree.Element) -> tuple[HexGrid | None, str]:
    found = None
    for child in board:
        kind = _tail(child.tag)
        if kind == "HexGrid":
            found = child
        elif kind == "ZonedGrid":
            found = next((g for g in child if _tail(g.tag) == "HexGrid"), None)
            if found is None:
                found = next((g for z in child if _tail(z.tag) == "Zone" for g in z if _tail(g.tag) == "HexGrid"), None)
        elif kind in ("SquareGrid", "RegionGrid"):
            return None, f"a {kind}, not a hex grid"
        if found is not None:
            break
    if found is None:
        return None, "no grid"
    try:
        dy = float(found.get("dy", "64"))
        dx = float(found.get("dx", str(SQRT3 / 2 * dy)))
        x0, y0 = float(found.get("x0", "0")), float(found.get("y0", "32"))
    except ValueError:
        return None, "its HexGrid's dx, dy, x0, y0 are not numbers"
    if not (dx > 0 and dy > 0 and all(math.isfinite(v) for v in (dx, dy, x0, y0))):
        return None, "its HexGrid's dx and dy must be above 0"
    return HexGrid(dx, dy, x0, y0, found.get("sideways", "false").lower() == "true"), ""


@dataclass(frozen=True)
class Extent:
    """The hexes of a grid whose centres lie on the board: raw columns and rows."""

    first_column: int
    columns: int
    first_row: int
    rows: int


def extent(grid: HexGrid, size: tuple[int, int]) -> Extent | None:
    """Every column whose centres lie on a ``size`` board, and the rows whose centres
    lie on it in both kinds of column (a rectangle of whole hexes); None if none."""
    width, height = (size[1], size[0]) if grid.sideways else size
    eps = 1e-9  # a centre on pixel 0 or on the last pixel is on the board
    first_column = math.ceil((0 - grid.x0) / grid.dx - eps)
    last_column = math.floor((width - 1 - grid.x0) / grid.dx + eps)
    first_row = math.ceil((0 - grid.y0) / grid.dy - eps)
    shifted = any(c % 2 for c in range(first_column, last_column + 1))
    last_row = math.floor((height - 1 - grid.y0 - (grid.dy / 2 if shifted else 0)) / grid.dy + eps)
    if last_column < first_column or last_row < first_row:
        return None
    return Extent(first_column, last_column - first_column + 1, first_row, last_row - first_row + 1)


def background(grid: HexGrid, ext: Extent, image: str) -> BackgroundDraft:
    """Where the first hex's centre lies on the picture, and picture pixels per hex
    size: columns lie 1.5 sizes apart and hexes down a column sqrt(3) (pointy-top
    hexes, ``sideways``, the other way round)."""
    origin = grid.centre(ext.first_column, ext.first_row)
    across, down = grid.dx / 1.5, grid.dy / SQRT3
    return BackgroundDraft(image, origin, (down, across) if grid.sideways else (across, down))


def _board_map(zf: zipfile.ZipFile, board: Board, module: str, where: str,
               taken: set[str]) -> tuple[str, str, dict[str, bytes | str], str]:  # fmt: skip
    """The map file of one board: its name, text, the picture beside it and a note."""
    assert board.grid is not None
    stem = slug(board.name, "board")
    while stem in taken:
        stem += "-2"
    extra: dict[str, bytes | str] = {}
    size = board.size
    picture: bytes | None = None
    suffix = ""
    if board.image:
        member = f"images/{board.image}"
        if not _safe_name(board.image) or member not in set(zf.namelist()):
            raise DataError(where, None, f"board {board.name!r} names the picture {board.image!r}, which is not in the module's "
                            "images/; fix the board's image in VASSAL's module editor")
        raw = _member(zf, member, where, IMPORT_BYTES)
        size = checked_size(raw, f"{where}:{member}")
        picture, suffix = as_png_or_jpeg(raw, f"{where}:{member}")
    if size is None:
        raise DataError(where, None, f"board {board.name!r} has neither a picture nor a width and height; set them in VASSAL")
    ext = extent(board.grid, size)
    if ext is None:
        raise DataError(where, None, f"board {board.name!r}: no hex centre of its grid lies on the {size[0]} x {size[1]} "
                            "board; check the grid's x0, y0, dx, dy in VASSAL")
    columns, rows = (ext.rows, ext.columns) if board.grid.sideways else (ext.columns, ext.rows)
    if max(columns, rows) > MAP_SIDE:
        raise DataError(where, None, f"board {board.name!r} is {columns} x {rows} hexes; a map has at most {MAP_SIDE} a side "
                            "(limits.MAP_SIDE); check the grid's dx and dy")
    shifted_first = ext.first_column % 2 == 1
    orientation = "pointy" if board.grid.sideways else "flat"
    offset = ("even" if shifted_first else "odd") + ("-r" if board.grid.sideways else "-q")
    draft = MapDraft(
        name=f"{module}: {board.name}" if module != board.name else module,
        orientation=orientation, offset=offset, columns=columns, rows=rows,
        terrain=[OPEN], default=OPEN.key,
        notes=f"Board {board.name!r} of the VASSAL module {module!r}: every hex is open ground until "
        "painted; the picture shows what the ground is.",
    )  # fmt: skip
    numbering = _numbering(board, ext)
    if numbering is not None:
        draft.first_label, draft.digits = numbering
    if picture is not None:
        image = f"{stem}{suffix}"
        extra[image] = picture
        draft.background = background(board.grid, ext, image)
    comment = "Imported from a VASSAL module by `tabletop import vassal`; paint the terrain over the picture."
    note = f"{columns} x {rows} {orientation}-top hexes ({offset})" + ("" if picture else ", no picture")
    return f"{stem}.yaml", map_yaml(draft, comment), extra, note


def _numbering(board: Board, ext: Extent) -> tuple[tuple[int, int], int] | None:
    """The printed labels of the first hex, and their digits, when the board's
    HexGridNumbering is plain column-then-row numbers (VASSAL's label: raw column + hOff,
    raw row + vOff); None (labels from 0101) for any other style, which CCRR labels
    cannot spell (letters, descending, staggered rows, sideways, a separator)."""
    n = board.numbering
    plain = {"first": "H", "sep": "", "hType": "N", "vType": "N", "hDescend": "false", "vDescend": "false",
             "stagger": "false"}  # fmt: skip
    if n is None or board.grid is None or board.grid.sideways:
        return None
    if any(n.get(key, default if key != "stagger" else "true") != default for key, default in plain.items()):
        return None
    try:
        first = (ext.first_column + int(n.get("hOff", "1")), ext.first_row + int(n.get("vOff", "1")))
        digits = max(int(n.get("hLeading", "1")), int(n.get("vLeading", "1"))) + 1
    except ValueError:
        return None
    return (first, digits) if min(first) >= 0 and 1 <= digits <= 4 else None


def _faces(zf: zipfile.ZipFile, root: ElementTree.Element, where: str,
           skipped: list[str]) -> list[tuple[str, str, str, bytes]]:  # fmt: skip
    """Each piece of the palette with a picture: (unit type key, name, face file,
    PNG/JPEG bytes); one face a picture, the first piece naming it keeps it. A piece
    whose picture cannot be used is left out and said in ``skipped``."""
    names = set(zf.namelist())
    seen: set[str] = set()
    keys: set[str] = set()
    out = []
    for slot in root.iter():
        if _tail(slot.tag) not in ("PieceSlot", "CardSlot"):
            continue
        text = slot.text or ""
        match = _BASIC.search(text)
        image = match.group(1).strip("\\") if match else ""
        if not image:
            found = _IMAGE_NAME.search(text)
            image = found.group(0) if found else ""
        if not image or image in seen or not _safe_name(image) or f"images/{image}" not in names:
            continue
        seen.add(image)
        name = slot.get("entryName") or (match.group(2).strip("\\") if match else "") or Path(image).stem
        key = slug(name, "piece")
        while key in keys:
            key += "_2"
        member = f"images/{image}"
        try:
            data, suffix = as_png_or_jpeg(_member(zf, member, where, IMPORT_BYTES), f"{where}:{member}")
        except DataError as exc:
            skipped.append(f"piece {name!r}: {exc.message}")
            continue
        keys.add(key)
        out.append((key, name, f"{key}{suffix}", data))
    return out


def _counters_yaml(module: str, faces: list[tuple[str, str, str, bytes]]) -> str:
    """A counter sheet (counters/FORMAT.md) with one unit type a face, drawn from the
    piece's picture (``images: {full: ...}``)."""
    lines = [
        "# Counters imported from a VASSAL module by `tabletop import vassal`: one unit type a piece,",
        "# its face the piece's picture in counters/. Give each type its side and steps to play.",
        f"name: {yaml_quote(module[:200] + ' (imported)')}",
        "sides:",
        '  imported: {name: Imported, colour: "#9696a0"}',
        "unit_types:",
    ]
    for key, name, file, _data in faces:
        label = re.sub(r"[^\x20-\x7e]", "", name)[:6].strip() or key[:6]
        lines.append(
            f"  {key}: {{name: {yaml_quote(name[:200])}, symbol: blank, label: {yaml_quote(label)}, "
            f"images: {{full: {yaml_quote('counters/' + file)}}}}}"
        )
    lines.append("sheet:")
    lines.append("  imported: {" + ", ".join(f"{key}: 1" for key, *_ in faces) + "}")
    return "\n".join(lines) + "\n"


def _readme(source: str, maps: list[str], faces: list[tuple[str, str, str, bytes]], skipped: list[str]) -> str:
    lines = [
        f"# Imported from {source}",
        "",
        "Made by `tabletop import vassal`. Each map file is one board of the module, its picture",
        "beside it as the map's `background:` (aligned to the module's hex grid). Every hex is",
        "open ground: paint the terrain over the picture (`tabletop edit MAP`), since line of sight",
        "and movement come from the terrain, never from the picture.",
        "",
        "Maps:",
        *[f"- {m}" for m in maps],
    ]
    if faces:
        lines += ["", "Counter faces (counters.yaml lists one unit type each, drawn from its picture; a",
                  "scenario that names `counters: counters` places them):"]  # fmt: skip
        lines += [f"- counters/{file}: {name}" for _key, name, file, _data in faces]
    if skipped:
        lines += ["", "Not imported:", *[f"- {s}" for s in skipped]]
    return "\n".join(lines) + "\n"


def _loads(folder: Path, maps: list[str], counters: bool) -> None:
    """Every written map (and the counter sheet) must load before anything is moved."""
    from tabletop.board.loader import load_map
    from tabletop.engine.counters import load_counters

    for name in maps:
        load_map(folder / name)
    if counters:
        load_counters(folder / "counters.yaml")
