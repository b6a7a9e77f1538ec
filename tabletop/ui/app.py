"""The table window: the loop, the camera controls, and the components drawn on top.

The app owns what every part of the table shares: the live map state, the camera, the
selection, the hovered hex, the message log and the overlay switches. Everything else
is a component (counters, overlays, panels) with the same small interface, so each can
be built, tested and read on its own:

    handle(event, app) -> bool   # True: the event is used up
    update(app, dt) -> None
    draw_under(surface, app)     # over the map, under the counters (shading)
    draw_counters(surface, app)  # the counters
    draw_over(surface, app)      # over the counters (threads, rings)
    draw_ui(surface, app)        # panels, in screen space
    draw_modal(surface, app)     # a dialog over everything (the game-over report)
    dock(app) -> list[Section]   # the panels it wants docked in the side columns (layout)
    shortcuts: list[tuple[str, str]]   # (keys, what they do), for the help overlay
    owns_keyboard() -> bool      # a text entry is open: every key goes to this part alone
    wake_in(app) -> float | None # seconds until the part needs a frame with no event
                                 # (0: it is animating; None: nothing until an event)

The map is seen only in the free area between the docked side columns (``layout``):
no panel covers it (issue 13 finding 16).

Components are asked in order for events (the first to use one wins) and drawn in
order within each layer. While a component's text entry is open it owns the keyboard:
no other part sees a key (issue 13 finding 6: letters typed into the finder ran as
shortcuts).

The window is drawn only when something may have changed: an event, the game, or a part
asking for a frame (``wake_in``); idle, the loop naps (issue 13 finding 15).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import pygame

from tabletop.atomicfile import write_atomic
from tabletop.engine.actions import Action
from tabletop.engine.freeplay_rules import FreePlayRules
from tabletop.engine.game import Game, IllegalAction, seen_line
from tabletop.engine.los import LosPolicy
from tabletop.engine.movement import MovePolicy
from tabletop.engine.pieces import MapState, Piece
from tabletop.engine.state import GameState
from tabletop.hexgrid import Hex

from . import theme
from .board_view import BoardView
from .camera import Camera
from .layout import SHORTCUTS as DOCK_SHORTCUTS
from .layout import Layout, Section

PAN_PIXELS = 40  # per arrow-key press
ZOOM_STEP = 1.15
WARNING_TEXT = 18  # the warning bar: dark ink on amber, readable over any map
WARNING_INK = (20, 20, 20)
WARNING_BAR = (255, 190, 40)


class Component:
    """A part of the table; every method is optional (these defaults do nothing)."""

    shortcuts: ClassVar[list[tuple[str, str]]] = []  # each component sets its own

    def handle(self, event: pygame.event.Event, app: App) -> bool:
        return False

    def update(self, app: App, dt: float) -> None:
        pass

    def draw_under(self, surface: pygame.Surface, app: App) -> None:
        pass

    def draw_counters(self, surface: pygame.Surface, app: App) -> None:
        pass

    def draw_over(self, surface: pygame.Surface, app: App) -> None:
        pass

    def draw_ui(self, surface: pygame.Surface, app: App) -> None:
        pass

    def draw_modal(self, surface: pygame.Surface, app: App) -> None:
        pass

    def dock(self, app: App) -> list[Section]:
        return []

    def owns_keyboard(self) -> bool:
        return False

    def unsaved(self) -> bool:
        """Whether this part holds work no file has (the editor's map): quitting asks."""
        return False

    def wake_in(self, app: App) -> float | None:
        return None


KEY_EVENTS = frozenset({pygame.KEYDOWN, pygame.KEYUP, pygame.TEXTINPUT, pygame.TEXTEDITING})
IDLE_NAP = 0.02  # seconds the idle loop sleeps between looks at the event queue (see run)
CONFIRM_TEXT = 22
CORE_SHORTCUTS = [
    ("arrows / W A S D, right or middle drag", "pan the map"),
    ("mouse wheel, + / -", "zoom around the cursor (15%-400%)"),
    ("Home", "fit the whole map in the map's area (between the side columns)"),
    ("F11", "full screen on / off"),
    ("F12", "save a screenshot (PNG) in the current folder"),
    ("Shift+T", "a map's background picture: thin terrain colours over it / the picture alone / colours only"),
    ("Esc", "clear the selection / close a menu"),
    ("Ctrl+Q, closing the window", "quit (with unsaved changes: asks first; y / Enter quits, n / Esc stays)"),
    ("Space", "hot-seat hand-off screen: show the table to the side named (issue 12)"),
    *DOCK_SHORTCUTS,
]
HANDOFF_TEXT = 40  # the hand-off screen's line
HANDOFF_BACK = (16, 18, 22)  # the hand-off screen: nothing of the table shows through


@dataclass
class App:
    """Everything the table shows; ``run`` opens the window, ``draw`` works on any surface."""

    state: MapState
    title: str
    los_policy: LosPolicy
    move_policy: MovePolicy
    conditions: frozenset[str] = frozenset()
    rules: str | None = None  # the rule system's key (None: free play)
    size: tuple[int, int] = (1280, 800)
    components: list[Component] = field(default_factory=list)
    selected: str | None = None
    hover: Hex | None = None
    mouse: tuple[int, int] = (0, 0)
    messages: list[str] = field(default_factory=list)
    overlays: dict[str, Any] = field(default_factory=dict)  # switches, and shared overlay data
    counter_scale: float = 1.0
    running: bool = True
    screenshot_dir: Path = Path(".")
    game: Game | None = None  # every change goes through it (free play if not given)
    source: str = ""  # what the table was opened from, for saves
    save_path: Path | None = None  # where Ctrl+S and the autosave write
    seats: dict[str, Any] = field(default_factory=dict)  # side -> Bot playing it (hot-seat: none)
    warning: str = ""  # a problem the player must see (a failed autosave): a bar over the table
    at_screen: str | None = None  # the side whose view is drawn (None: the whole table)
    handoff: str | None = None  # hot-seat: the side the hand-off screen waits for (Space)
    confirm_quit: bool = False  # the "quit with unsaved changes?" box is open
    saved_at: tuple[int, int] | None = None  # (head, entries) last written to any save file
    player_save: Path | None = None  # the player's own save (Ctrl+S, Save As): never the autosave

    def __post_init__(self) -> None:
        if self.game is None:
            self.game = Game(FreePlayRules(), GameState(self.state, turn=1, phase="play"), 0)
        self._seen: tuple[object, ...] = ()
        self._was_secret = False  # the side at the screen saw what the other may not
        self.sync()
        self.view = BoardView(self.state.board)
        if self.view.picture_problem:
            self.say(self.view.picture_problem)  # the terrain alone is drawn, and the player told why
        self.camera = Camera(*self.size)
        self.layout, problem = Layout.remembered()
        if problem is not None:
            self.say(problem)  # a broken settings file: the defaults, and why
        self._place_dock(self.size)
        self._arrange_dock()
        self.fit()
        self._dragging: tuple[int, int] | None = None
        self.fullscreen = False
        self._hover_view: tuple[object, ...] = self._view_key()
        self.mark_saved()  # nothing the player did is lost yet: the table was only opened

    # --- shared helpers for components ----------------------------------------------

    @property
    def board(self) -> Any:
        return self.state.board

    def fit(self) -> None:
        """The whole map in view in the map's free area (between the docked columns)."""
        self.camera.fit(self.view.bounds)

    def _place_dock(self, size: tuple[int, int]) -> None:
        """The dock for a window this size, and the camera's area with it."""
        if self.layout.size != size:
            self.layout.resize(size)
        m = self.layout.map
        area = (m.x, m.y, m.width, m.height)
        if self.camera.area != area:
            self.camera.area = area

    def _arrange_dock(self) -> None:
        """Ask the parts what they dock this frame and place it (a column nobody uses
        gives its room to the map)."""
        self.layout.arrange([s for c in self.components for s in c.dock(self)])
        self._place_dock(self.layout.size)

    def hex_under(self, pos: tuple[int, int]) -> Hex | None:
        """The hex under a screen point, None where the dock covers the window."""
        return self.hex_at_screen(*pos)

    def say(self, text: str) -> None:
        """Add a line to the message log."""
        self.messages.append(text)
        del self.messages[:-200]

    @property
    def play(self) -> Game:
        """The game in play (always set after construction)."""
        assert self.game is not None
        return self.game

    def act(self, action: Action) -> bool:
        """Play an action through the game; says what happened, or why it was refused."""
        try:
            entry = self.play.play(action)
        except IllegalAction as exc:
            self.say(f"not allowed: {exc}")
            return False
        self.sync()
        for line in entry.lines:
            self.say(line)
        if not entry.lines:  # the entry's lines already say what each die decided (finding 14)
            for roll in entry.rolls:
                self.say(roll.text())
        return True

    def edit(self, action: Action) -> bool:
        """A generic change (move, mark, remove...): plain in free play, logged as an
        edit outside the rules in a rule system's game."""
        if self.play.rules.name != FreePlayRules.name:
            action = {**action, "edit": True}
        return self.act(action)

    def sync(self) -> None:
        """Point the table at the game's current state (after play, undo, load), as the
        side at the screen may see it (issue 12 item 2)."""
        self.follow_screen()
        self.state = self.seen_state().map
        self._seen = self._seen_key()
        if self.selected is not None and self.selected not in {p.id for p in self.state.pieces()}:
            self.selected = None

    def _seen_key(self) -> tuple[object, ...]:
        """Changes whenever the game does (played, undone, loaded) or the side at the screen."""
        game = self.play
        return (id(game.state), game.state.map.version, game.head, len(game.entries), self.at_screen)

    def humans(self) -> list[str]:
        """The sides of a two-sided game played at this window (no bot in their seat)."""
        game = self.play
        return [s for s in game.players if s not in self.seats] if game.two_sided else []

    def solitaire_player(self) -> list[str]:
        """The one side of a solitaire game whose rules hide something from it (a
        ``view`` hook: Omaha's face-down Germans), when a person plays it: the window
        then draws that side's view, as it does for each side of a two-sided game."""
        game = self.play
        if game.two_sided or getattr(game.rules, "view", None) is None:
            return []
        return [s for s in game.players if s not in self.seats]

    def screen_side(self) -> str | None:
        """Who sits at the screen now: the one human side; with two, the one to act
        (the last one while the rules or a bot act); None (the whole table) in a game
        with one side or no hidden information to keep, and when bots play every seat."""
        humans = self.humans() or self.solitaire_player()
        if len(humans) <= 1:
            return humans[0] if humans else None
        actor = self.play.actor()
        return actor if actor in humans else (self.at_screen or humans[0])

    def seen_state(self) -> GameState:
        """The state as the side at the screen may know it: what every part draws."""
        side = self.at_screen
        return self.play.state if side is None else self.play.view_state(side)

    def seen_messages(self) -> list[str]:
        """The message log without the lines private to a side not at the screen."""
        side = self.at_screen
        return [x for x in (seen_line(m, side) for m in self.messages) if x is not None]

    def follow_screen(self) -> None:
        """Hand the screen over when the side at it changes; hot-seat (two human sides),
        to a side that may not see everything, the hand-off screen covers the table
        until that player presses Space. Where the rules say when a view is secret (their
        ``handoff`` hook), the screen is covered too when the side keeps it but its view
        turns secret: both players may have been watching what both could see (Devil
        Dogs' Misdirection shows its player the opponent's cards mid-sector)."""
        side = self.screen_side()
        hot_seat = side is not None and len(self.humans()) > 1
        if side == self.at_screen:
            if hot_seat and side is not None and hasattr(self.play.rules, "handoff"):
                secret = self._needs_handoff(side)
                if secret and not self._was_secret:
                    self.handoff = side
                self._was_secret = secret
            return
        self.at_screen = side
        self.selected = None
        self._was_secret = hot_seat and side is not None and self._needs_handoff(side)
        if self._was_secret:
            self.handoff = side

    def _needs_handoff(self, side: str) -> bool:
        """Whether the screen passing to ``side`` must be covered first: the rules'
        optional ``handoff(state, side)`` hook says (a game whose hands are always
        hidden needs it only where a side sees its secret cards), else whenever the
        side's view hides anything."""
        game = self.play
        hook = getattr(game.rules, "handoff", None)
        if hook is not None:
            return bool(hook(game.state, side))
        return game.view_state(side).to_json() != game.state.to_json()

    def hex_at_screen(self, sx: float, sy: float) -> Hex | None:
        """The hex drawn at a screen point; None off the map and where the dock covers
        the window (a click on a side column never reaches a hex under it)."""
        if self.layout.covers((int(sx), int(sy))):
            return None
        return self.view.hex_at_world(*self.camera.to_world(sx, sy))

    def screen_of(self, h: Hex) -> tuple[float, float]:
        return self.camera.to_screen(*self.view.center(h))

    def selected_piece(self) -> Piece | None:
        if self.selected is None:
            return None
        try:
            return self.state.piece(self.selected)
        except KeyError:
            self.selected = None
            return None

    def toggle(self, overlay: str) -> bool:
        """Flip an overlay switch and say so; returns the new setting."""
        on = not self.overlays.get(overlay, False)
        self.overlays[overlay] = on
        self.say(f"{overlay}: {'on' if on else 'off'}")
        return on

    def overlay_component(self) -> Any:
        """The overlays component (for scripted views: render, tests)."""
        from .overlays import Overlays

        return next(c for c in self.components if isinstance(c, Overlays))

    def all_shortcuts(self) -> list[tuple[str, str]]:
        out = list(CORE_SHORTCUTS)
        for c in self.components:
            out.extend(c.shortcuts)
        return out

    # --- events ---------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        """One event: components first, then the camera's own controls."""
        if event.type == pygame.QUIT:
            self.request_quit()
            return
        if self.confirm_quit:
            self._confirm_event(event)
            return
        if self.handoff is not None:
            self._handoff_event(event)
            return
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self.hover = self.hex_under(event.pos)
            self._hover_view = self._view_key()
        owner = self.keyboard_owner()
        if owner is not None and event.type in KEY_EVENTS:
            if not owner.handle(event, self) and _is_quit_key(event):
                self.request_quit()  # quitting always works
            return
        dialog = self.dialog()
        if dialog is not None:  # an open dialog takes every event (quitting always works)
            if not dialog.handle(event, self) and _is_quit_key(event):
                self.request_quit()
            return
        if not self._modal_open():
            line = self.layout.handle(event)
            if line is not None:
                self._place_dock(self.layout.size)
                if line:
                    self.say(line)
                return
        for c in self.components:
            if c.handle(event, self):
                return
        self._camera_controls(event)

    def dialog(self) -> Component | None:
        """The open dialog (a part whose ``open`` is True: the game-over report), or None."""
        return next((c for c in self.components if getattr(c, "open", False) is True), None)

    def _modal_open(self) -> bool:
        """A dialog (the game-over report) is open: the dock takes no clicks or keys."""
        return any(getattr(c, "open", False) is True or getattr(c, "help_open", False) is True for c in self.components)

    def keyboard_owner(self) -> Component | None:
        """The part whose text entry is open (it alone sees the keys), or None."""
        return next((c for c in self.components if c.owns_keyboard()), None)

    def unsaved(self) -> bool:
        """Whether the game holds a position no save file has (played since the last write)."""
        game = self.play
        if any(c.unsaved() for c in self.components):
            return True
        return bool(game.entries) and self.saved_at != (game.head, len(game.entries))

    def mark_saved(self) -> None:
        """The game as it stands has just been written (the autosave, Ctrl+S, Save As)."""
        self.saved_at = (self.play.head, len(self.play.entries))

    def request_quit(self) -> None:
        """Ctrl+Q or closing the window: quit, or first ask when changes are unsaved."""
        if self.unsaved() and pygame.display.get_surface() is not None:
            self.confirm_quit = True
        else:
            self.running = False

    def _confirm_event(self, event: pygame.event.Event) -> None:
        """The quit box takes every event: y / Enter (or Ctrl+Q again) quits, n / Esc stays."""
        if event.type != pygame.KEYDOWN:
            return
        if event.key in (pygame.K_y, pygame.K_RETURN, pygame.K_KP_ENTER) or _is_quit_key(event):
            self.confirm_quit = False
            self.running = False
        elif event.key in (pygame.K_n, pygame.K_ESCAPE):
            self.confirm_quit = False
            self.say("quit cancelled: Ctrl+S saves")

    def _handoff_event(self, event: pygame.event.Event) -> None:
        """The hand-off screen takes every event: Space shows the table, Ctrl+Q quits."""
        if event.type != pygame.KEYDOWN:
            return
        if event.key == pygame.K_SPACE:
            self.handoff = None
        elif _is_quit_key(event):
            self.request_quit()

    def _camera_controls(self, event: pygame.event.Event) -> None:
        cam = self.camera
        on_dock = self.layout.covers(self.mouse)
        if event.type in (pygame.MOUSEWHEEL, pygame.MOUSEBUTTONDOWN) and on_dock:
            return  # the wheel and drags start on the map only, never over a panel
        if event.type == pygame.MOUSEWHEEL:
            factor = ZOOM_STEP ** (event.precise_y if hasattr(event, "precise_y") else event.y)
            cam.zoom_at(factor, *self.mouse)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (2, 3):
            self._dragging = event.pos
        elif event.type == pygame.MOUSEBUTTONUP and event.button in (2, 3):
            self._dragging = None
        elif event.type == pygame.MOUSEMOTION and self._dragging is not None:
            cam.pan(event.pos[0] - self._dragging[0], event.pos[1] - self._dragging[1])
            self._dragging = event.pos
        elif event.type == pygame.VIDEORESIZE:
            cam.resize(event.w, event.h)
        elif event.type == pygame.KEYDOWN:
            self._keys(event)

    def _keys(self, event: pygame.event.Event) -> None:
        cam, key, mods = self.camera, event.key, event.mod
        pans = {
            pygame.K_LEFT: (PAN_PIXELS, 0), pygame.K_a: (PAN_PIXELS, 0),
            pygame.K_RIGHT: (-PAN_PIXELS, 0), pygame.K_d: (-PAN_PIXELS, 0),
            pygame.K_UP: (0, PAN_PIXELS), pygame.K_w: (0, PAN_PIXELS),
            pygame.K_DOWN: (0, -PAN_PIXELS), pygame.K_s: (0, -PAN_PIXELS),
        }  # fmt: skip
        if key in pans and not mods & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            cam.pan(*pans[key])
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            cam.zoom_at(ZOOM_STEP, *cam.area_centre())
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            cam.zoom_at(1 / ZOOM_STEP, *cam.area_centre())
        elif key == pygame.K_HOME:
            self.fit()
        elif key == pygame.K_F11:
            self._toggle_fullscreen()
        elif key == pygame.K_F12:
            self.screenshot()
        elif key == pygame.K_t and mods & pygame.KMOD_SHIFT:
            self.say(self.view.next_tint())
        elif key == pygame.K_ESCAPE:
            self.selected = None
        elif _is_quit_key(event):
            self.request_quit()

    def _toggle_fullscreen(self) -> None:
        if pygame.display.get_surface() is None:
            return
        try:
            pygame.display.toggle_fullscreen()
        except pygame.error as exc:  # a display that has no full screen (found by the monkey test)
            self.say(f"full screen: not available here ({exc})")
            return
        self.fullscreen = not self.fullscreen

    def screenshot(self) -> Path | None:
        """Save what the window shows as a PNG next to the current folder."""
        surface = pygame.display.get_surface()
        if surface is None:
            return None
        from .render import png_bytes  # render draws through App: imported on use

        path = self.screenshot_dir / time.strftime("tabletop-%Y%m%d-%H%M%S.png")
        try:
            write_atomic(path, png_bytes(surface))
        except OSError as exc:  # a full disk or a read-only folder: say so, play on
            self.say(f"screenshot not saved: {exc}")
            return None
        self.say(f"screenshot saved: {path}")
        return path

    # --- drawing --------------------------------------------------------------------

    def _view_key(self) -> tuple[object, ...]:
        cam = self.camera
        return (cam.center, cam.zoom, cam.width, cam.height, cam.area)

    def update(self, dt: float) -> None:
        """The parts' clocks; nothing plays on while the hand-off screen waits."""
        if self._seen != self._seen_key():
            self.sync()  # played, undone or loaded elsewhere: draw the side's view of it
        if self._hover_view != self._view_key():  # the map moved under a still pointer (Home)
            self._hover_view = self._view_key()
            self.hover = self.hex_under(self.mouse)
        if self.handoff is not None or self.confirm_quit:
            return
        for c in self.components:
            c.update(self, dt)

    def draw(self, surface: pygame.Surface) -> None:
        """One frame onto ``surface`` (the window, or an offscreen surface)."""
        if surface.get_size() != (self.camera.width, self.camera.height):
            self.camera.resize(*surface.get_size())
        self._place_dock(surface.get_size())
        if self.handoff is not None:
            self._draw_handoff(surface)
            return
        self._arrange_dock()
        surface.fill(theme.BACKGROUND, self.layout.map)  # the dock paints the rest
        surface.set_clip(self.layout.map)  # the map and what lies on it stay in its area
        self.view.draw(surface, self.camera, self.state)
        for layer in ("draw_under", "draw_counters", "draw_over"):
            if layer == "draw_over":  # region names over the counters, where they cover fewest
                self.view.draw_region_names(surface, self.camera, {p.hex for p in self.state.pieces()})
            for c in self.components:
                getattr(c, layer)(surface, self)
        surface.set_clip(None)
        self.layout.draw(surface)
        for layer in ("draw_ui", "draw_modal"):
            for c in self.components:
                getattr(c, layer)(surface, self)
            if layer == "draw_ui":
                self.layout.draw_tip(surface, self.mouse)
        self._draw_warning(surface)
        if self.confirm_quit:
            self._draw_confirm(surface)

    def _draw_confirm(self, surface: pygame.Surface) -> None:
        """The quit box: one question in the middle of the window, over everything."""
        what = "The map has edits" if any(c.unsaved() for c in self.components) else "The game has changes"
        lines = [f"Quit? {what} no save holds.", "y / Enter: quit    n / Esc: stay"]
        imgs = [
            theme.text(t, CONFIRM_TEXT, theme.PANEL_TEXT if i else theme.HIGHLIGHT, i == 0)
            for i, t in enumerate(lines)
        ]
        width = max(i.get_width() for i in imgs) + 40
        height = sum(i.get_height() + 8 for i in imgs) + 24
        box = pygame.Rect(0, 0, width, height)
        box.center = surface.get_rect().center
        surface.fill(theme.PANEL, box)
        pygame.draw.rect(surface, theme.HIGHLIGHT, box, 2)
        y = box.y + 14
        for img in imgs:
            surface.blit(img, (box.x + 20, y))
            y += img.get_height() + 8

    def _draw_handoff(self, surface: pygame.Surface) -> None:
        """The whole window one colour and one line: nothing of the table shows."""
        surface.fill(HANDOFF_BACK)
        width, height = surface.get_size()
        words = theme.fit(
            f"Pass to {str(self.handoff).upper()} \u2014 press Space when ready",
            width - 32,
            HANDOFF_TEXT,
            True,
        )
        img = theme.text(words, HANDOFF_TEXT, theme.PANEL_TEXT, True)
        surface.blit(img, img.get_rect(center=(width // 2, height // 2)))
        self._draw_warning(surface)

    def _draw_warning(self, surface: pygame.Surface) -> None:
        """``warning`` as one bright bar along the bottom edge, above everything else."""
        if not self.warning:
            return
        width, height = surface.get_size()
        size = WARNING_TEXT
        words = theme.fit(f"! {self.warning}", width - 16, size, True)
        img = theme.text(words, size, WARNING_INK, True)
        bar = pygame.Rect(0, height - img.get_height() - 8, width, img.get_height() + 8)
        surface.fill(WARNING_BAR, bar)
        surface.blit(img, (8, bar.y + 4))

    def wake_in(self) -> float | None:
        """Seconds until some part needs a frame without an event (None: not until one)."""
        if self._seen != self._seen_key() or self._hover_view != self._view_key():
            return 0.0
        if self.handoff is not None or self.confirm_quit:
            return None
        if self.view.pending:  # a new zoom level's tiles are still being painted
            return 0.0
        waits = [w for w in (c.wake_in(self) for c in self.components) if w is not None]
        return min(waits) if waits else None

    def _nap(self, due: float | None) -> list[pygame.event.Event]:
        """Idle: wait for an event, or until a part's clock is due, drawing nothing.
        The wait is short naps between looks at the queue rather than SDL's own wait,
        which polls every millisecond on drivers without a native wait (about 2% of a
        core); a nap of IDLE_NAP costs well under 1% and keeps input within a frame."""
        end = None if due is None else time.perf_counter() + due
        while True:
            events = pygame.event.get()
            if events:
                return events
            left = None if end is None else end - time.perf_counter()
            if left is not None and left <= 0:
                return []
            time.sleep(IDLE_NAP if left is None else min(IDLE_NAP, left))

    def run(
        self, *, fps: int = 60, frames: int | None = None, on_frame: Callable[[App], None] | None = None
    ) -> None:
        """Open the window and play until it is closed (or for ``frames`` frames)."""
        os.environ.setdefault("SDL_WINDOWS_DPI_AWARENESS", "permonitorv2")  # sharp on high-DPI Windows
        pygame.display.init()  # display and fonts only: the table makes no sound (and a machine
        pygame.font.init()  # without a sound card printed ALSA errors at every start)
        screen = pygame.display.set_mode(self.size, pygame.RESIZABLE)
        pygame.display.set_caption(f"tabletop - {self.title}")
        pygame.key.set_repeat(300, 40)
        clock = pygame.time.Clock()
        self.view.progressive = True  # a wheel zoom paints its tiles over several frames
        count = 0
        last = time.perf_counter()
        while self.running:
            events = pygame.event.get()
            if frames is None and not events:  # scripted runs (``frames``) never wait
                due = self.wake_in()
                events = self._nap(due)
                if due is None:
                    last = time.perf_counter()  # no part's clock ran while all were idle
            for event in events:
                self.handle(event)
            now = time.perf_counter()
            self.update(min(now - last, 0.25))
            last = now
            self.draw(screen)
            pygame.display.flip()
            clock.tick(fps)
            count += 1
            if on_frame is not None:
                on_frame(self)
            if frames is not None and count >= frames:
                break
        # Close the window only: fonts and cached text stay valid for whoever runs next
        # in this process (a test, a second table).
        pygame.display.quit()


def _is_quit_key(event: pygame.event.Event) -> bool:
    """Ctrl+Q: quitting works whatever is open."""
    return event.type == pygame.KEYDOWN and event.key == pygame.K_q and bool(event.mod & pygame.KMOD_CTRL)
