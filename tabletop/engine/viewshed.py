"""Viewshed: every hex a position sees, with whether the view is hindered.

For a player checking a position and for the bots. Uses the same line-of-sight judgement
as a single query, so a viewshed can never disagree with ``line_of_sight``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tabletop.hexgrid import Hex, distance

from . import fastview
from .fastview import EffectGrid, fast_lines, fast_viewshed, vector_table
from .los import BasePolicy, LosPolicy, LosQuery, Verdict, line_of_sight
from .pieces import MapState, Piece

_VERDICTS: tuple[Verdict, Verdict] = ("clear", "hindered")


def has_fixed_effects(state: MapState, policy: LosPolicy) -> bool:
    """Whether a policy's verdicts follow from fixed hex effects alone (no whole-line
    rules, no end modifiers, no hexside effects), so the vectorised path applies."""
    cls = type(policy)
    return (
        getattr(cls, "judge", None) is BasePolicy.judge
        and getattr(cls, "end_modifiers", None) is BasePolicy.end_modifiers
        and policy.static_obstacles(state) is not None
        and policy.static_hexsides(state) == {}
    )


def viewshed(
    state: MapState,
    policy: LosPolicy,
    source: Hex,
    *,
    source_level: int | None = None,
    viewer: Piece | None = None,
    conditions: frozenset[str] = frozenset(),
    max_range: int | None = None,
) -> dict[Hex, Verdict]:
    """The hexes ``source`` sees (within ``max_range``), each "clear" or "hindered";
    the source itself is included as "clear". Blocked hexes are left out."""
    grid = state.board.grid
    if not grid.contains(source):
        raise ValueError(f"{source} is not on the map")
    if has_fixed_effects(state, policy):
        return _fast(state, policy, source, max_range)
    targets = [h for h in grid.hexes() if max_range is None or distance(source, h) <= max_range]
    seen: dict[Hex, Verdict] = {}
    for h in targets:
        if h == source:
            seen[h] = "clear"
            continue
        r = line_of_sight(state, policy, LosQuery(source, h, source_level, None, viewer, None, conditions))
        if r.result != "blocked":
            seen[h] = r.result
    return seen


# The last map state's effect grid and target arrays, kept with the state and policy
# themselves (not their ids) so a recycled address can never hit a stale entry.
_LAST: list[tuple[MapState, int, LosPolicy, EffectGrid, list[Hex], np.ndarray, np.ndarray]] = []


def _kept(state: MapState, policy: LosPolicy) -> tuple[EffectGrid, list[Hex], np.ndarray, np.ndarray]:
    """The map's effect grid and its hexes as arrays, kept until the state changes."""
    if not _LAST or _LAST[0][0] is not state or _LAST[0][1] != state.version or _LAST[0][2] is not policy:
        static = policy.static_obstacles(state)
        assert static is not None
        hexes = state.board.grid.hexes()
        qs = np.fromiter((h.q for h in hexes), dtype=np.int64, count=len(hexes))
        rs = np.fromiter((h.r for h in hexes), dtype=np.int64, count=len(hexes))
        effects = EffectGrid.of(state.board.grid, static, hexes)
        _LAST[:] = [(state, state.version, policy, effects, hexes, qs, rs)]
    _, _, _, effects, hexes, qs, rs = _LAST[0]
    return effects, hexes, qs, rs


def _fast(state: MapState, policy: LosPolicy, source: Hex, max_range: int | None) -> dict[Hex, Verdict]:
    """The vectorised viewshed; the map's effect grid is kept until the state changes."""
    effects, hexes, qs, rs = _kept(state, policy)
    if max_range is not None:
        dq, dr = qs - source.q, rs - source.r
        near = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr)) <= max_range
        picked = np.nonzero(near)[0]
        qs, rs = qs[picked], rs[picked]
        hexes = [hexes[i] for i in picked]
    levels = fast_viewshed(effects, policy.grazing, source, qs, rs)
    visible = np.nonzero(levels < 2)[0]
    return {hexes[i]: _VERDICTS[levels[i]] for i in visible.tolist()}


_ALL_VERDICTS: tuple[Verdict, Verdict, Verdict] = ("clear", "hindered", "blocked")


def sight_lines(
    state: MapState,
    policy: LosPolicy,
    pairs: Sequence[tuple[Hex, Hex]],
    *,
    viewer: Piece | None = None,
    conditions: frozenset[str] = frozenset(),
) -> list[Verdict]:
    """The verdict ("clear", "hindered", "blocked") of each (source, target) line, in
    order: exactly ``line_of_sight(...).result`` of each, asked at once (issue 19 item 2:
    bots, viewsheds and the window ask many lines). For a policy whose verdicts follow
    from fixed hex effects, lines up to ``fastview.TABLE_REACH`` hexes are read in a
    few numpy passes; other lines and other policies are asked one by one. ValueError
    for an end off the map, before any line is judged."""
    grid = state.board.grid
    for a, b in pairs:
        for h in (a, b):
            if not grid.contains(h):
                raise ValueError(f"{h} is not on the map")
    out: list[Verdict] = ["clear"] * len(pairs)
    slow: list[int] = list(range(len(pairs)))
    if pairs and has_fixed_effects(state, policy):
        ends = np.array([(a.q, a.r, b.q, b.r) for a, b in pairs], dtype=np.int64).reshape(-1, 4)
        sq, sr, tq, tr = ends.T
        dq, dr = tq - sq, tr - sr
        length = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))
        near = np.nonzero((length <= fastview.TABLE_REACH) & (length > 0))[0]
        if len(near):
            effects = _kept(state, policy)[0]
            table = vector_table(int(length[near].max()), room=effects.diameter)
            assert table is not None
            levels = fast_lines(effects, policy.grazing, sq[near], sr[near], tq[near], tr[near], table)
            for i, level in zip(near.tolist(), levels.tolist(), strict=True):
                out[i] = _ALL_VERDICTS[level]
        slow = np.nonzero(length > fastview.TABLE_REACH)[0].tolist()
    for i in slow:
        a, b = pairs[i]
        query = LosQuery(a, b, viewer=viewer, conditions=conditions)
        out[i] = line_of_sight(state, policy, query).result
    return out


def sight_from(
    state: MapState,
    policy: LosPolicy,
    source: Hex,
    targets: Sequence[Hex],
    *,
    viewer: Piece | None = None,
    conditions: frozenset[str] = frozenset(),
) -> list[Verdict]:
    """The verdict of the line from ``source`` to each of ``targets``, in order (one
    source against many targets: ``sight_lines`` with that source)."""
    return sight_lines(state, policy, [(source, t) for t in targets], viewer=viewer, conditions=conditions)
