"""`tabletop tables RULES [TABLE] [--json]` (issue 12, item 9): every table a rule system
encodes, printed as the player aid prints it, from the data the rules play by.

The expected cells below are read off the DOG SECTOR player aid
(../shared/rules/dog_sector_player_aid.txt), quoted in each test; the cells the tool
prints are built from the yaml the game itself loads, so these tests check the game's
data against the aid, and the last tests prove the printed table follows that data.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import load_scenario
from tabletop.engine.tables import NONE_TEXT, Table, tables_text
from tabletop.games import SHIPPED, ruleset, tables_of
from tabletop.games.dog_sector import american, german, procedures
from tabletop.games.dog_sector.tables import spans
from tabletop.shipped import resolve

DASH = "—"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def table(key: str) -> Table:
    (found,) = [t for t in tables_of("dog_sector") if t.key == key]
    return found


# ------------------------------------------------------------ DOG SECTOR, cell by cell


def test_table_2_bombardment_levels_as_the_aid_prints_them() -> None:
    """Table 2. AMERICAN PRE-LANDING BOMBARDMENT LEVEL RESULTS TABLE: "Light (Historical)
    Hard 3 4 1 / Moderate Medium 6 8 2 / Heavy Easy 9 12 3" under "Barbed Wire Cleared,
    Land Mines Cleared, Tank Obstacles Cleared"."""
    t = table("2")
    assert t.columns == (
        "Bombardment level", "Difficulty", "Barbed wire cleared", "Land mine cleared", "Tank obstacle cleared"
    )  # fmt: skip
    assert t.rows == (
        ("Light", "Hard", "3", "4", "1"),
        ("Moderate", "Medium", "6", "8", "2"),
        ("Heavy", "Easy", "9", "12", "3"),
    )
    assert any("CLEARED" in c for c in t.choices)


@pytest.mark.parametrize("level", ["light", "moderate", "heavy"])
def test_table_2_is_what_the_set_up_places(level: str) -> None:
    """Table 2 printed is Table 2 played: the shipped scenario's set-up places exactly as
    many CLEARED markers on each kind of obstacle as the printed row says."""
    scenario = load_scenario(resolve("dog-sector", "scenarios"))  # type: ignore[arg-type]
    game = new_game(scenario, ruleset("dog_sector"), seed=3, options={"bombardment": level})
    auto_setup(game)
    pieces = game.state.map.pieces()
    cleared_hexes = [p.hex for p in pieces if p.type == "cleared"]
    placed = {
        kind: sum(1 for h in cleared_hexes if any(p.type == kind for p in game.state.map.markers_at(h)))
        for kind in ("barbed-wire", "land-mine", "tank-obstacle")
    }
    (row,) = [r for r in table("2").rows if r[0].lower() == level]
    assert [str(placed[k]) for k in ("barbed-wire", "land-mine", "tank-obstacle")] == list(row[2:])


def test_table_4_german_fire_results_as_the_aid_prints_them() -> None:
    """Table 4. GERMAN FIRE RESULTS: "Infantry Squad (bonus if adjacent to target) 1-4 Miss
    5 Pinned Down 6 Hit*" with "* Add +1 to the die roll if adjacent to target" (so 1-3,
    4, 5-6 when adjacent); "MG Pillbox 1-2 Miss 3-4 Pinned Down 5-6 Hit"; "Panzerfaust 1-4
    Miss 5-6 Hit"; "AT Gun (bonus if target within 10 hexes) 1-5 Miss 6 Hit (1-4 Miss)
    (5-6 Hit)"."""
    t = table("4")
    assert t.columns == ("German unit type", "Bonus (roll in brackets)", "Miss", "Pinned down", "Hit")
    assert t.rows == (
        ("Infantry", "+1 to the die roll if adjacent to target", "1-4 (1-3)", "5 (4)", "6 (5-6)"),
        ("MG pillbox", DASH, "1-2", "3-4", "5-6"),
        ("Panzerfaust team", DASH, "1-4", DASH, "5-6"),
        ("AT gun", "if target within 10 hexes", "1-5 (1-4)", DASH, "6 (5-6)"),
    )


def test_table_5_obstacle_removal_as_the_aid_prints_it() -> None:
    """Table 5. OBSTACLE REMOVAL CAPABILITY, columns "CE, Inf (with EL*), Tank, Dozer":
    "Barbed Wire 1 NA (1) 0** 0**", "Land Mines 1 NA (1) NA NA", "Tank Obstacles 1 NA (1)
    NA 1"; "* Must be full strength Infantry unit"; "** Barbed Wire removed upon entry at
    no additional AP cost". The dozer's "1" on tank obstacles is removed on entry too
    (phase 5: "Tank/Dozer removes obstacle upon moving into its hex"), a choice listed."""
    t = table("5")
    assert t.columns == ("Obstacle", "CE team", "Infantry with an EL (full strength)", "Tank", "Dozer")
    assert t.rows == (
        ("Barbed wire", "1", "NA (1)", "0 (on entry)", "0 (on entry)"),
        ("Land mine", "1", "NA (1)", "NA", "NA"),
        ("Tank obstacle", "1", "NA (1)", "NA", "1 (on entry)"),
    )
    assert any(c.startswith("Dozer, tank obstacle") for c in t.choices)
    assert any('"NA (1)"' in c for c in t.choices)


def test_table_6_american_fire_results_as_the_aid_prints_them() -> None:
    """Table 6. AMERICAN FIRE RESULTS: Sharpshooter "Infantry or Panzerfaust; only within
    8 hexes" 6; Forward Observer "All (bonus within 8 hexes)" 6 (5-6); CE Team "MG Pillbox
    or AT Gun; only adjacent" 6; Flamethrower "All except Infantry; only adjacent" 4-6;
    Bazooka "MG Pillbox or AT Gun if within 6 hexes; all if adjacent" 5-6; Infantry "All;
    only adjacent (bonus if Infantry)" 6 (5-6); "Tank or Dozer" "MG Pillbox or AT Gun only
    (bonus within 8 hexes)" 6 (5-6), one line each here."""
    t = table("6")
    assert t.columns == (
        "American unit type firing",
        "German target types",
        "Range",
        "Bonus",
        "1D6 hit (bonus)",
    )
    assert t.rows == (
        ("Sharpshooter", "infantry or panzerfaust team", "within 8 hexes", DASH, "6"),
        ("Forward observer", "all", "any", "within 8 hexes", "6 (5-6)"),
        ("CE team", "MG pillbox or AT gun", "adjacent", DASH, "6"),
        ("Flamethrower", "all except infantry", "adjacent", DASH, "4-6"),
        ("Bazooka", "all", "adjacent; MG pillbox or AT gun within 6 hexes", DASH, "5-6"),
        ("Infantry", "all", "adjacent", "against infantry", "6 (5-6)"),
        ("Tank", "MG pillbox or AT gun", "any", "within 8 hexes", "6 (5-6)"),
        ("Dozer", "MG pillbox or AT gun", "any", "within 8 hexes", "6 (5-6)"),
    )
    assert "The exceptional leader has no line in Table 6 and does not fire." in t.choices


def test_table_7_level_of_victory_as_the_aid_prints_it() -> None:
    """Table 7. LEVEL OF VICTORY: "None or 1 ... Private", "2 ... Corporal", "3 ...
    Sergeant Major", "4 ... Lieutenant", "5 ... Captain", "6 ... Colonel". The result
    words are the project's own (a listed choice), not the aid's quotations."""
    t = table("7")
    assert t.columns == ("Trench sections cleared", "Rank", "Result")
    assert [r[:2] for r in t.rows] == [
        ("None or 1", "Private"), ("2", "Corporal"), ("3", "Sergeant Major"),
        ("4", "Lieutenant"), ("5", "Captain"), ("6", "Colonel"),
    ]  # fmt: skip
    assert all(r[2] for r in t.rows)
    assert any("project's own" in c for c in t.choices)


def test_the_other_encoded_tables_match_the_aid() -> None:
    """Phase 2 "1-4: All good 5: Tank/Dozer swamped 6: All units swamped"; the Land Mine
    Explosion Check "1-3: Clear 4-6: Explosion"; phase 5 "Movement costs 1 AP for all hexes
    except bluff and sea hexes, which cost 2 AP"; Table 3, missing from the aid's text,
    is marked as the project's reconstruction."""
    assert table("swamping").rows == (
        ("1-4", "All good"),
        ("5", "Tank/dozer swamped"),
        ("6", "All units swamped"),
    )
    assert table("land-mine").rows == (("1-3", "Clear"), ("4-6", "Explosion"))
    costs = dict(table("movement").rows)
    assert {k for k, v in costs.items() if v == "2"} == {"Sea", "Bluff"}
    assert {v for k, v in costs.items() if k not in ("Sea", "Bluff")} == {"1"}
    t3 = table("3")
    assert "reconstruction" in t3.section and t3.choices[0].startswith("The whole table is the project's")
    assert [r[1] for r in t3.rows] == [f"section {i}" for i in range(1, 7)]
    assert table("hits").choices[0].startswith("The whole chart is the project's")


def test_spans_are_written_as_the_aid_writes_faces() -> None:
    assert spans([5, 6]) == "5-6" and spans([6]) == "6" and spans([1, 2, 4]) == "1-2, 4" and spans([]) == ""


# ------------------------------------------------------------------ the command line


def test_json_is_exactly_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 12 item 9: {"rules": NAME, "tables": [{"key", "title", "section", "columns",
    "rows", "choices"}]}, every cell a string; tables 2, 4, 5, 6 and 7 are all there."""
    code, out, err = run(capsys, "tables", "dog-sector", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert list(data) == ["rules", "tables"] and data["rules"] == "dog_sector"
    for t in data["tables"]:
        assert list(t) == ["key", "title", "section", "columns", "rows", "choices"]
        assert all(isinstance(t[k], str) for k in ("key", "title", "section"))
        assert all(isinstance(c, str) for c in t["columns"] + t["choices"])
        assert t["rows"] and all(len(r) == len(t["columns"]) and all(isinstance(c, str) for c in r)
                                 for r in t["rows"])  # fmt: skip
    keys = [t["key"] for t in data["tables"]]
    assert {"2", "4", "5", "6", "7"} <= set(keys) and len(set(keys)) == len(keys)
    assert data["tables"][keys.index("6")] == table("6").to_json()


def test_one_table_by_key(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tables", "dog_sector", "5", "--json")
    assert code == 0
    assert [t["key"] for t in json.loads(out)["tables"]] == ["5"]
    code, out, _ = run(capsys, "tables", "dog_sector", "5")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("Table 5. Obstacle removal capability")
    assert "from: phase 5" in lines[1] and "The project's choices:" in out
    header = next(line for line in lines if line.strip().startswith("Obstacle"))
    row = next(line for line in lines if line.strip().startswith("Land mine"))
    assert header.index("CE team") == row.index("1")  # aligned columns


def test_text_lists_every_table_with_its_section(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tables", "dog_sector")
    assert code == 0
    for t in tables_of("dog_sector"):
        assert f"{t.title}  [{t.key}]" in out and f"from: {t.section}" in out


def test_an_unknown_table_is_one_line_listing_the_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tables", "dog_sector", "9")
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "no table '9'" in err and "known: 2, landing, swamping, 3, 4" in err  # issue 20: the phase 1 table


def test_an_unknown_rule_system_is_one_line_with_the_known_names(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tables", "dog-sectr", "--json")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "did you mean 'dog_sector'" in err and all(name in err for name in SHIPPED)


def test_a_rule_system_without_tables_prints_none(capsys: pytest.CaptureFixture[str]) -> None:
    """Rule systems with no tables module yet: an empty list, exit 0; asking one of them
    for a table by key is refused like any unknown key."""
    assert tables_text([]) == NONE_TEXT
    code, out, _ = run(capsys, "tables", "free", "--json")
    assert code == 0 and json.loads(out) == {"rules": "free", "tables": []}
    for rules in SHIPPED:
        if tables_of(rules):
            continue
        code, out, _ = run(capsys, "tables", rules)
        assert code == 0 and out.strip() == NONE_TEXT
        code, out, err = run(capsys, "tables", rules, "4")
        assert code == 2 and err.count("\n") == 1 and "no tables encoded yet" in err


def test_a_table_refuses_a_row_of_the_wrong_width() -> None:
    with pytest.raises(ValueError, match="2 cells for 3 columns"):
        Table("x", "X", "s", ("a", "b", "c"), (("1", "2"),))


# ------------------------------------------------------------ one source of truth


@pytest.fixture
def fresh_rules_data() -> Iterator[None]:
    """Drops the read-once copies of rules.yaml and american.yaml before and after, so a
    test may point the rules at an edited file (or patch the loaded object)."""
    clears = (procedures.tables.cache_clear, american.tables.cache_clear)
    for clear in clears:
        clear()
    yield
    for clear in clears:
        clear()


def test_editing_rules_yaml_changes_the_printed_table_and_the_game(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fresh_rules_data: None,
) -> None:
    """One source of truth: the MG pillbox's Table 4 line edited in a copy of rules.yaml
    (1 miss, 2-3 pinned down, 4-6 hit) is what `tables` prints and what phase 4 rolls on."""
    text = procedures.DATA.read_text(encoding="utf-8")
    old = 'results: {"1-2": miss, "3-4": pinned, "5-6": hit}'
    assert text.count(old) == 1
    edited = tmp_path / "rules.yaml"
    edited.write_text(text.replace(old, 'results: {"1": miss, "2-3": pinned, "4-6": hit}'), encoding="utf-8")
    monkeypatch.setattr(procedures, "DATA", edited)
    code, out, _ = run(capsys, "tables", "dog_sector", "4", "--json")
    assert code == 0
    (t4,) = json.loads(out)["tables"]
    assert ["MG pillbox", DASH, "1", "2-3", "4-6"] in t4["rows"]
    assert german.tables().german_fire["mg-pillbox"].results(4) == "hit"  # what german.fire rolls on


def test_patching_the_loaded_american_data_changes_table_6(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, fresh_rules_data: None
) -> None:
    """One source of truth: the loaded american.yaml object with the flamethrower hitting
    on 5-6 instead of 4-6 prints as 5-6 in Table 6."""
    from dataclasses import replace
    from types import MappingProxyType

    loaded = american.tables()
    units = dict(loaded.fire_units)
    units["flamethrower"] = replace(units["flamethrower"], hit=5)
    patched = replace(loaded, fire_units=MappingProxyType(units))
    monkeypatch.setattr(american, "tables", lambda: patched)
    code, out, _ = run(capsys, "tables", "dog_sector", "6")
    assert code == 0
    row = next(line for line in out.splitlines() if line.strip().startswith("Flamethrower"))
    assert row.rstrip().endswith("5-6") and "4-6" not in row
