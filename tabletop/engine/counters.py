"""Counter sets: what each unit type and marker of a game looks like, and its counter sheet.

Knows counters as data: a unit type's name, its symbol (a word from ``SYMBOLS`` that the
table draws), its steps and printed values; a marker's colour and short text, and
whether it sits on a unit (a status word the rules read) or in a hex (a marker piece);
the sides' colours; and the sheet (how many counters of each type a side has). Knows
nothing of pixels or of any rule system's meaning: the files under ``counters/`` carry
the games' words, and ``counters/FORMAT.md`` describes them for people.

A rule system's key (a map's or scenario's ``rules:``) picks its counter file through
``RULES_COUNTERS``; free play and unknown rules use ``counters/generic.yaml``.

>>> c = counters_for("dogs_of_war")
>>> c.unit("rifleman").symbol, c.unit("rifleman").shape
('soldier', 'token')
>>> c.marker("smoke").place, c.marker("prone").place
('hex', 'unit')
>>> counters_for(None).name
'Free play'
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from tabletop.datareader import Collector
from tabletop.inputfile import picture_beside
from tabletop.shipped import open_data
from tabletop.yamlfile import DataError, DataErrors, LineDict

from .attributes import Attribute, Attributes, pairs, read_values

Shape = Literal["counter", "token"]
Placement = Literal["unit", "hex"]

#: The symbols the table can draw (NATO-style where NATO has one).
SYMBOLS = (
    "infantry", "machine-gun", "mortar", "hq", "leader", "tank", "dozer", "engineer",
    "artillery", "at-gun", "pillbox", "vehicle", "soldier", "sniper", "flamethrower",
    "bazooka", "rocket", "recon", "anti-aircraft", "medic", "observer", "gun-pit",
    "general", "command-post", "blank",
)  # fmt: skip
SHAPES: tuple[Shape, ...] = ("counter", "token")
PLACEMENTS: tuple[Placement, ...] = ("unit", "hex")

#: Rule system key (``rules:`` in map and scenario files) -> counter file in ``counters/``.
RULES_COUNTERS = {
    "dog_sector": "dog-sector",
    "devil_dogs": "belleau-wood",
    "omaha": "omaha",
    "dogfaces": "dogfaces",
    "dogs_of_war": "dogs-of-war",
}
GENERIC = "generic"

TOP_KEYS = ("name", "rules", "notes", "shape", "facing", "sides", "unit_types", "markers", "sheet")
SIDE_KEYS = ("name", "colour")
UNIT_KEYS = ("name", "symbol", "shape", "label", "steps", "full", "reduced", "attributes", "images")
IMAGE_FACES = ("full", "reduced")
MARKER_KEYS = ("name", "colour", "text", "place", "area")
KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
MAX_TEXT = 6  # characters of a marker's text or a unit's label: they must fit on a counter
_TRAILING_NUMBER = re.compile(r"[-_ ]?\d+$")


@dataclass(frozen=True)
class Side:
    """A side's display name and counter colour ("#rrggbb")."""

    key: str
    name: str
    colour: str


@dataclass(frozen=True)
class UnitType:
    """How a unit type's counter looks.

    ``steps``: the steps of a full-strength unit, when the game counts them;
    ``full`` / ``reduced``: the values printed on each face ("" when the game prints none);
    ``attributes``: what every unit of this type carries, as its rule system declares
    them (``tabletop.engine.attributes``), unless a unit has its own.
    """

    key: str
    name: str
    symbol: str
    shape: Shape = "counter"
    label: str = ""
    steps: int | None = None
    full: str = ""
    reduced: str = ""
    attributes: Attributes = ()  # sorted (key, value) pairs: a type stays hashable
    image_full: Path | None = None  # a picture drawn as the face instead of the symbol
    image_reduced: Path | None = None  # the flipped face's picture (default: the full one, banded)


@dataclass(frozen=True)
class MarkerType:
    """A marker: ``place="unit"`` is a status word on a unit, drawn as a chip on its
    counter; ``place="hex"`` is a marker piece in a hex; ``area`` tints the whole hex."""

    key: str
    name: str
    colour: str
    text: str
    place: Placement = "unit"
    area: bool = False


@dataclass(frozen=True)
class SheetEntry:
    """``count`` counters of unit type ``type`` on a side's sheet."""

    type: str
    count: int


@dataclass(frozen=True)
class Counters:
    """A game's counter set, validated and read-only."""

    name: str
    rules: str | None
    sides: Mapping[str, Side]
    unit_types: Mapping[str, UnitType]
    markers: Mapping[str, MarkerType]
    sheet: Mapping[str, tuple[SheetEntry, ...]]
    facing: bool = False
    notes: str = ""
    path: Path | None = None

    def unit(self, type_key: str) -> UnitType:
        """The unit type ``type_key``; a trailing number is dropped if that helps ("lcv-2"
        is an lcv); a type not in the file gets a plain box labelled with its name."""
        found = self.unit_types.get(type_key)
        if found is None:
            found = self.unit_types.get(_TRAILING_NUMBER.sub("", type_key))
        if found is None:
            shape: Shape = "token" if self.unit_types and all(
                u.shape == "token" for u in self.unit_types.values()
            ) else "counter"  # fmt: skip
            return UnitType(type_key, type_key, "blank", shape, type_key[:4].upper())
        return found

    def has_unit(self, type_key: str) -> bool:
        """Whether the file describes ``type_key`` (directly or without a trailing number)."""
        return type_key in self.unit_types or _TRAILING_NUMBER.sub("", type_key) in self.unit_types

    def marker(self, key: str) -> MarkerType:
        """The marker ``key``; one not in the file gets a grey chip with its first letters."""
        found = self.markers.get(key)
        if found is None:
            return MarkerType(key, key, "#a0a0a0", key[:4].upper(), "unit")
        return found

    def side_colour(self, side: str | None) -> str | None:
        """The side's colour from the file, or None when the file does not list it."""
        if side is None:
            return None
        found = self.sides.get(side) or self.sides.get(side.lower())
        return found.colour if found else None


def counters_name(rules: str | None) -> str:
    """The counter file's bare name for a rule system key (generic for free play).

    >>> counters_name("dog_sector"), counters_name("devil_dogs"), counters_name(None)
    ('dog-sector', 'belleau-wood', 'generic')
    """
    if rules is None:
        return GENERIC
    return RULES_COUNTERS.get(rules, GENERIC)


@cache
def counters_for(rules: str | None) -> Counters:
    """The shipped counter set of a rule system (``counters/generic.yaml`` for free play
    and rule systems without their own file). DataErrors if the file has a problem."""
    return load_counters(counters_name(rules))


def is_counters_data(data: Any) -> bool:
    """Whether parsed YAML looks like a counters file (it has ``unit_types:``)."""
    return isinstance(data, dict) and "unit_types" in data and "grid" not in data and "map" not in data


def load_counters(source: str | Path) -> Counters:
    """Load a counter set from a path or a shipped bare name; DataErrors lists every problem."""
    path, data = open_data(
        source, "counters", "no such counters file, nor shipped counters of that name (shipped: {known})"
    )
    return build_counters(data, path)


class _Check(Collector):
    """Collects the problems of one counters file."""

    def unknown_key(self, d: LineDict, key: Any, allowed: tuple[str, ...], where: str) -> None:
        if isinstance(key, bool):  # `on:` and friends, read by YAML as true/false
            self.fail(
                self.line_of(d, key),
                f"a key reads as {key} in {where}: YAML takes a bare on/off/yes/no as true or "
                f"false; {where} takes: {', '.join(allowed)}",
            )
        else:
            super().unknown_key(d, key, allowed, where)

    def text(self, d: LineDict, key: str, where: str, *, required: bool = False,
             longest: int | None = None, lines: bool = False) -> str | None:  # fmt: skip
        """Text at ``key`` (a whole number reads as its digits): one line of printable
        text unless ``lines`` (notes), of at most ``longest`` characters when given."""
        value = d.get(key)
        if value is None:
            if required:
                self.fail(self.line_of(d, key), f"{where} needs `{key}:` (text)")
            return None
        if type(value) is int:
            value = str(value)
        if not isinstance(value, str):
            self.fail(self.line_of(d, key), f"`{key}` in {where} must be text, got {value!r}")
            return None
        if not lines and self.one_line(d, key, where, value) is None:
            return None
        if longest is not None and len(value) > longest:
            self.fail(
                self.line_of(d, key),
                f"`{key}` in {where} is {len(value)} characters; at most {longest} fit on a counter",
            )
            return None
        return value

    def choice(self, d: LineDict, key: str, where: str, allowed: tuple[str, ...], default: str) -> str | None:
        value = d.get(key, default)
        if value not in allowed:
            close = difflib.get_close_matches(str(value), allowed, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"one of: {', '.join(allowed)}"
            self.fail(self.line_of(d, key), f"`{key}` in {where} is {value!r}; {hint}")
            return None
        return str(value)

    def boolean(self, d: LineDict, key: str, where: str) -> bool:
        value = d.get(key, False)
        if not isinstance(value, bool):
            self.fail(self.line_of(d, key), f"`{key}` in {where} must be true or false, got {value!r}")
            return False
        return value

    def key_name(self, d: LineDict, key: Any, what: str) -> bool:
        if isinstance(key, str) and KEY.match(key):
            return True
        self.fail(self.line_of(d, key), f"{what} {key!r} must be a word of letters, digits, '-', '_' or '.'")
        return False

    def entries(self, d: LineDict, block: str, where: str) -> list[tuple[str, LineDict]]:
        """The ``key: {...}`` entries of a block whose keys are words and values mappings."""
        out = []
        for key, spec in d.items():
            if not self.key_name(d, key, f"{where} key"):
                continue
            if not isinstance(spec, LineDict):
                self.fail(self.line_of(d, key), f"{where} {key!r} must be a mapping (see counters/FORMAT.md)")
                continue
            out.append((key, spec))
        return out


def build_counters(data: Any, path: Path) -> Counters:
    """Validate parsed YAML ``data`` read from ``path`` and build the counter set."""
    c = _Check(path)
    if not isinstance(data, LineDict):
        c.fail(1, "a counters file must be a mapping with at least `name:` and `unit_types:`")
        raise DataErrors(c.errors)
    c.known_keys(data, TOP_KEYS, "a counters file")
    name = c.text(data, "name", "a counters file", required=True)
    rules = c.text(data, "rules", "a counters file")
    notes = c.text(data, "notes", "a counters file", lines=True) or ""
    shape = c.choice(data, "shape", "a counters file", SHAPES, "counter") or "counter"
    facing = c.boolean(data, "facing", "a counters file")
    sides = _sides(c, data)
    units = _unit_types(c, data, shape, _declared(c, data, rules))
    markers = _markers(c, data)
    block = data.get("unit_types")
    declared = set(block) if isinstance(block, dict) else set()  # a broken entry is reported once
    sheet = _sheet(c, data, sides, units, declared)
    if c.errors:
        raise DataErrors(c.errors)
    assert name is not None
    return Counters(
        name=name,
        rules=rules,
        sides=MappingProxyType(sides),
        unit_types=MappingProxyType(units),
        markers=MappingProxyType(markers),
        sheet=MappingProxyType(sheet),
        facing=facing,
        notes=notes,
        path=path,
    )


def _sides(c: _Check, data: LineDict) -> dict[str, Side]:
    block = c.mapping(data, "sides", "a counters file")
    out: dict[str, Side] = {}
    if block is None:
        return out
    for key, spec in c.entries(block, "sides", "side"):
        where = f"side {key!r}"
        c.known_keys(spec, SIDE_KEYS, where)
        colour = c.colour(spec, "colour", where)
        name = c.text(spec, "name", where) or key
        if colour is not None:
            out[key] = Side(key, name, colour)
    return out


def _declared(c: _Check, data: LineDict, rules: str | None) -> Mapping[str, Attribute]:
    """The unit attributes the file's rule system declares (none without `rules:`); an
    unknown rule system is an error at the `rules:` line only when units use attributes."""
    from tabletop.games import rules_problem, schema_of

    if rules is None:
        return {}
    if rules_problem(rules) is not None:
        block = data.get("unit_types")
        if isinstance(block, dict) and any(isinstance(u, dict) and "attributes" in u for u in block.values()):
            c.fail(c.line_of(data, "rules"), f"{rules_problem(rules)}: the unit types' attributes cannot be checked")
        return {}
    try:
        return schema_of(rules).units
    except DataError as exc:
        c.errors.append(exc)
        return {}


def _unit_types(
    c: _Check, data: LineDict, default_shape: str, declared: Mapping[str, Attribute]
) -> dict[str, UnitType]:
    block = c.mapping(data, "unit_types", "a counters file", required=True)
    out: dict[str, UnitType] = {}
    if block is None:
        return out
    if not block:
        c.fail(block.line, "`unit_types` must list at least one unit type")
    for key, spec in c.entries(block, "unit_types", "unit type"):
        where = f"unit type {key!r}"
        before = len(c.errors)
        c.known_keys(spec, UNIT_KEYS, where)
        name = c.text(spec, "name", where) or key
        symbol = c.choice(spec, "symbol", where, SYMBOLS, "") if "symbol" in spec else None
        if "symbol" not in spec:
            c.fail(spec.line, f"{where} needs `symbol:`, one of: {', '.join(SYMBOLS)}")
        shape = c.choice(spec, "shape", where, SHAPES, default_shape)
        label = c.text(spec, "label", where, longest=MAX_TEXT) or ""
        steps = spec.get("steps")
        if steps is not None and (type(steps) is not int or not 1 <= steps <= 20):
            c.fail(
                c.line_of(spec, "steps"), f"`steps` of {where} must be a whole number 1 to 20, got {steps!r}"
            )
        full = c.text(spec, "full", where, longest=8) or ""
        reduced = c.text(spec, "reduced", where, longest=8) or ""
        attributes = (
            read_values(spec["attributes"], c.line_of(spec, "attributes"), declared, c.fail, where)
            if "attributes" in spec
            else {}
        )
        images = _images(c, spec, where)
        if len(c.errors) == before and symbol is not None and shape is not None and attributes is not None:
            out[key] = UnitType(key, name, symbol, shape, label, steps, full, reduced, pairs(attributes), *images)  # type: ignore[arg-type]
    return out


def _images(c: _Check, spec: LineDict, where: str) -> tuple[Path | None, Path | None]:
    """A unit type's pictures (``images: {full: a.png, reduced: b.png}``), files inside
    the counters file's folder; the symbol is drawn where there is none."""
    block = c.mapping(spec, "images", where)
    if block is None:
        return None, None
    c.known_keys(block, IMAGE_FACES, f"{where} images")
    found: dict[str, Path | None] = {}
    for face in IMAGE_FACES:
        if face not in block:
            continue
        path, why = picture_beside(Path(c.path).parent, block[face], f"{where}'s {face} face")
        if why is not None:
            c.fail(c.line_of(block, face), why)
        found[face] = path
    if "full" not in block:
        c.fail(block.line, f"{where} images need `full:` (a picture of the full-strength face)")
    return found.get("full"), found.get("reduced")


def _markers(c: _Check, data: LineDict) -> dict[str, MarkerType]:
    block = c.mapping(data, "markers", "a counters file")
    out: dict[str, MarkerType] = {}
    if block is None:
        return out
    for key, spec in c.entries(block, "markers", "marker"):
        where = f"marker {key!r}"
        before = len(c.errors)
        c.known_keys(spec, MARKER_KEYS, where)
        name = c.text(spec, "name", where) or key
        colour = c.colour(spec, "colour", where)
        text = c.text(spec, "text", where, required=True, longest=MAX_TEXT)
        place = c.choice(spec, "place", where, PLACEMENTS, "unit")
        area = c.boolean(spec, "area", where)
        if area and place == "unit":
            c.fail(c.line_of(spec, "area"), f"{where}: `area: true` is for markers with `place: hex`")
        if len(c.errors) == before and colour is not None and text is not None and place is not None:
            out[key] = MarkerType(key, name, colour, text, place, area)  # type: ignore[arg-type]
    return out


def _sheet(
    c: _Check, data: LineDict, sides: dict[str, Side], units: dict[str, UnitType], declared: set[str]
) -> dict[str, tuple[SheetEntry, ...]]:
    block = c.mapping(data, "sheet", "a counters file")
    out: dict[str, tuple[SheetEntry, ...]] = {}
    if block is None:
        return out
    for side, entries in block.items():
        if not c.key_name(block, side, "sheet side"):
            continue
        if sides and side not in sides:
            close = difflib.get_close_matches(str(side), list(sides), n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"the sides block lists: {', '.join(sides)}"
            c.fail(c.line_of(block, side), f"sheet side {side!r} is not under `sides:`; {hint}")
            continue
        if not isinstance(entries, LineDict):
            c.fail(c.line_of(block, side), f"sheet {side!r} must map unit types to counts, e.g. infantry: 6")
            continue
        row = []
        for type_key, count in entries.items():
            line = c.line_of(entries, type_key)
            if type_key not in declared:
                close = difflib.get_close_matches(str(type_key), sorted(map(str, declared)), n=1)
                hint = f"did you mean {close[0]!r}?" if close else "add it under `unit_types:`"
                c.fail(line, f"sheet {side!r}: unknown unit type {type_key!r}; {hint}")
                continue
            if type(count) is not int or not 0 <= count <= 999:
                c.fail(
                    line,
                    f"sheet {side!r}: the count of {type_key!r} must be a whole number 0 to 999, got {count!r}",
                )
                continue
            if type_key in units:
                row.append(SheetEntry(type_key, count))
        out[str(side)] = tuple(row)
    return out
