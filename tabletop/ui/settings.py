"""The window's own settings, remembered between runs (issue 13 finding 16): which side
panels are folded, whether the side columns are hidden, their widths.

One small JSON file beside the autosaves (``$TABLETOP_HOME/window.json``, else
``~/.tabletop/window.json``), written atomically. A settings file that cannot be read
is ignored with one log line: the table opens with its defaults, never crashes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tabletop.atomicfile import make_folder, write_atomic
from tabletop.engine.savefile import autosave_folder

FILE_NAME = "window.json"


def settings_path() -> Path:
    """Where the window's settings live: the tabletop home (TABLETOP_HOME or ~/.tabletop)."""
    return autosave_folder().parent / FILE_NAME


def load_settings(path: Path | None = None) -> tuple[dict[str, Any], str | None]:
    """The saved settings (empty when there are none), and a line saying why a file that
    exists was ignored (None when it was read or is absent)."""
    path = path or settings_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        return {}, f"{path}: window settings not read ({exc.strerror or exc}); using the defaults"
    try:
        data = json.loads(text)
    except ValueError as exc:
        return {}, f"{path}:{getattr(exc, 'lineno', 1)}: window settings are not JSON; using the defaults"
    if not isinstance(data, dict):
        return {}, f"{path}:1: window settings are not a JSON object; using the defaults"
    return data, None


def save_settings(data: dict[str, Any], path: Path | None = None) -> str | None:
    """Write the settings; a line saying why not (a full disk, a read-only home), else None."""
    path = path or settings_path()
    try:
        make_folder(path.parent)
        write_atomic(path, json.dumps(data, indent=1, sort_keys=True) + "\n")
    except OSError as exc:
        return f"window settings not saved: {exc}"
    return None
