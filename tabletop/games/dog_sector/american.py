"""DOG SECTOR: the American player's actions, phase 5 (American Beach Activity) and
phase 6 (American Fire).

Knows the actions of the plan's vocabulary (``ACTIONS``) and, for each, who may take
it, what it costs, what it rolls and what it changes:

- phase 5: ``move`` (the reach of ``DogSectorMovePolicy`` with the AP left; a tank or
  dozer removes the obstacles it may remove on entry, Table 5; a unit entering a live
  land-mine hex makes the Land Mine Explosion Check), ``restore`` and ``unpin`` (an
  exceptional leader's 1-AP actions), ``clear`` (Table 5: an obstacle in an adjacent
  hex; an optional ``"obstacle": type`` key picks one where a hex holds several) and
  ``bangalore`` (a CE team's torpedo: two obstacles at once);
- phase 6: ``fire`` (legality from ``DogSectorPolicy``: line of sight, sections, ranges,
  firing positions; target types and hit numbers from Table 6; Friendly Fire).

AP spent is the track ``ap-spent:<id>`` against the unit type's AP in movement.yaml;
the ruleset clears the turn's tracks and marks. The figures and the project's choices
live in ``american.yaml`` beside this module; ranges and positions stay in los.yaml,
AP, costs and stacking in movement.yaml, steps and what a hit does in hits.yaml.

Knows nothing of the turn sequence, German fire or the other phases' procedures.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from tabletop.board import Map
from tabletop.datareader import Reader
from tabletop.engine.counters import counters_for
from tabletop.engine.dice import Dice
from tabletop.engine.los import LosQuery, LosResult, line_of_sight
from tabletop.engine.movement import Reach
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance, neighbors
from tabletop.yamlfile import read_yaml

from . import hits
from .los import DogSectorPolicy
from .los import tables as los_tables
from .movement import DogSectorMovePolicy, MoveTables
from .movement import tables as move_tables

Action = dict[str, Any]  # the engine's Action (plain JSON data)

DATA = Path(__file__).with_name("american.yaml")
RULES = "dog_sector"
ACTIVITY = "activity"
FIRE = "american-fire"
ACTIONS: frozenset[str] = frozenset({"move", "restore", "unpin", "clear", "bangalore", "fire"})
PHASE_OF = {"move": ACTIVITY, "restore": ACTIVITY, "unpin": ACTIVITY, "clear": ACTIVITY,
            "bangalore": ACTIVITY, "fire": FIRE}  # fmt: skip
PHASE_NAME = {ACTIVITY: "phase 5 (American Beach Activity)", FIRE: "phase 6 (American Fire)"}
AP_TRACK = "ap-spent"
UNLIMITED = 999  # a budget no move reaches: to tell "too far" from "no way there"


# --------------------------------------------------------------------------- the data


@dataclass(frozen=True)
class Removal:
    """One cell of Table 5: ``ap`` to remove the obstacle, aimed at an adjacent hex
    (a ``clear`` action) or done on entering its hex (a move)."""

    ap: int
    how: Literal["adjacent", "entry"]


@dataclass(frozen=True)
class Remover:
    """One column of Table 5: a unit type and what it may remove (None: NA)."""

    type: str
    name: str
    full_strength: bool
    with_leader: bool
    cells: Mapping[str, Removal | None]


@dataclass(frozen=True)
class FireLine:
    """One line of Table 6: target types (None: all), the hit number and its bonus."""

    type: str
    targets: frozenset[str] | None
    excepted: frozenset[str]
    hit: int
    bonus_hit: int | None
    bonus_in_range: bool
    bonus_against: frozenset[str]

    def may_target(self, target_type: str) -> bool:
        allowed = self.targets is None or target_type in self.targets
        return allowed and target_type not in self.excepted

    def targets_text(self) -> str:
        if self.targets is None:
            return "all" + (f" except {', '.join(sorted(self.excepted))}" if self.excepted else "")
        return " or ".join(sorted(self.targets))


@dataclass(frozen=True)
class AmericanTables:
    """Everything ``american.yaml`` holds, validated."""

    side: str
    activity_rule: str
    held_by: frozenset[str]
    leader: str
    restore_ap: int
    restore_target: str
    unpin_ap: int
    removal_rule: str
    obstacles: tuple[str, ...]
    removers: Mapping[str, Remover]
    bangalore_unit: str
    bangalore_ap: int
    bangalore_track: str
    mine_rule: str
    mine_marker: str
    mine_explodes: frozenset[int]
    fire_rule: str
    fire_table: str
    fire_held_by: frozenset[str]
    fired_mark: str
    fire_units: Mapping[str, FireLine]
    ff_rule: str
    ff_units: frozenset[str]
    ff_not_adjacent: frozenset[str]
    ff_radius: int


class _Reader(Reader):
    """Validation of ``american.yaml``; DataError names the file and the line."""

    def face(self, key: str) -> int:
        value = self.whole(key, minimum=1)
        if value > 6:
            raise self.fail(key, f"must be a face of a six-sided die (1-6), got {value}")
        return value

    def remover(self, key: str, obstacles: tuple[str, ...], moves: MoveTables) -> Remover:
        r = self.sub(key)
        r.only("name", "full_strength", "with_leader", *obstacles)
        cells: dict[str, Removal | None] = {}
        for ob in obstacles:
            if r.get(ob) == "NA":
                cells[ob] = None
                continue
            cell = r.sub(ob)
            cell.only("ap", "how")
            how = cell.choice("how", ("adjacent", "entry"))
            ap = cell.whole("ap")
            if how == "entry":
                effect = moves.obstacles[ob].effect(key) if ob in moves.obstacles else None
                if effect is None or effect.extra != ap:
                    got = "barred" if effect is not None and effect.extra is None else effect and effect.extra
                    raise cell.fail(
                        "ap", f"{key} removes {ob} on entry for {ap} AP, but movement.yaml charges {got}"
                    )
            cells[ob] = Removal(ap, "entry" if how == "entry" else "adjacent")
        return Remover(
            type=key,
            name=r.word("name"),
            full_strength=r.boolean("full_strength") if "full_strength" in r.data else False,
            with_leader=r.boolean("with_leader") if "with_leader" in r.data else False,
            cells=MappingProxyType(cells),
        )

    def fire_line(self, key: str) -> FireLine:
        u = self.sub(key)
        u.only("targets", "except", "hit", "bonus_hit", "bonus")
        targets = None if u.get("targets") == "all" else u.words("targets")
        bonus_in_range, against = False, frozenset[str]()
        if "bonus" in u.data:
            if u.data["bonus"] == "range":
                bonus_in_range = True
            else:
                b = u.sub("bonus")
                b.only("against")
                against = b.words("against")
            if "bonus_hit" not in u.data:
                raise u.fail("bonus", "a bonus needs `bonus_hit:`")
        return FireLine(
            type=key,
            targets=targets,
            excepted=u.words("except") if "except" in u.data else frozenset(),
            hit=u.face("hit"),
            bonus_hit=u.face("bonus_hit") if "bonus_hit" in u.data else None,
            bonus_in_range=bonus_in_range,
            bonus_against=against,
        )

    def tables(self, moves: MoveTables) -> AmericanTables:
        self.only("side", "activity", "removal", "land_mine", "fire", "friendly_fire")
        act = self.sub("activity")
        act.only("rule", "held_by", "leader", "restore", "unpin")
        restore, unpin = act.sub("restore"), act.sub("unpin")
        restore.only("ap", "target")
        unpin.only("ap")
        rem = self.sub("removal")
        rem.only("rule", "obstacles", "removers", "bangalore")
        listed = rem.get("obstacles")
        if not isinstance(listed, list) or not all(isinstance(w, str) for w in listed):
            raise rem.fail("obstacles", f"must be a list of marker types, got {listed!r}")
        obstacles = tuple(str(w) for w in listed)
        for ob in obstacles:
            if ob not in moves.obstacles:
                raise rem.fail("obstacles", f"{ob!r} is no obstacle of movement.yaml")
        removers_node = rem.sub("removers")
        removers = {k: removers_node.remover(k, obstacles, moves) for k in removers_node.data}
        bang = rem.sub("bangalore")
        bang.only("unit", "ap", "track")
        mine = self.sub("land_mine")
        mine.only("rule", "marker", "explodes_on")
        explodes = mine.get("explodes_on")
        if not isinstance(explodes, list) or not all(type(f) is int and 1 <= f <= 6 for f in explodes):
            raise mine.fail("explodes_on", f"must be a list of die faces 1-6, got {explodes!r}")
        fire = self.sub("fire")
        fire.only("rule", "table", "held_by", "fired_mark", "units")
        units_node = fire.sub("units")
        ff = self.sub("friendly_fire")
        ff.only("rule", "units", "not_adjacent", "radius", "on_result")
        ff.choice("on_result", ("hit",))
        return AmericanTables(
            side=self.word("side"),
            activity_rule=act.word("rule"),
            held_by=act.words("held_by"),
            leader=act.word("leader"),
            restore_ap=restore.whole("ap"),
            restore_target=restore.word("target"),
            unpin_ap=unpin.whole("ap"),
            removal_rule=rem.word("rule"),
            obstacles=obstacles,
            removers=MappingProxyType(removers),
            bangalore_unit=bang.word("unit"),
            bangalore_ap=bang.whole("ap"),
            bangalore_track=bang.word("track"),
            mine_rule=mine.word("rule"),
            mine_marker=mine.word("marker"),
            mine_explodes=frozenset(explodes),
            fire_rule=fire.word("rule"),
            fire_table=fire.word("table"),
            fire_held_by=fire.words("held_by"),
            fired_mark=fire.word("fired_mark"),
            fire_units=MappingProxyType({k: units_node.fire_line(k) for k in units_node.data}),
            ff_rule=ff.word("rule"),
            ff_units=ff.words("units"),
            ff_not_adjacent=ff.words("not_adjacent"),
            ff_radius=ff.whole("radius", minimum=1),
        )


def read_tables(path: Path, moves: MoveTables | None = None) -> AmericanTables:
    """Read and validate an ``american.yaml`` (checked against ``moves``, default the
    shipped movement.yaml); DataError names the line of any problem."""
    return _Reader(path, read_yaml(path)).tables(moves if moves is not None else move_tables())


@cache
def tables() -> AmericanTables:
    """The shipped ``american.yaml`` beside this module, read once."""
    return read_tables(DATA)


@cache
@cache
def _move_policy() -> DogSectorMovePolicy:
    """The movement policy, one for the process: it remembers each map's ground and each
    hex's effect (issue 19)."""
    return DogSectorMovePolicy()


_los_cache: dict[int, tuple[Map, DogSectorPolicy]] = {}


def _los_policy(board: Map) -> DogSectorPolicy:
    cached = _los_cache.get(id(board))
    if cached is None or cached[0] is not board:
        cached = _los_cache[id(board)] = (board, DogSectorPolicy(board))
    return cached[1]


# ------------------------------------------------------------------------- small reads


def _label(state: GameState, h: Hex) -> str:
    return state.board.label(h)


def _named(p: Piece) -> str:
    return f"{p.type} {p.id}"


def _full(unit: Piece) -> bool:
    """Whether ``unit`` is at full strength (hits.yaml's steps of a fresh counter)."""
    return unit.steps >= hits.full_steps(unit)


def _obstacle_name(kind: str) -> str:
    return counters_for(RULES).marker(kind).name


def ap_total(unit: Piece) -> int:
    """The unit type's AP for phase 5 (movement.yaml)."""
    return move_tables().action_points.get(unit.type, 0)


def ap_left(state: GameState, unit: Piece) -> int:
    """AP the unit has left this phase: its type's AP less the track ``ap-spent:<id>``."""
    return max(0, ap_total(unit) - state.track(f"{AP_TRACK}:{unit.id}"))


def _spend(state: GameState, unit: Piece, ap: int) -> None:
    key = f"{AP_TRACK}:{unit.id}"
    state.tracks[key] = state.track(key) + ap


def live_obstacles(state: GameState, h: Hex) -> list[Piece]:
    """The obstacle markers of ``h`` still in play (none where a cleared marker lies), in
    the order of american.yaml."""
    markers = state.map.markers_at(h)
    if any(m.type == move_tables().cleared_marker for m in markers):
        return []
    order = tables().obstacles
    return sorted((m for m in markers if m.type in order), key=lambda m: (order.index(m.type), m.id))


def _remove_obstacle(state: GameState, marker: Piece) -> None:
    """Take an obstacle marker off the map, and the hex's cleared marker once no obstacle is left."""
    state.map.remove(marker.id)
    left = state.map.markers_at(marker.hex)
    if not any(m.type in tables().obstacles for m in left):
        for m in left:
            if m.type == move_tables().cleared_marker:
                state.map.remove(m.id)


def _american_units(state: GameState) -> list[Piece]:
    side = tables().side
    return [p for p in state.map.pieces() if p.kind == "unit" and p.side == side]


def _hex_of(state: GameState, label: Any) -> Hex | None:
    if not isinstance(label, str):
        return None
    board = state.board
    if _hexes_of[0] is not board:
        _hexes_of[:] = [board, {}]
    known: dict[str, Hex] = _hexes_of[1]
    h = known.get(label)
    if h is None:
        try:
            h = known[label] = board.hex_of(label)
        except ValueError:
            return None
    return h


_hexes_of: list[Any] = [None, {}]  # [map, {label: hex}]: the labels read so far (a move's refusal reads one)


def _pinned_hex(state: GameState, h: Hex) -> bool:
    status = move_tables().pinned_status
    return any(p.has(status) for p in state.map.units_at(h))


def _held(unit: Piece, words: frozenset[str]) -> str | None:
    held = sorted(unit.status & words)
    return " and ".join(held) if held else None


# ------------------------------------------------------------------------ the actions


def _unit(state: GameState, action: Action) -> tuple[Piece | None, str | None]:
    """The American unit on the map named by ``action["unit"]``, or why not."""
    uid = action.get("unit")
    if not isinstance(uid, str):
        return None, f"{action.get('do')}: `unit` must be a unit id, got {uid!r}"
    try:
        unit = state.map.piece(uid)
    except KeyError:
        where = state.where(uid)
        return None, f"{uid} is not on the map" + (f" (it is in box {where!r})" if where else "")
    if unit.kind != "unit" or unit.side != tables().side:
        return None, f"{uid} is not an American unit: only American units act in phases 5 and 6"
    return unit, None


def refusal(state: GameState, action: Action) -> str | None:
    """Why ``action`` is illegal now (citing the phase or table), or None."""
    do = action.get("do")
    if do not in ACTIONS:
        return f"{do!r} is not an American action (known: {', '.join(sorted(ACTIONS))})"
    phase = PHASE_OF[do]
    if state.phase != phase:
        return f"a {do} action is played in {PHASE_NAME[phase]}, not in phase {state.phase!r}"
    unit, why = _unit(state, action)
    if unit is None:
        return why
    return _REFUSALS[do](state, unit, action)


def _activity_start(state: GameState, unit: Piece, cost: int, *, may_be_held: bool = False) -> str | None:
    """The checks every phase 5 action shares: the unit is free to act and has ``cost`` AP."""
    t = tables()
    held = _held(unit, t.held_by)
    if held and not may_be_held:
        return (
            f"{_named(unit)} is {held}: it spends no AP until an exceptional leader removes the "
            f"pinned-down marker ({t.activity_rule}, project's choice)"
        )
    left = ap_left(state, unit)
    if left < cost:
        return f"{_named(unit)} has {left} AP left of {ap_total(unit)}; this costs {cost} ({t.activity_rule})"
    return None


def _why_not_move(state: GameState, unit: Piece, action: Action) -> str | None:
    t, moves = tables(), move_tables()
    to = _hex_of(state, action.get("to"))
    if to is None:
        return f"move: `to` must be a hex label of the map, got {action.get('to')!r}"
    held = _held(unit, moves.cannot_move)
    if held:
        return (
            f"{_named(unit)} is {held} and does not move ({t.activity_rule}, project's choice; movement.yaml)"
        )
    why = _activity_start(state, unit, 1)
    if why:
        return why
    if to == unit.hex:
        return f"{_named(unit)} is already in {action['to']}"
    left = ap_left(state, unit)
    found = _reach(state, unit, left)
    if to in found.costs:
        return None
    model = _move_policy().model(state.map, unit, budget=left)
    label = _label(state, to)
    if to in model.why_not:
        return f"{_named(unit)} cannot enter {model.why_not[to]}"
    if to in found.passed:
        return f"{_named(unit)} may pass {label} but not end there: {model.no_end[to]}"
    farther = _reach(state, unit, UNLIMITED)
    if to in farther.costs:
        return (
            f"{_named(unit)} needs {farther.costs[to]} AP to reach {label} and has {left} left "
            f"(1 AP a hex, 2 for sea and bluff; {t.activity_rule})"
        )
    return f"{_named(unit)} has no way to {label}: the way is barred or ends sooner ({t.activity_rule})"


_reach_memo: list[Any] = [None, -1, {}]  # [map state, its version, {(unit, budget): reach}]


def _reach(state: GameState, unit: Piece, budget: int) -> Reach:
    """The unit's reach with ``budget`` AP, remembered until the map changes (choices
    asks once per listed action)."""
    if _reach_memo[0] is not state.map or _reach_memo[1] != state.map.version:
        _reach_memo[:] = [state.map, state.map.version, {}]
    memo: dict[tuple[Piece, int], Reach] = _reach_memo[2]
    key = (unit, budget)
    if key not in memo:
        memo[key] = _move_policy().reach(state.map, unit, budget)  # plan_move's reach, kept effects
    return memo[key]


def _leader_check(unit: Piece) -> str | None:
    t = tables()
    if unit.type != t.leader:
        return f"only an exceptional leader does this, not a {unit.type} ({t.activity_rule}, Exceptional Leaders)"
    return None


def _why_not_restore(state: GameState, unit: Piece, action: Action) -> str | None:
    t = tables()
    why = _leader_check(unit) or _activity_start(state, unit, t.restore_ap)
    if why:
        return why
    tid = action.get("target")
    target = next((p for p in state.map.units_at(unit.hex) if p.id == tid), None)
    if target is None or target.side != t.side:
        return f"restore: {tid!r} is no American unit in {_label(state, unit.hex)}, the EL's hex ({t.activity_rule})"
    if target.type != t.restore_target:
        return f"an EL restores only {t.restore_target}, not a {target.type} ({t.activity_rule})"
    if _full(target):
        return f"{_named(target)} is already at full strength ({t.activity_rule})"
    return None


def _why_not_unpin(state: GameState, unit: Piece, action: Action) -> str | None:
    t = tables()
    why = _leader_check(unit) or _activity_start(state, unit, t.unpin_ap, may_be_held=True)
    if why:
        return why
    if not _pinned_hex(state, unit.hex):
        return f"{_label(state, unit.hex)} is not pinned down: nothing to unpin ({t.activity_rule})"
    return None


def _remover(unit: Piece) -> tuple[Remover | None, str | None]:
    t = tables()
    remover = t.removers.get(unit.type)
    if remover is None:
        return None, f"a {unit.type} removes no obstacles (no column in {t.removal_rule})"
    return remover, None


def _remover_ready(state: GameState, unit: Piece, remover: Remover) -> str | None:
    """Table 5 (*): infantry must be at full strength, with an EL in its hex."""
    t = tables()
    if remover.full_strength and not _full(unit):
        return (
            f"{_named(unit)} is reduced: only full-strength infantry removes obstacles ({t.removal_rule} *)"
        )
    if remover.with_leader and not any(p.type == t.leader for p in state.map.units_at(unit.hex)):
        return (
            f"{unit.type} removes obstacles only with an exceptional leader in its hex "
            f"({t.removal_rule}: NA (1), project's reading)"
        )
    return None


def _why_not_clear(state: GameState, unit: Piece, action: Action) -> str | None:
    t = tables()
    remover, why = _remover(unit)
    if remover is None:
        return why
    h = _hex_of(state, action.get("hex"))
    if h is None:
        return f"clear: `hex` must be a hex label of the map, got {action.get('hex')!r}"
    obstacle, why = _target_obstacle(state, h, action.get("obstacle"))
    if obstacle is None:
        return why
    cell = remover.cells.get(obstacle.type)
    name = _obstacle_name(obstacle.type)
    if cell is None:
        return f"a {remover.name} cannot remove a {name} ({t.removal_rule}: NA)"
    if cell.how == "entry":
        return f"a {remover.name} removes a {name} by moving into its hex, not by a clear action ({t.removal_rule})"
    label = _label(state, h)
    if distance(unit.hex, h) != 1:
        return f"a {remover.name} removes an obstacle in an adjacent hex; {label} is {distance(unit.hex, h)} away ({t.removal_rule})"
    return _remover_ready(state, unit, remover) or _activity_start(state, unit, cell.ap)


def _target_obstacle(state: GameState, h: Hex, kind: Any) -> tuple[Piece | None, str | None]:
    live = live_obstacles(state, h)
    label = _label(state, h)
    if not live:
        return None, f"no obstacle left in {label} ({tables().removal_rule})"
    if kind is None:
        if len({m.type for m in live}) > 1:
            kinds = ", ".join(m.type for m in live)
            return None, f"{label} holds several obstacles ({kinds}): say which with `obstacle`"
        return live[0], None
    chosen = next((m for m in live if m.type == kind), None)
    if chosen is None:
        return None, f"no {kind!r} obstacle left in {label}"
    return chosen, None


def _why_not_bangalore(state: GameState, unit: Piece, action: Action) -> str | None:
    t = tables()
    rule = f"{t.activity_rule}, bangalore torpedo"
    if unit.type != t.bangalore_unit:
        return f"only a {t.bangalore_unit} has a bangalore torpedo, not a {unit.type} ({rule})"
    if state.track(f"{t.bangalore_track}:{unit.id}"):
        return f"{_named(unit)} has used its bangalore torpedo (one a game, project's choice)"
    labels = action.get("hexes")
    if not isinstance(labels, list) or len(labels) != 2:
        return f"bangalore: `hexes` must be two hex labels, got {labels!r}"
    hexes = [_hex_of(state, x) for x in labels]
    if None in hexes:
        return f"bangalore: `hexes` must be two hex labels of the map, got {labels!r}"
    a, b = (h for h in hexes if h is not None)
    if distance(a, b) != 1:
        return f"bangalore: {labels[0]} and {labels[1]} must be adjacent to each other ({rule})"
    for h, label in zip((a, b), labels, strict=True):
        if distance(unit.hex, h) != 1:
            return f"bangalore: {label} is not adjacent to {_named(unit)} ({rule})"
        if not live_obstacles(state, h):
            return f"bangalore: no obstacle left in {label} ({rule})"
    return _activity_start(state, unit, t.bangalore_ap)


def _why_not_fire(state: GameState, unit: Piece, action: Action) -> str | None:
    t = tables()
    line = t.fire_units.get(unit.type)
    if line is None:
        return f"a {unit.type} does not fire (no line in {t.fire_table})"
    if state.marked(t.fired_mark, unit.id):
        return f"{_named(unit)} has fired this turn (once a turn, project's choice; {t.fire_rule})"
    held = _held(unit, t.fire_held_by)
    if held:
        return f"{_named(unit)} is {held} and does not fire ({t.fire_rule}, project's choice)"
    tid = action.get("target")
    try:
        target = state.map.piece(tid) if isinstance(tid, str) else None
    except KeyError:
        target = None
    if target is None or target.kind != "unit" or target.side in (None, t.side):
        return f"fire: {tid!r} is no German unit on the map"
    if state.marked(hits.tables().targeted_mark, target.id):
        return f"{_named(target)} was hit this turn and cannot be targeted again ({t.fire_rule})"
    if not line.may_target(target.type):
        return f"a {unit.type} fires at {line.targets_text()} only, not a {target.type} ({t.fire_table})"
    return _blocked_fire(state, unit, target)


_fire_memo: list[Any] = [None, -1, {}]  # [map state, its version, {(firer id, target id): reason}]


def _blocked_fire(state: GameState, unit: Piece, target: Piece) -> str | None:
    """The line-of-sight and fire-rule findings against ``unit`` firing at ``target``
    in words (None: none), remembered until the map changes: they read the map alone,
    and the bot, the sim loop and ``apply`` each ask the same shot (issue 19 item 1)."""
    memo = _fire_memo
    if memo[0] is not state.map or memo[1] != state.map.version:
        memo[:] = [state.map, state.map.version, {}]
    found: dict[tuple[str, str], str | None] = memo[2]
    key = (unit.id, target.id)
    if key in found:
        return found[key]
    blocking = _los_policy(state.board).fire_blocking(state.map, unit, target)
    why = "; ".join(_finding_text(state, f.cause, f.hex, f.rule) for f in blocking) if blocking else None
    found[key] = why
    return why


def _finding_text(state: GameState, cause: str, h: Hex | None, rule: str) -> str:
    at = f" at {_label(state, h)}" if h is not None else ""
    return f"{cause}{at} ({rule})"


def _los(state: GameState, unit: Piece, target: Piece) -> LosResult:
    query = LosQuery(unit.hex, target.hex, viewer=unit, target_piece=target)
    return line_of_sight(state.map, _los_policy(state.board), query)


_REFUSALS: dict[str, Callable[[GameState, Piece, Action], str | None]] = {
    "move": _why_not_move,
    "restore": _why_not_restore,
    "unpin": _why_not_unpin,
    "clear": _why_not_clear,
    "bangalore": _why_not_bangalore,
    "fire": _why_not_fire,
}


# --------------------------------------------------------------------------- choices


def choices(state: GameState, phase_key: str) -> list[Action]:
    """Every legal American action of phase ``phase_key`` ("activity" or
    "american-fire"; none for other phases and when the state is in another phase)."""
    if phase_key != state.phase or phase_key not in PHASE_NAME:
        return []
    out: list[Action] = []
    for unit in _american_units(state):
        candidates = (
            _activity_candidates(state, unit) if phase_key == ACTIVITY else _fire_candidates(state, unit)
        )
        out.extend(a for a in candidates if refusal(state, a) is None)
    return out


def _activity_candidates(state: GameState, unit: Piece) -> list[Action]:
    t = tables()
    left = ap_left(state, unit)
    if left <= 0:
        return []
    out: list[Action] = []
    if not (unit.status & (move_tables().cannot_move | t.held_by)):
        found = _reach(state, unit, left)
        out.extend(
            {"do": "move", "unit": unit.id, "to": _label(state, h)} for h in found.costs if h != unit.hex
        )
    if unit.type == t.leader:
        out.extend(
            {"do": "restore", "unit": unit.id, "target": p.id}
            for p in state.map.units_at(unit.hex)
            if p.type == t.restore_target and p.side == t.side and not _full(p)
        )
        if _pinned_hex(state, unit.hex):
            out.append({"do": "unpin", "unit": unit.id})
    if unit.type in t.removers:
        around = [h for h in _neighbours(state, unit.hex) if live_obstacles(state, h)]
        for h in around:
            kinds = {m.type for m in live_obstacles(state, h)}
            for kind in sorted(kinds):
                action: Action = {"do": "clear", "unit": unit.id, "hex": _label(state, h)}
                if len(kinds) > 1:
                    action["obstacle"] = kind
                out.append(action)
        if unit.type == t.bangalore_unit:
            for i, a in enumerate(around):
                for b in around[i + 1 :]:
                    if distance(a, b) == 1:
                        out.append(
                            {
                                "do": "bangalore",
                                "unit": unit.id,
                                "hexes": [_label(state, a), _label(state, b)],
                            }
                        )
    return out


def _neighbours(state: GameState, h: Hex) -> list[Hex]:
    return [n for n in neighbors(h) if state.board.grid.contains(n)]


def _fire_candidates(state: GameState, unit: Piece) -> list[Action]:
    t = tables()
    line = t.fire_units.get(unit.type)
    if line is None or state.marked(t.fired_mark, unit.id) or unit.status & t.fire_held_by:
        return []
    los_line = los_tables().sides[t.side].units.get(unit.type)
    out: list[Action] = []
    for target in state.map.pieces():
        if target.kind != "unit" or target.side in (None, t.side) or not line.may_target(target.type):
            continue
        limit = los_line.range_limit(target) if los_line is not None else None
        if limit is not None and distance(unit.hex, target.hex) > limit:
            continue
        out.append({"do": "fire", "unit": unit.id, "target": target.id})
    return out


# ---------------------------------------------------------------------------- apply


def apply(state: GameState, action: Action, dice: Dice) -> list[str]:
    """Carry out a legal American action; returns what happened in words. ValueError
    (naming the reason) for an illegal one, before anything changes."""
    why = refusal(state, action)
    if why is not None:
        raise ValueError(why)
    unit = state.map.piece(action["unit"])
    return _APPLY[action["do"]](state, unit, action, dice)


def _apply_move(state: GameState, unit: Piece, action: Action, dice: Dice) -> list[str]:
    t = tables()
    to = state.board.hex_of(action["to"])
    found = _reach(state, unit, ap_left(state, unit))
    path = found.path_to(to)
    cost = found.costs[to]
    _spend(state, unit, cost)
    state.map.move(unit.id, to)
    names = " ".join(_label(state, h) for h in path)
    lines = [f"{_named(unit)} moves {names} ({cost} AP, {ap_left(state, unit)} left)"]
    remover = t.removers.get(unit.type)
    for h in path[1:]:
        for marker in live_obstacles(state, h):
            cell = remover.cells.get(marker.type) if remover is not None else None
            if cell is not None and cell.how == "entry":
                _remove_obstacle(state, marker)
                lines.append(
                    f"{_named(unit)} removes the {_obstacle_name(marker.type)} in {_label(state, h)} on entry ({t.removal_rule})"
                )
    mine = next((m for m in live_obstacles(state, to) if m.type == t.mine_marker), None)
    if mine is not None:
        lines.extend(_mine_check(state, unit, mine, dice))
    return lines


def _mine_check(state: GameState, unit: Piece, mine: Piece, dice: Dice) -> list[str]:
    """Phase 5, Land Mine Explosion Check: 1D6, 1-3 clear (the mine stays, project's
    choice), 4-6 the explosion hits the unit and the mine marker is removed."""
    t = tables()
    label = _label(state, mine.hex)
    face = dice.d6(f"land-mine check: {_named(unit)} enters {label}")
    if face not in t.mine_explodes:
        dice.rule("clear")
        return [f"land mine at {label}: {face}, clear ({t.mine_rule})"]
    dice.rule("explosion")
    lines = [f"land mine at {label}: {face}, explosion hits {_named(unit)} ({t.mine_rule})"]
    lines.extend(hits.hit(state, unit.id, f"land mine at {label}"))
    _remove_obstacle(state, mine)
    lines.append(f"the land mine at {label} is gone")
    return lines


def _apply_restore(state: GameState, unit: Piece, action: Action, dice: Dice) -> list[str]:
    t = tables()
    target = state.map.piece(action["target"])
    state.map.update(replace(target, steps=hits.full_steps(target)))
    _spend(state, unit, t.restore_ap)
    return [
        f"{_named(unit)} restores {_named(target)} to full strength in {_label(state, unit.hex)} ({t.activity_rule})"
    ]


def _apply_unpin(state: GameState, unit: Piece, action: Action, dice: Dice) -> list[str]:
    t = tables()
    freed = []
    for p in state.map.units_at(unit.hex):
        if p.has(move_tables().pinned_status):
            state.map.update(replace(p, status=p.status - {move_tables().pinned_status}))
            freed.append(p.id)
    _spend(state, unit, t.unpin_ap)
    return [
        f"{_named(unit)} removes the pinned-down marker in {_label(state, unit.hex)} "
        f"({', '.join(freed)} free to act; {t.activity_rule})"
    ]


def _apply_clear(state: GameState, unit: Piece, action: Action, dice: Dice) -> list[str]:
    t = tables()
    h = state.board.hex_of(action["hex"])
    obstacle, _ = _target_obstacle(state, h, action.get("obstacle"))
    assert obstacle is not None  # refusal() checked it
    remover = t.removers[unit.type]
    cell = remover.cells[obstacle.type]
    assert cell is not None
    _remove_obstacle(state, obstacle)
    _spend(state, unit, cell.ap)
    return [
        f"{_named(unit)} removes the {_obstacle_name(obstacle.type)} in {action['hex']} "
        f"({cell.ap} AP; {t.removal_rule})"
    ]


def _apply_bangalore(state: GameState, unit: Piece, action: Action, dice: Dice) -> list[str]:
    t = tables()
    gone = []
    for label in action["hexes"]:
        marker = live_obstacles(state, state.board.hex_of(label))[0]
        _remove_obstacle(state, marker)
        gone.append(f"the {_obstacle_name(marker.type)} in {label}")
    _spend(state, unit, t.bangalore_ap)
    state.tracks[f"{t.bangalore_track}:{unit.id}"] = 1
    return [f"{_named(unit)} fires its bangalore torpedo: removes {' and '.join(gone)} ({t.activity_rule})"]


def hit_number(state: GameState, unit: Piece, target: Piece) -> tuple[int, str]:
    """Table 6: the lowest face that hits ``target`` and why (with the bonus, if any)."""
    t = tables()
    line = t.fire_units[unit.type]
    bonus = ""
    if line.bonus_hit is not None:
        if line.bonus_in_range:
            los_line = los_tables().sides[t.side].units[unit.type]
            rng = distance(unit.hex, target.hex)
            if los_line.bonus_range is not None and rng <= los_line.bonus_range:
                bonus = f"bonus within {los_line.bonus_range} hexes"
        elif target.type in line.bonus_against:
            bonus = f"bonus against {target.type}"
    face = line.bonus_hit if bonus and line.bonus_hit is not None else line.hit
    return face, bonus


def _faces(face: int) -> str:
    return "6" if face == 6 else f"{face}-6"


def _apply_fire(state: GameState, unit: Piece, action: Action, dice: Dice) -> list[str]:
    t = tables()
    target = state.map.piece(action["target"])
    need, bonus = hit_number(state, unit, target)
    state.mark(t.fired_mark, unit.id)
    src, tgt = _label(state, unit.hex), _label(state, target.hex)
    roll = dice.d6(f"{_named(unit)} at {src} fires at {_named(target)} in {tgt}")
    wanted = f"{_faces(need)} hits" + (f", {bonus}" if bonus else "")
    if roll < need:
        dice.rule(f"miss ({wanted})")
        return [f"{_named(unit)} fires at {_named(target)}: {roll}, miss ({wanted}; {t.fire_table})"]
    dice.rule(f"hit ({wanted})")
    lines = [f"{_named(unit)} fires at {_named(target)}: {roll}, hit ({wanted}; {t.fire_table})"]
    friendly = friendly_fire_hexes(state, unit.id, target.id)
    if not friendly:
        return lines + hits.hit(state, target.id, f"{_named(unit)} fire from {src}")
    labels = ", ".join(_label(state, h) for h in friendly)
    h = dice.pick(
        friendly, f"friendly fire: which American-occupied hex within {t.ff_radius} of {tgt} ({labels})"
    )
    victims = sorted((p for p in state.map.units_at(h) if p.side == t.side), key=lambda p: p.id)
    victim = dice.pick(
        victims, f"friendly fire: which unit in {_label(state, h)} ({', '.join(p.id for p in victims)})"
    )
    lines.append(
        f"friendly fire: the hit lands on {_named(victim)} in {_label(state, h)} instead ({t.ff_rule})"
    )
    return lines + hits.hit(state, victim.id, f"friendly fire from {_named(unit)} at {src}")


_APPLY: dict[str, Callable[[GameState, Piece, Action, Dice], list[str]]] = {
    "move": _apply_move,
    "restore": _apply_restore,
    "unpin": _apply_unpin,
    "clear": _apply_clear,
    "bangalore": _apply_bangalore,
    "fire": _apply_fire,
}


def friendly_fire_hexes(state: GameState, firer_id: str, target_id: str) -> list[Hex]:
    """Phase 6, Friendly Fire: the American-occupied hexes within 3 of the target that a
    hit from ``firer_id`` would land on instead (ordered by label), or [] when the rule
    does not apply (another unit type, a bazooka adjacent to its target, no such hex).
    The firer's own hex counts when it is that close (project's reading)."""
    t = tables()
    firer, target = state.map.piece(firer_id), state.map.piece(target_id)
    if firer.type not in t.ff_units:
        return []
    if firer.type in t.ff_not_adjacent and distance(firer.hex, target.hex) <= 1:
        return []
    return list(_american_hexes_near(state, target.hex, t.ff_radius))


_near_memo: list[Any] = [None, -1, {}]  # [map state, version, {(hex, radius): American hexes near}]


def _american_hexes_near(state: GameState, h: Hex, radius: int) -> tuple[Hex, ...]:
    """The American-occupied hexes within ``radius`` of ``h``, by label; remembered until
    the map changes (a bot asks for every shot it weighs)."""
    memo = _near_memo
    if memo[0] is not state.map or memo[1] != state.map.version:
        memo[:] = [state.map, state.map.version, {}]
    found: tuple[Hex, ...] | None = memo[2].get((h, radius))
    if found is None:
        near = {p.hex for p in _american_units(state) if distance(p.hex, h) <= radius}
        found = memo[2][(h, radius)] = tuple(sorted(near, key=lambda x: _label(state, x)))
    return found


# ------------------------------------------------------------- per-unit helpers (bots)


def unit_reach(state: GameState, unit: Piece) -> Reach:
    """Where ``unit`` may move now with the AP it has left (phase 5), remembered until
    the map changes; the same reach ``refusal`` judges a move by."""
    return _reach(state, unit, ap_left(state, unit))


def unit_choices(state: GameState, unit_id: str, phase_key: str) -> list[Action]:
    """The legal actions of one American unit in phase ``phase_key`` ("activity" or
    "american-fire"): what ``choices`` lists for that unit, without working out every
    other unit's (a bot deciding unit by unit)."""
    if phase_key != state.phase or phase_key not in PHASE_NAME:
        return []
    try:
        unit = state.map.piece(unit_id)
    except KeyError:
        return []
    if unit.kind != "unit" or unit.side != tables().side:
        return []
    candidates = _activity_candidates(state, unit) if phase_key == ACTIVITY else _fire_candidates(state, unit)
    return [a for a in candidates if refusal(state, a) is None]


# ------------------------------------------------------------- the fire preview (window)


def fire_preview(state: GameState, unit_id: str, target_id: str) -> dict[str, Any] | None:
    """What American unit ``unit_id`` firing at German unit ``target_id`` would be, from
    the functions ``apply`` fires with (``hit_number``, ``friendly_fire_hexes``,
    ``hits.hit_effect``, ``refusal``), for the window to show before the click (issue 13
    finding 11). None when it is no such pair. Plain data:

    ``from``/``to``/``range``; ``table`` and ``row`` (the Table 6 line and hit number,
    None when the unit has no line against that target); ``outcomes``: each result with
    its faces and chance (the chances sum to 1); ``friendly_fire``: the radius, its rule
    and the American hexes and units inside, whom a hit would strike instead;
    ``refusal``: why the rules refuse this unit this fire (None: they allow it), with the
    rule; ``now``: whether this is the phase units fire in, ``when`` (that phase).
    """
    try:
        unit, target = state.map.piece(unit_id), state.map.piece(target_id)
    except KeyError:
        return None
    t = tables()
    if unit.kind != "unit" or target.kind != "unit" or unit.side != t.side or target.side in (None, t.side):
        return None
    action: Action = {"do": "fire", "unit": unit.id, "target": target.id}
    out: dict[str, Any] = {
        "firer": unit.id,
        "target": target.id,
        "from": _label(state, unit.hex),
        "to": _label(state, target.hex),
        "range": distance(unit.hex, target.hex),
        "table": t.fire_table,
        "row": None,
        "outcomes": [],
        "friendly_fire": None,
        "refusal": _why_not_fire(state, unit, action),
        "now": state.phase == FIRE,
        "when": PHASE_NAME[FIRE],
    }
    line = t.fire_units.get(unit.type)
    if line is None or not line.may_target(target.type):
        return out
    need, bonus = hit_number(state, unit, target)
    out["row"] = f"{unit.type}: {_faces(need)} hits" + (f", {bonus}" if bonus else "")
    friendly = friendly_fire_hexes(state, unit.id, target.id)
    hit_chance = (7 - need) / 6
    miss = "" if need == 1 else ("1" if need == 2 else f"1-{need - 1}")
    if miss:
        out["outcomes"].append({"result": "miss", "faces": miss, "chance": 1 - hit_chance})
    if friendly:
        victims = [p.id for p in _american_units(state) if p.hex in set(friendly)]
        hexes = _label(state, friendly[0]) if len(friendly) == 1 else f"one of {len(friendly)} hexes"
        result = f"hit, but it lands on an American unit in {hexes} instead ({t.ff_rule})"
    else:
        victims = []
        result = f"hit: {target.type} {target.id} {hits.hit_words(target)}"
    out["outcomes"].append({"result": result, "faces": _faces(need), "chance": hit_chance})
    if unit.type in t.ff_units and not (unit.type in t.ff_not_adjacent and out["range"] <= 1):
        out["friendly_fire"] = {
            "radius": t.ff_radius,
            "rule": t.ff_rule,
            "hexes": [_label(state, h) for h in friendly],
            "units": victims,
        }
    return out
