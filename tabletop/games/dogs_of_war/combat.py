"""Dogs of War fire and wounds: the to-hit number of a shot and its parts, hit
location, cover rolls, armour, the wound chart and what a wound does to a model
(RANGED COMBAT l.262-459, DAMAGE DEFINITIONS l.473-535, MORALE shell shock l.726).

Pure rules over a ``GameState`` and the game's dice; the turn (``ruleset``) calls them,
the bots and the window read ``to_hit`` to show the odds the rules roll by.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from tabletop.engine.dice import Dice
from tabletop.engine.los import LosQuery, LosResult, line_of_sight
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import distance

from .data import Weapon, data
from .los import DogsOfWarPolicy

RULE = "Dogs of War"
NIGHT = "night"
# status words the rules set (counters/dogs-of-war.yaml draws them)
DEAD, UNCONSCIOUS, PRONE, IMMOBILIZED = "dead", "unconscious", "prone", "immobilized"
BLEEDING, MEDICAL, SEVERE, STABILIZED = "bleeding", "medical", "severely-wounded", "stabilized"
ONE_ACTION, ONE_HANDED, BROKEN, OP_FIRE = "one-action", "one-handed", "broken", "op-fire"
OUT = frozenset({DEAD, UNCONSCIOUS})
FLASH = "muzzle-flash"  # los.yaml darkness.kits: the night sight a muzzle flash lends (l.297)


@cache
def policy() -> DogsOfWarPolicy:
    return DogsOfWarPolicy()


def num(piece: Piece, key: str, default: int = 0) -> int:
    """A whole-number attribute of a model (its stats, AP, ammunition)."""
    value = piece.attr(key, default)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def conditions(state: GameState) -> frozenset[str]:
    return frozenset(state.marks.get("conditions", ()))


def sight(state: GameState, shooter: Piece, target: Piece) -> LosResult:
    """The line of sight of a shot. Facing is left out: turning is free (Misc Actions
    l.232), so a model about to fire faces its target (project's reading). At night a
    target that has fired since its last activation shows its muzzle flash (l.297,
    project's reading in los.yaml)."""
    viewer = replace(shooter, facing=None)
    flash = state.marked("fired-last", target.id) and policy().table.muzzle_flash
    if flash and NIGHT in conditions(state) and policy().kit_of(viewer) is None:
        viewer = replace(viewer, status=viewer.status | {FLASH})  # l.297: seen by his flash
    key = (state.map.version, viewer, target, conditions(state))
    found = _sights.get(key)
    if found is None:
        query = LosQuery(shooter.hex, target.hex, viewer=viewer, target_piece=target, conditions=key[3])
        if len(_sights) >= SIGHTS_KEPT:
            _sights.clear()
        found = _sights[key] = line_of_sight(state.map, policy(), query)
    return found


# (map version, viewer, target, conditions) -> the line: a bot weighing its shots and the
# rules judging the one taken ask the same line about half the time (issue 19). The map's
# version is new on every change of pieces or ground, in any state, so a kept line is
# always the one ``line_of_sight`` would draw now.
_sights: dict[tuple[int, Piece, Piece, frozenset[str]], LosResult] = {}
SIGHTS_KEPT = 4096


def sees(state: GameState, shooter: Piece, target: Piece) -> bool:
    return sight(state, shooter, target).result != "blocked"


@dataclass(frozen=True)
class Odds:
    """A shot's to-hit number and the parts it is made of (ROLL "TO HIT" DICE l.414:
    WP + range modifier + modifiers), and the cover the line passes."""

    need: int
    parts: tuple[tuple[str, int], ...]
    in_range: bool
    cover: str | None  # "soft" / "hard" / None
    low_cover: bool  # cover protecting only locations 4-8 (A1)

    @property
    def chance(self) -> float:
        """The chance one die hits (a natural 1 hits, a 10 misses)."""
        return min(9, max(1, self.need)) / 10


def to_hit(
    state: GameState,
    shooter: Piece,
    target: Piece,
    weapon: Weapon,
    mode: str,
    aimed: bool = False,
    los: LosResult | None = None,
) -> Odds:
    """The to-hit number of one shot and each part of it (l.379-414)."""
    d = data()
    mods = d.rules["ranged_modifiers"]
    los = los or sight(state, shooter, target)
    rng = distance(shooter.hex, target.hex)
    band = weapon.range_modifier(rng)
    parts: list[tuple[str, int]] = [(f"WP {num(shooter, 'wp')}", num(shooter, "wp"))]
    parts.append((f"range {rng} in", band if band is not None else 0))
    if aimed:
        parts.append(("aimed shot (l.381)", mods["aimed"]["to_hit"]))
    if weapon.scope:
        parts.append(("sniper scope (l.382)", mods["scope"]["to_hit"]))
    if shooter.has(PRONE):
        parts.append(("firing prone (l.384)", mods["prone_firing"]["to_hit"]))
    if mode == "bu":
        parts.append(("burst (l.385)", mods["burst"]["to_hit"]))
    if mode == "fa":
        parts.append(("full auto (l.386)", mods["full_auto"]["to_hit"]))
    if state.marked("moving-run", shooter.id):
        parts.append(("running and firing (l.388)", mods["running"]["to_hit"]))
    elif state.marked("moving-walk", shooter.id):
        parts.append(("walking and firing (l.387)", mods["walking"]["to_hit"]))
    if state.marked("ran", target.id):
        parts.append(("target is running (l.389)", mods["target_running"]["to_hit"]))
    elif state.marked("walked", target.id):
        parts.append(("target is walking (l.390)", mods["target_walking"]["to_hit"]))
    for f in (*los.hindrances, *los.modifiers):
        if f.severity == "hinder" or (f.severity == "modifier" and "to hit" in f.cause):
            parts.append((f.cause, -f.amount))
    cover, low = None, False
    for f in los.modifiers:
        if "cover roll due" in f.cause:
            kind = "hard" if f.cause.startswith("hard") else "soft"
            if cover != "hard":
                cover = kind
            low = low or _low(state.map, f.hex)
    need = sum(v for _, v in parts)
    return Odds(need, tuple(parts), band is not None, cover, low)


def _low(state: MapState, h: object) -> bool:
    """Whether the cover is a wall, hedge, rubble or wreck (protects locations 4-8, A1)."""
    if h is None:
        return True  # a hexside: a wall or a hedge
    kind = state.board.terrain_types[state.terrain_at(h)].properties.get("kind")  # type: ignore[arg-type]
    return kind in data().turn["low_cover"]


Roll = Callable[[str], int]


def resolve_hit(
    state: GameState,
    target: Piece,
    weapon: Weapon,
    odds: Odds | None,
    aimed: bool,
    dice: Dice,
    dpr: int | None = None,
) -> list[str]:
    """One hit on ``target``: location, cover roll, armour, wound (l.418-459)."""
    d = data()
    lines: list[str] = []
    face = dice.d10(f"hit location on {target.id}")
    if aimed and face > 1:
        face -= 1
    loc = d.location(face)
    lines.append(f"{target.id} is hit in the {loc} (location roll {face})")
    if odds is not None and odds.cover is not None:
        protected = target.has(PRONE) or not odds.low_cover or loc in d.turn["low_cover_locations"]
        if protected:
            score = int(weapon.cover.get(odds.cover, 10))
            roll = dice.d10(f"cover roll: {odds.cover} cover, {score} or less gets through")
            if roll > score:
                lines.append(
                    f"the {odds.cover} cover stops the round (rolled {roll}, needed {score} or less)"
                )
                return lines
            lines.append(f"the round gets through the {odds.cover} cover (rolled {roll})")
    ar = armour(target, loc)
    if ar > 0:
        need = ar + weapon.arm
        roll = dice.d10(f"armour check on the {loc}: {need} or less saves (a 1 always saves)")
        if roll == 1 or roll <= need:
            lines.append(f"{target.id}'s armour saves (rolled {roll})")
            return lines
        lines.append(f"the armour fails (rolled {roll}, needed {need})")
    return lines + wound(state, target, loc, weapon.dpr if dpr is None else dpr, dice)


def armour(piece: Piece, location: str) -> int:
    """The model's AR at ``location`` (A6: helmet on the head, body armour on chest
    and stomach)."""
    groups = data().rules["armour_locations"]
    if location in groups["head"]:
        return num(piece, "ar-head")
    if location in groups["body"]:
        return num(piece, "ar-body")
    return 0


def wound(state: GameState, target: Piece, location: str, dpr: int, dice: Dice) -> list[str]:
    """A damage roll (D10 - DPR) on the wound chart and what it does (l.430-459)."""
    roll = dice.d10(f"damage on {target.id}'s {location}: D10 - DPR {dpr}")
    cell = data().wound(location, roll - dpr)
    return apply_wound(state, state.map.piece(target.id), location, roll - dpr, cell, dice)


def apply_wound(
    state: GameState, piece: Piece, location: str, modified: int, cell: Mapping[str, Any], dice: Dice
) -> list[str]:
    """The chart's cell applied to ``piece``: killed, HP, status words, checks."""
    if cell.get("killed"):
        return kill(state, piece, f"killed outright ({location}, {modified})")
    effects = set(cell.get("effects", ()))  # type: ignore[call-overload]
    lines: list[str] = []
    loss = int(cell.get("hp", 0))  # type: ignore[call-overload]
    status = set(piece.status)
    words = {"medical": MEDICAL, "bleeding": BLEEDING, "immobilized": IMMOBILIZED, "severe": SEVERE}
    words |= {"one-action": ONE_ACTION, "one-handed": ONE_HANDED, "unconscious": UNCONSCIOUS}
    for e in effects:
        if e in words:
            status.add(words[e])
    if effects & {"bleeding", "medical"}:
        status.discard(STABILIZED)
    if effects & {"immobilized", "unconscious"}:
        status.add(PRONE)
    hp = num(piece, "hp") - loss
    piece = replace(piece, status=frozenset(status)).with_attr("hp", hp)
    if loss:
        lines.append(
            f"{piece.id}: {location} wound, -{loss} HP (now {hp})"
            + (f"; {', '.join(sorted(effects))}" if effects else "")
        )
    if hp <= data().rules["medical"]["dead_at"]:
        state.map.update(piece)
        return lines + kill(state, piece, f"HP {hp}")
    if hp <= 0 and not piece.has(UNCONSCIOUS):
        piece = replace(piece, status=piece.status | {UNCONSCIOUS, PRONE} - {OP_FIRE})
        lines.append(f"{piece.id} falls unconscious at {hp} HP (l.477)")
    if piece.has(UNCONSCIOUS):
        piece = replace(piece, status=piece.status - {OP_FIRE}).with_attr("ap", 0)
    state.map.update(piece)
    if "near-miss" in effects:
        lines += shell_shock(state, piece, dice, near_miss=True)
    elif "shell-shock" in effects and not piece.has(UNCONSCIOUS):
        lines += shell_shock(state, piece, dice)
    return lines


def kill(state: GameState, piece: Piece, why: str) -> list[str]:
    """The model dies: it lies where it fell (models pass over the dead, l.256); its
    teammates who see it take a Shell Shock check (l.716)."""
    # the dead keep no wound or state words (the window showed "DEAD+3" chips): only
    # whether a friend was carrying him or he someone
    status = (piece.status & {"carried", "carrying"}) | {DEAD, PRONE}
    state.map.update(replace(piece, status=status).with_attr("ap", 0))
    state.mark("killed-this-turn", piece.id)
    lines = [f"{piece.id} is killed ({why})"]
    return lines


def immune(piece: Piece) -> bool:
    """Jihad: never a morale test (l.1519); high on khat: ignores morale (l.1410)."""
    perks = piece.attr("perks", ())
    return (isinstance(perks, tuple) and "jihad" in perks) or piece.has("high")


def morale_check(state: GameState, piece: Piece, dice: Dice, modifier: int = 0, what: str = "morale") -> bool:
    """D10 <= ML + modifiers (MORALE l.716); Disciplined ignores the first (l.973)."""
    if immune(piece):
        return True
    if "disciplined" in innate(piece) and not state.marked("discipline-used", piece.id):
        state.mark("discipline-used", piece.id)
        return True
    need = num(piece, "ml") + modifier
    return dice.d10(f"{what} check for {piece.id}: {need} or less") <= need


def shell_shock(state: GameState, piece: Piece, dice: Dice, near_miss: bool = False) -> list[str]:
    """SHELL SHOCK l.726: a failure breaks the model; a near miss that fails ducks for
    cover instead (falls prone, loses the AP left: G8 reading)."""
    piece = state.map.piece(piece.id)
    if piece.status & OUT:
        return []
    if morale_check(state, piece, dice, what="shell shock"):
        return [f"{piece.id} keeps his nerve"]
    piece = state.map.piece(piece.id)
    if near_miss:
        state.map.update(replace(piece, status=piece.status | {PRONE} - {OP_FIRE}).with_attr("ap", 0))
        return [f"{piece.id} ducks for cover (near miss)"]
    state.map.update(replace(piece, status=piece.status | {BROKEN} - {OP_FIRE}))
    return [f"{piece.id} is shell-shocked and breaks (l.726)"]


def innate(piece: Piece) -> frozenset[str]:
    faction = data().factions.get(str(piece.attr("faction", "")))
    return faction.innate if faction is not None else frozenset()


# --- the text's formulas (worked examples as tests) --------------------------------------


def wk_need(wk: int, difficulty: int) -> int:
    """Weapon Knowledge check (ABILITIES l.126): 5 + (WK - difficulty); WK 4 against
    difficulty 3 needs 6 or less."""
    return 5 + (wk - difficulty)


def cq_need(attacker: int, defender: int) -> int:
    """Close quarters (l.539, 557): 5 + attacker's modified CQ - defender's."""
    return int(data().rules["cq_base"]) + attacker - defender


def tackle_need(own_st: int, their_st: int) -> int:
    """Opposed Strength Check (TACKLING l.617): 5 + your ST - opponent's ST."""
    return 5 + own_st - their_st


def melee_fire_need(friends: int, enemies: int) -> int:
    """Firing into close quarters (l.633-637): D10 <= 5 - (friends - enemies) hits the
    intended enemy; 3 friends against 2 enemies need 4, outnumbered by 2 need 7."""
    return 5 - (friends - enemies)


def cq_modifiers(
    state: GameState, me: Piece, them: Piece, charging: bool, bayonet: bool
) -> list[tuple[str, int]]:
    """The CQ modifiers of ``me`` against ``them`` (CLOSE QUARTERS COMBAT MODIFIERS
    l.563-605): charge, bayonet, high ground, prone, charged in cover, trained, deadly
    hands, the opponent's ranged attack."""
    m = data().rules["cq_modifiers"]
    out: list[tuple[str, int]] = []
    if charging:
        out.append(("charge (l.565)", m["charge"]))
        if bayonet:
            out.append(("fixed bayonet (l.569)", m["bayonet"]))
    pol = policy()
    if pol.level_of(state.map, me.hex, me) - pol.level_of(state.map, them.hex, them) >= 1:
        out.append(("high ground (l.573)", m["high_ground"]))
    if me.has(PRONE) and not them.has(PRONE):
        out.append(("prone (l.577)", m["prone"]))
    perks = me.attr("perks", ())
    if isinstance(perks, tuple) and "deadly-hands" in perks:
        out.append(("deadly hands (l.599)", m["deadly_hands"]))
    elif isinstance(perks, tuple) and "trained" in perks:
        out.append(("trained (l.585)", m["trained"]))
    if state.marked("fired-last", them.id):
        out.append(("opponent made a ranged attack (l.603)", m["opponent_fired"]))
    return out


def in_cover(state: GameState, piece: Piece) -> bool:
    """Whether the model stands in cover terrain (for CHARGED IN COVER l.581)."""
    props = state.board.terrain_types[state.map.terrain_at(piece.hex)].properties
    return props.get("cover") in ("soft", "hard")
