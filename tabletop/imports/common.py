"""What every import shares: the map it writes, picture sizes read safely, and the
output folder written whole or not at all.

Why one place: a Tiled file and a VASSAL module end the same way, as a map YAML
(maps/FORMAT.md) with a ``background:`` picture beside it, checked by the map loader
before anything reaches ``--out``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.hexgrid import LabelFormat
from tabletop.limits import IMAGE_PIXELS, IMAGE_SIDE
from tabletop.yamlfile import DataError

#: what to install when an import's library is missing
INSTALL_HINT = "pip install 'tabletop[import]'"

_WORD = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class TerrainType:
    """A terrain type the written map declares (maps/FORMAT.md ``terrain:``)."""

    key: str
    symbol: str
    colour: str
    name: str = ""


@dataclass(frozen=True)
class BackgroundDraft:
    """The picture under the grid: its file name beside the map, the image pixel of the
    first hex's centre, and image pixels per hex size across and down."""

    image: str
    origin: tuple[float, float]
    scale: tuple[float, float]


@dataclass
class MapDraft:
    """A map about to be written: grid, terrain per hex (``cells[row][column]``, or
    None for all ``default``), features by key (colour, name, hexes as 0-based
    (column, row)), and the background."""

    name: str
    orientation: str
    offset: str
    columns: int
    rows: int
    terrain: list[TerrainType]
    default: str
    cells: list[list[str]] | None = None
    features: dict[str, tuple[str, str, list[tuple[int, int]]]] = field(default_factory=dict)
    background: BackgroundDraft | None = None
    notes: str = ""
    first_label: tuple[int, int] = (1, 1)
    digits: int = 2

    def labels(self) -> LabelFormat:
        """Printed labels from ``first_label`` (more digits when the numbers need them)."""
        last = max(self.columns - 1 + self.first_label[0], self.rows - 1 + self.first_label[1])
        return LabelFormat(*self.first_label, digits=min(4, max(self.digits, len(str(last)))))


def slug(text: str, fallback: str) -> str:
    """A file and key word from ``text``: lower case letters, digits and dashes."""
    word = _WORD.sub("-", text.lower()).strip("-")[:60]
    return word or fallback


def yaml_quote(text: str) -> str:
    """``text`` as a YAML double-quoted scalar (JSON string syntax is valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def _num(value: float) -> str:
    """A number as short as it reads back exactly."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def map_yaml(draft: MapDraft, comment: str) -> str:
    """The map file's text (maps/FORMAT.md), headed by ``comment`` lines."""
    fmt = draft.labels()
    lines = [f"# {line}" if line else "#" for line in comment.splitlines()]
    lines += [f"name: {yaml_quote(draft.name)}"]
    if draft.notes:
        lines += ["notes: |"] + [f"  {line}" for line in draft.notes.splitlines()]
    lines += [
        "grid:",
        f"  orientation: {draft.orientation}",
        f"  offset: {draft.offset}",
        f"  columns: {draft.columns}",
        f"  rows: {draft.rows}",
        f"  labels: {{first_column: {fmt.first_column}, first_row: {fmt.first_row}, digits: {fmt.digits}}}",
        "",
        "terrain:",
    ]
    for t in draft.terrain:
        name = f", name: {yaml_quote(t.name)}" if t.name else ""
        lines.append(f"  {t.key}: {{symbol: {yaml_quote(t.symbol)}, colour: {yaml_quote(t.colour)}{name}}}")
    lines.append(f"default_terrain: {draft.default}")
    if draft.cells is not None:
        symbol = {t.key: t.symbol for t in draft.terrain}
        lines.append("rows: |")
        lines += ["  " + " ".join(symbol[key] for key in row) for row in draft.cells]
    if draft.features:
        lines += ["", "features:"]
        for key, (colour, name, hexes) in draft.features.items():
            labels = ", ".join(yaml_quote(fmt.format(c, r)) for c, r in sorted(hexes))
            lines.append(f"  {key}: {{colour: {yaml_quote(colour)}, name: {yaml_quote(name)}, hexes: [{labels}]}}")
    if draft.background is not None:
        bg = draft.background
        lines += [
            "",
            "background:",
            f"  image: {yaml_quote(bg.image)}",
            f"  origin: [{_num(bg.origin[0])}, {_num(bg.origin[1])}]",
            f"  scale: [{_num(bg.scale[0])}, {_num(bg.scale[1])}]",
        ]
    return "\n".join(lines) + "\n"


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG, GIF or JPEG from its header (nothing is decoded, so a
    small file that would unpack to a huge picture is caught first); None for any other
    kind of file."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return (width, height)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return (width, height)
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """A JPEG's size from its first start-of-frame marker."""
    at = 2
    while at + 9 < len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            at += 2
            continue
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return (width, height)
        at += 2 + length
    return None


def checked_size(data: bytes, where: str) -> tuple[int, int]:
    """The picture's size, or DataError if it is not a PNG/GIF/JPEG or too big to open."""
    size = image_size(data)
    if size is None:
        raise DataError(where, None, "not a PNG, GIF or JPEG picture; convert it to PNG and import again")
    if not (0 < size[0] <= IMAGE_SIDE and 0 < size[1] <= IMAGE_SIDE and size[0] * size[1] <= IMAGE_PIXELS):
        raise DataError(
            where, None, f"the picture is {size[0]} x {size[1]} pixels; at most {IMAGE_SIDE} a side and "
            f"{IMAGE_PIXELS} in all (limits.IMAGE_SIDE, IMAGE_PIXELS): scale it down and import again",
        )  # fmt: skip
    return size


def as_png_or_jpeg(data: bytes, where: str) -> tuple[bytes, str]:
    """The picture as the map's background can name it: PNG and JPEG bytes unchanged,
    a GIF converted to PNG (its size checked first). Returns the bytes and the suffix."""
    checked_size(data, where)
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return data, ".png"
    if data[:2] == b"\xff\xd8":
        return data, ".jpg"
    import io

    pygame = load_pygame()
    try:
        surface = pygame.image.load(io.BytesIO(data), "picture.gif")
        out = io.BytesIO()
        pygame.image.save(surface, out, "picture.png")
    except (pygame.error, ValueError) as exc:
        raise DataError(where, None, f"the picture cannot be read ({exc}); convert it to PNG and import again") from None
    return out.getvalue(), ".png"


def load_pygame() -> Any:
    """pygame, imported without its greeting on stdout (an import prints what it wrote)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    return pygame


def write_folder(out: Path, files: dict[str, bytes | str], check: Callable[[Path], None]) -> None:
    """Write ``files`` (names relative to ``out``) into a new folder ``out``, whole or
    not at all: everything goes into a temporary folder beside it first, ``check`` runs
    there (the written map must load), and only then is it moved into place. ``out``
    must not exist or be an empty folder."""
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise DataError(out, None, "already exists and is not an empty folder; choose a new --out folder")
    parent = out.parent if str(out.parent) else Path(".")
    if not parent.is_dir():
        raise DataError(out, None, f"the folder {parent} does not exist; create it or choose another --out")
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".import", dir=parent))
    try:
        for name, content in files.items():
            target = tmp / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, str):
                target.write_text(content, encoding="utf-8")
            else:
                target.write_bytes(content)
        check(tmp)
        os.chmod(tmp, 0o777 & ~_umask())
        if out.exists():
            out.rmdir()
        os.replace(tmp, out)
    except OSError as exc:
        raise DataError(out, None, f"cannot write: {exc.strerror or exc}") from None
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
