"""D-Day at Omaha Beach, US barrages (omaha 6.3 tanks, 6.4 artillery EXT, 6.5 naval, 9.5).

A tank or artillery barrage draws a German card: its row of 9.5 is what the card shows
(the barraging unit's symbol, the target's colour, or both; reading A3, attacks.yaml),
its column the barraging unit's attack strength (its steps). A naval barrage (6.5) is
free: it Disrupts the target and strips its Depth marker. A hex barraged may not be
attacked in the same phase (6.2); many tanks may barrage the same hex (6.3).
"""

from __future__ import annotations

from dataclasses import replace

from tabletop.engine.dice import Dice
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex

from . import data, german, landing
from .attacks import BARRAGED, NAVAL, germans_at
from .common import DISRUPTED, rule, sector_of, symbol, with_status
from .usdata import attacks


def barrage_column(strength: int) -> int:
    """9.5 column index by attack strength (reading A3)."""
    for i, (lo, hi) in enumerate(attacks()["barrage"]["columns"]):
        if lo <= strength <= hi:
            return i
    return len(attacks()["barrage"]["columns"]) - 1


def barrage_row(card: data.Card, unit: Piece, target: Piece) -> str | None:
    """9.5 row: what the card shows (project's reading): None when neither."""
    sym = card.symbol(symbol(unit)) is not None
    col = card.colour(german.colour(target)) is not None
    return "color+sym" if sym and col else "color" if col else "sym" if sym else None


def barrage_result(row: str | None, strength: int) -> str:
    """The 9.5 cell (attacks.yaml ``barrage``); "none" when the card shows neither."""
    if row is None:
        return "none"
    return str(attacks()["barrage"]["rows"][row][barrage_column(strength)])


def barrage(state: GameState, unit: Piece, target: Hex, dice: Dice, why: str) -> list[str]:
    """A tank (6.3) or artillery (6.4) barrage on the German hex ``target``."""
    label = state.board.label(target)
    state.mark(BARRAGED, label)
    cid = landing.draw(state, dice)
    card = data.cards()[cid]
    state.decks[landing.DECK].discard(cid)
    lines = [f"{unit.id} barrages {label} ({why}): {card.words()}"]
    for g in germans_at(state, target):
        row = barrage_row(card, unit, g)
        word = barrage_result(row, unit.steps)
        has_depth = german.depth_of(state, g) is not None
        hit = word == "disrupted" or (word == "disrupted-if-no-depth" and not has_depth)
        shown = row or "neither symbol nor colour"
        if hit:
            with_status(state, g, add=DISRUPTED)
        lines.append(f"  {g.id}: 9.5 row {shown}, strength {unit.steps}: {word}"
                     + (" -> Disrupted" if hit else " -> no effect") + f" ({rule('9.5')})")  # fmt: skip
    return lines


def naval_barrage(state: GameState, target: Hex) -> list[str]:
    """6.5: free; the target is Disrupted and loses its Depth marker (gap G9: spends the
    sector's naval fire marker)."""
    label = state.board.label(target)
    state.mark(BARRAGED, label)
    state.tracks[NAVAL + sector_of(state.board, target)] -= 1
    lines = [f"naval barrage on {label} ({rule('6.5')})"]
    for g in germans_at(state, target):
        with_status(state, g, add=DISRUPTED)
        marker = german.depth_of(state, g)
        if marker is not None:
            german.drop_depth(state, g)
            state.map.update(replace(state.map.piece(g.id), carrying=()))
            lines.append(f"  {g.id}: Disrupted, its Depth marker removed")
        else:
            lines.append(f"  {g.id}: Disrupted")
    return lines
