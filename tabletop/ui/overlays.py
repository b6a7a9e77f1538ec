"""The table's overlays: line-of-sight threads, viewsheds, movement reach, attack areas
and range rings, each switched by a key and drawn from the engine's answers.

The overlays decide no rule: the thread is ``line_of_sight``'s verdict, the shading is
``viewshed``'s and ``plan_move``'s, the attack area is ``areas.radius`` with
``friends_inside``. What they add is how it looks:

- the thread is thick, over a dark casing, and changes colour where the line becomes
  hindered or blocked (``hindered_at`` / ``blocked_at``, fractions of the segment between
  the two hex centres; an affine camera keeps fractions, so screen and world agree);
- translucent fills (shading, tints, hatching, cost labels) are painted into SRCALPHA
  tiles of the map, as the map itself is: painted once per zoom and data, so a still or
  panning view only blits them; a frame then draws a handful of lines on top. The
  viewshed and the thread's tinted hexes are a fill class per hex (``hexfill``): a new
  viewshed or thread stamps only the hexes whose class changed (issue 19);
- engine answers are cached by what they depend on, ``state.version`` included. A
  viewshed that the engine cannot vectorise (a rule system with whole-line rules) is
  worked out a few milliseconds per frame in ``update`` when it follows the mouse, so the
  window never stalls; ``show_viewshed`` works it out at once.

While a thread is shown, ``app.overlays["ghost-under-los"]`` holds the hexes strictly
between its ends that it crosses: the counters there are drawn see-through.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import Any

import numpy as np
import pygame

from tabletop.engine.areas import blast_rings, corridor, friends_inside, radius, splash
from tabletop.engine.los import Finding, LosQuery, LosResult, Verdict, line_of_sight
from tabletop.engine.movement import Reach, plan_move
from tabletop.engine.pieces import Piece
from tabletop.engine.viewshed import has_fixed_effects, viewshed
from tabletop.hexgrid import DIRECTIONS, Hex, Layout

from . import theme
from .app import App, Component
from .board_view import TILE
from .camera import Camera
from .hexfill import HexFillLayer

# overlay switches in ``app.overlays`` (the names are also what ``App.toggle`` says)
LOS = "line of sight"
VIEWSHED = "viewshed"
REACH = "movement reach"
ATTACK = "attack area"
AREA_KINDS = ("radius", "splash", "blast rings 1/2/3", "autofire corridor")
RING = "range ring"
ALL = (LOS, VIEWSHED, REACH, ATTACK, RING)
GHOST = "ghost-under-los"

MAX_RADIUS = 60
MAX_TILES = 96  # per overlay, before its tiles are dropped and painted afresh
SLICE_SECONDS = 0.008  # viewshed work per frame when it cannot be vectorised

# colours (RGBA for translucent fills)
HIDDEN = (8, 10, 16, 150)  # hexes the viewshed does not see
SEEN_HINDERED = (*theme.LOS_HINDERED, 90)
CROSSED = (255, 255, 255, 70)
CROSSED_HINDER = (*theme.LOS_HINDERED, 120)
CROSSED_BLOCK = (*theme.LOS_BLOCKED, 120)
GRAZED = (245, 245, 245)
REACH_LIGHT = (190, 228, 255)
REACH_DARK = (18, 52, 140)
REACH_ALPHA = 135
REACH_EDGE = (40, 110, 230)
HATCH_DARK = (15, 15, 15, 230)
HATCH_LIGHT = (255, 221, 0, 255)
PATH = theme.HIGHLIGHT
AREA_FILL = (*theme.LOS_BLOCKED, 55)
AREA_EDGE = theme.LOS_BLOCKED
WARN = theme.HIGHLIGHT
RING_EDGE = (245, 245, 245)
CASING = theme.LOS_CASING
STATUS_LINE = 24  # pixels kept free at the very bottom for a status line
LABEL_WIDTH = 520  # the thread's box wraps its longer lines at this many pixels
LEGEND_MARGIN = 8

Pts = list[tuple[float, float]]

SHORTCUTS = [
    ("l", "line-of-sight mode: left-drag from hex to hex; a click clears the thread"),
    ("l, unit selected", "the line from the selected unit to the hovered hex"),
    ("PageUp / PageDown", "raise / lower the level at the line's source"),
    ("Shift+PageUp / PageDown", "raise / lower the level at the line's target"),
    ("v", "viewshed of the selected unit, else of the hovered hex"),
    ("c", "movement reach of the selected unit, path to the hovered hex"),
    ("x", "attack area around the hovered hex; warns of own units in it"),
    ("z", "attack area kind: radius, splash, blast rings 1/2/3, autofire corridor"),
    ("g", "range ring around the selected unit, else the hovered hex"),
    (", / .", "range ring and attack area: radius smaller / larger"),
]


@dataclass
class _Frame:
    """Where world points land on a surface being painted: pixel = world * scale - origin.
    ``drawn`` counts what landed on it, so an empty tile need not be kept."""

    scale: float
    ox: float
    oy: float
    width: int
    height: int
    drawn: int = 0

    def point(self, x: float, y: float) -> tuple[float, float]:
        return (x * self.scale - self.ox, y * self.scale - self.oy)

    def sees(self, p: tuple[float, float], margin: float) -> bool:
        """Whether something within ``margin`` pixels of ``p`` lands on the surface (and count it)."""
        inside = -margin <= p[0] <= self.width + margin and -margin <= p[1] <= self.height + margin
        self.drawn += inside
        return inside


class _Layer:
    """One overlay's translucent drawing, kept as tiles of the map at one zoom (as the map's
    own tiles are): panning paints only the tiles that come into view, a tile with nothing
    on it is not kept, and a change of data or zoom starts afresh."""

    def __init__(self) -> None:
        self.key: Hashable = None
        self.tiles: dict[tuple[int, int], pygame.Surface | None] = {}

    def draw(
        self,
        surface: pygame.Surface,
        camera: Camera,
        key: Hashable,
        paint: Callable[[pygame.Surface, _Frame], None],
    ) -> None:
        """Blit the tiles in view, painting those not kept."""
        scale = camera.scale
        if self.key != (key, scale) or len(self.tiles) > MAX_TILES:
            self.key = (key, scale)
            self.tiles.clear()
        world_tile = TILE / scale
        x0, y0, x1, y1 = camera.visible_world()
        for tx in range(math.floor(x0 / world_tile), math.floor(x1 / world_tile) + 1):
            for ty in range(math.floor(y0 / world_tile), math.floor(y1 / world_tile) + 1):
                if (tx, ty) not in self.tiles:
                    fresh = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
                    frame = _Frame(scale, tx * TILE, ty * TILE, TILE, TILE)
                    paint(fresh, frame)
                    self.tiles[(tx, ty)] = fresh if frame.drawn else None
                tile = self.tiles[(tx, ty)]
                if tile is not None:
                    sx, sy = camera.to_screen(tx * world_tile, ty * world_tile)
                    surface.blit(tile, (round(sx), round(sy)))


@dataclass
class _ViewshedJob:
    """A viewshed being worked out a slice at a time (rule systems with whole-line rules)."""

    key: Hashable
    source: Hex
    query: Callable[[Hex], LosResult]
    todo: Iterator[Hex]
    seen: dict[Hex, Verdict]
    done: int
    total: int


class Overlays(Component):
    """Line of sight, viewshed, movement reach, attack area and range ring overlays."""

    shortcuts = SHORTCUTS

    def __init__(self, *, ring_radius: int = 2) -> None:
        self.ring_radius = ring_radius
        self.source_rise = 0  # levels added to the line's source / target (PageUp/Down)
        self.target_rise = 0
        self._pin: tuple[Hex, Hex] | None = None  # a dragged or scripted thread
        self._drag_from: Hex | None = None
        self._los_key: Hashable = None
        self._los: LosResult | None = None
        self._shooter: tuple[Piece | None, Piece | None] = (None, None)  # the thread's ends' units
        self._vs_pin: Hex | None = None
        self._vs_key: Hashable = None
        self._vs: dict[Hex, Verdict] | None = None
        self._vs_job: _ViewshedJob | None = None
        self._reach_pin: str | None = None
        self._reach_key: Hashable = None
        self._reach: Reach | None = None
        self._attack_key: Hashable = None
        self.area_kind = AREA_KINDS[0]
        self._attack: tuple[dict[Hex, int], list[Piece]] | None = None
        self._layers: dict[str, _Layer] = {}
        self._fills: dict[str, HexFillLayer] = {}  # overlays that are a fill class per hex
        self._memos: dict[str, tuple[Hashable, Any]] = {}
        self._labels: dict[str, tuple[Hashable, pygame.Surface]] = {}
        self._hatch: tuple[float, pygame.Surface] | None = None
        self.legend_rect: pygame.Rect | None = None  # where the legend was last drawn

    # --- scripted views (render, tests) ---------------------------------------------

    def set_los(self, app: App, a: Hex, b: Hex) -> LosResult:
        """Show the thread from ``a`` to ``b`` (LOS mode on) and return its verdict."""
        for h in (a, b):
            if not app.board.grid.contains(h):
                raise ValueError(f"{h} is not on the map")
        if a == b:
            raise ValueError(f"a line of sight needs two different hexes, got {a} twice")
        app.overlays[LOS] = True
        self._pin = (a, b)
        result = self._thread(app)
        assert result is not None
        self._sync_ghost(app, result)
        return result

    def show_reach(self, app: App, unit_id: str) -> Reach | None:
        """Show the movement reach of unit ``unit_id`` (reach overlay on)."""
        try:
            app.state.piece(unit_id)
        except KeyError:
            raise ValueError(f"no piece with id {unit_id!r} on the map") from None
        app.overlays[REACH] = True
        self._reach_pin = unit_id
        return self._current_reach(app)

    def show_viewshed(self, app: App, source: Hex) -> dict[Hex, Verdict]:
        """Show what ``source`` sees (viewshed overlay on), worked out at once."""
        if not app.board.grid.contains(source):
            raise ValueError(f"{source} is not on the map")
        app.overlays[VIEWSHED] = True
        self._vs_pin = source
        seen = self._current_viewshed(app, wait=True)
        assert seen is not None
        return seen

    def clear(self, app: App) -> None:
        """Switch every overlay off and forget the scripted views."""
        for name in ALL:
            app.overlays[name] = False
        self._pin = self._drag_from = None
        self._vs_pin = self._reach_pin = None
        self._vs_job = None
        app.overlays.pop(GHOST, None)

    def wake_in(self, app: App) -> float | None:
        """A viewshed worked out in slices needs the next frame at once (the idle loop
        would otherwise wait for the pointer to move)."""
        return 0.0 if self._vs_job is not None else None

    # --- events ---------------------------------------------------------------------

    def handle(self, event: pygame.event.Event, app: App) -> bool:
        if event.type == pygame.KEYDOWN:
            return self._key(event, app)
        if not app.overlays.get(LOS):
            return False  # left clicks belong to the counters
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            h = app.hex_at_screen(*event.pos)
            self._drag_from = h
            if h is not None:
                self._pin = (h, h)
            return True
        if event.type == pygame.MOUSEMOTION and self._drag_from is not None:
            h = app.hex_at_screen(*event.pos)
            if h is not None:
                self._pin = (self._drag_from, h)
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            start, self._drag_from = self._drag_from, None
            if start is None or self._pin is None or self._pin[0] == self._pin[1]:
                self._pin = None  # a click without a drag clears the thread
            else:
                result = self._thread(app)
                if result is not None:
                    app.say(self._summary(app, result))
            return True
        return False

    def _key(self, event: pygame.event.Event, app: App) -> bool:
        mods = event.mod
        if mods & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META):
            return False  # Ctrl+Q is the app's, Alt+letters the counters'
        key = event.key
        switches = {
            pygame.K_l: LOS,
            pygame.K_v: VIEWSHED,
            pygame.K_c: REACH,
            pygame.K_x: ATTACK,
            pygame.K_g: RING,
        }
        if key in switches:
            name = switches[key]
            if not app.toggle(name):
                self._switched_off(app, name)
            elif name == REACH and self._reach_unit(app) is None:
                app.say("movement reach: select a unit")
            elif name == LOS and app.selected_piece() is None:
                app.say("line of sight: drag from hex to hex, or select a unit and hover")
            elif name in (RING, ATTACK):
                app.say(f"{name}: radius {self.ring_radius} (, and . change it)")
                if name == ATTACK and app.selected_piece() is None:
                    app.say("attack area: select the firing unit to be warned of its own men")
            return True
        if key == pygame.K_z and app.overlays.get(ATTACK):
            self.area_kind = AREA_KINDS[(AREA_KINDS.index(self.area_kind) + 1) % len(AREA_KINDS)]
            app.say(f"attack area: {self.area_kind}")
            return True
        if key in (pygame.K_COMMA, pygame.K_PERIOD) and (app.overlays.get(RING) or app.overlays.get(ATTACK)):
            step = 1 if key == pygame.K_PERIOD else -1
            self.ring_radius = min(MAX_RADIUS, max(0, self.ring_radius + step))
            app.say(f"radius: {self.ring_radius} hex{'es' if self.ring_radius != 1 else ''}")
            return True
        if key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN) and (
            app.overlays.get(LOS) or app.overlays.get(VIEWSHED)
        ):
            step = 1 if key == pygame.K_PAGEUP else -1
            if mods & pygame.KMOD_SHIFT:
                self.target_rise += step
                app.say(f"line of sight: target level {self.target_rise:+d} over its ground")
            else:
                self.source_rise += step
                app.say(f"line of sight: source level {self.source_rise:+d} over its ground")
            return True
        if key == pygame.K_ESCAPE and self._pin is not None:
            self._pin = self._drag_from = None
            return False  # the app clears the selection too
        return False

    def _switched_off(self, app: App, name: str) -> None:
        if name == LOS:
            self._pin = self._drag_from = None
            app.overlays.pop(GHOST, None)
        elif name == VIEWSHED:
            self._vs_pin = None
            self._vs_job = None
        elif name == REACH:
            self._reach_pin = None

    # --- per frame ------------------------------------------------------------------

    def update(self, app: App, dt: float) -> None:
        self._sync_ghost(app, self._thread(app))
        if app.overlays.get(VIEWSHED):
            self._current_viewshed(app, wait=False)
            self._advance_viewshed(app, SLICE_SECONDS)
        if app.overlays.get(ATTACK):
            self._current_attack(app)

    def draw_under(self, surface: pygame.Surface, app: App) -> None:
        if app.overlays.get(VIEWSHED):
            self._draw_viewshed(surface, app)
        if app.overlays.get(REACH):
            self._draw_reach_under(surface, app)
        if app.overlays.get(ATTACK):
            self._draw_attack_under(surface, app)
        if app.overlays.get(RING):
            self._draw_ring(surface, app)
        thread = self._thread(app)
        self._sync_ghost(app, thread)
        if thread is not None:
            self._draw_thread_under(surface, app, thread)

    def draw_over(self, surface: pygame.Surface, app: App) -> None:
        thread = self._thread(app)
        if thread is not None:
            self._draw_thread_over(surface, app, thread)
        if app.overlays.get(REACH):
            self._draw_reach_over(surface, app)
        if app.overlays.get(ATTACK):
            self._draw_attack_over(surface, app)
        if thread is not None:  # the verdict's box last: nothing covers it
            self._draw_thread_label(surface, app, thread, app.screen_of(thread.query.target))

    def draw_ui(self, surface: pygame.Surface, app: App) -> None:
        entries = self._legend_entries(app)
        if not entries:
            self.legend_rect = None
            return
        key = tuple(entries)
        cached = self._labels.get("legend")
        if cached is None or cached[0] != key:
            cached = self._labels["legend"] = (key, _legend(entries))
        img = cached[1]
        self.legend_rect = pygame.Rect(_legend_place(surface, app, img.get_size()), img.get_size())
        surface.blit(img, self.legend_rect)

    # --- line of sight --------------------------------------------------------------

    def _thread(self, app: App) -> LosResult | None:
        """The thread to show now: a dragged or scripted one, else (a unit selected) the
        line from it to the hovered hex; None when there is none."""
        if not app.overlays.get(LOS):
            return None
        selected = _unit_only(app.selected_piece())
        if self._pin is not None:
            a, b = self._pin
            viewer = selected if selected is not None and selected.hex == a else _first_unit(app, a)
        elif selected is not None and app.hover is not None and app.hover != selected.hex:
            a, b, viewer = selected.hex, app.hover, selected
        else:
            return None
        if a == b:
            return None
        target = _target_unit(app, b, viewer)
        src_level = self._level(app, a, viewer, self.source_rise)
        tgt_level = self._level(app, b, target, self.target_rise)
        looker, looked = (None, None) if _viewer_fires(app) else (viewer, target)
        key = (a, b, src_level, tgt_level, looker, looked, app.conditions, app.state.version, id(app.state))
        if key != self._los_key:
            query = LosQuery(a, b, src_level, tgt_level, looker, looked, app.conditions)
            self._los = line_of_sight(app.state, app.los_policy, query)
            self._los_key = key
        self._shooter = (viewer, target)
        return self._los

    def _fire_words(self, app: App) -> tuple[str, tuple[int, int, int]] | None:
        """Whether the unit at the thread's source may fire at the unit at its target,
        as the rules answer it (issue 13 finding 8: a separate line, never the thread's
        colour); None when no fire is in question (no unit at an end, or no enemy)."""
        from .firing import fire_answer, fire_line  # firing draws with this module's helpers

        viewer, target = self._shooter
        if viewer is None or target is None or not viewer.side or target.side in (None, viewer.side):
            return None
        answer = fire_answer(app, viewer, target)
        return None if answer is None else fire_line(answer)

    def _level(self, app: App, h: Hex, piece: Piece | None, rise: int) -> int | None:
        """None (the rule system's own reading of the hex) unless raised or lowered."""
        if rise == 0:
            return None
        return app.los_policy.end_level(app.state, h, piece) + rise

    def _sync_ghost(self, app: App, thread: LosResult | None) -> None:
        """Tell the counters which hexes the thread runs over (its ends excluded: the firer
        and the target stay solid)."""
        if thread is None:
            app.overlays.pop(GHOST, None)
        else:
            under = self._memo("ghost", self._los_key, lambda: set(thread.crossed[1:-1]))
            app.overlays[GHOST] = under

    def _summary(self, app: App, r: LosResult) -> str:
        label = app.board.grid.label
        text = f"LOS {label(r.query.source)} -> {label(r.query.target)}: {r.result}, range {r.range}"
        if r.hindrance_count:
            text += f", {r.hindrance_count} hindrance{'s' if r.hindrance_count != 1 else ''}"
        first = _first_cause(r)
        if first is not None:
            text += f"; {_finding_text(app, first)}"
        return text

    def _draw_thread_under(self, surface: pygame.Surface, app: App, r: LosResult) -> None:
        """Tint the crossed hexes (by what each does to the line) and outline grazed ones."""

        def plan() -> tuple[np.ndarray, list[Hex]]:
            """A class per hex (0 not crossed, 1 crossed, 2 hindering, 3 blocking) and the grazed hexes."""
            blocks = {f.hex for f in r.blocking if f.hex is not None}
            hinders = {f.hex for f in r.hindrances if f.hex is not None}
            index = app.view.index
            classes = np.zeros(len(app.view.hexes), dtype=np.int8)
            for h in r.crossed:
                if h in index:
                    classes[index[h]] = 3 if h in blocks else 2 if h in hinders else 1
            return classes, [g.hex for g in r.grazed if g.hex in index]

        classes, grazed = self._memo("los", self._los_key, plan)
        self._fill_layer("los", (CROSSED, CROSSED_HINDER, CROSSED_BLOCK)).draw(
            surface, app.camera, app.view, classes, self._los_key
        )
        if grazed:  # a few outlines, each on its own see-through patch (the fills stay as they are)
            s = app.camera.scale
            width = max(2, round(s * 0.06))
            shift = np.round(np.array(app.camera.to_screen(0.0, 0.0)))
            for h in grazed:
                pts = app.view.corners[app.view.index[h]] * s + shift
                x0, y0 = np.floor(pts.min(axis=0)).astype(int) - width
                x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + width
                patch = pygame.Surface((int(x1 - x0), int(y1 - y0)), pygame.SRCALPHA)
                pygame.draw.polygon(patch, (*GRAZED, 230), (pts - (x0, y0)).tolist(), width)
                surface.blit(patch, (int(x0), int(y0)))

    def _draw_thread_over(self, surface: pygame.Surface, app: App, r: LosResult) -> None:
        a, b = app.screen_of(r.query.source), app.screen_of(r.query.target)
        width = _thread_width(app)
        cuts = _colour_runs(r)
        # the casing, then each run in its colour from where it starts
        _thick_line(surface, CASING, a, b, width + 4, caps=True)
        for (start, colour), (end, _) in zip(cuts, [*cuts[1:], (1.0, None)], strict=True):
            if end > start:
                _thick_line(surface, colour, _lerp(a, b, start), _lerp(a, b, end), width)  # cut square
        # where it becomes blocked: a ring on the line; the blocking hex: an X
        s = app.camera.scale
        if r.blocked_at is not None:
            p = _lerp(a, b, r.blocked_at)
            pygame.draw.circle(surface, CASING, p, width * 1.6 + 2, 3 + 2)
            pygame.draw.circle(surface, theme.LOS_BLOCKED, p, width * 1.6, 3)
            first = r.blocking[0]
            side = _grazed_side(app, r, first)
            if side is not None:  # only grazed: mark the hexside the line runs along, not the hex
                p, q = side
                _thick_line(surface, CASING, p, q, width + 6, caps=True)
                _thick_line(surface, theme.LOS_BLOCKED, p, q, width + 2, caps=True)
            elif first.hex is not None:
                _cross(surface, app.screen_of(first.hex), max(6.0, s * 0.32), max(3, width - 1))
        # ends: the source a dot, the target a ring in the verdict's colour
        pygame.draw.circle(surface, CASING, a, width + 3)
        pygame.draw.circle(surface, (240, 240, 240), a, width + 1)
        pygame.draw.circle(surface, CASING, b, width * 2 + 3, width + 4)
        pygame.draw.circle(surface, theme.VERDICT_COLOURS[r.result], b, width * 2 + 1, width)

    def _draw_thread_label(
        self, surface: pygame.Surface, app: App, r: LosResult, at: tuple[float, float]
    ) -> None:
        key = (self._los_key, self._shooter, app.play.head, len(app.play.entries))  # the fire line too
        cached = self._labels.get("los")
        if cached is None or cached[0] != key:
            lines: list[tuple[str, tuple[int, int, int]]] = [
                (
                    f"{r.result.upper()}   range {r.range}   hindrances {r.hindrance_count}",
                    theme.VERDICT_COLOURS[r.result],
                )
            ]
            first = _first_cause(r)
            if first is not None:
                for part in _wrap(_finding_text(app, first), LABEL_WIDTH):
                    lines.append((part, theme.PANEL_TEXT))
                lines.append((first.rule, theme.PANEL_DIM))
            if self.source_rise or self.target_rise or app.view.has_elevation:
                lines.append((f"levels {r.source_level} -> {r.target_level}", theme.PANEL_DIM))
            for f in r.modifiers[:2]:
                lines.append((f"{f.cause} ({f.rule})", theme.PANEL_DIM))
            fire = self._fire_words(app)
            if fire is not None:  # a second question, with its own answer and look
                lines.append(("fire (the rules, not the line):", theme.PANEL_DIM))
                text, colour = fire
                lines.extend((part, colour) for part in _wrap(text, LABEL_WIDTH))
            cached = self._labels["los"] = (key, _text_box(lines, theme.VERDICT_COLOURS[r.result]))
        img = cached[1]
        off = _thread_width(app) * 2 + 8
        surface.blit(img, place_near(surface, app, img.get_size(), at, off))

    # --- viewshed -------------------------------------------------------------------

    def _viewshed_source(self, app: App) -> tuple[Hex, Piece | None] | None:
        if self._vs_pin is not None:
            return self._vs_pin, _first_unit(app, self._vs_pin)
        selected = app.selected_piece()
        if selected is not None:
            return selected.hex, _unit_only(selected)
        if app.hover is not None:
            return app.hover, _first_unit(app, app.hover)
        return None

    def _current_viewshed(self, app: App, *, wait: bool) -> dict[Hex, Verdict] | None:
        """The viewshed from the current source, from the cache, at once (when the engine
        can vectorise it, or ``wait``), or None while a sliced job works on it."""
        src = self._viewshed_source(app)
        if src is None:
            self._vs_job = None
            return None
        source, viewer = src
        if _viewer_fires(app):
            viewer = None  # what the hex sees, not where the unit may fire (finding 8)
        level = self._level(app, source, viewer, self.source_rise)
        key = (source, level, viewer, app.conditions, app.state.version, id(app.state))
        if key == self._vs_key:
            return self._vs
        if wait or has_fixed_effects(app.state, app.los_policy):
            self._vs = viewshed(
                app.state,
                app.los_policy,
                source,
                source_level=level,
                viewer=viewer,
                conditions=app.conditions,
            )
            self._vs_key, self._vs_job = key, None
            return self._vs
        if self._vs_job is None or self._vs_job.key != key:
            self._vs_job = self._start_job(app, key, source, level, viewer)
        return None

    def _start_job(
        self, app: App, key: Hashable, source: Hex, level: int | None, viewer: Piece | None
    ) -> _ViewshedJob:
        """The same questions ``viewshed`` asks, one line of sight each, to ask a few per frame."""
        state, policy, conditions = app.state, app.los_policy, app.conditions

        def query(h: Hex) -> LosResult:
            return line_of_sight(state, policy, LosQuery(source, h, level, None, viewer, None, conditions))

        targets = [h for h in app.view.hexes if h != source]
        return _ViewshedJob(key, source, query, iter(targets), {source: "clear"}, 0, len(targets))

    def _advance_viewshed(self, app: App, seconds: float) -> None:
        job = self._vs_job
        if job is None:
            return
        end = time.perf_counter() + seconds
        for h in job.todo:
            result = job.query(h).result
            if result != "blocked":
                job.seen[h] = result
            job.done += 1
            if time.perf_counter() >= end:
                return
        self._vs, self._vs_key, self._vs_job = job.seen, job.key, None

    def _draw_viewshed(self, surface: pygame.Surface, app: App) -> None:
        seen = self._current_viewshed(app, wait=False)
        if seen is None:
            return
        source: Hex = self._vs_key[0]  # type: ignore[index]

        def plan() -> np.ndarray:
            """A class per hex: 0 seen clear, 1 hidden, 2 seen hindered (painted last)."""
            index = app.view.index
            classes = np.ones(len(app.view.hexes), dtype=np.int8)
            classes[[index[h] for h in seen if h in index]] = 0
            classes[[index[h] for h, v in seen.items() if v == "hindered" and h in index]] = 2
            return classes

        classes = self._memo("viewshed", self._vs_key, plan)
        self._fill_layer("viewshed", (HIDDEN, SEEN_HINDERED)).draw(
            surface, app.camera, app.view, classes, self._vs_key
        )
        # the source's outline over the shading, where the tiles put it (one polygon a frame)
        s = app.camera.scale
        shift = np.round(np.array(app.camera.to_screen(0.0, 0.0)))
        pts = (app.view.corners[app.view.index[source]] * s + shift).tolist()
        pygame.draw.polygon(surface, theme.HIGHLIGHT, pts, max(2, round(s * 0.08)))

    # --- movement reach -------------------------------------------------------------

    def _reach_unit(self, app: App) -> Piece | None:
        if self._reach_pin is not None:
            try:
                return app.state.piece(self._reach_pin)
            except KeyError:
                self._reach_pin = None
        return app.selected_piece()

    def _current_reach(self, app: App) -> Reach | None:
        unit = self._reach_unit(app)
        if unit is None:
            return None
        key = (unit, app.state.version, id(app.state), app.play.head, len(app.play.entries))
        if key != self._reach_key:
            self._reach_key = key
            try:
                ruled = _rules_reach(app, unit)
                self._reach = ruled if ruled is not None else plan_move(app.state, app.move_policy, unit)
            except (ValueError, KeyError) as e:  # the rule system refuses this unit
                self._reach = None
                app.say(f"movement reach of {unit.id}: {e}")
        return self._reach

    def _draw_reach_under(self, surface: pygame.Surface, app: App) -> None:
        reach = self._current_reach(app)
        if reach is None:
            return

        def plan() -> tuple[list[Hex], list[tuple[int, int, int, int]], np.ndarray]:
            ends = list(reach.costs)
            top = max(reach.costs.values(), default=0) or 1
            fills = [(*_ramp(reach.costs[h] / top), REACH_ALPHA) for h in ends]
            return ends, fills, _boundary(app, set(reach.costs) | set(reach.passed))

        ends, fills, edges = self._memo("reach", self._reach_key, plan)

        def paint(tile: pygame.Surface, frame: _Frame) -> None:
            s = frame.scale
            for pts, colour in zip(_polygons(app, frame, ends), fills, strict=True):
                if pts is not None:
                    pygame.draw.polygon(tile, colour, pts)
            edge = max(2, round(s * 0.07))
            for p, q in _segments(frame, edges):
                _thick_line(tile, (*REACH_EDGE, 255), p, q, edge, caps=True)
            for pts in _polygons(app, frame, sorted(reach.passed)):
                if pts is not None:
                    pygame.draw.polygon(tile, (*REACH_LIGHT, 200), pts, max(1, edge // 2))
            hatch = self._hatch_stamp(app, s)
            for h in reach.stops:
                x, y = frame.point(*app.view.center(h))
                if frame.sees((x, y), s):
                    tile.blit(hatch, (round(x - hatch.get_width() / 2), round(y - hatch.get_height() / 2)))
            for h in reach.refused:
                c = frame.point(*app.view.center(h))
                if frame.sees(c, s):
                    _no_entry(tile, c, max(5.0, s * 0.3))
            if s >= 22:
                self._cost_labels(tile, frame, app, reach)

        self._layer("reach").draw(surface, app.camera, self._reach_key, paint)

    def _cost_labels(self, tile: pygame.Surface, frame: _Frame, app: App, reach: Reach) -> None:
        """Each end's cost in printed points, low in its hex (clear of label and counter)."""
        s = frame.scale
        f = theme.font(max(13, round(s * 0.42)))
        made: dict[str, pygame.Surface] = {}
        for h in reach.costs:
            x, y = frame.point(*app.view.center(h))
            if not frame.sees((x, y), s):
                continue
            text = f"{reach.points(h):g}"
            img = made.get(text)
            if img is None:
                img = made[text] = _pill(f, text)
            tile.blit(img, (round(x - img.get_width() / 2), round(y + s * 0.52 - img.get_height() / 2)))

    def _draw_reach_over(self, surface: pygame.Surface, app: App) -> None:
        reach = self._current_reach(app)
        goal = app.hover
        if reach is None or goal is None or goal == reach.start:
            return
        if goal not in reach.costs and goal not in reach.refused and goal not in reach.passed:
            return
        pts = [app.screen_of(h) for h in reach.path_to(goal)]
        width = max(3, round(app.camera.scale * 0.09))
        _polyline(surface, CASING, pts, width + 4)
        _polyline(surface, PATH, pts, width)
        pygame.draw.circle(surface, CASING, pts[-1], width * 1.8 + 2)
        pygame.draw.circle(surface, PATH, pts[-1], width * 1.8)
        if goal in reach.costs:
            text = f"costs {reach.points(goal):g} to move here"
            if goal in reach.stops:
                text += f"; must stop: {reach.stops[goal]}"
        elif goal in reach.refused:
            text = f"not an end: {reach.refused[goal]}"
        else:
            text = "may pass through, not end here"
        key = (self._reach_key, goal)
        cached = self._labels.get("reach")
        if cached is None or cached[0] != key:
            cached = self._labels["reach"] = (key, _text_box([(text, theme.PANEL_TEXT)], REACH_EDGE))
        img = cached[1]
        x, y = pts[-1]
        w, h = surface.get_size()
        bx = min(max(0, x + 14), w - img.get_width())
        by = min(max(0, y - 14 - img.get_height()), h - STATUS_LINE - img.get_height())
        surface.blit(img, (bx, by))

    def _hatch_stamp(self, app: App, s: float) -> pygame.Surface:
        """Diagonal hatching clipped to one hex at hex size ``s`` (made once per zoom)."""
        if self._hatch is not None and self._hatch[0] == s:
            return self._hatch[1]
        offs = np.array([app.view.layout.corner_offset(i) for i in range(6)]) * s
        w, h = int(np.ceil(np.ptp(offs[:, 0]))) + 2, int(np.ceil(np.ptp(offs[:, 1]))) + 2
        lines = pygame.Surface((w, h), pygame.SRCALPHA)
        gap = max(6, round(s * 0.28))
        for x in range(-h, w + h, gap):
            pygame.draw.line(lines, HATCH_DARK, (x, 0), (x + h, h), 4)
            pygame.draw.line(lines, HATCH_LIGHT, (x, 0), (x + h, h), 2)
        mask = pygame.Surface((w, h), pygame.SRCALPHA)
        pygame.draw.polygon(mask, (255, 255, 255, 255), (offs + np.array([w / 2, h / 2])).tolist())
        lines.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        pygame.draw.polygon(lines, HATCH_DARK, (offs + np.array([w / 2, h / 2])).tolist(), 2)
        self._hatch = (s, lines)
        return lines

    # --- attack area and range ring -------------------------------------------------

    def _current_attack(self, app: App) -> tuple[Hex, dict[Hex, int], list[Piece]] | None:
        """The area around the hovered hex and the firer's own units in it (said once)."""
        target = app.hover
        if target is None:
            return None
        firer = app.selected_piece()
        key = (target, self.ring_radius, self.area_kind, firer, app.state.version, id(app.state))
        if key != self._attack_key:
            area = self._area(app, target, firer)
            friends: list[Piece] = []
            if firer is not None and firer.side:
                friends = [p for p in friends_inside(app.state, area, firer.side) if p.id != firer.id]
            if friends:
                names = ", ".join(p.id for p in friends)
                app.say(f"this shot may hit your own men: {names}")
            self._attack_key, self._attack = key, (area, friends)
        assert self._attack is not None
        return target, *self._attack

    def _area(self, app: App, target: Hex, firer: Piece | None) -> dict[Hex, int]:
        """The hexes the chosen kind of attack covers (engine.areas; the rule systems'
        figures, e.g. a frag grenade's 1/2/3-inch rings, come from their yaml)."""
        board = app.board
        if self.area_kind == "splash":
            return dict(splash(target, board=board))
        if self.area_kind == "blast rings 1/2/3":
            return dict(blast_rings(target, [1, 2, 3], board=board))
        if self.area_kind == "autofire corridor" and firer is not None and firer.hex != target:
            layout = board.grid.layout(1.0)
            return dict(corridor(firer.hex, target, 3.0, 6.0, layout=layout, board=board))
        return dict(radius(target, self.ring_radius, board=board))

    def _draw_attack_under(self, surface: pygame.Surface, app: App) -> None:
        attack = self._current_attack(app)
        if attack is None:
            return
        _, area, _ = attack
        hexes, edges = self._memo("attack", self._attack_key, lambda: (list(area), _boundary(app, set(area))))

        def paint(tile: pygame.Surface, frame: _Frame) -> None:
            for pts in _polygons(app, frame, hexes):
                if pts is not None:
                    pygame.draw.polygon(tile, AREA_FILL, pts)
            _cased_edges(tile, frame, edges, AREA_EDGE, max(2, round(frame.scale * 0.08)))

        self._layer("attack").draw(surface, app.camera, self._attack_key, paint)

    def _draw_attack_over(self, surface: pygame.Surface, app: App) -> None:
        attack = self._current_attack(app)
        if attack is None:
            return
        target, _, friends = attack
        s = app.camera.scale
        for p in friends:
            c = app.screen_of(p.hex)
            pygame.draw.circle(surface, CASING, c, s * 0.82 + 2, max(4, round(s * 0.1)) + 4)
            pygame.draw.circle(surface, WARN, c, s * 0.82, max(4, round(s * 0.1)))
        if friends:
            key = (self._attack_key, "warn")
            cached = self._labels.get("attack")
            if cached is None or cached[0] != key:
                names = ", ".join(p.id for p in friends)
                box = _text_box([(f"this shot may hit your own men: {names}", WARN)], WARN)
                cached = self._labels["attack"] = (key, box)
            img = cached[1]
            x, y = app.screen_of(target)
            w, h = surface.get_size()
            bx = min(max(0, x - img.get_width() / 2), w - img.get_width())
            by = min(max(0, y + s * (self.ring_radius * 1.5 + 1.2)), h - STATUS_LINE - img.get_height())
            surface.blit(img, (bx, by))

    def _ring_centre(self, app: App) -> Hex | None:
        selected = app.selected_piece()
        return selected.hex if selected is not None else app.hover

    def _draw_ring(self, surface: pygame.Surface, app: App) -> None:
        centre = self._ring_centre(app)
        if centre is None:
            return
        n = self.ring_radius
        key = (centre, n)

        def plan() -> tuple[list[Hex], np.ndarray]:
            rim = [h for h, d in radius(centre, n, board=app.board).items() if d == n]
            return rim, _boundary(app, set(radius(centre, n)))  # the ring runs on past the map's edge

        rim, edges = self._memo("ring", key, plan)

        def paint(tile: pygame.Surface, frame: _Frame) -> None:
            for pts in _polygons(app, frame, rim):
                if pts is not None:
                    pygame.draw.polygon(tile, (*RING_EDGE, 45), pts)
            _cased_edges(tile, frame, edges, RING_EDGE, max(2, round(frame.scale * 0.07)))
            # the radius, written above the ring's top
            x = frame.point(*app.view.center(centre))[0]
            top = float(edges[:, :, 1].min()) * frame.scale - frame.oy
            tag = _pill(theme.font(max(12, round(frame.scale * 0.4))), f"{n}")
            if frame.sees((x, top), tag.get_width() + tag.get_height()):
                tile.blit(tag, (round(x - tag.get_width() / 2), round(top - tag.get_height() - 4)))

        self._layer("ring").draw(surface, app.camera, key, paint)

    # --- legend ---------------------------------------------------------------------

    def _legend_entries(self, app: App) -> list[tuple[str, tuple[int, ...], str]]:
        """(kind of swatch, colour, text) for each active overlay."""
        out: list[tuple[str, tuple[int, ...], str]] = []
        on = app.overlays.get
        if on(LOS):
            out.append(("head", (), "line of sight (l)"))
            out.append(("line", theme.LOS_CLEAR, "clear"))
            out.append(("line", theme.LOS_HINDERED, "hindered from here on"))
            out.append(("line", theme.LOS_BLOCKED, "blocked from here on"))
            out.append(("outline", GRAZED, "grazed: the line runs along its edge"))
            out.append(("cross", theme.LOS_BLOCKED, "the blocking hex (a bar: the hexside it grazes)"))
            if self.source_rise or self.target_rise:
                out.append(
                    (
                        "text",
                        (),
                        f"levels over ground: source {self.source_rise:+d}, target {self.target_rise:+d}",
                    )
                )
        if on(VIEWSHED):
            out.append(("head", (), "viewshed (v)"))
            job = self._vs_job
            if job is not None and self._vs_key != job.key:
                out.append(("text", (), f"working it out... {100 * job.done // max(1, job.total)}%"))
            out.append(("fill", HIDDEN, "not seen"))
            out.append(("fill", SEEN_HINDERED, "seen, hindered"))
        if on(REACH):
            unit = self._reach_unit(app)
            out.append(("head", (), f"movement reach (c){': ' + unit.id if unit else ': select a unit'}"))
            reach = self._current_reach(app) if unit else None
            out.append(("ramp", (), "cost to get there: low to high"))
            if reach is None or reach.stops:
                out.append(("hatch", (), "must stop on entering"))
            if reach is None or reach.refused:
                out.append(("no", theme.LOS_BLOCKED, "reached, but not a legal end"))
            out.append(("line", PATH, "cheapest path to the hovered hex"))
        if on(ATTACK):
            what = f"radius {self.ring_radius}" if self.area_kind == "radius" else self.area_kind
            out.append(("head", (), f"attack area (x, z: kind): {what}"))
            out.append(("fill", AREA_FILL, "the area around the hovered hex"))
            out.append(("ring", WARN, "own unit inside: may be hit"))
        if on(RING):
            out.append(("head", (), f"range ring (g), radius {self.ring_radius}"))
            out.append(("line", RING_EDGE, ", and . change the radius"))
        return out

    # --- caches ---------------------------------------------------------------------

    def _layer(self, name: str) -> _Layer:
        layer = self._layers.get(name)
        if layer is None:
            layer = self._layers[name] = _Layer()
        return layer

    def _fill_layer(self, name: str, fills: tuple[tuple[int, int, int, int], ...]) -> HexFillLayer:
        layer = self._fills.get(name)
        if layer is None:
            layer = self._fills[name] = HexFillLayer(fills)
        return layer

    def _memo(self, name: str, key: Hashable, make: Callable[[], Any]) -> Any:
        """What ``make`` returns, made again only when ``key`` changes."""
        got = self._memos.get(name)
        if got is None or got[0] != key:
            got = self._memos[name] = (key, make())
        return got[1]


# --- helpers ------------------------------------------------------------------------------


def _rules_reach(app: App, unit: Piece) -> Reach | None:
    """The rules' own reach for ``unit`` now (DOG SECTOR phase 5: the AP it has left),
    so the overlay never offers a hex the rules then refuse (issue 13 finding 5); None
    when the rules have no say now (the move policy's whole reach is shown)."""
    hook = getattr(app.play.rules, "unit_reach", None)
    if hook is None:
        return None
    try:
        live = app.play.state.map.piece(unit.id)
    except KeyError:
        return None
    found: Reach | None = hook(app.play.state, live)
    return found


#: the last few hex lists' corners at one zoom: (the list, scale, view corners, known
#: mask, scaled corners, their low and high corners). A layer paints several tiles from
#: one list a frame (issue 19 item 4: a viewshed following the pointer repaints them all).
_SCALED: list[tuple[list[Hex], float, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []


def _scaled(app: App, hexes: list[Hex], scale: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The hexes' corners at ``scale`` and their bounding corners, kept for the list
    object itself (an overlay's plan is not changed once made) and the view's corners."""
    corners = app.view.corners
    for found in _SCALED:
        if found[0] is hexes and found[1] == scale and found[2] is corners:
            return found[3], found[4], found[5], found[6]
    index = app.view.index
    known = np.fromiter((index.get(h, -1) for h in hexes), dtype=np.int64, count=len(hexes))
    pix = corners[np.maximum(known, 0)] * scale
    entry = (hexes, scale, corners, known >= 0, pix, pix.min(axis=1), pix.max(axis=1))
    if len(hexes) > 8:  # a one-hex list made afresh each tile would push the big ones out
        _SCALED.insert(0, entry)
        del _SCALED[6:]
    return entry[3], entry[4], entry[5], entry[6]


def _polygons(app: App, frame: _Frame, hexes: list[Hex]) -> list[Pts | None]:
    """Each hex's corners on the frame, or None when it is off the map or off the frame."""
    if not hexes:
        return []
    on_map, scaled, low, high = _scaled(app, hexes, frame.scale)
    shift = np.array((frame.ox, frame.oy))
    lo, hi = low - shift, high - shift
    show = on_map & (hi[:, 0] >= 0) & (hi[:, 1] >= 0) & (lo[:, 0] <= frame.width) & (lo[:, 1] <= frame.height)
    out: list[Pts | None] = [None] * len(hexes)
    picked = np.flatnonzero(show)
    for i, pts in zip(picked.tolist(), (scaled[picked] - shift).tolist(), strict=True):
        out[i] = pts
    frame.drawn += len(picked)
    return out


def _boundary(app: App, hexes: set[Hex]) -> np.ndarray:
    """The world segments (n, 2 ends, x y) between the hexes of a set and those outside it."""
    layout = app.view.layout
    offs = [layout.corner_offset(i) for i in range(6)]
    sides = _side_corners(app)
    segs = []
    for h in hexes:
        cx, cy = layout.center(h)
        for d, step in enumerate(DIRECTIONS):
            if h + step not in hexes:
                i, j = sides[d]
                segs.append(((cx + offs[i][0], cy + offs[i][1]), (cx + offs[j][0], cy + offs[j][1])))
    return np.array(segs, dtype=float).reshape(-1, 2, 2)


def _segments(frame: _Frame, world: np.ndarray) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """World segments on the frame, leaving out those that miss it."""
    if len(world) == 0:
        return []
    pix = world * frame.scale - (frame.ox, frame.oy)
    lo, hi = pix.min(axis=1), pix.max(axis=1)
    m = 8  # line width
    show = (
        (hi[:, 0] >= -m) & (hi[:, 1] >= -m) & (lo[:, 0] <= frame.width + m) & (lo[:, 1] <= frame.height + m)
    )
    picked = pix[show].tolist()
    frame.drawn += len(picked)
    return [(tuple(p), tuple(q)) for p, q in picked]


def _cased_edges(
    tile: pygame.Surface, frame: _Frame, world: np.ndarray, colour: tuple[int, int, int], width: int
) -> None:
    """An outline over a dark casing."""
    segs = _segments(frame, world)
    for p, q in segs:
        _thick_line(tile, (*CASING, 255), p, q, width + 3, caps=True)
    for p, q in segs:
        _thick_line(tile, (*colour, 255), p, q, width, caps=True)


def _legend_place(surface: pygame.Surface, app: App, size: tuple[int, int]) -> tuple[int, int]:
    """Where the legend goes: bottom-left above the status line, else beside or above the
    boxes other components report as drawn there (a ``boxes`` dict of name -> Rect, as the
    panels keep), so it covers none of them."""
    width, height = surface.get_size()
    taken: dict[str, pygame.Rect] = {}
    for c in app.components:
        boxes = getattr(c, "boxes", None)
        if isinstance(boxes, dict):
            taken.update({k: r for k, r in boxes.items() if isinstance(r, pygame.Rect) and k != "help"})
    bottom = height - STATUS_LINE - 6
    spots = [(LEGEND_MARGIN, bottom)]
    for name in ("log", "legend"):
        if name in taken:
            box = taken[name]
            spots += [(box.right + LEGEND_MARGIN, bottom), (LEGEND_MARGIN, box.top - LEGEND_MARGIN)]
    for x, b in spots:
        rect = pygame.Rect(x, b - size[1], *size)
        if rect.top >= 0 and rect.right <= width and rect.collidelist(list(taken.values())) < 0:
            return rect.topleft
    return (LEGEND_MARGIN, bottom - size[1])


def taken_boxes(app: App) -> list[pygame.Rect]:
    """Where the components' boxes were last drawn (the panels' ``boxes``, the game box's
    ``box``, the overlay legend): a label near the map should cover none of them."""
    out: list[pygame.Rect] = []
    for c in app.components:
        boxes = getattr(c, "boxes", None)
        if isinstance(boxes, dict):
            out.extend(r for k, r in boxes.items() if isinstance(r, pygame.Rect) and k != "help")
        box = getattr(c, "box", None)
        if isinstance(box, pygame.Rect) and box.width:
            out.append(box)
        legend = getattr(c, "legend_rect", None)
        if isinstance(legend, pygame.Rect):
            out.append(legend)
    return out


def place_near(
    surface: pygame.Surface,
    app: App,
    size: tuple[int, int],
    at: tuple[float, float],
    off: float,
    *,
    above: bool = False,
) -> tuple[int, int]:
    """Where a box of ``size`` goes beside the point ``at`` (``off`` pixels away): the
    first corner around it (below first, or above first) inside the window, above the
    status line and clear of the other boxes; else the first inside the window."""
    w, h = surface.get_size()
    bw, bh = size
    xs = (at[0] + off, at[0] - off - bw)
    ys = (at[1] - off - bh, at[1] + off) if above else (at[1] + off, at[1] - off - bh)
    spots = [pygame.Rect(round(x), round(y), bw, bh) for y in ys for x in xs]
    inside = [r for r in spots if r.left >= 0 and r.top >= 0 and r.right <= w and r.bottom <= h - STATUS_LINE]
    taken = taken_boxes(app)
    clear = [r for r in inside if r.collidelist(taken) < 0]
    best = (clear or inside or spots)[0]
    return (max(0, min(w - bw, best.x)), max(0, min(h - STATUS_LINE - bh, best.y)))


def _first_unit(app: App, h: Hex) -> Piece | None:
    units = app.state.units_at(h)
    return units[0] if units else None


def _unit_only(piece: Piece | None) -> Piece | None:
    """A selected piece as a viewer: a unit looks, a marker (smoke, a cleared mine) does
    not, so its hex looks as an empty hex would (the rules refuse a viewer with no side)."""
    return piece if piece is not None and piece.kind == "unit" else None


def _target_unit(app: App, h: Hex, viewer: Piece | None) -> Piece | None:
    """The unit looked at in ``h``: an enemy of the viewer if there is one."""
    units = app.state.units_at(h)
    if viewer is not None and viewer.side:
        enemies = [p for p in units if p.side and p.side != viewer.side]
        if enemies:
            return enemies[0]
    return units[0] if units else None


def _first_cause(r: LosResult) -> Finding | None:
    if r.blocking:
        return r.blocking[0]
    if r.hindrances:
        return r.hindrances[0]
    return None


def _finding_text(app: App, f: Finding) -> str:
    """A finding as ``tabletop los`` words it: where, then the engine's cause (a grazed
    hex says so, with the hexside and why it counts: issue 13 finding 12)."""
    verb = "blocked" if f.severity == "block" else "hindered"
    where = f" at {app.board.grid.label(f.hex)}" if f.hex is not None else ""
    return f"{verb}{where}: {f.cause}"


def _grazed_side(
    app: App, r: LosResult, f: Finding
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The screen ends of the hexside a grazed finding's line runs along, or None (a hex
    crossed, or a corner touched)."""
    if not f.grazed or f.hex is None:
        return None
    g = next((g for g in r.grazed if g.hex == f.hex and g.side is not None), None)
    if g is None or g.side is None:
        return None
    layout = app.view.layout
    i, j = _side_corners(app)[g.side]
    cx, cy = layout.center(f.hex)
    ends = []
    for k in (i, j):
        ox, oy = layout.corner_offset(k)
        ends.append(app.camera.to_screen(cx + ox, cy + oy))
    return ends[0], ends[1]


def _viewer_fires(app: App) -> bool:
    """Whether the rule system's verdict for a viewer is a fire verdict (its rules of
    fire added to sight): then the thread, which shows sight, is asked without one."""
    return bool(getattr(app.los_policy, "viewer_fires", False))


def _wrap(text: str, width: int, size: int = 17) -> list[str]:
    """``text`` cut at spaces into lines no wider than ``width`` pixels."""
    f = theme.font(size)
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if line and f.size(trial)[0] > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return [*lines, line] if line else lines


def _colour_runs(r: LosResult) -> list[tuple[float, tuple[int, int, int]]]:
    """Where each colour of the thread starts, in order along the line."""
    runs: list[tuple[float, tuple[int, int, int]]] = [(0.0, theme.LOS_CLEAR)]
    h, k = r.hindered_at, r.blocked_at
    if h is not None and (k is None or h < k):
        runs.append((float(h), theme.LOS_HINDERED))
    if k is not None:
        runs.append((float(k), theme.LOS_BLOCKED))
    # a run that starts at the very beginning replaces the clear one
    while len(runs) > 1 and runs[1][0] <= 0.0:
        runs.pop(0)
    return runs


def _thread_width(app: App) -> int:
    return int(min(10, max(4, round(app.camera.scale * 0.12))))


def _lerp(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _thick_line(
    surface: pygame.Surface,
    colour: tuple[int, ...],
    p: tuple[float, float],
    q: tuple[float, float],
    width: float,
    *,
    caps: bool = False,
) -> None:
    """A line ``width`` pixels across (measured square to it, unlike ``draw.line``)."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = (dx * dx + dy * dy) ** 0.5
    if n < 1e-9:
        if caps:
            pygame.draw.circle(surface, colour, p, width / 2)
        return
    ox, oy = -dy / n * width / 2, dx / n * width / 2
    pygame.draw.polygon(
        surface,
        colour,
        [(p[0] + ox, p[1] + oy), (q[0] + ox, q[1] + oy), (q[0] - ox, q[1] - oy), (p[0] - ox, p[1] - oy)],
    )
    if caps:
        pygame.draw.circle(surface, colour, p, width / 2)
        pygame.draw.circle(surface, colour, q, width / 2)


def _polyline(
    surface: pygame.Surface, colour: tuple[int, ...], pts: list[tuple[float, float]], width: float
) -> None:
    for p, q in pairwise(pts):
        _thick_line(surface, colour, p, q, width, caps=True)


def _cross(surface: pygame.Surface, c: tuple[float, float], r: float, width: int) -> None:
    """An X over a hex: the blocking hex."""
    x, y = c
    for (ax, ay), (bx, by) in (((x - r, y - r), (x + r, y + r)), ((x - r, y + r), (x + r, y - r))):
        _thick_line(surface, CASING, (ax, ay), (bx, by), width + 4, caps=True)
    for (ax, ay), (bx, by) in (((x - r, y - r), (x + r, y + r)), ((x - r, y + r), (x + r, y - r))):
        _thick_line(surface, theme.LOS_BLOCKED, (ax, ay), (bx, by), width, caps=True)


def _no_entry(surface: pygame.Surface, c: tuple[float, float], r: float) -> None:
    """A circle with a slash: reached, but the move may not end here."""
    width = max(2, round(r * 0.25))
    pygame.draw.circle(surface, (*CASING, 255), c, r + 2, width + 4)
    pygame.draw.circle(surface, (*theme.LOS_BLOCKED, 255), c, r, width)
    d = r * 0.7
    _thick_line(surface, (*CASING, 255), (c[0] - d, c[1] + d), (c[0] + d, c[1] - d), width + 4)
    _thick_line(surface, (*theme.LOS_BLOCKED, 255), (c[0] - d, c[1] + d), (c[0] + d, c[1] - d), width)


def _ramp(t: float) -> tuple[int, int, int]:
    """Light (cheap) to dark (dear)."""
    t = min(1.0, max(0.0, t))
    return tuple(round(a + (b - a) * t) for a, b in zip(REACH_LIGHT, REACH_DARK, strict=True))  # type: ignore[return-value]


@cache
def _corners_facing(layout: Layout) -> dict[int, tuple[int, int]]:
    """For each direction 0-5, the two corners of a hex on the side facing that neighbour."""
    o = layout.center(Hex(0, 0))
    offs = [layout.corner_offset(i) for i in range(6)]
    out = {}
    for d, step in enumerate(DIRECTIONS):
        n = layout.center(step)
        mid = ((n[0] - o[0]) / 2, (n[1] - o[1]) / 2)
        nearest = sorted(range(6), key=lambda i: (offs[i][0] - mid[0]) ** 2 + (offs[i][1] - mid[1]) ** 2)
        out[d] = (nearest[0], nearest[1])
    return out


def _side_corners(app: App) -> dict[int, tuple[int, int]]:
    return _corners_facing(app.view.layout)


def _pill(f: pygame.font.Font, text: str) -> pygame.Surface:
    """Light text on a small dark rounded box: readable on any terrain."""
    img = f.render(text, True, theme.PANEL_TEXT)
    box = pygame.Surface((img.get_width() + 8, img.get_height() + 2), pygame.SRCALPHA)
    pygame.draw.rect(box, (*theme.PANEL, 215), box.get_rect(), border_radius=4)
    box.blit(img, (4, 1))
    return box


def _text_box(lines: list[tuple[str, tuple[int, int, int]]], border: tuple[int, int, int]) -> pygame.Surface:
    """Lines of text on a panel-coloured box with a coloured border."""
    f = theme.font(17)
    imgs = [f.render(text, True, colour) for text, colour in lines]
    w = max(i.get_width() for i in imgs) + 14
    h = sum(i.get_height() + 2 for i in imgs) + 10
    box = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(box, (*theme.PANEL, 230), box.get_rect(), border_radius=5)
    pygame.draw.rect(box, border, box.get_rect(), 2, border_radius=5)
    y = 6
    for img in imgs:
        box.blit(img, (7, y))
        y += img.get_height() + 2
    return box


def _legend(entries: list[tuple[str, tuple[int, ...], str]]) -> pygame.Surface:
    """The legend box: one row per entry, a swatch then the text."""
    f, fb = theme.font(15), theme.font(15, bold=True)
    row, sw = 18, 26
    imgs = [(fb if kind == "head" else f).render(text, True, theme.PANEL_TEXT) for kind, _, text in entries]
    w = (
        max(
            i.get_width() + (0 if k == "head" else sw + 6) for i, (k, _, _) in zip(imgs, entries, strict=True)
        )
        + 16
    )
    h = row * len(entries) + 10
    box = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(box, (*theme.PANEL, 225), box.get_rect(), border_radius=5)
    y = 5
    for img, (kind, colour, _) in zip(imgs, entries, strict=True):
        x = 8
        mid = y + row // 2
        sample = pygame.Rect(x, y + 3, sw, row - 6)
        if kind == "line":
            _thick_line(box, CASING, (x + 1, mid), (x + sw - 1, mid), 8)
            _thick_line(box, colour, (x + 2, mid), (x + sw - 2, mid), 5)
        elif kind == "fill":
            pygame.draw.rect(box, (150, 150, 150), sample)
            fill = pygame.Surface(sample.size, pygame.SRCALPHA)
            fill.fill(colour)
            box.blit(fill, sample.topleft)
        elif kind == "outline":
            pygame.draw.rect(box, (150, 150, 150), sample)
            pygame.draw.rect(box, colour, sample, 2)
        elif kind == "cross":
            _cross(box, sample.center, 5, 2)
        elif kind == "ring":
            pygame.draw.circle(box, colour, sample.center, 7, 3)
        elif kind == "no":
            _no_entry(box, sample.center, 6)
        elif kind == "ramp":
            for i in range(sw):
                pygame.draw.line(box, _ramp(i / (sw - 1)), (x + i, sample.top), (x + i, sample.bottom - 1))
        elif kind == "hatch":
            pygame.draw.rect(box, (150, 150, 150), sample)
            box.set_clip(sample)
            for k in range(-sample.height, sw, 7):
                a = (sample.left + k, sample.top)
                b = (sample.left + k + sample.height, sample.bottom)
                pygame.draw.line(box, HATCH_DARK, a, b, 4)
                pygame.draw.line(box, HATCH_LIGHT, a, b, 2)
            box.set_clip(None)
        tx = x if kind == "head" else x + sw + 6
        box.blit(img, (tx, mid - img.get_height() // 2))
        y += row
    return box
