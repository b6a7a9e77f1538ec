"""Starting games from scenarios: options, reinforcements, setup played as actions,
saves that load and play on (issue 6: scenarios, setup mode, CLI play --load/--seed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.engine import savefile
from tabletop.engine.game import SETUP, IllegalAction
from tabletop.engine.newgame import auto_setup, load_game, new_game
from tabletop.engine.scenario import load_scenario, open_map_or_scenario
from tabletop.engine.setup import check, to_place
from tabletop.games import ruleset
from tabletop.shipped import resolve

DOG = load_scenario(resolve("dog-sector", "scenarios"))  # type: ignore[arg-type]


def test_reinforcements_wait_in_their_box_at_full_strength() -> None:
    """The scenario's American force waits in the landing box; infantry has 2 steps
    (counters/dog-sector.yaml) and lands at full strength."""
    game = new_game(DOG, ruleset("dog_sector"), seed=1)
    waiting = game.state.box("landing")
    assert len(waiting) == 61
    assert {p.steps for p in waiting if p.type == "infantry"} == {2}
    assert game.state.phase == SETUP and game.state.options["bombardment"] == "light"


def test_setup_must_be_complete_and_legal_before_turn_1() -> None:
    """Table 2: the cleared markers are part of the setup; the game will not begin
    while some wait in the tray, and the refusal says how many."""
    game = new_game(DOG, ruleset("dog_sector"), seed=1)
    with pytest.raises(IllegalAction, match="8 pieces still to place"):
        game.play({"do": "end-phase"})
    auto_setup(game)
    assert game.state.turn == 1 and game.state.phase == "land"
    assert check(game.replay().map, DOG.setup_problem(game.state.options)) == []


def test_placing_by_hand_refuses_illegal_hexes_with_the_reason() -> None:
    """Setup by hand: a CLEARED marker for barbed wire only goes on a wire hex, and the
    row rule (at most 2 adjacent cleared) is enforced as pieces go down."""
    game = new_game(DOG, ruleset("dog_sector"), seed=1, options={"bombardment": "heavy"})
    problem = game.setup
    assert problem is not None
    piece = next(p for p in to_place(game.state.map, problem) if p.id.startswith("cleared-wire"))
    reason = game.refusal({"do": "setup-place", "piece": piece.id, "to": "0101"})
    assert reason is not None and "barbed-wire" in reason
    wire = [m for m in game.state.map.pieces() if m.type == "barbed-wire"]
    game.play({"do": "setup-place", "piece": piece.id, "to": game.state.board.label(wire[0].hex)})
    assert game.entries[-1].lines[0].startswith(f"setup: {piece.id} placed")
    game.undo()
    assert piece.id not in {p.id for p in game.state.map.pieces()}


@pytest.mark.parametrize("level", ["light", "moderate", "heavy"])
def test_random_german_placement_obeys_the_setup_rules(level: str) -> None:
    """German setup (optional rule: randomised) and Table 2 for each bombardment level:
    the solver's setup passes every constraint of the scenario."""
    options = {"random-german-placement": True, "bombardment": level}
    for seed in range(4):
        game = new_game(DOG, ruleset("dog_sector"), seed=seed, options=options)
        auto_setup(game)
        germans = [p for p in game.state.map.pieces() if p.side == "german"]
        assert len(germans) == 24
        assert check(game.state.map, DOG.setup_problem(options)) == []
        cleared = [p for p in game.state.map.pieces() if p.type == "cleared"]
        assert len(cleared) == {"light": 8, "moderate": 16, "heavy": 24}[level]


def test_the_fixed_german_layout_passes_the_setup_rules() -> None:
    """German setup: the scenario's fixed layout is itself legal."""
    state = DOG.state({})
    problem = DOG.setup_problem({})
    germans = [p for p in state.pieces() if p.side == "german"]
    assert len(germans) == 24
    assert [v.message for v in check(state, problem) if "cleared" not in v.message] == []


def test_table_2_counts_in_the_scenario_match_the_rules_table() -> None:
    """Table 2: the scenario's cleared-marker counts are the rules' (rules.yaml), so the
    two files cannot drift apart."""
    from tabletop.games.dog_sector.procedures import tables

    for level, row in tables().bombardment.items():
        problem = DOG.setup_problem({"bombardment": level})
        counts: dict[str, int] = {}
        for placement in problem.placements:
            if placement.type == "cleared":
                (marker,) = placement.zone.markers
                counts[marker] = len(placement.ids)
        assert counts == {k: v for k, v in row.items() if k != "difficulty"}, level


def test_a_saved_game_loads_and_plays_on(tmp_path: Path) -> None:
    game = new_game(DOG, ruleset("dog_sector"), seed=7)
    auto_setup(game)
    game.run()  # the automatic phases up to the American player's first decision
    assert game.state.phase == "activity"
    path = tmp_path / "save.json"
    savefile.write_save(path, game, "dog-sector")
    loaded, source, _ = load_game(path, open_map_or_scenario, ruleset)
    assert source == "dog-sector" and loaded.state.to_json() == game.state.to_json()
    loaded.play({"do": "end-phase"})
    game.play({"do": "end-phase"})
    assert loaded.state.to_json() == game.state.to_json()


def test_cli_play_seed_and_load(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`tabletop play --seed N` prints the seed and writes its autosave after each phase;
    `--load SAVE` plays on from it."""
    save = tmp_path / "game.json"
    code = main(["play", "--seed", "5", "--frames", "2", "--size", "640x480", "--save", str(save)])
    out = capsys.readouterr().out
    assert code == 0 and "seed 5" in out
    data = json.loads(save.read_text())  # the setup phase ended: autosaved
    assert data["seed"] == 5 and data["snapshot"]["turn"] == 1
    code = main(["play", "--load", str(save), "--frames", "2", "--size", "640x480"])
    assert code == 0 and "loaded" in capsys.readouterr().out
    # named where the scenario goes, as `render` takes it (it read as a map before:
    # "a map needs `name:`")
    code = main(["play", str(save), "--frames", "2", "--size", "640x480"])
    assert code == 0 and "loaded" in capsys.readouterr().out
    assert main(["play", str(save), "--seed", "3", "--frames", "1"]) == 2  # a save keeps its seed


def test_cli_play_refuses_a_bad_save_and_a_bad_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "tabletop-save", "version": 99}')
    assert main(["play", "--load", str(bad), "--frames", "1"]) == 2
    assert "newer tabletop" in capsys.readouterr().err
    assert main(["play", "--option", "bombardment=nuclear", "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert "bombardment" in err and err.count("\n") == 1


def test_the_omaha_landing_schedule_fills_the_turn_track() -> None:
    """D-Day at Omaha Beach 9.1: units arrive by turn and sector; the scenario's boxes
    hold the table's number of units per turn (its "#" column)."""
    scenario = load_scenario(resolve("omaha-landings", "scenarios"))  # type: ignore[arg-type]
    game = new_game(scenario, ruleset(scenario.rules), seed=1)
    per_turn: dict[int, int] = {}
    for name, pieces in game.state.boxes.items():
        turn = int(name.rsplit("-", 1)[1])
        per_turn[turn] = per_turn.get(turn, 0) + len(pieces)
    table_9_1 = {0: 8, 1: 13, 3: 7, 4: 7, 5: 6, 6: 6, 7: 4, 8: 4, 9: 6, 10: 1, 16: 12, 19: 5, 20: 5, 22: 5, 23: 1}
    assert per_turn == table_9_1
    west_0 = game.state.box("west-turn-0")
    assert [p.type for p in west_0] == ["tank"] * 4 and {p.steps for p in west_0} == {2}


def test_cli_play_with_a_bot_seat(capsys: pytest.CaptureFixture[str]) -> None:
    """Hot-seat and solo: --bot SIDE gives a side to the rule system's autoplayer;
    a side it cannot play is refused in one line."""
    assert main(["play", "--bot", "american", "--seed", "2", "--frames", "2", "--size", "640x480"]) == 0
    capsys.readouterr()
    assert main(["play", "--bot", "martian", "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert "american, german" in err and err.count("\n") == 1
    assert main(["play", "--bot", "german", "--frames", "1"]) == 2
    assert "DOG SECTOR's bots play american, not 'german'" in capsys.readouterr().err
