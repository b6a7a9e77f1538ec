"""`tabletop los` and `tabletop viewshed` as DESIGN.md's contracts, and scenario files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.engine.scenario import load_scenario
from tabletop.yamlfile import DataErrors

MAP = """\
name: LOS ground
grid: {columns: 6, rows: 5}
terrain:
  open: {symbol: ".", colour: "#aaaaaa"}
  woods: {symbol: "W", colour: "#00aa00", properties: {los: block}}
rows: |
  . . . . . .
  . . . . . .
  . . W . . .
  . . . . . .
  . . . . . .
"""
SCENARIO = """\
name: Patrol
map: ground
units:
  - {id: A1, type: infantry, side: blue, hex: "0103"}
  - {id: B1, type: infantry, side: red, hex: "0503"}
  - {id: B2, type: infantry, side: red, hex: "0101"}
markers:
  - {type: smoke, hex: "0102"}
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "maps").mkdir()
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "maps" / "ground.yaml").write_text(MAP)
    (tmp_path / "scenarios" / "patrol.yaml").write_text(SCENARIO)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_los_json_has_the_contract_fields(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    code, out, _ = run(capsys, "los", str(folder / "maps" / "ground.yaml"), "0103", "0503", "--json")
    data = json.loads(out)
    assert code == 0
    assert {"from", "to", "range", "result", "crossed", "grazed", "blocking", "hindrances"} <= set(data)
    assert (data["from"], data["to"], data["range"], data["result"]) == ("0103", "0503", 4, "blocked")
    assert data["crossed"][0] == "0103" and data["crossed"][-1] == "0503"
    assert (
        data["blocking"][0]["hex"] == "0303"
        and data["blocking"][0]["cause"] == "woods"
        and data["blocking"][0]["rule"]
    )


def test_los_takes_unit_ids_from_a_scenario_and_reads_its_markers(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> None:
    scenario = str(folder / "scenarios" / "patrol.yaml")
    code, out, _ = run(capsys, "los", scenario, "A1", "B1", "--json")
    assert code == 0 and json.loads(out)["result"] == "blocked"
    code, out, _ = run(capsys, "los", scenario, "B2", "0105")
    assert code == 0 and "HINDERED" in out and "smoke" in out


def test_los_pairs_answers_one_json_object_a_line(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    pairs = folder / "pairs.txt"
    pairs.write_text("# from to\nA1 B1\n0101 0106\n\n0201 0601  # along the top\n".replace("0106", "0105"))
    code, out, _ = run(
        capsys, "los", str(folder / "scenarios" / "patrol.yaml"), "--pairs", str(pairs), "--json"
    )
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [a["to"] for a in answers] == ["0503", "0105", "0601"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["0103", "0999"], "not on the map"),
        (["0103", "Z9"], "no unit 'Z9' here"),
        (["A1", "nobody"], "(units: A1, B1, B2)"),
    ],
)
def test_bad_hexes_and_unit_ids_get_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], folder: Path, args: list[str], message: str
) -> None:
    code, out, err = run(capsys, "los", str(folder / "scenarios" / "patrol.yaml"), *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


def test_a_bad_pairs_line_is_named_and_nothing_is_answered(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> None:
    pairs = folder / "pairs.txt"
    pairs.write_text("A1 B1\n0101 4444\n")
    code, out, err = run(capsys, "los", str(folder / "scenarios" / "patrol.yaml"), "--pairs", str(pairs))
    assert code == 2 and out == "" and err.startswith(f"{pairs}:2: ")


def test_viewshed_lists_the_visible_labels(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    code, out, _ = run(capsys, "viewshed", str(folder / "maps" / "ground.yaml"), "0103", "--json")
    data = json.loads(out)
    assert code == 0 and data["from"] == "0103"
    assert "0103" in data["visible"] and "0503" not in data["visible"] and "0102" in data["visible"]


def test_map_json_of_a_scenario_lists_its_units(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    code, out, _ = run(capsys, "map", str(folder / "scenarios" / "patrol.yaml"), "--json")
    units = json.loads(out)["units"]
    assert code == 0 and {"id": "A1", "type": "infantry", "side": "blue", "hex": "0103"} in units


def test_a_scenario_may_only_name_its_map_by_bare_name(folder: Path) -> None:
    bad = folder / "scenarios" / "escape.yaml"
    bad.write_text(SCENARIO.replace("map: ground", "map: ../../etc/passwd"))
    with pytest.raises(DataErrors, match="bare map name"):
        load_scenario(bad)


def test_scenario_errors_name_the_line(folder: Path) -> None:
    bad = folder / "scenarios" / "bad.yaml"
    bad.write_text(SCENARIO.replace('hex: "0503"', 'hex: "0909"').replace("id: B2", "id: A1"))
    with pytest.raises(DataErrors) as info:
        load_scenario(bad)
    text = str(info.value)
    assert f"{bad}:5: unit B1: hex 0909 is not on the map" in text
    assert f"{bad}:6: id 'A1' is used twice (first at line 4)" in text


def test_validate_checks_scenarios_too(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    code, out, _ = run(capsys, "validate", str(folder))
    assert code == 0 and "scenario: Patrol" in out and "map: LOS ground" in out
