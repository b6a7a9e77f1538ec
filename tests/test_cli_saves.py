"""`tabletop los/viewshed/reach/render` take a saved game as well as a map or scenario
(issue 13, "Saves as players expect"): a position reached in play can be checked from
the command line, judged exactly as the window judges it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.engine import savefile
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import load_scenario
from tabletop.games import bot, ruleset
from tabletop.shipped import resolve


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A DOG SECTOR game some way in, saved: the Americans have landed and moved."""
    game = new_game(load_scenario(resolve("dog-sector", "scenarios")), ruleset("dog_sector"), seed=5)  # type: ignore[arg-type]
    auto_setup(game)
    game.run({"american": bot("dog_sector", "american")}, limit=120)
    path = tmp_path_factory.mktemp("saves") / "game.json"
    savefile.write_save(path, game, "dog-sector")
    where = {p.id: game.state.board.label(p.hex) for p in game.state.map.pieces() if p.kind == "unit"}
    return path, where


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(list(args)) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_los_from_a_save_judges_the_position_the_game_reached(saved, capsys) -> None:
    path, where = saved
    american = next(i for i in where if i.startswith("A-"))  # landed: at the start all wait at sea
    german = next(i for i in where if i.startswith("G-"))
    out = run_json(capsys, "los", str(path), american, german, "--json")
    assert out["from"] == where[american] and out["to"] == where[german]
    assert main(["los", "dog-sector", american, german]) == 2  # not on the map at the start
    capsys.readouterr()
    # the same line asked by hex labels on the scenario gives the same verdict of sight
    plain = run_json(capsys, "los", "dog-sector", where[american], where[german], "--json")
    assert plain["crossed"] == out["crossed"]


def test_reach_and_viewshed_from_a_save_start_where_the_unit_stands(saved, capsys) -> None:
    path, where = saved
    american = next(i for i in where if i.startswith("A-"))
    out = run_json(capsys, "reach", str(path), american, "--json")
    assert out["from"] == where[american]
    seen = run_json(capsys, "viewshed", str(path), american, "--json")
    assert seen["from"] == where[american]


def test_render_a_save(saved, tmp_path, capsys) -> None:
    path, _ = saved
    out = tmp_path / "x.png"
    assert main(["render", str(path), "--out", str(out), "--size", "320x200"]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")


def test_a_damaged_save_is_one_line_and_exit_2(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "tabletop-save"}')
    assert main(["los", str(bad), "0101", "0202"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err
