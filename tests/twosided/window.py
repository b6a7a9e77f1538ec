"""SKIRMISH's window extras (issue 12 item 8): the hand of the side at the screen and the
points as panels, the goal columns as an overlay.

Given a ``SideView`` (a side at the screen) it reads that side's own hand and the
counts the view leaves of the other's; given the whole state (bots play every seat:
nobody's secrets to keep) it shows every hand."""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.engine.extras import LegendEntry, Mark, NoExtras, Overlay, Panel, Row, Seen, state_of
from tabletop.engine.game import SideView

from .rules import GOAL, SIDES, column, other


class SkirmishExtras(NoExtras):
    """Hands and points (panels); the goal columns (overlay ``goals``)."""

    def panels(self, seen: Seen, selected: str | None) -> Sequence[Panel]:
        state = state_of(seen)
        points = Panel("points", "Points", [f"{s}: {state.track(f'points-{s}')} of 2" for s in SIDES])
        if not isinstance(seen, SideView):
            return (*(self._hand(s, state.hands.get(s, [])) for s in SIDES), points)
        foe = other(seen.side)
        held = Row(f"{foe} holds {len(state.hands.get(foe, []))} cards, unseen", "dim")
        return (self._hand(seen.side, state.hands.get(seen.side, []), held), points)

    def _hand(self, side: str, cards: list[str], *more: Row) -> Panel:
        rows = [Row(f"card {c}", "strong" if c == max(cards) else "plain") for c in cards]
        return Panel(f"hand-{side}", f"{side}'s hand", [*rows, *more])

    def overlays(self, seen: Seen) -> Sequence[Overlay]:
        board = state_of(seen).board
        side = seen.side if isinstance(seen, SideView) else None
        marks = []
        for h in board.grid.hexes():
            for s in SIDES:
                if column(board.label(h)) == GOAL[s]:
                    marks.append(Mark(h, "good" if side in (s, None) else "bad", s[0].upper()))
        legend = (
            LegendEntry("good", "your goal: a runner scores here"),
            LegendEntry("bad", "the enemy's goal"),
        )
        return (Overlay("goals", "Goal columns", legend, tuple(marks)),)


def extras() -> SkirmishExtras:
    return SkirmishExtras()
