"""Reliability of scenarios, maps and rule systems reached from data files (issue 11).

Each case starts from the base data set of the findings' appendix A (tests/data/
base: maps/small.yaml, scenarios/battle.yaml, counters/mine.yaml) copied into tmp_path,
makes the one change of a finding, and drives the real CLI in-process: the exit code,
every stderr line ``PATH:LINE: ...`` naming the file that is wrong, no traceback, and the
right answer where the input is legal. Finding ids are those of
../shared/reliability-findings.md (H2, H3, W1, W3, W4, W8, M1, M2, M3, T1).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.engine.dice import Dice
from tabletop.engine.scenario import load_scenario
from tabletop.engine.setup import SetupUndecided, solve
from tabletop.limits import NAME_CHARS, PIECE_COUNT

BASE = Path(__file__).resolve().parent / "data" / "base"
REPO = Path(__file__).resolve().parent.parent
RULE_SYSTEMS = ("dog_sector", "devil_dogs", "omaha", "dogfaces", "dogs_of_war")


@pytest.fixture
def case(tmp_path: Path) -> Path:
    """A scratch copy of the base data set."""
    folder = tmp_path / "case"
    shutil.copytree(BASE, folder)
    return folder


def scenario(case: Path) -> Path:
    return case / "scenarios" / "battle.yaml"


def small_map(case: Path) -> Path:
    return case / "maps" / "small.yaml"


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text() + text)


def after_first_line(path: Path, line: str) -> None:
    """Insert ``line`` as the file's line 2 (like sed '1a')."""
    first, rest = path.read_text().split("\n", 1)
    path.write_text(f"{first}\n{line}\n{rest}")


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def command(name: str, source: Path, tmp: Path) -> list[str]:
    """The argument list of ``name`` (validate, render, play) on ``source``."""
    if name == "validate":
        return ["validate", str(source)]
    if name == "render":
        return ["render", str(source), "--out", str(tmp / "out.png"), "--size", "400x300"]
    return [
        "play",
        str(source),
        "--frames",
        "1",
        "--size",
        "400x300",
        "--seed",
        "1",
        "--save",
        str(tmp / "s.json"),
    ]


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, list[str], str]:
    """Exit code, stderr lines and stdout of one command; argparse's own exit counts too."""
    try:
        code = main(argv)
    except SystemExit as exc:  # an argument refused by its type: argparse's usage and one line
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, [line for line in err.splitlines() if line.strip()], out


def refused(code: int, lines: list[str], wrong: Path, line: int | None = None, text: str = "") -> None:
    """Exit 2, no traceback, every line ``wrong:N: ...`` (N == line if given), and one
    of them containing ``text``."""
    assert code == 2, lines
    assert lines
    assert not any("Traceback" in x for x in lines)
    pattern = re.compile(rf"^{re.escape(str(wrong))}:(\d+): ")
    for x in lines:
        m = pattern.match(x)
        assert m, f"not {wrong}:LINE: {x}"
        if line is not None:
            assert int(m.group(1)) == line, x
    assert any(text in x for x in lines), lines


COMMANDS = ("validate", "render", "play")


# --- H2, H3: counts bounded before any work ------------------------------------------


@pytest.mark.parametrize("count", [10**12, 10**6])
@pytest.mark.parametrize("cmd", COMMANDS)
def test_h2_huge_setup_count_refused_at_its_line(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], cmd: str, count: int
) -> None:
    """Finding H2: a setup count of 10^12 hung every command and 10^6 crashed the solver
    (RecursionError); now it is refused at the count's line before any piece is made."""
    append(scenario(case), f"setup:\n  - {{side: blue, type: larry, count: {count}}}\n")
    code, lines, _ = run(capsys, command(cmd, scenario(case), tmp_path))
    refused(code, lines, scenario(case), 10, f"count {count} is more than {PIECE_COUNT} pieces")


@pytest.mark.parametrize("count", [10**12, 10**6])
@pytest.mark.parametrize("cmd", COMMANDS)
def test_h3_huge_reinforcement_count_refused_at_its_line(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], cmd: str, count: int
) -> None:
    """Finding H3: a huge reinforcements count passed validate and then play and render
    hung allocating pieces."""
    append(scenario(case), f"reinforcements:\n  - {{turn: 1, side: blue, type: larry, count: {count}}}\n")
    code, lines, _ = run(capsys, command(cmd, scenario(case), tmp_path))
    refused(code, lines, scenario(case), 10, f"count {count} is more than {PIECE_COUNT} pieces")


def test_h2_h3_total_pieces_bounded_at_the_entry_that_passes_it(
    case: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Findings H2/H3: entries each under the bound may not make more than PIECE_COUNT
    pieces in all; the entry that passes it is the line reported."""
    n = PIECE_COUNT // 2
    append(
        scenario(case),
        f"setup:\n  - {{side: blue, type: larry, count: {n}}}\n"
        f"reinforcements:\n  - {{turn: 1, side: red, type: zack, count: {n}}}\n",
    )
    code, lines, _ = run(capsys, ["validate", str(scenario(case))])
    refused(code, lines, scenario(case), 12, f"at most {PIECE_COUNT} in all")


def test_h2_big_legal_setup_plays(case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Finding H2: a setup of nearly PIECE_COUNT pieces (RecursionError before: one stack
    frame a piece) is solved and rendered."""
    append(scenario(case), f"setup:\n  - {{side: blue, type: larry, count: {PIECE_COUNT - 10}}}\n")
    code, lines, out = run(capsys, command("render", scenario(case), tmp_path))
    assert code == 0, lines
    assert "wrote" in out


def test_h2_solver_step_limit_holds_for_big_counts(case: Path) -> None:
    """Finding H2: the solver's step limit counts big nodes as several, so a tight
    setup of thousands of pieces ends as 'not proven' (SetupUndecided) within the limit
    instead of running for minutes."""
    append(
        scenario(case),
        "setup:\n  - {side: blue, type: larry, count: 5000, zone: {regions: [north-edge]}}\n"
        "constraints:\n  - {per-hex: all, pieces: {side: blue}, max: 900}\n",
    )
    s = load_scenario(scenario(case))
    with pytest.raises(SetupUndecided):
        solve(s.state(), s.setup_problem(), Dice(1), limit=1000)


def test_h2_undecided_setup_is_one_line_in_play(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding H2/T1: a setup the solver cannot decide within its limit is one line at
    the setup's line in play (was a SetupUndecided traceback), and validate accepts it."""
    append(
        scenario(case),
        f"setup:\n  - {{side: blue, type: larry, count: {PIECE_COUNT - 10}, zone: {{regions: [north-edge]}}}}\n"
        "constraints:\n  - {per-hex: all, pieces: {side: blue}, max: 2000}\n",
    )
    code, lines, _ = run(capsys, command("play", scenario(case), tmp_path))
    refused(code, lines, scenario(case), 10, "not proven impossible")


# --- T1: unsatisfiable setups in play and render ------------------------------------

UNSATISFIABLE = {
    "per-hex": (
        "setup:\n  - {side: blue, type: larry, count: 30, zone: {regions: [north-edge]}}\n"
        "constraints:\n  - {per-hex: all, pieces: {side: blue}, max: 1}\n",
        12,
    ),
    "run-and-every": (
        "setup:\n  - {side: blue, type: larry, count: 12, zone: {}}\n"
        "  - {side: red, type: zack, count: 12, zone: {}}\n"
        "constraints:\n  - {per-hex: all, pieces: {kind: unit}, max: 1}\n"
        "  - {run: setup, pieces: {side: blue}, max: 1}\n"
        "  - {every: setup, pieces: {side: red}, exactly: 5}\n",
        13,
    ),
}


@pytest.mark.parametrize("which", sorted(UNSATISFIABLE))
@pytest.mark.parametrize("cmd", COMMANDS)
def test_t1_unsatisfiable_setup_same_line_everywhere(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], cmd: str, which: str
) -> None:
    """Finding T1: play and render crashed with Unsatisfiable where validate gave one
    line; now all three give the same `file:line: constraints cannot all hold ...`."""
    text, line = UNSATISFIABLE[which]
    append(scenario(case), text)
    code, lines, _ = run(capsys, command(cmd, scenario(case), tmp_path))
    refused(code, lines, scenario(case), line, "constraints cannot all hold")
    assert len(lines) == 1


@pytest.mark.parametrize("cmd", ["render", "play"])
def test_fixed_pieces_that_break_a_constraint_refuse_to_begin(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], cmd: str
) -> None:
    """Fuzz finding (setup dropped from dog-sector.yaml, its constraints kept): with
    nothing to place, the solver never ran and beginning the game raised IllegalAction.
    Now one line at the constraint that the fixed pieces break."""
    append(scenario(case), "constraints:\n  - {total: all, pieces: {side: blue}, min: 3}\n")
    code, lines, _ = run(capsys, command(cmd, scenario(case), tmp_path))
    refused(code, lines, scenario(case), 10, "the setup cannot begin")
    assert len(lines) == 1


# --- W3: rule system names ------------------------------------------------------------


@pytest.mark.parametrize("cmd", [*COMMANDS, "los"])
def test_w3_rules_typo_in_map(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], cmd: str
) -> None:
    """Finding W3: `rules: dog_secter` in a map silently became free play."""
    after_first_line(small_map(case), "rules: dog_secter")
    argv = (
        ["los", str(small_map(case)), "0101", "0604"]
        if cmd == "los"
        else command(cmd, small_map(case), tmp_path)
    )
    code, lines, _ = run(capsys, argv)
    refused(code, lines, small_map(case), 2, "did you mean 'dog_sector'?")


@pytest.mark.parametrize("cmd", [*COMMANDS, "los"])
def test_w3_rules_typo_in_scenario(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], cmd: str
) -> None:
    """Findings W3/M3: `rules: chess` in a scenario became free play, and los blamed a
    `--rules` that was never given; now the scenario's line is named."""
    after_first_line(scenario(case), "rules: chess")
    src = scenario(case)
    argv = ["los", str(src), "larry", "zack"] if cmd == "los" else command(cmd, src, tmp_path)
    code, lines, _ = run(capsys, argv)
    refused(code, lines, src, 2, "unknown rule system 'chess'")
    assert not any("--rules" in x for x in lines)


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--rules", "chess", "--frames", "1", "--size", "400x300"],
        ["render", "dog-sector", "--out", "OUT", "--rules", "chess", "--size", "400x300"],
    ],
    ids=["play", "render"],
)
def test_w3_rules_option_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """Finding W3: `--rules chess` played free play (exit 0)."""
    argv = [str(tmp_path / "x.png") if a == "OUT" else a for a in argv]
    code, lines, _ = run(capsys, argv)
    assert code == 2
    problems = [x for x in lines if not x.startswith(("usage:", " "))]
    assert len(problems) == 1 and "argument --rules: unknown rule system 'chess'" in problems[0]
    assert not (tmp_path / "x.png").exists()


def test_w3_registry_refuses_unknown_names() -> None:
    """Finding W3: the registry raised nothing for an unknown name; free and None stay
    free play."""
    from tabletop.engine.freeplay_rules import FreePlayRules
    from tabletop.games import ruleset
    from tabletop.yamlfile import DataError

    with pytest.raises(DataError, match="did you mean 'dog_sector'"):
        ruleset("dog_sektor")
    assert isinstance(ruleset(None), FreePlayRules)
    assert isinstance(ruleset("free"), FreePlayRules)


# --- W1: terrain the rule system does not know -------------------------------------


@pytest.mark.parametrize("rules", RULE_SYSTEMS)
@pytest.mark.parametrize("cmd", ["validate", "los", "render"])
def test_w1_unknown_terrain_in_map_rules(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], rules: str, cmd: str
) -> None:
    """Finding W1: a map whose terrain its rule system does not know passed validate and
    line of sight took it for open ground; now it is refused at the terrain's line."""
    after_first_line(small_map(case), f"rules: {rules}")
    argv = (
        ["los", str(small_map(case)), "0101", "0604"]
        if cmd == "los"
        else command(cmd, small_map(case), tmp_path)
    )
    code, lines, _ = run(capsys, argv)
    refused(code, lines, small_map(case), text="terrain 'grass'")
    assert any(x.startswith(f"{small_map(case)}:9: terrain 'grass'") for x in lines)  # its line in the map


@pytest.mark.parametrize("rules", RULE_SYSTEMS)
@pytest.mark.parametrize("cmd", ["validate", "los", "play"])
def test_w1_unknown_terrain_with_scenario_rules(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], rules: str, cmd: str
) -> None:
    """Finding W1: with `rules:` set in the scenario the map passed as well; now the
    scenario's `rules:` line is named, with the map's file and terrain line."""
    after_first_line(scenario(case), f"rules: {rules}")
    src = scenario(case)
    argv = ["los", str(src), "larry", "zack"] if cmd == "los" else command(cmd, src, tmp_path)
    code, lines, _ = run(capsys, argv)
    refused(code, lines, src, None, f"({small_map(case)}:8): terrain 'grass'")
    assert any(
        x.startswith(f"{src}:2: map 'Small test map' ({small_map(case)}:8): terrain 'grass'") for x in lines
    )


def test_w1_devil_dogs_known_woods_but_not_grass(case: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Finding W1: Devil Dogs knows woods but not grass and water."""
    after_first_line(small_map(case), "rules: devil_dogs")
    code, lines, _ = run(capsys, ["validate", str(small_map(case))])
    refused(code, lines, small_map(case), text="terrain 'water'")
    assert not any("'woods'" in x for x in lines)


# --- M3: what a rule system needs of the map -------------------------------------------


@pytest.mark.parametrize("cmd", COMMANDS)
@pytest.mark.parametrize("where", ["map", "scenario"])
def test_m3_dog_sector_on_a_map_without_sections(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], cmd: str, where: str
) -> None:
    """Findings M3/T1: `rules: dog_sector` on a map lacking its section regions passed
    validate, gave a lineless error in play and a traceback in render."""
    wrong = small_map(case) if where == "map" else scenario(case)
    after_first_line(wrong, "rules: dog_sector")
    code, lines, _ = run(capsys, command(cmd, scenario(case) if where == "scenario" else wrong, tmp_path))
    refused(code, lines, wrong, text="DOG SECTOR needs a region 'section-1'")


def test_m3_rules_option_on_a_map_it_cannot_judge(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding M3: `render small.yaml --rules dog_sector` crashed in the rule system."""
    code, lines, _ = run(capsys, [*command("render", small_map(case), tmp_path), "--rules", "dog_sector"])
    assert code == 2
    assert lines and all(x.startswith(f"--rules: map 'Small test map' ({small_map(case)}:") for x in lines)
    assert any("section-1" in x for x in lines)


# --- W4: units and markers checked against the counters ------------------------------

W4_CASES = {
    "moe": (('{id: larry, type: larry, side: blue, hex: "0104"}', '{id: larry, type: moe, side: blue, hex: "0104"}'), 5, "unknown unit type 'moe'"),
    "green": (('{id: larry, type: larry, side: blue, hex: "0104"}', '{id: larry, type: larry, side: green, hex: "0104"}'), 5, "unknown side 'green'"),
    "fog": (('{type: smoke, hex: "0302"}', '{type: fog, hex: "0302"}'), 8, "unknown marker 'fog'"),
    "id-true": (("{id: larry,", "{id: true,"), 5, "needs `id:`"),
}  # fmt: skip


@pytest.mark.parametrize("which", sorted(W4_CASES))
@pytest.mark.parametrize("cmd", ["validate", "render"])
def test_w4_units_and_markers_checked(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], which: str, cmd: str
) -> None:
    """Finding W4: types and sides in `units:`/`markers:` were not checked against the
    counters (setup entries were), and `id: true` became the id 'True'."""
    (old, new), line, text = W4_CASES[which]
    replace(scenario(case), old, new)
    code, lines, _ = run(capsys, command(cmd, scenario(case), tmp_path))
    refused(code, lines, scenario(case), line, text)


def test_w4_suggests_the_nearest_type(case: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Finding W4: a misspelt unit type gets the nearest word."""
    replace(scenario(case), "{id: larry, type: larry,", "{id: larry, type: lary,")
    code, lines, _ = run(capsys, ["validate", str(scenario(case))])
    refused(code, lines, scenario(case), 5, "did you mean 'larry'?")


def test_w4_rule_system_counters_without_counters_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding W4: belleau-wood-demo (no `counters:`; its rule system's sheet applies)
    accepted `type: no_such_counter_xyz` in `units:`."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    text = (REPO / "scenarios" / "belleau-wood-demo.yaml").read_text()
    assert "\nunits:\n" in text and "\ncounters:" not in text
    text = text.replace(
        "\nunits:\n", '\nunits:\n  - {id: X9, type: no_such_counter_xyz, side: allied, hex: "1510"}\n', 1
    )
    path = folder / "bw.yaml"
    path.write_text(text)
    line = text.splitlines().index('  - {id: X9, type: no_such_counter_xyz, side: allied, hex: "1510"}') + 1
    code, lines, _ = run(capsys, ["validate", str(path)])
    refused(code, lines, path, line, "unknown unit type 'no_such_counter_xyz'")


# --- M1, M2: errors of the files a scenario reaches -----------------------------------


@pytest.mark.parametrize("cmd", COMMANDS)
def test_m1_counters_error_keeps_its_file_and_line(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], cmd: str
) -> None:
    """Finding M1: a counters error reached through a scenario was reported at the
    scenario's `counters:` line without the counters file's own line."""
    counters = case / "counters" / "mine.yaml"
    replace(counters, "label: JET}", "label: JETPACKER}")
    code, lines, _ = run(capsys, command(cmd, scenario(case), tmp_path))
    refused(code, lines, counters, 7, "`label` in unit type 'larry' is 9 characters")


def _broken_symlink(p: Path) -> None:
    p.symlink_to(p.parent / "nowhere.yaml")


def _directory(p: Path) -> None:
    p.mkdir()


def _fifo(p: Path) -> None:
    os.mkfifo(p)


def _loop(p: Path) -> None:
    p.symlink_to(p.name)


UNREADABLE: dict[str, tuple[Callable[[Path], None], str]] = {
    "broken-symlink": (_broken_symlink, "broken symbolic link"),
    "directory": (_directory, "a folder"),
    "fifo": (_fifo, "a FIFO"),
    "symlink-loop": (_loop, "symbolic link loop"),
}


@pytest.mark.parametrize("kind", sorted(UNREADABLE))
@pytest.mark.parametrize("what", ["map", "counters"])
@pytest.mark.parametrize("cmd", ["validate", "play"])
def test_m2_unreadable_map_or_counters_named_with_why(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, what: str, cmd: str
) -> None:
    """Finding M2: a map that exists but cannot be read was reported as "no map named";
    now the path tried and why are named, and a FIFO is never opened (it would block)."""
    target = small_map(case) if what == "map" else case / "counters" / "mine.yaml"
    target.unlink()
    make, why = UNREADABLE[kind]
    make(target)
    code, lines, _ = run(capsys, command(cmd, scenario(case), tmp_path))
    refused(
        code,
        lines,
        scenario(case),
        2 if what == "map" else 3,
        f"{target} is {'' if why.startswith('a ') else 'a '}{why}",
    )


@pytest.mark.parametrize("key", ["map", "counters"])
@pytest.mark.parametrize("cmd", COMMANDS)
def test_t1_name_too_long(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, cmd: str
) -> None:
    """Finding T1: `map: aaaa...` (5000 characters) raised OSError File name too long."""
    replace(scenario(case), f"{key}: {'small' if key == 'map' else 'mine'}", f"{key}: {'a' * 5000}")
    code, lines, _ = run(capsys, command(cmd, scenario(case), tmp_path))
    refused(code, lines, scenario(case), 2 if key == "map" else 3, f"at most {NAME_CHARS - 5}")


# --- W8, T1: validate ------------------------------------------------------------------


def test_w8_validate_a_bare_shipped_name_from_another_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding W8: `tabletop validate dog-sector` answered "no such file or folder"."""
    monkeypatch.chdir(tmp_path)
    code, lines, out = run(capsys, ["validate", "dog-sector"])
    assert code == 0, lines
    assert "scenario: DOG SECTOR" in out


def test_w8_validate_an_unknown_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding W8: a name that is neither a path nor shipped is one clear line."""
    monkeypatch.chdir(tmp_path)
    code, lines, _ = run(capsys, ["validate", "dog-sektor"])
    assert code == 2 and len(lines) == 1 and lines[0].startswith("dog-sektor: no such file or folder")


def test_t1_validate_folder_reports_every_file(case: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Finding T1: validating a folder stopped at the first crash; now every file is
    reported, the broken ones in the middle included."""
    folder = case / "all"
    folder.mkdir()
    good = (scenario(case).read_text(), small_map(case).read_text())
    (folder / "a-map.yaml").write_text(good[1])
    bad = good[0].replace("map: small", "map: small\nrules: dog_secter")
    (folder / "b-bad.yaml").write_text(bad + "setup:\n  - {side: blue, type: larry, count: 1000000}\n")
    (folder / "c-bad-map.yaml").write_text(
        good[1].replace("name: Small test map", "name: Small test map\nrules: omaha")
    )
    (folder / "d-map.yaml").write_text(good[1])
    shutil.copy(case / "counters" / "mine.yaml", folder / "mine.yaml")
    code, lines, out = run(capsys, ["validate", str(folder)])
    assert code == 2
    assert f"ok  {folder / 'a-map.yaml'}" in out and f"ok  {folder / 'd-map.yaml'}" in out
    assert any(x.startswith(f"{folder / 'b-bad.yaml'}:3: unknown rule system") for x in lines)
    assert any(x.startswith(f"{folder / 'c-bad-map.yaml'}:9: terrain 'grass'") for x in lines)
    assert lines[-1] == "3 of 5 files valid"


def test_shipped_data_all_valid(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Every shipped map, counters file and scenario passes the new checks (W1, W3, W4, M3)."""
    monkeypatch.chdir(REPO)
    code, lines, out = run(capsys, ["validate", "maps/", "counters/", "scenarios/"])
    assert code == 0, lines
    assert out.count("ok  ") == len(list(REPO.glob("maps/*.yaml"))) + len(
        list(REPO.glob("counters/*.yaml"))
    ) + len(list(REPO.glob("scenarios/*.yaml")))


def test_base_set_is_legal(case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The unchanged base set validates and renders (the cases above each differ by one change)."""
    for cmd in ("validate", "render"):
        code, lines, _ = run(capsys, command(cmd, scenario(case), tmp_path))
        assert code == 0, lines


def test_t1_validate_folder_with_a_fifo_and_a_missing_argument(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Findings T1/M2: a FIFO inside a validated folder is reported, never opened (it
    would block), and a missing argument does not stop the others from being checked."""
    folder = case / "maps"
    os.mkfifo(folder / "pipe.yaml")
    missing = tmp_path / "nothere.yaml"
    code, lines, out = run(capsys, ["validate", str(folder), str(missing)])
    assert code == 2
    assert f"ok  {small_map(case)}" in out
    assert (
        f"{folder / 'pipe.yaml'}: it is a FIFO (named pipe), not a file; validate takes YAML files and folders"
        in lines
    )
    assert any(x.startswith(f"{missing}: no such file or folder") for x in lines)
    assert lines[-1] == "1 of 3 files valid"


@pytest.mark.parametrize("cmd", ["render", "play"])
def test_m2_fifo_given_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cmd: str
) -> None:
    """Finding M2: a FIFO named on the command line is refused as such, without opening it."""
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)
    code, lines, _ = run(capsys, command(cmd, pipe, tmp_path))
    assert code == 2
    assert lines == [f"{pipe}: it is a FIFO (named pipe), not a file; give a YAML data file"]


@pytest.mark.parametrize("rules", RULE_SYSTEMS)
@pytest.mark.parametrize("cmd", ["los", "viewshed", "reach"])
def test_w1_rules_option_on_unknown_terrain(
    case: Path, capsys: pytest.CaptureFixture[str], rules: str, cmd: str
) -> None:
    """Finding W1: `--rules X` judged a map whose terrain X does not know (open ground
    for line of sight); now refused, naming the map's file and terrain line."""
    argv = {
        "los": ["los", str(small_map(case)), "0101", "0604"],
        "viewshed": ["viewshed", str(small_map(case)), "0101"],
        "reach": ["reach", str(scenario(case)), "larry"],
    }[cmd]
    code, lines, _ = run(capsys, [*argv, "--rules", rules])
    assert code == 2
    assert lines and all(x.startswith(f"--rules: map 'Small test map' ({small_map(case)}:") for x in lines)
    assert any("terrain 'grass'" in x for x in lines)


@pytest.mark.parametrize("cmd", ["validate", "los"])
def test_m3_sides_the_rule_system_does_not_name(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], cmd: str
) -> None:
    """Finding M3: `los larry zack` with DOG SECTOR rules and Blue/Red units gave a
    lineless "DOG SECTOR fire needs one of 'american', 'german'"; now the unit's side is
    refused at its line when the scenario is opened."""
    path = case / "scenarios" / "ds.yaml"
    path.write_text(
        "name: x\nmap: dog-sector\ncounters: mine\nunits:\n"
        '  - {id: larry, type: larry, side: blue, hex: "0104"}\n'
        '  - {id: zack, type: zack, side: red, hex: "0110"}\n'
    )
    argv = ["los", str(path), "larry", "zack"] if cmd == "los" else ["validate", str(path)]
    code, lines, _ = run(capsys, argv)
    refused(code, lines, path, None, "unknown side 'blue'; the rules of DOG SECTOR name: american, german")
    assert [x.split(": ", 1)[0] for x in lines] == [f"{path}:5", f"{path}:6"]


@pytest.mark.parametrize("cmd", ["validate", "render", "map"])
def test_t1_name_too_long_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cmd: str
) -> None:
    """Finding T1: a 5000-character name raised OSError File name too long; now the
    path argument is refused in one line with the name shortened (validate: W8's
    shipped-name lookup must not crash)."""
    name = "a" * 5000
    argv = command(cmd, Path(name), tmp_path) if cmd != "map" else ["map", name]
    code, lines, _ = run(capsys, argv)
    assert code == 2
    problems = [x for x in lines if not x.startswith(("usage:", " "))]
    assert len(problems) == 1 and "'" + "a" * 60 + "'... (5000 characters)" in problems[0]
    assert len(problems[0]) < 300


def test_h2_setup_entries_bounded_by_map_size(case: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Finding H2: the solver shuffles every map hex once per setup entry; many entries
    on a big map (minutes and gigabytes before) are refused at the entry passing
    limits.SETUP_HEXES."""
    from tabletop.limits import SETUP_HEXES

    text = small_map(case).read_text()
    side = 99
    text = text.replace("columns: 6\n  rows: 4", f"columns: {side}\n  rows: {side}")
    text = (
        text.split("rows: |")[0]
        + 'hexes:\n  "0504": woods\nregions:\n  north-edge: {kind: setup, rows: [1, 1]}\n'
    )
    small_map(case).write_text(text)
    fit = SETUP_HEXES // (side * side)
    entries = "".join(f"  - {{side: blue, type: larry, count: 1, id: e{i}}}\n" for i in range(fit + 1))
    append(scenario(case), "setup:\n" + entries)
    code, lines, _ = run(capsys, ["validate", str(scenario(case))])
    refused(code, lines, scenario(case), 10 + fit, f"at most {fit} setup entries fit this map")
