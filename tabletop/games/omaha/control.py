"""D-Day at Omaha Beach: US control of hexes and German communication (omaha 2).

US units control hexes: their own (not Generals), the 6 adjacent ones for infantry with
2 or more steps and for tanks, and from high ground the adjacent beach, pavillon and draw
hexes. A German position is in communication when a path leads from it to an exit hex
(A-G) through hexes that are not US controlled, rough, beach, or pavillon next to the
beach; an occupied Reinforcement position may pass one adjacent US controlled bocage hex.
The figures and words are data in ``movement.yaml`` (``control``, ``communication``), each
with its section or marked as the project's own choice.

A unit's steps are ``Piece.steps`` (its counter's full steps when it comes into play).

Knows the map (terrain, regions) and the pieces; knows nothing of cards or fire.

>>> from tabletop.board import load_map
>>> from tabletop.engine.pieces import MapState, Piece
>>> omaha = load_map("omaha")
>>> state = MapState.of(omaha, [Piece("g", "infantry", omaha.hex_of("2410"), side="german")])
>>> [omaha.label(h) for h in communication_path(state, "wn-70")][:3]
['2410', '2409', '2408']
>>> state.place(Piece("E/2/116", "infantry", omaha.hex_of("2409"), side="us", steps=3))
>>> in_communication(state, "wn-70")  # the company behind it cuts it off
False
"""

from __future__ import annotations

from collections import deque

from tabletop.engine.pieces import MapState, Piece
from tabletop.hexgrid import Hex, neighbors

from .fields import GAME, FieldsConfig, default_config, position_keys
from .movement import MoveRules, default_rules

RULE = f"{GAME} 2"


def _us_units(state: MapState, rules: MoveRules) -> list[Piece]:
    return [p for p in state.pieces() if p.kind == "unit" and p.side == rules.us_side]


def us_control(state: MapState, rules: MoveRules | None = None) -> dict[Hex, str]:
    """The hexes US units control, each with the reason (the first unit that controls it:
    in its own hex before next to it, before from the high ground). Hexes on the map only.
    """
    rules = default_rules() if rules is None else rules
    board = state.board
    ctl = rules.control
    units = [
        p
        for p in _us_units(state, rules)
        if p.type not in ctl.none and state.terrain_at(p.hex) not in ctl.afloat
    ]
    out: dict[Hex, str] = {}
    for p in units:
        out.setdefault(p.hex, f"{p.id} is in the hex ({RULE})")
    for p in units:
        least = ctl.adjacent.get(p.type)
        steps = rules.steps(p)
        if least is None or steps < least:
            continue
        low = state.terrain_at(p.hex) in ctl.low_from
        for n in neighbors(p.hex):
            if not board.grid.contains(n) or (low and state.terrain_at(n) in ctl.low_not_to):
                continue
            out.setdefault(n, f"next to {p.id} ({p.type}, {steps} steps) ({RULE})")
    for p in units:
        if state.terrain_at(p.hex) not in ctl.high_from:
            continue
        for n in neighbors(p.hex):
            if board.grid.contains(n) and state.terrain_at(n) in ctl.high_over:
                out.setdefault(n, f"below {p.id} on {state.terrain_at(p.hex)} ({RULE})")
    return out


def communication_path(
    state: MapState,
    position_key: str,
    *,
    control: dict[Hex, str] | None = None,
    rules: MoveRules | None = None,
    config: FieldsConfig | None = None,
) -> list[Hex] | None:
    """The shortest path from German position ``position_key`` to an exit hex (position
    hex first, exit hex last), or None if every path is blocked (omaha 2). ``control``:
    the US controlled hexes (default ``us_control(state)``). ValueError if the key names
    no German position of the map.

    Breadth first, neighbours in direction order from the position's hexes in label
    order, so the same state always gives the same path.
    """
    rules = default_rules() if rules is None else rules
    cfg = default_config() if config is None else config
    board = state.board
    keys = position_keys(board, cfg)
    if position_key not in keys:
        raise ValueError(
            f"{GAME}: {position_key!r} is not a German position of map {board.name!r} (positions: {', '.join(keys)})"
        )
    comm = rules.communication
    control = us_control(state, rules) if control is None else control
    region = board.regions[position_key]
    starts = sorted(region.hexes, key=board.grid.offset_of)
    exits = {h for r in board.regions.values() if r.kind == comm.exits for h in r.hexes}
    occupied = any(p.side == cfg.german_side for h in starts for p in state.units_at(h))
    may_pass = occupied and region.kind == comm.pass_kind

    def blocked_ground(h: Hex) -> bool:
        kind = state.terrain_at(h)
        if kind in comm.blocked_terrain:
            return True
        near = comm.blocked_next_to.get(kind)
        if not near:
            return False
        return any(board.grid.contains(n) and state.terrain_at(n) in near for n in neighbors(h))

    previous: dict[Hex, Hex | None] = {h: None for h in starts}
    queue = deque(starts)
    while queue:
        h = queue.popleft()
        if h in exits:
            path = [h]
            while (before := previous[path[-1]]) is not None:
                path.append(before)
            return path[::-1]
        first = previous[h] is None  # h is a position hex: the next hex is adjacent to it
        for n in neighbors(h):
            if n in previous or not board.grid.contains(n) or blocked_ground(n):
                continue
            if n in control and not (first and may_pass and state.terrain_at(n) in comm.pass_terrain):
                continue
            previous[n] = h
            queue.append(n)
    return None


def in_communication(
    state: MapState,
    position_key: str,
    *,
    control: dict[Hex, str] | None = None,
    rules: MoveRules | None = None,
    config: FieldsConfig | None = None,
) -> bool:
    """Whether German position ``position_key`` can trace a path to an exit hex (omaha 2);
    ``communication_path`` gives the path."""
    return communication_path(state, position_key, control=control, rules=rules, config=config) is not None
