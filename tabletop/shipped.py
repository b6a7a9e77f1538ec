"""Where the shipped data folders (maps/, counters/, scenarios/, assets/) are.

In a checkout they sit at the top of the repository; in an installed wheel they are
packed inside the package as ``tabletop/_shipped/<kind>``. A command-line argument may
be a path or a bare name ("dog-sector") looked up in the shipped folder of its kind;
``open_data`` reads the file such an argument names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from tabletop.inputfile import MISSING, not_a_file
from tabletop.limits import NAME_CHARS
from tabletop.yamlfile import DataError, DataErrors, read_data

Kind = Literal["maps", "counters", "scenarios", "assets"]

_PACKAGE = Path(__file__).resolve().parent


def shipped_dir(kind: Kind) -> Path:
    """The folder holding the shipped data of ``kind`` (wheel first, then checkout)."""
    inside = _PACKAGE / "_shipped" / kind
    if inside.is_dir():
        return inside
    checkout = _PACKAGE.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / kind).is_dir():
        return checkout / kind
    return inside  # absent: lookups in it fail with a clear "no such ..." message


def shipped_names(kind: Kind) -> list[str]:
    """Bare names of the shipped YAML files of ``kind``, sorted."""
    folder = shipped_dir(kind)
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.yaml"))


def resolve(name_or_path: str, kind: Kind) -> Path | None:
    """A path as given if it is a file, else the shipped ``<kind>/<name>.yaml``, else None.

    A bare name is a single path component, so it can never reach outside the folder.
    """
    given = Path(name_or_path)
    if not_a_file(given) is None:
        return given
    if given.name == name_or_path and name_or_path not in ("", ".", ".."):
        stem = name_or_path[:-5] if name_or_path.endswith(".yaml") else name_or_path
        candidate = shipped_dir(kind) / f"{stem}.yaml"
        if not_a_file(candidate) is None:
            return candidate
    return None


def open_data(source: str | Path, kind: Kind, unknown: str) -> tuple[Path, Any]:
    """The path and parsed YAML of a data file named by a path or a shipped bare name.

    DataErrors with one error if it cannot be read (saying why: a folder, a FIFO, a broken
    link...), or if there is no such file: then the message is ``unknown`` with ``{known}`` replaced by the shipped names of ``kind``.
    """
    text = str(source)
    if len(text) > NAME_CHARS:  # shown shortened: the name itself is the problem
        shown = f"{text[:60]}... ({len(text)} characters)"
        raise DataErrors([DataError(shown, None, f"a name or path has at most {NAME_CHARS} characters")])
    path = resolve(text, kind)
    why = not_a_file(Path(source)) if path is None else None
    if why is not None and why != MISSING:
        raise DataErrors([DataError(source, None, f"it is {why}; give a YAML data file")])
    if path is None:
        known = ", ".join(shipped_names(kind)) or "none"
        raise DataErrors([DataError(source, None, unknown.format(known=known))])
    return path, read_data(path)
