"""D-Day at Omaha Beach, victory (gap G2, victory.yaml; PROJECT'S CHOICE throughout).

At the end the US scores VP for each German position free of German units whose every
hex it controls (omaha 2 control): more for the VP positions (germans.yaml), less for
the others; each unit in the catastrophic loss box (omaha 4) costs VP. The rank is the
highest whose score threshold the score reaches and whose count of VP positions held
the game reaches, by game length (the upper ranks need positions held). ``tabletop sim`` judges a
game with ``assess``.
"""

from __future__ import annotations

from typing import Any

from tabletop.engine.state import GameState

from . import data, german
from .common import CATASTROPHIC, LAST_TURN
from .control import us_control
from .fields import position_keys
from .usdata import victory


def held(state: GameState) -> list[str]:
    """The positions free of German units with every hex US-controlled."""
    control = us_control(state.map)
    out = []
    for key in position_keys(state.board):
        hexes = state.board.regions[key].hexes
        if not german.units_in(state, key) and all(h in control for h in hexes):
            out.append(key)
    return out


def vp_held(state: GameState) -> list[str]:
    """The VP positions (germans.yaml ``vp: true``) among the held ones."""
    positions = data.germans().positions
    return [k for k in held(state) if k in positions and positions[k].vp]


def score(state: GameState) -> int:
    v = victory()
    vps = set(vp_held(state))
    vp = sum(int(v["per_position"]) if key in vps else int(v["per_position_free"]) for key in held(state))
    return vp + int(v["per_catastrophic_loss"]) * len(state.box(CATASTROPHIC))


def length(state: GameState) -> str:
    return "extended" if state.track(LAST_TURN) > int(data.rules()["length"]["standard"]) else "standard"


def rank_for(ranks: list[Any], n: int, vps: int, positions: int) -> str:
    """The highest rank whose needs the score ``n``, the VP positions held ``vps`` and
    all positions held ``positions`` meet: an upper rank needs positions held, not
    only few losses (issue 18 item 1)."""
    found = str(ranks[0]["name"])
    for r in ranks:
        if n >= int(r["least"]) and vps >= int(r.get("vp_positions", 0)) and positions >= int(r.get("positions", 0)):
            found = str(r["name"])
    return found


def rank_of(state: GameState, n: int) -> str:
    return rank_for(list(victory()["ranks"][length(state)]), n, len(vp_held(state)), len(held(state)))


def ranks() -> list[str]:
    names: list[str] = []
    for r in victory()["ranks"]["standard"]:
        names.append(str(r["name"]))
    return names


def needs(length_key: str) -> list[str]:
    """Each rank's requirement in words, for ``tabletop tables omaha``."""
    out = []
    for r in victory()["ranks"][length_key]:
        vps, positions = int(r.get("vp_positions", 0)), int(r.get("positions", 0))
        words = ["any score" if int(r["least"]) <= -999 else f"{r['least']} VP or more"]
        if vps:
            words.append(f"{vps}+ VP position(s) held")
        elif positions:
            words.append(f"{positions}+ position(s) held")
        out.append(f"{r['name']}: {', '.join(words)}")
    return out


def result_text(state: GameState) -> str:
    n = score(state)
    vps = vp_held(state)
    others = [k for k in held(state) if k not in vps]
    return (
        f"turn {state.turn} of {state.track(LAST_TURN)} ended: {rank_of(state, n)}, {n} VP "
        f"(VP positions held {len(vps)}: {', '.join(vps) or 'none'}; other positions {len(others)}; "
        f"{len(state.box(CATASTROPHIC))} catastrophic losses; project's choice, gap G2)"
    )
