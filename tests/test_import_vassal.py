"""`tabletop import vassal` (issue 21 item 3): each hex board of a VASSAL module becomes a
map whose background picture lines up with the module's HexGrid hex for hex, each piece
picture a counter face; an untrusted module is read without trusting it."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pygame
import pytest

from tabletop.board.loader import load_map
from tabletop.cli import main
from tabletop.engine.counters import load_counters

GIF = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,"
       b"\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")  # fmt: skip
MARK = (255, 0, 255)
BOARD = "VASSAL.build.module.map.boardPicker.Board"


def png(size: tuple[int, int], colour: tuple[int, int, int], marks: list[tuple[float, float]] = ()) -> bytes:  # type: ignore[assignment]
    surface = pygame.Surface(size)
    surface.fill(colour)
    for x, y in marks:
        surface.set_at((round(x), round(y)), MARK)
    out = io.BytesIO()
    pygame.image.save(surface, out, "x.png")
    return out.getvalue()


def vassal_centre(grid: dict[str, float], column: int, row: int, sideways: bool) -> tuple[float, float]:
    """VASSAL's HexGrid: raw column n at x0 + n dx, row k at y0 + k dy, odd columns half a
    hex lower; x and y swapped for a sideways grid."""
    fx = grid["x0"] + column * grid["dx"]
    fy = grid["y0"] + row * grid["dy"] + (grid["dy"] / 2 if column % 2 else 0)
    return (fy, fx) if sideways else (fx, fy)


def build_file(grid_xml: str, pieces: str = "", *, prolog: str = "") -> str:
    return f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>{prolog}
<VASSAL.build.GameModule name="Tiny War" version="1.0" VassalVersion="3.7.0" nextPieceSlotId="3">
  <VASSAL.build.module.Map mapName="Main Map">
    <VASSAL.build.module.map.BoardPicker>
      <{BOARD} image="board.png" name="Board A" reversible="false">{grid_xml}</{BOARD}>
    </VASSAL.build.module.map.BoardPicker>
  </VASSAL.build.module.Map>
  <VASSAL.build.module.PieceWindow name="Pieces">{pieces}</VASSAL.build.module.PieceWindow>
</VASSAL.build.GameModule>"""


def hex_grid(dx: float, dy: float, x0: int, y0: int, sideways: bool) -> str:
    return (f'<VASSAL.build.module.map.boardPicker.board.HexGrid color="0,0,0" dx="{dx}" dy="{dy}" '
            f'sideways="{str(sideways).lower()}" snapTo="true" visible="true" x0="{x0}" y0="{y0}"/>')  # fmt: skip


PIECES = (
    '<VASSAL.build.widget.PieceSlot entryName="Rifle Coy" gpid="1" height="48" width="48">'
    "+/null/prototype;Unit\tpiece;;;rifle.png;Rifle Coy/\t\\\tnull;0;0;1;0</VASSAL.build.widget.PieceSlot>"
    '<VASSAL.build.widget.PieceSlot entryName="Tank" gpid="2" height="48" width="48">'
    "+/null/piece;;;tank.gif;Tank/null;0;0;2;0</VASSAL.build.widget.PieceSlot>"
)


def write_vmod(path: Path, build: str | bytes, members: dict[str, bytes] | None = None) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("buildFile.xml", build)
        for name, data in (members or {}).items():
            z.writestr(name, data)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("grid", "sideways", "orientation", "offset", "first"),
    [
        ({"dx": 52.0, "dy": 60.0, "x0": 40, "y0": 35}, False, "flat", "odd-q", (0, 0)),
        # the first column on the board is raw column 1, an odd (lower) one: even-q; and
        # row 0 of the odd columns lies above the board, so the first row is raw row 1
        ({"dx": 52.0, "dy": 60.0, "x0": -20, "y0": -50}, False, "flat", "even-q", (1, 1)),
        ({"dx": 45.0, "dy": 52.0, "x0": 30, "y0": 26}, True, "pointy", "odd-r", (0, 0)),
    ],
)
def test_each_hex_centre_of_the_map_lies_on_the_modules_hex_centre(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, grid: dict[str, float], sideways: bool,
    orientation: str, offset: str, first: tuple[int, int],
) -> None:  # fmt: skip
    """Issue 21 item 3: the board becomes a map of the hexes whose centres lie on it; the
    image pixel of each hex's centre computed from the written background is where
    VASSAL's HexGrid puts that hex, and the picture copied beside the map is marked there."""
    size = (400, 300)
    raw = [(n, k) for n in range(-2, 12) for k in range(-2, 12)]
    marks = [c for c in (vassal_centre(grid, n, k, sideways) for n, k in raw)
             if 0 <= round(c[0]) < size[0] and 0 <= round(c[1]) < size[1]]  # fmt: skip
    build = build_file(hex_grid(grid["dx"], grid["dy"], int(grid["x0"]), int(grid["y0"]), sideways), PIECES)
    vmod = write_vmod(tmp_path / "tiny.vmod", build, {
        "images/board.png": png(size, (220, 200, 150), marks), "images/rifle.png": png((48, 48), (0, 90, 0)),
        "images/tank.gif": GIF,
    })  # fmt: skip
    code, out, err = run(capsys, "import", "vassal", str(vmod), "--out", str(tmp_path / "out"))
    assert (code, err) == (0, "")
    assert out.startswith(f"wrote {tmp_path / 'out' / 'board-a.yaml'}: ")
    m = load_map(tmp_path / "out" / "board-a.yaml")
    assert (m.grid.orientation, m.grid.offset) == (orientation, offset)
    assert m.background is not None and m.name == "Tiny War: Board A"
    picture = pygame.image.load(str(m.background.image))
    layout = m.grid.layout()
    origin = layout.center(m.grid.hex_at(0, 0))
    centres = []
    for col in range(m.grid.columns):
        for row in range(m.grid.rows):
            n, k = (first[0] + row, first[1] + col) if sideways else (first[0] + col, first[1] + row)
            expected = vassal_centre(grid, n, k, sideways)
            x, y = m.background.pixel(layout.center(m.grid.hex_at(col, row)), origin)
            assert (x, y) == pytest.approx(expected)
            assert 0 <= x <= size[0] and 0 <= y <= size[1]
            assert tuple(picture.get_at((round(x), round(y))))[:3] == MARK
            centres.append((round(x), round(y)))
    assert len(centres) >= 12  # most marked centres on the board are hexes of the map


def test_sideways_grid_columns_and_rows_of_the_map(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 21 item 3: a sideways grid is rows of pointy-top hexes: its VASSAL columns are
    the map's rows (a 400 x 300 board; in the grid's own frame x and y are swapped)."""
    build = build_file(hex_grid(45, 52, 30, 26, True))
    vmod = write_vmod(tmp_path / "s.vmod", build, {"images/board.png": png((400, 300), (200, 200, 200))})
    assert run(capsys, "import", "vassal", str(vmod), "--out", str(tmp_path / "out"))[0] == 0
    m = load_map(tmp_path / "out" / "board-a.yaml")
    # down: x0 30 + 45 n <= pixel 299 -> n 0..5; across: y0 26 + 52 k (+26 in odd n) <= 399 -> k 0..6
    assert (m.grid.columns, m.grid.rows, m.grid.orientation, m.grid.offset) == (7, 6, "pointy", "odd-r")


def test_pieces_become_counter_faces_and_everything_validates_and_renders(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 21 item 3: each piece picture is a counter face under counters/ (a GIF turned
    into PNG), listed in counters.yaml and the README; the map validates and renders."""
    build = build_file(hex_grid(52, 60, 40, 35, False), PIECES)
    vmod = write_vmod(tmp_path / "tiny.vmod", build, {
        "images/board.png": png((400, 300), (220, 200, 150)), "images/rifle.png": png((48, 48), (0, 90, 0)),
        "images/tank.gif": GIF,
    })  # fmt: skip
    code, out, _ = run(capsys, "import", "vassal", str(vmod), "--out", str(tmp_path / "out"))
    assert code == 0 and "2 counter faces" in out
    faces = tmp_path / "out" / "counters"
    assert sorted(p.name for p in faces.iterdir()) == ["rifle-coy.png", "tank.png"]
    assert (faces / "tank.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    counters = load_counters(tmp_path / "out" / "counters.yaml")
    assert {k: u.name for k, u in counters.unit_types.items()} == {"rifle-coy": "Rifle Coy", "tank": "Tank"}
    assert counters.unit("tank").image_full == (faces / "tank.png").resolve()  # item 4: drawn from it
    from tabletop.ui.counter_art import unit_counter

    face = unit_counter(counters.unit("rifle-coy"), (150, 150, 160), 60, "r1")
    assert tuple(face.get_at((30, 30)))[:3] == (0, 90, 0)  # the piece's own picture, not a symbol
    readme = (tmp_path / "out" / "README.md").read_text()
    assert "counters/rifle-coy.png: Rifle Coy" in readme and "board-a.yaml" in readme
    assert run(capsys, "validate", str(tmp_path / "out" / "board-a.yaml"))[0] == 0
    code, _, _ = run(capsys, "render", str(tmp_path / "out" / "board-a.yaml"), "--out", str(tmp_path / "x.png"))
    assert code == 0 and (tmp_path / "x.png").stat().st_size > 0
    code, out, _ = run(capsys, "play", str(tmp_path / "out" / "board-a.yaml"), "--frames", "2", "--size", "640x480")
    assert code == 0 and "Tiny War: Board A (free play)" in out


@pytest.mark.parametrize("name", ["../evil.png", "/etc/evil", "images\\..\\evil", "c:/evil"])
def test_a_member_reaching_outside_the_module_refuses_it_whole(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    """Issue 21 item 3 (safety): a member name with '..', a root, a drive or a backslash
    (a path-traversal zip) refuses the module; nothing is written."""
    vmod = write_vmod(tmp_path / "bad.vmod", build_file(hex_grid(52, 60, 40, 35, False)),
                      {"images/board.png": png((400, 300), (1, 2, 3)), name: b"x"})  # fmt: skip
    code, _, err = run(capsys, "import", "vassal", str(vmod), "--out", str(tmp_path / "out"))
    assert code == 2 and len(err.splitlines()) == 1
    assert err.startswith(f"{vmod}: holds a file named ") and "reaches outside the module" in err
    assert not (tmp_path / "out").exists() and not (tmp_path / "evil.png").exists()


def test_a_module_unpacking_past_the_cap_is_refused_before_reading(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21 item 3 (safety): the sizes in the zip's directory are summed against
    limits.IMPORT_BYTES before any member is unpacked (a zip bomb stops there)."""
    from tabletop.imports import vassal

    vmod = write_vmod(tmp_path / "big.vmod", build_file(hex_grid(52, 60, 40, 35, False)),
                      {"images/board.png": png((400, 300), (1, 2, 3)), "images/zeros": b"\0" * 200_000})  # fmt: skip
    monkeypatch.setattr(vassal, "IMPORT_BYTES", 100_000)
    code, _, err = run(capsys, "import", "vassal", str(vmod), "--out", str(tmp_path / "out"))
    assert code == 2 and "(limits.IMPORT_BYTES); refused, nothing read" in err


def test_a_buildfile_declaring_entities_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 21 item 3 (safety): XML entity declarations (billion laughs) are never parsed."""
    prolog = '\n<!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
    vmod = write_vmod(tmp_path / "e.vmod", build_file(hex_grid(52, 60, 40, 35, False), prolog=prolog))
    code, _, err = run(capsys, "import", "vassal", str(vmod), "--out", str(tmp_path / "out"))
    assert code == 2 and err.startswith(f"{vmod}:buildFile.xml:2: holds a DOCTYPE declaration")


def test_what_cannot_be_mapped_is_one_line_with_the_fix(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 21 item 3: a module with only a square grid, a file that is no zip and a
    module without buildFile each give one line naming the file and what to do."""
    square = build_file('<VASSAL.build.module.map.boardPicker.board.SquareGrid dx="50" dy="50"/>')
    vmod = write_vmod(tmp_path / "sq.vmod", square, {"images/board.png": png((100, 100), (1, 2, 3))})
    code, _, err = run(capsys, "import", "vassal", str(vmod), "--out", str(tmp_path / "out"))
    assert (code, err.strip()) == (2, f"{vmod}: no board with a hex grid (Board A: a SquareGrid, not a hex grid); "
                                      "only hex grids import")  # fmt: skip
    junk = tmp_path / "junk.vmod"
    junk.write_text("not a zip")
    code, _, err = run(capsys, "import", "vassal", str(junk), "--out", str(tmp_path / "out"))
    assert code == 2 and err.startswith(f"{junk}: not a VASSAL module: not a zip file")
    empty = tmp_path / "empty.vmod"
    with zipfile.ZipFile(empty, "w") as z:
        z.writestr("moduledata", "<data/>")
    code, _, err = run(capsys, "import", "vassal", str(empty), "--out", str(tmp_path / "out"))
    assert code == 2 and err.startswith(f"{empty}: holds no buildFile.xml")
    assert not (tmp_path / "out").exists()


def test_a_module_written_by_pywargame_imports(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 21 item 3: a module made with pywargame's own writer imports (pywargame 0.8
    uses Python 3.12 syntax, so this runs only where it imports)."""
    try:
        vassal = pytest.importorskip("pywargame.vassal", reason="pywargame is not installed")
    except SyntaxError:
        pytest.skip("pywargame needs Python 3.12 or later to import (its f-strings hold backslashes)")
    build = vassal.BuildFile()
    game = build.addGame(name="Py War")
    board = game.addMap(mapName="Main").addBoardPicker().addBoard(name="Field", image="field.png", width=400, height=300)
    board.addHexGrid(dx=52, dy=60, x0=40, y0=35)
    vmod = write_vmod(tmp_path / "py.vmod", build.encode(), {"images/field.png": png((400, 300), (9, 9, 9))})
    code, _, err = run(capsys, "import", "vassal", str(vmod), "--out", str(tmp_path / "out"))
    assert (code, err) == (0, "")
    m = load_map(tmp_path / "out" / "field.yaml")
    assert (m.grid.orientation, m.grid.offset, m.grid.columns) == ("flat", "odd-q", 7)


def test_plain_numbering_gives_the_printed_labels(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 21 item 3: a HexGridNumbering of plain column-then-row numbers (VASSAL's label:
    raw column + hOff, raw row + vOff) labels the map as the board prints it; here the first
    whole hex on the board is raw column 1, row 1, so the map starts at 0202. Staggered
    numbering (VASSAL's default), which CCRR labels cannot spell, keeps labels from 0101."""
    numbering = ('<VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering first="H" sep="" hType="N" '
                 'vType="N" hLeading="1" vLeading="1" hOff="1" vOff="1" hDescend="false" vDescend="false" '
                 'stagger="{}"/>')  # fmt: skip
    for stagger, first in (("false", "0202"), ("true", "0101")):
        grid = hex_grid(52, 60, -20, -50, False).replace("/>", f">{numbering.format(stagger)}"
                                                         "</VASSAL.build.module.map.boardPicker.board.HexGrid>")  # fmt: skip
        vmod = write_vmod(tmp_path / f"n-{stagger}.vmod", build_file(grid), {"images/board.png": png((400, 300), (9, 9, 9))})
        out = tmp_path / f"out-{stagger}"
        assert run(capsys, "import", "vassal", str(vmod), "--out", str(out))[0] == 0
        m = load_map(out / "board-a.yaml")
        assert m.label(m.grid.hex_at(0, 0)) == first


def test_a_picture_too_big_to_open_is_refused_from_its_header(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 21 item 3 (safety): a board picture is measured from its header before it is
    decoded; one whose header claims 20000 x 20000 pixels (a decompression bomb) is refused."""
    import struct

    bomb = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", 20000, 20000) + b"\x08\x02\0\0\0"
    vmod = write_vmod(tmp_path / "b.vmod", build_file(hex_grid(52, 60, 40, 35, False)), {"images/board.png": bomb})
    code, _, err = run(capsys, "import", "vassal", str(vmod), "--out", str(tmp_path / "out"))
    assert code == 2
    assert err.startswith(f"{vmod}:images/board.png: the picture is 20000 x 20000 pixels; at most 16384 a side")


@pytest.mark.parametrize("kind", ["png", "jpg", "gif"])
def test_picture_sizes_are_read_from_png_jpeg_and_gif_headers(tmp_path: Path, kind: str) -> None:
    """Issue 21 item 3: the header reader agrees with pygame on each kind it accepts."""
    from tabletop.imports.common import image_size

    if kind == "gif":
        assert image_size(GIF) == (1, 1)
        return
    surface = pygame.Surface((37, 21))
    surface.fill((10, 120, 30))
    path = tmp_path / f"x.{kind}"
    pygame.image.save(surface, str(path))
    assert image_size(path.read_bytes()) == (37, 21)
