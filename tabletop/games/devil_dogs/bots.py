"""The Devil Dogs of Belleau Wood's bots and its contract with ``tabletop sim``: ``BOTS``,
``DEFAULT_BOTS``, ``standings`` (each side's outcome and victory points), ``TURN_CAP``.

Both bots play either side and read only their side's view (``SideView``): their own
hand, the revealed sector cards and the map, never the opponent's hand or either deck's
order (``DevilDogsRules.view``). The planner weighs each card's three orders in each
sector against the odds of sector initiative the track's pool gives (5.3), then plays
its orders with the same arithmetic the rules use (``combat``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from tabletop.engine.actions import END_PHASE, Action
from tabletop.engine.game import COMMIT, SideView
from tabletop.engine.pieces import Piece
from tabletop.engine.standings import standings as read_standings
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance

from . import combat as cb
from . import keywords as kw
from .combat import ALLIED, PINNED, SIDES, in_sector, other, units
from .data import Order, card_index, cards, figures, parse_keyword
from .ruleset import (
    DevilDogsRules,
    attacker,
    card_of,
    order_of,
    pairs,
    queue,
    sector_initiative,
    victory_points,
)  # fmt: skip

SIDE = SIDES[0]
TURN_CAP = 40  # the scenarios end by their own `turns`; this only stops a broken game
RULES = DevilDogsRules()
CHIT = {ALLIED: "US", "german": "GE"}


class RandomBot:
    """The baseline: one of its side's legal choices, uniformly, from its own seeded stream."""

    def __init__(self, seed: int = 0) -> None:
        self.random = random.Random(seed)

    def choose(self, view: SideView) -> Action:
        return self.random.choice(view.choices)


# --- what an order is worth in a sector ---------------------------------------------------------

KEYWORD_WORTH = {
    "Barrage": 1.4, "Sausage/Recon'd Barrage": 1.7, "Gas Barrage": 1.7, "Accurate Fire": 1.8,
    "Leadership": 0.8, "Misdirection": 0.2, "Reinforcement and Reorganization": 0.6, "Rout!": 0.5,
    "Shell Holes": 0.2, "Hesitation": 0.4, "Concealment": 0.4,
}  # fmt: skip


def objectives_to_take(state: GameState, side: str, sector: str) -> list[Hex]:
    hexes = cb.sector_hexes(state, sector)
    board = state.board
    held = set(state.marks.get(f"held-{side}", []))
    return [
        board.hex_of(x)
        for x in state.marks.get("objectives", [])
        if x not in held and board.hex_of(x) in hexes
    ]


def strength(state: GameState, pieces: list[Piece]) -> float:
    return sum(p.steps * (0.5 if p.has(PINNED) else 1.0) for p in pieces)


def order_worth(state: GameState, side: str, sector: str, order: Order, active: bool) -> float:
    """A rough worth of carrying out ``order`` in ``sector`` now."""
    mine = in_sector(state, sector, side)
    theirs = in_sector(state, sector, other(side))
    ratio = (strength(state, mine) + 1) / (strength(state, theirs) + 1)
    goals = objectives_to_take(state, side, sector)
    gap = min((distance(p.hex, e.hex) for p in mine for e in theirs), default=9)
    value = 0.0
    if order.move == "ADV":
        push = 0.6 if goals or ratio > 1.1 else -0.3
        value += push * order.distance * (1.0 if gap > 1 else 0.3)
    elif order.move == "RET":
        value += (0.3 if ratio < 0.6 else -0.6) * order.distance
    elif order.move == "REP":
        value += 0.25
    elif not goals:
        value += 0.2
    mg = order.mg + (1 if active and side == SIDES[state.track("bi")] else 0)
    if theirs and cb.mg_targets(state, sector, side):
        value += 1.1 * mg
    elif gap <= 4:
        value += 0.4 * mg
    for k in order.keywords:
        value += keyword_worth(state, side, sector, k.name, k.x, order, mine, theirs)
    return value


def keyword_worth(
    state: GameState,
    side: str,
    sector: str,
    name: str,
    x: int,
    order: Order,
    mine: list[Piece],
    theirs: list[Piece],
) -> float:
    if name == "Combat":
        reach = x + (order.distance if order.move == "ADV" else 0)
        near = [p for p in mine if any(distance(p.hex, e.hex) <= reach for e in theirs)]
        if not near:
            return 0.0
        mine_cd = sum(cb.unit_cd(state, p) for p in near)
        theirs_cd = sum(
            cb.unit_cd(state, e) for e in theirs if any(distance(e.hex, p.hex) <= x for p in mine)
        )
        return 0.6 * mine_cd - 0.35 * theirs_cd
    if name in ("Defensive Fire", "Entrench", "Hidden MG's"):
        danger = any(distance(p.hex, e.hex) <= 3 for p in mine for e in theirs)
        base = {"Defensive Fire": 1.2, "Entrench": 0.7 * x, "Hidden MG's": 0.6}[name]
        return base if danger else 0.1
    if name in ("Rally", "Regroup", "Audacity"):
        hurt = sum(1 for p in mine if p.has(PINNED) or cb.has_falter(p) or p.steps < cb.full_steps(p))
        return 0.5 * min(hurt, max(x, 1))
    if name in ("Sniper", "Underfed"):
        return 0.55 * x if theirs else 0.1
    if name == "Bayonets":
        return 0.9 * sum(1 for p in mine if cb.adjacent_enemy(state, p))
    return KEYWORD_WORTH.get(name, 0.3)


def card_power(card_id: str) -> float:
    """What a card is worth to its holder, roughly: its orders' movement, MG and
    keywords summed (the Misdirection planner buries the strong ones, 9)."""
    card = card_index()[card_id]
    total = 0.0
    for order in (card.active, card.reactive, card.general):
        total += 0.2 * order.distance + order.mg
        for k in order.keywords:
            total += 0.6 * k.x if k.name == "Combat" else KEYWORD_WORTH.get(k.name, 0.5)
    return total


def initiative_odds(state: GameState, side: str) -> float:
    """The chance a sector's chit is ``side``'s (5.3.1: the pool of the track's band)."""
    pool = figures().pools[figures().band(state.track("initiative"))]
    return pool[CHIT[side]] / sum(pool.values())


# --- the planner ---------------------------------------------------------------------------------


class PlannerBot:
    """A real player for either side: cards where their likely order does most, the
    better legal order per sector, mortars and barrages where they hit most enemies and
    fewest friends, movement toward the objectives it lacks (or into cover when it
    holds them), keyword targets that destroy or restore the most."""

    def choose(self, view: SideView) -> Action:
        state, side = view.state, view.side
        choices = view.choices
        if not choices:
            return dict(END_PHASE)
        first = choices[0]
        if first.get("do") == COMMIT:
            inner = [c["action"] for c in choices]
            best = max(range(len(inner)), key=lambda i: self._commit_score(state, side, inner[i]))
            return choices[best]
        do = first.get("do")
        if do in ("assign", "orders"):  # 5.4 optional rule: orders set in turn, not in secret
            return max(choices, key=lambda a: self._commit_score(state, side, a))
        if do == "mortar":
            return max(choices, key=lambda a: self._blast(state, side, a.get("at"), 0.6))
        if do == "activate":
            return max(choices, key=lambda a: self._activation(state, side, str(a["sector"])))
        if do in ("move", "stay"):
            return self._move(state, side, choices)
        if do == "replace":  # 5.11: the most damaged unit of the regiment (P7)
            real = [a for a in choices if a["piece"]]
            if not real:
                return choices[-1]
            return min(real, key=lambda a: (state.map.piece(str(a["piece"])).steps, str(a["piece"])))
        if do == "reconstitute":  # 5.11: the first of the dead pool that can return
            return choices[0]
        if do == "place":  # 5.11 (G13): the legal hex nearest an entry, then by label
            return choices[0]
        if do == "hit":  # G9: within a priority class, the unit with fewest steps left
            return min(choices, key=lambda a: cb.priority_key(state, state.map.piece(str(a["piece"]))))
        if do == "retreat":  # 8: refuse (a pin) only to keep an objective, never when pinned
            return self._retreat(state, choices)
        if do == "advance":  # 9 BAYONETS: the unit that struck follows (listed first)
            return choices[0]
        if do == "bayonet":  # 9 BAYONETS (P5): the adjacent enemy first in the priority chart
            return min(choices, key=lambda a: cb.priority_key(state, state.map.piece(str(a["target"]))))
        if do == "misdirect" and ("swap" in first or "card" in first):
            return self._misdirect(state, side, choices)
        if do == "barrage":  # the best aim; among equals the first by label
            choices = sorted(choices, key=lambda a: str(a["at"]))
        return max(choices, key=lambda a: self._keyword_choice(state, side, a))

    # -- cards and orders (5.2, 5.4) -----------------------------------------------------------

    def _commit_score(self, state: GameState, side: str, action: Action) -> float:
        if action["do"] == "assign":
            p = initiative_odds(state, side)
            total = 0.0
            for sector, card_id in action["cards"].items():
                card = card_index()[card_id]
                act = order_worth(state, side, sector, card.active, True)
                rea = order_worth(state, side, sector, card.reactive, False)
                gen = order_worth(state, side, sector, card.general, False)
                total += p * max(act, gen) + (1 - p) * max(rea, gen)
            return total
        total = 0.0
        for sector, kind in action["orders"].items():
            card = card_index()[card_of(state, side, sector) or ""]
            total += order_worth(state, side, sector, card.order(kind), kind == "active")
        return total

    def _activation(self, state: GameState, side: str, sector: str) -> float:
        """Strike first where this side holds the initiative and the enemy is near."""
        mine = in_sector(state, sector, side)
        theirs = in_sector(state, sector, other(side))
        gap = min((distance(p.hex, e.hex) for p in mine for e in theirs), default=9)
        return (2.0 if sector_initiative(state, sector) == side else 0.0) - 0.1 * gap

    # -- fire -----------------------------------------------------------------------------------

    def _blast(self, state: GameState, side: str, at: object, spill: float) -> float:
        """Enemy steps likely hit at ``at`` minus friendly ones nearby (deviation risk)."""
        if not at:
            return 0.05
        h = state.board.hex_of(str(at))
        score = 0.0
        for p in units(state):
            d = distance(p.hex, h)
            if d > 1:
                continue
            w = (1.0 if d == 0 else spill) * (1.5 if p.has(PINNED) else 1.0)
            score += w if p.side != side else -1.6 * w
        return score

    # -- movement (5.8, 6) ----------------------------------------------------------------------

    def _move(self, state: GameState, side: str, choices: list[Action]) -> Action:
        step = queue(state)[0]
        pid = choices[0]["piece"]
        mine = [a for a in choices if a["piece"] == pid]
        piece = state.map.piece(str(pid))
        return max(mine, key=lambda a: self._end_score(state, side, piece, a, step))

    def _end_score(
        self, state: GameState, side: str, piece: Piece, action: Action, step: Mapping[str, object]
    ) -> float:
        board = state.board
        h = piece.hex if action["do"] == "stay" else board.hex_of(str(action["to"]))
        theirs = units(state, other(side))
        goals = objectives_to_take(state, side, str(step["sector"])) or [
            board.hex_of(x)
            for x in state.marks.get("objectives", [])
            if x not in state.marks.get(f"held-{side}", [])
        ]
        score = 0.0
        if cb.defensive(state, h):
            score += 0.8
        if goals:
            score -= 0.5 * min(distance(h, g) for g in goals)
            if h in goals:
                score += 3.0
        elif theirs:
            score -= 0.2 * min(distance(h, e.hex) for e in theirs)
        held = [board.hex_of(x) for x in state.marks.get(f"held-{side}", [])]
        if piece.hex in held and action["do"] != "stay":
            score -= 2.0  # keep what is held
        if action["do"] == "stay" and step["move"] in ("ADV", "RET"):
            ends = [board.hex_of(str(a["to"])) for a in [action]] if action["do"] == "move" else []
            del ends
            score -= 1.2  # refusing costs a pin (8)
        adjacent = sum(1 for e in theirs if distance(h, e.hex) == 1)
        if adjacent and figures().kind(piece) in ("machine-gun", "mortar", "hq", "gun-pit", "artillery"):
            score -= 1.0
        return score

    # -- forced moves and Misdirection (8, 9) ----------------------------------------------------

    def _retreat(self, state: GameState, choices: list[Action]) -> Action:
        """A forced move (Rout!, gas, Bayonets): the first hex offered (the project's
        preference, P3), unless the unit holds an objective and is not pinned: it
        refuses and takes the pin (8) to keep the hex."""
        piece = state.map.piece(str(choices[0]["piece"]))
        holds = state.board.label(piece.hex) in state.marks.get("objectives", [])
        stay = next(a for a in choices if not a["to"])
        gassed = any(p.kind == "marker" and distance(p.hex, piece.hex) <= 1 for p in state.map.pieces())
        return stay if holds and not piece.has(PINNED) and not gassed else choices[0]

    def _misdirect(self, state: GameState, side: str, choices: list[Action]) -> Action:
        """9 MISDIRECTION with what the view lets this side examine now: exchange the
        opponent's card for his reserve when the reserve's order there is worth less to
        him; send to the bottom each of his next cards stronger than his deck's average."""
        foe = other(side)
        step = queue(state)[0]
        if "swap" in choices[0]:
            sector = str(step["examine"])
            kind = order_of(state, foe, sector) or "general"
            now = card_index().get(card_of(state, foe, sector) or "")
            reserve = card_index().get(state.hands[foe][0])
            if now is None or reserve is None:
                return choices[1]
            worse = order_worth(state, foe, sector, reserve.order(kind), kind == "active") < order_worth(
                state, foe, sector, now.order(kind), kind == "active"
            )
            return choices[0] if worse else choices[1]
        k = int(choices[0]["card"])
        card = card_index().get(state.decks[foe].cards[k - 1])
        deck = [c.id for c in cards()[foe]]
        average = sum(card_power(x) for x in deck) / len(deck)
        strong = card is not None and card_power(card.id) > average
        return choices[0] if strong else choices[1]

    # -- keywords (9) ----------------------------------------------------------------------------

    def _keyword_choice(self, state: GameState, side: str, action: Action) -> float:
        do = action.get("do")
        if do == "skip":
            return 0.0
        if do == "barrage":
            return self._blast(state, side, action["at"], 1.0)
        if do == "second":  # 9 BARRAGE on a HIT (P8): most enemy and fewest friends under it
            first = state.board.hex_of(str(queue(state)[0]["first"]))
            return float(kw.second_worth(state, side, first, int(action["dir"])))
        if do == "target":
            piece = state.map.piece(str(action["piece"]))
            if piece.side == side:
                return 1.0 + cb.full_steps(piece) - piece.steps
            return (
                1.0
                + 3.0 / max(piece.steps, 1)
                + (1.0 if figures().kind(piece) in ("machine-gun", "hq") else 0.0)
            )
        if do == "rally":
            piece = state.map.piece(str(action["piece"]))
            return 1.5 if action["token"] == "falter" else (1.2 if cb.adjacent_enemy(state, piece) else 1.0)
        if do == "repeat":
            k = parse_keyword(str(action["keyword"]))
            if isinstance(k, str):
                return 0.0
            return {"Combat": 1.0 + k.x, "Accurate Fire": 3.5, "Barrage": 3.0}.get(k.name, 1.0)
        if do == "misdirect":
            return 0.5 if action.get("bury") else 0.3
        if do == "reinforce-kw":
            return 2.0 if "reconstitute" in action else 1.0 if "speed" in action else 0.8
        return 0.1


def random_bot() -> RandomBot:
    return RandomBot()


def planner_bot() -> PlannerBot:
    return PlannerBot()


BOTS = {"planner": planner_bot, "random": random_bot}
DEFAULT_BOTS = {side: "planner" for side in SIDES}


def standings(state: GameState) -> dict[str, tuple[str, int]]:
    """Each side's outcome (win, loss, draw) and its victory points (G5)."""
    vp = victory_points(state)
    return read_standings(state.result, {s: vp[s] for s in SIDES})


__all__ = [
    "BOTS",
    "DEFAULT_BOTS",
    "SIDE",
    "TURN_CAP",
    "PlannerBot",
    "RandomBot",
    "attacker",
    "pairs",
    "standings",
]
