"""D-Day at Omaha Beach, the German action table of the EXT turns (omaha 3).

The table is data (``rules.yaml`` ``actions_table``): the card action's row (F, O, the
star, R, M, P, A) by the position's column: a Reinforcement or WN position, unoccupied
(and in communication), occupied with no US unit in its field of fire, or occupied with
one. ``position_column`` reads a position's column from a state; ``action_for`` the
cell. Reading A9: the table is used only in turns 17-32, where ``play`` carries out a
position's action (the ruleset's EXT German phase asks each position whose colour is on
the card). FIRE, RE-SUPPLY and FIRE, PATROL, MORTAR, ARTILLERY, AMBUSH, REINFORCE,
REOCCUPY, REDEPLOY and ADVANCE (resolved after the others) are played.
"""

from __future__ import annotations

from tabletop.board import Map
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex

from . import data
from .common import DISRUPTED, POOLS, US, with_status
from .german import communicating, field, kind, units_in

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


def acts(state: GameState, key: str, card: data.Card) -> bool:
    """Project's reading of omaha 3 with 4: in an EXT turn a position acts when its colour
    is on the card: an occupied one by its units' colours (a double colour needs a Depth
    marker, as in omaha 4; Disrupted units remove the marker instead), an unoccupied one
    by the position's own colour, single or double alike."""
    from .german import colour, depth_of

    units = units_in(state, key)
    if not units:
        pos = data.germans().positions.get(key)
        return pos is not None and card.colour(pos.colour) is not None and position_column(state, key) is not None
    shown = [card.colour(colour(u)) for u in units if card.colour(colour(u)) is not None]
    if not shown:
        return False
    return any(d is False for d in shown) or any(depth_of(state, u) is not None for u in units)


def play(state: GameState, key: str, card: data.Card, dice: object) -> tuple[list[str], bool]:
    """Carry out position ``key``'s section 3 action; returns the lines and whether the
    position now fires (omaha 4 hits follow, one action each)."""
    from . import german
    from .common import rule

    state.mark(ACTED, key)
    units = units_in(state, key)
    if units and all(DISRUPTED in u.status for u in units):
        for u in units:
            with_status(state, u, drop=DISRUPTED)
        return [f"{key}: Disrupted, it removes the marker instead of acting ({rule('3')})"], False
    word = position_action(state, key, card.action)
    head = f"{key} ({position_column(state, key)}), card action {card.action}: {word} ({rule('3')})"
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
        lines = [head]
        target = next((u for u in units if german.depth_of(state, u) is None), None)
        if target is not None and german.communicating(state, key):
            for pool in german.pool_chain(state, key):
                if pool != "tactical" and state.box(POOLS[pool]):
                    lines += german.attach_depth(state, target, pool, dice, "RE-SUPPLY")  # type: ignore[arg-type]
                    break
        return lines, True
    if word == "patrol":
        return [head, *patrol(state, key)], False
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
        return [head, *redeploy(state, key)], False
    return [head], False


def _us_near(state: GameState, key: str, most: int) -> list:  # type: ignore[type-arg]
    from tabletop.hexgrid import distance

    from .common import us_units

    hexes = state.board.regions[key].hexes
    return [p for p in us_units(state) if min(distance(p.hex, h) for h in hexes) <= most]


def patrol(state: GameState, key: str) -> list[str]:
    """omaha 3 PATROL: Disrupt every US unit in the intense or steady field; if none, 1
    unit within 3 hexes (closest, then symbol, then attack strength); never leaders."""
    from tabletop.hexgrid import distance

    from .common import LEADERS, us_units

    fof = field(state.board, key)
    hit = [p for p in us_units(state) if fof.get(p.hex) in ("intense", "steady") and p.type not in LEADERS]
    if not hit:
        hexes = state.board.regions[key].hexes
        near = [p for p in _us_near(state, key, 3) if p.type not in LEADERS]
        near.sort(key=lambda p: (min(distance(p.hex, h) for h in hexes), -p.steps, p.id))
        hit = near[:1]
    for p in hit:
        with_status(state, p, add=DISRUPTED)
    return [f"PATROL disrupts {', '.join(p.id for p in hit) or 'nobody'}"]


def mortar_hexes(state: GameState, key: str) -> set:  # type: ignore[type-arg]
    """omaha 3 MORTAR ranges: 3 hexes from a Reinforcement position; from a WN, 2 toward
    draw and high ground, 5 toward beach and the pavillon next to it."""
    from tabletop.hexgrid import distance

    from .german import kind

    board = state.board
    own = board.regions[key].hexes
    out = set()
    for h in board.grid.hexes():
        d = min(distance(h, o) for o in own)
        ground = state.map.terrain_at(h)
        if kind(board, key) == "reinforcement":
            if d <= 3:
                out.add(h)
        elif (ground in ("draw", "high-ground") and d <= 2) or (ground in ("beach", "pavillon") and d <= 5):
            out.add(h)
    return out


def mortar(state: GameState, key: str, card: data.Card) -> list[str]:
    """omaha 3 MORTAR: US units with the matching symbol (most steps) lose 1 step, up to
    2 units if the position has Depth."""
    from . import german
    from .common import LEADERS, lose_steps, rule, symbol, us_units

    reach = mortar_hexes(state, key)
    units = units_in(state, key)
    most = 2 if any(german.depth_of(state, u) is not None for u in units) else 1
    found = [p for p in us_units(state) if p.hex in reach and p.type not in LEADERS and card.symbol(symbol(p)) is not None]
    found.sort(key=lambda p: (-p.steps, p.id))
    lines = [f"MORTAR ({most} unit(s) at most): {', '.join(p.id for p in found[:most]) or 'no target'}"]
    for p in found[:most]:
        lines += lose_steps(state, p, 1, f"mortar, {rule('3')}", catastrophic=True)
    return lines


def position_artillery(state: GameState, key: str, card: data.Card) -> list[str]:
    """omaha 3 ARTILLERY: a position with a 75 or 88 fires as in omaha 5."""
    from . import german
    from .common import lose_steps, rule, sector_of

    guns = [u for u in units_in(state, key) if (german.info(u) and german.info(u).calibre)]  # type: ignore[union-attr]
    if not guns:
        return ["no 75 or 88 in the position: no artillery fire"]
    sector = sector_of(state.board, guns[0].hex)
    target, why = german.artillery_target(state, sector, card)
    if target is None:
        return [why]
    return [f"artillery at {target.id} ({why})", *lose_steps(state, target, 1, f"artillery, {rule('3')}", catastrophic=True)]


def ambush(state: GameState, key: str, card: data.Card) -> list[str]:
    """omaha 3 AMBUSH (if US units in the field of fire): 1 unit of any type with the
    matching symbol, closest, then more steps; the 9.3 Ambush column."""
    from tabletop.hexgrid import distance

    from . import german
    from .common import symbol, us_units

    fof = field(state.board, key)
    hexes = state.board.regions[key].hexes
    found = [p for p in us_units(state) if p.hex in fof and card.symbol(symbol(p)) is not None]
    if not found:
        return ["AMBUSH: no US unit with a matching symbol in the field of fire"]
    found.sort(key=lambda p: (min(distance(p.hex, h) for h in hexes), -p.steps, p.id))
    return german.hit(state, key, found[0].id, card, col="ambush")


def reinforce(state: GameState, key: str, dice: object) -> list[str]:
    """omaha 3 REINFORCE (an unoccupied Reinforcement position, if US units are within 2
    hexes): a Reinforcement and a Depth marker are placed there (Tactical pool, else
    Division; PROJECT'S CHOICE, as the section 2 event)."""
    from . import german

    if not _us_near(state, key, 2):
        return ["no US unit within 2 hexes: nothing"]
    for pool in ("tactical", "division"):
        if state.box(POOLS[pool]):
            unit = dice.pick(list(state.box(POOLS[pool])), f"a unit from the {pool} pool")  # type: ignore[attr-defined]
            placed = german.place_reinforcement(state, unit, key, POOLS[pool])
            lines = [f"REINFORCE: {unit.id} from the {pool} pool, face down"]
            for dp in german.pool_chain(state, key):
                if dp != "tactical" and state.box(POOLS[dp]):
                    return lines + german.attach_depth(state, placed, dp, dice, "REINFORCE")  # type: ignore[arg-type]
            return lines
    return ["REINFORCE: the pools are empty"]


def reoccupy(state: GameState, key: str, dice: object) -> list[str]:
    """omaha 3 RE-OCCUPY: face up with a random previously eliminated WN unit without
    artillery, the hexes closest to US units first; none if the US holds a hex of it.
    PROJECT'S CHOICE: one unit for each hex of the position, while any is left."""
    from tabletop.hexgrid import distance

    from .common import GERMAN_DEAD, us_units

    board = state.board
    hexes = sorted(board.regions[key].hexes, key=board.label)
    if any(p.hex in hexes for p in us_units(state)):
        return ["a US unit holds a hex of the position: no re-occupation"]
    garrison = {u.id for units in data.germans().garrisons.values() for u in units}
    lines = []
    us = us_units(state)
    hexes.sort(key=lambda h: (min((distance(h, p.hex) for p in us), default=999), board.label(h)))
    for h in hexes:
        dead = [p for p in state.box(GERMAN_DEAD) if p.id in garrison and p.type != "german-artillery"]
        if not dead:
            break
        unit = dice.pick(dead, "an eliminated WN unit")  # type: ignore[attr-defined]
        state.from_box(GERMAN_DEAD, unit.id, h)
        lines.append(f"RE-OCCUPY: {unit.id} back in {board.label(h)}, face up")
    return lines or ["no eliminated WN unit without artillery: nothing"]


def redeploy(state: GameState, key: str) -> list[str]:
    """omaha 3 REDEPLOY: into another unoccupied position of the same sector, in
    communication, with targets; VP -> lowest ID -> more US strength; from a VP position
    only to a VP position. PROJECT'S CHOICE: Depth markers go with their units."""
    from .common import sector_of, us_units
    from .german import communicating, position_number

    board = state.board
    positions = data.germans().positions
    units = units_in(state, key)
    sector = sector_of(board, units[0].hex)
    from_vp = positions[key].vp if key in positions else False
    found = []
    for k in positions:
        hexes = board.regions[k].hexes
        if k == key or units_in(state, k) or not communicating(state, k):
            continue
        if sector_of(board, min(hexes, key=board.label)) != sector or (from_vp and not positions[k].vp):
            continue
        if any(p.hex in hexes for p in us_units(state)):
            continue
        fof = field(board, k)
        strength = sum(p.steps for p in us_units(state) if p.hex in fof)
        if strength:
            found.append(((not positions[k].vp, position_number(k), -strength), k))
    if not found:
        return ["no unoccupied position of the sector in communication with targets: nothing"]
    dest = min(found)[1]
    ends = sorted(board.regions[dest].hexes, key=board.label)
    for i, u in enumerate(units):
        h = ends[i % len(ends)]
        state.map.move(u.id, h)
        for mid in u.carrying:
            if mid in {p.id for p in state.map.pieces()}:
                state.map.move(mid, h)
    return [f"REDEPLOY: {', '.join(u.id for u in units)} to {dest} (VP, then lowest ID, then more US strength)"]


def advance_check(state: GameState, key: str) -> tuple[str | None, str]:
    """omaha 3 ADVANCE: the first position its advance arrows point to that is empty or
    US-held, if no US unit is in its field of fire, or a unit has an unrevealed Depth
    marker, or a revealed one and is of the 352nd; else None, with why."""
    from .common import us_units
    from .german import depth_of, info

    pos = data.germans().positions.get(key)
    if pos is None or not pos.advance:
        return None, "no advance arrow"
    dest = next((k for k in pos.advance if not units_in(state, k)), None)
    if dest is None:
        return None, "its arrows point at German-held positions"
    fof = field(state.board, key)
    if not any(p.hex in fof for p in us_units(state)):
        return dest, "no US unit in its field of fire"
    for u in units_in(state, key):
        marker = depth_of(state, u)
        if marker is None:
            continue
        if "unrevealed" in marker.status:
            return dest, f"{u.id} has Depth and is unrevealed"
        unit = info(u)
        if unit is not None and unit.division == 352:
            return dest, f"{u.id} has Depth, is revealed and of the 352nd"
    return None, "US units in its field of fire and no Depth that allows it"


def route(board: Map, a: Hex, b: Hex) -> list[Hex]:
    """The hexes from ``a`` (left out) to ``b``: each step to the neighbour nearest ``b``
    (ties by label). PROJECT'S CHOICE: the text draws the arrow, the map does not."""
    from tabletop.hexgrid import distance, neighbors

    out: list[Hex] = []
    h = a
    while h != b:
        h = min((n for n in neighbors(h) if board.grid.contains(n)), key=lambda n: (distance(n, b), board.label(n)))
        out.append(h)
    return out


def advance(state: GameState, key: str, card: data.Card) -> list[str]:
    """omaha 3 ADVANCE, resolved: US units on the route are Disrupted (tanks and
    infantry only with a matching symbol, every other type always; leaders never); if
    the undisrupted strength on the route (x2 in buildings and bocage) + 1 for a hero is
    7 or more the German is repulsed; otherwise 1 unit loses a step (PROJECT'S CHOICE:
    the one with the most steps), units in the destination are pushed 1 hex off the
    route, and the Germans move in with their Depth."""
    from .common import HERO, LEADERS, lose_steps, rule, symbol, us_units

    board = state.board
    dest, why = advance_check(state, key)
    if dest is None:
        return [f"{key}: no advance any more ({why})"]
    units = units_in(state, key)
    src = min((u.hex for u in units), key=board.label)
    goal = min(board.regions[dest].hexes, key=lambda h: (board.label(h)))
    path = route(board, src, goal)
    lines = [f"{key} advances toward {dest} by {', '.join(board.label(h) for h in path)} ({rule('3')})"]
    on = [p for p in us_units(state) if p.hex in path and p.type not in LEADERS]
    for p in on:
        if p.type in ("tank", "infantry", "ranger", "heavy-infantry") and card.symbol(symbol(p)) is None:
            continue
        with_status(state, p, add=DISRUPTED)
        lines.append(f"{p.id} on the route is Disrupted")
    fresh = [state.map.piece(p.id) for p in on]
    total = sum(p.steps * (2 if state.map.terrain_at(p.hex) in ("buildings", "bocage") else 1)
                for p in fresh if DISRUPTED not in p.status)  # fmt: skip
    total += 1 if any(HERO in p.status for p in fresh) else 0
    if total >= 7:
        return [*lines, f"undisrupted strength on the route {total} >= 7: the Germans are repulsed"]
    if fresh:
        hit = max(fresh, key=lambda p: (p.steps, p.id))
        lines += lose_steps(state, hit, 1, f"German advance, {rule('3')}", catastrophic=True)
    for p in [p for p in us_units(state) if p.hex in board.regions[dest].hexes]:
        away = [n for n in sorted(_around(board, p.hex), key=board.label)
                if n not in path and not any(u.side == "german" for u in state.map.units_at(n))
                and state.map.terrain_at(n) != "sea"]  # fmt: skip
        if away:
            state.map.move(p.id, away[0])
            lines.append(f"{p.id} is pushed out of the way to {board.label(away[0])}")
    ends = sorted(board.regions[dest].hexes, key=board.label)
    for i, u in enumerate(units):
        h = ends[i % len(ends)]
        state.map.move(u.id, h)
        for mid in u.carrying:
            if mid in {p.id for p in state.map.pieces()}:
                state.map.move(mid, h)
    lines.append(f"{', '.join(u.id for u in units)} advance into {dest}")
    return lines


def _around(board: Map, h: Hex) -> list[Hex]:
    from tabletop.hexgrid import neighbors

    return [n for n in neighbors(h) if board.grid.contains(n)]
