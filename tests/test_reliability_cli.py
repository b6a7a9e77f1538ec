"""Issue 11 (reliability), the command line: every argument a clear refusal or a right
answer. Each test cites its finding in ../shared/reliability-findings.md (T3, W2, H4,
W6, T4, M3, T1's lone surrogate, and section 4's argument misuse).

All runs go through ``tabletop.cli.main`` in-process; the data set is appendix A's, in
tests/data/base (with tests/data/dw-free.yaml), copied to a scratch folder where a case changes it.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import stat
import threading
import tracemalloc
from pathlib import Path

import pytest

from tabletop import limits
from tabletop.cli import main
from tabletop.engine.actions import END_PHASE
from tabletop.engine.game import SideView
from tabletop.engine.movement import MoveModel, reach
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.engine.setup import to_place
from tabletop.games import ruleset
from tabletop.hexgrid import Hex
from tabletop.shipped import resolve
from tabletop.sim import Stuck, play_out

DATA = Path(__file__).parent / "data"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of one command; argparse's own exit counts too."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def one_line(err: str) -> str:
    """The single problem line of a refusal (argparse adds its usage lines above)."""
    lines = [line for line in err.splitlines() if not line.startswith(("usage:", " "))]
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture
def case(tmp_path: Path) -> Path:
    """A scratch copy of the base data set (maps/small, scenarios/battle, counters/mine)."""
    shutil.copytree(DATA / "base", tmp_path / "case")
    shutil.copyfile(DATA / "dw-free.yaml", tmp_path / "case" / "scenarios" / "dw-free.yaml")
    return tmp_path / "case"


# --- T3: --pairs files and render --los on one hex -------------------------------------


def _binary(path: Path) -> Path:
    path.write_bytes(random.Random(11).randbytes(5000))
    return path


def _latin(path: Path) -> Path:
    path.write_bytes(b"\xff\xfe0101 0202\n")
    return path


@pytest.mark.parametrize("make", [_binary, _latin], ids=["T3-random-bytes", "T3-utf16-bom"])
def test_a_pairs_file_that_is_not_utf8_is_named_with_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, make: object
) -> None:
    """Finding T3: UnicodeDecodeError became `FILE:LINE: not UTF-8 text ...; save it as UTF-8`."""
    pairs = make(tmp_path / "pairs.txt")  # type: ignore[operator]
    code, out, err = run(capsys, "los", "dog-sector", "--pairs", str(pairs))
    line = one_line(err)
    assert code == 2 and out == ""
    assert line.startswith(f"{pairs}:1: not UTF-8 text") and line.endswith("save it as UTF-8")


def test_every_bad_pairs_line_is_reported_and_none_answered(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Finding T3: each bad line gets its own `FILE:LINE:`; good lines are not answered."""
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("0101 0202\nnobody 0101\n0101 9999\n0101\n# fine\n0101 0202 0303\n", encoding="utf-8")
    code, out, err = run(capsys, "los", "dog-sector", "--pairs", str(pairs))
    lines = err.splitlines()
    assert code == 2 and out == ""
    assert [line.split(": ", 1)[0] for line in lines] == [f"{pairs}:{n}" for n in (2, 3, 4, 6)]
    assert "no unit 'nobody' here" in lines[0] and "not on the map" in lines[1]


def test_a_utf8_pairs_file_with_a_bom_is_answered(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Finding T3: UTF-8 text is read, a byte-order mark included; one answer a pair."""
    pairs = tmp_path / "pairs.txt"
    pairs.write_bytes(b"\xef\xbb\xbf0101 0202\n0101 0303  # second\n")
    code, out, _ = run(capsys, "los", "dog-sector", "--pairs", str(pairs), "--json")
    assert code == 0 and [json.loads(line)["to"] for line in out.splitlines()] == ["0202", "0303"]


@pytest.mark.parametrize(
    ("limit", "value", "text", "message"),
    [
        ("PAIRS_LINES", 3, "0101 0202\n" * 4, "4 lines; a --pairs file may hold at most 3"),
        ("PAIRS_BYTES", 15, "0101 0202\n" * 2, "more than 15 bytes"),
    ],
    ids=["T3-too-many-lines", "T3-too-many-bytes"],
)
def test_a_pairs_file_is_bounded_before_it_is_answered(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    limit: str,
    value: int,
    text: str,
    message: str,
) -> None:
    """Finding T3 (and the 100,000-line timing of section L): the pairs file is bounded."""
    monkeypatch.setattr(limits, limit, value)
    pairs = tmp_path / "pairs.txt"
    pairs.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "los", "dog-sector", "--pairs", str(pairs))
    assert code == 2 and out == "" and message in one_line(err) and one_line(err).startswith(str(pairs))


def _feed(fifo: Path) -> threading.Thread:
    """A writer for the pipe: if the command opened it (as it once did, and blocked), it
    would read a good pair and answer, and the test would see exit 0, not hang."""

    def write() -> None:
        with open(fifo, "w", encoding="utf-8") as f:
            f.write("0101 0202\n")

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def _fifo(folder: Path) -> Path:
    os.mkfifo(folder / "pipe")
    return folder / "pipe"


def _device(folder: Path) -> Path:
    path = folder / "device"
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError):
        pytest.skip("cannot make a device node here")
    return path


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (_fifo, "a FIFO (named pipe), not a file"),
        (_device, "a device, not a file"),
        (lambda folder: folder, "a folder, not a file"),
        (lambda folder: folder / "missing.txt", "no such file"),
    ],
    ids=["T3-fifo", "T3-device", "T3-folder", "T3-missing"],
)
def test_a_pairs_path_that_is_no_regular_file_is_refused_unopened(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, make: object, message: str
) -> None:
    """Section 4 / T3: a pipe or device is never opened (it would block or never end)."""
    folder = tmp_path / "in"
    folder.mkdir()
    path = make(folder)  # type: ignore[operator]
    feeder = _feed(path) if path.is_fifo() else None
    try:
        code, out, err = run(capsys, "los", "dog-sector", "--pairs", str(path))
    finally:
        if path.is_char_device():
            path.unlink()
        if feeder is not None:  # nobody read the pipe: be its reader, so the writer ends
            reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            feeder.join()
            os.close(reader)
    assert code == 2 and out == "" and one_line(err) == f"{path}: {one_line(err).split(': ', 1)[1]}"
    assert message in err


def test_pairs_and_from_to_together_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Section 4: FROM TO were silently ignored beside --pairs."""
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("0101 0202\n", encoding="utf-8")
    code, out, err = run(capsys, "los", "dog-sector", "0101", "0202", "--pairs", str(pairs))
    assert code == 2 and out == "" and "not both" in one_line(err)


def test_render_los_on_one_hex_draws_nothing_and_says_so_as_los_answers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Finding T3: `render --los 0101 0101` raised ValueError; `los` answers range 0."""
    code, out, _ = run(capsys, "los", "dog-sector", "0101", "0101", "--json")
    assert code == 0 and json.loads(out)["range"] == 0
    png = tmp_path / "x.png"
    code, out, err = run(capsys, "render", "dog-sector", "--out", str(png), "--size", "400x300", "--los", "0101", "0101")
    assert code == 0 and png.is_file() and "one hex (0101), range 0; no line drawn" in out and err == ""


# --- W2: one effective rule system ---------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "policy"),
    [
        (["reach", "{free}", "A1", "--json"], "free play"),
        (["viewshed", "{free}", "A1", "--range", "2", "--json"], "free play"),
        (["los", "{free}", "A1", "R1", "--json"], "free play"),
        (["reach", "{free}", "A1", "--rules", "dogs_of_war", "--json"], "Dogs of War"),
        (["reach", "dogs-of-war-demo", "A1", "--budget", "2", "--json"], "Dogs of War"),
        (["reach", "{dw}", "larry", "--json"], "Dogs of War"),
        (["los", "{dw}", "larry", "zack", "--json"], "Dogs of War"),
    ],
    ids=["W2-reach", "W2-viewshed", "W2-los", "W2-argument-first", "W2-map-rules", "W2-scenario-rules-reach", "W2-scenario-rules-los"],
)
def test_analyses_judge_by_argument_then_scenario_then_map(
    capsys: pytest.CaptureFixture[str], case: Path, argv: list[str], policy: str
) -> None:
    """Finding W2: reach took the map's rules while los took the scenario's."""
    # the small map with the terrain kinds Dogs of War judges by (finding W1 refuses others)
    small = (case / "maps" / "small.yaml").read_text()
    for key, kind in (("grass", "open"), ("woods", "trees"), ("water", "river")):
        small = small.replace(f"  {key}: {{", f"  {key}: {{properties: {{kind: {kind}}}, ", 1)
    (case / "maps" / "small-dw.yaml").write_text(small.replace(", properties: {los: block}", ""))
    dw = case / "scenarios" / "battle-dw.yaml"
    dw.write_text((case / "scenarios" / "battle.yaml").read_text().replace("map: small\n", "map: small-dw\nrules: dogs_of_war\n"))
    names = {"{free}": str(case / "scenarios" / "dw-free.yaml"), "{dw}": str(dw)}
    code, out, _ = run(capsys, *[names.get(a, a) for a in argv])
    assert code == 0 and json.loads(out)["policy"] == policy


@pytest.mark.parametrize("rules", ["devil_dogs", "omaha", "dog_sector", "dogfaces"])
def test_reach_under_a_scenario_rule_system_is_that_system_s_answer(
    capsys: pytest.CaptureFixture[str], case: Path, rules: str
) -> None:
    """Finding W2: with `rules:` in the base scenario, reach used free play; now the rule
    system judges (here it refuses the small map's terrain or units: finding W1) and every
    line names the scenario."""
    scenario = case / "scenarios" / "battle.yaml"
    scenario.write_text(scenario.read_text().replace("map: small\n", f"map: small\nrules: {rules}\n"))
    code, out, err = run(capsys, "reach", str(scenario), "larry")
    assert code == 2 and out == "" and err
    assert all(line.startswith(f"{scenario}:") for line in err.splitlines())


@pytest.mark.parametrize("where", ["maps/small.yaml", "scenarios/battle.yaml"])
@pytest.mark.parametrize("command", [["los", "0101", "0604"], ["viewshed", "0101"], ["reach", "larry"]])
def test_a_rule_system_tabletop_does_not_know_is_refused_not_free_play(
    capsys: pytest.CaptureFixture[str], case: Path, where: str, command: list[str]
) -> None:
    """Findings W2 and W3: the effective rule system comes from one place, which refuses
    a typo (`rules: dog_secter`) naming the file, where free play was silently used."""
    changed = case / where
    changed.write_text(changed.read_text().replace("\nmap: small\n", "\nmap: small\nrules: dog_secter\n").replace(
        "name: Small test map\n", "name: Small test map\nrules: dog_secter\n"))
    if command[0] == "reach" or where.startswith("scenarios"):
        target = case / "scenarios" / "battle.yaml"
    else:
        target = changed
    code, out, err = run(capsys, command[0], str(target), *command[1:])
    assert code == 2 and out == "" and one_line(err).startswith(str(changed))


# --- H4: reach --budget ---------------------------------------------------------------


@pytest.mark.parametrize("budget", ["999999999999999999999999999999", "100001", "-1", "1e9", "9" * 5000])
def test_a_budget_out_of_bounds_is_an_argument_error(capsys: pytest.CaptureFixture[str], budget: str) -> None:
    """Finding H4: `--budget 10**30` hung allocating buckets; now argparse refuses it."""
    code, out, err = run(capsys, "reach", "dogfaces-demo", "larry", "--budget", budget)
    assert code == 2 and out == "" and "argument --budget" in one_line(err)


@pytest.mark.parametrize("budget", ["0", str(limits.REACH_BUDGET)])
def test_budgets_within_bounds_are_answered(capsys: pytest.CaptureFixture[str], budget: str) -> None:
    """Finding H4: the bound itself is a legal budget; 0 leaves the unit where it is."""
    code, out, _ = run(capsys, "reach", "dogfaces-demo", "larry", "--budget", budget, "--json")
    reachable = json.loads(out)["reachable"]
    assert code == 0 and (reachable == {"0715": 0} if budget == "0" else len(reachable) > 100)


def test_reach_allocates_for_the_costs_reached_not_for_the_budget() -> None:
    """Finding H4: movement.reach made budget + 1 buckets (10**7 of them: ~560 MB)."""
    enter = {Hex(q, 0): 1 for q in range(1, 6)}
    tracemalloc.start()
    try:
        result = reach(MoveModel(budget=10**7, enter=enter), Hex(0, 0))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.costs[Hex(5, 0)] == 5 and peak < 1_000_000


# --- W6: sim with an option that hands an automatic phase to the player -------------------


def test_sim_plays_choose_landing_through(capsys: pytest.CaptureFixture[str]) -> None:
    """Finding W6: every game failed 'did not end within 100000 actions' after 1 action."""
    code, out, _ = run(capsys, "sim", "dog-sector", "--games", "1", "--option", "choose-landing=true", "--by", "none", "--json")
    report = json.loads(out)
    assert code == 0 and report["failed"] == [] and report["groups"][0]["played"] == 1


class _EndsPhases:
    """A bot that only ever ends the phase (it cannot land units by hand)."""

    def choose(self, view: SideView) -> dict[str, object]:
        return dict(END_PHASE)


def test_a_game_nobody_can_move_is_reported_stuck_at_once() -> None:
    """Finding W6: a stuck game is named as such, where it stuck, not after the limit."""
    opened = open_map_or_scenario("dog-sector")
    game = new_game(opened, ruleset(opened.rules), seed=1, options={"choose-landing": True}, history=False)
    auto_setup(game)
    with pytest.raises(Stuck, match=r"turn 1, Phase 1.*end-phase.* is refused \(.*still to be placed\)"):
        play_out(game, "american", _EndsPhases(), limit=50)
    assert game.state.result is None and len(game.entries) < 50


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--option", "nonsense=1"], "no option 'nonsense'"),
        (["--option", "choose-landing=maybe"], "'choose-landing' takes"),
        (["--by", "nope"], "--by 'nope'"),
        (["--by", ""], "--by ''"),
        (["--by", "bombardment", "--option", "bombardment=heavy"], "choose one"),
    ],
    ids=["W6-unknown-option", "W6-bad-value", "W6-unknown-by", "W6-empty-by", "W6-by-and-option"],
)
def test_sim_checks_options_and_by_before_any_game(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    """Finding W6: options and --by are checked against the scenario before play starts."""
    code, out, err = run(capsys, "sim", "dog-sector", "--games", "1", *argv)
    assert code == 2 and out == "" and message in one_line(err) and "games (" not in err


# --- T4: a die rolled before setup is done ------------------------------------------------


@pytest.mark.parametrize("source", ["dog-sector", "dogfaces-demo", "dogs-of-war"])
@pytest.mark.parametrize("action", [{"do": "roll", "n": 2, "sides": 6}, {"do": "note", "text": "before setup"}])
def test_a_roll_or_note_during_setup_is_not_a_placement(source: str, action: dict[str, object]) -> None:
    """Finding T4: a free-play roll before setup raised StopIteration in _setup_apply."""
    opened = open_map_or_scenario(source)
    game = new_game(opened, ruleset(None), seed=3)
    waiting = len(to_place(game.state.map, game.setup)) if game.setup is not None else 0
    entry = game.play(action)
    assert game.state.phase == "setup" and len(entry.rolls) == (1 if action["do"] == "roll" else 0)
    assert (len(to_place(game.state.map, game.setup)) if game.setup is not None else 0) == waiting
    assert game.replay().to_json() == game.state.to_json()


# --- M3: unit lookups name the scenario ---------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "what"),
    [
        (["los", "{s}", "nobody", "zack"], "FROM"),
        (["los", "{s}", "larry", "nobody"], "TO"),
        (["viewshed", "{s}", "nobody"], "FROM"),
        (["reach", "{s}", "nobody"], "UNIT"),
        (["reach", "{s}", "larry", "--to", "nobody"], "--to"),
    ],
    ids=["M3-los-from", "M3-los-to", "M3-viewshed", "M3-reach", "M3-reach-to"],
)
def test_an_unknown_unit_names_the_scenario_and_its_units(
    capsys: pytest.CaptureFixture[str], case: Path, argv: list[str], what: str
) -> None:
    """Finding M3: `FROM 'larry': hex label ... units here: True, zack` had no file."""
    scenario = case / "scenarios" / "battle.yaml"
    code, out, err = run(capsys, *[str(scenario) if a == "{s}" else a for a in argv])
    line = one_line(err)
    assert code == 2 and out == ""
    assert line.startswith(f"{scenario}: {what}: no unit 'nobody' here (units: larry, zack); give a unit id")


def test_render_reach_of_an_unknown_unit_lists_the_units(capsys: pytest.CaptureFixture[str], case: Path, tmp_path: Path) -> None:
    """Finding M3: render --reach said only 'no unit with that id here'."""
    code, _, err = run(
        capsys, "render", str(case / "scenarios" / "battle.yaml"), "--out", str(tmp_path / "x.png"),
        "--size", "400x300", "--reach", "nobody",
    )  # fmt: skip
    assert code == 2 and "(units: larry, zack)" in one_line(err) and not (tmp_path / "x.png").exists()


def test_a_unit_asked_of_a_map_says_a_map_has_none(capsys: pytest.CaptureFixture[str]) -> None:
    """Finding M3: reach on a bare map lists 'units: none'; say why."""
    code, _, err = run(capsys, "reach", str(resolve("dogfaces", "maps")), "larry")  # the map, not the scenario
    assert code == 2 and "no units here (a map); give a scenario with units" in one_line(err)


# --- T1 (printing): a lone surrogate never crashes a print ---------------------------------


def test_a_path_that_is_not_utf8_prints(capsys: pytest.CaptureFixture[str], case: Path) -> None:
    """Finding T1: printing a name with a lone surrogate raised UnicodeEncodeError."""
    odd = case / os.fsdecode(b"odd\xffname.yaml")
    shutil.copy(case / "maps" / "small.yaml", odd)
    code, out, _ = run(capsys, "map", str(odd))
    assert code == 0 and "odd\\udcffname.yaml" in out


def test_a_name_with_a_lone_surrogate_is_printed_or_refused(capsys: pytest.CaptureFixture[str], case: Path) -> None:
    """Finding T1: `name: "Small \\ud800 map"` passed validate and crashed `map`."""
    small = case / "maps" / "small.yaml"
    small.write_text(small.read_text().replace("name: Small test map", 'name: "Small \\ud800 map"'))
    code, out, err = run(capsys, "map", str(small))
    assert (code == 0 and "Small \\ud800 map" in out) or (code == 2 and one_line(err).startswith(str(small)))


# --- section 4: every argument, misused ----------------------------------------------------

LONG = "a" * 5000
MISUSE = [
    (["los", "a\0b", "0101", "0202"], "argument map", "NUL"),
    (["los", "", "0101", "0202"], "argument map", "empty path"),
    (["map", LONG], "argument map", "a path has at most 4095"),
    (["map", "x/" + "b" * 300], "argument map", "a file name has at most 255"),
    (["validate", "a\0b"], "argument PATH", "NUL"),
    (["sim", LONG], "argument scenario", "bytes"),
    (["render", "dog-sector", "--out", "a\0b.png"], "argument --out", "NUL"),
    (["play", "--load", LONG], "argument --load", "bytes"),
    (["play", "--save", "x\0.json"], "argument --save", "NUL"),
    (["los", "dog-sector", "--pairs", "p\0"], "argument --pairs", "NUL"),
    (["map", "new", "--columns", "5", "--rows", "5", "--out", LONG], "argument --out", "bytes"),
    (["los", "dog-sector", "0101", "0202", "--from-level", "1000"], "argument --from-level", "-999 to 999"),
    (["los", "dog-sector", "0101", "0202", "--to-level", "-1000"], "argument --to-level", "-999 to 999"),
    (["viewshed", "dog-sector", "0101", "--from-level", "9" * 5000], "argument --from-level", "out of range"),
    (["viewshed", "dog-sector", "0101", "--range", "0"], "argument --range", "1 to 999"),
    (["viewshed", "dog-sector", "0101", "--range", "-3"], "argument --range", "1 to 999"),
    (["los", "dog-sector", "0101", "0202", "--rules", "chess"], "argument --rules", "unknown rule system"),
    (["render", "dog-sector", "--out", "x.png", "--rules", "dog_secter"], "argument --rules", "unknown rule system"),
    (["play", "--rules", ""], "argument --rules", "unknown rule system"),
    (["play", "--seed", "-1"], "argument --seed", "0 to"),
    (["play", "--seed", "9" * 5000], "argument --seed", "out of range"),
    (["play", "--frames", "0"], "argument --frames", "1 to 999"),
    (["play", "--size", "0x0"], "argument --size", "width"),
    (["sim", "dog-sector", "--seed", "1" + "0" * 30], "argument --seed", "out of range"),
    (["sim", "dog-sector", "--games", "0"], "argument --games", "1 to"),
    (["sim", "dog-sector", "--games", str(limits.SIM_GAMES + 1)], "argument --games", "out of range"),
    (["sim", "dog-sector", "--games", "1e3"], "argument --games", "not a whole number"),
    (["sim", "dog-sector", "--jobs", "0"], "argument --jobs", "1 to"),
    (["sim", "dog-sector", "--jobs", "100000"], "argument --jobs", "out of range"),
    (["map", "new", "--columns", "0", "--rows", "5", "--out", "m.yaml"], "argument --columns", "1 to 999"),
    (["render", "dog-sector", "--out", "x.png", "--json"], "unrecognized arguments", "--json"),
    (["play", "--json"], "unrecognized arguments", "--json"),
]


@pytest.mark.parametrize(("argv", "where", "message"), MISUSE, ids=[" ".join(a)[:40] for a, _, _ in MISUSE])
def test_a_misused_argument_is_one_argparse_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], where: str, message: str
) -> None:
    """Section 4 of the findings: numbers, paths and names refused at the argument."""
    code, out, err = run(capsys, *argv)
    line = one_line(err)
    assert code == 2 and out == "" and where in line and message in line


def test_a_folder_or_a_pipe_as_the_map_is_a_clean_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Section 4: a folder or a FIFO given as the map is refused, and never opened."""
    os.mkfifo(tmp_path / "pipe.yaml")
    for path in (tmp_path, tmp_path / "pipe.yaml"):
        code, out, err = run(capsys, "los", str(path), "0101", "0202")
        assert code == 2 and out == "" and one_line(err).startswith(str(path))


@pytest.mark.parametrize(
    "argv",
    [
        ["reach", "dogfaces-demo", "larry", "--to", ""],
        ["los", "dog-sector", "", "0101"],
        ["viewshed", "dog-sector", "05 04"],
        ["reach", "dogfaces-demo", "larry", "--order", ""],
        ["reach", "dogfaces-demo", "larry", "--to", "9999"],
        ["los", "dog-sector", "\udcff", "0101"],
    ],
    ids=["empty-to", "empty-from", "spaced-label", "empty-order", "off-map-to", "surrogate-label"],
)
def test_odd_labels_and_names_are_one_line_errors(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """Section 4: empty strings and odd characters in labels get one clean line, exit 2."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["los", "dog-sector", "0101", "0202", "--json"],
        ["los", "dog-sector", "0101", "0202", "--from-level", "-999", "--to-level", "999", "--json"],
        ["viewshed", "dog-sector", "0101", "--range", "2", "--json"],
        ["reach", "dogfaces-demo", "larry", "--budget", "2", "--json"],
        ["map", "dog-sector", "--json"],
        ["validate", str(DATA / "maps" / "small.yaml"), "--json"],
    ],
    ids=["los", "los-levels", "viewshed", "reach", "map", "validate"],
)
def test_json_is_one_document(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """Section 4: --json with every command that has it prints parseable JSON."""
    code, out, _ = run(capsys, *argv)
    assert code in (0, 2) and json.loads(out) is not None


def test_sim_takes_seed_zero_and_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    """Section 4: the smallest seed is legal, and sim --json is one document."""
    code, out, _ = run(capsys, "sim", "dog-sector", "--games", "1", "--seed", "0", "--by", "none", "--json")
    assert code == 0 and json.loads(out)["seed"] == 0
