"""D-Day at Omaha Beach, the German action table of the EXT turns (omaha 3).

The table is data (``rules.yaml`` ``actions_table``): the card action's row (F, O, the
star, R, M, P, A) by the position's column: a Reinforcement or WN position, unoccupied
(and in communication), occupied with no US unit in its field of fire, or occupied with
one. ``position_column`` reads a position's column from a state; ``action_for`` the
cell. Reading A9: the table is used only in turns 17-32, where ``play`` carries out a
position's action (the ruleset's EXT German phase asks each position whose colour is on
the card). FIRE, RE-SUPPLY and FIRE, PATROL, MORTAR, ARTILLERY, AMBUSH, REINFORCE,
RE-OCCUPY, REDEPLOY and ADVANCE (resolved after the others) are played as the text's
bullets say; what they leave open is the project's choice, in ``rules.yaml``
``actions`` (shown in the rules panel).
"""

from __future__ import annotations

from typing import Any

from tabletop.board import Map
from tabletop.engine.dice import Dice
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance, neighbors

from . import data, engineers, german
from .common import (
    DISRUPTED,
    GERMAN_DEAD,
    HERO,
    LEADERS,
    POOLS,
    UNREVEALED,
    US,
    lose_steps,
    rule,
    sector_of,
    symbol,
    us_units,
    with_status,
)  # fmt: skip
from .german import communicating, field, kind, units_in
from .hidden import said, shown_name

COLUMNS = ("unoccupied", "no-target", "target")


def action_for(card_action: str, position_kind: str, column: str) -> str:
    """The section 3 cell: e.g. ("R", "reinforcement", "target") -> "resupply-and-fire";
    "none" is the table's empty set. KeyError/ValueError for a row or column it lacks."""
    row = data.rules()["actions_table"][card_action]
    return str(row[position_kind][COLUMNS.index(column)])


def position_column(state: GameState, key: str) -> str | None:
    """The column of position ``key`` now; None for an unoccupied position out of
    communication (it takes no action) or one held by Disrupted units, which remove the
    marker instead (omaha 3)."""
    units = units_in(state, key)
    if not units:
        return "unoccupied" if communicating(state, key) else None
    if all(DISRUPTED in u.status for u in units):
        return None
    fof = field(state.board, key)
    seen = any(p.side == US and p.kind == "unit" and p.hex in fof for p in state.map.pieces())
    return "target" if seen else "no-target"


def position_action(state: GameState, key: str, card_action: str) -> str:
    column = position_column(state, key)
    if column is None:
        return "none"
    return action_for(card_action, kind(state.board, key), column)


# ----------------------------------------------------------- playing the actions (EXT)

ACTED = "positions-acted"
ADVANCING = "positions-advancing"  # ADVANCE is resolved after every other action
R3 = rule("3")


def cfg() -> Any:
    """rules.yaml ``actions``: the project's choices where section 3 is silent."""
    return data.rules()["actions"]


def acts(state: GameState, key: str, card: data.Card) -> bool:
    """Project's reading of omaha 3 with 4: in an EXT turn a position acts when its colour
    is on the card: an occupied one by its units' colours (a double colour needs a Depth
    marker, as in omaha 4, except for RE-SUPPLY, which acts "even if Depth is required";
    Disrupted units remove the marker instead), an unoccupied one by the position's own
    colour, single or double alike (omaha 3)."""
    units = units_in(state, key)
    if not units:
        pos = data.germans().positions.get(key)
        return pos is not None and card.colour(pos.colour) is not None and position_column(state, key) is not None
    shown = [card.colour(german.colour(u)) for u in units if card.colour(german.colour(u)) is not None]
    if not shown:
        return False
    if position_action(state, key, card.action) == "resupply-and-fire":
        return True
    return any(d is False for d in shown) or any(german.depth_of(state, u) is not None for u in units)


def play(state: GameState, key: str, card: data.Card, dice: Dice) -> tuple[list[str], bool]:
    """Carry out position ``key``'s section 3 action; returns the lines and whether the
    position now fires (omaha 4 hits follow, one action each)."""
    state.mark(ACTED, key)
    units = units_in(state, key)
    if units and all(DISRUPTED in u.status for u in units):
        for u in units:
            with_status(state, u, drop=DISRUPTED)
        return [f"{key}: Disrupted, it removes the marker instead of acting ({R3})"], False
    word = position_action(state, key, card.action)
    head = f"{key} ({position_column(state, key)}), card action {card.action}: {word} ({R3})"
    if word in ("advance", "advance-or-fire"):
        dest, why = advance_check(state, key)
        if dest is not None:
            state.mark(ADVANCING, key)
            return [head + f": will advance to {dest} after the other actions ({why})"], False
        if word == "advance-or-fire":
            return [head + f": no advance ({why}), it fires"], True
        return [head + f": no advance ({why})"], False
    if word == "fire":
        return [head], True
    if word == "resupply-and-fire":
        return [head, *resupply(state, key, dice)], True
    if word == "patrol":
        return [head, *patrol(state, key, card)], False
    if word == "mortar":
        return [head, *mortar(state, key, card)], False
    if word == "artillery":
        return [head, *position_artillery(state, key, card)], False
    if word.startswith("ambush"):
        return [head, *ambush(state, key, card)], False
    if word.startswith("reinforce"):
        return [head, *reinforce(state, key, dice)], False
    if word == "reoccupy":
        return [head, *reoccupy(state, key, dice)], False
    if word == "redeploy":
        return [head, *redeploy(state, key, dice)], False
    return [head], False


def _hexes_from(state: GameState, key: str, h: Hex) -> int:
    return min(distance(h, o) for o in state.board.regions[key].hexes)


def _us_near(state: GameState, key: str, most: int) -> list[Piece]:
    return [p for p in us_units(state) if _hexes_from(state, key, p.hex) <= most]


def resupply(state: GameState, key: str, dice: Dice) -> list[str]:
    """omaha 3 RE-SUPPLY: a Depth marker is added if the position is in communication
    (to its first unit without one, from the position's pool chain of omaha 2)."""
    if not communicating(state, key):
        return [f"RE-SUPPLY: {key} is not in communication, no Depth marker ({R3})"]
    target = next((u for u in units_in(state, key) if german.depth_of(state, u) is None), None)
    if target is None:
        return [f"RE-SUPPLY: every unit of {key} has a Depth marker already ({R3})"]
    for pool in german.pool_chain(state, key):
        if pool != "tactical" and state.box(POOLS[pool]):
            return german.attach_depth(state, target, pool, dice, "RE-SUPPLY")
    return [f"RE-SUPPLY: the {'/'.join(german.pool_chain(state, key))} Depth pool is empty ({R3})"]


def patrol(state: GameState, key: str, card: data.Card) -> list[str]:
    """omaha 3 PATROL: Disrupt every US unit in the intense or steady field; if none, 1
    unit within 3 hexes: closest, then a matching symbol, then attack strength (steps,
    gap G4); never HQs or Generals."""
    fof = field(state.board, key)
    hit = [p for p in us_units(state) if fof.get(p.hex) in ("intense", "steady") and p.type not in LEADERS]
    why = "in its intense or steady field of fire"
    if not hit:
        near = [p for p in _us_near(state, key, int(cfg()["patrol_range"])) if p.type not in LEADERS]
        near.sort(key=lambda p: (_hexes_from(state, key, p.hex), card.symbol(symbol(p)) is None, -p.steps, p.id))
        hit = near[:1]
        why = "none in its intense or steady field: the closest within 3 hexes, then symbol, then strength"
    for p in hit:
        with_status(state, p, add=DISRUPTED)
    return [f"PATROL disrupts {', '.join(p.id for p in hit) or 'nobody'} ({why}, {R3})"]


def _next_to_beach(state: GameState, h: Hex) -> bool:
    return any(state.board.grid.contains(n) and state.map.terrain_at(n) == "beach" for n in neighbors(h))


def mortar_hexes(state: GameState, key: str) -> set[Hex]:
    """omaha 3 MORTAR ranges: 3 hexes from a Reinforcement position; from a WN, 2 toward
    draw and high ground hexes, 5 toward beach hexes and the pavillon hexes next to the
    beach ("adjacent pavillon")."""
    board = state.board
    ranges = cfg()["mortar"]
    out = set()
    for h in board.grid.hexes():
        d = _hexes_from(state, key, h)
        ground = state.map.terrain_at(h)
        if kind(board, key) == "reinforcement":
            if d <= int(ranges["reinforcement"]):
                out.add(h)
        elif ground in ("draw", "high-ground"):
            if d <= int(ranges["wn_inland"]):
                out.add(h)
        elif (ground == "beach" or (ground == "pavillon" and _next_to_beach(state, h))) and d <= int(ranges["wn_beach"]):
            out.add(h)
    return out


def mortar(state: GameState, key: str, card: data.Card) -> list[str]:
    """omaha 3 MORTAR: US units (most steps) with the matching symbol lose 1 step, up to
    2 units if the position has Depth. The hexes in range count as its steady field:
    leaders only with the leader hit bonus (omaha 4), never here as they bear no
    symbol; the omaha 4 loss cap of 1 step a phase (EXT: a position) holds."""
    reach = mortar_hexes(state, key)
    most = 2 if any(german.depth_of(state, u) is not None for u in units_in(state, key)) else 1
    cap = german.cap_mark(state, key)
    found = [p for p in us_units(state) if p.hex in reach and p.type not in LEADERS
             and card.symbol(symbol(p)) is not None and not state.marked(cap, p.id)
             and not engineers.garrison_spares(state, p, "mortar")]  # fmt: skip
    found.sort(key=lambda p: (-p.steps, p.id))
    lines = [f"MORTAR ({most} unit(s) at most, {'Depth' if most == 2 else 'no Depth'}): "
             f"{', '.join(p.id for p in found[:most]) or 'no target with a matching symbol in range'} ({R3})"]  # fmt: skip
    for p in found[:most]:
        state.mark(cap, p.id)
        lines += lose_steps(state, p, 1, f"mortar, {R3}", catastrophic=True)
    return lines


def position_artillery(state: GameState, key: str, card: data.Card) -> list[str]:
    """omaha 3 ARTILLERY: a position with a 75 or 88 gun (undisrupted) conducts an
    artillery fire "as previously described": omaha 5 for its sector (the card's
    calibre counted in the sector's WNs and the Artillery Box against its value; the
    omaha 5 target priority)."""
    guns = [u for u in units_in(state, key) if DISRUPTED not in u.status and (info := german.info(u)) and info.calibre]
    if not guns:
        return [f"no undisrupted 75 or 88 in {key}: no artillery fire ({R3})"]
    sector = sector_of(state.board, guns[0].hex)
    return [f"{key} calls the artillery of the {sector} sector ({R3}, as {rule('5')})",
            *german.artillery(state, sector, card)]  # fmt: skip


def ambush(state: GameState, key: str, card: data.Card) -> list[str]:
    """omaha 3 AMBUSH (an unoccupied Reinforcement position, if US units are in its
    field of fire): 1 unit of any type with the matching symbol, closest, then more
    steps; 9.3 Ambush column."""
    fof = field(state.board, key)
    cap = german.cap_mark(state, key)
    found = [p for p in us_units(state) if p.hex in fof and card.symbol(symbol(p)) is not None and not state.marked(cap, p.id)]
    if not found:
        return [f"AMBUSH: no US unit with a matching symbol in the field of fire ({R3})"]
    found.sort(key=lambda p: (_hexes_from(state, key, p.hex), -p.steps, p.id))
    return [f"AMBUSH from {key}: {found[0].id} (closest, then more steps, {R3})",
            *german.hit(state, key, found[0].id, card, col="ambush")]  # fmt: skip


def reinforce(state: GameState, key: str, dice: Dice) -> list[str]:
    """omaha 3 REINFORCE (an unoccupied Reinforcement position in communication, if US
    units are within 2 hexes, the table's condition): if it is a VP position or US
    units are in its intense or steady field, a Reinforcement and a Depth marker are
    placed there, face down. PROJECT'S CHOICE (rules.yaml ``actions``): the unit from
    the Tactical pool, else the Division pool; the Depth from the position's pool chain."""
    if not _us_near(state, key, int(cfg()["reinforce_range"])):
        return [f"REINFORCE: no US unit within 2 hexes: nothing ({R3})"]
    pos = data.germans().positions.get(key)
    fof = field(state.board, key)
    hot = [p for p in us_units(state) if fof.get(p.hex) in ("intense", "steady")]
    if not (pos is not None and pos.vp) and not hot:
        return [f"REINFORCE: {key} is not a VP position and no US unit is in its intense or steady field: nothing ({R3})"]
    why = "a VP position" if pos is not None and pos.vp else f"US units in its field ({', '.join(p.id for p in hot)})"
    for pool in cfg()["reinforce_pools"]:
        if state.box(POOLS[pool]):
            unit = dice.pick(list(state.box(POOLS[pool])), f"a unit from the {pool} pool")
            placed = german.place_reinforcement(state, unit, key, POOLS[pool])
            lines = said(state, placed, f"REINFORCE ({why}): {{unit}} from the {pool} pool, face down in {key} ({R3})")
            for dp in german.pool_chain(state, key):
                if dp != "tactical" and state.box(POOLS[dp]):
                    return lines + german.attach_depth(state, placed, dp, dice, "REINFORCE")
            chain = "/".join(german.pool_chain(state, key))
            return [*lines, f"no Depth marker left in the {chain} pool ({R3})"]
    return [f"REINFORCE: the Tactical and Division pools are empty ({R3})"]


def reoccupy(state: GameState, key: str, dice: Dice) -> list[str]:
    """omaha 3 RE-OCCUPY: the position is occupied face up by random previously
    eliminated WN unit(s) without artillery (no 75 or 88), the hexes closest to US
    units first; none if a US unit occupies a hex of a 2-hex WN. PROJECT'S CHOICE
    (rules.yaml ``actions``): one unit for each hex of the position, while any is left."""
    board = state.board
    hexes = sorted(board.regions[key].hexes, key=board.label)
    if any(p.hex in hexes for p in us_units(state)):
        return [f"a US unit holds a hex of {key}: no re-occupation ({R3})"]
    garrison = {u.id for units in data.germans().garrisons.values() for u in units}
    lines = []
    us = us_units(state)
    hexes.sort(key=lambda h: (min((distance(h, p.hex) for p in us), default=999), board.label(h)))
    for h in hexes[: int(cfg()["reoccupy_per_hex"]) * len(hexes)]:
        dead = [p for p in state.box(GERMAN_DEAD) if p.id in garrison and not (german.info(p) and german.info(p).calibre)]  # type: ignore[union-attr]
        if not dead:
            break
        unit = dice.pick(dead, "an eliminated WN unit")
        placed = state.from_box(GERMAN_DEAD, unit.id, h)
        state.map.update(Piece(placed.id, placed.type, h, placed.side))  # face up, no marker
        lines.append(f"RE-OCCUPY: {unit.id} back in {board.label(h)} of {key}, face up (closest to US units first, {R3})")
    return lines or [f"RE-OCCUPY: no eliminated WN unit without artillery: nothing ({R3})"]


def right_pool(state: GameState, key: str) -> str:
    """The Depth pool a unit in position ``key`` draws from (omaha 2): WN, Building (a
    Reinforcement position in buildings) or Mobile."""
    if kind(state.board, key) == "wn":
        return "wn"
    return "building" if german.in_buildings(state, key) else "mobile"


def pool_of_marker(marker_id: str) -> str:
    return {"WD": "wn", "BD": "building"}.get(marker_id[:2], "mobile")


def swap_depth(state: GameState, unit: Piece, key: str, dice: Dice) -> list[str]:
    """omaha 3 REDEPLOY and ADVANCE: "if possible, swap Depth markers with the pool to
    have the correct Building or Mobile marker" for a unit now in ``key``. A revealed
    marker comes back hidden (PROJECT'S CHOICE: a fresh one from the pool)."""
    marker = german.depth_of(state, unit)
    if marker is None:
        return []
    want = right_pool(state, key)
    have = pool_of_marker(marker.id)
    if have == want:
        return []
    if not state.box(POOLS[want]):
        return said(state, unit, f"{{unit}} keeps its {have} Depth marker: the {want} Depth pool is empty ({R3})")
    state.to_box(marker.id, POOLS[have])
    state.map.update(replace_carrying(state.map.piece(unit.id), ()))
    lines = german.attach_depth(state, state.map.piece(unit.id), want, dice, f"swapped for its {have} marker")
    return lines


def replace_carrying(p: Piece, carrying: tuple[str, ...]) -> Piece:
    return Piece(p.id, p.type, p.hex, p.side, p.kind, p.level, p.facing, p.status, p.steps, carrying, p.attributes)


def _move_in(state: GameState, units: list[Piece], dest: str, dice: Dice) -> list[str]:
    """Move German units (with their Depth markers) into ``dest``, then swap their
    Depth for the right kind (omaha 3). The units have acted: ``dest`` takes no action
    of its own this phase."""
    board = state.board
    state.mark(ACTED, dest)
    ends = sorted(board.regions[dest].hexes, key=board.label)
    lines: list[str] = []
    on_map = {p.id for p in state.map.pieces()}
    for i, u in enumerate(units):
        h = ends[i % len(ends)]
        state.map.move(u.id, h)
        for mid in u.carrying:
            if mid in on_map:
                state.map.move(mid, h)
        lines += swap_depth(state, state.map.piece(u.id), dest, dice)
    return lines


def redeploy(state: GameState, key: str, dice: Dice) -> list[str]:
    """omaha 3 REDEPLOY: into another unoccupied position of the same sector, in
    communication, with targets (US units in its field of fire); VP -> lowest ID ->
    more US strength (in its field); a unit in a VP position only to a VP position;
    Depth markers swapped for the right Building or Mobile kind if possible."""
    board = state.board
    positions = data.germans().positions
    units = units_in(state, key)
    sector = sector_of(board, units[0].hex)
    from_vp = positions[key].vp if key in positions else False
    found = []
    for k, pos in positions.items():
        hexes = board.regions[k].hexes
        if k == key or units_in(state, k) or not communicating(state, k):
            continue
        if sector_of(board, min(hexes, key=board.label)) != sector or (from_vp and not pos.vp):
            continue
        if any(p.hex in hexes for p in us_units(state)):
            continue
        fof = field(board, k)
        strength = sum(p.steps for p in us_units(state) if p.hex in fof)
        if strength:
            found.append(((not pos.vp, pos.number, pos.id, -strength), k))
    if not found:
        return [f"REDEPLOY: no unoccupied position of the sector in communication with targets"
                f"{' (from a VP position: VP positions only)' if from_vp else ''}: nothing ({R3})"]  # fmt: skip
    dest = min(found)[1]
    names = ", ".join(shown_name(state, u) for u in units)
    return [f"REDEPLOY: {names} from {key} to {dest} (VP, then lowest ID, then more US strength, {R3})",
            *_move_in(state, units, dest, dice)]  # fmt: skip


def _may_advance(state: GameState, u: Piece, targets: bool) -> str | None:
    """Why German unit ``u`` may advance (omaha 3), or None."""
    if not targets:
        return "no US unit in its field of fire"
    if german.depth_of(state, u) is None:
        return None
    if UNREVEALED in u.status:
        return "it has a Depth marker and is unrevealed"
    unit = german.info(u)
    if unit is not None and unit.division == 352:
        return "it has a Depth marker, is revealed and of the 352nd"
    return None


def advancing_units(state: GameState, key: str) -> tuple[list[Piece], str]:
    """The units of ``key`` that may advance and why (omaha 3: "the german unit" has a
    Depth marker and ...: judged unit by unit; Disrupted units stay)."""
    fof = field(state.board, key)
    targets = any(p.hex in fof for p in us_units(state))
    out, whys = [], []
    for u in units_in(state, key):
        why = _may_advance(state, u, targets) if DISRUPTED not in u.status else None
        if why is not None:
            out.append(u)
            whys.append(why)
    return out, (whys[0] if whys else "US units in its field of fire and no unit with Depth that may advance")


def advance_check(state: GameState, key: str) -> tuple[str | None, str]:
    """omaha 3 ADVANCE: the first position its advance arrows point to that is empty or
    US-occupied (no German unit), if some unit of the position may advance; else None,
    with why."""
    pos = data.germans().positions.get(key)
    if pos is None or not pos.advance:
        return None, "no advance arrow"
    dest = next((k for k in pos.advance if not units_in(state, k)), None)
    if dest is None:
        return None, "its arrows point at German-held positions"
    units, why = advancing_units(state, key)
    return (dest, why) if units else (None, why)


def route(board: Map, a: Hex, b: Hex) -> list[Hex]:
    """The hexes from ``a`` (left out) to ``b`` (included): each step to the neighbour
    nearest ``b`` (ties by label). PROJECT'S CHOICE: the text draws the arrow, the map
    does not."""
    out: list[Hex] = []
    h = a
    while h != b:
        h = min((n for n in neighbors(h) if board.grid.contains(n)), key=lambda n: (distance(n, b), board.label(n)))
        out.append(h)
    return out


def _disrupted_on_route(p: Piece, card: data.Card) -> bool:
    """omaha 3 ADVANCE: tanks and infantry only with a matching symbol, every other
    type of US unit always (HQs and Generals among them: the text excepts them from
    PATROL, not here)."""
    if p.type in cfg()["advance_symbol_types"]:
        return card.symbol(symbol(p)) is not None
    return True


def advance(state: GameState, key: str, card: data.Card, dice: Dice) -> list[str]:
    """omaha 3 ADVANCE, resolved after the other actions: if the route is not empty, its
    US units are Disrupted (``_disrupted_on_route``); if the undisrupted strength on the
    route (x2 in buildings and bocage) + 1 for a hero is 7 or more the German is
    repulsed; otherwise 1 unit loses a step (PROJECT'S CHOICE: the one with the most
    steps), units in the destination are moved 1 hex out of the route, and the Germans
    advance into the destination, their Depth swapped for the right kind."""
    board = state.board
    dest, why = advance_check(state, key)
    if dest is None:
        return [f"{key}: no advance any more ({why}, {R3})"]
    units, _ = advancing_units(state, key)
    src = min((u.hex for u in units), key=board.label)
    goal = min(board.regions[dest].hexes, key=lambda h: (distance(src, h), board.label(h)))
    path = route(board, src, goal)
    names = ", ".join(shown_name(state, u) for u in units)
    lines = [f"{names} of {key} advance toward {dest} ({why}) by {', '.join(board.label(h) for h in path)} ({R3})"]
    on = [p for p in us_units(state) if p.hex in path]
    for p in on:
        if _disrupted_on_route(p, card) and DISRUPTED not in p.status:
            with_status(state, p, add=DISRUPTED)
            lines.append(f"{p.id} on the route is Disrupted ({R3})")
    fresh = [state.map.piece(p.id) for p in on if p.type not in LEADERS]
    total = sum(p.steps * (2 if state.map.terrain_at(p.hex) in cfg()["advance_double_ground"] else 1)
                for p in fresh if DISRUPTED not in p.status)  # fmt: skip
    total += 1 if any(HERO in p.status for p in state.map.pieces() if p.hex in path) else 0
    if on and total >= int(cfg()["advance_repulse"]):
        return [*lines, f"undisrupted strength on the route {total} >= {cfg()['advance_repulse']}: the Germans are repulsed ({R3})"]
    if fresh:
        hit = max(fresh, key=lambda p: (p.steps, p.id))
        lines.append(f"undisrupted strength on the route {total} < {cfg()['advance_repulse']}: {hit.id} loses a step (the most steps, project's choice)")
        lines += lose_steps(state, hit, 1, f"German advance, {R3}", catastrophic=True)
    for p in [p for p in us_units(state) if p.hex in board.regions[dest].hexes]:
        away = [n for n in sorted(_around(board, p.hex), key=board.label)
                if n not in path and not any(u.side == "german" for u in state.map.units_at(n))
                and state.map.terrain_at(n) != "sea"]  # fmt: skip
        if away:
            state.map.move(p.id, away[0])
            lines.append(f"{p.id} is moved 1 hex out of the route of advance, to {board.label(away[0])} ({R3})")
    lines += _move_in(state, units, dest, dice)
    lines.append(f"{names} advance into {dest} ({R3})")
    return lines


def _around(board: Map, h: Hex) -> list[Hex]:
    return [n for n in neighbors(h) if board.grid.contains(n)]
