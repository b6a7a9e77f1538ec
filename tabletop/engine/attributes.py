"""Per-unit attributes and a rule system's own scenario keys, declared as data (gap E5).

A rule system says which numbers and words its units carry (a regiment, a nation, a
strength, weapons) and which keys its scenarios may add (the attacker, objective hexes)
in a small schema file, for example ``tabletop/games/devil_dogs/units.yaml``::

    units:
      nation: {kind: word, choices: [usmc, us-army, french, german-assault, german-defensive],
               text: "decides the step ladder (7.2)"}
      regiment: {kind: word, text: "the unit's regiment (4)"}
    scenario:
      attacker: {kind: word, choices: [allied, german], text: "wins ties (5.3.3)"}
      objectives: {kind: hexes, text: "objective hexes (1.2)"}

The engine reads and checks the values against that schema wherever they are written
(scenario units and reinforcements, counter files' unit types, a scenario's ``game:``
block, saves) with the file and line of each problem, so a rule system's code reads
typed values it can trust: ``piece.attr("nation")``, ``scenario.game["attacker"]``.

A piece holds its attributes as sorted ``(key, value)`` pairs so it stays hashable and
its JSON is stable; a value is an int, a word, a flag, a text, or a tuple of words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from tabletop.hexgrid import Hex
from tabletop.yamlfile import DataError, LineDict, read_data

Kind = Literal["int", "word", "words", "flag", "text", "hex", "hexes"]
KINDS: tuple[Kind, ...] = ("int", "word", "words", "flag", "text", "hex", "hexes")
#: kinds a unit may carry (hexes belong to the scenario, not to a counter)
UNIT_KINDS: tuple[Kind, ...] = ("int", "word", "words", "flag", "text")
Value = int | bool | str | tuple[str, ...]
Attributes = tuple[tuple[str, Value], ...]
Fail = Callable[[int | None, str], None]
WORD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
KEY = re.compile(r"^[a-z][a-z0-9_-]*$")
SPEC_KEYS = ("kind", "text", "choices", "min", "max", "default")
TEXT_CHARS = 200  # an attribute's text value: a name, a short note


@dataclass(frozen=True)
class Attribute:
    """One declared attribute: its key, kind, what it means (with the rule section), the
    words it may take (``choices``, empty: any word), bounds for an int, and a default
    (None: a unit without it simply has none)."""

    key: str
    kind: Kind
    text: str = ""
    choices: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None
    default: Any = None

    def describe(self) -> str:
        """What a value must be, for error messages: "a word: usmc, french"."""
        if self.kind == "int":
            lo = "" if self.min is None else f" >= {self.min}"
            hi = "" if self.max is None else f" <= {self.max}"
            return f"a whole number{lo}{' and' if lo and hi else ''}{hi}"
        if self.kind in ("word", "words") and self.choices:
            return f"{'a word' if self.kind == 'word' else 'a list of words'} among {', '.join(self.choices)}"
        return {
            "word": "a word such as 5th-marines",
            "words": "a list of words, e.g. [rifle, grenade]",
            "flag": "true or false",
            "text": f"a text of at most {TEXT_CHARS} characters",
            "hex": 'a hex label such as "0503"',
            "hexes": 'a list of hex labels, e.g. ["0503", "0604"]',
        }.get(self.kind, self.kind)

    def problem(self, value: Any) -> str | None:
        """Why ``value`` (as read from YAML or JSON) is not a value of this attribute,
        or None. Hex kinds are checked against a map by ``read_values``."""
        if self.kind == "int":
            ok = type(value) is int and (self.min is None or value >= self.min) and (
                self.max is None or value <= self.max
            )
        elif self.kind == "flag":
            ok = isinstance(value, bool)
        elif self.kind == "text":
            ok = isinstance(value, str) and len(value) <= TEXT_CHARS and "\n" not in value
        elif self.kind == "word":
            ok = isinstance(value, str) and bool(WORD.match(value)) and (not self.choices or value in self.choices)
        elif self.kind == "words":
            ok = isinstance(value, list | tuple) and all(
                isinstance(w, str) and WORD.match(w) and (not self.choices or w in self.choices) for w in value
            )
        elif self.kind == "hex":
            ok = isinstance(value, str | int) and not isinstance(value, bool)
        else:
            ok = isinstance(value, list | tuple) and all(isinstance(v, str | int) and not isinstance(v, bool) for v in value)
        return None if ok else f"must be {self.describe()}, got {value!r}"


@dataclass(frozen=True)
class Schema:
    """What a rule system declares: unit attributes and its own scenario keys (the
    ``game:`` block), each key -> Attribute; ``path`` is the schema file (for people)."""

    units: Mapping[str, Attribute]
    scenario: Mapping[str, Attribute]
    path: str = ""


NO_SCHEMA = Schema({}, {})


@cache
def load_schema(path: Path) -> Schema:
    """Read a rule system's schema file (once); DataError at the first problem's line
    (it is the rule system's own data, so one error is enough to fix it)."""
    data = read_data(path)
    if not isinstance(data, LineDict):
        raise DataError(path, 1, "a schema file is a mapping with `units:` and/or `scenario:`")
    for key in data:
        if key not in ("units", "scenario"):
            raise DataError(path, data.key_lines.get(key), f"unknown key {key!r}; a schema has units: and scenario:")
    units = _block(path, data, "units", UNIT_KINDS)
    scenario = _block(path, data, "scenario", KINDS)
    return Schema(units, scenario, str(path))


def _block(path: Path, data: LineDict, name: str, kinds: tuple[Kind, ...]) -> dict[str, Attribute]:
    block = data.get(name, LineDict())
    if not isinstance(block, LineDict):
        raise DataError(path, data.key_lines.get(name), f"`{name}` must be a mapping of key -> {{kind: ...}}")
    out: dict[str, Attribute] = {}
    for key, spec in block.items():
        line = block.key_lines.get(key)
        if not isinstance(key, str) or not KEY.match(key):
            raise DataError(path, line, f"{name}: {key!r} is not a key (lower-case letters, digits, - and _)")
        if not isinstance(spec, LineDict):
            raise DataError(path, line, f"{name}.{key} must be a mapping such as {{kind: word}}")
        for k in spec:
            if k not in SPEC_KEYS:
                raise DataError(path, spec.key_lines.get(k), f"{name}.{key}: unknown key {k!r} (known: {', '.join(SPEC_KEYS)})")
        kind = spec.get("kind")
        if kind not in kinds:
            raise DataError(path, spec.key_lines.get("kind", line), f"{name}.{key}.kind must be one of {', '.join(kinds)}, got {kind!r}")
        choices = spec.get("choices", [])
        if not isinstance(choices, list) or not all(isinstance(c, str) and WORD.match(c) for c in choices):
            raise DataError(path, spec.key_lines.get("choices", line), f"{name}.{key}.choices must be a list of words")
        if choices and kind not in ("word", "words"):
            raise DataError(path, spec.key_lines.get("choices", line), f"{name}.{key}: only word kinds take choices")
        bounds = {b: spec.get(b) for b in ("min", "max")}
        for b, v in bounds.items():
            if v is not None and (kind != "int" or type(v) is not int):
                raise DataError(path, spec.key_lines.get(b, line), f"{name}.{key}.{b} must be a whole number, for kind int only")
        text = spec.get("text", "")
        if not isinstance(text, str):
            raise DataError(path, spec.key_lines.get("text", line), f"{name}.{key}.text must be text")
        attribute = Attribute(key, kind, text, tuple(choices), bounds["min"], bounds["max"])
        default = spec.get("default")
        if default is not None:
            problem = attribute.problem(default)
            if problem:
                raise DataError(path, spec.key_lines.get("default", line), f"{name}.{key}.default {problem}")
            attribute = Attribute(key, kind, text, tuple(choices), bounds["min"], bounds["max"], _frozen(default))
        out[key] = attribute
    return out


def _frozen(value: Any) -> Value:
    """A checked value as a piece keeps it (lists become tuples)."""
    return tuple(value) if isinstance(value, list | tuple) else value


def read_values(
    node: Any,
    line: int | None,
    declared: Mapping[str, Attribute],
    fail: Fail,
    where: str,
    hex_of: Callable[[str], Hex] | None = None,
) -> dict[str, Any] | None:
    """The values of an ``attributes:`` (or ``game:``) mapping, checked against
    ``declared``; every problem goes to ``fail`` at its own line (None after any).
    ``where`` names the owner in messages ("unit M1", "the game block"); ``hex_of``
    turns a label into a Hex for hex kinds (a bad label is a problem there)."""
    if not isinstance(node, LineDict):
        fail(line, f"{where}: `attributes` must be a mapping such as {{regiment: 5th-marines}}")
        return None
    if not declared and node:
        fail(line, f"{where}: its rule system (or free play) declares no attributes; remove `attributes`")
        return None
    out: dict[str, Any] = {}
    ok = True
    for key, value in node.items():
        at = node.key_lines.get(key, line)
        attribute = declared.get(key) if isinstance(key, str) else None
        if attribute is None:
            fail(at, f"{where}: unknown key {key!r}; the rule system declares: {', '.join(declared)}")
            ok = False
            continue
        problem = attribute.problem(value)
        if problem is None and attribute.kind in ("hex", "hexes") and hex_of is not None:
            labels = [value] if attribute.kind == "hex" else list(value)
            try:
                hexes = tuple(hex_of(str(v)) for v in labels)
            except ValueError as exc:
                problem = str(exc)
            else:
                out[key] = hexes[0] if attribute.kind == "hex" else hexes
                continue
        if problem is not None:
            fail(at, f"{where}: {key} {problem}")
            ok = False
            continue
        out[key] = _frozen(value)
    return out if ok else None


def with_defaults(values: Mapping[str, Any], declared: Mapping[str, Attribute]) -> dict[str, Any]:
    """``values`` with every declared default filled in where it is missing."""
    out = {k: a.default for k, a in declared.items() if a.default is not None}
    out.update(values)
    return out


def pairs(values: Mapping[str, Any]) -> Attributes:
    """Values as a piece holds them: sorted (key, value) pairs."""
    return tuple(sorted((k, _frozen(v)) for k, v in values.items()))


def json_problem(values: Any, declared: Mapping[str, Attribute]) -> str | None:
    """Why a save's ``attributes`` object is not valid for the rule system, or None.
    Without a declaration (free play, an unknown rule system) only the shape is checked."""
    if not isinstance(values, dict):
        return "attributes must be an object"
    for key, value in values.items():
        if not isinstance(key, str) or not KEY.match(key):
            return f"attribute key {key!r} is not a key"
        attribute = declared.get(key)
        if attribute is None:
            if declared:
                return f"{key!r} is not an attribute the rule system declares (it declares: {', '.join(declared)})"
            attribute = Attribute(key, "text" if isinstance(value, str) else "int" if type(value) is int else "words")
            if isinstance(value, bool):
                continue
        problem = attribute.problem(value)
        if problem is not None:
            return f"attribute {key} {problem}"
    return None
