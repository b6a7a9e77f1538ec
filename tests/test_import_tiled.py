"""`tabletop import tiled` (issue 21 item 3): a Tiled hex map becomes a tabletop map whose
grid, terrain and background picture agree with Tiled's own geometry, hex for hex."""

from __future__ import annotations

import base64
import zlib
from pathlib import Path

import pygame
import pytest

from tabletop.board.loader import load_map
from tabletop.cli import main

pytest.importorskip("pytmx", reason="the Tiled import reads .tmx through pytmx (pip install 'tabletop[import]')")

TILE = {"x": (32, 28, 16), "y": (28, 32, 16)}  # tilewidth, tileheight, hexsidelength per stagger axis
COLOURS = {1: (60, 160, 60), 2: (60, 60, 200), 3: (200, 60, 60)}
GROUND = [[1, 1, 2, 1, 1], [1, 2, 2, 1, 3], [1, 1, 1, 3, 3], [2, 1, 1, 1, 1]]
ROADS = [[0, 3, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 3]]


def write_tmx(folder: Path, *, axis: str = "x", index: str = "odd", orientation: str = "hexagonal",
              extra: str = "", data: str | None = None) -> Path:  # fmt: skip
    """A 5 x 4 Tiled map with a three-tile tile set (one colour a tile) and two layers."""
    w, h, side = TILE[axis]
    sheet = pygame.Surface((3 * w, h))
    for gid, colour in COLOURS.items():
        sheet.fill(colour, pygame.Rect((gid - 1) * w, 0, w, h))
    pygame.image.save(sheet, str(folder / "tiles.png"))

    def csv(grid: list[list[int]]) -> str:
        rows = ",\n".join(",".join(map(str, row)) for row in grid)
        return f'<data encoding="csv">\n{rows}\n</data>'

    path = folder / "field.tmx"
    path.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>{extra}
<map version="1.10" orientation="{orientation}" renderorder="right-down" width="5" height="4"
     tilewidth="{w}" tileheight="{h}" infinite="0" hexsidelength="{side}" staggeraxis="{axis}" staggerindex="{index}">
 <tileset firstgid="1" name="ground" tilewidth="{w}" tileheight="{h}" tilecount="3" columns="3">
  <image source="tiles.png" width="{3 * w}" height="{h}"/>
  <tile id="1" type="water"/>
 </tileset>
 <layer id="1" name="Ground" width="5" height="4">{data or csv(GROUND)}</layer>
 <layer id="2" name="Roads" width="5" height="4">{csv(ROADS)}</layer>
</map>""")
    return path


def tiled_centre(axis: str, index: str, col: int, row: int) -> tuple[float, float]:
    """The centre of tile (col, row) as Tiled's hexagonal renderer places it."""
    w, h, side = TILE[axis]
    staggered = bool(((col if axis == "x" else row) & 1) ^ (index == "even"))
    if axis == "x":
        x, y = col * ((w - side) / 2 + side), row * h + (h / 2 if staggered else 0)
    else:
        x, y = col * w + (w / 2 if staggered else 0), row * ((h - side) / 2 + side)
    return (x + w / 2, y + h / 2)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("axis", "index", "orientation", "offset"),
    [("x", "odd", "flat", "odd-q"), ("x", "even", "flat", "even-q"),
     ("y", "odd", "pointy", "odd-r"), ("y", "even", "pointy", "even-r")],
)  # fmt: skip
def test_stagger_maps_to_orientation_and_every_hex_centre_lies_on_its_tile(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, axis: str, index: str, orientation: str, offset: str
) -> None:
    """Issue 21 item 3: staggeraxis x/y -> flat/pointy, staggerindex odd/even -> odd-/even-
    offset; the image pixel of each hex's centre worked out from the written background
    is the one Tiled's geometry gives, and the picture there shows that hex's tile."""
    tmx = write_tmx(tmp_path, axis=axis, index=index)
    code, out, err = run(capsys, "import", "tiled", str(tmx), "--out", str(tmp_path / "out"))
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == f"wrote {tmp_path / 'out' / 'field.yaml'}: 5 x 4 {orientation}-top hexes ({offset})"
    m = load_map(tmp_path / "out" / "field.yaml")
    assert (m.grid.orientation, m.grid.offset, m.grid.columns, m.grid.rows) == (orientation, offset, 5, 4)
    assert m.background is not None
    picture = pygame.image.load(str(m.background.image))
    layout = m.grid.layout()
    first = layout.center(m.grid.hex_at(0, 0))
    for row in range(4):
        for col in range(5):
            x, y = m.background.pixel(layout.center(m.grid.hex_at(col, row)), first)
            assert (x, y) == pytest.approx(tiled_centre(axis, index, col, row))
            top = ROADS[row][col] or GROUND[row][col]  # the road layer is drawn over the ground
            assert tuple(picture.get_at((round(x), round(y))))[:3] == COLOURS[top]


def test_without_a_mapping_a_skeleton_is_written_and_tile_types_guess_the_terrain(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 21 item 3: no --mapping writes tiled-mapping.yaml listing every tile id used;
    a tile whose type is `water` becomes terrain `water`, the rest the default `open`,
    and importing again with that skeleton gives the same map."""
    tmx = write_tmx(tmp_path)
    code, out, _ = run(capsys, "import", "tiled", str(tmx), "--out", str(tmp_path / "a"))
    assert code == 0 and "tiled-mapping.yaml" in out
    m = load_map(tmp_path / "a" / "field.yaml")
    assert m.terrain[m.hex_of("0301")] == "water" and m.terrain[m.hex_of("0101")] == "open"
    skeleton = (tmp_path / "a" / "tiled-mapping.yaml").read_text()
    assert "  1: open" in skeleton and "  2: water" in skeleton and "  3: open" in skeleton
    code, _, _ = run(capsys, "import", "tiled", str(tmx), "--out", str(tmp_path / "b"),
                     "--mapping", str(tmp_path / "a" / "tiled-mapping.yaml"))  # fmt: skip
    assert code == 0
    assert (tmp_path / "b" / "field.yaml").read_text() == (tmp_path / "a" / "field.yaml").read_text()
    assert not (tmp_path / "b" / "tiled-mapping.yaml").exists()


def test_a_mapping_file_maps_tile_ids_and_makes_a_layer_a_feature(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 21 item 3: tile ids -> terrain through the mapping, an unmapped id takes the
    default, and a layer the mapping names as a feature marks every hex with a tile."""
    tmx = write_tmx(tmp_path)
    mapping = tmp_path / "mapping.yaml"
    mapping.write_text(
        "default: clear\n"
        "terrain:\n"
        '  clear: {symbol: ".", colour: "#c8d89a"}\n'
        '  lake: {symbol: "~", colour: "#4a7fb5", name: Lake}\n'
        "tiles: {2: lake}\n"
        "layers: {Ground: terrain, Roads: {feature: road}}\n"
        'features: {road: {colour: "#8a6d3b", name: Road}}\n'
    )
    code, _, err = run(capsys, "import", "tiled", str(tmx), "--out", str(tmp_path / "out"), "--mapping", str(mapping))
    assert (code, err) == (0, "")
    m = load_map(tmp_path / "out" / "field.yaml")
    lakes = sorted(m.label(h) for h, t in m.terrain.items() if t == "lake")
    assert lakes == ["0104", "0202", "0301", "0302"]  # GROUND's 2s, labelled column then row
    assert m.terrain[m.hex_of("0502")] == "clear"  # tile 3 is not mapped: the default
    assert sorted(m.label(h) for h in m.features["road"].hexes) == ["0201", "0504"]
    code, _, _ = run(capsys, "validate", str(tmp_path / "out" / "field.yaml"))
    assert code == 0
    code, _, _ = run(capsys, "render", str(tmp_path / "out" / "field.yaml"), "--out", str(tmp_path / "x.png"))
    assert code == 0 and (tmp_path / "x.png").stat().st_size > 0
    code, out, _ = run(capsys, "play", str(tmp_path / "out" / "field.yaml"), "--frames", "2", "--size", "640x480")
    assert code == 0 and "field (free play)" in out


def test_a_mapping_error_names_its_line_and_nothing_is_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 21 item 3: what cannot be mapped is one line `file:line: what; how to fix`,
    exit code 2, and --out is not created."""
    tmx = write_tmx(tmp_path)
    mapping = tmp_path / "mapping.yaml"
    mapping.write_text('default: open\nterrain:\n  open: {symbol: ".", colour: "#c8d89a"}\ntiles:\n  2: swamp\n')
    code, out, err = run(capsys, "import", "tiled", str(tmx), "--out", str(tmp_path / "out"), "--mapping", str(mapping))
    assert code == 2 and out == ""
    assert err.strip() == f"{mapping}:5: tile 2 maps to 'swamp', which is not under terrain:; add it there"
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("orientation", ["orthogonal", "isometric", "staggered"])
def test_only_hexagonal_maps_import(capsys: pytest.CaptureFixture[str], tmp_path: Path, orientation: str) -> None:
    """Issue 21 item 3: orthogonal and isometric maps are refused with what to change in Tiled."""
    tmx = write_tmx(tmp_path, orientation=orientation)
    code, _, err = run(capsys, "import", "tiled", str(tmx), "--out", str(tmp_path / "out"))
    assert code == 2
    assert err.splitlines() == [
        f"{tmx}: orientation is {orientation}; only hexagonal Tiled maps import "
        "(in Tiled: Map > Map Properties > Orientation: Hexagonal)"
    ]
    assert not (tmp_path / "out").exists()


def test_a_doctype_is_refused_before_any_xml_is_expanded(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 21 item 3 (safety): entity declarations (the billion-laughs bomb) are refused."""
    tmx = write_tmx(tmp_path, extra='\n<!DOCTYPE map [<!ENTITY a "aaaaaaaaaa">]>')
    code, _, err = run(capsys, "import", "tiled", str(tmx), "--out", str(tmp_path / "out"))
    assert code == 2 and "DOCTYPE declaration" in err and err.startswith(f"{tmx}:2: ")
    assert not (tmp_path / "out").exists()


def test_a_compressed_layer_that_unpacks_past_its_cells_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 21 item 3 (safety): a zlib layer is unpacked no further than 4 bytes a cell."""
    bomb = base64.b64encode(zlib.compress(b"\0" * 1_000_000)).decode()
    tmx = write_tmx(tmp_path, data=f'<data encoding="base64" compression="zlib">{bomb}</data>')
    code, _, err = run(capsys, "import", "tiled", str(tmx), "--out", str(tmp_path / "out"))
    assert code == 2 and "unpacks to more tiles than the map has cells" in err


def test_an_existing_folder_with_files_is_left_alone(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 21 item 3: --out must be new or empty; a folder with files is not touched."""
    tmx = write_tmx(tmp_path)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "mine.txt").write_text("keep")
    code, _, err = run(capsys, "import", "tiled", str(tmx), "--out", str(tmp_path / "out"))
    assert code == 2 and "choose a new --out folder" in err
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["mine.txt"]


def test_without_pytmx_the_error_says_what_to_install(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21 item 3: the core program never needs pytmx; the import says what to pip install."""
    import sys

    tmx = write_tmx(tmp_path)
    monkeypatch.setitem(sys.modules, "pytmx", None)
    code, _, err = run(capsys, "import", "tiled", str(tmx), "--out", str(tmp_path / "out"))
    assert code == 2
    assert err.strip() == (
        f"{tmx}: reading Tiled maps needs pytmx, which is not installed; "
        "pip install 'tabletop[import]' (or pip install pytmx)"
    )


def test_an_image_layer_under_a_hidden_terrain_layer_is_the_background(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 21 item 3: a printed map in Tiled (its picture as an image layer, the terrain
    coded in a hidden tile layer) imports with that picture as background, the hex centres
    where Tiled puts them on it; the hidden layer gives the terrain but is not drawn."""
    w, h, side = TILE["x"]
    printed = pygame.Surface((140, 130))
    printed.fill((230, 220, 190))
    for col in range(5):
        for row in range(4):
            printed.set_at(tuple(round(v) for v in tiled_centre("x", "odd", col, row)), (255, 0, 255))
    pygame.image.save(printed, str(tmp_path / "printed.png"))
    pygame.image.save(pygame.Surface((3 * w, h)), str(tmp_path / "tiles.png"))
    rows = ",\n".join(",".join(map(str, row)) for row in GROUND)
    tmx = tmp_path / "printed.tmx"
    tmx.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="hexagonal" width="5" height="4" tilewidth="{w}" tileheight="{h}"
     infinite="0" hexsidelength="{side}" staggeraxis="x" staggerindex="odd">
 <tileset firstgid="1" name="codes" tilewidth="{w}" tileheight="{h}" tilecount="3" columns="3">
  <image source="tiles.png" width="{3 * w}" height="{h}"/>
 </tileset>
 <imagelayer id="1" name="Printed map"><image source="printed.png" width="140" height="130"/></imagelayer>
 <layer id="2" name="Terrain" width="5" height="4" visible="0"><data encoding="csv">{rows}</data></layer>
</map>""")
    mapping = tmp_path / "mapping.yaml"
    mapping.write_text('default: clear\nterrain:\n  clear: {symbol: ".", colour: "#c8d89a"}\n'
                       '  lake: {symbol: "~", colour: "#4a7fb5"}\ntiles: {2: lake}\n')  # fmt: skip
    code, _, err = run(capsys, "import", "tiled", str(tmx), "--out", str(tmp_path / "out"), "--mapping", str(mapping))
    assert (code, err) == (0, "")
    m = load_map(tmp_path / "out" / "printed.yaml")
    assert m.terrain[m.hex_of("0301")] == "lake"
    assert m.background is not None
    picture = pygame.image.load(str(m.background.image))
    layout = m.grid.layout()
    first = layout.center(m.grid.hex_at(0, 0))
    for col in range(5):
        for row in range(4):
            x, y = m.background.pixel(layout.center(m.grid.hex_at(col, row)), first)
            assert tuple(picture.get_at((round(x), round(y))))[:3] == (255, 0, 255)


def test_a_missing_tile_set_picture_imports_without_background(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 21 item 3: the terrain does not need the pictures: a tile set picture that is
    not there leaves the map without background, and the import says why."""
    tmx = write_tmx(tmp_path)
    (tmp_path / "tiles.png").unlink()
    code, out, err = run(capsys, "import", "tiled", str(tmx), "--out", str(tmp_path / "out"))
    assert (code, err) == (0, "")
    assert f"no background picture: {tmp_path / 'tiles.png'}: no such file" in out
    m = load_map(tmp_path / "out" / "field.yaml")
    assert m.background is None and m.terrain[m.hex_of("0301")] == "water"


def test_every_problem_of_a_mapping_file_is_reported_in_one_pass(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 21 item 3: a mapping file's problems each get their own line with the line
    number: a colour YAML read as a comment, a symbol taken twice, a layer the map has not."""
    tmx = write_tmx(tmp_path)
    mapping = tmp_path / "mapping.yaml"
    mapping.write_text(
        "default: open\n"
        "terrain:\n"
        '  open: {symbol: ".", colour: "#c8d89a"}\n'
        "  woods:\n"
        "    symbol: W\n"
        "    colour: #3f7a3a\n"
        '  wood_lot: {symbol: ".", colour: "#3f7a3a"}\n'
        "layers: {Ground: terrain, Rivers: ignore}\n"
    )
    code, _, err = run(capsys, "import", "tiled", str(tmx), "--out", str(tmp_path / "out"), "--mapping", str(mapping))
    assert code == 2
    assert err.splitlines() == [
        f"{mapping}:6: terrain 'woods' needs `colour: \"#rrggbb\"` (quoted: an unquoted # starts a comment)",
        f"{mapping}:7: terrain 'wood_lot': symbol '.' is taken by another terrain; pick another",
        f"{mapping}:8: the map has no tile layer 'Rivers'; its layers: 'Ground', 'Roads'",
    ]
    assert not (tmp_path / "out").exists()
