"""The one safe way tabletop writes a file: whole or not at all, never over the wrong thing.

Every write (saves, autosaves, reports, `map new`, `render`'s PNG) goes through
``write_atomic``: the target is checked first (a folder, a device, a FIFO, a socket or
a read-only file is refused; a symlink is followed and stays a link), the bytes go to a
temporary file beside the real target, which is flushed and fsynced, renamed over the
target, and the folder is fsynced. A failure of any kind leaves the old file whole and
no temporary file behind, and comes out as one ``WriteError`` line:
``PATH: cannot write: <reason>; <what to do>``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import tempfile
from pathlib import Path

TMP_SUFFIX = ".tmp"
# what tempfile.mkstemp puts between our prefix and suffix: 8 of [a-z0-9_]
_TMP_MIDDLE = r"[a-z0-9_]{8}"

# errno -> (reason, what to do)
_REASONS: dict[int, tuple[str, str]] = {
    errno.ENOSPC: ("the disk is full", "free some space or choose another disk"),
    errno.EDQUOT: ("the disk quota is used up", "free some space or choose another disk"),
    errno.EFBIG: ("the file would be larger than allowed (file-size limit, ulimit -f)",
                  "raise the limit or choose another disk"),
    errno.EROFS: ("the file system is read-only", "choose a folder on a writable disk"),
    errno.EACCES: ("permission denied", "make the folder writable or choose another path"),
    errno.EPERM: ("operation not permitted", "make the folder writable or choose another path"),
    errno.ENAMETOOLONG: ("the path is too long", "choose a shorter name or folder"),
    errno.ENOENT: ("its folder does not exist", "create the folder first or choose another path"),
    errno.ENOTDIR: ("a part of the path is a file, not a folder", "choose a path inside a folder"),
    errno.EISDIR: ("it is a folder", "give a file name inside it"),
    errno.ELOOP: ("too many symbolic links (a loop?)", "fix the link or choose another path"),
}  # fmt: skip


class WriteError(OSError):
    """A file tabletop could not (or would not) write; ``str()`` is the one-line message."""

    def __init__(self, path: Path, reason: str, hint: str, code: int = 0) -> None:
        super().__init__(code, reason)
        self.path = Path(path)
        self.reason = reason
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.path}: cannot write: {self.reason}; {self.hint}"


def from_os_error(path: Path, exc: OSError) -> WriteError:
    """``exc`` (from writing ``path``) as a WriteError with a reason and a remedy."""
    if isinstance(exc, WriteError):
        return exc
    code = exc.errno or 0
    reason, hint = _REASONS.get(code, (exc.strerror or str(exc), "check the path and the disk, then try again"))
    return WriteError(path, reason, hint, code)


def real_target(path: Path) -> Path:
    """The file a write to ``path`` lands in: a symlink (chain) is followed, so the link
    itself stays a link."""
    path = Path(path)
    try:
        link = stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return path  # missing or unreachable: check_target says why
    return Path(os.path.realpath(path)) if link else path


def check_target(path: Path) -> Path:
    """The real target of ``path`` if tabletop may write it, else WriteError saying why.

    Refused: a folder, a device, FIFO or socket, a read-only file (by its mode bits,
    since root ignores them), a symlink loop, a missing folder or one that is a file."""
    path = Path(path)
    target = real_target(path)
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        _check_folder(path, target.parent if str(target.parent) else Path("."))
        return target
    except OSError as exc:
        raise from_os_error(path, exc) from None
    if stat.S_ISLNK(st.st_mode):
        raise WriteError(path, "it is a symbolic link loop", "fix the link or choose another path", errno.ELOOP)
    if stat.S_ISDIR(st.st_mode):
        raise WriteError(path, "it is a folder", "give a file name inside it", errno.EISDIR)
    if not stat.S_ISREG(st.st_mode):
        raise WriteError(
            path, "it is not a regular file (a device, FIFO or socket)",
            "tabletop writes only regular files; choose another path",
        )  # fmt: skip
    if not st.st_mode & 0o222 or not os.access(target, os.W_OK):
        raise WriteError(
            path, "the file is read-only; tabletop will not replace it",
            "make it writable (chmod u+w) or choose another path", errno.EACCES,
        )  # fmt: skip
    return target


def _check_folder(path: Path, folder: Path) -> None:
    try:
        st = os.stat(folder)
    except FileNotFoundError:
        raise WriteError(
            path, f"folder {folder} does not exist", "create it first or choose another path", errno.ENOENT
        ) from None
    except OSError as exc:
        raise from_os_error(path, exc) from None
    if not stat.S_ISDIR(st.st_mode):
        raise WriteError(path, f"{folder} is a file, not a folder", "choose a path inside a folder", errno.ENOTDIR)


def make_folder(folder: Path) -> None:
    """Create ``folder`` (and its parents) if missing; WriteError if it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise WriteError(folder, "it is a file, not a folder", "move the file away or choose another folder",
                         errno.ENOTDIR) from None  # fmt: skip
    except OSError as exc:
        raise from_os_error(folder, exc) from None


def stale_temps(target: Path) -> list[Path]:
    """Temporary files an interrupted write of ``target`` left (``.NAME.XXXXXXXX.tmp``)."""
    folder = target.parent if str(target.parent) else Path(".")
    pattern = re.compile(re.escape(f".{target.name}.") + _TMP_MIDDLE + re.escape(TMP_SUFFIX))
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    found = []
    for name in names:
        if pattern.fullmatch(name):
            p = folder / name
            try:
                if stat.S_ISREG(os.lstat(p).st_mode):
                    found.append(p)
            except OSError:
                continue
    return found


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable; a file system that cannot sync folders is let be."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EBADF, errno.ENOTSUP):
            raise
    finally:
        os.close(fd)


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8 with \\n line ends, or bytes) to ``path`` safely.

    Readers see the old file or the whole new one; an existing file keeps its mode; a
    failure raises WriteError and leaves the old file and no temporary file."""
    path = Path(path)
    target = check_target(path)
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    folder = target.parent if str(target.parent) else Path(".")
    for old in stale_temps(target):
        old.unlink(missing_ok=True)
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise from_os_error(path, exc) from None
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TMP_SUFFIX, dir=folder)
        with os.fdopen(fd, "wb") as out:
            os.fchmod(out.fileno(), stat.S_IMODE(st.st_mode) if st else _new_file_mode())
            if st is not None and hasattr(os, "fchown"):
                with contextlib.suppress(PermissionError):  # not root: the file becomes ours
                    os.fchown(out.fileno(), st.st_uid, st.st_gid)
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
        tmp = None
        _fsync_folder(folder)
    except OSError as exc:
        raise from_os_error(path, exc) from None
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
