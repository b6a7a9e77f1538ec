"""D-Day at Omaha Beach: words and small questions every part-1 module asks of a state.

Sides, box names, which sector a hex is in, the landing boxes and the hexes they point
at, the current turn's kind (standard or EXT), US unit data by piece, and what a US unit
losing steps does (omaha 4: HQs delayed, Generals flipped then killed, Command Posts
revert, the catastrophic loss box; 9.2 losses). One place for each, so the landing and
the German procedures agree.
"""

from __future__ import annotations

from dataclasses import replace

from tabletop.board import Map
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex

from . import data

GAME = "D-Day at Omaha Beach"
US = "us"
GERMAN = "german"
SECTORS = ("east", "west")
LEADERS = frozenset({"hq", "general", "command-post"})
DEAD = "dead"
REMOVED = "removed"
CATASTROPHIC = "catastrophic-loss"
GERMAN_DEAD = "german-eliminated"
POOLS = {
    "wn": "pool-wn-depth",
    "building": "pool-building-depth",
    "mobile": "pool-mobile-depth",
    "tactical": "pool-tactical",
    "division": "pool-division",
    "artillery": "artillery-box",
}
DISRUPTED = "disrupted"
UNREVEALED = "unrevealed"
HERO = "hero"
INSPIRED = "inspired"
FLIPPED = "flipped"  # a General hit once (omaha 4)
LAST_TURN = "last-turn"
LANDING_REGION = "landing-boxes"


def rule(section: str) -> str:
    """A section of the rules summary as the log cites it: "omaha 9.2"."""
    return f"omaha {section}"


def extended(state: GameState) -> bool:
    """Whether the current turn is an EXT turn (turns 17-32, omaha header)."""
    return state.turn >= int(data.rules()["extended_from"])


def turn_box(sector: str, turn: int) -> str:
    """The turn-track box of a sector (the scenario's `east-turn-N`)."""
    return f"{sector}-turn-{turn}"


def col_row(board: Map, h: Hex) -> tuple[int, int]:
    """1-based column and row, as the hex labels print them."""
    c, r = board.grid.offset_of(h)
    return c + 1, r + 1


def at(board: Map, col: int, row: int) -> Hex | None:
    """The hex at a 1-based column and row, or None off the map."""
    label = f"{col:02d}{row:02d}"
    try:
        return board.hex_of(label)
    except Exception:
        return None


def sector_of(board: Map, h: Hex) -> str:
    """The sector (omaha 6, 9.1) of a hex: its `sector-*` region."""
    for s in SECTORS:
        if h in board.regions[f"sector-{s}"].hexes:
            return s
    return SECTORS[0]


def landing_boxes(board: Map) -> list[Hex]:
    """The Beach Landing Boxes, east (left) to west (right)."""
    return sorted(board.regions[LANDING_REGION].hexes, key=lambda h: col_row(board, h)[0])


def is_box(board: Map, h: Hex) -> bool:
    return h in board.regions[LANDING_REGION].hexes


def pointed(board: Map, box: Hex, depth: int = 1) -> list[Hex]:
    """The hexes a box points at, nearest first: the hex above it, then the next up."""
    col, row = col_row(board, box)
    out = [at(board, col, row - k) for k in range(1, depth + 1)]
    return [h for h in out if h is not None]


def us_data(piece: Piece) -> data.UsUnit | None:
    return data.us_units().get(piece.id)


def full_steps(piece: Piece) -> int:
    unit = us_data(piece)
    return unit.steps if unit is not None else piece.steps


def symbol(piece: Piece) -> str | None:
    unit = us_data(piece)
    return unit.symbol if unit is not None else None


def armored(piece: Piece) -> bool:
    unit = us_data(piece)
    return bool(unit and unit.armored)


def us_units(state: GameState) -> list[Piece]:
    return [p for p in state.map.pieces() if p.kind == "unit" and p.side == US]


def german_units(state: GameState) -> list[Piece]:
    return [p for p in state.map.pieces() if p.kind == "unit" and p.side == GERMAN]


def with_status(state: GameState, piece: Piece, add: str | None = None, drop: str | None = None) -> Piece:
    status = set(piece.status)
    if add:
        status.add(add)
    if drop:
        status.discard(drop)
    moved = replace(piece, status=frozenset(status))
    state.map.update(moved)
    return moved


def delay(state: GameState, piece: Piece, turns: int, why: str) -> str:
    """Take a US unit off the map onto its sector's turn box ``turns`` later."""
    sector = sector_of(state.board, piece.hex)
    box = turn_box(sector, state.turn + turns)
    state.to_box(piece.id, box)
    state.mark("delayed", piece.id)
    return f"{piece.id} delayed +{turns} turns to {box} ({why})"


def lose_steps(state: GameState, piece: Piece, n: int, why: str, *, catastrophic: bool = False) -> list[str]:
    """A US unit loses ``n`` steps (omaha 4, 9.2): leaders as omaha 4 says; a unit with
    none left is eliminated; with ``catastrophic`` (German fire, omaha 4) a non-ranger
    infantry unit that has lost its second step goes to the catastrophic loss box."""
    if piece.type == "hq":
        return [delay(state, piece, int(data.rules()["fire"]["hq_delay"]), f"a hit HQ lands again, {rule('4')}")]
    if piece.type == "command-post":
        state.map.update(replace(piece, type="hq"))
        return [f"{piece.id}: the Command Post is hit and reverts to an HQ ({rule('4')} EXT)"]
    if piece.type == "general":
        if FLIPPED in piece.status:
            state.to_box(piece.id, DEAD)
            return [f"{piece.id}: the General is hit a second time and killed ({rule('4')})"]
        with_status(state, piece, add=FLIPPED)
        return [f"{piece.id}: the General is hit and flipped ({rule('4')})"]
    left = piece.steps - n
    if left <= 0:
        state.to_box(piece.id, DEAD)
        return [f"{piece.id} loses {n} step(s) and is eliminated ({why})"]
    piece = replace(piece, steps=left)
    state.map.update(piece)
    lines = [f"{piece.id} loses {n} step(s): {left} of {full_steps(piece)} left ({why})"]
    fire = data.rules()["fire"]
    lost = full_steps(piece) - left
    if catastrophic and piece.type in fire["catastrophic_types"] and lost >= int(fire["catastrophic_after_lost"]):
        state.to_box(piece.id, CATASTROPHIC)
        lines.append(f"{piece.id} has lost its second step: to the catastrophic loss box ({rule('4')})")
    return lines


def stack_count(state: GameState, h: Hex) -> int:
    """US units counting against the stacking and box limits (leaders free, omaha 1, 6)."""
    return sum(1 for p in state.map.units_at(h) if p.side == US and p.type not in LEADERS)
