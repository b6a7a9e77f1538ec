"""Reading an input file without surprises: only a regular file, never more than a bound.

Why: a path a player or a data file names may be a pipe (opening it waits for a writer),
a device (reading it never ends), a folder or a huge file. Every reader of the
program's inputs (data files, saves, ``--pairs``) goes through ``read_bounded``, so none
can hang or fill memory, and ``not_a_file`` says in words what stands at a path instead.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

#: what ``not_a_file`` says when nothing at all is at the path
MISSING = "missing"


class NotAFile(OSError):
    """The path names something other than a regular file; ``why`` says what."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(errno.EINVAL, why, str(path))
        self.why = why


def not_a_file(path: Path) -> str | None:
    """None if ``path`` is a regular file (through symlinks); MISSING if nothing is
    there; else why it cannot be read as a file ("a folder", "a FIFO", "a broken
    symbolic link to x", ...). Only stats the path: a FIFO or a device is never opened."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link loop"
        if exc.errno == errno.ENAMETOOLONG:
            return "a name too long for the file system"
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            if os.path.islink(path):
                return f"a broken symbolic link (to {os.readlink(path)})"
            return MISSING
        return f"unreadable ({exc.strerror})"
    return _kind(mode)


def _kind(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe), not a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a file"
    return "not a regular file"


def read_bounded(path: Path, most: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``most + 1`` of them (the caller
    refuses a longer file in its own words). FileNotFoundError if nothing is there,
    NotAFile for anything but a regular file, OSError if it cannot be read. The file is
    opened without waiting and its kind checked again once open (a path can be swapped
    for a pipe between the look and the open)."""
    why = not_a_file(path)
    if why == MISSING:
        raise FileNotFoundError(errno.ENOENT, "no such file", str(path))
    if why is not None:
        raise NotAFile(path, why)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as f:
        why = _kind(os.fstat(fd).st_mode)
        if why is not None:
            raise NotAFile(path, why)
        return f.read(most + 1)


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")


def picture_beside(folder: Path, name: object, what: str) -> tuple[Path | None, str | None]:
    """The picture file ``name`` (a PNG or JPEG) inside ``folder`` — a data file never
    reads outside its own folder — or None and why not, in words ending with the fix."""
    if not isinstance(name, str) or not name.strip():
        return None, f"{what} must name a PNG or JPEG file beside the data file (board.png)"
    base = folder.resolve()
    if Path(name).is_absolute() or not (base / name).resolve().is_relative_to(base):
        return None, f"{what} {name!r} is outside the data file's folder; copy it beside the file"
    if Path(name).suffix.lower() not in IMAGE_SUFFIXES:
        return None, f"{what} {name!r} is not a PNG or JPEG; convert it (.png, .jpg)"
    why = not_a_file(base / name)
    if why == MISSING:
        return None, f"{what} {name!r} not found in {base}; check the name"
    if why is not None:
        return None, f"{what} {name!r} is {why}; give a picture file"
    return (base / name).resolve(), None
