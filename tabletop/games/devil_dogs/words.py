"""What The Devil Dogs of Belleau Wood says in the window's game box: the phase's rules
in short (the project's choices marked), the score line, a selected unit's ladder and
tokens, actions in words (the secret choices unwrapped for the side making them), and a
unit dropped on a hex as its move when its order is being carried out."""

from __future__ import annotations

from tabletop.engine.actions import Action
from tabletop.engine.pieces import Piece
from tabletop.engine.state import GameState

from . import combat as cb
from .data import card_index, figures
from .ruleset import DevilDogsRules, queue, victory_points

PHASE_RULES = {
    "draw": [
        "5.1: each side draws up to its hand size, the sectors in play + 1; discards reshuffled when short."
    ],
    "assign": [
        "5.2: both sides place one card face down in each sector at once; the last card is the reserve.",
        "5.3: the sector chits are drawn after this: plan for Active, Reactive and General.",
    ],
    "initiative": [
        "5.3.1: the pool follows the initiative track's band (G2: -10..+10, project's choice).",
        "5.3.2-5.3.3: a chit per sector; most chits has battlefield initiative (a tie: the attacker).",
    ],
    "orders": [
        "5.4: with sector initiative: Active or General; without, or on a Stalemate: Reactive or General.",
        "5.3.3: the battlefield-initiative player gets +1 MG where he plays Active.",
    ],
    "mortar": [
        "5.5: each mortar (BI player first) fires 2-5 hexes away; deviation from the top card;",
        "a unit there is pinned, or loses a step if already pinned. G8 (project's choice): no LOS, may decline.",
        "5.5 GAS DRIFT: gas tokens flip to #2 and drift; flipped ones are removed (A5);",
        "units the gas reaches lose a step and move away, or refuse (8: a pin, or a step if pinned).",
    ],
    "activate": [
        "5.6: the battlefield-initiative player picks the first sector; then the choice alternates."
    ],
    "execute": [
        "5.7-5.8: cards revealed; the player without sector initiative acts first: movement, MG, keywords.",
        "5.8, 8: ADV/RET units that stay refuse the order: a pin, or a step if already pinned.",
        "5.9, 7: Combat X: units within X of an enemy and in LOS add CD; simultaneous; reactive applies first.",
        "7.1 (G9): by the priority chart; where the CD cannot hit a whole class, the firing player picks.",
        "8: a unit forced to move (Rout!, gas, Bayonets) may refuse: a pin, or a step if already pinned.",
    ],
    "reinforce": [
        "1.2: units whose withdrawal turn this is leave (P1). 5.11: one USMC replacement point per regiment",
        "on a unit of your choice not next to the enemy, or saved; reorganization (German ceil(dead/3),",
        "US floor(dead/2), next to the HQ); you place each arrival within 5 of its entry, >3 from the enemy (G13).",
        "G5 (project's choice): at the end, 2 VP an objective last held, 1 per enemy unit dead (HQ 2).",
    ],
}


def phase_rules(state: GameState) -> list[str]:
    return PHASE_RULES.get(state.phase, [])


def status(state: GameState) -> str:
    vp = victory_points(state)
    f = figures()
    position = state.track("initiative")
    return (
        f"VP Allied {vp['allied']} · German {vp['german']} · track {position:+d} ({f.band(position)}) "
        f"· turn {state.turn} of {state.track('turns')}"
    )


def unit_lines(state: GameState, piece: Piece) -> list[str]:
    if piece.kind != "unit":
        return []
    out = [
        f"{cb.nation(piece)}: {piece.steps} of {cb.full_steps(piece)} steps, {cb.face(piece)} (7.2)",
        f"CD {cb.unit_cd(state, piece):g} (7, 8.1)",
    ]
    if piece.has(cb.PINNED):
        out.append("pinned: may not move (RET removes it), CD halved (6.2)")
    return out


def describe(state: GameState, action: Action) -> str:
    """An action in words."""
    do = action.get("do")
    if do == "commit" and isinstance(action.get("action"), dict):
        return describe(state, action["action"])
    if do == "assign":
        return "cards: " + ", ".join(f"{s} {c}" for s, c in action["cards"].items())
    if do == "orders":
        return "orders: " + ", ".join(f"{s} {o}" for s, o in action["orders"].items())
    if do == "mortar":
        return (
            f"{action['piece']} fires at {action['at']}"
            if action.get("at")
            else f"{action['piece']} holds fire"
        )
    if do == "activate":
        return f"activate sector {action['sector']}"
    if do == "move":
        return f"{action['piece']} moves to {action['to']}"
    if do == "stay":
        steps = queue(state)
        order = steps[0].get("move", "") if steps else ""
        penalty = " (refuses: pin or step, 8)" if order in ("ADV", "RET") else ""
        return f"{action['piece']} stays{penalty}"
    if do == "target":
        return f"target {action['piece']}"
    if do == "rally":
        return f"rally {action['piece']}: remove its {action['token']} token"
    if do == "barrage":
        return f"barrage aimed at {action['at']}"
    if do == "repeat":
        return f"Leadership repeats {action['keyword']}"
    if do == "misdirect":
        return misdirect_words(action)
    if do == "reinforce-kw":
        if "reconstitute" in action:
            return f"reconstitute {action['reconstitute']}, reduced, at {action['to']} next to its HQ (9)"
        key = next(k for k in action if k != "do")
        return f"{key} {action[key]}"
    if do == "retreat":
        if not action["to"]:
            return f"{action['piece']} refuses the forced move (8: a pin, or a step if already pinned)"
        return f"{action['piece']} retreats to {action['to']} (forced move; pin removed)"
    if do == "advance":
        return f"{action['piece']} advances into {action['to']} (9 BAYONETS)" if action["piece"] else "no advance"
    if do == "bayonet":
        return f"{action['piece']}'s bayonets hit {action['target']} (9 BAYONETS)"
    if do == "skip":
        return "no more targets"
    if do == "hit":
        return f"assign a step to {action['piece']} (7.1: your pick within the priority class)"
    if do == "second":
        return f"second barrage token 2 hexes toward compass {action['dir']} (9 BARRAGE, a HIT)"
    if do == "replace":
        if not action.get("piece"):
            return "save the USMC point"
        p = state.map.piece(str(action["piece"]))
        pinned = ", pinned" if p.has(cb.PINNED) else ""
        return f"USMC replacement point on {p.id} ({p.steps} of {cb.full_steps(p)} steps{pinned})"
    if do == "reconstitute":
        if not action.get("piece"):
            return "no more"
        return f"reconstitute {action['piece']}, reduced, at {action['to']} next to its HQ (5.11)"
    if do == "place":
        return f"{action['piece']} enters at {action['to']} (5.11)"
    card = card_index().get(str(action.get("card", "")))
    return " ".join(str(v) for v in action.values()) + (f" ({card.id})" if card else "")


def misdirect_words(action: Action) -> str:
    """9 MISDIRECTION's choices: which half, then each decision (the cards examined are
    in the Misdirection panel and a log line only the player reads)."""
    if action.get("look"):
        return "look at the enemy's next 6 cards (9 MISDIRECTION)"
    if action.get("sector"):
        return f"examine the enemy's card in sector {action['sector']} and his reserve (9 MISDIRECTION)"
    if "swap" in action:
        return "exchange the two cards" if action["swap"] else "leave the cards as they are"
    where = "to the bottom of his deck" if action.get("bury") else "left on top"
    return f"the enemy's card {action['card']} (from the top): {where}"


def drag_action(state: GameState, piece_id: str, to: str, forced: bool) -> Action | None:
    """A unit dropped on a hex while its sector's movement is being carried out: its move."""
    if forced or state.phase != "execute":
        return None
    steps = queue(state)
    if not steps or steps[0]["t"] != "move" or piece_id not in steps[0].get("movers", []):
        return None
    action: Action = {"do": "move", "piece": piece_id, "to": to}
    return action if action in DevilDogsRules().choices(state, str(steps[0]["side"])) else None
