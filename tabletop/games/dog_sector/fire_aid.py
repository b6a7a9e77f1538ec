"""DOG SECTOR Table 6 in front of the player (issue 20 item 6): the words the selection
box shows for an American unit (``DogSectorRules.unit_lines``): what it may fire at,
its range, its hit number and bonus, whether friendly fire applies, and in phase 6
which German units it may fire at now and why not the others (what a click on one of
them would be refused for). Everything is read from american.yaml and los.yaml through
``american`` (the rules' own refusal), so the box and the rules never disagree.
"""

from __future__ import annotations

import re
from collections import defaultdict

from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState

from . import american
from .los import tables as los_tables
from .procedures import AMERICAN, GERMAN

FIRE_PHASE = "american-fire"
SHOWN = 4  # German ids listed on one line before "and N more"


def _faces(face: int) -> str:
    return "6" if face == 6 else f"{face}-6"


def range_text(unit_type: str) -> str:
    """Table 6's range for a unit type, in words (los.yaml's limits)."""
    line = los_tables().sides[AMERICAN].units.get(unit_type)
    if line is None:
        return "any range"
    words = "adjacent only" if line.max_range == 1 else "any range" if line.max_range is None else f"within {line.max_range} hexes"
    extra = [f"{kind} within {n} hexes" for kind, n in sorted(line.max_range_against.items())]
    return words + (f" ({', '.join(extra)})" if extra else "")


def table6_lines(unit_type: str) -> list[str]:
    """The selected unit type's line of Table 6 in words; empty if it does not fire."""
    t = american.tables()
    line = t.fire_units.get(unit_type)
    if line is None:
        return [f"Table 6: a {unit_type} does not fire"]
    hit = f"hits on {_faces(line.hit)}"
    if line.bonus_hit is not None:
        if line.bonus_in_range:
            los_line = los_tables().sides[AMERICAN].units[unit_type]
            hit += f" ({_faces(line.bonus_hit)} within {los_line.bonus_range} hexes)"
        else:
            hit += f" ({_faces(line.bonus_hit)} against {', '.join(sorted(line.bonus_against))})"
    out = [f"Table 6: fires at {line.targets_text()}, {range_text(unit_type)}", f"Table 6: {hit}"]
    if unit_type in t.ff_units:
        unless = " unless adjacent" if unit_type in t.ff_not_adjacent else ""
        out.append(f"friendly fire applies{unless} (Americans within {t.ff_radius} of the target)")
    return out


def _ids(ids: list[str]) -> str:
    shown = ", ".join(ids[:SHOWN])
    return shown + (f" and {len(ids) - SHOWN} more" if len(ids) > SHOWN else "")


_DETAIL = re.compile(r" \((?:range \d+|section-\d+ -> section-\d+)\)")
REASONS = 4  # reason lines shown at most (the window's callout gives a click's whole reason)


def _findings(why: str) -> list[str]:
    """A refusal split into its findings, without the per-target detail (range, which
    sections), so that German units refused for the same reason group together."""
    return [_DETAIL.sub("", part) for part in why.split("; ")]


def targets_now(state: GameState, unit: Piece) -> list[str]:
    """Phase 6: the German units ``unit`` may fire at now (with the face that hits) and,
    grouped by the rules' first reason, those a click would be refused for."""
    germans = sorted(
        (p for p in state.map.pieces() if p.kind == "unit" and p.side == GERMAN), key=lambda p: p.id
    )
    may: list[str] = []
    refused: dict[str, list[str]] = {}
    for g in germans:
        why = american.refusal(state, {"do": "fire", "unit": unit.id, "target": g.id})
        if why is None:
            need, _ = american.hit_number(state, unit, g)
            ff = unit.type in american.tables().ff_units and american.friendly_fire_hexes(state, unit.id, g.id)
            may.append(f"{g.id} ({_faces(need)}{', friendly fire' if ff else ''})")
        else:
            refused[g.id] = _findings(why)
    common = set.intersection(*(set(f) for f in refused.values())) if refused and not may else set()
    if common:  # one reason for every German unit: the unit's own (fired, pinned, in the sea)
        first = next(f for f in next(iter(refused.values())) if f in common)
        return [f"fires at nothing now: {first}"]
    out = [f"may fire at: {_ids(may)}" if may else "may fire at: nothing now"]
    groups: dict[str, list[str]] = defaultdict(list)
    for gid, findings in refused.items():
        groups[findings[0]].append(gid)
    ranked = sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))
    for why, ids in ranked[:REASONS]:
        out.append(f"not {_ids(ids)}: {why}")
    if len(ranked) > REASONS:
        rest = sum(len(ids) for _, ids in ranked[REASONS:])
        out.append(f"not {rest} more, for other reasons (click one to see why)")
    return out


def unit_fire_lines(state: GameState, piece: Piece) -> list[str]:
    """The selection box's Table 6 lines for an American unit (none for other pieces)."""
    if piece.kind != "unit" or piece.side != AMERICAN:
        return []
    out = table6_lines(piece.type)
    if state.phase == FIRE_PHASE and american.tables().fire_units.get(piece.type) is not None:
        out += targets_now(state, piece)
    return out
