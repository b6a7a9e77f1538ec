"""Dogs of War as a rule system the engine plays: the turn of THE GAME SEQUENCE (l.152-165)
with initiative (l.185), alternating activations of one model at a time, the 10-AP
economy (ACTION POINTS l.189-234), fire (``combat``), grenades, bandaging, op-fire as a
reaction inside the enemy's activation (l.231; G5), bleeding and survivability at the
start of the turn (l.487, A4), morale at the end of it (l.712-747) and victory (G10).

Phases: ``upkeep`` (bleeding, waking, khat, fatigue, AP, initiative), ``activations``
(the sides alternate: ``activate`` a model, spend its AP, ``done``), ``morale``.

State kept (plain data, saved with the game):
- unit attributes (``units.yaml``): faction, team, role, the stats, AR, weapon,
  launcher, ammunition, grenades, ``ap`` left, ``hp``;
- status words: prone, dead, unconscious, immobilized, bleeding, medical,
  severely-wounded, one-action, one-handed, stabilized, op-fire, broken, high,
  discipline-used, the goggles' kit word and laser-targeter;
- ``tracks``: ``first`` (0 blue, 1 red: who activates first this turn), ``next`` (whose
  activation comes next), ``over`` (the game ended: 1);
- ``marks``: ``active`` (the model acting), ``activated``, ``walked``/``ran`` (moved so
  this turn: target modifiers), ``moving-walk``/``moving-run`` (moved in this
  activation: firer modifiers), ``ran-before`` (ran last turn: fatigue), ``path``/``mover``
  (a move applied hex by hex so op-fire can interrupt it), ``attacked`` (an attack made
  this activation: one-action arms), ``killed-this-turn``, ``broken-teams``,
  ``conditions`` (the scenario's: night), ``objectives``, ``reroll-used`` (Expert
  Rifleman spent, l.972), ``discipline-used`` (Disciplined spent, l.973), ``fired-last``
  (made a ranged attack in his last activation: CQ l.603), ``shock-done``.

A scenario with no rosters (``game:`` without ``blue-roster``/``red-roster``, as
``dogs-of-war-demo``) is free play on the Dogs of War table: the rules step aside.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from typing import Any

from tabletop.engine.actions import END_PHASE, Action, generic_apply, generic_refusal
from tabletop.engine.attributes import pairs
from tabletop.engine.dice import Dice
from tabletop.engine.game import Phase
from tabletop.engine.movement import Reach, plan_move
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState
from tabletop.engine.wordhooks import WordsFromModule
from tabletop.hexgrid import Hex, distance, neighbors

from . import aid, combat, explosives, roster, setup, structures
from .blasts import Blast, blast_area, full_auto_area, grenade_deviation
from .blasts import default_table as blast_table
from .combat import (
    BLEEDING,
    BROKEN,
    DEAD,
    IMMOBILIZED,
    MEDICAL,
    ONE_ACTION,
    ONE_HANDED,
    OP_FIRE,
    OUT,
    PRONE,
    STABILIZED,
    UNCONSCIOUS,
    num,
)  # fmt: skip
from .data import Weapon, data
from .movement import DogsOfWarMovePolicy

GAME = "Dogs of War"
BLUE, RED = "blue", "red"
SIDES = (BLUE, RED)
SEQUENCE = (
    Phase("upkeep", "Start of turn: bleeding, survival, initiative", "auto", f"{GAME} l.160, 185, 487"),
    Phase("activations", "Alternate activations", "auto", f"{GAME} l.162, 185-234"),
    Phase("morale", "End of turn: morale", "auto", f"{GAME} l.163, 712-747"),
)
CAPTURED = "captured"
OBJECTIVE_POINTS = 50  # G10 (project's): an objective held at the end is worth 50 points
FREE = "free-play"


class _Faces:
    """The game's dice as ``blasts.grenade_deviation`` rolls them (``randint``), so the
    deviation rolls are logged and replayed like every other."""

    def __init__(self, dice: Dice, purpose: str) -> None:
        self.dice, self.purpose = dice, purpose

    def randint(self, a: int, b: int) -> int:
        return self.dice.roll(1, b - a + 1, f"{self.purpose}: D{b - a + 1}")[0] + a - 1


def other(side: str) -> str:
    return RED if side == BLUE else BLUE


@cache
def _move_policy() -> DogsOfWarMovePolicy:
    return DogsOfWarMovePolicy()


_reaches: dict[tuple[int, Piece, str, int], Reach] = {}


def reach_of(state: GameState, piece: Piece, order: str, ap: int) -> Reach:
    """Where ``piece`` can go under ``order`` with ``ap`` action points (movement.py),
    worked out once per map state."""
    key = (state.map.version, piece, order, ap)
    found = _reaches.get(key)
    if found is None:
        if len(_reaches) > 4000:
            _reaches.clear()
        found = _reaches[key] = plan_move(state.map, _move_policy(), piece, order, ap)
    return found


def move_cost(piece: Piece, order: str, units: int) -> int:
    """The AP a move of ``units`` cost units spends: a run in whole blocks of 3 AP (6
    carrying or severely wounded), else rounded up to a whole AP."""
    table = _move_policy().table
    ap = -(-units // table.scale)
    stand = table.stand_ap if piece.has(PRONE) and order != "crawl" else 0
    if order == "run":
        block = table.orders["run"].ap * (2 if not piece.status.isdisjoint(table.doubled) else 1)
        ap = -(-ap // block) * block
    return ap + stand


# --- who is who ---------------------------------------------------------------------------


def models(state: GameState, side: str | None = None) -> list[Piece]:
    return [p for p in state.map.pieces() if p.kind == "unit" and (side is None or p.side == side)]


def able(piece: Piece) -> bool:
    """Still in the fight: not dead, not unconscious (captured models are off the map)."""
    return piece.status.isdisjoint(OUT)


def fighting(state: GameState, side: str) -> list[Piece]:
    return [p for p in models(state, side) if able(p)]


def enemies(state: GameState, piece: Piece) -> list[Piece]:
    return [p for p in models(state, other(str(piece.side))) if able(p)]


def weapon_of(piece: Piece) -> Weapon:
    return data().weapon(str(piece.attr("weapon", "m16a2")))


def active(state: GameState) -> Piece | None:
    ids = state.marks.get("active")
    return state.map.piece(ids[0]) if ids else None


def free_play(state: GameState) -> bool:
    return bool(state.track(FREE))


def grenades_of(piece: Piece) -> dict[str, int]:
    out = {}
    for key in ("m67", "mini-m67", "soviet-frag"):
        n = num(piece, f"g-{key}")
        if n > 0:
            out[key] = n
    return out


# --- fire ------------------------------------------------------------------------------


def priority(state: GameState, shooter: Piece) -> list[Piece]:
    """Enemies within 10 inches the shooter sees: they must be targeted first (l.319)."""
    near = data().turn["priority_within"]
    return [
        e
        for e in enemies(state, shooter)
        if distance(e.hex, shooter.hex) <= near and combat.sees(state, shooter, e)
    ]


def targets(state: GameState, shooter: Piece, reach: int) -> list[Piece]:
    """The enemies ``shooter`` may declare: the priority targets if any, else every
    enemy he sees within ``reach`` (DECLARE TARGET l.317-319)."""
    first = priority(state, shooter)
    if first:
        return [e for e in first if distance(e.hex, shooter.hex) <= reach]
    return [
        e
        for e in enemies(state, shooter)
        if distance(e.hex, shooter.hex) <= reach and combat.sees(state, shooter, e)
    ]


def can_attack(state: GameState, piece: Piece) -> bool:
    """Not broken, not with an arm good for one action that has made it (G8)."""
    if piece.has(BROKEN) or piece.has(MEDICAL):
        return False
    return not (piece.has(ONE_ACTION) and state.marked("attacked", piece.id))


def fire_actions(state: GameState, piece: Piece, ap: int, only: str | None = None) -> list[Action]:
    """Every shot ``piece`` may make with ``ap`` AP: its weapon's modes, aimed or not
    (Somalis may not aim, l.1411), at each target; the launcher's rounds."""
    out: list[Action] = []
    w = weapon_of(piece)
    aim_ap = data().rules["ranged_modifiers"]["aimed"]["ap"]
    may_aim = "no-aimed-shots" not in combat.innate(piece)
    two_hands = not piece.has(ONE_HANDED)
    tgts = targets(state, piece, max(w.max_range, _launcher_range(piece)))
    if only is not None:
        tgts = [t for t in tgts if t.id == only] or [
            t for t in enemies(state, piece) if t.id == only and combat.sees(state, piece, t)
        ]
    for t in tgts:
        d = distance(piece.hex, t.hex)
        if two_hands or w.hands == 1:
            for mode, m in w.modes.items():
                if num(piece, "ammo") < m.rounds or d > w.max_range:
                    continue
                if m.ap <= ap:
                    out.append({"do": "fire", "piece": piece.id, "target": t.id, "mode": mode})
                if may_aim and mode == "ss" and m.ap + aim_ap <= ap:
                    out.append({"do": "fire", "piece": piece.id, "target": t.id, "mode": mode, "aimed": True})
        launcher = piece.attr("launcher")
        if launcher and num(piece, "rounds") > 0 and two_hands:
            lw = data().weapon(str(launcher))
            if data().turn["launcher_min"] <= d <= lw.max_range and lw.modes["ss"].ap <= ap:
                out.append({"do": "launch", "piece": piece.id, "target": t.id})
    return out


def _launcher_range(piece: Piece) -> int:
    launcher = piece.attr("launcher")
    return data().weapon(str(launcher)).max_range if launcher and num(piece, "rounds") > 0 else 0


def throw_actions(state: GameState, piece: Piece, ap: int) -> list[Action]:
    """A grenade at an enemy within 15 inches he sees (G7), 3 AP (l.649)."""
    if ap < 3:
        return []
    out: list[Action] = []
    reach = data().turn["grenade_range"]
    for kind in grenades_of(piece):
        for t in targets(state, piece, reach):
            out.append({"do": "throw", "piece": piece.id, "target": t.id, "grenade": kind})
    return out


def cq_weapons(piece: Piece) -> list[str]:
    """What the model may fight with hand to hand: bare hands, its knife, its weapon's
    butt, its bayonet once fixed (weapons.yaml ``cq``)."""
    out = ["unarmed"]
    faction = data().factions.get(str(piece.attr("faction", "")))
    if faction is not None and faction.gear.get("knife"):
        out.append("knife")
    if weapon_of(piece).cq and not piece.has(ONE_HANDED):
        out.append(str(piece.attr("weapon")))
    if piece.has("bayonet-fixed") and not piece.has(ONE_HANDED):
        out.append("bayonet")
    return out


def cq_actions(state: GameState, piece: Piece, ap: int) -> list[Action]:
    """Close quarters with an enemy in base-to-base contact (an adjacent hex, G11; l.557)."""
    out: list[Action] = []
    for e in enemies(state, piece):
        if distance(e.hex, piece.hex) != 1:
            continue
        for key in cq_weapons(piece):
            if int(data().weapon(key).cq["ap"]) <= ap:
                out.append({"do": "cq", "piece": piece.id, "target": e.id, "weapon": key})
    faction = data().factions.get(str(piece.attr("faction", "")))
    bayonet = faction is not None and faction.gear.get("bayonet") and weapon_of(piece).hands == 2
    fix = int(data().weapon("bayonet").cq["fix_ap"])
    if (
        bayonet
        and not piece.has("bayonet-fixed")
        and ap >= fix
        and not any(distance(e.hex, piece.hex) == 1 for e in enemies(state, piece))
    ):
        out.append({"do": "fix-bayonet", "piece": piece.id})
    return out


# --- the ruleset -------------------------------------------------------------------------


class DogsOfWarRules(WordsFromModule):
    """The Dogs of War turn machine (see the module doc)."""

    words_module = "tabletop.games.dogs_of_war.words"  # the window's word hooks (engine.wordhooks)

    name = "dogs_of_war"
    sides = SIDES
    players = SIDES
    sequence = SEQUENCE
    undo_across_turns = True
    table_die = 10  # the window's roll key throws a D10: "based on a D10 system" (l.46)

    # -- set-up -----------------------------------------------------------------------

    def prepare(self, state: GameState, scenario: Any = None) -> None:
        """Place each side's roster in its set-up region (SETTING UP THE BATTLEFIELD l.181:
        opposite edges, 6 inches deep). The scenario names the rosters (``game:
        blue-roster, red-roster``) and regions; with ``edges: roll`` the sides roll for
        their edge and for who places first at the start of turn 1 (setup.py).
        Without rosters: free play."""
        game: Mapping[str, Any] = getattr(scenario, "game", {}) or {}
        state.marks["conditions"] = sorted(getattr(scenario, "conditions", ()) or ())
        if "blue-roster" not in game:
            state.tracks[FREE] = 1
            return
        state.tracks["turns"] = int(game.get("turns", data().turn["turn_cap"]))
        state.tracks["objective-points"] = int(game.get("objective-points", OBJECTIVE_POINTS))
        state.marks["scenario-choices"] = [str(game["choices"])] if game.get("choices") else []
        objectives = game.get("objectives") or ()
        state.marks["objectives"] = [
            state.board.label(h) if isinstance(h, Hex) else str(h) for h in objectives
        ]
        state.marks["rosters"] = [str(game[f"{side}-roster"]) for side in SIDES]
        state.marks["regions"] = [
            str(game.get(f"{side}-region", setup.EDGES[SIDES.index(side)])) for side in SIDES
        ]
        for side in SIDES:
            name = str(game[f"{side}-roster"])
            problems = roster.check(roster.load(name), name)
            if problems:
                raise ValueError("; ".join(problems))
        if str(game.get("edges", "scenario")) == "roll":
            state.tracks[setup.PENDING] = 1  # placed after the rolls of turn 1 (l.181)
            return
        self._place(state, list(SIDES))

    def _place(self, state: GameState, order: list[str]) -> None:
        """Each side's roster into its region, in the order the sides place."""
        for side in order:
            i = SIDES.index(side)
            self._deploy(state, side, state.marks["regions"][i], roster.load(state.marks["rosters"][i]))

    def _deploy(self, state: GameState, side: str, region: str, r: Mapping[str, Any]) -> None:
        board = state.board
        zone = board.regions[region].hexes
        policy = _move_policy()
        centre = (board.grid.columns - 1) / 2 if hasattr(board.grid, "columns") else 0
        mid_row = sum(h.r + h.q / 2 for h in zone) / max(1, len(zone))
        toward = _toward_middle(board, mid_row)

        def order(h: Hex) -> tuple[float, float, str]:
            return (-toward * (h.r + h.q / 2 - mid_row), abs(h.q - centre), board.label(h))

        open_hexes = [
            h
            for h in sorted(zone, key=order)
            if not policy.is_enclosed(state.map, h) and not state.map.units_at(h)
        ]
        built = roster.models(r)
        spread = max(1, len(open_hexes) // max(1, len(built) * 6))
        facing = 4 if toward > 0 else 1  # facing the far edge, whichever edge the zone lies on
        for i, m in enumerate(built):
            h = open_hexes[(i * 3 * spread) % len(open_hexes)]
            while state.map.units_at(h):
                h = open_hexes[(open_hexes.index(h) + 1) % len(open_hexes)]
            attrs: dict[str, Any] = {
                "faction": m.faction, "team": m.team, "role": m.role, "weapon": m.weapon,
                "ar-head": m.ar_head, "ar-body": m.ar_body, "ammo": m.ammo, "rounds": m.rounds,
                "ap": data().turn["action_points"], "hp": m.stats["hp"], "hp-max": m.stats["hp"],
            }  # fmt: skip
            attrs.update({k: v for k, v in m.stats.items() if k != "hp"})
            if m.launcher:
                attrs["launcher"] = m.launcher
            for g, n in m.grenades.items():
                attrs[f"g-{g}"] = n
            if m.perks:
                attrs["perks"] = m.perks
            for kind, n in m.kit.items():
                attrs[f"x-{kind}"] = n
            ident = f"{side[0]}-{m.team}-{m.role}"
            state.map.place(
                Piece(ident, m.role, h, side, facing=facing, status=m.status, attributes=pairs(attrs))
            )

    # -- who acts -----------------------------------------------------------------------

    def actor(self, state: GameState) -> str | None:
        if free_play(state):
            return "any"
        if state.phase == "upkeep" and setup.chooser(state):
            return setup.chooser(state)
        if state.phase == "upkeep" and state.track("choosing"):
            return SIDES[state.track("initiative")]
        if state.phase != "activations":
            return None
        if state.marks.get("path"):
            return "auto"
        a = active(state)
        if a is not None:
            if a.has(BROKEN) and not state.marked("rallied", a.id):
                return "auto"
            return str(a.side)
        side = self._next_side(state)
        return side if side is not None else None

    def _next_side(self, state: GameState) -> str | None:
        """The side whose turn it is to activate: the alternation, or the side that
        still has models when the other has none left (G4)."""
        want = SIDES[state.track("next")]
        for side in (want, other(want)):
            if self.ready(state, side):
                return side
        return None

    def ready(self, state: GameState, side: str) -> list[Piece]:
        """The side's models still to activate this turn (the unconscious cannot)."""
        return [
            p
            for p in models(state, side)
            if able(p) and not p.has(aid.CARRIED) and not state.marked("activated", p.id)
        ]

    def reactions(self, state: GameState, action: Action) -> str | None:
        """Op-fire (l.231, G5): after each hex an enemy moves and after each enemy
        action, the side with a model on op-fire that can fire at him."""
        if free_play(state):
            return None
        do = action.get("do")
        if do not in (
            "step",
            "move",
            "fire",
            "launch",
            "throw",
            "stand",
            "bandage",
            "prone",
            "op-fire",
            "cq",
            "fix-bayonet",
        ):
            return None
        try:
            mover = state.map.piece(str(action.get("piece")))
        except KeyError:
            return None
        if not able(mover):
            return None
        foe = other(str(mover.side))
        return foe if self.op_fire_shots(state, foe, mover.id) else None

    def op_fire_shots(self, state: GameState, side: str, target: str) -> list[Action]:
        out: list[Action] = []
        budget = data().turn["op_fire_attack_ap"]
        for p in models(state, side):
            if p.has(OP_FIRE) and able(p) and not p.has(BROKEN):
                out += [
                    {**a, "do": "op-shot", "as": a["do"]} for a in fire_actions(state, p, budget, only=target)
                ]
        owners = [p for p in models(state, side) if p.has(OP_FIRE) and able(p) and not p.has(BROKEN)]
        if owners and state.marks.get("charges"):
            out += explosives.claymore_shots(state, side, state.map.piece(target), owners)
        return out

    # -- the protocol -----------------------------------------------------------------------

    def begin_phase(self, state: GameState, dice: Dice) -> list[str]:
        if free_play(state):
            return []
        if state.phase == "upkeep":
            return self._upkeep(state, dice)
        if state.phase == "morale":
            return self._morale(state, dice)
        return []

    def proposal(self, state: GameState) -> Action | None:
        if free_play(state):
            return None
        if state.phase == "upkeep" and (state.track("choosing") or setup.chooser(state)):
            return None
        if state.phase in ("upkeep", "morale"):
            return dict(END_PHASE)
        if state.marks.get("path"):
            return {"do": "step", "piece": state.marks["mover"][0]}
        a = active(state)
        if a is not None:
            if a.has(BROKEN) and not state.marked("rallied", a.id):
                return {"do": "rally", "piece": a.id}
            if num(a, "ap") <= 0 or not able(a):
                return {"do": "done", "piece": a.id}
            return None
        queue = [i for i in state.marks.get("team-queue", ()) if not state.marked("activated", i)]
        for ident in queue:
            p = state.map.piece(ident)
            if able(p) and not p.has(aid.CARRIED):
                return {"do": "activate", "piece": ident}
        if self._next_side(state) is None:
            return dict(END_PHASE)
        return None

    def choices(self, state: GameState, side: str) -> list[Action]:
        if free_play(state):
            return [dict(END_PHASE)]
        if state.window is not None:
            return self.op_fire_shots(state, side, str(state.window["after"]["piece"]))
        if self.actor(state) != side:
            return []
        if state.phase == "upkeep" and setup.chooser(state):
            return list(setup.choices(state, side))
        if state.phase == "upkeep":
            return [{"do": "first", "side": s} for s in (side, other(side))]
        a = active(state)
        if a is None:
            ready = self.ready(state, side)
            out: list[Action] = [{"do": "activate", "piece": p.id} for p in ready]
            teams = sorted({str(p.attr("team")) for p in ready})
            for team in teams:
                if sum(1 for p in ready if str(p.attr("team")) == team) > 1:
                    out.append({"do": "activate-team", "side": side, "team": team})
            return out
        return self.model_actions(state, a)

    def model_actions(self, state: GameState, a: Piece) -> list[Action]:
        """What the active model may do with the AP left."""
        ap = num(a, "ap")
        out: list[Action] = []
        medical = a.has(MEDICAL)
        if can_attack(state, a):
            out += fire_actions(state, a, ap)
            out += throw_actions(state, a, ap)
            out += cq_actions(state, a, ap)
        bandage = data().rules["medical"]["bandage_ap"]
        if ap >= bandage:
            if (a.has(BLEEDING) or medical) and not a.has(UNCONSCIOUS):
                out.append({"do": "bandage", "piece": a.id, "target": a.id})
            if not medical:
                for f in models(state, str(a.side)):
                    if (
                        f.id != a.id
                        and (
                            distance(f.hex, a.hex) == 1 or f.attr("carried-by") == a.id
                        )  # in contact (l.517)
                        and (f.has(BLEEDING) or f.has(MEDICAL))
                        and not f.has(DEAD)
                    ):
                        out.append({"do": "bandage", "piece": a.id, "target": f.id})
        wake = data().rules["medical"]["wake_ap"]
        if ap >= wake and not medical:
            for f in models(state, str(a.side)):
                if f.has(UNCONSCIOUS) and num(f, "hp") > 0 and distance(f.hex, a.hex) == 1:
                    out.append({"do": "wake", "piece": a.id, "target": f.id})
        if not medical:
            if not a.has(PRONE):
                out.append({"do": "prone", "piece": a.id})
            elif ap >= data().turn["stand_ap"] and not a.has(IMMOBILIZED):
                out.append({"do": "stand", "piece": a.id})
            if ap == data().turn["op_fire_ap"] and not a.has(BROKEN):
                out.append({"do": "op-fire", "piece": a.id})
            within = data().rules["morale"]["surrender_within"]
            for e in enemies(state, a):
                if e.has(BROKEN) and distance(e.hex, a.hex) <= within:
                    out.append({"do": "demand", "piece": a.id, "target": e.id})
        out += aid.aid_actions(state, a, models(state, str(a.side)), models(state, other(str(a.side))))
        if not medical and not a.has(BROKEN):
            out += explosives.set_actions(state, a, neighbours_on(state, a.hex))
        out += self.moves(state, a, medical)
        out.append({"do": "done", "piece": a.id})
        return out

    def moves(self, state: GameState, a: Piece, medical: bool = False) -> list[Action]:
        """Walks, runs and crawls within the AP left, each order to every hex it reaches
        (a short run is cheaper than a walk, and it costs to hit: the player's choice; a
        model needing medical attention only walks or crawls, l.485)."""
        ap = num(a, "ap")
        out: list[Action] = []
        orders = ["crawl"] if a.has(PRONE) else ["walk"]
        if not medical and not a.has(PRONE):
            orders.append("run")
        for order in orders:
            r = reach_of(state, a, order, ap)
            for h in sorted(r.costs, key=lambda h: (r.costs[h], h.q, h.r)):
                if h == a.hex:
                    continue
                out.append({"do": "move", "piece": a.id, "to": state.board.label(h), "order": order})
        return out

    def refusal(self, state: GameState, action: Action) -> str | None:
        if free_play(state):
            return None if action.get("do") == END_PHASE["do"] else generic_refusal(state, action)
        do = action.get("do")
        if do == END_PHASE["do"]:
            return (
                None
                if self.proposal(state) == END_PHASE
                else "the phase is not done: every model acts first (l.185)"
            )
        if do in ("step", "rally"):
            return None if self.proposal(state) == action else f"no {do} now"
        if do == "done" and self.proposal(state) == action:
            return None
        if state.window is not None:
            if action not in self.choices(state, str(state.window["side"])):
                return "only an op-fire shot at the model that acted, or pass, now (l.231)"
            return None
        side = self.actor(state)
        if side not in SIDES:
            return f"{do}: nobody chooses now"
        if action not in self.choices(state, str(side)):
            return f"{do} is not one of {side}'s legal actions now"
        return None

    def apply(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        if free_play(state):
            return generic_apply(state, action, dice)
        do = str(action["do"])
        handler = getattr(self, "_do_" + do.replace("-", "_"), None)
        if handler is None:
            raise ValueError(f"{GAME} has no action {do!r}")
        lines: list[str] = handler(state, action, dice)
        return lines

    # -- what the window asks (optional hooks; words.py) ---------------------------------

    def drag_action(self, state: GameState, piece_id: str, to: str, forced: bool) -> Action | None:
        """A counter dragged in the window: in free play the table's own move; in a game,
        the active model's walk (or crawl, else run) to that hex if it is legal."""
        if free_play(state):
            return {"do": "move", "piece": piece_id, "to": to}
        a = active(state)
        if a is None or a.id != piece_id:
            return None
        for order in ("walk", "crawl", "run"):
            action = {"do": "move", "piece": piece_id, "to": to, "order": order}
            if action in self.moves(state, a, a.has(MEDICAL)):
                return action
        return None

    # -- the turn's steps ---------------------------------------------------------------

    def _upkeep(self, state: GameState, dice: Dice) -> list[str]:
        """Start of turn: bleeding and survivability (A4), waking (l.511), khat
        (l.1410), run fatigue (l.201), fresh AP, initiative (l.185)."""
        if setup.pending(state):
            return setup.start(state, dice)
        lines: list[str] = []
        med = data().rules["medical"]
        ran_before = set(state.marks.get("ran", ()))
        for key in ("activated", "walked", "ran", "killed-this-turn", "active", "rallied", "team-queue"):
            state.marks.pop(key, None)
        state.marks["ran-before"] = sorted(ran_before)
        for p in models(state):
            if p.has(DEAD):
                continue
            hp = num(p, "hp")
            if not p.has(STABILIZED) and (hp <= 0 or p.has(BLEEDING)):
                need = med["survival_base"] + hp
                roll = dice.d10(f"survivability for {p.id}: {need} or less")
                if roll > need:
                    lines += combat.kill(state, p, f"shock of his wounds, rolled {roll} (l.493)")
                    continue
                hp -= 1
                p = p.with_attr("hp", hp)
                lines.append(f"{p.id} bleeds: {hp} HP")
                if hp <= med["dead_at"]:
                    state.map.update(p)
                    lines += combat.kill(state, p, f"{hp} HP")
                    continue
                if hp <= 0 and not p.has(UNCONSCIOUS):
                    p = replace(p, status=p.status | {UNCONSCIOUS, PRONE})
            elif p.has(UNCONSCIOUS) and hp > 0:
                roll = dice.d10(f"{p.id} wakes on {hp} or less")
                if roll <= hp:
                    p = replace(p, status=p.status - {UNCONSCIOUS})
                    lines.append(f"{p.id} regains consciousness")
            khat = "khat" in combat.innate(p) and not p.has("high")
            if khat and dice.d10(f"khat for {p.id}: high on 1-5") <= 5:
                p = replace(p, status=p.status | {"high"})
                lines.append(f"{p.id} is high on khat: no fatigue or morale (l.1410)")
            ap = data().turn["action_points"] if able(p) else 0
            if p.id in ran_before and "go-faster" not in combat.innate(p) and not p.has("high"):
                need = num(p, "ft")
                if dice.d10(f"fatigue for {p.id} (ran two turns): {need} or less") > need:
                    ap //= 2
                    lines.append(f"{p.id} catches his breath: {ap} AP this turn (l.201)")
            state.map.update(p.with_attr("ap", ap))
        lines += aid.let_go(state)
        lines += aid.load_checks(state, dice)
        lines += self._initiative(state, dice)
        return lines

    def _initiative(self, state: GameState, dice: Dice) -> list[str]:
        """D10 - the leader's CC, lowest wins; ties rolled again (G4: the best living
        leader's CC). The winner then chooses who activates first (``first``)."""
        cc = {}
        for side in SIDES:
            leaders = [num(p, "cc") for p in fighting(state, side) if p.type == "team-leader"]
            alive = [num(p, "cc") for p in fighting(state, side)]
            cc[side] = max(leaders or alive or [0])
        b, r, winner = setup.roll_off(dice, "initiative", (cc[BLUE], cc[RED]))
        state.tracks["initiative"] = winner
        state.tracks["first"] = state.tracks["next"] = winner
        state.tracks["choosing"] = 1
        return [
            f"initiative: blue {b}, red {r}; {SIDES[winner]} wins and chooses who activates first (l.187)"
        ]

    def _do_edge(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        return setup.take_edge(state, str(action["side"]), str(action["region"]), dice)

    def _do_place_first(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        """The placement winner's choice; both sides place, then the turn's start goes on."""
        order = setup.placing_order(state, str(action["side"]))
        self._place(state, order)
        return [f"{order[0]} places his models first, then {order[1]} (l.181)", *self._upkeep(state, dice)]

    def _do_first(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        """The initiative winner's choice: activate first, or let the opponent (l.187)."""
        first = SIDES.index(str(action["side"]))
        state.tracks["first"] = state.tracks["next"] = first
        state.tracks.pop("choosing", None)
        return [f"{action['side']} activates first"]

    def _morale(self, state: GameState, dice: Dice) -> list[str]:
        """End of turn: each team at its break point (half incapacitated) checks on its
        best ML (l.714, 722), -1 if its leader was killed, -2 if lost in one turn; a
        failure breaks every member. Broken models re-check as they activate."""
        lines: list[str] = []
        killed = set(state.marks.get("killed-this-turn", ()))
        broken_teams = set(state.marks.get("broken-teams", ()))
        teams: dict[str, list[Piece]] = {}
        for p in models(state):
            teams.setdefault(str(p.attr("team", "")), []).append(p)
        for p in state.box(CAPTURED):
            teams.setdefault(str(p.attr("team", "")), []).append(p)
        fraction = data().rules["morale"]["break_fraction"]
        for team, members in sorted(teams.items()):
            if team in broken_teams:
                continue
            down = [m for m in members if not able(m) or state.where(m.id) == CAPTURED or m.has(BROKEN)]
            standing = [m for m in members if able(m) and state.where(m.id) is None]
            if not standing or len(down) < fraction * len(members):
                continue
            modifier = 0
            if any(m.id in killed and m.type == "team-leader" for m in members):
                modifier += data().rules["morale"]["leader_killed"]
            best = max(standing, key=lambda m: num(m, "ml"))
            ok = combat.morale_check(state, best, dice, modifier, what=f"team {team} morale")
            broken_teams.add(team)
            if ok:
                lines.append(f"team {team} holds at its break point (l.722)")
                continue
            lines.append(f"team {team} breaks (l.722)")
            for m in standing:
                m = state.map.piece(m.id)
                if not combat.immune(m):
                    state.map.update(replace(m, status=(m.status | {BROKEN}) - {OP_FIRE}))
        state.marks["broken-teams"] = sorted(broken_teams)
        if state.turn >= state.track("turns") > 0:
            state.tracks["over"] = 1
        return lines

    # -- actions ---------------------------------------------------------------------------

    def _do_activate(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        p = state.map.piece(str(action["piece"]))
        state.marks["active"] = [p.id]
        state.mark("activated", p.id)
        if state.marked("fired-last", p.id):
            state.marks["fired-last"].remove(p.id)
        for key in ("moving-walk", "moving-run", "attacked"):
            state.marks.pop(key, None)
        lines = [f"{p.side} activates {p.id} ({num(p, 'ap')} AP)"]
        if p.has(OP_FIRE):
            state.map.update(replace(p, status=p.status - {OP_FIRE}))
            lines.append(f"{p.id} leaves op-fire")
        return lines

    def _end_activation(self, state: GameState, piece_id: str) -> None:
        """The turn passes to the other side, unless this model's team was activated
        as a whole and has members still to act (l.187)."""
        state.marks.pop("active", None)
        side = SIDES.index(str(state.map.piece(piece_id).side))
        queue = [
            i
            for i in state.marks.get("team-queue", ())
            if not state.marked("activated", i) and able(state.map.piece(i))
        ]
        state.marks["team-queue"] = queue
        if not queue:
            state.marks.pop("team-queue", None)
        state.tracks["next"] = side if queue else 1 - side

    def _do_activate_team(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        """INITIATIVE AND TURN SEQUENCE l.187: a player may activate a whole team; its
        members act one after another before the other side activates (the order of
        the team list: project's choice)."""
        side, team = str(action["side"]), str(action["team"])
        members = [p.id for p in self.ready(state, side) if str(p.attr("team")) == team]
        state.marks["team-queue"] = members[1:]
        first = self._do_activate(state, {"do": "activate", "piece": members[0]}, dice)
        return [f"{side} activates team {team} ({len(members)} models)", *first]

    def _do_done(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        p = state.map.piece(str(action["piece"]))
        self._end_activation(state, p.id)
        if num(p, "ap") > 0 and not p.has(OP_FIRE):
            state.map.update(p.with_attr("ap", 0))
        return [f"{p.id} ends his activation"]

    def _spend(self, state: GameState, piece: Piece, ap: int) -> Piece:
        piece = state.map.piece(piece.id).with_attr("ap", max(0, num(piece, "ap") - ap))
        state.map.update(piece)
        return piece

    def _do_rally(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        """A broken model re-checks as it activates (l.716); failing, it runs with all its
        AP to the farthest hex from the enemy it can reach, cover first."""
        p = state.map.piece(str(action["piece"]))
        state.mark("rallied", p.id)
        if combat.morale_check(state, p, dice, what="rally"):
            state.map.update(replace(state.map.piece(p.id), status=state.map.piece(p.id).status - {BROKEN}))
            return [f"{p.id} rallies"]
        lines = [f"{p.id} is still broken and runs for cover away from the enemy (l.716)"]
        foes = enemies(state, p)
        best = None
        for order in ("run", "walk", "crawl"):
            r = reach_of(state, p, order, num(p, "ap"))
            if len(r.costs) > 1:

                def score(h: Hex) -> tuple[int, str]:
                    return (min((distance(h, e.hex) for e in foes), default=0), state.board.label(h))

                best = (order, max(r.costs, key=score))
                break
        if best is None or best[1] == p.hex:
            self._end_activation(state, p.id)
            state.map.update(p.with_attr("ap", 0))
            return [*lines, f"{p.id} cannot get away"]
        return lines + self._do_move(
            state,
            {"do": "move", "piece": p.id, "to": state.board.label(best[1]), "order": best[0], "flee": True},
            dice,
        )

    def _do_move(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        p = state.map.piece(str(action["piece"]))
        order = str(action.get("order", "walk"))
        to = state.board.hex_of(str(action["to"]))
        r = reach_of(state, p, order, num(p, "ap"))
        path = r.path_to(to)[1:]
        cost = move_cost(p, order, r.costs[to])
        status = p.status - {PRONE} if order != "crawl" else p.status | {PRONE}
        p = replace(p, status=status)
        state.map.update(p)
        p = self._spend(state, p, num(p, "ap") if action.get("flee") else cost)
        mark = "ran" if order == "run" else "walked"
        state.mark(mark, p.id)
        state.mark("moving-run" if order == "run" else "moving-walk", p.id)
        state.marks["mover"] = [p.id]
        state.marks["path"] = [state.board.label(h) for h in path]
        if order == "run" and any(_move_policy().is_rubble(state.map, h) for h in path):
            state.marks["rubble-run"] = [p.id]
        lines = [f"{p.id} {'runs' if order == 'run' else order + 's'} toward {action['to']} ({cost} AP)"]
        return lines + self._do_step(state, {"do": "step", "piece": p.id}, dice)

    def _do_step(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        path = state.marks["path"]
        mover = state.map.piece(state.marks["mover"][0])
        to = state.board.hex_of(path.pop(0))
        facing = _facing(mover.hex, to)
        state.map.move(mover.id, to)
        aid.follow(state, state.map.piece(mover.id))
        if facing is not None:
            state.map.update(replace(state.map.piece(mover.id), facing=facing))
        lines = [f"{mover.id} enters {state.board.label(to)}"]
        mine = explosives.mine_in(state, to, mover)
        if mine is not None:
            lines.append(f"{mover.id} steps on a mine at {mine.at} (l.800)")
            lines += self._blow(state, mine, dice)
            path.clear()
        if not path:
            state.marks.pop("path")
            state.marks.pop("mover")
            lines += self._after_move(state, mover.id, dice)
        return lines

    def _after_move(self, state: GameState, piece_id: str, dice: Dice) -> list[str]:
        """A broken model's flight ends its activation; a rubble run risks a fall (l.209)."""
        p = state.map.piece(piece_id)
        lines: list[str] = []
        if state.marks.pop("rubble-run", None) == [p.id]:
            need = num(p, "st")
            if dice.d10(f"run in rubble: ST {need} or less, else {p.id} falls prone") > need:
                p = replace(p, status=p.status | {PRONE})
                state.map.update(p)
                lines.append(f"{p.id} falls prone running through rubble (l.209)")
        if p.has(BROKEN):
            self._end_activation(state, p.id)
            state.map.update(p.with_attr("ap", 0))
        return lines

    def _do_prone(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        p = state.map.piece(str(action["piece"]))
        state.map.update(replace(p, status=p.status | {PRONE}))
        return [f"{p.id} goes prone (free, l.203)"]

    def _do_stand(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        p = state.map.piece(str(action["piece"]))
        p = self._spend(state, p, data().turn["stand_ap"])
        state.map.update(replace(p, status=p.status - {PRONE}))
        return [f"{p.id} stands up (3 AP, l.204)"]

    def _do_op_fire(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        p = state.map.piece(str(action["piece"]))
        state.map.update(replace(p, status=p.status | {OP_FIRE}).with_attr("ap", 0))
        self._end_activation(state, p.id)
        return [f"{p.id} goes on op-fire: 10 AP, then 6 AP for one attack at any moment (l.231)"]

    def _do_bandage(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        p = state.map.piece(str(action["piece"]))
        self._spend(state, p, data().rules["medical"]["bandage_ap"])
        t = state.map.piece(str(action["target"]))
        state.map.update(replace(t, status=(t.status - {BLEEDING, MEDICAL}) | {STABILIZED}))
        who = "his own wound" if t.id == p.id else f"{t.id}'s wound"
        return [f"{p.id} bandages {who}: stabilized (GIVING AID l.517-519)"]

    def _do_wake(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        """UNCONSCIOUS l.513: a friend in contact spends 3 AP: D10 - 2 <= HP wakes him;
        never at 0 HP or less."""
        med = data().rules["medical"]
        p = self._spend(state, state.map.piece(str(action["piece"])), int(med["wake_ap"]))
        t = state.map.piece(str(action["target"]))
        face = dice.d10(f"{p.id} tries to wake {t.id}: D10 - {med['wake_bonus']} <= {num(t, 'hp')}")
        if face - int(med["wake_bonus"]) <= num(t, "hp"):
            state.map.update(replace(t, status=t.status - {UNCONSCIOUS}))
            return [f"{p.id} wakes {t.id} (rolled {face})"]
        return [f"{t.id} does not come round (rolled {face})"]

    def _do_treat(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        p = self._spend(
            state, state.map.piece(str(action["piece"])), int(data().rules["medical"]["medic_ap"])
        )
        return aid.treat(state, p, state.map.piece(str(action["target"])))

    def _do_carry(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        p = self._spend(
            state, state.map.piece(str(action["piece"])), int(data().rules["medical"]["carry_ap"])
        )
        return aid.pick_up(state, p, state.map.piece(str(action["target"])))

    def _do_drop(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        return aid.put_down(state, state.map.piece(str(action["piece"])))

    def _do_set_charge(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        p = state.map.piece(str(action["piece"]))
        cost, used, lines = explosives.place(state, p, action)
        p = self._spend(state, p, cost)
        kind = str(action["kind"])
        state.map.update(p.with_attr(f"x-{kind}", explosives.carried(p, kind) - used))
        return lines

    def _do_detonate(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        p = self._spend(state, state.map.piece(str(action["piece"])), int(explosives.rules()["trigger_ap"]))
        c = explosives.Charge.of(str(action["charge"]))
        return [f"{p.id} blows the {c.kind.replace('-', ' ')} at {c.at}", *self._blow(state, c, dice)]

    def _blow(self, state: GameState, c: explosives.Charge, dice: Dice) -> list[str]:
        """A set charge goes off: its template's wound rolls (kill zones kill), and
        structural damage where it lies in a building (C4, shaped charge)."""
        explosives.remove(state, c)
        blast, key = explosives.blast_of(c)
        w = data().weapon(key)
        at = state.board.hex_of(c.at)
        if not blast.rings:  # a shaped charge: the wall it is set on (l.804)
            return structures.damage(state, at, w.structural, dice)
        return self._explode(state, at, blast, w, dice, area=explosives.area_of(state, c))

    def _do_demand(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        t = state.map.piece(str(action["target"]))
        state.to_box(t.id, CAPTURED)
        return [f"{action['piece']} demands {t.id}'s surrender: the broken model surrenders (l.716-718)"]

    def _shoot(self, state: GameState, action: Action, dice: Dice, budget_from_op: bool) -> list[str]:
        shooter = state.map.piece(str(action["piece"]))
        target = state.map.piece(str(action["target"]))
        launch = action["do"] == "launch"
        if launch:
            w = data().weapon(str(shooter.attr("launcher")))
            mode, aimed = "ss", False
        else:
            w = weapon_of(shooter)
            mode, aimed = str(action.get("mode", "ss")), bool(action.get("aimed"))
        m = w.modes[mode]
        cost = m.ap + (data().rules["ranged_modifiers"]["aimed"]["ap"] if aimed else 0)
        if budget_from_op:
            state.map.update(replace(shooter, status=shooter.status - {OP_FIRE}).with_attr("ap", 0))
        else:
            self._spend(state, shooter, cost)
            state.mark("attacked", shooter.id)
        state.mark("fired-last", shooter.id)
        shooter = state.map.piece(shooter.id)
        if launch:
            state.map.update(shooter.with_attr("rounds", num(shooter, "rounds") - 1))
        else:
            state.map.update(shooter.with_attr("ammo", num(shooter, "ammo") - m.rounds))
        shooter = state.map.piece(shooter.id)
        mode_name = {"ss": "single shot", "bu": "a burst", "fa": "full auto"}[mode]
        lines = [f"{shooter.id} fires {w.name} ({mode_name}{', aimed' if aimed else ''}) at {target.id}"]
        if launch:
            return lines + self._blast_shot(state, shooter, target, w, dice)
        odds = combat.to_hit(state, shooter, target, w, mode, aimed)
        volleys: list[tuple[Piece, int]] = []
        if mode == "fa":
            at_target = -(-m.dice // 2)
            volleys.append((target, at_target))
            others = self._corridor(state, shooter, target, w)
            for i in range(m.dice - at_target):
                if others:
                    volleys.append((others[i % len(others)], 1))
        else:
            volleys.append((target, m.dice))
        reroll = "expert-rifleman" in combat.innate(shooter) and not state.marked("reroll-used", shooter.id)
        for victim, n in volleys:
            if not able(state.map.piece(victim.id)):
                continue
            o = odds if victim.id == target.id else combat.to_hit(state, shooter, victim, w, mode, aimed)
            lines.append(
                f"to hit {victim.id}: {needs(o.need)} (" + ", ".join(f"{k} {v:+d}" for k, v in o.parts) + ")"
            )
            for _ in range(n):
                face = dice.d10(f"to hit {victim.id}: {needs(o.need)}")
                hit = face == 1 or (face != 10 and face <= o.need)
                if not hit and reroll:
                    reroll = False
                    state.mark("reroll-used", shooter.id)
                    face = dice.d10(f"Expert Rifleman re-roll (l.972): {needs(o.need)}")
                    hit = face == 1 or (face != 10 and face <= o.need)
                if not hit:
                    continue
                now = state.map.piece(victim.id)
                if not able(now):
                    break
                now, more = self._into_melee(state, shooter, now, dice)
                lines += more
                lines += combat.resolve_hit(state, aid.who_is_hit(state, now, dice), w, o, aimed, dice)
        return lines + self._deaths_seen(state, dice)

    def _into_melee(
        self, state: GameState, shooter: Piece, victim: Piece, dice: Dice
    ) -> tuple[Piece, list[str]]:
        """FIRING INTO CLOSE QUARTERS COMBAT l.633-637: a hit on an enemy in contact with
        the shooter's friends lands on him on D10 <= 5 - (friends - enemies) in the
        melee, else on a friend (the nearest by id: project's choice)."""
        friends = [
            p for p in models(state, str(shooter.side))
            if p.id != shooter.id and able(p) and distance(p.hex, victim.hex) == 1
        ]  # fmt: skip
        if not friends:
            return victim, []
        foes = [
            p
            for p in models(state, str(victim.side))
            if able(p) and any(distance(p.hex, f.hex) == 1 for f in friends)
        ]
        need = combat.melee_fire_need(len(friends), len(foes))
        face = dice.d10(f"firing into close quarters: {need} or less hits the enemy")
        if face <= need:
            return victim, [f"into the melee: rolled {face}, the round finds {victim.id}"]
        friend = sorted(friends, key=lambda p: p.id)[0]
        return friend, [f"into the melee: rolled {face}, the round hits {friend.id} instead (l.635)"]

    def _corridor(self, state: GameState, shooter: Piece, target: Piece, w: Weapon) -> list[Piece]:
        """The other models in the full-auto corridor (l.416), nearest the target first
        (G6: friends included)."""
        area = full_auto_area(shooter.hex, target.hex, w.max_range, board=state.board)
        inside = [
            p for p in models(state) if p.hex in area and p.id not in (shooter.id, target.id) and able(p)
        ]
        inside = [p for p in inside if combat.sees(state, shooter, p)]
        return sorted(inside, key=lambda p: (distance(p.hex, target.hex), p.id))

    def _blast_shot(
        self, state: GameState, shooter: Piece, target: Piece, w: Weapon, dice: Dice
    ) -> list[str]:
        """A launcher round: to hit as a shot; a miss deviates like a grenade (project)."""
        odds = combat.to_hit(state, shooter, target, w, "ss")
        face = dice.d10(f"to hit {target.id}: {needs(odds.need)}")
        centre = target.hex
        lines = [f"to hit: {needs(odds.need)}, rolled {face}"]
        if not (face == 1 or (face != 10 and face <= odds.need)):
            dev = grenade_deviation(shooter.hex, target.hex, _Faces(dice, "deviation"))  # type: ignore[arg-type]
            centre = dev.lands
            lines.append(f"the round deviates {dev.distance} in (direction {dev.direction})")
        return lines + self._explode(state, centre, str(w.blast), w, dice)

    def _explode(
        self,
        state: GameState,
        centre: Hex,
        blast_key: str | Blast,
        w: Weapon,
        dice: Dice,
        area: Mapping[Hex, int] | None = None,
    ) -> list[str]:
        """A blast: every model in it takes its ring's wound rolls (GRENADES l.674-688),
        and the building it is centred in its structural damage (l.692)."""
        if not state.board.grid.contains(centre):
            return ["it lands off the table"]
        blast = blast_key if isinstance(blast_key, Blast) else blast_table().blast(blast_key)
        if area is None:
            area = blast_area(blast, centre, board=state.board)
        lines = [f"explosion at {state.board.label(centre)}"]
        for p in sorted(models(state), key=lambda p: (distance(p.hex, centre), p.id)):
            if p.hex not in area or p.has(DEAD):
                continue
            ring = blast.ring(area[p.hex])
            if ring.killed:
                lines += combat.kill(state, p, "in the kill zone")
                continue
            for _ in range(ring.wound_rolls):
                now = state.map.piece(p.id)
                if now.has(DEAD):
                    break
                lines += combat.resolve_hit(state, now, w, None, False, dice, dpr=ring.dpr)
        lines += structures.damage(state, centre, w.structural, dice)
        return lines + self._deaths_seen(state, dice)

    def _do_fire(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        return self._shoot(state, action, dice, False)

    def _do_launch(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        return self._shoot(state, action, dice, False)

    def _do_op_shot(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        """An op-fire shot inside the enemy's activation; a hit stops his move."""
        target = str(action["target"])
        inner = {k: v for k, v in action.items() if k != "as"} | {"do": str(action["as"])}
        before = state.map.piece(target)
        if action["as"] == "claymore":
            p = state.map.piece(str(action["piece"]))
            state.map.update(replace(p, status=p.status - {OP_FIRE}).with_attr("ap", 0))
            shot = [f"{p.id} blows his claymore from the clacker (l.835)"]
            shot += self._blow(state, explosives.Charge.of(str(action["charge"])), dice)
        else:
            shot = self._shoot(state, inner, dice, True)
        lines = [f"op-fire! {action['piece']} interrupts", *shot]
        now = state.map.piece(target)
        if state.marks.get("mover") == [target] and (
            now.status != before.status or num(now, "hp") != num(before, "hp")
        ):
            state.marks.pop("path", None)
            state.marks.pop("mover", None)
            lines.append(f"{target}'s move ends")
        if active(state) is not None and not able(state.map.piece(state.marks["active"][0])):
            self._end_activation(state, state.marks["active"][0])
        return lines

    def _do_fix_bayonet(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        p = self._spend(
            state, state.map.piece(str(action["piece"])), int(data().weapon("bayonet").cq["fix_ap"])
        )
        state.map.update(replace(p, status=p.status | {"bayonet-fixed"}))
        return [f"{p.id} fixes his bayonet (2 AP, l.569)"]

    def _do_cq(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        """CLOSE QUARTERS COMBAT l.537-561: D10 <= 5 + own modified CQ - the defender's;
        damage D10 - CQDPR on the wound chart (armour with no ARM: project's reading)."""
        p = state.map.piece(str(action["piece"]))
        t = state.map.piece(str(action["target"]))
        w = data().weapon(str(action["weapon"]))
        p = self._spend(state, p, int(w.cq["ap"]))
        state.mark("attacked", p.id)
        charging = state.marked("moving-run", p.id)
        mine = combat.cq_modifiers(state, p, t, charging, w.key == "bayonet")
        theirs = combat.cq_modifiers(state, t, p, False, False)
        if charging and combat.in_cover(state, t):
            theirs.append(("charged in cover (l.581)", data().rules["cq_modifiers"]["charged_in_cover"]))
        a_cq = num(p, "cq") + sum(v for _, v in mine)
        d_cq = num(t, "cq") + sum(v for _, v in theirs)
        need = combat.cq_need(a_cq, d_cq)
        face = dice.d10(f"close quarters: {needs(need)}")
        hit = face == 1 or (face != 10 and face <= need)
        parts = ", ".join(f"{k} {v:+d}" for k, v in mine + [(f"{t.id}'s {k}", -v) for k, v in theirs])
        lines = [f"{p.id} attacks {t.id} hand to hand with {w.name}: CQ {a_cq} against {d_cq}, "
                 f"{need} or less{' (' + parts + ')' if parts else ''}; rolled {face}"]  # fmt: skip
        if not hit:
            return [*lines, "no hit"]
        cq_weapon = replace(w, dpr=int(w.cq["cqdpr"]), arm=0)
        return (
            lines
            + combat.resolve_hit(state, aid.who_is_hit(state, t, dice), cq_weapon, None, False, dice)
            + self._deaths_seen(state, dice)
        )

    def _do_throw(self, state: GameState, action: Action, dice: Dice) -> list[str]:
        """GRENADES l.647-688: 3 AP; WP with the difficult-throw modifier when the target
        is behind cover or in a building; a miss deviates (D10 direction, D6 inches,
        halved within 10 in); civilians' grenades fail half the time (l.1456)."""
        p = state.map.piece(str(action["piece"]))
        t = state.map.piece(str(action["target"]))
        kind = str(action["grenade"])
        w = data().weapon(kind)
        p = self._spend(state, p, 3)
        state.mark("attacked", p.id)
        state.map.update(p.with_attr(f"g-{kind}", num(p, f"g-{kind}") - 1))
        rng = distance(p.hex, t.hex)
        los = combat.sight(state, p, t)
        difficult = any("cover roll due" in f.cause for f in los.modifiers)
        mod = 0
        if difficult:
            for band in data().rules["difficult_throw"]:
                if band["from"] <= rng <= band["to"]:
                    mod = band["to_hit"]
        need = num(p, "wp") + mod
        face = dice.d10(f"grenade at {t.id}: {needs(need)}")
        lines = [
            f"{p.id} throws a {w.name} at {t.id} ({rng} in{', a difficult throw' if difficult else ''}): {need} or less, rolled {face}"
        ]
        centre = t.hex
        if not (face == 1 or (face != 10 and face <= need)):
            dev = grenade_deviation(p.hex, t.hex, _Faces(dice, "deviation"))  # type: ignore[arg-type]
            centre = dev.lands
            lines.append(f"the grenade deviates {dev.distance} in")
        if "grenade-failure-half" in combat.innate(p) and dice.d10("civilian grenade: fails on 6-10") > 5:
            return [*lines, "the grenade fails to explode (l.1456)"]
        return lines + self._explode(state, centre, str(w.blast), w, dice)

    def _deaths_seen(self, state: GameState, dice: Dice) -> list[str]:
        """Teammates who see a friend killed take a Shell Shock check (l.716, 726); a
        carrier put out of the fight drops his load (l.531)."""
        lines: list[str] = aid.let_go(state)
        for dead_id in list(state.marks.get("killed-this-turn", ())):
            if state.marked("shock-done", dead_id):
                continue
            state.mark("shock-done", dead_id)
            dead = state.map.piece(dead_id)
            for m in models(state, str(dead.side)):
                if m.attr("team") != dead.attr("team") or not able(m) or m.has(BROKEN):
                    continue
                if distance(m.hex, dead.hex) <= 12 and combat.sees(state, m, dead):
                    lines += combat.shell_shock(state, m, dice)
        return lines

    # -- the end -------------------------------------------------------------------------

    def outcome(self, state: GameState) -> str | None:
        """G10 (project's choice): a side with no model able to fight (dead, unconscious,
        captured) loses at once, one whose models are all broken loses at the end of the
        turn; after the last turn, the higher score of points of enemies put out of the
        fight plus 50 an objective held wins."""
        if free_play(state) or state.phase == "setup" or setup.pending(state):
            return None
        left = {s: [p for p in fighting(state, s)] for s in SIDES}
        if not left[BLUE] and not left[RED]:
            return "draw (nobody is left to fight)"
        for side in SIDES:
            if not left[side]:
                return f"{other(side)} wins ({side} has nobody left to fight)"
        if state.phase == "morale" and state.track("over") == 0:
            for side in SIDES:
                if all(p.has(BROKEN) for p in left[side]) and not all(
                    p.has(BROKEN) for p in left[other(side)]
                ):
                    return f"{other(side)} wins ({side} is broken)"
        if state.track("over"):
            s = score(state)
            if s[BLUE] == s[RED]:
                return f"draw at the end of turn {state.turn} ({s[BLUE]} points each)"
            win = BLUE if s[BLUE] > s[RED] else RED
            return f"{win} wins on points after turn {state.turn} ({s[win]} to {s[other(win)]})"
        return None


def needs(need: int) -> str:
    """A to-hit number in words: below 1 only a natural 1 hits, from 10 all but a 10
    (ROLL "TO HIT" DICE l.414); found playing under Xvfb: "-2 or less" puzzled."""
    if need < 1:
        return f"a natural 1 only (needs {need})"
    if need > 9:
        return f"anything but a 10 (needs {need})"
    return f"{need} or less"


def _toward_middle(board: Any, zone_row: float) -> int:
    """+1 when a set-up zone lies north of the map's middle (its models face south),
    -1 when south: a scenario may put either side on either edge."""
    rows = [h.r + h.q / 2 for h in board.grid.hexes()]
    middle = (min(rows) + max(rows)) / 2
    return 1 if zone_row < middle else -1


def _facing(a: Hex, b: Hex) -> int | None:
    from tabletop.hexgrid import DIRECTIONS

    v = b - a
    for i, d in enumerate(DIRECTIONS):
        if d == v:
            return i
    return None


def model_points(piece: Piece) -> int:
    """What a model is worth: its team's points shared by its members."""
    faction = data().factions.get(str(piece.attr("faction", "")))
    return faction.points // max(1, len(faction.roles)) if faction is not None else 0


def score(state: GameState) -> dict[str, int]:
    """Each side's points: enemy models put out of the fight (dead, unconscious,
    captured, broken) at their share of their team's points, and 50 an objective held
    (an able, unbroken model of the side within 1 inch and none of the enemy's; a
    scenario may price its objectives otherwise: ``game: objective-points``)."""
    out = {BLUE: 0, RED: 0}
    for p in models(state) + state.box(CAPTURED):
        gone = state.where(p.id) == CAPTURED or not able(p) or p.has(BROKEN)
        if gone and p.side in out:
            out[other(str(p.side))] += model_points(p)
    worth = state.track("objective-points") or OBJECTIVE_POINTS
    for label in state.marks.get("objectives", ()):
        h = state.board.hex_of(label)
        near = {s for s in SIDES for p in fighting(state, s) if distance(p.hex, h) <= 1 and not p.has(BROKEN)}
        if len(near) == 1:
            out[near.pop()] += worth
    return out


def neighbours_on(state: GameState, h: Hex) -> list[Hex]:
    return [n for n in neighbors(h) if state.board.grid.contains(n)]


def ruleset() -> DogsOfWarRules:
    return DogsOfWarRules()
