"""A blank free-play map as YAML text, ready for a player to paint terrain into."""

from __future__ import annotations

from tabletop.hexgrid import OFFSET_SYSTEMS, LabelFormat, Orientation


def blank_map_yaml(
    *,
    columns: int,
    rows: int,
    orientation: Orientation = "flat",
    offset: str | None = None,
    name: str = "Free-play map",
) -> str:
    """YAML for a ``columns`` x ``rows`` map of open ground, with a starter terrain legend.

    >>> print(blank_map_yaml(columns=3, rows=2).split("rows: |")[1].strip())
    . . .
      . . .
    """
    offset = offset or OFFSET_SYSTEMS[orientation][0]
    digits = max(2, len(str(max(columns, rows))))
    labels = LabelFormat(digits=digits)
    row_lines = "\n".join("  " + " ".join("." for _ in range(columns)) for _ in range(rows))
    return f"""\
# A blank free-play map made by `tabletop map new`. Paint terrain by editing the
# symbols in `rows` (one line per map row, one symbol per column); add terrain types,
# hexside features and regions as described in maps/FORMAT.md.
name: {name}
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
