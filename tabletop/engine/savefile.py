"""Saves: a game's log and a snapshot, as versioned JSON written atomically.

A save holds what the game was started from (the scenario or map argument), the rule
system, the seed, the initial state, every log entry (branches included), the current
entry and a snapshot of the current state. Loading rebuilds the ``Game`` and replays its
current line from the initial state: if the replay does not reach the snapshot (the
rules or the scenario changed since), the save is refused with the reason rather than
silently played on a different game.

The format carries a version. ``MIGRATIONS[n]`` turns a version-n save into version
n+1; a save newer than this program, or older with no migration path, gets a clear
error. Writing goes through a temporary file and a rename, so a crash mid-write leaves
the previous save whole.
"""

from __future__ import annotations

import itertools
import json
import os
import stat
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path

from tabletop.atomicfile import WriteError, check_target, from_os_error, make_folder, write_atomic
from tabletop.board import Map

from .game import Entry, Game, Ruleset
from .setup import SetupProblem
from .state import GameState, JsonDict

FORMAT = "tabletop-save"
VERSION = 1
# version n -> a function making it version n+1 (none yet: version 1 is the first)
MIGRATIONS: dict[int, Callable[[JsonDict], JsonDict]] = {}


class SaveError(ValueError):
    """A save that cannot be read or played on; the message says why and what to do."""


def to_json(game: Game, source: str) -> JsonDict:
    """The save as JSON data; ``source`` is what ``play`` was given (name or path)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "source": source,
        "rules": game.rules.name,
        "seed": game.seed,
        "initial": game.initial,
        "entries": [e.to_json() for e in game.entries],
        "head": game.head,
        "snapshot": game.state.to_json(),
    }


def write_save(path: Path, game: Game, source: str) -> None:
    """Write the save safely (atomicfile.write_atomic): the old file stays whole if this
    fails, and a WriteError (an OSError) says why in one line. The folder must exist."""
    write_atomic(path, json.dumps(to_json(game, source), indent=1) + "\n")


def read_save(path: Path) -> JsonDict:
    """Read, check and migrate a save to the current version; SaveError if it cannot."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SaveError(f"{path}: no such save file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SaveError(f"{path}: not a readable save ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(f"{path}: not a tabletop save (no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveError(f"{path}: the save has no format version")
    if version > VERSION:
        raise SaveError(
            f"{path}: saved by a newer tabletop (save format {version}; this one reads up to "
            f"{VERSION}); upgrade tabletop to load it"
        )
    while version < VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SaveError(
                f"{path}: save format {version} is too old to load (no migration to "
                f"{version + 1}); replay it with the tabletop version that wrote it"
            )
        data = step(data)
        version += 1
        data["version"] = version
    for key in ("source", "rules", "seed", "initial", "entries", "head", "snapshot"):
        if key not in data:
            raise SaveError(f"{path}: the save lacks {key!r}; it is damaged")
    checked: JsonDict = data
    return checked


def restore(
    data: JsonDict,
    board: Map,
    rules: Ruleset,
    *,
    where: str = "save",
    setup: SetupProblem | None = None,
    unit_steps: Mapping[str, int] | None = None,
) -> Game:
    """A Game from checked save data, its current line replayed and compared with the
    snapshot; SaveError when they differ or the data is damaged."""
    if data["rules"] != rules.name:
        raise SaveError(f"{where}: saved with rules {data['rules']!r}, not {rules.name!r}")
    try:
        game = Game(rules, GameState.from_json(board, data["initial"]), data["seed"], setup=setup)
        game.unit_steps = dict(unit_steps or {})
        game.entries = [Entry.from_json(e) for e in data["entries"]]
        head = data["head"]
        if not -1 <= head < len(game.entries):
            raise SaveError(f"{where}: current entry {head} is not in the log")
        game.head = head
        replayed = game.replay()
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, SaveError):
            raise
        raise SaveError(f"{where}: damaged save ({type(exc).__name__}: {exc})") from None
    if replayed.to_json() != data["snapshot"]:
        raise SaveError(
            f"{where}: replaying the log does not give the saved position; the rules or "
            "the scenario changed since it was saved"
        )
    game.state = replayed
    game._snapshots[head] = replayed.to_json()
    return game


def autosave_folder() -> Path:
    """Where autosaves go: $TABLETOP_HOME/autosave, else ~/.tabletop/autosave."""
    return Path(os.environ.get("TABLETOP_HOME") or Path.home() / ".tabletop") / "autosave"


def _safe_name(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in name).strip(".") or "game"


def autosave_path(name: str) -> Path:
    """The autosave file named ``name`` (made safe); new games use ``new_autosave_path``."""
    return autosave_folder() / f"{_safe_name(name)}.json"


def new_autosave_path(stem: str, seed: int, started: datetime | None = None) -> Path:
    """A fresh autosave for a new game: ``STEM-YYYYMMDD-HHMM-sSEED.json``, with ``-2``,
    ``-3``... added when that name (or one of its rotated copies) is taken; one game, one
    file, so a new game never replaces another's save."""
    when = (started or datetime.now()).strftime("%Y%m%d-%H%M")
    base = f"{_safe_name(stem)[:80]}-{when}-s{seed}"
    folder = autosave_folder()
    n = 1
    while True:
        path = folder / (f"{base}.json" if n == 1 else f"{base}-{n}.json")
        if not any(os.path.lexists(p) for p in (path, *rotated(path))):
            return path
        n += 1


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
    text = json.dumps(to_json(game, source), indent=1) + "\n"
    try:
        if target.is_file() and target.read_bytes() == text.encode("utf-8"):
            return
        rotate(target, keep)
    except OSError as exc:  # named after the save, not the copy being made
        failed = from_os_error(path, exc)
        raise WriteError(path, failed.reason, failed.hint, failed.errno or 0) from None
    write_atomic(path, text)
