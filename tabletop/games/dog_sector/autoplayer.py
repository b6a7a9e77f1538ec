"""DOG SECTOR: a program that plays the American side (phases 5 and 6), for
``tabletop sim`` and for a player who wants the machine to move for them. Since issue 20
this first autoplayer is the bot ``simple`` (``--bot american=simple``); the default
bot is ``planner.py``'s, built on this one. This module stays the rule system's sim
module (``assess``, ``ranks``, ``SIM_BY``).

``AmericanAutoplayer`` is an engine ``Bot`` (``choose(view) -> Action``, given the
American side's ``SideView``: everything in DOG SECTOR is open). It uses
no dice and no randomness: the same game (seed and options) is always played the same
way. It is built to be fast rather than clever: it never asks for every legal action of
every unit (``american.choices``), but works unit by unit with the cheap public helpers
of ``american`` (``unit_reach``, ``refusal``, ``hit_number``, ``friendly_fire_hexes``)
and with "distance to a useful hex" fields worked out once per German layout and
obstacle layout (shared by every game, as the fixed set-up repeats). What it reads of
the map is read once a map version (``_now``), and what it derives from the German
units and obstacles alone is kept with their ``_Layout`` until one of them changes
(issue 19 item 1).

How it plays (project's choices, a sensible player rather than a strong one):

- phase 5 (American Beach Activity): each unit acts once in turn, nearest to the
  trenches first. An exceptional leader unpins its hex or restores reduced infantry
  there, else walks to a hex of pinned or reduced units within reach, else goes with the
  assault. A CE team clears an adjacent obstacle on its way inland (up to two a phase; a
  bangalore torpedo when two such obstacle hexes touch each other). Then every unit
  moves to the reachable hex nearest (in AP, with a penalty for live land mines and for
  barbed wire it cannot cross) to a useful position: units that fire only at adjacent
  targets (infantry, flamethrower, CE team, leaders) to a hex next to a German unit they
  may fire at; ranged units (sharpshooter, forward observer, bazooka, tank, dozer) to a
  hex from which they may fire at a German unit (range, section, and no firing from
  sea, draw, bluff or bluff-adjacent hexes except at an adjacent target; American
  units blocking the line are not foreseen), within the Table 6 bonus range where the
  unit has one (forward observers, tanks, dozers: 8 hexes; tanks and dozers only where
  an MG pillbox or AT gun is in reach), and they stay once there. Tanks and dozers act
  first and drive through barbed wire (and dozers through tank obstacles), clearing
  lanes. No unit ends its move on the landing row when it can help it (phase 2 swamps
  units there; the shallows are safe).
- phase 6 (American Fire): every unit with a legal target fires at the best one: the
  best chance to hit (Table 6), then a target whose removal clears a section, then one
  in the section with the fewest German steps left in its trenches (to clear sections
  rather than thin them all), then one a hit removes, MG pillboxes before AT guns,
  panzerfausts and infantry. A shot that
  friendly fire would turn on American units is never taken: under this project's
  reading (american.yaml friendly_fire) every hit of such a shot lands on Americans.
- other phases are automatic; asked anyway, it ends the phase.

``assess(state)`` gives the victory level (Table 7) and sections cleared of a finished
game, for ``tabletop sim``; ``SIM_BY`` names the option a simulation compares by default.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tabletop.board import Map
from tabletop.engine.actions import END_PHASE, Action
from tabletop.engine.game import SideView
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance, neighbors

from . import american, hits, victory
from .los import tables as los_tables
from .movement import tables as move_tables
from .procedures import AMERICAN, GERMAN
from .procedures import tables as rule_tables
from .ruleset import with_where

#: the option ``tabletop sim`` compares by default (one group of games per choice)
SIM_BY = "bombardment"
#: the side the autoplayer plays, and what ``assess`` counts
SIDE = AMERICAN
SCORE = "trench sections cleared"

LAND = "land"
ACTIVITY = "activity"
FIRE = "american-fire"
LEADER = "exceptional-leader"
CE = "ce-team"
#: unit types that fire only at adjacent targets and so walk up to the Germans
ASSAULT = frozenset({"infantry", "flamethrower", "ce-team", "exceptional-leader"})
#: the order German targets are preferred in when all else is equal
TARGET_ORDER = ("mg-pillbox", "at-gun", "panzerfaust", "infantry")
MINE_PENALTY = 3  # AP-equivalents a live land-mine hex costs the plan (a 1 in 2 hit)
BARRED_PENALTY = 8  # a hex barred by an obstacle: a CE team may clear it, or go round
MAX_CLEARS = 2  # obstacles a CE team clears in one phase before it moves on
MAX_ACTIONS = 8  # actions one unit takes in one phase (a safety net)
FAR = 10**6
VEHICLES = frozenset({"tank", "dozer"})
#: the only German unit types tanks and dozers may fire at (Table 6)
HEAVY = frozenset({"mg-pillbox", "at-gun"})
#: what ending phase 5 in a swamping hex (the landing row) costs the plan, in AP: the
#: next turn's phase 2 swamps every unit there on a 6 (tanks and dozers on a 5 too)
SWAMP_RISK = 6


def assess(state: GameState) -> tuple[str, int]:
    """The level of victory (Table 7 rank) and the number of trench sections cleared."""
    n = len(victory.sections_cleared(state))
    return victory.rank(n).rank, n


def ranks() -> list[str]:
    """The Table 7 ranks, lowest first (the order ``tabletop sim`` prints them in)."""
    return [r.rank for r in rule_tables().ranks]


# ------------------------------------------------------------------ the board, once


@dataclass
class _Board:
    """What the bot needs of a map, worked out once: neighbours, AP costs, the firing
    position of each hex (None: cannot fire; "adjacent": only at adjacent targets;
    "any"), each hex's row and its distance to the trenches."""

    board: Map
    hexes: tuple[Hex, ...]
    around: dict[Hex, tuple[Hex, ...]]
    cost: dict[Hex, int]
    position: dict[Hex, str | None]
    row: dict[Hex, int]
    to_trench: dict[Hex, int]
    sections: Any
    swamped: dict[Hex, bool]  # swamping may hit it (phase 2)
    labels: dict[Hex, str]
    geometry: dict[tuple[str, Hex, str], frozenset[Hex]] = field(default_factory=dict)
    bonus: dict[tuple[str, Hex, str, int], frozenset[Hex]] = field(default_factory=dict)  # ``_bonus_hexes``
    index: dict[Hex, int] = field(default_factory=dict)  # position in ``hexes``
    enter: tuple[int, ...] = ()  # ``cost`` by position
    around_index: tuple[tuple[int, ...], ...] = ()  # ``around`` by position
    barred: tuple[int, ...] = ()  # positions whose ``enter`` is below 0 (none on DOG SECTOR's map)


_boards: dict[int, _Board] = {}


def _board(board: Map) -> _Board:
    cached = _boards.get(id(board))
    if cached is not None and cached.board is board:
        return cached
    grid = board.grid
    hexes = tuple(sorted(board.terrain, key=board.label))
    around = {h: tuple(n for n in neighbors(h) if grid.contains(n)) for h in hexes}
    costs = move_tables().terrain_costs
    side = los_tables().sides[AMERICAN]
    position: dict[Hex, str | None] = {}
    for h in hexes:
        if any(t.matches(board, h) for t in side.cannot_fire_from):
            position[h] = None
        elif any(t.matches(board, h) for t in side.fire_only_adjacent_from):
            position[h] = "adjacent"
        else:
            position[h] = "any"
    trenches = [h for h in hexes if board.terrain[h] == victory.TRENCH]
    swamping = rule_tables().swamping
    made = _Board(
        board=board,
        hexes=hexes,
        around=around,
        cost={h: costs[board.terrain[h]] for h in hexes},
        position=position,
        row={h: grid.offset_of(h)[1] for h in hexes},
        to_trench={h: min((distance(h, t) for t in trenches), default=0) for h in hexes},
        sections=american._los_policy(board).sections(board),
        swamped={
            h: board.terrain[h] in swamping.terrain
            and not any(board.terrain[n] in swamping.not_next_to for n in around[h])
            for h in hexes
        },
        labels={h: board.label(h) for h in hexes},
        index={h: i for i, h in enumerate(hexes)},
    )
    made.around_index = tuple(tuple(made.index[n] for n in around[h]) for h in hexes)
    made.enter = tuple(made.cost[h] for h in hexes)
    made.barred = tuple(i for i, step in enumerate(made.enter) if step < 0)
    _boards[id(board)] = made
    return made


def _firing_hexes(b: _Board, unit_type: str, target: Piece) -> frozenset[Hex]:
    """The hexes from which a ``unit_type`` may fire at ``target`` as far as geometry
    goes (Table 6 target types, range, sections, firing positions; not the line of
    sight, which only American units block). Remembered per (type, hex, target type)."""
    key = (unit_type, target.hex, target.type)
    found = b.geometry.get(key)
    if found is not None:
        return found
    line = american.tables().fire_units.get(unit_type)
    los_line = los_tables().sides[AMERICAN].units.get(unit_type)
    out: set[Hex] = set()
    if line is not None and los_line is not None and line.may_target(target.type):
        limit = los_line.range_limit(target)
        for h in b.hexes:
            pos = b.position[h]
            if pos is None or h == target.hex:
                continue
            d = distance(h, target.hex)
            if (limit is not None and d > limit) or (pos == "adjacent" and d > 1):
                continue
            if b.sections.same_or_adjacent(h, target.hex):
                out.add(h)
    found = b.geometry[key] = frozenset(out)
    return found


# ------------------------------------------------------------------ the plan fields

_fields: dict[tuple[Any, ...], dict[Hex, int]] = {}
_FIELDS_KEPT = 4096


@dataclass(eq=False)
class _Layout:
    """The German units and live obstacles of one board, one object for every map
    version that has the same ones (a unit's move changes the map, not these), so what
    the bots derive from them is worked out once and read again until a German unit or
    an obstacle changes (issue 19 item 1; tests/test_planner_speed.py checks every such
    answer against the uncached one): ``memo`` what reads both (plan fields), ``by_germans``
    what reads only the German units (threat fields, steps left in each section; shared
    with the next layout while only obstacles change), ``by_obstacles`` what reads only the
    obstacles (each unit type's obstacle costs; shared while only German units change)."""

    board: Map
    germans: tuple[Piece, ...]  # the German units, by id
    obstacles: dict[Hex, frozenset[str]]  # ``_obstacles``
    placed: tuple[Piece, ...]  # the German units in the order placed, to compare the next version with
    markers: tuple[Piece, ...]  # every marker in the order placed, the same
    memo: dict[Any, Any] = field(default_factory=dict)
    by_germans: dict[Any, Any] = field(default_factory=dict)
    by_obstacles: dict[Any, Any] = field(default_factory=dict)


@dataclass(eq=False)
class _Now:
    """One version of one map as the bots read it: its ``_Layout``, the units of each
    side in the order placed, and ``memo`` for answers that last only this version."""

    map: MapState
    version: int
    layout: _Layout
    placed: tuple[Piece, ...]  # the German units in the order placed (the log's order)
    americans: tuple[Piece, ...]  # the American units in the order placed
    memo: dict[Any, Any] = field(default_factory=dict)


_now_memo: list[_Now | None] = [None]


def _now(state: GameState) -> _Now:
    """The map as the bots read it, worked out once a version (one pass over the
    pieces); its layout is the last one's while no German unit or marker changed."""
    last = _now_memo[0]
    if last is not None and last.map is state.map and last.version == state.map.version:
        return last
    germans: list[Piece] = []
    americans: list[Piece] = []
    markers: list[Piece] = []
    for p in state.map.pieces():
        if p.kind == "marker":
            markers.append(p)
        elif p.kind == "unit":
            if p.side == GERMAN:
                germans.append(p)
            elif p.side == AMERICAN:
                americans.append(p)
    placed, marked = tuple(germans), tuple(markers)
    was = last.layout if last is not None and last.layout.board is state.board else None
    if was is None:
        ordered = tuple(sorted(placed, key=lambda p: p.id))
        layout = _Layout(state.board, ordered, _obstacles(state), placed, marked)
    else:
        obstacles = was.obstacles
        if not _same(marked, was.markers):
            found = _obstacles(state)
            if found != obstacles:
                obstacles = found
        same_germans = _same(placed, was.placed)
        if same_germans and obstacles is was.obstacles:
            layout = was  # no German unit and no obstacle changed: the same layout
        elif same_germans:
            layout = _Layout(state.board, was.germans, obstacles, placed, marked, by_germans=was.by_germans)
        else:
            ordered = tuple(sorted(placed, key=lambda p: p.id))
            layout = _Layout(state.board, ordered, obstacles, placed, marked)
            if obstacles is was.obstacles:
                layout.by_obstacles = was.by_obstacles
        layout.placed, layout.markers = placed, marked
    now = _Now(state.map, state.map.version, layout, placed, tuple(americans))
    _now_memo[0] = now
    return now


def _same(pieces: tuple[Piece, ...], before: tuple[Piece, ...]) -> bool:
    """Whether ``pieces`` are the pieces ``before`` in any order (an unchanged piece is
    the same object, a changed one a new, unequal one)."""
    if pieces == before:  # the usual case: the same objects in the same order
        return True
    if len(pieces) != len(before):
        return False
    by_id = {p.id: p for p in before}
    for p in pieces:
        q = by_id.get(p.id)
        if q is not p and q != p:
            return False
    return True


def _layout(state: GameState) -> tuple[list[Piece], dict[Hex, frozenset[str]]]:
    """The German units (by id) and the live obstacles, remembered until they change (a
    unit that stays asks again on the same map as the unit before it)."""
    layout = _now(state).layout
    return list(layout.germans), layout.obstacles


def _germans(state: GameState) -> list[Piece]:
    return sorted(
        (p for p in state.map.pieces() if p.kind == "unit" and p.side == GERMAN), key=lambda p: p.id
    )


def _obstacles(state: GameState) -> dict[Hex, frozenset[str]]:
    """Live obstacle kinds by hex (a cleared marker neutralises its hex)."""
    out: dict[Hex, set[str]] = {}
    kinds = set(american.tables().obstacles)
    cleared: set[Hex] = set()
    for p in state.map.pieces():
        if p.kind != "marker":
            continue
        if p.type == move_tables().cleared_marker:
            cleared.add(p.hex)
        elif p.type in kinds:
            out.setdefault(p.hex, set()).add(p.type)
    return {h: frozenset(k) for h, k in out.items() if h not in cleared}


def _extra(unit_type: str, kinds: Iterable[str]) -> int | None:
    """What entering a hex with these live obstacles adds to the plan for a unit type:
    None if never (no such case: barred hexes get a penalty instead, so a plan runs
    through wire a CE team may clear)."""
    t = move_tables()
    extra = 0
    for kind in kinds:
        effect = t.obstacles[kind].effect(unit_type)
        if effect.extra is None:
            extra += BARRED_PENALTY
        else:
            extra += effect.extra
        if kind == american.tables().mine_marker:
            extra += MINE_PENALTY
    return extra


_extras: dict[Any, Any] = {}


def _extra_of(unit_type: str, kinds: frozenset[str]) -> int | None:
    """``_extra``, remembered by unit type and set of obstacle kinds while the tables it
    reads are the same objects (the tables' alone)."""
    read = (move_tables(), american.tables())
    if _extras.get("tables") != read:  # other tables (reloaded, patched): forget
        _extras.clear()
        _extras["tables"] = read
    key = (unit_type, kinds)
    if key not in _extras:
        _extras[key] = _extra(unit_type, kinds)
    return _extras[key]  # type: ignore[no-any-return]


def _extras_of(unit_type: str, obstacles: dict[Hex, frozenset[str]]) -> dict[Hex, int]:
    """``_extra_of`` (None as 0) of every hex of ``obstacles`` with live kinds, the
    tables checked once for them all rather than once a hex."""
    _extra_of(unit_type, frozenset())  # forgets the remembered costs if the tables changed
    known = _extras
    out: dict[Hex, int] = {}
    for h, kinds in obstacles.items():
        if kinds:
            extra = known.get((unit_type, kinds), _UNKNOWN)
            if extra is _UNKNOWN:
                extra = _extra_of(unit_type, kinds)
            out[h] = extra or 0
    return out


_UNKNOWN = object()


def _goals(b: _Board, unit_type: str, germans: list[Piece]) -> frozenset[Hex]:
    """The hexes a unit type wants to reach: where it could fire at a German unit.
    Ranged units with a bonus range (Table 6: forward observers, tanks, dozers) want to
    be within it; tanks and dozers only where an MG pillbox or AT gun is in reach."""
    occupied = {g.hex for g in germans}
    goals: set[Hex] = set()
    if unit_type == LEADER:  # goes with the assault: next to any German unit
        for g in germans:
            goals.update(b.around[g.hex])
        return frozenset(goals - occupied)
    line = los_tables().sides[AMERICAN].units.get(unit_type)
    bonus = line.bonus_range if line is not None else None
    for g in germans:
        if unit_type in VEHICLES and g.type not in HEAVY:
            continue
        goals |= _firing_hexes(b, unit_type, g) if bonus is None else _bonus_hexes(b, unit_type, g, bonus)
    if not goals and bonus is not None:  # nothing within the bonus range: any firing hex
        for g in germans:
            goals |= _firing_hexes(b, unit_type, g)
    return frozenset(goals - occupied)


def _bonus_hexes(b: _Board, unit_type: str, target: Piece, bonus: int) -> frozenset[Hex]:
    """``_firing_hexes`` within ``bonus`` hexes of the target, remembered as they are."""
    key = (unit_type, target.hex, target.type, bonus)
    found = b.bonus.get(key)
    if found is None:
        found = b.bonus[key] = frozenset(
            h for h in _firing_hexes(b, unit_type, target) if distance(h, target.hex) <= bonus
        )
    return found


def _field(state: GameState, b: _Board, unit_type: str, germans: list[Piece],
           obstacles: dict[Hex, frozenset[str]]) -> dict[Hex, int]:  # fmt: skip
    """AP (with penalties) from each hex to the nearest goal hex of ``unit_type``;
    remembered per German layout and obstacle layout."""
    layout = (
        id(b.board),
        unit_type,
        frozenset((g.hex, g.type) for g in germans),
        frozenset(obstacles.items()),
    )
    cached = _fields.get(layout)
    if cached is not None:
        return cached
    goals = _goals(b, unit_type, germans)
    # the search reads a unit type only through what its obstacles add: types that
    # want the same hexes and pay the same share one field
    extras = {h: _extra(unit_type, kinds) or 0 for h, kinds in obstacles.items() if kinds}
    key = (id(b.board), goals, frozenset(g.hex for g in germans), frozenset(extras.items()))
    dist = _fields.get(key)
    if dist is None:
        dist = _dijkstra(b, goals, {g.hex for g in germans}, extras)
    if len(_fields) >= _FIELDS_KEPT:
        _fields.clear()
    _fields[key] = _fields[layout] = dist
    return dist


def _dijkstra(b: _Board, goals: frozenset[Hex], blocked: set[Hex], extras: dict[Hex, int]) -> dict[Hex, int]:
    """The AP field itself: the nearest goal from each hex, entering a hex costing its
    terrain plus its obstacles' extra (hexes numbered in label order; the distances do
    not depend on the order a search visits them in)."""
    index = b.index
    enter = [b.cost[h] for h in b.hexes]
    for h, extra in extras.items():
        if h in index:
            enter[index[h]] += extra
    for h in blocked:
        if h in index:
            enter[index[h]] = -1
    return _search(b, {h: 0 for h in goals}, enter)


def _search(b: _Board, starts: dict[Hex, int], enter: list[int]) -> dict[Hex, int]:
    """Dial's search from ``starts`` (hex -> its distance to begin with) over the entry
    costs ``enter`` (by hex position; -1: barred): AP are small whole numbers, so buckets
    by distance replace the heap."""
    return {h: d for h, d in zip(b.hexes, _distances(b, starts, enter), strict=True) if d < FAR}


def _distances(
    b: _Board, starts: dict[Hex, int], enter: list[int], barred: Sequence[int] | None = None
) -> list[int]:
    """``_search`` by hex position (FAR: no way to a goal). ``barred``: see ``_relax``."""
    index = b.index
    dist = [FAR] * len(b.hexes)
    seeds: list[int] = []
    for h, d0 in starts.items():
        i = index[h]
        if d0 < dist[i]:
            dist[i] = d0
            seeds.append(i)
    _relax(b, dist, enter, seeds, barred)
    return dist


def _relax(
    b: _Board, dist: list[int], enter: list[int], seeds: list[int], barred: Sequence[int] | None = None
) -> None:
    """The search itself, in place: from the hexes ``seeds`` (by position, each at its
    ``dist``), lower ``dist`` wherever a neighbour's distance plus the cost of entering
    it is less. From scratch (every other hex FAR) it is the whole search; from a
    finished field whose entry costs have since fallen at ``seeds`` (obstacles gone) it
    is the same field the whole search would give (``planner.weighted_field``).
    ``barred``, if given: every position whose ``enter`` is below 0, each once (so the
    costs need not be read through to find them)."""
    if barred is None:
        barred = [i for i, step in enumerate(enter) if step < 0]
    kept = [dist[i] for i in barred]
    for i in barred:
        dist[i] = -1  # below every distance: never entered, never lowered (restored at the end)
    buckets: list[list[int]] = [[] for _ in range(64)]
    top = -1
    for i in seeds:
        d0 = dist[i]
        if d0 < 0:
            continue  # a barred hex is not searched from
        while d0 >= len(buckets):
            buckets.extend([] for _ in range(len(buckets)))
        buckets[d0].append(i)
        top = max(top, d0)
    around = b.around_index
    size = len(buckets)
    c = 0
    while c <= top:
        for i in buckets[c]:  # a zero-cost step appends to the bucket being read
            if dist[i] != c:
                continue
            nd = c + enter[i]  # from a neighbour into i
            for n in around[i]:
                if nd < dist[n]:
                    dist[n] = nd
                    if nd >= size:
                        buckets.extend([] for _ in range(nd + 1 - size))
                        size = len(buckets)
                    buckets[nd].append(n)
                    if nd > top:
                        top = nd
        buckets[c] = []
        c += 1
    for i, d in zip(barred, kept, strict=True):
        dist[i] = d


# ------------------------------------------------------------------ the autoplayer


@dataclass
class _PhasePlan:
    """One phase's bookkeeping: the units in the order they act, which are done, and
    how many actions each has taken."""

    key: tuple[Any, ...]
    order: list[str]
    done: set[str] = field(default_factory=set)
    actions: dict[str, int] = field(default_factory=dict)
    clears: dict[str, int] = field(default_factory=dict)


class AmericanAutoplayer:
    """The American player of DOG SECTOR as a program (an engine ``Bot``): see the
    module doc for how it plays. Deterministic; one instance may play many games."""

    side = AMERICAN

    def __init__(self) -> None:
        self._plan: _PhasePlan | None = None

    def choose(self, view: SideView, side: str | None = None) -> Action:
        """The next American action from the American side's view. The old call,
        ``choose(game, side)``, is still taken (it is turned into that side's view)."""
        if side is not None and not isinstance(view, SideView):
            view = view.side_view(side)
        state: GameState = view.state
        side = view.side
        if side == AMERICAN and state.phase == LAND and state.result is None:
            return _landing(view, state)
        if side != AMERICAN or state.phase not in (ACTIVITY, FIRE) or state.result is not None:
            return dict(END_PHASE)
        plan = self._phase_plan(view, state)
        while plan.order:
            uid = plan.order[0]
            action = None if uid in plan.done else self._next_action(state, plan, uid)
            if action is not None:
                plan.actions[uid] = plan.actions.get(uid, 0) + 1
                if state.phase == FIRE or plan.actions[uid] >= MAX_ACTIONS:
                    plan.done.add(uid)
                return action
            plan.order.pop(0)
        return dict(END_PHASE)

    def _phase_plan(self, view: SideView, state: GameState) -> _PhasePlan:
        key = (view.key, state.turn, state.phase)
        if self._plan is None or self._plan.key != key:
            b = _board(state.board)
            units = [p for p in state.map.pieces() if p.kind == "unit" and p.side == AMERICAN]
            units.sort(
                key=lambda p: (p.type not in VEHICLES, b.to_trench.get(p.hex, FAR), b.labels[p.hex], p.id)
            )
            self._plan = _PhasePlan(key, [p.id for p in units])
        return self._plan

    def _next_action(self, state: GameState, plan: _PhasePlan, uid: str) -> Action | None:
        try:
            unit = state.map.piece(uid)
        except KeyError:
            return None  # gone (a land mine)
        if state.phase == FIRE:
            return self._fire(state, unit)
        return self._activity(state, plan, unit)

    # -- phase 5 ----------------------------------------------------------------------

    def _activity(self, state: GameState, plan: _PhasePlan, unit: Piece) -> Action | None:
        if american.ap_left(state, unit) <= 0:
            return None
        b = _board(state.board)
        if unit.type == LEADER:
            action = self._leader_work(state, unit)
            if action is not None:
                return action
        held = unit.status & (move_tables().cannot_move | american.tables().held_by)
        if held:
            return None
        germans, obstacles = _layout(state)
        if not germans:
            return None
        dist = self._dist(state, b, unit, germans, obstacles)
        if unit.type == CE and plan.clears.get(unit.id, 0) < MAX_CLEARS:
            action = self._clear(state, b, unit, obstacles, dist)
            if action is not None:
                plan.clears[unit.id] = plan.clears.get(unit.id, 0) + 1
                return action
        if unit.type == LEADER:
            action = self._to_the_wounded(state, b, unit)
            if action is not None:
                return action
        return self._advance(state, b, unit, dist, obstacles)

    def _dist(self, state: GameState, b: _Board, unit: Piece, germans: list[Piece],
              obstacles: dict[Hex, frozenset[str]]) -> dict[Hex, int]:  # fmt: skip
        """The plan field the unit moves by (``_field``; the planner weighs it),
        remembered with the map's layout."""
        layout = _now(state).layout
        if obstacles is not layout.obstacles or germans != list(layout.germans):
            return _field(state, b, unit.type, germans, obstacles)  # not the map's own layout
        key = ("simple field", unit.type)
        found = layout.memo.get(key)
        if found is None:
            found = layout.memo[key] = _field(state, b, unit.type, germans, obstacles)
        return found  # type: ignore[no-any-return]

    def _leader_work(self, state: GameState, unit: Piece) -> Action | None:
        """An EL's own hex: remove its pinned-down marker, else restore reduced infantry."""
        pinned = move_tables().pinned_status
        here = state.map.units_at(unit.hex)
        if any(p.has(pinned) for p in here):
            action: Action = {"do": "unpin", "unit": unit.id}
            if american.refusal(state, action) is None:
                return action
        for p in sorted(here, key=lambda p: p.id):
            if p.side == AMERICAN and p.type == american.tables().restore_target and not american._full(p):
                action = {"do": "restore", "unit": unit.id, "target": p.id}
                if american.refusal(state, action) is None:
                    return action
        return None

    def _to_the_wounded(self, state: GameState, b: _Board, unit: Piece) -> Action | None:
        """An EL walks to a hex within reach holding pinned-down or reduced infantry
        (the one nearest the trenches), to work there with its AP left."""
        reach = american.unit_reach(state, unit)
        left = american.ap_left(state, unit)
        at = _work(_now(state))
        best: tuple[Any, ...] | None = None
        for h, cost in reach.costs.items():
            if h == unit.hex or cost >= left:
                continue  # it must keep 1 AP for the work
            work = at.get(h, 0)
            if work:
                key = (-work, b.to_trench[h], cost, b.board.label(h))
                if best is None or key < best:
                    best = key
        if best is None:
            return None
        return self._checked(state, {"do": "move", "unit": unit.id, "to": best[-1]})

    def _clear(self, state: GameState, b: _Board, unit: Piece, obstacles: dict[Hex, frozenset[str]],
               dist: dict[Hex, int]) -> Action | None:  # fmt: skip
        """A CE team: the obstacle(s) next to it on its way inland (not behind it)."""
        row = b.row[unit.hex]
        ahead = [
            h for h in b.around[unit.hex]
            if h in obstacles and b.row[h] >= row and obstacles[h] - {"tank-obstacle"}
        ]  # fmt: skip
        if not ahead:
            return None
        ahead.sort(key=lambda h: (dist.get(h, FAR), b.board.label(h)))
        bang_track = f"{american.tables().bangalore_track}:{unit.id}"
        if not state.track(bang_track):
            for i, x in enumerate(ahead):
                for y in ahead[i + 1 :]:
                    if distance(x, y) == 1:
                        action = {
                            "do": "bangalore",
                            "unit": unit.id,
                            "hexes": [b.board.label(x), b.board.label(y)],
                        }
                        if american.refusal(state, action) is None:
                            return action
        for h in ahead:
            for kind in sorted(obstacles[h]):
                action = {"do": "clear", "unit": unit.id, "hex": b.board.label(h)}
                if len(obstacles[h]) > 1:
                    action["obstacle"] = kind
                if american.refusal(state, action) is None:
                    return action
        return None

    def _advance(self, state: GameState, b: _Board, unit: Piece, dist: dict[Hex, int],
                 obstacles: dict[Hex, frozenset[str]]) -> Action | None:  # fmt: skip
        """Move to the reachable hex nearest a useful position, counting what ending the
        phase there risks (``_risk``); stay if no hex beats this one."""
        mine = american.tables().mine_marker
        if dist.get(unit.hex, FAR) == 0:
            return None  # in position: stay
        here = dist.get(unit.hex, FAR) + _risk(b, unit, unit.hex)
        reach = american.unit_reach(state, unit)
        best: tuple[Any, ...] | None = None
        for h, cost in reach.costs.items():
            if h == unit.hex:
                continue
            value = dist.get(h, FAR)
            if value >= FAR:
                continue
            if mine in obstacles.get(h, ()):
                value += MINE_PENALTY
            value += _risk(b, unit, h)
            key = (value, cost, b.labels[h])
            if best is None or key < best:
                best = key
        if best is None or best[0] >= here:
            return None
        return self._checked(state, {"do": "move", "unit": unit.id, "to": best[-1]})

    @staticmethod
    def _checked(state: GameState, action: Action) -> Action | None:
        return action if american.refusal(state, action) is None else None

    # -- phase 6 ----------------------------------------------------------------------

    def _fire(self, state: GameState, unit: Piece) -> Action | None:
        t = american.tables()
        line = t.fire_units.get(unit.type)
        if line is None or state.marked(t.fired_mark, unit.id) or unit.status & t.fire_held_by:
            return None
        b = _board(state.board)
        pos = b.position[unit.hex]
        if pos is None:
            return None
        targeted = hits.tables().targeted_mark
        now = _now(state)
        layout = now.layout
        germans = list(layout.germans)
        ranked: list[tuple[Any, ...]] = []
        for g in _in_range(layout, b, unit):
            if state.marked(targeted, g.id):
                continue
            need, _ = american.hit_number(state, unit, g)
            kills = g.type != "infantry" or g.steps <= 1
            clears = kills and _last_in_section(state, b, g, germans)
            order = TARGET_ORDER.index(g.type) if g.type in TARGET_ORDER else len(TARGET_ORDER)
            ranked.append((need, not clears, _left_of(layout, b, g), not kills, order, g.id, g))
        # the best target is the first in this order that friendly fire and the rules
        # leave: the costlier checks are asked only until then
        for *_, g in sorted(ranked, key=lambda r: r[:-1]):
            if unit.type in t.ff_units and _friendly_fire(state, now, unit, g):
                continue  # every hit would land on Americans
            if american.refusal(state, {"do": "fire", "unit": unit.id, "target": g.id}) is not None:
                continue
            return with_where(state, {"do": "fire", "unit": unit.id, "target": g.id})  # drawn on the map
        return None


def _in_range(layout: _Layout, b: _Board, unit: Piece) -> tuple[Piece, ...]:
    """The German units of ``layout`` (by id) whose firing hexes hold ``unit``'s hex
    (``_firing_hexes``), once a layout's German units, unit type and hex."""
    key = ("in range", unit.type, unit.hex)
    found = layout.by_germans.get(key)
    if found is None:
        found = layout.by_germans[key] = tuple(
            g for g in layout.germans if unit.hex in _firing_hexes(b, unit.type, g)
        )
    return found  # type: ignore[no-any-return]


def _work(now: _Now) -> dict[Hex, int]:
    """By hex, the pinned-down American units plus the reduced American infantry there
    (what an exceptional leader may help), once a map version."""
    found = now.memo.get("work")
    if found is None:
        pinned = move_tables().pinned_status
        found = now.memo["work"] = {}
        for p in now.americans:
            if p.has(pinned):
                found[p.hex] = found.get(p.hex, 0) + 1
            if p.type == "infantry" and not american._full(p):
                found[p.hex] = found.get(p.hex, 0) + 1
    return found  # type: ignore[no-any-return]


def _risk(b: _Board, unit: Piece, h: Hex) -> int:
    """What ending phase 5 in ``h`` risks for ``unit`` in the next turn, in AP: only
    swamping is counted (phase 2 hits the landing row, not the shallows), as a penalty
    that sends units off the landing row at once rather than along it. (The artillery
    and German fire of rows 3-7 were tried as penalties too; they slowed the crossing
    and cost more than they saved.)"""
    if not b.swamped[h]:
        return 0
    return SWAMP_RISK * (2 if unit.type in VEHICLES else 1)


def _section_left(b: _Board, target: Piece, germans: list[Piece]) -> int:
    """The steps of German units left in the trench hexes of ``target``'s section (fire
    goes first where fewest are left, to clear sections rather than thin them all)."""
    sections = b.sections.of_hex.get(target.hex, frozenset())
    return sum(
        g.steps for g in germans
        if b.board.terrain[g.hex] == victory.TRENCH and b.sections.of_hex.get(g.hex, frozenset()) & sections
    )  # fmt: skip


def _left_of(layout: _Layout, b: _Board, target: Piece) -> int:
    """``_section_left`` of a German unit of ``layout``, remembered with its German units."""
    return _lefts(layout, b)[target.id]


def _lefts(layout: _Layout, b: _Board) -> dict[str, int]:
    """``_section_left`` of every German unit of ``layout`` by id, worked out once for
    its German units (``_sections_left``). Read only: it is the remembered one."""
    found = layout.by_germans.get("lefts")
    if found is None:
        found = layout.by_germans["lefts"] = _sections_left(b, list(layout.germans))
    return found  # type: ignore[no-any-return]


def _sections_left(b: _Board, germans: list[Piece]) -> dict[str, int]:
    """``_section_left`` of each of ``germans`` by id, in one pass: the units in trench
    hexes with their sections, then each unit's sum over those its sections meet."""
    of_hex, terrain = b.sections.of_hex, b.board.terrain
    none: frozenset[str] = frozenset()
    held = [(of_hex.get(g.hex, none), g.steps) for g in germans if terrain[g.hex] == victory.TRENCH]
    sums: dict[frozenset[str], int] = {}
    out: dict[str, int] = {}
    for g in germans:
        sections = of_hex.get(g.hex, none)
        total = sums.get(sections)
        if total is None:
            total = sums[sections] = sum(steps for there, steps in held if there & sections)
        out[g.id] = total
    return out


def _friendly_fire(state: GameState, now: _Now, unit: Piece, target: Piece) -> bool:
    """Whether friendly fire would turn a hit of ``unit`` at ``target`` on American units
    (``american.friendly_fire_hexes`` not empty), asked once a map version."""
    key = ("ff", unit.id, target.id)
    found = now.memo.get(key)
    if found is None:
        found = now.memo[key] = bool(american.friendly_fire_hexes(state, unit.id, target.id))
    return bool(found)


def _last_in_section(state: GameState, b: _Board, target: Piece, germans: list[Piece]) -> bool:
    """Whether ``target`` is the last German unit in the trench hexes of its section."""
    sections = b.sections.of_hex.get(target.hex, frozenset())
    for g in germans:
        if g.id == target.id or b.board.terrain[g.hex] != victory.TRENCH:
            continue
        if b.sections.of_hex.get(g.hex, frozenset()) & sections:
            return False
    return True


def _landing(view: SideView, state: GameState) -> Action:
    """Phase 1 with the option choose-landing (the player places the landing units):
    vehicles first, each on the landing-row hex with the fewest Americans, then the one
    nearest the trenches; end the phase when none is left to place."""
    placements = [a for a in view.choices if a.get("do") == "land-unit"]
    if not placements:
        return dict(END_PHASE)
    b = _board(state.board)
    types = {p.id: p.type for p in state.box(rule_tables().landing.box)}
    crowd = Counter(p.hex for p in state.map.pieces() if p.kind == "unit" and p.side == AMERICAN)

    def rank(a: Action) -> tuple[Any, ...]:
        h = state.board.hex_of(str(a["to"]))
        return (types.get(a["unit"]) not in VEHICLES, crowd[h], b.to_trench.get(h, FAR), a["to"], a["unit"])

    return min(placements, key=rank)


def autoplayer() -> AmericanAutoplayer:
    """The descriptor's bot (``RULES.bots['autoplayer']``): a new American autoplayer."""
    return AmericanAutoplayer()


__all__ = ["SCORE", "SIDE", "SIM_BY", "AmericanAutoplayer", "assess", "autoplayer", "ranks"]
