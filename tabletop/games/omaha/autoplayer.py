"""D-Day at Omaha Beach: a simple US player for part 1, and the ``tabletop sim`` judge.

PART 1 ONLY. The American side (actions, attacks, victory) and a real autoplayer are
part 2's (issue 18). This bot exists so that ``tabletop sim omaha`` can drive the landing
and the German side to the end of every game deterministically. It uses no dice:

- landing: each arrival goes to the legal box of its sector holding the fewest units,
  the one furthest right among those (9.2 drifts mostly left), rangers to Charlie;
  rangers choose no drift; a mine takes a step from the unit with the most steps;
- German phase: a tied target is the first offered; a hero is always flipped to
  Inspired to save a last step;
- US Action phase: per sector, units in the boxes wade ashore one hex, then units on the
  beach move one hex inland while the sector has actions left; then the phase ends;
- end of turn: an over-stacked hex loses its unit with the fewest steps.

``assess`` is a provisional score for part 1 (US steps ashore at the end) with
provisional ranks, labelled as such: victory is part 2's.
"""

from __future__ import annotations

from typing import Any

from tabletop.engine.actions import END_PHASE, Action
from tabletop.engine.game import SideView
from tabletop.engine.state import GameState

from . import landing
from .common import LEADERS, US, at, col_row, landing_boxes, sector_of, stack_count, us_units
from .ruleset import ACTIONS_LEFT, MOVED, OmahaRules

SIDE = US
SIM_BY = "length"
SCORE = "US steps ashore at the end (provisional: victory is part 2's)"
#: provisional ranks for part 1, lowest first, by US steps ashore at the end
RANKS = (("thrown back", 0), ("clinging on", 20), ("foothold", 40), ("lodgement", 70))


def score(state: GameState) -> int:
    return sum(p.steps for p in us_units(state) if state.map.terrain_at(p.hex) != "sea")


def assess(state: GameState) -> tuple[str, int]:
    n = score(state)
    rank = RANKS[0][0]
    for name, least in RANKS:
        if n >= least:
            rank = name
    return rank, n


def ranks() -> list[str]:
    return [name for name, _ in RANKS]


class LandingBot:
    """The part-1 US player (see the module doc)."""

    def __init__(self) -> None:
        self.rules = OmahaRules()

    def choose(self, view: SideView) -> Action:
        state = view.state
        phase = state.phase
        if phase == "landing":
            return self._landing(state, view)
        if phase == "us-action":
            return self._move(state) or dict(END_PHASE)
        if phase == "end-turn":
            options = view.choices
            return min(options, key=lambda a: (state.map.piece(str(a["unit"])).steps, str(a["unit"])))
        return self._first(view)

    @staticmethod
    def _first(view: SideView) -> Action:
        options = view.choices
        inspired = [a for a in options if a.get("inspire")]
        return inspired[0] if inspired else options[0]

    def _landing(self, state: GameState, view: SideView) -> Action:
        left = landing.waiting(state)
        if left:
            unit = left[0]
            legal = [h for h in landing_boxes(state.board)
                     if landing.place_refusal(state, unit.id, state.board.label(h)) is None]  # fmt: skip
            if not legal:
                return {"do": "land-delay", "unit": unit.id}
            charlie = state.board.regions["beach-charlie"].hexes
            best = min(legal, key=lambda h: (0 if (h in charlie) == (unit.type == "ranger") else 1,
                                             stack_count(state, h), -col_row(state.board, h)[0]))  # fmt: skip
            return {"do": "land-place", "unit": unit.id, "to": state.board.label(best)}
        if state.marks.get(landing.ASK_RANGER):
            return {"do": "ranger-drift", "unit": state.marks[landing.ASK_RANGER][0], "left": 0}
        options = view.choices
        return max(options, key=lambda a: (state.map.piece(str(a["unit"])).steps, str(a["unit"])))

    def _move(self, state: GameState) -> Action | None:
        board = state.board
        units = [p for p in us_units(state) if not state.marked(MOVED, p.id) and p.type not in LEADERS
                 and "disrupted" not in p.status]  # fmt: skip
        units.sort(key=lambda p: (-col_row(board, p.hex)[1], -p.steps, p.id))
        for unit in units:
            if state.track(ACTIONS_LEFT + sector_of(board, unit.hex)) <= 0:
                continue
            col, row = col_row(board, unit.hex)
            ahead = at(board, col, row - 1)
            if ahead is None or state.map.terrain_at(ahead) in ("sea", "rough") or row <= 11:
                continue
            if stack_count(state, ahead) >= 2 or any(p.side != US for p in state.map.units_at(ahead)):
                continue
            action: dict[str, Any] = {"do": "move", "unit": unit.id, "to": board.label(ahead)}
            if self.rules.refusal(state, action) is None:
                return action
        return None


def autoplayer() -> LandingBot:
    return LandingBot()
