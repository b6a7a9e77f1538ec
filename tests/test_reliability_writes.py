"""Every write safe (issue 11): findings S1 (devices, symlinks, read-only files replaced),
S2 (a new game overwrote the last game's autosave), S3 (a failed write crashed the window;
`map new` tracebacks), S4 (render wrote truncated PNGs), W5 (`map new --name` pasted into
YAML unquoted) and W7c (temporary files left behind)."""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import pygame
import pytest

from tabletop.atomicfile import WriteError, check_target, stale_temps, write_atomic
from tabletop.cli import main
from tabletop.engine import savefile
from tabletop.engine.newgame import load_game
from tabletop.engine.scenario import open_map_or_scenario
from tabletop.games import ruleset
from tabletop.ui.app import App
from tabletop.ui.render import frame
from tabletop.ui.table import open_table, start_autosave

REPO = Path(__file__).resolve().parent.parent
SMALL = ["--size", "400x300"]


# --- helpers ------------------------------------------------------------------------


def temps(folder: Path) -> list[str]:
    """Temporary files of any write left in ``folder``."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    lines = [x for x in lines if not x.startswith("pygame-ce ")]
    assert len(lines) == 1, err
    return lines[0]


def raiser(code: int) -> Callable[..., None]:
    def fail(*args: object, **kwargs: object) -> None:
        raise OSError(code, os.strerror(code))

    return fail


@contextmanager
def device(folder: Path) -> Iterator[Path]:
    """A private character device (like /dev/null) in a scratch folder, removed after."""
    node = folder / "null"
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot make a device node here: {exc}")
    try:
        yield node
    finally:
        node.unlink()


def snapshot(path: Path) -> tuple[int, bytes | None]:
    """What is at ``path``, to prove a refused write changed nothing."""
    st = os.lstat(path)
    return st.st_mode, (path.read_bytes() if stat.S_ISREG(st.st_mode) else None)


def make_target(kind: str, folder: Path, stack: list[Callable[[], None]]) -> Path:
    """A path that tabletop must refuse to write: a folder, a device, a FIFO, a
    read-only file, a path below a file, a missing folder."""
    if kind == "folder":
        (folder / "dir").mkdir()
        return folder / "dir"
    if kind == "device":
        cm = device(folder)
        node = cm.__enter__()
        stack.append(lambda: cm.__exit__(None, None, None))
        return node
    if kind == "fifo":
        os.mkfifo(folder / "fifo")
        return folder / "fifo"
    if kind == "read-only":
        (folder / "ro.json").write_text('{"keep": "me"}\n')
        (folder / "ro.json").chmod(0o444)
        return folder / "ro.json"
    if kind == "below-a-file":
        (folder / "file.txt").write_text("x")
        return folder / "file.txt" / "x.json"
    if kind == "missing-folder":
        return folder / "nowhere" / "x.json"
    raise AssertionError(kind)


REFUSED = {
    "folder": "it is a folder",
    "device": "not a regular file",
    "fifo": "not a regular file",
    "read-only": "is read-only; tabletop will not replace it",
    "below-a-file": "not a folder",
    "missing-folder": "does not exist",
}


@pytest.fixture
def cleanup() -> Iterator[list[Callable[[], None]]]:
    stack: list[Callable[[], None]] = []
    yield stack
    for undo in reversed(stack):
        undo()


# --- the safe write path (S1, S3, W7c) ------------------------------------------------


def test_a_symlink_stays_a_link_and_its_target_is_written(tmp_path: Path) -> None:
    """Finding S1: `--save LINK` replaced the link by a regular file."""
    (tmp_path / "target.json").write_text('{"keep": "me"}\n')
    (tmp_path / "link").symlink_to("target.json")
    write_atomic(tmp_path / "link", "new\n")
    assert (tmp_path / "link").is_symlink() and os.readlink(tmp_path / "link") == "target.json"
    assert (tmp_path / "target.json").read_text() == "new\n"
    assert temps(tmp_path) == []


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_a_target_that_is_not_a_writable_file_is_refused_and_unchanged(
    kind: str, tmp_path: Path, cleanup: list[Callable[[], None]]
) -> None:
    """Finding S1 (a device, a read-only file replaced) and S3 (a folder or a path below
    a file ended in a traceback): one WriteError line, nothing changed on disk."""
    target = make_target(kind, tmp_path, cleanup)
    before = snapshot(target) if os.path.lexists(target) else None
    listing = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(WriteError) as info:
        write_atomic(target, "new\n")
    message = str(info.value)
    assert message.startswith(f"{target}: cannot write: ") and REFUSED[kind] in message
    assert "\n" not in message and "; " in message.split("cannot write: ", 1)[1]
    assert isinstance(info.value, OSError)
    assert (snapshot(target) if os.path.lexists(target) else None) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == listing


def test_a_symlink_to_a_device_is_refused(tmp_path: Path) -> None:
    """Finding S1: following a link never reaches a device."""
    with device(tmp_path) as node:
        (tmp_path / "link").symlink_to(node.name)
        with pytest.raises(WriteError, match="not a regular file"):
            write_atomic(tmp_path / "link", "x")
        assert stat.S_ISCHR(os.stat(node).st_mode)


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o664, 0o604])
def test_an_existing_file_keeps_its_mode(mode: int, tmp_path: Path) -> None:
    """Finding S1: every write made the file 0600 (mkstemp's mode)."""
    path = tmp_path / "save.json"
    path.write_text("old\n")
    path.chmod(mode)
    write_atomic(path, "new\n")
    assert stat.S_IMODE(path.stat().st_mode) == mode and path.read_text() == "new\n"


@pytest.mark.parametrize("umask, expected", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_gets_the_umask_mode(umask: int, expected: int, tmp_path: Path) -> None:
    """Finding S1: a new file is 0o666 & ~umask, like any other program's."""
    old = os.umask(umask)
    try:
        write_atomic(tmp_path / "new.json", b"bytes too\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == expected
    assert (tmp_path / "new.json").read_bytes() == b"bytes too\n"


FAULTS = {
    errno.ENOSPC: "the disk is full",
    errno.EFBIG: "file-size limit",
    errno.EROFS: "read-only",
    errno.EACCES: "permission denied",
    errno.EDQUOT: "quota",
}
STAGES = ["tempfile.mkstemp", "os.fsync", "os.replace", "os.fchmod"]


@pytest.mark.parametrize("code", sorted(FAULTS), ids=[errno.errorcode[c] for c in sorted(FAULTS)])
@pytest.mark.parametrize("stage", STAGES)
def test_a_failed_write_keeps_the_old_file_and_leaves_no_temp_file(
    code: int, stage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Findings S3 and W7c: disk full, file-size limit, read-only mount, no permission at
    any step -> one WriteError line, the old file whole, no temporary file."""
    path = tmp_path / "save.json"
    path.write_text("old\n")
    module, name = stage.split(".")
    monkeypatch.setattr(__import__(module), name, raiser(code))
    with pytest.raises(WriteError) as info:
        write_atomic(path, "new\n" * 1000)
    monkeypatch.undo()
    assert info.value.errno == code and FAULTS[code] in str(info.value)
    assert str(info.value).startswith(f"{path}: cannot write: ")
    assert path.read_text() == "old\n" and temps(tmp_path) == []


def test_a_path_too_long_is_a_clear_error(tmp_path: Path) -> None:
    """Finding S3: ENAMETOOLONG is one line, not a traceback."""
    with pytest.raises(WriteError, match="path is too long"):
        write_atomic(tmp_path / ("x" * 300 + ".json"), "x")
    assert list(tmp_path.iterdir()) == []


def test_stale_temp_files_of_the_same_target_are_cleaned(tmp_path: Path) -> None:
    """Finding W7c: `.NAME.XXXXXXXX.tmp` files that a killed write left are removed by
    the next write of NAME; anyone else's files are not touched."""
    path = tmp_path / "auto.json"
    stale = [".auto.json.3nhigibk.tmp", ".auto.json._154vt3t.tmp"]
    others = [".manual.json.0ii6x5pd.tmp", ".auto.json.mine.tmp", "auto.json.3nhigibk.tmp"]
    for name in stale + others:
        (tmp_path / name).write_bytes(b"\0" * 100)
    assert sorted(p.name for p in stale_temps(path)) == sorted(stale)
    write_atomic(path, "{}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["auto.json", *others])


def test_the_folder_is_fsynced_after_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rename itself must survive a power cut: the folder is fsynced after it."""
    synced: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        synced.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real_fsync(fd)

    def replace(a: str, b: str) -> None:
        synced.append("rename")
        real_replace(a, b)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    write_atomic(tmp_path / "x.json", "x")
    assert synced == ["file", "rename", "folder"]


# --- autosaves: one file a game, previous versions kept (S2) --------------------------


def test_two_new_games_of_one_scenario_get_two_autosaves(tmp_path: Path) -> None:
    """Finding S2: the autosave was named from the scenario only, so a new game replaced
    the last one. Same scenario, seed and minute: still a new name, never a taken one."""
    when = datetime(2026, 11, 24, 7, 31)
    first = savefile.new_autosave_path("dog-sector", 990477, when)
    assert first.name == "dog-sector-20261124-0731-s990477.json"
    first.parent.mkdir(parents=True)
    first.write_text("yesterday's game")
    second = savefile.new_autosave_path("dog-sector", 990477, when)
    assert second != first and not second.exists()
    second.with_name(second.name + ".1").write_text("an old version")  # a rotated copy takes it too
    third = savefile.new_autosave_path("dog-sector", 990477, when)
    assert third not in (first, second)


def test_play_twice_keeps_both_games_and_the_old_autosave(capsys: pytest.CaptureFixture[str]) -> None:
    """Finding S2: `tabletop play` run again (the README's way to go on) destroyed the
    previous game's autosave."""
    folder = savefile.autosave_folder()
    folder.mkdir(parents=True)
    old = folder / "dog-sector.json"
    old.write_text('{"entries": 62}\n')
    for _ in range(2):
        assert main(["play", "--frames", "1", *SMALL, "--seed", "990477"]) == 0
    out = capsys.readouterr().out
    games = sorted(p for p in folder.iterdir() if p != old)
    assert len(games) == 2 and all(str(g) in out for g in games)
    assert old.read_text() == '{"entries": 62}\n'
    for g in games:
        assert json.loads(g.read_text())["seed"] == 990477


def test_an_autosave_keeps_three_previous_versions(tmp_path: Path) -> None:
    """An autosave keeps NAME.json.1 (newest) .. .3, so a bad write or a bad position can
    be rolled back; an unchanged position rotates nothing."""
    game = open_table("dog-sector", seed=3).play
    path = tmp_path / "auto.json"
    for n in range(1, 6):
        savefile.write_autosave(path, game, f"v{n}")
    savefile.write_autosave(path, game, "v5")  # the same position again: no rotation

    def source(p: Path) -> str:
        return str(json.loads(p.read_text())["source"])

    assert [source(p) for p in (path, *savefile.rotated(path))] == ["v5", "v4", "v3", "v2"]
    assert not path.with_name("auto.json.4").exists() and temps(tmp_path) == []


def test_a_failed_autosave_retried_does_not_push_out_good_versions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that fails again and again (disk full for a while) keeps the versions."""
    game = open_table("dog-sector", seed=3).play
    path = tmp_path / "auto.json"
    savefile.write_autosave(path, game, "v1")
    savefile.write_autosave(path, game, "v2")
    real = savefile.write_atomic

    def full_for_the_save(p: Path, data: str | bytes) -> None:
        if p == path:
            raise WriteError(p, "the disk is full", "free some space", errno.ENOSPC)
        real(p, data)

    monkeypatch.setattr(savefile, "write_atomic", full_for_the_save)
    for _ in range(3):
        with pytest.raises(WriteError):
            savefile.write_autosave(path, game, "v3")
    monkeypatch.undo()
    savefile.write_autosave(path, game, "v3")
    sources = [json.loads(p.read_text())["source"] for p in (path, *savefile.rotated(path)) if p.exists()]
    assert sources == ["v3", "v2", "v1"]


BAD_BOTS = [
    ["--bot", "german"],
    ["--bot", "nobody"],
    ["dogfaces", "--bot", "green"],  # no such side (dogfaces has bots since issue 14)
]


@pytest.mark.parametrize("args", BAD_BOTS, ids=lambda a: " ".join(a))
def test_a_bad_play_argument_writes_nothing(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Finding S2: `tabletop play --bot german` overwrote the autosave, then failed."""
    home = Path(os.environ["TABLETOP_HOME"])
    folder = savefile.autosave_folder()
    folder.mkdir(parents=True)
    (folder / "dog-sector.json").write_text("keep\n")
    (folder / "dogfaces.json").write_text("keep\n")
    before = sorted(str(p) for p in home.rglob("*"))
    assert main(["play", *args, "--frames", "1", *SMALL]) == 2
    assert one_line(capsys.readouterr().err).startswith("--bot ")
    assert sorted(str(p) for p in home.rglob("*")) == before
    assert (folder / "dog-sector.json").read_text() == (folder / "dogfaces.json").read_text() == "keep\n"


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_play_save_to_a_bad_target_is_refused_before_anything(
    kind: str, tmp_path: Path, cleanup: list[Callable[[], None]], capsys: pytest.CaptureFixture[str]
) -> None:
    """Findings S1 and S3: `--save` naming a device, a folder, a read-only file or a path
    below a file; one line, exit 2, nothing written, the target as it was."""
    target = make_target(kind, tmp_path, cleanup)
    before = snapshot(target) if os.path.lexists(target) else None
    listing = sorted(p.name for p in tmp_path.iterdir())
    assert main(["play", "--frames", "1", *SMALL, "--save", str(target), "--force"]) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith(f"{target}: cannot write: ") and REFUSED[kind] in line
    assert (snapshot(target) if os.path.lexists(target) else None) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == listing
    assert not savefile.autosave_folder().exists()


def test_play_save_never_replaces_another_file_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding S1/S2: `--save FILE` for a new game replaced whatever FILE held; now it
    asks for --force, and with it a symlink stays a link."""
    (tmp_path / "target.json").write_text('{"keep":"me"}\n')
    (tmp_path / "link").symlink_to("target.json")
    for name in ("target.json", "link"):
        assert main(["play", "--frames", "1", *SMALL, "--save", str(tmp_path / name)]) == 2
        assert "--force" in one_line(capsys.readouterr().err)
    assert (tmp_path / "target.json").read_text() == '{"keep":"me"}\n'
    assert main(["play", "--frames", "1", *SMALL, "--seed", "4", "--save", str(tmp_path / "link"), "--force"]) == 0
    assert (tmp_path / "link").is_symlink()
    assert json.loads((tmp_path / "target.json").read_text())["seed"] == 4
    assert (tmp_path / "target.json.1").read_text() == '{"keep":"me"}\n'  # the old file is a version


def test_a_loaded_game_saves_into_its_file_or_a_new_one_if_read_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--load FILE` goes on saving into FILE (its old version kept as FILE.1); a
    read-only FILE is never touched: the game saves into a new autosave and says so."""
    save = tmp_path / "game.json"
    assert main(["play", "--frames", "1", *SMALL, "--seed", "6", "--save", str(save)]) == 0
    capsys.readouterr()
    assert main(["play", "--frames", "1", *SMALL, "--load", str(save)]) == 0
    assert f"autosave after every phase: {save}" in capsys.readouterr().out
    save.chmod(0o444)
    before = save.read_bytes()
    assert main(["play", "--frames", "1", *SMALL, "--load", str(save)]) == 0
    out = capsys.readouterr().out
    assert "cannot be written" in out and "saves into a new file" in out
    assert save.read_bytes() == before
    (fresh,) = savefile.autosave_folder().iterdir()
    assert fresh.name.startswith("dog-sector-") and fresh.name.endswith("-s6.json")


# --- the window goes on when a write fails (S3) ---------------------------------------


def next_phase(app: App) -> None:
    """Press n until the phase changes (an autosave is due)."""
    before = (app.play.state.turn, app.play.state.phase)
    for _ in range(20):
        app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, mod=0, unicode="", scancode=0))
        if (app.play.state.turn, app.play.state.phase) != before:
            return
    raise AssertionError("no phase ended")


@pytest.mark.parametrize("code", sorted(FAULTS), ids=[errno.errorcode[c] for c in sorted(FAULTS)])
def test_the_window_survives_a_failed_autosave_and_shows_it(
    code: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding S3: a failed autosave raised out of the game loop and closed the window.
    Now play goes on, a warning bar names the reason and the last good save, that save
    stays loadable, and the next phase tries again."""
    path = tmp_path / "auto.json"
    app = open_table("dog-sector", size=(800, 500), seed=3, autosave=path)
    assert not path.exists()  # setting the table wrote nothing
    assert start_autosave(app) and app.warning == ""
    good = path.read_bytes()
    monkeypatch.setattr(os, "replace", raiser(code))
    next_phase(app)
    monkeypatch.undo()
    assert app.warning.startswith("autosave failed: ") and FAULTS[code] in app.warning
    assert app.warning.endswith(f"last good save: {path}")
    assert any(m.startswith(f"{path}: cannot write: ") for m in app.messages)  # the log names the save
    assert app.running and path.read_bytes() == good and temps(tmp_path) == []
    frame(app, (800, 500))  # and it draws
    loaded, _, _ = load_game(path, open_map_or_scenario, ruleset)
    assert loaded.state.phase == "land"
    next_phase(app)  # the disk has room again
    assert app.warning == "" and json.loads(path.read_text())["snapshot"]["phase"] == app.play.state.phase


def test_an_autosave_home_that_is_a_file_is_a_warning_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding S3: TABLETOP_HOME a regular file ended in NotADirectoryError."""
    home = tmp_path / "home"
    home.write_text("not a folder")
    monkeypatch.setenv("TABLETOP_HOME", str(home))
    assert main(["play", "--frames", "2", *SMALL, "--seed", "3"]) == 0
    err = capsys.readouterr().err
    assert "cannot write" in one_line(err) and "Traceback" not in err
    assert home.read_text() == "not a folder"


def test_a_failed_report_is_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding S3: the after-action report goes through the same safe write; a failure
    is one line in the message log."""
    app = open_table("dog-sector", size=(800, 500), seed=3, autosave=tmp_path / "auto.json")
    monkeypatch.setattr(os, "replace", raiser(errno.ENOSPC))
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r, mod=pygame.KMOD_CTRL, unicode="", scancode=0))
    monkeypatch.undo()
    assert app.messages[-1].startswith("report not saved: ") and "the disk is full" in app.messages[-1]
    assert temps(tmp_path) == []


# --- render (S4) ----------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_render_to_a_bad_out_is_refused_before_drawing(
    kind: str, tmp_path: Path, cleanup: list[Callable[[], None]], capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding S4: `render --out` a folder or a device ended in a pygame traceback."""
    target = make_target(kind, tmp_path, cleanup)
    before = snapshot(target) if os.path.lexists(target) else None
    assert main(["render", "dog-sector", "--out", str(target), *SMALL]) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith(f"{target}: cannot write: ") and REFUSED[kind] in line
    assert (snapshot(target) if os.path.lexists(target) else None) == before


def test_render_that_cannot_write_keeps_the_old_png(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding S4: a full disk wrote a truncated PNG and reported success."""
    out = tmp_path / "x.png"
    assert main(["render", "dog-sector", "--out", str(out), *SMALL]) == 0
    good = out.read_bytes()
    assert good.startswith(b"\x89PNG") and pygame.image.load(str(out)).get_size() == (400, 300)
    monkeypatch.setattr(os, "fsync", raiser(errno.ENOSPC))
    capsys.readouterr()
    assert main(["render", "dog-sector", "--out", str(out), "--size", "500x300"]) == 2
    assert "the disk is full" in one_line(capsys.readouterr().err)
    assert out.read_bytes() == good and temps(tmp_path) == []


def test_render_under_a_file_size_limit_fails_and_keeps_the_old_png(tmp_path: Path) -> None:
    """Finding S4: under `ulimit -f 16` render said `wrote x.png` and left 16384 bytes of
    a PNG. A real RLIMIT_FSIZE, in a child process."""
    resource = pytest.importorskip("resource")
    out = tmp_path / "x.png"
    out.write_bytes(b"\x89PNG whole old image" + b"\0" * 100)
    good = out.read_bytes()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (16384, 16384))

    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "render", "dog-sector", "--out", str(out)],
        cwd=REPO, env=env, preexec_fn=limit, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "file-size limit" in one_line(done.stderr)
    assert out.read_bytes() == good and temps(tmp_path) == []


# --- map new (W5, S3) ----------------------------------------------------------------

GOOD_NAMES = [
    "Hill 112: the assault",
    "#1 map",
    '"quoted',
    "[draft] map",
    "*alias",
    "yes",
    "&anchor {x}",
    "- dash",
    "100",
    "null",
    "it's 'fine'",
    "back\\slash",
    "Ünïcödé map ☃",
    " padded ",
]
BAD_NAMES = {
    "": "is empty",
    "   ": "is empty",
    "a\tb": "control character",
    "x\nrules: dog_sector": "control character",
    "nul\x00": "control character",
    "bell\x07": "control character",
    "line\u2028sep": "control character",
    "x" * 256: "at most 255",
}


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_map_new_writes_any_printable_name_exactly(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding W5: the name was pasted into the YAML unquoted; `Hill 112: the assault`
    left a broken file, `yes` became true."""
    out = tmp_path / "m.yaml"
    assert main(["map", "new", "--columns", "5", "--rows", "5", "--out", str(out), "--name", name]) == 0
    assert main(["map", str(out), "--json"]) == 0
    capsys.readouterr()
    from tabletop.board import load_map

    assert load_map(out).name == name


@pytest.mark.parametrize("name", sorted(BAD_NAMES), ids=lambda n: repr(n)[:20])
def test_map_new_refuses_a_bad_name_and_writes_nothing(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding W5: an empty name or one with control characters (a newline injected a
    `rules:` key) is refused; --force never replaces a good map with a broken one."""
    out = tmp_path / "m.yaml"
    assert main(["map", "new", "--columns", "5", "--rows", "5", "--out", str(out)]) == 0
    good = out.read_bytes()
    capsys.readouterr()
    argv = ["map", "new", "--columns", "5", "--rows", "5", "--out", str(out), "--force", "--name", name]
    assert main(argv) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith("--name ") and BAD_NAMES[name] in line
    assert out.read_bytes() == good
    fresh = tmp_path / "fresh.yaml"
    assert main([*argv[:6], "--out", str(fresh), "--name", name]) == 2
    assert not fresh.exists() and temps(tmp_path) == []


@pytest.mark.parametrize("code", sorted(FAULTS), ids=[errno.errorcode[c] for c in sorted(FAULTS)])
def test_map_new_that_cannot_write_is_one_line(
    code: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding S3: `map new` on a read-only or full disk ended in an OSError traceback."""
    out = tmp_path / "m.yaml"
    monkeypatch.setattr(os, "replace", raiser(code))
    assert main(["map", "new", "--columns", "9", "--rows", "9", "--out", str(out)]) == 2
    monkeypatch.undo()
    line = one_line(capsys.readouterr().err)
    assert line.startswith(f"{out}: cannot write: ") and FAULTS[code] in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_map_new_to_a_bad_out_is_refused(
    kind: str, tmp_path: Path, cleanup: list[Callable[[], None]], capsys: pytest.CaptureFixture[str]
) -> None:
    """Findings S1 and S3 for `map new --out` (with --force, which replaces only files)."""
    target = make_target(kind, tmp_path, cleanup)
    before = snapshot(target) if os.path.lexists(target) else None
    assert main(["map", "new", "--columns", "4", "--rows", "4", "--out", str(target), "--force"]) == 2
    assert REFUSED[kind] in one_line(capsys.readouterr().err)
    assert (snapshot(target) if os.path.lexists(target) else None) == before


def test_check_target_names_the_real_file_of_a_link(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "t.json").write_text("x")
    (tmp_path / "l").symlink_to("a/t.json")
    assert check_target(tmp_path / "l") == tmp_path / "a" / "t.json"


def test_a_screenshot_goes_through_the_safe_write(tmp_path: Path) -> None:
    """F12 wrote with pygame.image.save straight onto the file; now a PNG encoded in
    memory and written safely, and a folder that cannot take it is a message."""
    app = open_table("dog-sector", size=(400, 300), seed=3)
    pygame.display.init()
    try:
        screen = pygame.display.set_mode((400, 300))
        app.draw(screen)
        app.screenshot_dir = tmp_path
        shot = app.screenshot()
        assert shot is not None and pygame.image.load(str(shot)).get_size() == (400, 300)
        (tmp_path / "file.txt").write_text("x")
        app.screenshot_dir = tmp_path / "file.txt"
        assert app.screenshot() is None
        assert app.messages[-1].startswith("screenshot not saved: ") and "cannot write" in app.messages[-1]
    finally:
        pygame.display.quit()
    assert temps(tmp_path) == []


@contextmanager
def small_disk(folder: Path, size: str = "48k") -> Iterator[Path]:
    """A tiny tmpfs at ``folder`` (root and a working `mount` only; else skipped)."""
    folder.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                              capture_output=True, timeout=30)  # fmt: skip
    except (OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"no tmpfs: {exc}")
    if done.returncode != 0:
        pytest.skip(f"no tmpfs: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True, timeout=30)


def test_render_onto_a_full_disk_keeps_the_old_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Finding S4 on a real full disk: render said `wrote` and left 16384 bytes of PNG.
    Now exit 2, one line, the old PNG whole, no temporary file."""
    with small_disk(tmp_path / "disk") as disk:
        out = disk / "x.png"
        assert main(["render", "dog-sector", "--out", str(out), *SMALL]) == 0
        good = out.read_bytes()
        capsys.readouterr()
        assert main(["render", "dog-sector", "--out", str(out), "--size", "1600x1000"]) == 2
        assert "the disk is full" in one_line(capsys.readouterr().err)
        assert out.read_bytes() == good and temps(disk) == []


def test_opening_a_save_does_not_rewrite_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Finding S2 (found again by the fuzz test): `play --load FILE` rewrote FILE (and
    pushed a copy to FILE.1) before anything was played. Opening a save leaves it as it
    is; the next phase or Ctrl+S writes it, keeping the previous version."""
    save = tmp_path / "game.json"
    assert main(["play", "--frames", "1", "--size", "400x300", "--seed", "3", "--save", str(save)]) == 0
    text = save.read_text(encoding="utf-8").replace("\n", "\r\n")  # same game, other bytes
    save.write_bytes(text.encode("utf-8"))
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["play", "--load", str(save), "--frames", "1", "--size", "400x300"]) == 0
    assert save.read_bytes() == text.encode("utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
