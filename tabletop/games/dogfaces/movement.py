"""Movement for Dogfaces in Space (Dogfaces II and V), with the figures in ``movement.yaml``.

A unit moves its move units (2 for most soldiers; some soldiers and the vehicles have
their own) through hexes priced by the terrain table. Costs are kept in half move units
(``scale`` 2) so that a road step, half a unit, stays whole. The rules read here:

- Terrain (V, the table): the cost to enter each hex by its terrain; soldiers and
  vehicles have separate figures (vehicles may not enter swamp, pay 2 for forest);
  water may not be entered.
- Road (V): a step from a road hex to an adjacent road hex costs half a unit whatever
  the terrain under the road; entering a road hex from off the road costs its terrain.
- Units in the way (V, Movement and Stacking): friendly units may be passed through but
  not ended on; a friendly LCV may take up to two soldiers (II, Foxtrot); hexes with
  units of another side (or of no side) may not be entered.
- Bridge (V, the table: "other units cannot pass through"): an occupied bridge hex may
  not be entered at all, not even through a friend.
- Zones of control (V): entering a hex next to an enemy unit ends the move; a unit that
  starts next to one may leave, and stops again in the next such hex it enters.
- Jet pack (II, Charlie): ``jet_pack_targets`` gives the hexes 4-5 away in a straight
  line that the jet pack can land on, over any terrain and any unit in between.

Knows nothing of combat, overwatch fire or turn order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import lcm
from pathlib import Path
from typing import Any, Literal

from tabletop.datareader import Reader
from tabletop.engine.movement import BaseMovePolicy, MoveModel, MovePolicy, enemies_of
from tabletop.engine.pieces import MapState, Piece
from tabletop.hexgrid import DIRECTIONS, Hex, distance, hexes_within, neighbors, traverse
from tabletop.yamlfile import read_yaml

DATA_FILE = Path(__file__).with_name("movement.yaml")

RULE = "Dogfaces V (Movement)"
RULE_TERRAIN = "Dogfaces V (terrain)"
RULE_STACKING = "Dogfaces V (Stacking)"
RULE_ZOC = "Dogfaces V (Zones of Control)"
RULE_JET_PACK = "Dogfaces II (jet pack)"

JetLines = Literal["rows", "any"]


# --- the table ------------------------------------------------------------------------


@dataclass(frozen=True)
class TerrainCost:
    """Move units to enter one terrain: for soldiers and for vehicles (None: may not)."""

    soldier: Fraction | None
    vehicle: Fraction | None


@dataclass(frozen=True)
class MoveTable:
    """The figures of ``movement.yaml``, checked. Costs are in printed move units;
    ``scale`` is the number of cost units per move unit that keeps them all whole."""

    move_units: Mapping[str, int]
    vehicles: frozenset[str]
    terrain: Mapping[str, TerrainCost]
    road_feature: str
    road_along: Fraction
    bridge_terrain: str
    stacking_limit: int
    carriers: Mapping[str, int]
    zoc_negated_in: frozenset[str]
    cannot_move: frozenset[str]
    gone: frozenset[str]
    jet_types: frozenset[str]
    jet_min: int
    jet_max: int
    jet_lines: JetLines
    scale: int

    def units(self, cost: Fraction) -> int:
        """A cost in move units as whole cost units."""
        whole = cost * self.scale
        assert whole.denominator == 1, "scale keeps every table cost whole"
        return int(whole)

    def enter_cost(self, terrain: str, vehicle: bool) -> Fraction | None:
        """Move units to enter ``terrain`` (None: may not); ValueError for a terrain the
        table does not know."""
        try:
            spec = self.terrain[terrain]
        except KeyError:
            known = ", ".join(sorted(self.terrain))
            raise ValueError(
                f"terrain {terrain!r} has no Dogfaces movement cost in {DATA_FILE.name} (known: {known})"
            ) from None
        return spec.vehicle if vehicle else spec.soldier


class _Reader(Reader):
    """The reader of ``movement.yaml``: a Reader that also reads move costs."""

    def cost(self, key: str) -> Fraction | None:
        """Move units >= 0, exact; None (null): may not enter."""
        value = self.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise self.fail(
                key, f"must be a number of move units >= 0, or null (may not enter); got {value!r}"
            )
        return Fraction(str(value))


def load_table(path: Path | str = DATA_FILE) -> MoveTable:
    """Read and check a Dogfaces movement table; DataError names the file and line."""
    top = _Reader(path, read_yaml(Path(path)))
    top.only(
        "move_units", "vehicles", "terrain", "road", "bridge", "stacking", "zone_of_control",
        "cannot_move", "gone", "jet_pack",
    )  # fmt: skip
    units = top.sub("move_units")
    move_units = {str(k): units.whole(str(k)) for k in units.data}
    if "default" not in move_units:
        raise units.fail("default", "missing (the move units of a soldier with no figure of his own)")
    terrain_spec = top.sub("terrain")
    terrain: dict[str, TerrainCost] = {}
    for key in terrain_spec.data:
        value = terrain_spec.data[key]
        if isinstance(value, dict):
            spec = terrain_spec.sub(str(key))
            spec.only("soldier", "vehicle")
            terrain[str(key)] = TerrainCost(spec.cost("soldier"), spec.cost("vehicle"))
        else:
            cost = terrain_spec.cost(str(key))
            terrain[str(key)] = TerrainCost(cost, cost)
    road, bridge = top.sub("road"), top.sub("bridge")
    road.only("feature", "along")
    bridge.only("terrain")
    along = road.cost("along")
    if along is None:
        raise road.fail("along", "must be a number of move units")
    stacking = top.sub("stacking")
    stacking.only("limit", "carriers")
    carriers_spec = stacking.sub("carriers")
    carriers = {str(k): carriers_spec.whole(str(k)) for k in carriers_spec.data}
    zoc = top.sub("zone_of_control")
    zoc.only("negated_in")
    jet = top.sub("jet_pack")
    jet.only("types", "min", "max", "lines")
    jet_min, jet_max = jet.whole("min", minimum=1), jet.whole("max", minimum=1)
    if jet_max < jet_min:
        raise jet.fail("max", f"must be at least min ({jet_min}), got {jet_max}")
    lines = jet.word("lines")
    if lines not in ("rows", "any"):
        raise jet.fail("lines", f"must be rows or any, got {lines!r}")
    costs = [along] + [c for t in terrain.values() for c in (t.soldier, t.vehicle) if c is not None]
    return MoveTable(
        move_units=move_units,
        vehicles=top.words("vehicles"),
        terrain=terrain,
        road_feature=road.word("feature"),
        road_along=along,
        bridge_terrain=bridge.word("terrain"),
        stacking_limit=stacking.whole("limit", minimum=1),
        carriers=carriers,
        zoc_negated_in=zoc.words("negated_in"),
        cannot_move=top.words("cannot_move"),
        gone=top.words("gone"),
        jet_types=jet.words("types"),
        jet_min=jet_min,
        jet_max=jet_max,
        jet_lines=lines,  # type: ignore[arg-type]
        scale=lcm(*(c.denominator for c in costs)),
    )


@cache
def default_table() -> MoveTable:
    """The shipped ``movement.yaml``, read once."""
    return load_table(DATA_FILE)


# --- units ----------------------------------------------------------------------------


def unit_type(piece: Piece) -> str:
    """A piece's type as the table names it: lower case, a trailing number dropped.

    >>> unit_type(Piece("f1", "LCV 1", Hex(0, 0))), unit_type(Piece("c2", "Larry", Hex(0, 0)))
    ('lcv', 'larry')
    """
    return re.sub(r"[\s_-]*\d+$", "", piece.type.strip().lower())


def _check_unit(state: MapState, unit: Piece) -> None:
    if unit.kind != "unit":
        raise ValueError(f"piece {unit.id!r} is a marker, not a unit that moves")
    if not state.board.grid.contains(unit.hex):
        raise ValueError(f"unit {unit.id!r}: {unit.hex} is not on the map")


@dataclass(frozen=True)
class _Occupancy:
    """Which hexes other units close to ``unit``: not at all, or only as an end."""

    blocked: dict[Hex, str]
    no_end: dict[Hex, str]
    riders: list[str]


def _friends(unit: Piece, other: Piece) -> bool:
    return unit.side is not None and other.side == unit.side


def _occupancy(state: MapState, unit: Piece, table: MoveTable) -> _Occupancy:
    moving = unit_type(unit)
    soldier = moving not in table.vehicles
    by_hex: dict[Hex, list[Piece]] = {}
    for p in state.pieces():
        if p.kind == "unit" and p.id != unit.id and p.status.isdisjoint(table.gone):
            by_hex.setdefault(p.hex, []).append(p)
    blocked: dict[Hex, str] = {}
    no_end: dict[Hex, str] = {}
    for h, there in by_hex.items():
        ids = ", ".join(p.id for p in there)
        if not all(_friends(unit, p) for p in there):
            blocked[h] = f"occupied by {ids}: only friendly units may be passed through ({RULE})"
        elif state.terrain_at(h) == table.bridge_terrain:
            blocked[h] = f"{ids} on the bridge: other units cannot pass through ({RULE_TERRAIN})"
        elif not _may_end_with(moving, soldier, there, table):
            no_end[h] = f"stacking: {ids} already here ({RULE_STACKING})"
    riders = []
    if moving in table.carriers:
        riders = [p.id for p in by_hex.get(unit.hex, []) if unit_type(p) not in table.vehicles]
    return _Occupancy(blocked, no_end, riders)


def _may_end_with(moving: str, soldier: bool, there: list[Piece], table: MoveTable) -> bool:
    """Whether a unit of type ``moving`` may end its move among friendly units ``there``."""
    kinds = [unit_type(p) for p in there]
    carriers = [k for k in kinds if k in table.carriers]
    if soldier and carriers:
        riding = sum(1 for k in kinds if k not in table.vehicles)
        return riding < table.carriers[carriers[0]]
    return len(there) < table.stacking_limit


# --- the policy -----------------------------------------------------------------------


class DogfacesMovePolicy(BaseMovePolicy):
    """Dogfaces in Space movement (see the module docstring). No orders; no whole-move
    rules, so ``judge`` is the base one."""

    name = "Dogfaces in Space"

    def __init__(self, table: MoveTable | None = None) -> None:
        self.table = table if table is not None else default_table()
        # the ground's part of a model, per map, ground changes and kind of mover: it does
        # not change while units move (issue 19: the bots plan thousands of moves a game)
        self._ground: dict[tuple[int, tuple[tuple[Hex, str], ...], bool], _Ground] = {}

    def _ground_of(self, state: MapState, vehicle: bool) -> _Ground:
        board = state.board
        key = (id(board), tuple(sorted(state.terrain_overrides().items())), vehicle)
        found = self._ground.get(key)
        if found is not None and found.board is board:
            return found
        t = self.table
        who = "vehicles" if vehicle else "soldiers"
        enter: dict[Hex, int] = {}
        why_not: dict[Hex, str] = {}
        by_kind: dict[str, int | None] = {}  # each terrain's cost worked out once
        for h in board.terrain:
            kind = state.terrain_at(h)
            if kind not in by_kind:
                cost = t.enter_cost(kind, vehicle)
                by_kind[kind] = None if cost is None else t.units(cost)
            units = by_kind[kind]
            if units is None:
                why_not[h] = f"{who} cannot enter {kind} ({RULE_TERRAIN})"
            else:
                enter[h] = units
        road = board.features.get(t.road_feature)
        pairs: list[tuple[Hex, Hex]] = []
        if road is not None:
            pairs = [
                (h, n)
                for h in road.hexes
                for n in neighbors(h)
                if n in road.hexes and not _nobody_enters(state, n, t)
            ]
        zoc_free = frozenset(h for h in board.terrain if state.terrain_at(h) in t.zoc_negated_in)
        if len(self._ground) > 16:
            self._ground.clear()
        found = self._ground[key] = _Ground(board, enter, why_not, tuple(pairs), zoc_free)
        return found

    def move_units(self, unit: Piece) -> int:
        """The unit's move units per turn (II)."""
        units = self.table.move_units
        return units.get(unit_type(unit), units["default"])

    def model(
        self, state: MapState, unit: Piece, order: str | None = None, budget: int | None = None
    ) -> MoveModel:
        _check_unit(state, unit)
        if order is not None:
            raise ValueError(f"Dogfaces in Space has no move orders; got order {order!r}")
        if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget < 0):
            raise ValueError(f"budget must be a whole number of move units >= 0, got {budget!r}")
        t = self.table
        board = state.board
        vehicle = unit_type(unit) in t.vehicles
        ground = self._ground_of(state, vehicle)
        enter, why_not = dict(ground.enter), dict(ground.why_not)
        occupied = _occupancy(state, unit, t)
        for h, why in occupied.blocked.items():
            enter.pop(h, None)
            why_not[h] = why
        stop: dict[Hex, str] = {}
        for enemy in enemies_of(state, unit):
            if not enemy.status.isdisjoint(t.gone):
                continue
            for n in neighbors(enemy.hex):
                if board.grid.contains(n) and n not in ground.zoc_free:
                    stop.setdefault(n, f"next to enemy {enemy.id} ({RULE_ZOC})")
        road_cost = t.units(t.road_along)
        blocked = occupied.blocked
        step: dict[tuple[Hex, Hex], int | None] = {pair: road_cost for pair in ground.road if pair[1] not in blocked}
        for (_, n), along in list(step.items()):
            if n not in enter and n not in occupied.blocked and along is not None:
                # closed by its terrain (a vehicle and swamp), open along the road: the
                # hex may be entered, but only by a road step
                enter[n] = along
                why_not.pop(n, None)
                for m in neighbors(n):
                    step.setdefault((m, n), None)
        notes = [f"{self.move_units(unit)} move units; costs counted in 1/{t.scale} units"]
        if occupied.riders:
            notes.append(f"riding with it, and moving with it: {', '.join(occupied.riders)}")
        if unit.has("overwatch"):
            notes.append("moving ends Overwatch (V, Overwatch)")
        points = self.move_units(unit) if budget is None else budget
        if not unit.status.isdisjoint(t.cannot_move):
            words = ", ".join(sorted(unit.status & t.cannot_move))
            notes.append(f"{words}: does not move")
            points = 0
        return MoveModel(
            points * t.scale,
            enter,
            step=step,
            stop=stop,
            no_end=occupied.no_end,
            why_not=why_not,
            scale=t.scale,
            rule=RULE,
            notes=tuple(notes),
        )



@dataclass(frozen=True)
class _Ground:
    """What a map's ground says of a move whoever stands where: the hexes a mover may
    enter and at what cost, those it may not and why, the road's steps (pairs of road
    hexes), and the hexes where an enemy's zone of control does not reach."""

    board: Any
    enter: Mapping[Hex, int]
    why_not: Mapping[Hex, str]
    road: tuple[tuple[Hex, Hex], ...]
    zoc_free: frozenset[Hex]


def _nobody_enters(state: MapState, h: Hex, table: MoveTable) -> bool:
    spec = table.terrain.get(state.terrain_at(h))
    return spec is not None and spec.soldier is None and spec.vehicle is None


def move_policy(state: MapState) -> MovePolicy:
    """The Dogfaces movement policy (the registry's entry point; the same for every map)."""
    return DogfacesMovePolicy()


# --- the jet pack ---------------------------------------------------------------------


def has_jet_pack(unit: Piece, table: MoveTable | None = None) -> bool:
    """Whether ``unit`` wears a jet pack (II, Charlie: Larry)."""
    t = table if table is not None else default_table()
    return unit_type(unit) in t.jet_types


def jet_pack_targets(state: MapState, unit: Piece, *, table: MoveTable | None = None) -> dict[Hex, str]:
    """The hexes ``unit`` can land on with his jet pack, each with a note of the flight.

    II (Charlie): 4-5 hexes in a straight line, across any terrain. With ``lines: rows``
    (the shipped reading) the line runs along one of the six hex directions; with
    ``lines: any`` it is the straight centre-to-centre line to any hex 4-5 away, flying
    over every hex it touches (``tabletop.hexgrid.traverse``). The hexes flown over may
    hold any terrain, friends or enemies, and their zones of control do not stop the
    flight. The landing hex must be on the map, enterable by a soldier (not water), free
    to end in (stacking, an occupied bridge), and may lie next to an enemy. The jet pack
    replaces the walk for that turn (see ``movement.yaml``). A unit that may not move
    (stunned, ...) has no targets. ValueError if ``unit`` has no jet pack.
    """
    t = table if table is not None else default_table()
    _check_unit(state, unit)
    if not has_jet_pack(unit, t):
        raise ValueError(
            f"unit {unit.id!r} ({unit.type}) has no jet pack (jet_pack.types: {sorted(t.jet_types)})"
        )
    if not unit.status.isdisjoint(t.cannot_move):
        return {}
    board = state.board
    on_map = board.grid.contains
    occupied = _occupancy(state, unit, t)
    vehicle = unit_type(unit) in t.vehicles
    enemies = [e for e in enemies_of(state, unit) if e.status.isdisjoint(t.gone)]
    flights: list[tuple[Hex, list[Hex], str]] = []
    start = unit.hex
    if t.jet_lines == "rows":
        for i, d in enumerate(DIRECTIONS):
            for k in range(t.jet_min, t.jet_max + 1):
                over = [start + d.scale(j) for j in range(1, k)]
                flights.append((start + d.scale(k), over, f"{k} hexes in direction {i}"))
    else:
        for h in hexes_within(start, t.jet_max):
            k = distance(start, h)
            if k >= t.jet_min:
                line = traverse(start, h)
                over = list(line.crossed[1:-1]) + [g.hex for g in line.grazed if on_map(g.hex)]
                flights.append((h, over, f"{k} hexes in a straight line"))
    out: dict[Hex, str] = {}
    for land, over, how in flights:
        if not on_map(land) or not all(on_map(h) for h in over):
            continue
        kind = board.terrain[land]
        if t.enter_cost(kind, vehicle) is None or land in occupied.blocked or land in occupied.no_end:
            continue
        note = f"jet pack: {how} over " + ", ".join(f"{board.label(h)} {board.terrain[h]}" for h in over)
        near = [e.id for e in enemies if distance(e.hex, land) == 1]
        if near:
            note += f"; lands next to enemy {', '.join(near)}"
        out[land] = note + f" ({RULE_JET_PACK})"
    return out
