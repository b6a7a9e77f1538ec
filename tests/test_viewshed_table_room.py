"""Issue 19 item 4: a viewshed following the pointer builds the vector table once, for
the whole map, rather than again at each longer line (five builds on the frames
benchmark's 50 x 50 map with a fresh cache folder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.engine.los import LosQuery, line_of_sight
from tabletop.engine.pieces import MapState
from tabletop.hexgrid import Hex, distance


def _diameter(hexes: list[Hex]) -> int:
    return max(distance(a, b) for a in hexes for b in hexes)


@pytest.mark.parametrize("size", [1, 2, 7, 12])
def test_the_effect_grid_knows_the_longest_line_of_its_map(size: int) -> None:
    """``EffectGrid.diameter`` is the longest hex distance between two of the map's
    hexes, pair by pair."""
    from benchmarks.los import random_map
    from tabletop.engine.fastview import EffectGrid

    board = random_map(size, 0.2, size)
    hexes = board.grid.hexes()
    assert EffectGrid.of(board.grid, {}).diameter == _diameter(hexes)


def test_viewsheds_from_every_source_build_one_table_covering_the_map(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With an empty cache folder the second viewshed builds the table for the map's
    longest line; later ones from farther corners build nothing more, and the verdicts
    equal single queries'."""
    from benchmarks.los import random_map
    from tabletop.engine import fastview
    from tabletop.engine.freeplay import FreePlayPolicy
    from tabletop.engine.viewshed import viewshed

    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path))
    monkeypatch.setattr(fastview, "_TABLES", {})
    monkeypatch.setattr(fastview, "_asked", [0])
    built: list[int] = []
    real_build = fastview._build

    def counted(reach: int) -> fastview.VectorTable:
        built.append(reach)
        return real_build(reach)

    monkeypatch.setattr(fastview, "_build", counted)
    board = random_map(11, 0.25, 3)
    state = MapState.of(board)
    policy = FreePlayPolicy.for_map(state)
    hexes = board.grid.hexes()
    centre = board.grid.hex_at(5, 5)
    corners = [hexes[0], hexes[-1], board.grid.hex_at(0, 10), board.grid.hex_at(10, 0)]
    first = {h: viewshed(state, policy, h) for h in [centre, *corners]}
    assert built == [_diameter(hexes)]
    for source in (centre, corners[1]):  # the table's verdicts are those of single queries
        for h in hexes:
            if h != source:
                single = line_of_sight(state, policy, LosQuery(source, h)).result
                assert first[source].get(h, "blocked") == single
