"""D-Day at Omaha Beach, what the American player may know (omaha 2, 9.3, 9.7).

German Reinforcements arrive face down (omaha 2) and Depth markers are hidden until an
attack reveals them (9.7); the German reserve pools and the order of the German deck
are out of sight. ``view`` makes the US side's copy of a state: every unrevealed German
unit on the map becomes a face-down counter (type ``face-down``) under a neutral name,
every hidden Depth marker a ``depth`` marker named after the unit that holds it, the
pools hold neutral counters only, and the deck's order is hidden. Piece ids would give
the secret away (``T3`` is a Tactical unit, ``D2`` a 352nd one, ``WD8`` a 3-strength
Depth marker needing flanking), so the names are neutral: ``face-down-N`` in the order
the units were placed face down (kept in ``state.marks[NAMES]``, which the view drops).
The German side and the whole table (a bot-only game, the log's owner) see everything.
"""

from __future__ import annotations

from dataclasses import replace

from tabletop.engine.game import private
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState

from .common import GERMAN, POOLS, UNREVEALED, US

NAMES = "face-down-names"  # state.marks: "real=shown" for each unit placed face down
FACE_DOWN = "face-down"  # the counter type the US side sees
HIDDEN_POOLS = tuple(POOLS[k] for k in ("wn", "building", "mobile", "tactical", "division"))


def name_face_down(state: GameState, uid: str) -> str:
    """The neutral name of ``uid``, given the first time it is placed face down."""
    entries = state.marks.setdefault(NAMES, [])
    for entry in entries:
        real, _, shown = entry.partition("=")
        if real == uid:
            return shown
    shown = f"{FACE_DOWN}-{len(entries) + 1}"
    entries.append(f"{uid}={shown}")
    return shown


def hidden(piece: Piece) -> bool:
    """Whether the US may not know what ``piece`` is: a German unit face down, or a
    Depth marker not yet revealed."""
    if UNREVEALED not in piece.status:
        return False
    return piece.side == GERMAN or piece.type == "depth"


def shown_name(state: GameState, piece: Piece) -> str:
    """How the log names ``piece`` for every reader: its neutral name while hidden."""
    if piece.kind == "unit" and hidden(piece):
        return name_face_down(state, piece.id)
    return piece.id


def said(state: GameState, piece: Piece, text: str) -> list[str]:
    """A log line naming a German unit: public with its neutral name while it is
    hidden, and the same line with its real id for the German side alone."""
    name = shown_name(state, piece)
    if name == piece.id:
        return [text.format(unit=piece.id)]
    return [text.format(unit=name), private(GERMAN, text.format(unit=piece.id))]


def view(state: GameState, side: str) -> GameState:
    """``side``'s view of ``state`` (a copy the engine hands over, changed in place):
    the US side's hides what the module doc says; every other side sees everything."""
    if side != US:
        return state
    names = dict(e.partition("=")[::2] for e in state.marks.pop(NAMES, []))
    secret = [p for p in state.map.pieces() if hidden(p)]
    renamed: dict[str, str] = {}
    for p in secret:
        if p.kind == "unit":
            renamed[p.id] = names.get(p.id) or f"{FACE_DOWN}-{len(names) + len(renamed) + 1}"
    secret_ids = {p.id for p in secret}
    for p in state.map.pieces():
        for mid in p.carrying:
            if mid in secret_ids:
                renamed[mid] = f"depth-of-{renamed.get(p.id, p.id)}"
    for p in secret:
        renamed.setdefault(p.id, f"depth-{len(renamed) + 1}")
    for p in state.map.pieces():
        if p.id in renamed or any(m in renamed for m in p.carrying):
            state.map.remove(p.id)
            state.map.place(_masked(p, renamed))
    for box in HIDDEN_POOLS:
        if box in state.boxes:
            state.boxes[box] = [_pool_counter(p, box, i) for i, p in enumerate(state.boxes[box])]
    for deck in state.decks.values():
        deck.cards = ["?"] * len(deck.cards)
    return state


def _masked(p: Piece, renamed: dict[str, str]) -> Piece:
    """A piece as the US sees it: a hidden one renamed and, for a unit, face down."""
    carrying = tuple(renamed.get(m, m) for m in p.carrying)
    if p.id not in renamed:
        return replace(p, carrying=carrying)
    if p.kind != "unit":
        return replace(p, id=renamed[p.id], carrying=carrying)
    return Piece(renamed[p.id], FACE_DOWN, p.hex, p.side, status=p.status, carrying=carrying)


def _pool_counter(p: Piece, box: str, i: int) -> Piece:
    """A counter of a reserve pool as the US sees it: what pool, not what unit."""
    kind = "depth" if p.kind == "marker" else FACE_DOWN
    return Piece(f"{box}-{i + 1}", kind, p.hex, p.side, p.kind, status=frozenset({UNREVEALED}))
