"""The tactical bot's carrying of the wounded (CARRYING WOUNDED l.531-535). Kept apart
from ``bots`` as ``botcharges`` is.

Why carry at all: the score (``ruleset.score``, G10) gives the enemy a model's points
once he is out of the fight. A friend who is still conscious but immobilized (the
wound chart's first column, l.452-459: "Immobilized"; l.507: "may not move") cannot
leave the open himself, and an enemy who sees him there has the easiest points of the
table. An unconscious man is already counted lost and cannot be shot (only the able
are targets), so carrying him would buy nothing.

The bot carries only when it costs little: the carrier is in contact (l.533) or a
short walk away, and the walk, the 5 AP pick-up and the walk (doubled, l.533) with
his load into a hex of cover all fit in this activation. He lays the man down when the hex he would lie in
(``aid`` lays him beside the carrier) is cover or out of every enemy's range;
otherwise he keeps him, in cover, and fights from there without leaving it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from tabletop.engine.actions import Action
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance, neighbors

from . import aid, combat
from .combat import BROKEN, IMMOBILIZED, UNCONSCIOUS, num
from .data import data
from .ruleset import able, enemies, models, move_cost, reach_of, weapon_of

SAFE = 2.0  # the cover (in the bot's cover units) a wounded man is carried to
WALK_UP = 3  # a stranded friend this many inches off or nearer is worth walking to
Cover = Callable[[GameState, Hex], float]


def exposed(state: GameState, man: Piece, cover: Cover) -> bool:
    """The man lies outside cover and an enemy within his weapon's reach sees him."""
    if cover(state, man.hex) >= SAFE:
        return False
    return any(
        distance(e.hex, man.hex) <= weapon_of(e).max_range and combat.sees(state, e, man)
        for e in enemies(state, man)
    )


def safe_to_lay(state: GameState, carrier: Piece, at: Hex, cover: Cover) -> bool:
    """The hex the load would be laid in is cover, or beyond every enemy's weapon
    range (sight is not enough: the carrier himself may be what hides it)."""
    return cover(state, at) >= SAFE or all(
        distance(e.hex, at) > weapon_of(e).max_range for e in enemies(state, carrier)
    )


def stranded(state: GameState, man: Piece, side: str, cover: Cover) -> bool:
    """A friend worth carrying: in the fight, unable to move himself, exposed."""
    return (
        man.side == side
        and able(man)
        and man.has(IMMOBILIZED)
        and not man.has(UNCONSCIOUS)
        and not man.has(aid.CARRIED)
        and exposed(state, man, cover)
    )


def shelter(state: GameState, carrier: Piece, ap: int, cover: Cover) -> Hex | None:
    """The cheapest hex of cover a man carrying another reaches walking with ``ap``
    (ties by label, so the choice repeats)."""
    loaded = replace(carrier, status=carrier.status | {aid.CARRYING})
    r = reach_of(state, loaded, "walk", ap)
    safe = [h for h in r.costs if h != carrier.hex and cover(state, h) >= SAFE]
    if not safe:
        return None
    return min(safe, key=lambda h: (move_cost(loaded, "walk", r.costs[h]), state.board.label(h)))


def pick_up(state: GameState, a: Piece, carries: list[Action], cover: Cover) -> Action | None:
    """The carry action the bot takes now, if any (the first stranded friend by id)."""
    ap = num(a, "ap") - int(data().rules["medical"]["carry_ap"])
    for c in sorted(carries, key=lambda c: str(c["target"])):
        man = state.map.piece(str(c["target"]))
        if stranded(state, man, str(a.side), cover) and shelter(state, a, ap, cover) is not None:
            return c
    return None


def approach(state: GameState, a: Piece, moves: list[Action], cover: Cover) -> Action | None:
    """The walk next to a stranded friend a few inches off, when the walk, the pick-up
    and the carry into cover all fit in this activation (the nearest such hex)."""
    if not a.status.isdisjoint(aid.WOUNDED | {BROKEN}) or aid.carried_by(state, a) is not None:
        return None
    side = str(a.side)
    near = [
        f
        for f in models(state, side)
        if 1 < distance(f.hex, a.hex) <= WALK_UP and stranded(state, f, side, cover)
    ]
    if not near:
        return None
    ap = num(a, "ap")
    pick = int(data().rules["medical"]["carry_ap"])
    walk = reach_of(state, a, "walk", ap)
    labels = {str(m["to"]): m for m in moves if m.get("order") == "walk"}
    for f in sorted(near, key=lambda f: f.id):
        beside = [h for h in neighbors(f.hex) if h in walk.costs and state.board.label(h) in labels]
        for h in sorted(beside, key=lambda h: (walk.costs[h], state.board.label(h))):
            left = ap - move_cost(a, "walk", walk.costs[h]) - pick
            if left > 0 and shelter(state, replace(a, hex=h), left, cover) is not None:
                return labels[state.board.label(h)]
    return None


def carrying_turn(state: GameState, a: Piece, by_do: dict[str, list[Action]], cover: Cover) -> Action | None:
    """What a carrier does first: lay his load down where he is safe (``safe_to_lay``),
    or walk him to the nearest cover. None: carry on as usual (in cover, he keeps his
    hex: ``holds``)."""
    load = aid.carried_by(state, a)
    if load is None:
        return None
    drop = aid.drop_hex(state, a)
    if by_do.get("drop") and drop is not None and safe_to_lay(state, a, drop, cover):
        return by_do["drop"][0]
    if cover(state, a.hex) >= SAFE:
        return None
    to = shelter(state, a, num(a, "ap"), cover)
    if to is None:
        return None
    label = state.board.label(to)
    return next((m for m in by_do.get("move", []) if m["to"] == label and m.get("order") == "walk"), None)


def holds(state: GameState, a: Piece, cover: Cover) -> bool:
    """A carrier in cover stays there with his load."""
    return aid.carried_by(state, a) is not None and cover(state, a.hex) >= SAFE
