"""The command-line contracts of DESIGN.md: `map --json`, `map new`, `validate`, `play`."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SHIPPED_MAPS

from tabletop.cli import main
from tabletop.hexgrid import Hex, neighbors

EXPECTED_MAPS = {"dog-sector", "belleau-wood", "omaha", "dogfaces", "dogs-of-war"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_one_map_ships_for_each_rule_system() -> None:
    assert {p.stem for p in SHIPPED_MAPS} >= EXPECTED_MAPS


@pytest.mark.parametrize("path", SHIPPED_MAPS, ids=lambda p: p.stem)
def test_map_json_gives_geometry_a_third_party_can_check(
    capsys: pytest.CaptureFixture[str], path: Path
) -> None:
    code, out, _ = run(capsys, "map", path.stem, "--json")
    assert code == 0
    data = json.loads(out)
    hexes = data["hexes"]
    assert len(hexes) == data["columns"] * data["rows"]
    labels = [h["label"] for h in hexes]
    assert len(set(labels)) == len(labels)
    digits = data["labels"]["digits"]
    by_axial = {(h["q"], h["r"]): h for h in hexes}
    for h in hexes:
        # the label is the printed column then row of this hex's offset position
        assert (
            h["label"]
            == f"{h['col'] + data['labels']['first_column']:0{digits}d}{h['row'] + data['labels']['first_row']:0{digits}d}"
        )
        assert h["terrain"] in data["terrain_types"]
        for n in neighbors(Hex(h["q"], h["r"])):
            other = by_axial.get((n.q, n.r))
            if other is not None:
                assert math.dist((h["x"], h["y"]), (other["x"], other["y"])) == pytest.approx(math.sqrt(3))
    # offset columns: the same column shares x (flat) or the same row shares y (pointy)
    axis = "x" if data["orientation"] == "flat" else "y"
    line = "col" if data["orientation"] == "flat" else "row"
    count = data["columns"] if line == "col" else data["rows"]
    assert len({(h[line], round(h[axis], 6)) for h in hexes}) == count
    for region in data["regions"].values():
        assert set(region["hexes"]) <= set(labels)


def test_map_summary_names_the_grid_and_terrain(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "m.yaml"
    assert run(capsys, "map", "new", "--columns", "6", "--rows", "4", "--out", str(out_file))[0] == 0
    code, out, _ = run(capsys, "map", str(out_file))
    assert code == 0
    assert "6 columns x 4 rows, flat-top, odd-q, labels 0101-0604" in out
    assert "open 24" in out


def test_map_new_writes_a_loadable_map_and_never_overwrites_silently(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "big.yaml"
    code, out, _ = run(
        capsys,
        "map",
        "new",
        "--columns",
        "120",
        "--rows",
        "80",
        "--orientation",
        "pointy",
        "--out",
        str(out_file),
    )
    assert code == 0 and "120 x 80 pointy-top" in out
    code, out, _ = run(capsys, "map", str(out_file), "--json")
    data = json.loads(out)
    assert (
        data["labels"]["digits"] == 3 and data["offset"] == "odd-r" and data["hexes"][-1]["label"] == "120080"
    )
    before = out_file.read_text()
    code, _, err = run(capsys, "map", "new", "--columns", "3", "--rows", "3", "--out", str(out_file))
    assert code == 2 and "already exists" in err and out_file.read_text() == before


def test_map_new_refuses_a_bad_size(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as info:
        main(["map", "new", "--columns", "0", "--rows", "3", "--out", str(tmp_path / "x.yaml")])
    assert info.value.code == 2
    assert "out of range" in capsys.readouterr().err


def test_a_corrupted_map_gets_one_line_per_problem_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.yaml"
    main(["map", "new", "--columns", "4", "--rows", "2", "--out", str(bad)])
    capsys.readouterr()
    bad.write_text(bad.read_text().replace(". . . .", ". . Q .", 1))
    code, out, err = run(capsys, "validate", str(bad))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{bad}:") and "unknown terrain symbol 'Q'" in lines[0]
    code, _, err = run(capsys, "map", str(bad), "--json")
    assert code == 2 and err.count("\n") == 1


def test_validate_checks_folders_and_reports_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    main(["map", "new", "--columns", "4", "--rows", "2", "--out", str(tmp_path / "a.yaml")])
    (tmp_path / "b.yaml").write_text("name: x\ngrid:\n\tcolumns: 3\n")
    capsys.readouterr()
    code, out, _ = run(capsys, "validate", str(tmp_path), "--json")
    report = {Path(r["path"]).name: r for r in json.loads(out)}
    assert code == 2
    assert report["a.yaml"]["ok"] and not report["b.yaml"]["ok"]
    assert report["b.yaml"]["errors"][0]["line"] == 3


def test_validate_accepts_every_shipped_map(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "validate", *map(str, SHIPPED_MAPS))
    assert code == 0, err
    assert out.count("ok  ") == len(SHIPPED_MAPS)


def test_play_opens_the_table_on_the_default_scenario_and_closes_after_the_frames_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "play", "--frames", "3", "--size", "640x480")
    assert code == 0 and "Dog sector" in out and "F1" in out


def test_unknown_map_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "map", "nowhere")
    assert code == 2 and err.count("\n") == 1 and "shipped maps:" in err


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["map", "--help"], ["map", "new", "--help"], ["validate", "--help"], ["play", "--help"]],
)
def test_every_subcommand_has_help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 0
    assert "usage:" in capsys.readouterr().out


def test_python_dash_m_runs_the_same_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "map", "dog-sector"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "grid:" in done.stdout
