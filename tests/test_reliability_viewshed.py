"""Viewsheds on big maps stay within a memory bound and stay exact (finding H5).

Before: `tabletop viewshed big200.yaml 001001` took 71 s and 5.5 GB, and big500 ran out of
memory at 8 GB: every line's traversal was kept as Python objects, and the vectorised
viewshed built a table of every vector up to the longest line. Now the traversal caches
are bounded, and a viewshed whose lines are longer than ``fastview.TABLE_REACH`` works
them out in bounded numpy passes, outward from the source.

The maps come from the reliability test's big-map generator (appendix B of the findings),
made here in a scratch folder, seeded.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import resource
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.board import build_map
from tabletop.engine import fastview
from tabletop.engine.freeplay import FreePlayPolicy
from tabletop.engine.los import LosQuery, line_of_sight
from tabletop.engine.pieces import MapState
from tabletop.engine.viewshed import has_fixed_effects, viewshed
from tabletop.hexgrid import Hex, distance, hexes_within, relative_traversal, ring
from tabletop.hexgrid import traversal as tr
from tabletop.yamlfile import parse_yaml

REPO = Path(__file__).resolve().parent.parent
GIB = 1024**3


def big_map_text(n: int, seed: int = 1) -> str:
    """The findings' appendix B map (tests/reliability/data/genbig.py): random woods
    (block), towns (hinder), hills and water, a road along the diagonal, a wall of
    hexsides and two setup regions."""
    spec = importlib.util.spec_from_file_location("genbig", REPO / "tests" / "reliability" / "data" / "genbig.py")
    assert spec is not None and spec.loader is not None
    genbig = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(genbig)
    text: str = genbig.make(n, f"big{n}", seed)
    return text


def _limit_address_space(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def viewshed_in_child(map_path: Path, source: str, limit: int) -> subprocess.CompletedProcess[str]:
    """`tabletop viewshed MAP SOURCE --json` in a child whose address space is capped."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "OPENBLAS_NUM_THREADS": "1"}
    return subprocess.run(
        [sys.executable, "-m", "tabletop", "viewshed", str(map_path), source, "--json"],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
        env=env,
        preexec_fn=lambda: _limit_address_space(limit),
        timeout=600,
    )


def check_against_single_queries(
    map_path: Path, source: str, answer: dict[str, list[str]], sample: int
) -> None:
    """The child's viewshed equals plain per-target ``line_of_sight`` verdicts, asked with
    empty traversal caches, on every hex near the source and a seeded sample of the rest."""
    board = build_map(parse_yaml(map_path.read_text(), str(map_path)), map_path)
    state = MapState.of(board)
    policy = FreePlayPolicy.for_map(state)
    assert has_fixed_effects(state, policy)  # the vectorised path is the one under test
    src = board.hex_of(source)
    hexes = board.grid.hexes()
    targets = [h for h in hexes if distance(src, h) <= 4] + random.Random(5).sample(hexes, sample)
    visible, hindered = set(answer["visible"]), set(answer["hindered"])
    relative_traversal.cache_clear()  # type: ignore[attr-defined]
    for h in targets:
        verdict = "clear" if h == src else line_of_sight(state, policy, LosQuery(src, h)).result
        label = board.label(h)
        got = "blocked" if label not in visible else "hindered" if label in hindered else "clear"
        assert got == verdict, (source, label)


@pytest.mark.parametrize(
    ("n", "source", "limit"), [(150, "001001", 3 * GIB // 2), (150, "150150", 3 * GIB // 2)]
)
def test_h5_a_corner_viewshed_of_a_big_map_fits_a_fixed_memory_bound_and_is_exact(
    tmp_path: Path, n: int, source: str, limit: int
) -> None:
    """Finding H5: a whole-map viewshed from a corner of a 150 x 150 map completes under a
    1.5 GB address-space limit (before: about 3 GB at 150 x 150, 5.5 GB at 200 x 200)."""
    path = tmp_path / f"big{n}.yaml"
    path.write_text(big_map_text(n))
    done = viewshed_in_child(path, source, limit)
    assert done.returncode == 0, done.stderr[-2000:]
    answer = json.loads(done.stdout)
    assert answer["from"] == source and source in answer["visible"]
    check_against_single_queries(path, source, answer, sample=400)


@pytest.mark.skipif(
    not os.environ.get("TABLETOP_BIG_TESTS"), reason="set TABLETOP_BIG_TESTS=1 (about a minute)"
)
@pytest.mark.parametrize("source", ["001001", "250250"])
def test_h5_big500_viewsheds_fit_in_4_gb(tmp_path: Path, source: str) -> None:
    """Finding H5 at the reported size: big500 viewsheds ran out of memory at 8 GB."""
    path = tmp_path / "big500.yaml"
    path.write_text(big_map_text(500))
    done = viewshed_in_child(path, source, 4 * GIB)
    assert done.returncode == 0, done.stderr[-2000:]
    check_against_single_queries(path, source, json.loads(done.stdout), sample=200)


def _uncached(dq: int, dr: int, monkeypatch: pytest.MonkeyPatch) -> tr.Traversal:
    """The traversal worked out from scratch: the wedge flood fill, then the symmetry."""
    with monkeypatch.context() as m:
        m.setattr(tr, "_wedge", tr._wedge_compute)
        return tr._oriented(dq, dr)


coord = st.integers(-150, 150)


@settings(
    derandomize=True,
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(vectors=st.lists(st.tuples(coord, coord), min_size=1, max_size=4))
def test_h5_the_bounded_caches_give_the_same_traversals_as_no_cache(
    vectors: list[tuple[int, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding H5: near vectors stay cached, far ones pass through a small LRU; either
    way, asked once, again, or after other lines pushed them out, the answer is exact."""
    for dq, dr in vectors:
        expected = _uncached(dq, dr, monkeypatch)
        assert relative_traversal(dq, dr) == expected
        assert relative_traversal(dq, dr) == expected  # from the cache
    for v in ring(Hex(0, 0), tr.CACHE_REACH + 1)[: tr.FAR_ENTRIES + 1]:  # push far ones out
        relative_traversal(*v)
    for dq, dr in vectors:
        assert relative_traversal(dq, dr) == _uncached(dq, dr, monkeypatch)


def test_h5_the_caches_keep_far_lines_bounded() -> None:
    """Finding H5: a sweep of long lines keeps at most ``FAR_ENTRIES`` of them, while
    every short line stays kept."""
    relative_traversal.cache_clear()  # type: ignore[attr-defined]
    near = list(hexes_within(Hex(0, 0), 3))
    for v in near:
        relative_traversal(*v)
    for v in ring(Hex(0, 0), tr.CACHE_REACH + 1):  # 390 lines, all too long to keep
        relative_traversal(*v)
    assert tr._far.cache_info().currsize <= tr.FAR_ENTRIES
    assert tr._far_wedge.cache_info().currsize <= tr.FAR_ENTRIES
    assert all((v.q, v.r) in tr._NEAR for v in near)
    assert all(max(abs(q), abs(r), abs(q + r)) <= tr.CACHE_REACH for q, r in tr._NEAR)


def test_h5_the_numpy_tables_equal_the_exact_traversals() -> None:
    """Finding H5: the vector tables, now worked out in numpy passes, hold each line's
    exact crossed hexes (in order), corner grazes and hexside runs, up to range 30."""
    reach = 30
    table = fastview._build(reach)

    def row(rag: fastview._Ragged, v: int) -> list[tuple[int, int]]:
        a, b = rag.ptr[v], rag.ptr[v + 1]
        return list(zip(rag.q[a:b].tolist(), rag.r[a:b].tolist(), strict=True))

    for h in hexes_within(Hex(0, 0), reach):
        t = relative_traversal(h.q, h.r)
        v = int(table.ids[h.q + reach, h.r + reach])
        runs: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for g in t.grazed:
            if g.side is not None:
                runs.setdefault((g.start, g.end), []).append((g.hex.q, g.hex.r))
        pairs = sorted(tuple(sorted(p)) for p in runs.values() if len(p) == 2)
        assert row(table.crossed, v) == [(c.q, c.r) for c in t.crossed[1:-1]], h
        assert sorted(row(table.corners, v)) == sorted(
            (g.hex.q, g.hex.r) for g in t.grazed if g.corner is not None
        )
        got = sorted(tuple(sorted(p)) for p in zip(row(table.run_a, v), row(table.run_b, v), strict=True))
        assert got == pairs, h


def _random_board(seed: int, grazing: str, columns: int = 14, rows: int = 11) -> MapState:
    rng = random.Random(seed)
    lines = "".join(
        "  " + " ".join(rng.choice("......bW") for _ in range(columns)) + "\n" for _ in range(rows)
    )
    text = f"""name: t
grid: {{columns: {columns}, rows: {rows}}}
terrain:
  open: {{symbol: ".", colour: "#aaaaaa"}}
  brush: {{symbol: "b", colour: "#88aa44", properties: {{los: hinder}}}}
  woods: {{symbol: "W", colour: "#00aa00", properties: {{los: block}}}}
rows: |
{lines}line_of_sight: {{grazing: {grazing}}}
"""
    return MapState.of(build_map(parse_yaml(text, "t.yaml"), Path("t.yaml")))


@pytest.mark.parametrize("path", ["streamed", "sparse"])
@pytest.mark.parametrize("grazing", ["both", "either", "never"])
@pytest.mark.parametrize("seed", [1, 2])
def test_h5_the_streamed_viewshed_agrees_with_single_queries(
    grazing: str, seed: int, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding H5: the table-free paths that big maps and first viewshed take (forced
    here on a small map: line by line, or from the hexes that are not clear) give every
    hex the verdict ``line_of_sight`` gives it, under each grazing rule."""
    monkeypatch.setattr(fastview, "TABLE_REACH", 0)
    monkeypatch.setattr(fastview, "PASS_CELLS", 97)  # many small passes, split mid-line
    monkeypatch.setattr(fastview, "SPARSE_SHARE", 1e9 if path == "sparse" else -1.0)
    state = _random_board(seed, grazing)
    policy = FreePlayPolicy.for_map(state)
    hexes = state.board.grid.hexes()
    for src in hexes[::9]:
        seen = viewshed(state, policy, src)
        for h in hexes:
            expected = "clear" if h == src else line_of_sight(state, policy, LosQuery(src, h)).result
            assert seen.get(h, "blocked") == expected, (state.board.label(src), state.board.label(h))


def test_h5_the_numpy_wedge_equals_the_flood_fill_on_every_short_wedge_vector() -> None:
    """Finding H5: long lines are now worked out in numpy; on every wedge vector up to
    length 60 it gives exactly the flood fill's traversal (crossed, spans, grazes)."""
    for q in range(1, 61):
        for r in range(-(q // 2), 1):
            assert tr._wedge_numpy(q, r) == tr._wedge_flood(q, r), (q, r)


@settings(derandomize=True, max_examples=25, deadline=None)
@given(q=st.integers(61, 400), share=st.fractions(0, 1))
def test_h5_the_numpy_wedge_equals_the_flood_fill_on_long_vectors(q: int, share: Fraction) -> None:
    """Finding H5: the same on long wedge vectors, the hexside-running diagonal included."""
    r = -int(share * (q // 2))
    assert tr._wedge_numpy(q, r) == tr._wedge_flood(q, r)
