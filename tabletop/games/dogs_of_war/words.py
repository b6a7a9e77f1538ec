"""Dogs of War in words for the window: the rules of the phase, the score line, a
model's notes and each action a player may choose (the rules' hooks ``phase_rules``,
``status``, ``unit_lines`` and ``describe``). The window decides nothing with them."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from tabletop.engine.actions import Action
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState

from .combat import num
from .data import data
from .ruleset import SIDES, active, fighting, free_play, score

PHASES_FILE = Path(__file__).with_name("phases.yaml")


@cache
def phase_texts() -> dict[str, dict[str, list[str]]]:
    """phases.yaml: each phase's rules and the project's choices, checked at their lines."""
    from tabletop.games.dog_sector.phase_texts import read_phase_texts

    from .ruleset import SEQUENCE

    return read_phase_texts(PHASES_FILE, (p.key for p in SEQUENCE))


MODES = {"ss": "single shot", "bu": "burst", "fa": "full auto"}


def phase_rules(state: GameState) -> list[str]:
    """The phase's rules, then each choice the project made, marked as such."""
    if free_play(state):
        return []
    text = phase_texts().get(state.phase, {})
    mine = [f"project's choice: {c}" for c in text.get("choices", [])]
    scenario = [
        f"scenario's choice (project's): {c}"
        for c in state.marks.get("scenario-choices", ())
        if state.phase in ("upkeep", "morale")  # set-up and victory: where they apply
    ]
    return [*text.get("rules", []), *mine, *scenario]


def status(state: GameState) -> str:
    """Models still fighting and the points each side scores now (G10)."""
    if free_play(state):
        return "free play on the Dogs of War table (no rosters in this scenario)"
    points = score(state)
    parts = [f"{side} {len(fighting(state, side))} fighting, {points[side]} points" for side in SIDES]
    turns = state.track("turns")
    a = active(state)
    acting = f" · acting: {short(a.id)}, {num(a, 'ap')} AP" if a is not None else ""
    return " · ".join(parts) + (f" · last turn {turns}" if turns else "") + acting


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


def short(ident: str) -> str:
    """A model's id without its side letter, in words: r-militia-scout -> militia scout."""
    return ident[2:].replace("-", " ") if ident[:2] in ("b-", "r-") else ident


def own(action: Action) -> str | None:
    """The active model's own action, short (the game box lists his choices, so his name
    need not fill every row: found playing under Xvfb, three-line rows pushed the
    '... more' line out of the box); None for what is not his."""
    do = str(action.get("do"))
    target = short(str(action.get("target", "")))
    if do == "fire":
        aimed = ", aimed" if action.get("aimed") else ""
        return f"fire {MODES.get(str(action.get('mode')), '')}{aimed} at {target}"
    if do == "launch":
        return f"launcher at {target}"
    if do == "throw":
        return f"throw a {action.get('grenade')} at {target}"
    if do == "cq":
        return f"hand to hand at {target} ({action.get('weapon')})"
    if do == "move":
        return f"{action.get('order', 'walk')} to {action.get('to')}"
    if do == "done":
        return "end the activation"
    if do in ("prone", "stand", "fix-bayonet"):
        return do.replace("-", " ")
    if do == "op-fire":
        return "op-fire: 10 AP, then 6 to fire in his turn"
    if do == "bandage":
        return f"bandage {'himself' if action.get('target') == action.get('piece') else target} (5 AP)"
    if do in ("wake", "treat", "carry", "drop", "demand"):
        verb = {
            "wake": "wake",
            "treat": "treat",
            "carry": "carry",
            "drop": "put down",
            "demand": "demand surrender of",
        }
        return f"{verb[do]} {target}"
    if do == "set-charge":
        size = f" ({int(action.get('size', 1)) / 4:g} lb)" if action.get("kind") == "c4" else ""
        return f"set the {str(action.get('kind')).replace('-', ' ')}{size} at {action.get('at')}"
    if do == "detonate":
        kind, at = str(action.get("charge", "?|?")).split("|")[:2]
        return f"blow the {kind.replace('-', ' ')} at {at} (1 AP)"
    return None


def describe(state: GameState, action: Action) -> str:
    """An action in words."""
    do = str(action.get("do"))
    who = str(action.get("piece", ""))
    target = str(action.get("target", ""))
    a = active(state)
    mine = own(action) if a is not None and a.id == who and state.window is None else None
    if mine is not None:
        return mine
    if do == "first":
        return f"{action.get('side')} activates first"
    if do == "edge":
        return f"{action.get('side')} sets up on the {str(action.get('region')).removeprefix('setup-')} edge (l.181)"
    if do == "place-first":
        return f"{action.get('side')} places his models first (l.181)"
    if do == "activate":
        return f"activate {who}"
    if do == "step":
        return f"{who} moves on, one hex at a time (op-fire may interrupt)"
    if do == "rally":
        return f"{who}, broken, checks morale or runs for cover (l.716)"
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
