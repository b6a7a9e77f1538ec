"""D-Day at Omaha Beach, engineer bases (omaha 7, EXT): where a base may stand, its
range, and the benefits in force within it.

omaha 7 EXT: "You may establish or advance 1 Engineer Base per Division", in a beach
hex not in the field of fire of an occupied or in-communication German position; a
base may not advance, nor give traffic management, if German artillery fire occurred
in its sector (this turn, the project's reading). Within its range of operations
(gap G10, ``attacks.yaml`` ``engineer_bases``): shingle lanes (shingle hexsides do not
impede movement, read by ``movement``); road clearing (mined-road markers count as
cleared: a ``road-cleared`` marker is laid on each); traffic management (a unit that begins
its move in a beach, pavillon or draw hex moves free, read by ``us_actions``); garrison
(``garrisoned``: US units in an unoccupied position out of every German field of fire
may not be targeted by German mortar or artillery fire, read by ``actions`` and
``german``; the project's reading of a thin text, attacks.yaml ``garrison``).

PROJECT'S CHOICE (attacks.yaml): a base is a marker, no unit (9.1 lists no engineers,
gap G11); establishing or advancing it is a free action of its Division; an advance
moves the base at most ``advance`` hexes.
"""

from __future__ import annotations

from typing import Any

from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance

from . import german
from .common import extended, rule, sector_of
from .fields import position_keys
from .usdata import attacks

BASE = "engineer-base"  # the marker type (counters/omaha.yaml)
BASED = "base-moved"  # divisions whose base was established or advanced this phase
SHELLED = "artillery-fired"  # sectors where German artillery fired this turn (omaha 5)


def cfg() -> Any:
    return attacks()["engineer_bases"]


def divisions() -> list[str]:
    return [str(d) for d in cfg()["divisions"]]


def base_id(division: str) -> str:
    return f"{BASE}-{division}"


def base_of(state: GameState, division: str) -> Piece | None:
    try:
        return state.map.piece(base_id(division))
    except KeyError:
        return None


def bases(state: MapState) -> list[Piece]:
    return [p for p in state.pieces() if p.kind == "marker" and p.type == BASE]


def in_range(state: MapState, h: Hex) -> list[Piece]:
    """The bases whose range of operations holds ``h`` (gap G10)."""
    most = int(cfg()["range"])
    return [b for b in bases(state) if distance(b.hex, h) <= most]


def exposed(state: GameState, h: Hex) -> str | None:
    """omaha 7 EXT: a base's hex is a beach hex out of the field of fire of every
    occupied or in-communication German position."""
    board = state.board
    if state.map.terrain_at(h) != "beach":
        return f"{board.label(h)} is not a beach hex: an Engineer Base stands on the beach ({rule('7')} EXT)"
    for key in position_keys(board):
        if (german.units_in(state, key) or german.communicating(state, key)) and h in german.field(board, key):
            return f"{board.label(h)} is in the field of fire of {key}, occupied or in communication ({rule('7')} EXT)"
    return None


def shelled(state: GameState, h: Hex) -> bool:
    """German artillery fire occurred in the sector of ``h`` this turn (omaha 5, 7)."""
    return state.marked(SHELLED, sector_of(state.board, h))


def refusal(state: GameState, division: object, to: object) -> str | None:
    """Why the Division may not establish or advance its base into ``to`` now."""
    if not extended(state):
        return f"Engineer Bases are established in the extended turns only ({rule('7')} EXT)"
    if str(division) not in divisions():
        return f"no Division {division!r}: one of {', '.join(divisions())} ({rule('7')} EXT)"
    if state.marked(BASED, str(division)):
        return f"the {division} Division has established or advanced its base this phase: 1 a Division ({rule('7')} EXT)"
    try:
        h = state.board.hex_of(str(to))
    except (KeyError, ValueError):
        return f"no hex {to!r} on the map"
    why = exposed(state, h)
    if why is not None:
        return why
    old = base_of(state, str(division))
    if old is not None:
        if old.hex == h:
            return f"the {division} Division's base is already in {state.board.label(h)}"
        if shelled(state, old.hex):
            return f"German artillery fired in the {sector_of(state.board, old.hex)} sector this turn: the base may not advance ({rule('7')} EXT)"
        most = int(cfg()["advance"])
        if distance(old.hex, h) > most:
            return f"a base advances at most {most} hexes (project's choice, {rule('7')} EXT)"
    return None


def place(state: GameState, division: str, to: Hex) -> list[str]:
    """Establish or advance the Division's base (``refusal`` said yes), and clear the
    mined roads in its range (road clearing)."""
    label = state.board.label(to)
    state.mark(BASED, division)
    old = base_of(state, division)
    if old is None:
        state.map.place(Piece(base_id(division), BASE, to, None, kind="marker"))
        lines = [f"the {division} Division establishes an Engineer Base in {label} ({rule('7')} EXT; free)"]
    else:
        state.map.move(old.id, to)
        lines = [f"the {division} Division's Engineer Base advances to {label} ({rule('7')} EXT; free)"]
    return lines + clear_roads(state, to)


def clear_roads(state: GameState, base: Hex) -> list[str]:
    """Road clearing: every mined road in the base's range counts as cleared."""
    most = int(cfg()["range"])
    mined = str(cfg()["mined_road_marker"])
    cleared = str(cfg()["road_cleared_marker"])
    out = []
    for m in sorted(state.map.pieces(), key=lambda p: p.id):
        if m.kind != "marker" or m.type != mined or distance(m.hex, base) > most:
            continue
        if any(p.type == cleared for p in state.map.markers_at(m.hex)):
            continue
        label = state.board.label(m.hex)
        state.map.place(Piece(road_cleared_id(label), cleared, m.hex, None, kind="marker"))
        out.append(f"road clearing: the mined road in {label} counts as cleared ({rule('7')} EXT)")
    return out


def road_cleared_id(label: str) -> str:
    """The road-clearing marker's id, apart from obstacle clearing's ``cleared-<hex>``
    (us_actions.cleared_id): a hex may hold both."""
    return f"{cfg()['road_cleared_marker']}-{label}"


def garrisoned(state: GameState, h: Hex) -> bool:
    """Garrison (omaha 7 EXT, project's reading, attacks.yaml ``garrison``): ``h`` is a
    hex of a German position with no German unit, in a base's range, and in no field of
    fire of a position holding German units."""
    if not bases(state.map) or not in_range(state.map, h):
        return False
    board = state.board
    key = german.position_of(board, h)
    if key is None or german.units_in(state, key):
        return False
    return not any(german.units_in(state, k) and h in german.field(board, k) for k in position_keys(board))


def garrison_spares(state: GameState, unit: Piece, fire: str) -> bool:
    """Whether the garrison shields ``unit`` from this German ``fire`` (mortar, artillery)."""
    return fire in tuple(cfg()["garrison"]["shields_from"]) and garrisoned(state, unit.hex)


def traffic_free(state: GameState, start: Hex) -> bool:
    """Traffic management: a move that begins in a beach, pavillon or draw hex in a
    base's range is free, unless German artillery fired in that base's sector."""
    if state.map.terrain_at(start) not in tuple(cfg()["traffic_terrain"]):
        return False
    return any(not shelled(state, b.hex) for b in in_range(state.map, start))


def shingle_lane(state: MapState, a: Hex, b: Hex) -> bool:
    """Shingle lanes: a shingle hexside between two hexes in a base's range does not
    impede movement."""
    return bool(in_range(state, a)) and bool(in_range(state, b))
