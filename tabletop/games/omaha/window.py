"""What D-Day at Omaha Beach adds to the window: the fields-of-fire overlay.

Each hex in a German position's field of fire is marked with the strongest fire that
reaches it (intense, steady, sporadic: the map's ● ⊕ ○, as the window draws them), and
labelled with the number of positions whose fields reach it when more than one does.
The fields are the project's own default (``fields.yaml``, see ``fields``): the text
gives no rule for them. They hang on the map alone, not on which positions are occupied
or revealed, so they tell the US player nothing hidden.
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.board import Map
from tabletop.engine.extras import LegendEntry, Mark, NoExtras, Overlay, Seen, state_of

from .fields import INTENSITIES, field_at

FIELDS_KEY = "fields"
MEANING = {"intense": "intense fire", "steady": "steady fire", "sporadic": "sporadic fire"}


class OmahaExtras(NoExtras):
    """The fields-of-fire overlay (key ``fields``), made once per map."""

    def __init__(self) -> None:
        self._made: tuple[Map, Overlay] | None = None

    def overlays(self, seen: Seen) -> Sequence[Overlay]:
        board = state_of(seen).board
        if self._made is None or self._made[0] is not board:
            self._made = (board, fields_overlay(board))
        return (self._made[1],)


def fields_overlay(board: Map) -> Overlay:
    """Every hex in a field of fire: its strongest fire, and how many positions reach it."""
    marks = []
    for h in board.grid.hexes():
        covering = field_at(board, h)
        if covering:
            count = len(covering)
            marks.append(Mark(h, covering[0][1], str(count) if count > 1 else ""))
    legend = (
        *(LegendEntry(i, MEANING[i]) for i in INTENSITIES),
        LegendEntry(None, "a number: that many positions fire into the hex"),
        LegendEntry(None, "project's default fields (fields.yaml), strongest shown"),
    )
    return Overlay(FIELDS_KEY, "Fields of fire", legend, tuple(marks))


def extras() -> OmahaExtras:
    return OmahaExtras()
