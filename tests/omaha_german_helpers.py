"""Set-ups for the D-Day at Omaha Beach German-side tests (test_omaha_german.py,
test_omaha_actions.py): a bare state on the shipped map with every position in
communication, cards with exactly the attributes a test needs, units placed by id and
hex label (their types, colours and steps read from germans.yaml and us_units.yaml)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from tabletop.board import Map, load_map
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.games.omaha import data, german
from tabletop.games.omaha.fields import position_keys


@cache
def board() -> Map:
    return load_map("omaha")


def bare_state(turn: int) -> GameState:
    """The German phase of ``turn`` on an empty map, every position in communication."""
    state = GameState(MapState.of(board()), turn=turn, phase="german")
    state.marks[german.COMM] = position_keys(board())
    return state


def a_card(colours: str, symbols: str, action: str = "F", **kw: object) -> data.Card:
    """A card: colours/symbols as words, a trailing '!' meaning double."""
    base = dict(id="X", landing="A", mine=False, calibre=75, artillery_value=1, armour_bonus=False,
                leader_bonus=False)  # fmt: skip
    base.update(kw)
    cols = tuple((c.rstrip("!"), c.endswith("!")) for c in colours.split())
    syms = tuple((s.rstrip("!"), s.endswith("!")) for s in symbols.split())
    return data.Card(action=action, colours=cols, symbols=syms, **base)  # type: ignore[arg-type]


def de(
    state: GameState,
    gid: str,
    label: str,
    depth: str | None = None,
    status: tuple[str, ...] = (),
    depth_status: tuple[str, ...] = (),
) -> Piece:
    """German unit ``gid`` at ``label``, carrying the depth marker ``depth`` if given."""
    info = data.germans().units[gid]
    piece = Piece(gid, info.type, board().hex_of(label), side="german", status=frozenset(status))
    if depth:
        state.map.place(Piece(depth, "depth", piece.hex, kind="marker", status=frozenset(depth_status)))
        piece = replace(piece, carrying=(depth,))
    state.map.place(piece)
    return piece


def us(state: GameState, uid: str, label: str, steps: int | None = None, status: tuple[str, ...] = ()) -> Piece:
    """US unit ``uid`` at ``label``, at full strength unless ``steps``."""
    info = data.us_units()[uid]
    piece = Piece(uid, info.type, board().hex_of(label), side="us", steps=steps or info.steps, status=frozenset(status))
    state.map.place(piece)
    return piece
