"""D-Day at Omaha Beach, the German side (omaha 2, 4, 5, 9.3): communication, Depth,
reinforcements, the card's event, fire by colour, off-map artillery and rallying.

Every function either answers a question about the state (who receives a Depth marker,
which positions fire, whom a position hits next and why) or carries out one logged step.
The section 3 action table of the EXT turns is in ``actions``. The tie-break chains are
the text's: Depth ``closest to a US unit -> 1-hex WN -> 2-hex WN -> Reinforcement ->
lowest ID -> lowest letter``; event reinforcements ``lowest number adjacent to a US unit
-> within 2 hexes -> anywhere``; fire ``intense -> steady -> sporadic``, then closer,
then most steps, then the player's choice (asked only when it matters).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tabletop.board import Map
from tabletop.engine.dice import Dice
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex, distance

from . import data
from .common import (
    DISRUPTED,
    GERMAN,
    GERMAN_DEAD,
    HERO,
    INSPIRED,
    LEADERS,
    POOLS,
    SECTORS,
    UNREVEALED,
    US,
    armored,
    extended,
    german_units,
    is_box,
    lose_steps,
    rule,
    sector_of,
    symbol,
    us_units,
    with_status,
)  # fmt: skip
from .control import in_communication, us_control
from .fields import Intensity, fields, position_keys
from .hidden import name_face_down, said, shown_name

COMM = "in-communication"
FIRED = "positions-fired"
HIT_PHASE = "hit-this-phase"
HITS = "hits:"
CARD = "german"  # state.hands key of the turn's card
R2, R4, R5 = rule("2"), rule("4"), rule("5")


# ------------------------------------------------------------------- positions


_AT: dict[int, tuple[Map, dict[Hex, str]]] = {}


def _position_at(board: Map) -> dict[Hex, str]:
    """hex -> position key, made once per map (a Map is not hashable)."""
    made = _AT.get(id(board))
    if made is None or made[0] is not board:
        made = _AT[id(board)] = (board, {h: k for k in position_keys(board) for h in board.regions[k].hexes})
    return made[1]


def position_of(board: Map, h: Hex) -> str | None:
    return _position_at(board).get(h)


def kind(board: Map, key: str) -> str:
    """"wn" or "reinforcement" (the map's region kinds)."""
    return "wn" if board.regions[key].kind == "german-position" else "reinforcement"


def in_buildings(state: GameState, key: str) -> bool:
    return any(state.map.terrain_at(h) == "buildings" for h in state.board.regions[key].hexes)


def units_in(state: GameState, key: str) -> list[Piece]:
    hexes = state.board.regions[key].hexes
    return [p for p in german_units(state) if p.hex in hexes]


def active_units(state: GameState, key: str) -> list[Piece]:
    return [p for p in units_in(state, key) if DISRUPTED not in p.status]


def depth_of(state: GameState, unit: Piece) -> Piece | None:
    for mid in unit.carrying:
        try:
            return state.map.piece(mid)
        except KeyError:
            continue
    return None


def info(piece: Piece) -> data.GermanUnit | None:
    return data.germans().units.get(piece.id)


def colour(piece: Piece) -> str:
    unit = info(piece)
    return unit.colour if unit is not None else ""


def position_number(key: str) -> int:
    pos = data.germans().positions.get(key)
    return pos.number if pos is not None else 0


def field(board: Map, key: str) -> dict[Hex, Intensity]:
    return dict(fields(board).by_position.get(key, {}))


def nearest_us(state: GameState, h: Hex) -> int:
    """Hexes from ``h`` to the nearest US unit on the map (a large number if none)."""
    return min((distance(h, p.hex) for p in us_units(state)), default=999)


# --------------------------------------------------------------- communication (2)


def snapshot(state: GameState) -> list[str]:
    """omaha 2: communication is established at the beginning of the German Fire phase;
    every position's, occupied or not, kept for the phase."""
    control = us_control(state.map)
    keys = [k for k in position_keys(state.board) if in_communication(state.map, k, control=control)]
    state.marks[COMM] = keys
    cut = [k for k in position_keys(state.board) if k not in keys]
    return [f"communication ({R2}): {len(keys)} positions in communication; cut off: {', '.join(cut) or 'none'}"]


def communicating(state: GameState, key: str) -> bool:
    return state.marked(COMM, key)


# --------------------------------------------------------------------- Depth (2)


def depth_candidates(state: GameState) -> list[Piece]:
    """omaha 2: German units in communication without a Depth marker, in the text's
    order: closest to a US unit -> 1-hex WN -> 2-hex WN -> Reinforcement -> lowest ID
    (no ID: 0) -> lowest letter."""
    board = state.board
    out = []
    for p in german_units(state):
        key = position_of(board, p.hex)
        if key is None or not communicating(state, key) or depth_of(state, p) is not None:
            continue
        out.append(p)
    return sorted(out, key=lambda p: depth_order(state, p))


def depth_order(state: GameState, p: Piece) -> tuple[int, int, int, str]:
    board = state.board
    key = position_of(board, p.hex) or ""
    size = len(board.regions[key].hexes) if key else 9
    rank = (0 if size == 1 else 1) if key and kind(board, key) == "wn" else 2
    return nearest_us(state, p.hex), rank, position_number(key), p.id


def pool_chain(state: GameState, key: str) -> list[str]:
    """The pools a Depth marker for a unit in ``key`` is drawn from, in order (omaha 2;
    reading A5: "->" is a fallback). "tactical" means a Tactical Reinforcement instead."""
    if kind(state.board, key) == "wn":
        return ["wn", "tactical"]
    if in_buildings(state, key):
        return ["building", "mobile"]
    return ["mobile"]


def give_depth(state: GameState, dice: Dice) -> list[str]:
    """One Depth marker to the first candidate, from the first pool with one (omaha 2)."""
    cands = depth_candidates(state)
    if not cands:
        return [f"Depth: no German unit in communication without a Depth marker ({R2})"]
    unit = cands[0]
    key = position_of(state.board, unit.hex) or ""
    why = f"closest to a US unit ({depth_order(state, unit)[0]} hexes), then position kind, ID and letter"
    for pool in pool_chain(state, key):
        if pool == "tactical":
            return [
                *said(state, unit, f"Depth for {{unit}} ({why}): the WN Depth pool is empty, a Tactical Reinforcement comes instead ({R2}, reading A5)"),
                *tactical_from_depth(state, dice, unit.hex),
            ]
        if state.box(POOLS[pool]):
            return attach_depth(state, unit, pool, dice, why)
    return said(state, unit, f"Depth for {{unit}} ({why}): its pools are empty, nothing happens ({R2})")


def attach_depth(state: GameState, unit: Piece, pool: str, dice: Dice, why: str = "") -> list[str]:
    marker = dice.pick(list(state.box(POOLS[pool])), f"a Depth marker from the {pool} Depth pool")
    state.from_box(POOLS[pool], marker.id, unit.hex)
    state.map.update(replace(state.map.piece(marker.id), status=frozenset({UNREVEALED})))
    state.map.update(replace(state.map.piece(unit.id), carrying=(marker.id,)))
    because = f" ({why})" if why else ""
    return said(state, unit, f"{{unit}} receives a hidden Depth marker from the {pool} Depth pool{because} ({R2})")


def drop_depth(state: GameState, unit: Piece) -> None:
    """A unit's Depth marker back to its pool (the unit left the map)."""
    marker = depth_of(state, unit)
    if marker is None:
        return
    pool = "wn" if marker.id.startswith("WD") else "building" if marker.id.startswith("BD") else "mobile"
    state.to_box(marker.id, POOLS[pool])


# -------------------------------------------------------------- reinforcements (2)


def empty_reinforcement_positions(state: GameState, in_comm: bool = True) -> list[str]:
    board = state.board
    return [
        k for k in position_keys(board)
        if kind(board, k) == "reinforcement" and not units_in(state, k) and (not in_comm or communicating(state, k))
    ]  # fmt: skip


def event_position(state: GameState) -> tuple[str | None, str]:
    """omaha 2, event reinforcements: the lowest-numbered empty position in communication
    adjacent to a US unit, else within 2 hexes of one, else any."""
    board = state.board
    empty = sorted(empty_reinforcement_positions(state), key=position_number)
    for most, words in ((1, "adjacent to a US unit"), (2, "within 2 hexes of a US unit")):
        near = [k for k in empty if min(nearest_us(state, h) for h in board.regions[k].hexes) <= most]
        if near:
            return near[0], f"lowest number {words}"
    return (empty[0], "lowest number in communication") if empty else (None, "no empty position in communication")


def depth_position(state: GameState, near: Hex) -> tuple[str | None, str]:
    """omaha 2, reinforcements from a WN Depth marker: the nearest empty position, then
    the one closest to a US unit, then the lowest number."""
    board = state.board
    empty = empty_reinforcement_positions(state, in_comm=False)

    def order(k: str) -> tuple[int, int, int]:
        hexes = board.regions[k].hexes
        return (min(distance(near, h) for h in hexes), min(nearest_us(state, h) for h in hexes), position_number(k))

    empty.sort(key=order)
    return (empty[0], "the nearest empty position, then closest to a US unit, then lowest number") if empty else (None, "")


def place_reinforcement(state: GameState, unit: Piece, key: str, box: str) -> Piece:
    h = min(state.board.regions[key].hexes, key=state.board.label)
    placed = state.from_box(box, unit.id, h)
    placed = replace(placed, status=frozenset({UNREVEALED}))
    state.map.update(placed)
    name_face_down(state, placed.id)
    return placed


def tactical_from_depth(state: GameState, dice: Dice, near: Hex) -> list[str]:
    if not state.box(POOLS["tactical"]):
        return [f"the Tactical pool is empty: nothing arrives ({R2})"]
    key, why = depth_position(state, near)
    if key is None:
        return [f"no empty Reinforcement position: nothing arrives ({R2})"]
    unit = dice.pick(list(state.box(POOLS["tactical"])), "a unit from the Tactical pool")
    placed = place_reinforcement(state, unit, key, POOLS["tactical"])
    return said(state, placed, f"{{unit}} from the Tactical pool, face down in {key} ({why}) ({R2})")


def event_reinforcement(state: GameState, dice: Dice) -> list[str]:
    """omaha 2: from the Tactical pool without Depth, else the Division pool with Depth."""
    key, why = event_position(state)
    if key is None:
        return [f"reinforcement event: {why}; nothing arrives ({R2})"]
    if state.box(POOLS["tactical"]):
        unit = dice.pick(list(state.box(POOLS["tactical"])), "a unit from the Tactical pool")
        placed = place_reinforcement(state, unit, key, POOLS["tactical"])
        return said(state, placed, f"reinforcement event: {{unit}} from the Tactical pool, face down in {key} ({why}) ({R2})")
    if state.box(POOLS["division"]):
        unit = dice.pick(list(state.box(POOLS["division"])), "a unit from the Division pool")
        placed = place_reinforcement(state, unit, key, POOLS["division"])
        lines = said(state, placed, f"reinforcement event: {{unit}} from the Division pool, face down in {key} ({why}) ({R2})")
        for pool in pool_chain(state, key):
            if pool in ("building", "mobile") and state.box(POOLS[pool]):
                return lines + attach_depth(state, placed, pool, dice, "arrives with Depth")
        return lines
    return [f"reinforcement event: the Tactical and Division pools are empty ({R2})"]


def kampfgruppe_meyer(state: GameState) -> list[str]:
    g = data.germans()
    if state.marked("events-done", "kampfgruppe-meyer"):
        return [f"Kampfgruppe Meyer has already come ({R2})"]
    state.mark("events-done", "kampfgruppe-meyer")
    for u in g.meyer_units:
        state.boxes.setdefault(POOLS["division"], []).append(_piece(u))
    for d in g.meyer_depth:
        state.boxes.setdefault(POOLS["mobile"], []).append(_marker(d))
    return [f"Kampfgruppe Meyer: {len(g.meyer_units)} units to the Division pool, {len(g.meyer_depth)} Depth to the Mobile Depth pool ({R2})"]


def hero(state: GameState) -> list[str]:
    """Gap G8: a hero joins an undisrupted infantry unit of the sector with the most US
    steps under intense fire (PROJECT'S CHOICE)."""
    under: dict[str, int] = {s: 0 for s in SECTORS}
    hot = _intense(state)
    for p in us_units(state):
        if p.hex in hot:
            under[sector_of(state.board, p.hex)] += p.steps
    sector = max(SECTORS, key=lambda s: (under[s], -SECTORS.index(s)))
    cands = [p for p in us_units(state) if p.type in ("infantry", "ranger") and sector_of(state.board, p.hex) == sector
             and DISRUPTED not in p.status and HERO not in p.status and INSPIRED not in p.status]  # fmt: skip
    if not cands:
        return ["hero event: no undisrupted infantry in that sector (gap G8)"]
    best = min(cands, key=lambda p: (0 if p.hex in hot else 1, -p.steps, p.id))
    with_status(state, best, add=HERO)
    return [f"hero event: a hero joins {best.id} in the {sector} sector (project's choice, gap G8)"]


def _intense(state: GameState) -> set[Hex]:
    out: set[Hex] = set()
    for k in position_keys(state.board):
        if active_units(state, k):
            out |= {h for h, i in field(state.board, k).items() if i == "intense"}
    return out


def event(state: GameState, card: data.Card, dice: Dice) -> list[str]:
    if card.event == "reinforcement":
        return event_reinforcement(state, dice)
    if card.event == "depth":
        lines = [f"Depth event: {card.count} Depth marker(s) (gap G5b)"]
        for _ in range(card.count):
            lines += give_depth(state, dice)
        return lines
    if card.event == "kampfgruppe-meyer":
        return kampfgruppe_meyer(state)
    if card.event == "hero":
        return hero(state)
    return []


# ---------------------------------------------------------------------- fire (4)


def fires(state: GameState, key: str, card: data.Card) -> tuple[bool, str]:
    """Whether position ``key`` fires on ``card`` (omaha 4) and why (not)."""
    units = active_units(state, key)
    if not units:
        return False, "no undisrupted unit"
    shown = [(u, card.colour(colour(u))) for u in units if card.colour(colour(u)) is not None]
    if not shown:
        return False, "its colour is not on the card"
    if any(d is False for _, d in shown):
        return True, f"{colour(shown[0][0])} is on the card"
    if any(depth_of(state, u) is not None for u in units_in(state, key)):
        return True, "double colour, and a unit has Depth"
    return False, "double colour on the card and no unit has Depth"


def possible_hits(state: GameState, key: str) -> int:
    """omaha 4: Depth markers + units (undisrupted), EXT x2."""
    units = active_units(state, key)
    n = len(units) + sum(1 for u in units if depth_of(state, u) is not None)
    return n * int(data.rules()["fire"]["extended_multiplier"]) if extended(state) else n


def cap_mark(state: GameState, key: str) -> str:
    """omaha 4: one step a phase; EXT one a position."""
    return f"hit-by:{key}" if extended(state) else HIT_PHASE


def targets(state: GameState, key: str, card: data.Card) -> list[tuple[tuple[int, int, int, int], Piece, str]]:
    """Every US unit position ``key`` may hit now, with its priority key (leaders last,
    intense -> steady -> sporadic, closer, most steps) and what matched."""
    board = state.board
    fire = data.rules()["fire"]
    order = list(fire["order"])
    own = board.regions[key].hexes
    cap = cap_mark(state, key)
    steps_at: dict[Hex, int] = {}
    for p in us_units(state):
        if p.type not in LEADERS:
            steps_at[p.hex] = steps_at.get(p.hex, 0) + p.steps
    out = []
    for h, intensity in field(board, key).items():
        for p in state.map.units_at(h):
            if p.side != US or state.marked(cap, p.id):
                continue
            leader = p.type in LEADERS
            if leader:
                if not card.leader_bonus or intensity not in fire["leader_fields"]:
                    continue
                match = "leader hit bonus"
            else:
                double = card.symbol(symbol(p))
                if double is not None:
                    match = "double symbol" if double else "symbol"
                elif steps_at.get(h, 0) >= int(fire["concentrated_steps"]):
                    match = "concentrated target"
                else:
                    continue
            near = min(distance(h, o) for o in own)
            out.append(((1 if leader else 0, order.index(intensity), near, -p.steps), p, f"{intensity}, {near} hexes, {match}"))
    out.sort(key=lambda t: (t[0], t[1].id))
    return out


def next_hit(state: GameState, key: str, card: data.Card) -> tuple[Piece | None, list[Piece], str]:
    """The unit the position hits next, the tied units the player chooses among (empty
    if no choice is needed) and why."""
    found = targets(state, key, card)
    if not found:
        return None, [], "no US unit it may hit"
    best = found[0][0]
    tied = [p for k, p, _ in found if k == best]
    left = state.track(HITS + key)
    why = f"{found[0][2]} ({R4} priority)"
    if len(tied) > 1 and left < len(tied):
        return tied[0], tied, why + "; tied: the player's choice"
    return tied[0], [], why


def column(state: GameState, key: str) -> str:
    """The 9.3 column: an unrevealed Reinforcement, or a WN / revealed one."""
    units = active_units(state, key)
    if kind(state.board, key) == "reinforcement" and units and all(UNREVEALED in u.status for u in units):
        return "unrevealed"
    return "wn"


def fire_results(col: str, match: bool | None, non_armored: bool) -> list[str]:
    """The 9.3 results of one hit (reading A2): the symbol row, then the single- or
    double-symbol row for a non-armoured unit. ``match``: None no symbol (a concentrated
    target or a leader), False single, True double."""
    table = data.rules()["fire_table"][col]
    out = [str(r) for r in table["symbol"]]
    if non_armored and match is not None:
        out += [str(r) for r in table["double" if match else "single"]]
    return list(dict.fromkeys(out))


def hit(state: GameState, key: str, uid: str, card: data.Card, *, col: str | None = None,
        inspire: bool = False) -> list[str]:  # fmt: skip
    """One hit of position ``key`` (or an ambush, ``col="ambush"``) on US unit ``uid``."""
    piece = state.map.piece(uid)
    col = col or column(state, key)
    state.mark(cap_mark(state, key), uid)
    if key:
        state.tracks[HITS + key] = max(0, state.track(HITS + key) - 1)
    if piece.type in LEADERS:
        return lose_steps(state, piece, 1, f"hit by {key}, {R4}")
    match = card.symbol(symbol(piece))
    non_armored = not armored(piece) or card.armour_bonus
    results = fire_results(col, match, non_armored)
    lines = [f"{key or 'ambush'} hits {uid}: 9.3 {col}, {'no symbol' if match is None else 'double' if match else 'single'}"
             f"{', armoured' if not non_armored else ''}: {', '.join(results)} ({rule('9.3')})"]  # fmt: skip
    for word in results:
        what, n = data.parse_result(word)
        if state.where(uid) is not None:
            break
        piece = state.map.piece(uid)
        if what == "steps":
            if inspire and HERO in piece.status and piece.steps <= n:
                with_status(state, piece, add=INSPIRED, drop=HERO)
                lines.append(f"{uid}: the hero is flipped to Inspired and saves the last step ({R4})")
                continue
            lines += lose_steps(state, piece, n, f"German fire, {R4}", catastrophic=True)
        elif what == "disrupted":
            with_status(state, piece, add=DISRUPTED)
            lines.append(f"{uid} is Disrupted ({rule('9.3')})")
    return lines


def needs_inspire_choice(state: GameState, key: str, uid: str, card: data.Card) -> bool:
    """A hit would take the last step of a unit with a hero: the player may flip him."""
    piece = state.map.piece(uid)
    if HERO not in piece.status or piece.type in LEADERS:
        return False
    loss = sum(n for w in fire_results(column(state, key), card.symbol(symbol(piece)), True)
               if (n := data.parse_result(w)[1]) and w.startswith("steps"))  # fmt: skip
    return piece.steps <= loss


# ------------------------------------------------------------------ artillery (5)


def observed(state: GameState, unit: data.GermanUnit, control: dict[Hex, str]) -> bool:
    """omaha 5: an Artillery Box unit is inactive once the US controls all its observers."""
    board = state.board
    return not all(all(h in control for h in board.regions[k].hexes) for k in unit.observers)


def artillery_count(state: GameState, sector: str, card: data.Card) -> tuple[int, list[str]]:
    """omaha 5: undisrupted artillery of the card's calibre in the sector's WN positions
    and in the Artillery Box (active ones)."""
    board = state.board
    names = []
    for p in german_units(state):
        u = info(p)
        key = position_of(board, p.hex)
        if u is None or u.calibre != card.calibre or DISRUPTED in p.status or key is None:
            continue
        if kind(board, key) == "wn" and sector_of(board, p.hex) == sector:
            names.append(p.id)
    control = us_control(state.map)
    for p in state.box(POOLS["artillery"]):
        u = info(p)
        if u is not None and u.calibre == card.calibre and observed(state, u, control):
            names.append(p.id)
    return len(names), names


def artillery_target(state: GameState, sector: str, card: data.Card) -> tuple[Piece | None, str]:
    """omaha 5 priority, most steps first in each class (then lowest id); none a base's
    garrison shields (omaha 7 EXT)."""
    from .engineers import garrison_spares  # engineers reads this module: imported late

    board = state.board
    infantry = set(data.rules()["infantry_types"])
    for i, cls in enumerate(data.rules()["artillery"]["priority"]):
        found = []
        for p in us_units(state):
            if p.type in LEADERS or sector_of(board, p.hex) != sector or card.symbol(symbol(p)) is None:
                continue
            if garrison_spares(state, p, "artillery"):  # omaha 7 EXT garrison
                continue
            where = "box" if is_box(board, p.hex) else "beach" if state.map.terrain_at(p.hex) == "beach" else None
            what = "infantry" if p.type in infantry else "non-infantry"
            if where == cls["where"] and what == cls["what"]:
                found.append(p)
        if found:
            best = min(found, key=lambda p: (-p.steps, p.id))
            return best, f"class {i + 1}: {cls['what']} in a {'Beach Landing Box' if cls['where'] == 'box' else 'beach hex'}, most steps ({R5})"
    return None, f"no US unit with a matching symbol in the sector's classes ({R5})"


def artillery(state: GameState, sector: str, card: data.Card) -> list[str]:
    count, names = artillery_count(state, sector, card)
    head = f"artillery, {sector} sector ({R5}): {count} undisrupted {card.calibre}mm ({', '.join(names) or 'none'}) against value {card.artillery_value}"
    if count < card.artillery_value:
        return [head + ": no fire"]
    state.mark("artillery-fired", sector)  # engineers.SHELLED: no base advance nor traffic management (omaha 7)
    target, why = artillery_target(state, sector, card)
    if target is None:
        return [head + f": fires, {why}"]
    return [head + f": fires at {target.id} ({why})",
            *lose_steps(state, target, 1, f"German artillery, {R5}", catastrophic=True)]  # fmt: skip


# ------------------------------------------------------------- clean-up (4) and set-up


def rally(state: GameState, card: data.Card) -> list[str]:
    """omaha 4: Disrupted markers come off German units whose colour is on the card."""
    done = []
    for p in german_units(state):
        if DISRUPTED in p.status and card.colour(colour(p)) is not None:
            with_status(state, p, drop=DISRUPTED)
            done.append(shown_name(state, p))
    return [f"Disrupted removed from {', '.join(done) or 'no German unit'} (colours on the card, {R4})"]


def eliminate(state: GameState, unit: Piece) -> None:
    drop_depth(state, unit)
    state.to_box(unit.id, GERMAN_DEAD)


def _piece(u: data.GermanUnit, h: Hex | None = None) -> Piece:
    return Piece(u.id, u.type, h or Hex(0, 0), GERMAN)


def _marker(u: data.GermanUnit, h: Hex | None = None) -> Piece:
    return Piece(u.id, "depth", h or Hex(0, 0), None, kind="marker", status=frozenset({UNREVEALED}))


def deploy(state: GameState) -> list[str]:
    """Put the German side of germans.yaml in play: garrisons (with their starting Depth,
    from the WN pool), the pools and the Artillery Box. Once, before turn 1."""
    g = data.germans()
    board = state.board
    wn_pool = list(g.depth.get("wn", ()))
    for key, units in g.garrisons.items():
        hexes = sorted(board.regions[key].hexes, key=board.label)
        for u in units:
            h = board.hex_of(u.hex) if u.hex else hexes[0]
            piece = _piece(u, h)
            if u.depth and wn_pool:
                d = wn_pool.pop(0)
                state.map.place(_marker(d, h))
                piece = replace(piece, carrying=(d.id,))
            state.map.place(piece)
    for pool, markers in g.depth.items():
        for d in markers:
            if pool != "wn" or d in wn_pool:
                state.boxes.setdefault(POOLS[pool], []).append(_marker(d))
    for name, units in (("tactical", g.tactical), ("division", g.division), ("artillery", g.artillery_box)):
        for u in units:
            state.boxes.setdefault(POOLS[name], []).append(_piece(u))
    return [f"German side deployed: {sum(len(v) for v in g.garrisons.values())} WN units"]


def describe_card(card_id: str) -> str:
    return data.cards()[card_id].words()


def turn_card(state: GameState) -> data.Card | None:
    held = state.hands.get(CARD) or []
    return data.cards()[held[0]] if held else None


def firing_positions(state: GameState, card: data.Card) -> list[tuple[str, bool, str]]:
    return [(k, *fires(state, k, card)) for k in position_keys(state.board)]


def summary(state: GameState) -> dict[str, Any]:
    """For the window's card panel and the tests: the card and who fires."""
    card = turn_card(state)
    if card is None:
        return {}
    return {"card": card.words(), "fires": [k for k, f, _ in firing_positions(state, card) if f]}
