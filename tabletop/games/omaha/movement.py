"""D-Day at Omaha Beach: how US units move (omaha 6, 6.1, 9.4).

A move is one action: one hex in a standard turn, two for infantry and leaders in an
extended (EXT) turn, up to four for a tank along a major road. The 9.4 table says, for
infantry, leaders and other units, which terrain may be entered and which hexsides
crossed: freely, only along a road, by climbing (a climb marker for a bluff, a
climb-cliff marker placed first for a scaleable cliff), or never. In EXT turns units must
stop in bocage off road and in the stronger fields of fire of active German positions;
stacking allows 2 units a hex, HQs and Generals free. All figures and words are data in
``movement.yaml`` beside this module, each with its section or marked as the project's
own choice.

Orders (``MovePolicy.model``'s ``order``): ``None`` (the policy's default turn kind),
``"STD"`` for a standard turn, ``"EXT"`` for an extended turn (turns 17-32). Budgets are
in printed points, one point being one hex off road; ``scale`` cost units make a point
(a tank in an EXT turn: 4, so a major-road step costs 1 unit and a secondary-road step
2).

Knows the map (terrain, hexsides, roads, regions), the pieces and the fields of fire
(``fields.py``); knows nothing of cards, dice or how many actions are left.

>>> from tabletop.board import load_map
>>> from tabletop.engine.movement import plan_move
>>> from tabletop.engine.pieces import MapState, Piece
>>> omaha = load_map("omaha")
>>> tank = Piece("1/B/741", "tank", omaha.hex_of("0505"), side="us")
>>> state = MapState.of(omaha, [tank])
>>> far = plan_move(state, move_policy(state), tank, "EXT")
>>> far.points(omaha.hex_of("0604")), far.points(omaha.hex_of("0905"))  # 1 and 4 along the major road
(0.25, 1.0)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import pairwise
from math import gcd
from types import MappingProxyType
from typing import Any, Literal, TypeVar, cast, get_args

from tabletop.board import Map
from tabletop.datareader import Reader
from tabletop.engine.movement import BaseMovePolicy, MoveModel, Reach
from tabletop.engine.pieces import MapState, Piece
from tabletop.hexgrid import Hex, neighbors
from tabletop.yamlfile import LineDict, parse_yaml

from .fields import GAME, FieldsConfig, Intensity, default_config, fields, position_keys
from .usdata import attacks

DATA = "movement.yaml"
RULE_TABLE = f"{GAME} 9.4"
RULE_MOVE = f"{GAME} 6.1"
RULE_STACK = f"{GAME} 6"
RULE_CHOICE = f"{GAME}: project's choice (games/omaha/{DATA})"

Permission = Literal["open", "road", "climb", "climb-cliff", "prohibited"]
PERMISSIONS: tuple[Permission, ...] = get_args(Permission)
UnitClass = Literal["infantry", "leaders", "others"]
CLASSES: tuple[UnitClass, ...] = get_args(UnitClass)
Mode = Literal["standard", "extended"]
MODES: tuple[Mode, ...] = get_args(Mode)
#: order word -> turn kind; None is the policy's default
ORDERS: Mapping[str, Mode] = MappingProxyType({"STD": "standard", "EXT": "extended"})
STATUS_KEYS = ("climb", "climb_cliff", "disrupted")


# --------------------------------------------------------------------------- the data


@dataclass(frozen=True)
class MustStop:
    """Where entering ends the move: hexes in these ``fields`` intensities of an active
    position, and hexes of these ``terrain`` kinds that carry no road."""

    fields: frozenset[Intensity] = frozenset()
    terrain: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ControlRules:
    """``movement.yaml`` ``control:`` (omaha 2), validated."""

    none: frozenset[str]
    adjacent: Mapping[str, int]
    high_from: frozenset[str]
    high_over: frozenset[str]
    low_from: frozenset[str]
    low_not_to: frozenset[str]
    afloat: frozenset[str]


@dataclass(frozen=True)
class CommunicationRules:
    """``movement.yaml`` ``communication:`` (omaha 2), validated."""

    exits: str
    blocked_terrain: frozenset[str]
    blocked_next_to: Mapping[str, frozenset[str]]
    pass_kind: str
    pass_terrain: frozenset[str]


@dataclass(frozen=True)
class MoveRules:
    """Everything ``movement.yaml`` holds, validated (see the file for the meaning)."""

    us_side: str
    classes: Mapping[str, UnitClass]  # unit type -> class
    terrain: Mapping[str, Mapping[UnitClass, Permission]]
    hexsides: Mapping[str, Mapping[UnitClass, Permission]]
    roads: tuple[str, ...]
    speed: Mapping[Mode, Mapping[UnitClass, int]]
    road_speed: Mapping[Mode, Mapping[str, Mapping[str, int]]]  # by type or class
    must_stop: Mapping[Mode, Mapping[str, MustStop]]  # by type or class
    silenced_by: frozenset[str]
    infiltration_alone_prohibited: frozenset[UnitClass]
    status: Mapping[str, str]
    extended_needs_no_climb_marker: bool
    immobile: Mapping[str, str]
    stacking_limit: int
    stacking_free: frozenset[str]
    control: ControlRules
    communication: CommunicationRules
    path: str = DATA

    def unit_class(self, piece: Piece) -> UnitClass:
        """The 9.4 column of ``piece``; ValueError naming an unknown type."""
        try:
            return self.classes[piece.type]
        except KeyError:
            known = ", ".join(sorted(self.classes))
            raise ValueError(
                f"{GAME}: unit {piece.id!r} has type {piece.type!r}, which {self.path} does not "
                f"class (known types: {known})"
            ) from None

    def steps(self, piece: Piece) -> int:
        """The steps ``piece`` has now: ``Piece.steps``, the one place a unit's strength
        is kept (set from its counter's full steps when it comes into play)."""
        return piece.steps


class _Reader(Reader):
    """Validation of ``movement.yaml``; every DataError names the line."""

    def block(self, parent: LineDict, key: str, where: str, keys: Sequence[str] | None = None) -> LineDict:
        """``parent[key]`` as a mapping with exactly ``keys`` (any keys if None)."""
        if key not in parent:
            raise self.error(parent.line, f"{where}: `{key}:` is missing")
        here = f"{where}.{key}" if where != "the file" else key
        return self.mapping(parent[key], here, parent.key_lines[key], keys, keys or ())

    def words_in(
        self, node: LineDict, key: str, where: str, among: Sequence[str] | None = None
    ) -> tuple[str, ...]:
        """``node[key]`` as a list of words, each one of ``among`` if given."""
        value = super().words_in(node, key, where)
        for w in value:
            if among is not None and w not in among:
                raise self.error(
                    node.key_lines.get(key, node.line),
                    f"{where}.{key}: {w!r} must be one of {', '.join(among)}",
                )
        return value

    def table(self, top: LineDict, key: str) -> dict[str, Mapping[UnitClass, Permission]]:
        node = self.block(top, key, "the file")
        out: dict[str, Mapping[UnitClass, Permission]] = {}
        for name in node:
            row = self.block(node, name, key, CLASSES)
            cells: dict[UnitClass, Permission] = {}
            for cls in CLASSES:
                value = row[cls]
                if value not in PERMISSIONS:
                    raise self.error(
                        row.key_lines[cls],
                        f"{key}.{name}.{cls}: {value!r} must be one of {', '.join(PERMISSIONS)}",
                    )
                cells[cls] = value
            out[name] = MappingProxyType(cells)
        return out

    def by_mode(self, top: LineDict, key: str) -> dict[Mode, LineDict]:
        node = self.block(top, key, "the file", MODES)
        return {mode: self.block(node, mode, key) for mode in MODES}

    def config(self) -> MoveRules:
        keys = (
            "us_side",
            "classes",
            "terrain",
            "hexsides",
            "roads",
            "speed",
            "road_speed",
            "must_stop",
            "active_positions",
            "infiltration",
            "status",
            "climb",
            "immobile",
            "stacking",
            "control",
            "communication",
        )
        data = self.data
        if not isinstance(data, LineDict):
            raise self.error(1, "the file must be a mapping")
        for k in data:
            if k not in keys:
                raise self.error(data.key_lines[k], f"unknown key {k!r} (known: {', '.join(keys)})")
        for k in keys:
            if k not in data:
                raise self.error(1, f"`{k}:` is missing")

        classes_node = self.block(data, "classes", "the file", CLASSES)
        classes: dict[str, UnitClass] = {}
        for cls in CLASSES:
            for t in self.words_in(classes_node, cls, "classes"):
                if t in classes:
                    raise self.error(classes_node.key_lines[cls], f"classes: type {t!r} is in two classes")
                classes[t] = cls
        units = tuple(classes)
        groups = (*CLASSES, *units)

        roads = self.words_in(data, "roads", "the file")
        speed: dict[Mode, Mapping[UnitClass, int]] = {}
        for mode, node in self.by_mode(data, "speed").items():
            self.block(data["speed"], mode, "speed", CLASSES)
            speed[mode] = MappingProxyType({c: self.whole_in(node, c, f"speed.{mode}", 1) for c in CLASSES})
        road_speed: dict[Mode, Mapping[str, Mapping[str, int]]] = {}
        for mode, node in self.by_mode(data, "road_speed").items():
            entry: dict[str, Mapping[str, int]] = {}
            for group in node:
                if group not in groups:
                    raise self.error(
                        node.key_lines[group], f"road_speed.{mode}: {group!r} is not a class or type"
                    )
                row = self.block(node, group, f"road_speed.{mode}", roads)
                entry[group] = MappingProxyType(
                    {r: self.whole_in(row, r, f"road_speed.{mode}.{group}", 1) for r in row}
                )
            road_speed[mode] = MappingProxyType(entry)
        must_stop: dict[Mode, Mapping[str, MustStop]] = {}
        for mode, node in self.by_mode(data, "must_stop").items():
            stops: dict[str, MustStop] = {}
            for group in node:
                if group not in groups:
                    raise self.error(
                        node.key_lines[group], f"must_stop.{mode}: {group!r} is not a class or type"
                    )
                row = self.block(node, group, f"must_stop.{mode}", None)
                where = f"must_stop.{mode}.{group}"
                for k in row:
                    if k not in ("fields", "terrain"):
                        raise self.error(
                            row.key_lines[k], f"{where}: unknown key {k!r} (known: fields, terrain)"
                        )
                found = (
                    self.words_in(row, "fields", where, ("intense", "steady", "sporadic"))
                    if "fields" in row
                    else ()
                )
                terrain = self.words_in(row, "terrain", where) if "terrain" in row else ()
                stops[group] = MustStop(cast("frozenset[Intensity]", frozenset(found)), frozenset(terrain))
            must_stop[mode] = MappingProxyType(stops)

        active = self.block(data, "active_positions", "the file", ("silenced_by",))
        infiltration = self.block(data, "infiltration", "the file", ("alone_prohibited",))
        status_node = self.block(data, "status", "the file", STATUS_KEYS)
        climb = self.block(data, "climb", "the file", ("extended_needs_no_climb_marker",))
        no_marker = climb["extended_needs_no_climb_marker"]
        if not isinstance(no_marker, bool):
            raise self.error(climb.key_lines["extended_needs_no_climb_marker"], "must be true or false")
        immobile = self.block(data, "immobile", "the file")
        for t in immobile:
            if t not in units:
                raise self.error(immobile.key_lines[t], f"immobile: {t!r} is not a type in classes")
            self.word_in(immobile, t, "immobile")
        stacking = self.block(data, "stacking", "the file", ("limit", "free"))

        control = self.block(
            data,
            "control",
            "the file",
            ("none", "adjacent", "high_ground", "not_upward", "afloat"),
        )
        adjacent = self.block(control, "adjacent", "control")
        high = self.block(control, "high_ground", "control", ("from", "over"))
        low = self.block(control, "not_upward", "control", ("from", "to"))
        for t in adjacent:
            if t not in units:
                raise self.error(adjacent.key_lines[t], f"control.adjacent: {t!r} is not a type in classes")
        comm = self.block(
            data,
            "communication",
            "the file",
            ("exits", "blocked_terrain", "blocked_next_to", "pass_controlled"),
        )
        next_to = self.block(comm, "blocked_next_to", "communication")
        passing = self.block(comm, "pass_controlled", "communication", ("position_kind", "terrain"))

        return MoveRules(
            us_side=self.word_in(data, "us_side", "the file"),
            classes=MappingProxyType(classes),
            terrain=MappingProxyType(self.table(data, "terrain")),
            hexsides=MappingProxyType(self.table(data, "hexsides")),
            roads=roads,
            speed=MappingProxyType(speed),
            road_speed=MappingProxyType(road_speed),
            must_stop=MappingProxyType(must_stop),
            silenced_by=frozenset(self.words_in(active, "silenced_by", "active_positions")),
            infiltration_alone_prohibited=cast(
                "frozenset[UnitClass]",
                frozenset(self.words_in(infiltration, "alone_prohibited", "infiltration", CLASSES)),
            ),
            status=MappingProxyType({k: self.word_in(status_node, k, "status") for k in STATUS_KEYS}),
            extended_needs_no_climb_marker=no_marker,
            immobile=MappingProxyType(dict(immobile)),
            stacking_limit=self.whole_in(stacking, "limit", "stacking", 1),
            stacking_free=frozenset(self.words_in(stacking, "free", "stacking", units)),
            control=ControlRules(
                none=frozenset(self.words_in(control, "none", "control", units)),
                adjacent=MappingProxyType(
                    {t: self.whole_in(adjacent, t, "control.adjacent", 0) for t in adjacent}
                ),
                high_from=frozenset(self.words_in(high, "from", "control.high_ground")),
                high_over=frozenset(self.words_in(high, "over", "control.high_ground")),
                low_from=frozenset(self.words_in(low, "from", "control.not_upward")),
                low_not_to=frozenset(self.words_in(low, "to", "control.not_upward")),
                afloat=frozenset(self.words_in(control, "afloat", "control")),
            ),
            communication=CommunicationRules(
                exits=self.word_in(comm, "exits", "communication"),
                blocked_terrain=frozenset(self.words_in(comm, "blocked_terrain", "communication")),
                blocked_next_to=MappingProxyType(
                    {
                        k: frozenset(self.words_in(next_to, k, "communication.blocked_next_to"))
                        for k in next_to
                    }
                ),
                pass_kind=self.word_in(passing, "position_kind", "communication.pass_controlled"),
                pass_terrain=frozenset(self.words_in(passing, "terrain", "communication.pass_controlled")),
            ),
            path=str(self.path),
        )


def read_rules(text: str, path: str = DATA) -> MoveRules:
    """Validate the text of a ``movement.yaml``; DataError names the line of any problem."""
    return _Reader(path, parse_yaml(text, path), line=1).config()


@cache
def default_rules() -> MoveRules:
    """The shipped ``movement.yaml`` beside this module, read once."""
    text = resources.files(__package__).joinpath(DATA).read_text(encoding="utf-8")
    return read_rules(text, f"tabletop/games/omaha/{DATA}")


# ----------------------------------------------------------------- the ground, read


def german_units(state: MapState, config: FieldsConfig | None = None) -> list[Piece]:
    """The German units on the map (``fields.yaml`` ``line_of_sight.german_side``)."""
    side = (default_config() if config is None else config).german_side
    return [p for p in state.pieces() if p.kind == "unit" and p.side == side]


def active_positions(
    state: MapState, rules: MoveRules | None = None, config: FieldsConfig | None = None
) -> list[str]:
    """The keys of the German positions whose fields of fire count (``movement.yaml``
    ``active_positions``): occupied by at least one German unit not silenced (not
    Disrupted), in the map's order of positions."""
    rules = default_rules() if rules is None else rules
    occupied = {p.hex for p in german_units(state, config) if not (p.status & rules.silenced_by)}
    board = state.board
    return [k for k in position_keys(board, config) if board.regions[k].hexes & occupied]


def active_fields(
    state: MapState, rules: MoveRules | None = None, config: FieldsConfig | None = None
) -> Mapping[Hex, tuple[str, Intensity]]:
    """Per hex, the strongest field of fire of an active position over it: (position,
    intensity); the first position in the map's order wins a tie. Shared: read it,
    never change it (``_per_version``)."""
    return _per_version(_active_fields, state, rules, config)


T = TypeVar("T")
# (what is worked out, map version, id of the move rules, id of the fields config) ->
# (those two, the answer): ``_per_version``
_answers: dict[tuple[Callable[..., Any], int, int, int], tuple[MoveRules, FieldsConfig | None, Any]] = {}
ANSWERS_KEPT = 512


def _per_version(
    make: Callable[[MapState, MoveRules, FieldsConfig | None], T],
    state: MapState,
    rules: MoveRules | None,
    config: FieldsConfig | None,
) -> T:
    """``make``'s answer for this map version, worked out once: the autoplayer and the
    move rules ask the active fields and the infiltration zone for every step they
    weigh, and they change only with the German units (issue 19)."""
    rules = default_rules() if rules is None else rules
    key = (make, state.version, id(rules), id(config))
    found = _answers.get(key)
    if found is not None and found[0] is rules and found[1] is config:
        return cast(T, found[2])
    out = make(state, rules, config)
    if len(_answers) >= ANSWERS_KEPT:
        _answers.clear()
    _answers[key] = (rules, config, out)
    return out


def _active_fields(
    state: MapState, rules: MoveRules, config: FieldsConfig | None
) -> dict[Hex, tuple[str, Intensity]]:
    ranks = {"intense": 0, "steady": 1, "sporadic": 2}
    by_position = fields(state.board, config).by_position
    out: dict[Hex, tuple[str, Intensity]] = {}
    for key in active_positions(state, rules, config):
        for h, intensity in by_position.get(key, {}).items():
            if h not in out or ranks[intensity] < ranks[out[h][1]]:
                out[h] = (key, intensity)
    return out


def infiltration_zone(
    state: MapState, rules: MoveRules | None = None, config: FieldsConfig | None = None
) -> Mapping[Hex, str]:
    """Hexes adjacent to, and in the field of fire of, an active position (omaha 6.1
    infiltration), each with the first such position. Shared: read it, never change it
    (``_per_version``)."""
    return _per_version(_infiltration_zone, state, rules, config)


def _infiltration_zone(state: MapState, rules: MoveRules, config: FieldsConfig | None) -> dict[Hex, str]:
    board = state.board
    by_position = fields(board, config).by_position
    out: dict[Hex, str] = {}
    for key in active_positions(state, rules, config):
        field = by_position.get(key, {})
        for own in board.regions[key].hexes:
            for n in neighbors(own):
                if n in field:
                    out.setdefault(n, key)
    return out


def road_kinds(board: Map, h: Hex, roads: Sequence[str]) -> tuple[str, ...]:
    """The road features on ``h`` among ``roads`` (in that order)."""
    return tuple(r for r in roads if r in board.features and h in board.features[r].hexes)


# ------------------------------------------------------------------------ the policy


@dataclass(frozen=True)
class _Unit:
    """What one model is built for: the unit, its class, the turn kind and the costs."""

    piece: Piece
    cls: UnitClass
    mode: Mode
    scale: int
    off_road: int  # cost units of a step off road
    by_road: Mapping[str, int]  # road key -> cost units of a step along it


class OmahaMovePolicy(BaseMovePolicy):
    """US movement in D-Day at Omaha Beach (see the module notes).

    ``extended``: whether a move with no order is an EXT turn's (turns 17-32).
    """

    name = GAME

    def __init__(
        self, rules: MoveRules | None = None, *, extended: bool = False, config: FieldsConfig | None = None
    ) -> None:
        self.rules = default_rules() if rules is None else rules
        self.config = default_config() if config is None else config
        self.extended = extended

    # -- the turn and the unit

    def mode(self, order: str | None) -> Mode:
        """The turn kind an order means; ValueError naming an unknown order."""
        if order is None:
            return "extended" if self.extended else "standard"
        try:
            return ORDERS[order]
        except KeyError:
            raise ValueError(
                f"{GAME}: unknown order {order!r} (known: {', '.join(ORDERS)}, or none)"
            ) from None

    def _unit(self, unit: Piece, mode: Mode) -> _Unit:
        rules = self.rules
        cls = rules.unit_class(unit)
        speed = rules.speed[mode][cls]
        table = rules.road_speed[mode]
        roads = table.get(unit.type, table.get(cls, {}))
        # a point is one hex off road: a step at R hexes a move costs speed/R points
        scale = 1
        for r in roads.values():
            need = r // gcd(r, speed)
            scale = scale * need // gcd(scale, need)
        off_road = scale
        by_road = {k: min(off_road, speed * scale // r) for k, r in roads.items()}
        return _Unit(unit, cls, mode, scale, off_road, MappingProxyType(by_road))

    # -- one step

    def _step_cost(
        self, state: MapState, u: _Unit, a: Hex | None, b: Hex, zone: Mapping[Hex, str] | None = None
    ) -> tuple[int | None, str]:
        """Cost units of the step from ``a`` into ``b`` (``a`` None: entering ``b`` off
        road, crossing no hexside), or None with the reason it is prohibited. A unit with
        a climb-cliff marker is handled by ``model``, not here."""
        rules, board = self.rules, state.board
        kind = state.terrain_at(b)
        if kind not in rules.terrain:
            raise ValueError(f"{GAME}: {rules.path} has no row for terrain {kind!r} of map {board.name!r}")
        if any(p.side == self.config.german_side for p in state.units_at(b)):
            return (
                None,
                f"German units in {board.label(b)}: US units enter only by defeating them ({RULE_CHOICE})",
            )
        need_road: str | None = None
        permission = rules.terrain[kind][u.cls]
        if permission == "prohibited":
            return None, f"{kind}: no {u.cls} unit may enter ({_rule_for(kind)})"
        if permission == "road":
            need_road = f"{kind}: {u.cls} only along a road ({RULE_TABLE})"
        mined = _marker_refusal(state, rules, u.cls, b)
        if mined is not None:
            return None, mined
        road = None
        if a is not None:
            for key in sorted(board.hexside_features(a, b)):
                if key not in rules.hexsides:
                    raise ValueError(
                        f"{GAME}: {rules.path} has no row for hexside {key!r} of map {board.name!r}"
                    )
                crossing = rules.hexsides[key][u.cls]
                if key == "shingle" and _shingle_lane(state, a, b):
                    continue  # omaha 7 EXT: shingle lanes in an Engineer Base's range
                if crossing == "prohibited":
                    return None, f"{key} hexside: no {u.cls} unit may cross ({RULE_TABLE})"
                if crossing == "climb-cliff":
                    return (
                        None,
                        f"{key} hexside: {u.cls} cross only with a climb-cliff marker placed first ({RULE_MOVE})",
                    )
                if crossing == "road" and need_road is None:
                    need_road = f"{key} hexside: {u.cls} cross only along a road ({RULE_TABLE})"
            road = _road_between(board, a, b, rules.roads)
            if u.cls in rules.infiltration_alone_prohibited and zone is not None and a in zone and b in zone:
                return None, (
                    f"infiltration past {zone[a]}: {u.cls} (HQs, Generals) may not infiltrate on their own ({RULE_MOVE})"
                )
        if need_road is not None and road is None:
            return None, need_road
        if road is not None and road in u.by_road:
            return u.by_road[road], ""
        return u.off_road, ""

    def why_not_step(
        self, state: MapState, unit: Piece, a: Hex, b: Hex, order: str | None = None
    ) -> str | None:
        """Why ``unit`` may not step from ``a`` into adjacent ``b`` (None: it may), by the
        hex and hexside rules alone (not the budget, stops or stacking)."""
        u = self._unit(unit, self.mode(order))
        cost, why = self._step_cost(state, u, a, b, infiltration_zone(state, self.rules, self.config))
        return why if cost is None else None

    # -- the model

    def model(
        self, state: MapState, unit: Piece, order: str | None = None, budget: int | None = None
    ) -> MoveModel:
        rules, board = self.rules, state.board
        if unit.kind != "unit":
            raise ValueError(f"{GAME}: {unit.id!r} is a marker, not a unit")
        if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget < 0):
            raise ValueError(f"{GAME}: budget {budget!r} must be a whole number of hexes, 0 or more")
        mode = self.mode(order)
        if unit.side == self.config.german_side:
            return _still(f"German units move only by the German action procedures ({GAME} 3)")
        u = self._unit(unit, mode)
        status = rules.status
        if unit.type in rules.immobile:
            return _still(rules.immobile[unit.type])
        if status["disrupted"] in unit.status:
            return _still(f"a Disrupted unit's only action is removing the marker ({RULE_STACK})")
        if status["climb"] in unit.status:
            return _still(f"a unit with a climb marker may only remove it ({RULE_STACK}, {RULE_MOVE})")

        no_end = self._stacking(state, unit)
        if status["climb_cliff"] in unit.status:
            return self._climb_cliff(state, u, no_end)

        # Every step's cost, then the engine's form: ``enter`` holds each hex some step
        # may enter (an override never opens a hex absent from it), at its cost off road
        # where that is allowed (else the first allowed step's); ``step`` the steps that differ.
        zone = infiltration_zone(state, rules, self.config)
        contains = board.grid.contains
        pairs: dict[tuple[Hex, Hex], int | None] = {}
        for a in board.grid.hexes():
            for b in neighbors(a):
                if contains(b):
                    pairs[(a, b)] = self._step_cost(state, u, a, b, zone)[0]
        enter: dict[Hex, int] = {}
        why_not: dict[Hex, str] = {}
        for h in board.grid.hexes():
            cost, why = self._step_cost(state, u, None, h)
            if cost is not None:
                enter[h] = cost
            else:
                why_not[h] = why
        for (_a, b), cost in pairs.items():
            if cost is not None and b not in enter:
                enter[b] = cost  # only some steps enter it (along a road)
                why_not.pop(b, None)
        step = {ab: cost for ab, cost in pairs.items() if cost != enter.get(ab[1])}
        points = rules.speed[mode][u.cls] if budget is None else budget
        notes = [f"{mode} turn: {rules.speed[mode][u.cls]} hex(es) off road for {u.cls}"]
        if u.by_road:
            notes.append(
                "along roads: "
                + ", ".join(f"{k} {u.scale * points // c} hexes" for k, c in sorted(u.by_road.items()))
            )
        return MoveModel(
            budget=points * u.scale,
            enter=enter,
            step=step,
            stop=self._stops(state, u),
            no_end=no_end,
            why_not=why_not,
            scale=u.scale,
            rule=RULE_MOVE if mode == "extended" else RULE_TABLE,
            notes=tuple(notes),
        )

    def _stacking(self, state: MapState, unit: Piece) -> dict[Hex, str]:
        """Hexes the unit may pass but not end in: the stacking limit already met."""
        rules = self.rules
        if unit.type in rules.stacking_free:
            return {}
        counts: dict[Hex, int] = {}
        for p in state.pieces():
            if (
                p.kind == "unit"
                and p.id != unit.id
                and p.side == unit.side
                and p.type not in rules.stacking_free
            ):
                counts[p.hex] = counts.get(p.hex, 0) + 1
        limit = rules.stacking_limit
        return {
            h: f"{n} units already here: at most {limit} a hex, HQs and Generals free ({RULE_STACK})"
            for h, n in counts.items()
            if n >= limit and h != unit.hex
        }

    def _stops(self, state: MapState, u: _Unit) -> dict[Hex, str]:
        rules, board = self.rules, state.board
        table = rules.must_stop[u.mode]
        rule = table.get(u.piece.type, table.get(u.cls))
        if rule is None:
            return {}
        stop: dict[Hex, str] = {}
        if rule.terrain:
            for h in board.terrain:
                kind = state.terrain_at(h)
                if kind in rule.terrain and not road_kinds(board, h, rules.roads):
                    stop[h] = f"{kind} off road: must stop ({RULE_MOVE} EXT)"
        if rule.fields:
            for h, (key, intensity) in active_fields(state, rules, self.config).items():
                if intensity in rule.fields:
                    stop[h] = f"{intensity} field of fire of {key}: must stop ({RULE_MOVE} EXT)"
        return stop

    def _climb_cliff(self, state: MapState, u: _Unit, no_end: Mapping[Hex, str]) -> MoveModel:
        """A unit with a climb-cliff marker: its one move is across a scaleable cliff
        hexside next to it, which ends the move (omaha 6.1)."""
        rules, board = self.rules, state.board
        start = u.piece.hex
        cliffs = {k for k, row in rules.hexsides.items() if row[u.cls] == "climb-cliff"}
        enter: dict[Hex, int] = {}
        stop: dict[Hex, str] = {}
        after = "removes the marker" if u.mode == "extended" else "flips the marker to climb"
        for n in neighbors(start):
            if not board.grid.contains(n) or not board.hexside_features(start, n) & cliffs:
                continue
            kind = state.terrain_at(n)
            if kind not in rules.terrain or rules.terrain[kind][u.cls] == "prohibited":
                continue
            if any(p.side == self.config.german_side for p in state.units_at(n)):
                continue
            enter[n] = u.off_road  # only the start is expanded: n stops the move
            stop[n] = f"crossed the scaleable cliff: the crossing {after} and ends the move ({RULE_MOVE})"
        return MoveModel(
            budget=u.off_road,
            enter=enter,
            stop=stop,
            no_end=dict(no_end),
            scale=u.scale,
            rule=RULE_MOVE,
            notes=(
                f"climb-cliff marker: cross the scaleable cliff, or remove the marker and stay ({RULE_MOVE})",
            ),
        )

    # -- the whole move

    def judge(self, state: MapState, unit: Piece, result: Reach, order: str | None = None) -> Reach:
        """In a standard turn, crossing a bluff puts a climb marker on an infantry unit,
        which ends its move at the top (omaha 6.1): ends beyond it are refused. (Only a
        budget of more than one hex can reach beyond.)"""
        mode = self.mode(order)
        rules = self.rules
        if unit.kind != "unit" or unit.side == self.config.german_side:
            return result
        cls = rules.unit_class(unit)
        if mode == "extended" and rules.extended_needs_no_climb_marker:
            return result
        climbs = {k for k, row in rules.hexsides.items() if row[cls] == "climb"}
        if not climbs:
            return result
        board = state.board
        refused: dict[Hex, str] = {}
        for h in result.costs:
            path = result.path_to(h)
            for i, (a, b) in enumerate(pairwise(path)):
                crossed = board.hexside_features(a, b) & climbs
                if crossed and i < len(path) - 2:
                    refused[h] = (
                        f"crossing the {min(crossed)} at {board.label(b)} puts a climb marker on the unit, "
                        f"which ends its move ({RULE_MOVE})"
                    )
                    break
        return result.without(refused) if refused else result


def _road_between(board: Map, a: Hex, b: Hex, roads: Sequence[str]) -> str | None:
    """The road a step from ``a`` to ``b`` goes along (both hexes carry a road), or None.
    A road both carry wins (the faster, later in ``roads``); else the slower road of
    either (a junction)."""
    ra, rb = road_kinds(board, a, roads), road_kinds(board, b, roads)
    if not ra or not rb:
        return None
    common = [r for r in roads if r in ra and r in rb]
    if common:
        return common[-1]
    return next(r for r in roads if r in ra or r in rb)


def _marker_refusal(state: MapState, rules: MoveRules, cls: UnitClass, b: Hex) -> str | None:
    """omaha 9.4 rows for ground a hex marker makes (the "Mined Roads" row: a
    ``mined-road`` marker of the scenario): the marker's row of ``terrain`` applies
    too, until a ``road-cleared`` marker lies with it (omaha 7 road clearing; not the
    ``cleared`` marker of the obstacles in the same hex, issue 18 item 4)."""
    kinds = {m.type for m in state.markers_at(b)}
    if not kinds or str(attacks()["engineer_bases"]["road_cleared_marker"]) in kinds:
        return None
    for k in sorted(kinds & rules.terrain.keys()):
        if rules.terrain[k][cls] == "prohibited":
            return f"{k} in {state.board.label(b)}: no {cls} unit may enter ({RULE_TABLE})"
    return None


def _shingle_lane(state: MapState, a: Hex, b: Hex) -> bool:
    from .engineers import shingle_lane

    return shingle_lane(state, a, b)


def _rule_for(kind: str) -> str:
    return RULE_CHOICE if kind == "sea" else RULE_TABLE


def _still(reason: str) -> MoveModel:
    """A unit that may not move: only its own hex."""
    return MoveModel(budget=0, enter={}, rule=RULE_MOVE, notes=(reason,))


def move_policy(state: MapState) -> OmahaMovePolicy:
    """The registry's entry (``tabletop.games.move_policy``): standard turns by default."""
    return OmahaMovePolicy()
