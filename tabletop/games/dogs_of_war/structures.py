"""STRUCTURAL DAMAGE l.690-700: a building takes damage only from a blast weapon that
hits it directly or explodes inside it; it has Structure Points by material and level
(the table l.696-700, carried by the map's terrain types); at 0 it collapses, the hexes
become rubble through the engine's terrain change (``MapState.set_terrain``, so sight,
movement and the window see it), and every model inside takes one damage roll at DPR =
half the structure points that collapsed, rounded up (l.694).

The damage a hit does is the project's reading (rules.yaml ``structural``): "done the
same way as described earlier" (l.692) is read as D10 - structural DPR on the wound
chart's four columns, each column a number of structure points lost.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletop.engine.dice import Dice
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, neighbors

from .data import data

#: the terrain kinds that are structures (the map's ``kind`` property)
STRUCTURE_KINDS = frozenset({"building", "bunker"})
TRACK = "sp-lost:"  # tracks[TRACK + building] = structure points lost so far


def rules() -> Mapping[str, Any]:
    structural: Mapping[str, Any] = data().rules["structural"]
    return structural


def properties(state: GameState, h: Hex) -> Mapping[str, Any]:
    return state.board.terrain_types[state.map.terrain_at(h)].properties


def is_structure(state: GameState, h: Hex) -> bool:
    return state.board.grid.contains(h) and properties(state, h).get("kind") in STRUCTURE_KINDS


def building_at(state: GameState, h: Hex) -> frozenset[Hex]:
    """The hexes of the building standing in ``h`` (those of the same terrain joined to
    it); empty when ``h`` is no building."""
    if not is_structure(state, h):
        return frozenset()
    key = state.map.terrain_at(h)
    seen, todo = {h}, [h]
    while todo:
        for n in neighbors(todo.pop()):
            if n not in seen and state.board.grid.contains(n) and state.map.terrain_at(n) == key:
                seen.add(n)
                todo.append(n)
    return frozenset(seen)


def name_of(state: GameState, hexes: frozenset[Hex]) -> str:
    """A building by its first hex label (the track of its damage is kept by it)."""
    return min(state.board.label(h) for h in hexes)


def structure_points(props: Mapping[str, Any]) -> int:
    """Structure points per level (wood 4, stone 6, concrete 8, steel 9: l.696-700)
    times its levels."""
    return int(props.get("structure_points_per_level", 0)) * int(props.get("levels", 1))


def points_left(state: GameState, h: Hex) -> int:
    hexes = building_at(state, h)
    if not hexes:
        return 0
    return structure_points(properties(state, h)) - state.track(TRACK + name_of(state, hexes))


def points_lost(modified: int) -> int:
    """Structure points a hit removes: D10 - structural DPR read on the wound chart's
    columns (project's reading of l.692)."""
    for (low, high), loss in zip(data().rules["wound_columns"], rules()["loss"], strict=True):
        if low <= modified <= high:
            return int(loss)
    return 0


def collapse_dpr(points: int) -> int:
    """The DPR of a collapse: half the structure points that collapsed, rounded up
    (l.694: a two-storey concrete building gives 8)."""
    return -(-points // 2)


def damage(state: GameState, centre: Hex, structural_dpr: int, dice: Dice) -> list[str]:
    """A blast weapon's direct hit on, or blast inside, the building at ``centre``:
    roll its structural damage; at 0 points the building collapses."""
    hexes = building_at(state, centre)
    if not hexes or structural_dpr <= 0:
        return []
    props = properties(state, centre)
    name = name_of(state, hexes)
    total = structure_points(props)
    roll = dice.d10(f"structural damage on the building at {name}: D10 - structural DPR {structural_dpr}")
    lost = points_lost(roll - structural_dpr)
    state.tracks[TRACK + name] = state.track(TRACK + name) + lost
    left = total - state.track(TRACK + name)
    lines = [
        f"the {props.get('structure', 'building')} building at {name} loses {lost} SP ({max(0, left)} of {total} left, l.692)"
    ]
    if left > 0:
        return lines
    return lines + collapse(state, hexes, total, dice)


def collapse(state: GameState, hexes: frozenset[Hex], total: int, dice: Dice) -> list[str]:
    """The building falls (l.694): its hexes become rubble and each model inside takes
    a hit with DPR half the collapsed points."""
    from . import combat

    name = name_of(state, hexes)
    rubble = str(rules()["rubble"])
    for h in sorted(hexes, key=state.board.label):
        state.map.set_terrain(h, rubble)
    state.tracks.pop(TRACK + name, None)
    dpr = collapse_dpr(total)
    lines = [
        f"the building at {name} collapses into rubble ({len(hexes)} hexes; DPR {dpr} on those inside, l.694)"
    ]
    inside = sorted(
        (p for p in state.map.pieces() if p.kind == "unit" and p.hex in hexes), key=lambda p: p.id
    )
    for p in inside:
        if p.has(combat.DEAD):
            continue
        loc = data().location(dice.d10(f"hit location on {p.id} under the rubble"))
        lines.append(f"{p.id} is caught in the collapse ({loc})")
        lines += combat.wound(state, p, loc, dpr, dice)
    return lines
