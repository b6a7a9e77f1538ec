"""Map YAML loading: every problem named with file and line, nothing half-loaded, safe."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.board import build_map, load_map
from tabletop.board.blank import blank_map_yaml
from tabletop.hexgrid import Hex, hexside
from tabletop.yamlfile import DataErrors, parse_yaml

GOOD = """\
name: Test ground
rules: free
grid:
  orientation: flat
  offset: odd-q
  columns: 4
  rows: 3
terrain:
  open:  {symbol: ".", colour: "#c8d89a"}
  woods: {symbol: "W", colour: "#2e6b2e", name: Woods, properties: {blocks: true}}
rows: |
  . . W .
  . W W .
  . . . .
hexes:
  0401: woods
elevation:
  default: 1
  hexes: {"0103": 3}
features:
  road: {colour: "#8a6d3b", hexes: ["0101", "0201", 0301]}
hexsides:
  wall: {colour: "#555555", between: ["0102/0202", "0303/0302"]}
regions:
  west:
    kind: setup
    columns: [1, 2]
  exit-A:
    kind: exit
    name: Exit A
    hexes: ["0403"]
"""


def load_text(tmp_path: Path, text: str, name: str = "m.yaml"):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_map(path)


def errors_of(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(DataErrors) as info:
        load_text(tmp_path, text)
    return [str(e) for e in info.value.errors]


def test_a_good_map_loads_everything_it_declares(tmp_path: Path) -> None:
    m = load_text(tmp_path, GOOD)
    assert (m.name, m.rules, m.grid.columns, m.grid.rows) == ("Test ground", "free", 4, 3)
    assert m.terrain[m.hex_of("0301")] == "woods"
    assert m.terrain[m.hex_of("0401")] == "woods"  # override after rows
    assert m.terrain[m.hex_of("0101")] == "open"
    assert m.terrain_types["woods"].properties == {"blocks": True}
    assert m.terrain_types["open"].name == "open"
    assert m.elevation[m.hex_of("0103")] == 3 and m.elevation[m.hex_of("0101")] == 1
    assert m.features["road"].hexes == {m.hex_of(x) for x in ("0101", "0201", "0301")}
    assert m.hexside_features(m.hex_of("0202"), m.hex_of("0102")) == {"wall"}
    assert m.hexside_features(m.hex_of("0101"), m.hex_of("0102")) == frozenset()
    assert len(m.regions["west"].hexes) == 6 and m.regions["west"].kind == "setup"
    assert m.regions["exit-A"].name == "Exit A"
    assert [r.key for r in m.regions_of(m.hex_of("0403"))] == ["exit-A"]
    assert len(m.terrain) == len(m.elevation) == 12


def test_the_loaded_map_cannot_be_changed_by_accident(tmp_path: Path) -> None:
    m = load_text(tmp_path, GOOD)
    with pytest.raises(TypeError):
        m.terrain[Hex(0, 0)] = "woods"  # type: ignore[index]


@pytest.mark.parametrize(
    ("change", "line", "message"),
    [
        (("  . W W .", "  . W X ."), 13, "unknown terrain symbol 'X'"),
        (("  0401: woods", "  0401: wodos"), 16, "did you mean 'woods'"),
        (("  0401: woods", "  0501: woods"), 16, "hex 0501 is not on the map: columns run 01-04"),
        (("  . . . .\n", "  . . .\n"), 14, "has 3 entries but the grid has 4 columns"),
        (('"0102/0202"', '"0102/0302"'), 23, "are not adjacent"),
        (("  columns: 4", "  columns: four"), 6, "must be a whole number"),
        (('colour: "#8a6d3b"', "colour: #8a6d3b"), 21, "unquoted # starts a comment"),
        (
            ("    kind: setup", "    kind: setup\n    kind: zone"),
            27,
            "duplicate key 'kind' (first at line 26)",
        ),
        (("  offset: odd-q", "  offset: odd-r"), 5, "odd-q or even-q"),
        (("rules: free", "rulez: free"), 2, "did you mean 'rules'"),
        (("    columns: [1, 2]", "    columns: [1, 5]"), 27, "must be [from, to] with 1 <= from <= to <= 4"),
        (('{symbol: "W"', '{symbol: "."'), 10, "already used by 'open'"),
        (("  offset: odd-q", "\toffset: odd-q"), 5, "indented with a tab"),
    ],
)
def test_each_corruption_is_reported_with_file_line_and_fix(
    tmp_path: Path, change: tuple[str, str], line: int, message: str
) -> None:
    old, new = change
    assert old in GOOD
    errors = errors_of(tmp_path, GOOD.replace(old, new, 1))
    assert any(e.startswith(f"{tmp_path / 'm.yaml'}:{line}: ") and message in e for e in errors), errors


def test_every_problem_in_a_file_is_reported_in_one_pass(tmp_path: Path) -> None:
    text = GOOD.replace("  0401: woods", "  0401: wodos").replace("  . W W .", "  . W X .")
    assert len(errors_of(tmp_path, text)) == 2


def test_python_tags_are_refused_and_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = GOOD.replace("rules: free", f"rules: !!python/object/apply:os.system ['touch {marker}']")
    errors = errors_of(tmp_path, text)
    assert "tags are not allowed" in errors[0]
    assert not marker.exists()


def test_a_missing_or_unknown_map_names_the_shipped_ones() -> None:
    with pytest.raises(DataErrors, match="no such map file, nor a shipped map"):
        load_map("no-such-map")


def test_a_bare_name_cannot_climb_out_of_the_maps_folder() -> None:
    with pytest.raises(DataErrors):
        load_map("../pyproject")


def test_zero_padded_labels_stay_labels_not_octal_numbers() -> None:
    data = parse_yaml("a: 0504\nb: 0509\nc: 12\n", "x.yaml")
    assert data == {"a": "0504", "b": "0509", "c": 12}


def test_a_file_that_is_not_a_mapping_is_refused(tmp_path: Path) -> None:
    assert "must be a mapping" in errors_of(tmp_path, "- just\n- a list\n")[0]


def test_build_map_reports_missing_required_blocks(tmp_path: Path) -> None:
    with pytest.raises(DataErrors) as info:
        build_map(parse_yaml("name: x\n", tmp_path / "x.yaml"), tmp_path / "x.yaml")
    text = str(info.value)
    assert "needs a `grid:` block" in text and "needs a `terrain:` block" in text


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_a_blank_map_loads_as_open_ground(tmp_path: Path, orientation: str) -> None:
    m = load_text(tmp_path, blank_map_yaml(columns=7, rows=5, orientation=orientation))  # type: ignore[arg-type]
    assert m.grid.orientation == orientation
    assert set(m.terrain.values()) == {"open"} and len(m.terrain) == 35


def test_hexside_keys_do_not_depend_on_the_order_written(tmp_path: Path) -> None:
    m = load_text(tmp_path, GOOD)
    a, b = m.hex_of("0303"), m.hex_of("0302")
    assert hexside(a, b) in m.hexsides["wall"].sides


# --- background: a printed map's picture under the grid (issue 21 item 2) ----------------


def _png(path: Path, size: tuple[int, int] = (40, 30)) -> None:
    import pygame

    pygame.image.save(pygame.Surface(size), str(path))


def test_a_background_image_beside_the_map_is_read_with_its_alignment(tmp_path: Path) -> None:
    _png(tmp_path / "board.png")
    m = load_text(tmp_path, GOOD + "background: {image: board.png, origin: [12, 8.5], scale: 20}\n")
    assert m.background is not None and m.background.image == (tmp_path / "board.png").resolve()
    assert m.background.origin == (12.0, 8.5) and m.background.scale == (20.0, 20.0)
    assert m.background.pixel((1.5, 0.0), (0.0, 0.0)) == (42.0, 8.5)


@pytest.mark.parametrize(
    ("block", "says"),
    [
        ("{image: ../board.png, origin: [0, 0], scale: 1}", "outside the data file's folder"),
        ("{image: /etc/passwd, origin: [0, 0], scale: 1}", "outside the data file's folder"),
        ("{image: board.gif, origin: [0, 0], scale: 1}", "not a PNG or JPEG"),
        ("{image: missing.png, origin: [0, 0], scale: 1}", "'missing.png' not found in"),
        ("{image: board.png, origin: [0], scale: 1}", "`origin` must be [x, y]"),
        ("{image: board.png, origin: [0, 0], scale: [0, 1]}", "`scale` must be [x, y], numbers above 0"),
        ("{image: board.png, origin: [0, 0], scale: 1, zoom: 2}", "zoom"),
    ],
)
def test_a_bad_background_is_refused_with_its_line_and_the_fix(tmp_path: Path, block: str, says: str) -> None:
    """A map file never reads outside its folder (the project's standard); every problem
    names the line."""
    (tmp_path / "sub").mkdir()
    _png(tmp_path / "board.png")
    _png(tmp_path / "sub" / "board.png")
    path = tmp_path / "sub" / "m.yaml"
    path.write_text(GOOD + f"background: {block}\n", encoding="utf-8")
    with pytest.raises(DataErrors) as info:
        load_map(path)
    (error,) = [str(e) for e in info.value.errors]
    assert says in error and f"m.yaml:{GOOD.count(chr(10)) + 1}" in error
