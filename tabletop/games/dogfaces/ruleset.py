"""Dogfaces in Space as a rule system the engine plays: the turn of IV, the set-up of III,
movement (V, with ``movement``), Overwatch as a reaction inside the enemy's move (V),
the Attack phase (VI, with ``combat``), stun recovery (IV.5, II) and victory (VII).

State kept (all plain data, saved with the game):
- ``tracks``: ``player1`` (0 blue, 1 red: who is Player 1, IV; G-D3), ``resolved``
  (this Attack phase's attacks are rolled), ``recovered`` (stun recovery done),
  ``surrendered-SIDE``;
- ``marks``: ``moved`` (units that moved or went into Overwatch this phase), ``shots``
  (attacks declared this phase, ``piece|weapon|target|splash``), ``ow-fired`` (units
  that shot in Overwatch: no shot in their next Attack phase), ``path``/``mover`` (a
  move applied hex by hex, so Overwatch can fire at any hex of it), ``aboard``
  (soldiers that began the Movement phase in an LCV's hex);
- unit status words ``stunned`` and ``overwatch``; attribute ``rockets`` (Tom, II);
- box ``ooc``: soldiers Out of Combat (G-D6: off the map).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from typing import Any

from tabletop.board import Map
from tabletop.engine.actions import END_PHASE, Action, Where
from tabletop.engine.attributes import pairs
from tabletop.engine.dice import Dice
from tabletop.engine.game import Phase
from tabletop.engine.los import LosQuery, line_of_sight
from tabletop.engine.movement import Reach, plan_move
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.engine.wordhooks import WordsFromModule
from tabletop.hexgrid import Hex, distance, neighbors

from . import combat
from .data import Roster, Soldier, Weapon, roster
from .los import DogfacesPolicy
from .movement import DogfacesMovePolicy, default_table, jet_pack_targets, unit_type

GAME = "Dogfaces"
BLUE, RED = "blue", "red"
SIDES = (BLUE, RED)
SEQUENCE = (
    Phase("p1-move", "Player 1 Movement Phase", "auto", f"{GAME} IV.1, V"),
    Phase("p1-attack", "Player 1 Attack Phase", "auto", f"{GAME} IV.2, VI"),
    Phase("p2-move", "Player 2 Movement Phase", "auto", f"{GAME} IV.3, V"),
    Phase("p2-attack", "Player 2 Attack Phase", "auto", f"{GAME} IV.4, VI"),
    Phase("stun", "Stun Recovery Phase", "auto", f"{GAME} IV.5"),
    Phase("victory", "Victory Phase", "auto", f"{GAME} IV.6, VII"),
)
MOVE_PHASES = {"p1-move": 1, "p2-move": 2}
ATTACK_PHASES = {"p1-attack": 1, "p2-attack": 2}
OOC = "ooc"
EDGES = "edges"  # marks: the scenario's first and second set-up edge (regions)
ROSTER = "roster"  # the scenario's box of every soldier a side has (III takes the teams asked)
STUNNED, OVERWATCH = "stunned", "overwatch"
ROCKETS = "rockets"
OPTIONS: dict[str, tuple[Any, ...]] = {
    "teams": (2, 3, 4, 5),
    "foxtrot": (False, True),
    "player1": ("roll", BLUE, RED),
    "tom-both-weapons": (False, True),
    "edges": ("fixed", "roll"),
}


def other(side: str) -> str:
    return RED if side == BLUE else BLUE


@cache
def _move_policy() -> DogfacesMovePolicy:
    return DogfacesMovePolicy()


@cache
def _los_policy() -> DogfacesPolicy:
    return DogfacesPolicy()


_sight: dict[int, tuple[weakref.ref[Map], dict[tuple[Hex, Hex], bool]]] = {}  # per live map
_reaches: dict[tuple[int, Piece], Reach] = {}


def reach_of(state: MapState, piece: Piece) -> Reach:
    """The unit's walk (V), worked out once per map state: the bot, the refusal and the
    move itself ask the same question (``MapState.version`` is unique per change)."""
    key = (state.version, piece)
    found = _reaches.get(key)
    if found is None:
        if len(_reaches) > 2000:
            _reaches.clear()
        found = _reaches[key] = plan_move(state, _move_policy(), piece)
    return found


def sees(state: MapState, a: Hex, b: Hex) -> bool:
    """Whether a shot from ``a`` to ``b`` is not blocked (V: forest limits range to 2).
    Cached per map: only terrain touches the line in this game (los.py)."""
    if distance(a, b) <= 2:
        return True
    if state.terrain_overrides():
        return line_of_sight(state, _los_policy(), LosQuery(a, b)).result != "blocked"
    board = state.board
    entry = _sight.get(id(board))
    if entry is None or entry[0]() is not board:  # a new map, or another at a reused id
        entry = _sight[id(board)] = (weakref.ref(board), {})
    known = entry[1]
    seen = known.get((a, b))
    if seen is None:
        seen = known[(a, b)] = line_of_sight(state, _los_policy(), LosQuery(a, b)).result != "blocked"
    return seen


# --- who is who ---------------------------------------------------------------------------


_soldiers: dict[str, Soldier] = {}


def soldier(piece: Piece) -> Soldier:
    """The roster entry of a unit, by its type (looked up once per type)."""
    found = _soldiers.get(piece.type)
    if found is None:
        found = _soldiers[piece.type] = roster().soldier(piece)
    return found


def units(state: GameState, side: str | None = None) -> list[Piece]:
    """The side's units on the map (OOC soldiers are off it)."""
    return [p for p in state.map.pieces() if p.kind == "unit" and (side is None or p.side == side)]


def phase_side(state: GameState) -> str | None:
    """The side whose Movement or Attack phase this is."""
    n = MOVE_PHASES.get(state.phase) or ATTACK_PHASES.get(state.phase)
    if n is None:
        return None
    first = SIDES[state.track("player1")]
    return first if n == 1 else other(first)


def is_vehicle(piece: Piece) -> bool:
    return soldier(piece).has("vehicle")


def aboard(state: GameState, piece: Piece) -> bool:
    """A soldier in the hex of a friendly LCV is riding it (II Foxtrot)."""
    if is_vehicle(piece):
        return False
    return any(
        p.side == piece.side and soldier(p).has("carrier")
        for p in state.map.units_at(piece.hex)
        if p.id != piece.id
    )


def leader_number(state: GameState, piece: Piece) -> int | None:
    """The best Leadership Benefit ``piece`` is within (the lowest recovery roll), from
    a friendly leader that is not Stunned, himself included (II); vehicles give theirs
    to adjacent soldiers (II Foxtrot). None: no Benefit."""
    best: int | None = None
    for p in units(state, piece.side):
        lead = soldier(p).leader
        if lead is None or p.has(STUNNED) or distance(p.hex, piece.hex) > lead.range:
            continue
        if is_vehicle(p) and p.id == piece.id:
            continue  # a vehicle's Benefit goes to adjacent soldiers
        best = lead.recovers if best is None else min(best, lead.recovers)
    return best


# --- weapons and shots ---------------------------------------------------------------------


def find(state: GameState, piece_id: str) -> Piece:
    """A unit on the map or in the OOC box (a shooter put out by a friend's splash)."""
    if state.where(piece_id) is None:
        return state.map.piece(piece_id)
    return next(p for p in state.box(OOC) if p.id == piece_id)


def weapons_of(piece: Piece) -> tuple[Weapon, ...]:
    r = roster()
    return tuple(r.weapons[w] for w in soldier(piece).weapons)


def _shots(state: GameState) -> list[tuple[str, int, str, str]]:
    out = []
    for s in state.marks.get("shots", []):
        piece, idx, target, splash = s.split("|")
        out.append((piece, int(idx), target, splash))
    return out


def rockets_left(piece: Piece) -> int:
    """Tom's rockets left (II: 3 a game), the count his counter carries."""
    value = piece.attr(ROCKETS, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def can_shoot(state: GameState, piece: Piece) -> bool:
    """On the map, not Stunned (G-D5), not riding an LCV (II), no Overwatch shot since his
    last Attack phase (V)."""
    return not piece.has(STUNNED) and not aboard(state, piece) and not state.marked("ow-fired", piece.id)


def free_weapons(state: GameState, piece: Piece) -> list[int]:
    """The weapons ``piece`` may still fire this phase: one a turn (II), both for Wally and
    the MCV; Tom's rockets while he has some."""
    s = soldier(piece)
    used = [idx for who, idx, _, _ in _shots(state) if who == piece.id]
    both = state.options.get("tom-both-weapons") and any(w.uses is not None for w in weapons_of(piece))
    if s.fires == "one" and used and not both:
        return []
    out = []
    for i, w in enumerate(weapons_of(piece)):
        if i in used:
            continue
        if w.uses is not None and rockets_left(piece) <= 0:
            continue
        out.append(i)
    return out


def targetable(state: GameState, target: Piece) -> bool:
    """Riders in an LCV cannot be shot while aboard (G-D13)."""
    return not aboard(state, target)


def shots_for(state: GameState, piece: Piece, only: str | None = None) -> list[Action]:
    """Every shot ``piece`` may declare now (at ``only``, if given: an Overwatch shot)."""
    if not can_shoot(state, piece):
        return []
    out: list[Action] = []
    s = soldier(piece)
    declared = {t for who, _, t, _ in _shots(state) if who == piece.id}
    board = state.board
    enemies = [
        e
        for e in units(state, other(str(piece.side)))
        if (only is None or e.id == only) and targetable(state, e)
    ]
    for i in free_weapons(state, piece):
        w = weapons_of(piece)[i]
        for e in enemies:
            if s.different_targets and e.id in declared:
                continue
            d = distance(piece.hex, e.hex)
            if not w.nearest <= d <= w.farthest or not sees(state.map, piece.hex, e.hex):
                continue
            base = {"do": "shoot", "piece": piece.id, "weapon": i, "target": e.id}
            if w.splash == "one":
                for n in neighbors(e.hex):
                    if board.grid.contains(n):
                        out.append({**base, "splash": board.label(n)})
            else:
                out.append(base)
    return out


def target_of(state: GameState, piece: Piece) -> combat.Target:
    s = soldier(piece)
    return combat.Target(
        suit=s.has("suit"),
        ap_only=s.has("ap-only"),
        vehicle=s.has("vehicle"),
        hard_to_hit=s.has("hard-to-hit"),
        lucky=s.has("lucky"),
        ignores_stun=s.has("ignores-stun"),
        terrain=state.map.terrain_at(piece.hex),
    )


def strike_of(
    state: GameState, shooter: Piece, weapon: Weapon, at: Hex, splash: bool = False
) -> combat.Strike:
    s = soldier(shooter)
    elev = state.board.elevation
    return combat.Strike(
        damage=1 if splash else weapon.damage,
        kind=weapon.kind,
        double=s.has("double-shot") and weapon.kind == "laser" and not splash,
        sharp=s.has("sharpshooter") and not splash,
        lower=elev[shooter.hex] < elev[at],
        splash=splash,
    )


# --- results (VI) ---------------------------------------------------------------------------


def _stun(state: GameState, piece: Piece, lines: list[str]) -> None:
    if soldier(piece).has("ignores-stun"):
        lines.append(f"{piece.id} ignores the Stun (II)")
        return
    if piece.has(STUNNED):
        lines.append(f"{piece.id} is already Stunned: nothing more (VI)")
        return
    state.map.update(replace(piece, status=(piece.status | {STUNNED}) - {OVERWATCH}))
    lines.append(f"{piece.id} is Stunned")
    if soldier(piece).has("carrier"):
        _riders_stunned(state, piece, lines)


def _riders_stunned(state: GameState, vehicle: Piece, lines: list[str]) -> None:
    """II LCV: riders are Stunned when it is Stunned or Out of Combat."""
    for p in state.map.units_at(vehicle.hex):
        if p.id != vehicle.id and p.side == vehicle.side and not is_vehicle(p) and not p.has(STUNNED):
            state.map.update(replace(p, status=p.status | {STUNNED}))
            lines.append(f"{p.id}, riding {vehicle.id}, is Stunned (II)")


def out_of_combat(state: GameState, piece: Piece, lines: list[str]) -> None:
    if soldier(piece).has("carrier"):
        _riders_stunned(state, piece, lines)
    state.to_box(piece.id, OOC)
    lines.append(f"{piece.id} is Out of Combat")


def _retreat_path(state: GameState, piece: Piece, hexes: int, attackers: list[Hex]) -> list[Hex] | None:
    """G-D4 (project's choice, roster.yaml): each hex farther from every attacker, empty,
    enterable; cover first, then the farther, then by label. None if he cannot."""
    r, table = roster(), default_table()
    board = state.board
    vehicle = is_vehicle(piece)
    at, path = piece.hex, []
    cover = r.choices.get("retreat_cover", [])
    for _ in range(hexes):
        options = []
        for n in neighbors(at):
            if not board.grid.contains(n) or n in path or state.map.units_at(n):
                continue
            if table.enter_cost(state.map.terrain_at(n), vehicle) is None:
                continue
            if not all(distance(n, a) > distance(at, a) for a in attackers):
                continue
            kind = state.map.terrain_at(n)
            options.append((kind not in cover, -sum(distance(n, a) for a in attackers), board.label(n), n))
        if not options:
            return None
        at = min(options)[3]
        path.append(at)
    return path


def apply_result(state: GameState, piece: Piece, result: str, attackers: list[Hex], dice: Dice) -> list[str]:
    """What a Combat Table result does to ``piece`` (VI), with the abilities of II."""
    lines: list[str] = []
    if result == "miss":
        return lines
    if result == "OOC":
        out_of_combat(state, piece, lines)
        return lines
    s, r = soldier(piece), roster()
    was_stunned = piece.has(STUNNED)
    if result in ("R2", "R2S"):
        benefit = leader_number(state, piece)
        if s.has("ignores-retreat"):
            lines.append(f"{piece.id} ignores the Retreat (II)")
        elif (
            benefit is not None
            and dice.d6(f"{piece.id}'s Leadership Benefit: Retreat ignored on 3-6") >= r.ignore_retreat_on
        ):
            lines.append(f"{piece.id} holds: Leadership Benefit (II)")
        else:
            terrain = state.map.terrain_at(piece.hex)
            n = int(r.retreat["short"] if terrain in r.retreat["short_in"] else r.retreat["hexes"])
            path = _retreat_path(state, piece, n, attackers)
            if path is None:
                lines.append(f"{piece.id} cannot retreat {n} (G-D4, project's choice)")
                if was_stunned:
                    out_of_combat(state, piece, lines)
                    return lines
                _stun(state, piece, lines)
                piece = state.map.piece(piece.id)
            else:
                start = state.board.label(piece.hex)
                dice.happened(Where("move", (start, *(state.board.label(h) for h in path)), (piece.id,)).to_json())
                moved = state.map.move(piece.id, path[-1])
                status = moved.status - {OVERWATCH}
                if result == "R2" and was_stunned:
                    status -= {STUNNED}
                    lines.append(f"{piece.id} is no longer Stunned after retreating (VI)")
                state.map.update(replace(moved, status=status))
                lines.append(f"{piece.id} retreats to {state.board.label(path[-1])}")
    if result in ("St", "R2S"):
        _stun(state, state.map.piece(piece.id), lines)
    return lines


#: a Combat Table result as the map shows it at the target (``Where.result``)
RESULT_WORDS = {
    "miss": "miss",
    "St": "hit, Stunned",
    "R2": "hit, Retreat 2",
    "R2S": "hit, Retreat 2 and Stunned",
    "OOC": "hit, Out of Combat",
}


def attack(
    state: GameState,
    target: Piece,
    strikes: list[combat.Strike],
    attackers: list[Hex],
    dice: Dice,
    firers: tuple[str, ...] = (),
    splash: bool = False,
) -> tuple[str, list[str]]:
    """Roll one attack and apply its result; where it happened is recorded for the
    window (every firer's hex, then the target's; the result in words at the target)."""
    result, lines = combat.resolve(strikes, target_of(state, target), lambda why: dice.d6(why), target.id)
    hexes = tuple(state.board.label(h) for h in [*attackers, target.hex])
    said = f"{target.id}{' (splash)' if splash else ''}: {RESULT_WORDS[result]}"
    dice.happened(Where("fire", hexes, (*firers, target.id), result=said).to_json())
    return result, lines + apply_result(state, target, result, attackers, dice)


def _splash(
    state: GameState, shooter: Piece, weapon: Weapon, centre: Hex, chosen: Hex | None, dice: Dice
) -> list[str]:
    """Frag: 1 point on every unit around the target hex; flame: on the chosen hex. Each is
    an attack of its own, never added to others (VI)."""
    hexes = [chosen] if chosen is not None else [n for n in neighbors(centre) if state.board.grid.contains(n)]
    lines: list[str] = []
    for h in hexes:
        for p in list(state.map.units_at(h)):
            if not any(q.id == p.id for q in state.map.units_at(h)):
                continue
            strike = strike_of(state, shooter, weapon, h, splash=True)
            lines.append(f"splash on {p.id} in {state.board.label(h)}")
            lines += attack(state, p, [strike], [shooter.hex], dice, (shooter.id,), splash=True)[1]
    return lines


def _use(state: GameState, piece: Piece, weapon: Weapon, lines: list[str]) -> None:
    if weapon.uses is not None:
        left = rockets_left(piece) - 1
        state.map.update(piece.with_attr(ROCKETS, left))
        lines.append(f"{piece.id} has {left} rocket(s) left (II)")


def resolve_all(state: GameState, dice: Dice) -> list[str]:
    """Every attack declared this phase: damage summed per target (VI), then the splash."""
    shots = _shots(state)
    lines: list[str] = []
    groups: dict[str, list[tuple[Piece, Weapon]]] = {}
    centres: dict[str, Hex] = {}
    for who, idx, target, _ in shots:
        shooter = state.map.piece(who)
        weapon = weapons_of(shooter)[idx]
        groups.setdefault(target, []).append((shooter, weapon))
        centres[target] = state.map.piece(target).hex
        _use(state, shooter, weapon, lines)
    for target, group in groups.items():
        if state.where(target) is not None:
            continue
        piece = state.map.piece(target)
        names = ", ".join(f"{s.id} ({w.name})" for s, w in group)
        lines.append(f"{names} at {target}")
        strikes = [strike_of(state, s, w, piece.hex) for s, w in group]
        firers = tuple(s.id for s, _ in group)
        lines += attack(state, piece, strikes, [s.hex for s, _ in group], dice, firers)[1]
    for who, idx, target, splash in shots:
        shooter = find(state, who)
        weapon = weapons_of(shooter)[idx]
        if weapon.splash:
            chosen = state.board.hex_of(splash) if splash else None
            lines += _splash(state, shooter, weapon, centres[target], chosen, dice)
    return lines


# --- the ruleset ---------------------------------------------------------------------------


class DogfacesRules(WordsFromModule):
    """The Dogfaces in Space turn machine (see the module doc)."""

    words_module = "tabletop.games.dogfaces.words"  # the window's word hooks (engine.wordhooks)

    name = "dogfaces"
    sides = SIDES
    players = SIDES
    sequence = SEQUENCE
    undo_across_turns = True

    def __init__(self, r: Roster | None = None) -> None:
        self.roster = r or roster()

    # -- set-up (III) --------------------------------------------------------------------

    def prepare(self, state: GameState, scenario: Any = None) -> None:
        """III: the same teams for both sides, taken in order (``teams``: 2-5), Foxtrot
        added by ``foxtrot``; each side fills its edge row before the next row, from the
        middle outwards (project's choice of order: the roster's). The edges are the
        scenario's ``game: {blue-edge, red-edge}`` regions (default edge-north, edge-south):
        with ``edges: fixed`` blue and red take them now; with ``edges: roll`` (G-D3) the
        roll-off winner is Player 1 and sets up on the first edge as turn 1 begins."""
        if any(p.kind == "unit" for p in state.map.pieces()):
            return  # a scenario that places its own soldiers (dogfaces-demo)
        game: Mapping[str, Any] = getattr(scenario, "game", {}) or {}
        state.marks[EDGES] = [game.get("blue-edge", "edge-north"), game.get("red-edge", "edge-south")]
        if state.options.get("edges", "fixed") == "fixed":
            self._set_up_sides(state, {BLUE: state.marks[EDGES][0], RED: state.marks[EDGES][1]})

    def _set_up_sides(self, state: GameState, edges: Mapping[str, str]) -> list[str]:
        """III: both sides' teams onto their edges (``edges``: side -> region)."""
        opts = {k: state.options.get(k, v[0] if k != "teams" else 2) for k, v in OPTIONS.items()}
        keys = [k for t in self.roster.teams[: int(opts["teams"])] for k in self.roster.team(t)]
        if opts["foxtrot"]:
            keys += self.roster.team(self.roster.extra_team)
        waiting = state.boxes.pop(ROSTER, [])
        for side in SIDES:
            self._set_up(state, side, edges[side], keys, [p for p in waiting if p.side == side])
        return [f"{side} sets up on {region} (III)" for side, region in edges.items()]

    def _set_up(
        self, state: GameState, side: str, region: str, keys: list[str], waiting: list[Piece]
    ) -> None:
        """Place ``keys`` (unit types, in order) on the side's edge: the scenario's pieces
        from its roster box when it has them (their ids and attributes), else new ones."""
        board = state.board
        edge = board.regions[region].hexes
        centre = (board.grid.columns - 1) / 2 if hasattr(board.grid, "columns") else 0
        table = default_table()

        def order(h: Hex) -> tuple[int, float, str]:
            return (min(distance(h, e) for e in edge), abs(h.q - centre), board.label(h))

        free = sorted((h for h in board.terrain if board.grid.contains(h)), key=order)
        counts: dict[str, int] = {}
        for key in keys:
            vehicle = key in table.vehicles
            h = next(
                h
                for h in free
                if table.enter_cost(state.map.terrain_at(h), vehicle) is not None
                and not state.map.units_at(h)
            )
            given = next((p for p in waiting if unit_type(p) == key), None)
            if given is not None:
                waiting.remove(given)
                state.map.place(replace(given, hex=h))
                continue
            counts[key] = counts.get(key, 0) + 1
            ident = f"{side}-{key}" + (f"-{counts[key]}" if self.roster.soldiers[key].count > 1 else "")
            attrs = {}
            uses = [self.roster.weapons[w].uses for w in self.roster.soldiers[key].weapons]
            if any(u is not None for u in uses):
                attrs[ROCKETS] = max(u for u in uses if u is not None)
            state.map.place(Piece(ident, key, h, side, attributes=pairs(attrs)))

    # -- who acts ------------------------------------------------------------------------

    def actor(self, state: GameState) -> str | None:
        side = phase_side(state)
        if side is None:
            return None
        if state.marks.get("path") or (state.phase in ATTACK_PHASES and state.track("resolved")):
            return "auto"
        return side

    def reactions(self, state: GameState, action: Action) -> str | None:
        """V Overwatch: after each hex of a move, the mover's enemy if one of its soldiers
        in Overwatch can shoot him there."""
        if action.get("do") not in ("move", "step", "jet"):
            return None
        mover_id = str(action.get("piece"))
        try:
            mover = state.map.piece(mover_id)
        except KeyError:
            return None
        foe = other(str(mover.side))
        return foe if self.overwatch_shots(state, foe, mover_id) else None

    def overwatch_shots(self, state: GameState, side: str, mover: str) -> list[Action]:
        out: list[Action] = []
        for p in units(state, side):
            if p.has(OVERWATCH):
                out += [{**a, "do": "overwatch-fire"} for a in shots_for(state, p, only=mover)]
        return out

    # -- the protocol ---------------------------------------------------------------------

    def begin_phase(self, state: GameState, dice: Dice) -> list[str]:
        lines: list[str] = []
        if state.phase == "p1-move" and "player1" not in state.tracks:
            lines += self._player1(state, dice)
            if state.options.get("edges", "fixed") == "roll" and EDGES in state.marks:
                first = SIDES[state.track("player1")]
                regions = state.marks[EDGES]
                lines += self._set_up_sides(state, {first: regions[0], other(first): regions[1]})
        for key in ("moved", "shots", "path", "mover", "aboard"):
            state.marks.pop(key, None)
        state.tracks.pop("resolved", None)
        state.tracks.pop("recovered", None)
        if state.phase in MOVE_PHASES:
            side = phase_side(state)
            for p in units(state, side):
                if aboard(state, p):
                    state.mark("aboard", p.id)
        return lines

    def _player1(self, state: GameState, dice: Dice) -> list[str]:
        """G-D3 (project's choice): each side rolls 1D6 (again on a tie); the higher is Player 1."""
        chosen = state.options.get("player1", "roll")
        if chosen in SIDES:
            state.tracks["player1"] = SIDES.index(chosen)
            return [f"{chosen} is Player 1 (scenario option)"]
        while True:
            b, r = dice.d6("blue rolls for Player 1"), dice.d6("red rolls for Player 1")
            if b != r:
                break
        state.tracks["player1"] = 0 if b > r else 1
        return [f"{SIDES[state.tracks['player1']]} is Player 1 (rolled {b} to {r}; G-D3)"]

    def proposal(self, state: GameState) -> Action | None:
        if state.phase in MOVE_PHASES:
            return {"do": "step", "piece": state.marks["mover"][0]} if state.marks.get("path") else None
        if state.phase in ATTACK_PHASES:
            return dict(END_PHASE) if state.track("resolved") else None
        if state.phase == "stun":
            return dict(END_PHASE) if state.track("recovered") else {"do": "recover"}
        return dict(END_PHASE)

    def choices(self, state: GameState, side: str) -> list[Action]:
        if state.window is not None:
            return self.overwatch_shots(state, side, str(state.window["after"]["piece"]))
        if self.actor(state) != side:
            return []
        out: list[Action] = []
        if state.phase in MOVE_PHASES:
            for p in units(state, side):
                out += self.unit_moves(state, p)
            out += [{"do": "surrender", "side": side}, dict(END_PHASE)]
        elif state.phase in ATTACK_PHASES:
            for p in units(state, side):
                out += shots_for(state, p)
            out.append({"do": "resolve", "side": side})
        return out

    def unit_moves(self, state: GameState, piece: Piece) -> list[Action]:
        """A unit's moves this phase: walks, Larry's jet pack, going into Overwatch."""
        if state.marked("moved", piece.id) or state.marked("aboard", piece.id) or piece.has(STUNNED):
            return []
        board = state.board
        out: list[Action] = []
        reach = reach_of(state.map, piece)
        out += [
            {"do": "move", "piece": piece.id, "to": board.label(h)} for h in reach.costs if h != piece.hex
        ]
        if soldier(piece).has("jet-pack"):
            out += [
                {"do": "jet", "piece": piece.id, "to": board.label(h)}
                for h in jet_pack_targets(state.map, piece)
            ]
        if self.may_overwatch(state, piece):
            out.append({"do": "overwatch", "piece": piece.id})
        return out

    def may_overwatch(self, state: GameState, piece: Piece) -> bool:
        """V: 1-2 soldiers a side (G-D12: at most 2), within a friendly leader's range."""
        if piece.has(OVERWATCH) or piece.has(STUNNED) or state.marked("moved", piece.id):
            return False
        count = sum(1 for p in units(state, piece.side) if p.has(OVERWATCH))
        return count < int(self.roster.choices["overwatch_max"]) and leader_number(state, piece) is not None

    def refusal(self, state: GameState, action: Action) -> str | None:
        do = action.get("do")
        if do == END_PHASE["do"]:
            if self.proposal(state) == END_PHASE:
                return None
            if state.phase in MOVE_PHASES and not state.marks.get("path"):
                return None
            if state.phase in ATTACK_PHASES:
                return "resolve the declared attacks first (VI)"
            return "the phase is not done"
        if do in ("step", "recover"):
            return None if self.proposal(state) == action else f"no {do} now"
        if state.window is not None:
            if do != "overwatch-fire" or action not in self.choices(state, str(state.window["side"])):
                return "only an Overwatch shot at the moving soldier, or pass, now (V)"
            return None
        side = phase_side(state)
        if self.actor(state) != side or side is None:
            return f"{do}: nobody chooses now"
        if do in ("surrender", "resolve"):
            if action.get("side") != side:
                return f"it is {side}'s phase"
            if do == "surrender" and state.phase not in MOVE_PHASES:
                return "a side surrenders in its own Movement phase (VII, project's choice)"
            if do == "resolve" and state.phase not in ATTACK_PHASES:
                return "attacks are resolved in the Attack phase (VI)"
            return None
        try:
            piece = state.map.piece(str(action.get("piece")))
        except KeyError as exc:
            return str(exc)
        if piece.side != side:
            return f"{piece.id} is not {side}'s"
        if do in ("move", "jet", "overwatch"):
            if state.phase not in MOVE_PHASES:
                return "moves are made in the Movement phase (IV, V)"
            return (
                None if action in self.unit_moves(state, piece) else f"{piece.id} cannot {do} there now (V)"
            )
        if do == "shoot":
            if state.phase not in ATTACK_PHASES:
                return "shots are declared in the Attack phase (VI)"
            return None if action in shots_for(state, piece) else f"{piece.id} cannot make that shot now (VI)"
        return f"Dogfaces has no action {do!r}"

    def apply(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        do = action["do"]
        board = state.board
        if do == "recover":
            state.tracks["recovered"] = 1
            return self.recover(state, dice)
        if do == "surrender":
            state.tracks[f"surrendered-{action['side']}"] = 1
            return [f"{action['side']} surrenders (VII)"]
        if do == "resolve":
            lines = resolve_all(state, dice)
            state.tracks["resolved"] = 1
            for p in units(state, str(action["side"])):
                if state.marked("ow-fired", p.id):
                    state.marks["ow-fired"].remove(p.id)
            return lines
        if do == "shoot":
            splash = action.get("splash", "")
            state.mark("shots", f"{action['piece']}|{action['weapon']}|{action['target']}|{splash}")
            shooter, aimed = state.map.piece(str(action["piece"])), state.map.piece(str(action["target"]))
            w = weapons_of(shooter)[int(action["weapon"])]
            hexes = (board.label(shooter.hex), board.label(aimed.hex))
            dice.happened(Where("fire", hexes, (shooter.id, aimed.id), result=f"{aimed.id}: declared").to_json())
            return [f"{action['piece']} aims his {w.name} at {action['target']}"]
        if do == "overwatch":
            piece = state.map.piece(str(action["piece"]))
            state.map.update(replace(piece, status=piece.status | {OVERWATCH}))
            state.mark("moved", piece.id)
            return [f"{piece.id} goes into Overwatch (V)"]
        if do == "overwatch-fire":
            return self._overwatch_fire(state, action, dice)
        piece = state.map.piece(str(action["piece"]))
        if do in ("move", "jet"):
            state.mark("moved", piece.id)
            if piece.has(OVERWATCH):
                state.map.update(replace(piece, status=piece.status - {OVERWATCH}))
            to = board.hex_of(str(action["to"]))
            path = [to] if do == "jet" else reach_of(state.map, piece).path_to(to)[1:]
            state.marks["mover"] = [piece.id]
            state.marks["path"] = [board.label(h) for h in path]
            return [
                f"{piece.id} {'jets' if do == 'jet' else 'moves'} toward {action['to']}",
                *self._step(state),
            ]
        if do == "step":
            return self._step(state)
        raise ValueError(f"Dogfaces has no action {do!r}")

    def _step(self, state: GameState) -> list[str]:
        """The mover (and an LCV's riders, II) enter the next hex of the path."""
        path = state.marks["path"]
        mover = state.map.piece(state.marks["mover"][0])
        to = state.board.hex_of(path.pop(0))
        riders = []
        if soldier(mover).has("carrier"):
            riders = [p for p in state.map.units_at(mover.hex) if state.marked("aboard", p.id)]
        state.map.move(mover.id, to)
        for p in riders:
            state.map.move(p.id, to)
            state.mark("moved", p.id)
        if not path:
            state.marks.pop("path")
            state.marks.pop("mover")
        return [f"{mover.id} enters {state.board.label(to)}"]

    def _overwatch_fire(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        """V: the Overwatch shot at the hex the mover stands in now; a single-shooter
        attack (G-D12). Any result stops the rest of his move (project's choice)."""
        shooter = state.map.piece(str(action["piece"]))
        target = state.map.piece(str(action["target"]))
        weapon = weapons_of(shooter)[int(action["weapon"])]
        state.mark("ow-fired", shooter.id)
        lines = [f"{shooter.id} fires from Overwatch ({weapon.name}) at {target.id}"]
        _use(state, shooter, weapon, lines)
        shooter = state.map.piece(shooter.id)
        centre = target.hex
        before = (target.hex, target.status)
        _result, more = attack(
            state, target, [strike_of(state, shooter, weapon, target.hex)], [shooter.hex], dice, (shooter.id,)
        )
        lines += more
        if weapon.splash:
            chosen = state.board.hex_of(str(action["splash"])) if action.get("splash") else None
            lines += _splash(state, shooter, weapon, centre, chosen, dice)
        now = state.map.piece(target.id) if state.where(target.id) is None else None
        if state.marks.get("mover") == [target.id] and (now is None or (now.hex, now.status) != before):
            state.marks.pop("path", None)
            state.marks.pop("mover", None)
            lines.append(f"{target.id}'s move ends")
        return lines

    def recover(self, state: GameState, dice: Dice) -> list[str]:
        """IV.5: a roll per Stunned soldier: 6, his own number, or the best Leadership
        Benefit he is within; automatic next to Uriah, if Uriah is not Stunned (II)."""
        lines: list[str] = []
        stunned = [p for p in units(state) if p.has(STUNNED)]
        for p in stunned:
            medic = any(
                soldier(m).has("medic") and not m.has(STUNNED) and distance(m.hex, p.hex) == 1
                for m in units(state, p.side)
            )
            need = soldier(p).recovers
            benefit = leader_number(state, p)
            if benefit is not None:
                need = min(need, benefit)
            if medic:
                ok = True
                lines.append(f"{p.id} recovers next to the medic (II Uriah)")
            else:
                ok = dice.d6(f"{p.id} recovers from Stunning on {need}-6") >= need
                lines.append(f"{p.id} {'recovers' if ok else 'stays Stunned'}")
            if ok:
                state.map.update(replace(state.map.piece(p.id), status=p.status - {STUNNED}))
        return lines

    def outcome(self, state: GameState) -> str | None:
        """VII: the last side with soldiers on the map wins; a side may surrender."""
        for side in SIDES:
            if state.track(f"surrendered-{side}"):
                return f"{other(side)} wins ({side} surrendered)"
        if state.phase == "setup":
            return None
        alive = {s: len(units(state, s)) for s in SIDES}
        if not alive[BLUE] and not alive[RED]:
            return "draw (no soldiers left on the map)"
        for side in SIDES:
            if not alive[side]:
                return f"{other(side)} wins ({side} has no soldiers on the map)"
        return None


def ruleset() -> DogfacesRules:
    return DogfacesRules()
