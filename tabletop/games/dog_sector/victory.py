"""DOG SECTOR victory: trench sections cleared and the level of victory (Table 7).

Knows what counts as a cleared trench section (project's choice, ``rules.yaml``: none of
its trench hexes holds a German unit) and the ranks of Table 7, worded by the project.
Knows nothing of when the game ends: that is the ruleset's ``outcome``.
"""

from __future__ import annotations

from typing import Any

from tabletop.board import Map
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex

from .procedures import GERMAN, Rank, section_hexes, tables

TRENCH = "trench"


def section_cleared(state: GameState, section: str) -> bool:
    """Whether no trench hex of ``section`` holds a German unit."""
    for h in _trenches(state.board, section):
        if any(p.side == GERMAN for p in state.map.units_at(h)):
            return False
    return True


_trench_memo: dict[tuple[int, str], tuple[Map, tuple[Hex, ...]]] = {}


def _trenches(board: Map, section: str) -> tuple[Hex, ...]:
    """The trench hexes of ``section``, remembered per map (asked after every action)."""
    found = _trench_memo.get((id(board), section))
    if found is None or found[0] is not board:
        hexes = tuple(h for h in section_hexes(board, section) if board.terrain[h] == TRENCH)
        found = _trench_memo[(id(board), section)] = (board, hexes)
    return found[1]


_cleared_memo: list[Any] = [None, -1, []]  # [map state, version, sections cleared]


_all_memo: dict[int, tuple[Map, frozenset[Hex]]] = {}


def _all_trenches(board: Map) -> frozenset[Hex]:
    """The trench hexes of every section (what the sections cleared read), per map."""
    found = _all_memo.get(id(board))
    if found is None or found[0] is not board:
        hexes = frozenset(h for s in tables().artillery.sections for h in _trenches(board, s))
        found = _all_memo[id(board)] = (board, hexes)
    return found[1]


def sections_cleared(state: GameState) -> list[str]:
    """The trench sections cleared, in the order of ``rules.yaml`` (section 1 first);
    remembered until the map changes in a trench hex of a section (the game's outcome
    asks after every action, and most change only the beach)."""
    memo = _cleared_memo
    if memo[0] is state.map and memo[1] != state.map.version:
        changed = state.map.changed_since(memo[1])
        if changed is not None and changed.isdisjoint(_all_trenches(state.board)):
            memo[1] = state.map.version
    if memo[0] is not state.map or memo[1] != state.map.version:
        held = {p.hex for p in state.map.pieces() if p.kind == "unit" and p.side == GERMAN}
        board = state.board  # (section_cleared for each section, the German hexes found once)
        cleared = [s for s in tables().artillery.sections if held.isdisjoint(_trenches(board, s))]
        memo[:] = [state.map, state.map.version, cleared]
    return list(memo[2])


def rank(cleared: int) -> Rank:
    """Table 7: the rank for ``cleared`` sections; ValueError outside 0..6."""
    for r in tables().ranks:
        if r.low <= cleared <= r.high:
            return r
    raise ValueError(f"{cleared} is not a number of trench sections (0-{len(tables().artillery.sections)})")


def result_text(state: GameState, why: str = "") -> str:
    """The level of victory in words: "Sergeant Major (3 of 6 trench sections cleared):
    a fair day's work on the bluffs"."""
    n = len(sections_cleared(state))
    r = rank(n)
    tail = f"; {why}" if why else ""
    return f"{r.rank} ({n} of {len(tables().artillery.sections)} trench sections cleared): {r.words}{tail}"
