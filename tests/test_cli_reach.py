"""`tabletop reach` as DESIGN.md's contract: reachable hexes with costs, and stops."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.cli import main

MAP = """\
name: Move ground
grid: {columns: 6, rows: 5}
terrain:
  open: {symbol: ".", colour: "#aaaaaa"}
  mud: {symbol: "m", colour: "#775533", properties: {move_cost: 2}}
  lake: {symbol: "~", colour: "#3355aa", properties: {move_cost: impassable}}
rows: |
  . . . . . .
  . m . . . .
  . . ~ . . .
  . . . . . .
  . . . . . .
"""
SCENARIO = """\
name: March
map: ground
units:
  - {id: A1, type: infantry, side: blue, hex: "0103"}
"""


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    (tmp_path / "ground.yaml").write_text(MAP)
    (tmp_path / "march.yaml").write_text(SCENARIO)
    return tmp_path / "march.yaml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_reach_json_lists_costs_and_stops(capsys: pytest.CaptureFixture[str], scenario: Path) -> None:
    code, out, _ = run(capsys, "reach", str(scenario), "A1", "--budget", "2", "--json")
    data = json.loads(out)
    assert code == 0 and {"unit", "from", "reachable", "stops"} <= set(data)
    assert (data["unit"], data["from"]) == ("A1", "0103")
    assert data["reachable"]["0103"] == 0 and data["reachable"]["0202"] == 2  # entering mud costs 2
    assert "0303" not in data["reachable"]  # the lake is impassable
    assert data["stops"] == []


def test_reach_prints_the_path_to_a_hex(capsys: pytest.CaptureFixture[str], scenario: Path) -> None:
    code, out, _ = run(capsys, "reach", str(scenario), "A1", "--budget", "3", "--to", "0403", "--json")
    path = json.loads(out)["path"]
    assert code == 0 and path[0] == "0103" and path[-1] == "0403" and "0303" not in path


def test_an_unknown_unit_is_a_one_line_error(capsys: pytest.CaptureFixture[str], scenario: Path) -> None:
    code, out, err = run(capsys, "reach", str(scenario), "Z9")
    assert code == 2 and out == "" and err.count("\n") == 1 and "(units: A1)" in err


def test_a_destination_out_of_reach_is_refused(capsys: pytest.CaptureFixture[str], scenario: Path) -> None:
    code, _, err = run(capsys, "reach", str(scenario), "A1", "--budget", "1", "--to", "0603")
    assert code == 2 and "cannot end its move there" in err


def test_an_order_the_rule_system_refuses_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "skirmish.yaml").write_text(
        'name: Skirmish\nmap: dogs-of-war\nunits:\n  - {id: A1, type: rifleman, side: blue, hex: "2424"}\n'
    )
    code, out, err = run(capsys, "reach", str(tmp_path / "skirmish.yaml"), "A1", "--order", "sprint")
    assert code == 2 and out == "" and err.count("\n") == 1 and "sprint" in err


SHIPPED_SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", SHIPPED_SCENARIOS, ids=lambda p: p.stem)
def test_reach_and_los_work_for_every_unit_of_every_shipped_scenario(
    capsys: pytest.CaptureFixture[str], path: Path
) -> None:
    from tabletop.engine.scenario import load_scenario

    scenario = load_scenario(path)
    units = [p for p in scenario.pieces if p.kind == "unit"]
    if not units and scenario.reinforcements:
        pytest.skip("every unit of this scenario waits off the map (a landing schedule)")
    if not units and (getattr(scenario, "game", None) or {}).get("blue-roster"):
        pytest.skip("the rules deploy this scenario's rosters as the game begins (Dogs of War)")
    assert units
    for unit in units:
        code, out, err = run(capsys, "reach", path.stem, unit.id, "--json")
        assert code == 0, err
        data = json.loads(out)
        assert data["from"] == scenario.board.label(unit.hex) and data["reachable"][data["from"]] == 0
    code, out, err = run(capsys, "los", path.stem, units[0].id, units[-1].id, "--json")
    assert code == 0, err
    assert json.loads(out)["result"] in ("clear", "hindered", "blocked")
