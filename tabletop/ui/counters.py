"""The counters on the table: drawing the stacks, and handling them by mouse and keys.

Every unit and marker of the live ``MapState`` is drawn at its hex's centre from the
game's counter file (``tabletop.engine.counters``). Stacks are fanned up and to the left
with a count badge; status markers are chips on the top counter, marker pieces are
marker counters on an empty hex and chips along the top of a stack.

The player handles counters here (drag, Alt+direction keys, the tray, the right-click
menu), and every change is an action played through the app's game, so it is logged,
undoable, saved and replayed; the layer never changes the map itself. Flips, markers,
turns, placing and removing are generic actions (``app.edit``): plain in free play, logged
as edits outside the rules in a rule system's game. Moving a unit in a rule system's game
asks the rules first (their ``drag_action``, when they have one); a move they do not make
is an edit only with Shift held. The dead pool is the game's ``"dead"`` box.

Keys for moving the selected counter one hex (the keys ring the S key as the six
directions ring a hex):

- flat-top maps: Alt+W north, Alt+E north-east, Alt+D south-east, Alt+S south,
  Alt+A south-west, Alt+Q north-west;
- pointy-top maps: Alt+Q west, Alt+W north-west, Alt+E north-east, Alt+D east,
  Alt+S south-east, Alt+A south-west.

With Shift as well, every unit in the hex moves together.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import pygame

from tabletop.engine.actions import Action
from tabletop.engine.counters import RULES_COUNTERS, Counters, UnitType, counters_for
from tabletop.engine.freeplay_rules import FreePlayRules
from tabletop.engine.pieces import Piece
from tabletop.engine.state import piece_to_json
from tabletop.hexgrid import Hex, neighbor
from tabletop.yamlfile import DataErrors

from . import counter_art as art
from . import theme
from .app import App, Component

COUNTER_FRACTION = 1.1  # counter side in hex sizes (centre to corner) at counter_scale 1
MIN_PIXELS = 28  # ... but no smaller than this many pixels
ROOMY_FRACTION = 1.45  # ... while that stays within this many hex sizes
MIN_SCALE, MAX_SCALE, SCALE_STEP = 0.5, 2.0, 0.1
DRAG_PIXELS = 5  # movement before a press becomes a drag
HOVER_SECONDS = 0.4  # before the stack inspector shows
MAX_SHOWN = 4  # counters of a stack drawn fanned out; the rest hide under them
MAX_CHIPS = 3
LOD_PIXELS = 40  # counters smaller than this draw the far face: big symbol and values, no id
CHIP_PIXELS = 18  # a status chip at least this tall: its text 12 pixels (finding 17)
GHOST_ALPHA = 80
PANEL_COLUMN = 266  # the panels' right column (dice, selection, minimap): the tray sits left of it
TRAY_WIDTH = 250
ROW = 24  # menu, finder and tray row height
MIN_ROW = 17  # tray rows squeeze down to this when a tab is long
TEXT = 18  # panel font size (pygame's default font runs small)
PANEL_BG = (*theme.PANEL, 245)
BORDER = (78, 83, 90)
GHOST_KEY = "ghost-under-los"
DEAD_BOX = "dead"  # the game's box the dead pool is
REMOVED_BOX = "removed"  # where a plain removal puts a piece
PHASE_MOVES_ONLY = (
    "units move in their phase; hold Shift while dropping to move it anyway (logged as an edit)"
)

#: Alt+key -> screen angle (degrees, counter-clockwise from east) of the direction it means.
DIRECTION_KEYS = {
    "flat": {pygame.K_w: 90, pygame.K_e: 30, pygame.K_d: -30, pygame.K_s: -90, pygame.K_a: -150, pygame.K_q: 150},
    "pointy": {pygame.K_q: 180, pygame.K_w: 120, pygame.K_e: 60, pygame.K_d: 0, pygame.K_s: -60, pygame.K_a: -120},
}  # fmt: skip
COMPASS = {90: "N", 30: "NE", -30: "SE", -90: "S", -150: "SW", 150: "NW", 180: "W", 120: "NW", 60: "NE", 0: "E",
           -60: "SE", -120: "SW"}  # fmt: skip

SHORTCUTS = [
    ("left click a counter", "select it; click again to go down its stack"),
    ("left drag a counter", "move it to another hex (drop off the map: cancel)"),
    ("Shift while dropping", "in a rule system's game: move it anyway, logged as an edit"),
    ("right click a counter", "menu: flip (lose / regain a step), add / remove marker, turn, remove to the dead pool"),
    ("hover a stack", "list its counters and the hex"),
    ("[ / ]", "counters smaller / larger (50%-200%)"),
    ("f", "find a counter by id or type; Enter jumps to it"),
    ("Alt+Q W E A S D", "move the selected counter one hex (flat-top: NW N NE SW S SE)"),
    ("Alt+Shift+Q W E A S D", "move every unit in the selected counter's hex"),
    ("t", "counter tray: click a counter type, then a hex (Shift+click: place more)"),
]


def _mods() -> int:
    """The modifier keys held now (none when there is no display, as in tests)."""
    try:
        return pygame.key.get_mods()
    except pygame.error:
        return 0


def rules_of(app: App) -> str | None:
    """The rule system the table plays: ``app.rules`` if the app has it, else the package
    of its line-of-sight policy, else the map's own ``rules:``."""
    rules = getattr(app, "rules", None)
    if isinstance(rules, str) and rules:
        return rules
    parts = type(app.los_policy).__module__.split(".")
    if parts[:2] == ["tabletop", "games"] and len(parts) > 2 and parts[2] in RULES_COUNTERS:
        return parts[2]
    if parts[:2] == ["tabletop", "engine"]:
        return None  # free play
    board_rules = app.state.board.rules
    return board_rules if isinstance(board_rules, str) else None


_Op = tuple[pygame.Surface, int, int]  # an image and where it goes from a stack's top corner


class _Blitter(Protocol):
    """What drawing a stack needs of a surface: a window surface, or a recorder."""

    def blit(self, source: pygame.Surface, dest: tuple[int, int]) -> object: ...


class _Recorder:
    """Takes a stack's blits down instead of drawing them (replayed by ``fblits``)."""

    def __init__(self) -> None:
        self.ops: list[tuple[pygame.Surface, tuple[int, int]]] = []

    def blit(self, source: pygame.Surface, dest: tuple[int, int]) -> None:
        self.ops.append((source, (int(dest[0]), int(dest[1]))))


@dataclass
class _Stack:
    """One hex's pieces as drawn: ``counters`` bottom to top, ``chips`` marker pieces
    shown as chips on top of units, and the top counter's centre on screen."""

    hex: Hex
    counters: list[Piece]
    chips: list[Piece]
    centre: tuple[float, float]
    #: the stack's blits at its place, by zoom, selection and ghosting (None: markers
    #: alone, drawn as they are); the stack is made again when pieces or the view move
    placed: dict[Hashable, list[tuple[pygame.Surface, tuple[int, int]]] | None] = field(default_factory=dict)

    def rect(self, level: int, size: int, step: int) -> pygame.Rect:
        """Screen rectangle of the counter ``level`` places below the top one."""
        k = min(level, MAX_SHOWN - 1)
        cx, cy = self.centre[0] - k * step, self.centre[1] - k * step
        return pygame.Rect(round(cx - size / 2), round(cy - size / 2), size, size)


@dataclass
class _MenuItem:
    label: str
    action: str  # what choosing it does (see CounterLayer._choose)
    arg: str = ""
    enabled: bool = True


@dataclass
class _Menu:
    piece_id: str
    pos: tuple[int, int]
    page: str = "main"  # main | add | remove


@dataclass
class _Finder:
    text: str = ""
    index: int = 0


@dataclass
class _Placing:
    kind: str  # unit | marker | dead
    type: str
    side: str | None = None
    piece: str = ""  # the dead pool's piece to bring back


class CounterLayer(Component):
    """Draws every counter and lets the player handle them (see the module docstring).

    ``counters``: the counter set to draw with; by default the one of the table's rule
    system (``counters_for(rules_of(app))``), loaded on first use.
    """

    shortcuts = SHORTCUTS

    def __init__(self, counters: Counters | None = None) -> None:
        self.counters = counters
        self.tray_open = False
        self.tray_tab = 0
        self.menu: _Menu | None = None
        self.finder: _Finder | None = None
        self.placing: _Placing | None = None
        self._press: tuple[tuple[int, int], str] | None = None  # where a left press began, on what
        self._drag: str | None = None  # the piece being dragged
        self._hover_key: Hex | None = None
        self._hover_time = 0.0

    # --- data -----------------------------------------------------------------------

    def counter_set(self, app: App) -> Counters:
        """The game's counters (loaded on first use; generic if the file has a problem)."""
        if self.counters is None:
            rules = rules_of(app)
            try:
                self.counters = counters_for(rules)
            except DataErrors as exc:
                app.say(f"counters: {exc.errors[0]} (drawing free-play counters instead)")
                self.counters = counters_for(None)
        return self.counters

    def spec(self, app: App, piece: Piece) -> UnitType:
        return self.counter_set(app).unit(piece.type)

    def side_rgb(self, app: App, side: str | None) -> tuple[int, int, int]:
        colour = self.counter_set(app).side_colour(side)
        return art.rgb(colour) if colour else theme.side_colour(side)

    @staticmethod
    def dead_pool(app: App) -> list[Piece]:
        """The game's dead pool (its ``"dead"`` box), as the game holds it now."""
        return app.play.state.box(DEAD_BOX)

    @staticmethod
    def boxed(app: App) -> list[Piece]:
        """Every piece in any of the game's boxes (off the map)."""
        return [p for pieces in app.play.state.boxes.values() for p in pieces]

    def describe(self, app: App, piece: Piece) -> str:
        """A piece in a few words: id, what it is, side, strength and status."""
        if piece.kind == "marker":
            what = self.counter_set(app).marker(piece.type).name
        else:
            what = self.spec(app, piece).name
        side = f", {piece.side}" if piece.side else ""
        full = self.full_steps(app, piece)
        steps = f", {piece.steps} of {full} steps" if piece.kind == "unit" and full > 1 else ""
        status = f" [{', '.join(sorted(piece.status))}]" if piece.status else ""
        return f"{piece.id} ({what}{side}{steps}){status}"

    def full_steps(self, app: App, piece: Piece) -> int:
        """The steps of a fresh counter of ``piece``'s type (the counters file's
        ``steps``; 1 where it gives none): what ``Piece.steps`` is measured against."""
        return (self.spec(app, piece).steps or 1) if piece.kind == "unit" else 1

    def is_reduced(self, app: App, piece: Piece) -> bool:
        """Whether the unit has lost steps (finding 1: Piece.steps, never a status word)."""
        return piece.kind == "unit" and piece.steps < self.full_steps(app, piece)

    # --- geometry -------------------------------------------------------------------

    def size(self, app: App) -> int:
        """Counter side in screen pixels: ``COUNTER_FRACTION`` of the hex size, but not
        under ``MIN_PIXELS`` while the hex has room (so counters stay legible zoomed out)."""
        scale = app.camera.scale
        side = min(max(scale * COUNTER_FRACTION, MIN_PIXELS), scale * ROOMY_FRACTION)
        return max(8, round(side * app.counter_scale))

    @staticmethod
    def far(size: int) -> bool:
        """Whether counters of ``size`` pixels draw their far face (finding 17: below
        this an id is a few unreadable pixels; the symbol and strength still read)."""
        return size < LOD_PIXELS

    @staticmethod
    def step(size: int) -> int:
        return max(2, round(size * 0.12))

    def stacks(self, app: App) -> list[_Stack]:
        """The stacks on screen, in drawing order (top of the screen first); worked out
        again only when the pieces, the view, the selection or a drag change (hovering
        asks for them on every pointer move)."""
        cam = app.camera
        key = (id(app.state), app.state.version, cam.center, cam.zoom, cam.width, cam.height,
               app.counter_scale, app.selected, self._drag)  # fmt: skip
        cached = getattr(self, "_stacks_cache", None)
        if cached is not None and cached[0] == key:
            found: list[_Stack] = cached[1]
            return found
        out = self._stacks(app)
        self._stacks_cache = (key, out)
        return out

    def _stacks(self, app: App) -> list[_Stack]:
        size = self.size(app)
        margin = size * 2
        cam = app.camera
        w, h = cam.width, cam.height
        groups, world = self._groups(app)
        if not groups:
            return []
        s = cam.scale  # the positions as ``app.screen_of`` gives them, for every hex at once
        sx = (world[:, 0] - cam.center[0]) * s + w / 2
        sy = (world[:, 1] - cam.center[1]) * s + h / 2
        seen = (-margin < sx) & (sx < w + margin) & (-margin < sy) & (sy < h + margin)
        picked = np.flatnonzero(seen)
        order = picked[np.lexsort((sx[picked], sy[picked]))]  # top of the screen first
        xs, ys = sx[order].tolist(), sy[order].tolist()
        return [
            _Stack(hx, counters, chips, (x, y))
            for (hx, counters, chips), x, y in zip([groups[i] for i in order.tolist()], xs, ys, strict=True)
        ]

    def _groups(self, app: App) -> tuple[list[tuple[Hex, list[Piece], list[Piece]]], np.ndarray]:
        """Each occupied hex's counters (bottom to top, the selected one on top) and
        chips, and the hexes' world centres: kept while the pieces, the selection and
        the drag stay (a zoom or a pan moves the stacks, it does not regroup them)."""
        key = (id(app.state), app.state.version, app.selected, self._drag, id(app.view))
        cached = self.__dict__.get("_groups_cache")
        if cached is not None and cached[0] == key:
            found: tuple[list[tuple[Hex, list[Piece], list[Piece]]], np.ndarray] = cached[1]
            return found
        hexes: dict[Hex, list[Piece]] = {}
        for p in app.state.pieces():
            if p.id != self._drag:
                hexes.setdefault(p.hex, []).append(p)
        groups = []
        for hx, pieces in hexes.items():
            units = [p for p in pieces if p.kind == "unit"]
            markers = [p for p in pieces if p.kind != "unit"]
            counters, chips = (units, markers) if units else (markers, [])
            selected = next((p for p in counters if p.id == app.selected), None)
            if selected is not None:  # the selected counter is shown on top of its stack
                counters = [p for p in counters if p is not selected] + [selected]
            groups.append((hx, counters, chips))
        world = np.array([app.view.center(g[0]) for g in groups], dtype=float).reshape(-1, 2)
        self._groups_cache = (key, (groups, world))
        return groups, world

    def hit(self, app: App, pos: tuple[int, int]) -> tuple[_Stack, Piece] | None:
        """The stack and counter under a screen point (topmost first), or None."""
        size = self.size(app)
        step = self.step(size)
        reach = size + MAX_SHOWN * step  # no counter of a stack lies farther from its centre
        for stack in reversed(self.stacks(app)):
            if abs(pos[0] - stack.centre[0]) > reach or abs(pos[1] - stack.centre[1]) > reach:
                continue
            n = len(stack.counters)
            for level in range(n):
                piece = stack.counters[n - 1 - level]
                if stack.rect(level, size, step).collidepoint(pos):
                    return stack, piece
        return None

    def facing_angle(self, app: App, piece: Piece) -> float | None:
        """Screen angle (degrees, counter-clockwise from east) of the piece's facing."""
        if piece.facing is None:
            return None
        x0, y0 = app.view.center(piece.hex)
        x1, y1 = app.view.center(neighbor(piece.hex, piece.facing))
        return math.degrees(math.atan2(-(y1 - y0), x1 - x0))

    # --- events ---------------------------------------------------------------------

    def owns_keyboard(self) -> bool:
        """The finder is open: every key is typed into it (finding 6)."""
        return self.finder is not None

    def wake_in(self, app: App) -> float | None:
        """The stack inspector's clock: when it shows (None: it shows already, or no stack)."""
        if self._hover_key is None or self._hover_time >= HOVER_SECONDS:
            return None
        return HOVER_SECONDS - self._hover_time

    def end_stale_modes(self, app: App) -> None:
        """A mode ends when what it needs is gone (finding 3): a menu or a drag of a
        piece no longer on the map, bringing back a piece no longer in the dead pool."""
        if self.menu is None and self._drag is None and self._press is None and self.placing is None:
            return  # nothing open (every frame of most of the game)
        on_map = {p.id for p in app.state.pieces()}
        if self.menu is not None and self.menu.piece_id not in on_map:
            self.menu = None
        if self._drag is not None and self._drag not in on_map:
            self._drag = self._press = None
        if self._press is not None and self._press[1] not in on_map:
            self._press = None
        placing = self.placing
        if placing is not None and placing.kind == "dead" and all(p.id != placing.piece for p in self.dead_pool(app)):
            self.placing = None

    def handle(self, event: pygame.event.Event, app: App) -> bool:
        self.end_stale_modes(app)
        if self.finder is not None and event.type in (pygame.KEYDOWN, pygame.TEXTINPUT, pygame.KEYUP):
            return self._finder_key(event, app)
        if event.type == pygame.KEYDOWN:
            return self._key(event, app)
        if event.type == pygame.MOUSEBUTTONDOWN:
            return self._press_event(event, app)
        if event.type == pygame.MOUSEMOTION:
            return self._motion(event, app)
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            return self._release(event, app)
        return False

    def _key(self, event: pygame.event.Event, app: App) -> bool:
        key, mods = event.key, event.mod
        if key == pygame.K_ESCAPE:
            if self._drag is not None:
                self._drag = self._press = None
                app.say("move cancelled")
                return True
            if self.menu is not None:
                self.menu = None
                return True
            if self.placing is not None:
                self.placing = None
                app.say("placing cancelled")
                return True
            return False
        if mods & pygame.KMOD_ALT and not mods & pygame.KMOD_CTRL:
            angles = DIRECTION_KEYS[app.board.grid.orientation]
            if key in angles:
                self.move_selected(app, angles[key], whole_stack=bool(mods & pygame.KMOD_SHIFT))
                return True
            return False
        if mods & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META):
            return False
        text = getattr(event, "unicode", "")
        if key == pygame.K_LEFTBRACKET or text == "[":
            self.rescale(app, -SCALE_STEP)
        elif key == pygame.K_RIGHTBRACKET or text == "]":
            self.rescale(app, SCALE_STEP)
        elif key == pygame.K_f:
            self.finder = _Finder()
            self.menu = None
        elif key == pygame.K_t and not mods & pygame.KMOD_SHIFT:  # Shift+T: the background picture
            self.tray_open = not self.tray_open
            if not self.tray_open:
                self.placing = None
            app.say(f"counter tray: {'open' if self.tray_open else 'closed'}")
        else:
            return False
        return True

    def _press_event(self, event: pygame.event.Event, app: App) -> bool:
        if event.button not in (1, 3):
            return False  # middle drag pans; 4-7 are the wheel
        pos = event.pos
        if self.menu is not None:
            if event.button == 1:
                item = self._menu_item_at(app, pos)
                if item is not None:
                    if item.enabled:
                        self._choose(app, item)
                    return True
                if not self._menu_rect(app).collidepoint(pos):
                    self.menu = None  # a click elsewhere closes the menu, and is used up
                return True
            self.menu = None  # a right click elsewhere: close, then treat it afresh
        if event.button == 1 and self.finder_rows(app) and self._finder_click(app, pos):
            return True
        if self.tray_open and self.tray_rect(app).collidepoint(pos):
            if event.button == 1:
                self._tray_click(app, pos)
            return True
        if event.button == 1 and self.placing is not None:
            self._place(app, pos, keep=bool(_mods() & pygame.KMOD_SHIFT))
            return True
        found = self.hit(app, pos)
        if found is None:
            return False  # empty map: the camera pans with right and middle drags
        piece = found[1]
        if event.button == 3:
            app.selected = piece.id
            self.menu = _Menu(piece.id, pos)
            return True
        self._press = (pos, piece.id)
        return True

    def _motion(self, event: pygame.event.Event, app: App) -> bool:
        if self._press is None:
            return False
        if self._drag is None:
            (x0, y0), pid = self._press
            if math.hypot(event.pos[0] - x0, event.pos[1] - y0) < DRAG_PIXELS:
                return True
            found = self.hit(app, (x0, y0))
            if found is not None and any(p.id == app.selected for p in found[0].counters):
                pid = app.selected or pid  # drag the selected counter out of its stack
            self._drag = pid
            app.selected = pid
        return True

    def _release(self, event: pygame.event.Event, app: App) -> bool:
        if self._press is None:
            return False
        pos, pid = self._press
        dragged, self._drag, self._press = self._drag, None, None
        if dragged is None:
            self._click(app, pos, pid)
            return True
        try:
            piece = app.state.piece(dragged)
        except KeyError:
            return True
        target = app.hex_at_screen(*event.pos)
        if target is None:
            app.say(f"{piece.id}: move cancelled (dropped off the map)")
        elif target != piece.hex:
            self._move(app, piece, target, shift_held=bool(_mods() & pygame.KMOD_SHIFT))
        return True

    def _click(self, app: App, pos: tuple[int, int], pid: str) -> None:
        """Select the counter clicked, or the next one down if its stack holds the selection."""
        found = self.hit(app, pos)
        if found is None:
            return
        stack = found[0]
        order = list(reversed(app.state.pieces_at(stack.hex)))  # top first, markers last
        order.sort(key=lambda p: p.kind != "unit")
        ids = [p.id for p in order]
        if app.selected in ids and len(ids) > 1:
            pid = ids[(ids.index(app.selected) + 1) % len(ids)]
        elif app.selected in ids:
            pid = app.selected
        app.selected = pid
        piece = app.state.piece(pid)
        where = app.board.grid.label(piece.hex)
        extra = f" ({ids.index(pid) + 1} of {len(ids)})" if len(ids) > 1 else ""
        app.say(f"selected {self.describe(app, piece)} in {where}{extra}")

    def _move(self, app: App, piece: Piece, target: Hex, *, shift_held: bool = False) -> bool:
        """Move a piece through the game: a unit in a rule system's game by the rules'
        own move (their ``drag_action``), else as an edit only with Shift held; a marker,
        or anything in free play, as a plain edit. True if it moved."""
        label = app.board.grid.label(target)
        move: Action = {"do": "move", "piece": piece.id, "to": label}
        rules = app.play.rules
        if piece.kind != "unit" or rules.name == FreePlayRules.name:
            return app.edit(move)
        drag_action = getattr(rules, "drag_action", None)
        action = drag_action(app.play.state, piece.id, label, shift_held) if drag_action is not None else None
        if action is not None:
            return app.act(action)
        if shift_held:
            return app.edit(move)
        app.say(f"{piece.id}: {PHASE_MOVES_ONLY}")
        return False

    def move_selected(self, app: App, angle: float, *, whole_stack: bool = False) -> None:
        """Move the selected counter (or every unit in its hex) one hex toward ``angle``."""
        piece = app.selected_piece()
        if piece is None:
            app.say("no counter selected: click one first")
            return
        here = app.view.center(piece.hex)
        best, best_gap = 0, 999.0
        for d in range(6):
            x, y = app.view.center(neighbor(piece.hex, d))
            a = math.degrees(math.atan2(-(y - here[1]), x - here[0]))
            gap = abs((a - angle + 180) % 360 - 180)
            if gap < best_gap:
                best, best_gap = d, gap
        target = neighbor(piece.hex, best)
        name = COMPASS.get(round(angle), "that way")
        if not app.board.grid.contains(target):
            app.say(f"{piece.id} cannot move {name}: off the map")
            return
        movers = [piece]
        if whole_stack:
            movers = [p for p in app.state.units_at(piece.hex)] or [piece]
        for p in movers:
            if not self._move(app, p, target):
                break

    def rescale(self, app: App, delta: float) -> None:
        app.counter_scale = round(min(MAX_SCALE, max(MIN_SCALE, app.counter_scale + delta)), 2)
        app.say(f"counter size {round(app.counter_scale * 100)}%")

    # --- the right-click menu ---------------------------------------------------------

    def menu_items(self, app: App) -> list[_MenuItem]:
        """What the open menu offers (empty if none is open or its counter is gone)."""
        if self.menu is None:
            return []
        try:
            piece = app.state.piece(self.menu.piece_id)
        except KeyError:
            self.menu = None
            return []
        cs = self.counter_set(app)
        back = _MenuItem("< back", "page", "main")
        if self.menu.page == "add":
            items = [back]
            for m in cs.markers.values():
                if m.place == "unit" and (piece.kind != "unit" or m.key in piece.status):
                    continue
                where = "on the unit" if m.place == "unit" else "in the hex"
                items.append(_MenuItem(f"{m.text}  {m.name} ({where})", "add", m.key))
            return items
        if self.menu.page == "remove":
            items = [back]
            for word in sorted(self._marker_words(piece)):
                items.append(_MenuItem(f"{cs.marker(word).text}  {cs.marker(word).name}", "unmark", word))
            for placed in app.state.markers_at(piece.hex):
                text = cs.marker(placed.type).text
                items.append(_MenuItem(f"{text}  {placed.id} (in the hex)", "remove", placed.id))
            return items
        items = self._step_items(app, piece)
        items.append(_MenuItem("Add marker >", "page", "add", enabled=bool(cs.markers)))
        has_markers = bool(self._marker_words(piece)) or bool(app.state.markers_at(piece.hex))
        items.append(_MenuItem("Remove marker >", "page", "remove", enabled=has_markers))
        if piece.facing is not None:
            items.append(_MenuItem("Turn anticlockwise", "turn", "1"))
            items.append(_MenuItem("Turn clockwise", "turn", "-1"))
        if piece.kind == "unit":
            items.append(_MenuItem("Remove to the dead pool", "dead"))
        else:
            items.append(_MenuItem(f"Remove {piece.id}", "remove", piece.id))
        return items

    def _step_items(self, app: App, piece: Piece) -> list[_MenuItem]:
        """Flip a two-step unit; take or give back one step of a unit of more steps.
        Each changes Piece.steps through a logged ``steps`` action (finding 1)."""
        full = self.full_steps(app, piece)
        if piece.kind != "unit" or full < 2:
            return []
        if full == 2:
            reduced = self.is_reduced(app, piece)
            label = "Flip to full strength" if reduced else "Flip to reduced"
            return [_MenuItem(label, "steps", str(full if reduced else 1))]
        left = f" ({piece.steps} of {full} left)"
        return [
            _MenuItem(f"Lose a step{left}", "steps", str(piece.steps - 1), enabled=piece.steps > 1),
            _MenuItem("Regain a step", "steps", str(piece.steps + 1), enabled=piece.steps < full),
        ]

    @staticmethod
    def _marker_words(piece: Piece) -> set[str]:
        """A unit's status words, shown as chips."""
        return set(piece.status) if piece.kind == "unit" else set()

    def _menu_rect(self, app: App) -> pygame.Rect:
        if self.menu is None:
            return pygame.Rect(0, 0, 0, 0)
        items = self.menu_items(app)
        font = theme.font(TEXT)
        title = self._menu_title(app)
        width = max([font.size(i.label)[0] for i in items] + [font.size(title)[0]]) + 24
        height = ROW * (len(items) + 1) + 8
        x = min(self.menu.pos[0] + 4, app.camera.width - width - 4)
        y = min(self.menu.pos[1] + 4, app.camera.height - height - 4)
        return pygame.Rect(max(0, x), max(0, y), width, height)

    def _menu_title(self, app: App) -> str:
        if self.menu is None:
            return ""
        try:
            piece = app.state.piece(self.menu.piece_id)
        except KeyError:
            return ""
        page = {"add": " - add marker", "remove": " - remove marker"}.get(self.menu.page, "")
        return f"{self.describe(app, piece)}{page}"

    def menu_layout(self, app: App) -> list[tuple[pygame.Rect, _MenuItem]]:
        """Screen rectangles of the open menu's items."""
        box = self._menu_rect(app)
        return [
            (pygame.Rect(box.x + 4, box.y + 4 + ROW * (k + 1), box.w - 8, ROW), item)
            for k, item in enumerate(self.menu_items(app))
        ]

    def _menu_item_at(self, app: App, pos: tuple[int, int]) -> _MenuItem | None:
        return next((item for rect, item in self.menu_layout(app) if rect.collidepoint(pos)), None)

    def choose(self, app: App, label_start: str) -> None:
        """Choose the open menu's first item whose label starts with ``label_start``."""
        item = next(i for i in self.menu_items(app) if i.label.startswith(label_start))
        self._choose(app, item)

    def _choose(self, app: App, item: _MenuItem) -> None:
        assert self.menu is not None
        piece = app.state.piece(self.menu.piece_id)
        if item.action == "page":
            self.menu.page = item.arg
            return
        self.menu = None  # each change below is logged once, in the game's own words (finding 14)
        if item.action == "steps":
            app.edit({"do": "steps", "piece": piece.id, "steps": int(item.arg)})
        elif item.action == "add":
            marker = self.counter_set(app).marker(item.arg)
            if marker.place == "unit":
                app.edit({"do": "status", "piece": piece.id, "add": [marker.key]})
            else:
                new = Piece(self.new_id(app, marker.key), marker.key, piece.hex, kind="marker")
                app.edit({"do": "place", "piece": piece_to_json(new)})
        elif item.action == "unmark":
            app.edit({"do": "status", "piece": piece.id, "drop": [item.arg]})
        elif item.action == "remove":
            app.edit({"do": "remove", "piece": item.arg, "box": REMOVED_BOX})
        elif item.action == "turn":
            assert piece.facing is not None
            app.edit({"do": "face", "piece": piece.id, "facing": (piece.facing + int(item.arg)) % 6})
        elif item.action == "dead":
            app.edit({"do": "remove", "piece": piece.id, "box": DEAD_BOX})

    def new_id(self, app: App, base: str) -> str:
        """``base-N`` with the smallest N used by no piece on the map or in any box."""
        used = {p.id for p in app.state.pieces()} | {p.id for p in self.boxed(app)}
        n = 1
        while f"{base}-{n}" in used:
            n += 1
        return f"{base}-{n}"

    # --- the finder -------------------------------------------------------------------

    def finder_matches(self, app: App) -> list[Piece]:
        """Pieces whose id, type or type name holds the finder's text, best first."""
        if self.finder is None:
            return []
        text = self.finder.text.strip().lower()
        out = []
        cs = self.counter_set(app)
        for p in app.state.pieces():
            name = (cs.marker(p.type).name if p.kind == "marker" else cs.unit(p.type).name).lower()
            if not text or text in p.id.lower() or text in p.type.lower() or text in name:
                rank = 0 if p.id.lower() == text else 1 if p.id.lower().startswith(text) else 2
                out.append((rank, p.id, p))
        out.sort(key=lambda t: (t[0], t[1]))
        return [p for _, _, p in out[:12]]

    def finder_rows(self, app: App) -> list[tuple[pygame.Rect, Piece]]:
        if self.finder is None:
            return []
        box = self._finder_rect(app)
        return [
            (pygame.Rect(box.x + 4, box.y + 8 + ROW * (k + 1), box.w - 8, ROW), p)
            for k, p in enumerate(self.finder_matches(app))
        ]

    def _finder_rect(self, app: App) -> pygame.Rect:
        n = len(self.finder_matches(app))
        width = min(460, app.camera.width - 20)
        return pygame.Rect((app.camera.width - width) // 2, 40, width, ROW * (n + 1) + 16)

    def _finder_key(self, event: pygame.event.Event, app: App) -> bool:
        f = self.finder
        assert f is not None
        if event.type != pygame.KEYDOWN:
            return True  # typed text arrives with KEYDOWN too; the rest is used up
        key = event.key
        matches = self.finder_matches(app)
        if key == pygame.K_ESCAPE:
            self.finder = None
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if matches:
                self.jump_to(app, matches[min(f.index, len(matches) - 1)])
            else:
                app.say(f"no counter matches {f.text!r}")
            self.finder = None
        elif key == pygame.K_BACKSPACE:
            f.text, f.index = f.text[:-1], 0
        elif key == pygame.K_DOWN:
            f.index = min(f.index + 1, max(0, len(matches) - 1))
        elif key == pygame.K_UP:
            f.index = max(0, f.index - 1)
        elif event.mod & pygame.KMOD_CTRL and key == pygame.K_q:
            return False  # quitting always works
        else:
            ch = getattr(event, "unicode", "")
            if ch and ch.isprintable():
                f.text, f.index = f.text + ch, 0
        return True

    def _finder_click(self, app: App, pos: tuple[int, int]) -> bool:
        for rect, piece in self.finder_rows(app):
            if rect.collidepoint(pos):
                self.jump_to(app, piece)
                self.finder = None
                return True
        if self._finder_rect(app).collidepoint(pos):
            return True
        self.finder = None
        return False

    def jump_to(self, app: App, piece: Piece) -> None:
        """Centre the view on a piece and select it."""
        app.camera.center = app.view.center(piece.hex)
        app.selected = piece.id
        app.say(f"found {self.describe(app, piece)} in {app.board.grid.label(piece.hex)}")

    # --- the tray ---------------------------------------------------------------------

    def tray_tabs(self, app: App) -> list[str]:
        """The tray's tabs: each side of the sheet, then markers, then the dead pool."""
        cs = self.counter_set(app)
        tabs = list(cs.sheet) or list(cs.sides)
        if any(m.place == "hex" for m in cs.markers.values()):
            tabs.append("markers")
        if self.dead_pool(app):
            tabs.append("dead pool")
        return tabs

    def tray_rect(self, app: App) -> pygame.Rect:
        """The tray's box: right of the map, left of the panels' column, as tall as its
        longest tab (or the window)."""
        w, h = app.camera.width, app.camera.height
        right = w - PANEL_COLUMN if w - PANEL_COLUMN >= TRAY_WIDTH + 8 else w - 8
        cs = self.counter_set(app)
        longest = max([len(e) for e in cs.sheet.values()] + [len(cs.markers), len(self.dead_pool(app))])
        want = ROW * (longest + 3) + 24
        return pygame.Rect(right - TRAY_WIDTH, 8, TRAY_WIDTH, max(ROW * 4, min(want, h - 48)))

    def sheet_count(self, app: App, side: str, type_key: str, count: int) -> tuple[int, int]:
        """(left, of): counters of a sheet entry not yet on the map nor in a box (the dead
        pool, landing boxes, reinforcements), and how many the sheet holds. The game's
        own pieces count as part of the sheet, so a scenario that brings more than the
        counters file lists never shows a negative count (issue 13 finding 9: "-2/2")."""
        placed = [*app.state.pieces(), *self.boxed(app)]
        used = sum(1 for p in placed if p.kind == "unit" and p.side == side and p.type == type_key)
        total = max(count, used)
        return total - used, total

    def left_on_sheet(self, app: App, side: str, type_key: str, count: int) -> int:
        """Counters of a sheet entry not yet on the map nor in a box (never below 0)."""
        return self.sheet_count(app, side, type_key, count)[0]

    def tray_rows(self, app: App) -> list[tuple[pygame.Rect, str, _Placing | None, str]]:
        """The tray's rows: (rect, what it says, what clicking it places, how many left)."""
        tabs = self.tray_tabs(app)
        box = self.tray_rect(app)
        cs = self.counter_set(app)
        self.tray_tab = min(self.tray_tab, max(0, len(tabs) - 1))
        rows: list[tuple[str, _Placing | None, str]] = []
        tab = tabs[self.tray_tab] if tabs else ""
        if tab == "markers":
            rows = [
                (m.name, _Placing("marker", m.key), m.text) for m in cs.markers.values() if m.place == "hex"
            ]
        elif tab == "dead pool":
            rows = [
                (f"{p.id} {cs.unit(p.type).name}", _Placing("dead", p.type, p.side, p.id), p.side or "")
                for p in self.dead_pool(app)
            ]
        elif tab:
            for entry in cs.sheet.get(tab, ()):
                left, total = self.sheet_count(app, tab, entry.type, entry.count)
                rows.append((cs.unit(entry.type).name, _Placing("unit", entry.type, tab), f"{left}/{total}"))
        top = box.y + 8 + ROW * self._tab_lines(app) + 6
        space = box.bottom - top - ROW
        row_h = ROW if len(rows) * ROW <= space else max(MIN_ROW, space // max(1, len(rows)))
        room = max(0, space // row_h)
        if len(rows) > room:  # still too many for the window: say how many are hidden
            rows = [
                *rows[: room - 1],
                (f"... {len(rows) - room + 1} more (a taller window shows them)", None, ""),
            ]
        return [
            (pygame.Rect(box.x + 4, top + row_h * k, box.w - 8, row_h), label, placing, note)
            for k, (label, placing, note) in enumerate(rows)
        ]

    def _tab_layout(self, app: App) -> list[tuple[pygame.Rect, int]]:
        box = self.tray_rect(app)
        font = theme.font(TEXT)
        out, x, y = [], box.x + 6, box.y + 8
        for k, tab in enumerate(self.tray_tabs(app)):
            w = font.size(tab)[0] + 14
            if x + w > box.right - 6 and x > box.x + 6:
                x, y = box.x + 6, y + ROW
            out.append((pygame.Rect(x, y, w, ROW - 4), k))
            x += w + 4
        return out

    def _tab_lines(self, app: App) -> int:
        layout = self._tab_layout(app)
        return 1 + (layout[-1][0].y - layout[0][0].y) // ROW if layout else 1

    def _tray_click(self, app: App, pos: tuple[int, int]) -> None:
        for rect, k in self._tab_layout(app):
            if rect.collidepoint(pos):
                self.tray_tab = k
                return
        for rect, label, placing, _ in self.tray_rows(app):
            if rect.collidepoint(pos) and placing is not None:
                if placing.kind == "unit" and self._left(app, placing) <= 0:
                    app.say(f"no {label} left on the {placing.side} sheet")
                    return
                self.placing = placing
                app.say(f"placing {label}: click a hex (Esc: cancel)")
                return

    def _left(self, app: App, placing: _Placing) -> int:
        """Counters left on the sheet for a unit placing (a large number if not on it)."""
        sheet = self.counter_set(app).sheet.get(placing.side or "", ())
        entry = next((e for e in sheet if e.type == placing.type), None)
        if entry is None:
            return 999
        return self.left_on_sheet(app, placing.side or "", entry.type, entry.count)

    def _place(self, app: App, pos: tuple[int, int], *, keep: bool = False) -> None:
        placing = self.placing
        assert placing is not None
        target = app.hex_at_screen(*pos)
        if target is None:
            app.say("not on the map: click a hex (Esc: cancel)")
            return
        cs = self.counter_set(app)
        label = app.board.grid.label(target)
        if placing.kind == "unit":
            if self._left(app, placing) <= 0:
                app.say(f"no {cs.unit(placing.type).name} left on the {placing.side} sheet")
                self.placing = None
                return
            facing = self._facing_inward(app, target) if cs.facing else None
            full = cs.unit(placing.type).steps or 1  # a counter from the sheet is at full strength
            fresh = Piece(self.new_id(app, placing.type), placing.type, target, placing.side, facing=facing, steps=full)
            new = app.play.newcomers.full(fresh)  # with the attributes its type and rules give it
            if app.edit({"do": "place", "piece": piece_to_json(new)}):
                app.selected = new.id
        elif placing.kind == "marker":
            marker = cs.marker(placing.type)
            new = Piece(self.new_id(app, marker.key), marker.key, target, kind="marker")
            app.edit({"do": "place", "piece": piece_to_json(new)})
        else:
            keep = False
            if any(p.id == placing.piece for p in app.state.pieces()):
                app.say(f"{placing.piece} cannot come back: a piece with that id is on the map")
            elif app.edit({"do": "unbox", "box": DEAD_BOX, "piece": placing.piece, "to": label}):
                app.selected = placing.piece
        if not keep:
            self.placing = None

    def _facing_inward(self, app: App, h: Hex) -> int:
        """The direction from ``h`` toward the middle of the map (new skirmish figures)."""
        x0, y0, x1, y1 = app.view.bounds
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        here = app.view.center(h)
        best, best_d = 0, math.inf
        for d in range(6):
            x, y = app.view.center(neighbor(h, d))
            dist = math.hypot(x - mx, y - my)
            if dist < best_d - 1e-9:
                best, best_d = d, dist
        return best if math.hypot(here[0] - mx, here[1] - my) > 1e-9 else 0

    # --- frame updates ----------------------------------------------------------------

    def update(self, app: App, dt: float) -> None:
        self.end_stale_modes(app)
        key = None
        over_tray = self.tray_open and self.tray_rect(app).collidepoint(app.mouse)
        if app.hover is not None and not over_tray:  # hover is None off the map and under panels
            found = self.hit(app, app.mouse)
            key = found[0].hex if found is not None else None
        if key is not None and key == self._hover_key:
            self._hover_time += dt
        else:
            self._hover_key, self._hover_time = key, dt

    def inspecting(self) -> Hex | None:
        """The hex whose stack the inspector shows, if it shows."""
        busy = self._drag is not None or self.menu is not None or self.finder is not None
        if busy or self._hover_key is None or self._hover_time < HOVER_SECONDS:
            return None
        return self._hover_key

    # --- drawing ----------------------------------------------------------------------

    def draw_under(self, surface: pygame.Surface, app: App) -> None:
        """Area markers (smoke, gas) tint their hexes."""
        cs = self.counter_set(app)
        w, h = surface.get_size()
        for p in app.state.pieces():
            if p.kind != "marker" or not cs.marker(p.type).area:
                continue
            pts = [app.camera.to_screen(x, y) for x, y in app.view.layout.corners(p.hex)]
            xs, ys = [x for x, _ in pts], [y for _, y in pts]
            if max(xs) < 0 or min(xs) > w or max(ys) < 0 or min(ys) > h:
                continue
            box = pygame.Rect(math.floor(min(xs)), math.floor(min(ys)), 1, 1)
            box.w, box.h = math.ceil(max(xs)) - box.x + 1, math.ceil(max(ys)) - box.y + 1
            tint = pygame.Surface(box.size, pygame.SRCALPHA)
            pygame.draw.polygon(
                tint, (*art.rgb(cs.marker(p.type).colour), 120), [(x - box.x, y - box.y) for x, y in pts]
            )
            surface.blit(tint, box.topleft)

    def draw_counters(self, surface: pygame.Surface, app: App) -> None:
        size = self.size(app)
        step = self.step(size)
        ghost = app.overlays.get(GHOST_KEY)
        ghosts: set[Hex] | frozenset[Hex] = ghost if isinstance(ghost, (set, frozenset)) else set()
        for part in self._frame_parts(app, size, step, ghosts):
            if isinstance(part, _Stack):  # markers alone, drawn as they are (obstacles, cleared hexes)
                self._draw_hex_markers(surface, app, part, size, part.hex in ghosts)
            else:
                surface.fblits(part)  # the counters, chips and badges between, in one call (issue 19)
        if self._drag is not None:
            try:
                piece = app.state.piece(self._drag)
            except KeyError:
                return
            target = app.hex_at_screen(*app.mouse)
            if target is not None:
                self._outline_hex(surface, app, target)
            img = self._face(app, piece, size)
            x, y = app.mouse
            surface.blit(art.shadow(size, self._is_token(app, piece)), (x - size // 2 + 3, y - size // 2 + 3))
            surface.blit(img, (x - size // 2, y - size // 2))
        elif self.placing is not None and self.placing.kind != "dead":
            target = app.hex_at_screen(*app.mouse)
            if target is not None:
                self._outline_hex(surface, app, target)

    def _is_token(self, app: App, piece: Piece) -> bool:
        return piece.kind == "unit" and self.spec(app, piece).shape == "token"

    def _face(self, app: App, piece: Piece, size: int) -> pygame.Surface:
        cs = self.counter_set(app)
        if piece.kind != "unit":
            return art.marker_counter(cs.marker(piece.type), size)
        spec = cs.unit(piece.type)
        reduced = self.is_reduced(app, piece)
        full = self.full_steps(app, piece)
        values = None  # the face's printed values (full or reduced, from the counters file)
        if reduced and full > 2 and not (piece.steps == 1 and spec.reduced):
            values = str(piece.steps)  # a unit of several steps between its faces: the steps left
        return art.unit_counter(
            spec,
            self.side_rgb(app, piece.side),
            size,
            piece.id,
            reduced=reduced,
            facing=self.facing_angle(app, piece),
            values=values,
            lod=self.far(size),
        )

    def _frame_parts(
        self, app: App, size: int, step: int, ghosts: set[Hex] | frozenset[Hex]
    ) -> list[list[tuple[pygame.Surface, tuple[int, int]]] | _Stack]:
        """The view's stacks as runs of blits (and marker stacks between them), kept
        while the stacks, the zoom, the selection and the ghosted stacks stay (a still
        view replays them; a moving thread changes which stacks are ghosts)."""
        stacks = self.stacks(app)
        ghosted = frozenset(s.hex for s in stacks if s.hex in ghosts) if ghosts else frozenset()
        key = (size, step, ghosted, app.selected, id(self.counter_set(app)), id(app.view))
        cached = self.__dict__.get("_frame_cache")
        if cached is not None and cached[0] is stacks and cached[1] == key:
            found: list[list[tuple[pygame.Surface, tuple[int, int]]] | _Stack] = cached[2]
            return found
        parts: list[list[tuple[pygame.Surface, tuple[int, int]]] | _Stack] = []
        ops: list[tuple[pygame.Surface, tuple[int, int]]] = []
        for stack in stacks:
            look = (key, stack.hex in ghosted)
            placed = stack.placed.get(look)  # this stack's blits where it stands, if worked out
            if placed is None:
                if self._plain_markers(app, stack):
                    placed = stack.placed[look] = None
                else:
                    x0, y0 = stack.rect(0, size, step).topleft
                    placed = stack.placed[look] = [
                        (img, (x0 + dx, y0 + dy)) for img, dx, dy in self._stack_ops(app, stack, size, step, look[1])
                    ]
            if placed is None:
                parts.extend([ops, stack])
                ops = []
            else:
                ops.extend(placed)
        parts.append(ops)
        self._frame_cache = (stacks, key, parts)
        return parts

    def _plain_markers(self, app: App, stack: _Stack) -> bool:
        """Markers alone in a hex, none of them an area (a smoke puff stays a counter)."""
        cs = self.counter_set(app)
        return stack.counters[-1].kind != "unit" and not any(cs.marker(m.type).area for m in stack.counters)

    def _stack_ops(self, app: App, stack: _Stack, size: int, step: int, ghost: bool) -> list[_Op]:
        """The blits drawing a stack, from its top counter's corner: recorded once for
        what the stack shows (its pieces, which are immutable values, the zoom, the ghost
        and the selection) and replayed each frame, so a frame costs one ``fblits``."""
        selected = any(p.id == app.selected for p in stack.counters)
        key = (tuple(stack.counters), tuple(stack.chips), size, step, ghost, selected,
               id(self.counter_set(app)), id(app.view))  # fmt: skip
        cache: dict[tuple[object, ...], list[_Op]] = self.__dict__.setdefault("_ops", {})
        found = cache.get(key)
        if found is None:
            rec = _Recorder()
            self._draw_stack(rec, app, stack, size, step, ghost)
            x0, y0 = stack.rect(0, size, step).topleft
            found = [(img, x - x0, y - y0) for img, (x, y) in rec.ops]
            if len(cache) > 4096:  # pieces change all game: keep it bounded
                cache.clear()
            cache[key] = found
        return found

    def _draw_stack(self, surface: _Blitter, app: App, stack: _Stack, size: int, step: int,
                    ghost: bool) -> None:  # fmt: skip
        n = len(stack.counters)
        cs = self.counter_set(app)
        shown = stack.counters[-MAX_SHOWN:]
        top_rect = stack.rect(0, size, step)
        for k, piece in enumerate(shown):
            level = len(shown) - 1 - k
            rect = stack.rect(level, size, step)
            surface.blit(self._shadowed(app, piece, size, ghost), rect.topleft)
        if any(p.id == app.selected for p in stack.counters):
            area = top_rect.union(stack.rect(len(shown) - 1, size, step)).inflate(6, 6)
            token = self._is_token(app, stack.counters[-1]) and n == 1
            if token:
                r = size * art.TOKEN_RADIUS + 4
                box = pygame.Rect(0, 0, 1, 1).inflate(2 * math.ceil(r) + 2, 2 * math.ceil(r) + 2)
                box.center = top_rect.center
                ring = pygame.Surface(box.size, pygame.SRCALPHA)
                pygame.draw.circle(ring, theme.HIGHLIGHT, (top_rect.centerx - box.x, top_rect.centery - box.y), r, 3)
                surface.blit(ring, box.topleft)
            else:
                frame = pygame.Surface(area.size, pygame.SRCALPHA)
                pygame.draw.rect(frame, theme.HIGHLIGHT, frame.get_rect(), 3, border_radius=max(3, size // 8))
                surface.blit(frame, area.topleft)
        top = stack.counters[-1]
        chip_h = max(CHIP_PIXELS, round(size * 0.27))
        words = sorted(self._marker_words(top))
        status = [(cs.marker(w).text, cs.marker(w).colour) for w in words]
        if self.far(size):  # zoomed out: the unit's chips are one badge (finding 17)
            status = _merged(status)
        chip_y = top_rect.bottom - (4 if self.far(size) else chip_h * 2 // 3)  # far: under the symbol
        self._chips(surface, status, top_rect.x - 2, chip_y, chip_h, ghost)
        left = stack.rect(len(shown) - 1, size, step)  # above the whole fanned stack
        self._hex_tags(surface, app, stack.chips, left.x - 2, left.y + 2, size, ghost)
        if n > 1:
            inset = round(size * 0.16) if self._is_token(app, top) else 2
            badge = max(9, round(size * 0.3))
            self._badge(surface, str(n), top_rect.right - inset, top_rect.y + inset, badge, ghost)

    def _draw_hex_markers(self, surface: pygame.Surface, app: App, stack: _Stack, size: int, ghost: bool) -> None:
        """Markers alone in a hex (obstacles, cleared hexes) as small see-through tags,
        one over another at the hex's centre: quieter than units (finding 17)."""
        cs = self.counter_set(app)
        tags = [art.hex_marker(cs.marker(m.type), size) for m in stack.counters[-MAX_CHIPS:]]
        total = sum(t.get_height() - 1 for t in tags)
        y = round(stack.centre[1] - total / 2)
        for tag in tags:
            img = art.ghosted(tag, GHOST_ALPHA) if ghost else tag
            surface.blit(img, (round(stack.centre[0] - tag.get_width() / 2), y))
            y += tag.get_height() - 1
        if len(stack.counters) > MAX_CHIPS:
            badge = max(12, round(size * 0.3))
            self._badge(surface, str(len(stack.counters)), round(stack.centre[0] + size * 0.4),
                        round(stack.centre[1] - total / 2), badge, ghost)  # fmt: skip

    def _hex_tags(self, surface: _Blitter, app: App, markers: list[Piece], x: int, bottom: int, size: int,
                  ghost: bool) -> None:  # fmt: skip
        """The hex's markers over a stack of units, as quiet tags in a row (one merged
        tag "WIRE+1" when zoomed out), their bottom at ``bottom``."""
        if not markers:
            return
        cs = self.counter_set(app)
        specs = [cs.marker(m.type) for m in markers]
        if self.far(size) and len(specs) > 1:
            tags = [art.hex_marker(specs[0], size, f"{specs[0].text}+{len(specs) - 1}")]
        else:
            tags = [art.hex_marker(spec, size) for spec in specs[:MAX_CHIPS]]
        for tag in tags:
            surface.blit(art.ghosted(tag, GHOST_ALPHA) if ghost else tag, (x, bottom - tag.get_height()))
            x += tag.get_width() - 1

    def _shadowed(self, app: App, piece: Piece, size: int, ghost: bool) -> pygame.Surface:
        """The counter's face over its drop shadow, composed once (one blit a counter)."""
        img = self._face(app, piece, size)
        token = self._is_token(app, piece)
        cache: dict[tuple[int, bool], pygame.Surface] = self.__dict__.setdefault("_composed", {})
        key = (id(img), ghost)
        found = cache.get(key)
        if found is None:
            shade = art.shadow(size, token)
            if ghost:
                img, shade = art.ghosted(img, GHOST_ALPHA), art.ghosted(shade, GHOST_ALPHA // 2)
            off = max(1, size // 20)
            found = pygame.Surface((img.get_width() + off, img.get_height() + off), pygame.SRCALPHA)
            found.blit(shade, (off, off))
            found.blit(img, (0, 0))
            if len(cache) > 4096:
                cache.clear()
            cache[key] = found
        return found

    def _chips(self, surface: _Blitter, chips: list[tuple[str, str]], x: int, y: int, height: int,
               ghost: bool) -> None:  # fmt: skip
        if not chips:
            return
        if len(chips) > MAX_CHIPS:
            chips = [*chips[: MAX_CHIPS - 1], (f"+{len(chips) - MAX_CHIPS + 1}", "#303030")]
        for text, colour in chips:
            img = art.chip(text, art.rgb(colour), height)
            if ghost:
                img = art.ghosted(img, GHOST_ALPHA)
            surface.blit(img, (x, y))
            x += img.get_width() - 1

    @staticmethod
    def _badge(surface: _Blitter, text: str, cx: int, cy: int, diameter: int, ghost: bool) -> None:
        r = diameter / 2
        badge = pygame.Surface((diameter + 2, diameter + 2), pygame.SRCALPHA)
        alpha = GHOST_ALPHA if ghost else 255
        pygame.draw.circle(badge, (20, 20, 22, alpha), (r + 1, r + 1), r)
        pygame.draw.circle(badge, (*theme.PANEL_TEXT, alpha), (r + 1, r + 1), r, 1)
        img = art.fit_text(text, theme.PANEL_TEXT, diameter * 0.9, diameter * 0.9)
        img.set_alpha(alpha)
        badge.blit(img, (r + 1 - img.get_width() / 2, r + 2 - img.get_height() / 2))
        surface.blit(badge, (round(cx - r), round(cy - r)))

    def _outline_hex(self, surface: pygame.Surface, app: App, h: Hex) -> None:
        pts = [app.camera.to_screen(x, y) for x, y in app.view.layout.corners(h)]
        pygame.draw.polygon(surface, theme.HIGHLIGHT, pts, 2)

    # --- panels -----------------------------------------------------------------------

    def draw_ui(self, surface: pygame.Surface, app: App) -> None:
        if self.tray_open:
            self._draw_tray(surface, app)
        inspected = self.inspecting()
        if inspected is not None:
            self._draw_inspector(surface, app, inspected)
        if self.menu is not None:
            self._draw_menu(surface, app)
        if self.finder is not None:
            self._draw_finder(surface, app)

    @staticmethod
    def _box(surface: pygame.Surface, rect: pygame.Rect) -> None:
        bg = pygame.Surface(rect.size, pygame.SRCALPHA)
        bg.fill(PANEL_BG)
        surface.blit(bg, rect.topleft)
        pygame.draw.rect(surface, BORDER, rect, 1)

    @staticmethod
    def _text(surface: pygame.Surface, text: str, x: int, y: int, colour: tuple[int, int, int] = theme.PANEL_TEXT,
              bold: bool = False, width: int | None = None, height: int = ROW) -> None:  # fmt: skip
        font = theme.font(TEXT, bold)
        if width is not None and font.size(text)[0] > width:
            while text and font.size(text + "...")[0] > width:
                text = text[:-1]
            text += "..."
        img = font.render(text, True, colour)
        surface.blit(img, (x, y + (height - img.get_height()) // 2))

    def _draw_menu(self, surface: pygame.Surface, app: App) -> None:
        box = self._menu_rect(app)
        if box.w == 0:
            return
        self._box(surface, box)
        self._text(surface, self._menu_title(app), box.x + 10, box.y + 4, theme.PANEL_DIM, width=box.w - 16)
        for rect, item in self.menu_layout(app):
            if rect.collidepoint(app.mouse) and item.enabled:
                pygame.draw.rect(surface, (60, 66, 74), rect)
            colour = theme.PANEL_TEXT if item.enabled else (100, 104, 110)
            self._text(surface, item.label, rect.x + 6, rect.y, colour)

    def _draw_finder(self, surface: pygame.Surface, app: App) -> None:
        assert self.finder is not None
        box = self._finder_rect(app)
        self._box(surface, box)
        prompt = f"find: {self.finder.text}_"
        self._text(surface, prompt, box.x + 10, box.y + 6, theme.HIGHLIGHT, bold=True)
        for k, (rect, piece) in enumerate(self.finder_rows(app)):
            if k == self.finder.index:
                pygame.draw.rect(surface, (60, 66, 74), rect)
            label = f"{self.describe(app, piece)}  {app.board.grid.label(piece.hex)}"
            self._text(surface, label, rect.x + 6, rect.y, width=rect.w - 12)
        if not self.finder_rows(app):
            self._text(surface, "no counter matches", box.x + 10, box.y + 6 + ROW, theme.PANEL_DIM)

    def _draw_inspector(self, surface: pygame.Surface, app: App, h: Hex) -> None:
        board = app.board
        terrain = board.terrain_types[board.terrain[h]].name
        head = f"{board.grid.label(h)}  {terrain}"
        if board.elevation[h]:
            head += f", level {board.elevation[h]}"
        lines = [(head, theme.PANEL_DIM)]
        for p in reversed(app.state.pieces_at(h)):
            lines.append(
                (self.describe(app, p), self.side_rgb(app, p.side) if p.kind == "unit" else theme.PANEL_TEXT)
            )
        font = theme.font(TEXT)
        width = max(font.size(t)[0] for t, _ in lines) + 20
        height = ROW * len(lines) + 8
        x = min(app.mouse[0] + 18, app.camera.width - width - 4)
        y = min(app.mouse[1] + 18, app.camera.height - height - 4)
        rect = pygame.Rect(max(0, x), max(0, y), width, height)
        self._box(surface, rect)
        for k, (text, colour) in enumerate(lines):
            self._text(surface, text, rect.x + 10, rect.y + 4 + ROW * k, colour, bold=k == 0)

    def _draw_tray(self, surface: pygame.Surface, app: App) -> None:
        box = self.tray_rect(app)
        self._box(surface, box)
        cs = self.counter_set(app)
        tabs = self.tray_tabs(app)
        for rect, k in self._tab_layout(app):
            on = k == self.tray_tab
            pygame.draw.rect(surface, (70, 76, 86) if on else (40, 43, 48), rect, border_radius=4)
            name = tabs[k]
            side = cs.sides.get(name)
            colour = art.rgb(side.colour) if side else theme.PANEL_TEXT
            self._text(surface, side.name if side else name, rect.x + 7, rect.y - 2, colour, bold=on)
        for rect, label, placing, note in self.tray_rows(app):
            icon = rect.h - 4
            chosen = self.placing is not None and placing == self.placing
            if chosen or (placing is not None and rect.collidepoint(app.mouse)):
                pygame.draw.rect(surface, (60, 66, 74), rect)
            if placing is not None:
                if placing.kind == "marker":
                    img = art.marker_counter(cs.marker(placing.type), icon)
                else:
                    img = art.unit_counter(cs.unit(placing.type), self.side_rgb(app, placing.side), icon, "")
                surface.blit(img, (rect.x + 2, rect.y + 2))
            empty = placing is not None and placing.kind == "unit" and self._left(app, placing) <= 0
            colour = (110, 114, 120) if empty or placing is None else theme.PANEL_TEXT
            room = rect.w - icon - 60 if note else rect.w - 12
            self._text(surface, label, rect.x + icon + 8, rect.y, colour, width=room, height=rect.h)
            img = theme.font(TEXT).render(note, True, theme.PANEL_DIM)
            surface.blit(img, (rect.right - img.get_width() - 6, rect.y + (rect.h - img.get_height()) // 2))
        hint = "click a counter, then a hex" if self.placing is None else "click a hex; Esc: cancel"
        self._text(surface, hint, box.x + 8, box.bottom - ROW - 2, theme.PANEL_DIM, width=box.w - 16)


def _merged(chips: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A row of chips as one badge: the first one's text and colour, and how many more."""
    if len(chips) < 2:
        return chips
    text, colour = chips[0]
    return [(f"{text}+{len(chips) - 1}", colour)]
