"""The map as loaded: a validated, read-only description of the ground.

Knows terrain types and how they look, per-hex terrain and elevation, hex and hexside
features, and named regions. Knows nothing of how terrain plays (costs, line of sight):
that is a rule system's data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.hexgrid import Hex, Hexside, RectGrid, hexside


@dataclass(frozen=True)
class TerrainType:
    """A kind of ground: its key, display name, map symbol, colour and free properties."""

    key: str
    name: str
    symbol: str
    colour: str
    properties: Mapping[str, Any]


@dataclass(frozen=True)
class HexFeature:
    """Something drawn over a hex's terrain (a road, a rail line) and where it lies."""

    key: str
    name: str
    colour: str
    properties: Mapping[str, Any]
    hexes: frozenset[Hex]


@dataclass(frozen=True)
class HexsideFeature:
    """Something on the edge between two hexes (a bluff, a wall) and where it lies."""

    key: str
    name: str
    colour: str
    properties: Mapping[str, Any]
    sides: frozenset[Hexside]


@dataclass(frozen=True)
class Region:
    """A named set of hexes: a section, a sector, a setup zone, an exit."""

    key: str
    name: str
    kind: str
    hexes: frozenset[Hex]


@dataclass(frozen=True)
class Background:
    """A printed map's picture under the grid (``background:`` in a map file): the image
    file (inside the map's folder), the image pixel where the first hex's centre lies,
    and the image pixels per hex size (centre to corner) across and down. Only drawn:
    line of sight and movement come from the terrain data painted over it."""

    image: Path
    origin: tuple[float, float]
    scale: tuple[float, float]

    def pixel(self, world: tuple[float, float], first: tuple[float, float]) -> tuple[float, float]:
        """The image pixel under the world point ``world`` (``first``: the first hex's
        centre in world units)."""
        return (
            self.origin[0] + (world[0] - first[0]) * self.scale[0],
            self.origin[1] + (world[1] - first[1]) * self.scale[1],
        )


@dataclass(frozen=True)
class Map:
    """A whole map. Every hex of ``grid`` has a terrain key and an elevation."""

    name: str
    grid: RectGrid
    terrain_types: Mapping[str, TerrainType]
    terrain: Mapping[Hex, str]
    elevation: Mapping[Hex, int]
    features: Mapping[str, HexFeature]
    hexsides: Mapping[str, HexsideFeature]
    regions: Mapping[str, Region]
    rules: str | None = None
    line_of_sight: Mapping[str, Any] = field(default_factory=dict)
    notes: str = ""
    scale: str = ""
    path: Path | None = None
    background: Background | None = None
    _side_index: dict[Hexside, frozenset[str]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )
    _labels: dict[Hex, str] = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        index: dict[Hexside, set[str]] = {}
        for feature in self.hexsides.values():
            for side in feature.sides:
                index.setdefault(side, set()).add(feature.key)
        self._side_index.update({k: frozenset(v) for k, v in index.items()})

    def label(self, h: Hex) -> str:
        """The printed label of ``h`` (kept once worked out: rules sort and log by
        label on every action, issue 19)."""
        found = self._labels.get(h)
        if found is None:
            found = self._labels[h] = self.grid.label(h)
        return found

    def hex_of(self, label: str) -> Hex:
        """The hex a printed label names (LabelError if it is not on this map)."""
        return self.grid.hex_of(label)

    def hexside_features(self, a: Hex, b: Hex) -> frozenset[str]:
        """Keys of the hexside features on the edge between adjacent ``a`` and ``b``."""
        return self._side_index.get(hexside(a, b), frozenset())

    def regions_of(self, h: Hex) -> list[Region]:
        """The regions containing ``h``, in file order."""
        return [r for r in self.regions.values() if h in r.hexes]
