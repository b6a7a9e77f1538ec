"""D-Day at Omaha Beach: the authored data of part 1, read once and checked.

``rules.yaml`` (game length, landing limits, 9.2, tide, mines, 9.3, the section 3 action
table, fire and artillery settings), ``cards.yaml`` (the German deck), ``germans.yaml``
(positions, garrisons, Depth and reinforcement pools, the Artillery Box) and ``us.yaml``
(the 9.1 units). Most of it is the project's choice, as each file says; a problem is
reported as ``file:line: what is wrong``. Knows nothing of a game in play.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from tabletop.datareader import Collector
from tabletop.yamlfile import DataError, LineDict, read_yaml

HERE = Path(__file__).parent
LETTERS = ("A", "B", "C", "D")
ACTIONS = ("F", "O", "*", "R", "M", "P", "A")
EVENTS = ("reinforcement", "depth", "kampfgruppe-meyer", "hero")
SYMBOLS = ("circle", "square", "triangle", "diamond")
RESULT = re.compile(r"^(none|eliminated|removed|ranger-choice|disrupted|(delay|steps|left|right) (\d+))$")


def _where(path: Path) -> str:
    return f"tabletop/games/omaha/{path.name}"


def _fail(path: Path, node: Any, key: Any, message: str) -> DataError:
    return DataError(_where(path), Collector.line_of(node, key), message)


def _read(name: str) -> tuple[Path, LineDict]:
    path = HERE / name
    data = read_yaml(path)
    if not isinstance(data, LineDict):
        raise DataError(_where(path), 1, f"{name} must be a mapping")
    return path, data


# --------------------------------------------------------------------------- cards


@dataclass(frozen=True)
class Card:
    """One German card (cards.yaml; gap G3)."""

    id: str
    action: str
    landing: str
    colours: tuple[tuple[str, bool], ...]  # (colour, double)
    symbols: tuple[tuple[str, bool], ...]  # (symbol, double)
    mine: bool
    calibre: int
    artillery_value: int
    armour_bonus: bool
    leader_bonus: bool
    event: str | None = None
    count: int = 0

    def colour(self, colour: str) -> bool | None:
        """None if ``colour`` is not on the card, else whether it is double."""
        return next((d for c, d in self.colours if c == colour), None)

    def symbol(self, symbol: str | None) -> bool | None:
        """None if ``symbol`` is not on the card, else whether it is double."""
        return next((d for s, d in self.symbols if s == symbol), None)

    def words(self) -> str:
        """The card in one line, as the log and the card panel show it."""
        cols = ", ".join(c + (" (double)" if d else "") for c, d in self.colours)
        syms = ", ".join(s + (" (double)" if d else "") for s, d in self.symbols)
        icons = [w for w, on in (("mine", self.mine), ("armour hit bonus", self.armour_bonus),
                                 ("leader hit bonus", self.leader_bonus)) if on]  # fmt: skip
        event = f"; event {self.event}" + (f" x{self.count}" if self.count else "") if self.event else ""
        extra = f"; {', '.join(icons)}" if icons else ""
        return (
            f"card {self.id}: action {self.action}, landing {self.landing}; colours {cols}; "
            f"symbols {syms}; artillery {self.calibre}/{self.artillery_value}{extra}{event}"
        )


def _pairs(path: Path, node: Any, key: str, name: str, allowed: tuple[str, ...] | None) -> tuple[tuple[str, bool], ...]:
    items = node.get(key)
    if not isinstance(items, list) or not items:
        raise _fail(path, node, key, f"`{key}` must be a list of {{{name}: word, double: true/false}}")
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get(name), str) or not isinstance(item.get("double"), bool):
            raise _fail(path, items, i, f"each of `{key}` is {{{name}: word, double: true/false}}")
        if allowed is not None and item[name] not in allowed:
            raise _fail(path, items, i, f"{name} {item[name]!r} is not one of {', '.join(allowed)}")
        out.append((str(item[name]), bool(item["double"])))
    return tuple(out)


@cache
def cards() -> dict[str, Card]:
    """The deck by card id, in the file's order."""
    path, data = _read("cards.yaml")
    colours = tuple(germans()["colours"])
    out: dict[str, Card] = {}
    for i, c in enumerate(data.get("cards") or []):
        if not isinstance(c, dict):
            raise _fail(path, data["cards"], i, "a card is a mapping")
        cid = str(c.get("id"))
        if cid in out:
            raise _fail(path, data["cards"], i, f"card id {cid!r} is used twice")
        if c.get("action") not in ACTIONS:
            raise _fail(path, c, "action", f"action must be one of {', '.join(ACTIONS)}")
        if c.get("landing") not in LETTERS:
            raise _fail(path, c, "landing", "landing must be one of A, B, C, D (9.2)")
        art = c.get("artillery")
        if not isinstance(art, dict) or art.get("calibre") not in (75, 88) or not isinstance(art.get("value"), int):
            raise _fail(path, c, "artillery", "artillery is {calibre: 75 or 88, value: a whole number} (omaha 5)")
        event = c.get("event")
        if event is not None and event not in EVENTS:
            raise _fail(path, c, "event", f"event must be one of {', '.join(EVENTS)}")
        out[cid] = Card(
            id=cid, action=str(c["action"]), landing=str(c["landing"]),
            colours=_pairs(path, c, "colours", "colour", colours),
            symbols=_pairs(path, c, "symbols", "symbol", SYMBOLS),
            mine=bool(c.get("mine")), calibre=int(art["calibre"]), artillery_value=int(art["value"]),
            armour_bonus=bool(c.get("armour_bonus")), leader_bonus=bool(c.get("leader_bonus")),
            event=event, count=int(c.get("count", 0)),
        )  # fmt: skip
    if not out:
        raise DataError(_where(path), 1, "cards.yaml has no `cards:`")
    return out


# --------------------------------------------------------------------------- units


@dataclass(frozen=True)
class UsUnit:
    """One US unit of 9.1 (us.yaml; gap G4)."""

    id: str
    name: str
    type: str
    steps: int
    division: str
    symbol: str | None
    armored: bool = False
    dukw: bool = False


@cache
def us_units() -> dict[str, UsUnit]:
    path, data = _read("us.yaml")
    out: dict[str, UsUnit] = {}
    units = data.get("units")
    if not isinstance(units, dict):
        raise DataError(_where(path), 1, "us.yaml needs `units:`, a mapping of id: {...}")
    for uid, u in units.items():
        if not isinstance(u, dict) or not isinstance(u.get("steps"), int) or not isinstance(u.get("type"), str):
            raise _fail(path, units, uid, f"unit {uid}: needs type (a word) and steps (a whole number)")
        symbol = u.get("symbol")
        if symbol not in (*SYMBOLS, "none"):
            raise _fail(path, units, uid, f"unit {uid}: symbol must be one of {', '.join(SYMBOLS)}, none")
        out[str(uid)] = UsUnit(
            str(uid), str(u.get("name", uid)), u["type"], u["steps"], str(u.get("division", "")),
            None if symbol == "none" else symbol, bool(u.get("armored")), bool(u.get("dukw")),
        )
    return out


@dataclass(frozen=True)
class GermanUnit:
    """A German unit or Depth marker of germans.yaml (gap G5)."""

    id: str
    type: str
    colour: str
    strength: int
    weapons: tuple[str, ...] = ()
    fl: bool = False
    calibre: int | None = None
    division: int = 716
    hex: str | None = None
    depth: int = 0
    observers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Position:
    """A German position of the map with its germans.yaml data (gap G6)."""

    key: str
    id: str
    colour: str
    vp: bool
    advance: tuple[str, ...] = ()

    @property
    def number(self) -> int:
        """The number of its ID ("no ID -> 0", omaha 2)."""
        digits = "".join(ch for ch in self.id if ch.isdigit())
        return int(digits) if digits else 0


@dataclass(frozen=True)
class GermanData:
    colours: tuple[str, ...]
    positions: Mapping[str, Position]
    garrisons: Mapping[str, tuple[GermanUnit, ...]]
    depth: Mapping[str, tuple[GermanUnit, ...]]  # pool -> markers
    tactical: tuple[GermanUnit, ...]
    division: tuple[GermanUnit, ...]
    meyer_units: tuple[GermanUnit, ...]
    meyer_depth: tuple[GermanUnit, ...]
    artillery_box: tuple[GermanUnit, ...]
    units: Mapping[str, GermanUnit] = field(default_factory=dict)  # every unit and marker by id

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)


def _german_unit(path: Path, node: Any, i: int, marker: bool = False) -> GermanUnit:
    u = node[i]
    if not isinstance(u, dict) or not isinstance(u.get("id"), str) or not isinstance(u.get("strength"), int):
        raise _fail(path, node, i, "a German unit or Depth marker needs id and strength")
    if not marker and not isinstance(u.get("type"), str):
        raise _fail(path, node, i, f"German unit {u['id']} needs a type (counters/omaha.yaml)")
    return GermanUnit(
        id=u["id"], type=str(u.get("type", "depth")), colour=str(u.get("colour", "")), strength=u["strength"],
        weapons=tuple(u.get("weapons") or ()), fl=bool(u.get("fl")), calibre=u.get("calibre"),
        division=int(u.get("division", 716)), hex=u.get("hex"), depth=int(u.get("depth", 0)),
        observers=tuple(u.get("observers") or ()),
    )  # fmt: skip


@cache
def germans() -> GermanData:
    path, data = _read("germans.yaml")
    positions = {}
    for key, p in (data.get("positions") or {}).items():
        if not isinstance(p, dict) or not isinstance(p.get("id"), str):
            raise _fail(path, data["positions"], key, f"position {key}: needs an id")
        positions[str(key)] = Position(str(key), p["id"], str(p.get("colour", "")), bool(p.get("vp")),
                                       tuple(p.get("advance") or ()))  # fmt: skip

    def units(node: Any, marker: bool = False) -> tuple[GermanUnit, ...]:
        return tuple(_german_unit(path, node, i, marker) for i in range(len(node or [])))

    garrisons = {str(k): units(v) for k, v in (data.get("garrisons") or {}).items()}
    for key in garrisons:
        if key not in positions:
            raise _fail(path, data["garrisons"], key, f"garrison of {key}: not a position of `positions:`")
    depth = {str(k): units(v, True) for k, v in (data.get("depth") or {}).items()}
    meyer = data.get("kampfgruppe_meyer") or {}
    made = GermanData(
        colours=tuple(data.get("colours") or ()), positions=positions, garrisons=garrisons, depth=depth,
        tactical=units(data.get("tactical")), division=units(data.get("division")),
        meyer_units=units(meyer.get("units")), meyer_depth=units(meyer.get("depth"), True),
        artillery_box=units(data.get("artillery_box")),
    )  # fmt: skip
    every: dict[str, GermanUnit] = {}
    groups = [*made.garrisons.values(), *made.depth.values(), made.tactical, made.division,
              made.meyer_units, made.meyer_depth, made.artillery_box]  # fmt: skip
    for group in groups:
        for u in group:
            if u.id in every:
                raise DataError(_where(path), None, f"German id {u.id!r} is used twice; ids must be unique")
            every[u.id] = u
    return GermanData(**{**made.__dict__, "units": every})


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class Band:
    """A band of turns (inclusive) with what it says."""

    first: int
    last: int
    value: Any

    def has(self, turn: int) -> bool:
        return self.first <= turn <= self.last


@cache
def rules() -> LineDict:
    """rules.yaml, checked where the code reads words from it."""
    path, data = _read("rules.yaml")
    for _i, band in enumerate(data["amphibious"]):
        for row, cells in band["rows"].items():
            if set(cells) != set(LETTERS):
                raise _fail(path, band["rows"], row, f"9.2 row {row!r} must give A, B, C and D")
            for letter, results in cells.items():
                for r in results:
                    if not RESULT.match(str(r)):
                        raise _fail(path, cells, letter, f"9.2 result {r!r} is not one the ruleset knows")
    for col, rows in data["fire_table"].items():
        for row, results in rows.items():
            for r in results:
                if not RESULT.match(str(r)):
                    raise _fail(path, rows, row, f"9.3 result {r!r} ({col}, {row}) is not one the ruleset knows")
    return data


def bands(key: str) -> list[Band]:
    """A list of ``{turns: [a, b], ...}`` entries of rules.yaml as bands."""
    out = []
    for entry in rules()[key]:
        a, b = entry["turns"]
        out.append(Band(int(a), int(b), entry))
    return out


def band_at(key: str, turn: int) -> Any | None:
    """The entry of rules.yaml list ``key`` whose turns hold ``turn``, or None."""
    return next((b.value for b in bands(key) if b.has(turn)), None)


def tide(turn: int) -> str:
    """Gap G7: low, rising, high or falling."""
    entry = band_at("tide", turn)
    return str(entry["tide"]) if entry else "low"


def parse_result(word: str) -> tuple[str, int]:
    """``"left 2"`` -> ("left", 2); ``"eliminated"`` -> ("eliminated", 0)."""
    found = RESULT.match(word)
    if found is None:
        raise ValueError(f"not a result: {word!r}")
    if found.group(2):
        return found.group(2), int(found.group(3))
    return found.group(1), 0
