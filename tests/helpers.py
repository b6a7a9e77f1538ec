"""Small maps drawn in a test, for rule tests that need a particular piece of ground."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path

from tabletop.board import Map, build_map
from tabletop.hexgrid import Hex, neighbors
from tabletop.yamlfile import parse_yaml


def small_map(text: str, name: str = "test-map.yaml") -> Map:
    """Build a Map from YAML text (see maps/FORMAT.md); DataErrors if it is wrong."""
    return build_map(parse_yaml(text, name), Path(name))


# --- looking at a map in tests -----------------------------------------------------------


def col(m: Map, h: Hex) -> int:
    """0-based column of ``h``."""
    return m.grid.offset_of(h)[0]


def row(m: Map, h: Hex) -> int:
    """0-based row of ``h``."""
    return m.grid.offset_of(h)[1]


def on_map(m: Map, h: Hex) -> list[Hex]:
    """The neighbours of ``h`` that are on the map."""
    return [n for n in neighbors(h) if m.grid.contains(n)]


def of(m: Map, *kinds: str) -> set[Hex]:
    """The hexes whose terrain is one of ``kinds``."""
    return {h for h in m.grid.hexes() if m.terrain[h] in kinds}


def reach(m: Map, start: Iterable[Hex], step: Callable[[Hex, Hex], bool]) -> set[Hex]:
    """Hexes reachable from ``start`` moving to on-map neighbours ``n`` of ``h`` where step(h, n)."""
    seen = set(start)
    queue = deque(seen)
    while queue:
        h = queue.popleft()
        for n in on_map(m, h):
            if n not in seen and step(h, n):
                seen.add(n)
                queue.append(n)
    return seen


def groups(hexes: Iterable[Hex], same: Callable[[Hex, Hex], bool] | None = None) -> list[set[Hex]]:
    """Connected groups of ``hexes``, joining neighbours (for which ``same`` holds, if given)."""
    todo = set(hexes)
    out = []
    while todo:
        start = todo.pop()
        group = {start}
        queue = deque([start])
        while queue:
            h = queue.popleft()
            for n in neighbors(h):
                if n in todo and (same is None or same(h, n)):
                    todo.discard(n)
                    group.add(n)
                    queue.append(n)
        out.append(group)
    return out
