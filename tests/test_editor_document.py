"""The map editor's document (issue 21 item 1): each edit changes the YAML a person
wrote in place, keeps its comments and key order, builds the same map the loader
builds from the saved file, and undoes exactly; the background alignment fit (item 2)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabletop.board import load_map
from tabletop.board.align import AlignError, fit
from tabletop.board.editing import MapDocument
from tabletop.cli import main
from tabletop.shipped import resolve

MAP = """\
# A test ground. This comment must survive every edit.
name: Edit ground
rules: free
grid: {orientation: flat, offset: odd-q, columns: 5, rows: 4}
terrain:
  open:  {symbol: ".", colour: "#c8d89a"}   # the default ground
  woods: {symbol: "W", colour: "#2e6b2e"}
rows: |
  .  .  W  .  .
  .  W  W  .  .
  .  .  .  .  .
  .  .  .  .  .
hexes:
  "0104": woods
elevation:
  default: 0
  hexes: {"0301": 2}
features:
  road: {colour: "#8a6d3b", hexes: ["0101", "0201"]}
hexsides:
  wall: {colour: "#555555", between: ["0102/0202"]}
regions:
  west: {kind: setup, columns: [1, 2]}
"""


@pytest.fixture
def doc(tmp_path: Path) -> MapDocument:
    path = tmp_path / "m.yaml"
    path.write_text(MAP, encoding="utf-8")
    return MapDocument.open(path)


def saved(doc: MapDocument):  # type: ignore[no-untyped-def]
    """The map the loader builds from the file as saved now."""
    doc.save()
    return load_map(doc.path)


def h(doc: MapDocument, label: str):  # type: ignore[no-untyped-def]
    return doc.board.hex_of(label)


def test_painting_changes_one_symbol_of_its_row_in_place(doc: MapDocument) -> None:
    assert doc.paint(h(doc, "0503"), "woods")
    text = doc.text()
    assert "  .  .  .  .  W\n" in text and "# A test ground. This comment must survive every edit." in text
    assert "# the default ground" in text
    assert saved(doc).terrain[h(doc, "0503")] == "woods" and doc.board.terrain[h(doc, "0503")] == "woods"
    assert not doc.paint(h(doc, "0503"), "woods")  # no change, no undo step
    assert not doc.paint(h(doc, "0503"), "lava")  # not a declared terrain


def test_painting_a_hex_with_an_override_removes_the_override(doc: MapDocument) -> None:
    assert doc.paint(h(doc, "0104"), "open")
    assert '"0104"' not in doc.text() and "hexes:\n  \"0104\"" not in doc.text()
    assert saved(doc).terrain[h(doc, "0104")] == "open"


def test_painting_a_map_without_rows_writes_hexes(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(MAP.split("rows: |")[0] + "default_terrain: open\n", encoding="utf-8")
    doc = MapDocument.open(path)
    assert doc.paint(h(doc, "0302"), "woods")
    assert saved(doc).terrain[h(doc, "0302")] == "woods"
    assert doc.paint(h(doc, "0302"), "open")
    assert "0302" not in doc.text()  # back to the default: no entry left


def test_elevation_hexsides_features_and_regions_toggle(doc: MapDocument) -> None:
    assert doc.set_elevation(h(doc, "0202"), 3) and doc.set_elevation(h(doc, "0301"), 0)
    assert doc.toggle_hexside("wall", h(doc, "0202"), h(doc, "0102"))  # the pair spelt the other way: off
    assert doc.toggle_hexside("wall", h(doc, "0303"), h(doc, "0302"))
    assert doc.toggle_feature("road", h(doc, "0201")) and doc.toggle_feature("road", h(doc, "0301"))
    assert doc.toggle_region("west", h(doc, "0301"))
    m = saved(doc)
    assert m.elevation[h(doc, "0202")] == 3 and m.elevation[h(doc, "0301")] == 0
    assert m.hexside_features(h(doc, "0102"), h(doc, "0202")) == frozenset()
    assert m.hexside_features(h(doc, "0303"), h(doc, "0302")) == {"wall"}
    assert m.features["road"].hexes == {h(doc, "0101"), h(doc, "0301")}
    west = {m.label(x) for x in m.regions["west"].hexes}
    assert west == {f"{c:02d}{r:02d}" for c in (1, 2) for r in range(1, 5)} | {"0301"}


def test_a_region_is_never_emptied(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(MAP.replace("west: {kind: setup, columns: [1, 2]}", 'exit: {kind: exit, hexes: ["0501"]}'))
    doc = MapDocument.open(path)
    assert not doc.toggle_region("exit", h(doc, "0501"))  # the loader refuses an empty region


def test_undo_and_redo_are_exact(doc: MapDocument) -> None:
    start = doc.text()
    doc.paint(h(doc, "0101"), "woods")
    after_paint = doc.text()
    doc.toggle_feature("road", h(doc, "0504"))
    assert doc.unsaved
    assert doc.undo() and doc.text() == after_paint
    assert doc.undo() and doc.text() == start and doc.board.terrain[h(doc, "0101")] == "open"
    assert not doc.undo()
    assert doc.redo() and doc.text() == after_paint and doc.board.terrain[h(doc, "0101")] == "woods"
    doc.paint(h(doc, "0504"), "woods")  # a new edit drops the redo line
    assert not doc.redo()


def test_a_stroke_undoes_and_redoes_as_one_step(doc: MapDocument) -> None:
    start = doc.text()
    doc.begin_stroke()
    doc.paint(h(doc, "0101"), "woods")
    doc.paint(h(doc, "0102"), "woods")
    doc.end_stroke()
    stroke = doc.text()
    doc.paint(h(doc, "0103"), "woods")  # after the stroke: a step of its own
    assert doc.undo() and doc.text() == stroke
    assert doc.undo() and doc.text() == start and not doc.undo()
    assert doc.redo() and doc.text() == stroke
    doc.begin_stroke()
    assert doc.paint(h(doc, "0203"), "woods")
    assert doc.undo() and doc.text() == stroke  # undone mid-stroke: the next edit is a new step
    assert doc.paint(h(doc, "0303"), "woods")
    assert doc.undo() and doc.text() == stroke


def test_an_unchanged_document_saves_the_file_as_it_was(doc: MapDocument) -> None:
    assert doc.text() == MAP and not doc.unsaved


def test_live_problems_are_the_validators(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The editor shows what `tabletop validate` prints for the file it would save:
    here a map for Dogfaces painted with a terrain Dogfaces does not know (rules check)."""
    path = tmp_path / "ridges.yaml"
    shutil.copy(resolve("dogfaces-ridges", "maps"), path)
    text = path.read_text().replace('  town:      {symbol: "T"', '  lava:      {symbol: "L", colour: "#ff0000"}\n  town:      {symbol: "T"')
    path.write_text(text)
    assert main(["validate", str(path)]) == 2  # a declared terrain the rules do not know
    printed = capsys.readouterr().err.strip().splitlines()
    doc = MapDocument.open(path)
    assert [str(p) for p in doc.problems] == printed and "lava" in printed[0]


def test_the_alignment_fit_recovers_origin_and_scale() -> None:
    """Item 2: three clicked hex centres fix the picture's origin and scale exactly."""
    first = (0.0, 0.866)
    origin, scale = (41.0, 37.5), (48.0, 46.0)

    def pixel(w: tuple[float, float]) -> tuple[float, float]:
        return (origin[0] + (w[0] - first[0]) * scale[0], origin[1] + (w[1] - first[1]) * scale[1])

    hexes = [(0.0, 0.866), (34.5, 0.866), (0.0, 26.0)]
    got_origin, got_scale = fit([(w, pixel(w)) for w in hexes], first)
    assert got_origin == pytest.approx(origin) and got_scale == pytest.approx(scale)
    with pytest.raises(AlignError, match="one column"):
        fit([((1.0, 0.0), (5.0, 5.0)), ((1.0, 3.0), (5.0, 9.0))], first)
    with pytest.raises(AlignError, match="at least two"):
        fit([((1.0, 0.0), (5.0, 5.0))], first)


def test_set_alignment_writes_the_background_block(tmp_path: Path) -> None:
    import pygame

    pygame.image.save(pygame.Surface((50, 40)), str(tmp_path / "board.png"))
    path = tmp_path / "m.yaml"
    path.write_text(MAP + "background: {image: board.png, origin: [0, 0], scale: 1}\n")
    doc = MapDocument.open(path)
    assert doc.set_alignment((12.345, 6.0), (20.0, 21.5))
    bg = saved(doc).background
    assert bg is not None and bg.origin == (12.35, 6.0) and bg.scale == (20.0, 21.5)


@pytest.mark.parametrize("name", ["dog-sector", "dogfaces", "belleau-wood", "omaha", "dogs-of-war"])
def test_edits_on_the_shipped_maps_keep_every_comment_and_untouched_line(tmp_path: Path, name: str) -> None:
    """Comments inside flow lists (the roads of dogfaces.yaml) are what ruamel.yaml drops
    on its own: the document keeps them, and every line no edit touched, byte for byte."""
    import re

    path = tmp_path / f"{name}.yaml"
    shutil.copy(resolve(name, "maps"), path)
    original = path.read_text(encoding="utf-8")
    doc = MapDocument.open(path)
    grid = doc.board.grid
    painted = grid.hex_at(1, 1)
    doc.paint(painted, next(k for k in doc.terrain_keys() if k != doc.board.terrain[painted]))
    for key in list(doc.board.features)[:2]:
        doc.toggle_feature(key, grid.hex_at(2, 2))
    for key in list(doc.board.hexsides)[:2]:
        doc.toggle_hexside(key, grid.hex_at(3, 3), grid.hex_at(3, 4))
    m = saved(doc)
    assert m.terrain == doc.board.terrain and m.features == doc.board.features and m.hexsides == doc.board.hexsides
    text = path.read_text(encoding="utf-8")
    comments = [c.group(1) for line in original.splitlines() if (c := re.search(r"(?:^|\s)(#.*)$", line))]
    assert all(c in text for c in comments)
    kept = set(text.splitlines())
    lines = original.splitlines()
    in_lists, open_list = set(), False  # the lines of flow lists written over several lines
    for line in lines:
        code = "" if line.lstrip().startswith("#") else line.split(" #")[0]
        if open_list:
            in_lists.add(line)
            open_list = "]" not in code
        elif code.count("[") > code.count("]"):
            in_lists.add(line)
            open_list = True
    row = lines[next(i for i, x in enumerate(lines) if x.startswith("rows:")) + 1 + grid.offset_of(painted)[1]]
    lost = [line for line in lines if line not in kept]
    assert set(lost) <= {row} | in_lists  # the painted row and the lists edited, nothing else


def test_new_kinds_are_declared_with_fresh_keys_symbols_and_colours(doc: MapDocument) -> None:
    """Item 1: painting with a terrain, feature, hexside or region the file does not
    have yet: declared in the file (a region with its first hex), ready to rename."""
    assert doc.add_kind("terrain") == "terrain-1"
    assert doc.add_kind("features") == "feature-1" and doc.add_kind("hexsides") == "hexside-1"
    assert doc.add_kind("regions") is None  # a region needs its first hex
    assert doc.add_kind("regions", first=h(doc, "0303")) == "region-1"
    assert doc.add_kind("terrain", key="open") == "terrain-2"  # a taken key: a fresh one instead
    m = saved(doc)
    assert {"terrain-1", "terrain-2"} <= set(m.terrain_types) and m.terrain_types["terrain-1"].symbol == "a"
    assert m.features["feature-1"].hexes == frozenset() and m.hexsides["hexside-1"].sides == frozenset()
    assert m.regions["region-1"].hexes == {h(doc, "0303")}
    assert doc.paint(h(doc, "0101"), "terrain-1") and saved(doc).terrain[h(doc, "0101")] == "terrain-1"


def test_moving_a_unit_of_a_shipped_scenario_changes_its_line_only(tmp_path: Path) -> None:
    """Item 1: the scenario document writes the table's pieces back in place: a unit
    moved changes its own entry's hex, every other line (comments too) stays."""
    from tabletop.engine.scenario import load_scenario
    from tabletop.engine.scenario_document import ScenarioDocument

    path = tmp_path / "demo.yaml"
    shutil.copy(resolve("dogfaces-demo", "scenarios"), path)
    original = path.read_text(encoding="utf-8")
    doc = ScenarioDocument.open(path)
    state = doc.scenario.state()
    brett = state.piece("brett")
    state.move("brett", doc.scenario.board.hex_of("1015"))
    state.remove("dave")
    assert doc.sync_pieces(state)
    doc.save()
    text = path.read_text(encoding="utf-8")
    before, after = original.splitlines(), text.splitlines()
    assert [x for x in before if x not in after] == [
        line for line in before if "id: brett" in line or "id: dave" in line
    ]
    assert [x for x in after if x not in before] == [
        '  - {id: brett, type: brett, side: blue, hex: "1015"}'
    ]
    moved = load_scenario(path)
    assert {p.id for p in moved.pieces} == {p.id for p in state.pieces()}
    assert moved.board.label(next(p for p in moved.pieces if p.id == "brett").hex) == "1015" != moved.board.label(brett.hex)
