"""A blank free-play map as YAML text, ready for a player to paint terrain into."""

from __future__ import annotations

import json
import re
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


STARTER_TERRAIN = """\
  open:  {symbol: ".", colour: "#c8d89a", name: Open ground}
  woods: {symbol: "W", colour: "#3f7a3a", name: Woods}
  hill:  {symbol: "H", colour: "#b39b6b", name: Hill}
  water: {symbol: "~", colour: "#4a7fb5", name: Water}
  town:  {symbol: "T", colour: "#9a8f87", name: Town}
"""
OPEN_WORDS = ("open", "clear", "grassland", "grass", "field", "beach", "plain")
COLOURS = {  # a starting colour for a terrain word a rule system knows (the player recolours)
    "open": "#c8d89a", "clear": "#c8d89a", "grassland": "#9cc46a", "field": "#c8d89a", "beach": "#e6d59a",
    "desert": "#ead59b", "sea": "#2f5f8a", "water": "#4a7fb5", "river": "#4a7fb5", "stream": "#4a7fb5",
    "woods": "#3f7a3a", "forest": "#2c6630", "trees": "#3f7a3a", "wood": "#3f7a3a", "hill": "#b39b6b",
    "swamp": "#5f8a78", "marsh": "#5f8a78", "town": "#9a8f87", "village": "#9a8f87", "building": "#8d6e63",
    "road": "#a58d63", "bluff": "#8b5a2b", "rough": "#6d8b8f", "trench": "#3b3b3b",
}  # fmt: skip
SPARE_COLOURS = ("#b7a26a", "#7d3c98", "#d68910", "#117a65", "#a04000", "#5d6d7e", "#b03a2e")
SYMBOLS = ".WH~T^%=:#+*abcdefghijklmnopqrstuvwxyz0123456789"
PLAIN = re.compile(r"^[a-z][a-z0-9_-]*$")  # a terrain word written without quotes
YAML_WORDS = {"yes", "no", "on", "off", "true", "false", "null", "y", "n"}  # words YAML would not read as text


def terrain_for(words: list[str], by_property: str | None = None) -> tuple[str, str]:
    """A terrain block (YAML lines) declaring each of ``words``, with symbols and
    starting colours, and the symbol of the open-ground one to fill the rows with. With
    ``by_property`` (Dogs of War reads ``kind``) each type says its word there."""
    ordered = sorted(words, key=lambda w: (w not in OPEN_WORDS, w))
    width = max(len(w) for w in ordered) + 1
    lines = []
    for i, word in enumerate(ordered):
        colour = COLOURS.get(word, SPARE_COLOURS[i % len(SPARE_COLOURS)])
        props = f", properties: {{{by_property}: {word}}}" if by_property else ""
        name = word.replace("-", " ").replace("_", " ").capitalize()
        key = word if PLAIN.match(word) and word.lower() not in YAML_WORDS else yaml_string(word)
        lines.append(f"  {key + ':':<{width + 2}} {{symbol: {yaml_string(SYMBOLS[i])}, colour: \"{colour}\", name: {name}{props}}}")
    return "\n".join(lines) + "\n", SYMBOLS[0]


def blank_map_yaml(
    *,
    columns: int,
    rows: int,
    orientation: Orientation = "flat",
    offset: str | None = None,
    name: str = "Free-play map",
    rules: str | None = None,
    terrain: tuple[str, str] | None = None,
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
    block, fill = terrain if terrain is not None else (STARTER_TERRAIN, ".")
    row_lines = "\n".join("  " + " ".join(fill for _ in range(columns)) for _ in range(rows))
    made_for = f"rules: {rules}\n" if rules else ""
    return f"""\
# A blank map made by `tabletop map new`. Paint it with `tabletop edit`, or edit the
# symbols in `rows` (one line per map row, one symbol per column); add terrain types,
# hexside features and regions as described in maps/FORMAT.md.
name: {yaml_string(name)}
{made_for}grid:
  orientation: {orientation}
  offset: {offset}
  columns: {columns}
  rows: {rows}
  labels: {{first_column: {labels.first_column}, first_row: {labels.first_row}, digits: {labels.digits}}}

terrain:
{block}
rows: |
{row_lines}
"""
