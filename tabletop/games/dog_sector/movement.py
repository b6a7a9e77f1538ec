"""DOG SECTOR movement: American units in phase 5 (American Beach Activity).

Knows the phase 5 movement rules: AP costs by terrain (sea and bluff cost more), who may
enter a pinned-down hex, one unit of each type a hex (none on the landing row), passing
through stacks but not through pinned-down ones, and what beach obstacles (markers)
do to a unit entering their hex: barbed wire that only tanks and dozers cross, land
mines whose explosion check ends the move. The figures, and the project's choices where
the text is silent (AP per unit type, who may cross which obstacle), live in
``movement.yaml`` beside this module.

Phase 5 names no zones of control, so there are none: a unit may walk past German
positions (it may not enter a German-held hex, the project's choice).

Knows nothing of dice, of the obstacle-removal and EL actions themselves (spending AP to
clear a hex or flip a unit), or of German procedures: German units do not move here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from tabletop.board import Map
from tabletop.datareader import Reader
from tabletop.engine.movement import (
    BaseMovePolicy,
    HexIndex,
    IndexedModel,
    MoveModel,
    Reach,
    reach,
    reach_indexed,
)
from tabletop.engine.pieces import MapState, Piece
from tabletop.hexgrid import Hex
from tabletop.yamlfile import LineDict, read_yaml

DATA = Path(__file__).with_name("movement.yaml")
RULE = "DOG SECTOR phase 5"


# --------------------------------------------------------------------------- the data


@dataclass(frozen=True)
class UnitEffect:
    """What an obstacle does to one unit type entering its hex: ``extra`` AP on top of
    the terrain cost, or barred (``extra`` None)."""

    extra: int | None
    note: str = ""


_BARRED, _FREE = UnitEffect(None), UnitEffect(0)  # the effects of an obstacle's line for other types


@dataclass(frozen=True)
class ObstacleRule:
    """One kind of beach obstacle marker and what it does to units entering its hex."""

    type: str
    rule: str
    others_barred: bool
    why_barred: str
    stop: str
    units: Mapping[str, UnitEffect]

    def effect(self, unit_type: str) -> UnitEffect:
        """The effect on ``unit_type``: its own line, else the rule for other types."""
        return self.units.get(unit_type, _BARRED if self.others_barred else _FREE)


@dataclass(frozen=True)
class MoveTables:
    """Everything ``movement.yaml`` holds, validated."""

    terrain_costs: Mapping[str, int]
    moving_side: str
    action_points: Mapping[str, int]
    cannot_move: frozenset[str]
    pinned_status: str
    pinned_may_enter: frozenset[str]
    pinned_stop: str
    one_of_each_type: bool
    unlimited_region_kinds: frozenset[str]
    enemy_hexes: str
    cleared_marker: str
    obstacles: Mapping[str, ObstacleRule]


class _Reader(Reader):
    """Validation of ``movement.yaml`` into frozen dataclasses; DataError names the line."""

    def numbers(self, node: LineDict, key: str) -> dict[str, int]:
        """The mapping at ``node[key]`` of names to whole numbers, 0 or more."""
        table = self.mapping(node[key], key, node.key_lines[key], None)
        return {k: self.whole_in(table, k, key, 0) for k in table}

    def obstacle(self, key: str, node: Any, line: int) -> ObstacleRule:
        where = f"obstacles.{key}"
        node = self.mapping(node, where, line, ("rule", "others", "why_barred", "stop", "units"), ("rule",))
        others = node.get("others", "enter")
        if others not in ("enter", "barred"):
            raise self.error(node.key_lines.get("others"), f"{where}.others must be enter or barred")
        units: dict[str, UnitEffect] = {}
        if "units" in node:
            table = self.mapping(node["units"], f"{where}.units", node.key_lines["units"], None)
            for unit_type, value in table.items():
                w, at = f"{where}.units.{unit_type}", table.key_lines[unit_type]
                if value == "barred":
                    units[unit_type] = UnitEffect(None)
                    continue
                effect = self.mapping(
                    value, f"{w} (barred, or {{extra: N, note: ...}})", at, ("extra", "note")
                )
                note = self.word_in(effect, "note", w, "text") if "note" in effect else ""
                units[unit_type] = UnitEffect(self.whole_in(effect, "extra", w, 0), note)
        barred = others == "barred" or any(e.extra is None for e in units.values())
        if barred and "why_barred" not in node:
            raise self.error(node.line, f"{where}: a barred unit needs `why_barred:` saying why")
        return ObstacleRule(
            type=key,
            rule=self.word_in(node, "rule", where, "text"),
            others_barred=others == "barred",
            why_barred=self.word_in(node, "why_barred", where, "text") if "why_barred" in node else "",
            stop=self.word_in(node, "stop", where, "text") if "stop" in node else "",
            units=MappingProxyType(units),
        )

    def tables(self) -> MoveTables:
        keys = ("terrain_costs", "moving_side", "action_points", "cannot_move", "pinned_down", "stacking",
                "enemy_hexes", "cleared_marker", "obstacles")  # fmt: skip
        top = self.mapping(self.data, "the file", 1, keys, keys)
        pinned = self.mapping(
            top["pinned_down"], "pinned_down", top.key_lines["pinned_down"], ("status", "may_enter", "stop"),
            ("status", "may_enter", "stop"),
        )  # fmt: skip
        stacking = self.mapping(
            top["stacking"], "stacking", top.key_lines["stacking"], ("one_of_each_type", "unlimited_region_kinds"),
            ("one_of_each_type", "unlimited_region_kinds"),
        )  # fmt: skip
        if not isinstance(stacking["one_of_each_type"], bool):
            raise self.error(stacking.key_lines["one_of_each_type"], "one_of_each_type must be true or false")
        action_points = self.numbers(top, "action_points")
        obstacles_node = self.mapping(top["obstacles"], "obstacles", top.key_lines["obstacles"], None)
        obstacles = {k: self.obstacle(k, v, obstacles_node.key_lines[k]) for k, v in obstacles_node.items()}
        for ob in obstacles.values():
            for unit_type in ob.units:
                if unit_type not in action_points:
                    raise self.error(
                        obstacles_node.key_lines[ob.type],
                        f"obstacles.{ob.type}.units: {unit_type!r} is not a unit type of action_points",
                    )
        may_enter = frozenset(self.words_in(pinned, "may_enter", "pinned_down"))
        for unit_type in may_enter:
            if unit_type not in action_points:
                raise self.error(
                    pinned.key_lines["may_enter"],
                    f"pinned_down.may_enter: {unit_type!r} is no unit type",
                )
        return MoveTables(
            terrain_costs=MappingProxyType(self.numbers(top, "terrain_costs")),
            moving_side=self.word_in(top, "moving_side", "the file", "text"),
            action_points=MappingProxyType(action_points),
            cannot_move=frozenset(self.words_in(top, "cannot_move", "the file")),
            pinned_status=self.word_in(pinned, "status", "pinned_down", "text"),
            pinned_may_enter=may_enter,
            pinned_stop=self.word_in(pinned, "stop", "pinned_down", "text"),
            one_of_each_type=stacking["one_of_each_type"],
            unlimited_region_kinds=frozenset(self.words_in(stacking, "unlimited_region_kinds", "stacking")),
            enemy_hexes=self.word_in(top, "enemy_hexes", "the file", "text"),
            cleared_marker=self.word_in(top, "cleared_marker", "the file", "text"),
            obstacles=MappingProxyType(obstacles),
        )


def read_tables(path: Path) -> MoveTables:
    """Read and validate a ``movement.yaml``; DataError names the line of any problem."""
    return _Reader(path, read_yaml(path), line=1).tables()


@cache
def tables() -> MoveTables:
    """The shipped ``movement.yaml`` beside this module, read once."""
    return read_tables(DATA)


# ----------------------------------------------------------------------- the policy


@dataclass(frozen=True)
class _Ground:
    """What a map gives every move: the AP to enter each hex, and the unlimited-stacking hexes."""

    board: Map
    enter: Mapping[Hex, int]
    unlimited: frozenset[Hex]
    index: HexIndex  # the hexes of ``enter`` numbered, for ``reach_indexed``
    cost: tuple[int | None, ...]  # ``enter`` by those numbers


class DogSectorMovePolicy(BaseMovePolicy):
    """DOG SECTOR phase 5 movement for one American unit (no whole-move rules)."""

    name = "DOG SECTOR"

    def __init__(self, move_tables: MoveTables | None = None) -> None:
        self.tables = move_tables if move_tables is not None else tables()
        self._ground: _Ground | None = None
        # (unit type, side) -> hex -> (the pieces there, what the hex does to such a unit)
        self._effects: dict[tuple[str, str | None], dict[Hex, tuple[list[Piece], _HexEffect]]] = {}
        self._whole: dict[tuple[str, str | None], _Whole] = {}  # (unit type, side) -> every hex's effect
        self._obstacle_kinds = frozenset(self.tables.obstacles)

    def ground(self, board: Map) -> _Ground:
        """Terrain costs and unlimited-stacking hexes of ``board``, worked out once per map;
        ValueError naming any terrain the table does not cost."""
        if self._ground is None or self._ground.board is not board:
            costs = self.tables.terrain_costs
            unknown = sorted(set(board.terrain.values()) - set(costs))
            if unknown:
                raise ValueError(
                    f"map {board.name!r}: terrain {', '.join(unknown)} has no DOG SECTOR movement cost "
                    f"(known: {', '.join(costs)}; see {DATA.name})"
                )
            enter = {h: costs[kind] for h, kind in board.terrain.items()}
            kinds = self.tables.unlimited_region_kinds
            unlimited = frozenset(h for r in board.regions.values() if r.kind in kinds for h in r.hexes)
            index = HexIndex.of(enter)
            self._ground = _Ground(board, enter, unlimited, index, tuple(enter.get(h) for h in index.hexes))
            self._effects.clear()  # (another map)
            self._whole.clear()
        return self._ground

    def allowance(self, unit: Piece, budget: int | None) -> tuple[int, str]:
        """The unit's AP for this move and, when it gets none, why."""
        t = self.tables
        if unit.kind != "unit":
            raise ValueError(f"{unit.id!r} is a marker, not a unit: markers do not move")
        if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget < 0):
            raise ValueError(f"budget must be a whole number of AP, 0 or more, got {budget!r}")
        if unit.side != t.moving_side:
            return 0, f"{unit.id}: only {t.moving_side} units move in {RULE} (project's choice)"
        if unit.type not in t.action_points:
            raise ValueError(
                f"{unit.id}: unit type {unit.type!r} has no DOG SECTOR action points "
                f"(known: {', '.join(t.action_points)}; see {DATA.name})"
            )
        held = sorted(unit.status & t.cannot_move)
        if held:
            return 0, f"{unit.id} is {' and '.join(held)} and does not move (project's choice)"
        return (t.action_points[unit.type] if budget is None else budget), ""

    def model(
        self, state: MapState, unit: Piece, order: str | None = None, budget: int | None = None
    ) -> MoveModel:
        """The AP costs, stops and stacking limits for ``unit``; ``budget`` replaces its
        table AP. DOG SECTOR has no movement orders: ``order`` must be None.

        What a hex does to the unit depends only on the unit's type and side and on the
        pieces in that hex, so each hex's effect is remembered with those pieces and
        worked out again only when they change (issue 19: a bot asks a model after every
        move, and a move changes one or two hexes)."""
        if order is not None:
            raise ValueError(f"DOG SECTOR has no movement orders, got {order!r}")
        board = state.board
        ground = self.ground(board)
        points, why_still = self.allowance(unit, budget)
        notes = [why_still] if why_still else []
        enter = dict(ground.enter)
        stop: dict[Hex, str] = {}
        no_end: dict[Hex, str] = {}
        why_not: dict[Hex, str] = {}
        noted: set[str] = set()
        effects = self._effects.get((unit.type, unit.side))
        if effects is None:
            effects = self._effects[(unit.type, unit.side)] = {}
        get, pieces_at, start = effects.get, state.pieces_at, unit.hex
        try:  # where the map holds this unit, if not where it is asked about (a bot's "what if")
            itself = state.piece(unit.id).hex
        except KeyError:
            itself = None
        for h in {p.hex for p in state.pieces()}:
            if h == start:
                continue  # the start is never entered
            here = pieces_at(h)  # units and markers, read once (a bot asks for many models)
            cached = get(h)
            if h == itself:  # the unit itself is not another unit there: not its type's effect
                effect = self._hex_effect(board, h, here, unit)
            elif cached is not None and cached[0] == here:  # (the same pieces: an identity test each)
                effect = cached[1]
            else:
                effect = self._hex_effect(board, h, here, unit)
                effects[h] = (here, effect)
            if effect[5]:  # obstacle kinds with a note for this unit type
                for k in effect[5]:
                    if k not in noted:
                        noted.add(k)
                        notes.append(self._note(k, unit.type))
            _add_effect(h, effect, enter, stop, no_end, why_not)
        return MoveModel(
            points, enter, stop=stop, no_end=no_end, why_not=why_not, rule=RULE, notes=tuple(notes)
        )

    def reach_model(self, state: MapState, unit: Piece, budget: int | None = None) -> MoveModel:
        """``model(state, unit, budget=budget)`` with the same costs, stops, no-end and
        barred hexes and the same notes, built from every occupied hex's effect on the
        unit's type kept across map versions (only the hexes changed since are read
        again, ``MapState.changed_since``), so a model costs a few dict copies instead
        of a pass over every piece (issue 19 item 1: the bot asks one after every move).
        Only the order of the dicts may differ from ``model``'s, which the reach
        search never reads."""
        board = state.board
        ground = self.ground(board)
        points, why_still = self.allowance(unit, budget)
        whole = self._whole_effects(state, unit.type, unit.side)
        start = unit.hex
        try:
            itself: Hex | None = state.piece(unit.id).hex
        except KeyError:
            itself = None
        hexes = ground.index.hexes
        enter = {h: c for h, c in zip(hexes, whole.cost, strict=True) if c is not None}
        stop = {hexes[i]: why for i, why in whole.stop.items()}
        no_end = {hexes[i]: why for i, why in whole.no_end.items()}
        why_not = {hexes[i]: why for i, why in whole.why_not.items()}
        own: _HexEffect | None = None
        # the start is never entered; the unit's own hex is read without the unit
        for h in (start, itself):
            if h is not None:
                if h in ground.enter:
                    enter[h] = ground.enter[h]
                stop.pop(h, None)
                no_end.pop(h, None)
                why_not.pop(h, None)
        if itself is not None and itself != start:
            own = self._hex_effect(board, itself, state.pieces_at(itself), unit)
            _add_effect(itself, own, enter, stop, no_end, why_not)
        notes = self._reach_notes(state, unit, whole, itself, own, why_still)
        return MoveModel(points, enter, stop=stop, no_end=no_end, why_not=why_not, rule=RULE, notes=notes)

    def reach(self, state: MapState, unit: Piece, budget: int | None = None) -> Reach:
        """``plan_move(state, self, unit, budget=budget)``: the same reach, its dicts in the
        same order, searched by hex numbers (``reach_indexed``) over the effects
        ``reach_model`` keeps across map versions, with no model copied (issue 19 item 1:
        the bot asks a reach after every move). A unit asked about away from where the
        map holds it (a bot's "what if") takes ``reach_model``'s way."""
        ground = self.ground(state.board)
        start = unit.hex
        try:
            itself: Hex | None = state.piece(unit.id).hex
        except KeyError:
            itself = None
        if (itself is not None and itself != start) or start not in ground.index.ids:
            return self.judge(state, unit, reach(self.reach_model(state, unit, budget), start, unit.id))
        points, why_still = self.allowance(unit, budget)
        whole = self._whole_effects(state, unit.type, unit.side)
        # the start's own effects are never read: the search neither enters nor stops there
        notes = self._reach_notes(state, unit, whole, itself, None, why_still)
        model = IndexedModel(ground.index, points, whole.cost, whole.stop, whole.no_end, notes=notes)
        return self.judge(state, unit, reach_indexed(model, start, unit.id))

    def _reach_notes(
        self,
        state: MapState,
        unit: Piece,
        whole: _Whole,
        itself: Hex | None,
        own: _HexEffect | None,
        why_still: str,
    ) -> tuple[str, ...]:
        """A model's notes as ``model`` writes them: why the unit gets no AP, then each
        obstacle kind noted for its type, in the order ``model`` meets their hexes."""
        notes = [why_still] if why_still else []
        if whole.noting or (own is not None and own[5]):
            noted: set[str] = set()
            for h in {p.hex for p in state.pieces()}:  # the order ``model`` notes them in
                if h == unit.hex:
                    continue
                kinds = own[5] if h == itself and own is not None else whole.noting.get(h, ())
                for k in kinds:
                    if k not in noted:
                        noted.add(k)
                        notes.append(self._note(k, unit.type))
        return tuple(notes)

    def _whole_effects(self, state: MapState, unit_type: str, side: str | None) -> _Whole:
        """What every occupied hex does to a unit of ``unit_type`` and ``side`` that is
        not in it, brought up to this map version: the hexes changed since the last
        version seen are read again, all of them on another map or when the map no
        longer remembers that far back."""
        whole = self._whole.get((unit_type, side))
        if whole is not None and whole.map is state and whole.version == state.version:
            return whole
        changed = state.changed_since(whole.version) if whole is not None and whole.map is state else None
        ground = self.ground(state.board)
        base = ground.cost
        if whole is None or changed is None:
            probe = Piece(_PROBE, unit_type, next(iter(ground.enter)), side=side)  # nobody on the map
            whole = self._whole[(unit_type, side)] = _Whole(state, state.version, list(base), probe)
            changed = {p.hex for p in state.pieces()}
        probe = whole.probe
        board, ids, pieces_at, hex_effect = state.board, ground.index.ids, state.pieces_at, self._hex_effect
        cost, stop, no_end, why_not = whole.cost, whole.stop, whole.no_end, whole.why_not
        for h in changed:  # each hex's part written afresh from what it holds now
            here = pieces_at(h)
            effect = hex_effect(board, h, here, probe) if here else _NOTHING
            i = ids[h]  # (every hex of the map has ground)
            if effect[0]:  # barred
                cost[i] = None
                why_not[i] = str(effect[4])
                stop.pop(i, None)
                no_end.pop(i, None)
            else:
                c = base[i]
                cost[i] = c + effect[1] if c is not None else None
                why_not.pop(i, None)
                if effect[2] is None:
                    stop.pop(i, None)
                else:
                    stop[i] = effect[2]
                if effect[3] is None:
                    no_end.pop(i, None)
                else:
                    no_end[i] = effect[3]
            if effect[5]:
                whole.noting[h] = effect[5]
            else:
                whole.noting.pop(h, None)
        whole.version = state.version
        return whole

    def _note(self, kind: str, unit_type: str) -> str:
        ob = self.tables.obstacles[kind]
        return f"{kind}: a {unit_type} entering its hex {ob.effect(unit_type).note} ({ob.rule})"

    def _hex_effect(self, board: Map, h: Hex, here: list[Piece], unit: Piece) -> _HexEffect:
        """What hex ``h`` holding ``here`` does to ``unit`` entering it (phase 5): barred
        (with why), or the extra AP, the stop and the no-end reasons, and the obstacle
        kinds whose note it gives, in the order the rules read them."""
        t = self.tables
        stop: str | None = None
        no_end: str | None = None
        # the other units (any of another side, any pinned down, any of this type) and
        # the marker types, read in one pass (a bot's models read thousands of hexes)
        others = enemy = pinned = same = False
        markers: set[str] = set()
        for p in here:
            if p.kind == "marker":
                markers.add(p.type)
            elif p.kind == "unit" and p.id != unit.id:
                others = True
                enemy = enemy or bool(p.side and unit.side and p.side != unit.side)
                pinned = pinned or t.pinned_status in p.status
                same = same or p.type == unit.type
        if others:
            label = board.label(h)
            if enemy:
                return (True, 0, None, None, f"{label}: {t.enemy_hexes}", ())
            if pinned:
                if unit.type not in t.pinned_may_enter:
                    why = f"{label}: pinned-down hex; only {' and '.join(sorted(t.pinned_may_enter))} may enter ({RULE})"
                    return (True, 0, None, None, why, ())
                stop = t.pinned_stop
            if t.one_of_each_type and same and h not in self.ground(board).unlimited:
                no_end = (
                    f"{label} already holds a {unit.type}: one unit of each type a hex ({RULE}, stacking)"
                )
        if not markers or t.cleared_marker in markers:
            return (False, 0, stop, no_end, None, ())
        label = board.label(h)
        extra = 0
        kinds: list[str] = []
        for kind in sorted(markers & self._obstacle_kinds):
            ob = t.obstacles[kind]
            effect = ob.effect(unit.type)
            if effect.extra is None:
                return (True, 0, None, None, f"{label}: {ob.why_barred} ({ob.rule})", tuple(kinds))
            extra += effect.extra
            if effect.note:
                kinds.append(kind)
            if ob.stop:
                stop = f"{stop}; {ob.stop}" if stop is not None else ob.stop
        return (False, extra, stop, no_end, None, tuple(kinds))


# barred, extra AP, stop reason, no-end reason, why barred, obstacle kinds noted
_HexEffect = tuple[bool, int, "str | None", "str | None", "str | None", tuple[str, ...]]
_NOTHING: _HexEffect = (False, 0, None, None, None, ())  # what an empty hex does
_PROBE = "\x00nobody"  # the id of the unit asked about in ``_whole_effects``: no piece has it


@dataclass
class _Whole:
    """Every occupied hex's effect on one unit type and side, at one map version, and
    the model parts they make (``DogSectorMovePolicy.reach_model``)."""

    map: MapState
    version: int
    cost: list[int | None]  # by the ground's hex numbers: the AP to enter (None: barred)
    probe: Piece  # a unit of the type and side that no piece on the map is: what reads each hex
    stop: dict[int, str] = field(default_factory=dict)  # hex number -> why a move ends there
    no_end: dict[int, str] = field(default_factory=dict)  # hex number -> why no move ends there
    why_not: dict[int, str] = field(default_factory=dict)  # hex number -> why it is barred
    noting: dict[Hex, tuple[str, ...]] = field(default_factory=dict)  # obstacle kinds noted


def _add_effect(
    h: Hex,
    effect: _HexEffect,
    enter: dict[Hex, int],
    stop: dict[Hex, str],
    no_end: dict[Hex, str],
    why_not: dict[Hex, str],
) -> None:
    """Hex ``h``'s effect written into a model's parts, as ``model`` writes it."""
    if effect[0]:  # barred
        enter.pop(h, None)
        why_not[h] = str(effect[4])  # a barred hex always says why
        return
    if effect[1] and h in enter:
        enter[h] += effect[1]
    if effect[2] is not None:
        stop[h] = effect[2]
    if effect[3] is not None:
        no_end[h] = effect[3]


def move_policy(state: MapState) -> DogSectorMovePolicy:
    """The DOG SECTOR movement policy (the registry's entry; the same for every map)."""
    return DogSectorMovePolicy()
