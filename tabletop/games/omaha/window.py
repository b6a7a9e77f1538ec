"""What D-Day at Omaha Beach adds to the window: the fields-of-fire overlay, and the
panels of part 1: the German card of the turn (and which positions fire, the one firing
now with its hits left), the landing (arrivals still to place, boxes to resolve, the
tide) and the German and US pools and boxes (Depth pools, Tactical and Division pools,
the Artillery Box, the dead, the removed and the catastrophic loss box).

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
from tabletop.engine.extras import LegendEntry, Mark, NoExtras, Overlay, Panel, Row, Seen, state_of
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex

from .fields import INTENSITIES, field_at

FIELDS_KEY = "fields"
MEANING = {"intense": "intense fire", "steady": "steady fire", "sporadic": "sporadic fire"}


class OmahaExtras(NoExtras):
    """The fields-of-fire overlay (key ``fields``), made once per map, and the panels."""

    def __init__(self) -> None:
        self._made: tuple[Map, Overlay] | None = None

    def panels(self, seen: Seen, selected: str | None) -> Sequence[Panel]:
        state = state_of(seen)
        if state.phase == "setup" or "german" not in state.decks:
            return ()
        # the US phases leave the German pools out and the card in one line (infiltration
        # reads it): with the default panels open the Boxes panel keeps room for its
        # counters (issue 18 item 5); the status line counts the US losses
        if state.phase == "us-action":
            return (actions_panel(state, selected), attack_panel(state, selected), card_panel(state, brief=True))
        if state.phase == "landing":  # no card drawn yet: room for the Boxes panel (issue 18 item 4)
            from .german import turn_card

            shown = (card_panel(state),) if turn_card(state) is not None else ()
            return (*shown, landing_panel(state))
        return (card_panel(state), landing_panel(state), pools_panel(state))

    def opening_hexes(self, state: GameState) -> list[Hex]:
        """The window opens on the beach and the bluffs of the East sector, where the
        first waves land: the whole 36-column map fits only at a third of full size,
        too small to read the counters (Home shows it all)."""
        from .common import col_row

        board = state.board
        return [h for h in board.grid.hexes() if 3 <= col_row(board, h)[0] <= 14 and col_row(board, h)[1] >= 9]

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


def card_panel(state: GameState, brief: bool = False) -> Panel:
    """The German card of the turn, who fires, and the position firing now (``brief``:
    the card alone, in the US Action phase, where no position fires)."""
    from . import german

    card = german.turn_card(state)
    if card is None:
        return Panel("omaha-card", "German card", [Row("not drawn yet this turn (German phase)", "dim")])
    rows = [Row(card.words().split(": ", 1)[1], "strong")]
    if brief:
        return Panel("omaha-card", "German card", rows)
    # in the US view a face-down unit has no colour: its position shows once it fires
    firing = [k for k, fires, _ in german.firing_positions(state, card) if fires or german.HITS + k in state.tracks]
    rows.append(Row(f"fire ({', '.join(c for c, _ in card.colours)}): {', '.join(firing) or 'no position'}"))
    for key in firing:
        left = state.tracks.get(german.HITS + key)
        if left is not None and not state.marked(german.FIRED, key):
            rows.append(Row(f"{key} firing now: {left} hits left", "bad"))
    return Panel("omaha-card", "German card", rows)


def actions_panel(state: GameState, selected: str | None) -> Panel:
    """The US Action phase's budget beside the map (omaha 6): actions and naval fire
    markers left in each sector, and whether the selected unit's action costs one."""
    from .attacks import NAVAL
    from .common import SECTORS, sector_of
    from .us_actions import ACTED, ACTIONS_LEFT, free_reason

    rows = [
        Row(f"{s} sector: {state.track(ACTIONS_LEFT + s)} action(s) left, "
            f"{state.track(NAVAL + s)} naval fire marker(s)", "strong")
        for s in SECTORS
    ]  # fmt: skip
    unit = next((p for p in state.map.pieces() if p.id == selected), None) if selected else None
    if unit is not None and unit.side == "us":
        if state.marked(ACTED, unit.id):
            rows.append(Row(f"{unit.id} has acted this phase (one action a unit, omaha 6)", "dim"))
        else:
            why = free_reason(state, unit, "attack")
            sector = sector_of(state.board, unit.hex)
            rows.append(Row(f"{unit.id}: free ({why})" if why else f"{unit.id}: an action costs 1 of the {sector} sector"))
    rows.append(Row("free: rangers, HQs and Generals, heroes, climb markers, rallying, units in command", "dim"))
    return Panel("omaha-actions", "US actions", rows)


def attack_panel(state: GameState, selected: str | None) -> Panel:
    """The attack builder (issue 18 item 5): each attack being built, with the weapons
    met, the 9.6 multipliers, the 9.7 row and column and the odds of each result, with
    and without naval fire, before it is committed; with nothing picked, the German
    hexes the selected unit may join an attack on."""
    from . import builder
    from .us_actions import ACTED, attack_party

    rows: list[Row] = []
    for target, _ in sorted(builder.drafts(state).items()):
        rows += [Row(text, style) for text, style in builder.summary(state, target, builder.units(state, target))]
        rows.append(Row(f"commit: click 'attack {target} with ...' in the game box", "dim"))
    unit = next((p for p in state.map.pieces() if p.id == selected), None) if selected else None
    if unit is not None and unit.side == "us" and not state.marked(ACTED, unit.id):
        ready = [u for u in state.map.pieces() if u.side == "us" and u.kind == "unit" and not state.marked(ACTED, u.id)]
        targets = sorted({p.hex for p in state.map.pieces() if p.side == "german" and p.kind == "unit"},
                         key=state.board.label)  # fmt: skip
        may = [state.board.label(t) for t in targets if unit.id not in builder.draft(state, state.board.label(t))
               and unit.id in {u.id for u in attack_party(state, t, ready)}]  # fmt: skip
        if may:
            rows.append(Row(f"{unit.id} may join an attack on {', '.join(may)}: click 'attack builder: add "
                            f"{unit.id} ...' in the game box", "plain"))  # fmt: skip
    if not rows:
        rows.append(Row("select a unit next to (or in range of) a German hex, then add it to an attack", "dim"))
    return Panel("omaha-attack", "Attack builder", rows)


def landing_panel(state: GameState) -> Panel:
    from . import data, landing
    from .common import extended

    rows = [Row(f"turn {state.turn}, {data.tide(state.turn)} tide" + (", EXT" if extended(state) else ""))]
    last = state.hands.get(landing.LANDING_CARD)
    if state.phase == "landing" and last:
        card = data.cards()[last[0]]
        mine = ", mine symbol" if card.mine else ""
        rows.append(Row(f"box {last[1]}: card {card.id}, 9.2 letter {card.landing}{mine}", "strong"))
        rows += [Row(line) for line in letter_rows(state.turn, card.landing)]
    waiting = landing.waiting(state) if state.phase == "landing" else []
    if waiting:
        rows.append(Row(f"to place: {', '.join(p.id for p in waiting)}", "strong"))
        rows.append(Row("y opens the boxes: click a unit in its turn box, then a box of row 15 (or b: the bot)", "dim"))
    if state.marks.get(landing.ASK_RANGER):
        rows.append(Row(f"rangers {state.marks[landing.ASK_RANGER][0]}: choose a drift of 0-4 left", "strong"))
    if state.marks.get(landing.ASK_MINE):
        rows.append(Row(f"mine in box {state.marks[landing.ASK_MINE][0]}: choose who loses a step", "strong"))
    return Panel("omaha-landing", "Landing", rows)


def letter_rows(turn: int, letter: str) -> list[str]:
    """What the 9.2 letter does this turn, row by row (reading A1), so the player reads
    the result beside the box instead of in the log."""
    from . import data

    band = data.band_at("amphibious", turn)
    if band is None:
        return []
    out = []
    for row, cells in band["rows"].items():
        out.append(f"  9.2 {row}: {', '.join(_result_words(str(w)) for w in cells[letter])}")
    return out


def _result_words(word: str) -> str:
    """A 9.2 result as the table prints it: "-1 step", "+3 turns", "2 left"."""
    from . import data

    what, n = data.parse_result(word)
    return {
        "steps": f"-{n} step{'s' if n > 1 else ''}", "delay": f"+{n} turn{'s' if n > 1 else ''}",
        "left": f"drift {n} left", "right": f"drift {n} right", "none": "no effect",
        "removed": "removed from play", "ranger-choice": "no effect (rangers drift 0-4 left)",
    }.get(what, what)  # fmt: skip


def pools_panel(state: GameState) -> Panel:
    from .common import CATASTROPHIC, DEAD, GERMAN_DEAD, POOLS, REMOVED

    names = {"wn": "WN Depth", "building": "Building Depth", "mobile": "Mobile Depth", "tactical": "Tactical pool",
             "division": "Division pool", "artillery": "Artillery Box"}  # fmt: skip
    counts = ", ".join(f"{names[k]} {len(state.box(box))}" for k, box in POOLS.items())
    rows = [Row(f"{counts}; German eliminated {len(state.box(GERMAN_DEAD))}", "dim")]
    rows.append(Row(f"US dead {len(state.box(DEAD))}, removed {len(state.box(REMOVED))}, "
                    f"catastrophic losses {len(state.box(CATASTROPHIC))}", "bad"))  # fmt: skip
    return Panel("omaha-pools", "Pools and boxes", rows)
