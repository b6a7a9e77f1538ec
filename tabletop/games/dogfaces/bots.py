"""Dogfaces in Space's bots and its contract with ``tabletop sim``: ``BOTS``,
``DEFAULT_BOTS``, ``standings`` (per side outcome and soldiers left) and ``TURN_CAP``.

Both bots play either side and read only their side's view (``SideView``): the board is
open to both players in this game (no hidden information), so the view's state is all
of it. The rules' own functions (``ruleset``) tell them what is legal; ``combat.odds``
gives the exact odds of the Combat Table, the same arithmetic the rules roll by.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import replace
from fractions import Fraction
from functools import cache

from tabletop.engine.actions import END_PHASE, Action
from tabletop.engine.game import PASS, SideView
from tabletop.engine.pieces import Piece
from tabletop.engine.standings import standings as read_standings
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance, neighbors

from . import combat
from .data import roster
from .movement import default_table, jet_pack_targets
from .ruleset import (
    ATTACK_PHASES,
    MOVE_PHASES,
    OVERWATCH,
    SIDES,
    STUNNED,
    DogfacesRules,
    aboard,
    find,
    leader_number,
    other,
    reach_of,
    sees,
    shots_for,
    soldier,
    strike_of,
    target_of,
    units,
    weapons_of,
)  # fmt: skip

TURN_CAP = int(roster().choices["turn_cap"])  # G-D16: the text has no last turn
SIDE = SIDES[0]
RULES = DogfacesRules()


class RandomBot:
    """The baseline: one of its side's legal choices, uniformly (surrender left out, so a
    game measures play, not giving up); its own seeded stream, so a sim run repeats."""

    def __init__(self, seed: int = 0) -> None:
        self.random = random.Random(seed)

    def choose(self, view: SideView) -> Action:
        choices = [a for a in view.choices if a.get("do") != "surrender"]
        return self.random.choice(choices)


# --- what a result is worth ------------------------------------------------------------------

RESULT_WORTH = {"miss": 0.0, "St": 0.3, "R2": 0.2, "R2S": 0.45, "OOC": 1.0}
STUNNED_WORTH = {"miss": 0.0, "St": 0.0, "R2": -0.1, "R2S": 0.25, "OOC": 1.0}


def worth(piece: Piece) -> float:
    """How much putting this soldier out matters: leaders, the medic, the heavy weapons
    and the vehicles most."""
    s = soldier(piece)
    value = 1.0
    if s.leader is not None:
        value += 0.4
    if s.has("medic"):
        value += 0.3
    if any(w in ("slrg", "rocket", "flame", "mrg") for w in s.weapons):
        value += 0.3
    if s.has("vehicle"):
        value += 0.5
    return value


@cache
def _odds(strikes: tuple[combat.Strike, ...], target: combat.Target) -> dict[str, Fraction]:
    return combat.odds(strikes, target)


def expected(strikes: tuple[combat.Strike, ...], target: combat.Target, piece: Piece) -> float:
    """The expected worth of an attack of ``strikes`` on ``piece`` (exact odds, VI)."""
    if not strikes:
        return 0.0
    table = STUNNED_WORTH if piece.has(STUNNED) else RESULT_WORTH
    return worth(piece) * sum(float(p) * table[k] for k, p in _odds(strikes, target).items())


class TacticalBot:
    """A real player for either side. Movement: each soldier in turn to the hex that
    scores best (a shot from there, cover that hurts the enemy's roll or strength, a
    leader's range, no enemy next to him, closing in when nothing is in range), and
    Overwatch for up to two who stay put. Attack: shots one at a time, each where the
    exact odds of the Combat Table gain the most (damage summed on a target), AP at
    armour, splash kept off friends. Overwatch: fires at the first chance. Surrenders
    when it has fewer than a quarter of the enemy's soldiers."""

    def __init__(self) -> None:
        self.stay: set[tuple[object, int, str, str]] = set()
        self._field: tuple[object, object, dict[Hex, int]] | None = None
        self._asked: tuple[int, int, str | None] | None = None  # the position and enemy side last asked for
        self._costs: tuple[object, tuple[object, ...], dict[Hex, int | None]] | None = None

    def _walk_costs(self, state: GameState) -> dict[Hex, int | None]:
        """Each hex's soldier cost to walk out of (None: no soldier enters it), per map
        and ground changes: worked out once, not per step of every search (issue 19)."""
        ground = tuple(sorted(state.map.terrain_overrides().items()))
        if self._costs is not None and self._costs[0] is state.board and self._costs[1] == ground:
            return self._costs[2]
        table = default_table()
        costs: dict[Hex, int | None] = {}
        for h in state.board.grid.hexes():
            cost = table.enter_cost(state.map.terrain_at(h), False)
            costs[h] = None if cost is None else int(cost)
        self._costs = (state.board, ground, costs)
        return costs

    def _approach(self, state: GameState, enemies: list[Piece]) -> dict[Hex, int]:
        """Walking distance (in move-cost units, soldiers' terrain, units ignored) from
        every hex to the nearest enemy: closing in goes round the river, not into it."""
        asked = (id(state.map), state.map.version, enemies[0].side if enemies else None)
        if self._field is not None and self._asked == asked and self._field[0] is state.board:
            return self._field[2]  # the same position as the last question (a move's every hex)
        key = tuple(sorted((e.id, e.hex) for e in enemies))
        self._asked = asked
        if self._field is not None and self._field[0] is state.board and self._field[1] == key:
            return self._field[2]
        costs = self._walk_costs(state)
        board = state.board
        dist: dict[Hex, int] = {}
        frontier = [(0, board.label(e.hex), e.hex) for e in enemies]
        heapq.heapify(frontier)
        while frontier:
            d, _, h = heapq.heappop(frontier)
            if h in dist:
                continue
            dist[h] = d
            cost = costs.get(h)
            if cost is None:
                continue
            for n in neighbors(h):
                if n in dist or costs.get(n) is None:
                    continue
                heapq.heappush(frontier, (d + cost, board.label(n), n))
        self._field = (state.board, key, dist)
        return dist

    def choose(self, view: SideView) -> Action:
        state, side = view.state, view.side
        if state.window is not None:
            return self._react(view)
        if state.phase in MOVE_PHASES:
            return self._move(view, state, side)
        if state.phase in ATTACK_PHASES:
            return self._attack(state, side)
        return view.choices[0]

    # -- overwatch -----------------------------------------------------------------------

    def _react(self, view: SideView) -> Action:
        state = view.state
        fires = [a for a in view.choices if a.get("do") == "overwatch-fire"]
        best, score = None, 0.05
        for a in fires:
            gain = self._shot_gain(state, view.side, a, {})
            if gain > score:
                best, score = a, gain
        return best if best is not None else {"do": PASS}

    # -- movement --------------------------------------------------------------------------

    def _move(self, view: SideView, state: GameState, side: str) -> Action:
        mine, theirs = units(state, side), units(state, other(side))
        if 4 * len(mine) < len(theirs):
            return {"do": "surrender", "side": side}
        key = (view.key, state.turn, state.phase)
        for p in mine:
            if (*key, p.id) in self.stay or state.marked("moved", p.id) or state.marked("aboard", p.id):
                continue
            if p.has(STUNNED):
                continue
            action = self._best_move(state, p, theirs)
            if action is not None:
                return action
            self.stay.add((*key, p.id))
        return dict(END_PHASE)

    def _best_move(self, state: GameState, p: Piece, enemies: list[Piece]) -> Action | None:
        board = state.board
        reach = reach_of(state.map, p)
        options: list[tuple[float, str, str]] = [(self._score(state, p, p.hex, enemies), "stay", "")]
        for h in reach.costs:
            if h != p.hex:
                options.append((self._score(state, p, h, enemies), "move", board.label(h)))
        if soldier(p).has("jet-pack"):
            for h in jet_pack_targets(state.map, p):
                options.append((self._score(state, p, h, enemies) - 0.2, "jet", board.label(h)))
        _score, how, to = max(options, key=lambda o: (o[0], o[1] == "stay", o[2]))
        if how == "stay":
            if RULES.may_overwatch(state, p) and not p.has(OVERWATCH) and self._threatened(state, p, enemies):
                return {"do": "overwatch", "piece": p.id}
            return None
        return {"do": how, "piece": p.id, "to": to}

    def _threatened(self, state: GameState, p: Piece, enemies: list[Piece]) -> bool:
        reach = max(w.farthest for w in weapons_of(p)) + 3
        return any(distance(p.hex, e.hex) <= reach for e in enemies)

    def _score(self, state: GameState, p: Piece, h: Hex, enemies: list[Piece]) -> float:
        if not enemies:
            return 0.0
        s = soldier(p)
        weapons = weapons_of(p)
        far = max(w.farthest for w in weapons)
        score = 0.0
        nearest = min(distance(h, e.hex) for e in enemies)
        shots = 0.0
        for e in enemies:
            d = distance(h, e.hex)
            in_range = d <= far and any(w.nearest <= d <= w.farthest for w in weapons)
            if in_range and sees(state.map, h, e.hex) and not aboard(state, e):
                shots = max(shots, 1.5 + worth(e) + (0.8 if e.has(STUNNED) else 0.0))
        score += shots
        kind = state.map.terrain_at(h)
        cover = 0.6 if len(enemies) >= len(units(state, p.side)) else 0.3
        if kind in ("forest", "town"):
            score += cover
        elif kind == "hill":
            score += cover / 2
        if s.leader is None and leader_number(state, _at(p, h)) is not None:
            score += 0.4
        if nearest == 1 and not s.has("vehicle"):
            score -= 1.5
        walk = self._approach(state, enemies).get(h, 99)
        score -= (0.2 if shots else 0.5) * max(0, walk - far)
        if s.has("medic"):
            score += 0.6 * sum(
                1 for f in units(state, p.side) if f.has(STUNNED) and distance(f.hex, h) == 1 and f.id != p.id
            )
        return score

    # -- attacks -----------------------------------------------------------------------------

    def _attack(self, state: GameState, side: str) -> Action:
        declared = self._declared(state)
        best, score = None, 0.02
        for p in units(state, side):
            for a in shots_for(state, p):
                gain = self._shot_gain(state, side, a, declared)
                if gain > score:
                    best, score = a, gain
        return best if best is not None else {"do": "resolve", "side": side}

    def _declared(self, state: GameState) -> dict[str, tuple[combat.Strike, ...]]:
        out: dict[str, tuple[combat.Strike, ...]] = {}
        for s in state.marks.get("shots", []):
            who, idx, target, _ = s.split("|")
            shooter = find(state, who)
            t = state.map.piece(target)
            strike = strike_of(state, shooter, weapons_of(shooter)[int(idx)], t.hex)
            out[target] = (*out.get(target, ()), strike)
        return out

    def _shot_gain(
        self, state: GameState, side: str, a: Action, declared: dict[str, tuple[combat.Strike, ...]]
    ) -> float:
        shooter = state.map.piece(str(a["piece"]))
        target = state.map.piece(str(a["target"]))
        weapon = weapons_of(shooter)[int(a["weapon"])]
        tgt = target_of(state, target)
        before = declared.get(target.id, ())
        after = (*before, strike_of(state, shooter, weapon, target.hex))
        gain = expected(after, tgt, target) - expected(before, tgt, target)
        if weapon.splash:
            hexes = (
                [state.board.hex_of(str(a["splash"]))]
                if a.get("splash")
                else [n for n in neighbors(target.hex)]
            )
            for h in hexes:
                if not state.board.grid.contains(h):
                    continue
                for q in state.map.units_at(h):
                    e = expected((strike_of(state, shooter, weapon, h, splash=True),), target_of(state, q), q)
                    gain += e if q.side != side else -1.5 * e
        if weapon.uses is not None:
            gain -= 0.12  # a rocket spent is gone for the game
        return gain


def _at(p: Piece, h: Hex) -> Piece:
    """``p`` as if standing in ``h`` (to ask whose Leadership range covers that hex)."""
    return replace(p, hex=h)


def random_bot() -> RandomBot:
    return RandomBot()


def tactical_bot() -> TacticalBot:
    return TacticalBot()


BOTS = {"tactical": tactical_bot, "random": random_bot}
DEFAULT_BOTS = {side: "tactical" for side in SIDES}


def standings(state: GameState) -> dict[str, tuple[str, int]]:
    """Each side's outcome (win, loss, draw) and soldiers left on the map."""
    return read_standings(state.result, {s: len(units(state, s)) for s in SIDES})


__all__ = ["BOTS", "DEFAULT_BOTS", "SIDE", "TURN_CAP", "RandomBot", "TacticalBot", "standings"]
