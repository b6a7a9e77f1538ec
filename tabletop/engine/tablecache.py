"""The viewshed's vector tables kept on disk, in the user's cache folder.

Why: a table takes a second or two to build and about 20 MB; read back from a file it
takes a hundredth of that, so only the first process ever (per layout) pays (issue 19
item 3, no cold start). The folder is ``$TABLETOP_HOME/cache`` when TABLETOP_HOME is set,
else ``$XDG_CACHE_HOME/tabletop`` (``~/.cache/tabletop``). A file names its layout
(``fastview.TABLE_FORMAT``) and reach, and holds both again, checked on reading with the
arrays' shapes; a file that does not fit is ignored and rebuilt over. Writing is
atomic (a temporary file renamed into place); a table replaces the files of smaller
reaches and other layouts, so the folder holds one. A folder that cannot be written only
means the table is built again next time.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .fastview import VectorTable

_ROWS = ("crossed", "corners", "run_a", "run_b")


def folder() -> Path:
    """The user's cache folder for tabletop."""
    home = os.environ.get("TABLETOP_HOME")
    if home:
        return Path(home) / "cache"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "tabletop"


def _format() -> int:
    from .fastview import TABLE_FORMAT

    return TABLE_FORMAT


def path(reach: int) -> Path:
    """The file of the table for vectors up to ``reach``."""
    return folder() / f"vectors-v{_format()}-r{reach}.npz"


def load(reach: int) -> VectorTable | None:
    """A kept table covering ``reach`` (the smallest such), or None."""
    from .fastview import VectorTable, _Ragged

    try:
        found = sorted(folder().glob(f"vectors-v{_format()}-r*.npz"))
    except OSError:
        return None
    reaches = sorted(r for r in (_reach_of(p) for p in found) if r is not None and r >= reach)
    for have in reaches:
        try:
            with np.load(path(have), allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
        except (OSError, ValueError, KeyError, EOFError):
            continue
        try:
            if int(arrays["format"][0]) != _format() or int(arrays["reach"][0]) != have:
                continue
            size = 2 * have + 1
            if arrays["ids"].shape != (size, size):
                continue
            rows = {k: _Ragged(arrays[f"{k}_q"], arrays[f"{k}_r"], arrays[f"{k}_ptr"]) for k in _ROWS}
            if any(len(rows[k].ptr) != len(rows["crossed"].ptr) for k in _ROWS):
                continue
        except KeyError:
            continue
        return VectorTable(
            have, arrays["ids"], rows["crossed"], rows["corners"], rows["run_a"], rows["run_b"],
            arrays["head_q"], arrays["head_r"],
        )  # fmt: skip
    return None


def _reach_of(p: Path) -> int | None:
    tail = p.stem.rsplit("-r", 1)[-1]
    return int(tail) if tail.isdigit() else None


def save(table: VectorTable) -> Path | None:
    """Write ``table`` to the cache folder; the file, or None if it could not be written."""
    arrays = {
        "format": np.array([_format()]),
        "reach": np.array([table.reach]),
        "ids": table.ids,
        "head_q": table.head_q,
        "head_r": table.head_r,
    }
    for k in _ROWS:
        rows = getattr(table, k)
        arrays[f"{k}_q"], arrays[f"{k}_r"], arrays[f"{k}_ptr"] = rows.q, rows.r, rows.ptr
    target = path(table.reach)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".part")
        try:
            with os.fdopen(fd, "wb") as out:
                np.savez(out, **arrays)  # type: ignore[arg-type]  # numpy's stub types **kwds as its own flags
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _drop_covered(table.reach)
    except OSError:
        return None
    return target


def _drop_covered(reach: int) -> None:
    """Remove the files this one makes useless (smaller reaches, other layouts): the
    folder keeps one table, never one per reach ever asked."""
    for p in folder().glob("vectors-v*-r*.npz"):
        have = _reach_of(p)
        if not p.name.startswith(f"vectors-v{_format()}-") or (have is not None and have < reach):
            p.unlink(missing_ok=True)
