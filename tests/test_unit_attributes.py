"""Units with their own numbers, and a rule system's own scenario keys (issue 12 item 6,
engine gap E5).

The Devil Dogs of Belleau Wood declares in ``tabletop/games/devil_dogs/units.yaml`` what
its units carry (nation, regiment: "Units are identified by parent Battalions, Regiments
and Divisions", Devil Dogs 4; German assault/defensive and French units, 7.2) and what
its scenarios may add (the attacker, 5.3.3; objective hexes, 1.2). The engine checks
every value where it is written (scenario, counters, save, edit) at its line, and the
unit carries it through setup, reinforcement, save, load and undo.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tabletop.engine import savefile
from tabletop.engine.attributes import Attribute, load_schema
from tabletop.engine.counters import load_counters
from tabletop.engine.newgame import load_game, new_game
from tabletop.engine.pieces import Newcomers, Piece
from tabletop.engine.scenario import load_scenario, open_map_or_scenario
from tabletop.games import ruleset, schema_of
from tabletop.hexgrid import Hex
from tabletop.shipped import shipped_dir
from tabletop.yamlfile import DataError, DataErrors

DEMO = shipped_dir("scenarios") / "belleau-wood-demo.yaml"


def scenario_text(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    """A scenario beside the shipped Belleau Wood map (found among the shipped maps)."""
    path = tmp_path / name
    path.write_text(text)
    return path


def errors_of(path: Path) -> list[str]:
    with pytest.raises(DataErrors) as exc:
        load_scenario(path)
    return [str(e) for e in exc.value.errors]


HEAD = "name: t\nmap: belleau-wood\nrules: devil_dogs\n"


def test_the_demo_units_carry_nation_and_regiment_and_the_game_block_is_typed() -> None:
    """Devil Dogs 4 (regiment), 7.2 (nation decides the ladder), 5.3.3 (attacker), 1.2
    (objective hexes): read from the scenario, the hexes as hexes."""
    s = load_scenario(DEMO)
    m1 = next(p for p in s.pieces if p.id == "M1")
    assert m1.attr("nation") == "usmc" and m1.attr("regiment") == "5th-marines"
    assert m1.attr("division") is None
    assert s.game["attacker"] == "allied"
    assert s.game["sectors"] == ("B", "C")
    assert s.game["objectives"] == (s.board.hex_of("1011"), s.board.hex_of("1210"))


def test_a_unit_without_steps_starts_at_its_counters_full_steps() -> None:
    """One source of truth for strength: the counters give an infantry company 4 steps
    (counters/belleau-wood.yaml); a scenario unit that says nothing is at full strength,
    one that says `steps: 3` (German defensive, 7.2) keeps its 3."""
    s = load_scenario(DEMO)
    steps = {p.id: p.steps for p in s.pieces}
    assert steps["M1"] == 4 and steps["G1"] == 3


def test_reinforcements_carry_the_ids_and_attributes_the_scenario_gives_them() -> None:
    """E5: reinforcements with ids; they arrive at full steps with their attributes."""
    game = new_game(load_scenario(DEMO), ruleset("devil_dogs"), seed=1)
    waiting = {p.id: p for p in game.state.box("turn-2")}
    assert set(waiting) == {"M4", "M5"}
    assert waiting["M4"].attr("battalion") == "2-5" and waiting["M4"].steps == 4


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('  - {id: A, type: infantry, side: allied, hex: "0916", attributes: {nation: marine}}',
         "5: unit A: nation must be a word among usmc, us-army, french, german-assault, german-defensive, got 'marine'"),
        ('  - {id: A, type: infantry, side: allied, hex: "0916", attributes: {colour: red}}',
         "5: unit A: unknown key 'colour'; the rule system declares: nation, regiment, battalion, division"),
        ('  - {id: A, type: infantry, side: allied, hex: "0916", attributes: [usmc]}',
         "5: unit A: `attributes` must be a mapping"),
    ],
)
def test_a_bad_unit_attribute_is_refused_at_its_line(tmp_path: Path, line: str, expected: str) -> None:
    path = scenario_text(tmp_path, HEAD + "units:\n" + line + "\n")
    assert any(f"{path}:{expected}" in e for e in errors_of(path)), errors_of(path)


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        ("game:\n  attacker: french\n", "5: game: attacker must be a word among allied, german, got 'french'"),
        ('game:\n  objectives: ["9999"]\n', "5: game: objectives hex 9999 is not on the map"),
        ("game:\n  sudden-death: true\n", "5: game: unknown key 'sudden-death'"),
        ("game: [allied]\n", "4: game: `attributes` must be a mapping"),
    ],
)
def test_a_bad_game_key_is_refused_at_its_line(tmp_path: Path, block: str, expected: str) -> None:
    path = scenario_text(tmp_path, HEAD + block)
    assert any(f"{path}:{expected}" in e for e in errors_of(path)), errors_of(path)


def test_free_play_declares_nothing_so_attributes_and_game_are_refused(tmp_path: Path) -> None:
    path = scenario_text(
        tmp_path,
        "name: t\nmap: belleau-wood\nrules: free\ngame: {attacker: allied}\nunits:\n"
        '  - {id: A, type: infantry, hex: "0916", attributes: {nation: usmc}}\n',
    )
    errors = errors_of(path)
    assert f"{path}:4: `game` holds a rule system's own keys, and this scenario's rule system declares none; remove it" in errors
    assert any(e.startswith(f"{path}:6: unit A: its rule system (or free play) declares no attributes") for e in errors)


@pytest.mark.parametrize(
    ("reinforcement", "expected"),
    [
        ("{turn: 2, side: allied, type: infantry, count: 2, ids: [R1]}", "`ids` names 1 units but `count` is 2"),
        ("{turn: 2, side: allied, type: infantry, count: 2, ids: [R1, R1]}", "`ids` names a unit twice"),
        ("{turn: 2, side: allied, type: infantry, count: 1, ids: [A]}", "id 'A' is used twice (first at line 5)"),
        ("{turn: 2, side: allied, type: infantry, ids: R1}", "`ids` must be a list of words"),
    ],
)
def test_reinforcement_ids_are_one_new_word_per_unit(tmp_path: Path, reinforcement: str, expected: str) -> None:
    path = scenario_text(
        tmp_path,
        HEAD + 'units:\n  - {id: A, type: infantry, side: allied, hex: "0916"}\nreinforcements:\n  - '
        + reinforcement + "\n",
    )
    assert any(f"{path}:7: {expected}" in e for e in errors_of(path)), errors_of(path)


def counters_with(tmp_path: Path, attributes: str) -> Path:
    shipped = (shipped_dir("counters") / "belleau-wood.yaml").read_text()
    text = shipped.replace(
        "  infantry: {name: infantry company, symbol: infantry, steps: 4}",
        "  infantry: {name: infantry company, symbol: infantry, steps: 4, attributes: " + attributes + "}",
    )
    assert text != shipped
    path = tmp_path / "bw.yaml"
    path.write_text(text)
    return path


def test_a_counter_files_unit_type_gives_its_units_attributes_unless_they_have_their_own(tmp_path: Path) -> None:
    """A unit type's `attributes:` are checked against the file's rule system and given
    to each unit of that type: in the scenario, set up, or arriving."""
    counters_with(tmp_path, "{nation: usmc, division: 2nd}")
    path = scenario_text(
        tmp_path,
        HEAD + "counters: bw\nunits:\n"
        '  - {id: A, type: infantry, side: allied, hex: "0916"}\n'
        '  - {id: B, type: infantry, side: allied, hex: "1116", attributes: {nation: french}}\n'
        "reinforcements:\n  - {turn: 2, side: allied, type: infantry}\n",
    )
    s = load_scenario(path)
    a, b = sorted(s.pieces, key=lambda p: p.id)
    assert (a.attr("nation"), a.attr("division")) == ("usmc", "2nd")
    assert (b.attr("nation"), b.attr("division")) == ("french", "2nd")
    game = new_game(s, ruleset("devil_dogs"), seed=1)
    (arriving,) = game.state.box("turn-2")
    assert arriving.attr("nation") == "usmc"


def test_a_counter_files_bad_attribute_is_refused_at_its_line(tmp_path: Path) -> None:
    path = counters_with(tmp_path, "{nation: prussian}")
    with pytest.raises(DataErrors) as exc:
        load_counters(path)
    (error,) = exc.value.errors
    assert str(error).startswith(f"{path}:20: unit type 'infantry': nation must be a word among usmc")


def test_newcomers_fill_steps_and_attributes_of_a_unit_set_up_by_hand() -> None:
    """The same start for a unit set up, placed or arriving: full steps, the rule
    system's defaults, the type's values, then the unit's own."""
    fresh = Newcomers({"infantry": 4}, {"ammo": 3}, {"infantry": {"nation": "usmc", "ammo": 5}})
    unit = fresh.full(Piece("x", "infantry", Hex(0, 0), attributes=(("nation", "french"),)))
    assert unit.steps == 4 and dict(unit.attributes) == {"ammo": 5, "nation": "french"}
    marker = Piece("s", "smoke", Hex(0, 0), kind="marker")
    assert fresh.full(marker) is marker


def demo_game_in(tmp_path: Path) -> Path:
    """The demo copied beside a save folder, so the save names it by file."""
    folder = tmp_path / "game"
    folder.mkdir()
    shutil.copy(DEMO, folder / DEMO.name)
    return folder / DEMO.name


def test_an_attribute_changed_in_play_is_logged_undone_saved_and_loaded(tmp_path: Path) -> None:
    """The `attribute` action: a unit's count changing in play (Dogfaces' rockets left,
    Dogs of War's ammunition) goes through the log like any other action."""
    scenario = demo_game_in(tmp_path)
    game = new_game(load_scenario(scenario), ruleset("devil_dogs"), seed=4)
    game.play({"do": "attribute", "piece": "M1", "key": "regiment", "to": "6th-marines", "edit": True})
    assert game.state.map.piece("M1").attr("regiment") == "6th-marines"
    game.undo()
    assert game.state.map.piece("M1").attr("regiment") == "5th-marines"
    game.redo()
    save = tmp_path / "game" / "s.json"
    savefile.write_save(save, game, str(scenario))
    loaded, _, _ = load_game(save, open_map_or_scenario, ruleset)
    assert loaded.state.map.piece("M1").attributes == game.state.map.piece("M1").attributes
    assert loaded.state.map.piece("G1").attr("nation") == "german-defensive"


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ({"do": "attribute", "piece": "M1", "key": "colour", "to": "red"}, "unknown attribute 'colour'"),
        ({"do": "attribute", "piece": "M1", "key": "nation", "to": "prussian"}, "attribute nation must be a word among"),
        ({"do": "attribute", "piece": "M1", "to": "x"}, "`attribute` needs `key`"),
        ({"do": "attribute", "piece": "Z9", "key": "nation", "to": "usmc"}, "no piece 'Z9' on the map"),
    ],
)
def test_an_attribute_edit_the_rule_system_does_not_declare_is_refused(action: dict, reason: str) -> None:
    """Refused before it changes anything, so the game can always be saved and loaded."""
    game = new_game(load_scenario(DEMO), ruleset("devil_dogs"), seed=4)
    refused = game.refusal({**action, "edit": True})
    assert refused is not None and reason in refused, refused


def test_a_save_with_an_undeclared_attribute_is_refused_naming_the_field(tmp_path: Path) -> None:
    scenario = demo_game_in(tmp_path)
    game = new_game(load_scenario(scenario), ruleset("devil_dogs"), seed=4)
    save = tmp_path / "game" / "s.json"
    savefile.write_save(save, game, str(scenario))
    data = json.loads(save.read_text())
    data["initial"]["pieces"][0]["attributes"] = {"morale": 7}
    save.write_text(json.dumps(data))
    with pytest.raises(savefile.SaveError, match=r"'morale' is not an attribute the rule system declares .*\(initial\.pieces\[0\]\.attributes\)"):
        load_game(save, open_map_or_scenario, ruleset)


def test_the_shipped_schema_cites_a_section_for_every_key() -> None:
    """Data over code: each declared key says what it is and where the text says so."""
    schema = schema_of("devil_dogs")
    assert set(schema.units) == {"nation", "regiment", "battalion", "division", "withdraw"}
    for attribute in [*schema.units.values(), *schema.scenario.values()]:
        assert "(" in attribute.text and ")" in attribute.text, attribute


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("units:\n  ammo: {kind: float}\n", "2: units.ammo.kind must be one of int, word, words, flag, text"),
        ("units:\n  ammo: {kind: int, choices: [a]}\n", "2: units.ammo: only word kinds take choices"),
        ("units:\n  ammo: {kind: int, min: 0, default: -1}\n", "2: units.ammo.default must be a whole number >= 0"),
        ("units:\n  ammo: {kind: int, colour: red}\n", "2: units.ammo: unknown key 'colour'"),
        ("cards: {}\n", "1: unknown key 'cards'"),
    ],
)
def test_a_broken_schema_file_is_an_error_at_its_line(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "units.yaml"
    path.write_text(text)
    with pytest.raises(DataError) as exc:
        load_schema(path)
    assert str(exc.value).startswith(f"{path}:{expected}"), str(exc.value)


def test_an_int_attribute_keeps_its_bounds() -> None:
    ammo = Attribute("ammo", "int", min=0, max=3)
    assert ammo.problem(2) is None
    assert ammo.problem(4) == "must be a whole number >= 0 and <= 3, got 4"
    assert ammo.problem(True) is not None  # a flag is not a number
