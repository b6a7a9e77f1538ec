"""Scenario files: a map, a rule system, the units and markers on it, conditions such as
night, and the game's frame: optional rules (options), setup entries and the
constraints a legal setup obeys, game length, reinforcements and victory data.

Everything is read and validated with the same file-and-line errors as maps; the setup
vocabulary is checked against the map (terrain, regions) and, when the scenario names
or its rule system has a counters file, against the counters (sides, types, markers).
A scenario names its map by bare name only, looked up beside the scenario, in a sibling
``maps/`` folder, then among the shipped maps: it can never read outside its folders.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.board import Map, load_map
from tabletop.hexgrid import LabelError
from tabletop.inputfile import MISSING, not_a_file
from tabletop.limits import NAME_CHARS, PIECE_COUNT, SETUP_HEXES
from tabletop.shipped import resolve, shipped_dir
from tabletop.yamlfile import DataError, DataErrors, LineDict, LineList, parse_yaml, read_data

from .attributes import NO_SCHEMA, Attributes, Schema, Value, pairs, read_values, with_defaults
from .counters import GENERIC, Counters, counters_for, counters_name, load_counters
from .dice import Dice
from .pieces import MapState, Newcomers, Piece, PieceKind
from .setup import (
    CONSTRAINT_KINDS,
    Constraint,
    Option,
    PieceFilter,
    Placement,
    ScenarioSetup,
    SetupProblem,
    SetupUndecided,
    Unsatisfiable,
    When,
    Zone,
    applies,
    chosen,
    problem_for,
    solve,
)

TOP_KEYS = (
    "name", "map", "rules", "notes", "conditions", "units", "markers", "counters", "options",
    "setup", "constraints", "turns", "reinforcements", "victory", "game",
)  # fmt: skip
UNIT_KEYS = ("id", "type", "side", "hex", "level", "facing", "status", "steps", "attributes", "when")
MARKER_KEYS = ("id", "type", "hex", "level", "when")
WORD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
OPTION_KEYS = ("name", "choices", "default")
SETUP_KEYS = ("text", "side", "type", "marker", "count", "zone", "id", "when")
CONSTRAINT_KEYS = ("text", *CONSTRAINT_KINDS, "pieces", "min", "max", "exactly", "when")
ZONE_KEYS = ("terrain", "regions", "markers")
FILTER_KEYS = ("side", "type", "kind")
REINFORCEMENT_KEYS = ("turn", "side", "type", "count", "box", "ids", "attributes")
Fail = Callable[[int | None, str], None]


@dataclass(frozen=True)
class Reinforcement:
    """``count`` units of ``type`` for ``side`` that arrive on ``turn`` (into ``box``),
    named ``ids`` when the scenario names them, each with ``attributes`` of its own."""

    turn: int
    side: str | None
    type: str
    count: int
    box: str | None = None
    line: int | None = None
    ids: tuple[str, ...] = ()
    attributes: Attributes = ()


@dataclass(frozen=True)
class Scenario:
    """A map with its pieces and conditions, ready to become a MapState."""

    name: str
    board: Map
    rules: str | None
    pieces: tuple[Piece, ...]
    conditions: frozenset[str]
    path: Path
    placements: tuple[Placement, ...] = ()
    constraints: tuple[Constraint, ...] = ()
    options: Mapping[str, Option] = field(default_factory=dict)
    counters: str | None = None
    turns: int | None = None
    reinforcements: tuple[Reinforcement, ...] = ()
    victory: Mapping[str, Any] = field(default_factory=dict)
    piece_when: Mapping[str, When] = field(default_factory=dict)  # piece id -> its `when`
    newcomers: Newcomers = field(default_factory=Newcomers)  # full steps and attributes by type
    game: Mapping[str, Any] = field(default_factory=dict)  # the rule system's own keys (`game:`)
    sheet: Counters | None = field(default=None, compare=False)  # the counters its pieces are drawn from

    def state(self, options: Mapping[str, object] | None = None) -> MapState:
        """A fresh live state of this scenario's map and the pieces present under
        ``options`` (a unit or marker with a ``when`` is there only when it matches)."""
        values = chosen(self.options, options or {})
        return MapState.of(
            self.board, (p for p in self.pieces if applies(self.piece_when.get(p.id, ()), values))
        )

    def setup(self) -> ScenarioSetup:
        """The setup as written, every entry with its ``when``."""
        return ScenarioSetup(self.placements, self.constraints, self.options, self.path)

    def setup_problem(self, options: Mapping[str, object] | None = None) -> SetupProblem:
        """The setup entries and constraints active under ``options`` (option key ->
        value; options not given take their defaults). ValueError for an unknown option
        or value."""
        return problem_for(self.setup(), options or {})

    def option_choices(self) -> list[dict[str, object]]:
        """The option settings worth checking: the defaults, then each choice of each
        option taken alone (the others at their defaults)."""
        settings: list[dict[str, object]] = [{}]
        for key, option in self.options.items():
            settings.extend({key: c} for c in option.choices if c != option.default)
        return settings


def is_scenario_data(data: Any) -> bool:
    """Whether parsed YAML looks like a scenario (it names a map) rather than a map."""
    return isinstance(data, dict) and "map" in data and "grid" not in data


def load_scenario(path: Path, text: str | None = None, board: Map | None = None) -> Scenario:
    """Read and validate a scenario file; DataErrors lists every problem. ``text``: the
    file's text as it would be saved (the editor's), instead of reading it; ``board``:
    the map it names as the editor holds it (with its unsaved edits)."""
    data = read_data(path) if text is None else parse_yaml(text, path)
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
    board = _map_of(path, data, errors) if board is None else board
    if board is None:
        raise DataErrors(errors)
    rules = _rules_of(path, data, board, errors)
    conditions = _words(data, "conditions", fail)
    options = _options(data, fail)
    counters_ref, counters = _counters_of(path, data, rules, errors)
    schema = _schema(path, data, rules, errors)
    newcomers = Newcomers(
        {k: u.steps for k, u in counters.unit_types.items() if u.steps} if counters else {},
        {k: a.default for k, a in schema.units.items() if a.default is not None},
        {k: dict(u.attributes) for k, u in counters.unit_types.items() if u.attributes} if counters else {},
        schema.units,
    )
    names = _Names(board, counters, fail, _rule_sides(rules), schema, newcomers)
    piece_when: dict[str, When] = {}
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
            piece = _piece(board, item, line, block, keys, i, names)
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
            when = _when(item, line, options, fail)
            if when:
                piece_when[piece.id] = when
    budget = _Budget(len(pieces), fail, data.line or 1)
    placements = _placements(data, names, options, {i: piece_when.get(i, ()) for i in seen}, budget, fail)
    _solver_room(board, placements, fail)
    constraints = _constraints(data, names, options, fail)
    turns = data.get("turns")
    if turns is not None and (type(turns) is not int or turns < 1):
        fail(data.key_lines.get("turns"), f"`turns` must be a whole number of at least 1, got {turns!r}")
        turns = None
    reinforcements = _reinforcements(data, names, budget, fail)
    _fresh_ids(reinforcements, seen, fail)
    game = _game_block(data, board, schema, fail)
    victory = data.get("victory", {})
    if not isinstance(victory, dict):
        fail(data.key_lines.get("victory"), "`victory` must be a mapping (the rule system reads it)")
        victory = {}
    if errors:
        raise DataErrors(errors)
    assert isinstance(name, str)
    return Scenario(
        name, board, rules, tuple(pieces), conditions, path, placements, constraints, options,
        counters_ref, turns, reinforcements, victory, piece_when, newcomers, game, counters,
    )  # fmt: skip


def _name_of(data: LineDict, key: str, what: str, errors: list[DataError], path: Path) -> str | None:
    """The bare name under ``key`` (``map``, ``counters``), or None after an error."""
    ref = data.get(key)
    line = data.key_lines.get(key, data.line)
    if not isinstance(ref, str) or not WORD.match(ref) or ref.endswith(".yaml"):
        shown = ref if not isinstance(ref, str) or len(ref) <= 60 else ref[:60] + "..."
        errors.append(
            DataError(path, line, f"`{key}` must be a bare {what} name such as dog-sector (no folders), got {shown!r}")
        )
        return None
    if len(ref) + len(".yaml") > NAME_CHARS:
        errors.append(
            DataError(
                path, line, f"`{key}` is {len(ref)} characters; a {what} name has at most {NAME_CHARS - 5}"
            )
        )
        return None
    return ref


def _found(
    path: Path, line: int | None, what: str, candidates: tuple[Path, ...], errors: list[DataError]
) -> Path | bool | None:
    """The first candidate that is a regular file (never the scenario itself); False
    after an error for one that exists but cannot be read; None if there is none."""
    for candidate in candidates:
        why = not_a_file(candidate)
        if why == MISSING:
            continue
        if why is not None:
            errors.append(DataError(path, line, f"{what}: {candidate} is {why}; make it a YAML file or remove it"))
            return False
        if candidate.resolve() != path.resolve() and not _sibling_scenario(path, candidate):
            return candidate  # a scenario may share its map's name, and so may another beside it
    return None


def _sibling_scenario(path: Path, candidate: Path) -> bool:
    """Whether ``candidate``, in the scenario's own folder, is itself a scenario (scenarios/
    dogfaces.yaml beside dogfaces-demo.yaml, both on the map dogfaces): never its map or
    counters, so the search goes on to ../maps and the shipped files."""
    if candidate.parent.resolve() != path.parent.resolve():
        return False
    try:
        return is_scenario_data(read_data(candidate))
    except (DataError, DataErrors):
        return False


def _map_of(path: Path, data: LineDict, errors: list[DataError]) -> Map | None:
    """The map the scenario names, checked against its own rule system; its errors
    keep the map file's own path and line."""
    ref = _name_of(data, "map", "map", errors, path)
    if ref is None:
        return None
    line = data.key_lines.get("map", data.line)
    folder = path.parent
    candidates = (folder / f"{ref}.yaml", folder.parent / "maps" / f"{ref}.yaml", shipped_dir("maps") / f"{ref}.yaml")
    found = _found(path, line, f"map {ref!r}", candidates, errors)
    if found is False:
        return None
    if found is None:
        errors.append(
            DataError(path, line, f"no map named {ref!r} beside the scenario, in ../maps, or among the shipped maps")
        )
        return None
    assert isinstance(found, Path)
    try:
        board = load_map(found)
    except DataErrors as exc:
        errors.extend(exc.errors)
        return None
    problems = map_rules_errors(board)
    if problems:
        errors.extend(problems)
        return None
    return board


def _rules_of(path: Path, data: LineDict, board: Map, errors: list[DataError]) -> str | None:
    """The scenario's rule system (its `rules:`, else the map's); a name that is no rule
    system, or one that cannot judge the map, is an error at the `rules:` line."""
    if "rules" not in data:
        return board.rules
    from tabletop.games import rules_problem

    rules = data["rules"]
    line = data.key_lines.get("rules")
    if not isinstance(rules, str):
        errors.append(DataError(path, line, f"`rules` must be text (a rule system or free), got {rules!r}"))
        return board.rules
    problem = rules_problem(rules)
    if problem is not None:
        errors.append(DataError(path, line, f"{problem}; fix `rules:` or set rules: free"))
        return board.rules
    if rules != board.rules:
        errors.extend(map_rules_errors(board, rules, (path, line)))
    return rules


def _rule_sides(rules: str | None) -> tuple[str, frozenset[str]] | None:
    """The title and sides of rule system ``rules`` when its rules name sides."""
    from tabletop.games import knowledge, rules_problem

    if rules is None or rules_problem(rules) is not None:
        return None
    knows = knowledge(rules)
    return (knows.title, knows.sides) if knows is not None and knows.sides else None


def _map_lines(board: Map) -> LineDict | None:
    """The map file's lines (read again: only on the way to an error message)."""
    if board.path is None:
        return None
    try:
        data = read_data(board.path)
    except DataErrors:
        return None
    return data if isinstance(data, LineDict) else None


def map_rules_errors(
    board: Map, rules: str | None = None, given_at: tuple[Path | str, int | None] | None = None
) -> list[DataError]:
    """What rule system ``rules`` (default: the map's own ``rules:``) cannot judge in
    ``board``: an unknown name, terrain it does not know, regions its rules need.

    Errors are at the map's lines when the map names the rules; at ``given_at`` (the
    scenario's `rules:` line, or an option such as --rules) when ``rules`` comes from
    elsewhere, naming the map file and line in the message."""
    from tabletop.games import knowledge, rules_problem

    key = board.rules if rules is None else rules
    if key is None:
        return []
    lines = None
    where = str(board.path) if board.path else f"map {board.name!r}"

    def line_of(*keys: str) -> int | None:
        nonlocal lines
        lines = lines if lines is not None else (_map_lines(board) or LineDict())
        node: Any = lines
        line = getattr(node, "line", None) or None
        for k in keys:
            if not isinstance(node, LineDict) or k not in node:
                break
            line = node.key_lines.get(k, line)
            node = node[k]
        return line

    def error(message: str, *keys: str) -> DataError:
        if given_at is None:
            return DataError(where, line_of(*keys), message)
        at = line_of(*keys)
        named = f"{where}:{at}" if at else where
        return DataError(given_at[0], given_at[1], f"map {board.name!r} ({named}): {message}")

    problem = rules_problem(key)
    if problem is not None:
        return [error(f"{problem}; fix `rules:` or set rules: free", "rules")]
    knows = knowledge(key)
    if knows is None:
        return []
    errors: list[DataError] = []
    fix = "rename it or set rules: free" if given_at is None else "use a map made for it or set rules: free"
    known = ", ".join(sorted(knows.terrain))
    for tkey, ttype in board.terrain_types.items():
        if knows.terrain_property is None:
            if tkey not in knows.terrain:
                errors.append(
                    error(f"terrain {tkey!r} is not known to {knows.title} (it knows: {known}); {fix}", "terrain", tkey)
                )
            continue
        word = ttype.properties.get(knows.terrain_property)
        if word not in knows.terrain:
            has = f"has `{knows.terrain_property}: {word}`" if word is not None else f"has no `{knows.terrain_property}`"
            errors.append(
                error(
                    f"terrain {tkey!r} {has}, which {knows.title} needs to know it "
                    f"(it knows: {known}); give it properties: {{{knows.terrain_property}: ...}} or set rules: free",
                    "terrain", tkey,
                )
            )
    have = ", ".join(sorted(board.regions)) or "none"
    for region in knows.regions:
        if region not in board.regions:
            errors.append(
                error(f"{knows.title} needs a region {region!r} (the map has: {have}); add it or set rules: free", "rules")
            )
    kinds = {r.kind for r in board.regions.values()}
    for kind in knows.region_kinds:
        if kind not in kinds:
            errors.append(
                error(f"{knows.title} needs a region of kind {kind!r}; add one or set rules: free", "rules")
            )
    return errors


def setup_errors(scenario: Scenario, *, seed: int = 1, limit: int = 20_000) -> list[DataError]:
    """One error for each option setting (the defaults, and each choice of each option
    alone) whose setup constraints cannot all hold, naming the conflicting ones. A
    search that cannot decide within ``limit`` steps is not an error."""
    if not scenario.placements and not scenario.constraints:
        return []
    errors: list[DataError] = []
    seen: set[tuple[str, ...]] = set()
    for setting in scenario.option_choices():
        try:
            solve(scenario.state(setting), scenario.setup_problem(setting), Dice(seed), limit=limit)
        except Unsatisfiable as exc:
            key = tuple(c.cite() for c in exc.conflict)
            if key in seen:
                continue
            seen.add(key)
            errors.append(unsatisfiable_error(scenario.path, exc, setting))
        except SetupUndecided:
            continue
    return errors


def unsatisfiable_error(path: Path | str, exc: Unsatisfiable, setting: Mapping[str, object]) -> DataError:
    """The one line for a setup that cannot be made under the options ``setting``, at
    the first conflicting constraint's line: the same from validate, play and render."""
    under = ", ".join(f"{k}: {_shown(v)}" for k, v in setting.items()) or "the default options"
    line = min((c.line for c in exc.conflict if c.line), default=None)
    texts = "; ".join(c.cite() for c in exc.conflict)
    return DataError(
        path,
        line,
        f"constraints cannot all hold: {texts} (with {under}); loosen one of them or change the setup counts",
    )


def _shown(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _words(data: LineDict, key: str, fail: Any) -> frozenset[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(w, str) and WORD.match(w) for w in value):
        fail(data.key_lines.get(key), f"`{key}` must be a list of words, e.g. [night]")
        return frozenset()
    return frozenset(value)


def _piece(
    board: Map, item: Any, line: int, block: str, keys: tuple[str, ...], index: int, names: _Names
) -> Piece | None:
    """One unit or marker; its type and side are checked against the counters as the
    setup's are."""
    fail = names.fail
    what: PieceKind = "unit" if block == "units" else "marker"
    if not isinstance(item, LineDict):
        fail(line, f'each of `{block}` must be a mapping like {{id: A1, type: infantry, hex: "0503"}}')
        return None
    ok = _unknown_keys(item, line, keys, f"a {what}", fail)
    kind = item.get("type")
    if not isinstance(kind, str) or not WORD.match(kind):
        fail(line, f"a {what} needs `type:` (a word such as infantry or smoke)")
        return None
    ok = names.piece_type(_line(item, "type", line), kind, what) and ok
    pid = item.get("id", f"{kind}-{index + 1}" if what == "marker" else None)
    if isinstance(pid, bool) or not isinstance(pid, str | int) or not WORD.match(str(pid)):
        fail(_line(item, "id", line), f"a {what} needs `id:` (a word such as A1), got {pid!r}")
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
    if side is not None:
        ok = names.side(item.key_lines.get("side", line), side) and ok
    if not isinstance(status, list) or not all(isinstance(w, str) for w in status):
        fail(
            item.key_lines.get("status", line),
            f"{what} {pid}: `status` must be a list of words, e.g. [prone]",
        )
        ok = False
    steps = item.get("steps", names.newcomers.full_steps(kind) if what == "unit" else 1)
    if type(steps) is not int or steps < 1:
        fail(item.key_lines.get("steps", line), f"{what} {pid}: `steps` must be a whole number of at least 1")
        ok = False
    own = names.attributes(item, line, f"{what} {pid}")
    if not ok or own is None:
        return None
    attributes = names.newcomers.attributes(kind, own) if what == "unit" else ()
    return Piece(
        str(pid), kind, h, side, "unit" if what == "unit" else "marker", level, facing, frozenset(status), steps,
        attributes=attributes,
    )  # fmt: skip


def open_map_or_scenario(source: str) -> Map | Scenario:
    """A MAP_OR_SCENARIO argument: a path, or a bare name among the shipped scenarios,
    then the shipped maps. DataErrors if it cannot be read."""
    path = resolve(source, "scenarios")
    if path is not None and is_scenario_data(read_data(path)):
        return load_scenario(path)
    board = load_map(source if path is None else path)
    problems = map_rules_errors(board)
    if problems:
        raise DataErrors(problems)
    return board


# --- counters, options, setup, constraints, reinforcements --------------------------------


def _together(a: When, b: When) -> bool:
    """Whether two ``when``s can hold at once (no option asked for two values)."""
    first = dict(a)
    return all(first.get(key, value) == value for key, value in b)


def _counters_of(
    path: Path, data: LineDict, rules: str | None, errors: list[DataError]
) -> tuple[str | None, Counters | None]:
    """The counters file the scenario names (beside it, in ../counters, then shipped),
    or its rule system's own; None when neither exists (names are then not checked).
    Errors in the counters file keep that file's own path and line."""
    if "counters" not in data:
        if counters_name(rules) == GENERIC:
            return None, None
        try:
            return None, counters_for(rules)
        except DataErrors:
            return None, None
    ref = _name_of(data, "counters", "counters", errors, path)
    if ref is None:
        return None, None
    line = data.key_lines.get("counters")
    candidates = (path.parent / f"{ref}.yaml", path.parent.parent / "counters" / f"{ref}.yaml")
    found = _found(path, line, f"counters {ref!r}", candidates, errors)
    if found is False:
        return ref, None
    try:
        return ref, load_counters(found if isinstance(found, Path) else ref)
    except DataErrors as exc:
        for e in exc.errors:
            if e.path == ref:  # no such file: the scenario's line is the one to fix
                errors.append(DataError(path, line, f"counters {ref!r}: {e.message}"))
            else:
                errors.append(e)
        return ref, None


class _Names:
    """The words a setup may use: the map's terrain and regions, the counters' sides,
    unit types and markers (not checked when there are no counters)."""

    def __init__(
        self,
        board: Map,
        counters: Counters | None,
        fail: Fail,
        rule_sides: tuple[str, frozenset[str]] | None = None,
        schema: Schema = NO_SCHEMA,
        newcomers: Newcomers | None = None,
    ) -> None:
        self.board = board
        self.counters = counters
        self.fail = fail
        self.schema = schema
        self.newcomers = newcomers or Newcomers()
        self.rule_sides = rule_sides  # (the rule system's title, the sides its rules name)
        self.kinds = sorted({r.kind for r in board.regions.values()})
        self.regions = {r.key for r in board.regions.values()} | {r.name for r in board.regions.values()}

    def _known(self, line: int | None, what: str, value: Any, known: list[str], fix: str = "") -> bool:
        if isinstance(value, str) and value in known:
            return True
        listed = ", ".join(known) or "none"
        close = difflib.get_close_matches(str(value), known, n=1)
        guess = f"did you mean {close[0]!r}? " if close else ""
        self.fail(line, f"unknown {what} {value!r}; {guess}{fix or 'use one of'}: {listed}")
        return False

    def terrain(self, line: int | None, value: Any) -> bool:
        return self._known(
            line, "terrain", value, sorted(self.board.terrain_types), f"map {self.board.name!r} has"
        )

    def region(self, line: int | None, value: Any) -> bool:
        if isinstance(value, str) and (value in self.regions or value in self.kinds):
            return True
        keys = ", ".join(sorted(r.key for r in self.board.regions.values())) or "none"
        self.fail(
            line,
            f"unknown region or region kind {value!r}; map {self.board.name!r} has regions {keys} "
            f"and region kinds {', '.join(self.kinds) or 'none'}",
        )
        return False

    def kind(self, line: int | None, value: Any) -> bool:
        return self._known(
            line, "region kind", value, self.kinds, f"map {self.board.name!r} has region kinds"
        )

    def side(self, line: int | None, value: Any) -> bool:
        if not isinstance(value, str) or not WORD.match(value):
            self.fail(line, f"`side` must be a word such as german, got {value!r}")
            return False
        if self.rule_sides is not None and value not in self.rule_sides[1]:
            title, sides = self.rule_sides
            return self._known(line, "side", value, sorted(sides), f"the rules of {title} name")
        if self.counters is None or not self.counters.sides:
            return True
        return self._known(
            line, "side", value, sorted(self.counters.sides), f"{self.counters.name} counters have"
        )

    def marker(self, line: int | None, value: Any) -> bool:
        return self.piece_type(line, value, "marker")

    def attributes(self, item: LineDict, line: int, where: str) -> dict[str, Value] | None:
        """An entry's own `attributes:` checked against the rule system's unit schema
        ({} when it has none; None after an error)."""
        if "attributes" not in item:
            return {}
        values = read_values(item["attributes"], _line(item, "attributes", line), self.schema.units, self.fail, where)
        return values

    def piece_type(self, line: int | None, value: Any, kind: PieceKind | None) -> bool:
        if not isinstance(value, str) or not WORD.match(value):
            self.fail(line, f"a piece type must be a word such as infantry, got {value!r}")
            return False
        c = self.counters
        if c is None:
            return True
        if kind != "marker" and c.has_unit(value):
            return True
        if kind != "unit" and value in c.markers:
            return True
        what = {"unit": "unit type", "marker": "marker", None: "unit type or marker"}[kind]
        known = sorted(c.markers) if kind == "marker" else sorted(c.unit_types)
        if kind is None:
            known += sorted(c.markers)
        return self._known(line, what, value, known, f"{c.name} counters have")


def _line(item: Any, key: str, default: int | None) -> int | None:
    return item.key_lines.get(key, default) if isinstance(item, LineDict) else default


def _items(data: LineDict, block: str, fail: Fail) -> list[tuple[LineDict, int]]:
    """The mappings of a top-level list, with their lines; anything else is reported."""
    if block not in data:
        return []
    items = data[block]
    if not isinstance(items, LineList):
        fail(data.key_lines.get(block), f"`{block}` must be a list of mappings, one `- {{...}}` line each")
        return []
    out = []
    for i, item in enumerate(items):
        if isinstance(item, LineDict):
            out.append((item, items.item_lines[i]))
        else:
            fail(items.item_lines[i], f"each of `{block}` must be a mapping, got {item!r}")
    return out


def _unknown_keys(item: LineDict, line: int, keys: tuple[str, ...], what: str, fail: Fail) -> bool:
    ok = True
    for key in item:
        if key not in keys:
            fail(
                item.key_lines.get(key, line),
                f"unknown key {key!r} in {what}; {what} takes: {', '.join(keys)}",
            )
            ok = False
    return ok


def _whole(item: LineDict, key: str, line: int, fail: Fail, *, least: int = 0) -> int | None:
    value = item.get(key)
    if value is None:
        return None
    if type(value) is not int or value < least:
        fail(_line(item, key, line), f"`{key}` must be a whole number of at least {least}, got {value!r}")
        return None
    return value


def _options(data: LineDict, fail: Fail) -> dict[str, Option]:
    raw = data.get("options")
    if raw is None:
        return {}
    if not isinstance(raw, LineDict):
        fail(data.key_lines.get("options"), "`options` must be a mapping: key -> {name:, choices:, default:}")
        return {}
    options: dict[str, Option] = {}
    for key, spec in raw.items():
        line = raw.key_lines[key]
        if not isinstance(key, str) or not WORD.match(key):
            fail(line, f"an option key must be a word such as bombardment, got {key!r}")
            continue
        if not isinstance(spec, LineDict):
            fail(
                line,
                f"option {key}: must be a mapping {{name:, choices: [...], default:}} or {{name:, default: false}}",
            )
            continue
        if not _unknown_keys(spec, line, OPTION_KEYS, f"option {key}", fail):
            continue
        name = spec.get("name", key)
        default = spec.get("default")
        choices = spec.get("choices")
        if not isinstance(name, str):
            fail(_line(spec, "name", line), f"option {key}: `name` must be text, got {name!r}")
            continue
        if choices is None:
            if not isinstance(default, bool):
                fail(
                    _line(spec, "default", line),
                    f"option {key}: give `choices: [words]` and a default among them, or `default: true|false`",
                )
                continue
            options[key] = Option(key, name, (False, True), default)
            continue
        if (
            not isinstance(choices, list)
            or not choices
            or not all(isinstance(c, str) and WORD.match(c) for c in choices)
        ):
            fail(
                _line(spec, "choices", line),
                f"option {key}: `choices` must be a list of words, got {choices!r}",
            )
            continue
        if default is None:
            default = choices[0]
        if default not in choices:
            fail(
                _line(spec, "default", line),
                f"option {key}: default {default!r} is not one of {', '.join(choices)}",
            )
            continue
        options[key] = Option(key, name, tuple(choices), default)
    return options


def _when(item: LineDict, line: int, options: Mapping[str, Option], fail: Fail) -> When | None:
    raw = item.get("when")
    if raw is None:
        return ()
    at = _line(item, "when", line)
    if not isinstance(raw, dict) or not raw:
        fail(at, f"`when` must be a mapping of option to value, e.g. {{bombardment: heavy}}, got {raw!r}")
        return None
    pairs: list[tuple[str, object]] = []
    for key, value in raw.items():
        option = options.get(key)
        if option is None:
            fail(
                at,
                f"`when` names unknown option {key!r}; the scenario's options: {', '.join(options) or 'none'}",
            )
            return None
        if value not in option.choices or isinstance(value, bool) != isinstance(option.default, bool):
            shown = ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in option.choices)
            fail(at, f"`when`: option {key!r} has no value {value!r}; use one of {shown}")
            return None
        pairs.append((key, value))
    return tuple(pairs)


def _word_list(value: Any) -> list[str] | None:
    if isinstance(value, str):
        value = [value]
    if isinstance(value, list) and value and all(isinstance(w, str) for w in value):
        return value
    return None


def _zone(raw: Any, line: int | None, names: _Names, fail: Fail) -> Zone | None:
    if not isinstance(raw, LineDict):
        fail(line, f"a zone must be a mapping such as {{terrain: [trench], regions: [section]}}, got {raw!r}")
        return None
    ok = _unknown_keys(raw, raw.line or line or 0, ZONE_KEYS, "a zone", fail)
    parts: dict[str, frozenset[str]] = {}
    for key in ZONE_KEYS:
        if key not in raw:
            parts[key] = frozenset()
            continue
        at = _line(raw, key, line)
        words = _word_list(raw[key])
        if words is None:
            fail(at, f"zone `{key}` must be a list of words, got {raw[key]!r}")
            ok = False
            continue
        check: Callable[[int | None, Any], bool] = {
            "terrain": names.terrain,
            "regions": names.region,
            "markers": names.marker,
        }[key]
        ok = all([check(at, w) for w in words]) and ok
        parts[key] = frozenset(words)
    return Zone(parts["terrain"], parts["regions"], parts["markers"]) if ok else None


def _placements(
    data: LineDict,
    names: _Names,
    options: Mapping[str, Option],
    used: dict[str, When],
    budget: _Budget,
    fail: Fail,
) -> tuple[Placement, ...]:
    out: list[Placement] = []
    numbers: dict[str, int] = {}
    for item, line in _items(data, "setup", fail):
        if not _unknown_keys(item, line, SETUP_KEYS, "a setup entry", fail):
            continue
        if ("type" in item) == ("marker" in item):
            fail(line, "a setup entry needs `type:` (a unit type) or `marker:` (a marker type), not both")
            continue
        kind: PieceKind = "unit" if "type" in item else "marker"
        type_key: Any = item.get("type", item.get("marker"))
        ok = names.piece_type(_line(item, kind if kind == "marker" else "type", line), type_key, kind)
        side = item.get("side")
        if side is not None:
            ok = names.side(_line(item, "side", line), side) and ok
        count = _count(item, line, fail)
        ok = count is not None and ok
        zone = _zone(item["zone"], _line(item, "zone", line), names, fail) if "zone" in item else Zone()
        when = _when(item, line, options, fail)
        text = item.get("text", "")
        if not isinstance(text, str):
            fail(_line(item, "text", line), f"`text` must be text, got {text!r}")
            ok = False
        prefix = item.get("id", f"{side}-{type_key}" if side else type_key)
        if not isinstance(prefix, str) or not WORD.match(prefix):
            fail(
                _line(item, "id", line), f"`id` must be a word used as the pieces' id prefix, got {prefix!r}"
            )
            ok = False
        if not ok or zone is None or when is None or count is None or not budget.take(count, line):
            continue
        first = numbers.get(prefix, 0)
        ids = tuple(f"{prefix}-{first + i}" for i in range(1, count + 1))
        numbers[prefix] = first + count
        clash = sorted(i for i in set(ids) & used.keys() if _together(used[i], when))
        if clash:
            fail(
                line,
                f"setup id {clash[0]} is already a piece of the scenario; give the entry another `id:` prefix",
            )
            continue
        used.update(dict.fromkeys(ids, when))
        out.append(Placement(ids, type_key, side, kind, zone, line, text, when))
    return tuple(out)


def _filter(item: LineDict, line: int, names: _Names, fail: Fail) -> PieceFilter | None:
    raw = item.get("pieces", {})
    at = _line(item, "pieces", line)
    if not isinstance(raw, dict):
        fail(at, f"`pieces` must be a mapping such as {{side: german, type: infantry}}, got {raw!r}")
        return None
    if isinstance(raw, LineDict) and not _unknown_keys(raw, at or line, FILTER_KEYS, "`pieces`", fail):
        return None
    kind = raw.get("kind")
    if kind not in (None, "unit", "marker"):
        fail(at, f"`pieces: kind` must be unit or marker, got {kind!r}")
        return None
    ok = True
    if raw.get("side") is not None:
        ok = names.side(at, raw["side"])
    if raw.get("type") is not None:
        ok = names.piece_type(at, raw["type"], kind) and ok
    return PieceFilter(raw.get("side"), raw.get("type"), kind) if ok else None


def _constraints(
    data: LineDict, names: _Names, options: Mapping[str, Option], fail: Fail
) -> tuple[Constraint, ...]:
    out: list[Constraint] = []
    for item, line in _items(data, "constraints", fail):
        if not _unknown_keys(item, line, CONSTRAINT_KEYS, "a constraint", fail):
            continue
        kinds = [k for k in CONSTRAINT_KINDS if k in item]
        if len(kinds) != 1:
            fail(
                line,
                f"a constraint needs exactly one of {', '.join(CONSTRAINT_KINDS)}, got {kinds or 'none'}",
            )
            continue
        kind = kinds[0]
        at = _line(item, kind, line)
        group: str | None = None
        zone: Zone | None = None
        ok = True
        if kind in ("every", "run"):
            group = item[kind]
            ok = names.kind(at, group)
        elif item[kind] not in (None, "all", {}):
            zone = _zone(item[kind], at, names, fail)
            ok = zone is not None
        pieces = _filter(item, line, names, fail)
        least = _whole(item, "min", line, fail)
        most = _whole(item, "max", line, fail)
        exactly = _whole(item, "exactly", line, fail)
        if exactly is not None:
            if "min" in item or "max" in item:
                fail(line, "give `exactly:` or `min:`/`max:`, not both")
                ok = False
            least = most = exactly
        if least is not None and most is not None and least > most:
            fail(_line(item, "min", line), f"min {least} is more than max {most}; make min <= max")
            ok = False
        if kind == "run" and (most is None or least is not None):
            fail(line, "a run constraint takes only `max:` (the longest run of adjacent hexes allowed)")
            ok = False
        if least is None and most is None and not any(k in item for k in ("min", "max", "exactly")):
            fail(line, "a constraint needs `min:`, `max:` or `exactly:`")
            ok = False
        text = item.get("text", "")
        if not isinstance(text, str):
            fail(_line(item, "text", line), f"`text` must be text, got {text!r}")
            ok = False
        when = _when(item, line, options, fail)
        if (
            not ok
            or pieces is None
            or when is None
            or ("min" in item and least is None)
            or ("max" in item and most is None)
        ):
            continue
        out.append(Constraint(kind, pieces, least, most, group, zone, text, line, when))
    return tuple(out)


def _reinforcements(data: LineDict, names: _Names, budget: _Budget, fail: Fail) -> tuple[Reinforcement, ...]:
    out: list[Reinforcement] = []
    for item, line in _items(data, "reinforcements", fail):
        if not _unknown_keys(item, line, REINFORCEMENT_KEYS, "a reinforcement", fail):
            continue
        turn: Any = item.get("turn")
        ok = True
        if type(turn) is not int or turn < 0:
            fail(
                _line(item, "turn", line),
                f"a reinforcement needs `turn:` (a whole number: 0 before the first turn, 1, 2...), got {turn!r}",
            )
            ok = False
        side = item.get("side")
        if side is not None:
            ok = names.side(_line(item, "side", line), side) and ok
        type_key = item.get("type")
        ok = names.piece_type(_line(item, "type", line), type_key, "unit") and ok
        count = _count(item, line, fail)
        ok = count is not None and ok
        box = item.get("box")
        if box is not None and not isinstance(box, str):
            fail(_line(item, "box", line), f"`box` must be text, got {box!r}")
            ok = False
        ids = _ids(item, line, count, fail)
        own = names.attributes(item, line, "a reinforcement")
        if ok and ids is not None and own is not None and count is not None and budget.take(count, line):
            out.append(Reinforcement(turn, side, str(type_key), count, box, line, ids, pairs(own)))
    return tuple(out)


def _ids(item: LineDict, line: int, count: int | None, fail: Fail) -> tuple[str, ...] | None:
    """A reinforcement's `ids` (one word per unit, `count` of them), () when not given."""
    if "ids" not in item:
        return ()
    ids = item["ids"]
    at = _line(item, "ids", line)
    if not isinstance(ids, list) or not all(isinstance(i, str | int) and not isinstance(i, bool) and WORD.match(str(i)) for i in ids):
        fail(at, f"`ids` must be a list of words, one per unit (e.g. [5M-HQ, 5M-A]), got {ids!r}")
        return None
    if count is not None and len(ids) != count:
        fail(at, f"`ids` names {len(ids)} units but `count` is {count}; give one id per unit")
        return None
    if len(set(map(str, ids))) != len(ids):
        fail(at, "`ids` names a unit twice; ids must be unique")
        return None
    return tuple(map(str, ids))


def _fresh_ids(reinforcements: tuple[Reinforcement, ...], seen: dict[str, int], fail: Fail) -> None:
    """A reinforcement's ids are new: no unit, marker or other reinforcement has them."""
    for r in reinforcements:
        for ident in r.ids:
            if ident in seen:
                fail(r.line, f"id {ident!r} is used twice (first at line {seen[ident]}); ids must be unique")
            elif r.line is not None:
                seen[ident] = r.line


def _schema(path: Path, data: LineDict, rules: str | None, errors: list[DataError]) -> Schema:
    """What the scenario's rule system declares of units and of the `game:` block; a
    broken schema file is an error at its own line (it is the rule system's file)."""
    from tabletop.games import rules_problem, schema_of

    if rules is None or rules_problem(rules) is not None:
        return NO_SCHEMA
    try:
        return schema_of(rules)
    except DataError as exc:
        errors.append(exc)
        return NO_SCHEMA


def _game_block(data: LineDict, board: Map, schema: Schema, fail: Fail) -> dict[str, Any]:
    """The scenario's `game:` block: the rule system's own keys, checked against its
    schema at their lines (hex labels become hexes), with the schema's defaults filled."""
    if "game" not in data:
        return with_defaults({}, schema.scenario)
    line = data.key_lines.get("game")
    if not schema.scenario:
        fail(line, "`game` holds a rule system's own keys, and this scenario's rule system declares none; remove it")
        return {}
    values = read_values(data["game"], line, schema.scenario, fail, "game", board.hex_of)
    return with_defaults(values or {}, schema.scenario)


def _count(item: LineDict, line: int, fail: Fail) -> int | None:
    """An entry's `count` (default 1), at most PIECE_COUNT: refused before any piece is made."""
    count = item.get("count", 1)
    at = _line(item, "count", line)
    if type(count) is not int or count < 0:
        fail(at, f"`count` must be a whole number of at least 0, got {count!r}")
        return None
    if count > PIECE_COUNT:
        fail(at, f"count {count} is more than {PIECE_COUNT} pieces; give a smaller count (tabletop.limits.PIECE_COUNT)")
        return None
    return count


def _solver_room(board: Map, placements: tuple[Placement, ...], fail: Fail) -> None:
    """The solver shuffles the map's hexes once per setup entry: a big map with many
    entries is refused (limits.SETUP_HEXES) at the entry that passes the bound."""
    hexes = board.grid.columns * board.grid.rows
    for n, p in enumerate(placements, 1):
        if n * hexes > SETUP_HEXES:
            fail(
                p.line,
                f"setup entry {n} on a map of {hexes} hexes: at most {max(1, SETUP_HEXES // hexes)} setup "
                f"entries fit this map (tabletop.limits.SETUP_HEXES); merge entries or use a smaller map",
            )
            return


class _Budget:
    """The pieces a scenario makes in all (units, markers, setup and reinforcements)
    stay within PIECE_COUNT: each entry takes its count before its pieces are made, and
    the entry that passes the bound is the line reported (once)."""

    def __init__(self, fixed: int, fail: Fail, line: int) -> None:
        self.total = fixed
        self.fail = fail
        self.over = fixed > PIECE_COUNT
        if self.over:
            fail(line, f"the scenario has {fixed} units and markers; at most {PIECE_COUNT} pieces in all")

    def take(self, n: int, line: int | None) -> bool:
        """Whether ``n`` more pieces fit; an error at ``line`` the first time they do not."""
        self.total += n
        if self.total <= PIECE_COUNT:
            return True
        if not self.over:
            self.over = True
            self.fail(
                line,
                f"this entry brings the scenario to {self.total} pieces; at most {PIECE_COUNT} in all "
                "(tabletop.limits.PIECE_COUNT): give smaller counts",
            )
        return False
