"""Dogs of War's bots and its contract with ``tabletop sim``: ``standings`` (each side's
outcome and score) and ``TURN_CAP``.

Both bots play either side from their side's view only (``SideView``); the table is
open to both players (no hidden information is modelled), so the view's state is all of
it. The rules' own functions tell them what is legal and ``combat.to_hit`` gives the
odds the rules roll by.
"""

from __future__ import annotations

import random
from dataclasses import replace

from tabletop.engine.actions import Action
from tabletop.engine.game import PASS, SideView
from tabletop.engine.pieces import Piece
from tabletop.engine.standings import standings as read_standings
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance

from . import botaid, botcharges, combat
from .combat import BLEEDING, MEDICAL, OP_FIRE, PRONE, num
from .data import data
from .ruleset import (
    SIDES,
    DogsOfWarRules,
    active,
    enemies,
    fighting,
    model_points,
    reach_of,
    score,
    weapon_of,
)  # fmt: skip

TURN_CAP = int(data().turn["turn_cap"]) + 1  # the scenario's last turn comes first (G10)
SIDE = SIDES[0]
RULES = DogsOfWarRules()
GUARD_RADIUS = 4  # a guarding side stays within this many inches of an objective
HOLD = 3.0  # the worth of standing on an objective no friend holds, in cover units
COVER_KINDS = {"building": 3.0, "bunker": 3.0, "trees": 2.0, "rubble": 2.0, "wreckage": 2.0}


class RandomBot:
    """The baseline: one of its side's legal choices, uniformly; its own seeded stream,
    so a sim run repeats."""

    def __init__(self, seed: int = 0) -> None:
        self.random = random.Random(seed)

    def choose(self, view: SideView) -> Action:
        return self.random.choice(view.choices)


def shot_value(state: GameState, a: Action) -> float:
    """Expected hits of a fire, launch or throw action, weighted by the target's worth
    and the chance a hit does harm; blasts count the enemies (and friends) around."""
    shooter = state.map.piece(str(a["piece"]))
    target = state.map.piece(str(a["target"]))
    do = str(a.get("as", a["do"]))
    worth = 1.0 + model_points(target) / 60 + (0.3 if num(target, "hp") <= 2 else 0.0)
    if do == "cq":
        cq = data().weapon(str(a["weapon"])).cq
        need = combat.cq_need(num(shooter, "cq"), num(target, "cq"))
        return min(9, max(1, need)) / 10 * (0.35 + 0.1 * int(cq["cqdpr"])) * worth
    if do == "fire":
        w = weapon_of(shooter)
        mode = str(a.get("mode", "ss"))
        odds = combat.to_hit(state, shooter, target, w, mode, bool(a.get("aimed")))
        n = w.modes[mode].dice
        if mode == "fa":
            n = -(-n // 2)
        harm = 0.55 if odds.cover is None else 0.35
        return odds.chance * n * harm * worth
    blast_worth = 0.0
    for p in state.map.pieces():
        if p.kind != "unit":
            continue
        d = distance(p.hex, target.hex)
        if d <= 2 and p.status.isdisjoint(combat.OUT):
            blast_worth += (0.9 if d == 0 else 0.45) * (1 if p.side != shooter.side else -2.5)
    if do == "launch":
        w = data().weapon(str(shooter.attr("launcher")))
        odds = combat.to_hit(state, shooter, target, w, "ss")
        return max(0.0, (0.35 + 0.65 * odds.chance) * blast_worth) * worth
    need = num(shooter, "wp")
    return max(0.0, (0.4 + 0.6 * min(9, need) / 10) * blast_worth) * worth


def ap_cost(state: GameState, a: Action) -> int:
    shooter = state.map.piece(str(a["piece"]))
    do = str(a["do"])
    if do == "fire":
        m = weapon_of(shooter).modes[str(a.get("mode", "ss"))]
        return m.ap + (2 if a.get("aimed") else 0)
    if do == "launch":
        return data().weapon(str(shooter.attr("launcher"))).modes["ss"].ap
    if do == "cq":
        return int(data().weapon(str(a["weapon"])).cq["ap"])
    return 3


class TacticalBot:
    """A real player for either side: activates first the models that can shoot; spends
    AP on the shot with the most expected harm per AP (priority targets obeyed by the
    rules), bandages bleeding wounds, carries an immobilized friend out of the enemy's
    sight into cover (``botaid``), moves from cover to cover toward the enemy and
    the objectives keeping AP to fire, goes on op-fire in cover when the enemy is near
    but unseen, and fires from op-fire at the first good chance."""

    def choose(self, view: SideView) -> Action:
        state, side = view.state, view.side
        choices = view.choices
        if state.window is not None:
            return self._react(state, choices)
        if choices and choices[0].get("do") == "first":
            return {"do": "first", "side": side}  # the initiative winner moves first (l.187)
        if choices and choices[0].get("do") == "edge":
            return min(choices, key=lambda c: edge_distance(state, str(c["region"])))
        if choices and choices[0].get("do") == "place-first":
            return choices[-1]  # the opponent places first: ours go down seeing his (l.181)
        a = active(state)
        if a is None:
            return self._activate(state, side, choices)
        return self._act(state, a, choices)

    def _react(self, state: GameState, choices: list[Action]) -> Action:
        best, value = None, 0.12
        for c in choices:
            if c.get("do") != "op-shot":
                continue
            v = shot_value(state, c)
            if v > value:
                best, value = c, v
        return best if best is not None else {"do": PASS}

    def _activate(self, state: GameState, side: str, choices: list[Action]) -> Action:
        def key(c: Action) -> tuple[int, int, str]:
            p = state.map.piece(str(c["piece"]))
            foes = enemies(state, p)
            near = min((distance(p.hex, e.hex) for e in foes), default=99)
            sees = any(
                distance(p.hex, e.hex) <= weapon_of(p).max_range and combat.sees(state, p, e)
                for e in foes[:8]
            )
            return (0 if sees else 1, near, p.id)

        acts = [c for c in choices if c.get("do") == "activate"]
        return min(acts, key=key) if acts else choices[0]

    def _act(self, state: GameState, a: Piece, choices: list[Action]) -> Action:
        ap = num(a, "ap")
        by_do: dict[str, list[Action]] = {}
        for c in choices:
            by_do.setdefault(str(c["do"]), []).append(c)
        done = by_do["done"][0]
        bandages = sorted(by_do.get("bandage", []), key=lambda c: c["target"] != a.id)  # his own first
        if bandages and bandages[0]["target"] == a.id:
            return bandages[0]
        carry = (
            botaid.carrying_turn(state, a, by_do, self._cover)
            or botaid.pick_up(state, a, by_do.get("carry", []), self._cover)
            or botaid.approach(state, a, by_do.get("move", []), self._cover)
        )
        if carry is not None:  # an immobilized friend out of the open, then the dressing (l.533)
            return carry
        for c in bandages:
            t = state.map.piece(str(c["target"]))
            if t.has(BLEEDING) or t.has(MEDICAL):
                return c
        for c in by_do.get("treat", []):  # a combat medic (l.529)
            return c
        for c in by_do.get("wake", []):
            return c
        blow = botcharges.detonation(state, by_do.get("detonate", []))
        if blow is not None:
            return blow
        shots = by_do.get("fire", []) + by_do.get("launch", []) + by_do.get("throw", []) + by_do.get("cq", [])
        if shots:
            best = max(shots, key=lambda c: (shot_value(state, c) / ap_cost(state, c), shot_value(state, c)))
            if shot_value(state, best) > 0.05:
                return best
        for c in by_do.get("demand", []):
            return c
        foes = enemies(state, a)
        if not foes:
            return done
        charge = botcharges.setting(state, a, foes, by_do.get("set-charge", []))
        if charge is not None:
            return charge
        if "op-fire" in by_do and self._ambush(state, a, foes):
            return by_do["op-fire"][0]
        if by_do.get("move") and ap >= 1 and not botaid.holds(state, a, self._cover):
            move = self._move(state, a, foes, by_do["move"])
            if move is not None:
                return move
        if not a.has(PRONE) and "prone" in by_do and self._in_open(state, a.hex):
            return by_do["prone"][0]
        return done

    def _ambush(self, state: GameState, a: Piece, foes: list[Piece]) -> bool:
        """Op-fire when the enemy is within reach but unseen and this hex is cover."""
        near = min(distance(a.hex, e.hex) for e in foes)
        if botcharges.owns_claymore(state, a) and near <= 20 and not a.has(OP_FIRE):
            return True  # the clacker in hand: a claymore is blown from op-fire (l.835)
        return near <= 16 and self._cover(state, a.hex) >= 2.0 and not a.has(OP_FIRE)

    def _in_open(self, state: GameState, h: Hex) -> bool:
        return self._cover(state, h) == 0.0

    def _cover(self, state: GameState, h: Hex) -> float:
        kind = state.board.terrain_types[state.map.terrain_at(h)].properties.get("kind")
        value = COVER_KINDS.get(str(kind), 0.0)
        if not value and state.board.hexsides:
            from tabletop.hexgrid import neighbors

            for n in neighbors(h):
                if state.board.grid.contains(n) and state.board.hexside_features(h, n):
                    return 1.0
        return value

    def _move(self, state: GameState, a: Piece, foes: list[Piece], moves: list[Action]) -> Action | None:
        """The hex that scores best: cover, a shot from there with AP left to take it,
        closer to the enemy and the objectives; a few candidates checked for sight."""
        ap = num(a, "ap")
        w = weapon_of(a)
        shoot_ap = min(m.ap for m in w.modes.values()) if w.modes else 2
        objectives = [state.board.hex_of(x) for x in state.marks.get("objectives", ())]
        mine = len(fighting(state, str(a.side)))
        theirs = len(foes)
        want = 12 if mine >= theirs else 18
        night = combat.NIGHT in combat.conditions(state)
        if night and combat.policy().kit_of(a) is None:
            want = combat.policy().table.night_sight - 3  # in the dark: close in to see (l.299)

        friends = [p for p in fighting(state, str(a.side)) if p.id != a.id]
        open_objectives = [o for o in objectives if not any(distance(p.hex, o) <= 1 for p in friends)]
        guard = guarding(state, str(a.side), objectives)
        blast = botcharges.danger(state, a)

        def base(c: Action) -> float:
            h = state.board.hex_of(str(c["to"]))
            near = min(distance(h, e.hex) for e in foes)
            here = min(distance(a.hex, e.hex) for e in foes)
            s = 1.2 * self._cover(state, h)
            if guard:  # ahead on objectives: hold them from cover, let the enemy come
                s -= 0.3 * max(0, min(distance(h, o) for o in objectives) - GUARD_RADIUS)
                s -= 0.1 * max(0, want - near)
            else:
                s -= 0.25 * abs(near - want)
                s += 0.15 * (here - near) if here > want else 0.0
            if objectives:
                s -= 0.08 * min(distance(h, o) for o in objectives)
            if any(distance(h, o) <= 1 for o in open_objectives):
                s += HOLD  # an objective nobody else of the side holds: 50 points (G10)
            if near <= 3:
                s -= 2.0
            if h in blast:
                s -= 3.0  # out of the way of our own charge
            if c.get("order") == "run":
                s -= 0.3
            return s

        stay = base({"to": state.board.label(a.hex), "order": "walk"})
        ranked = sorted(moves, key=lambda c: (-base(c), str(c["to"]), str(c.get("order"))))[:12]
        best, best_score = None, stay + 0.4
        for c in ranked:
            h = state.board.hex_of(str(c["to"]))
            order = str(c.get("order", "walk"))
            r = reach_of(state, a, order, ap)
            from .ruleset import move_cost

            left = ap - move_cost(a, order, r.costs[h])
            s = base(c)
            there = replace(a, hex=h, status=a.status - {PRONE})
            if left >= shoot_ap:
                seen = sum(
                    1
                    for e in sorted(foes, key=lambda e: distance(h, e.hex))[:3]
                    if distance(h, e.hex) <= w.max_range and combat.sees(state, there, e)
                )
                s += 1.0 * min(seen, 1) + 0.1 * seen
            if s > best_score:
                best, best_score = c, s
        return best


def edge_distance(state: GameState, region: str) -> int:
    """How far a set-up zone lies from the objectives (its nearest hex to each); the
    first listed edge (the side's own) wins a tie."""
    zone = state.board.regions[region].hexes
    objectives = [state.board.hex_of(x) for x in state.marks.get("objectives", ())]
    return sum(min(distance(h, o) for h in zone) for o in objectives)


def held(state: GameState, side: str, objectives: list[Hex]) -> int:
    """How many objectives ``side`` holds now (G10: a model within 1 inch, no enemy)."""
    mine = fighting(state, side)
    theirs = [p for s in SIDES if s != side for p in fighting(state, s)]
    return sum(
        1
        for o in objectives
        if any(distance(p.hex, o) <= 1 for p in mine) and not any(distance(p.hex, o) <= 1 for p in theirs)
    )


def guarding(state: GameState, side: str, objectives: list[Hex]) -> bool:
    """The side holds more objectives than the enemy: it defends them rather than
    marching on the enemy (the night raid's garrison; a side that has taken them)."""
    if not objectives:
        return False
    foe = next(s for s in SIDES if s != side)
    return held(state, side, objectives) > held(state, foe, objectives)


def random_bot() -> RandomBot:
    return RandomBot()


def tactical_bot() -> TacticalBot:
    return TacticalBot()


BOTS = {"tactical": tactical_bot, "random": random_bot}
DEFAULT_BOTS = {side: "tactical" for side in SIDES}


def standings(state: GameState) -> dict[str, tuple[str, int]]:
    """Each side's outcome (win, loss, draw) and its score (G10 points)."""
    points = score(state)
    return read_standings(state.result, {s: points[s] for s in SIDES})


__all__ = ["BOTS", "DEFAULT_BOTS", "SIDE", "TURN_CAP", "RandomBot", "TacticalBot", "standings"]
