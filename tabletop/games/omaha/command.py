"""D-Day at Omaha Beach, US command (omaha 6, 6.2, 8): who is in command of whom.

A unit is in command of an HQ or a General that has not moved yet when it is stacked
with or adjacent to it (omaha 6); of a Command Post (omaha 8, EXT) within its range
(gap G10: 2 hexes, not through hexes holding German units). An infantry unit in command
of an HQ attacking from an adjacent hex has a radio (6.2). Knows nothing of attacks.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance, neighbors

from .common import GERMAN, US
from .usdata import attacks

MOVED = "us-moved"  # the ruleset's mark of units that moved this phase
HQ_KINDS = ("hq", "command-post")
ALL_KINDS = ("hq", "general", "command-post")


def leaders(state: GameState, kinds: Iterable[str] = ALL_KINDS) -> list[Piece]:
    """The US leaders on the map of these types (sea hexes included: a box commands)."""
    want = set(kinds)
    return [p for p in state.map.pieces() if p.side == US and p.kind == "unit" and p.type in want]


def _cp_reach(state: GameState, cp: Hex) -> set[Hex]:
    """Gap G10: the hexes within the CP range, not through hexes with German units."""
    most = int(attacks()["command"]["cp_range"])
    german = {p.hex for p in state.map.pieces() if p.side == GERMAN and p.kind == "unit"}
    seen = {cp}
    todo = deque([(cp, 0)])
    while todo:
        h, d = todo.popleft()
        if d == most:
            continue
        for n in neighbors(h):
            if n in seen or not state.board.grid.contains(n):
                continue
            seen.add(n)
            if n not in german:
                todo.append((n, d + 1))
    return seen


def commands(state: GameState, leader: Piece, h: Hex) -> bool:
    """Whether ``leader`` commands a unit in hex ``h`` now (omaha 6, 8)."""
    if leader.type == "command-post":
        return h in _cp_reach(state, leader.hex)
    if state.marked(MOVED, leader.id):
        return False
    return distance(leader.hex, h) <= int(attacks()["command"]["range"])


def commanders(state: GameState, unit: Piece, kinds: Iterable[str] = ALL_KINDS) -> list[Piece]:
    """The leaders of these types that command ``unit``."""
    return [lead for lead in leaders(state, kinds) if lead.id != unit.id and commands(state, lead, unit.hex)]


def in_command(state: GameState, unit: Piece, kinds: Iterable[str] = ALL_KINDS) -> bool:
    return bool(commanders(state, unit, kinds))


def has_radio(state: GameState, unit: Piece) -> bool:
    """omaha 6.2 RD: an infantry unit in command of an HQ (or a CP, omaha 8); heavy
    infantry carries RD among its ranged weapons (9.8)."""
    if unit.type == "heavy-infantry":
        return True
    return unit.type in ("infantry", "ranger") and in_command(state, unit, HQ_KINDS)
