"""D-Day at Omaha Beach, the German action table of the EXT turns (omaha 3).

The table is data (``rules.yaml`` ``actions_table``): the card action's row (F, O, the
star, R, M, P, A) by the position's column: a Reinforcement or WN position, unoccupied
(and in communication), occupied with no US unit in its field of fire, or occupied with
one. ``position_column`` reads a position's column from a state; ``action_for`` the
cell. Reading A9: the table is used only in turns 17-32. Part 1 encodes and prints the
table and tests every cell; playing the actions it names (REDEPLOY, ADVANCE...) in the
turn is left for later (the ruleset's EXT German phase fires by colour as in omaha 4).
"""

from __future__ import annotations

from tabletop.engine.state import GameState

from . import data
from .common import DISRUPTED, US
from .german import communicating, field, kind, units_in

COLUMNS = ("unoccupied", "no-target", "target")


def action_for(card_action: str, position_kind: str, column: str) -> str:
    """The section 3 cell: e.g. ("R", "reinforcement", "target") -> "resupply-and-fire";
    "none" is the table's empty set. KeyError/ValueError for a row or column it lacks."""
    row = data.rules()["actions_table"][card_action]
    return str(row[position_kind][COLUMNS.index(column)])


def position_column(state: GameState, key: str) -> str | None:
    """The column of position ``key`` now; None for an unoccupied position out of
    communication (it takes no action) or one held by Disrupted units, which remove the
    marker instead (omaha 3)."""
    units = units_in(state, key)
    if not units:
        return "unoccupied" if communicating(state, key) else None
    if all(DISRUPTED in u.status for u in units):
        return None
    fof = field(state.board, key)
    seen = any(p.side == US and p.kind == "unit" and p.hex in fof for p in state.map.pieces())
    return "target" if seen else "no-target"


def position_action(state: GameState, key: str, card_action: str) -> str:
    column = position_column(state, key)
    if column is None:
        return "none"
    return action_for(card_action, kind(state.board, key), column)
