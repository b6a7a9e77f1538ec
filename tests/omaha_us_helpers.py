"""Set-ups for the D-Day at Omaha Beach part 2 tests (tests/test_omaha_us_*.py): a game
of the shipped scenario in its US Action phase with the map cleared, and pieces put
where a test wants them."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any

from tabletop.engine.game import Game
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.pieces import Piece
from tabletop.engine.scenario import load_scenario
from tabletop.games import ruleset
from tabletop.games.omaha import us_actions
from tabletop.games.omaha.common import GERMAN_DEAD
from tabletop.shipped import resolve


def game(seed: int = 1, length: str = "standard", history: bool = False) -> Game:
    g = new_game(load_scenario(resolve("omaha", "scenarios")), ruleset("omaha"), seed=seed,  # type: ignore[arg-type]
                 options={"length": length}, history=history)  # fmt: skip
    g.use_seeded_dice()
    auto_setup(g)
    return g


def action_phase(turn: int = 5, length: str = "standard", clear: bool = True) -> Game:
    """A game in the US Action phase of ``turn``, the German units off the map (to the
    eliminated box) when ``clear``, communication taken (every position cut off)."""
    g = game(length=length)
    state = g.state
    state.turn = turn
    if clear:
        for p in list(state.map.pieces()):
            if p.side == "german" or (p.kind == "marker" and p.type == "depth"):
                state.to_box(p.id, GERMAN_DEAD)
    state.phase = "us-action"
    state.marks["in-communication"] = []
    us_actions.begin(state)
    return g


def put(state: Any, uid: str, label: str, steps: int | None = None, status: tuple[str, ...] = ()) -> Piece:
    """Bring a US unit (from its turn box) or a German unit (from wherever) onto a hex."""
    h = state.board.hex_of(label)
    where = state.where(uid)
    if where is not None:
        state.from_box(where, uid, h)
    else:
        state.map.move(uid, h)
    p = state.map.piece(uid)
    p = replace(p, steps=steps if steps is not None else p.steps, status=frozenset(status))
    state.map.update(p)
    return p


def german(state: Any, uid: str, label: str, status: tuple[str, ...] = (), depth: str | None = None,
           depth_status: tuple[str, ...] = ("unrevealed",)) -> Piece:  # fmt: skip
    """A German unit of germans.yaml on a hex, with a Depth marker if asked."""
    from tabletop.games.omaha import data

    h = state.board.hex_of(label)
    info = data.germans().units[uid]
    if state.where(uid) is not None:
        state.boxes[state.where(uid)] = [p for p in state.boxes[state.where(uid)] if p.id != uid]
    else:
        with contextlib.suppress(KeyError):
            state.map.remove(uid)
    carrying: tuple[str, ...] = ()
    if depth:
        box = state.where(depth)
        if box is not None:
            state.boxes[box] = [p for p in state.boxes[box] if p.id != depth]
        else:
            with contextlib.suppress(KeyError):
                state.map.remove(depth)
        state.map.place(Piece(depth, "depth", h, None, kind="marker", status=frozenset(depth_status)))
        carrying = (depth,)
    piece = Piece(uid, info.type, h, "german", status=frozenset(status), carrying=carrying)
    state.map.place(piece)
    return piece
