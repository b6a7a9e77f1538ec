"""The rules panel's text (phases.yaml), read and checked like every other data file.

The game box shows these lines as they are, so every one must be text: an unquoted
``word: more words`` in YAML is a mapping, not a line (issue 13 finding 4), and would
reach the window as ``{'word': 'more words'}``. Every problem is reported at its line,
all at once; the rules read nothing here (this is what the player reads).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tabletop.datareader import Collector
from tabletop.yamlfile import DataErrors, LineDict, LineList, read_yaml

PARTS = ("rules", "choices")  # the rules in short, then where the project chose

PhaseTexts = dict[str, dict[str, list[str]]]


def read_phase_texts(path: Path, phases: Iterable[str]) -> PhaseTexts:
    """phase key -> {"rules": [line, ...], "choices": [line, ...]} from ``path``;
    DataErrors naming the file and line of every problem (a phase the game does not
    have, a part other than ``rules`` / ``choices``, an item that is not one text line)."""
    known = tuple(phases)
    c = Collector(path)
    data = read_yaml(path)
    out: PhaseTexts = {}
    if not isinstance(data, LineDict):
        c.fail(getattr(data, "line", None), "phases.yaml must be a mapping of phase key: {rules, choices}")
        raise DataErrors(c.errors)
    for key, block in data.items():
        where = f"phase {key!r}"
        if key not in known:
            c.unknown_key(data, key, known, "phases.yaml")
            continue
        if not isinstance(block, LineDict):
            c.fail(c.line_of(data, key), f"{where} must be a mapping with `rules:` and `choices:` lists")
            continue
        c.known_keys(block, PARTS, where)
        out[str(key)] = {part: _lines(c, block, part, where) for part in PARTS if part in block}
    if c.errors:
        raise DataErrors(c.errors)
    return out


def _lines(c: Collector, block: LineDict, part: str, where: str) -> list[str]:
    """The text lines under ``part``; each item that is not text is reported at its line."""
    items = block[part]
    if not isinstance(items, LineList):
        c.fail(c.line_of(block, part), f"`{part}` of {where} must be a list of text lines (`- text`)")
        return []
    out: list[str] = []
    for i, item in enumerate(items):
        if isinstance(item, str) and item.strip():
            out.append(item)
            continue
        hint = (
            "a colon followed by a space makes YAML read the line as a mapping: put the line in quotes"
            if isinstance(item, dict)
            else "write it as text (quote it if YAML reads it as a number, a date or a mapping)"
        )
        c.fail(c.line_of(items, i), f"item {i + 1} of `{part}` in {where} is not a line of text ({item!r}); {hint}")
    return out
