"""D-Day at Omaha Beach, the landing (omaha 1, 9.1, 9.2): placing the turn's arrivals in
the Beach Landing Boxes, then resolving each occupied box with a German card.

Placement (omaha 1): at most 2 units a box (HQs and Generals free); a General not alone
when units arrive with him; Charlie boxes for rangers only; from turn 7 a unit may be
delayed by choice; before turn 11 (reading A10) a delayed unit lands in its own sector.
Resolution (9.2): the card's landing letter (gap G15) read on the unit's row of the
turn band (reading A1): drift along the row (off the row: +2 turns), delay, step losses,
elimination, removal from play; HQs and Generals do not check and drift with the first
unit of their box that drifts; rangers choose their own drift 0-4 (the player). High
tide (gap G7): a box not pointing at a beach hex delays its units +2 turns. The card's
Exploding Mine Symbol (omaha 1): by turn band, a box landing on (or passing through) an
uncleared obstacle hex loses 1 step of a unit of the player's choice; an HQ alone there
is delayed +2 turns, Generals are unaffected.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tabletop.engine.dice import Dice
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex

from . import data
from .common import (
    DEAD,
    LEADERS,
    REMOVED,
    SECTORS,
    US,
    at,
    col_row,
    delay,
    is_box,
    landing_boxes,
    lose_steps,
    pointed,
    rule,
    sector_of,
    stack_count,
    turn_box,
)  # fmt: skip

NOW = "landing-now"  # ids placed this turn, to resolve
RESOLVED = "boxes-resolved"  # box labels resolved this turn
DONE = "units-resolved"  # ids resolved this turn (a unit drifting into another box is not resolved again)
ASK_RANGER = "ask-ranger"  # ranger ids whose drift the player chooses
ASK_MINE = "ask-mine"  # box labels where the player chooses the mine's step loss
DECK = "german"
LANDING_CARD = "landing-card"  # state.hands: the card last drawn for a box, and the box
R1, R92 = rule("1"), rule("9.2")


def cfg() -> Any:
    return data.rules()["landing"]


def waiting(state: GameState) -> list[Piece]:
    """This turn's arrivals not yet placed, east then west, in the schedule's order,
    HQs and Generals after the others (a General may not land alone, omaha 1)."""
    found = [p for s in SECTORS for p in state.box(turn_box(s, state.turn))]
    return sorted(found, key=lambda p: p.type in LEADERS)


def waiting_sector(state: GameState, uid: str) -> str | None:
    for s in SECTORS:
        if any(p.id == uid for p in state.box(turn_box(s, state.turn))):
            return s
    return None


def gather_turn_zero(state: GameState) -> list[str]:
    """Gap G14: the turn-0 arrivals join turn 1's (resolved on the Turn 1 row)."""
    if state.turn != int(cfg()["turn_zero_lands_on"]):
        return []
    lines = []
    for s in SECTORS:
        for p in list(state.box(turn_box(s, 0))):
            state.boxes[turn_box(s, 0)].remove(p)
            state.boxes.setdefault(turn_box(s, state.turn), []).insert(0, p)
            lines.append(f"{p.id} (turn 0) lands with turn {state.turn} (project's choice, gap G14)")
        state.boxes.pop(turn_box(s, 0), None)
    return lines


# ---------------------------------------------------------------- placing (omaha 1)


def place_refusal(state: GameState, uid: str, label: str) -> str | None:
    """Why unit ``uid`` may not be placed in box ``label`` now, or None."""
    sector = waiting_sector(state, uid)
    if sector is None:
        return f"{uid} is not one of this turn's arrivals still to place ({R1})"
    piece = next(p for p in state.box(turn_box(sector, state.turn)) if p.id == uid)
    board = state.board
    try:
        h = board.hex_of(label)
    except Exception:
        return f"{label!r} is not a hex of the map"
    if not is_box(board, h):
        return f"{label} is not a Beach Landing Box (row 15) ({R1})"
    anywhere = state.marked("delayed", uid) and state.turn >= int(cfg()["delayed_anywhere_from"])
    if sector_of(board, h) != sector and not anywhere:
        why = "a delayed unit lands anywhere only from turn 11 (reading A10)" if state.marked("delayed", uid) else ""
        return f"{uid} arrives in the {sector} sector: place it in that sector's boxes ({rule('9.1')}{'; ' + why if why else ''})"
    if h in board.regions[cfg()["charlie_region"]].hexes and piece.type not in cfg()["charlie_only"]:
        return f"only rangers may be placed in the Charlie boxes (CH) ({R1})"
    if piece.type not in LEADERS and stack_count(state, h) >= int(cfg()["box_limit"]):
        return f"box {label} already holds {cfg()['box_limit']} units: the most a box takes, HQs and Generals free ({R1})"
    if piece.type == "general":
        coming = [p for p in waiting(state) if p.type not in LEADERS and waiting_sector(state, p.id) == sector]
        landed = [p for p in state.map.units_at(h) if state.marked(NOW, p.id) and p.type not in LEADERS]
        placed_any = any(state.marked(NOW, p.id) and p.type not in LEADERS for p in state.map.pieces())
        if (coming or placed_any) and not landed:
            return f"a General may not be placed alone when units arrive with him: place him with one of them ({R1})"
    return None


def delay_refusal(state: GameState, uid: str) -> str | None:
    if waiting_sector(state, uid) is None:
        return f"{uid} is not one of this turn's arrivals still to place ({R1})"
    if state.turn < int(cfg()["voluntary_delay_from"]) and has_box(state, uid):
        return f"units may be delayed by choice only from turn {cfg()['voluntary_delay_from']} ({R1})"
    return None


def has_box(state: GameState, uid: str) -> bool:
    """Whether some box takes the unit now. PROJECT'S CHOICE: a unit no box can take
    (every box of its sector full) is delayed one turn, whatever the turn."""
    return any(place_refusal(state, uid, state.board.label(h)) is None for h in landing_boxes(state.board))


def place(state: GameState, uid: str, label: str) -> list[str]:
    sector = waiting_sector(state, uid)
    assert sector is not None
    state.from_box(turn_box(sector, state.turn), uid, state.board.hex_of(label))
    state.mark(NOW, uid)
    return [f"{uid} placed in Beach Landing Box {label} ({R1})"]


def delay_by_choice(state: GameState, uid: str) -> list[str]:
    sector = waiting_sector(state, uid)
    assert sector is not None
    box = turn_box(sector, state.turn)
    piece = next(p for p in state.box(box) if p.id == uid)
    state.boxes[box].remove(piece)
    if not state.boxes[box]:
        del state.boxes[box]
    later = turn_box(sector, state.turn + int(cfg()["voluntary_delay_turns"]))
    state.boxes.setdefault(later, []).append(piece)
    state.mark("delayed", uid)
    if state.turn < int(cfg()["voluntary_delay_from"]):
        return [f"{uid}: no box of its sector can take it, delayed to {later} (project's choice)"]
    return [f"{uid} delayed by choice to {later} ({R1}, turn 7+)"]


def place_choices(state: GameState) -> list[dict[str, Any]]:
    """The first unit still to place: every legal box, and delaying it if allowed."""
    left = waiting(state)
    if not left:
        return []
    uid = left[0].id
    labels = [state.board.label(h) for h in landing_boxes(state.board)]
    out: list[dict[str, Any]] = [
        {"do": "land-place", "unit": uid, "to": lab} for lab in labels if place_refusal(state, uid, lab) is None
    ]
    if delay_refusal(state, uid) is None:
        out.append({"do": "land-delay", "unit": uid})
    return out


# --------------------------------------------------------------- resolving (9.2)


def next_box(state: GameState) -> Hex | None:
    """The next occupied box with units placed this turn, east to west."""
    for h in landing_boxes(state.board):
        if any(state.marked(NOW, p.id) and not state.marked(DONE, p.id) for p in state.map.units_at(h)):
            return h
    return None


def row_of(state: GameState, piece: Piece, box: Hex, band: Any) -> str:
    """The 9.2 row a unit reads (reading A1)."""
    rows = band["rows"]
    if "all" in rows:
        return "all"
    unit = data.us_units().get(piece.id)
    if "dukw" in rows and unit is not None and unit.dukw:
        return "dukw"
    rules = data.rules()
    if piece.type in rules["infantry_types"]:
        if "infantry-dg-ch" in rows and any(box in state.board.regions[r].hexes for r in rules["dg_ch_regions"]):
            return "infantry-dg-ch"
        return "infantry"
    return "others"


def results_for(turn: int, row: str, letter: str) -> list[str]:
    """The 9.2 cell: the results of ``letter`` on ``row`` in ``turn``'s band."""
    band = data.band_at("amphibious", turn)
    if band is None:
        raise ValueError(f"9.2 has no band for turn {turn}")
    return [str(r) for r in band["rows"][row][letter]]


def drift(state: GameState, piece: Piece, cols: int, why: str) -> tuple[list[str], bool]:
    """Move a unit along the row of boxes by ``cols`` (negative: left); off the row it is
    delayed +2 turns (omaha 1). Returns the lines and whether it is still in a box."""
    board = state.board
    col, row = col_row(board, piece.hex)
    target = at(board, col + cols, row)
    if target is None or not is_box(board, target):
        return [delay(state, piece, int(cfg()["off_row_delay"]), f"drifted off the Beach Landing Boxes, {R1}")], False
    state.map.move(piece.id, target)
    side = "left" if cols < 0 else "right"
    return [f"{piece.id} drifts {abs(cols)} {side} to box {board.label(target)} ({why})"], True


def resolve_box(state: GameState, dice: Dice) -> list[str]:
    """Draw a card for the next box and apply 9.2 to each unit placed there this turn,
    then the card's Exploding Mine Symbol (omaha 1)."""
    board = state.board
    box = next_box(state)
    assert box is not None
    label = board.label(box)
    state.mark(RESOLVED, label)
    card = data.cards()[draw(state, dice)]
    state.decks[DECK].discard(card.id)
    state.hands[LANDING_CARD] = [card.id, label]
    lines = [f"box {label}: {card.words()}"]
    here = [p for p in state.map.units_at(box) if state.marked(NOW, p.id) and not state.marked(DONE, p.id) and p.side == US]
    for p in here:
        state.mark(DONE, p.id)
    units = [p for p in here if p.type not in LEADERS]
    leaders = [p for p in here if p.type in LEADERS]
    if data.tide(state.turn) == "high" and not _points_at_beach(state, box):
        for p in here:
            lines.append(delay(state, p, int(cfg()["off_row_delay"]), f"high tide, box not pointing at a beach hex, {R1}"))
        return lines
    band = data.band_at("amphibious", state.turn)
    assert band is not None, f"9.2 has no band for turn {state.turn}"
    led_by: int | None = None
    for piece in units:
        row = row_of(state, piece, box, band)
        results = results_for(state.turn, row, card.landing)
        lines.append(f"{piece.id}: 9.2 turn {state.turn}, row {row}, {card.landing}: {', '.join(results)}")
        alive = True
        for word in results:
            kind, n = data.parse_result(word)
            piece = state.map.piece(piece.id)
            if kind == "none":
                continue
            if kind == "delay":
                lines.append(delay(state, piece, n, R92))
                alive = False
            elif kind == "eliminated":
                state.to_box(piece.id, DEAD)
                lines.append(f"{piece.id} is eliminated ({R92})")
                alive = False
            elif kind == "removed":
                state.to_box(piece.id, REMOVED)
                lines.append(f"{piece.id} is removed from play ({R92})")
                alive = False
            elif kind == "steps":
                lost = lose_steps(state, piece, n, R92)
                lines += lost
                alive = state.where(piece.id) is None
            elif kind in ("left", "right"):
                cols = -n if kind == "left" else n
                more, alive = drift(state, piece, cols, R92)
                lines += more
                if led_by is None:
                    led_by = cols
            elif kind == "ranger-choice" and piece.type == data.rules()["ranger_drift"]["type"]:
                state.mark(ASK_RANGER, piece.id)
                lines.append(f"{piece.id} (rangers): the player chooses a drift of 0-4 left ({R92})")
            if not alive:
                break
    if led_by is not None:
        for leader in leaders:
            more, _ = drift(state, state.map.piece(leader.id), led_by, f"drifts with a unit stacked with it, {R1}")
            lines += more
    lines += _mine(state, box, card)
    return lines


def _points_at_beach(state: GameState, box: Hex) -> bool:
    ahead = pointed(state.board, box, 1)
    return bool(ahead) and state.map.terrain_at(ahead[0]) == "beach"


def _obstacle(state: GameState, h: Hex) -> bool:
    rules = data.rules()
    kinds = {p.type for p in state.map.markers_at(h)}
    return rules["obstacle_marker"] in kinds and rules["cleared_marker"] not in kinds


def mine_hexes(state: GameState, box: Hex) -> list[Hex]:
    """The obstacle hexes a box's mine check finds this turn (omaha 1 by turn band)."""
    entry = data.band_at("mines", state.turn)
    if entry is None:
        return []
    return [h for h in pointed(state.board, box, int(entry["hexes"])) if _obstacle(state, h)]


def _mine(state: GameState, box: Hex, card: data.Card) -> list[str]:
    if not card.mine:
        return []
    label = state.board.label(box)
    found = mine_hexes(state, box)
    if not found:
        return [f"box {label}: Exploding Mine Symbol, but no uncleared obstacle to set off this turn ({R1})"]
    where = ", ".join(state.board.label(h) for h in found)
    victims = [p for p in state.map.units_at(box) if p.side == US and p.type not in LEADERS]
    if len(victims) > 1:
        state.mark(ASK_MINE, label)
        return [f"box {label}: a mine goes off on the obstacles at {where}: the player chooses who loses 1 step ({R1})"]
    if victims:
        return [f"box {label}: a mine goes off on the obstacles at {where}", *mine_loss(state, label, victims[0].id)]
    hqs = [p for p in state.map.units_at(box) if p.type == "hq"]
    if hqs:
        return [delay(state, hqs[0], int(cfg()["off_row_delay"]), f"a mine with only an HQ in the box, {R1}")]
    return [f"box {label}: a mine goes off at {where}; no unit it can hurt (Generals are not affected, {R1})"]


def mine_loss(state: GameState, label: str, uid: str) -> list[str]:
    ids = state.marks.get(ASK_MINE, [])
    if label in ids:
        ids.remove(label)
    return lose_steps(state, state.map.piece(uid), 1, f"exploding mine, {R1}")


def mine_refusal(state: GameState, label: str, uid: str) -> str | None:
    if label not in state.marks.get(ASK_MINE, []):
        return f"no mine waits for a choice in box {label} ({R1})"
    try:
        piece = state.map.piece(uid)
    except KeyError:
        return f"{uid} is not on the map"
    if state.board.label(piece.hex) != label or piece.type in LEADERS or piece.side != US:
        return f"{uid} is not a unit in box {label} that a mine can hurt ({R1})"
    return None


def ranger_drift(state: GameState, uid: str, left: int) -> list[str]:
    state.marks[ASK_RANGER].remove(uid)
    if left == 0:
        return [f"{uid} (rangers) chooses not to drift ({R92})"]
    lines, _ = drift(state, state.map.piece(uid), -left, f"the rangers' choice, {R92}")
    return lines


def ranger_refusal(state: GameState, uid: str, left: Any) -> str | None:
    if uid not in state.marks.get(ASK_RANGER, []):
        return f"{uid} has no drift to choose ({R92})"
    most = int(data.rules()["ranger_drift"]["most"])
    if not isinstance(left, int) or isinstance(left, bool) or not 0 <= left <= most:
        return f"rangers drift 0 to {most} boxes left ({R92})"
    return None


def draw(state: GameState, dice: Dice) -> str:
    """The next German card (the deck is reshuffled with the game's dice when empty)."""
    return state.decks[DECK].draw(dice)


def full_strength(state: GameState) -> None:
    """Every US unit waiting gets its 9.1 steps (us.yaml): one source of strength."""
    units = data.us_units()
    for _name, pieces in state.boxes.items():
        for i, p in enumerate(pieces):
            if p.side == US and p.id in units:
                pieces[i] = replace(p, steps=units[p.id].steps)
