"""D-Day at Omaha Beach, 9.4 "Mined Roads": infantry and leaders ∅, others (tanks,
artillery, anti-tank, anti-aircraft) "No". The scenario's ``mined-road`` markers (gap
G6: the road hex at the mouth of each of the five draws) carry the row; a ``road-cleared``
marker with one lifts it (omaha 7 road clearing).
"""

from __future__ import annotations

from functools import cache

import pytest

from tabletop.board import Map, load_map
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.scenario import load_scenario
from tabletop.games.omaha.movement import OmahaMovePolicy, default_rules
from tabletop.shipped import resolve

MOUTHS = ("0410", "0810", "1310", "1910", "2810")


@cache
def board() -> Map:
    return load_map("omaha")


def mined(*extra: str) -> MapState:
    state = MapState.of(board())
    state.place(Piece("M1", "mined-road", board().hex_of("1910"), kind="marker"))
    for i, kind in enumerate(extra):
        state.place(Piece(f"X{i}", kind, board().hex_of("1910"), kind="marker"))
    return state


def step(state: MapState, kind: str, frm: str = "1909") -> str | None:
    unit = Piece("U", kind, board().hex_of(frm), "us", steps=2)
    return OmahaMovePolicy().why_not_step(state, unit, board().hex_of(frm), board().hex_of("1910"))


def test_the_9_4_row() -> None:
    """9.4: Mined Roads: infantry ∅, leaders ∅, others No."""
    assert dict(default_rules().terrain["mined-road"]) == {"infantry": "open", "leaders": "open", "others": "prohibited"}


@pytest.mark.parametrize("kind", ["tank", "artillery", "anti-tank", "anti-aircraft"])
def test_others_may_not_enter_a_mined_road(kind: str) -> None:
    """9.4 "Mined Roads": "No" for others; the same step is open without the marker."""
    assert step(MapState.of(board()), kind) is None
    why = step(mined(), kind)
    assert why is not None and "mined-road in 1910" in why and "9.4" in why


@pytest.mark.parametrize("kind", ["infantry", "ranger", "heavy-infantry", "hq", "general"])
def test_infantry_and_leaders_cross_mined_roads(kind: str) -> None:
    """9.4 "Mined Roads": ∅ for infantry and leaders."""
    assert step(mined(), kind) is None


def test_a_cleared_mined_road_is_open() -> None:
    """omaha 7 road clearing (part 2's engineer bases place the marker): cleared."""
    assert step(mined("road-cleared"), "tank") is None


def test_an_obstacle_cleared_marker_does_not_clear_the_road() -> None:
    """Issue 18 item 4: obstacle clearing (omaha 7, marker ``cleared``) and road clearing
    (omaha 7 EXT, marker ``road-cleared``) are apart: a hex holding both keeps its
    mined road until road clearing reaches it."""
    assert step(mined("cleared"), "tank") is not None


def test_the_scenario_mines_the_five_draw_mouths() -> None:
    """Gap G6 (project's choice): a mined-road marker on the road hex at the mouth of
    each draw (a draw hex with a road), in the game `tabletop play omaha` opens."""
    from tabletop.engine.newgame import new_game
    from tabletop.games import ruleset
    from tabletop.games.omaha.movement import road_kinds

    game = new_game(load_scenario(resolve("omaha", "scenarios")), ruleset("omaha"), seed=1)  # type: ignore[arg-type]
    state = game.state.map
    found = sorted(board().label(p.hex) for p in state.pieces() if p.type == "mined-road")
    assert found == list(MOUTHS)
    for label in MOUTHS:
        h = board().hex_of(label)
        assert state.terrain_at(h) == "draw" and road_kinds(board(), h, default_rules().roads)
