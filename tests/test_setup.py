"""Scenario setup: placement zones, constraints, the seeded solver, the checker's words,
conflicts, refusals, and the scenario keys that carry them.

The setup is DOG SECTOR's (dog_sector_player_aid.txt, the setup lines that open the
text, "German setup", and Table 2, the pre-landing bombardment results), on the shipped
dog-sector map: six trench sections of six trench hexes, three obstacle rows (rows 5-7).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.board import Map, load_map
from tabletop.cli import main
from tabletop.engine.dice import Dice
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.scenario import Scenario, load_scenario, setup_errors
from tabletop.engine.setup import (
    Constraint,
    PieceFilter,
    Placement,
    SetupProblem,
    SetupUndecided,
    Unsatisfiable,
    Zone,
    check,
    refusal,
    solve,
    to_place,
)
from tabletop.hexgrid import neighbors
from tabletop.yamlfile import DataErrors

TRENCH = Zone(frozenset({"trench"}))
GERMAN_TYPES = {"infantry": 9, "mg-pillbox": 6, "at-gun": 6, "panzerfaust": 3}
OBSTACLES = ("barbed-wire", "land-mine", "tank-obstacle")
# Table 2: cleared barbed wire / land mines / tank obstacles per bombardment level
CLEARED = {"light": (3, 4, 1), "moderate": (6, 8, 2), "heavy": (9, 12, 3)}


@pytest.fixture(scope="module")
def board() -> Map:
    return load_map(REPO / "maps" / "dog-sector.yaml")


def germans(counts: dict[str, int] = GERMAN_TYPES, zone: Zone = TRENCH) -> tuple[Placement, ...]:
    return tuple(
        Placement(
            tuple(f"german-{t}-{i}" for i in range(1, n + 1)),
            t,
            "german",
            "unit",
            zone,
            10 + k,
            f"{t} in trenches",
        )
        for k, (t, n) in enumerate(counts.items())
    )


EVERY_INFANTRY = Constraint(
    "every", PieceFilter("german", "infantry"), 1, 2, group="section",
    text="one German infantry in every trench section", line=41,
)  # fmt: skip
ONE_PER_TRENCH = Constraint(
    "per-hex", PieceFilter("german", None, "unit"), None, 1, zone=TRENCH,
    text="no trench hex holds more than one German unit", line=44,
)  # fmt: skip
GERMAN_CONSTRAINTS = (
    EVERY_INFANTRY,
    Constraint("every", PieceFilter("german", "mg-pillbox"), 1, 1, group="section", line=42),
    Constraint("every", PieceFilter("german", "at-gun"), 1, 1, group="section", line=43),
    Constraint("every", PieceFilter(None, "panzerfaust"), None, 1, group="section", line=45,
               text="3 panzerfausts in 3 different sections"),
    ONE_PER_TRENCH,
)  # fmt: skip


def german_problem() -> SetupProblem:
    return SetupProblem(germans(), GERMAN_CONSTRAINTS)


def section_of(board: Map, piece: Piece) -> str:
    return next(r.key for r in board.regions_of(piece.hex) if r.kind == "section")


# --- the solver and the checker agree ------------------------------------------------------


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_every_solved_german_setup_passes_the_checker(board: Map, seed: int) -> None:
    """DOG SECTOR German setup: 1 infantry in every trench section, the other 3 in 3
    different sections; 1 MG pillbox and 1 AT gun in every section; 3 panzerfausts in 3
    different sections; no trench hex holds more than one German unit."""
    state = MapState(board)
    placed = solve(state, german_problem(), Dice(seed))
    assert state.pieces() == []  # the solver works on a copy
    assert len(placed) == 24
    after = MapState.of(board, placed)
    assert check(after, german_problem()) == []
    assert all(board.terrain[p.hex] == "trench" for p in placed)
    assert len({p.hex for p in placed}) == 24
    infantry_sections = [section_of(board, p) for p in placed if p.type == "infantry"]
    assert sorted(infantry_sections.count(f"section-{i}") for i in range(1, 7)) == [1, 1, 1, 2, 2, 2]


def test_the_same_seed_gives_the_same_setup_and_others_differ(board: Map) -> None:
    state = MapState(board)
    first = solve(state, german_problem(), Dice(7))
    assert solve(state, german_problem(), Dice(7)) == first
    assert len({tuple(p.hex for p in solve(state, german_problem(), Dice(s))) for s in range(5)}) == 5


def test_pieces_already_on_the_map_stay_and_only_the_rest_are_placed(board: Map) -> None:
    state = MapState(board)
    setup = solve(state, german_problem(), Dice(3))
    partial = MapState.of(board, setup[:10])
    rest = solve(partial, german_problem(), Dice(4))
    assert [p.id for p in rest] == [p.id for p in setup[10:]]
    assert check(MapState.of(board, setup[:10] + rest), german_problem()) == []
    assert [p.id for p in to_place(partial, german_problem())] == [p.id for p in setup[10:]]


# --- Table 2: obstacle rows and cleared markers ---------------------------------------------


def obstacle_markers(board: Map) -> str:
    """Rows 5-7 filled with obstacles, the three types in turn along each row."""
    lines = []
    for row in (5, 6, 7):
        for col in range(1, board.grid.columns + 1):
            kind = OBSTACLES[(col + row) % 3]
            lines.append(f'  - {{type: {kind}, hex: "{col:02d}{row:02d}"}}')
    return "\n".join(lines)


def scenario_text(board: Map, extra: str = "") -> str:
    cleared = "\n".join(
        f"  - {{text: {kind} cleared ({level}), marker: cleared, id: cleared-{kind}, count: {n}, "
        f"zone: {{markers: [{kind}]}}, when: {{bombardment: {level}}}}}"
        for level, counts in CLEARED.items()
        for kind, n in zip(OBSTACLES, counts, strict=True)
    )
    return f"""name: Dog sector setup test
map: dog-sector
rules: dog_sector
counters: dog-sector
turns: 8
options:
  bombardment: {{name: Pre-landing bombardment, choices: [light, moderate, heavy], default: light}}
  limited-reinforcements: {{name: Limited reinforcements, default: false}}
markers:
{obstacle_markers(board)}
setup:
  - {{text: German infantry in trench hexes, side: german, type: infantry, count: 9, zone: {{terrain: [trench]}}}}
  - {{text: MG pillboxes in trench hexes, side: german, type: mg-pillbox, count: 6, zone: {{terrain: [trench]}}}}
  - {{text: AT guns in trench hexes, side: german, type: at-gun, count: 6, zone: {{terrain: [trench]}}}}
  - {{text: panzerfausts in trench hexes, side: german, type: panzerfaust, count: 3, zone: {{terrain: [trench]}}}}
{cleared}
constraints:
  - {{text: one German infantry in every trench section, every: section, pieces: {{side: german, type: infantry}}, min: 1, max: 2}}
  - {{text: one MG pillbox in every trench section, every: section, pieces: {{type: mg-pillbox}}, exactly: 1}}
  - {{text: one AT gun in every trench section, every: section, pieces: {{type: at-gun}}, exactly: 1}}
  - {{text: 3 panzerfausts in 3 different sections, every: section, pieces: {{type: panzerfaust}}, max: 1}}
  - {{text: no trench hex holds more than one German unit, per-hex: {{terrain: [trench]}}, pieces: {{side: german, kind: unit}}, max: 1}}
  - {{text: one cleared marker per obstacle, per-hex: all, pieces: {{type: cleared}}, max: 1}}
  - {{text: at least one cleared obstacle in every row, every: obstacle-row, pieces: {{type: cleared}}, min: 1}}
  - {{text: no more than 2 adjacent cleared obstacles in a row, run: obstacle-row, pieces: {{type: cleared}}, max: 2}}
  - {{text: heavy bombardment clears 9 barbed wire, total: {{markers: [barbed-wire]}}, pieces: {{type: cleared}}, exactly: 9, when: {{bombardment: heavy}}}}
reinforcements:
  - {{turn: 2, side: american, type: infantry, count: 3, box: wave-2}}
victory:
  exits: 6
{extra}"""


@pytest.fixture(scope="module")
def scenario(board: Map, tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    path = tmp_path_factory.mktemp("scen") / "dog-test.yaml"
    path.write_text(scenario_text(board))
    return load_scenario(path)


def test_a_scenario_carries_options_turns_reinforcements_and_victory(scenario: Scenario) -> None:
    assert scenario.counters == "dog-sector"
    assert scenario.turns == 8
    assert scenario.options["bombardment"].choices == ("light", "moderate", "heavy")
    assert scenario.options["limited-reinforcements"].default is False
    assert [(r.turn, r.type, r.count, r.box) for r in scenario.reinforcements] == [
        (2, "infantry", 3, "wave-2")
    ]
    assert scenario.victory == {"exits": 6}
    ids = [i for p in scenario.setup_problem().placements for i in p.ids]
    assert ids[:2] == ["german-infantry-1", "german-infantry-2"] and "cleared-barbed-wire-3" in ids


@pytest.mark.parametrize("level", list(CLEARED))
def test_every_bombardment_level_has_a_legal_obstacle_setup(scenario: Scenario, level: str) -> None:
    """DOG SECTOR Table 2: cleared barbed wire / land mines / tank obstacles 3/4/1 (light),
    6/8/2 (moderate), 9/12/3 (heavy); no more than 2 adjacent cleared obstacles in any one
    row; at least one obstacle cleared in every row."""
    problem = scenario.setup_problem({"bombardment": level})
    state = scenario.state()
    placed = solve(state, problem, Dice(11))
    after = MapState.of(state.board, state.pieces() + placed)
    assert check(after, problem) == []
    cleared = [p for p in placed if p.type == "cleared"]
    under = [next(m.type for m in after.markers_at(p.hex) if m.type != "cleared") for p in cleared]
    assert tuple(under.count(k) for k in OBSTACLES) == CLEARED[level]
    for row in (5, 6, 7):
        in_row = {p.hex for p in cleared if state.board.grid.offset_of(p.hex)[1] == row - 1}
        assert in_row
        assert not any(sum(n in in_row for n in neighbors(h)) >= 2 for h in in_row)  # no run of 3


def test_options_outside_the_choices_are_refused(scenario: Scenario) -> None:
    with pytest.raises(ValueError, match="bombardment"):
        scenario.setup_problem({"bombardment": "nuclear"})
    with pytest.raises(ValueError, match="no option 'weather'"):
        scenario.setup_problem({"weather": "rain"})


def test_obstacles_placed_by_the_solver_change_where_cleared_markers_may_go(board: Map) -> None:
    """Table 2 order: obstacles first, then cleared markers on hexes holding them."""
    row = Zone(regions=frozenset({"obstacle-row-1"}))
    problem = SetupProblem(
        (
            Placement(tuple(f"wire-{i}" for i in range(1, 6)), "barbed-wire", None, "marker", row),
            Placement(
                ("clr-1", "clr-2"), "cleared", None, "marker", Zone(markers=frozenset({"barbed-wire"}))
            ),
        ),
        (
            Constraint("per-hex", PieceFilter(None, "barbed-wire"), None, 1),
            Constraint("per-hex", PieceFilter(None, "cleared"), None, 1),
        ),
    )
    placed = solve(MapState(board), problem, Dice(5))
    wires = {p.hex for p in placed if p.type == "barbed-wire"}
    assert len(wires) == 5 and {p.hex for p in placed if p.type == "cleared"} < wires


# --- the checker's words ----------------------------------------------------------------------


def test_the_checker_explains_a_section_without_infantry_and_one_with_too_many(board: Map) -> None:
    infantry = germans({"infantry": 3})[0]
    section_1 = [h for h in board.grid.hexes() if board.terrain[h] == "trench"][:3]
    state = MapState.of(board, [infantry.piece(i, h) for i, h in zip(infantry.ids, section_1, strict=True)])
    words = [v.message for v in check(state, SetupProblem((infantry,), (EVERY_INFANTRY,)))]
    assert (
        "Trench section 1 holds 3 German infantry; at most 2 allowed (one German infantry in every trench section, line 41)"
        in words
    )
    assert (
        "Trench section 3 holds 0 German infantry; needs at least 1 (one German infantry in every trench section, line 41)"
        in words
    )
    assert len(words) == 6


def test_the_checker_explains_a_crowded_hex_a_total_a_run_and_a_zone(board: Map) -> None:
    h = board.hex_of("0212")
    row = [board.hex_of(f"{c:02d}05") for c in (4, 5, 6)]
    state = MapState.of(
        board,
        [
            Piece("a", "infantry", h, "german"),
            Piece("b", "at-gun", h, "german"),
            Piece("c", "infantry", board.hex_of("0101"), "german"),
        ]
        + [Piece(f"clr-{i}", "cleared", x, None, "marker") for i, x in enumerate(row)],
    )
    problem = SetupProblem(
        (Placement(("c",), "infantry", "german", "unit", TRENCH, 12, "German infantry go in trenches"),),
        (
            ONE_PER_TRENCH,
            Constraint("total", PieceFilter(None, "cleared", "marker"), 4, 4, line=50),
            Constraint("run", PieceFilter(None, "cleared", "marker"), None, 2, group="obstacle-row", line=51,
                       text="no more than 2 adjacent cleared obstacles in a row"),
        ),
    )  # fmt: skip
    words = [v.message for v in check(state, problem)]
    assert words == [
        "Trench hex 0212 holds 2 German units; at most 1 allowed (no trench hex holds more than one German unit, line 44)",
        "3 cleared markers on the map; needs exactly 4 (exactly 4 cleared markers on the map, line 50)",
        "Obstacle row 1 (seaward) has 3 adjacent hexes with cleared markers (0405 0505 0605); at most 2 allowed "
        "(no more than 2 adjacent cleared obstacles in a row, line 51)",
        "c stands on 0101, outside its zone: German infantry go on trench hexes (German infantry go in trenches, line 12)",
    ]


# --- no setup at all -----------------------------------------------------------------------------


def test_too_few_infantry_for_every_section_names_that_constraint_alone(board: Map) -> None:
    problem = SetupProblem(germans({"infantry": 5}), (EVERY_INFANTRY, ONE_PER_TRENCH))
    with pytest.raises(Unsatisfiable) as caught:
        solve(MapState(board), problem, Dice(1))
    assert caught.value.conflict == [EVERY_INFANTRY]
    assert "one German infantry in every trench section, line 41" in str(caught.value)


def test_37_german_units_on_36_trench_hexes_blames_the_zone_and_the_one_per_hex_rule(board: Map) -> None:
    problem = SetupProblem(germans({"infantry": 37}), (ONE_PER_TRENCH,))
    with pytest.raises(Unsatisfiable) as caught:
        solve(MapState(board), problem, Dice(1))
    conflict = caught.value.conflict
    assert [c.kind for c in conflict] == ["per-hex", "zone"]
    assert conflict[1].line == 10 and "line 44" in str(caught.value) and "line 10" in str(caught.value)


def test_a_search_that_runs_out_of_steps_says_so(board: Map) -> None:
    with pytest.raises(SetupUndecided, match="within 3 search steps"):
        solve(MapState(board), german_problem(), Dice(1), limit=3)


# --- placing by hand --------------------------------------------------------------------------


def test_refusal_names_the_zone_the_crowded_hex_and_a_setup_that_cannot_be_finished(board: Map) -> None:
    problem = german_problem()
    setup = solve(MapState(board), problem, Dice(2))
    infantry = [p for p in setup if p.type == "infantry"]
    mg = next(p for p in setup if p.type == "mg-pillbox")
    state = MapState(board)
    assert refusal(state, problem, infantry[0], board.hex_of("0101")) == (
        "not in the zone: German infantry go on trench hexes"
    )
    state.place(mg)
    assert refusal(state, problem, infantry[0], mg.hex) == (
        f"would put 2 German units in trench hex {board.label(mg.hex)}; at most 1 allowed "
        "(no trench hex holds more than one German unit, line 44)"
    )
    assert refusal(state, problem, infantry[0], infantry[0].hex) is None
    # 7 infantry filling sections 1-4 two by two except the last: the 8th in section 4
    # leaves one infantry for the two empty sections 5 and 6
    trench = [h for h in board.grid.hexes() if board.terrain[h] == "trench"]
    by_section = {s: [h for h in trench if section_of(board, Piece("x", "t", h)) == s] for s in
                  (f"section-{i}" for i in range(1, 7))}  # fmt: skip
    hexes = by_section["section-1"][1:3] + by_section["section-2"][1:3] + by_section["section-3"][1:3]
    hexes += by_section["section-4"][1:2]
    ids = problem.placements[0].ids
    crowded = MapState.of(
        board, [Piece(i, "infantry", h, "german") for i, h in zip(ids, hexes, strict=False)]
    )
    eighth = Piece(ids[7], "infantry", board.hex_of("0101"), "german")
    answer = refusal(crowded, problem, eighth, by_section["section-4"][2])
    assert answer is not None and answer.startswith("no legal setup remains after this placement: ")
    assert "one German infantry in every trench section, line 41" in answer


# --- scenario files and `tabletop validate` --------------------------------------------------


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


BASE = """name: t
map: dog-sector
rules: dog_sector
options:
  bombardment: {name: Bombardment, choices: [light, heavy], default: light}
setup:
  - {side: german, type: infantry, count: 5, zone: {terrain: [trench]}}
"""


@pytest.mark.parametrize(
    ("extra", "line", "words"),
    [
        ("constraints:\n  - {every: sektion, pieces: {type: infantry}, min: 1}\n", 9,
         "unknown region kind 'sektion'; did you mean 'section'? map 'Dog sector beach' has region kinds: landing-row, obstacle-row, section"),
        ("constraints:\n  - {every: section, pieces: {type: panzer}, min: 1}\n", 9,
         "unknown unit type or marker 'panzer'; did you mean 'panzerfaust'? DOG SECTOR counters have: at-gun"),
        ("constraints:\n  - {every: section, pieces: {type: infantry}, min: 3, max: 1}\n", 9,
         "min 3 is more than max 1; make min <= max"),
        ("constraints:\n  - {total: {regions: [beachhead]}, pieces: {type: infantry}, max: 1}\n", 9,
         "unknown region or region kind 'beachhead'"),
        ("constraints:\n  - {total: {terrain: [swamp]}, pieces: {type: infantry}, max: 1}\n", 9, "unknown terrain 'swamp'"),
        ("constraints:\n  - {total: all, pieces: {type: infantry}, max: 1, when: {weather: rain}}\n", 9,
         "`when` names unknown option 'weather'"),
        ("constraints:\n  - {total: all, pieces: {type: infantry}, max: 1, when: {bombardment: nuke}}\n", 9,
         "option 'bombardment' has no value 'nuke'; use one of light, heavy"),
        ("  - {side: german, type: infantry, count: -2, id: x}\n", 8, "`count` must be a whole number of at least 0"),
        ("  - {side: german, type: infantry, count: 2.5, id: x}\n", 8, "`count` must be a whole number of at least 0"),
        ("  - {side: germans, type: infantry, id: x}\n", 8, "unknown side 'germans'"),
        ("  - {side: german, marker: smoke, id: x}\n", 8, "unknown marker 'smoke'"),
        ("turns: many\n", 8, "`turns` must be a whole number"),
        ("surprise: 1\n", 8, "unknown key 'surprise' in a scenario"),
    ],
)  # fmt: skip
def test_a_bad_setup_gives_one_line_with_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, extra: str, line: int, words: str
) -> None:
    path = write(tmp_path, BASE + extra)
    with pytest.raises(DataErrors) as caught:
        load_scenario(path)
    assert len(caught.value.errors) == 1
    error = caught.value.errors[0]
    assert (error.path, error.line) == (str(path), line)
    assert words in error.message and "\n" not in str(error)
    code = main(["validate", str(path)])
    _, err = capsys.readouterr()
    assert code == 2
    assert f"{path}:{line}: " in err


def test_validate_refuses_a_setup_that_cannot_hold_under_one_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(
        tmp_path,
        BASE + "constraints:\n"
        "  - {text: an infantry in every section, every: section, pieces: {type: infantry}, min: 1, "
        "when: {bombardment: heavy}}\n",
    )
    scenario = load_scenario(path)
    [error] = setup_errors(scenario)
    assert error.line == 9
    assert error.message.startswith(
        "constraints cannot all hold: an infantry in every section, line 9 (with bombardment: heavy)"
    )
    assert main(["validate", str(path)]) == 2
    _, err = capsys.readouterr()
    assert err.splitlines() == [str(error)]


def test_validate_accepts_a_setup_that_holds_under_every_option(
    capsys: pytest.CaptureFixture[str], board: Map, tmp_path: Path
) -> None:
    path = write(tmp_path, scenario_text(board))
    assert main(["validate", str(path)]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith("ok  ")
