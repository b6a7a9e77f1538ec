"""D-Day at Omaha Beach, US attacks (omaha 6.2, 9.6, 9.7, 9.8) and the section 10
eligibility formulas.

An attack names a German hex and the US units taking part. Adjacent infantry and
rangers attack (at least one, 6.2); heavy infantry, tanks, anti-tank, anti-aircraft and
artillery support when the 6.2 conditions (section 10's formulas) hold. ``assess``
works out everything the window's attack builder and the bot need before anything is
played: the weapons met (9.8, with FL flanking, the radio, a hero and naval fire), the
9.6 multipliers, the German defence, the 9.7 row, column and cell. ``resolve`` plays
the cell, revealing a hidden Depth marker and resolving again when the table says so,
and withdrawing the 352nd's defeated units in communication (6.2).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from tabletop.engine.dice import Dice
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance, neighbors

from . import german
from .command import HQ_KINDS, commanders, commands, has_radio, in_command, leaders
from .common import (
    DISRUPTED,
    GERMAN,
    HERO,
    LEADERS,
    POOLS,
    UNREVEALED,
    US,
    armored,
    extended,
    rule,
    sector_of,
    with_status,
)  # fmt: skip
from .fields import fields, position_keys
from .usdata import attacks

INFANTRY = ("infantry", "ranger")
SUPPORT_TYPES = ("tank", "anti-tank", "anti-aircraft")
NAVAL = "naval:"  # track + sector: naval fire markers left this turn (gap G9)
STRUCK = "us-attacked"  # German hexes attacked this phase (6.2)
BARRAGED = "us-barraged"  # German hexes barraged this phase (6.2, 6.3)


# ------------------------------------------------------------------ the ground


def germans_at(state: GameState, h: Hex) -> list[Piece]:
    return [p for p in state.map.units_at(h) if p.side == GERMAN]


def target_key(state: GameState, h: Hex) -> str | None:
    """The German position a hex belongs to."""
    return german.position_of(state.board, h)


def target_field(state: GameState, h: Hex) -> dict[Hex, str]:
    key = target_key(state, h)
    return dict(german.field(state.board, key)) if key else {}


def in_fof(state: GameState, h: Hex, target: Hex) -> bool:
    """Whether hex ``h`` is in the field of fire of the target's position."""
    return h in target_field(state, target)


def exposed(state: GameState, unit: Piece) -> bool:
    """omaha 6.2, 6.4, section 10 ``Arty.inFoF(Undisrupted)``: in the field of fire of a
    position held by an undisrupted German unit."""
    board = state.board
    for key in position_keys(board):
        if german.active_units(state, key) and unit.hex in german.field(board, key):
            return True
    return False


def unrevealed_reinforcement(state: GameState, target: Hex) -> bool:
    """omaha 6.3, 6.5: an Unrevealed Reinforcement position (its units face down)."""
    key = target_key(state, target)
    units = germans_at(state, target)
    return bool(key and german.kind(state.board, key) == "reinforcement" and units
                and all(UNREVEALED in p.status for p in units))  # fmt: skip


def ranged_ok(state: GameState, target: Hex) -> bool:
    """omaha 6.2, 6.4: ranged fire at a high-ground position only if that position
    projects a field of fire into at least 1 beach hex."""
    if state.map.terrain_at(target) != "high-ground":
        return True
    key = target_key(state, target)
    if key is None:
        return True
    f = fields(state.board).by_position.get(key, {})
    return any(state.map.terrain_at(h) == "beach" for h in f)


def crossing(state: GameState, a: Hex, b: Hex) -> str | None:
    """The 9.6 hexside word of an attack from ``a`` into the adjacent ``b``: a bluff as
    bluff-up, bluff-down or bluff-level (by the map's elevation), another hexside by its
    key, None for an open side."""
    board = state.board
    sides = board.hexside_features(a, b)
    if "bluff" in sides:
        rise = board.elevation[b] - board.elevation[a]
        return "bluff-up" if rise > 0 else "bluff-down" if rise < 0 else "bluff-level"
    table = attacks()["defence"]["hexsides"]
    for key in sorted(sides):
        if key in table:
            return key
    return None


def assault_prohibited(state: GameState, a: Hex, b: Hex) -> bool:
    """9.6: no adjacent attack up a bluff or across a cliff."""
    word = crossing(state, a, b)
    return word is not None and attacks()["defence"]["hexsides"].get(word) == "prohibited"


def across_climb(state: GameState, a: Hex, b: Hex) -> bool:
    """9.8: fire across a bluff or cliff hexside allows the ranged weapons only."""
    sides = state.board.hexside_features(a, b)
    return bool(sides & {"bluff", "scaleable-cliff", "sheer-cliff"}) and crossing(state, a, b) != "bluff-down"


def multipliers(state: GameState, target: Hex, hexes: Iterable[Hex]) -> tuple[int, int, str]:
    """9.6: the (unit, Depth) multipliers of the German defence in ``target`` attacked
    from ``hexes`` and why. The ground of the German hex counts; of the hexsides the
    attack crosses, the least advantageous to the German (6.2; reading A7)."""
    d = attacks()["defence"]
    ground = state.map.terrain_at(target)
    unit_m, depth_m = d["terrain"].get(ground, [1, 1])
    why = [f"{ground} x{unit_m}/x{depth_m}" if ground in d["terrain"] else f"{ground} x1"]
    best: tuple[int, int, str] | None = None
    for h in hexes:
        word = crossing(state, h, target)
        cell = d["hexsides"].get(word) if word else None
        m = (1, 1, "open side") if cell is None or cell == "prohibited" else (cell[0], cell[1], word or "")
        if best is None or (m[0], m[1]) < (best[0], best[1]):
            best = m
    if best is not None and (best[0], best[1]) > (unit_m, depth_m):
        unit_m, depth_m = best[0], best[1]
        why.append(f"across {best[2]} x{best[0]}/x{best[1]}")
    elif best is not None and best[2] != "open side":
        why.append(f"best side for the US: {best[2]}")
    return int(unit_m), int(depth_m), ", ".join(why)


# ----------------------------------------------- section 10: who may support, barrage


def adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def tank_support(state: GameState, unit: Piece, target: Hex, infantry: Sequence[Piece]) -> bool:
    """Section 10 Tank Support: ``Tank.adj(target || atk Inf) or (HQ || Ge).command(Tank
    || atk Inf)``; a Command Post coordinates too (omaha 8)."""
    if adjacent(unit.hex, target) or any(distance(unit.hex, i.hex) <= 1 for i in infantry):
        return True
    return in_command(state, unit) or any(in_command(state, i) for i in infantry)


def artillery_support(state: GameState, unit: Piece, target: Hex, infantry: Sequence[Piece]) -> bool:
    """Section 10 Artillery Support: ``!Arty.adj(target) and HQ.command(Arty && atk
    Inf)``, and not in an undisrupted field of fire unless armoured (6.2)."""
    if adjacent(unit.hex, target) or (exposed(state, unit) and not armored(unit)):
        return False
    for hq in leaders(state, HQ_KINDS):
        if commands(state, hq, unit.hex) and any(commands(state, hq, i.hex) for i in infantry):
            return True
    return False


def barrageable(state: GameState, unit: Piece, target: Hex) -> bool:
    """Section 10 Barrage: ``!unit.adj(target) and target != Unrevealed Reinforcement``."""
    return not adjacent(unit.hex, target) and not unrevealed_reinforcement(state, target)


def tank_barrage(state: GameState, unit: Piece, target: Hex) -> bool:
    """Section 10 Tank Barrage: ``Tank.inFoF(target) or (Undisrupted Inf.inFoF(target)
    and (HQ || Ge).command(Tank || Inf))``, within the tank's range (6.3, 9.8)."""
    if not barrageable(state, unit, target) or distance(unit.hex, target) > int(attacks()["barrage"]["tank_range"]):
        return False
    if not ranged_ok(state, target):
        return False
    if in_fof(state, unit.hex, target):
        return True
    tank_led = in_command(state, unit)
    for inf in _infantry(state):
        if DISRUPTED not in inf.status and in_fof(state, inf.hex, target) and (tank_led or in_command(state, inf)):
            return True
    return False


def artillery_barrage(state: GameState, unit: Piece, target: Hex) -> bool:
    """Section 10 Artillery Barrage (6.4, EXT): ``(HQ || CP).command(Arty) and (Arty ||
    same (HQ || CP).command(Undisrupted Inf)).inFoF(target)``, not in an undisrupted field
    of fire unless armoured, in range, and the high-ground rule."""
    if not extended(state) or not barrageable(state, unit, target):
        return False
    if distance(unit.hex, target) > int(attacks()["barrage"]["artillery_range"]) or not ranged_ok(state, target):
        return False
    if exposed(state, unit) and not armored(unit):
        return False
    for hq in commanders(state, unit, HQ_KINDS):
        if in_fof(state, unit.hex, target):
            return True
        for inf in _infantry(state):
            if DISRUPTED not in inf.status and commands(state, hq, inf.hex) and in_fof(state, inf.hex, target):
                return True
    return False


def naval_barrage_ok(state: GameState, target: Hex) -> bool:
    """omaha 6.5: not an unrevealed Reinforcement position, and an undisrupted infantry
    unit in the target's field of fire with a radio or in command of an HQ."""
    if unrevealed_reinforcement(state, target) or not germans_at(state, target):
        return False
    return any(DISRUPTED not in i.status and in_fof(state, i.hex, target) and has_radio(state, i)
               for i in _infantry(state))  # fmt: skip


def _infantry(state: GameState) -> list[Piece]:
    return [p for p in state.map.pieces() if p.side == US and p.kind == "unit" and p.type in INFANTRY
            and state.map.terrain_at(p.hex) != "sea"]  # fmt: skip


# ------------------------------------------------------------------------ weapons


def weapons_of(state: GameState, unit: Piece, target: Hex) -> frozenset[str]:
    """9.8: the weapons ``unit`` brings against ``target`` from where it stands."""
    w = attacks()["weapons"]
    d = distance(unit.hex, target)
    if d >= 2 and not ranged_ok(state, target):
        return frozenset()
    across = d == 1 and across_climb(state, unit.hex, target)

    def row(key: str) -> frozenset[str]:
        lo, hi = w[key]["range"]
        return frozenset(w[key]["weapons"]) if lo <= d <= hi else frozenset()

    t = unit.type
    if t in INFANTRY:
        if d != 1 or assault_prohibited(state, unit.hex, target):
            return frozenset()
        out = row(t)
        return out | {"RD"} if has_radio(state, unit) else out
    if t == "heavy-infantry":
        return row("heavy-infantry-ranged") if across or d > 1 else row("heavy-infantry-adjacent")
    if t == "tank":
        out = row("tank-near") or row("tank-far")
    elif t in ("anti-aircraft", "anti-tank", "artillery"):
        out = row(t)
    else:
        return frozenset()
    return out & frozenset(attacks()["ranged_only"]) if across else out


@dataclass
class Assessment:
    """What an attack would be (6.2, 9.6-9.8), worked out before it is played."""

    target: str
    attackers: list[str] = field(default_factory=list)
    supporters: list[str] = field(default_factory=list)
    refused: str | None = None
    needed: frozenset[str] = frozenset()
    flanking: int = 0  # hexes FL needs: 0, 2 or 3
    brought: frozenset[str] = frozenset()
    missing: frozenset[str] = frozenset()
    met: bool = False
    strength: int = 0
    defence: int = 0
    unit_x: int = 1
    depth_x: int = 1
    ground: str = ""
    column: str = "alone"
    delta: str = ""
    results: tuple[str, ...] = ()
    naval: str = ""  # "", "weapons" or "+9"
    hero: str = ""  # "", "weapon X" or "+1"
    notes: list[str] = field(default_factory=list)

    def words(self) -> str:
        if self.refused:
            return self.refused
        need = ", ".join(sorted(self.needed)) or "none"
        fl = f", FL from {self.flanking}+ hexes" if self.flanking else ""
        extra = "".join(f"; {n}" for n in self.notes)
        return (f"weapons needed {need}{fl}; brought {', '.join(sorted(self.brought)) or 'none'}: "
                f"{'met' if self.met else 'NOT met (missing ' + ', '.join(sorted(self.missing)) + ')'}; "
                f"US {self.strength} against German {self.defence} ({self.ground}); "
                f"9.7 row {'YES' if self.met else 'NO'} {self.delta}, column {self.column}: "
                f"{', '.join(self.results)}{extra}")  # fmt: skip


def column(state: GameState, target: Hex) -> str:
    """9.7 column: the German alone, with a hidden Depth marker, with a revealed one."""
    markers = [m for u in germans_at(state, target) if (m := german.depth_of(state, u)) is not None]
    if not markers:
        return "alone"
    return "hidden" if any(UNREVEALED in m.status for m in markers) else "revealed"


def needs(state: GameState, target: Hex, col: str) -> tuple[frozenset[str], int]:
    """The weapons an attack must bring (the units', and a revealed Depth marker's) and
    the hexes FL flanking needs: 2, or 3 when a unit and its Depth marker both need it
    (6.2); 0 without FL."""
    out: set[str] = set()
    unit_fl = depth_fl = False
    for u in germans_at(state, target):
        info = german.info(u)
        if info is not None:
            out |= set(info.weapons)
            unit_fl = unit_fl or info.fl
        marker = german.depth_of(state, u)
        if marker is not None and col == "revealed":
            minfo = german.info(marker)
            if minfo is not None:
                out |= set(minfo.weapons)
                depth_fl = depth_fl or minfo.fl
    fl = 3 if unit_fl and depth_fl else 2 if unit_fl or depth_fl else 0
    return frozenset(out - {"FL"}), fl


def flanked(hexes: Sequence[Hex], target: Hex, need: int) -> bool:
    """6.2 FL: from 2 hexes adjacent to the target but not to each other; from 3+
    hexes when the unit and its Depth marker both need it."""
    near = sorted({h for h in hexes if adjacent(h, target)}, key=lambda h: (h.q, h.r))
    if need == 0:
        return True
    if need >= 3:
        return len(near) >= 3
    return any(not adjacent(a, b) for i, a in enumerate(near) for b in near[i + 1:])


def defence(state: GameState, target: Hex, col: str, unit_x: int, depth_x: int) -> int:
    """The German defence: units' strength x the unit multiplier, plus a revealed Depth
    marker's x the Depth multiplier (a hidden one's strength is not known, reading A4)."""
    total = 0
    for u in germans_at(state, target):
        info = german.info(u)
        total += (info.strength if info else 1) * unit_x
        marker = german.depth_of(state, u)
        if marker is not None and col == "revealed":
            minfo = german.info(marker)
            total += (minfo.strength if minfo else 1) * depth_x
    return total


def delta_of(strength: int, against: int, met: bool) -> str:
    """The 9.7 delta row: NO: le, gt, x2; YES: lt, eq, gt, x2."""
    if strength >= 2 * against:
        return "x2"
    if met:
        return "lt" if strength < against else "eq" if strength == against else "gt"
    return "le" if strength <= against else "gt"


def cell(met: bool, delta: str, col: str, ext: bool) -> tuple[str, ...]:
    """The 9.7 cell (attacks.yaml ``results``; EXT override ``results_extended``)."""
    row = "yes" if met else "no"
    over = (attacks().get("results_extended") or {}).get(row, {}).get(delta, {}) if ext else {}
    words = over.get(col) or attacks()["results"][row][delta][col]
    return tuple(str(w) for w in words)


def roles(state: GameState, target: Hex, units: Sequence[Piece]) -> tuple[list[Piece], list[Piece], str | None]:
    """Split the units into attacking infantry and supporters, or say why one may not
    take part (6.2, 9.6)."""
    attackers = [u for u in units if u.type in INFANTRY]
    for u in attackers:
        if not adjacent(u.hex, target):
            return [], [], f"{u.id} is not adjacent to the target: infantry attacks from an adjacent hex ({rule('6.2')})"
        if assault_prohibited(state, u.hex, target):
            return [], [], f"{u.id} may not attack across the {crossing(state, u.hex, target)} hexside ({rule('9.6')})"
    if not attackers:
        return [], [], f"an attack needs at least 1 infantry or ranger unit adjacent to the target ({rule('6.2')})"
    support = [u for u in units if u.type not in INFANTRY]
    for u in support:
        d = distance(u.hex, target)
        if u.type in LEADERS:
            return [], [], f"{u.id}: HQs and Generals command; they do not attack ({rule('6.2')})"
        if not weapons_of(state, u, target):
            return [], [], f"{u.id} is out of range of the target or may not fire at it ({rule('9.8')}, {rule('6.2')})"
        if u.type == "heavy-infantry":
            continue
        if u.type in SUPPORT_TYPES and not tank_support(state, u, target, attackers):
            return [], [], (f"{u.id} may support only adjacent to the target or an attacking infantry, or in command "
                            f"of an HQ or General, or with an attacking infantry in command ({rule('6.2')}, {rule('10')})")  # fmt: skip
        if u.type == "artillery" and not artillery_support(state, u, target, attackers):
            return [], [], (f"{u.id} (artillery) supports only at range, out of an undisrupted field of fire unless "
                            f"armoured, in command of an HQ that also commands an attacking infantry ({rule('6.2')}, {rule('10')})")  # fmt: skip
        if d == 0:
            return [], [], f"{u.id} is in the target hex"
    return attackers, support, None


def naval_available(state: GameState, target: Hex, attackers: Sequence[Piece]) -> bool:
    """6.2: naval fire may support if an attacking infantry (heavy infantry included:
    it carries RD, 9.8) has a radio or is in command of an HQ; a tank in HQ command does
    not; gap G9: a marker of the target's sector is left this turn."""
    if state.track(NAVAL + sector_of(state.board, target)) <= 0:
        return False
    return any(a.type in (*INFANTRY, "heavy-infantry") and (has_radio(state, a) or in_command(state, a, HQ_KINDS)) for a in attackers)


def heroes_near(state: GameState, target: Hex) -> list[Piece]:
    """6.2: heroes in a hex adjacent to the target."""
    return [p for p in state.map.pieces() if p.side == US and HERO in p.status and adjacent(p.hex, target)]


def assess(state: GameState, target: Hex, units: Sequence[Piece], naval: bool = False,
           col: str | None = None) -> Assessment:  # fmt: skip
    """Everything about the attack before it is played (see the module doc)."""
    a = Assessment(state.board.label(target))
    if not germans_at(state, target):
        a.refused = f"no German unit in {a.target} ({rule('6.2')})"
        return a
    attackers, support, why = roles(state, target, units)
    if why:
        a.refused = why
        return a
    a.attackers, a.supporters = [u.id for u in attackers], [u.id for u in support]
    a.column = col or column(state, target)
    a.needed, a.flanking = needs(state, target, a.column)
    brought: set[str] = set()
    for u in units:
        brought |= weapons_of(state, u, target)
    strength = sum(u.steps for u in units)
    if a.flanking and flanked([u.hex for u in units], target, a.flanking):
        brought.add("FL")
    need = set(a.needed) | ({"FL"} if a.flanking else set())
    missing = need - brought
    bonuses = attacks()
    if naval:
        if not naval_available(state, target, attackers):
            a.refused = (f"no naval fire: none left in the sector this turn (gap G9), or no attacking infantry "
                         f"with a radio or in command of an HQ ({rule('6.2')})")  # fmt: skip
            return a
        given = set(bonuses["weapons"]["naval"]["weapons"])
        if missing and missing <= given:
            brought |= given
            a.naval = "weapons"
        else:
            strength += int(bonuses["naval_bonus"])
            a.naval = f"+{bonuses['naval_bonus']}"
        a.notes.append(f"naval fire gives {a.naval}")
        missing = need - brought
    if heroes_near(state, target):
        if len(missing) == 1 and "FL" not in missing:
            brought |= missing
            a.hero = f"weapon {min(missing)}"
        else:
            strength += int(bonuses["hero_bonus"])
            a.hero = f"+{bonuses['hero_bonus']}"
        a.notes.append(f"a hero gives {a.hero}")
        missing = need - brought
    a.brought, a.missing, a.met = frozenset(brought), frozenset(missing), not missing
    a.unit_x, a.depth_x, a.ground = multipliers(state, target, [u.hex for u in attackers])
    a.strength = strength
    a.defence = defence(state, target, a.column, a.unit_x, a.depth_x)
    a.delta = delta_of(a.strength, a.defence, a.met)
    a.results = cell(a.met, a.delta, a.column, extended(state))
    return a


# ------------------------------------------------------------------------ playing


def resolve(state: GameState, target: Hex, units: Sequence[Piece], naval: bool, dice: Dice) -> list[str]:
    """Play an attack the ruleset has accepted: 9.7 with its resolve-again."""
    label = state.board.label(target)
    state.mark(STRUCK, label)
    lines = []
    for u in germans_at(state, target):
        if UNREVEALED in u.status:  # PROJECT'S CHOICE: an attacked face-down unit is revealed
            with_status(state, u, drop=UNREVEALED)
            lines.append(f"{u.id} is revealed by the attack")
    a = assess(state, target, units, naval)
    if a.naval:
        state.tracks[NAVAL + sector_of(state.board, target)] -= 1
    lines.append(f"attack on {label} by {', '.join(a.attackers)}"
                 + (f" with {', '.join(a.supporters)}" if a.supporters else "") + f": {a.words()} ({rule('9.7')})")  # fmt: skip
    lines += _apply(state, target, units, a, dice)
    if "reveal-again" in a.results:
        again = assess(state, target, [state.map.piece(u.id) for u in units if state.where(u.id) is None], naval=False,
                       col="revealed")  # fmt: skip
        if a.naval == "+9":  # the naval fire already given goes on counting
            again.strength += int(attacks()["naval_bonus"])
            again.delta = delta_of(again.strength, again.defence, again.met)
            again.results = cell(again.met, again.delta, "revealed", extended(state))
        lines.append(f"resolve again with the Depth marker revealed: {again.words()} ({rule('9.7')})")
        lines += _apply(state, target, units, again, dice)
    return lines


def _apply(state: GameState, target: Hex, units: Sequence[Piece], a: Assessment, dice: Dice) -> list[str]:
    lines: list[str] = []
    board = state.board
    key = target_key(state, target) or ""
    for word in a.results:
        here = germans_at(state, target)
        if word == "us-disrupted":
            for u in units:
                if state.where(u.id) is None and u.type not in LEADERS:
                    with_status(state, state.map.piece(u.id), add=DISRUPTED)
            lines.append(f"the attackers are Disrupted ({rule('9.7')})")
        elif word == "add-depth":
            bare = [u for u in here if german.depth_of(state, u) is None]
            pools = [p for p in german.pool_chain(state, key) if p != "tactical" and state.box(POOLS[p])] if key else []
            if bare and pools:
                lines += german.attach_depth(state, bare[0], pools[0], dice, f"attack result, {rule('9.7')}")
            else:
                lines.append(f"+ Depth: no unit without Depth, or the pool is empty ({rule('9.7')})")
        elif word == "unreveal":
            if key and german.kind(board, key) == "reinforcement":
                for u in here:
                    with_status(state, u, add=UNREVEALED)
                lines.append(f"the German units turn face down again ({rule('9.7')}, project's reading)")
        elif word == "disrupted":
            for u in here:
                with_status(state, u, add=DISRUPTED)
            lines.append(f"{', '.join(u.id for u in here)} Disrupted ({rule('9.7')})")
        elif word == "drop-depth":
            for u in here:
                if german.depth_of(state, u) is not None:
                    german.drop_depth(state, u)
                    state.map.update(replace(state.map.piece(u.id), carrying=()))
            lines.append(f"the Depth marker is removed ({rule('9.7')})")
        elif word == "defeated":
            lines += defeat(state, target)
        elif word == "reveal-again":
            for u in here:
                marker = german.depth_of(state, u)
                if marker is not None:
                    with_status(state, marker, drop=UNREVEALED)
            lines.append(f"the Depth marker is revealed ({rule('9.7')})")
    return lines


def defeat(state: GameState, target: Hex) -> list[str]:
    """9.7 Defeated: the units are eliminated; 352nd units in communication withdraw to
    the Division Reinforcement box instead (6.2, 9.7)."""
    lines = []
    key = target_key(state, target) or ""
    division = int(attacks()["withdraw_division"])
    for u in germans_at(state, target):
        info = german.info(u)
        german.drop_depth(state, u)
        u = replace(u, carrying=())
        state.map.update(u)
        if info is not None and info.division == division and key and german.communicating(state, key):
            state.to_box(u.id, POOLS["division"])
            lines.append(f"{u.id} (352nd, in communication) is defeated and withdraws to the Division pool ({rule('6.2')})")
        else:
            german.eliminate(state, u)
            lines.append(f"{u.id} is defeated and eliminated ({rule('9.7')})")
    return lines


def neighbours(state: GameState, h: Hex) -> list[Hex]:
    return [n for n in neighbors(h) if state.board.grid.contains(n)]
