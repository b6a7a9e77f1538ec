"""The off-map boxes: every box of the game with its counters, and taking one onto the map.

Issue 13 finding 9: ``omaha-landings`` could not be played, its units waited in boxes the
window never showed. This panel lists every box the game holds (``GameState.boxes``:
landing boxes by turn, reinforcements ``turn-N``, the dead pool), its counters drawn
small, the current turn's boxes first, then those of earlier turns (overdue), boxes
with no turn, later turns, and the dead pool and removed pieces last. While a box
holds a piece the panel is a section of the right column (the dock: it never covers
the map); a click on its title or ``y`` folds or opens it, and the wheel scrolls it.

A counter is taken out of its box by clicking it, then a hex (or dragging it onto the
hex). That is played through the game: the rules' own action when they offer one for
it (a choice of theirs that brings a unit of that box to that hex, such as DOG SECTOR's
``land-unit``), else the generic ``unbox``: plain in free play, and in a rule system's
game only with Shift held, logged as an edit (as a counter's drag is). Decides no rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

import pygame

from tabletop.engine.actions import CARRIED, Action
from tabletop.engine.freeplay_rules import FreePlayRules
from tabletop.engine.pieces import Piece
from tabletop.hexgrid import Hex

from . import theme
from .app import App, Component
from .counters import DEAD_BOX, DRAG_PIXELS, REMOVED_BOX, CounterLayer, _mods
from .layout import Section

KEY = pygame.K_y
SECTION = "boxes"  # its section of the dock
ICON = 34  # a counter in a box, pixels
GAP = 4
HEAD = 22  # a box's title row
TEXT = 17
PAD = 8
SHIFT_TO_PLACE = "the rules bring no unit of that box there now; hold Shift to place it anyway (logged as an edit)"

SHORTCUTS = [
    ("y", "boxes: open / fold the off-map boxes (landings, reinforcements, the dead pool)"),
    ("click a counter in a box, then a hex", "take it onto the map (or drag it; Shift: as an edit)"),
]

_TURN = re.compile(r"(?:^|-)turn-?(\d+)$")


def box_turn(name: str) -> int | None:
    """The turn a box's name says (``east-turn-3``, ``turn-3`` -> 3), or None."""
    found = _TURN.search(name)
    return int(found.group(1)) if found else None


def box_order(name: str, turn: int) -> tuple[int, int, str]:
    """Where a box goes in the list: this turn's, earlier turns' (the nearest first),
    boxes with no turn, later turns' (in order), the dead pool and removed pieces."""
    if name in (DEAD_BOX, REMOVED_BOX):
        return (4, 0 if name == DEAD_BOX else 1, name)
    n = box_turn(name)
    if n is None:
        return (2, 0, name)
    if n == turn:
        return (0, 0, name)
    return (1, turn - n, name) if n < turn else (3, n, name)


@dataclass
class _Taking:
    box: str
    piece: str


class BoxesPanel(Component):
    """The boxes panel (see the module docstring)."""

    shortcuts: ClassVar[list[tuple[str, str]]] = SHORTCUTS

    def __init__(self) -> None:
        self.taking: _Taking | None = None
        self.first = 0  # the first box listed (the wheel scrolls)
        self._press: tuple[tuple[int, int], _Taking] | None = None
        self._drag = False
        self._layout: tuple[object, pygame.Rect, list[tuple[pygame.Rect, str, Piece | None]]] | None = None
        self.boxes: dict[str, pygame.Rect] = {}  # where it drew this frame (other parts avoid it)

    # --- what it lists ----------------------------------------------------------------

    @staticmethod
    def listed(app: App) -> list[tuple[str, list[Piece]]]:
        """The game's boxes holding pieces, in the panel's order (carried units are
        aboard a unit on the map, not in a box of the table)."""
        state = app.seen_state()
        found = [(name, list(pieces)) for name, pieces in state.boxes.items() if pieces and name != CARRIED]
        found.sort(key=lambda item: box_order(item[0], state.turn))
        return found

    def is_open(self, app: App) -> bool:
        """Whether the section is open in the dock (not folded, hidden or squeezed)."""
        return bool(self.listed(app)) and app.layout.body(SECTION) is not None

    def dock(self, app: App) -> list[Section]:
        """The right column's "Boxes" section, as tall as its boxes need (at most two
        fifths of the window; the wheel scrolls the rest)."""
        boxes = self.listed(app)
        if not boxes:
            return []
        width = app.layout.inner_width("right")
        per_row = max(1, (width + GAP) // (ICON + GAP))
        need = sum(HEAD + (len(p) + per_row - 1) // per_row * (ICON + GAP) for _, p in boxes[self.first :]) + HEAD
        most = max(HEAD + ICON + HEAD, app.layout.size[1] * 2 // 5)
        more = f" · {len(boxes)} boxes" if len(boxes) > 1 else ""
        title = f"Boxes{more}  (y folds, wheel scrolls)"
        return [Section(SECTION, title, "right", 25, min(need, most), priority=7)]

    def _counters(self, app: App) -> CounterLayer | None:
        return next((c for c in app.components if isinstance(c, CounterLayer)), None)

    # --- layout -----------------------------------------------------------------------

    def rect(self, app: App) -> pygame.Rect:
        return self.layout(app)[0]

    def layout(self, app: App) -> tuple[pygame.Rect, list[tuple[pygame.Rect, str, Piece | None]]]:
        """The panel's box, and its cells: (rect, box name, piece) for a counter,
        (rect, box name, None) for a box's title row."""
        boxes = self.listed(app)
        body = app.layout.body(SECTION)
        if body is None:
            return pygame.Rect(0, 0, 0, 0), []
        key = (id(app.play.state), app.play.head, len(app.play.entries), app.at_screen, tuple(body), self.first)
        if self._layout is not None and self._layout[0] == key:
            return self._layout[1], self._layout[2]
        per_row = max(1, (body.width + GAP) // (ICON + GAP))
        cells: list[tuple[pygame.Rect, str, Piece | None]] = []
        y = body.y
        room = body.bottom - HEAD  # the foot line names the counter under the pointer
        self.first = min(self.first, max(0, len(boxes) - 1))
        for name, pieces in boxes[self.first :]:
            rows = (len(pieces) + per_row - 1) // per_row
            if y + HEAD + rows * (ICON + GAP) > room and cells:
                break
            cells.append((pygame.Rect(body.x, y, body.width, HEAD), name, None))
            y += HEAD
            for k, piece in enumerate(pieces):
                r, c = divmod(k, per_row)
                cell = pygame.Rect(body.x + c * (ICON + GAP), y + r * (ICON + GAP), ICON, ICON)
                if cell.bottom <= room:  # a short column shows the rows that fit (the wheel scrolls)
                    cells.append((cell, name, piece))
            y += rows * (ICON + GAP)
        self._layout = (key, body, cells)
        return body, cells

    def cell_at(self, app: App, pos: tuple[int, int]) -> tuple[str, Piece] | None:
        for rect, name, piece in self.layout(app)[1]:
            if piece is not None and rect.collidepoint(pos):
                return name, piece
        return None

    def cell_of(self, app: App, piece_id: str) -> pygame.Rect | None:
        """Where a boxed piece is drawn in the panel (None: not listed now)."""
        return next((r for r, _, p in self.layout(app)[1] if p is not None and p.id == piece_id), None)

    # --- events -----------------------------------------------------------------------

    def handle(self, event: pygame.event.Event, app: App) -> bool:
        self._end_stale(app)
        if event.type == pygame.KEYDOWN:
            return self._key(event, app)
        if not self.is_open(app) and self.taking is None:
            return False
        if event.type == pygame.MOUSEWHEEL and self.rect(app).collidepoint(app.mouse):
            self.first = max(0, self.first - (1 if event.y > 0 else -1))
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return self._press_event(event.pos, app)
        if event.type == pygame.MOUSEMOTION and self._press is not None:
            (x0, y0), _ = self._press
            if abs(event.pos[0] - x0) + abs(event.pos[1] - y0) >= DRAG_PIXELS:
                self._drag = True
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._press is not None:
            _, taking = self._press
            dragged, self._press, self._drag = self._drag, None, False
            if dragged:
                self.taking = taking
                self._place(app, event.pos)
            return True
        return False

    def _key(self, event: pygame.event.Event, app: App) -> bool:
        if event.key == pygame.K_ESCAPE and self.taking is not None:
            self.taking = None
            app.say("taking out of the box cancelled")
            return True
        if event.key != KEY or event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META):
            return False
        if not self.listed(app):
            app.say("boxes: every box is empty")
            return True
        app.layout.folded ^= {SECTION}
        problem = app.layout.remember()
        shown = SECTION not in app.layout.folded
        app.say(f"boxes: {'open' if shown else 'folded'} (y)" + (f"; {problem}" if problem else ""))
        if not shown:
            self.taking = None
        return True

    def _covered(self, app: App, pos: tuple[int, int]) -> bool:
        """Whether a window drawn over the panel takes the click: the counters' menu,
        finder or tray, or the help (they are drawn after it, so on top)."""
        layer = self._counters(app)
        if layer is not None:
            if layer.menu is not None or layer.finder is not None:
                return True
            if layer.tray_open and layer.tray_rect(app).collidepoint(pos):
                return True
        return any(getattr(c, "help_open", False) for c in app.components)

    def _press_event(self, pos: tuple[int, int], app: App) -> bool:
        if self._covered(app, pos):
            return False
        if self.is_open(app) and self.rect(app).collidepoint(pos):
            found = self.cell_at(app, pos)
            if found is not None:
                name, piece = found
                self.taking = _Taking(name, piece.id)
                self._press = (pos, self.taking)
                app.say(f"{self._describe(app, piece)} from box {name}: click a hex (Esc: cancel)")
            return True
        if self.taking is not None:
            self._place(app, pos)
            return True
        return False

    def _end_stale(self, app: App) -> None:
        """Taking a piece ends when it is no longer in its box (undo, the rules)."""
        if self.taking is not None and app.seen_state().where(self.taking.piece) != self.taking.box:
            self.taking = None
            self._press = None

    def _place(self, app: App, pos: tuple[int, int]) -> None:
        taking = self.taking
        assert taking is not None
        target = app.hex_at_screen(*pos)
        if target is None:
            app.say("not on the map: click a hex (Esc: cancel)")
            return
        if self.take(app, taking.box, taking.piece, target, shift_held=bool(_mods() & pygame.KMOD_SHIFT)):
            self.taking = None
            app.selected = taking.piece

    def take(self, app: App, box: str, piece_id: str, target: Hex, *, shift_held: bool = False) -> bool:
        """Bring a boxed piece onto ``target`` through the game (see the module doc)."""
        label = app.board.label(target)
        generic: Action = {"do": "unbox", "box": box, "piece": piece_id, "to": label}
        if app.play.rules.name == FreePlayRules.name:
            return app.edit(generic)
        own = self.rules_action(app, box, piece_id, label)
        if own is not None:
            return app.act(own)
        if shift_held:
            return app.edit(generic)
        app.say(f"{piece_id} to {label}: {SHIFT_TO_PLACE}")
        return False

    @staticmethod
    def rules_action(app: App, box: str, piece_id: str, label: str) -> Action | None:
        """The rules' own action bringing ``piece_id`` to ``label``: a legal choice of
        theirs that names the piece (or another piece of the same box, as the rules may
        offer one unit of each type) and the hex, with this piece in it."""
        game = app.play
        state = game.state
        in_box = {p.id for p in state.box(box)}
        sides = [s for s in (game.actor(), app.screen_side()) if s]
        for side in dict.fromkeys(sides):
            for choice in game.choices(side):
                if choice.get("to") != label:
                    continue
                key = next((k for k, v in choice.items() if k != "to" and isinstance(v, str) and v in in_box), None)
                if key is None:
                    continue
                action = {**choice, key: piece_id}
                if game.refusal(action) is None:
                    return action
        return None

    # --- drawing ----------------------------------------------------------------------

    def _describe(self, app: App, piece: Piece) -> str:
        layer = self._counters(app)
        return layer.describe(app, piece) if layer is not None else piece.id

    def draw_counters(self, surface: pygame.Surface, app: App) -> None:
        """The hex a taken counter would land on, outlined under the pointer."""
        if self.taking is None:
            return
        target = app.hex_at_screen(*app.mouse)
        if target is not None and not (self.is_open(app) and self.rect(app).collidepoint(app.mouse)):
            pts = [app.camera.to_screen(x, y) for x, y in app.view.layout.corners(target)]
            pygame.draw.polygon(surface, theme.HIGHLIGHT, pts, 2)

    def draw_ui(self, surface: pygame.Surface, app: App) -> None:
        self.boxes = {}
        if not self.is_open(app):
            return
        layer = self._counters(app)
        if layer is None:
            return
        panel, cells = self.layout(app)
        self.boxes["boxes"] = panel
        boxes = self.listed(app)
        shown = len({name for _, name, _ in cells})
        hidden = len(boxes) - self.first - shown
        turn = app.seen_state().turn
        counts = dict((name, len(pieces)) for name, pieces in boxes)
        hovered: Piece | None = None
        for rect, name, piece in cells:
            if piece is None:
                n = box_turn(name)
                now = " (this turn)" if n == turn else " (overdue)" if n is not None and n < turn else ""
                colour = theme.HIGHLIGHT if n is not None and n <= turn else theme.PANEL_TEXT
                _text(surface, f"{name}{now} · {counts.get(name, 0)}", rect.x, rect.y + 2, colour, rect.w, bold=True)
                continue
            if self._press is not None and self._drag and self._press[1].piece == piece.id:
                continue
            img = layer._face(app, piece, ICON)
            surface.blit(img, rect.topleft)
            if self.taking is not None and self.taking.piece == piece.id:
                pygame.draw.rect(surface, theme.HIGHLIGHT, rect.inflate(4, 4), 2, border_radius=4)
            if rect.collidepoint(app.mouse):
                hovered = piece
        foot = self._describe(app, hovered) if hovered is not None else "click a counter, then a hex (or drag it)"
        unseen = sum(len(pieces) for _, pieces in boxes[self.first :]) - sum(1 for _, _, p in cells if p is not None)
        if hovered is None and (hidden > 0 or self.first or unseen):
            foot = f"{unseen} counters not shown: the wheel scrolls, folding the legend makes room"
        _text(surface, foot, panel.x, panel.bottom - HEAD + 2, theme.PANEL_TEXT, panel.w)
        if self._press is not None and self._drag:
            try:
                piece = next(p for p in app.seen_state().box(self._press[1].box) if p.id == self._press[1].piece)
            except StopIteration:
                return
            size = layer.size(app)
            img = layer._face(app, piece, size)
            surface.blit(img, (app.mouse[0] - size // 2, app.mouse[1] - size // 2))


def _text(surface: pygame.Surface, text: str, x: int, y: int, colour: tuple[int, int, int], width: int,
          bold: bool = False) -> None:  # fmt: skip
    font = theme.font(TEXT, bold)
    if font.size(text)[0] > width:
        while text and font.size(text + "...")[0] > width:
            text = text[:-1]
        text += "..."
    surface.blit(font.render(text, True, colour), (x, y))

