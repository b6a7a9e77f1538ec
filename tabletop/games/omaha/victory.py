"""D-Day at Omaha Beach, victory (gap G2, victory.yaml; PROJECT'S CHOICE throughout).

At the end the US scores VP for each German position free of German units whose every
hex it controls (omaha 2 control): more for the VP positions (germans.yaml), less for
the others; each unit in the catastrophic loss box (omaha 4) costs VP. The rank is the
highest whose threshold the score reaches, by game length. ``tabletop sim`` judges a
game with ``assess``.
"""

from __future__ import annotations

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


def score(state: GameState) -> int:
    v = victory()
    positions = data.germans().positions
    vp = 0
    for key in held(state):
        vp += int(v["per_position"]) if key in positions and positions[key].vp else int(v["per_position_free"])
    return vp + int(v["per_catastrophic_loss"]) * len(state.box(CATASTROPHIC))


def length(state: GameState) -> str:
    return "extended" if state.track(LAST_TURN) > int(data.rules()["length"]["standard"]) else "standard"


def rank_of(state: GameState, n: int) -> str:
    found = victory()["ranks"][length(state)][0]["name"]
    for r in victory()["ranks"][length(state)]:
        if n >= int(r["least"]):
            found = r["name"]
    return str(found)


def ranks() -> list[str]:
    names: list[str] = []
    for r in victory()["ranks"]["standard"]:
        names.append(str(r["name"]))
    return names


def result_text(state: GameState) -> str:
    n = score(state)
    vps = [k for k in held(state) if k in data.germans().positions and data.germans().positions[k].vp]
    others = [k for k in held(state) if k not in vps]
    return (
        f"turn {state.turn} of {state.track(LAST_TURN)} ended: {rank_of(state, n)}, {n} VP "
        f"(VP positions held {len(vps)}: {', '.join(vps) or 'none'}; other positions {len(others)}; "
        f"{len(state.box(CATASTROPHIC))} catastrophic losses; project's choice, gap G2)"
    )
