"""D-Day at Omaha Beach, the US Action phase (omaha 6-8): the action budget, the free
actions, and every US action's choices, refusal, play and words.

The budget (omaha 6): 2 actions a sector (EXT 3), at most 1 action a unit; 2 stacked
units doing the exact same action pay 1. Free actions (omaha 6, the 7 classes):
rangers; a unit with a hero or Inspired marker; a unit with a climb or climb-cliff
marker; an infantry unit moving from a beach hex to one closer to a protecting hexside;
a Disrupted unit removing its marker; HQs and Generals; a unit in command of an HQ or
General that has not moved yet (or of a Command Post in range, omaha 8).

The actions: ``move`` (6.1, 9.4, with infiltration), ``rally`` (remove Disrupted),
``climb-cliff`` and ``drop-climb`` (6.1), ``attack`` (6.2, ``attacks``), ``barrage``
(6.3 tanks, 6.4 artillery EXT; ``barrages``), ``naval-barrage`` (6.5), ``clear-obstacle``
(7), ``establish-cp`` and ``revert-cp`` (8, EXT). Every refusal names its section.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from tabletop.board import Map
from tabletop.engine.actions import END_PHASE, Action
from tabletop.engine.dice import Dice
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance, neighbors

from . import attacks as atk
from . import builder, data, engineers, fields, german, landing
from .barrages import barrage, naval_barrage
from .command import MOVED, in_command
from .common import (
    DISRUPTED,
    HERO,
    INSPIRED,
    LEADERS,
    SECTORS,
    US,
    extended,
    rule,
    sector_of,
    symbol,
    us_units,
    with_status,
)  # fmt: skip
from .movement import infiltration_zone
from .usdata import attacks, band

ACTED = "us-acted"
ACTIONS_LEFT = "actions:"  # + sector: the ruleset's budget track
CLEARED = "cleared:"  # + sector: obstacle hexes cleared this phase
REVERTED = "cp-reverted"
ACTIONS = ("move", "rally", "climb-cliff", "drop-climb", "attack", "barrage", "naval-barrage",
           "clear-obstacle", "establish-cp", "revert-cp", "advance-cp", "engineer-base", "attack-pick")  # fmt: skip
CLIMB, CLIMB_CLIFF = "climb", "climb-cliff"
INFANTRY_TYPES = ("infantry", "ranger", "heavy-infantry")


# ------------------------------------------------------------------ the budget


def begin(state: GameState) -> list[str]:
    """The phase begins: the sector budgets, naval fire markers (gap G9), clearing."""
    per = int(attacks()["actions_per_sector"]["extended" if extended(state) else "standard"])
    naval = attacks()["naval_markers"]
    for mark in (ACTED, MOVED, atk.STRUCK, atk.BARRAGED, REVERTED, engineers.BASED):
        state.marks.pop(mark, None)
    builder.clear(state)
    for s in SECTORS:
        state.tracks[ACTIONS_LEFT + s] = per
        state.tracks[atk.NAVAL + s] = int(naval["per_sector"]) if state.turn >= int(naval["from_turn"]) else 0
        state.tracks[CLEARED + s] = 0
    entry = band("engineers", state.turn)
    clear = f"; engineers may clear {entry['hexes']} obstacle hex(es) a sector ({rule('7')})" if entry else ""
    navy = " and 1 naval fire marker a sector (gap G9)" if state.turn >= int(naval["from_turn"]) else ""
    return [f"US Action phase: {per} actions a sector ({rule('6')}){navy}{clear}"]


_SHELTER: dict[int, tuple[Map, frozenset[Hex]]] = {}


def _shelter(board: Map) -> frozenset[Hex]:
    """Hexes with a protecting hexside on one of their sides (omaha 6 free action),
    made once per map (a Map is not hashable)."""
    made = _SHELTER.get(id(board))
    if made is None or made[0] is not board:
        made = _SHELTER[id(board)] = (board, _shelter_hexes(board))
    return made[1]


def _shelter_hexes(board: Map) -> frozenset[Hex]:
    kinds = set(attacks()["free_actions"]["shelter_hexsides"])
    out = set()
    for h in board.grid.hexes():
        for n in neighbors(h):
            if board.grid.contains(n) and board.hexside_features(h, n) & kinds:
                out.add(h)
                break
    return frozenset(out)


def shelter_distance(state: GameState, h: Hex) -> int:
    """Hexes from ``h`` to the nearest hex with a protecting hexside (remembered per map
    and hex: the autoplayer asks it for every beach step it weighs)."""
    board = state.board
    known = _SHELTER_DISTANCE.get(id(board))
    if known is None or known[0] is not board:
        known = _SHELTER_DISTANCE[id(board)] = (board, {})
    found = known[1].get(h)
    if found is None:
        found = known[1][h] = min((distance(h, s) for s in _shelter(board)), default=99)
    return found


_SHELTER_DISTANCE: dict[int, tuple[Map, dict[Hex, int]]] = {}


def free_reason(state: GameState, unit: Piece, do: str, to: Hex | None = None) -> str | None:
    """Why an action of ``unit`` is free (omaha 6's classes), or None if it costs one."""
    fa = attacks()["free_actions"]
    if unit.type in fa["ranger"]:
        return "rangers act free"
    if unit.type in fa["leader"]:
        return "HQs and Generals act free"
    if HERO in unit.status or INSPIRED in unit.status:
        return "a unit with a hero or Inspired marker acts free"
    if CLIMB in unit.status or CLIMB_CLIFF in unit.status:
        return "a unit with a climb marker acts free"
    if do == "rally" and DISRUPTED in unit.status:
        return "a Disrupted unit removes its marker free"
    if (do == "move" and to is not None and unit.type in fa["shelter_types"]
            and state.map.terrain_at(unit.hex) == "beach" and state.map.terrain_at(to) == "beach"
            and shelter_distance(state, to) < shelter_distance(state, unit.hex)):  # fmt: skip
        return "infantry moving on the beach toward a protecting hexside acts free"
    if in_command(state, unit):
        return "in command of an HQ or General"
    if do == "move" and extended(state) and engineers.traffic_free(state, unit.hex):
        return "traffic management: the move begins in an Engineer Base's range (omaha 7 EXT)"
    return None


def cost(state: GameState, units: Sequence[Piece], do: str, to: Hex | None = None) -> Counter[str]:
    """Actions each sector pays: one per hex of units that do not act free (2 stacked
    units doing the same action pay 1, omaha 6)."""
    hexes = {u.hex for u in units if free_reason(state, u, do, to) is None}
    return Counter(sector_of(state.board, h) for h in hexes)


def _budget_refusal(state: GameState, need: Counter[str]) -> str | None:
    for s, n in need.items():
        if state.track(ACTIONS_LEFT + s) < n:
            return f"the {s} sector has {state.track(ACTIONS_LEFT + s)} action(s) left, this needs {n} ({rule('6')})"
    return None


def _pay(state: GameState, need: Counter[str], units: Sequence[Piece]) -> str:
    for s, n in need.items():
        state.tracks[ACTIONS_LEFT + s] -= n
    for u in units:
        state.mark(ACTED, u.id)
    if not need:
        return "free"
    return "; ".join(f"{s} sector {state.track(ACTIONS_LEFT + s)} left" for s in need)


def _unit(state: GameState, uid: object) -> tuple[Piece | None, str | None]:
    try:
        unit = state.map.piece(str(uid))
    except KeyError:
        return None, f"{uid} is not on the map"
    if unit.side != US or unit.kind != "unit":
        return None, f"{uid} is not a US unit ({rule('6')})"
    if state.marked(ACTED, unit.id):
        return None, f"{uid} has already acted this phase: at most 1 action a unit ({rule('6')})"
    return unit, None


def _hex(state: GameState, label: object) -> tuple[Hex | None, str | None]:
    try:
        return state.board.hex_of(str(label)), None
    except Exception:
        return None, f"{label!r} is not a hex of the map"


def _only(unit: Piece, do: str) -> str | None:
    """omaha 6, 6.1: a Disrupted unit only removes its marker; a climb marker only
    continues the move or is removed."""
    if DISRUPTED in unit.status and do != "rally":
        return f"{unit.id} is Disrupted: removing the marker is its only action ({rule('6')})"
    if CLIMB in unit.status and do != "drop-climb":
        return f"{unit.id} has a climb marker: removing it is its only action ({rule('6.1')})"
    if CLIMB_CLIFF in unit.status and do not in ("move", "drop-climb"):
        return f"{unit.id} has a climb-cliff marker: it crosses the cliff or removes the marker ({rule('6.1')})"
    return None


# ------------------------------------------------------------------------- refusal


def refusal(state: GameState, action: Action) -> str | None:
    do = str(action.get("do"))
    if do == "move":
        return _move_refusal(state, action)
    if do in ("rally", "drop-climb", "climb-cliff", "establish-cp", "revert-cp"):
        return _simple_refusal(state, action)
    if do == "attack":
        return _attack_refusal(state, action)
    if do == "barrage":
        return _barrage_refusal(state, action)
    if do == "naval-barrage":
        return _naval_refusal(state, action)
    if do == "clear-obstacle":
        return _clear_refusal(state, action)
    if do == "engineer-base":
        return engineers.refusal(state, action.get("division"), action.get("to"))
    if do == "advance-cp":
        return _advance_cp_refusal(state, action)
    if do == "attack-pick":
        return _pick_refusal(state, action)
    return f"no US action {do!r} ({', '.join(ACTIONS)})"


def _move_refusal(state: GameState, action: Action) -> str | None:
    from .ruleset import step_refusal

    ids = [action.get("unit")] + ([action["with"]] if action.get("with") else [])
    to, why = _hex(state, action.get("to"))
    if why:
        return why
    assert to is not None
    units = []
    for uid in ids:
        unit, why = _unit(state, uid)
        if why:
            return why
        assert unit is not None
        if unit.type == "command-post" and not state.marked(REVERTED, unit.id):
            return f"a Command Post reverts to an HQ to move (revert-cp first, {rule('8')})"
        if (why := _only(unit, "move")) is not None:
            return why
        if (why := step_refusal(state, unit, to)) is not None:
            return f"{why} ({rule('6.1')}, {rule('9.4')})" if "omaha" not in why else why
        units.append(unit)
    if len(units) == 2:
        if units[0].hex != units[1].hex or units[0].id == units[1].id:
            return f"only 2 units stacked together move as one action ({rule('6')})"
        zone = infiltration_zone(state.map)
        if units[0].hex in zone and to in zone:
            return f"infiltrating units move one by one (a card each, {rule('6.1')})"
    return _budget_refusal(state, cost(state, units, "move", to))


def _simple_refusal(state: GameState, action: Action) -> str | None:
    do = str(action["do"])
    unit, why = _unit(state, action.get("unit"))
    if why:
        return why
    assert unit is not None
    if do == "rally":
        return None if DISRUPTED in unit.status else f"{unit.id} is not Disrupted ({rule('6')})"
    if do == "drop-climb":
        if CLIMB in unit.status or CLIMB_CLIFF in unit.status:
            return None
        return f"{unit.id} has no climb or climb-cliff marker ({rule('6.1')})"
    if do == "climb-cliff":
        if (why := _only(unit, do)) is not None:
            return why
        if unit.type not in ("infantry", "ranger"):
            return f"only infantry climbs a scaleable cliff ({rule('6.1')}, {rule('9.4')})"
        if not cliff_sides(state, unit.hex):
            return f"{unit.id} is not below a scaleable cliff hexside ({rule('6.1')})"
        return _budget_refusal(state, cost(state, [unit], do))
    if do == "establish-cp":
        if not extended(state):
            return f"Command Posts are established in the extended turns only ({rule('8')} EXT)"
        if unit.type != "hq":
            return f"only an HQ establishes a Command Post ({rule('8')})"
        if (why := _cp_exposed(state, unit.hex)) is not None:
            return why
        return None
    if do == "revert-cp":
        return None if unit.type == "command-post" else f"{unit.id} is not a Command Post ({rule('8')})"
    return None


def _pick_refusal(state: GameState, action: Action) -> str | None:
    """The attack builder: a unit joins the attack on a German hex if it may take part
    in one now (6.2, 9.8, 10); a picked unit may always be taken out."""
    target, why = _hex(state, action.get("target"))
    if why:
        return why
    assert target is not None
    label = state.board.label(target)
    if not atk.germans_at(state, target):
        return f"no German unit in {label} ({rule('6.2')})"
    if state.marked(atk.STRUCK, label) or state.marked(atk.BARRAGED, label):
        return f"{label} has been attacked or barraged this phase: no second attack ({rule('6.2')})"
    unit, why = _unit(state, action.get("unit"))
    if why:
        return why
    assert unit is not None
    if unit.id in builder.draft(state, label):
        return None
    ready = [u for u in us_units(state) if not state.marked(ACTED, u.id)]
    if unit.id not in {u.id for u in attack_party(state, target, ready)}:
        return (f"{unit.id} may not take part in an attack on {label} now: infantry adjacent, supporters in "
                f"range and command ({rule('6.2')}, {rule('9.8')}, {rule('10')})")  # fmt: skip
    return None


def _advance_cp_refusal(state: GameState, action: Action) -> str | None:
    """omaha 8: a Command Post not in the field of fire of an occupied position may
    advance. PROJECT'S CHOICE: one hex, by the HQ's 9.4 move, into a hex where it could
    be established (not in the field of an occupied or in-communication position)."""
    from .ruleset import step_refusal

    unit, why = _unit(state, action.get("unit"))
    if why:
        return why
    assert unit is not None
    if unit.type != "command-post":
        return f"{unit.id} is not a Command Post ({rule('8')})"
    if not extended(state):
        return f"Command Posts act in the extended turns only ({rule('8')} EXT)"
    to, why = _hex(state, action.get("to"))
    if why:
        return why
    assert to is not None
    board = state.board
    for key in fields.position_keys(board):
        if german.units_in(state, key) and unit.hex in german.field(board, key):
            return f"the Command Post is in the field of fire of {key}, occupied: it may not advance ({rule('8')})"
    if distance(unit.hex, to) != 1:
        return f"a Command Post advances one hex (project's choice, {rule('8')})"
    if (why := step_refusal(state, replace(unit, type="hq"), to)) is not None:
        return why
    return _cp_exposed(state, to)


def _cp_exposed(state: GameState, h: Hex) -> str | None:
    """omaha 8: not in the field of fire of an occupied or in-communication position."""
    board = state.board
    for key in fields.position_keys(board):
        if (german.units_in(state, key) or german.communicating(state, key)) and h in german.field(board, key):
            return f"{board.label(h)} is in the field of fire of {key}, occupied or in communication ({rule('8')})"
    return None


def cliff_sides(state: GameState, h: Hex) -> list[Hex]:
    board = state.board
    return [n for n in neighbors(h) if board.grid.contains(n) and "scaleable-cliff" in board.hexside_features(h, n)]


def attack_units(state: GameState, action: Action) -> tuple[list[Piece], str | None]:
    ids = action.get("units")
    if not isinstance(ids, list) or not ids:
        return [], f"an attack names its units: \"units\": [ids] ({rule('6.2')})"
    if len(set(map(str, ids))) != len(ids):
        return [], "a unit is named twice"
    out = []
    for uid in ids:
        unit, why = _unit(state, uid)
        if why:
            return [], why
        assert unit is not None
        if (why := _only(unit, "attack")) is not None:
            return [], why
        if state.map.terrain_at(unit.hex) == "sea":
            return [], f"{unit.id} is still in a Beach Landing Box ({rule('6.2')})"
        out.append(unit)
    return out, None


def _attack_refusal(state: GameState, action: Action) -> str | None:
    target, why = _hex(state, action.get("target"))
    if why:
        return why
    assert target is not None
    label = state.board.label(target)
    if state.marked(atk.STRUCK, label) or state.marked(atk.BARRAGED, label):
        return f"{label} has been attacked or barraged this phase: no second attack ({rule('6.2')})"
    units, why = attack_units(state, action)
    if why:
        return why
    a = atk.assess(state, target, units, bool(action.get("naval")))
    if a.refused:
        return a.refused
    return _budget_refusal(state, cost(state, units, "attack"))


def _barrage_refusal(state: GameState, action: Action) -> str | None:
    target, why = _hex(state, action.get("target"))
    if why:
        return why
    assert target is not None
    unit, why = _unit(state, action.get("unit"))
    if why:
        return why
    assert unit is not None
    if (why := _only(unit, "barrage")) is not None:
        return why
    label = state.board.label(target)
    if not atk.germans_at(state, target):
        return f"no German unit in {label} ({rule('6.3')})"
    if state.marked(atk.STRUCK, label):
        return f"{label} has been attacked this phase: no barrage ({rule('6.3')})"
    if unit.type == "tank":
        if not atk.tank_barrage(state, unit, target):
            return (f"{unit.id} may not barrage {label}: not adjacent, within 5 hexes, an unrevealed Reinforcement "
                    f"never; in its field of fire, or an undisrupted infantry is and the tank or it is in command "
                    f"({rule('6.3')}, {rule('10')})")  # fmt: skip
    elif unit.type == "artillery":
        if not extended(state):
            return f"artillery barrages in the extended turns only ({rule('6.4')} EXT)"
        if not atk.artillery_barrage(state, unit, target):
            return (f"{unit.id} may not barrage {label}: in command of an HQ or CP, out of an undisrupted field of "
                    f"fire unless armoured, it or an undisrupted infantry of the same HQ in the target's field of "
                    f"fire, 2-6 hexes ({rule('6.4')}, {rule('10')})")  # fmt: skip
    else:
        return f"only tanks (6.3) and artillery (6.4) barrage ({rule('6.3')})"
    return _budget_refusal(state, cost(state, [unit], "barrage"))


def _naval_refusal(state: GameState, action: Action) -> str | None:
    target, why = _hex(state, action.get("target"))
    if why:
        return why
    assert target is not None
    label = state.board.label(target)
    if state.track(atk.NAVAL + sector_of(state.board, target)) <= 0:
        return f"no naval fire marker left in the {sector_of(state.board, target)} sector this turn (gap G9, {rule('6.5')})"
    if state.marked(atk.STRUCK, label):
        return f"{label} has been attacked this phase: no barrage ({rule('6.5')})"
    if not atk.naval_barrage_ok(state, target):
        return (f"{label}: a naval barrage needs German units (not an unrevealed Reinforcement) and an undisrupted "
                f"infantry in its field of fire with a radio or in command of an HQ ({rule('6.5')})")  # fmt: skip
    return None


def obstacle_at(state: GameState, h: Hex) -> bool:
    return landing._obstacle(state, h)


def cleared_id(label: str) -> str:
    """Obstacle clearing's marker id, apart from road clearing's ``road-cleared-<hex>``
    (engineers.road_cleared_id): a hex may hold both."""
    return f"cleared-{label}"


def clear_capacity(state: GameState) -> int:
    entry = band("engineers", state.turn)
    return int(entry["hexes"]) if entry else 0


def _clear_refusal(state: GameState, action: Action) -> str | None:
    h, why = _hex(state, action.get("hex"))
    if why:
        return why
    assert h is not None
    label = state.board.label(h)
    sector = sector_of(state.board, h)
    most = clear_capacity(state)
    if most == 0:
        return f"no obstacle clearing in turn {state.turn} (turns 2-6: 2 a sector, 7-15: 1; reading A6; {rule('7')})"
    if state.track(CLEARED + sector) >= most:
        return f"the {sector} sector has cleared its {most} obstacle hex(es) this turn ({rule('7')})"
    if not obstacle_at(state, h):
        return f"{label} has no uncleared beach obstacles ({rule('7')})"
    for key in fields.position_keys(state.board):
        if german.active_units(state, key) and h in german.field(state.board, key):
            return f"{label} is in the field of fire of {key}, held by an undisrupted German unit ({rule('7')})"
    return None


# ------------------------------------------------------------------------- playing


def apply(state: GameState, action: Action, dice: Dice) -> list[str]:
    do = str(action["do"])
    if do == "move":
        return _move(state, action, dice)
    if do == "attack":
        target = state.board.hex_of(str(action["target"]))
        units, _ = attack_units(state, action)
        paid = _pay(state, cost(state, units, "attack"), units)
        builder.clear(state, state.board.label(target))
        return [*atk.resolve(state, target, units, bool(action.get("naval")), dice), f"({paid})"]
    if do == "barrage":
        unit = state.map.piece(str(action["unit"]))
        target = state.board.hex_of(str(action["target"]))
        paid = _pay(state, cost(state, [unit], do), [unit])
        why = "tank, 6.3" if unit.type == "tank" else "artillery, 6.4 EXT"
        return [*barrage(state, unit, target, dice, why), f"({paid})"]
    if do == "naval-barrage":
        return naval_barrage(state, state.board.hex_of(str(action["target"])))
    if do == "engineer-base":
        return engineers.place(state, str(action["division"]), state.board.hex_of(str(action["to"])))
    if do == "attack-pick":
        return builder.toggle(state, state.board.label(state.board.hex_of(str(action["target"]))), str(action["unit"]))
    if do == "advance-cp":
        unit = state.map.piece(str(action["unit"]))
        state.map.move(unit.id, state.board.hex_of(str(action["to"])))
        state.mark(ACTED, unit.id)
        return [f"{unit.id}: the Command Post advances to {action['to']} ({rule('8')} EXT; free)"]
    if do == "clear-obstacle":
        h = state.board.hex_of(str(action["hex"]))
        sector = sector_of(state.board, h)
        state.tracks[CLEARED + sector] += 1
        label = state.board.label(h)
        state.map.place(Piece(cleared_id(label), str(data.rules()["cleared_marker"]), h, None, kind="marker"))
        return [f"engineers clear the beach obstacles in {label} ({rule('7')}; gap G11: a free action of the {sector} sector)"]
    unit = state.map.piece(str(action["unit"]))
    if do == "revert-cp":
        state.map.update(replace(unit, type="hq"))
        state.mark(REVERTED, unit.id)
        return [f"{unit.id}: the Command Post reverts to an HQ and may move ({rule('8')})"]
    paid = _pay(state, cost(state, [unit], do), [unit])
    if do == "rally":
        with_status(state, unit, drop=DISRUPTED)
        return [f"{unit.id} removes its Disrupted marker ({rule('6')}; {paid})"]
    if do == "drop-climb":
        with_status(state, with_status(state, unit, drop=CLIMB), drop=CLIMB_CLIFF)
        return [f"{unit.id} removes its climb marker ({rule('6.1')}; {paid})"]
    if do == "climb-cliff":
        with_status(state, unit, add=CLIMB_CLIFF)
        return [f"{unit.id} takes a climb-cliff marker below the scaleable cliff ({rule('6.1')}; {paid})"]
    if do == "establish-cp":
        state.map.update(replace(unit, type="command-post"))
        return [f"{unit.id} establishes a Command Post ({rule('8')} EXT; {paid})"]
    raise ValueError(f"no US action {do!r}")


def _move(state: GameState, action: Action, dice: Dice) -> list[str]:
    board = state.board
    to = board.hex_of(str(action["to"]))
    units = [state.map.piece(str(action["unit"]))] + ([state.map.piece(str(action["with"]))] if action.get("with") else [])
    start = units[0].hex
    why_free = free_reason(state, units[0], "move", to)
    paid = _pay(state, cost(state, units, "move", to), units)
    lines: list[str] = []
    zone = infiltration_zone(state.map)
    if start in zone and to in zone and distance(start, to) >= 1:
        lost, more = infiltration(state, units[0], start, to, dice)
        lines += more
        if lost and action.get("stay"):
            return [*lines, f"{units[0].id} stays in {board.label(start)} ({rule('6.1')}; {paid})"]
        if state.where(units[0].id) is not None:
            return lines
    crossed = board.hexside_features(start, to) if distance(start, to) == 1 else set()
    for u in units:
        state.map.move(u.id, to)
        state.mark(MOVED, u.id)
        u = state.map.piece(u.id)
        if "scaleable-cliff" in crossed and CLIMB_CLIFF in u.status:
            u = with_status(state, u, drop=CLIMB_CLIFF)
            if not extended(state):
                with_status(state, u, add=CLIMB)
            lines.append(f"{u.id} crosses the scaleable cliff" + ("" if extended(state) else ": the marker flips to climb") + f" ({rule('6.1')})")
        elif "bluff" in crossed and u.type in INFANTRY_TYPES and not extended(state):
            with_status(state, u, add=CLIMB)
            lines.append(f"{u.id} crosses the bluff: climb marker placed ({rule('6.1')})")
    names = " and ".join(u.id for u in units)
    free = f" free: {why_free}" if why_free else ""
    return [f"{names} move{'s' if len(units) == 1 else ''} to {board.label(to)} ({rule('6.1')}, {rule('9.4')};{free} {paid})", *lines]


def infiltration(state: GameState, unit: Piece, start: Hex, to: Hex, dice: Dice) -> tuple[bool, list[str]]:
    """omaha 6.1: a card is drawn; the unit loses a step if the card shows its symbol and
    the position's colour (a double symbol or colour only if the position has Depth:
    project's reading of "strictly matching symbols and Depth count"); past 2 positions,
    on its symbol and either position's colour. Concentrated targets do not count."""
    from .common import lose_steps

    board = state.board
    keys = sorted(_zone_positions(state, start) | _zone_positions(state, to))
    cid = landing.draw(state, dice)
    card = data.cards()[cid]
    state.decks[landing.DECK].discard(cid)
    hit = infiltration_hit(state, card, unit, keys)
    lines = [f"{unit.id} infiltrates from {board.label(start)} to {board.label(to)} past {', '.join(keys)}: {card.words()} ({rule('6.1')})"]
    if hit:
        lines += lose_steps(state, unit, 1, f"infiltration, {rule('6.1')}")
    else:
        lines.append("  no loss")
    return hit, lines


def infiltration_hit(state: GameState, card: data.Card, unit: Piece, keys: Sequence[str]) -> bool:
    """omaha 6.1, whether the infiltration card costs a step (see ``infiltration``)."""
    sym = card.symbol(symbol(unit))
    if sym is None:
        return False
    positions = data.germans().positions
    for key in keys:
        units = german.units_in(state, key)
        colours = {german.colour(u) for u in units} or ({positions[key].colour} if key in positions else set())
        shown = [d for c in sorted(colours) if (d := card.colour(c)) is not None]
        if not shown:
            continue
        if len(keys) >= 2:
            return True
        depth = any(german.depth_of(state, u) is not None for u in units)
        if (not sym or depth) and (False in shown or depth):
            return True
    return False


def _zone_positions(state: GameState, h: Hex) -> set[str]:
    """The active positions ``h`` is adjacent to and in the field of fire of."""
    board = state.board
    out = set()
    for key in fields.position_keys(board):
        if not german.active_units(state, key):
            continue
        if h in german.field(board, key) and any(distance(h, o) == 1 for o in board.regions[key].hexes):
            out.add(key)
    return out


# ------------------------------------------------------------------------- choices


def can_act(state: GameState, unit: Piece, do: str, to: Hex | None = None) -> bool:
    if state.marked(ACTED, unit.id):
        return False
    if free_reason(state, unit, do, to) is not None:
        return True
    return state.track(ACTIONS_LEFT + sector_of(state.board, unit.hex)) > 0


def choices(state: GameState) -> list[Action]:
    """Every legal US action now (attacks: one with every unit that may take part, with
    and without naval fire)."""
    from .ruleset import step_refusal

    board = state.board
    out: list[Action] = []
    units = [u for u in us_units(state) if not state.marked(ACTED, u.id)]
    for u in units:
        for do in ("rally", "drop-climb", "climb-cliff", "establish-cp", "revert-cp"):
            a: Action = {"do": do, "unit": u.id}
            if _simple_refusal(state, a) is None:
                out.append(a)
        if _only(u, "move") is None and u.type != "command-post":
            for n in _reach(state, u):
                if step_refusal(state, u, n) is None and can_act(state, u, "move", n):
                    out.append({"do": "move", "unit": u.id, "to": board.label(n)})
    targets = sorted({p.hex for p in state.map.pieces() if p.side == "german" and p.kind == "unit"}, key=board.label)
    for t in targets:
        label = board.label(t)
        for u in units:
            if u.type in ("tank", "artillery"):
                a = {"do": "barrage", "unit": u.id, "target": label}
                if _barrage_refusal(state, a) is None:
                    out.append(a)
        party = attack_party(state, t, units)
        picked = builder.draft(state, label)
        parties = [[p.id for p in party]] if party else []
        if picked and picked not in parties:
            parties.append(picked)
        for ids in parties:
            for naval in (False, True):
                a = {"do": "attack", "target": label, "units": ids, "naval": naval}
                if _attack_refusal(state, a) is None:
                    out.append(a)
        for uid in [*picked, *(p.id for p in party if p.id not in picked)]:
            a = {"do": "attack-pick", "target": label, "unit": uid}
            if _pick_refusal(state, a) is None:
                out.append(a)
        if _naval_refusal(state, {"do": "naval-barrage", "target": label}) is None:
            out.append({"do": "naval-barrage", "target": label})
    out += _ext_choices(state, units)
    for m in state.map.pieces():
        if m.kind == "marker" and m.type == data.rules()["obstacle_marker"]:
            a = {"do": "clear-obstacle", "hex": board.label(m.hex)}
            if _clear_refusal(state, a) is None:
                out.append(a)
    return [*out, dict(END_PHASE)]


def _ext_choices(state: GameState, units: Sequence[Piece]) -> list[Action]:
    """EXT: each Division's base into every legal beach hex; CPs advancing (omaha 7, 8)."""
    if not extended(state):
        return []
    board = state.board
    out: list[Action] = []
    beach = sorted((h for h in board.grid.hexes() if state.map.terrain_at(h) == "beach"), key=board.label)
    for division in engineers.divisions():
        if state.marked(engineers.BASED, division):
            continue
        for h in beach:
            a: Action = {"do": "engineer-base", "division": division, "to": board.label(h)}
            if engineers.refusal(state, division, board.label(h)) is None:
                out.append(a)
    for u in units:
        if u.type == "command-post":
            for n in neighbors(u.hex):
                if board.grid.contains(n):
                    a = {"do": "advance-cp", "unit": u.id, "to": board.label(n)}
                    if _advance_cp_refusal(state, a) is None:
                        out.append(a)
    return out


def _reach(state: GameState, unit: Piece) -> list[Hex]:
    """The hexes a move may end in: the neighbours (a standard move is one hex), the
    whole 9.4 reach in an EXT turn (6.1 EXT speeds and must-stops)."""
    board = state.board
    if not extended(state):
        return [n for n in neighbors(unit.hex) if board.grid.contains(n)]
    from tabletop.engine.movement import plan_move

    from .movement import OmahaMovePolicy

    reach = plan_move(state.map, OmahaMovePolicy(extended=True), unit)
    return sorted((set(reach.costs) | set(reach.passed)) - {unit.hex}, key=board.label)


def attack_party(state: GameState, target: Hex, units: Sequence[Piece]) -> list[Piece]:
    """Every unit that may take part in an attack on ``target`` now (6.2): the adjacent
    infantry first, then the supporters the section 10 formulas allow."""
    ready = [u for u in units if not state.marked(ACTED, u.id) and _only(u, "attack") is None
             and u.type not in LEADERS and state.map.terrain_at(u.hex) != "sea"]  # fmt: skip
    inf = [u for u in ready if u.type in atk.INFANTRY and distance(u.hex, target) == 1
           and not atk.assault_prohibited(state, u.hex, target)]  # fmt: skip
    if not inf:
        return []
    party = list(inf)
    for u in ready:
        if u in inf or u.type in atk.INFANTRY or not atk.weapons_of(state, u, target):
            continue
        _, _, why = atk.roles(state, target, [*inf, u])
        if why is None:
            party.append(u)
    return party


def describe(action: Action) -> str | None:
    do = action.get("do")
    if do == "move":
        more = f" with {action['with']}" if action.get("with") else ""
        return f"{action.get('unit')}{more} moves to {action.get('to')}"
    if do == "attack":
        naval = " with naval fire" if action.get("naval") else ""
        return f"attack {action.get('target')} with {', '.join(map(str, action.get('units') or []))}{naval}"
    if do == "barrage":
        return f"{action.get('unit')} barrages {action.get('target')}"
    if do == "naval-barrage":
        return f"naval barrage on {action.get('target')}"
    if do == "clear-obstacle":
        return f"engineers clear the obstacles in {action.get('hex')}"
    if do == "engineer-base":
        return f"the {action.get('division')} Division's Engineer Base to {action.get('to')}"
    if do == "advance-cp":
        return f"{action.get('unit')} (Command Post) advances to {action.get('to')}"
    if do == "attack-pick":
        return f"attack builder: add {action.get('unit')} to (or take it out of) the attack on {action.get('target')}"
    if do in ("rally", "drop-climb", "climb-cliff", "establish-cp", "revert-cp"):
        words = {"rally": "removes its Disrupted marker", "drop-climb": "removes its climb marker",
                 "climb-cliff": "takes a climb-cliff marker", "establish-cp": "establishes a Command Post",
                 "revert-cp": "reverts to an HQ"}  # fmt: skip
        return f"{action.get('unit')} {words[str(do)]}"
    return None
