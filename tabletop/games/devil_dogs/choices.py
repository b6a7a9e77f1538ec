"""The project's choices (``choices.yaml``): every gap and contradiction of the rule
text and how this project settles it, read and checked (file and line), for the
window's panel and ``tabletop tables devil-dogs``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tabletop.yamlfile import DataError, LineDict, LineList, read_yaml

CHOICES = Path(__file__).with_name("choices.yaml")
FIELDS = ("id", "section", "gap", "choice", "where")


@dataclass(frozen=True)
class Choice:
    """One gap of the text (its checklist id and section) and the project's answer."""

    id: str
    section: str
    gap: str
    choice: str
    where: str


def read_choices(path: Path = CHOICES) -> tuple[Choice, ...]:
    """choices.yaml, checked: each entry gives exactly the five fields, ids unique."""
    data = read_yaml(path)
    if not isinstance(data, LineDict) or not isinstance(data.get("choices"), LineList):
        raise DataError(path, 1, "the file must hold `choices:`, a list of {id, section, gap, choice, where}")
    items = data["choices"]
    out: list[Choice] = []
    seen: set[str] = set()
    for i, node in enumerate(items):
        line = items.item_lines[i]
        if not isinstance(node, LineDict) or set(node) != set(FIELDS):
            raise DataError(path, line, f"choices[{i}] must give exactly {', '.join(FIELDS)}")
        if not all(isinstance(node[k], str) and node[k].strip() for k in FIELDS):
            raise DataError(path, line, f"choices[{i}]: every field must be text")
        if node["id"] in seen:
            raise DataError(path, line, f"choices[{i}]: id {node['id']} given twice")
        seen.add(node["id"])
        out.append(Choice(*(" ".join(str(node[k]).split()) for k in FIELDS)))
    return tuple(out)


@cache
def choices() -> tuple[Choice, ...]:
    return read_choices()
