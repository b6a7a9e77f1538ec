"""What Dogfaces in Space says in the window's game box: the phase's rules in short
(with the project's choices marked), the score line, a selected soldier's numbers and
state, and actions in words. Read from the same data the rules play by."""

from __future__ import annotations

from tabletop.engine.actions import Action
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState

from .ruleset import (
    ATTACK_PHASES,
    MOVE_PHASES,
    OOC,
    OVERWATCH,
    ROCKETS,
    SIDES,
    STUNNED,
    DogfacesRules,
    leader_number,
    phase_side,
    soldier,
    units,
    weapons_of,
)  # fmt: skip
from .tables import ABILITY_TEXT

PHASE_RULES = {
    "move": [
        "V: each soldier moves his move units (2; Brett 3, LCV 4, MCV 3) or Larry jets 4-5 in a line.",
        "V: friends may be passed, not ended on; entering a hex next to an enemy ends the move.",
        "V: up to 2 soldiers within a leader's range may go into Overwatch instead of moving.",
        "VII: a side may surrender in its own Movement phase.",
        "project's choice (G-D12): an Overwatch shot is one soldier's attack; any result ends the move.",
    ],
    "attack": [
        "VI: declare shots (each soldier's weapon, range and sight), then resolve: damage is summed per target.",
        "VI: frag and flame splash are separate 1-point attacks, never added to others.",
        "V: forest -1 to the roll; hill -1 from below; town -1 to the strength and Retreat 1.",
        "project's choice (G-D4): a retreat goes 2 hexes away from every attacker, cover first.",
    ],
    "stun": [
        "IV.5: a Stunned soldier recovers on 6, his own number, or a leader's within range;",
        "II: automatically next to Uriah (if Uriah is not Stunned).",
    ],
    "victory": ["VII: the last side with soldiers on the map wins."],
}


def phase_rules(state: GameState) -> list[str]:
    if state.phase in MOVE_PHASES:
        return PHASE_RULES["move"]
    if state.phase in ATTACK_PHASES:
        return PHASE_RULES["attack"]
    return PHASE_RULES.get(state.phase, [])


def status(state: GameState) -> str:
    """Soldiers on the map and out of combat, per side, and who is Player 1."""
    parts = []
    for side in SIDES:
        out = sum(1 for p in state.box(OOC) if p.side == side)
        parts.append(f"{side} {len(units(state, side))} on the map, {out} out")
    first = SIDES[state.track("player1")] if "player1" in state.tracks else "to be rolled"
    return " · ".join(parts) + f" · Player 1: {first}"


def unit_lines(state: GameState, piece: Piece) -> list[str]:
    """A soldier's weapons, abilities, Leadership and what he may still do."""
    if piece.kind != "unit":
        return []
    try:
        s = soldier(piece)
    except ValueError:
        return []
    out = [" or ".join(f"{w.name} {w.nearest}-{w.farthest} ({w.damage} {w.kind})" for w in weapons_of(piece))]
    out += [ABILITY_TEXT[a] for a in sorted(s.abilities)]
    if s.leader is not None:
        out.append(f"leader: range {s.leader.range}, recovery {s.leader.recovers}-6")
    if s.recovers < 6:
        out.append(f"recovers on {s.recovers}-6")
    benefit = leader_number(state, piece)
    if benefit is not None:
        out.append(f"within a Leadership Benefit ({benefit}-6)")
    if piece.attr(ROCKETS) is not None:
        out.append(f"rockets left: {piece.attr(ROCKETS)}")
    for word, text in ((STUNNED, "Stunned"), (OVERWATCH, "in Overwatch")):
        if piece.has(word):
            out.append(text)
    if state.marked("ow-fired", piece.id):
        out.append("fired in Overwatch: no shot in his next Attack phase")
    if state.marked("moved", piece.id):
        out.append("has moved this phase")
    return out


def describe(state: GameState, action: Action) -> str:
    """An action in words."""
    do = action.get("do")
    who = action.get("piece", action.get("side", ""))
    if do == "shoot" or do == "overwatch-fire":
        try:
            w = weapons_of(state.map.piece(str(who)))[int(action["weapon"])].name
        except (KeyError, IndexError, ValueError):
            w = "weapon"
        splash = f", splash on {action['splash']}" if action.get("splash") else ""
        verb = "fires from Overwatch" if do == "overwatch-fire" else "aims"
        return f"{who} {verb}: {w} at {action.get('target')}{splash}"
    if do in ("move", "jet"):
        return f"{who} {'jets' if do == 'jet' else 'moves'} to {action.get('to')}"
    if do == "overwatch":
        return f"{who} goes into Overwatch"
    if do == "resolve":
        return f"{who}: resolve the declared attacks"
    if do == "surrender":
        return f"{who} surrenders"
    return " ".join(str(v) for v in action.values())


def drag_action(state: GameState, piece_id: str, to: str, forced: bool) -> Action | None:
    """A soldier dropped on a hex in his side's Movement phase: a walk, else a jet."""
    if forced or state.phase not in MOVE_PHASES:
        return None
    try:
        piece = state.map.piece(piece_id)
    except KeyError:
        return None
    if piece.side != phase_side(state) or piece.kind != "unit":
        return None
    walk: Action = {"do": "move", "piece": piece_id, "to": to}
    if soldier(piece).has("jet-pack") and walk not in DogfacesRules().unit_moves(state, piece):
        return {"do": "jet", "piece": piece_id, "to": to}
    return walk
