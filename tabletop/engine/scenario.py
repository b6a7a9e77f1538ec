"""Scenario files, as far as line of sight needs them: a map, a rule system, the units
and markers on it, and conditions such as night.

The format grows with the game-state issue (forces, setup constraints, reinforcements,
victory); what is here is read and validated with the same file-and-line errors as maps.
A scenario names its map by bare name only, looked up beside the scenario, in a sibling
``maps/`` folder, then among the shipped maps: it can never read outside its folders.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.board import Map, load_map
from tabletop.hexgrid import LabelError
from tabletop.shipped import resolve, shipped_dir
from tabletop.yamlfile import DataError, DataErrors, LineDict, LineList, read_data

from .pieces import MapState, Piece

TOP_KEYS = ("name", "map", "rules", "notes", "conditions", "units", "markers")
UNIT_KEYS = ("id", "type", "side", "hex", "level", "facing", "status")
MARKER_KEYS = ("id", "type", "hex", "level")
WORD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class Scenario:
    """A map with its pieces and conditions, ready to become a MapState."""

    name: str
    board: Map
    rules: str | None
    pieces: tuple[Piece, ...]
    conditions: frozenset[str]
    path: Path

    def state(self) -> MapState:
        """A fresh live state of this scenario's map and pieces."""
        return MapState.of(self.board, self.pieces)


def is_scenario_data(data: Any) -> bool:
    """Whether parsed YAML looks like a scenario (it names a map) rather than a map."""
    return isinstance(data, dict) and "map" in data and "grid" not in data


def load_scenario(path: Path) -> Scenario:
    """Read and validate a scenario file; DataErrors lists every problem."""
    data = read_data(path)
    errors: list[DataError] = []

    def fail(line: int | None, message: str) -> None:
        errors.append(DataError(path, line, message))

    if not isinstance(data, LineDict):
        raise DataErrors(
            [DataError(path, 1, "a scenario must be a mapping with at least `name:` and `map:`")]
        )
    for key in data:
        if key not in TOP_KEYS:
            fail(
                data.key_lines.get(key),
                f"unknown key {key!r} in a scenario; a scenario takes: {', '.join(TOP_KEYS)}",
            )
    name = data.get("name")
    if not isinstance(name, str):
        fail(data.key_lines.get("name", data.line), "a scenario needs `name:` (text)")
    board = _map_of(path, data, fail)
    if board is None:
        raise DataErrors(errors)
    rules = data.get("rules", board.rules)
    if rules is not None and not isinstance(rules, str):
        fail(data.key_lines.get("rules"), f"`rules` must be text, got {rules!r}")
    conditions = _words(data, "conditions", fail)
    pieces: list[Piece] = []
    seen: dict[str, int] = {}
    for block, keys in (("units", UNIT_KEYS), ("markers", MARKER_KEYS)):
        if block not in data:
            continue
        items = data[block]
        if not isinstance(items, LineList):
            fail(
                data.key_lines.get(block), f"`{block}` must be a list of mappings, one `- {{...}}` line each"
            )
            continue
        for i, item in enumerate(items):
            line = items.item_lines[i]
            piece = _piece(board, item, line, block, keys, i, fail)
            if piece is None:
                continue
            if piece.id in seen:
                fail(
                    line,
                    f"id {piece.id!r} is used twice (first at line {seen[piece.id]}); ids must be unique",
                )
                continue
            seen[piece.id] = line
            pieces.append(piece)
    if errors:
        raise DataErrors(errors)
    assert isinstance(name, str)
    return Scenario(name, board, rules, tuple(pieces), conditions, path)


def _map_of(path: Path, data: LineDict, fail: Any) -> Map | None:
    ref = data.get("map")
    line = data.key_lines.get("map", data.line)
    if not isinstance(ref, str) or not WORD.match(ref) or ref.endswith(".yaml"):
        fail(line, f"`map` must be a bare map name such as dog-sector (no folders), got {ref!r}")
        return None
    folder = path.parent
    for candidate in (
        folder / f"{ref}.yaml",
        folder.parent / "maps" / f"{ref}.yaml",
        shipped_dir("maps") / f"{ref}.yaml",
    ):
        if candidate.is_file():
            try:
                return load_map(candidate)
            except DataErrors as exc:
                for e in exc.errors:
                    fail(line, f"map {ref!r}: {e}")
                return None
    fail(line, f"no map named {ref!r} beside the scenario, in ../maps, or among the shipped maps")
    return None


def _words(data: LineDict, key: str, fail: Any) -> frozenset[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(w, str) and WORD.match(w) for w in value):
        fail(data.key_lines.get(key), f"`{key}` must be a list of words, e.g. [night]")
        return frozenset()
    return frozenset(value)


def _piece(
    board: Map, item: Any, line: int, block: str, keys: tuple[str, ...], index: int, fail: Any
) -> Piece | None:
    what = "unit" if block == "units" else "marker"
    if not isinstance(item, LineDict):
        fail(line, f'each of `{block}` must be a mapping like {{id: A1, type: infantry, hex: "0503"}}')
        return None
    ok = True
    for key in item:
        if key not in keys:
            fail(
                item.key_lines.get(key, line),
                f"unknown key {key!r} in a {what}; a {what} takes: {', '.join(keys)}",
            )
            ok = False
    kind = item.get("type")
    if not isinstance(kind, str) or not WORD.match(kind):
        fail(line, f"a {what} needs `type:` (a word such as infantry or smoke)")
        return None
    pid = item.get("id", f"{kind}-{index + 1}" if what == "marker" else None)
    if not isinstance(pid, str | int) or not WORD.match(str(pid)):
        fail(line, f"a {what} needs `id:` (a word such as A1)")
        return None
    label = item.get("hex")
    try:
        h = board.hex_of(str(label))
    except LabelError as exc:
        fail(item.key_lines.get("hex", line), f"{what} {pid}: {exc}")
        return None
    level = item.get("level", 0)
    facing = item.get("facing")
    side = item.get("side")
    status = item.get("status", [])
    if type(level) is not int:
        fail(
            item.key_lines.get("level", line), f"{what} {pid}: `level` must be a whole number, got {level!r}"
        )
        ok = False
    if facing is not None and (type(facing) is not int or not 0 <= facing <= 5):
        fail(
            item.key_lines.get("facing", line),
            f"{what} {pid}: `facing` must be a direction 0-5, got {facing!r}",
        )
        ok = False
    if side is not None and not isinstance(side, str):
        fail(item.key_lines.get("side", line), f"{what} {pid}: `side` must be text, got {side!r}")
        ok = False
    if not isinstance(status, list) or not all(isinstance(w, str) for w in status):
        fail(
            item.key_lines.get("status", line),
            f"{what} {pid}: `status` must be a list of words, e.g. [prone]",
        )
        ok = False
    if not ok:
        return None
    return Piece(
        str(pid), kind, h, side, "unit" if what == "unit" else "marker", level, facing, frozenset(status)
    )


def open_map_or_scenario(source: str) -> Map | Scenario:
    """A MAP_OR_SCENARIO argument: a path, or a bare name among the shipped scenarios,
    then the shipped maps. DataErrors if it cannot be read."""
    path = resolve(source, "scenarios")
    if path is None:
        return load_map(source)
    data = read_data(path)
    return load_scenario(path) if is_scenario_data(data) else load_map(path)
