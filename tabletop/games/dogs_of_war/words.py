"""Dogs of War in words for the window: the rules of the phase, the score line, a
model's notes and each action a player may choose (the rules' hooks ``phase_rules``,
``status``, ``unit_lines`` and ``describe``). The window decides nothing with them."""

from __future__ import annotations

from tabletop.engine.actions import Action
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState

from .combat import num
from .data import data
from .ruleset import SIDES, active, fighting, free_play, score

PHASE_RULES = {
    "upkeep": [
        "l.487 (A4): a model at 0 HP or less, or bleeding and not bandaged, rolls D10 <= 10 + HP: pass -1 HP, fail KIA",
        "l.511: the unconscious wake on D10 <= HP; khat (l.1410): high on 1-5",
        "l.201: a model that ran two turns in a row checks FT or has half its AP",
        "l.187: initiative D10 - the leader's CC, the lower activates first",
    ],
    "activations": [
        "l.187: the sides alternate, a model or a whole team at a time, until every model has acted",
        "l.191: 10 AP: walk 1/in, run 3 per 5 in, crawl 2/in, stand 3, prone free, grenade 3, bandage 5",
        "l.231: op-fire 10 AP, then one attack of up to 6 AP inside the enemy's activation",
        "l.319: enemies within 10 in must be targeted first",
        "l.414: to hit D10 <= WP + range + modifiers; a 1 always hits, a 10 always misses",
        "l.557: close quarters D10 <= 5 + own CQ - the opponent's",
    ],
    "morale": [
        "l.714, 722: a team half incapacitated checks on its best ML; failing, it breaks",
        "l.716: a broken model re-checks as it activates, else runs for cover; it surrenders when demanded within 5 in",
    ],
}
MODES = {"ss": "single shot", "bu": "burst", "fa": "full auto"}


def phase_rules(state: GameState) -> list[str]:
    return [] if free_play(state) else PHASE_RULES.get(state.phase, [])


def status(state: GameState) -> str:
    """Models still fighting and the points each side scores now (G10)."""
    if free_play(state):
        return "free play on the Dogs of War table (no rosters in this scenario)"
    points = score(state)
    parts = [f"{side} {len(fighting(state, side))} fighting, {points[side]} points" for side in SIDES]
    turns = state.track("turns")
    return " · ".join(parts) + (f" · last turn {turns}" if turns else "")


def unit_lines(state: GameState, piece: Piece) -> list[str]:
    """The model's AP, HP and kit (the sheet panel has the rest)."""
    if piece.kind != "unit" or piece.attr("faction") is None:
        return []
    w = data().weapons.get(str(piece.attr("weapon")))
    lines = [f"AP {num(piece, 'ap')} · HP {num(piece, 'hp')}/{num(piece, 'hp-max')} · WP {num(piece, 'wp')}"]
    if w is not None:
        lines.append(f"{w.name}: {num(piece, 'ammo')} rounds")
    a = active(state)
    if a is not None and a.id == piece.id:
        lines.append("acting now")
    return lines


def describe(state: GameState, action: Action) -> str:
    """An action in words."""
    do = str(action.get("do"))
    who = str(action.get("piece", ""))
    target = str(action.get("target", ""))
    if do == "first":
        return f"{action.get('side')} activates first"
    if do == "activate":
        return f"activate {who}"
    if do == "activate-team":
        return f"activate team {action.get('team')} (each member in turn)"
    if do == "done":
        return f"{who}: end the activation"
    if do == "move":
        return f"{who}: {action.get('order', 'walk')} to {action.get('to')}"
    if do in ("fire", "op-shot") and action.get("as", "fire") == "fire":
        aimed = ", aimed" if action.get("aimed") else ""
        op = "op-fire: " if do == "op-shot" else ""
        return f"{op}{who} fires ({MODES.get(str(action.get('mode')), '')}{aimed}) at {target}"
    if do in ("launch", "op-shot"):
        return f"{who} fires his launcher at {target}"
    if do == "throw":
        return f"{who} throws a {action.get('grenade')} at {target}"
    if do == "cq":
        return f"{who} attacks {target} hand to hand ({action.get('weapon')})"
    if do == "bandage":
        return f"{who} bandages {'himself' if target == who else target} (5 AP)"
    if do == "op-fire":
        return f"{who} goes on op-fire (10 AP)"
    if do == "demand":
        return f"{who} demands {target}'s surrender"
    if do == "wake":
        return f"{who} tries to wake {target} (3 AP)"
    if do == "treat":
        return f"{who}, combat medic, treats {target} (5 AP: bleeding stopped, +1 HP)"
    if do == "carry":
        return f"{who} picks up {target} to carry him (5 AP)"
    if do == "drop":
        return f"{who} puts {target} down"
    if do in ("prone", "stand", "fix-bayonet"):
        return f"{who}: {do.replace('-', ' ')}"
    return " ".join(f"{k} {v}" for k, v in action.items())
