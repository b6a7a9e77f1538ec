"""The first viewshed of a process, worked out from the hexes that are not clear
(``fastview._sparse``, issue 19 item 3: no cold start), gives exactly the levels of the
line-by-line path (``fastview._streamed``), which the H5 tests check against
``line_of_sight``; and it stands aside where the map is too crowded for it to pay."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.engine import fastview
from tabletop.hexgrid import Hex


def _grid(seed: int, share: float, size: int = 30) -> fastview.EffectGrid:
    """A ``size`` x ``size`` axial box, ``share`` of its hexes hindering or blocking
    (half each), padded by a ring of clear hexes as ``EffectGrid.of`` pads maps."""
    rng = np.random.default_rng(seed)
    draw = rng.random((size, size))
    levels = np.zeros((size + 2, size + 2), dtype=np.int8)
    levels[1:-1, 1:-1] = np.where(draw < share / 2, 2, np.where(draw < share, 1, 0))
    return fastview.EffectGrid(levels, -1, -1, 2 * size)


def _targets(size: int = 30) -> tuple[np.ndarray, np.ndarray]:
    q, r = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    return q.ravel(), r.ravel()


@pytest.mark.parametrize("grazing", ["both", "either", "never"])
@pytest.mark.parametrize("share", [0.01, 0.05, 0.2, 0.6])
def test_the_sparse_path_equals_the_streamed_one(
    grazing: str, share: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every line's level, from six sources a map, grazes and hexside runs included
    (the dense maps put hindering hexes on both sides of many hexsides)."""
    monkeypatch.setattr(fastview, "SPARSE_SHARE", 1e9)  # taken whatever the density
    tq, tr = _targets()
    for seed in range(6):
        effects = _grid(seed, share)
        rng = np.random.default_rng(100 + seed)
        source = Hex(int(rng.integers(0, 30)), int(rng.integers(0, 30)))
        dq, dr = tq - source.q, tr - source.r
        sparse = fastview._sparse(effects, grazing, source, dq, dr)
        assert sparse is not None
        assert np.array_equal(sparse, fastview._streamed(effects, grazing, source, dq, dr)), (seed, source)


def test_the_sparse_path_stands_aside_on_a_crowded_map() -> None:
    """With the measured share, an open map (1% not clear) is worked out sparsely and a
    crowded one (60%) line by line, as ``SPARSE_SHARE`` says."""
    tq, tr = _targets()
    source = Hex(15, 15)
    assert fastview._sparse(_grid(1, 0.01), "both", source, tq - 15, tr - 15) is not None
    assert fastview._sparse(_grid(1, 0.6), "both", source, tq - 15, tr - 15) is None


def test_a_map_with_nothing_in_the_way_is_clear_everywhere() -> None:
    """No hex hinders or blocks: no candidate pair at all, every line clear."""
    effects = fastview.EffectGrid(np.zeros((32, 32), dtype=np.int8), -1, -1, 60)
    tq, tr = _targets()
    levels = fastview._sparse(effects, "either", Hex(3, 4), tq - 3, tr - 4)
    assert levels is not None and not levels.any()
