"""The wheel carries the shipped data, so bare names work outside a checkout."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import REPO

hatchling = pytest.importorskip(
    "hatchling", reason="the test extra installs hatchling to build the wheel offline"
)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(REPO),
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
        ],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("tabletop-*.whl")
    return built


def test_the_wheel_holds_every_shipped_map_and_scenario_and_game_table(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    for kind in ("maps", "scenarios"):
        for path in sorted((REPO / kind).glob("*.yaml")):
            assert f"tabletop/_shipped/{kind}/{path.name}" in names
    for table in sorted((REPO / "tabletop" / "games").glob("*/*.yaml")):
        assert table.relative_to(REPO).as_posix() in names


def test_an_unpacked_wheel_finds_maps_by_bare_name_from_anywhere(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import tabletop.cli as c; "
        "assert tabletop.cli.__file__.startswith(sys.argv[1]), tabletop.cli.__file__; "
        "sys.exit(c.main(['map', 'dog-sector', '--json']))"
    ).replace("tabletop.cli.__file__", "c.__file__")
    done = subprocess.run(
        [sys.executable, "-c", code, str(site)], cwd=elsewhere, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["path"].startswith(str(site))
