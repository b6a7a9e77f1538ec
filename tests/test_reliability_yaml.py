"""Bad YAML data files get one clean `file:line: problem; fix` line, never a traceback or a
hang (findings T1 and H6 of the reliability test, issue 11).

Every case is the base data set (tests/data/base: a map, a scenario and a counter
sheet, appendix A of the findings) with one change, read the way each command reads it.
Maps and counter sheets go through their loaders; scenarios only through ``read_data``
(their own checks belong to tabletop/engine/scenario.py). A few cases run the real CLI.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tabletop import limits
from tabletop.board.loader import load_map
from tabletop.cli import main
from tabletop.engine.counters import load_counters
from tabletop.yamlfile import DataError, DataErrors, parse_yaml, read_data

BASE = Path(__file__).resolve().parent / "data" / "base"
FILES = {"map": "maps/small.yaml", "scenario": "scenarios/battle.yaml", "counters": "counters/mine.yaml"}
KINDS = tuple(FILES)


@pytest.fixture
def case(tmp_path: Path) -> Path:
    """A scratch copy of the base data set."""
    shutil.copytree(BASE, tmp_path, dirs_exist_ok=True)
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def append(path: Path, text: str) -> int:
    """Append ``text`` to the file; the line number it starts on."""
    old = path.read_text(encoding="utf-8")
    path.write_text(old + text, encoding="utf-8")
    return old.count("\n") + 1


def errors_of(kind: str, path: Path) -> list[DataError]:
    """The problems the reader of ``kind`` finds in ``path`` (none: it loaded)."""
    try:
        if kind == "map":
            load_map(path)
        elif kind == "counters":
            load_counters(path)
        else:
            read_data(path)
    except DataErrors as exc:
        return exc.errors
    return []


def one_error(kind: str, path: Path) -> DataError:
    errors = errors_of(kind, path)
    assert len(errors) == 1, [str(e) for e in errors]
    assert errors[0].path == str(path)
    return errors[0]


# --- parse_yaml: depth, characters, aliases, size, in every file kind --------------------

DEEP = "values nested more than 64 levels deep"


def flow(levels: int) -> str:
    return "[" * levels + "]" * levels


def block_mapping(levels: int) -> str:
    return (
        "deep:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(levels)) + " " * (levels + 1) + "v: 1\n"
    )


def laughs(levels: int, indent: str = "") -> str:
    """A billion laughs: each level 9 aliases of the one before (9**levels strings)."""
    lines = [f'{indent}l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        lines.append(f"{indent}l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


# name, text appended to the file, line offset (from where it starts) of the refusal, message
APPENDED = [
    ("flow-2000", f"deep: {flow(2000)}\n", 0, DEEP),
    ("flow-50000", f"deep: {flow(50000)}\n", 0, DEEP),
    ("mapping-900", "deep: " + "{a: " * 900 + "1" + "}" * 900 + "\n", 0, DEEP),
    ("block-mapping-3000", block_mapping(3000), limits.YAML_DEPTH, DEEP),
    ("billion-laughs", "laughs:\n" + laughs(10, "  "), 7, "aliases expand to more than 1000000 values"),
    (
        "alias-nests-too-deep",
        "a: &a " + flow(40) + "\nb: " + "[" * 30 + "*a" + "]" * 30 + "\n",
        1,
        "with alias *a expanded, values nest more than 64",
    ),
    ("recursive-alias", "a: &a [1, *a]\n", 0, "alias *a is used inside &a itself"),
    ("python-tag", "x: !!python/object/apply:os.system [true]\n", 0, "tags are not allowed"),
    ("binary-tag", "x: !!binary aGk=\n", 0, "!!binary is a YAML tag"),
    ("set-tag", "x: !!set {a, b}\n", 0, "!!set is a YAML tag"),
    ("huge-number", "x: " + "9" * 5000 + "\n", 0, "numbers in data files have at most 100"),
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("name", "text", "offset", "message"), APPENDED, ids=[a[0] for a in APPENDED])
def test_finding_t1_h6_bad_yaml_anywhere_is_one_error_at_its_line(
    case: Path, kind: str, name: str, text: str, offset: int, message: str
) -> None:
    """Findings T1 (nesting: RecursionError) and H6 (billion laughs), in every file kind."""
    path = case / FILES[kind]
    start = append(path, text)
    error = one_error(kind, path)
    assert error.line == start + offset
    assert message in error.message


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("opening", ["[", "{a: "])
def test_finding_t1_a_file_of_100000_openings_is_refused_at_line_1(
    case: Path, kind: str, opening: str
) -> None:
    """Finding T1: a file that is only 100000 `[` (or `{a: `) and closers is a clean error."""
    path = case / FILES[kind]
    path.write_text(opening * 100000 + "]" * 100000, encoding="utf-8")
    error = one_error(kind, path)
    assert (error.line, error.message.startswith(DEEP)) == (1, True)


def test_finding_t1_properties_nested_2000_deep_in_the_map_is_refused_at_its_line(case: Path) -> None:
    """Finding T1: `deep: [[[…]]]` inside `woods.properties`, as the test found it."""
    path = case / FILES["map"]
    edit(path, "{los: block}", "{los: block, deep: " + flow(2000) + "}")
    error = one_error("map", path)
    assert (error.line, DEEP in error.message) == (9, True)


def test_nesting_up_to_the_limit_is_read_and_one_more_level_is_not() -> None:
    """The bound is YAML_DEPTH collections exactly (finding T1)."""
    assert parse_yaml(flow(limits.YAML_DEPTH), "x.yaml") is not None
    with pytest.raises(DataError, match=DEEP):
        parse_yaml(flow(limits.YAML_DEPTH + 1), "x.yaml")


def test_aliases_below_the_bound_are_read_shared() -> None:
    """Finding H6: six levels of laughs (597871 values) are within YAML_NODES and load."""
    data = parse_yaml(laughs(6), "x.yaml")
    assert data["l5"][0] is data["l4"]


# name, the change in the file's `name:` line, the line, the message
NAMES = [
    ("nul", "Small\0test", "character U+0000 is not allowed in a data file; remove it"),
    ("bel-esc", "Small\x07\x1btest", "character U+0007 is not allowed in a data file; remove it"),
    ("del", "Small\x7ftest", "character U+007F is not allowed"),
    ("escaped-nul", '"Small\\0test"', "character U+0000 is not allowed"),
    ("escaped-esc", '"Small\\etest"', "character U+001B is not allowed"),
    ("lone-surrogate", '"Small \\ud800 test"', "\\ud800 is half of a UTF-16 surrogate pair"),
    ("surrogate-pair", '"Small \\ud83d\\ude00 test"', "\\ud83d is half of a UTF-16 surrogate pair"),
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("name", "value", "message"), NAMES, ids=[n[0] for n in NAMES])
def test_finding_t1_control_characters_and_lone_surrogates_are_refused_at_their_line(
    case: Path, kind: str, name: str, value: str, message: str
) -> None:
    """Finding T1: a NUL, BEL or ESC (raw or escaped) and a lone surrogate escape in
    `name:` were a ReaderError or a UnicodeEncodeError traceback; now line 1 says why."""
    path = case / FILES[kind]
    text = path.read_text(encoding="utf-8")
    old = text.splitlines()[0]
    edit(path, old, "name: " + value)
    error = one_error(kind, path)
    assert (error.line, message in error.message) == (1, True), error


def test_finding_t1_a_control_character_is_placed_on_its_own_line(case: Path) -> None:
    """The line of an unprintable character is counted from its position in the text."""
    path = case / FILES["map"]
    edit(path, "water: {symbol:", "water: {name: Wa\x07ter, symbol:")
    assert one_error("map", path).line == 10


@pytest.mark.parametrize("kind", KINDS)
def test_a_file_over_yaml_bytes_is_refused_before_it_is_parsed(case: Path, kind: str) -> None:
    """A file past limits.YAML_BYTES (here: a long comment) is refused at the line
    where it passes the bound, after reading no more than the bound."""
    path = case / FILES[kind]
    start = append(path, "# " + "x" * limits.YAML_BYTES + "\n")
    error = one_error(kind, path)
    assert error.line == start
    assert "limits.YAML_BYTES" in error.message


def test_a_text_over_yaml_bytes_is_refused_by_parse_yaml_too() -> None:
    with pytest.raises(DataError, match=r"limits\.YAML_BYTES"):
        parse_yaml("# " + "é" * (limits.YAML_BYTES // 2), "x.yaml")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("when: 2001-12-14t21:59:43.10-05:00", "2001-12-14t21:59:43.10-05:00"),
        ("when: 2001-12-14", "2001-12-14"),
        ("when: .inf", ".inf"),
        ("when: .nan", ".nan"),
        ("when: 1.0e+999", "1.0e+999"),
        ("when: =", "="),
    ],
)
def test_finding_t1_values_json_cannot_hold_are_read_as_text(text: str, value: str) -> None:
    """Finding T1: a timestamp became a datetime and `map --json` crashed; dates and
    non-finite numbers are read as the text written."""
    assert parse_yaml(text, "x.yaml") == {"when": value}


# --- the map and counters loaders: every key's type ------------------------------------

MAP_CHANGES = [
    ("default-terrain-list", "default_terrain: grass", "default_terrain: [grass]", 11, "got ['grass']"),
    ("default-terrain-mapping", "default_terrain: grass", "default_terrain: {a: 1}", 11, "got {'a': 1}"),
    ("default-terrain-number", "default_terrain: grass", "default_terrain: 5", 11, "got 5"),
    ("hex-terrain-list", '"0504": woods', '"0504": [woods]', 18, "got ['woods']"),
    ("hex-terrain-mapping", '"0504": woods', '"0504": {woods: 1}', 18, "got {'woods': 1}"),
    ("empty-region", "north-edge: {kind: setup, rows: [1, 1]}", "north-edge: {kind: setup, hexes: []}", 27,
     "region 'north-edge' has no hexes; give it hexes or remove it"),
    ("name-with-tab", "name: Small test map", 'name: "Small\\tmap"', 1, "control character U+0009"),
    ("name-with-newline", "name: Small test map", 'name: "Small\\nmap"', 1, "control character U+000A"),
    ("name-too-long", "name: Small test map", "name: " + "m" * 256, 1, "limits.NAME_CHARS"),
    ("region-name-with-nel", "north-edge: {kind: setup,", 'north-edge: {name: "N\\Ne", kind: setup,', 27,
     "control character U+0085"),
    ("terrain-name-list", 'water: {symbol: "~"', 'water: {name: [a], symbol: "~"', 10, "must be text"),
    ("feature-properties-list", 'road: {colour: "#8a6d3b"', 'road: {properties: [a], colour: "#8a6d3b"', 23,
     "`properties` of features 'road' must be a mapping"),
    ("hexside-properties-text", 'wall: {colour: "#6b4226"', 'wall: {properties: x, colour: "#6b4226"', 25,
     "`properties` of hexsides 'wall' must be a mapping"),
    ("elevation-huge", 'hexes: {"0101": 1}', 'hexes: {"0101": 100000}', 21, "-99 to 99"),
    ("elevation-text", 'hexes: {"0101": 1}', 'hexes: {"0101": high}', 21, "-99 to 99"),
    ("superscript-label", '"0504": woods', '"05²4": woods', 18, "is not 4 digits"),
    ("label-list", '"0504": woods', "[0504]: woods", 18, "a mapping key must be plain text"),
    ("line-of-sight-marker-number", "regions:", "line_of_sight: {markers: {5: block}}\nregions:", 26,
     "line_of_sight markers must map marker types"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "old", "new", "line", "message"), MAP_CHANGES, ids=[c[0] for c in MAP_CHANGES]
)
def test_finding_t1_a_wrong_type_in_a_map_is_one_error_at_its_line(
    case: Path, name: str, old: str, new: str, line: int, message: str
) -> None:
    """Finding T1: `default_terrain: [grass]` and `hexes: {"0504": [woods]}` were
    `TypeError: unhashable type`, an empty region an AxisError in render and play."""
    path = case / FILES["map"]
    edit(path, old, new)
    error = one_error("map", path)
    assert (error.line, message in error.message) == (line, True), str(error)


COUNTER_CHANGES = [
    ("unit-type-number-key", "  zack: {name: Zack", "  5: {name: Zack", 8, "unit type key 5 must be a word"),
    ("unit-type-null-key", "  zack: {name: Zack", "  ~: {name: Zack", 8, "unit type key None must be a word"),
    ("sheet-side-number", "  red: {zack: 2}", "  5: {zack: 2}", 14, "sheet side 5 must be a word"),
    ("sheet-count-list", "  red: {zack: 2}", "  red: {zack: [2]}", 14, "must be a whole number 0 to 999"),
    ("label-with-tab", "label: JET}", 'label: "J\\tT"}', 7, "control character U+0009"),
    ("side-name-list", "blue: {name: Blue,", "blue: {name: [Blue],", 4, "must be text"),
    (
        "symbol-list",
        "symbol: soldier",
        "symbol: [soldier]",
        7,
        "`symbol` in unit type 'larry' is ['soldier']",
    ),
    ("marker-text-mapping", "text: STUN}", "text: {a: 1}}", 10, "must be text"),
    ("area-text", "area: true}", "area: yes please}", 11, "must be true or false"),
]


@pytest.mark.parametrize(
    ("name", "old", "new", "line", "message"), COUNTER_CHANGES, ids=[c[0] for c in COUNTER_CHANGES]
)
def test_a_wrong_type_in_a_counter_sheet_is_an_error_at_its_line(
    case: Path, name: str, old: str, new: str, line: int, message: str
) -> None:
    """Finding T1 (wrong types in a counters file); a non-text unit type key crashed the
    sheet's suggestion (`sorted` of mixed keys)."""
    path = case / FILES["counters"]
    edit(path, old, new)
    errors = errors_of("counters", path)
    assert any(e.line == line and message in e.message for e in errors), [str(e) for e in errors]
    assert all(e.path == str(path) and e.line for e in errors)


# --- the real CLI ----------------------------------------------------------------------


def _deep(case: Path) -> None:
    edit(case / FILES["map"], "{los: block}", "{los: block, deep: " + flow(50000) + "}")


def _nul(case: Path) -> None:
    edit(case / FILES["map"], "name: Small test map", "name: Small\0map")


def _laughs(case: Path) -> None:
    edit(
        case / FILES["map"],
        '  woods: {symbol: "W", colour: "#2e6b2e", properties: {los: block}}',
        '  woods:\n    symbol: "W"\n    colour: "#2e6b2e"\n    properties:\n      los: block\n'
        + laughs(10, "      "),
    )


def _empty_region(case: Path) -> None:
    edit(case / FILES["map"], "rows: [1, 1]}", "hexes: []}")


def _surrogate(case: Path) -> None:
    edit(case / FILES["map"], "name: Small test map", 'name: "Small \\ud800 map"')


CLI_CASES: list[tuple[str, Callable[[Path], None], int]] = [
    ("deep-nesting", _deep, 9),
    ("nul", _nul, 1),
    ("billion-laughs", _laughs, 20),
    ("empty-region", _empty_region, 27),
    ("lone-surrogate", _surrogate, 1),
]
COMMANDS = {
    "validate": ["validate", "{map}"],
    "map-json": ["map", "{map}", "--json"],
    "los": ["los", "{map}", "0101", "0604"],
    "render": ["render", "{map}", "--size", "400x300", "--out", "{out}"],
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(("name", "change", "line"), CLI_CASES, ids=[c[0] for c in CLI_CASES])
def test_finding_t1_h6_the_cli_refuses_with_one_line_and_exit_2(
    case: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    name: str,
    change: Callable[[Path], None],
    line: int,
) -> None:
    """Findings T1 and H6 through `tabletop validate`, `map --json` (which streamed 21 GB
    of laughs), `los` and `render`: exit 2, one `file:line:` line, nothing written."""
    change(case)
    path = case / FILES["map"]
    out = case / "out.png"
    argv = [a.format(map=path, out=out) for a in COMMANDS[command]]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert [ln for ln in captured.out.splitlines() if not ln.startswith("pygame-ce ")] == []
    lines = captured.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err
    assert lines[0].startswith(f"{path}:{line}: ")
    assert not out.exists()


def test_finding_t1_a_timestamp_in_properties_leaves_map_json_working(
    case: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding T1: `map --json` crashed on a datetime; the timestamp is kept as text."""
    path = case / FILES["map"]
    edit(path, "{los: block}", "{los: block, when: 2001-12-14t21:59:43.10-05:00}")
    assert main(["validate", str(path)]) == 0
    capsys.readouterr()
    assert main(["map", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["terrain_types"]["woods"]["properties"] == {
        "los": "block",
        "when": "2001-12-14t21:59:43.10-05:00",
    }


def test_finding_t1_validating_a_folder_reports_every_file(
    case: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding T1 (4-cli): `validate <folder>` stopped at the first RecursionError."""
    _deep(case)
    edit(case / FILES["counters"], "name: Mine", "name: Mi\0ne")
    assert main(["validate", str(case)]) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    bad = [ln for ln in captured.err.splitlines() if re.match(r".*\.yaml:\d+: ", ln)]
    assert any(ln.startswith(f"{case / FILES['map']}:9: ") for ln in bad)
    assert any(ln.startswith(f"{case / FILES['counters']}:1: ") for ln in bad)
    assert "0 of 3 files valid" in captured.err


def test_the_base_data_set_is_valid(capsys: pytest.CaptureFixture[str]) -> None:
    """The cases above each change one thing in a data set that is itself good."""
    assert main(["validate", str(BASE)]) == 0
    assert "3 of 3 files valid" in capsys.readouterr().out


# --- every message stays one readable line (fuzz finding F17) ---------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("offset: odd-q", "offset: " + "a" * 5000),
        ("name: Small test map", "name: Small test map\nnotes: [" + "word, " * 900 + "end]"),
    ],
    ids=["long-text", "list-as-notes"],
)
def test_an_echoed_value_is_cut_so_the_line_stays_readable(
    case: Path, capsys: pytest.CaptureFixture[str], old: str, new: str
) -> None:
    """Fuzz finding F17: "must be ..., got X" echoed the whole bad value (5000 characters on
    one line). The message keeps its start (file, line, what is wrong) and its end (how
    to fix it) and cuts the middle past limits.MESSAGE_CHARS."""
    path = case / FILES["map"]
    edit(path, old, new)
    code = main(["validate", str(path)])
    err = capsys.readouterr().err
    assert code == 2
    for line in err.splitlines():
        assert line.startswith(f"{path}:") and re.match(rf"{re.escape(str(path))}:\d+: ", line), line
        assert len(line) <= len(str(path)) + 8 + limits.MESSAGE_CHARS, line
    assert "the middle cut" in err


def test_one_line_escapes_breaks_and_keeps_both_ends() -> None:
    """A message is one line: a line break in a value is shown escaped, and a long one keeps
    its start and its end (fuzz findings F16, F17)."""
    from tabletop.yamlfile import one_line

    assert one_line("a\nb") == "a\\nb"
    long = "start " + "x" * 5000 + " end"
    cut = one_line(long)
    assert len(cut) <= limits.MESSAGE_CHARS
    assert cut.startswith("start ") and cut.endswith(" end") and "the middle cut" in cut


def test_a_data_file_that_is_a_pipe_is_refused_without_waiting(tmp_path: Path) -> None:
    """Findings M2/T1: a FIFO named as a data file blocked the reader until a writer came;
    every input is read through inputfile.read_bounded, which refuses it unopened."""
    import os

    fifo = tmp_path / "map.yaml"
    os.mkfifo(fifo)
    with pytest.raises(DataErrors) as caught:
        read_data(fifo)
    (error,) = caught.value.errors
    assert error.path == str(fifo) and "a FIFO (named pipe), not a file" in error.message
