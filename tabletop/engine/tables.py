"""A rule system's tables as a player reads them on a player aid (``tabletop tables``).

A ``Table`` is what one printed table shows: a title, the section of the rule text it
comes from, column headers, rows of cells written the way the aid writes them ("5-6",
"6 (5-6)", "NA") and the project's own choices where the text is silent or missing. A
rule system builds its tables from the same loaded data its rules play by, so the table
printed is the table played. Knows no game.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

NONE_TEXT = "no tables encoded yet"
WIDTH = 100  # the choices are wrapped to this many characters


@dataclass(frozen=True)
class Table:
    """One table: ``key`` picks it on the command line; every cell is a string."""

    key: str
    title: str
    section: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(
                    f"table {self.key}: row {list(row)} has {len(row)} cells for {len(self.columns)} columns"
                )
            if not all(isinstance(c, str) for c in row):
                raise ValueError(f"table {self.key}: every cell must be a string, got {list(row)}")

    def to_json(self) -> dict[str, Any]:
        """The table as the JSON of ``tabletop tables --json`` (lists, strings only)."""
        return {
            "key": self.key,
            "title": self.title,
            "section": self.section,
            "columns": list(self.columns),
            "rows": [list(r) for r in self.rows],
            "choices": list(self.choices),
        }

    def text(self) -> str:
        """The table as aligned columns: title and section above, choices below."""
        widths = [max(len(c), *(len(r[i]) for r in self.rows)) for i, c in enumerate(self.columns)]

        def line(cells: Iterable[str]) -> str:
            return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

        out = [f"{self.title}  [{self.key}]", f"  from: {self.section}", "", "  " + line(self.columns)]
        out.append("  " + "  ".join("-" * w for w in widths))
        out.extend("  " + line(r) for r in self.rows)
        if self.choices:
            out += ["", "  The project's choices:"]
            out.extend(
                textwrap.fill(c, WIDTH, initial_indent="  - ", subsequent_indent="    ") for c in self.choices
            )
        return "\n".join(out)


def tables_json(rules: str, tables: Iterable[Table]) -> dict[str, Any]:
    """``{"rules": NAME, "tables": [...]}``, the whole JSON of ``tabletop tables``."""
    return {"rules": rules, "tables": [t.to_json() for t in tables]}


def tables_text(tables: Iterable[Table]) -> str:
    """Every table as text, a blank line between them; ``NONE_TEXT`` if there are none."""
    shown = [t.text() for t in tables]
    return "\n\n".join(shown) if shown else NONE_TEXT


__all__ = ["NONE_TEXT", "Table", "tables_json", "tables_text"]
