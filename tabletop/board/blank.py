"""A blank free-play map as YAML text, ready for a player to paint terrain into."""

from __future__ import annotations

import json
import unicodedata

from tabletop.hexgrid import OFFSET_SYSTEMS, LabelFormat, Orientation
from tabletop.limits import NAME_CHARS


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a map's display name (None if it can): it must be one line
    of printable text, not empty, at most ``limits.NAME_CHARS`` characters."""
    if not name.strip():
        return "is empty; give the map a name, e.g. --name 'Hill 112'"
    if len(name) > NAME_CHARS:
        return f"is {len(name)} characters; at most {NAME_CHARS} (limits.NAME_CHARS)"
    for c in name:
        if unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") or c in "\ufeff":
            return f"contains the control character {c!r}; a name is one line of printable text"
    return None


def yaml_string(text: str) -> str:
    """``text`` as a YAML double-quoted scalar (JSON's string syntax is valid YAML): no
    colon, hash, quote, bracket or word like ``yes`` can change what it means."""
    return json.dumps(text, ensure_ascii=False)


def blank_map_yaml(
    *,
    columns: int,
    rows: int,
    orientation: Orientation = "flat",
    offset: str | None = None,
    name: str = "Free-play map",
) -> str:
    """YAML for a ``columns`` x ``rows`` map of open ground, with a starter terrain legend.
    ValueError if ``name`` is not a usable name (see ``name_problem``).

    >>> print(blank_map_yaml(columns=3, rows=2).split("rows: |")[1].strip())
    . . .
      . . .
    """
    problem = name_problem(name)
    if problem is not None:
        raise ValueError(f"the name {problem}")
    offset = offset or OFFSET_SYSTEMS[orientation][0]
    digits = max(2, len(str(max(columns, rows))))
    labels = LabelFormat(digits=digits)
    row_lines = "\n".join("  " + " ".join("." for _ in range(columns)) for _ in range(rows))
    return f"""\
# A blank free-play map made by `tabletop map new`. Paint terrain by editing the
# symbols in `rows` (one line per map row, one symbol per column); add terrain types,
# hexside features and regions as described in maps/FORMAT.md.
name: {yaml_string(name)}
grid:
  orientation: {orientation}
  offset: {offset}
  columns: {columns}
  rows: {rows}
  labels: {{first_column: {labels.first_column}, first_row: {labels.first_row}, digits: {labels.digits}}}

terrain:
  open:  {{symbol: ".", colour: "#c8d89a", name: Open ground}}
  woods: {{symbol: "W", colour: "#3f7a3a", name: Woods}}
  hill:  {{symbol: "H", colour: "#b39b6b", name: Hill}}
  water: {{symbol: "~", colour: "#4a7fb5", name: Water}}
  town:  {{symbol: "T", colour: "#9a8f87", name: Town}}

rows: |
{row_lines}
"""
