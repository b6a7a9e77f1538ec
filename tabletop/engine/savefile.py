"""Saves: a game's log and a snapshot, as versioned JSON written atomically.

A save holds what the game was started from (the scenario or map argument), the rule
system, the seed, the initial state, every log entry (branches included), the current
entry, a snapshot of the current state and the dice rolled by hand not yet used.
Loading rebuilds the ``Game`` and replays its current line from the initial state: if
the replay does not reach the snapshot (the rules or the scenario changed since), the
save is refused with the reason rather than silently played on a different game.

A save is a file anyone may edit or share, so loading trusts none of it: the size is
bounded before reading, every field is checked (``savecheck``) before replay, each
action is judged by the rules again as it is replayed, and the scenario is only ever a
shipped one or a file under the save's own folder (``locate_source``). Every refusal is
one line: the save's path, what is wrong, where in the save, and what to do.

The format carries a version. ``MIGRATIONS[n]`` turns a version-n save into version
n+1; a save newer than this program, or older with no migration path, gets a clear
error. Writing goes through a temporary file and a rename, so a crash mid-write leaves
the previous save whole.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shlex
import stat
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from tabletop.atomicfile import WriteError, check_target, from_os_error, make_folder, write_atomic
from tabletop.board import Map
from tabletop.inputfile import NotAFile, read_bounded
from tabletop.limits import NAME_CHARS, SAVE_BYTES, SAVE_DEPTH
from tabletop.shipped import shipped_dir
from tabletop.yamlfile import DataError, DataErrors, one_line

from .game import SETUP, Entry, Game, ReplayError, Ruleset
from .pieces import Newcomers
from .savecheck import SaveProblem, check_attributes, check_save, shown
from .setup import SetupProblem
from .state import GameState, JsonDict

FORMAT = "tabletop-save"
VERSION = 2
# version n -> a function making it version n+1
MIGRATIONS: dict[int, Callable[[JsonDict], JsonDict]] = {
    1: lambda data: {**data, "hand_dice": []},  # 2: dice rolled by hand and not yet used (W7b)
}
#: what a damaged save's message tells the player to do
DAMAGED = "the save is damaged or was edited: load another save, or start a new game"
TOO_BIG = "this is no save tabletop wrote: load another save, or start a new game"
_BARE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


class SaveError(ValueError):
    """A save that cannot be read or played on; the message says why and what to do.
    Always one line: whatever the save holds, control characters are shown escaped."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


def to_json(game: Game, source: str, *, folder: Path | None = None) -> JsonDict:
    """The save as JSON data. ``source`` is what ``play`` was given (a shipped name or a
    path), written as loading accepts it (``source_for_save``; ``folder`` is the save's)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "source": source_for_save(source, folder),
        "rules": game.rules.name,
        "seed": game.seed,
        "initial": game.initial,
        "entries": [e.to_json() for e in game.entries],
        "head": game.head,
        "snapshot": game.state.to_json(),
        "hand_dice": game.hand_dice,
    }


def source_for_save(source: str, folder: Path | None = None) -> str:
    """How a save names its scenario (finding X1): a shipped name as it is; a file under
    the save's ``folder`` by its path relative to it, so the folder can move or be
    shared; any other file by its absolute path, which loading refuses unless the
    player names the scenario (a save must not make tabletop open files elsewhere)."""
    try:
        if not source or not Path(source).is_file():
            return source
        full = Path(source).resolve()
        for kind in ("scenarios", "maps"):
            if full.parent == shipped_dir(kind).resolve() and full.suffix == ".yaml":
                return full.stem  # a shipped file named by its path
        if folder is not None and full.is_relative_to(folder.resolve()):
            return full.relative_to(folder.resolve()).as_posix()
    except (OSError, RuntimeError):  # a name too long for a path, a symlink loop
        return source
    return str(full)


def write_save(path: Path, game: Game, source: str) -> None:
    """Write the save safely (atomicfile.write_atomic): the old file stays whole if this
    fails, and a WriteError (an OSError) says why in one line. The folder must exist."""
    write_atomic(path, json.dumps(to_json(game, source, folder=path.parent), indent=1) + "\n")


def read_save(path: Path) -> JsonDict:
    """Read, check and migrate a save to the current version; SaveError if it cannot.
    Every field is checked here (``savecheck``), before anything is replayed."""
    data = _parse(path, _read_text(path))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(f"{path}: not a tabletop save (no \"format\": \"{FORMAT}\"); --load takes a file tabletop wrote")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveError(f"{path}: the save has no format version (version); {DAMAGED}")
    if version > VERSION:
        raise SaveError(
            f"{path}: saved by a newer tabletop (save format {shown(version)}; this one reads up to "
            f"{VERSION}); upgrade tabletop to load it"
        )
    while version < VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SaveError(
                f"{path}: save format {shown(version)} is too old to load (no migration to a newer "
                f"one); replay it with the tabletop version that wrote it"
            )
        data = step(data)
        version += 1
        data["version"] = version
    _check(data, str(path))
    checked: JsonDict = data
    return checked


def _read_text(path: Path) -> str:
    """The save's text: a regular file of at most SAVE_BYTES (inputfile.read_bounded: a
    pipe or a device is never read, so it cannot hang or fill memory), in UTF-8."""
    try:
        size = path.stat().st_size
        if size > SAVE_BYTES:  # refused before reading a byte of it
            raise SaveError(f"{path}: {size} bytes, more than the {SAVE_BYTES} bytes a save may have; {TOO_BIG}")
        raw = read_bounded(path, SAVE_BYTES)
    except FileNotFoundError:
        raise SaveError(f"{path}: no such save file; check the path") from None
    except NotAFile as exc:
        raise SaveError(f"{path}: not a save file ({exc.why}); --load takes a file tabletop wrote") from None
    except OSError as exc:
        raise SaveError(f"{path}: not a readable save ({exc.strerror or exc}); check the file and its permissions") from None
    if len(raw) > SAVE_BYTES:
        raise SaveError(f"{path}: more than the {SAVE_BYTES} bytes a save may have; {TOO_BIG}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SaveError(f"{path}: not a readable save (not UTF-8 text at byte {exc.start}); {DAMAGED}") from None


def _parse(path: Path, text: str) -> Any:
    """The JSON of a save. json.loads recurses into nesting, so a deeply nested file is
    refused when the parser runs out of depth (RecursionError), and a number too long
    for Python to read is refused naming its line (finding M4)."""

    def no_constant(word: str) -> None:
        raise ValueError(f"{word} is not a number a save holds")

    try:
        return json.loads(text, parse_constant=no_constant)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path}: not a readable save ({exc}); {DAMAGED}") from None
    except RecursionError:
        raise SaveError(f"{path}: nested deeper than the {SAVE_DEPTH} levels a save may have; {DAMAGED}") from None
    except ValueError as exc:  # a number of more than sys.get_int_max_str_digits() digits; NaN
        long = re.search(rf"\d{{{sys.get_int_max_str_digits() + 1},}}", text)
        if long is None:
            raise SaveError(f"{path}: not a readable save ({exc}); {DAMAGED}") from None
        line = text.count("\n", 0, long.start()) + 1
        raise SaveError(
            f"{path}: a number of {len(long.group())} digits at line {line}; a save holds whole numbers of at "
            f"most 19 digits: {DAMAGED}"
        ) from None


def _check(data: JsonDict, where: str) -> None:
    try:
        check_save(data)
    except SaveProblem as problem:
        raise SaveError(f"{where}: {_short(problem.what)} ({_short(problem.where)}); {DAMAGED}") from None


def _short(text: str, most: int = 200) -> str:
    return text if len(text) <= most else text[: most - 3] + "..."


def locate_source(save: Path, source: str) -> tuple[Path, str]:
    """The scenario (or map) file a checked save names, and how later saves name it: a
    shipped name, or a regular file under the save's own folder (then by its full path).
    Nothing else is opened, nor looked at beyond its path (finding X1): SaveError saying
    how to name the scenario instead."""
    folder = _real(save.absolute().parent) or save.absolute().parent
    given = Path(source)
    named = source if given.is_absolute() else os.path.normpath(save.absolute().parent / given)
    hint = f"to open it name the scenario yourself: tabletop play {shlex.quote(named)} --load {shlex.quote(str(save))}"
    outside = f"{save}: this save was made from {_short(source)}, outside the save's folder (source); {hint}"
    if ".." in given.parts:
        raise SaveError(outside)
    if given.is_absolute():
        if not (given.is_relative_to(folder) or given.is_relative_to(save.absolute().parent)):
            raise SaveError(outside)  # refused on its name alone: nothing there is touched
        real = _real(given)
        if real is None or not real.is_relative_to(folder):
            raise SaveError(outside)
        if not _is_regular(real):
            raise SaveError(f"{save}: its scenario {_short(source)} is not a regular file (source); {hint}")
        return real, str(real)
    real = _real(folder / given)
    inside = real is not None and real.is_relative_to(folder)
    if inside and real is not None and _is_regular(real):
        return real, str(real)
    if len(given.parts) == 1 and len(source) <= NAME_CHARS and _BARE_NAME.fullmatch(source):
        stem = source[:-5] if source.endswith(".yaml") else source
        for kind in ("scenarios", "maps"):
            shipped = shipped_dir(kind) / f"{stem}.yaml"
            if shipped.is_file():
                return shipped, source
    if real is not None and not inside:
        raise SaveError(outside)  # a symlink beside the save that points elsewhere
    if real is not None and os.path.lexists(real):
        raise SaveError(f"{save}: its scenario {_short(source)} is not a regular file (source); {hint}")
    raise SaveError(
        f"{save}: no scenario {_short(source)} in the save's folder, nor a shipped scenario or map of that name "
        f"(source); put the scenario beside the save, or {hint}"
    )


def _real(path: Path) -> Path | None:
    """``path`` with its symlinks followed (no file is opened); None if it cannot be."""
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):  # too long, a symlink loop, a NUL
        return None


def _is_regular(path: Path) -> bool:
    """Whether ``path`` is a regular file (stat only: a pipe or a device is not opened)."""
    try:
        return path.is_file()
    except OSError:
        return False


def opening_failed(save: Path, scenario: Path, exc: DataError | DataErrors) -> SaveError:
    """A scenario a save names that cannot be opened: where, never what the file holds
    (a save must not make tabletop print another file's lines, finding X1)."""
    errors = exc.errors if isinstance(exc, DataErrors) else [exc]
    places = sorted({f"{e.path}:{e.line}" if e.line else e.path for e in errors})
    shown_places = ", ".join(places[:5]) + (f" and {len(places) - 5} more" if len(places) > 5 else "")
    return SaveError(
        f"{save}: its scenario {scenario} cannot be opened ({len(errors)} problems, at {shown_places}) (source); "
        f"check it with: tabletop validate {shlex.quote(str(scenario))}"
    )


def _check_phases(data: JsonDict, rules: Ruleset, where: str, unfit: str) -> None:
    """Every phase the save names is one of its rules' (or setup): the log of one rule
    system is never replayed under another (finding T2, "free" on a dog_sector save)."""
    known = [SETUP, *(p.key for p in rules.sequence)]
    named = [("initial.phase", data["initial"]["phase"])]
    named += [(f"entries[{i}].phase", e["phase"]) for i, e in enumerate(data["entries"])]
    named += [("snapshot.phase", data["snapshot"]["phase"])]
    for at, phase in named:
        if phase not in known:
            raise SaveError(
                f"{where}: phase {shown(phase)} is not one of the {rules.name} rules' ({', '.join(known)}) ({at}); "
                f"the save's rules do not fit its log: {unfit}"
            )


def restore(
    data: JsonDict,
    board: Map,
    rules: Ruleset,
    *,
    where: str = "save",
    setup: SetupProblem | None = None,
    newcomers: Newcomers | None = None,
    named: str | None = None,
) -> Game:
    """A Game from save data, its current line replayed (each action judged by the rules
    again) and compared with the snapshot; SaveError when the data is damaged, an action
    does not replay, or the result differs. The dice rolled by hand and not yet used
    come back queued (W7b). ``named``: the scenario the player named to load it on
    (then a position that does not fit is most likely the wrong scenario)."""
    _check(data, where)
    if newcomers is not None and newcomers.declared:
        try:
            check_attributes(data, newcomers.declared)
        except SaveProblem as problem:
            raise SaveError(f"{where}: {_short(problem.what)} ({_short(problem.where)}); {DAMAGED}") from None
    unfit = DAMAGED
    if named is not None:
        unfit = f"it was made from {data['source']}: name that scenario instead of {named}, or none"
    if data["rules"] != rules.name:
        raise SaveError(f"{where}: saved with rules {shown(data['rules'])}, not {rules.name!r} (rules); {DAMAGED}")
    _check_phases(data, rules, where, unfit)
    try:
        initial = GameState.from_json(board, data["initial"])
    except (KeyError, TypeError, ValueError) as exc:
        raise SaveError(f"{where}: the initial position cannot be set out on the map {board.name!r}: {exc} (initial); {unfit}") from None
    game = Game(rules, initial, data["seed"], setup=setup)
    game.newcomers = newcomers or Newcomers()
    game.entries = [Entry.from_json(e) for e in data["entries"]]
    game.head = data["head"]
    try:
        replayed = game.replay(check=True)
    except ReplayError as exc:
        raise SaveError(f"{where}: {_short(str(exc), 400)} (entries[{exc.index}]); {unfit}") from None
    if replayed.to_json() != data["snapshot"]:
        raise SaveError(
            f"{where}: replaying the log does not give the saved position (snapshot); "
            + ("the rules or the scenario changed since it was saved: start a new game" if named is None else unfit)
        )
    game.state = replayed
    game._snapshots[game.head] = replayed.to_json()
    game.roll_by_hand(data["hand_dice"])
    return game


def autosave_folder() -> Path:
    """Where autosaves go: $TABLETOP_HOME/autosave, else ~/.tabletop/autosave."""
    return Path(os.environ.get("TABLETOP_HOME") or Path.home() / ".tabletop") / "autosave"


def _safe_name(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in name).strip(".") or "game"


def autosave_path(name: str) -> Path:
    """The autosave file named ``name`` (made safe); new games use ``new_autosave_path``."""
    return autosave_folder() / f"{_safe_name(name)}.json"


def save_folder() -> Path:
    """Where the player's own saves go (Ctrl+S, Save As): beside the autosaves, apart
    from them, so a save the player made is never written over by the autosave."""
    return autosave_folder().parent / "saves"


def player_save_path(name: str) -> Path:
    """The player's save named ``name`` (made safe) in ``save_folder``."""
    return save_folder() / f"{_safe_name(name)}.json"


def new_autosave_path(
    stem: str, seed: int, started: datetime | None = None, *, folder: Path | None = None
) -> Path:
    """A fresh autosave for a new game: ``STEM-YYYYMMDD-HHMM-sSEED.json``, with ``-2``,
    ``-3``... added when that name (or one of its rotated copies) is taken; one game, one
    file, so a new game never replaces another's save. ``folder``: another folder than
    the autosaves' (the player's saves)."""
    when = (started or datetime.now()).strftime("%Y%m%d-%H%M")
    base = f"{_safe_name(stem)[:80]}-{when}-s{seed}"
    folder = folder or autosave_folder()
    n = 1
    while True:
        path = folder / (f"{base}.json" if n == 1 else f"{base}-{n}.json")
        if not any(os.path.lexists(p) for p in (path, *rotated(path))):
            return path
        n += 1


def latest_autosave(stem: str, *, besides: Path | None = None) -> Path | None:
    """The newest autosave of a game of ``stem`` (named by ``new_autosave_path``), other
    than ``besides`` (the new game's own): what a player starting that scenario again
    may want to resume. None if there is none."""
    folder = autosave_folder()
    name = re.compile(rf"{re.escape(_safe_name(stem)[:80])}-\d{{8}}-\d{{4}}-s\d+(-\d+)?\.json")
    try:
        found = [p for p in folder.iterdir() if name.fullmatch(p.name) and p != besides and p.is_file()]
        return max(found, key=lambda p: (p.stat().st_mtime, p.name), default=None)
    except OSError:  # no folder yet, or unreadable: nothing to offer
        return None


KEEP = 3  # previous versions an autosave keeps: NAME.json.1 (newest) .. NAME.json.3


def rotated(path: Path, keep: int = KEEP) -> list[Path]:
    """The previous versions of ``path``, newest first."""
    return [path.with_name(f"{path.name}.{i}") for i in range(1, keep + 1)]


def rotate(path: Path, keep: int = KEEP) -> None:
    """Shift the previous versions of ``path`` down one (.2 -> .3, .1 -> .2) and copy the
    current file to .1 (with its mode). A retry after a failed write does not shift again
    (.1 already holds the current file), so failures never push good versions out."""
    if keep < 1 or not path.is_file():
        return
    current = path.read_bytes()
    olds = rotated(path, keep)
    if olds[0].is_file() and olds[0].read_bytes() == current:
        return
    for newer, older in reversed(list(itertools.pairwise(olds))):
        if newer.is_file():
            check_target(older)
            os.replace(newer, older)
    write_atomic(olds[0], current)
    os.chmod(olds[0], stat.S_IMODE(os.stat(path).st_mode))


def write_autosave(path: Path, game: Game, source: str, keep: int = KEEP) -> None:
    """The autosave: make its folder, keep ``keep`` previous versions, write safely
    (nothing happens when the file already holds this position). WriteError (an
    OSError) if any step fails; the last good save stays whole."""
    make_folder(path.parent if str(path.parent) else Path("."))
    target = check_target(path)
    text = json.dumps(to_json(game, source, folder=path.parent), indent=1) + "\n"
    try:
        if target.is_file() and target.read_bytes() == text.encode("utf-8"):
            return
        rotate(target, keep)
    except OSError as exc:  # named after the save, not the copy being made
        failed = from_os_error(path, exc)
        raise WriteError(path, failed.reason, failed.hint, failed.errno or 0) from None
    write_atomic(path, text)
