"""Bad saves are refused in one line naming the save, before anything is replayed; a
save never makes tabletop open a file outside its folder; dice rolled by hand survive a
save (issue 11, findings H1, X1, T2, M4, W7a, W7b, W7d in reliability-findings.md).

Every refusal goes through ``tabletop play --load`` in-process and must: exit 2, print
only lines that start with the save's path, print no traceback, and leave the save
byte-identical. The saves are edits of a real mid-game save made once per module, the
findings' ``mid.json`` (DOG SECTOR, seed 7, 60 bot actions after auto setup).
"""

from __future__ import annotations

import builtins
import hashlib
import io
import json
import os
import random
import shutil
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop.cli import main
from tabletop.engine import savecheck, savefile
from tabletop.engine.freeplay_rules import FreePlayRules
from tabletop.engine.game import Entry, Game, IllegalAction
from tabletop.engine.newgame import auto_setup, load_game, new_game
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.games import autoplayer_module, ruleset
from tabletop.shipped import shipped_dir

PLAY = ["--frames", "1", "--size", "400x300"]
SECRET = "root:$6$SECRET-HASH-NEVER-PRINTED:19000:0:99999:7:::"
Edit = Callable[[dict[str, Any]], None]


@pytest.fixture(scope="module")
def dog() -> Any:
    return open_map_or_scenario("dog-sector")


@pytest.fixture(scope="module")
def mid(tmp_path_factory: pytest.TempPathFactory, dog: Any) -> str:
    """The text of the findings' mid.json: turn 2, swamp, 62 log entries."""
    game = new_game(dog, ruleset(dog.rules), seed=7)
    auto_setup(game)
    mod = autoplayer_module(dog.rules)
    game.run({mod.SIDE: mod.autoplayer()}, limit=60)
    path = tmp_path_factory.mktemp("mid") / "mid.json"
    savefile.write_save(path, game, "dog-sector")
    return path.read_text(encoding="utf-8")


def edited(mid: str, edit: Edit) -> str:
    data = json.loads(mid)
    edit(data)
    return json.dumps(data, indent=1)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused(path: Path, capsys: pytest.CaptureFixture[str], *args: str, scenario: str | None = None) -> str:
    """Run `play [SCENARIO] --load PATH ARGS`: exit 2, every stderr line starts with the
    save's path, no traceback, the save unchanged. Returns stderr."""
    before = digest(path)
    code = main(["play", *([scenario] if scenario else []), "--load", str(path), *PLAY, *args])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert lines and all(line.startswith(str(path)) for line in lines), err
    assert digest(path) == before
    return err


def loads(path: Path, capsys: pytest.CaptureFixture[str], scenario: str | None = None) -> str:
    code = main(["play", *([scenario] if scenario else []), "--load", str(path), *PLAY])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "loaded" in out
    return out


def put(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def setter(*keys: Any, value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        for key in keys[:-1]:
            data = data[key]
        data[keys[-1]] = value

    return edit


# --- T2: every edit of the findings' table, W7d, H1 ------------------------------------

T2_EDITS: dict[str, tuple[Edit, str]] = {
    "T2-action-word": (setter("entries", 3, "action", value="move"), "(entries[3].action)"),
    "T2-action-list": (setter("entries", 3, "action", value=["move"]), "(entries[3].action)"),
    "T2-action-null": (setter("entries", 3, "action", value=None), "(entries[3].action)"),
    "T2-parent-9999": (setter("entries", 10, "parent", value=9999), "(entries[10].parent)"),
    "T2-boxes-list": (setter("initial", "boxes", value=[]), "(initial.boxes)"),
    "T2-options-list": (setter("initial", "options", value=["x"]), "(initial.options)"),
    "T2-rules-free": (setter("rules", value="free"), "not one of the free rules'"),
    "T2-rules-list": (setter("rules", value=["dog_sector"]), "(rules)"),
    "T2-rules-unknown": (setter("rules", value="chess"), "not a rule system"),
    "T2-source-int": (setter("source", value=5), "(source)"),
    "T2-source-null": (setter("source", value=None), "(source)"),
    "T2-source-list": (setter("source", value=["dog-sector"]), "(source)"),
    "W7d-turn-word": (setter("entries", 5, "turn", value="one"), "(entries[5].turn)"),
    "W7d-turn-wrong": (setter("entries", 5, "turn", value=9), "the log says turn 9"),
    "W7d-phase-wrong": (setter("entries", 5, "phase", value="land"), "(entries[5])"),
    "W7d-rolls": (setter("entries", 2, "rolls", value=[["x", "y", "z"]]), "(entries[2].rolls[0][1])"),
    "W7d-unknown-key": (setter("entries", 2, "colour", value="red"), "entries[2]."),
    "H1-self-parent": (setter("entries", 61, "parent", value=61), "the log is not a tree"),
    "H1-cycle-10-20": (setter("entries", 10, "parent", value=20), "the log is not a tree"),
    "H1-last-child-back": (setter("entries", 20, "last_child", value=3), "(entries[20].last_child)"),
    "head-out-of-log": (setter("head", value=62), "(head)"),
    "seed-text": (setter("seed", value="7"), "(seed)"),
    "seed-huge": (setter("seed", value=10**30), "(seed)"),
    "hand-dice-zero": (setter("hand_dice", value=[0]), "(hand_dice[0])"),
    "snapshot-piece-hex": (setter("snapshot", "pieces", 0, "hex", value="0803"), "(snapshot.pieces[0].hex)"),
    "initial-piece-off-map": (setter("initial", "pieces", 0, "hex", value=[500, 500]), "(initial)"),
    "unknown-top-key": (setter("extra", value=1), "is not a field"),
    # fuzz finding F10: a piece type the setup cannot place makes the solver give up
    "F10-setup-unsatisfiable": (setter("initial", "pieces", 21, "type", value="xx"), "entry 0"),
    "move-out-of-phase": (
        setter("entries", 40, "action", value={"do": "move", "piece": "A-tank-1", "to": "0101"}),
        "entry 40",
    ),
    # passes the rules' refusal but breaks the generic code: converted at the replay boundary
    "replay-raises": (
        setter("entries", 3, "action", value={"do": "remove", "edit": True, "piece": "A-tank-1", "box": [1]}),
        "entry 3",
    ),
}


@pytest.mark.parametrize("name", sorted(T2_EDITS))
def test_an_edited_save_is_refused_in_one_line(
    name: str, mid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Findings T2, H1, W7d: each edit is one clean line naming the save and the field."""
    edit, where = T2_EDITS[name]
    path = put(tmp_path / "bad.json", edited(mid, edit))
    err = refused(path, capsys)
    assert where in err
    assert err.count("\n") == 1


def test_the_unedited_save_loads(mid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The edits above are the only reason for the refusals."""
    out = loads(put(tmp_path / "mid.json", mid), capsys)
    assert "turn 2, swamp, 62 log entries" in out


def test_game_path_never_loops_on_a_broken_tree() -> None:
    """Finding H1, defensively: even a tree built in memory by mistake makes path()
    raise, never loop."""
    game = Game(FreePlayRules(), open_state(), 1)  # type: ignore[arg-type]
    game.entries = [Entry({"do": "note", "text": "a"}, 1), Entry({"do": "note", "text": "b"}, 0)]
    game.head = 1
    with pytest.raises(ValueError, match="not a tree"):
        game.path()
    game.entries[1].parent = 9999
    with pytest.raises(ValueError, match="not a tree"):
        game.path()


def open_state() -> Any:
    from tabletop.engine.pieces import MapState
    from tabletop.engine.state import GameState

    board = open_map_or_scenario("dogs-of-war")
    return GameState(MapState.of(board), turn=1, phase="play")  # type: ignore[arg-type]


# --- M4 and size bounds: numbers, nesting, bytes, entries -------------------------------


def test_a_seed_of_thousands_of_digits_names_the_save(
    mid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding M4: Python cannot read a 4301- or 5000-digit number; the message names
    the save and the line, not only Python's own words."""
    for digits in (4301, 5000):
        path = put(tmp_path / f"seed{digits}.json", mid.replace('"seed": 7', '"seed": ' + "9" * digits, 1))
        err = refused(path, capsys)
        assert f"{digits} digits at line" in err and "set_int_max_str_digits" not in err


@pytest.mark.parametrize(
    "name",
    ["whole-file", "first-entry", "inside-an-action"],
)
def test_deep_nesting_is_refused(
    name: str, mid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding T2: nesting deeper than limits.SAVE_DEPTH, in the whole file (200000
    levels), as the first entry (100000) or inside an action (100, which json reads)."""
    if name == "whole-file":
        text = '{"format": "tabletop-save", "version": 1, "x": ' + "[" * 200000 + "]" * 200000 + "}"
    elif name == "first-entry":
        text = mid.replace('"entries": [', '"entries": [' + "[" * 100000 + "]" * 100000 + ",", 1)
    else:
        deep: Any = 1
        for _ in range(100):
            deep = [deep]
        text = edited(mid, setter("entries", 3, "action", value={"do": "note", "text": "x", "deep": deep}))
    err = refused(put(tmp_path / "deep.json", text), capsys)
    assert "nested deeper than" in err


def test_a_save_larger_than_the_bound_is_not_read(
    mid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """limits.SAVE_BYTES is checked before the file is read (here lowered to 1000)."""
    monkeypatch.setattr(savefile, "SAVE_BYTES", 1000)
    assert "more than the 1000 bytes" in refused(put(tmp_path / "big.json", mid), capsys)


def test_a_save_with_more_entries_than_the_bound_is_refused(
    mid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """limits.SAVE_ENTRIES is checked before any entry is (here lowered to 10)."""
    monkeypatch.setattr(savecheck, "SAVE_ENTRIES", 10)
    assert "at most 10" in refused(put(tmp_path / "long.json", mid), capsys)


def test_a_pipe_is_not_read_as_a_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A FIFO given to --load would block a read forever: it is refused unopened."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    code = main(["play", "--load", str(fifo), *PLAY])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(str(fifo)) and "not a save file" in err


# --- X1: where a save's scenario may be ---------------------------------------------------


@pytest.fixture
def opened_paths(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every path opened for reading while the test runs (open, io.open, Path.open)."""
    seen: list[str] = []
    real_open = builtins.open

    def recording(file: Any, *args: Any, **kwargs: Any) -> Any:
        mode = args[0] if args else kwargs.get("mode", "r")
        if isinstance(file, (str, os.PathLike)) and not set("wax") & set(mode):
            seen.append(os.path.abspath(os.fspath(file)))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", recording)
    monkeypatch.setattr(io, "open", recording)
    yield seen


def secret_file(tmp_path: Path) -> Path:
    """A private file outside the save's folder whose lines must never be printed."""
    return put(tmp_path / "private" / "shadow.yaml", f"{SECRET}\nbin:x:2:\n")


@pytest.mark.parametrize("form", ["absolute", "dotdot", "symlink"])
def test_a_source_outside_the_save_folder_is_never_opened(
    form: str,
    mid: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    opened_paths: list[str],
) -> None:
    """Finding X1: a save naming /etc/shadow (here a secret file beside the save's
    folder) by its path, by `..`, or through a symlink in the save's folder is refused
    without opening it, printing none of it, and saying how to name a scenario."""
    secret = secret_file(tmp_path)
    saves = tmp_path / "saves"
    source = {"absolute": str(secret), "dotdot": "../private/shadow.yaml", "symlink": "link.yaml"}[form]
    if form == "symlink":
        saves.mkdir()
        (saves / "link.yaml").symlink_to(secret)
    path = put(saves / "bad.json", edited(mid, setter("source", value=source)))
    err = refused(path, capsys)
    assert "SECRET-HASH" not in err
    assert str(secret) not in opened_paths
    assert "outside the save's folder" in err and f"--load {path}" in err


def test_the_hint_names_the_scenario_and_that_works(
    dog: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Findings X1, W7a: a game on a scenario file elsewhere is saved with its absolute
    path; loading it alone is refused with the command to use, and that command loads."""
    scenario = tmp_path / "elsewhere" / "battle.yaml"
    scenario.parent.mkdir()
    shutil.copy(shipped_dir("scenarios") / "dog-sector.yaml", scenario)
    game = new_game(dog, ruleset(dog.rules), seed=3)
    auto_setup(game)
    path = tmp_path / "saves" / "game.json"
    path.parent.mkdir()
    put(path, json.dumps(savefile.to_json(game, str(scenario), folder=path.parent)))
    assert json.loads(path.read_text())["source"] == str(scenario.resolve())
    err = refused(path, capsys)
    assert f"tabletop play {scenario.resolve()} --load {path}" in err
    loads(path, capsys, scenario=str(scenario))


@pytest.mark.parametrize("kind", ["folder", "fifo", "device", "missing", "empty"])
def test_a_source_that_is_no_regular_file_is_refused(
    kind: str, mid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], opened_paths: list[str]
) -> None:
    """Findings X1, M4: a folder, pipe, device, missing file or empty name as the
    scenario is refused naming the save, and nothing of it is opened (no hang)."""
    saves = tmp_path / "saves"
    saves.mkdir()
    target = saves / "odd.yaml"
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "device":
        try:
            os.mknod(target, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        except (PermissionError, OSError):
            pytest.skip("cannot make a device node here")
    source = "" if kind == "empty" else "odd.yaml"
    path = put(saves / "bad.json", edited(mid, setter("source", value=source)))
    try:
        err = refused(path, capsys)
    finally:
        if kind == "device":
            target.unlink()
    assert "(source)" in err
    assert str(target) not in opened_paths


def test_a_broken_scenario_beside_the_save_is_named_not_printed(
    mid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding X1: a file in the save's folder may be opened, but its errors give its
    path and lines only, never its content as keys."""
    put(tmp_path / "passwd.yaml", f"{SECRET}: 1\nother-secret-line: 2\n")
    path = put(tmp_path / "bad.json", edited(mid, setter("source", value="passwd.yaml")))
    err = refused(path, capsys)
    assert "SECRET-HASH" not in err and "other-secret-line" not in err
    assert "passwd.yaml:1" in err and "tabletop validate" in err


@pytest.mark.parametrize("form", ["shipped", "relative", "relative-in-sub", "absolute-inside"])
def test_a_source_that_is_shipped_or_in_the_save_folder_loads(
    form: str, mid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding X1: a shipped bare name, or a scenario under the save's own folder."""
    copy = tmp_path / ("sub/battle.yaml" if form == "relative-in-sub" else "battle.yaml")
    copy.parent.mkdir(exist_ok=True)
    shutil.copy(shipped_dir("scenarios") / "dog-sector.yaml", copy)
    source = {
        "shipped": "dog-sector",
        "relative": "battle.yaml",
        "relative-in-sub": "sub/battle.yaml",
        "absolute-inside": str(copy),
    }[form]
    loads(put(tmp_path / "game.json", edited(mid, setter("source", value=source))), capsys)


def test_saves_name_their_scenario_as_loading_accepts(dog: Any, tmp_path: Path) -> None:
    """Finding X1: to_json keeps a shipped name, writes a scenario under the save's
    folder relative to it, and anything else by its absolute path."""
    game = new_game(dog, ruleset(dog.rules), seed=1)
    inside = put(tmp_path / "maps" / "battle.yaml", "x: 1\n")
    assert savefile.to_json(game, "dog-sector", folder=tmp_path)["source"] == "dog-sector"
    assert savefile.to_json(game, str(inside), folder=tmp_path)["source"] == "maps/battle.yaml"
    assert savefile.to_json(game, str(inside), folder=tmp_path / "other")["source"] == str(inside.resolve())
    shipped = shipped_dir("scenarios") / "dog-sector.yaml"
    assert savefile.to_json(game, str(shipped), folder=tmp_path)["source"] == "dog-sector"


# --- W7a: --load with other arguments ------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [["--seed", "99"], ["--option", "bombardment=heavy"], ["--setup", "manual"], ["--setup", "auto"],
     ["--option", "bombardment=heavy", "--seed", "99", "--setup", "manual"]],
)  # fmt: skip
def test_load_refuses_a_seed_option_or_setup(
    args: list[str], mid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding W7a: a saved game keeps its own seed, options and setup."""
    path = put(tmp_path / "mid.json", mid)
    err = refused(path, capsys, *args)
    assert "keeps its seed, options and setup" in err
    for flag in {a for a in args if a.startswith("--")}:
        assert f"drop {flag}" in err or f"and {flag}" in err


def test_load_refuses_a_scenario_of_other_rules(
    mid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding W7a: `play dogfaces-demo --load mid.json` no longer plays DOG SECTOR
    silently: the named scenario is used, and its rules are not the save's."""
    path = put(tmp_path / "mid.json", mid)
    err = refused(path, capsys, scenario="dogfaces-demo")
    assert "dog_sector" in err and "dogfaces-demo" in err


def test_load_plays_on_the_scenario_named(
    mid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding W7a: the scenario named with --load is the one used (here the same one)."""
    loads(put(tmp_path / "mid.json", mid), capsys, scenario="dog-sector")


def test_load_refuses_a_scenario_on_another_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Finding W7a: a named scenario with the save's rules (free play) but another map is
    refused, saying which scenario the save was made from."""
    demo = open_map_or_scenario("dogs-of-war-demo")
    game = new_game(demo, ruleset(None), seed=2)  # type: ignore[arg-type]  # free play
    auto_setup(game)
    path = tmp_path / "demo.json"
    savefile.write_save(path, game, "dogs-of-war-demo")
    err = refused(path, capsys, scenario="dogfaces-demo")
    assert "made from dogs-of-war-demo" in err
    loads(path, capsys, scenario="dogs-of-war-demo")


def test_a_free_play_save_of_a_rules_scenario_loads(dog: Any, tmp_path: Path) -> None:
    """`play dog-sector --rules free` saves rules "free": that is not a mismatch."""
    game = new_game(dog, FreePlayRules(), seed=4)  # type: ignore[arg-type]
    auto_setup(game)
    path = tmp_path / "free.json"
    savefile.write_save(path, game, "dog-sector")
    loaded, _, _ = load_game(path, open_map_or_scenario, ruleset)
    assert loaded.rules.name == "free" and loaded.state.to_json() == game.state.to_json()


# --- W7b: dice typed by hand --------------------------------------------------------------


def test_dice_rolled_by_hand_survive_a_save(dog: Any, tmp_path: Path) -> None:
    """Finding W7b: queued hand dice are saved and come back; the continued games agree."""
    mod = autoplayer_module("dog_sector")
    game = new_game(dog, ruleset("dog_sector"), seed=1)
    auto_setup(game)
    game.run({mod.SIDE: mod.autoplayer()}, limit=5)
    game.roll_by_hand([1, 1, 1, 1])
    path = tmp_path / "s.json"
    savefile.write_save(path, game, "dog-sector")
    again, _, _ = load_game(path, open_map_or_scenario, ruleset)
    assert again.hand_dice == game.hand_dice == [1, 1, 1, 1]
    game.run({mod.SIDE: mod.autoplayer()}, limit=3)
    again.run({mod.SIDE: mod.autoplayer()}, limit=3)
    assert again.state.to_json() == game.state.to_json()
    assert [e.to_json() for e in again.entries] == [e.to_json() for e in game.entries]


def test_a_version_1_save_loads_with_no_hand_dice(mid: str, tmp_path: Path) -> None:
    """Finding W7b: MIGRATIONS[1] adds the empty queue, so older saves still load."""
    data = json.loads(mid)
    data["version"] = 1
    del data["hand_dice"]
    path = put(tmp_path / "old.json", json.dumps(data))
    game, _, _ = load_game(path, open_map_or_scenario, ruleset)
    assert game.hand_dice == [] and len(game.entries) == 62


# --- replaying a hostile save: random edits, and branches off the current line -----------


def test_random_edits_are_refused_or_load(mid: str, dog: Any, tmp_path: Path) -> None:
    """Finding T2: random edits of a real save (fixed seed) give a SaveError or a game,
    never another exception."""
    base = json.loads(mid)
    fields: list[tuple[Any, ...]] = []

    def walk(value: Any, at: tuple[Any, ...]) -> None:
        if at:
            fields.append(at)
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, (*at, k))
        elif isinstance(value, list) and len(at) < 4:
            for i, v in enumerate(value[:70]):
                walk(v, (*at, i))

    walk(base, ())
    values: list[Any] = [
        None,
        "x",
        "",
        -1,
        0,
        9999,
        [],
        {},
        1.5,
        True,
        "0503",
        {"do": "x"},
        {"do": "end-phase"},
    ]
    rnd = random.Random(11)
    path = tmp_path / "fuzz.json"
    outcomes: set[str] = set()
    for _ in range(40):
        data = json.loads(mid)
        setter(*rnd.choice(fields), value=rnd.choice(values))(data)
        put(path, json.dumps(data))
        try:
            load_game(path, lambda _: dog, ruleset)
            outcomes.add("loaded")
        except savefile.SaveError as exc:
            assert "\n" not in str(exc) and str(exc).startswith(str(path))
            outcomes.add("refused")
    assert "refused" in outcomes


def test_an_edited_branch_off_the_current_line_is_refused_on_goto(mid: str, dog: Any, tmp_path: Path) -> None:
    """Finding T2: loading replays the current line only; an edited entry on another
    branch is judged when the player goes there: IllegalAction, the game unchanged."""
    game, _, _ = load_game(put(tmp_path / "mid.json", mid), open_map_or_scenario, ruleset)
    game.goto(55)
    game.play({"do": "note", "text": "a branch"})
    branch = game.head
    game.goto(61)
    data = savefile.to_json(game, "dog-sector")
    data["entries"][branch]["action"] = {"do": "remove", "edit": True, "piece": "A-tank-1", "box": [1]}
    path = put(tmp_path / "branched.json", json.dumps(data))
    loaded, _, _ = load_game(path, lambda _: dog, ruleset)
    before = loaded.state.to_json()
    with pytest.raises(IllegalAction, match=f"entry {branch}"):
        loaded.goto(branch)
    assert loaded.state.to_json() == before and loaded.head == 61
