"""Damage, step ladders, MG fire and Combat X for The Devil Dogs of Belleau Wood
(6.2, 7, 7.1, 7.2, 7.3, 8.1-8.3).

Pure functions over a ``GameState``: who is in a sector, who sees whom, what a unit's
combat damage is, the target priority chart, and the ladder a step loss walks down. The
turn machine (``ruleset``) and the keywords call them; the bots use the same arithmetic.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace

from tabletop.engine.los import LosQuery, line_of_sight
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance, neighbors

from .data import Figures, figures
from .los import policy as los_policy

PINNED = "pinned"
DEAD = "dead"
ALLIED, GERMAN = "allied", "german"
SIDES = (ALLIED, GERMAN)


def other(side: str) -> str:
    return GERMAN if side == ALLIED else ALLIED


# --- who and where ---------------------------------------------------------------------------


def units(state: GameState, side: str | None = None) -> list[Piece]:
    return [p for p in state.map.pieces() if p.kind == "unit" and (side is None or p.side == side)]


def sector_hexes(state: GameState, sector: str) -> frozenset[Hex]:
    """The hexes of sector ``sector`` (its map region; border columns belong to both: 5.8)."""
    return frozenset(state.board.regions[f"sector-{sector}"].hexes)


def in_sector(state: GameState, sector: str, side: str | None = None) -> list[Piece]:
    hexes = sector_hexes(state, sector)
    return [p for p in units(state, side) if p.hex in hexes]


_sight: dict[tuple[int, Hex, Hex], bool] = {}


def sees(state: MapState, a: Hex, b: Hex) -> bool:
    """Line of sight (7.1) from ``a`` to ``b``: woods, urban and occupied hexes block,
    adjacent hexes always see; a slope blocks unless nearer the firer, so the answer
    for b to a may differ (the cache keeps the direction)."""
    if distance(a, b) <= 1:
        return True
    key = (state.version, a, b)  # not symmetric: a slope sees out but not in (7.1)
    found = _sight.get(key)
    if found is None:
        if len(_sight) > 50_000:
            _sight.clear()
        found = _sight[key] = line_of_sight(state, los_policy(state), LosQuery(a, b)).result != "blocked"
    return found


def adjacent_enemy(state: GameState, piece: Piece) -> bool:
    around = set(neighbors(piece.hex))
    return any(p.hex in around for p in units(state, other(str(piece.side))))


# --- ladders (7.2, 8.2) ----------------------------------------------------------------------


def nation(piece: Piece) -> str:
    value = piece.attr("nation", None)
    if isinstance(value, str):
        return value
    return "usmc" if piece.side == ALLIED else "german-assault"


def ladder(piece: Piece, f: Figures | None = None) -> tuple[str, ...]:
    """The faces of the unit's ladder from full strength down (7.2)."""
    f = f or figures()
    return f.ladders.get(nation(piece), f.ladders["usmc"])


def full_steps(piece: Piece) -> int:
    return len(ladder(piece))


def face(piece: Piece) -> str:
    """What the counter shows: full, full+falter, reduced, reduced+falter (7.2)."""
    faces = ladder(piece)
    left = max(1, min(piece.steps, len(faces)))
    return faces[len(faces) - left]


def has_falter(piece: Piece) -> bool:
    return piece.steps > 0 and face(piece).endswith("+falter")


def _track_move(state: GameState, by: str, steps: int) -> None:
    """G12: each step a side inflicts moves the initiative track one space its way (8.3)."""
    if steps <= 0:
        return
    f = figures()
    sign = 1 if by == ALLIED else -1
    value = state.track("initiative") + sign * steps
    state.tracks["initiative"] = max(f.track_low, min(f.track_high, value))


def lose_steps(
    state: GameState,
    piece_id: str,
    steps: int,
    by: str | None,
    lines: list[str],
    *,
    track: bool = True,
    can_destroy: bool = True,
) -> int:
    """``piece_id`` loses up to ``steps`` steps down its ladder (7.2): Entrench first
    ignores them (9 ENTRENCH X), a destroyed unit goes to the dead pool (8.3). Each step
    lost moves the track toward ``by`` unless ``track`` is False (the barrage's cap is
    its caller's). Returns the steps actually lost."""
    try:
        piece = state.map.piece(piece_id)
    except KeyError:
        return 0
    owner = str(piece.side)
    lost = 0
    for _ in range(steps):
        shield = state.track(f"entrench-{owner}")
        if shield > 0:
            state.tracks[f"entrench-{owner}"] = shield - 1
            lines.append(f"{piece.id}: a step loss ignored (Entrench, 9)")
            continue
        if not can_destroy and piece.steps <= 1:
            break
        piece = replace(piece, steps=piece.steps - 1)
        lost += 1
        state.mark("damaged", piece.id)
        if piece.steps <= 0:
            state.map.update(piece)
            state.to_box(piece.id, DEAD)
            state.mark(f"dead-{owner}", piece.id)
            lines.append(f"{piece.id} is destroyed and goes to the dead pool (7.2, 8.3)")
            break
        state.map.update(piece)
        lines.append(f"{piece.id} loses a step: now {face(piece)} (7.2)")
    if track and by is not None:
        _track_move(state, by, lost)
    return lost


def pin(state: GameState, piece_id: str, by: str | None, lines: list[str], why: str) -> None:
    """A pinning token; a second pin is a step loss instead (6.2)."""
    try:
        piece = state.map.piece(piece_id)
    except KeyError:
        return
    if piece.has(PINNED):
        lines.append(f"{piece.id} is already pinned: a step loss instead ({why}; 6.2)")
        lose_steps(state, piece.id, 1, by, lines)
        return
    state.map.update(replace(piece, status=piece.status | {PINNED}))
    state.mark("pinned-now", piece.id)
    lines.append(f"{piece.id} is pinned ({why})")


def unpin(state: GameState, piece_id: str) -> None:
    piece = state.map.piece(piece_id)
    if piece.has(PINNED):
        state.map.update(replace(piece, status=piece.status - {PINNED}))


# --- target priority (7.1, 8.1, 8.2) ----------------------------------------------------------


def defensive(state: GameState, h: Hex) -> bool:
    """8.2 (A2): urban, woods, rail (and fortified) hexes take 2 CD a step."""
    f = figures()
    if state.map.terrain_at(h) in f.defensive_terrain:
        return True
    feats = state.board.features
    return any(k in feats and h in feats[k].hexes for k in f.defensive_features)


def priority_key(state: GameState, piece: Piece) -> tuple[int, int, int, str]:
    """Open before defensive, then infantry, heavy weapons, HQ (7.1). Project's
    choice within a class: the unit with fewest steps left first, then by id."""
    f = figures()
    return (int(defensive(state, piece.hex)), f.priority.get(f.kind(piece), 1), piece.steps, piece.id)


def class_key(state: GameState, piece: Piece) -> tuple[int, int]:
    """The priority class of a target (7.1): open before defensive, then its kind."""
    return priority_key(state, piece)[:2]


def hit_candidates(state: GameState, targets: list[Piece], cd: int, picked: list[str]) -> list[Piece]:
    """7.1, 8.2 (G9): the units one of which takes the next step of ``cd`` combat damage
    once ``picked`` are hit: the first priority class with a unit not yet hit, while
    the CD left pays for a step there (1 in the open, 2 in a defensive hex); the minimum
    of one step when nothing could be paid for; [] when no more steps can be assigned."""
    if cd <= 0:
        return []
    paid = sum(2 if defensive(state, state.map.piece(p).hex) else 1 for p in picked)
    rest = [t for t in targets if t.id not in picked]
    if not rest:
        return []
    first = min(class_key(state, t) for t in rest)
    group = sorted((t for t in rest if class_key(state, t) == first), key=lambda p: priority_key(state, p))
    cost = 2 if first[0] else 1
    if cd - paid >= cost or not picked:
        return group
    return []


def hit_is_a_choice(state: GameState, group: list[Piece], cd: int, picked: list[str]) -> bool:
    """Whether the inflicting player must choose within ``group`` (G9): only when the CD
    left pays for fewer of its units than it holds (else every one is hit)."""
    if len(group) < 2:
        return False
    paid = sum(2 if defensive(state, state.map.piece(p).hex) else 1 for p in picked)
    cost = 2 if defensive(state, group[0].hex) else 1
    return max(1 if not picked else 0, (cd - paid) // cost) < len(group)


def allocate(state: GameState, targets: list[Piece], cd: int) -> list[str]:
    """The units that each lose one step to ``cd`` combat damage (7.1, 8.2): in priority
    order, one step per unit per source, 1 CD a step in the open and 2 in defensive
    hexes; what cannot be assigned is lost; at least one step when any CD is applied."""
    if cd <= 0 or not targets:
        return []
    hit: list[str] = []
    left = cd
    for t in sorted(targets, key=lambda p: priority_key(state, p)):
        cost = 2 if defensive(state, t.hex) else 1
        if left >= cost:
            hit.append(t.id)
            left -= cost
    if not hit:
        hit.append(min(targets, key=lambda p: priority_key(state, p)).id)
    return hit


# --- effects of keywords that last the turn -------------------------------------------------


def effects(state: GameState) -> list[dict[str, object]]:
    return [json.loads(e) for e in state.marks.get("effects", [])]


def has_effect(state: GameState, keyword: str, side: str | None, sector: str | None) -> bool:
    for e in effects(state):
        if (
            e["kw"] == keyword
            and (side is None or e["side"] == side)
            and (sector is None or e["sector"] == sector)
        ):
            return True
    return False


def add_effect(state: GameState, keyword: str, side: str, sector: str) -> None:
    state.marks.setdefault("effects", []).append(json.dumps({"kw": keyword, "side": side, "sector": sector}))


def halved(state: GameState, sector: str, amount: int) -> int:
    """9 SHELL HOLES: both sides halve their damage in the sector, rounded up."""
    return math.ceil(amount / 2) if has_effect(state, "Shell Holes", None, sector) else amount


# --- MG fire (5.8) and combat (7, 8.1) -------------------------------------------------------


def mg_targets(state: GameState, sector: str, side: str) -> list[Piece]:
    """5.8: enemy units in the sector that any friendly unit in the sector sees."""
    friends = in_sector(state, sector, side)
    return [
        e
        for e in in_sector(state, sector, other(side))
        if any(sees(state.map, f.hex, e.hex) for f in friends)
    ]


def unit_cd(state: GameState, piece: Piece) -> float:
    """7, 8.1: the unit's CD, +1 next to an enemy (6.1), halved when pinned (6.2: the
    halves are kept and the total rounded down, G10, project's choice)."""
    f = figures()
    cd: float = f.cd.get(f.kind(piece), 1)
    if cd and adjacent_enemy(state, piece):
        cd += f.adjacent_bonus
    if piece.has(PINNED):
        cd /= 2
    return cd


def combat_range(state: GameState, sector: str, side: str, x: int) -> int:
    """Combat X's range for ``side``'s fire; 9 CONCEALMENT: the opponent's concealment
    in this sector reduces it by one (project's reading)."""
    return x - (1 if has_effect(state, "Concealment", other(side), sector) else 0)


def fire_plan(state: GameState, sector: str, side: str, x: int, initiator: str) -> tuple[int, list[str]]:
    """``side``'s CD in a Combat X of this sector and the units it hits (7, 8.1, 8.2),
    hit as the bot assigns them (fewest steps first within a class, G9)."""
    cd, targets = fire_targets(state, sector, side, x, initiator)
    return cd, allocate(state, targets, cd)


def fire_targets(state: GameState, sector: str, side: str, x: int, initiator: str) -> tuple[int, list[Piece]]:
    """``side``'s CD in a Combat X of this sector and the enemy units it may hit (7, 8.1)."""
    rng = combat_range(state, sector, side, x)
    mine = in_sector(state, sector, side)
    theirs = in_sector(state, sector, other(side))
    if rng <= 0 or not mine or not theirs:
        return 0, []
    shooters = [
        p
        for p in mine
        if any(distance(p.hex, e.hex) <= rng and sees(state.map, p.hex, e.hex) for e in theirs)
    ]
    total = sum(unit_cd(state, p) for p in shooters)
    cd = math.floor(total)
    if side != initiator and has_effect(state, "Defensive Fire", side, sector):
        cd += 2
    cd = halved(state, sector, cd)
    hidden = has_effect(state, "Hidden MG's", other(side), sector)
    f = figures()
    targets = []
    for e in theirs:
        if not any(distance(p.hex, e.hex) <= rng and sees(state.map, p.hex, e.hex) for p in shooters):
            continue
        if hidden and f.kind(e) in ("machine-gun", "gun-pit") and not adjacent_enemy(state, e):
            continue
        targets.append(e)
    return cd, targets
