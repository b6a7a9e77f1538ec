"""Combat medics and carrying the wounded (GIVING AID l.515-529, CARRYING WOUNDED
l.531-535): the actions the active model may take for them and what they do. Bandaging
and waking a friend stay in ``ruleset`` (l.513, 517); figures in rules.yaml ``medical``.

A carried model shares its carrier's hex (the figures do not block each other, l.535)
and goes where he goes; it cannot act while carried (project's choice, status
``carried``). The carrier has the status ``carrying`` (movement doubled, movement.yaml)
and, after a failed load check at the start of a turn, ``load-failed`` (no running).
"""

from __future__ import annotations

from dataclasses import replace

from tabletop.engine.actions import Action
from tabletop.engine.dice import Dice
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance, neighbors

from .combat import BLEEDING, BROKEN, DEAD, IMMOBILIZED, MEDICAL, OUT, SEVERE, STABILIZED, UNCONSCIOUS, num
from .data import data

MEDIC = "combat-medic"  # the status word of a model with the medic's training
CARRYING, CARRIED, LOAD_FAILED = "carrying", "carried", "load-failed"
#: a friend may be carried when he is wounded so (l.531: "a wounded Team Member")
WOUNDED = frozenset({UNCONSCIOUS, IMMOBILIZED, MEDICAL, SEVERE, BLEEDING})


def medical() -> dict[str, int]:
    medical: dict[str, int] = data().rules["medical"]
    return medical


def carried_by(state: GameState, carrier: Piece) -> Piece | None:
    for p in state.map.pieces():
        if p.kind == "unit" and p.attr("carried-by") == carrier.id:
            return p
    return None


def aid_actions(state: GameState, a: Piece, friends: list[Piece], enemies: list[Piece]) -> list[Action]:
    """A medic's aid to a friend in contact (5 AP, l.529); picking up a wounded friend
    or an unconscious enemy in contact (5 AP, l.533); putting him down (0 AP, l.233)."""
    ap = num(a, "ap")
    out: list[Action] = []
    if a.has(MEDIC) and ap >= medical()["medic_ap"]:
        for f in friends:
            if f.id != a.id and distance(f.hex, a.hex) <= 1 and not f.has(DEAD) and _needs_medic(f):
                out.append({"do": "treat", "piece": a.id, "target": f.id})
    load = carried_by(state, a)
    if load is not None:
        if drop_hex(state, a) is not None:
            out.append({"do": "drop", "piece": a.id, "target": load.id})
        return out
    if ap >= medical()["carry_ap"] and not a.has(BROKEN) and a.status.isdisjoint(WOUNDED):
        for f in friends:
            hurt = not f.status.isdisjoint(WOUNDED) and not f.has(DEAD) and not f.has(CARRIED)
            if f.id != a.id and distance(f.hex, a.hex) == 1 and hurt:
                out.append({"do": "carry", "piece": a.id, "target": f.id})
        for e in enemies:
            if distance(e.hex, a.hex) == 1 and e.has(UNCONSCIOUS) and not e.has(DEAD) and not e.has(CARRIED):
                out.append({"do": "carry", "piece": a.id, "target": e.id})
    return out


def _needs_medic(p: Piece) -> bool:
    return p.has(BLEEDING) or p.has(MEDICAL) or p.has(UNCONSCIOUS) or num(p, "hp") < num(p, "hp-max")


def treat(state: GameState, medic: Piece, target: Piece) -> list[str]:
    """GIVING AID l.529: the bleeding stops, 1 HP back (never above the model's own),
    and the unconscious wake once above 0 HP (l.513); the wound's effects stay."""
    hp = min(num(target, "hp-max"), num(target, "hp") + 1)
    status = (target.status - {BLEEDING, MEDICAL}) | {STABILIZED}
    woke = UNCONSCIOUS in status and hp > 0
    if woke:
        status -= {UNCONSCIOUS}
    state.map.update(replace(target, status=frozenset(status)).with_attr("hp", hp))
    return [
        f"{medic.id}, combat medic, treats {target.id}: bleeding stopped, {hp} HP"
        + (", awake again" if woke else "")
        + " (l.529)"
    ]


def pick_up(state: GameState, carrier: Piece, target: Piece) -> list[str]:
    """CARRYING WOUNDED l.533: 5 AP; the wounded man is lifted into the carrier's hex."""
    state.map.move(target.id, carrier.hex)
    t = state.map.piece(target.id)
    state.map.update(replace(t, status=t.status | {CARRIED}).with_attr("carried-by", carrier.id))
    c = state.map.piece(carrier.id)
    state.map.update(replace(c, status=c.status | {CARRYING}))
    return [f"{carrier.id} picks up {target.id} (5 AP, l.533): movement doubled"]


def drop_hex(state: GameState, carrier: Piece) -> Hex | None:
    """Where a put-down man lies (project's choice: one model a hex, G11): the first
    free neighbouring hex by label."""
    from .movement import DogsOfWarMovePolicy

    policy = DogsOfWarMovePolicy()
    free = [
        n
        for n in neighbors(carrier.hex)
        if state.board.grid.contains(n) and not state.map.units_at(n) and not policy.is_enclosed(state.map, n)
    ]
    return min(free, key=state.board.label) if free else None


def put_down(state: GameState, carrier: Piece, where: Hex | None = None) -> list[str]:
    """Drop 0 AP (Misc Actions l.233): the carried man is laid beside his carrier
    (in the carrier's hex when no hex beside it is free)."""
    load = carried_by(state, carrier)
    if load is None:
        return []
    to = where or drop_hex(state, carrier) or carrier.hex
    state.map.move(load.id, to)
    load = state.map.piece(load.id)
    state.map.update(replace(load, status=load.status - {CARRIED}).with_attr("carried-by", None))
    c = state.map.piece(carrier.id)
    state.map.update(replace(c, status=c.status - {CARRYING, LOAD_FAILED}))
    return [f"{carrier.id} puts {load.id} down in {state.board.label(to)}"]


def follow(state: GameState, carrier: Piece) -> None:
    """The carried man goes where his carrier goes."""
    load = carried_by(state, carrier)
    if load is not None and load.hex != carrier.hex:
        state.map.move(load.id, carrier.hex)


def let_go(state: GameState) -> list[str]:
    """A carrier put out of the fight drops his load where he lies."""
    lines: list[str] = []
    for p in list(state.map.pieces()):
        if p.kind == "unit" and p.has(CARRYING) and not p.status.isdisjoint(OUT):
            lines += put_down(state, p, p.hex)
    return lines


def load_checks(state: GameState, dice: Dice) -> list[str]:
    """CARRYING WOUNDED l.533: at the start of each turn a carrier rolls D10 <= ST to
    run with his load; failing, he only walks this turn."""
    lines: list[str] = []
    for p in sorted(state.map.pieces(), key=lambda p: p.id):
        if p.kind != "unit" or not p.has(CARRYING):
            continue
        need = num(p, "st")
        ok = dice.d10(f"load check for {p.id}: ST {need} or less to run") <= need
        status = p.status - {LOAD_FAILED} if ok else p.status | {LOAD_FAILED}
        state.map.update(replace(p, status=status))
        if not ok:
            lines.append(f"{p.id} may only walk with his load this turn (l.533)")
    return lines


def who_is_hit(state: GameState, target: Piece, dice: Dice) -> Piece:
    """l.535: a hit on a man carrying another falls on the carried one on 1-5."""
    load = carried_by(state, target)
    if load is None or load.has(DEAD):
        return target
    if dice.d10(f"who is hit: 1-5 {load.id} (carried), 6-10 {target.id}") <= 5:
        return load
    return target
