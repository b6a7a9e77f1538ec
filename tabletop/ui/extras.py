"""The rule system's own panels and overlays in the window (issue 12 item 8, E7).

The rule system's ``WindowExtras`` (``tabletop.engine.extras``; its descriptor's
``window``) is asked each time the game changes (an action, undo, a load, the screen
handed to another side, another unit selected), never every frame, and given only what
the side at the screen may know (``seen_by``). What it returns is drawn here, the window
knowing no game by name:

- panels, docked in the right-hand column (one section of the dock, ``layout``, under
  the dice and the selection, above the minimap), never over the map; rows wrap to the
  column's width, nothing is cut; a click on a title folds or unfolds a panel, ``i``
  folds or unfolds them all; a panel with no room left is shown folded;
- one overlay at a time (``j`` steps through them, then off): translucent hex fills by
  style, the fire pictograms (``intense`` a dot, ``steady`` a circled cross,
  ``sporadic`` a ring, as the map's ● ⊕ ○) and short labels, with its legend in the
  column; painted once per view and data, then only blitted;
- with the movement reach overlay on (``c``), the rule system's extra moves of the
  unit (a jet pack's landing hexes) as outlined hexes apart from the reach's shading,
  the reason shown when the pointer is on one.

``show_overlay`` and ``pin_reach`` are the scripted views ``tabletop render`` uses.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pygame

from tabletop.engine.extras import (
    Mark,
    NoExtras,
    Overlay,
    Panel,
    Row,
    WindowExtras,
    overlay_named,
    seen_by,
)
from tabletop.engine.pieces import Piece
from tabletop.hexgrid import Hex

from . import theme
from .app import App, Component
from .board_view import TILE
from .layout import Section
from .overlays import REACH

OVERLAY_KEY = pygame.K_j
FOLD_KEY = pygame.K_i
EXTRAS_PRIORITY = 1  # the dock's order of who gets room first (layout.Section.priority)
SHORTCUTS = [
    ("j", "the rule system's own overlays (fields of fire...) one after another, then off"),
    ("i, click a panel's title", "fold / unfold the rule system's panels (right-hand column)"),
]

MARGIN, PAD = 8, 8  # as the other boxes of the table
WIDTH = 250  # the widest the boxes get (the column may be narrower in a small window)
TEXT, SMALL = 20, 18  # as the other boxes of the table
GAP = 6  # between boxes in the column
BOX_ALPHA = 228
BORDER = (78, 83, 90)
FILL_ALPHA = 110
INK = (20, 20, 20)  # pictograms and labels on the fills
STYLE_COLOURS = {  # Okabe-Ito, as the line-of-sight colours
    "intense": (213, 94, 0),  # vermillion
    "steady": (230, 159, 0),  # orange
    "sporadic": (240, 228, 66),  # yellow
    "good": (0, 158, 115),  # bluish green
    "bad": (204, 121, 167),  # reddish purple
    "info": (86, 180, 233),  # sky blue
}
EMPHASIS = {  # row emphasis -> (colour, bold)
    "plain": (theme.PANEL_TEXT, False),
    "strong": (theme.HIGHLIGHT, True),
    "dim": (theme.PANEL_DIM, False),
    "good": (STYLE_COLOURS["good"], True),
    "bad": (STYLE_COLOURS["bad"], True),
}
EXTRA_EDGE = (204, 121, 167)  # Okabe-Ito reddish purple: extra moves, apart from the reach's blues
EXTRA_FILL = (255, 255, 255, 70)
MAX_TILES = 96  # painted tiles kept, before they are dropped and painted afresh
PICTOGRAM_MIN = 10  # hex size on screen (pixels) below which no pictogram or label is drawn
_HEX_UNIT = [(1.0, 0.0), (0.5, 0.866), (-0.5, 0.866), (-1.0, 0.0), (-0.5, -0.866), (0.5, -0.866)]


def colour_of(style: str) -> tuple[int, int, int]:
    """The fill colour of a mark style (a word of ``STYLES`` or ``#rrggbb``)."""
    return STYLE_COLOURS.get(style) or theme.hex_colour(style)


def wrap(text: str, width: int, size: int, bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``width`` pixels, at spaces, and inside a
    word only when the word alone is wider: every character is kept (``theme.wrap``)."""
    return list(theme.wrap(text, width, size, bold))


def pictogram(surface: pygame.Surface, style: str, centre: tuple[float, float], radius: float) -> None:
    """The map's symbol of a fire intensity: ● intense, ⊕ steady, ○ sporadic (drawn, as
    the table's font has no such glyphs); nothing for other styles."""
    r = max(2, round(radius))
    c = (round(centre[0]), round(centre[1]))
    width = max(1, r // 3)
    if style == "intense":
        pygame.draw.circle(surface, INK, c, r)
    elif style == "steady":
        pygame.draw.circle(surface, INK, c, r, width)
        pygame.draw.line(surface, INK, (c[0] - r, c[1]), (c[0] + r, c[1]), width)
        pygame.draw.line(surface, INK, (c[0], c[1] - r), (c[0], c[1] + r), width)
    elif style == "sporadic":
        pygame.draw.circle(surface, INK, c, r, width)


class ExtrasLayer(Component):
    """The rule system's panels, its overlays (``j``) and its extra moves."""

    shortcuts = SHORTCUTS

    def __init__(self, extras: WindowExtras | None = None) -> None:
        self.given = extras  # else the rule system's, found by the table's rule key
        self._found: tuple[str | None, WindowExtras] | None = None
        self.shown: str | None = None  # the overlay switched on
        self.folded: set[str] = set()  # panel keys folded by the player
        self.reach_pin: str | None = None  # the unit whose extra moves show (else the selected)
        self.panels: tuple[Panel, ...] = ()
        self.overlays: tuple[Overlay, ...] = ()
        self.boxes: dict[str, pygame.Rect] = {}  # box name -> where it was last drawn
        self.titles: dict[str, pygame.Rect] = {}  # panel key -> its title row as last drawn
        self.asked = 0  # how many times the extras were asked (they are asked per change)
        self._key: Hashable = None
        self._failed: str | None = None
        self._extra_key: Hashable = None
        self._extra: dict[Hex, str] = {}
        self._tiles_key: Hashable = None  # the overlay and zoom the tiles were painted at
        self._tiles: dict[tuple[int, int], pygame.Surface | None] = {}
        self._marks: list[Mark] = []

    # --- what the rule system says --------------------------------------------------

    def extras(self, app: App) -> WindowExtras:
        """The rule system's window extras (nothing for free play or a rule system with none)."""
        if self.given is not None:
            return self.given
        if self._found is None or self._found[0] != app.rules:
            self._found = (app.rules, self._load(app))
        return self._found[1]

    def _load(self, app: App) -> WindowExtras:
        from tabletop.games import rule_systems  # the rule systems' registry, read on use

        system = rule_systems().get(app.rules) if app.rules else None
        if system is None or system.window is None:
            return NoExtras()
        try:
            return system.window()
        except Exception as exc:  # a broken plugin never stops the table: say so
            app.say(f"{system.title}: its window extras failed to load: {type(exc).__name__}: {exc}")
            return NoExtras()

    def refresh(self, app: App) -> None:
        """Ask the extras again if the game, the side at the screen or the selection changed."""
        game = app.play
        key = (game.serial, game.epoch, game.head, len(game.entries), game.state.map.version,
               app.at_screen, app.selected, app.rules, tuple(app.humans()))  # fmt: skip
        if key == self._key:
            return
        self._key = key
        extras = self.extras(app)
        seen = seen_by(game, app.at_screen, shared_screen=len(app.humans()) > 1)  # hot-seat
        self.asked += 1
        try:
            self.panels = tuple(extras.panels(seen, app.selected))
            self.overlays = tuple(extras.overlays(seen))
        except Exception as exc:  # a rule system's bug: the table plays on without its extras
            self.panels, self.overlays = (), ()
            self._tell(app, f"the rule system's panels and overlays failed: {type(exc).__name__}: {exc}")

    def _tell(self, app: App, text: str) -> None:
        if text != self._failed:
            self._failed = text
            app.say(text)

    def shown_overlay(self) -> Overlay | None:
        return next((o for o in self.overlays if o.key == self.shown), None)

    # --- scripted views (render, tests) ---------------------------------------------

    def show_overlay(self, app: App, key: str | None) -> Overlay | None:
        """Switch overlay ``key`` on (None: off); LookupError naming the keys there are."""
        self.refresh(app)
        if key is None:
            self.shown = None
            return None
        overlay = overlay_named(self.overlays, key)
        self.shown = key
        return overlay

    def pin_reach(self, unit_id: str | None) -> None:
        """Show the extra moves of ``unit_id`` with the reach overlay (None: the selected unit's)."""
        self.reach_pin = unit_id

    def extra_moves(self, app: App) -> tuple[Piece | None, dict[Hex, str]]:
        """The reach overlay's unit and its extra moves (none while that overlay is off)."""
        unit = self._reach_unit(app) if app.overlays.get(REACH) else None
        if unit is None:
            return None, {}
        key = (unit, app.state.version, id(app.state), app.rules)
        if key != self._extra_key:
            self._extra_key = key
            try:
                self._extra = dict(self.extras(app).extra_moves(app.state, unit))
            except Exception as exc:  # the rules refuse this unit (ValueError), or a plugin's bug
                self._extra = {}
                self._tell(app, f"extra moves of {unit.id}: {exc}")
        return unit, self._extra

    def _reach_unit(self, app: App) -> Piece | None:
        if self.reach_pin is not None:
            try:
                return app.state.piece(self.reach_pin)
            except KeyError:
                self.reach_pin = None
        return app.selected_piece()

    # --- events ---------------------------------------------------------------------

    def handle(self, event: pygame.event.Event, app: App) -> bool:
        if event.type == pygame.KEYDOWN:
            if event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META) or _typing(app):
                return False
            if event.key == OVERLAY_KEY:
                self._next_overlay(app)
                return True
            if event.key == FOLD_KEY:
                self._fold_all(app)
                return True
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for key, rect in self.titles.items():
                if rect.collidepoint(event.pos):
                    self.folded ^= {key}
                    return True
            return self._box_at(event.pos)
        if event.type == pygame.MOUSEMOTION and self._box_at(event.pos):
            app.hover = None  # the hex under a box is hidden: do not report it
        return False

    def _box_at(self, pos: tuple[int, int]) -> bool:
        return any(r.collidepoint(pos) for r in self.boxes.values())

    def _next_overlay(self, app: App) -> None:
        self.refresh(app)
        keys = [o.key for o in self.overlays]
        if not keys:
            self.shown = None
            app.say("this rule system draws no overlays of its own")
            return
        at = keys.index(self.shown) + 1 if self.shown in keys else 0
        self.shown = keys[at] if at < len(keys) else None
        overlay = self.shown_overlay()
        app.say(f"{overlay.title}: on" if overlay is not None else "rule system overlays: off")

    def _fold_all(self, app: App) -> None:
        keys = {p.key for p in self.panels}
        if not keys:
            app.say("this rule system has no panels")
            return
        self.folded = set() if keys <= self.folded else self.folded | keys
        app.say("rule system panels: " + ("folded" if keys <= self.folded else "open"))

    # --- drawing: the map -----------------------------------------------------------

    def update(self, app: App, dt: float) -> None:
        self.refresh(app)

    def draw_under(self, surface: pygame.Surface, app: App) -> None:
        self.refresh(app)
        overlay = self.shown_overlay()
        if overlay is not None:
            self._draw_overlay(surface, app, overlay)
        _, extra = self.extra_moves(app)
        if extra:
            self._draw_extra(surface, app, extra)

    def _draw_overlay(self, surface: pygame.Surface, app: App, overlay: Overlay) -> None:
        """The overlay's fills, pictograms and labels, painted into tiles of the map at
        this zoom as they come into view (as the map's own tiles): a still or panning
        view only blits them; a new zoom or new data paints afresh."""
        cam = app.camera
        scale = cam.scale
        key = (overlay, scale)
        if self._tiles_key != key or len(self._tiles) > MAX_TILES:
            self._tiles.clear()
            self._marks = [m for m in overlay.marks if m.hex in app.view.index]
        self._tiles_key = key  # an equal overlay asked again: compared by identity from now on
        world_tile = TILE / scale
        x0, y0, x1, y1 = cam.visible_world()
        for tx in range(math.floor(x0 / world_tile), math.floor(x1 / world_tile) + 1):
            for ty in range(math.floor(y0 / world_tile), math.floor(y1 / world_tile) + 1):
                if (tx, ty) not in self._tiles:
                    self._tiles[(tx, ty)] = self._paint(app, tx * TILE, ty * TILE, scale)
                tile = self._tiles[(tx, ty)]
                if tile is not None:
                    sx, sy = cam.to_screen(tx * world_tile, ty * world_tile)
                    surface.blit(tile, (round(sx), round(sy)))

    def _paint(self, app: App, ox: float, oy: float, scale: float) -> pygame.Surface | None:
        """One tile whose top-left is world pixel (ox, oy) at ``scale``; None if empty."""
        marks = self._marks
        if not marks:
            return None
        idx = np.fromiter((app.view.index[m.hex] for m in marks), dtype=np.int64, count=len(marks))
        pix = app.view.corners[idx] * scale - (ox, oy)
        mid = app.view.centers[idx] * scale - (ox, oy)
        lo, hi = pix.min(axis=1), pix.max(axis=1)
        margin = scale  # a label may stick out of its hex
        show = np.flatnonzero(
            (hi[:, 0] >= -margin) & (hi[:, 1] >= 0) & (lo[:, 0] <= TILE) & (lo[:, 1] <= TILE + margin)
        )
        if not len(show):
            return None
        tile = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
        font_size = max(10, min(22, round(scale * 0.45)))
        for i in show.tolist():
            mark, centre = marks[i], (mid[i, 0], mid[i, 1])
            pygame.draw.polygon(tile, (*colour_of(mark.style), FILL_ALPHA), pix[i].tolist())
            if scale < PICTOGRAM_MIN:
                continue
            pictogram(tile, mark.style, centre, scale * 0.2)
            if mark.label:
                img = theme.text(mark.label, font_size, INK, True)
                tile.blit(img, (centre[0] + scale * 0.25, centre[1] - img.get_height() // 2))
        return tile

    def _draw_extra(self, surface: pygame.Surface, app: App, extra: Mapping[Hex, str]) -> None:
        """Extra moves: a light fill and a thick blue outline over a dark casing."""
        hexes = [h for h in extra if h in app.view.index]
        corners, _ = _on_screen(app, hexes, surface.get_size())
        width = max(2, round(app.camera.scale * 0.1))
        for pts in corners:
            if pts is None:
                continue
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            box = pygame.Rect(min(xs) - 1, min(ys) - 1, max(xs) - min(xs) + 3, max(ys) - min(ys) + 3)
            tile = pygame.Surface(box.size, pygame.SRCALPHA)
            local = [(x - box.x, y - box.y) for x, y in pts]
            pygame.draw.polygon(tile, EXTRA_FILL, local)
            surface.blit(tile, box)
            pygame.draw.polygon(surface, theme.LOS_CASING, pts, width + 2)
            pygame.draw.polygon(surface, EXTRA_EDGE, pts, width)

    def draw_over(self, surface: pygame.Surface, app: App) -> None:
        unit, extra = self.extra_moves(app)
        if unit is None or app.hover not in extra:
            return
        lines = wrap(f"{unit.id}: {extra[app.hover]}", 380, SMALL)
        imgs = [theme.text(line, SMALL, theme.PANEL_TEXT) for line in lines]
        w = max(i.get_width() for i in imgs) + 2 * PAD
        h = sum(i.get_height() for i in imgs) + 2 * PAD
        x = min(app.mouse[0] + 18, surface.get_width() - w - MARGIN)
        y = min(app.mouse[1] + 18, surface.get_height() - h - MARGIN)
        box = pygame.Rect(max(0, x), max(0, y), w, h)
        _box(surface, box, EXTRA_EDGE)
        for i, img in enumerate(imgs):
            surface.blit(img, (box.x + PAD, box.y + PAD + i * img.get_height()))

    # --- drawing: the column --------------------------------------------------------

    def _width(self, app: App) -> int:
        """The boxes' width: the right column's, at most ``WIDTH``."""
        layout = getattr(app, "layout", None)
        return WIDTH if layout is None else min(WIDTH, layout.right.width - 8)

    def dock(self, app: App) -> list[Section]:
        """One section of the right column holding the boxes (they fold themselves)."""
        self.refresh(app)
        width = self._width(app)
        blocks = self._blocks(app, width)
        if not blocks or width < 4 * PAD:
            return []
        height = sum(b.height(b.fold_key in self.folded) + GAP for b in blocks) - GAP
        # the rule system's own boxes (a model sheet, the odds) get room before the
        # generic selection list: at 1280x800 they were pushed off the column (issue 16)
        return [Section("extras", None, "right", 20, height, priority=EXTRAS_PRIORITY)]

    def draw_ui(self, surface: pygame.Surface, app: App) -> None:
        self.boxes, self.titles = {}, {}
        if any(getattr(c, "help_open", False) for c in app.components):
            return  # the shortcuts list covers the table
        body = app.layout.body("extras")
        if body is None:
            return
        top, bottom = body.top, body.bottom + GAP
        width = self._width(app)
        y = top
        for block in self._blocks(app, width):
            folded = block.fold_key in self.folded
            height = block.height(folded)
            crowded = not folded and block.fold_key is not None and y + height > bottom
            if crowded:
                height = block.height(True)  # no room: shown folded, nothing cut
            if y + height > bottom:
                continue  # a legend with no room: the folded panels below may still fit
            rect = pygame.Rect(body.x, y, width, height)
            self._draw_block(surface, rect, block, folded or crowded, crowded)
            y = rect.bottom + GAP

    def _blocks(self, app: App, width: int = WIDTH) -> list[_Block]:
        """The boxes of the column from top to bottom: the legend of the overlay shown,
        the extra moves' legend, then the panels."""
        out: list[_Block] = []
        overlay = self.shown_overlay()
        if overlay is not None:
            lines = [ln for e in overlay.legend for ln in _legend_lines(e.style, e.text, width)]
            out.append(_Block("overlay", f"{overlay.title}  (j: next)", lines, width=width))
        unit, extra = self.extra_moves(app)
        if unit is not None and extra:
            text = f"{unit.id}: {len(extra)} hexes the rules add; point at one for why"
            out.append(_Block("extra-moves", "Beyond the movement reach", _legend_lines("extra", text, width), width=width))
        for panel in self.panels:
            lines = [ln for row in panel.rows for ln in _row_lines(row, width)]
            out.append(_Block(f"panel:{panel.key}", panel.title, lines, panel.key, len(panel.rows), width))
        return out

    def _draw_block(
        self, surface: pygame.Surface, rect: pygame.Rect, block: _Block, folded: bool, crowded: bool
    ) -> None:
        _box(surface, rect, BORDER)
        self.boxes[block.name] = rect
        x, y = rect.x + PAD, rect.y + PAD
        if block.fold_key is not None:
            self.titles[block.fold_key] = pygame.Rect(rect.x, rect.y, rect.width, PAD + block.title_height())
            _fold_mark(surface, (x + 5, y + 7), folded)
            x += FOLD_INDENT
        for text in block.title_lines():
            surface.blit(theme.text(text, TEXT, theme.PANEL_TEXT, True), (x, y))
            y += _line_height(TEXT, True)
        if folded:
            if block.count:
                hint = "no room: fold another (i)" if crowded else "folded: click to open"
                img = theme.text(f"{block.count} rows, {hint}", SMALL, theme.PANEL_DIM)
                surface.blit(img, (x, y))
            return
        for line in block.lines:
            tx = rect.x + PAD
            if line.swatch is not None:
                _swatch(surface, line.swatch, (tx + 9, y + _line_height(SMALL) // 2 - 1))
            surface.blit(theme.text(line.text, SMALL, line.colour, line.bold), (tx + line.indent, y))
            y += _line_height(SMALL, line.bold)


# --- helpers ------------------------------------------------------------------------------


def _typing(app: App) -> bool:
    """Whether a text box of a part asked after this one is open (the counter finder's
    ``finder``): its letters are not keys then."""
    return any(getattr(c, "finder", None) is not None for c in app.components)


FOLD_INDENT = 16  # a panel's title, after its fold mark
SWATCH_INDENT = 24  # a legend line, after its swatch


@dataclass(frozen=True)
class _Line:
    """One drawn line of a box: its text, colour and weight, and a swatch before it."""

    text: str
    colour: tuple[int, ...] = theme.PANEL_TEXT
    bold: bool = False
    swatch: str | None = None  # a mark style (or "extra") drawn before the text
    indent: int = 0


@dataclass(frozen=True)
class _Block:
    """A box of the column: a title, its wrapped lines, and the key it folds by (None:
    it does not fold; the overlay's legend goes with the overlay)."""

    name: str
    title: str
    lines: list[_Line]
    fold_key: str | None = None
    count: int = 0  # the rows a folded panel holds
    width: int = WIDTH  # the box's width

    def title_lines(self) -> list[str]:
        return wrap(self.title, self.width - 2 * PAD - (FOLD_INDENT if self.fold_key else 0), TEXT, True)

    def title_height(self) -> int:
        return _line_height(TEXT, True) * len(self.title_lines())

    def height(self, folded: bool) -> int:
        body = _line_height(SMALL) if folded else sum(_line_height(SMALL, ln.bold) for ln in self.lines)
        return 2 * PAD + self.title_height() + body


def _line_height(size: int, bold: bool = False) -> int:
    return theme.font(size, bold).get_linesize() + 2


def _row_lines(row: Row, width: int = WIDTH) -> list[_Line]:
    """A panel row wrapped to the column, in its emphasis."""
    colour, bold = EMPHASIS[row.emphasis]
    return [_Line(t, colour, bold) for t in wrap(row.text, width - 2 * PAD, SMALL, bold)]


def _legend_lines(style: str | None, text: str, width: int = WIDTH) -> list[_Line]:
    """A legend entry wrapped beside its swatch (text only, dimmer, without one)."""
    if style is None:
        return [_Line(t, theme.PANEL_DIM) for t in wrap(text, width - 2 * PAD, SMALL)]
    parts = wrap(text, width - 2 * PAD - SWATCH_INDENT, SMALL)
    return [_Line(t, swatch=style if i == 0 else None, indent=SWATCH_INDENT) for i, t in enumerate(parts)]


def _box(surface: pygame.Surface, rect: pygame.Rect, border: tuple[int, int, int]) -> None:
    bg = pygame.Surface(rect.size, pygame.SRCALPHA)
    bg.fill((*theme.PANEL, BOX_ALPHA))
    pygame.draw.rect(bg, border, bg.get_rect(), 1)
    surface.blit(bg, rect)


def _fold_mark(surface: pygame.Surface, centre: tuple[int, int], folded: bool) -> None:
    """A small triangle: pointing right when folded, down when open."""
    x, y = centre
    pts = (
        [(x - 3, y - 5), (x + 4, y), (x - 3, y + 5)]
        if folded
        else [(x - 5, y - 3), (x + 5, y - 3), (x, y + 4)]
    )
    pygame.draw.polygon(surface, theme.PANEL_DIM, pts)


def _swatch(surface: pygame.Surface, style: str, centre: tuple[int, int]) -> None:
    """A small hex of the style's fill (an extra move: the outline) with its pictogram."""
    r = 9
    pts = [(centre[0] + r * dx, centre[1] + r * dy) for dx, dy in _HEX_UNIT]
    if style == "extra":
        pygame.draw.polygon(surface, (214, 214, 200), pts)
        pygame.draw.polygon(surface, EXTRA_EDGE, pts, 3)
        return
    base = (214, 214, 200)  # a plain hex under the translucent fill, as on the map
    fill = colour_of(style)
    mixed = tuple(round(b + (f - b) * FILL_ALPHA / 255) for b, f in zip(base, fill, strict=True))
    pygame.draw.polygon(surface, mixed, pts)
    pygame.draw.polygon(surface, theme.GRID_LINE, pts, 1)
    pictogram(surface, style, centre, 4)


def _on_screen(
    app: App, hexes: Sequence[Hex], size: tuple[int, int]
) -> tuple[list[list[tuple[float, float]] | None], list[tuple[float, float]]]:
    """Each hex's corners on screen (None when off screen) and its centre, in one pass."""
    if not hexes:
        return [], []
    view, cam = app.view, app.camera
    idx = np.fromiter((view.index[h] for h in hexes), dtype=np.int64, count=len(hexes))
    shift = np.array([cam.width / 2 - cam.center[0] * cam.scale, cam.height / 2 - cam.center[1] * cam.scale])
    pix = view.corners[idx] * cam.scale + shift
    mid = view.centers[idx] * cam.scale + shift
    lo, hi = pix.min(axis=1), pix.max(axis=1)
    show = (hi[:, 0] >= 0) & (hi[:, 1] >= 0) & (lo[:, 0] <= size[0]) & (lo[:, 1] <= size[1])
    corners: list[list[tuple[float, float]] | None] = [
        [tuple(p) for p in pts] if s else None for pts, s in zip(pix.tolist(), show.tolist(), strict=True)
    ]
    return corners, [tuple(c) for c in mid.tolist()]
