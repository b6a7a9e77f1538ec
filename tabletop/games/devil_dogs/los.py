"""Line of sight for The Devil Dogs of Belleau Wood (Devil Dogs 7.1).

A straight edge from the firer's hex centre to the target's (7.1, repeated in 8.1's
combat resolution): any portion of a woods, urban or occupied hex crossed blocks; a
slope hex crossed blocks unless it is closer to the firer than to the target; adjacent
hexes always see each other; contour lines never block. Which terrain keys block is data (``los.yaml``); the rest is here.

Elevation plays no part beyond the slope rule: 7.1 names no heights (the project's
reading of the text).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tabletop.engine.los import BasePolicy, Finding, GrazeRule, LineContext, Obstacle
from tabletop.engine.pieces import MapState
from tabletop.hexgrid import Hex, Hexside
from tabletop.yamlfile import read_yaml

RULE = "Devil Dogs 7.1"


@dataclass(frozen=True)
class LosTable:
    """Which terrain keys block a line outright, and which follow the slope rule."""

    blocking_terrain: frozenset[str]
    slope_terrain: frozenset[str]

    @classmethod
    def from_data(cls, data: Any, source: str = "los.yaml") -> LosTable:
        """Build from parsed YAML; ValueError naming the bad key or value."""
        if not isinstance(data, dict):
            raise ValueError(f"{source}: expected a mapping, got {type(data).__name__}")
        known = {"blocking_terrain", "slope_terrain"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"{source}: unknown keys {unknown}; known: {sorted(known)}")
        keys = {name: _key_list(data.get(name, []), f"{source}: {name}") for name in known}
        both = keys["blocking_terrain"] & keys["slope_terrain"]
        if both:
            raise ValueError(f"{source}: {sorted(both)} listed as both blocking and slope terrain")
        return cls(keys["blocking_terrain"], keys["slope_terrain"])


def _key_list(value: Any, where: str) -> frozenset[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{where}: expected a list of terrain keys, got {value!r}")
    return frozenset(value)


@cache
def default_table() -> LosTable:
    """The table shipped in this package's ``los.yaml``."""
    path = Path(__file__).with_name("los.yaml")
    return LosTable.from_data(read_yaml(path), str(path))  # safe YAML; duplicate keys refused


class DevilDogsPolicy(BasePolicy):
    """Devil Dogs 7.1 line of sight."""

    name = "Devil Dogs of Belleau Wood"
    # "If no portion of a woods, urban, or occupied hex is crossed": a line that only
    # touches such a hex, along a hexside or through a corner, still meets a portion of
    # it, so a grazed hex counts as if crossed (the project's reading of "any portion").
    grazing: GrazeRule = "either"
    graze_reason = (
        "a hex the line only touches counts as crossed: 7.1's \"any portion\" (the project's reading)"
    )

    def __init__(self, table: LosTable | None = None) -> None:
        self.table = table if table is not None else default_table()

    def hex_obstacle(self, state: MapState, h: Hex, ctx: LineContext) -> Obstacle | None:
        board = state.board
        label = board.label(h)
        kind = state.terrain_at(h)
        causes = []
        if kind in self.table.blocking_terrain:
            causes.append(f"{kind} {label}")
        units = state.units_at(h)
        if units:
            # Devil Dogs 1.2 (OCCUPIED HEX): a hex holding a combat unit of either side.
            # Markers (gas, order indicators, tokens) are not units here (the project's
            # reading of "combat unit").
            causes.append(f"occupied {label} ({', '.join(u.id for u in units)})")
        # A slope hex exactly as far from the firer as from the target is not "closer to
        # the firing unit", so it blocks (the project's choice: the text says only
        # "closer"; ctx.closer_to_source is strict).
        if kind in self.table.slope_terrain and not ctx.closer_to_source(h):
            causes.append(f"{kind} {label} not closer to the firer than to the target")
        if not causes:
            return None
        return Obstacle("block", "; ".join(causes), RULE)

    def hexside_obstacle(self, state: MapState, side: Hexside, ctx: LineContext) -> Obstacle | None:
        # Devil Dogs 1.2, 7.1: contour lines never interfere with LOS, and the text
        # names no other hexside feature, so no hexside ever blocks.
        return None

    def judge(self, state: MapState, ctx: LineContext, found: list[Finding]) -> list[Finding]:
        # Devil Dogs 7.1: adjacent hexes always have line of sight to each other.
        if ctx.range == 1:
            return []
        return found


def policy(state: MapState) -> DevilDogsPolicy:
    """The Devil Dogs line-of-sight policy (the same for every map)."""
    return DevilDogsPolicy()
