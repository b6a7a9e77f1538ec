"""The tactical bot's explosives (AVAILABLE SPECIAL EQUIPMENT l.782-843): when to set a
claymore, a C4 charge or a shaped charge, and when to blow one. Kept apart from
``bots`` so the movement and fire heuristics stay readable.

- A claymore goes on the free hex beside the setter toward the nearest enemy (its cone
  faces away from him, l.835); he then waits on op-fire to blow it (``owns_claymore``).
- C4 or a shaped charge goes on a building hex beside the setter that holds an enemy,
  or against the building he is in (structural damage, l.690-700).
- A charge is blown when its area holds more enemy worth than friendly (friends count
  two and a half times), a building charge also when enemies are inside the building.
"""

from __future__ import annotations

from tabletop.engine.actions import Action
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance

from . import explosives
from .combat import OUT
from .structures import building_at, is_structure

FRIEND_WEIGHT = 2.5  # a friend in the blast weighs as much as two and a half enemies


def _in(state: GameState, hexes: set[Hex], side: str) -> tuple[int, int]:
    """(enemies, friends) of ``side`` standing in ``hexes``, the dead left out."""
    foes = friends = 0
    for p in state.map.pieces():
        if p.kind != "unit" or p.hex not in hexes or not p.status.isdisjoint(OUT):
            continue
        if p.side == side:
            friends += 1
        else:
            foes += 1
    return foes, friends


def blast_value(state: GameState, c: explosives.Charge) -> float:
    """Enemies caught by the charge less the friends, weighted; a building charge counts
    those in the whole building (it may fall on them)."""
    hexes = set(explosives.area_of(state, c))
    at = state.board.hex_of(c.at)
    if c.kind in ("c4", "shaped-charge") and is_structure(state, at):
        hexes |= set(building_at(state, at))
    foes, friends = _in(state, hexes, c.side)
    return foes - FRIEND_WEIGHT * friends


def detonation(state: GameState, choices: list[Action]) -> Action | None:
    """The best charge to blow now, if any catches more enemies than friends."""
    best, value = None, 0.5
    for c in choices:
        v = blast_value(state, explosives.Charge.of(str(c["charge"])))
        if v > value:
            best, value = c, v
    return best


def setting(state: GameState, a: Piece, foes: list[Piece], choices: list[Action]) -> Action | None:
    """A charge worth setting now: a claymore facing the nearest enemy when he is
    within 20 inches and none is set yet; C4 (the most the AP allow) or a shaped charge
    on a building hex holding an enemy."""
    if not choices or not foes:
        return None
    nearest = min(foes, key=lambda e: (distance(a.hex, e.hex), e.id))
    mine = [c for c in explosives.charges(state) if c.owner == a.id]
    claymores = [c for c in choices if c["kind"] == "claymore"]
    if claymores and not any(c.kind == "claymore" for c in mine) and distance(a.hex, nearest.hex) <= 20:
        return min(
            claymores, key=lambda c: (distance(state.board.hex_of(str(c["at"])), nearest.hex), str(c["at"]))
        )
    held = {e.hex for e in foes}
    for c in choices:
        if c["kind"] not in ("c4", "shaped-charge") or any(m.kind == c["kind"] for m in mine):
            continue
        at = state.board.hex_of(str(c["at"]))
        if is_structure(state, at) and at != a.hex and set(building_at(state, at)) & held:
            sizes = [x for x in choices if x["kind"] == c["kind"] and x["at"] == c["at"]]
            return max(sizes, key=lambda x: int(x.get("size", 1)))
    return None


def owns_claymore(state: GameState, a: Piece) -> bool:
    return any(c.owner == a.id and c.kind == "claymore" for c in explosives.charges(state))


def danger(state: GameState, a: Piece) -> set[Hex]:
    """The hexes this side's own charges would blast (the bot keeps its men out)."""
    out: set[Hex] = set()
    for c in explosives.charges(state):
        if c.side == a.side and c.kind in ("c4", "shaped-charge"):
            out |= set(explosives.area_of(state, c))
    return out
