"""The map editor in the window (issue 21 items 1 and 2): events as a player makes
them (keys and clicks through ``App.handle``), the map the table shows after each, the
file saved, and `tabletop edit` from the command line.

Driven under SDL_VIDEODRIVER=dummy (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from tabletop.board import load_map
from tabletop.board.editing import MapDocument
from tabletop.cli import main
from tabletop.ui.app import App
from tabletop.ui.editor import Editor, align_targets, open_editor

MAP = """\
# Editor test ground.
name: Editor ground
rules: free
grid: {orientation: flat, offset: odd-q, columns: 8, rows: 6}
terrain:
  open:  {symbol: ".", colour: "#c8d89a"}
  woods: {symbol: "W", colour: "#2e6b2e"}
rows: |
  . . . . . . . .
  . . . . . . . .
  . . . . . . . .
  . . . . . . . .
  . . . . . . . .
  . . . . . . . .
features:
  road: {colour: "#8a6d3b", hexes: ["0101"]}
hexsides:
  wall: {colour: "#555555", between: []}
"""


@pytest.fixture
def app(tmp_path: Path) -> App:
    pygame.font.init()
    path = tmp_path / "m.yaml"
    path.write_text(MAP, encoding="utf-8")
    return open_editor(MapDocument.open(path), (1280, 800))


def editor(app: App) -> Editor:
    return next(c for c in app.components if isinstance(c, Editor))


def key(app: App, k: int, mod: int = 0, text: str = "") -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=text, scancode=0))
    app.update(0.0)


def at(app: App, label: str) -> tuple[int, int]:
    x, y = app.screen_of(app.board.hex_of(label))
    return (round(x), round(y))


def click(app: App, pos: tuple[int, int]) -> None:
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.update(0.0)


def drag(app: App, labels: list[str]) -> None:
    first = at(app, labels[0])
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=first, rel=(0, 0), buttons=(0, 0, 0)))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=first, button=1))
    for label in labels[1:]:
        app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=at(app, label), rel=(0, 0), buttons=(1, 0, 0)))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=at(app, labels[-1]), button=1))
    app.update(0.0)


def frame(app: App) -> pygame.Surface:
    surface = pygame.Surface(app.size)
    app.draw(surface)
    return surface


def test_a_brush_stroke_paints_the_hexes_and_the_table_shows_them(app: App) -> None:
    key(app, pygame.K_2, text="2")  # the second terrain: woods
    drag(app, ["0203", "0303", "0403"])
    painted = {app.board.hex_of(x) for x in ("0203", "0303", "0403")}
    assert all(app.state.terrain_at(h) == "woods" for h in painted)  # what the table and LOS read
    assert app.unsaved()
    key(app, pygame.K_z, pygame.KMOD_CTRL)  # a stroke is one undo step, as in a paint program
    assert not any(app.state.terrain_at(h) == "woods" for h in painted) and not app.unsaved()
    key(app, pygame.K_y, pygame.KMOD_CTRL)
    assert all(app.state.terrain_at(h) == "woods" for h in painted)
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert not app.unsaved() and "saved" in app.messages[-1]
    saved = load_map(editor(app).doc.path)
    assert {h for h in saved.grid.hexes() if saved.terrain[h] == "woods"} == painted


def test_a_quick_drag_paints_every_hex_the_pointer_passed_over(app: App) -> None:
    """Motion events of a quick drag come far apart: here one at each end of a stroke
    down column 01. The hexes between are painted too, and the next stroke is its own
    undo step."""
    key(app, pygame.K_2, text="2")
    drag(app, ["0102", "0105"])
    assert {app.board.label(h) for h in app.board.grid.hexes() if app.state.terrain_at(h) == "woods"} == {
        "0102", "0103", "0104", "0105"
    }
    drag(app, ["0302", "0303"])
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    woods = {app.board.label(h) for h in app.board.grid.hexes() if app.state.terrain_at(h) == "woods"}
    assert woods == {"0102", "0103", "0104", "0105"}


def test_elevation_features_and_hexsides_through_their_tools(app: App) -> None:
    key(app, pygame.K_F4)
    key(app, pygame.K_RIGHTBRACKET, text="]")
    key(app, pygame.K_RIGHTBRACKET, text="]")
    click(app, at(app, "0505"))
    assert app.board.elevation[app.board.hex_of("0505")] == 3
    key(app, pygame.K_F5)  # hex features: the road; a stroke from a road hex takes it off
    drag(app, ["0101", "0201"])
    assert app.board.features["road"].hexes == frozenset()
    drag(app, ["0303", "0403"])
    assert {app.board.label(h) for h in app.board.features["road"].hexes} == {"0303", "0403"}
    key(app, pygame.K_F6)  # hexsides: click just inside 0303 towards 0304 (the hex below)
    a, b = at(app, "0303"), at(app, "0304")
    click(app, (a[0], a[1] + (b[1] - a[1]) // 3))
    assert app.board.hexside_features(app.board.hex_of("0303"), app.board.hex_of("0304")) == {"wall"}


def test_the_panel_lists_the_tools_the_palette_and_the_problems(app: App, drawn: list[str]) -> None:
    frame(app)
    for words in ("F3  Terrain brush", "F6  Hexside features (walls)", "1  open (.)", "2  woods (W)"):
        assert words in drawn
    assert "no problems: the files validate" in drawn
    assert any("(no" in w for w in drawn if w.startswith("F8"))  # align needs a background picture


def test_a_new_region_starts_at_the_hex_clicked(app: App) -> None:
    key(app, pygame.K_F7)
    key(app, pygame.K_n, text="n")
    click(app, at(app, "0606"))
    assert {app.board.label(h) for h in app.board.regions["region-1"].hexes} == {"0606"}
    drag(app, ["0605", "0604"])
    assert len(app.board.regions["region-1"].hexes) == 3


def test_quitting_with_unsaved_edits_asks_first(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    key(app, pygame.K_2, text="2")
    click(app, at(app, "0202"))
    assert app.unsaved()
    monkeypatch.setattr(pygame.display, "get_surface", lambda: pygame.Surface((10, 10)))
    app.request_quit()
    assert app.confirm_quit and app.running


def test_align_by_three_clicks_on_the_picture(tmp_path: Path) -> None:
    """Item 2: the picture (dots at the true hex centres) starts misaligned; clicking
    the three named hexes' dots fixes origin and scale."""
    pygame.font.init()
    path = tmp_path / "m.yaml"
    path.write_text(MAP + "background: {image: board.png, origin: [70, 20], scale: [26, 31]}\n")
    pygame.image.save(pygame.Surface((400, 300)), str(tmp_path / "board.png"))
    app = open_editor(MapDocument.open(path), (1280, 800))
    true_origin, true_scale = (40.0, 44.0), (30.0, 28.0)
    key(app, pygame.K_F8)
    bg, first = app.board.background, app.view.first
    for target in align_targets(app.board):
        wx, wy = app.view.center(target)
        picture = (true_origin[0] + (wx - first[0]) * true_scale[0], true_origin[1] + (wy - first[1]) * true_scale[1])
        world = (first[0] + (picture[0] - bg.origin[0]) / bg.scale[0], first[1] + (picture[1] - bg.origin[1]) / bg.scale[1])
        x, y = app.camera.to_screen(*world)
        click(app, (round(x), round(y)))
    got = app.board.background
    assert got is not None
    assert got.origin == pytest.approx(true_origin, abs=1.0) and got.scale == pytest.approx(true_scale, rel=0.02)


def test_tabletop_edit_opens_and_closes_and_copies_a_background(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "maps" / "m.yaml"
    path.parent.mkdir()
    path.write_text(MAP)
    picture = tmp_path / "scan.png"
    pygame.image.save(pygame.Surface((320, 240)), str(picture))
    assert main(["edit", str(path), "--background", str(picture), "--frames", "2"]) == 0
    out = capsys.readouterr()
    assert (path.parent / "scan.png").is_file() and "laid over the whole grid" in out.out
    assert "closed with unsaved edits" in out.err  # the background is named only once saved
    assert "background" not in path.read_text()
    assert main(["edit", str(tmp_path / "nope.yaml"), "--frames", "1"]) == 2


def test_a_new_scenario_made_in_the_editor_validates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21 done-when: a small scenario built through the editor's actions (paint,
    place, constrain, save), reloaded, and `tabletop validate` passes; the pieces placed
    are the scenario's units, the setup entry and the limit its own."""
    from tabletop.engine.scenario import load_scenario
    from tabletop.engine.scenario_document import ScenarioDocument
    from tabletop.ui.counters import CounterLayer, _Placing

    pygame.font.init()
    (tmp_path / "maps").mkdir()
    (tmp_path / "scenarios").mkdir()
    assert main(["map", "new", "--columns", "8", "--rows", "6", "--out", str(tmp_path / "maps" / "field.yaml")]) == 0
    scen = tmp_path / "scenarios" / "raid.yaml"
    assert main(["edit", str(scen), "--map", str(tmp_path / "maps" / "field.yaml"), "--frames", "1"]) == 0
    capsys.readouterr()
    app = open_editor(MapDocument.open(tmp_path / "maps" / "field.yaml"), (1280, 800), ScenarioDocument.open(scen))
    key(app, pygame.K_2, text="2")  # paint woods
    drag(app, ["0303", "0403"])
    layer = next(c for c in app.components if isinstance(c, CounterLayer))
    layer.placing = _Placing("unit", "infantry", "blue")  # chosen in the tray (t)
    click(app, at(app, "0202"))
    app.update(0.0)
    key(app, pygame.K_F7)  # a region for the setup
    key(app, pygame.K_n, text="n")
    click(app, at(app, "0706"))  # the new region's first hex
    drag(app, ["0806", "0805"])
    key(app, pygame.K_F9)
    key(app, pygame.K_a, text="a")
    key(app, pygame.K_PLUS, text="+")
    key(app, pygame.K_c, text="c")
    frame(app)  # the setup tool's panel lists the entry and the limit
    ed = editor(app)
    assert ed.scenario is not None and not ed.scenario.problems
    key(app, pygame.K_PLUS, text="+")
    key(app, pygame.K_PLUS, text="+")  # 4 infantry, at most one a hex, in 3 hexes: the solver says no
    assert any("cannot all hold" in str(p) for p in ed.scenario.problems)
    key(app, pygame.K_MINUS, text="-")
    assert ed.scenario is not None and not ed.scenario.problems
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert not app.unsaved()
    s = load_scenario(scen)
    (unit,) = s.pieces
    assert (unit.type, unit.side, s.board.label(unit.hex)) == ("infantry", "blue", "0202")
    (placement,) = s.placements
    assert (placement.type, placement.side, len(placement.ids)) == ("infantry", "blue", 3)
    assert len(s.constraints) == 1 and s.board.terrain[s.board.hex_of("0403")] == "woods"
    assert main(["validate", str(scen), str(tmp_path / "maps" / "field.yaml")]) == 0
