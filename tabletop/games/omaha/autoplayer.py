"""D-Day at Omaha Beach: the US autoplayer (``tactical``, for ``sim``, ``b`` and ``--bot us``),
a simple ``landing`` player, and the ``tabletop sim`` judge (victory.py, gap G2).

Both bots use no dice of their own. ``landing`` (part 1's) only wades ashore. The
``tactical`` bot plays the whole US side greedily, one action at a time:

- landing: each arrival to the legal box of its sector that expects the least fire (its
  own and, half-weighted, that of the 1-3 boxes to its left where 9.2 drift takes it),
  spreading units over boxes, rangers to Charlie; rangers take no drift; a mine or a
  German-fire tie takes the step whose loss costs least (``loss_cost``: never a
  company one loss from the catastrophic loss box, then no last step, then no full
  company made fragile); a hero is always flipped to save a last step;
- US Action phase, in this order: in EXT turns each Division's Engineer Base where its
  range holds the most units on traffic-managed ground, an HQ with 3+ units near it
  becomes a Command Post and a CP advances toward more units (omaha 7, 8); attacks whose
  9.7 cell is good (the party is every unit allowed, with naval fire when it helps;
  trimmed to the sector budget); tank and artillery barrages only when they are free
  (a paid barrage rarely Disrupts: the budget goes to moves); the free marker actions
  (Disrupted, climb); obstacle clearing in front of the boxes; free moves, then paid
  moves toward the nearest German position still to take (adjacent to a held one, into
  an empty one), avoiding over-stacking, 5-step stacks under fire and, off the shortest
  path, the intense fields; leaders last, to the hex next to the most units, infantry
  next to a German hex counting 4 (an HQ gives them the radio naval support needs); an
  HQ with no better neighbouring hex steps toward a hex up to 4 off whose count is
  clearly higher (more than 2 over its own: front infantry);
  naval barrages last, on the German hex whose field holds the most US steps (the
  sector's marker stays free for an attack the moves set up);
- end of turn: an over-stacked hex loses its unit with the fewest steps.
"""

from __future__ import annotations

import heapq
import random
from typing import Any

from tabletop.board import Map
from tabletop.engine.actions import END_PHASE, Action
from tabletop.engine.game import SideView
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance, neighbors

from . import attacks as atk
from . import data, engineers, german, landing, us_actions, victory
from .command import MOVED
from .common import (
    DISRUPTED,
    LEADERS,
    US,
    at,
    col_row,
    extended,
    full_steps,
    landing_boxes,
    sector_of,
    stack_count,
    us_units,
)
from .fields import fields, position_keys
from .movement import active_fields, active_positions, default_rules, road_kinds
from .ruleset import OmahaRules
from .usdata import attacks

SIDE = US
SIM_BY = "length"
SCORE = "VP at the end: positions held and free of Germans (VP positions 3, others 1) minus catastrophic losses (gap G2)"
VALUE = {"defeated": 10, "reveal-again": 4, "drop-depth": 2, "disrupted": 2, "none": 0, "add-depth": -2,
         "unreveal": -1, "us-disrupted": -3}  # fmt: skip
DANGER = {"intense": 3, "steady": 2, "sporadic": 1}
FRONT_REACH = 4  # an HQ looks this many hexes off for front infantry to command


def loss_cost(unit: Piece, *, catastrophic: bool) -> int:
    """What one step lost costs the US (the bot's choice of who takes a tied hit or a
    mine): a non-ranger infantry company that has already lost a step goes to the
    catastrophic loss box under German fire (omaha 4: -1 VP, gap G12) - the worst; a
    last step is a unit gone; a full company made fragile comes next; any other loss
    (a tank's, an AT gun's, a ranger's) is the cheapest."""
    infantry = unit.type in data.rules()["fire"]["catastrophic_types"]
    lost = full_steps(unit) - unit.steps
    if infantry and catastrophic and lost + 1 >= 2:
        return 10
    if unit.steps <= 1:
        return 6
    if infantry and lost == 0:
        return 3
    return 2 if infantry else 1


def assess(state: GameState) -> tuple[str, int]:
    n = victory.score(state)
    return victory.rank_of(state, n), n


def ranks() -> list[str]:
    return victory.ranks()


def _box_danger(state: GameState) -> dict[Hex, int]:
    """Per hex, the fire of every active German position over it (DANGER weights)."""
    by_position = fields(state.board).by_position
    out: dict[Hex, int] = {}
    for key in active_positions(state.map):
        for h, intensity in by_position.get(key, {}).items():
            out[h] = out.get(h, 0) + DANGER[intensity]
    return out


def _landing_risk(state: GameState, box: Hex, danger: dict[Hex, int]) -> float:
    """The fire a unit placed in ``box`` expects: half the box's own, half the mean of
    the boxes 1-3 to its left, where 9.2 drift mostly takes it."""
    col, row = col_row(state.board, box)
    drift = [h for d in (1, 2, 3) if (h := at(state.board, col - d, row)) is not None]
    after = sum(danger.get(h, 0) for h in drift) / len(drift) if drift else danger.get(box, 0)
    return danger.get(box, 0) / 2 + after / 2


class LandingBot:
    """The simple US player: lands, wades ashore one hex a turn, never attacks."""

    def __init__(self) -> None:
        self.rules = OmahaRules()

    def choose(self, view: SideView) -> Action:
        state = view.state
        phase = state.phase
        if phase == "landing":
            return self._landing(state, view)
        if phase == "us-action":
            return self._wade(state) or dict(END_PHASE)
        if phase == "end-turn":
            options = view.choices
            return min(options, key=lambda a: (state.map.piece(str(a["unit"])).steps, str(a["unit"])))
        return self._german_choice(state, view)

    @staticmethod
    def _german_choice(state: GameState, view: SideView) -> Action:
        """A tie or Inspired choice in the German phase: flip the hero; hit the unit with
        the most steps, sparing rangers and last steps."""
        options = view.choices
        inspired = [a for a in options if a.get("inspire")]
        if inspired:
            return inspired[0]

        def key(a: Action) -> tuple[int, int, str]:
            try:
                p = state.map.piece(str(a.get("unit")))
            except KeyError:
                return (99, 0, "")
            return (loss_cost(p, catastrophic=True), -p.steps, p.id)

        hits = [a for a in options if a.get("do") == "german-hit"]
        return min(hits, key=key) if hits else options[0]

    def _landing(self, state: GameState, view: SideView) -> Action:
        left = landing.waiting(state)
        if left:
            unit = left[0]
            legal = [h for h in landing_boxes(state.board)
                     if landing.place_refusal(state, unit.id, state.board.label(h)) is None]  # fmt: skip
            if not legal:
                return {"do": "land-delay", "unit": unit.id}
            charlie = state.board.regions["beach-charlie"].hexes
            danger = _box_danger(state)
            best = min(legal, key=lambda h: (0 if (h in charlie) == (unit.type == "ranger") else 1,
                                             _landing_risk(state, h, danger) + 2 * stack_count(state, h),
                                             -col_row(state.board, h)[0]))  # fmt: skip
            return {"do": "land-place", "unit": unit.id, "to": state.board.label(best)}
        if state.marks.get(landing.ASK_RANGER):
            return {"do": "ranger-drift", "unit": state.marks[landing.ASK_RANGER][0], "left": 0}
        options = view.choices
        return min(options, key=lambda a: (loss_cost(state.map.piece(str(a["unit"])), catastrophic=False),
                                           -state.map.piece(str(a["unit"])).steps, str(a["unit"])))  # fmt: skip

    def _wade(self, state: GameState) -> Action | None:
        board = state.board
        units = [p for p in us_units(state) if not state.marked(us_actions.ACTED, p.id) and p.type not in LEADERS
                 and DISRUPTED not in p.status]  # fmt: skip
        units.sort(key=lambda p: (-col_row(board, p.hex)[1], -p.steps, p.id))
        for unit in units:
            col, row = col_row(board, unit.hex)
            ahead = at(board, col, row - 1)
            if ahead is None or state.map.terrain_at(ahead) in ("sea", "rough") or row <= 11:
                continue
            if stack_count(state, ahead) >= 2 or any(p.side != US for p in state.map.units_at(ahead)):
                continue
            action: dict[str, Any] = {"do": "move", "unit": unit.id, "to": board.label(ahead)}
            if self.rules.refusal(state, action) is None:
                return action
        return None


# --------------------------------------------------------------- the tactical bot


_DIST: dict[tuple[int, str, frozenset[Hex]], tuple[Map, dict[Hex, int]]] = {}


def _ground_distance(board: Map, cls: str, goals: frozenset[Hex]) -> dict[Hex, int]:
    """Steps from each hex to the nearest goal over ground the 9.4 table lets the class
    cross (climbs cost more), ignoring units; cached per map, class and goals."""
    key = (id(board), cls, goals)
    made = _DIST.get(key)
    if made is not None and made[0] is board:
        return made[1]
    rules = default_rules()
    cost_of = {"open": 1, "road": 1, "climb": 2, "climb-cliff": 3}
    out: dict[Hex, int] = {g: 0 for g in goals}
    todo = [(0, board.label(g), g) for g in goals]
    heapq.heapify(todo)
    while todo:
        d, _, h = heapq.heappop(todo)
        if d > out.get(h, 1 << 30):
            continue
        for n in neighbors(h):
            if not board.grid.contains(n):
                continue
            ground = rules.terrain.get(board.terrain[n], {}).get(cls, "open")  # type: ignore[call-overload]
            if ground == "prohibited" and board.terrain[n] != "sea":
                continue
            step = 1
            for feat in board.hexside_features(h, n):
                word = rules.hexsides.get(feat, {}).get(cls, "open")  # type: ignore[call-overload]
                if word == "prohibited":
                    step = 0
                    break
                if word == "road" and not (road_kinds(board, h, rules.roads) and road_kinds(board, n, rules.roads)):
                    step = 0
                    break
                step = max(step, cost_of.get(word, 1))
            if step == 0:
                continue
            nd = d + step
            if nd < out.get(n, 1 << 30):
                out[n] = nd
                heapq.heappush(todo, (nd, board.label(n), n))
    if len(_DIST) > 256:
        _DIST.clear()
    _DIST[key] = (board, out)
    return out


class TacticalBot(LandingBot):
    """The US autoplayer (see the module doc)."""

    free_barrages_only = True
    cautious = False  # stepping only into lighter fire stalls the attack (no attack in 8 standard games)

    def choose(self, view: SideView) -> Action:
        state = view.state
        if state.phase != "us-action":
            return super().choose(view)
        # naval barrages last: their Disrupted lasts to the German fire all the same, and
        # the sector's marker stays free for an attack the phase's moves set up (+9, 6.2)
        for step in (self._bases, self._command_posts, self._attack, self._barrage, self._markers, self._clear,
                     self._occupy, self._free_move, self._paid_move, self._leader_move, self._naval):  # fmt: skip
            action = step(state)
            if action is not None and self.rules.refusal(state, action) is None:
                return action
        return dict(END_PHASE)

    # -- extended turns: engineer bases and command posts (omaha 7, 8)

    def _bases(self, state: GameState) -> Action | None:
        """Each Division's base where its range holds the most US units that would
        begin a move on ground traffic management frees (omaha 7 EXT)."""
        if not extended(state):
            return None
        board = state.board
        terrain = set(engineers.cfg()["traffic_terrain"])
        units = [u for u in us_units(state) if u.type not in LEADERS and state.map.terrain_at(u.hex) in terrain]
        most = int(engineers.cfg()["range"])
        for division in engineers.divisions():
            if state.marked(engineers.BASED, division):
                continue
            old = engineers.base_of(state, division)
            def served(h: Hex) -> int:
                return sum(1 for u in units if distance(u.hex, h) <= most)
            best = (served(old.hex) if old is not None else 0, "")
            for h in sorted(board.grid.hexes(), key=board.label):
                if state.map.terrain_at(h) != "beach" or (old is not None and distance(old.hex, h) > 2):
                    continue
                n = served(h)
                if n > best[0] and engineers.refusal(state, division, board.label(h)) is None:
                    best = (n, board.label(h))
            if best[1]:
                return {"do": "engineer-base", "division": division, "to": best[1]}
        return None

    def _command_posts(self, state: GameState) -> Action | None:
        """An HQ with 3+ units within the CP range establishes a Command Post; a CP
        advances to the neighbouring hex whose range holds more units (omaha 8 EXT)."""
        if not extended(state):
            return None
        board = state.board
        units = [u for u in us_units(state) if u.type not in LEADERS]
        most = int(attacks()["command"]["cp_range"])
        def near(h: Hex) -> int:
            return sum(1 for u in units if distance(u.hex, h) <= most)
        for lead in self._ready(state):
            if lead.type == "hq" and not state.marked(MOVED, lead.id) and near(lead.hex) >= 3:
                a: Action = {"do": "establish-cp", "unit": lead.id}
                if us_actions.refusal(state, a) is None:
                    return a
            if lead.type == "command-post":
                here = near(lead.hex)
                ring = [n for n in neighbors(lead.hex) if board.grid.contains(n)]
                for n in sorted(ring, key=lambda h: (-near(h), board.label(h))):
                    if near(n) > here:
                        a = {"do": "advance-cp", "unit": lead.id, "to": board.label(n)}
                        if us_actions.refusal(state, a) is None:
                            return a
        return None

    # -- fighting

    def _ready(self, state: GameState) -> list[Piece]:
        return [u for u in us_units(state) if not state.marked(us_actions.ACTED, u.id)]

    def _attack(self, state: GameState) -> Action | None:
        board = state.board
        ready = self._ready(state)
        best: tuple[int, str, Action] | None = None
        for t in sorted({p.hex for p in state.map.pieces() if p.side == "german" and p.kind == "unit"}, key=board.label):
            label = board.label(t)
            if state.marked(atk.STRUCK, label) or state.marked(atk.BARRAGED, label):
                continue
            party = us_actions.attack_party(state, t, ready)
            if not party:
                continue
            party = self._afford(state, party)
            if not any(u.type in atk.INFANTRY for u in party):
                continue
            for naval in (False, True):
                a = atk.assess(state, t, party, naval)
                if a.refused:
                    continue
                value = sum(VALUE.get(w, 0) for w in a.results) - (1 if naval else 0)
                action = {"do": "attack", "target": label, "units": [u.id for u in party], "naval": naval}
                if value >= 2 and (best is None or value > best[0]):
                    best = (value, label, action)
        return best[2] if best else None

    @staticmethod
    def _afford(state: GameState, party: list[Piece]) -> list[Piece]:
        """Drop paying units (weakest hex first) until the sectors can pay."""
        party = list(party)
        while party:
            need = us_actions.cost(state, party, "attack")
            short = [s for s, n in need.items() if state.track(us_actions.ACTIONS_LEFT + s) < n]
            if not short:
                return party
            paying = [u for u in party if us_actions.free_reason(state, u, "attack") is None
                      and sector_of(state.board, u.hex) in short]  # fmt: skip
            weakest = min(paying, key=lambda u: (u.type in atk.INFANTRY, u.steps, u.id))
            party = [u for u in party if u.hex != weakest.hex or u.id != weakest.id]
        return party

    def _threat(self, state: GameState, t: Hex) -> int:
        field = atk.target_field(state, t)
        return sum(p.steps * DANGER.get(field.get(p.hex, ""), 0) for p in us_units(state))

    def _naval(self, state: GameState) -> Action | None:
        board = state.board
        found = []
        for t in {p.hex for p in state.map.pieces() if p.side == "german" and p.kind == "unit"}:
            if all(DISRUPTED in p.status for p in atk.germans_at(state, t)):
                continue
            a = {"do": "naval-barrage", "target": board.label(t)}
            if us_actions.refusal(state, a) is None:
                found.append((-self._threat(state, t), board.label(t), a))
        return min(found)[2] if found else None

    def _barrage(self, state: GameState) -> Action | None:
        board = state.board
        targets = [t for t in {p.hex for p in state.map.pieces() if p.side == "german" and p.kind == "unit"}
                   if not all(DISRUPTED in p.status for p in atk.germans_at(state, t))]  # fmt: skip
        targets.sort(key=lambda t: (-self._threat(state, t), board.label(t)))
        for u in self._ready(state):
            if u.type not in ("tank", "artillery") or DISRUPTED in u.status:
                continue
            if self.free_barrages_only and us_actions.free_reason(state, u, "barrage") is None:
                continue
            for t in targets:
                a = {"do": "barrage", "unit": u.id, "target": board.label(t)}
                if us_actions.refusal(state, a) is None:
                    return a
        return None

    def _markers(self, state: GameState) -> Action | None:
        for u in self._ready(state):
            for do in ("rally", "drop-climb"):
                a = {"do": do, "unit": u.id}
                if us_actions.refusal(state, a) is None and us_actions.free_reason(state, u, do) is not None:
                    return a
        return None

    def _clear(self, state: GameState) -> Action | None:
        board = state.board
        if us_actions.clear_capacity(state) == 0:
            return None
        hot: set[Hex] = set()
        for key in position_keys(board):
            if german.active_units(state, key):
                hot |= set(german.field(board, key))
        open_sectors = {s for s in ("east", "west")
                        if state.track(us_actions.CLEARED + s) < us_actions.clear_capacity(state)}  # fmt: skip
        marks = [m for m in state.map.pieces() if m.kind == "marker" and m.type == "beach-obstacles"
                 and m.hex not in hot and sector_of(board, m.hex) in open_sectors]  # fmt: skip
        marks.sort(key=lambda m: (-col_row(board, m.hex)[1], board.label(m.hex)))
        for m in marks:
            a = {"do": "clear-obstacle", "hex": board.label(m.hex)}
            if us_actions.refusal(state, a) is None:
                return a
        return None

    # -- moving

    def _occupy(self, state: GameState) -> Action | None:
        """Into an empty position not yet held (victory, gap G2), from next to it."""
        board = state.board
        held = set(victory.held(state))
        for key in position_keys(board):
            if key in held or german.units_in(state, key):
                continue
            for h in sorted(board.regions[key].hexes, key=board.label):
                if stack_count(state, h) >= 2:
                    continue
                for u in self._ready(state):
                    if u.type in LEADERS or distance(u.hex, h) != 1:
                        continue
                    a: Action = {"do": "move", "unit": u.id, "to": board.label(h)}
                    if us_actions.refusal(state, a) is None:
                        return a
        return None

    def _goals(self, state: GameState) -> frozenset[Hex]:
        """Hexes to reach: next to German-held hexes (not up a bluff or across a cliff),
        and the hexes of empty positions not yet US-controlled; once per map version."""
        key = (id(state.map), state.map.version)
        made: tuple[object, frozenset[Hex]] | None = getattr(self, "_goals_memo", None)
        if made is None or made[0] != key:
            made = self._goals_memo = (key, self._make_goals(state))
        return made[1]

    def _make_goals(self, state: GameState) -> frozenset[Hex]:
        board = state.board
        out: set[Hex] = set()
        held = set(victory.held(state))
        for key in position_keys(board):
            hexes = board.regions[key].hexes
            if german.units_in(state, key):
                for h in hexes:
                    if any(p.side == "german" for p in state.map.units_at(h)):
                        out |= {n for n in neighbors(h) if board.grid.contains(n)
                                and not atk.assault_prohibited(state, n, h)}  # fmt: skip
            elif key not in held:
                out |= set(hexes)
        german_hexes = {p.hex for p in state.map.pieces() if p.side == "german"}
        return frozenset(out - german_hexes)

    @staticmethod
    def _fragile(unit: Piece) -> bool:
        """A non-ranger infantry company one loss from the catastrophic loss box (omaha 4)."""
        return unit.type == "infantry" and unit.steps == full_steps(unit) - 1

    def _shelter_step(self, state: GameState, unit: Piece, free_only: bool) -> Action | None:
        """A fragile unit under fire steps to the neighbour with the least fire."""
        board = state.board
        fire = active_fields(state.map)
        here = DANGER.get(fire[unit.hex][1], 0) if unit.hex in fire else 0
        if here == 0:
            return None
        best: tuple[tuple[int, str], Action] | None = None
        for n in neighbors(unit.hex):
            if not board.grid.contains(n) or stack_count(state, n) >= 2:
                continue
            if free_only and us_actions.free_reason(state, unit, "move", n) is None:
                continue
            danger = DANGER.get(fire[n][1], 0) if n in fire else 0
            a: Action = {"do": "move", "unit": unit.id, "to": board.label(n)}
            if danger < here and us_actions.refusal(state, a) is None and (best is None or (danger, board.label(n)) < best[0]):
                best = ((danger, board.label(n)), a)
        return best[1] if best else None

    @staticmethod
    def _concentrated(state: GameState, h: Hex, adding: int) -> bool:
        """Whether ``adding`` steps in ``h`` make a concentrated target there (omaha 4)."""
        there = sum(p.steps for p in state.map.units_at(h) if p.side == US and p.type not in LEADERS)
        return there + adding >= int(data.rules()["fire"]["concentrated_steps"])

    def _best_step(self, state: GameState, unit: Piece, free_only: bool) -> Action | None:
        board = state.board
        if self._fragile(unit) and state.map.terrain_at(unit.hex) != "sea":
            return self._shelter_step(state, unit, free_only)
        cls = default_rules().unit_class(unit)
        goals = self._goals(state)
        if not goals:
            return None
        dist = _ground_distance(board, cls, goals)
        here = dist.get(unit.hex, 999)
        if here == 0:
            return None
        fire = active_fields(state.map)
        now = DANGER.get(fire[unit.hex][1], 0) if unit.hex in fire else 0
        best: tuple[tuple[int, int, str], Action] | None = None
        for n in neighbors(unit.hex):
            if not board.grid.contains(n) or dist.get(n, 999) >= here:
                continue
            if self.cautious and dist[n] > 0 and (DANGER.get(fire[n][1], 0) if n in fire else 0) > now:
                continue  # no step into heavier fire except onto the hex an attack starts from
            if stack_count(state, n) >= 2 and unit.type not in LEADERS:
                continue
            if any(p.side == "german" for p in state.map.units_at(n)):
                continue
            if free_only and us_actions.free_reason(state, unit, "move", n) is None:
                continue
            a: Action = {"do": "move", "unit": unit.id, "to": board.label(n)}
            if us_actions.refusal(state, a) is not None:
                continue
            danger = DANGER.get(fire[n][1], 0) if n in fire else 0
            if danger and self._concentrated(state, n, unit.steps):
                danger += 3  # a stack of 5+ steps is hit whatever the card's symbols (omaha 4)
            score = (dist[n], danger, board.label(n))
            if best is None or score < best[0]:
                best = (score, a)
        return best[1] if best else None

    def _movers(self, state: GameState) -> list[Piece]:
        board = state.board
        units = [u for u in self._ready(state) if u.type not in LEADERS and DISRUPTED not in u.status
                 and "climb" not in u.status and u.type != "artillery"]  # fmt: skip
        # the sea first (artillery hits boxes first, omaha 5), then the furthest back
        units.sort(key=lambda u: (state.map.terrain_at(u.hex) != "sea", -col_row(board, u.hex)[1], -u.steps, u.id))
        return units

    def _free_move(self, state: GameState) -> Action | None:
        for u in self._movers(state):
            a = self._best_step(state, u, free_only=True)
            if a is not None:
                return a
        return None

    def _paid_move(self, state: GameState) -> Action | None:
        for u in self._movers(state):
            if state.track(us_actions.ACTIONS_LEFT + sector_of(state.board, u.hex)) <= 0:
                continue
            a = self._best_step(state, u, free_only=False)
            if a is None:
                continue
            mates = [m for m in self._movers(state) if m.hex == u.hex and m.id != u.id
                     and us_actions.free_reason(state, m, "move") is None]  # fmt: skip
            to = state.board.hex_of(str(a["to"]))
            if mates and stack_count(state, to) == 0:
                pair = {**a, "with": mates[0].id}
                if us_actions.refusal(state, pair) is None:
                    return pair
            return a
        return None

    def _leader_move(self, state: GameState) -> Action | None:
        """Leaders last: to the neighbouring hex next to the most US units (command)."""
        board = state.board
        units = [u for u in us_units(state) if u.type not in LEADERS]
        german_hexes = {p.hex for p in state.map.pieces() if p.side == "german" and p.kind == "unit"}
        front = [u for u in units if u.type in atk.INFANTRY and any(distance(u.hex, g) == 1 for g in german_hexes)]

        def pull(h: Hex) -> int:
            """Units in command from ``h``; infantry next to a German hex count 4 (an
            HQ gives them a radio, so naval fire may support their attack, 6.2)."""
            return (sum(1 for u in units if distance(u.hex, h) <= 1)
                    + 3 * sum(1 for u in front if distance(u.hex, h) <= 1))  # fmt: skip

        for lead in self._ready(state):
            if lead.type not in ("hq", "general") or state.marked(MOVED, lead.id):
                continue
            here = pull(lead.hex)
            best: tuple[int, str] | None = None
            for n in neighbors(lead.hex):
                if not board.grid.contains(n):
                    continue
                a = {"do": "move", "unit": lead.id, "to": board.label(n)}
                if us_actions.refusal(state, a) is not None:
                    continue
                near = pull(n)
                if near > here and (best is None or near > best[0]):
                    best = (near, board.label(n))
            if best is not None:
                return {"do": "move", "unit": lead.id, "to": best[1]}
            if lead.type == "hq" and front:
                # a hex a few steps off that commands clearly more (front infantry count 4)
                spots = {n for u in front for n in (u.hex, *neighbors(u.hex))
                         if board.grid.contains(n) and 1 <= distance(n, lead.hex) <= FRONT_REACH}  # fmt: skip
                goals = [h for h in spots if pull(h) > here + 2]
                toward = self._toward(state, lead, goals) if goals else None
                if toward is not None:
                    return toward
            if state.map.terrain_at(lead.hex) == "sea":
                ahead = at(board, col_row(board, lead.hex)[0], col_row(board, lead.hex)[1] - 1)
                if ahead is not None:
                    return {"do": "move", "unit": lead.id, "to": board.label(ahead)}
        return None


    @staticmethod
    def _toward(state: GameState, lead: Piece, goals: list[Hex]) -> Action | None:
        """One step of ``lead`` toward the nearest of ``goals`` over ground it may cross.
        Used for an HQ whose command would count clearly more next to the front
        infantry: HQ command gives them the radio naval fire needs (6.2); a leader that
        only ever steps to a better neighbouring hex stays with the crowd on the beach
        (issue 18 item 2: attacking infantry was 4-6 hexes from every HQ)."""
        board = state.board
        if state.map.terrain_at(lead.hex) == "sea":
            return None
        dist = _ground_distance(board, default_rules().unit_class(lead), frozenset(goals))
        here = dist.get(lead.hex, 999)
        best: tuple[tuple[int, str], Action] | None = None
        for n in neighbors(lead.hex):
            if not board.grid.contains(n) or dist.get(n, 999) >= here:
                continue
            if any(p.side == "german" for p in state.map.units_at(n)):
                continue
            a: Action = {"do": "move", "unit": lead.id, "to": board.label(n)}
            if us_actions.refusal(state, a) is None and (best is None or (dist[n], board.label(n)) < best[0]):
                best = ((dist[n], board.label(n)), a)
        return best[1] if best else None


class RandomBot:
    """The baseline: one of the legal choices, uniformly, from its own seeded stream (so
    a sim run repeats)."""

    def __init__(self, seed: int = 0) -> None:
        self.random = random.Random(seed)

    def choose(self, view: SideView) -> Action:
        """The attack builder's picks plan and play nothing: not among its choices."""
        return self.random.choice([a for a in view.choices if a.get("do") != "attack-pick"])


def random_bot() -> RandomBot:
    return RandomBot()


def autoplayer() -> TacticalBot:
    return TacticalBot()


def landing_bot() -> LandingBot:
    return LandingBot()
