"""The map as plain JSON-ready data: the `tabletop map --json` contract.

Centres are in hex-size units (centre to corner = 1) with Hex(0, 0), the first column
and row, at (0, 0) and y growing downward; flat-top corners are at 0, 60, ... degrees.
"""

from __future__ import annotations

from typing import Any

from .model import Map


def map_to_json(m: Map) -> dict[str, Any]:
    """Everything a third party needs to check the grid and redraw the ground."""
    grid = m.grid
    layout = grid.layout(1.0)
    region_keys: dict[Any, list[str]] = {}
    for region in m.regions.values():
        for h in region.hexes:
            region_keys.setdefault(h, []).append(region.key)
    feature_keys: dict[Any, list[str]] = {}
    for feature in m.features.values():
        for h in feature.hexes:
            feature_keys.setdefault(h, []).append(feature.key)
    hexes = []
    for h in grid.hexes():
        x, y = layout.center(h)
        col, row = grid.offset_of(h)
        hexes.append(
            {
                "label": grid.label(h),
                "q": h.q,
                "r": h.r,
                "col": col,
                "row": row,
                "x": round(x, 9),
                "y": round(y, 9),
                "terrain": m.terrain[h],
                "elevation": m.elevation[h],
                "features": feature_keys.get(h, []),
                "regions": region_keys.get(h, []),
            }
        )
    return {
        "name": m.name,
        "rules": m.rules,
        "path": str(m.path) if m.path else None,
        "orientation": grid.orientation,
        "offset": grid.offset,
        "columns": grid.columns,
        "rows": grid.rows,
        "hex_size": 1.0,
        "y_axis": "down",
        "scale": m.scale,
        "labels": {
            "first_column": grid.labels.first_column,
            "first_row": grid.labels.first_row,
            "digits": grid.labels.digits,
        },
        "terrain_types": {
            k: {"name": t.name, "symbol": t.symbol, "colour": t.colour, "properties": dict(t.properties)}
            for k, t in m.terrain_types.items()
        },
        "hexes": hexes,
        "hexsides": [
            {"feature": f.key, "between": sorted([grid.label(s.a), grid.label(s.b)])}
            for f in m.hexsides.values()
            for s in sorted(f.sides)
        ],
        "hexside_types": {k: {"name": f.name, "colour": f.colour} for k, f in m.hexsides.items()},
        "feature_types": {k: {"name": f.name, "colour": f.colour} for k, f in m.features.items()},
        "regions": {
            k: {"name": r.name, "kind": r.kind, "hexes": sorted(grid.label(h) for h in r.hexes)}
            for k, r in m.regions.items()
        },
    }
