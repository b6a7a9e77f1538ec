"""Counter files: every shipped one loads, covers the words the games and scenarios use,
and every problem in one is named with its file and line."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

from tabletop.engine.counters import (
    GENERIC,
    RULES_COUNTERS,
    SYMBOLS,
    Counters,
    counters_for,
    counters_name,
    is_counters_data,
    load_counters,
)
from tabletop.engine.scenario import load_scenario
from tabletop.games import SHIPPED as SHIPPED_RULES
from tabletop.yamlfile import DataErrors, read_yaml

GAMES = REPO / "tabletop" / "games"
SHIPPED = sorted(p.stem for p in (REPO / "counters").glob("*.yaml"))
SCENARIOS = sorted((REPO / "scenarios").glob("*.yaml"))


def game_yaml(game: str, name: str) -> Any:
    return read_yaml(GAMES / game / f"{name}.yaml")


# --- the shipped files ------------------------------------------------------------------


def test_the_five_rule_systems_and_free_play_each_have_a_counter_file() -> None:
    assert set(SHIPPED) == {*RULES_COUNTERS.values(), GENERIC}
    assert set(RULES_COUNTERS) == set(SHIPPED_RULES)


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_counter_file_loads_and_says_which_rules_it_is_for(name: str) -> None:
    counters = load_counters(name)
    assert counters.unit_types and counters.sides and counters.sheet
    assert counters_name(counters.rules) == name
    assert all(u.symbol in SYMBOLS for u in counters.unit_types.values())
    for side, entries in counters.sheet.items():
        assert side in counters.sides
        assert all(e.type in counters.unit_types and e.count > 0 for e in entries)


@pytest.mark.parametrize(
    ("rules", "name"),
    [("dog_sector", "dog-sector"), ("devil_dogs", "belleau-wood"), ("omaha", "omaha"),
     ("dogfaces", "dogfaces"), ("dogs_of_war", "dogs-of-war"), (None, "generic"),
     ("free", "generic"), ("some_other_game", "generic")],
)  # fmt: skip
def test_a_rules_key_picks_its_counter_file_and_free_play_the_generic_one(
    rules: str | None, name: str
) -> None:
    assert counters_name(rules) == name
    assert counters_for(rules).path is not None
    assert counters_for(rules).path.stem == name  # type: ignore[union-attr]


def test_the_games_markers_are_all_drawn_by_some_counter_file() -> None:
    wanted = {
        "pinned", "falter", "disrupted", "stunned", "overwatch", "depth", "climb", "climb-cliff",
        "cleared", "smoke", "gas", "artillery", "barbed-wire", "land-mine", "tank-obstacle",
    }  # fmt: skip
    have = {key for name in SHIPPED for key in load_counters(name).markers}
    assert wanted <= have


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_every_piece_in_a_shipped_scenario_has_a_counter(scenario: Path) -> None:
    s = load_scenario(scenario)
    counters = counters_for(s.rules)
    for p in s.pieces:
        if p.kind == "unit":
            assert counters.has_unit(p.type), f"{scenario.name}: {p.id} is a {p.type!r}"
            assert p.side in counters.sides
            assert all(w == "reduced" or w in counters.markers for w in p.status), p.status
        else:
            assert counters.markers[p.type].place == "hex"


def unit_words() -> dict[str, set[str]]:
    """Every unit type word each game's YAML tables name, by rules key."""
    ds_los, ds_move = game_yaml("dog_sector", "los"), game_yaml("dog_sector", "movement")
    dog_sector = {u for side in ds_los["sides"].values() for u in side["units"]}
    dog_sector |= set(ds_move["action_points"]) | set(ds_move["pinned_down"]["may_enter"])
    for obstacle in ds_move["obstacles"].values():
        dog_sector |= set(obstacle.get("units", {}))
    for side in ds_los["sides"].values():
        for unit in side["units"].values():
            dog_sector |= set(unit.get("max_range_against", {})) | set(unit.get("screened_by", []))
    df = game_yaml("dogfaces", "movement")
    dogfaces = (set(df["move_units"]) - {"default"}) | set(df["vehicles"]) | set(df["jet_pack"]["types"])
    dogfaces |= set(df["stacking"]["carriers"])
    om = game_yaml("omaha", "movement")
    omaha = {t for types in om["classes"].values() for t in types} | set(om["stacking"]["free"])
    omaha |= set(om["control"]["adjacent"]) | set(om["control"]["none"])
    omaha |= set(om["immobile"]) | set(om["road_speed"]["extended"])
    omaha |= {t for stops in om["must_stop"].values() for t in stops} - set(om["classes"])
    return {"dog_sector": dog_sector, "dogfaces": dogfaces, "omaha": omaha}


@pytest.mark.parametrize("rules", ["dog_sector", "dogfaces", "omaha"])
def test_every_unit_type_the_games_tables_name_has_a_counter(rules: str) -> None:
    words = unit_words()[rules]
    assert words
    missing = sorted(w for w in words if w not in counters_for(rules).unit_types)
    assert not missing


def status_words() -> dict[str, tuple[set[str], set[str]]]:
    """Status words (on units) and marker piece types (in hexes) each game's YAML reads."""
    ds = game_yaml("dog_sector", "movement")
    dd = game_yaml("devil_dogs", "movement")
    df = game_yaml("dogfaces", "movement")
    om = game_yaml("omaha", "movement")
    dw_los, dw_move = game_yaml("dogs_of_war", "los"), game_yaml("dogs_of_war", "movement")
    dark = dw_los["darkness"]
    return {
        "dog_sector": (
            set(ds["cannot_move"]) | {ds["pinned_down"]["status"]},
            set(ds["obstacles"]) | {ds["cleared_marker"]},
        ),
        "devil_dogs": ({dd["pinned_status"]}, set()),
        "dogfaces": (set(df["cannot_move"]) | set(df["gone"]) | {"overwatch"}, set()),
        "omaha": (
            {om["status"][k] for k in ("climb", "climb_cliff", "disrupted")} | set(om["active_positions"]["silenced_by"]),
            set(),
        ),
        "dogs_of_war": (
            set(dw_los["figures"]["lying"]) | set(dw_move["cannot_move"]) | set(dw_move["doubled"])
            | set(dw_move["no_run"]) | {dark["night_vision"], dark["laser_targeter"], dw_los["prone_target"]["status"]}
            | set(dw_los["priority_targets"]["not_targets"]),
            {dw_los["smoke"]["marker"]},
        ),
    }  # fmt: skip


@pytest.mark.parametrize("rules", ["dog_sector", "devil_dogs", "dogfaces", "omaha", "dogs_of_war"])
def test_every_status_word_and_marker_the_games_read_has_a_marker(rules: str) -> None:
    on_units, in_hexes = status_words()[rules]
    markers = counters_for(rules).markers
    assert {w for w in on_units if w not in markers or markers[w].place != "unit"} == set()
    assert {w for w in in_hexes if w not in markers or markers[w].place != "hex"} == set()


def test_dog_sector_sheet_holds_the_german_setup() -> None:
    # DOG SECTOR German setup: an infantry in each of the 6 trench sections and 3 more; an
    # MG pillbox and an AT gun in every section; 3 panzerfaust teams.
    sheet = {e.type: e.count for e in counters_for("dog_sector").sheet["german"]}
    assert sheet == {"infantry": 9, "mg-pillbox": 6, "at-gun": 6, "panzerfaust": 3}


def test_every_omaha_us_type_has_its_full_steps_on_its_counter() -> None:
    """Omaha 9.1: a unit's strength is Piece.steps, set from its counter's full steps,
    so every US type the movement rules name has them on the counter sheet."""
    om = game_yaml("omaha", "movement")
    counters = counters_for("omaha")
    us_types = {t for types in om["classes"].values() for t in types}
    assert all(counters.unit_types[t].steps for t in us_types), sorted(us_types)


# --- the loaded data ----------------------------------------------------------------------


def test_a_counter_set_is_frozen() -> None:
    counters = counters_for("dogs_of_war")
    with pytest.raises(dataclasses.FrozenInstanceError):
        counters.name = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        counters.unit_types["x"] = counters.unit_types["rifleman"]  # type: ignore[index]


def test_an_unlisted_unit_type_is_still_drawn_and_a_trailing_number_is_dropped() -> None:
    dogfaces = counters_for("dogfaces")
    assert dogfaces.unit("lcv-2") == dogfaces.unit_types["lcv"]
    assert dogfaces.has_unit("lcv-2") and not dogfaces.has_unit("hovertank")
    odd = dogfaces.unit("hovertank")
    assert (odd.symbol, odd.label, odd.shape) == ("blank", "HOVE", "counter")
    assert counters_for(None).marker("on-fire").text == "ON-F"


def test_a_side_not_in_the_file_has_no_colour_from_it() -> None:
    counters = counters_for("dog_sector")
    assert counters.side_colour("american") == "#78965a"
    assert counters.side_colour("martian") is None and counters.side_colour(None) is None


# --- errors -------------------------------------------------------------------------------

GOOD = """\
name: Test counters
sides:
  blue: {name: Blue, colour: "#568cc8"}
unit_types:
  infantry: {name: infantry, symbol: infantry}
  tank: {symbol: tank, full: "8-6"}
markers:
  pinned: {colour: "#f2c81e", text: PIN}
  smoke: {colour: "#d8d8d8", text: SMOKE, place: hex, area: true}
sheet:
  blue: {infantry: 4, tank: 2}
"""


def load_text(tmp_path: Path, text: str) -> Counters:
    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    return load_counters(path)


def errors_of(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(DataErrors) as info:
        load_text(tmp_path, text)
    return [str(e) for e in info.value.errors]


def test_a_good_file_loads(tmp_path: Path) -> None:
    c = load_text(tmp_path, GOOD)
    assert c.unit_types["tank"].full == "8-6" and c.unit_types["tank"].name == "tank"
    assert c.markers["smoke"].area and c.markers["pinned"].place == "unit"
    assert [(e.type, e.count) for e in c.sheet["blue"]] == [("infantry", 4), ("tank", 2)]
    assert is_counters_data(read_yaml(tmp_path / "c.yaml"))


@pytest.mark.parametrize(
    ("old", "new", "line", "words"),
    [
        ("  tank: {symbol: tank", "  tank: {symbol: tnak", 6, "did you mean 'tank'"),
        ("  tank: {symbol: tank", "  tank: {sybmol: tank", 6, "unknown key 'sybmol'"),
        ('colour: "#568cc8"', "colour: #568cc8", 3, "quoted"),
        ('colour: "#f2c81e"', 'colour: "yellow"', 8, '"#rrggbb"'),
        ("text: PIN}", "text: PINNED-DOWN}", 8, "at most 6"),
        ("place: hex", "on: hex", 9, "on/off/yes/no"),
        ("place: hex", "place: map", 9, "one of: unit, hex"),
        ("  blue: {infantry: 4", "  blue: {infantyr: 4", 11, "did you mean 'infantry'"),
        ("  blue: {infantry: 4", "  green: {infantry: 4", 11, "not under `sides:`"),
        ("infantry: 4,", "infantry: many,", 11, "whole number"),
        ("name: Test counters", "name: Test counters\nmap: dog-sector", 2, "unknown key 'map'"),
        ("area: true", "area: yes please", 9, "true or false"),
    ],
)
def test_an_error_names_the_file_the_line_and_the_fix(
    tmp_path: Path, old: str, new: str, line: int, words: str
) -> None:
    assert old in GOOD
    errors = errors_of(tmp_path, GOOD.replace(old, new, 1))
    where = f"{tmp_path / 'c.yaml'}:{line}:"
    assert any(e.startswith(where) and words in e for e in errors), errors


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    text = GOOD.replace("symbol: infantry", "symbol: nato").replace("text: PIN", "text: TOOLONGTEXT")
    assert len(errors_of(tmp_path, text)) == 2


def test_a_unit_type_without_a_symbol_is_refused_with_the_choices(tmp_path: Path) -> None:
    errors = errors_of(tmp_path, GOOD.replace("{name: infantry, symbol: infantry}", "{name: infantry}"))
    assert errors[0].startswith(f"{tmp_path / 'c.yaml'}:5:") and "needs `symbol:`" in errors[0]
    assert "machine-gun" in errors[0]


def test_a_missing_file_or_name_says_which_are_shipped(tmp_path: Path) -> None:
    with pytest.raises(DataErrors) as info:
        load_counters("no-such-game")
    assert "dog-sector" in str(info.value) and "no such counters file" in str(info.value)


def test_a_file_that_is_not_a_mapping_is_refused(tmp_path: Path) -> None:
    assert errors_of(tmp_path, "- just\n- a list\n")[0].startswith(f"{tmp_path / 'c.yaml'}:1:")


# --- counter faces from pictures (issue 21 item 4) -----------------------------------------

PICTURED = """\
name: Pictured
sides:
  blue: {name: Blue, colour: "#568cc8"}
unit_types:
  rifles: {symbol: infantry, steps: 2, images: {full: faces/rifles.png, reduced: faces/rifles-r.png}}
  guns: {symbol: artillery, images: {full: faces/guns.png}}
"""


def _pictures(folder: Path) -> None:
    import pygame

    (folder / "faces").mkdir(parents=True, exist_ok=True)
    for name, colour in (("rifles", (200, 40, 40)), ("rifles-r", (40, 200, 40)), ("guns", (40, 40, 200))):
        picture = pygame.Surface((60, 40))
        picture.fill(colour)
        pygame.image.save(picture, str(folder / "faces" / f"{name}.png"))


def test_a_unit_types_faces_may_be_pictures_drawn_instead_of_the_symbol(tmp_path: Path) -> None:
    """Item 4: image files for a type's faces (full and reduced), drawn instead of the
    NATO-style art, scaled with the counter size; a type with only a full picture gets
    the flipped face's white band over it."""

    from tabletop.engine.counters import load_counters
    from tabletop.ui.counter_art import unit_counter

    _pictures(tmp_path)
    path = tmp_path / "pictured.yaml"
    path.write_text(PICTURED)
    cs = load_counters(path)
    rifles, guns = cs.unit("rifles"), cs.unit("guns")
    assert rifles.image_full == (tmp_path / "faces" / "rifles.png").resolve() and guns.image_reduced is None
    for size in (40, 96):
        full = unit_counter(rifles, (86, 140, 200), size, "R1")
        flipped = unit_counter(rifles, (86, 140, 200), size, "R1", reduced=True)
        assert full.get_size() == (size, size)
        assert _near(full.get_at((size // 2, size // 2)), (200, 40, 40))
        assert _near(flipped.get_at((size // 2, size // 2)), (40, 200, 40))
    banded = unit_counter(guns, (86, 140, 200), 64, "G1", reduced=True)
    top, middle = banded.get_at((32, 9)), banded.get_at((32, 40))
    assert _near(middle, (40, 40, 200)) and top[0] > 180 and top[1] > 180  # the white band on top


def _near(colour: Any, want: tuple[int, int, int]) -> bool:
    """Within smooth scaling's rounding of ``want``."""
    return all(abs(a - b) <= 6 for a, b in zip(tuple(colour)[:3], want, strict=True))


@pytest.mark.parametrize(
    ("images", "says"),
    [
        ("{full: ../outside.png}", "outside the data file's folder"),
        ("{full: faces/none.png}", "'faces/none.png' not found in"),
        ("{reduced: faces/rifles.png}", "images need `full:`"),
        ("{full: faces/rifles.gif}", "not a PNG or JPEG"),
        ("{full: faces/rifles.png, flipped: x.png}", "flipped"),
    ],
)
def test_a_bad_counter_picture_is_refused_with_its_line(tmp_path: Path, images: str, says: str) -> None:
    from tabletop.engine.counters import load_counters

    _pictures(tmp_path)
    path = tmp_path / "pictured.yaml"
    path.write_text(PICTURED.replace("{full: faces/guns.png}", images))
    with pytest.raises(DataErrors) as info:
        load_counters(path)
    (error,) = [str(e) for e in info.value.errors]
    assert says in error and "pictured.yaml:6:" in error


def test_the_table_draws_a_scenarios_own_counter_sheet(tmp_path: Path) -> None:
    """Item 4 with item 3: a scenario naming its own counters (pictures, an import's) is
    drawn from that sheet in the window, not from its rule system's."""
    from tabletop.cli import main
    from tabletop.ui.counters import CounterLayer
    from tabletop.ui.table import open_table

    _pictures(tmp_path / "counters")
    (tmp_path / "counters" / "pictured.yaml").write_text(PICTURED)
    (tmp_path / "maps").mkdir()
    (tmp_path / "scenarios").mkdir()
    assert main(["map", "new", "--columns", "6", "--rows", "5", "--out", str(tmp_path / "maps" / "field.yaml")]) == 0
    scen = tmp_path / "scenarios" / "s.yaml"
    scen.write_text('name: S\nmap: field\ncounters: pictured\nunits:\n  - {id: B1, type: rifles, side: blue, hex: "0303"}\n')
    app = open_table(str(scen), seed=1)
    layer = next(c for c in app.components if isinstance(c, CounterLayer))
    assert layer.counter_set(app).unit("rifles").image_full == (tmp_path / "counters" / "faces" / "rifles.png").resolve()
